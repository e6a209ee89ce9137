/*
 * keys.c - the key table (keys.h): one row per cell key.  Changing a
 * default, a range, a JSON name, the workload flag, the Method line or the
 * owning engine here changes the suite language, the defaults of every
 * cell, plan.json, cell files, fio export and the report together.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/units.h"
#include "engines/engine.h"
#include "keys.h"
#include "qos_keys.h"
#include "word_keys.h"

#define OFF(f) offsetof(struct cell, f)
#define MiB (1024ULL * 1024)
#define SEC 1000000000ULL

/* name, type, field, min, max (0: none), default value, default as shown,
 * JSON name, second JSON name, help, then any of the designated fields
 * below (WORKLOAD, METHOD(), .text, .engine, .engine_flags) */
#define KEY(n, t, f, lo, hi, dv, ds, j, j2, h, ...) \
	{ .name = n, .type = t, .off = OFF(f), .min = lo, .max = hi, \
	  .defv = dv, .def = ds, .json = j, .json2 = j2, .help = h, __VA_ARGS__ }
/* a newer key: not in PARAMS while it holds its default */
#define KEY_OMIT(n, t, f, lo, hi, dv, ds, j, j2, h, ...) \
	{ .name = n, .type = t, .off = OFF(f), .min = lo, .max = hi, \
	  .defv = dv, .def = ds, .json = j, .json2 = j2, .help = h, \
	  .omit_default = true, __VA_ARGS__ }
#define WORKLOAD .workload = true
#define METHOD(label, rank) .method = label, .method_rank = rank
#define URING .engine = "io_uring"
/* the model device's keys (engine_model.h): what the device is, not the
 * workload, so two cells that differ only there are one workload on two
 * devices, which compare and the report set side by side */
#define MODEL .engine = "model", METHOD("model device", 32), .method_if_set = true

/* The keys whose value the type's way (key_text) does not say well. */
static void text_direct(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, c->direct ? "yes (O_DIRECT)" : "no (buffered)");
	else if (!c->direct)
		sbuf_adds(b, "buffered");
}

/* A number that is on when set: said by method (the Method line) or by
 * note (a title), each a format of one %lld; when off, the Method line
 * says off and a title nothing. */
static void text_when_set(enum key_text how, struct sbuf *b, bool set, long long v,
			  const char *method, const char *note, const char *off)
{
	if (set)
		sbuf_addf(b, how == KEY_TEXT_METHOD ? method : note, v);
	else if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, off);
}

static void text_fsync(const struct cell *c, enum key_text how, struct sbuf *b)
{
	text_when_set(how, b, c->fsync, c->fsync, "every %lld writes", "fsync every %lld",
		      "never");
}

/* rwmixread says nothing about a cell that does not mix reads and writes */
static void text_rwmix(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (!pattern_is_mixed(c->pattern))
		sbuf_adds(b, how == KEY_TEXT_METHOD ? "none (not a mixed pattern)" : "");
	else if (how == KEY_TEXT_METHOD || c->rwmixread != 50)
		sbuf_addf(b, "%u %% reads", c->rwmixread);
}

static void text_cmin(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_METHOD)
		sbuf_addf(b, "%u", c->iodepth_batch_complete_min);
	else if (c->iodepth_batch_complete_min != 1)
		sbuf_addf(b, "completions from %u", c->iodepth_batch_complete_min);
}

static void text_cmax(const struct cell *c, enum key_text how, struct sbuf *b)
{
	text_when_set(how, b, c->iodepth_batch_complete_max, c->iodepth_batch_complete_max,
		      "%lld", "completions up to %lld", "iodepth");
}

/* The opt-in reaping modes: said only when on, so the Method line of the
 * cells that run fio's way (the default) reads as before. */
static void text_opt_in(bool on, const char *name, enum key_text how, struct sbuf *b)
{
	if (on)
		sbuf_adds(b, how == KEY_TEXT_METHOD ? "yes" : name);
}

static void text_ureap(const struct cell *c, enum key_text how, struct sbuf *b)
{
	text_opt_in(c->userspace_reap, "userspace_reap", how, b);
}

static void text_subwait(const struct cell *c, enum key_text how, struct sbuf *b)
{
	text_opt_in(c->submit_and_wait, "submit_and_wait", how, b);
}

/* sqthread_poll_cpu is said with sqthread_poll ("sqthread_poll on CPU 2"):
 * alone it means nothing, so its own text is empty */
static void text_sqpoll(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, c->sqthread_poll ? "yes" : "no");
	else if (c->sqthread_poll)
		sbuf_adds(b, "sqthread_poll");
	if (c->sqthread_poll && c->sqthread_poll_cpu >= 0)
		sbuf_addf(b, " on CPU %d", c->sqthread_poll_cpu);
}

static void text_none(const struct cell *c, enum key_text how, struct sbuf *b)
{
	(void)c;
	(void)how;
	(void)b;
}

/* the job model; a title notes it only when it is not the default */
static void text_thread(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, c->thread ? "threads of one process" :
			  "processes, each in a session of its own (thread: false)");
	else if (!c->thread)
		sbuf_adds(b, "job processes");
}

static void text_cpus(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, c->cpus_allowed ? c->cpus_allowed : "all");
	else if (c->cpus_allowed)
		sbuf_addf(b, "CPUs %s", c->cpus_allowed);
}

static void text_numa(const struct cell *c, enum key_text how, struct sbuf *b)
{
	text_when_set(how, b, c->numa_node >= 0, c->numa_node, "%lld", "NUMA node %lld",
		      "none");
}

/* The random offsets line: the generator (the map, uniform draws, or the
 * distribution's own) and whether repetitions replay the offsets. */
static void text_randoffs(const struct cell *c, enum key_text how, struct sbuf *b)
{
	bool rnd = pattern_is_random(c->pattern);
	if (how == KEY_TEXT_NOTE) {
		if (rnd && c->norandommap && !c->random_distribution)
			sbuf_adds(b, "norandommap");
		if (rnd && !c->randrepeat)
			sbuf_adds(b, b->len ? ", randrepeat off" : "randrepeat off");
		return;
	}
	if (!rnd) {
		sbuf_adds(b, "none (sequential)");
		return;
	}
	if (c->random_distribution)
		sbuf_adds(b, "drawn from random_distribution (no map, as fio)");
	else if (c->norandommap)
		sbuf_adds(b, "uniform, with repeats (norandommap)");
	else
		sbuf_adds(b, "every block once per pass (random map)");
	sbuf_adds(b, c->randrepeat ? "; every repetition the same (randrepeat)" :
		  "; new each repetition (randrepeat off)");
}

/* The Method text of a count-based sync key (the note is the caller's). */
static void text_sync_n(enum key_text how, struct sbuf *b, unsigned n,
			const char *what)
{
	if (how != KEY_TEXT_METHOD)
		return;
	if (n)
		sbuf_addf(b, "every %u %s", n, what);
	else
		sbuf_adds(b, "never");
}

static void text_fdatasync(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_NOTE && c->fdatasync)
		sbuf_addf(b, "fdatasync every %u", c->fdatasync);
	else
		text_sync_n(how, b, c->fdatasync, "writes");
}

static void text_sbfsync(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_NOTE && c->sysbench_fsync_freq)
		sbuf_addf(b, "sysbench fsync every %u", c->sysbench_fsync_freq);
	else
		text_sync_n(how, b, c->sysbench_fsync_freq,
			    "requests of all jobs, one fsync per file");
}

/* the note only when on and sequential; the Method line only in reports
 * where a cell sets the key (method_if_set) */
static void text_seqshared(const struct cell *c, enum key_text how, struct sbuf *b)
{
	bool seq = !pattern_is_random(c->pattern);
	if (how == KEY_TEXT_NOTE) {
		if (c->sequential_shared && seq)
			sbuf_adds(b, "shared sequential stream");
		return;
	}
	if (!seq)
		sbuf_adds(b, "none (random offsets)");
	else
		sbuf_adds(b, c->sequential_shared ? "one stream, the jobs take turns (sysbench)"
			  : "a slice of its own per job");
}

const struct key cell_keys[NKEYS] = {
	[K_PATTERN] = KEY("pattern", KT_PATTERN, pattern, 0, 0, PAT_READ, "required",
		"pattern", NULL,
		"read write randread randwrite readwrite randrw rewrite; sysbench "
		"aliases seqrd seqwr rndrd rndwr rndrw seqrewr",
		WORKLOAD, METHOD("pattern", 12)),
	[K_BS] = KEY("bs", KT_SIZE, bs, 512, 64 * MiB, 4096, "4k", "bs_bytes", NULL,
		"block size of each IO; a multiple of 512 with direct IO",
		WORKLOAD, METHOD("block size", 11)),
	[K_IODEPTH] = KEY("iodepth", KT_UINT, iodepth, 1, 1024, 1, "1", "iodepth", NULL,
		"IOs in flight per job (a synchronous engine such as psync: 1)",
		WORKLOAD, METHOD("queue depth", 9)),
	[K_JOBS] = KEY("jobs", KT_UINT, jobs, 1, QOS_JOBS_MAX, 1, "1", "jobs", NULL,
		"worker threads, each with its own iodepth",
		WORKLOAD, METHOD("jobs", 10)),
	/* the help lists the engine registry (suite_keys_help) */
	[K_ENGINE] = KEY("engine", KT_ENGINE, engine, 0, 0, 0, "libaio", "engine", NULL,
		NULL,
		WORKLOAD, METHOD("engine", 1)),
	[K_DIRECT] = KEY("direct", KT_BOOL, direct, 0, 0, 1, "true", "direct", NULL,
		"O_DIRECT: bypass the page cache",
		WORKLOAD, METHOD("direct IO", 2), .text = text_direct),
	[K_SIZE] = KEY("size", KT_SIZE_PCT, size, 512, KEY_EXACT_MAX, 1ULL << 30, "1GiB",
		"size_bytes", "size_pct",
		"per-file size, or N% of a block device",
		WORKLOAD, METHOD("file size", 3)),
	[K_FILES] = KEY("files", KT_UINT, files, 1, 4096, 1, "1", "files", NULL,
		"files in the set, shared by all jobs (sysbench file-num)",
		WORKLOAD, METHOD("files", 4)),
	[K_OFFSET] = KEY("offset", KT_OFFSET, offset, 0, KEY_EXACT_MAX, 0, "0",
		"offset_bytes", "offset_pct",
		"start offset in each file or device: size or N%",
		WORKLOAD, METHOD("offset", 18)),
	[K_RUNTIME] = KEY("runtime", KT_DURATION, runtime_ns, 1000000ULL,
		7 * 86400 * SEC, 0, "one pass", "runtime_ns", NULL,
		"stop after this long (500ms 30s 2m); first stop rule wins",
		WORKLOAD, METHOD("runtime", 5)),
	[K_RAMP] = KEY("ramp", KT_DURATION, ramp_ns, 0, 86400 * SEC, 0, "0",
		"ramp_ns", NULL,
		"warm-up before measuring, excluded from results",
		METHOD("ramp (excluded)", 6)),
	[K_REQUESTS] = KEY("requests", KT_U64, requests, 1, KEY_EXACT_MAX, 0, "none",
		"requests", NULL,
		"stop after N IOs (sysbench max-requests)",
		WORKLOAD, METHOD("max requests", 16)),
	[K_IO_SIZE] = KEY("io_size", KT_IO_SIZE, io_size, 512, KEY_EXACT_MAX, 0, "none",
		"io_size_bytes", "io_size_mult",
		"stop after N bytes (dd count), or Nx the file set (1.5x)",
		WORKLOAD, METHOD("max bytes", 17)),
	[K_RWMIXREAD] = KEY("rwmixread", KT_UINT, rwmixread, 0, 100, 50, "50",
		"rwmixread", NULL,
		"percent reads, only with readwrite/randrw",
		WORKLOAD, METHOD("read share", 19), .text = text_rwmix),
	[K_FSYNC] = KEY("fsync", KT_UINT, fsync, 0, 1000000, 0, "0", "fsync", NULL,
		"fsync every N writes (0: never)",
		WORKLOAD, METHOD("fsync", 13), .text = text_fsync),
	[K_END_FSYNC] = KEY("end_fsync", KT_BOOL, end_fsync, 0, 0, 0, "false",
		"end_fsync", NULL,
		"fsync once at the end of each repetition",
		WORKLOAD, METHOD("end_fsync", 14)),
	[K_DATA] = KEY("data", KT_DATA, data, 0, 0, DATA_RANDOM, "random",
		"data", "compress_pct",
		"buffer contents: random, zero, compressible:N (N% compressible)",
		WORKLOAD, METHOD("data", 8)),
	[K_DROP_CACHES] = KEY("drop_caches", KT_BOOL, drop_caches, 0, 0, 0, "false",
		"drop_caches", NULL,
		"drop the page cache before each repetition (root)",
		METHOD("drop caches", 15)),
	[K_REPEAT] = KEY("repeat", KT_UINT, repeat, 1, 1000, 1, "1", "repeat", NULL,
		"repetitions of the cell",
		METHOD("repetitions", 7)),
	[K_COOLDOWN] = KEY("cooldown", KT_DURATION, cooldown_ns, 0, 86400 * SEC, 0,
		"0", "cooldown_ns", NULL, "pause between repetitions"),
	[K_SEED] = KEY("seed", KT_U64, seed, 0, KEY_EXACT_MAX, CELL_DEFAULT_SEED, "137", "seed",
		NULL, "PRNG seed for offsets and data (fio randseed)"),
	[K_INTERVAL] = KEY("interval", KT_DURATION, interval_ns, 10000000ULL,
		3600 * SEC, SEC, "1s", "interval_ns", NULL, "time-series interval"),
	[K_KEEP_FILES] = KEY("keep_files", KT_BOOL, keep_files, 0, 0, 0, "false",
		"keep_files", NULL, "keep the files the runner created"),
	/* batching: fio's names and semantics */
	[K_IODEPTH_BATCH] = KEY("iodepth_batch", KT_UINT, iodepth_batch, 0, 1024, 1, "1",
		"iodepth_batch", NULL,
		"queued IOs per submit call (fio iodepth_batch_submit); 0: iodepth",
		WORKLOAD, METHOD("batching", 20), .engine_flags = ENGINE_ASYNC,
		.fio = "iodepth_batch_submit"),
	[K_BATCH_CMIN] = KEY("iodepth_batch_complete_min", KT_UINT,
		iodepth_batch_complete_min, 0, 1024, 1, "1",
		"iodepth_batch_complete_min", NULL,
		"completions to wait for per reap (0: poll; a full queue waits for 1)",
		WORKLOAD, METHOD("batching", 20), .text = text_cmin,
		.engine_flags = ENGINE_ASYNC, .fio = "iodepth_batch_complete_min"),
	[K_BATCH_CMAX] = KEY("iodepth_batch_complete_max", KT_UINT,
		iodepth_batch_complete_max, 0, 1024, 0, "iodepth",
		"iodepth_batch_complete_max", NULL,
		"at most this many completions per reap (0: up to iodepth)",
		WORKLOAD, METHOD("batching", 20), .text = text_cmax,
		.engine_flags = ENGINE_ASYNC, .fio = "iodepth_batch_complete_max"),
	/* reaping: fio's way by default (io_getevents / an enter that waits,
	 * as the exported job does); the faster user-space ways opt in */
	[K_USERSPACE_REAP] = KEY_OMIT("userspace_reap", KT_BOOL, userspace_reap, 0, 0,
		0, "false", "userspace_reap", NULL,
		"libaio: take completions from the AIO ring in user space, "
		"io_getevents only when it is empty (fewer syscalls per IO)",
		WORKLOAD, METHOD("batching", 20), .text = text_ureap, .engine = "libaio",
		.fio = "userspace_reap"),
	[K_SUBMIT_AND_WAIT] = KEY_OMIT("submit_and_wait", KT_BOOL, submit_and_wait,
		0, 0, 0, "false", "submit_and_wait", NULL,
		"io_uring: submit the last batch on the enter that waits for "
		"completions (one syscall); fio has no such option",
		WORKLOAD, METHOD("batching", 20), .text = text_subwait, URING),
	/* io_uring fast paths: fio's names and defaults */
	[K_REGISTERFILES] = KEY("registerfiles", KT_BOOL, registerfiles, 0, 0, 0, "false",
		"registerfiles", NULL, "io_uring: registered file descriptors",
		WORKLOAD, METHOD("io_uring options", 21), URING, .fio = "registerfiles"),
	[K_FIXEDBUFS] = KEY("fixedbufs", KT_BOOL, fixedbufs, 0, 0, 0, "false",
		"fixedbufs", NULL,
		"io_uring: registered buffers (READ_FIXED/WRITE_FIXED)",
		WORKLOAD, METHOD("io_uring options", 21), URING, .fio = "fixedbufs"),
	[K_SQPOLL] = KEY("sqthread_poll", KT_BOOL, sqthread_poll, 0, 0, 0, "false",
		"sqthread_poll", NULL,
		"io_uring: a kernel thread polls the submission queue (SQPOLL)",
		WORKLOAD, METHOD("io_uring options", 21), .text = text_sqpoll, URING,
		.fio = "sqthread_poll"),
	[K_SQPOLL_CPU] = KEY("sqthread_poll_cpu", KT_INT, sqthread_poll_cpu,
		(uint64_t)-1, 1023, (uint64_t)-1, "none", "sqthread_poll_cpu", NULL,
		"io_uring: pin the SQPOLL thread to this CPU",
		WORKLOAD, METHOD("io_uring options", 21), .text = text_none, URING,
		.fio = "sqthread_poll_cpu"),
	[K_HIPRI] = KEY("hipri", KT_BOOL, hipri, 0, 0, 0, "false", "hipri", NULL,
		"io_uring: polled completions (IOPOLL; device needs poll queues)",
		WORKLOAD, METHOD("io_uring options", 21), URING, .fio = "hipri"),
	[K_NONVECTORED] = KEY("nonvectored", KT_INT, nonvectored, (uint64_t)-1, 1,
		(uint64_t)-1, "-1", "nonvectored", NULL,
		"io_uring: 1 READ/WRITE, 0 READV/WRITEV, -1 what the kernel has",
		WORKLOAD, METHOD("io_uring options", 21), URING, .fio = "nonvectored"),
	/* placement */
	[K_CPUS_ALLOWED] = KEY("cpus_allowed", KT_CPULIST, cpus_allowed, 0, 0, 0, "all",
		"cpus_allowed", NULL,
		"CPUs the jobs may run on, shared (fio's), e.g. 0-3,8",
		WORKLOAD, METHOD("CPU placement", 22), .text = text_cpus,
		.fio = "cpus_allowed"),
	[K_NUMA_NODE] = KEY("numa_node", KT_INT, numa_node, (uint64_t)-1, 1023,
		(uint64_t)-1, "none", "numa_node", NULL,
		"run the jobs on this NUMA node's CPUs, buffers in its memory (libnuma)",
		WORKLOAD, METHOD("CPU placement", 22), .text = text_numa),
	/* fsync kinds and random offsets, fio's names */
	[K_FDATASYNC] = KEY_OMIT("fdatasync", KT_UINT, fdatasync, 0, 1000000, 0, "0",
		"fdatasync", NULL,
		"fdatasync every N writes to a file, counted per job and file (fio)",
		WORKLOAD, METHOD("fdatasync", 24), .text = text_fdatasync,
		.fio = "fdatasync"),
	[K_SB_FSYNC_FREQ] = KEY_OMIT("sysbench_fsync_freq", KT_UINT, sysbench_fsync_freq,
		0, 1000000, 0, "0", "sysbench_fsync_freq", NULL,
		"sysbench --file-fsync-freq: after every N requests of all jobs "
		"together, the next `files` requests are one fsync per file",
		WORKLOAD, METHOD("sysbench fsync", 25), .text = text_sbfsync),
	[K_NORANDOMMAP] = KEY("norandommap", KT_BOOL, norandommap, 0, 0, 0, "false",
		"norandommap", NULL,
		"random offsets drawn uniformly with repeats, instead of every "
		"block once per pass (fio)",
		WORKLOAD, METHOD("random offsets", 23), .text = text_randoffs,
		.fio = "norandommap"),
	[K_RANDDIST] = KEY_OMIT("random_distribution", KT_RANDDIST, random_distribution,
		0, 0, 0, "random", "random_distribution", NULL,
		"random, zipf:THETA, pareto:H, normal:SIGMA%, zoned:A/R:..., "
		"zoned_abs:A/SIZE:... (fio)",
		WORKLOAD, METHOD("random distribution", 26),
		.fio = "random_distribution"),
	[K_RANDREPEAT] = KEY("randrepeat", KT_BOOL, randrepeat, 0, 0, 1, "true",
		"randrepeat", NULL,
		"repetitions replay the same random offsets and data (fio); "
		"false: a seed per repetition"),
	[K_LABEL] = KEY("label", KT_LABEL, label, 0, 0, 0, "derived", "label", NULL,
		"display name, e.g. \"SEQ1M Q8T1\" (include and exclude only)"),
	/* SNIA PTS */
	[K_ACTIVE_RANGE] = KEY_OMIT("active_range", KT_PCT, active_range_pct, 0, 0, 100,
		"100%", "active_range_pct", NULL,
		"share of the file set or device the cell addresses, from its "
		"start (SNIA PTS-C: 75%)",
		WORKLOAD, METHOD("active range", 34), .method_if_set = true),
	[K_STEADY] = KEY_OMIT("steady_state", KT_STEADY, steady, 0, 0, 0, "none",
		"steady_state", NULL,
		"{window: 5, range: 20%, slope: 10%, max: 25}: repeat the cell "
		"until its IOPS are steady; the result is the window average",
		WORKLOAD, METHOD("steady state", 35), .method_if_set = true),
	/* how the jobs run (fio's name, our default) */
	[K_THREAD] = KEY_OMIT("thread", KT_BOOL, thread, 0, 0, 1, "true", "thread", NULL,
		"true: the jobs are threads of one process (fio thread=1); false: "
		"each job is a process of its own session, as fio's default",
		WORKLOAD, METHOD("job model", 27), .text = text_thread),
	/* sysbench's sequential modes (seed 003): one stream for all jobs */
	[K_SEQ_SHARED] = KEY_OMIT("sequential_shared", KT_BOOL, sequential_shared, 0, 0,
		0, "false", "sequential_shared", NULL,
		"sequential jobs take turns on one stream over the file set, "
		"each the next block (sysbench seqrd/seqwr/seqrewr), instead of "
		"each its own slice; fio has no such option",
		WORKLOAD, METHOD("sequential order", 31), .text = text_seqshared,
		.method_if_set = true),
	/* latency under load: qos_keys.c */
	[K_RATE_IOPS] = KEY_OMIT("rate_iops", KT_CUSTOM, rate, 1, QOS_RATE_MAX, 0, "none",
		"rate_iops", NULL,
		"IOs per second per job, or [read, write] (fio's); each IO has an "
		"intended start and latency counts from it",
		WORKLOAD, METHOD("offered load", 28), .text = qos_text_rate,
		.method_if_set = true, .ops = &rate_iops_ops),
	[K_RATE_PROCESS] = KEY_OMIT("rate_process", KT_CUSTOM, rate_process, 0, 0, 0,
		"linear", "rate_process", NULL,
		"linear (even gaps) or poisson (exponential gaps) arrivals",
		WORKLOAD, METHOD("offered load", 28), .text = qos_text_process,
		.method_if_set = true, .ops = &rate_process_ops),
	[K_LOAD_SWEEP] = KEY_OMIT("load_sweep", KT_CUSTOM, load_sweep, QOS_SWEEP_PCT_MIN,
		QOS_SWEEP_PCT_MAX, 0, "none",
		"load_sweep", NULL,
		"{from: 20%, to: 140%, steps: 7} of the probed maximum, or "
		"{iops: [1000, 2000]}: the cell at each offered load",
		WORKLOAD, METHOD("load sweep", 29), .text = qos_text_sweep,
		.method_if_set = true, .ops = &load_sweep_ops),
	[K_QOS] = KEY_OMIT("qos", KT_CUSTOM, qos, 1, QOS_TARGET_MAX_NS, 0, "none", "qos", NULL,
		"{p99: 1ms} (or p99.9, p99.99, mean): the highest load of the "
		"sweep meeting it",
		WORKLOAD, METHOD("QoS target", 30), .text = qos_text_target,
		.method_if_set = true, .ops = &qos_ops),
	/* the model device: engine_model.c, docs/engines.md */
	[K_MODEL_LATENCY] = KEY_OMIT("model_latency", KT_DURATION, model.latency_ns, 0,
		MODEL_IO_MAX_NS, 100000, "100us", "model_latency_ns", NULL,
		"model: mean service time of one IO (its distribution: model_dist)",
		MODEL),
	[K_MODEL_DIST] = KEY_OMIT("model_dist", KT_CUSTOM, model.dist, 0, 0, 0, "fixed",
		"model_dist", NULL,
		"model: service times fixed, exponential, or uniform in 0..2x the mean",
		MODEL, .text = word_text_model_dist, .ops = &model_dist_ops),
	[K_MODEL_PARALLEL] = KEY_OMIT("model_parallel", KT_UINT, model.parallel, 1,
		MODEL_MAX_PARALLEL, 1, "1", "model_parallel", NULL,
		"model: IOs the device serves at once; more wait their turn",
		MODEL),
	[K_MODEL_IOPS] = KEY_OMIT("model_iops", KT_U64, model.iops, 0, 100000000, 0,
		"none", "model_iops", NULL,
		"model: ceiling on IOs started a second (0: none)",
		MODEL),
	[K_MODEL_BW] = KEY_OMIT("model_bw", KT_SIZE, model.bw, 0, 1ULL << 40, 0, "none",
		"model_bw_bytes_s", NULL,
		"model: ceiling on bytes a second, written as a size (500MiB: 500 "
		"MiB/s; 0: none)",
		MODEL),
	[K_MODEL_WBUF] = KEY_OMIT("model_write_buffer", KT_SIZE, model.write_buffer, 0, KEY_EXACT_MAX,
		0, "0", "model_write_buffer_bytes", NULL,
		"model: bytes a repetition writes at full speed before "
		"model_write_rate holds its writes back",
		MODEL),
	[K_MODEL_WRATE] = KEY_OMIT("model_write_rate", KT_SIZE, model.write_rate, 0,
		1ULL << 40, 0, "none", "model_write_rate_bytes_s", NULL,
		"model: bytes a second written once the write buffer is full, as a "
		"size (100MiB: 100 MiB/s; 0: no limit)",
		MODEL),
	[K_MODEL_NOISE] = KEY_OMIT("model_noise", KT_PCT, model.noise_pct, 0, 0, 0, "0",
		"model_noise_pct", NULL,
		"model: each repetition's device is slower or faster by a seeded "
		"factor up to 1 + N% (e.g. 5%)",
		MODEL),
	/* the IO buffers: fio's iomem, its default malloc */
	[K_MEM] = KEY_OMIT("mem", KT_CUSTOM, mem, 0, 0, 0, "malloc", "mem", NULL,
		"IO buffers: malloc (4K pages, as fio's default) or mmaphuge (huge "
		"pages: a large IO is one request; fio's iomem=mmaphuge needs "
		"reserved hugetlb pages)",
		WORKLOAD, METHOD("IO buffers", 33), .text = word_text_mem,
		.engine_flags = ENGINE_NEEDS_ALIGN, .method_if_set = true, .ops = &mem_ops),
};

int key_check_recorded(int k, uint64_t v, char *why, size_t whylen)
{
	const struct key *key = &cell_keys[k];

	switch (key->type) {
	case KT_U64:
		if (v == key->defv || (v >= key->min && v <= key->max))
			return 0;
		break;
	case KT_SIZE_PCT: case KT_OFFSET: case KT_IO_SIZE:
		/* an importer's 0 ("not recorded") is below a suite's min */
		if (v <= key->max)
			return 0;
		break;
	default:
		return 0;
	}
	snprintf(why, whylen, "'%s' %llu is out of range %llu..%llu", key->json,
		 (unsigned long long)v, (unsigned long long)key->min,
		 (unsigned long long)key->max);
	return -1;
}

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
		*(uint64_t *)f = v;
		break;
	case KT_UINT:
		*(unsigned *)f = (unsigned)v;
		break;
	case KT_BOOL:
		*(bool *)f = v != 0;
		break;
	case KT_PCT:
		*(double *)f = (double)v;
		break;
	case KT_IO_SIZE:
		c->io_size = v;
		c->io_size_mult = 0;
		break;
	case KT_STEADY:
		if (!v) /* the default: off */
			memset(&c->steady, 0, sizeof(c->steady));
		break;
	case KT_INT:
		*(int *)f = (int)(int64_t)v;
		break;
	case KT_CUSTOM:
		if (!v) /* the default: all zero */
			memset(f, 0, cell_keys[k].ops->size);
		break;
	case KT_ENGINE: case KT_LABEL: case KT_CPULIST: case KT_RANDDIST:
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
	case KT_DURATION:
		return *(const uint64_t *)f;
	case KT_UINT:
		return *(const unsigned *)f;
	case KT_BOOL:
		return *(const bool *)f;
	case KT_PCT:
		return (uint64_t)*(const double *)f;
	case KT_IO_SIZE:
		return c->io_size;
	case KT_STEADY:
		return c->steady.window;
	case KT_INT:
		return (uint64_t)(int64_t)*(const int *)f;
	case KT_CUSTOM: /* 1 off the default: only "is it set" is a number */
		for (size_t i = 0; i < cell_keys[k].ops->size; i++)
			if (f[i])
				return 1;
		return 0;
	case KT_ENGINE: case KT_LABEL: case KT_CPULIST: case KT_RANDDIST:
		break;
	}
	return 0;
}

const char *key_str(int k, const struct cell *c)
{
	const char *s = *(const char *const *)((const char *)c + cell_keys[k].off);

	return s ? s : "";
}

bool key_applies(int k, const struct cell *c)
{
	const struct key *key = &cell_keys[k];

	if (key->engine && strcmp(c->engine, key->engine))
		return false;
	if (!key->engine_flags)
		return true;
	const struct engine *e = engine_lookup(c->engine);
	return e && (e->flags & key->engine_flags) == key->engine_flags;
}

/* The fields a key sets beside its own (key_store_u64 sets the first). */
static double key_second(int k, const struct cell *c)
{
	switch (cell_keys[k].type) {
	case KT_SIZE_PCT: return c->size_pct;
	case KT_OFFSET: return c->offset_pct;
	case KT_DATA: return c->compress_pct;
	case KT_IO_SIZE: return c->io_size_mult;
	case KT_PCT: return *(const double *)((const char *)c + cell_keys[k].off);
	default: return 0;
	}
}

bool key_same(int k, const struct cell *a, const struct cell *b)
{
	const struct key *key = &cell_keys[k];
	const char *fa = (const char *)a + key->off, *fb = (const char *)b + key->off;

	switch (key->type) {
	case KT_ENGINE:
		return !strcmp(a->engine, b->engine);
	case KT_LABEL:
		return !strcmp(a->label, b->label);
	case KT_CPULIST: case KT_RANDDIST:
		return !strcmp(key_str(k, a), key_str(k, b));
	case KT_CUSTOM:
		return !memcmp(fa, fb, key->ops->size);
	case KT_STEADY:
		return a->steady.window == b->steady.window &&
		       a->steady.range_frac == b->steady.range_frac &&
		       a->steady.slope_frac == b->steady.slope_frac &&
		       a->steady.max == b->steady.max;
	default:
		return key_load_u64(k, a) == key_load_u64(k, b) &&
		       key_second(k, a) == key_second(k, b);
	}
}

bool key_is_default(int k, const struct cell *c)
{
	const struct key *key = &cell_keys[k];

	switch (key->type) {
	case KT_ENGINE:
		return !strcmp(c->engine, key->def);
	case KT_LABEL:
		return !c->label[0];
	case KT_CPULIST: case KT_RANDDIST:
		return !key_str(k, c)[0];
	case KT_PCT:
		return key_second(k, c) == (double)key->defv;
	case KT_CUSTOM:
		return key_load_u64(k, c) == 0;
	default:
		return key_load_u64(k, c) == key->defv && key_second(k, c) == 0;
	}
}

/* The type's way to say a value, as the Method section shows it. */
static void text_by_type(int k, const struct cell *c, struct sbuf *b)
{
	const struct key *key = &cell_keys[k];
	const char *f = (const char *)c + key->off;
	uint64_t v = key_load_u64(k, c);
	double second = key_second(k, c);
	char t[48];

	switch (key->type) {
	case KT_PATTERN: sbuf_adds(b, pattern_name(c->pattern)); return;
	case KT_DATA:
		sbuf_addf(b, "%s%s", data_name(c->data),
			  c->data == DATA_COMPRESSIBLE ? " (see compress_pct)" : "");
		return;
	case KT_ENGINE: sbuf_adds(b, f); return;
	case KT_LABEL: sbuf_adds(b, c->label); return;
	case KT_CPULIST: case KT_RANDDIST:
		sbuf_adds(b, key_str(k, c)[0] ? key_str(k, c) : key->def);
		return;
	case KT_BOOL: sbuf_adds(b, v ? "yes" : "no"); return;
	case KT_UINT: sbuf_addf(b, "%u", (unsigned)v); return;
	case KT_INT:
		if ((int64_t)v < 0)
			sbuf_adds(b, key->def);
		else
			sbuf_addf(b, "%d", (int)(int64_t)v);
		return;
	case KT_U64:
		if (!v && key->def[0] > '9') /* "none" */
			sbuf_adds(b, key->def);
		else
			sbuf_addf(b, "%llu", (unsigned long long)v);
		return;
	case KT_DURATION:
		if (!v) {
			sbuf_adds(b, "none");
			return;
		}
		units_format_duration(v, t, sizeof(t));
		sbuf_adds(b, t);
		return;
	case KT_SIZE:
		units_format_size_short(v, t, sizeof(t));
		sbuf_adds(b, t);
		return;
	case KT_SIZE_PCT: case KT_OFFSET: case KT_IO_SIZE:
		if (second > 0)
			sbuf_addf(b, key->type == KT_IO_SIZE ? "%gx the file set" :
				  "%g %% of the device", second);
		else if (!v) /* a size of 0 is one an importer could not know */
			sbuf_adds(b, key->type == KT_SIZE_PCT ? "not recorded" : key->def);
		else {
			units_format_size(v, t, sizeof(t));
			sbuf_adds(b, t);
		}
		return;
	case KT_PCT: sbuf_addf(b, "%g %%", second); return;
	case KT_STEADY:
		if (c->steady.window)
			sbuf_addf(b, "window %u, at most %u", c->steady.window, c->steady.max);
		else
			sbuf_adds(b, "none");
		return;
	case KT_CUSTOM: /* every KT_CUSTOM row has its .text */
		return;
	}
}

void key_text(int k, const struct cell *c, enum key_text how, struct sbuf *b)
{
	const struct key *key = &cell_keys[k];

	if (key->text) {
		key->text(c, how, b);
		return;
	}
	if (how == KEY_TEXT_METHOD) {
		text_by_type(k, c, b);
		return;
	}
	if (key_is_default(k, c))
		return;
	if (key->type == KT_BOOL) {
		if (key_load_u64(k, c))
			sbuf_adds(b, key->name);
		return;
	}
	sbuf_addf(b, "%s ", key->name);
	text_by_type(k, c, b);
}
