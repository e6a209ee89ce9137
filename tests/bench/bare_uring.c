/*
 * bare_uring.c - the yardstick for make bench: the fastest loop we know for
 * the bench's IO through io_uring (random 4K reads, QD32, O_DIRECT), keeping
 * a submit timestamp per IO and the latency of every completion.  Each turn
 * re-arms every reaped slot, hands the whole batch to the kernel, takes
 * what the CQ ring holds in user space; one clock reading per turn (the
 * twin's, bare.h: one more before each submitting enter, as iomatrix's).
 *
 * MODE, a comma list, picks the variant (all measured, see below):
 *   fixed      register the file and the buffers (READ_FIXED), as iomatrix
 *              and fio do with registerfiles + fixedbufs
 *   plain      no set-up flags (io_uring_queue_init(depth, 0))
 *   coop       COOP_TASKRUN | SINGLE_ISSUER without DEFER_TASKRUN: the
 *              kernel posts completions to the CQ ring as they happen
 *   peek       before entering to wait, take what the CQ ring already holds
 *              (useful only without DEFER_TASKRUN, i.e. with coop or plain)
 *   sep        submit on an enter of its own (with GETEVENTS, as fio's
 *              commit), then enter again only to wait, instead of one enter
 *              that both submits and waits
 *   one        submit each re-armed SQE on an enter of its own (with
 *              GETEVENTS), as iomatrix's and fio's default (iodepth_batch
 *              1) do, and enter to wait only when the CQ ring is empty
 *   regring    register the ring fd (IORING_REGISTER_RING_FDS, 5.18+):
 *              each enter skips the fd table lookup
 *   iowq=N     cap io-wq's bounded workers at N (IORING_REGISTER_IOWQ_MAX_WORKERS)
 *   wait=N     wait for N completions per enter instead of 1
 *   after      with one: take every completion the CQ ring holds first,
 *              then submit each re-armed SQE on an enter of its own (as
 *              iomatrix's default loop does: reap, then issue); without it
 *              each SQE goes down while the ring is walked
 *   bestone    calibrate as best, among the variants that make the
 *              default's syscalls (one, with or without after and regring):
 *              the yardstick of the rows at fio's default batching
 *   best       calibrate: run every candidate variant (with fixed if given)
 *              for 4 alternating slices of 30 ms, and measure with the one
 *              that made most IOs; its name is printed as variant=..
 * Default set-up (no plain/coop) is fio's: SINGLE_ISSUER | DEFER_TASKRUN |
 * COOP_TASKRUN, a CQ ring of DEPTH entries, io-wq at the kernel's count.
 *
 * What the variants gave (2026-12-01 20:50-21:10 UTC, this 2-core VM
 * shared with three other engineers, zram 4K randread QD32, 2 s runs
 * alternating with iomatrix's default and fio, K IOPS min-max of 2-3):
 *   load 7:     wait=1 350-413, wait=4 225-446, wait=16 283-386, sep
 *               445-509, regring 436-454, coop,peek 464-506; iomatrix
 *               464-556, fio 397-410
 *   load 10-16: wait=1 110-188, wait=16 229-276, sep 148-165, coop,peek
 *               104-138, one 137-223, one,regring 95-212; iomatrix
 *               173-209, fio 129-198
 *   fixed, load 13: wait=1 107-273, wait=16 174-391, sep 173-297,
 *               coop,peek 188-283; iomatrix 208-276, fio 87-236
 * No variant won every run: waiting for 16 per enter has the fewest
 * wake-ups (CPU per IO of the thread 0.8-1.3 us against 1.4-2.4 us) and
 * wins when the CPUs are contended, but idles the submitter while io-wq
 * works when they are not, where the enter per SQE (one, sep) or the CQ
 * peeks without DEFER_TASKRUN win.  A fixed pick was below iomatrix in
 * some run either way, so make bench runs "best".
 *
 * On a quiet machine (2026-12-01 23:57 to 12-02 00:40 UTC, load under
 * 1 before each run, the unwritten 1 GiB zram make bench reads): the
 * batched variants made 0.8-2.4 M IOPS with fixed, the enter per SQE
 * 0.17-0.38 M (each single-SQE enter queues one request to an io-wq
 * worker that has run dry and wakes it: 0.23 wake-ups of the worker per
 * IO against 0.0005 batched, perf sched:sched_wakeup).  Pinned to one
 * CPU, as make bench runs the single-threaded rows, wait=16 won 10 of 10
 * calibrations; unpinned it won none of 15 (sep, wait=1, wait=4 or
 * regring did).  Among the enter-per-SQE variants (bestone), after won
 * 40 of 40 calibrations in four runs, with regring 37 of them.
 *
 *   bare_uring PATH SECONDS [DEPTH [BS [MODE]]]   -> "ios=.. iops=.. ..."
 */
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bare.h"

static struct io_uring ring;
static struct iovec *iov;
static uint64_t *ts;
static int fd, fixed;
static uint64_t bs, nblocks;
static unsigned depth;

static void prep(unsigned i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	uint64_t off = bare_block(nblocks) * bs;
	if (fixed) {
		io_uring_prep_read_fixed(sqe, 0, iov[i].iov_base, (unsigned)bs, off, (int)i);
		sqe->flags |= IOSQE_FIXED_FILE;
	} else {
		io_uring_prep_read(sqe, fd, iov[i].iov_base, (unsigned)bs, off);
	}
	sqe->user_data = i;
}

static int has(const char *mode, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = mode; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0' || p[n] == '='))
			return 1;
	return 0;
}

static unsigned num_of(const char *mode, const char *word, unsigned dflt)
{
	const char *w = strstr(mode, word);
	return w ? (unsigned)atoi(w + strlen(word)) : dflt;
}

static int setup(const char *mode)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	if (has(mode, "coop")) {
		p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
			  IORING_SETUP_COOP_TASKRUN;
		p.cq_entries = depth;
	} else if (!has(mode, "plain")) {
		p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
			  IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN;
		p.cq_entries = depth;
	}
	if (io_uring_queue_init_params(depth, &ring, &p) < 0)
		return -1;
	if (strstr(mode, "iowq=")) {
		unsigned v[2] = { num_of(mode, "iowq=", 0), 0 };
		if (io_uring_register_iowq_max_workers(&ring, v) < 0)
			return -1;
	}
	if (has(mode, "regring") && io_uring_register_ring_fd(&ring) < 0)
		return -1;
	if (fixed && (io_uring_register_files(&ring, &fd, 1) < 0 ||
		      io_uring_register_buffers(&ring, iov, depth) < 0))
		return -1;
	return 0;
}

/* One measured run of the loop in MODE for SECONDS; 0 or 1 on failure. */
static int run(const char *mode, double seconds, struct bare_lat *lat, uint64_t *rt,
	       uint64_t *cpu, uint64_t *tcpu)
{
	int peek = has(mode, "peek"), sep = has(mode, "sep"), one = has(mode, "one");
	int after = one && has(mode, "after");
	unsigned rearm[4096], nrearm;
	unsigned wait_nr = num_of(mode, "wait=", 1);
	if (wait_nr < 1)
		wait_nr = 1;
	if (setup(mode) < 0) {
		fprintf(stderr, "bare_uring: set-up '%s' failed\n", mode);
		return 1;
	}
	uint64_t t0 = mono_ns(), end = t0 + (uint64_t)(seconds * 1e9);
	uint64_t c0 = cpu_ns(), tc0 = thread_cpu_ns(), now = t0;
	bare_lat_start(lat, t0, seconds);
	for (unsigned i = 0; i < depth; i++) {
		prep(i);
		ts[i] = now;
	}
	unsigned pending = depth; /* prepared and not yet completed */
	while (pending) {
		int ret = 0;
		unsigned want = pending < wait_nr ? pending : wait_nr;
		struct io_uring_cqe *cqe;
		if (one || sep) {
			/* sep: the whole batch; one: only the first turn's */
			if (io_uring_sq_ready(&ring))
				ret = io_uring_submit_and_get_events(&ring);
			if (ret >= 0 && io_uring_cq_ready(&ring) < want)
				ret = io_uring_wait_cqe_nr(&ring, &cqe, want);
		} else if (peek && io_uring_cq_ready(&ring)) {
			ret = io_uring_sq_ready(&ring) ? io_uring_submit(&ring) : 0;
		} else {
			ret = io_uring_submit_and_wait(&ring, want);
		}
		if (ret < 0)
			return 1;
		now = mono_ns();
		unsigned head, n = 0;
		nrearm = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			unsigned i = (unsigned)cqe->user_data;
			if (cqe->res != (int)bs)
				return 1;
			bare_lat_add(lat, now, now - ts[i]);
			n++;
			if (now < end && !(one && !after)) {
				rearm[nrearm++] = i;
			} else if (now < end) {
				prep(i);
				ts[i] = bare_submit_ns(now);
				pending++;
				/* the loop reloads the CQ tail: what this enter
				 * posts is taken in the same turn */
				if (io_uring_submit_and_get_events(&ring) < 0)
					return 1;
			}
		}
		io_uring_cq_advance(&ring, n);
		pending -= n;
		/* after: the whole batch taken first, then an enter per
		 * re-armed SQE (iomatrix's default loop: reap, then issue),
		 * each stamped before its enter (bare_submit_ns); without one,
		 * the batch stamped at once for the next turn's enter */
		uint64_t sub = nrearm ? bare_submit_ns(now) : now;
		for (unsigned k = 0; k < nrearm; k++) {
			if (after && k)
				sub = bare_submit_ns(now);
			prep(rearm[k]);
			ts[rearm[k]] = sub;
			pending++;
			if (after && io_uring_submit_and_get_events(&ring) < 0)
				return 1;
		}
	}
	*rt = now - t0, *cpu = cpu_ns() - c0, *tcpu = thread_cpu_ns() - tc0;
	io_uring_queue_exit(&ring);
	return 0;
}

/* The candidates of "best": each measured (with ",fixed" when asked). */
static const char *const variants[] = {
	"wait=1", "wait=4", "wait=16", "sep", "regring", "coop,peek",
	"one", "one,regring",
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))
/* The candidates of "bestone": the loops that make the syscalls of fio's
 * and iomatrix's default (iodepth_batch 1: an enter per SQE). */
static const char *const one_variants[] = {
	"one", "one,regring", "one,after", "one,after,regring",
};
#define NONE_VARIANTS (sizeof(one_variants) / sizeof(one_variants[0]))
_Static_assert(NONE_VARIANTS <= NVARIANTS, "calibrate counts IOs in an array of NVARIANTS");

/* Calibration: 4 alternating slices of 30 ms per candidate (under a
 * second in all); the mode string with the most IOs in total goes into
 * out. */
static int calibrate(const char *const *cand, size_t ncand, int with_fixed, char *out,
		     size_t outlen)
{
	uint64_t ios[NVARIANTS] = { 0 };
	char mode[64];
	for (int round = 0; round < 4; round++)
		for (size_t v = 0; v < ncand; v++) {
			struct bare_lat l = { 0 };
			uint64_t rt, c, tc;
			snprintf(mode, sizeof(mode), "%s%s", cand[v], with_fixed ? ",fixed" : "");
			if (run(mode, 0.03, &l, &rt, &c, &tc))
				return 1;
			ios[v] += l.ios;
		}
	size_t best = 0;
	for (size_t v = 1; v < ncand; v++)
		if (ios[v] > ios[best])
			best = v;
	snprintf(out, outlen, "%s%s", cand[best], with_fixed ? ",fixed" : "");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare_uring PATH SECONDS [DEPTH [BS [MODE]]]\n");
		return 2;
	}
	depth = argc > 3 ? (unsigned)atoi(argv[3]) : 32;
	bs = argc > 4 ? strtoull(argv[4], NULL, 0) : 4096;
	const char *mode = argc > 5 ? argv[5] : "";
	fixed = has(mode, "fixed");
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (fd < 0 || size < (off_t)bs || depth < 1 || depth > 4096) {
		perror(argv[1]);
		return 1;
	}
	nblocks = (uint64_t)size / bs;
	ts = calloc(depth, sizeof(*ts));
	iov = calloc(depth, sizeof(*iov));
	char *buf;
	if (!ts || !iov || posix_memalign((void **)&buf, 4096, depth * bs)) {
		fprintf(stderr, "bare_uring: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < depth; i++)
		iov[i] = (struct iovec){ buf + i * bs, bs };
	char picked[64];
	if (has(mode, "best") || has(mode, "bestone")) {
		int one = has(mode, "bestone");
		if (calibrate(one ? one_variants : variants, one ? NONE_VARIANTS : NVARIANTS,
			      fixed, picked, sizeof(picked)))
			return 1;
		mode = picked;
	}
	struct bare_lat lat = { 0 };
	uint64_t rt, cpu, tcpu;
	if (run(mode, atof(argv[2]), &lat, &rt, &cpu, &tcpu))
		return 1;
	printf("variant=%s ", *mode ? mode : "wait=1");
	return bare_report2(&lat, rt, cpu, tcpu);
}
