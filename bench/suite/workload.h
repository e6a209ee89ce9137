/*
 * workload.h - the workload identity (DESIGN.md "one workload identity"):
 * the one answer to "are these two cells one workload?".  report (its
 * groups, titles and ratios), compare, history, the site, the archive's
 * index, reproduce and the summary all ask it here; none decides on its own.
 *
 * Two cells are one workload when every key of the key table that can
 * change a result (keys.h: .workload) holds one value in both, where it
 * counts for them: engines by their exact name (libaio and io_uring are two
 * workloads: on zram one did 430,241 IOPS and the other 172,497), an
 * engine's options only for that engine, rwmixread only in a mix, fsync
 * only where the cell writes, the random-offset keys only on random
 * offsets, rate_process only with an offered load.  Keys that say how a
 * cell is run or kept (repeat, ramp, seed, cooldown, interval, label) and
 * the model device's keys (what the device is: bench/host/devident.h) are
 * not the workload (workload_model_device() says them).
 *
 * The identity is a text, the workload key ("pattern=randread;bs=4K;
 * iodepth=32;jobs=1;engine=io_uring;..."): one key, one workload, so a
 * caller sorts or hashes keys (n log n) instead of comparing every pair,
 * and the archive's index stores it.  A key is spelled as the cell file
 * spells it (keys.h omit_default: a newer key only off its default), each
 * value exact (4K, 1536, 20%, 2s, 1500ns).
 *
 * Ownership: strings returned by workload_key_new() are the caller's.
 */
#ifndef IOMATRIX_WORKLOAD_H
#define IOMATRIX_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "cell.h"
#include "keys.h"
#include "util/sbuf.h"

/* A set of keys of the key table: bit k is cell_keys[k]. */
#define WORKLOAD_KEY(k) (1ULL << (k))
#define WORKLOAD_ALL (~0ULL)

/* Does key k define c's workload (it is a workload key and counts for c:
 * see above)? */
bool workload_key_counts(int k, const struct cell *c);

/* Append the exact text of key k's value in c ("4K", "20%", "io_uring",
 * "compressible:30", "none"), whether or not it counts. */
void workload_value(int k, const struct cell *c, struct sbuf *b);

/* Append c's workload key over the keys in mask (WORKLOAD_ALL: the
 * identity; fewer: "the same in these keys", e.g. one title word). */
void workload_key(const struct cell *c, uint64_t mask, struct sbuf *b);
/* As workload_key(), for a cell whose keys in inferred (bit k: key k)
 * an importer inferred from another tool's output or assumed (a fio job
 * that names no rw: resultset/rset.h rset_cell.inferred): each is spelled
 * "name~value", so a guessed value is never one workload with a
 * recorded one ("pattern~write" is not "pattern=write"). */
void workload_key_inferred(const struct cell *c, uint64_t inferred, uint64_t mask,
			   struct sbuf *b);
/* c's whole workload key as a new string; NULL when out of memory. */
char *workload_key_new(const struct cell *c);

/* True when a and b are one workload in the keys of mask. */
bool workload_same(const struct cell *a, const struct cell *b, uint64_t mask);

/* The keys (of mask) in which a and b are two workloads: a key that
 * counts for one and not the other, or holds two values. */
uint64_t workload_diff(const struct cell *a, const struct cell *b, uint64_t mask);

/* Append "name value" for every key of mask that defines c's workload,
 * joined by ", " ("rate_iops 200, data compressible:30"): what tells c
 * apart from cells that differ there (plan, warnings, titles). */
void workload_say(const struct cell *c, uint64_t mask, struct sbuf *b);

/* What a model device is (engine: model): "model", then each of the key
 * table's rows owned by the model engine that is off its default,
 * exact ("model;model_latency=200us;model_parallel=4"); nothing for a
 * cell of another engine.  The device identity (host/devident.h
 * dev_ident.model) compares these texts. */
void workload_model_device(const struct cell *c, struct sbuf *b);
/* A target is a model device when every one of its n cells (n > 0) runs
 * the model engine with one set of model keys: true with that text
 * appended to b; else false (a target with other cells, or models of
 * several kinds, is measured as storage) and b as it was. */
bool workload_model_target(const struct cell *const *cells, size_t n, struct sbuf *b);

/*
 * Cells that share a label ("RND4K Q32T1" at rate_iops 200 and at 1000)
 * must still be told apart: out[i] gets the keys of mask in which the
 * cells sharing cells[i]'s label, pattern and block size (what a reader
 * sees beside the label: a read and a write of one label are told apart
 * by their pattern) are not all one workload (0: none shares them, or they
 * name one workload there), leaving out a key that counts on
 * one side only (io_uring's options beside a libaio cell: the engine is
 * the difference).  plan and the report's titles say them (mask: what they do
 * not show already).  n log n in cells.  0, or -1 out of memory.
 */
int workload_apart(const struct cell *const *cells, size_t n, uint64_t mask,
		   uint64_t *out);

#endif
