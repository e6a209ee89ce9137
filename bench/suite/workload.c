/*
 * workload.c - the workload identity (workload.h): which keys count for a
 * cell, the exact text of each value, and the workload key built from
 * them.  Everything that decides "one workload or two" is here.
 */
#include "workload.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qos_keys.h"

bool workload_key_counts(int k, const struct cell *c)
{
	if (!cell_keys[k].workload || !key_applies(k, c))
		return false;
	switch (k) {
	case K_RWMIXREAD:
		return pattern_is_mixed(c->pattern);
	/* a sync of a file nothing wrote syncs nothing (validate refuses
	 * them on reads; an import may carry one) */
	case K_FSYNC: case K_END_FSYNC: case K_FDATASYNC: case K_SB_FSYNC_FREQ:
		return pattern_writes(c->pattern);
	case K_NORANDOMMAP: case K_RANDDIST:
		return pattern_is_random(c->pattern);
	case K_SEQ_SHARED:
		return !pattern_is_random(c->pattern);
	/* how arrivals are spaced means something only when there are
	 * arrivals to space: an offered load or a sweep of them */
	case K_RATE_PROCESS:
		return !key_is_default(K_RATE_IOPS, c) || !key_is_default(K_LOAD_SWEEP, c);
	case K_SQPOLL_CPU:
		return c->sqthread_poll;
	default:
		return true;
	}
}

/* The shortest of 15, 16 or 17 digits that reads back as d (%.17g says
 * 0.1 as 0.10000000000000001; %.15g, what cJSON writes, says 20% as 20):
 * one value, one text (and -0 is 0: values key_same calls equal are one
 * text, which workload_diff counts on). */
static void add_double(struct sbuf *b, double d)
{
	char t[40];
	if (d == 0)
		d = 0;
	for (int p = 15; p <= 17; p++) {
		snprintf(t, sizeof(t), "%.*g", p, d);
		if (strtod(t, NULL) == d)
			break;
	}
	sbuf_adds(b, t);
}

/* Bytes as a suite writes them, exactly: 4K, 1M, 1536. */
static void add_size(struct sbuf *b, uint64_t v)
{
	static const char unit[] = "KMGTP";
	int u = -1;
	while (v && u < 4 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	sbuf_addf(b, "%" PRIu64, v);
	if (u >= 0)
		sbuf_addc(b, unit[u]);
}

/* Nanoseconds as a suite writes them, exactly: 2s, 200ms, 100us, 1500ns. */
static void add_duration(struct sbuf *b, uint64_t ns)
{
	static const struct { uint64_t div; const char *u; } units[] = {
		{ 3600000000000ULL, "h" }, { 60000000000ULL, "m" },
		{ 1000000000ULL, "s" }, { 1000000ULL, "ms" }, { 1000ULL, "us" },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (ns % units[i].div == 0) {
			sbuf_addf(b, "%" PRIu64 "%s", ns / units[i].div, units[i].u);
			return;
		}
	sbuf_addf(b, "%" PRIu64 "ns", ns);
}

/* A text from a set (an engine an import named, a CPU list): ';', '='
 * and '\' escaped, so that no value can read as two keys. */
static void add_text(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == ';' || *s == '=' || *s == '\\')
			sbuf_addc(b, '\\');
		sbuf_addc(b, *s);
	}
}

/* The value of a key whose JSON is its own (KT_CUSTOM): its PARAMS text,
 * which the set file records, so two recorded values are one text
 * exactly when they are one value. */
static void add_custom(struct sbuf *b, int k, const struct cell *c)
{
	const struct key *key = &cell_keys[k];
	if (key_is_default(k, c)) {
		sbuf_adds(b, key->def);
		return;
	}
	cJSON *j = key->ops->to_json((const char *)c + key->off);
	char *s = j ? cJSON_PrintUnformatted(j) : NULL;
	if (s)
		add_text(b, s);
	else
		b->oom = true;
	free(s);
	cJSON_Delete(j);
}

void workload_value(int k, const struct cell *c, struct sbuf *b)
{
	const struct key *key = &cell_keys[k];
	uint64_t v = key_load_u64(k, c);
	/* "none" where a zero means "no such rule" (requests, io_size) */
	bool zero_none = !v && key->def[0] > '9';

	switch (key->type) {
	case KT_PATTERN: sbuf_adds(b, pattern_name(c->pattern)); return;
	case KT_ENGINE: add_text(b, c->engine); return;
	case KT_LABEL: add_text(b, c->label); return;
	case KT_CPULIST: case KT_RANDDIST:
		add_text(b, key_str(k, c)[0] ? key_str(k, c) : key->def);
		return;
	case KT_DATA:
		sbuf_adds(b, data_name(c->data));
		if (c->data == DATA_COMPRESSIBLE)
			sbuf_addf(b, ":%u", c->compress_pct);
		return;
	case KT_BOOL: sbuf_adds(b, v ? "true" : "false"); return;
	case KT_UINT: case KT_U64:
		if (zero_none)
			sbuf_adds(b, key->def);
		else
			sbuf_addf(b, "%" PRIu64, v);
		return;
	case KT_INT:
		if ((int64_t)v < 0)
			sbuf_adds(b, key->def);
		else
			sbuf_addf(b, "%" PRId64, (int64_t)v);
		return;
	case KT_DURATION:
		if (!v)
			sbuf_adds(b, key->def);
		else
			add_duration(b, v);
		return;
	case KT_SIZE:
		if (zero_none)
			sbuf_adds(b, key->def);
		else
			add_size(b, v);
		return;
	case KT_SIZE_PCT: case KT_OFFSET: case KT_IO_SIZE: {
		double second = k == K_SIZE ? c->size_pct : k == K_OFFSET ? c->offset_pct :
				c->io_size_mult;
		if (second > 0) {
			add_double(b, second);
			sbuf_adds(b, key->type == KT_IO_SIZE ? "x" : "%");
		} else if (!v) {
			/* a size of 0 is one an importer could not know */
			sbuf_adds(b, key->type == KT_SIZE_PCT ? "unknown" : key->def);
		} else {
			add_size(b, v);
		}
		return;
	}
	case KT_PCT: {
		double d;
		memcpy(&d, (const char *)c + key->off, sizeof(d));
		add_double(b, d);
		sbuf_addc(b, '%');
		return;
	}
	case KT_STEADY:
		if (!c->steady.window) {
			sbuf_adds(b, key->def);
			return;
		}
		sbuf_addf(b, "window %u, range ", c->steady.window);
		add_double(b, c->steady.range_frac * 100);
		sbuf_adds(b, "%, slope ");
		add_double(b, c->steady.slope_frac * 100);
		sbuf_addf(b, "%%, max %u", c->steady.max);
		return;
	case KT_CUSTOM:
		add_custom(b, k, c);
		return;
	}
}

/* Is key k spelled in c's workload key?  It counts for c, and a newer
 * key (omit_default) is off its default, as the cell file writes it. */
static bool key_spelled(int k, const struct cell *c)
{
	return workload_key_counts(k, c) &&
	       !(cell_keys[k].omit_default && key_is_default(k, c));
}

void workload_key_inferred(const struct cell *c, uint64_t inferred, uint64_t mask,
			   struct sbuf *b)
{
	size_t len0 = b->len;
	for (int k = 0; k < NKEYS; k++) {
		bool guess = inferred & WORKLOAD_KEY(k);
		if (!(mask & WORKLOAD_KEY(k)) || (!guess && !key_spelled(k, c)))
			continue;
		if (b->len > len0)
			sbuf_addc(b, ';');
		sbuf_addf(b, "%s%c", cell_keys[k].name, guess ? '~' : '=');
		workload_value(k, c, b);
	}
	if (b->len == len0) /* "" is no text: keep one */
		sbuf_add(b, "", 0);
}

void workload_key(const struct cell *c, uint64_t mask, struct sbuf *b)
{
	workload_key_inferred(c, 0, mask, b);
}

char *workload_key_new(const struct cell *c)
{
	struct sbuf b = SBUF_INIT;
	workload_key(c, WORKLOAD_ALL, &b);
	return sbuf_detach(&b);
}

bool workload_same(const struct cell *a, const struct cell *b, uint64_t mask)
{
	return !workload_diff(a, b, mask);
}

/* Key by key as workload_key() spells them, so that two keys are one text
 * exactly when this finds no difference. */
uint64_t workload_diff(const struct cell *a, const struct cell *b, uint64_t mask)
{
	struct sbuf x = SBUF_INIT, y = SBUF_INIT;
	uint64_t diff = 0;
	for (int k = 0; k < NKEYS; k++) {
		if (!(mask & WORKLOAD_KEY(k)))
			continue;
		bool sa = key_spelled(k, a), sb = key_spelled(k, b);
		if (!sa && !sb)
			continue;
		if (sa != sb) {
			diff |= WORKLOAD_KEY(k);
			continue;
		}
		/* equal values are one text: only a difference is spelled
		 * out (plan's 100,000 cells of one label: 418 M instructions
		 * of 1,175 M were this loop's text) */
		if (key_same(k, a, b))
			continue;
		sbuf_reset(&x);
		sbuf_reset(&y);
		workload_value(k, a, &x);
		workload_value(k, b, &y);
		if (strcmp(sbuf_str(&x), sbuf_str(&y)))
			diff |= WORKLOAD_KEY(k);
	}
	sbuf_release(&x);
	sbuf_release(&y);
	return diff;
}

void workload_say(const struct cell *c, uint64_t mask, struct sbuf *b)
{
	size_t len0 = b->len;
	for (int k = 0; k < NKEYS; k++) {
		if (!(mask & WORKLOAD_KEY(k)) || !workload_key_counts(k, c))
			continue;
		sbuf_addf(b, "%s%s ", b->len > len0 ? ", " : "", cell_keys[k].name);
		workload_value(k, c, b);
	}
}

void workload_model_device(const struct cell *c, struct sbuf *b)
{
	if (strcmp(c->engine, "model"))
		return;
	sbuf_adds(b, "model");
	for (int k = 0; k < NKEYS; k++) {
		if (!cell_keys[k].engine || strcmp(cell_keys[k].engine, "model") ||
		    key_is_default(k, c))
			continue;
		sbuf_addf(b, ";%s=", cell_keys[k].name);
		workload_value(k, c, b);
	}
}

bool workload_model_target(const struct cell *const *cells, size_t n, struct sbuf *b)
{
	struct sbuf first = SBUF_INIT, t = SBUF_INIT;
	bool model = n > 0;
	for (size_t i = 0; model && i < n; i++) {
		struct sbuf *into = i ? &t : &first;
		sbuf_reset(&t);
		workload_model_device(cells[i], into);
		model = into->len && !into->oom && (!i || !strcmp(sbuf_str(&t), sbuf_str(&first)));
	}
	if (model)
		sbuf_adds(b, sbuf_str(&first));
	sbuf_release(&first);
	sbuf_release(&t);
	return model;
}

/* Cells that share a label, a pattern and a block size: what a reader
 * sees side by side (plan's columns, a report's title words). */
static int label_mates(const struct cell *a, const struct cell *b)
{
	int d = strcmp(a->label, b->label);
	if (!d && a->pattern != b->pattern)
		d = a->pattern < b->pattern ? -1 : 1;
	if (!d && a->bs != b->bs)
		d = a->bs < b->bs ? -1 : 1;
	return d;
}

/* Indices of cells in that order, then in index order (stable). */
static int label_cmp(const void *x, const void *y, void *arg)
{
	const struct cell *const *cells = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int d = label_mates(cells[a], cells[b]);
	return d ? d : a < b ? -1 : a > b;
}

/* The keys of workload_diff(a, b) worth saying: not one that counts on
 * one side only, which is another key's difference (io_uring's options
 * beside libaio: the engine; end_fsync beside a read: the pattern). */
static uint64_t diff_said(const struct cell *a, const struct cell *b, uint64_t mask)
{
	uint64_t d = workload_diff(a, b, mask);
	for (int k = 0; k < NKEYS; k++)
		if ((d & WORKLOAD_KEY(k)) &&
		    workload_key_counts(k, a) != workload_key_counts(k, b))
			d &= ~WORKLOAD_KEY(k);
	return d;
}

int workload_apart(const struct cell *const *cells, size_t n, uint64_t mask,
		   uint64_t *out)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx)
		return -1;
	for (size_t i = 0; i < n; i++) {
		idx[i] = i;
		out[i] = 0;
	}
	qsort_r(idx, n, sizeof(*idx), label_cmp, (void *)cells);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		uint64_t apart = 0;
		while (j < n && !label_mates(cells[idx[j]], cells[idx[i]]))
			apart |= diff_said(cells[idx[i]], cells[idx[j++]], mask);
		for (size_t k = i; k < j; k++)
			out[idx[k]] = apart;
		i = j;
	}
	free(idx);
	return 0;
}
