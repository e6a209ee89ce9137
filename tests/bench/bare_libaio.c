/*
 * bare_libaio.c - the yardstick for make bench: the fastest loop we know for
 * the bench's IO through libaio (random 4K reads, QD32, O_DIRECT), keeping a
 * submit timestamp per IO and the latency of every completion.  Each turn
 * takes every completion the AIO ring holds straight from user space (the
 * ring io_setup maps; io_getevents only when it is empty), reads the clock
 * once, and hands all re-armed iocbs to one io_submit (the twin reads it
 * again before each io_submit, as iomatrix: bare.h).  MODE, a comma
 * list: "getevents" reaps through io_getevents only (the syscall per turn),
 * to measure what the ring saves; "single" hands each iocb to an io_submit
 * of its own.  "getevents,single" makes the syscalls of iomatrix's and
 * fio's default (iodepth_batch_submit 1, io_getevents(1, depth)): make
 * bench's libaio default row holds that as the floor of CPU per IO there.
 *
 *   bare_libaio PATH SECONDS [DEPTH [BS [MODE]]]   -> "ios=.. runtime_ns=.. iops=.. ..."
 */
#include <fcntl.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bare.h"

/* the completion ring at the address io_setup returns (fs/aio.c ABI) */
struct aio_ring {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
	struct io_event io_events[];
};

/* Up to max completions from the ring, without a syscall. */
static int ring_reap(io_context_t ctx, struct io_event *ev, int max)
{
	struct aio_ring *r = (struct aio_ring *)ctx;
	unsigned head = r->head, tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	int n = 0;
	while (head != tail && n < max) {
		ev[n++] = r->io_events[head];
		head = head + 1 == r->nr ? 0 : head + 1;
	}
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare_libaio PATH SECONDS [DEPTH [BS [MODE]]]\n");
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
	const struct aio_ring *ring = (const struct aio_ring *)ctx;
	const char *mode = argc > 5 ? argv[5] : "";
	int user = !strstr(mode, "getevents") &&
		   ring->magic == 0xa10a10a1u && !ring->incompat_features;
	int single = strstr(mode, "single") != NULL;
	uint64_t t0 = mono_ns(), end = t0 + (uint64_t)(atof(argv[2]) * 1e9);
	uint64_t c0 = cpu_ns(), tc0 = thread_cpu_ns(), now = t0;
	bare_lat_start(&lat, t0, atof(argv[2]));
	for (int i = 0; i < depth; i++) {
		io_prep_pread(&cbs[i], fd, buf + i * bs, bs, (long long)(bare_block(nblocks) * bs));
		ts[i] = now;
		list[i] = &cbs[i];
	}
	if (io_submit(ctx, depth, list) != depth)
		return 1;
	int inflight = depth;
	while (inflight) {
		int n = user ? ring_reap(ctx, ev, depth) : 0;
		if (!n)
			n = io_getevents(ctx, 1, depth, ev, NULL);
		if (n < 0)
			return 1;
		now = mono_ns();
		int k = 0;
		for (int e = 0; e < n; e++) {
			struct iocb *cb = ev[e].obj;
			int i = (int)(cb - cbs);
			if (ev[e].res != bs)
				return 1;
			bare_lat_add(&lat, now, now - ts[i]);
			if (now < end)
				list[k++] = cb;
		}
		inflight -= n;
		/* each submit call's iocbs re-armed and stamped with its time
		 * (bare_submit_ns: the twin reads the clock for it) */
		for (int s = 0, m = single ? 1 : k; s < k; s += m) {
			uint64_t sub = bare_submit_ns(now);
			for (int q = s; q < s + m; q++) {
				int i = (int)(list[q] - cbs);
				io_prep_pread(list[q], fd, buf + i * bs, bs,
					      (long long)(bare_block(nblocks) * bs));
				ts[i] = sub;
			}
			if (io_submit(ctx, m, list + s) != m)
				return 1;
		}
		inflight += k;
	}
	uint64_t rt = now - t0, cpu = cpu_ns() - c0, tcpu = thread_cpu_ns() - tc0;
	return bare_report2(&lat, rt, cpu, tcpu);
}
