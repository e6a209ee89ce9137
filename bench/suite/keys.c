/*
 * keys.c - the key table (keys.h): one row per cell key.  Changing a
 * default, a range or a JSON name here changes the suite language, the
 * defaults of every cell, plan.json, cell files and the report's CSV
 * columns together.
 */
#include <stdbool.h>
#include <string.h>

#include "keys.h"

#define OFF(f) offsetof(struct cell, f)
#define MiB (1024ULL * 1024)
#define SEC 1000000000ULL

/* name, type, field, min, max (0: none), default value, default as shown,
 * JSON name, second JSON name, help */
#define KEY(n, t, f, lo, hi, dv, ds, j, j2, h) \
	{ .name = n, .type = t, .off = OFF(f), .min = lo, .max = hi, \
	  .defv = dv, .def = ds, .json = j, .json2 = j2, .help = h }
/* a newer key: not in PARAMS while it holds its default */
#define KEY_OMIT(n, t, f, lo, hi, dv, ds, j, j2, h) \
	{ .name = n, .type = t, .off = OFF(f), .min = lo, .max = hi, \
	  .defv = dv, .def = ds, .json = j, .json2 = j2, .help = h, \
	  .omit_default = true }

const struct key cell_keys[NKEYS] = {
	[K_PATTERN] = KEY("pattern", KT_PATTERN, pattern, 0, 0, PAT_READ, "required",
		"pattern", NULL,
		"read write randread randwrite readwrite randrw rewrite; sysbench "
		"aliases seqrd seqwr rndrd rndwr rndrw seqrewr"),
	[K_BS] = KEY("bs", KT_SIZE, bs, 512, 64 * MiB, 4096, "4k", "bs_bytes", NULL,
		"block size of each IO; a multiple of 512 with direct IO"),
	[K_IODEPTH] = KEY("iodepth", KT_UINT, iodepth, 1, 1024, 1, "1", "iodepth", NULL,
		"IOs in flight per job (a synchronous engine such as psync: 1)"),
	[K_JOBS] = KEY("jobs", KT_UINT, jobs, 1, 256, 1, "1", "jobs", NULL,
		"worker threads, each with its own iodepth"),
	/* the help lists the engine registry (suite_keys_help) */
	[K_ENGINE] = KEY("engine", KT_ENGINE, engine, 0, 0, 0, "libaio", "engine", NULL,
		NULL),
	[K_DIRECT] = KEY("direct", KT_BOOL, direct, 0, 0, 1, "true", "direct", NULL,
		"O_DIRECT: bypass the page cache"),
	[K_SIZE] = KEY("size", KT_SIZE_PCT, size, 512, 0, 1ULL << 30, "1GiB",
		"size_bytes", "size_pct",
		"per-file size, or N% of a block device"),
	[K_FILES] = KEY("files", KT_UINT, files, 1, 4096, 1, "1", "files", NULL,
		"files in the set, shared by all jobs (sysbench file-num)"),
	[K_OFFSET] = KEY("offset", KT_OFFSET, offset, 0, 0, 0, "0",
		"offset_bytes", "offset_pct",
		"start offset in each file or device: size or N%"),
	[K_RUNTIME] = KEY("runtime", KT_DURATION, runtime_ns, 1000000ULL,
		7 * 86400 * SEC, 0, "one pass", "runtime_ns", NULL,
		"stop after this long (500ms 30s 2m); first stop rule wins"),
	[K_RAMP] = KEY("ramp", KT_DURATION, ramp_ns, 0, 86400 * SEC, 0, "0",
		"ramp_ns", NULL,
		"warm-up before measuring, excluded from results"),
	[K_REQUESTS] = KEY("requests", KT_U64, requests, 1, 0, 0, "none",
		"requests", NULL,
		"stop after N IOs (sysbench max-requests)"),
	[K_IO_SIZE] = KEY("io_size", KT_IO_SIZE, io_size, 512, 0, 0, "none",
		"io_size_bytes", "io_size_mult",
		"stop after N bytes (dd count), or Nx the file set (1.5x)"),
	[K_RWMIXREAD] = KEY("rwmixread", KT_UINT, rwmixread, 0, 100, 50, "50",
		"rwmixread", NULL,
		"percent reads, only with readwrite/randrw"),
	[K_FSYNC] = KEY("fsync", KT_UINT, fsync, 0, 1000000, 0, "0", "fsync", NULL,
		"fsync every N writes (0: never)"),
	[K_END_FSYNC] = KEY("end_fsync", KT_BOOL, end_fsync, 0, 0, 0, "false",
		"end_fsync", NULL,
		"fsync once at the end of each repetition"),
	[K_DATA] = KEY("data", KT_DATA, data, 0, 0, DATA_RANDOM, "random",
		"data", "compress_pct",
		"buffer contents: random, zero, compressible:N (N% compressible)"),
	[K_DROP_CACHES] = KEY("drop_caches", KT_BOOL, drop_caches, 0, 0, 0, "false",
		"drop_caches", NULL,
		"drop the page cache before each repetition (root)"),
	[K_REPEAT] = KEY("repeat", KT_UINT, repeat, 1, 1000, 1, "1", "repeat", NULL,
		"repetitions of the cell"),
	[K_COOLDOWN] = KEY("cooldown", KT_DURATION, cooldown_ns, 0, 86400 * SEC, 0,
		"0", "cooldown_ns", NULL, "pause between repetitions"),
	[K_SEED] = KEY("seed", KT_U64, seed, 0, 0, CELL_DEFAULT_SEED, "137", "seed",
		NULL, "PRNG seed for offsets and data (fio randseed)"),
	[K_INTERVAL] = KEY("interval", KT_DURATION, interval_ns, 10000000ULL,
		3600 * SEC, SEC, "1s", "interval_ns", NULL, "time-series interval"),
	[K_KEEP_FILES] = KEY("keep_files", KT_BOOL, keep_files, 0, 0, 0, "false",
		"keep_files", NULL, "keep the files the runner created"),
	/* batching: fio's names and semantics */
	[K_IODEPTH_BATCH] = KEY("iodepth_batch", KT_UINT, iodepth_batch, 0, 1024, 1, "1",
		"iodepth_batch", NULL,
		"queued IOs per submit call (fio iodepth_batch_submit); 0: iodepth"),
	[K_BATCH_CMIN] = KEY("iodepth_batch_complete_min", KT_UINT,
		iodepth_batch_complete_min, 0, 1024, 1, "1",
		"iodepth_batch_complete_min", NULL,
		"completions to wait for per reap (0: poll; a full queue waits for 1)"),
	[K_BATCH_CMAX] = KEY("iodepth_batch_complete_max", KT_UINT,
		iodepth_batch_complete_max, 0, 1024, 0, "iodepth",
		"iodepth_batch_complete_max", NULL,
		"at most this many completions per reap (0: up to iodepth)"),
	/* io_uring fast paths: fio's names and defaults */
	[K_REGISTERFILES] = KEY("registerfiles", KT_BOOL, registerfiles, 0, 0, 0, "false",
		"registerfiles", NULL, "io_uring: registered file descriptors"),
	[K_FIXEDBUFS] = KEY("fixedbufs", KT_BOOL, fixedbufs, 0, 0, 0, "false",
		"fixedbufs", NULL,
		"io_uring: registered buffers (READ_FIXED/WRITE_FIXED)"),
	[K_SQPOLL] = KEY("sqthread_poll", KT_BOOL, sqthread_poll, 0, 0, 0, "false",
		"sqthread_poll", NULL,
		"io_uring: a kernel thread polls the submission queue (SQPOLL)"),
	[K_SQPOLL_CPU] = KEY("sqthread_poll_cpu", KT_INT, sqthread_poll_cpu,
		(uint64_t)-1, 1023, (uint64_t)-1, "none", "sqthread_poll_cpu", NULL,
		"io_uring: pin the SQPOLL thread to this CPU"),
	[K_HIPRI] = KEY("hipri", KT_BOOL, hipri, 0, 0, 0, "false", "hipri", NULL,
		"io_uring: polled completions (IOPOLL; device needs poll queues)"),
	[K_NONVECTORED] = KEY("nonvectored", KT_INT, nonvectored, (uint64_t)-1, 1,
		(uint64_t)-1, "-1", "nonvectored", NULL,
		"io_uring: 1 READ/WRITE, 0 READV/WRITEV, -1 what the kernel has"),
	/* placement */
	[K_CPUS_ALLOWED] = KEY("cpus_allowed", KT_CPULIST, cpus_allowed, 0, 0, 0, "all",
		"cpus_allowed", NULL,
		"CPUs the jobs may run on, shared (fio's), e.g. 0-3,8"),
	[K_NUMA_NODE] = KEY("numa_node", KT_INT, numa_node, (uint64_t)-1, 1023,
		(uint64_t)-1, "none", "numa_node", NULL,
		"run the jobs on this NUMA node's CPUs, buffers in its memory (libnuma)"),
	[K_LABEL] = KEY("label", KT_LABEL, label, 0, 0, 0, "derived", "label", NULL,
		"display name, e.g. \"SEQ1M Q8T1\" (include and exclude only)"),
	/* SNIA PTS (issue 12) */
	[K_ACTIVE_RANGE] = KEY_OMIT("active_range", KT_PCT, active_range_pct, 0, 0, 100,
		"100%", "active_range_pct", NULL,
		"share of the file set or device the cell addresses, from its "
		"start (SNIA PTS-C: 75%)"),
	[K_STEADY] = KEY_OMIT("steady_state", KT_STEADY, steady, 0, 0, 0, "none",
		"steady_state", NULL,
		"{window: 5, range: 20%, slope: 10%, max: 25}: repeat the cell "
		"until its IOPS are steady; the result is the window average"),
};

int key_find(const char *name)
{
	for (int k = 0; k < NKEYS; k++)
		if (!strcmp(cell_keys[k].name, name))
			return k;
	return -1;
}

void key_store_u64(int k, struct cell *c, uint64_t v)
{
	char *f = (char *)c + cell_keys[k].off;

	switch (cell_keys[k].type) {
	case KT_PATTERN:
		c->pattern = (enum pattern)v;
		break;
	case KT_DATA:
		c->data = (enum data_kind)v;
		break;
	case KT_SIZE: case KT_SIZE_PCT: case KT_OFFSET: case KT_U64:
	case KT_DURATION:
		memcpy(f, &v, sizeof(uint64_t));
		break;
	case KT_UINT: {
		unsigned u = (unsigned)v;
		memcpy(f, &u, sizeof(u));
		break;
	}
	case KT_BOOL: {
		bool b = v != 0;
		memcpy(f, &b, sizeof(b));
		break;
	}
	case KT_PCT: {
		double d = (double)v;
		memcpy(f, &d, sizeof(d));
		break;
	}
	case KT_IO_SIZE:
		c->io_size = v;
		c->io_size_mult = 0;
		break;
	case KT_STEADY:
		if (!v) /* the default: off */
			memset(&c->steady, 0, sizeof(c->steady));
		break;
	case KT_INT: {
		int i = (int)(int64_t)v;
		memcpy(f, &i, sizeof(i));
		break;
	}
	case KT_ENGINE: case KT_LABEL: case KT_CPULIST:
		break;
	}
}

uint64_t key_load_u64(int k, const struct cell *c)
{
	const char *f = (const char *)c + cell_keys[k].off;

	switch (cell_keys[k].type) {
	case KT_PATTERN:
		return (uint64_t)c->pattern;
	case KT_DATA:
		return (uint64_t)c->data;
	case KT_SIZE: case KT_SIZE_PCT: case KT_OFFSET: case KT_U64:
	case KT_DURATION: {
		uint64_t u;
		memcpy(&u, f, sizeof(u));
		return u;
	}
	case KT_UINT: {
		unsigned u;
		memcpy(&u, f, sizeof(u));
		return u;
	}
	case KT_BOOL: {
		bool b;
		memcpy(&b, f, sizeof(b));
		return b;
	}
	case KT_PCT: {
		double d;
		memcpy(&d, f, sizeof(d));
		return (uint64_t)d;
	}
	case KT_IO_SIZE:
		return c->io_size;
	case KT_STEADY:
		return c->steady.window;
	case KT_INT: {
		int i;
		memcpy(&i, f, sizeof(i));
		return (uint64_t)(int64_t)i;
	}
	case KT_ENGINE: case KT_LABEL: case KT_CPULIST:
		break;
	}
	return 0;
}
