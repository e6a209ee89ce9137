/*
 * bare_uring.c - the yardstick for make bench: the fastest loop we know for
 * the bench's IO through io_uring (random 4K reads, QD32, O_DIRECT), keeping
 * a submit timestamp per IO and the latency of every completion.  Each turn
 * re-arms every reaped slot and hands the whole batch to the one
 * io_uring_enter that also waits (submit_and_wait), then walks the CQ ring
 * in user space; one clock reading per turn.
 *
 * Ring set-up by default is fio's and the fastest measured here
 * (2026-12-01, 2-core VM, zram, kernel 6.18; see README "make bench"):
 * SINGLE_ISSUER | DEFER_TASKRUN | COOP_TASKRUN, CQ ring of DEPTH entries,
 * io-wq left at the kernel's worker count.  make bench runs it with
 * wait=16: on zram io-wq completes one request at a time, and waiting for
 * one per enter cost 3.2-3.6 us of CPU per IO against 2.1-2.7 us waiting for
 * 16 (4 alternating rounds, load 12-18).  MODE, a comma list, switches
 * parts on or off to measure the variants:
 *   fixed      register the file and the buffers (READ_FIXED), as iomatrix
 *              and fio do with registerfiles + fixedbufs
 *   plain      no set-up flags (io_uring_queue_init(depth, 0))
 *   iowq=N     cap io-wq's bounded workers at N (IORING_REGISTER_IOWQ_MAX_WORKERS)
 *   peek       before entering to wait, take what the CQ ring already holds
 *              (useful only without DEFER_TASKRUN)
 *   wait=N     wait for N completions per enter instead of 1 (fewer
 *              wake-ups when io-wq completes the requests one by one)
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
static int fd, fixed;
static uint64_t bs, nblocks;

static void prep(unsigned i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	uint64_t off = rnd_below(nblocks) * bs;
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

static int setup(unsigned depth, const char *mode)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	if (!has(mode, "plain")) {
		p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
			  IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN;
		p.cq_entries = depth;
	}
	if (io_uring_queue_init_params(depth, &ring, &p) < 0)
		return -1;
	const char *w = strstr(mode, "iowq=");
	if (w) {
		unsigned v[2] = { (unsigned)atoi(w + 5), 0 };
		if (io_uring_register_iowq_max_workers(&ring, v) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare_uring PATH SECONDS [DEPTH [BS [MODE]]]\n");
		return 2;
	}
	unsigned depth = argc > 3 ? (unsigned)atoi(argv[3]) : 32;
	bs = argc > 4 ? strtoull(argv[4], NULL, 0) : 4096;
	const char *mode = argc > 5 ? argv[5] : "";
	fixed = has(mode, "fixed");
	int peek = has(mode, "peek");
	const char *w = strstr(mode, "wait=");
	unsigned wait_nr = w ? (unsigned)atoi(w + 5) : 1;
	if (wait_nr < 1)
		wait_nr = 1;
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (fd < 0 || size < (off_t)bs || depth < 1 || depth > 4096) {
		perror(argv[1]);
		return 1;
	}
	nblocks = (uint64_t)size / bs;
	uint64_t *ts = calloc(depth, sizeof(*ts));
	struct bare_lat lat = { 0 };
	char *buf;
	iov = calloc(depth, sizeof(*iov));
	if (!ts || !iov || posix_memalign((void **)&buf, 4096, depth * bs) ||
	    setup(depth, mode) < 0) {
		fprintf(stderr, "bare_uring: setup failed\n");
		return 1;
	}
	for (unsigned i = 0; i < depth; i++)
		iov[i] = (struct iovec){ buf + i * bs, bs };
	if (fixed && (io_uring_register_files(&ring, &fd, 1) < 0 ||
		      io_uring_register_buffers(&ring, iov, depth) < 0)) {
		fprintf(stderr, "bare_uring: cannot register the file or buffers\n");
		return 1;
	}
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(atof(argv[2]) * 1e9);
	uint64_t c0 = cpu_ns(), tc0 = thread_cpu_ns(), now = t0;
	for (unsigned i = 0; i < depth; i++) {
		prep(i);
		ts[i] = now;
	}
	unsigned pending = depth; /* prepared and not yet completed */
	while (pending) {
		int ret;
		if (peek && io_uring_cq_ready(&ring))
			ret = io_uring_sq_ready(&ring) ? io_uring_submit(&ring) : 0;
		else
			ret = io_uring_submit_and_wait(&ring, pending < wait_nr ? pending : wait_nr);
		if (ret < 0)
			return 1;
		now = now_ns();
		struct io_uring_cqe *cqe;
		unsigned head, n = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			unsigned i = (unsigned)cqe->user_data;
			if (cqe->res != (int)bs)
				return 1;
			bare_lat_add(&lat, now - ts[i]);
			n++;
			if (now < end) {
				prep(i);
				ts[i] = now;
				pending++;
			}
		}
		io_uring_cq_advance(&ring, n);
		pending -= n;
	}
	uint64_t rt = now - t0, cpu = cpu_ns() - c0, tcpu = thread_cpu_ns() - tc0;
	return bare_report2(&lat, rt, cpu, tcpu);
}
