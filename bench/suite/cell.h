/*
 * cell.h - one fully resolved benchmark cell, and the suite that expands into
 * cells.  This is the contract between the suite loader, the runner, the
 * result-set writer, `export fio` and the importers.
 *
 * Ownership: a struct suite owns everything it points to; free it with
 * suite_free().  Cells are small values that may be copied; their device
 * and path strings are borrowed (a 100,000-cell plan must not carry
 * 100,000 copies of a PATH_MAX path): from the suite's devices for
 * suite_load(), from the import_set for importers, from the JSON tree for
 * cell_from_json().  They stay valid as long as that owner.
 *
 * The functions are cell_params.c's: they read the key table (keys.h),
 * whose rows are fields of struct cell, so the key table includes this
 * header and no cell.c shares its name.
 */
#ifndef IOMATRIX_CELL_H
#define IOMATRIX_CELL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "stats/qos.h"
#include "engines/engine_model.h"
#include "stats/randdist.h"
#include "stats/steady.h"
#include "pattern.h"

#define CELL_NAME_MAX 64
#define CELL_LABEL_MAX 96
#define CELL_ENGINE_MAX 16
#define CELL_CPUS_MAX 128

/*
 * Name of the n-th file (0-based) of a device's file set when the device path
 * is a directory: DIR/iomatrix.<device>.<n>, e.g. /mnt/hdd/iomatrix.hdd.0.
 * The runner creates files under this name and `export fio` gives fio the
 * same names (in filename=), so both touch the same files.  A path that
 * does not exist yet is the scratch file itself, unless it ends in '/'
 * (then it names a directory).
 */
#define CELL_FILE_FMT "iomatrix.%s.%u"  /* device name, file index */

/* Default PRNG seed (fio's randseed default), so runs repeat exactly. */
#define CELL_DEFAULT_SEED 0x89

/* mem: what the IO buffers are made of, named as fio's iomem.  malloc:
 * 4K pages wherever the allocator puts them, as fio's default; mmaphuge:
 * huge pages (hugetlb where reserved, as fio's mmaphuge; else
 * transparent huge pages), so a large IO is one request to the device. */
enum mem_kind { MEM_MALLOC, MEM_MMAPHUGE };

/* A cell: every parameter resolved, sizes in bytes, durations in ns.
 * A 100,000-cell plan holds 100,000 of them: the fields go widest first
 * (no padding between them), and long, rarely set texts are interned
 * pointers (util/intern.h), not arrays. */
struct cell {
	const char *device;             /* device name from the suite (borrowed) */
	const char *path;               /* directory, file or block device
					 * (borrowed) */
	int id;                         /* 1-based, run order */
	bool destructive;               /* device allows writes to a block device */
	bool label_given;
	const char *label;              /* given or derived (SEQ1M Q8T1), at
					 * most CELL_LABEL_MAX - 1 chars,
					 * interned (util/intern.h; a plan's
					 * cells share a few labels); "" until
					 * set (cell_init) */
	/* the parameters: from here on, cells that measure the same way are
	 * equal as bytes (suite_check.c) */
	enum pattern pattern;
	char engine[CELL_ENGINE_MAX];   /* libaio io_uring psync null */
	uint64_t bs;                    /* bytes */
	uint64_t size;                  /* per-file bytes; 0 when size_pct is used */
	double size_pct;                /* >0: percent of the block device */
	uint64_t offset;                /* bytes; 0 when offset_pct is used */
	double offset_pct;              /* >0: percent of file/device */
	uint64_t runtime_ns;            /* 0: not time-limited */
	uint64_t ramp_ns;
	uint64_t requests;              /* 0: none */
	uint64_t io_size;               /* bytes, 0: none */
	uint64_t cooldown_ns;
	uint64_t seed;
	uint64_t interval_ns;           /* time-series interval, default 1 s */
	/* random offsets, fio's names */
	const char *random_distribution; /* canonical text (randdist.h),
					 * interned (util/intern.h); NULL is
					 * random */
	/* placement */
	const char *cpus_allowed;       /* fio cpulist ("0-3,8"), interned
					 * (util/intern.h), at most
					 * CELL_CPUS_MAX - 1 chars; NULL: all */
	/* SNIA PTS; written to JSON only when not the default */
	double active_range_pct;        /* share of the file set addressed, 100 */
	double io_size_mult;            /* >0: io_size is this many file sets */
	struct steady_rule steady;      /* window 0: run `repeat` times */
	/* latency under load, stats/qos.h; all zero: off */
	struct cell_rate rate;          /* rate_iops */
	struct load_sweep load_sweep;
	struct qos_target qos;
	struct model_params model;      /* engine: model (engine_model.h) */
	enum rate_process rate_process;
	enum mem_kind mem;              /* the IO buffers' memory (fio iomem) */
	unsigned iodepth;
	unsigned jobs;
	unsigned files;
	unsigned rwmixread;             /* percent reads, mixed patterns */
	unsigned fsync;                 /* fsync every N writes, 0: never */
	unsigned fdatasync;             /* fdatasync every N writes (fio), 0 */
	unsigned sysbench_fsync_freq;   /* sysbench --file-fsync-freq: after
					 * every N requests of all jobs, the
					 * next `files` requests are one fsync
					 * per file; 0: never */
	enum data_kind data;
	unsigned compress_pct;          /* DATA_COMPRESSIBLE only */
	unsigned repeat;
	/* batching, fio's names and semantics */
	unsigned iodepth_batch;         /* requests per submit call (fio
					 * iodepth_batch_submit); 0: iodepth */
	unsigned iodepth_batch_complete_min; /* completions to wait for */
	unsigned iodepth_batch_complete_max; /* at most reaped per call; 0:
					 * iodepth (fio: complete_min) */
	int sqthread_poll_cpu;          /* -1: not pinned */
	int nonvectored;                /* -1 kernel's choice, 0 readv, 1 read */
	int numa_node;                  /* -1: none */
	bool direct;
	bool end_fsync;
	bool norandommap;               /* uniform draws with replacement */
	bool sequential_shared;         /* sequential jobs take turns on one
					 * stream (sysbench), not a slice each */
	bool randrepeat;                /* repetitions replay the same offsets */
	bool drop_caches;
	bool keep_files;
	bool userspace_reap;            /* libaio: reap from the ring first */
	bool submit_and_wait;           /* io_uring: submit on the waiting enter */
	/* io_uring fast paths, fio's names and defaults */
	bool registerfiles, fixedbufs, sqthread_poll, hipri;
	bool interval_given;            /* else short cells get 100 ms */
	bool thread;                    /* jobs are threads (true) or processes
					 * of their own session (false, fio's
					 * default) */
};

/* Purge before testing (SNIA PTS): discard the whole block device. */
enum purge_kind { PURGE_NONE, PURGE_DISCARD };

/* Workload-independent preconditioning: one or two write passes of
 * `amount` (a multiple of the file set / device, or bytes). */
enum precond_kind { PRECOND_NONE, PRECOND_SEQUENTIAL, PRECOND_RANDOM,
		    PRECOND_CUSTOM };
struct precond_pass {
	enum pattern pattern;   /* PAT_WRITE or PAT_RANDWRITE */
	uint64_t bs;
	unsigned iodepth, jobs;
	double amount_mult;     /* >0: times the file set or device */
	uint64_t amount_bytes;  /* when amount_mult is 0 */
};
#define PRECOND_MAX_PASSES 2
struct precondition {
	enum precond_kind kind;
	struct precond_pass pass[PRECOND_MAX_PASSES];
	unsigned npass;
};

struct suite_device {
	char name[CELL_NAME_MAX];
	char path[PATH_MAX];
	bool destructive;
	enum purge_kind purge;
	unsigned purge_line, purge_col; /* where purge: was written, for run */
	struct precondition pre;
};

/* Suite key `rounds`: the matrix of each device is run round by round
 * until the tracked cells are steady (SNIA PTS). */
enum ss_metric { SS_IOPS, SS_BW, SS_LAT_MEAN };
struct suite_rounds {
	bool on;
	struct steady_rule rule;
	enum ss_metric metric;
	char (*track)[CELL_LABEL_MAX]; /* labels of the tracking variables */
	size_t ntrack;
};
const char *ss_metric_name(enum ss_metric m); /* "iops" "bw_bytes_s" "lat_mean_ns" */
const char *precond_kind_name(enum precond_kind k); /* "none" "sequential" ... */

struct suite {
	char *file;          /* path as given */
	char *name;          /* suite: */
	char *title;         /* may be NULL */
	char *description;   /* may be NULL */
	char *text;          /* the file's bytes, NUL-terminated */
	size_t text_len;
	char sha256[65];     /* hex of text */
	struct suite_device *devices;
	size_t ndevices;
	struct cell *cells;  /* expanded plan, in run order */
	size_t ncells;
	struct suite_rounds rounds; /* rounds.on false: one pass */
	char **hosts;        /* top-level hosts: (run --hosts), may be NULL */
	size_t nhosts;
	int aggregate;       /* top-level aggregate: 1, 0, or -1 not given */
};

/* Blocks of 64 KiB and more are judged by what they move (MB/s), smaller
 * blocks by how many IOs complete (IOPS): that is how a reader of either
 * kind of test thinks of it.  The one rule for the report's primary
 * metric and compare's verdict (report/model/sides.h), the summary's
 * sentences, and history's default series (which keeps IOPS for random
 * cells of any size). */
#define CELL_BW_MIN_BS (64 * 1024)
static inline bool cell_judged_by_bw(const struct cell *c)
{
	return c->bs >= CELL_BW_MIN_BS;
}

/* Default values for every parameter, from the key table (keys.h);
 * pattern must still be set. */
void cell_init(struct cell *c);

/* The time-series interval the runner records at: `interval` when given;
 * else 100 ms for cells of at most a minute and for untimed ones (so that
 * a write cliff inside a few seconds shows), 1 s for longer ones. */
#define CELL_SHORT_INTERVAL_NS 100000000ULL
#define CELL_SHORT_RUNTIME_NS 60000000000ULL
uint64_t cell_interval_ns(const struct cell *c);

/* The IO buffers one repetition of c allocates: every job holds iodepth
 * slots of bs bytes (runner/worker.h).  At most 2^44 (the keys' ranges:
 * 256 jobs x 1024 x 64 MiB), so it never overflows.  CELL_BUFFERS_MAX is
 * what validate lets a cell ask for: 1 TiB, above what any benchmark of a
 * device needs (fio's largest example jobs ask for a few GiB) and below
 * the 4 TiB that 64 jobs x QD1024 x 64 MiB asked for and failed "out of
 * memory" with; `run` also refuses more than the machine's memory. */
#define CELL_BUFFERS_MAX (1ULL << 40)
uint64_t cell_buffer_bytes(const struct cell *c);

/* Wall time of a time-limited cell in ns: (ramp + runtime) per repetition
 * and per load point of a load sweep (its bisection counted in full), plus
 * the cooldown between repetitions (repeat - 1 of them: none after the
 * last).  0 when a size rule stops the cell (not estimated).  `plan`
 * and the ETA of `run` both use this. */
uint64_t cell_estimate_ns(const struct cell *c);

/* Derived label in CrystalDiskMark style: "SEQ1M Q8T1", "RND4K Q32T16";
 * mixed patterns add the read share: "RND4K Q16T1 R70"; a block size that
 * is not a whole KiB gets a B: "SEQ512B Q1T1". */
void cell_label_derive(const struct cell *c, char *buf, size_t len);
/* c's label: text (cut at CELL_LABEL_MAX - 1 bytes), or the derived one;
 * 0, or -1 out of memory (the label is then ""). */
int cell_set_label(struct cell *c, const char *text);
int cell_set_label_derived(struct cell *c);

/*
 * JSON of a cell's parameters, with units in key names (bs_bytes,
 * runtime_ns...).  The caller owns the returned object.  cell_from_json()
 * returns 0 or -1 with a message in err.
 */
cJSON *cell_to_json(const struct cell *c);
/* The same for the keys of mask `keys` only (bit k: key k of the key
 * table, suite/keys.h; id, device and path always): a set's params as its
 * file recorded them (resultset/rset_out.h). */
#define CELL_ALL_KEYS UINT64_MAX
cJSON *cell_to_json_keys(const struct cell *c, uint64_t keys);
/* A PARAMS field of a cell as cell_to_json() writes it: its name and its
 * value as compact JSON text ("4096", "\"randread\"", "{\"window\":5,...}"). */
struct cell_param_text {
	const char *name;       /* the key table's (static) */
	char *text;             /* owned by the caller: free() */
};
/* The PARAMS fields of key k (keys.h) in c, none to two (size_bytes and
 * size_pct; none where cell_to_json leaves the key out at its default),
 * into out[] in the order cell_to_json writes them: for a reader that
 * names a value as the file records it (reproduce's differences) without
 * reading JSON.  The count, or -1 when out of memory (out[] then holds
 * nothing to free). */
int cell_param_texts(int k, const struct cell *c, struct cell_param_text out[2]);
/* device and path of c then point into j (the label is interned): keep j
 * while c is used. */
int cell_from_json(const cJSON *j, struct cell *c, char *err, size_t errlen);
/* The keys (bit k: key k of the key table) of which PARAMS object j has a
 * field: what a set's writer recorded, whatever the values. */
uint64_t cell_json_keys(const cJSON *j);
/* Every value of c within what a set may record (keys.h
 * key_check_recorded): cell_from_json's check, and the plan writer's.  0,
 * or -1 with the first key out of range in err. */
int cell_check_recorded(const struct cell *c, char *err, size_t errlen);
/* The PARAMS field names in the order cell_to_json() writes them (from the
 * key table), NULL-terminated: for readers that show every parameter. */
const char *const *cell_json_names(void);

/* {"kind", "passes": [{pattern, bs_bytes, iodepth, jobs, amount_mult |
 * amount_bytes}]} of a device's preconditioning.  Caller owns it. */
cJSON *precond_to_json(const struct precondition *p);
/* Add "devices" (purge, preconditioning) and "rounds" to a plan object,
 * only when the suite uses them: plans of other suites stay as they were.
 * 0, or -1 when out of memory. */
int plan_ssd_to_json(const struct suite *s, cJSON *plan);

#endif
