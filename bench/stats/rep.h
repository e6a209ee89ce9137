/*
 * rep.h - one repetition of one cell, as the runner measured it or as an
 * importer read it from another tool's output: the one structure both
 * fill and the result-set writer (resultset/resultset.h) turns into the
 * cells/NNNN.json "repetitions" and "summary" of results/README.md.
 *
 * What is known differs: the runner knows every IO (REP_EXACT: exact
 * Welford moments, a full histogram and a time series); an importer knows
 * what the other tool printed, flagged bit by bit in `known`.  Unknown
 * values are left out of the JSON rather than written as 0.
 */
#ifndef IOMATRIX_REP_H
#define IOMATRIX_REP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/dir.h"
#include "stats.h"
#include "util/sysload.h"

#define REP_MAX_PCT 32

/* Bits of dir_result.known. */
enum {
	REP_LAT = 1 << 0,       /* lat_mean_ns */
	REP_LAT_RANGE = 1 << 1, /* lat_min_ns and lat_max_ns */
	REP_LAT_SD = 1 << 2,    /* lat_stddev_ns */
	/* measured by the runner: `lat` holds the exact moments of every IO,
	 * `hist` and `series` are complete (the REP_LAT* bits are implied) */
	REP_EXACT = 1 << 3,
};

/* The other kind of latency, when the source measured it too (an import
 * of fio, which prints lat and clat): kept apart, never merged into the
 * cell's own kind.  Reported moments and percentiles only. */
struct lat_other {
	bool present;
	bool have_range, have_sd;
	double min_ns, max_ns, mean_ns, stddev_ns;
	size_t npct;
	double pct_p[REP_MAX_PCT], pct_ns[REP_MAX_PCT];
};

struct dir_result {
	bool present;           /* the direction is part of this repetition */
	unsigned known;         /* REP_* bits */
	uint64_t ios;
	uint64_t bytes;
	double iops, bw_bytes_s;
	struct welford lat;     /* REP_EXACT: completion - submission, ns */
	/* reported moments (importers); with REP_EXACT they come from lat */
	double lat_min_ns, lat_max_ns, lat_mean_ns, lat_stddev_ns;
	uint64_t lat_n;         /* samples behind the reported moments, 0 unknown */
	size_t npct;            /* percentiles the other tool printed */
	double pct_p[REP_MAX_PCT], pct_ns[REP_MAX_PCT];
	struct lat_hist *hist;  /* owned; NULL when none */
	/* lat_kind LAT_RESPONSE: service latency (submit to completion) beside
	 * the response latency above; svc_hist owned, NULL when none */
	struct lat_hist *svc_hist;
	struct welford svc_lat;
	struct series series;   /* REP_EXACT: per-interval time series */
	struct lat_other other; /* the kind that is not rep_result.lat_kind */
};

struct rep_result {
	enum lat_kind lat_kind;   /* what every lat of dir[] holds; the runner:
				   * LAT_TOTAL, at a rate LAT_RESPONSE */
	uint64_t runtime_ns;      /* measured time, ramp excluded; 0 unknown */
	bool have_cpu;            /* cpu_*_pct known */
	bool have_ctx;            /* ctx_* known (runner) */
	double cpu_usr_pct, cpu_sys_pct; /* of one CPU, over the measured time */
	bool have_cpu_per_io;     /* cpu_ns_per_io known (runner) */
	double cpu_ns_per_io;     /* usr+sys of the job threads per IO, from
				   * the start to the end (ramp included in
				   * both); kernel helper threads (io-wq,
				   * SQPOLL) are in cpu_*_pct only */
	const char *cpu_per_io_why; /* static; set when cpu_ns_per_io cannot be
				     * measured (SQPOLL): written as null + why */
	uint64_t ctx_voluntary, ctx_involuntary;
	struct dir_result dir[DIR__COUNT];
	/* the machine around the repetition (runner): load average and CPU
	 * time before and after, and what other work did in between */
	bool have_load;
	struct sysload load_before, load_after;
	struct sysload_delta load;
	char started_at[32], finished_at[32]; /* "" unknown */
	char warning[256];        /* e.g. "drop_caches skipped: not root" */
};

/* Free the histograms and series; the struct may be reused after. */
void rep_result_release(struct rep_result *r);

/* Release the first n repetitions of the array r (NULL: nothing) and free
 * it. */
void rep_results_free(struct rep_result *r, size_t n);

/* Latency of a direction in ns, as known: the exact moments when measured,
 * else the reported ones.  Each returns false when unknown. */
bool dir_lat_mean(const struct dir_result *d, double *out);
bool dir_lat_range(const struct dir_result *d, double *min, double *max);
bool dir_lat_stddev(const struct dir_result *d, double *out);
/* Percentile p: the other tool's own figure when it printed that one, else
 * from the histogram (an empty one gives 0 when measured); false when
 * unknown. */
bool dir_lat_pct(const struct dir_result *d, double p, double *out);

#endif
