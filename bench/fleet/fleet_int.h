/*
 * fleet_int.h - what controller.c (the controller loop), fleet_host.c (one
 * host's conversation), fleet_wire.c (their transport) and fleet_set.c
 * (the fleet result set) share.  Not an API.
 */
#ifndef IOMATRIX_FLEET_INT_H
#define IOMATRIX_FLEET_INT_H

#include <limits.h>
#include <stdint.h>

#include "fleet/fleet.h"
#include "fleet/proto.h"
#include "resultset/resultset.h"
#include "suite/cell.h"

#define FLEET_PINGS 8
/* A repetition whose rep_done has not arrived. */
#define FLEET_NO_START INT64_MIN
/* A line from an agent must be complete this long after its first byte
 * (the test hook's fleet_line_ms overrides): a result line of 64 MiB over a
 * 1 MB/s link takes about a minute; a host trickling a byte at a time
 * is lost after this, not never. */
#define FLEET_LINE_S 120
/* hello, clock and suite must be through this long after ssh starts */
#define FLEET_HANDSHAKE_NS (60ll * 1000000000)

enum hstate {
	HS_WAITING,   /* not started yet (--parallel) */
	HS_HELLO,     /* ssh started, waiting for the agent's hello */
	HS_CLOCK,     /* ping/pong */
	HS_SUITE,     /* suite sent, waiting for suite_ok */
	HS_IDLE,      /* between cells */
	HS_CELL,      /* cell sent: waiting for ready or result */
	HS_READY,     /* ready for a repetition, waiting for go (aggregate) */
	HS_GO,        /* go sent: waiting for rep_done or result */
	HS_HELD,      /* result in hand, waiting for the other hosts (aggregate) */
	HS_ENDING,    /* end sent */
	HS_DONE,
	HS_FAILED,
};

struct fhost {
	const char *name;           /* as given, borrowed */
	size_t idx;                 /* in the set's host list */
	enum hstate st;
	struct ssh_conn conn;
	struct linebuf lb;
	char errtail[2048];         /* the end of ssh's stderr */
	size_t errlen;
	char fail[1024];            /* why it failed */
	bool unreachable;           /* failed before the agent said hello */
	bool input_error;           /* the agent refused the suite/paths */
	int64_t deadline_ns;        /* for the handshake; 0 none */
	int64_t last_rx_ns;         /* when its last complete line arrived */
	int64_t line_start_ns;      /* first byte of the unfinished line; 0 none */
	int64_t cell_deadline_ns;   /* the cell in progress must end by then */
	struct clock_sample samples[FLEET_PINGS];
	size_t nsamples;
	struct clock_est clk;
	double wall_off[FLEET_PINGS]; /* per sample: host wall clock - ours, s */
	double wall_offset_s;       /* that of the min-delay sample */
	cJSON *hello, *info;        /* owned: agent hello, suite_ok */
	const char **ov;            /* device overrides sent to it */
	size_t nov;
	size_t *todo;               /* plan indices still to run */
	size_t ntodo, pos;
	size_t cur;                 /* plan index in progress */
	bool busy;                  /* a cell is in progress */
	unsigned ready_rep;         /* HS_READY: for this repetition */
	unsigned next_rep;          /* the repetition its next ready must name */
	unsigned go_rep;            /* HS_GO: the repetition go was sent for */
	int64_t *starts;            /* per repetition of the cell in progress:
				     * start on the controller clock, or
				     * FLEET_NO_START; nstarts = its repeat */
	size_t nstarts;
	cJSON *result;              /* HS_HELD: the agent's cell */
	bool aborted;               /* aggregate: abort sent for this cell */
	bool in_agg;                /* aggregate: takes part in the cell */
	bool agg_wait;              /* aggregate: takes part, the cell not sent
				     * yet (a shared file being laid out) */
	bool accounted;             /* failed: its cells are written failed */
	bool skipped;               /* unreachable and --skip-unreachable */
	char cell_start[32];        /* UTC when the cell in progress was sent */
};

struct fleet {
	const struct fleet_opts *o;
	struct suite *s;
	struct resultset rs;
	bool have_rs;
	int lock_fd;                /* --resume: the set's flock; -1 none */
	char suite_path[PATH_MAX];  /* --resume: the suite loaded */
	struct fhost *h;
	size_t nh;
	size_t nslots;              /* cell slots: hosts (+1 "all" in aggregate) */
	int64_t epoch_ns;           /* controller clock origin */
	int64_t margin_ns;          /* last barrier margin */
	int64_t silence_ns;         /* a host silent this long is hung */
	int64_t line_ns;            /* a line must end this long after its
				     * first byte (slowloris) */
	int64_t cell_ns;            /* every cell's budget; 0: from its estimate */
	bool failed_any, stopped;
	bool gate_passed;           /* every started host got through hello */
	bool fatal;                 /* bad input found before IO: exit 2 */
	unsigned session;           /* 0 for the first run, k for the k-th resume */
	/* aggregate: the cell in progress */
	bool agg_busy;
	bool agg_staged;            /* the cell went to its first host only:
				     * the others get it once that one has laid
				     * out the shared file (controller.c, agg_start) */
	size_t agg_cur;
	size_t *agg_todo;           /* plan indices the fleet still runs */
	size_t agg_ntodo, agg_pos;
	char agg_fail[1024];
};

/* fleet_wire.c: the transport, below controller.c and fleet_host.c */
/* Nanoseconds since the controller's epoch (f->epoch_ns). */
int64_t fleet_now(const struct fleet *f);
/* Started, and neither done nor failed. */
bool fleet_live(const struct fhost *h);
/* Stop talking to h (close its input, end its ssh) and remember why; its
 * remaining cells are written failed by the state machine's next step. */
void fleet_host_failed(struct fleet *f, struct fhost *h, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Send msg as one line to h's agent and free it; a send that fails
 * fails the host.  0 or -errno. */
int fleet_send(struct fleet *f, struct fhost *h, cJSON *msg);

/* controller.c: the state machine */
/* f->h from f->o (hosts, their device overrides), each waiting; 0 or -1
 * out of memory.  fleet_hosts_release ends their ssh and frees them. */
int fleet_hosts_init(struct fleet *f);
void fleet_hosts_release(struct fleet *f);
/* One scheduling step after input: the gate (every host through the
 * handshake: make or resume the set), then survey or aggregate
 * scheduling.  -1 when the gate refused the run (f->fatal). */
int fleet_step(struct fleet *f);

/* fleet_host.c */
void fleet_send_cell(struct fleet *f, struct fhost *h, size_t plan_idx);
/* go for repetition rep at controller time at (0: at once). */
void fleet_send_go(struct fleet *f, struct fhost *h, unsigned rep, int64_t at);
void fleet_send_end(struct fleet *f, struct fhost *h);
/* Drain ssh's stderr into h->errtail (its last words say why it ended). */
void fleet_read_stderr(struct fhost *h);
/* Read what h's agent sent and act on every complete line. */
void fleet_host_read(struct fleet *f, struct fhost *h);
/* Act on one complete line from h's agent, received at now (the fuzz
 * target drives the controller through this). */
void fleet_host_line(struct fleet *f, struct fhost *h, const char *line,
		     size_t len, int64_t now);
/* Fail h if a deadline passed (handshake, line, cell, silence); true
 * when it did. */
bool fleet_host_overdue(struct fleet *f, struct fhost *h);
/* How long cell c may take on one host, layout included. */
int64_t fleet_cell_budget_ns(const struct fleet *f, const struct cell *c);

/* fleet_set.c */
int fleet_set_begin(struct fleet *f, char *err, size_t errlen);
int fleet_set_resume(struct fleet *f, char *err, size_t errlen);
int fleet_set_host_info(struct fleet *f);
bool fleet_cell_done(const struct fleet *f, size_t slot, size_t plan_idx);
int fleet_write_host_cell(struct fleet *f, struct fhost *h, size_t plan_idx,
			  cJSON *cell);
int fleet_write_failed(struct fleet *f, size_t slot, size_t plan_idx,
		       const char *host, const char *why);
int fleet_write_aggregate(struct fleet *f, size_t plan_idx);
int fleet_set_finish(struct fleet *f, const char *status);
int fleet_set_open_resume(struct fleet *f, struct fleet_opts *o,
			  const char ***hosts, const char ***devs,
			  char *err, size_t errlen);
int fleet_set_check_suite(const struct fleet *f, char *err, size_t errlen);
/* Warn (stderr) about hosts that are one machine: same machine-id or
 * boot_id as their agents hash them. */
void fleet_warn_same_machine(const struct fleet *f);

#endif
