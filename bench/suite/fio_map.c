/*
 * fio_map.c - cell -> fio options (see fio_map.h).
 *
 * Where the two tools differ:
 *  - our `size` is per file and our files are shared by all jobs; fio's
 *    `filesize` is per file, and listing the files in filename= (named as
 *    the runner names them, CELL_FILE_FMT) makes every job use them (with
 *    directory= + filename_format the second job of the same names does no
 *    IO in fio 3.33).
 *  - sequential jobs each own a contiguous slice in our runner: fio gets
 *    size = slice and offset_increment = slice.
 *  - requests and io_size are totals for us, per job for fio: divided.
 *  - with a runtime alone we run until it ends (wrapping around the file),
 *    which is fio's time_based; time_based ignores io_size and number_ios,
 *    so requests/io_size become io_size (+ number_ios) and runtime caps
 *    them; with no stop rule, one pass (fio's default).
 *  - reaping: we take whatever has completed, up to iodepth, per call
 *    (iodepth_batch_complete_max 0); fio's default reaps complete_min (1)
 *    at a time, one io_getevents per IO.  The job says
 *    iodepth_batch_complete_max=iodepth, so both make the same syscalls
 *    per IO (see engine_libaio.c for the numbers).  userspace_reap needs
 *    iodepth_batch_complete_min=0 in fio, which then polls the ring where
 *    we wait in io_getevents; io_uring's submit_and_wait has no fio twin:
 *    fio_map_unlike() says so.
 *  - io_uring setup flags: fio 3.33 asks for SINGLE_ISSUER | DEFER_TASKRUN
 *    (+ COOP_TASKRUN, moot with DEFER) by itself, as engine_uring.c does
 *    (strace of both, 2026-12-01), and has no option for them: nothing to
 *    export.  io-wq keeps the kernel's worker count in both.
 *  - buffers: we stamp 8 bytes per 512 B of each write buffer (data:
 *    random), which is fio's scramble_buffers (its default, said for the
 *    reader); refill_buffers would regenerate the whole buffer per write.
 *  - numa_node has no fio twin: numa_cpu_nodes + numa_mem_policy=bind.
 *  - IO buffers are 4K pages from the allocator in both by default (fio's
 *    iomem=malloc).  mem: mmaphuge asks ours for huge pages (runner.c):
 *    reserved hugetlb pages where there are enough, which is fio's
 *    iomem=mmaphuge, else transparent huge pages, which fio has no option
 *    for: the job then keeps fio's malloc and says NOT THE SAME.  On a
 *    device that takes fewer segments per request than bs / 4K (loop 128,
 *    virtio-blk 254) a large IO of 4K pages can be split: a 1M read QD8
 *    made 45-172 device reads per 100 IOs in 4K pages, 100 in huge pages
 *    (make bench's disk rows show both).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fio_map.h"
#include "util/hugetlb.h"
#include "qos_keys.h"
#include "keys.h"

static const char *fio_rw(enum pattern p)
{
	switch (p) {
	case PAT_READ: return "read";
	case PAT_WRITE: return "write";
	case PAT_RANDREAD: return "randread";
	case PAT_RANDWRITE: return "randwrite";
	case PAT_READWRITE: return "readwrite";
	case PAT_RANDRW: return "randrw";
	case PAT_REWRITE: return "write"; /* + overwrite=1 */
	default: return "read";
	}
}

bool fio_map_path_is_dir(const char *p)
{
	struct stat st;
	if (stat(p, &st) < 0)
		return p[0] && p[strlen(p) - 1] == '/';
	return S_ISDIR(st.st_mode);
}

/* fio splits filename= on ':'; escape it (and the escape character). */
static size_t fio_escape(char *out, size_t len, size_t n, const char *s)
{
	for (; *s && n + 3 < len; s++) {
		if (*s == ':' || *s == '\\')
			out[n++] = '\\';
		out[n++] = *s;
	}
	out[n] = '\0';
	return n;
}

static void emitf(fio_map_emit emit, void *arg, const char *key,
		  unsigned long long v)
{
	char b[32];
	snprintf(b, sizeof(b), "%llu", v);
	emit(arg, key, b);
}

/* The options the key table gives a fio name (batching, io_uring's fast
 * paths, cpus_allowed): only what differs from fio's defaults, and each
 * only where the key applies (fio refuses an engine's options for another
 * engine).  numa_node is two fio options, said here. */
static void fio_map_engine_opts(const struct cell *c, fio_map_emit emit, void *arg)
{
	char b[32];
	for (int k = 0; k < NKEYS; k++) {
		const struct key *key = &cell_keys[k];
		uint64_t v = key_load_u64(k, c);
		if (!key->fio || !key_applies(k, c) || key_is_default(k, c))
			continue;
		if (k == K_BATCH_CMIN && c->userspace_reap)
			continue; /* said below */
		if ((k == K_NORANDOMMAP || k == K_RANDDIST) && !pattern_is_random(c->pattern))
			continue; /* nothing random to place */
		if (key->type == KT_CPULIST || key->type == KT_RANDDIST)
			emit(arg, key->fio, key_str(k, c));
		else if (key->type == KT_BOOL)
			emit(arg, key->fio, v ? "1" : "0");
		else if (key->type == KT_INT) {
			snprintf(b, sizeof(b), "%d", (int)(int64_t)v);
			emit(arg, key->fio, b);
		} else
			emitf(emit, arg, key->fio, v);
	}
	/* our default reaps up to iodepth per call, fio's complete_min (1) */
	if (key_applies(K_BATCH_CMAX, c) && !c->iodepth_batch_complete_max && c->iodepth > 1)
		emitf(emit, arg, "iodepth_batch_complete_max", c->iodepth);
	/* fio reads the ring only when it may return with none */
	if (key_applies(K_USERSPACE_REAP, c) && c->userspace_reap)
		emit(arg, "iodepth_batch_complete_min", "0");
	if (c->numa_node >= 0) {
		emitf(emit, arg, "numa_cpu_nodes", (unsigned)c->numa_node);
		snprintf(b, sizeof(b), "bind:%d", c->numa_node);
		emit(arg, "numa_mem_policy", b);
	}
}

/* The share of each file or of the device that the cell addresses. */
static double active_share(const struct cell *c)
{
	return c->active_range_pct > 0 && c->active_range_pct < 100 ?
	       c->active_range_pct / 100.0 : 1.0;
}

/* Do the jobs each own a slice (sequential, several jobs, one file)? */
static bool sliced(const struct cell *c)
{
	return !(c->size_pct > 0) && !pattern_is_random(c->pattern) &&
	       c->jobs > 1 && c->files == 1;
}

/* mem: mmaphuge is fio's iomem=mmaphuge (anonymous MAP_HUGETLB, each
 * job's iodepth x bs rounded up to huge pages) only where the machine has
 * that many reserved huge pages free; elsewhere fio's mmap fails. */
static bool fio_map_hugetlb_ok(const struct cell *c)
{
	uint64_t page = hugetlb_page_bytes();
	uint64_t need = (uint64_t)(c->jobs ? c->jobs : 1) *
			hugetlb_round((uint64_t)(c->iodepth ? c->iodepth : 1) * c->bs, page);
	return hugetlb_free_bytes() >= need;
}

/* the buffer contents: what the runner writes (docs/engines.md, "Buffer
 * contents"), and mem */
static void fio_map_buffers(const struct cell *c, fio_map_emit emit, void *arg)
{
	if (key_applies(K_MEM, c) && c->mem == MEM_MMAPHUGE && fio_map_hugetlb_ok(c))
		emit(arg, "iomem", "mmaphuge");
	switch (c->data) {
	case DATA_ZERO:
		emit(arg, "zero_buffers", "1");
		break;
	case DATA_COMPRESSIBLE:
		emitf(emit, arg, "buffer_compress_percentage", c->compress_pct);
		emit(arg, "scramble_buffers", "1");
		break;
	case DATA_RANDOM:
		/* fio 3.33 fills its buffers at the start with a generator whose
		 * bytes cost zram's lzo five times the work of random ones (perf
		 * 2026-12-01: 39 % of fio's samples in lzo1x_1_do_compress, 7 %
		 * of ours; both end up stored uncompressed): 19 us of CPU per 4K
		 * write on zram against our 8.  Naming a compress percentage of
		 * 0 makes fio fill them with its random generator instead: 8 us,
		 * no refill per write (usr time unchanged) */
		emit(arg, "buffer_compress_percentage", "0");
		emit(arg, "scramble_buffers", "1");
		break;
	}
}

/* io_size_mult of a percentage-sized device as fio's io_size=N%, which
 * multiplies each job's size= (the active share, all of it per job). */
static double io_size_pct(const struct cell *c)
{
	unsigned jobs = c->jobs ? c->jobs : 1;
	return c->io_size_mult * 100.0 / active_share(c) / (sliced(c) ? 1 : jobs);
}

double fio_map_io_size_env(const struct cell *c)
{
	unsigned jobs = c->jobs ? c->jobs : 1;

	if (!(c->io_size_mult > 0 && c->size_pct > 0) || io_size_pct(c) <= 100)
		return 0;
	return c->size_pct / 100.0 * c->io_size_mult / jobs;
}

void fio_map_cell(const struct cell *c, bool dir, fio_map_emit emit, void *arg)
{
	char b[64], *fn;
	size_t fnlen;
	uint64_t size = c->size;
	uint64_t bs = c->bs ? c->bs : 4096;
	unsigned jobs = c->jobs ? c->jobs : 1;
	size_t n = 0;

	emit(arg, "rw", fio_rw(c->pattern));
	if (c->pattern == PAT_REWRITE)
		emit(arg, "overwrite", "1");
	emitf(emit, arg, "bs", bs);
	/* the model device has no fio twin: fio's null engine does no IO
	 * either (fio_map_unlike says NOT THE SAME) */
	emit(arg, "ioengine", strcmp(c->engine, "model") ? c->engine : "null");
	emitf(emit, arg, "iodepth", c->iodepth);
	emit(arg, "direct", c->direct ? "1" : "0");
	emitf(emit, arg, "numjobs", jobs);
	emit(arg, "group_reporting", "1");
	/* every file named, each escaped (at most doubling its length) */
	fnlen = (size_t)(dir ? (c->files ? c->files : 1) : 1) *
		(2 * strlen(c->path) + 2 * (CELL_NAME_MAX + 32) + 2) + 1;
	fn = c->path[0] ? malloc(fnlen) : NULL;
	if (!c->path[0]) {
		/* imported from published numbers: no path to name */
	} else if (!fn) {
		emit(arg, "filename", c->path); /* out of memory: unescaped */
	} else {
		if (dir) {
			size_t dl = strlen(c->path);
			bool slash = dl && c->path[dl - 1] == '/';
			for (unsigned i = 0; i < c->files; i++) {
				char name[CELL_NAME_MAX + 32];
				snprintf(name, sizeof(name), CELL_FILE_FMT, c->device, i);
				if (i)
					fn[n++] = ':';
				n = fio_escape(fn, fnlen, n, c->path);
				if (!slash)
					fn[n++] = '/';
				n = fio_escape(fn, fnlen, n, name);
			}
			fn[n] = '\0';
		} else {
			fio_escape(fn, fnlen, 0, c->path);
		}
		emit(arg, "filename", fn);
		free(fn);
	}
	/* active_range: the first share of each file or of the device; fio
	 * spreads size= evenly over the files, each from its start */
	double ar = active_share(c);
	uint64_t active = (uint64_t)((double)size * ar);
	active -= active % bs;
	if (c->size_pct > 0) {
		snprintf(b, sizeof(b), "%g%%", c->size_pct * ar);
		emit(arg, "size", b);
	} else if (sliced(c)) {
		/* each sequential job owns a contiguous slice of the file */
		uint64_t slice = active / jobs;
		slice -= slice % bs;
		emitf(emit, arg, "filesize", size);
		emitf(emit, arg, "size", slice);
		emitf(emit, arg, "offset_increment", slice);
	} else {
		emitf(emit, arg, "filesize", size);
		emitf(emit, arg, "size", ar < 1 ? active * (c->files ? c->files : 1) :
		      size * (c->files ? c->files : 1));
	}
	if (c->offset_pct > 0) {
		snprintf(b, sizeof(b), "%g%%", c->offset_pct);
		emit(arg, "offset", b);
	} else if (c->offset) {
		emitf(emit, arg, "offset", c->offset);
	}
	if (c->runtime_ns) {
		if (!c->requests && !c->io_size && !(c->io_size_mult > 0))
			emit(arg, "time_based", "1");
		snprintf(b, sizeof(b), "%llums",
			 (unsigned long long)(c->runtime_ns / 1000000ULL));
		emit(arg, "runtime", b);
	}
	if (c->ramp_ns) {
		snprintf(b, sizeof(b), "%llums",
			 (unsigned long long)(c->ramp_ns / 1000000ULL));
		emit(arg, "ramp_time", b);
	}
	uint64_t io_total = c->io_size;
	if (!io_total && c->io_size_mult > 0 && !(c->size_pct > 0))
		io_total = (uint64_t)(c->io_size_mult * (double)size *
				      (double)(c->files ? c->files : 1));
	if (c->io_size_mult > 0 && c->size_pct > 0) {
		/* a share of a device whose size only the run knows */
		double pct = io_size_pct(c);
		if (pct <= 100) {
			snprintf(b, sizeof(b), "%.6g%%", pct);
			emit(arg, "io_size", b);
		} else {
			emit(arg, "io_size", "${" FIO_MAP_IO_SIZE_ENV "}");
		}
		if (c->requests)
			emitf(emit, arg, "number_ios", (c->requests + jobs - 1) / jobs);
	} else if (c->requests || io_total) {
		uint64_t per = UINT64_MAX;
		if (io_total) {
			per = io_total / jobs;
			per -= per % bs;
			if (!per)
				per = bs;
		}
		if (c->requests) {
			uint64_t nr = (c->requests + jobs - 1) / jobs;
			emitf(emit, arg, "number_ios", nr);
			if (nr <= UINT64_MAX / bs && nr * bs < per)
				per = nr * bs;
		}
		emitf(emit, arg, "io_size", per);
	}
	if (pattern_is_mixed(c->pattern))
		emitf(emit, arg, "rwmixread", c->rwmixread);
	if (c->fsync)
		emitf(emit, arg, "fsync", c->fsync);
	if (c->end_fsync)
		emit(arg, "end_fsync", "1");
	fio_map_buffers(c, emit, arg);
	/* randrepeat=0 in fio seeds from the clock: a new pattern every run,
	 * as ours is new every repetition (not the same one, see docs/engines.md, "Random offsets and fsync rules") */
	emit(arg, "randrepeat", c->randrepeat ? "1" : "0");
	/* our default job model is threads (thread: true), fio's processes:
	 * always say which, so the exported job gets the cell's scheduling
	 * under sched_autogroup (docs/engines.md, "Threads or processes") */
	emit(arg, "thread", c->thread ? "1" : "0");
	emitf(emit, arg, "randseed", c->seed);
	/* fio's default invalidate=1 drops the file's cached pages at the start
	 * of every time_based loop; our runner leaves the page cache alone
	 * unless drop_caches is set, so buffered cells must say invalidate=0
	 * or fio reads the disk where we read memory (hdparm -T: 30-60x). */
	emit(arg, "invalidate", c->drop_caches ? "1" : "0");
	fio_map_engine_opts(c, emit, arg);
	qos_fio_map(c, emit, arg); /* rate_iops, rate_process */
}

const char *fio_map_unlike(const struct cell *c)
{
	if (!strcmp(c->engine, "model"))
		return "engine model: iomatrix's model device serves each IO as its "
		       "model_* keys say; fio has no such engine, and this job runs "
		       "fio's null engine, which completes every IO at once";
	if (key_applies(K_SUBMIT_AND_WAIT, c) && c->submit_and_wait)
		return "submit_and_wait: iomatrix submits the last batch on the "
		       "io_uring_enter that waits for completions; fio cannot (it "
		       "submits, then enters again to wait), so fio makes more "
		       "syscalls per IO";
	if (key_applies(K_MEM, c) && c->mem == MEM_MMAPHUGE && !fio_map_hugetlb_ok(c))
		return "mem: mmaphuge: this machine has too few free reserved huge "
		       "pages (vm.nr_hugepages) for fio's iomem=mmaphuge, so the job "
		       "keeps fio's malloc buffers (4K pages) while iomatrix uses "
		       "transparent huge pages: a large IO can be one request for "
		       "iomatrix and two for fio (a loop device takes 128 segments)";
	if (key_applies(K_USERSPACE_REAP, c) && c->userspace_reap)
		return "userspace_reap: iomatrix reads the AIO ring and waits in "
		       "io_getevents when it is empty; fio (with "
		       "iodepth_batch_complete_min=0) polls the ring instead: the same "
		       "syscalls per IO where the device completes inline (zram, page "
		       "cache), fewer for fio and a busy CPU elsewhere";
	return NULL;
}
