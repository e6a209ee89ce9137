/*
 * relay.c - byte pipes over MPI (relay.h).
 *
 * MPI gives no descriptor to poll, so the loop alternates: drain what MPI
 * has (MPI_Iprobe), write it out, poll the local descriptors.  A message
 * from MPI waits for the end of the poll, so the poll is short (100 us)
 * for QUICK_MS after any traffic - a ping's round trip, the fleet's clock
 * offsets, crosses two relays at that interval - and 2 ms once the links
 * are quiet (a cell in progress), so an idle relay wakes 500 times a
 * second instead of spinning beside the benchmark.  A go that waits 2 ms
 * is well inside the barrier's 20 ms margin.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "util/array.h"
#include "util/monotime.h"
#include "relay.h"

#define POLL_MIN_US 100
#define POLL_MAX_US 2000
#define QUICK_MS 50

struct pending {
	MPI_Request req;
	char *buf;
};

struct sends {
	struct pending *p;
	size_t n, cap;
};

static int send_bytes(struct sends *s, int peer, int tag, const char *data, size_t len)
{
	struct pending *v = array_grow(s->p, &s->cap, s->n, sizeof(*v), 16);
	if (!v)
		return -1;
	s->p = v;
	struct pending *p = &s->p[s->n];
	p->buf = NULL;
	if (len) {
		p->buf = malloc(len);
		if (!p->buf)
			return -1;
		memcpy(p->buf, data, len);
	}
	if (MPI_Isend(p->buf, (int)len, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &p->req) != MPI_SUCCESS) {
		free(p->buf);
		return -1;
	}
	s->n++;
	return 0;
}

/* Free the sends that completed; -1 when MPI failed. */
static int sends_reap(struct sends *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		int flag = 0;
		if (MPI_Test(&s->p[i].req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (flag)
			free(s->p[i].buf);
		else
			s->p[k++] = s->p[i];
	}
	s->n = k;
	return 0;
}

static struct relay_link *by_peer(struct relay_link *l, size_t n, int peer)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].peer == peer)
			return &l[i];
	return NULL;
}

static int append(struct relay_link *k, const char *b, size_t len)
{
	if (k->nout + len > k->cap) {
		size_t cap = k->cap ? k->cap : 65536;
		while (cap < k->nout + len)
			cap *= 2;
		char *o = realloc(k->out, cap);
		if (!o)
			return -1;
		k->out = o;
		k->cap = cap;
	}
	memcpy(k->out + k->nout, b, len);
	k->nout += len;
	return 0;
}

/* Everything MPI holds for us, into the links' buffers.  >0 when something
 * came, 0 nothing, -1 MPI failed. */
static int drain_mpi(struct relay_link *l, size_t n, char *buf)
{
	int got = 0;

	for (;;) {
		int flag = 0, count = 0;
		MPI_Status st;
		if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
			return -1;
		if (!flag)
			return got;
		if (st.MPI_TAG != RELAY_TAG_DATA && st.MPI_TAG != RELAY_TAG_EOF)
			return got; /* not the relay's: left to whoever waits for it */
		MPI_Get_count(&st, MPI_CHAR, &count);
		if (count < 0 || count > RELAY_CHUNK)
			return -1;
		if (MPI_Recv(buf, count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		struct relay_link *k = by_peer(l, n, st.MPI_SOURCE);
		got = 1;
		if (!k)
			continue;
		if (st.MPI_TAG == RELAY_TAG_EOF)
			k->got_eof = true;
		else if (k->wfd >= 0 && append(k, buf, (size_t)count) < 0)
			return -1;
	}
}

/* Write what a link holds; close its output once the peer ended and all
 * is out, or when the reader went away. */
static int flush_link(struct relay_link *k)
{
	int moved = 0;

	while (k->wfd >= 0 && k->nout) {
		ssize_t w = write(k->wfd, k->out, k->nout);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			break;
		if (w <= 0) { /* EPIPE: nobody reads it any more */
			k->nout = 0;
			close(k->wfd);
			k->wfd = -1;
			break;
		}
		memmove(k->out, k->out + w, k->nout - (size_t)w);
		k->nout -= (size_t)w;
		moved = 1;
	}
	if (k->wfd >= 0 && k->got_eof && !k->nout) {
		close(k->wfd);
		k->wfd = -1;
		moved = 1;
	}
	return moved;
}

/* Read what the local side wrote and send it on.  >0 moved, -1 failed. */
static int pump_link(struct relay_link *k, struct sends *s, char *buf)
{
	ssize_t r;

	if (k->rfd < 0)
		return 0;
	r = read(k->rfd, buf, RELAY_CHUNK);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (r > 0)
		return send_bytes(s, k->peer, RELAY_TAG_DATA, buf, (size_t)r) < 0 ? -1 : 1;
	close(k->rfd);
	k->rfd = -1;
	if (!k->sent_eof) {
		k->sent_eof = true;
		if (send_bytes(s, k->peer, RELAY_TAG_EOF, NULL, 0) < 0)
			return -1;
	}
	return 1;
}

static bool all_ended(const struct relay_link *l, size_t n, const struct sends *s)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].rfd >= 0 || l[i].wfd >= 0 || !l[i].got_eof)
			return false;
	return s->n == 0;
}

static void close_all(struct relay_link *l, size_t n, struct sends *s)
{
	for (size_t i = 0; i < n; i++) {
		if (l[i].rfd >= 0) {
			close(l[i].rfd);
			l[i].rfd = -1;
			if (!l[i].sent_eof) {
				l[i].sent_eof = true;
				send_bytes(s, l[i].peer, RELAY_TAG_EOF, NULL, 0);
			}
		}
		if (l[i].wfd >= 0) {
			close(l[i].wfd);
			l[i].wfd = -1;
		}
	}
}

int relay_run(struct relay_link *l, size_t n, volatile sig_atomic_t *done,
	      volatile sig_atomic_t *hurry, int linger_ms)
{
	struct sends s = { 0 };
	struct pollfd *pfd = calloc(2 * n + 1, sizeof(*pfd));
	char *buf = malloc(RELAY_CHUNK);
	uint64_t done_at = 0, active_at = mono_ms();
	int ret = -1;

	if (!pfd || !buf)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (l[i].rfd >= 0)
			fcntl(l[i].rfd, F_SETFL, fcntl(l[i].rfd, F_GETFL) | O_NONBLOCK);
		if (l[i].wfd >= 0)
			fcntl(l[i].wfd, F_SETFL, fcntl(l[i].wfd, F_GETFL) | O_NONBLOCK);
	}
	for (;;) {
		int moved = drain_mpi(l, n, buf);
		if (moved < 0 || sends_reap(&s) < 0)
			goto out;
		for (size_t i = 0; i < n; i++)
			moved |= flush_link(&l[i]);
		if (all_ended(l, n, &s)) {
			ret = 0;
			goto out;
		}
		if (*done && !done_at)
			done_at = mono_ms();
		if (done_at && mono_ms() - done_at > (uint64_t)(*hurry && linger_ms > 200 ? 200 : linger_ms)) {
			/* what is still open will not be answered: end it, and
			 * give the last sends a moment to leave */
			close_all(l, n, &s);
			for (int t = 0; t < 100 && s.n; t++) {
				if (sends_reap(&s) < 0)
					break;
				usleep(1000);
			}
			ret = 0;
			goto out;
		}
		size_t np = 0;
		for (size_t i = 0; i < n; i++) {
			if (l[i].rfd >= 0)
				pfd[np++] = (struct pollfd){ .fd = l[i].rfd, .events = POLLIN };
			if (l[i].wfd >= 0 && l[i].nout)
				pfd[np++] = (struct pollfd){ .fd = l[i].wfd, .events = POLLOUT };
		}
		if (moved)
			active_at = mono_ms();
		long wait_us = mono_ms() - active_at < QUICK_MS ? POLL_MIN_US : POLL_MAX_US;
		struct timespec ts = { 0, wait_us * 1000 };
		ppoll(pfd, np, &ts, NULL);
		for (size_t i = 0; i < n; i++) {
			int r = pump_link(&l[i], &s, buf);
			if (r < 0)
				goto out;
			if (r > 0)
				active_at = mono_ms();
		}
	}
out:
	/* sends still in flight (a peer died, or MPI failed): their buffers
	 * stay MPI's until the process ends, which is next */
	for (size_t i = 0; i < s.n; i++)
		MPI_Request_free(&s.p[i].req);
	if (!s.n)
		free(s.p);
	free(pfd);
	free(buf);
	return ret;
}
