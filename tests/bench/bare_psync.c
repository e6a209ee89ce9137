/*
 * bare_psync.c - the yardstick of make bench's psync row: the least code
 * that does the bench's IO with pread(2) (random 4K reads, one at a time,
 * O_DIRECT), two clock readings per IO (the latency of each) as iomatrix
 * and fio take.
 *
 *   bare_psync PATH SECONDS [BS]   -> "ios=.. runtime_ns=.. iops=.. ..."
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "bare.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare_psync PATH SECONDS [BS]\n");
		return 2;
	}
	uint64_t bs = argc > 3 ? strtoull(argv[3], NULL, 0) : 4096;
	int fd = open(argv[1], O_RDONLY | O_DIRECT);
	off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	char *buf;
	if (fd < 0 || size < (off_t)bs || posix_memalign((void **)&buf, 4096, bs)) {
		perror(argv[1]);
		return 1;
	}
	uint64_t nblocks = (uint64_t)size / bs;
	struct bare_lat lat = { 0 };
	uint64_t t0 = mono_ns(), end = t0 + (uint64_t)(atof(argv[2]) * 1e9);
	uint64_t c0 = cpu_ns(), tc0 = thread_cpu_ns(), now = t0;
	bare_lat_start(&lat, t0, atof(argv[2]));
	while (now < end) {
		uint64_t ts = now;
		if (pread(fd, buf, bs, (off_t)(bare_block(nblocks) * bs)) != (ssize_t)bs)
			return 1;
		now = mono_ns();
		bare_lat_add(&lat, now, now - ts);
	}
	uint64_t rt = now - t0, cpu = cpu_ns() - c0, tcpu = thread_cpu_ns() - tc0;
	return bare_report2(&lat, rt, cpu, tcpu);
}
