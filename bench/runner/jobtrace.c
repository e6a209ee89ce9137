/*
 * jobtrace.c - jobtrace.h: IOMATRIX_TRACE's lines of one job.
 */
#include "jobtrace.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

/* Room for one more line (none is longer than 96 bytes). */
static void jobtrace_room(struct jobtrace *t)
{
	if (t->len > JOBTRACE_BUF - 96)
		jobtrace_flush(t);
}

void jobtrace_flush(struct jobtrace *t)
{
	size_t off = 0;
	while (off < t->len) {
		ssize_t n = write(t->fd, t->buf + off, t->len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	t->len = 0;
}

void jobtrace_request(struct jobtrace *t, const struct io_req *r)
{
	jobtrace_room(t);
	t->len += (size_t)snprintf(t->buf + t->len, 96, "%u %s %" PRIu64 " %" PRIu64 " %u\n",
				   t->idx, r->write ? "write" : "read", r->offset, r->len,
				   r->file);
}

void jobtrace_data(struct jobtrace *t, const struct io_req *r)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const unsigned char *b = r->buf;
	for (uint64_t i = 0; r->result > 0 && i < (uint64_t)r->result; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	jobtrace_room(t);
	t->len += (size_t)snprintf(t->buf + t->len, 96,
				   "%u data %s %" PRIu64 " %" PRIu64 " %u %016" PRIx64 "\n",
				   t->idx, r->write ? "write" : "read", r->offset, r->len,
				   r->file, h);
}

void jobtrace_submit(void *arg, unsigned n)
{
	struct jobtrace *t = arg;
	jobtrace_room(t);
	t->len += (size_t)snprintf(t->buf + t->len, 96, "%u submit %u\n", t->idx, n);
}
