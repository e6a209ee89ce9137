/*
 * qos_keys.h - the suite language of latency under load: the
 * cell keys rate_iops, rate_process, load_sweep and qos, each a KT_CUSTOM
 * row of the key table whose parsing, JSON and text live here (their
 * values are stats/qos.h's structs).
 */
#ifndef IOMATRIX_QOS_KEYS_H
#define IOMATRIX_QOS_KEYS_H

#include "key_ops.h"

struct qos_target;

/* The ranges of the rows (keys.c): the loader and cell_from_json read
 * them there.  100 M IOPS per job is beyond any device; a load sweep's
 * shares are 1..1000 % of the probed maximum (its listed IOPS up to that
 * rate for every job a cell may have); a QoS target above a day says
 * nothing about latency. */
#define QOS_RATE_MAX 100000000ull
#define QOS_SWEEP_PCT_MIN 1
#define QOS_SWEEP_PCT_MAX 1000
#define QOS_TARGET_MAX_NS (86400ull * 1000000000ull)
/* jobs' row max (keys.c), for the sweep's listed IOPS */
#define QOS_JOBS_MAX 256

extern const struct key_ops rate_iops_ops, rate_process_ops, load_sweep_ops,
	qos_ops;

/* key_text_fn of each (keys.h) */
void qos_text_rate(const struct cell *c, enum key_text how, struct sbuf *b);
void qos_text_process(const struct cell *c, enum key_text how, struct sbuf *b);
void qos_text_sweep(const struct cell *c, enum key_text how, struct sbuf *b);
void qos_text_target(const struct cell *c, enum key_text how, struct sbuf *b);

/* fio's rate_iops (per direction: a single value of a mixed cell split by
 * rwmixread, as fio throttles each direction) and rate_process; nothing
 * for an unrated cell.  A sweep's fio job is its unthrottled probe
 * (bench/export/fio_export.c says so). */
void qos_fio_map(const struct cell *c, fio_map_emit emit, void *arg);

/* "p99 <= 1 ms" of a target into buf ("" when none) */
void qos_target_text(const struct qos_target *t, char *buf, size_t len);

#endif
