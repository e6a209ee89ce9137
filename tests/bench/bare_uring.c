/*
 * bare_uring.c - the yardstick for make bench: the least code that does the
 * bench's IO through io_uring (random 4K reads, QD32, O_DIRECT), keeping a
 * submit timestamp per IO and the latency of every completion.  One
 * io_uring_enter (submit and wait for one), one clock reading per batch.
 * "fixed" registers the file and the buffers (READ_FIXED), as iomatrix and
 * fio do with registerfiles + fixedbufs.
 *
 *   bare_uring PATH SECONDS [DEPTH [BS [fixed]]]   -> "ios=.. iops=.. ..."
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

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare_uring PATH SECONDS [DEPTH [BS [fixed]]]\n");
		return 2;
	}
	unsigned depth = argc > 3 ? (unsigned)atoi(argv[3]) : 32;
	bs = argc > 4 ? strtoull(argv[4], NULL, 0) : 4096;
	fixed = argc > 5 && !strcmp(argv[5], "fixed");
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
	    io_uring_queue_init(depth, &ring, 0) < 0) {
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
	uint64_t c0 = cpu_ns(), now = t0;
	for (unsigned i = 0; i < depth; i++) {
		prep(i);
		ts[i] = now;
	}
	unsigned inflight = depth;
	while (inflight) {
		if (io_uring_submit_and_wait(&ring, 1) < 0)
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
				inflight++;
			}
		}
		io_uring_cq_advance(&ring, n);
		inflight -= n;
	}
	uint64_t rt = now - t0, cpu = cpu_ns() - c0;
	return bare_report(&lat, rt, cpu);
}
