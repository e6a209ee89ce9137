/*
 * test_keys.c - the key table knows everything about a key: walk every row
 * and check what a new key must bring (a JSON name, a help, a Method line
 * when it defines the workload, an owning engine the registry knows and
 * fio's name for an engine's option), and the table-driven helpers the
 * suite loader, fio export and the report use instead of lists of their own.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"
#include "engines/engine.h"
#include "suite/cell.h"
#include "util/intern.h"
#include "suite/keys.h"

static void test_every_row_is_complete(void **state)
{
	(void)state;
	struct cell c;
	cell_init(&c);
	for (int k = 0; k < NKEYS; k++) {
		const struct key *key = &cell_keys[k];
		char what[96];
		snprintf(what, sizeof(what), "key %d (%s)", k, key->name ? key->name : "?");
		/* a row left out of the designated initializers has no name */
		if (!key->name || !key->json)
			fail_msg("%s: no suite or JSON name", what);
		if (!key->help && key->type != KT_ENGINE) /* engine: the registry */
			fail_msg("%s: no help", what);
		if (!key->def)
			fail_msg("%s: no default as the help shows it", what);
		if (key_find(key->name) != k)
			fail_msg("%s: key_find does not find it (a duplicate name?)", what);
		for (int j = 0; j < k; j++)
			if (!strcmp(cell_keys[j].json, key->json))
				fail_msg("%s: JSON name '%s' is also key %d's", what, key->json, j);
		if (key->workload && !key->method)
			fail_msg("%s: defines the workload but has no Method line", what);
		if (key->method && !key->method_rank)
			fail_msg("%s: a Method line without a rank", what);
		if (key->engine && !engine_known(key->engine))
			fail_msg("%s: owned by engine '%s', which the registry does not know",
				 what, key->engine);
		/* an engine's own option is one fio has too (fio export);
		 * submit_and_wait and the model device's keys have no fio
		 * twin, and their jobs say NOT THE SAME (fio_map_unlike,
		 * suite_export_fio_engine_keys.sh); mem is fio's iomem,
		 * written by fio_map_buffers */
		bool no_twin = k == K_SUBMIT_AND_WAIT || k == K_MEM ||
			       (key->engine && !strcmp(key->engine, "model"));
		if ((key->engine || key->engine_flags) && !key->fio && !no_twin)
			fail_msg("%s: an engine's option without fio's name", what);
		if (!key_is_default(k, &c))
			fail_msg("%s: cell_init() does not give the row's default", what);
		/* one label, one rank: the lines of the Method section sort */
		for (int j = 0; j < NKEYS; j++)
			if (key->method && cell_keys[j].method &&
			    !strcmp(key->method, cell_keys[j].method) &&
			    key->method_rank != cell_keys[j].method_rank)
				fail_msg("%s: Method line '%s' has two ranks", what, key->method);
			else if (key->method && cell_keys[j].method && j != k &&
				 strcmp(key->method, cell_keys[j].method) &&
				 key->method_rank == cell_keys[j].method_rank)
				fail_msg("%s: rank %u is also '%s''s", what, key->method_rank,
					 cell_keys[j].method);
	}
}

/* Every Method line says something about a default cell, and a title note
 * says nothing while the key holds its default. */
static void test_text(void **state)
{
	(void)state;
	struct cell c;
	struct sbuf b = SBUF_INIT;
	cell_init(&c);
	for (int k = 0; k < NKEYS; k++) {
		sbuf_reset(&b);
		key_text(k, &c, KEY_TEXT_NOTE, &b);
		if (b.len)
			fail_msg("%s: note '%s' at its default", cell_keys[k].name, sbuf_str(&b));
		sbuf_reset(&b);
		key_text(k, &c, KEY_TEXT_METHOD, &b);
		/* the opt-in reaping modes are said only when on: a set from
		 * before they existed reaped from the ring without saying so */
		if (cell_keys[k].method && !b.len && k != K_SQPOLL_CPU &&
		    k != K_USERSPACE_REAP && k != K_SUBMIT_AND_WAIT)
			fail_msg("%s: empty Method text", cell_keys[k].name);
	}
	snprintf(c.engine, sizeof(c.engine), "io_uring");
	c.sqthread_poll = true;
	c.sqthread_poll_cpu = 2;
	c.fixedbufs = true;
	c.iodepth_batch_complete_min = 4;
	c.direct = false;
	sbuf_reset(&b);
	key_text(K_SQPOLL, &c, KEY_TEXT_NOTE, &b);
	assert_string_equal(sbuf_str(&b), "sqthread_poll on CPU 2");
	sbuf_reset(&b);
	key_text(K_FIXEDBUFS, &c, KEY_TEXT_NOTE, &b);
	assert_string_equal(sbuf_str(&b), "fixedbufs");
	sbuf_reset(&b);
	key_text(K_FIXEDBUFS, &c, KEY_TEXT_METHOD, &b);
	assert_string_equal(sbuf_str(&b), "yes");
	sbuf_reset(&b);
	key_text(K_BATCH_CMIN, &c, KEY_TEXT_NOTE, &b);
	assert_string_equal(sbuf_str(&b), "completions from 4");
	sbuf_reset(&b);
	key_text(K_DIRECT, &c, KEY_TEXT_METHOD, &b);
	assert_string_equal(sbuf_str(&b), "no (buffered)");
	c.sequential_shared = true;
	sbuf_reset(&b);
	key_text(K_SEQ_SHARED, &c, KEY_TEXT_NOTE, &b);
	assert_string_equal(sbuf_str(&b), "shared sequential stream");
	sbuf_reset(&b);
	key_text(K_SEQ_SHARED, &c, KEY_TEXT_METHOD, &b);
	assert_string_equal(sbuf_str(&b), "one stream, the jobs take turns (sysbench)");
	c.pattern = PAT_RANDREAD; /* nothing sequential to share */
	sbuf_reset(&b);
	key_text(K_SEQ_SHARED, &c, KEY_TEXT_NOTE, &b);
	assert_string_equal(sbuf_str(&b), "");
	sbuf_reset(&b);
	key_text(K_SEQ_SHARED, &c, KEY_TEXT_METHOD, &b);
	assert_string_equal(sbuf_str(&b), "none (random offsets)");
	c.pattern = PAT_READ;
	c.sequential_shared = false;
	sbuf_reset(&b);
	key_text(K_BS, &c, KEY_TEXT_METHOD, &b);
	assert_string_equal(sbuf_str(&b), "4K");
	sbuf_release(&b);
}

/* The owning engine and the capability a key needs, from the row. */
static void test_applies(void **state)
{
	(void)state;
	struct cell c;
	cell_init(&c);
	snprintf(c.engine, sizeof(c.engine), "libaio");
	assert_false(key_applies(K_FIXEDBUFS, &c));
	assert_true(key_applies(K_IODEPTH_BATCH, &c));
	assert_true(key_applies(K_BS, &c));
	snprintf(c.engine, sizeof(c.engine), "io_uring");
	assert_true(key_applies(K_FIXEDBUFS, &c));
	snprintf(c.engine, sizeof(c.engine), "psync");
	assert_false(key_applies(K_IODEPTH_BATCH, &c));
	assert_false(key_applies(K_HIPRI, &c));
	snprintf(c.engine, sizeof(c.engine), "mmap"); /* imported, unknown */
	assert_false(key_applies(K_BATCH_CMAX, &c));
	assert_true(key_applies(K_CPUS_ALLOWED, &c));
}

/* One value or two: engines by name (libaio and io_uring were one "class"
 * and the report dropped the io_uring cell of an engine matrix),
 * every field of a key. */
static void test_same(void **state)
{
	(void)state;
	struct cell a, b;
	cell_init(&a);
	cell_init(&b);
	snprintf(a.engine, sizeof(a.engine), "libaio");
	snprintf(b.engine, sizeof(b.engine), "io_uring");
	assert_false(key_same(K_ENGINE, &a, &b));
	snprintf(b.engine, sizeof(b.engine), "psync");
	assert_false(key_same(K_ENGINE, &a, &b));
	snprintf(b.engine, sizeof(b.engine), "null"); /* no IO: only itself */
	assert_false(key_same(K_ENGINE, &a, &b));
	a.data = b.data = DATA_COMPRESSIBLE;
	a.compress_pct = 50;
	b.compress_pct = 80;
	assert_false(key_same(K_DATA, &a, &b));
	a.offset_pct = 50;
	assert_false(key_same(K_OFFSET, &a, &b));
	a.cpus_allowed = intern_str("0-3");
	assert_false(key_same(K_CPUS_ALLOWED, &a, &b));
	assert_true(key_same(K_BS, &a, &b));
}

/* One range per key, and what the loader
 * accepts is what a set records and reads back.  Every number key has a
 * bound; a 64-bit key's is at most 10^15-1, so its JSON number is exact; the
 * largest value of each round-trips through cell_to_json, the printed
 * text and cell_from_json unchanged, and one past it is refused by the reader
 * (seed 2^64-1 was recorded as 1.8446744073709552e+19, which the reader
 * then refused; seed 1234567890123456789 read back as another seed). */
static void test_ranges_are_recorded_exactly(void **state)
{
	(void)state;
	for (int k = 0; k < NKEYS; k++) {
		const struct key *key = &cell_keys[k];
		bool wide = key->type == KT_U64 || key->type == KT_SIZE_PCT ||
			    key->type == KT_OFFSET || key->type == KT_IO_SIZE;
		if (!wide && key->type != KT_UINT && key->type != KT_SIZE &&
		    key->type != KT_DURATION)
			continue;
		if (!key->max || key->max > KEY_EXACT_MAX)
			fail_msg("key %s: max %llu is none or past 10^15-1", key->name,
				 (unsigned long long)key->max);
		struct cell c, back;
		char err[256] = "";
		cell_init(&c);
		key_store_u64(k, &c, key->max);
		cJSON *t = cell_to_json(&c);
		assert_non_null(t);
		/* through the text, as a set holds it: cJSON prints 15 digits
		 * when they read back within a double's epsilon */
		char *text = cJSON_Print(t);
		cJSON_Delete(t);
		cJSON *j = cJSON_Parse(text);
		free(text);
		assert_non_null(j);
		if (cell_from_json(j, &back, err, sizeof(err)) < 0)
			fail_msg("key %s at its max: %s", key->name, err);
		if (key_load_u64(k, &back) != key->max)
			fail_msg("key %s: wrote %llu, read %llu", key->name,
				 (unsigned long long)key->max,
				 (unsigned long long)key_load_u64(k, &back));
		cJSON_Delete(j);
		if (wide) {
			assert_int_equal(key_check_recorded(k, key->max, err, sizeof(err)), 0);
			assert_int_equal(key_check_recorded(k, key->max + 1, err, sizeof(err)), -1);
			assert_non_null(strstr(err, key->json));
		}
	}
	/* the reader refuses what the loader refuses */
	static const char *const bad[] = {
		"{\"pattern\":\"read\",\"seed\":18446744073709551615}",
		"{\"pattern\":\"read\",\"seed\":1234567890123456789}",
		"{\"pattern\":\"read\",\"seed\":9007199254740992}",
		"{\"pattern\":\"read\",\"requests\":1e19}",
		"{\"pattern\":\"read\",\"qos\":{\"metric\":\"mean\",\"target_ns\":1000080000000000000}}",
		"{\"pattern\":\"read\",\"load_sweep\":{\"from_pct\":1e-300,\"to_pct\":1e-300,\"steps\":1}}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *j = cJSON_Parse(bad[i]);
		struct cell c;
		char err[256];
		assert_non_null(j);
		if (cell_from_json(j, &c, err, sizeof(err)) == 0)
			fail_msg("read: %s", bad[i]);
		cJSON_Delete(j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_is_complete),
		cmocka_unit_test(test_ranges_are_recorded_exactly),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_applies),
		cmocka_unit_test(test_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
