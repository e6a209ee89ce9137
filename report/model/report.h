/*
 * report.h - the aggregated model behind `iomatrix report` (and parts of
 * `compare`): one or more loaded result sets, their devices told apart by
 * host, cells grouped by workload (everything but the device), computed
 * warnings and summary, the words and numbers of tables.  It renders
 * nothing: the renderers (templates, CSV, JSON) are render/render.h's,
 * the charts charts/chart.h's.
 *
 * Ownership: struct report owns the sets, devices, groups and strings;
 * release with report_release().
 *
 * The model's header, over several files: report_load() and
 * report_release() are load.c's, report_warn() warnings.c's,
 * report_summary_add() summary.c's, the words and numbers of tables
 * table.c's.  load.c calls those files, which include this header for
 * struct report, so no report.c shares its name.
 */
#ifndef IOMATRIX_REPORT_H
#define IOMATRIX_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errlist.h"
#include "resultset/rset.h"
#include "util/sbuf.h"
#include "model/ratio.h"

/* schema_version of report.json (its own format, not a result set's) */
#define REPORT_JSON_SCHEMA_VERSION 2
#define REPORT_COLORS 8
extern const char *const report_colors[REPORT_COLORS];

struct rdev {
	size_t set;                  /* index into report.sets */
	bool imported;               /* its set came from fio/sysbench/csv output */
	const char *name;            /* device name in its set */
	const char *host;            /* fleet sets: the host as given ("all"
					for aggregate cells), else NULL */
	char *display;               /* owned: name, name@host when ambiguous,
					fleet: label, "label #set" when ambiguous */
	char *label;                 /* owned, fleet sets: "host · name" */
	const struct rset_device *info; /* may be NULL */
	int color;                   /* index into report_colors */
	char *model;                 /* owned: a model device's keys (every cell
					of it runs one model: suite/workload.h
					workload_model_target), else NULL;
					host/devident.h tells devices apart by it */
};

struct rentry {
	size_t dev;                  /* index into report.devs */
	const struct rset_cell *cell;
	char *note;                  /* owned, may be NULL: what a reader must know
					about this row ("imported from sysbench") */
};

struct rgroup {
	char *key;                   /* owned: workload identity */
	char *title;                 /* owned: "4K random read, QD1, 1 job" */
	char *words;                 /* owned: "4K random reads" for sentences */
	char *sweep_words;           /* owned: a load sweep's words without its
					loads and target, for the sentences that
					state the target; NULL: no sweep */
	const struct rset_cell *proto;
	struct rentry *e;            /* one per device that ran it, ok or failed */
	size_t n, alloc;
	bool mixed;
};

struct rwarn {
	char *text;                  /* owned, plain text (escape when rendering) */
};

struct report_section; /* section.h: one optional section's hooks */

struct report {
	/* not owned: the optional sections, NULL-terminated, in the order
	 * they are loaded and drawn (section.h); never NULL once loaded */
	const struct report_section *const *sections;
	struct rset *sets;
	size_t nsets;
	struct rdev *devs;
	size_t ndevs;
	struct rgroup *groups;
	size_t ngroups;
	size_t baseline;             /* index into devs */
	char *title;                 /* owned */
	struct rwarn *warns;
	size_t nwarns, warns_alloc;
	char **summary;              /* owned sentences */
	size_t nsummary;
	/* owned, plain text: what must be read before any number (a
	 * rehearsal at --scale, two names for one device), shown at the top
	 * of every format */
	char **alerts;
	size_t nalerts;
	bool rehearsal;              /* a set was run with --scale != 1 */
	/* owned, one per set: what fails verification against its
	 * SHA256SUMS ("changed cells/0001.json"), NULL when intact or when the
	 * set has no SHA256SUMS (written before checksums) */
	char **unverified;
	int *verified;               /* owned, one per set: enum sums_state
					(resultset/sums.h) of its measurement */
	const char *const *set_labels; /* not owned: "old"/"new" per set, or NULL */
	bool set_numbers;            /* a device's display names its set by number
					("hdd@vm#2"): the Method lists the sets so */
	struct ssd_report *ssd;      /* owned: steady state, cliffs (ssd.h) */
	struct qos_report *qos;      /* owned: load sweeps, QoS (qos.h) */
	struct repro_report *repro;   /* owned: the verdicts of reproductions
					(reproduce/repro_section.h) */
	struct lattime_report *lattime; /* owned: latency over time (lattime.h) */
};

/*
 * Load every set (warnings of each set go to stderr via `msgs`), build the
 * devices and groups, compute warnings and load each of `sections` (the
 * NULL-terminated table of optional sections, not copied; NULL: none).
 * Returns 0, or EXIT_USAGE-style 2 with messages in errs (unreadable/empty
 * set, unknown baseline).
 */
int report_load(struct report *r, char **dirs, size_t ndirs,
		const char *baseline, const char *title,
		const struct report_section *const *sections, struct errlist *errs);
/* As report_load() without a baseline or title, naming set i shown[i] in
 * every text (warnings, Method, the CSV's set column) instead of its path
 * (the site: the set's folder in the archive, not the builder's path). */
int report_load_shown(struct report *r, char **dirs, const char *const *shown, size_t ndirs,
		      const struct report_section *const *sections, struct errlist *errs);
/* As report_load(), naming each set's devices "NAME (LABEL)" when two sets
 * share a device name (compare: "old"/"new"); labels is not copied. */
int report_load_labelled(struct report *r, char **dirs, size_t ndirs,
			 const char *const *labels,
			 const struct report_section *const *sections, struct errlist *errs);
void report_release(struct report *r);

/* For the optional sections (section.h): add a warning (formatted;
 * warnings.c), or a summary sentence (takes ownership of s; summary.c). */
void report_warn(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_summary_add(struct report *r, char *s);

/* ---- table.c: the words and numbers of tables ---- */
/* Which metric a group entry has, summed over directions for IOPS/MB/s. */
double rentry_iops(const struct rentry *e);
double rentry_bw(const struct rentry *e);
double rentry_lat(const struct rentry *e);   /* mean latency of all IOs, ns */
/*
 * The one latency definition of every report, history and the site: of
 * all IOs of all repetitions together (rset.h lat_mean_all, lat_p99_all,
 * from summary.lat_ns_merged), never the mean of per-repetition means,
 * which differs when repetitions made different numbers of IOs.  The
 * spread is the per-repetition values', scaled to it (same relative
 * stddev and CI).  report_dir_lat: one direction; out->n 0 when unknown.
 * report_cell_lat: the cell, directions weighted by their IOs (by their
 * IOPS when a summary-only load has no IO counts), spreads in quadrature;
 * in ns.
 */
void report_dir_lat(const struct rset_dir *d, bool p99, struct rset_stat *out);
void report_cell_lat(const struct rset_cell *c, bool p99, struct rset_stat *out);
/*
 * Ratios between devices, by the statistic compare and history use
 * (model/ratio.h): the ratio a/b of IOPS (bw: MB/s) and its 95 %
 * confidence interval from the stored repetitions (each ratio at its own
 * level; table.c says why not Bonferroni).
 */
#define RENTRY_ALPHA 0.05
void rentry_ratio(const struct rentry *a, const struct rentry *b, bool bw,
		  struct ratio_ci *out);
/* The interval of a/b excludes 1 (false when a side ran once): the ratio
 * table leaves such a ratio unmarked. */
bool rentry_differs(const struct rentry *a, const struct rentry *b, bool bw);

/* False when every one of the n keys is shown only when set
 * (method_if_set) and no cell of the report sets any: their Method line
 * says nothing and is left out (table.c). */
bool report_keys_used(const struct report *r, const int *keys, int n);

/* Human words. */
const char *report_pattern_words(enum pattern pattern, bool plural);
/* The pattern a cell's words name: a mix of 0 % reads writes only and one
 * of 100 % reads reads only ("4K random writes", not "random mixed reads
 * and writes, 0% reads"); else its own. */
enum pattern report_cell_pattern(const struct rset_cell *c);
/* The words of cell c's pattern as report_pattern_words() gives them, or,
 * where an importer inferred the pattern (a fio job that names no rw:
 * rset_cell.inferred), its direction and "pattern not recorded" ("writes,
 * pattern not recorded"): never "sequential" for a guess. */
const char *report_cell_words(const struct rset_cell *c, bool plural);

/* ---- table.c: number formatting ---- */
/* 3 significant figures with thousands separators: 48,200  188  0.590 */
void fmt_sig3(double v, char *buf, size_t len);
/* an IOPS figure in a sentence: a count per second has no tenths from 10
 * up ("75", not "75.0"; "1,230", "2.50"); else as fmt_sig3 */
void fmt_iops(double v, char *buf, size_t len);
/* latency unit for a set of ns values: "µs" or "ms" (divisor in *div) */
const char *fmt_lat_unit(const double *ns, size_t n, double *div);
/* "219x", "1.02x", "0.450x" */
void fmt_ratio(double r, char *buf, size_t len);
/* "48,200 ± 1.2 %" when n >= 2 and ci95 > 0, else "48,200"; a CI wider
 * than half the value is not printed (the cell is flagged instead) */
void fmt_stat(double mean, double ci95, int n, double div, char *buf, size_t len);
/* false: --no-ci, fmt_stat() prints plain values */
extern bool fmt_show_ci;
/* size for people, "4K", "1M", "1536" */
void fmt_bs(uint64_t bs, char *buf, size_t len);
/* printf into a new string (caller frees); NULL on OOM */
char *fmt_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
