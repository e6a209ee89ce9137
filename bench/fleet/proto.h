/*
 * proto.h - the fleet protocol between the controller (`run --hosts`) and
 * `iomatrix agent`: newline-delimited JSON objects over the ssh session's
 * stdin/stdout, one object a line, each with an "op" (docs/fleet.md lists
 * them).  Pure code, no processes: a bounded line reader, message
 * helpers, the NTP-style clock estimate and the barrier margin.
 *
 * Everything an agent sends is untrusted: lines are bounded, parsed with a
 * depth limit, checked field by field, and never reach a shell.
 */
#ifndef IOMATRIX_FLEET_PROTO_H
#define IOMATRIX_FLEET_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define FLEET_PROTO_VERSION 1
/* The agent says "alive" this often; the controller gives up on a host
 * silent for FLEET_SILENCE_S (the test hook's fleet_silence_ms overrides). */
#define FLEET_ALIVE_S 5
#define FLEET_SILENCE_S 60
/* Longest line either side accepts: the result-set file bound. */
#define FLEET_MAX_LINE (64u << 20)

/* ---- bounded line reader ---- */

struct linebuf {
	char *buf;        /* owned */
	size_t start;     /* first unread byte */
	size_t len;       /* bytes held, from 0 */
	size_t alloc;
	size_t max;       /* longest line accepted, without its '\n' */
	size_t tail;      /* start of the line not yet ended by '\n' */
};

void linebuf_init(struct linebuf *lb, size_t max);
void linebuf_release(struct linebuf *lb);
/*
 * Read what fd has (one read(2)).  Returns bytes read, 0 at end of file,
 * -EAGAIN when a non-blocking fd has nothing, -EMSGSIZE when the line being
 * read is longer than max (the reader is then unusable), other -errno.
 */
long linebuf_fill(struct linebuf *lb, int fd);
/* Feed bytes directly (tests, fuzzing).  0, -EMSGSIZE or -ENOMEM. */
int linebuf_feed(struct linebuf *lb, const char *data, size_t len);
/* Next complete line without its '\n', NUL-terminated, valid until the
 * next fill/feed; NULL when no complete line is held. */
char *linebuf_next(struct linebuf *lb, size_t *len);
/* Bytes held that do not yet end in '\n'. */
size_t linebuf_pending(const struct linebuf *lb);

/* ---- messages ---- */

/*
 * Parse one line into an object with a string "op" no longer than 32
 * bytes.  Returns the tree (caller frees) or NULL with the reason in why
 * ("not JSON at byte 12", "no \"op\"").
 */
cJSON *proto_parse(const char *line, size_t len, char *why, size_t whylen);
/* The op of a parsed message (never NULL after proto_parse). */
const char *proto_op(const cJSON *msg);
/* Field helpers: false when absent or of the wrong type. */
bool proto_get_i64(const cJSON *msg, const char *key, int64_t *out);
bool proto_get_u64(const cJSON *msg, const char *key, uint64_t *out);
const char *proto_get_str(const cJSON *msg, const char *key); /* borrowed */
/* A new message {"op": op}, both ends' one builder; the caller owns it.
 * NULL on OOM. */
cJSON *proto_msg_new(const char *op);
/* Unformatted JSON plus '\n'; caller frees.  NULL on OOM. */
char *proto_line(const cJSON *msg, size_t *len);
/* Quote untrusted text for a message: at most max bytes, control bytes
 * and non-ASCII as '?', so a hostile agent cannot move the terminal. */
void proto_sanitize(const char *in, size_t inlen, char *out, size_t max);

/* ---- clock ---- */

/*
 * One ping/pong: t0 controller send, t1 agent receive, t2 agent send,
 * t3 controller receive (t0, t3 on the controller's CLOCK_MONOTONIC; t1,
 * t2 on the agent's).  NTP's estimate: offset = ((t1-t0) + (t2-t3)) / 2
 * (agent clock minus controller clock), delay = (t3-t0) - (t2-t1).
 */
struct clock_sample {
	int64_t t0, t1, t2, t3;
};
struct clock_est {
	int64_t offset_ns;   /* agent - controller, from the min-delay sample */
	int64_t rtt_min_ns;  /* that sample's delay */
	int64_t rtt_med_ns;  /* median delay over the samples */
	int64_t error_ns;    /* bound on the offset's error: rtt_min / 2 */
	size_t n;
	size_t best;         /* index of the min-delay sample */
};
/* 0, or -1 when no sample is usable (negative delays). */
int clock_estimate(const struct clock_sample *s, size_t n, struct clock_est *out);

/*
 * How far ahead of "now" the barrier's start time goes: several round
 * trips of the slowest host (its median delay, which covers jitter better
 * than the minimum), never less than floor_ns, plus 50 us per host for
 * sending the go lines one after another.
 */
int64_t barrier_margin_ns(const struct clock_est *hosts, size_t n,
			  int64_t floor_ns);

#endif
