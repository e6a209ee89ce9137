/*
 * relay.h - byte pipes over MPI for the MPI helper (iomatrix_mpi.c): each
 * link joins a local pair of descriptors (an agent's stdin/stdout on rank
 * r, the controller's end on rank 0) to one peer rank.  Bytes go as they
 * come, in chunks of at most RELAY_CHUNK; the end of a direction is a
 * message of its own.  The relay does not read the lines it carries.
 *
 * Only the thread that calls relay_run() makes MPI calls (the helper asks
 * for MPI_THREAD_FUNNELED).  Sends are nonblocking, so two ranks that send
 * to each other at once never wait on each other.
 */
#ifndef IOMATRIX_MPI_RELAY_H
#define IOMATRIX_MPI_RELAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define RELAY_CHUNK (1 << 20)
#define RELAY_TAG_DATA 71
#define RELAY_TAG_EOF 72

struct relay_link {
	int peer;        /* the rank at the other end */
	int rfd;         /* local bytes to send to peer; -1 once at its end */
	int wfd;         /* where the peer's bytes go; -1 once closed */
	char *out;       /* the peer's bytes not yet written to wfd */
	size_t nout, cap;
	bool sent_eof;   /* told the peer that rfd ended */
	bool got_eof;    /* the peer's side ended */
};

/*
 * Carries bytes until every link ended both ways, or until *done is set and
 * then linger_ms passed (the controller finished, or a signal came: what is
 * still open is closed); once *hurry is set too, 200 ms at most (mpirun
 * sends SIGKILL a second after SIGTERM).  Returns 0, or -1 when MPI failed
 * (a peer died).
 */
int relay_run(struct relay_link *l, size_t n, volatile sig_atomic_t *done,
	      volatile sig_atomic_t *hurry, int linger_ms);

#endif
