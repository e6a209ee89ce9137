/*
 * keys.h - the key table: every parameter of a cell, once, with its suite
 * name, type, range, default, JSON name(s), help, whether it defines the
 * workload, its line in the report's Method section, the engine that owns
 * it and fio's name for it.  Read by the suite loader (parsing, range
 * checks, which engine a key applies to, did-you-mean, --help),
 * cell_init() (defaults), cell_to_json()/cell_from_json() (the PARAMS of
 * plan.json and cell files), fio export (the engine options), the report
 * (the Method section, which cells are one workload, title notes, the CSV
 * parameter columns) and history (a series' signature).  So a new key is
 * one row here (its K_ name and cell_keys[] entry) plus its field in
 * struct cell, and what uses the value (the runner); tests/unit/
 * test_keys.c checks that the row is complete.
 */
#ifndef IOMATRIX_KEYS_H
#define IOMATRIX_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cell.h"
#include "key_ops.h"
#include "util/sbuf.h"

enum ktype {
	KT_PATTERN,   /* enum pattern; JSON: its name */
	KT_SIZE,      /* uint64_t bytes */
	KT_SIZE_PCT,  /* bytes or N% (size): JSON json (bytes) + json2 (pct) */
	KT_OFFSET,    /* bytes or N%, 0 allowed, below 100%: same fields */
	KT_UINT,      /* unsigned */
	KT_U64,       /* uint64_t */
	KT_BOOL,      /* bool */
	KT_ENGINE,    /* char[CELL_ENGINE_MAX], a name of the engine registry */
	KT_DURATION,  /* uint64_t ns */
	KT_DATA,      /* enum data_kind: JSON json (name) + json2 (compress_pct) */
	KT_LABEL,     /* char[CELL_LABEL_MAX]; identity, written with id and device */
	KT_PCT,       /* double percent, N% or N in (0, 100]; default defv */
	KT_STEADY,    /* struct steady_rule from a map {window, range, slope,
		       * max} (ssd_keys.c); JSON: an object, absent when off */
	KT_IO_SIZE,   /* bytes (json) or Nx the file set (json2, double) */
	KT_INT,       /* int; min, max and default are int64_t cast to uint64_t
		       * (-1 usually means "not set", as in fio) */
	KT_CPULIST,   /* const char *, interned: a CPU list "0-3,8" (fio's
		       * cpus_allowed), stored canonical; NULL none */
	KT_CUSTOM,    /* a value of the row's own kind: .ops parses it and
		       * says its JSON; ops->size bytes at off, default all
		       * zero; compared as bytes; .text says it */
	KT_RANDDIST,  /* const char *, interned: fio's random_distribution
		       * (stats/randdist.h), stored canonical; NULL random */
};

struct key {
	const char *name;    /* in suites */
	enum ktype type;
	size_t off;          /* field in struct cell */
	uint64_t min, max;   /* for numbers/sizes/durations; max 0: none */
	uint64_t defv;       /* default value of the field (not KT_ENGINE) */
	const char *def;     /* default as the help shows it; KT_ENGINE: the
			      * default engine's name */
	const char *json;    /* name in PARAMS JSON (units in the name) */
	const char *json2;   /* second PARAMS field (percent, compress_pct) */
	bool omit_default;   /* PARAMS leave the field out while it holds the
			      * default, so plans that do not use a newer
			      * key stay byte-identical */
	const char *help;
	/* The key can change a result: two cells that differ in it (where
	 * it counts) are two workloads (suite/workload.h, the one
	 * identity): the report does not put them in one group or ratio,
	 * compare does not match them, history keeps two series. */
	bool workload;
	/* The report's Method section: the label of the key's line (keys
	 * with one label share a line, each part "name value"), its rank
	 * there (lines in rank order, kept so reports stay byte-identical),
	 * and how it is shown (NULL: by type).  Every workload key has one. */
	const char *method;
	unsigned method_rank;
	key_text_fn text;
	/* The engine that owns the key, as fio's engine .options: it applies
	 * only to cells of that engine (the loader refuses it elsewhere, fio
	 * export leaves it out, the report says "none (not io_uring)"); NULL:
	 * any engine.  engine_flags: what the cell's engine must be able to
	 * do for the key to apply (ENGINE_ASYNC for batching); 0: anything. */
	const char *engine;
	unsigned engine_flags;
	/* fio's name of the option: fio export writes it where the key
	 * applies and is not at its default (booleans as 1/0, numbers and CPU
	 * lists as they are); NULL: fio_map.c says it its own way, or fio has
	 * no such option. */
	const char *fio;
	const struct key_ops *ops; /* KT_CUSTOM only */
	/* the Method line is left out of reports where no cell sets the key
	 * (rate_iops, load_sweep, qos: most sets never use them) */
	bool method_if_set;
};

enum {
	K_PATTERN, K_BS, K_IODEPTH, K_JOBS, K_ENGINE, K_DIRECT, K_SIZE, K_FILES,
	K_OFFSET, K_RUNTIME, K_RAMP, K_REQUESTS, K_IO_SIZE, K_RWMIXREAD,
	K_FSYNC, K_END_FSYNC, K_DATA, K_DROP_CACHES, K_REPEAT, K_COOLDOWN,
	K_SEED, K_INTERVAL, K_KEEP_FILES,
	K_IODEPTH_BATCH, K_BATCH_CMIN, K_BATCH_CMAX,
	K_USERSPACE_REAP, K_SUBMIT_AND_WAIT,
	K_REGISTERFILES, K_FIXEDBUFS, K_SQPOLL, K_SQPOLL_CPU, K_HIPRI, K_NONVECTORED,
	K_CPUS_ALLOWED, K_NUMA_NODE,
	K_ACTIVE_RANGE, K_STEADY,
	K_FDATASYNC, K_SB_FSYNC_FREQ, K_NORANDOMMAP, K_RANDDIST, K_RANDREPEAT,
	K_THREAD, K_SEQ_SHARED,
	K_RATE_IOPS, K_RATE_PROCESS, K_LOAD_SWEEP, K_QOS,
	K_MODEL_LATENCY, K_MODEL_DIST, K_MODEL_PARALLEL, K_MODEL_IOPS, K_MODEL_BW,
	K_MODEL_WBUF, K_MODEL_WRATE, K_MODEL_NOISE, K_MEM,
	K_LABEL, NKEYS
};
/* a suite's given keys are a bit mask (suite_int.h: pset.set) */
_Static_assert(NKEYS <= 64, "the key table outgrew the 64-bit mask of given keys");

extern const struct key cell_keys[NKEYS];

/* 10^15 - 1: the largest whole numbers plan.json and cell files record
 * exactly, as digits.  cJSON writes a number with 15 significant digits
 * ("%1.15g") when that reads back within a double's epsilon: above about
 * 4.5e15 a whole number may come back 1 or 2 off (2^53 was written
 * 9.00719925474099e+15), and 10^15 itself is written "1e+15".  The range
 * of the 64-bit keys that have no smaller one (seed, requests, size,
 * offset, io_size: 888 TiB): `seed: 1234567890123456789` was recorded as
 * 1.2345678901234568e+18, a seed that was not used. */
#define KEY_EXACT_MAX 999999999999999ULL

/*
 * May a set record v for key k?  The set reader's check (cell_from_json)
 * and the writer's (resultset_plan_write), of the key table's range, so
 * that what the suite loader accepts (the same range) is what a report
 * reads.  The 64-bit keys only (KT_U64, and the sizes bounded by
 * KEY_EXACT_MAX): imported cells hold values outside the suite's own
 * ranges of the other keys (fio's numjobs 4096, bs 128m), which say what
 * iomatrix runs, not what a set may hold.  0, or -1 with why.
 */
int key_check_recorded(int k, uint64_t v, char *why, size_t whylen);

/* Index of the key named `name` in suites, -1 if none. */
int key_find(const char *name);

/* Store an integer value (size, count, duration, bool, pattern, data kind)
 * into the field of key k; other types are left alone. */
void key_store_u64(int k, struct cell *c, uint64_t v);
/* The integer value of key k's field (the reverse of key_store_u64). */
uint64_t key_load_u64(int k, const struct cell *c);
/* The text of a KT_CPULIST or KT_RANDDIST key, which the cell holds as an
 * interned pointer (util/intern.h): "" for the default (NULL). */
const char *key_str(int k, const struct cell *c);

/* True when key k applies to cell c: its engine is the key's owner and
 * has the key's engine_flags (an engine not in the registry has none). */
bool key_applies(int k, const struct cell *c);
/* True when a and b hold the same value of key k (every field the key
 * sets: data and compress_pct, size and size_pct; engines by name).
 * Whether two cells are one workload is suite/workload.h's. */
bool key_same(int k, const struct cell *a, const struct cell *b);
/* True when c holds key k's default value. */
bool key_is_default(int k, const struct cell *c);
/* Append key k's value in c to b as `how` says (the row's text function,
 * else the type's way: sizes "4K", durations "30s", booleans yes/no). */
void key_text(int k, const struct cell *c, enum key_text how, struct sbuf *b);

#endif
