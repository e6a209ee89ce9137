/*
 * bare_libaio.c - the yardstick for make bench: the least code that does the
 * bench's IO through libaio (random 4K reads, QD32, O_DIRECT), keeping a
 * submit timestamp per IO and the latency of every completion.  One
 * io_getevents, one clock reading and one io_submit per batch of reaped IOs.
 *
 *   bare_libaio PATH SECONDS [DEPTH [BS]]   -> "ios=.. runtime_ns=.. iops=.. ..."
 */
#include <fcntl.h>
#include <libaio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bare.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare_libaio PATH SECONDS [DEPTH [BS]]\n");
		return 2;
	}
	int depth = argc > 3 ? atoi(argv[3]) : 32;
	uint64_t bs = argc > 4 ? strtoull(argv[4], NULL, 0) : 4096;
	int fd = open(argv[1], O_RDONLY | O_DIRECT);
	off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (fd < 0 || size < (off_t)bs || depth < 1 || depth > 4096) {
		perror(argv[1]);
		return 1;
	}
	uint64_t nblocks = (uint64_t)size / bs;
	io_context_t ctx = 0;
	struct iocb *cbs = calloc((size_t)depth, sizeof(*cbs));
	struct iocb **list = calloc((size_t)depth, sizeof(*list));
	struct io_event *ev = calloc((size_t)depth, sizeof(*ev));
	uint64_t *ts = calloc((size_t)depth, sizeof(*ts));
	struct bare_lat lat = { 0 };
	char *buf;
	if (!cbs || !list || !ev || !ts || posix_memalign((void **)&buf, 4096, depth * bs) ||
	    io_setup(depth, &ctx) < 0) {
		fprintf(stderr, "bare_libaio: setup failed\n");
		return 1;
	}
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(atof(argv[2]) * 1e9);
	uint64_t c0 = cpu_ns(), now = t0;
	for (int i = 0; i < depth; i++) {
		io_prep_pread(&cbs[i], fd, buf + i * bs, bs, (long long)(rnd_below(nblocks) * bs));
		ts[i] = now;
		list[i] = &cbs[i];
	}
	if (io_submit(ctx, depth, list) != depth)
		return 1;
	int inflight = depth;
	while (inflight) {
		int n = io_getevents(ctx, 1, depth, ev, NULL);
		if (n < 0)
			return 1;
		now = now_ns();
		int k = 0;
		for (int e = 0; e < n; e++) {
			struct iocb *cb = ev[e].obj;
			int i = (int)(cb - cbs);
			if (ev[e].res != bs)
				return 1;
			bare_lat_add(&lat, now - ts[i]);
			if (now < end) {
				io_prep_pread(cb, fd, buf + i * bs, bs,
					      (long long)(rnd_below(nblocks) * bs));
				ts[i] = now;
				list[k++] = cb;
			}
		}
		inflight -= n;
		if (k && io_submit(ctx, k, list) != k)
			return 1;
		inflight += k;
	}
	uint64_t rt = now - t0, cpu = cpu_ns() - c0;
	return bare_report(&lat, rt, cpu);
}
