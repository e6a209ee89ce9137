/*
 * rset.h - read one result set directory (results/README.md, schema v1)
 * into the model report, compare, history and site share (list reads only
 * manifests, through rset_load_manifest).
 *
 * Reading is defensive: every file is bounded (64 MiB) and its JSON nesting
 * depth checked; a truncated, corrupt or newer-schema cell or manifest
 * becomes a warning naming the file and the rest is read.  Cell files are
 * opened only as cells/NNNN.json built from integer ids (never from a name
 * in the manifest) with O_NOFOLLOW, so a hostile manifest cannot make us
 * read outside the set.
 *
 * Readers get structs, not JSON: every member a reader uses is a field
 * here, filled once at load (the files' trees are freed after it), so a
 * schema change is one edit in this room and the compiler finds every
 * reader.  Ownership: struct rset owns everything it points to; the const
 * char * fields point into rs->strs.  Free with rset_release().
 *
 * The reader is the rset_*.c files: rset_load.c loads a set through
 * rset_manifest.c, rset_json.c, rset_rep.c and rset_obj.c, which include
 * this header (rset_int.h) as rset_pts.c does; so no rset.c shares its
 * name.
 */
#ifndef IOMATRIX_RSET_H
#define IOMATRIX_RSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/dir.h"
#include "util/errlist.h"
#include "suite/cell.h"
#include "stats/ivhist.h"
#include "host/fpkeys.h"
#include "schema.h"

#define RSET_MAX_PCT 32
/* Most cells (and largest cell id) a set may hold (schema.h). */
#define RSET_MAX_CELLS RESULTSET_MAX_ID
/* Warnings kept per set; the rest become "... and N more". */
#define RSET_MAX_WARNINGS 20

/* Summary of one metric over the repetitions (results/README.md STAT). */
struct rset_stat {
	int n;                  /* 0: metric absent */
	double mean, stddev, min, max, cv, ci95;
};

struct rset_dir {
	bool present;
	struct rset_stat iops, bw, lat_mean, lat_p50, lat_p99, lat_max; /* bw in bytes/s, lat in ns */
	/* The report's one mean latency and one p99: of all IOs of all
	 * repetitions together (summary.lat_ns_merged: the exact merge of
	 * the moments and histograms), as the charts' percentile curves.
	 * The IO-weighted mean is the one that meets Little's law with the
	 * mean IOPS (QD = IOPS x mean latency), which a mean of per-
	 * repetition means does not when repetitions differ.  Without a
	 * merged object: lat_mean.mean and lat_p99.mean (one repetition: the
	 * same numbers); NAN when unknown. */
	double lat_mean_all, lat_p99_all;
	size_t npct;            /* merged latency percentiles, ascending p */
	double pct_p[RSET_MAX_PCT], pct_ns[RSET_MAX_PCT];
	double lat_min_ns;      /* merged min, 0 if unknown */
	uint64_t ios, bytes;    /* summed over repetitions */
	/* bandwidth time series of the first repetition (owned) */
	uint64_t series_interval_ns;
	size_t nseries;
	double *series_bw;      /* bytes/s per interval */
	double series_runtime_s; /* the repetition's runtime, which places the
				  * last, partial sample (interval_sample_mid);
				  * 0 unknown */
};

/* ---- flat objects: params, fingerprints, the tool ---- */

enum rset_vtype { RSET_V_NULL, RSET_V_BOOL, RSET_V_NUM, RSET_V_STR, RSET_V_JSON };

/* One value as the file had it.  JSON: an array or object, kept as its
 * compact text for writers (rset_out.h); a reader treats it as opaque. */
struct rset_value {
	enum rset_vtype type;
	bool b;
	double num;
	char *str;              /* owned: STR's string, JSON's text */
};

struct rset_field {
	char *key;              /* owned */
	struct rset_value v;
};

/* A flat object of the set: a host or device fingerprint
 * (host/fpkeys.h), the tool, an imported cell's fio options.  Members in
 * file order. */
struct rset_obj {
	bool present;           /* the file had the object */
	struct rset_field *f;   /* owned */
	size_t n;
};

/* The member key, NULL when absent. */
const struct rset_value *rset_obj_get(const struct rset_obj *o, const char *key);
/* key's string, NULL when absent or not a string. */
const char *rset_obj_str(const struct rset_obj *o, const char *key);
/* key's finite number, else def. */
double rset_obj_num(const struct rset_obj *o, const char *key, double def);
void rset_obj_release(struct rset_obj *o);

/* ---- one repetition, as cellfile.c writes it (results/README.md) ---- */

/* One plateau of the write-cliff fit (stats/plateau.h). */
struct rset_plateau {
	double first_index;     /* first coarse interval; NAN unknown */
	double start_ns;        /* NAN unknown */
	double duration_ns, level_bw_bytes_s, bytes; /* 0 unknown */
};

/* The "cliff" object of a write direction: the plateaus found in the
 * series and the cliff rule's verdict (cellfile.c). */
struct rset_cliff {
	bool present;           /* the direction has a cliff object */
	bool found, head_from_fine;
	double break_ns;        /* 0 unknown */
	double drop_pct;        /* 0 unknown */
	double interval_ns;     /* the series' interval; 1e9 unknown */
	int samples;            /* intervals the fit used; -1 unknown */
	struct rset_plateau *plateaus;   /* owned, in time order */
	size_t nplateaus;
	double *stalls;         /* owned: interval indices, NAN if not a number */
	size_t nstalls;
};

/* A time series: per interval the bytes, IOs and mean latency (NAN
 * where not a number, or where the file has fewer entries than n). */
struct rset_series {
	uint64_t interval_ns;   /* 0: none (or unusable) */
	double *bytes;          /* owned */
	double *ios;            /* owned, NULL when the series has none */
	double *lat_mean_ns;    /* owned, NULL when the series has none */
	size_t n;               /* entries of bytes */
};

/* One bucket of a latency histogram: its low edge and its count. */
struct rset_bucket {
	double lo_ns, count;    /* NAN when the file's entry is not a number */
};

struct rset_rep_dir {
	bool present;           /* the repetition has this direction */
	double iops, bw_bytes_s, lat_mean_ns; /* NAN when absent */
	double ios, bytes;      /* NAN when absent */
	/* the rest of its lat_ns (the cell's latency_kind): NAN when absent;
	 * the percentiles ascending by p, at most RSET_MAX_PCT */
	double lat_min_ns, lat_max_ns, lat_stddev_ns;
	size_t npct;
	double pct_p[RSET_MAX_PCT], pct_ns[RSET_MAX_PCT];
	struct rset_bucket *hist;        /* owned, as stored */
	size_t nhist;
	struct rset_series series;       /* the coarse intervals */
	struct rset_series fine;         /* the fine intervals of the start */
	/* series.hist: one latency histogram per coarse interval (n 0 when
	 * the repetition has none: imports, older sets), whose intervals
	 * add up to hist bucket by bucket (a set where they do not is
	 * refused, naming the cell: histfile.h) */
	struct ivhist hists;
	struct rset_cliff cliff;         /* write direction only */
};

struct rset_rep {
	double runtime_ns;      /* 0 unknown */
	struct rset_rep_dir dir[DIR__COUNT];
};

/* A cell's "steady_state": repetitions run until steady (cell level). */
struct rset_cell_steady {
	bool present, steady;
	double range_found_pct, slope_found_pct; /* NAN unknown */
	int window;             /* 0 unknown */
};

/* The found cliff of a repetition's write direction, NULL when none: a
 * cliff object without two plateaus was judged by the old two-segment
 * rule, which called noise a cliff; such sets make no cliff claim. */
const struct rset_cliff *rset_rep_cliff(const struct rset_rep *r);
void rset_rep_release(struct rset_rep *r);

/* ---- the SNIA PTS files of a device (ptsfile.c writes them) ---- */

/* One tracked variable of steady/DEVICE.json: its value per round. */
struct rset_track {
	char *label;            /* owned, NULL when the file has none */
	double *values;         /* owned, NAN where not a number */
	size_t n;
};

/* steady/DEVICE.json, with the defaults of the rule for what it lacks. */
struct rset_steady {
	bool present;
	char *metric;           /* owned: "iops", "bw_bytes_s", "lat_mean_ns" */
	bool running;           /* status absent or "running": stopped mid-rounds */
	int window, max;        /* the rule: rounds per window, at most (5, 25) */
	double range_pct, slope_pct;  /* the rule's limits (20, 10) */
	int rounds_done, steady_round; /* steady_round 0: never */
	int win_first, win_last;       /* the measurement window, 0 unknown */
	struct rset_track *tracks;     /* owned */
	size_t ntracks;
};

/* One preconditioning pass: its cell's pattern and block size and its
 * first repetition. */
struct rset_pass {
	uint64_t bs;            /* params.bs_bytes, 0 unknown */
	enum pattern pattern;   /* PAT_WRITE when absent or unknown */
	struct rset_rep rep;    /* zeroed when the pass has none */
};

/* precondition/DEVICE.json. */
struct rset_precond {
	bool present;
	bool purged;            /* "purge" is an object (the discard ran) */
	double purge_bytes;     /* 0 unknown */
	struct rset_pass *passes;      /* owned */
	size_t npasses;
};

/*
 * SETDIR/steady/DEV.json and SETDIR/precondition/DEV.json through the
 * bounded reader (resultset_pts_read: only for a device name the suite
 * language allows, never through a link).  1 when read, 0 when there is
 * none (why[0] is 0 when the file is simply absent, the normal case, else
 * it says what is wrong), -1 when out of memory.  Release either way.
 */
int rset_steady_load(const char *setdir, const char *dev, struct rset_steady *s,
		     char *why, size_t whylen);
void rset_steady_release(struct rset_steady *s);
int rset_precond_load(const char *setdir, const char *dev, struct rset_precond *p,
		      char *why, size_t whylen);
void rset_precond_release(struct rset_precond *p);

/* An aggregate fleet cell's "fleet" object (fleetfile.c). */
struct rset_cell_fleet {
	bool present;
	char **hosts;           /* owned: the hosts that ran it (strings only) */
	size_t nhosts;
	double start_skew_ns;   /* 0 unknown */
};

struct sweep_data;

struct rset_cell {
	int id;
	bool ok;                /* status "ok" */
	const char *status;     /* owned by the set (rset.strs) */
	const char *error;      /* NULL when none */
	/* The keys (bit k: key k of suite/keys.h) whose field the file's
	 * params had.  A key the writer did not know (a set from before
	 * it, an import that cannot say it) is absent: cell holds its
	 * default, and a reader that must not pass the default off as
	 * recorded asks rset_cell_recorded().  The key table leaves the
	 * omit_default keys out at their default, so for those "recorded"
	 * is "not at the default".  The params as JSON again:
	 * rset_cell_params_json (rset_out.h). */
	uint64_t recorded;
	/* imports from fio: the job's options (source.fio_options) */
	struct rset_obj fio_options;
	/* The keys (bit k: key k of suite/keys.h) whose value an importer
	 * inferred from the output or assumed (source.inferred_keys: a fio
	 * job that names no rw), and why, by key name.  Readers show such a
	 * value as inferred ("pattern not recorded"), and the workload
	 * identity keeps it apart from a recorded one. */
	uint64_t inferred;
	struct rset_obj inferred_why;
	/* The parameters, once: read by cell_from_json with the key table's
	 * defaults for what the file left out.  Every reader reads them
	 * here.  cell.device is the device's name, "?" when the file has
	 * none or an empty one, and cell.path its path as the cell recorded
	 * it ("" when absent); both and cell.label point into rs->strs or
	 * the label table (util/intern.h), so they live as long as the set.
	 * The set's own list of devices (struct rset_device, by name) holds
	 * what the manifest says of each device: its fingerprint. */
	struct cell cell;
	/* measurements */
	int nreps;
	double runtime_mean_ns, cpu_usr_pct, cpu_sys_pct;
	double cpu_ns_per_io;   /* mean over the repetitions that have it */
	bool have_cpu_per_io;   /* sets from before cpu.ns_per_io: false */
	bool cpu_per_io_sqpoll; /* null under sqthread_poll (ns_per_io_why) */
	/* host_load of the repetitions, judged by sysload_competed(): how
	 * many have CPU numbers, how many of them competed with other work,
	 * and the worst figures (CPUs busy outside iomatrix, steal %) */
	int load_reps, load_competed;
	double load_other_cpus_max, load_steal_pct_max;
	struct rset_dir dir[DIR__COUNT];
	/* Which latency the cell's mean and its percentiles (p50, p99, the
	 * merged curve) hold (latency_kind, results/README.md).  One kind for
	 * both, except in fio imports from before latency_kind: fio's total
	 * mean beside its completion percentiles, which their warning said. */
	enum lat_kind lat_mean_kind, lat_pct_kind;
	/* per repetition, summed over the directions (owned, nrepv values
	 * each; 0 and NULL when the repetitions were not read): what the
	 * ratio intervals of the report (model/ratio.h) are computed on */
	size_t nrepv;
	double *rep_iops, *rep_bw;       /* bw in bytes/s */
	/* the repetitions as stored (owned, nreps of them; NULL after
	 * rset_load_summaries) */
	struct rset_rep *reps;
	struct rset_cell_steady steady;
	char **warnings;        /* owned: the cell's warnings (strings only) */
	size_t nwarnings;
	/* fleet cells: the host as given ("all": the aggregate), NULL
	 * otherwise; the run (session) that measured it, 0 unknown; and an
	 * aggregate cell's "fleet" object: its hosts and start skew */
	const char *host;
	double fleet_session;
	struct rset_cell_fleet fleet;
	/* the load sweep (qosfile.h), NULL when the cell has none; a
	 * malformed one is NULL with sweep_error saying why */
	struct sweep_data *sweep;
	char *sweep_error;
};

/* Whether cell c's file recorded key k (suite/keys.h K_*). */
static inline bool rset_cell_recorded(const struct rset_cell *c, int k)
{
	return c->recorded >> k & 1;
}

struct rset_device {
	const char *name, *path;
	struct rset_obj fp;     /* the fingerprint object (!present: none) */
	int rotational;         /* 1, 0, -1 unknown */
	int virt;               /* 1, 0, -1 unknown */
	uint64_t size_bytes;    /* 0 unknown */
	const char *kind, *model, *fs_type, *block_device;
	const char *virt_kind;  /* "tmpfs", "virtio", ... or NULL */
	const char *loop_backing_file; /* a loop device's file, or NULL */
	/* the whole disk under it (host/fpkeys.h fp_disk_same), NULL or
	 * non-empty each */
	struct fp_disk disk;
};

/* One host of a fleet set (manifest "fleet".hosts, fleetfile.c). */
struct rset_fleet_dev {
	const char *name, *path;
	struct rset_obj fp;
};

struct rset_fleet_host {
	const char *name, *hostname, *version, *git_commit, *status, *error;
	struct rset_obj host, tool;     /* its fingerprints */
	/* its wall clock against the controller's: NAN unknown */
	double wall_offset_s, clock_error_ns, rtt_min_ns;
	struct rset_fleet_dev *devices; /* owned */
	size_t ndevices;
};

/* Names of hosts that were one machine (fleet.same_machine). */
struct rset_names {
	const char **v;         /* owned array; strings owned by the set */
	size_t n;
};

/* fleet.launch: the ranks of mpirun or srun were the hosts (run --mpi). */
struct rset_launch {
	bool present;
	const char *launcher;       /* "mpirun", "srun" */
	const char *implementation; /* "Open MPI v4.1.4"; NULL unknown */
	int ranks, nodes;           /* -1 unknown */
};

struct rset_fleet {
	bool present;
	const char *mode;       /* "survey", "aggregate", NULL unknown */
	struct rset_launch launch;
	struct rset_fleet_host *hosts;  /* owned */
	size_t nhosts;
	struct rset_names *same_machine; /* owned */
	size_t nsame_machine;
};

/* A cell that plan.json lists: what the report names when it is missing. */
struct rset_plan_cell {
	int id;
	const char *label, *pattern, *device; /* NULL when absent */
};

/* An entry of the manifest's cell index ("cells"). */
struct rset_index_entry {
	int id;                 /* -1: not a whole number in 1..RSET_MAX_CELLS */
	const char *status;     /* NULL when absent */
	const char *file;       /* NULL when absent */
};

/* The manifest's "reproduces" (reprofile.h). */
struct rset_reproduces {
	bool present;           /* a well-formed one */
	const char *set, *manifest_sha256, *path;
	double tolerance_pct;   /* 0: none recorded */
};

struct rset {
	char *dir;              /* owned, as given */
	char *shown;            /* owned: how warnings and reports name the
				 * set: dir, or the name its loader gave
				 * (rset_load_shown; the site: its folder in
				 * the archive, not the builder's path) */
	bool have_manifest, have_plan;
	double schema_version;  /* the manifest's, 1 when absent */
	const char *status;     /* "complete", "interrupted", ..., "unknown" */
	bool status_given;      /* the manifest has a status string */
	const char *started_at, *finished_at;
	const char *suite_name, *suite_title, *suite_desc, *suite_sha256, *suite_file;
	const char *source_kind;   /* "iomatrix", "fio", "synthetic", ... */
	const char *hostname;      /* "unknown" when absent */
	struct rset_obj host, tool, source; /* !present when absent */
	const char **command;      /* the manifest's command line (owned array) */
	size_t ncommand;
	struct rset_fleet fleet;
	struct rset_reproduces reproduces;
	struct rset_plan_cell *plan_cells; /* owned, from plan.json */
	size_t nplan_cells;
	double scale;
	int cells_total;        /* from the manifest or plan, else ncells */
	/* the manifest's cells_total as written: -1 absent, -2 not a whole
	 * number in 0..RSET_MAX_CELLS */
	int manifest_cells_total;
	struct rset_index_entry *index; /* owned: the manifest's cell index */
	size_t nindex;
	struct rset_device *devices;
	size_t ndevices;
	struct rset_cell *cells;   /* sorted by id */
	size_t ncells;
	size_t ncells_failed;
	bool partial;           /* interrupted/running/failed or cells missing */
	struct errlist warnings;   /* "file: problem; what was done" */
	char **strs;            /* owned: the strings the const char * fields
				 * above point to */
	size_t nstrs, astrs;
};

/*
 * Load dir.  Returns 0 (possibly with warnings in rs->warnings), or -1 with
 * a message in errs when nothing usable is there: not a directory, or no
 * readable cell at all (the caller exits 2).  rs must be released either way.
 */
int rset_load(const char *dir, struct rset *rs, struct errlist *errs);
/* As rset_load, naming the set `shown` in its warnings (rs->shown); the
 * errors in errs, for whoever loads it, still name dir. */
int rset_load_shown(const char *dir, const char *shown, struct rset *rs,
		    struct errlist *errs);
/*
 * As rset_load, but each cell keeps only its parameters and summary: the
 * repetitions (per-repetition numbers, histograms, time series) are skipped
 * before parsing, and plan.json is read only without a manifest.  Several
 * times faster on a big archive (history, site).  Cells then have nreps 0,
 * no time series, ios and bytes 0; a cell without a summary has no numbers.
 */
int rset_load_summaries(const char *dir, struct rset *rs, struct errlist *errs);
void rset_release(struct rset *rs);

/* Device entry by name (NULL if the manifest does not list it). */
const struct rset_device *rset_device_find(const struct rset *rs, const char *name);

/*
 * SETDIR/manifest.json alone, for readers that need no more (list, the
 * archive's dates, the site's reproductions): bounded, never through a
 * link.  rs gets the manifest's fields (no cells, no plan); 0, or -1 with
 * why set to the read error (strerror) or the parse error.  Release rs
 * either way.
 */
int rset_load_manifest(const char *setdir, struct rset *rs, char *why, size_t whylen);

#endif
