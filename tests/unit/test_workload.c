/*
 * test_workload.c - the workload identity (suite/workload.h): the keys that
 * make two cells one workload, where each counts, the workload key's exact
 * values, and that the key and workload_diff() always agree.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/cell.h"
#include "suite/keys.h"
#include "suite/workload.h"
#include "util/intern.h"
#include "util/sbuf.h"

static struct cell base(void)
{
	struct cell c;
	cell_init(&c);
	c.pattern = PAT_RANDREAD;
	c.iodepth = 32;
	snprintf(c.engine, sizeof(c.engine), "libaio");
	return c;
}

/* The key and the diff say the same: equal keys, no difference. */
static void agree(const struct cell *a, const struct cell *b, bool same)
{
	char *ka = workload_key_new(a), *kb = workload_key_new(b);
	assert_non_null(ka);
	assert_non_null(kb);
	if ((strcmp(ka, kb) == 0) != same)
		fail_msg("keys '%s' and '%s' should %sbe one", ka, kb, same ? "" : "not ");
	assert_int_equal(workload_same(a, b, WORKLOAD_ALL), same);
	assert_int_equal(workload_diff(a, b, WORKLOAD_ALL) == 0, same);
	free(ka);
	free(kb);
}

/* libaio and io_uring are two workloads (they were one, by
 * "class", and the report dropped the io_uring cell); so are psync and
 * null. */
static void test_engine_exact(void **state)
{
	(void)state;
	struct cell a = base(), b = base();
	agree(&a, &b, true);
	snprintf(b.engine, sizeof(b.engine), "io_uring");
	agree(&a, &b, false);
	assert_int_equal(workload_diff(&a, &b, WORKLOAD_ALL) & WORKLOAD_KEY(K_ENGINE),
			 WORKLOAD_KEY(K_ENGINE));
	assert_true(key_same(K_BS, &a, &b));
	assert_false(key_same(K_ENGINE, &a, &b));
}

/* A rate matrix and a data matrix are separate workloads,
 * down to the compressible share. */
static void test_rate_and_data(void **state)
{
	(void)state;
	struct cell a = base(), b = base();
	a.rate.iops[0] = a.rate.iops[1] = 200;
	b.rate.iops[0] = b.rate.iops[1] = 1000;
	agree(&a, &b, false);
	assert_int_equal(workload_diff(&a, &b, WORKLOAD_ALL), WORKLOAD_KEY(K_RATE_IOPS));
	b = a;
	agree(&a, &b, true);

	a = base();
	b = base();
	a.pattern = b.pattern = PAT_RANDWRITE;
	a.data = b.data = DATA_COMPRESSIBLE;
	a.compress_pct = 30;
	b.compress_pct = 70;
	agree(&a, &b, false);
	assert_int_equal(workload_diff(&a, &b, WORKLOAD_ALL), WORKLOAD_KEY(K_DATA));
	struct sbuf s = SBUF_INIT;
	workload_value(K_DATA, &a, &s);
	assert_string_equal(sbuf_str(&s), "compressible:30");
	sbuf_release(&s);
}

/* A key counts only where it can change the result: an engine's option
 * for its engine, rwmixread in a mix, fsync where the cell writes,
 * rate_process with an offered load. */
static void test_counts_where_it_applies(void **state)
{
	(void)state;
	struct cell a = base(), b = base();
	b.rwmixread = 70;                       /* randread: no mix */
	agree(&a, &b, true);
	a.pattern = b.pattern = PAT_RANDRW;
	agree(&a, &b, false);

	a = base();
	b = base();
	b.fsync = 8;                            /* reads: nothing to sync */
	agree(&a, &b, true);
	a.pattern = b.pattern = PAT_WRITE;
	agree(&a, &b, false);

	a = base();
	b = base();
	b.fixedbufs = true;                     /* an io_uring option on libaio */
	agree(&a, &b, true);
	snprintf(a.engine, sizeof(a.engine), "io_uring");
	snprintf(b.engine, sizeof(b.engine), "io_uring");
	agree(&a, &b, false);

	a = base();
	b = base();
	b.rate_process = RATE_POISSON;          /* no offered load */
	agree(&a, &b, true);
	a.rate.iops[0] = a.rate.iops[1] = b.rate.iops[0] = b.rate.iops[1] = 500;
	agree(&a, &b, false);
	assert_false(workload_key_counts(K_SQPOLL_CPU, &a));
	assert_false(workload_key_counts(K_REPEAT, &a));
	assert_false(workload_key_counts(K_MODEL_LATENCY, &a));
}

/* What a cell is run with, not what it measures, is no part of it: the
 * repetitions, the ramp, the seed, the label; nor the model device's keys,
 * which say what the device is. */
static void test_not_the_workload(void **state)
{
	(void)state;
	struct cell a = base(), b = base();
	b.repeat = 5;
	b.ramp_ns = 1000000000;
	b.seed = 7;
	b.cooldown_ns = 5;
	cell_set_label(&b, "mine");
	snprintf(a.engine, sizeof(a.engine), "model");
	snprintf(b.engine, sizeof(b.engine), "model");
	b.model.latency_ns = 2 * a.model.latency_ns;
	agree(&a, &b, true);
	/* what the file set is, and which part of it, are */
	b = a;
	b.size = 4096ULL * 1024 * 1024;
	agree(&a, &b, false);
	b = a;
	b.active_range_pct = 75;
	agree(&a, &b, false);
}

/* Values are exact: 1536 bytes is not "1.5K", 1500 ns is not "1.5us",
 * and a percentage of the device is not a number of bytes. */
static void test_exact_values(void **state)
{
	(void)state;
	struct cell c = base();
	struct sbuf s = SBUF_INIT;
	c.bs = 1536;
	workload_value(K_BS, &c, &s);
	assert_string_equal(sbuf_str(&s), "1536");
	sbuf_reset(&s);
	c.bs = 1 << 20;
	workload_value(K_BS, &c, &s);
	assert_string_equal(sbuf_str(&s), "1M");
	sbuf_reset(&s);
	c.runtime_ns = 1500;
	workload_value(K_RUNTIME, &c, &s);
	assert_string_equal(sbuf_str(&s), "1500ns");
	sbuf_reset(&s);
	c.runtime_ns = 2000000000;
	workload_value(K_RUNTIME, &c, &s);
	assert_string_equal(sbuf_str(&s), "2s");
	sbuf_reset(&s);
	c.size = 0;
	c.size_pct = 10;
	workload_value(K_SIZE, &c, &s);
	assert_string_equal(sbuf_str(&s), "10%");
	sbuf_reset(&s);
	c.size_pct = 0;                 /* an import that could not know */
	workload_value(K_SIZE, &c, &s);
	assert_string_equal(sbuf_str(&s), "unknown");
	sbuf_release(&s);

	struct cell a = base(), b = base();
	a.offset_pct = 0.1;
	b.offset_pct = 0.1 + 1e-12;
	agree(&a, &b, false);
	/* values equal as numbers are one text (workload_diff spells out
	 * only what key_same calls different): -0 % is 0 % */
	a = base(), b = base();
	a.active_range_pct = -0.0;
	b.active_range_pct = 0.0;
	agree(&a, &b, true);
	workload_value(K_ACTIVE_RANGE, &a, &s);
	assert_string_equal(sbuf_str(&s), "0%");
	sbuf_release(&s);
	b.active_range_pct = 50;
	agree(&a, &b, false);
	assert_int_equal(workload_diff(&a, &b, WORKLOAD_ALL), WORKLOAD_KEY(K_ACTIVE_RANGE));
}

/* A text from a set cannot pass for two keys: an engine an import named
 * "x;bs=8K" is not the engine x with block size 8K. */
static void test_text_escaped(void **state)
{
	(void)state;
	struct cell a = base(), b = base();
	snprintf(a.engine, sizeof(a.engine), "x;bs=8K");
	snprintf(b.engine, sizeof(b.engine), "x");
	b.bs = 8192;
	agree(&a, &b, false);
	char *k = workload_key_new(&a);
	assert_non_null(strstr(k, "engine=x\\;bs\\=8K"));
	free(k);
}

/* The key reads as the cell file does: core keys always, a newer key only
 * off its default; a mask keeps only its keys. */
static void test_key_text(void **state)
{
	(void)state;
	struct cell c = base();
	char *k = workload_key_new(&c);
	assert_non_null(strstr(k, "pattern=randread;bs=4K;iodepth=32;jobs=1;engine=libaio;"));
	assert_null(strstr(k, "rate_iops"));
	assert_null(strstr(k, "rwmixread"));
	free(k);
	c.rate.iops[0] = c.rate.iops[1] = 200;
	k = workload_key_new(&c);
	assert_non_null(strstr(k, ";rate_iops=200"));
	free(k);
	struct sbuf s = SBUF_INIT;
	workload_key(&c, WORKLOAD_KEY(K_BS) | WORKLOAD_KEY(K_IODEPTH), &s);
	assert_string_equal(sbuf_str(&s), "bs=4K;iodepth=32");
	sbuf_reset(&s);
	workload_say(&c, WORKLOAD_KEY(K_RATE_IOPS) | WORKLOAD_KEY(K_IODEPTH), &s);
	assert_string_equal(sbuf_str(&s), "iodepth 32, rate_iops 200");
	sbuf_release(&s);
}

/* Every single key changed from the default cell either changes the key
 * and the diff together or neither: the two never disagree. */
static void test_every_key_agrees(void **state)
{
	(void)state;
	for (int k = 0; k < NKEYS; k++) {
		/* the keys key_store_u64 cannot set to another value */
		enum ktype t = cell_keys[k].type;
		if (t == KT_LABEL || t == KT_CUSTOM || t == KT_ENGINE || t == KT_PATTERN ||
		    t == KT_CPULIST || t == KT_RANDDIST || t == KT_STEADY)
			continue;
		struct cell a = base(), b = base();
		a.pattern = b.pattern = PAT_RANDRW;
		uint64_t v = key_load_u64(k, &b);
		key_store_u64(k, &b, cell_keys[k].type == KT_BOOL ? !v : v + 1);
		char *ka = workload_key_new(&a), *kb = workload_key_new(&b);
		bool keys_same = !strcmp(ka, kb);
		if (keys_same != workload_same(&a, &b, WORKLOAD_ALL))
			fail_msg("key %s: the key (%s) and the diff disagree", cell_keys[k].name,
				 keys_same ? "same" : "differs");
		if (cell_keys[k].workload && workload_key_counts(k, &b) && keys_same)
			fail_msg("key %s counts but changing it changes nothing", cell_keys[k].name);
		free(ka);
		free(kb);
	}
}

/* A model device is what its keys make it: its text names
 * the keys off their defaults; a target is a model device when every cell
 * runs one model, and a cell of another engine makes it storage. */
static void test_model_device(void **state)
{
	(void)state;
	struct cell a = base(), b = base(), d = base();
	struct sbuf s = SBUF_INIT;
	workload_model_device(&a, &s);
	assert_int_equal(s.len, 0);          /* libaio: no model */
	snprintf(a.engine, sizeof(a.engine), "model");
	snprintf(b.engine, sizeof(b.engine), "model");
	workload_model_device(&a, &s);
	assert_string_equal(sbuf_str(&s), "model");
	b.model.latency_ns = 200000;
	sbuf_reset(&s);
	workload_model_device(&b, &s);
	assert_string_equal(sbuf_str(&s), "model;model_latency=200us");

	const struct cell *one[] = { &a, &a }, *two[] = { &a, &b }, *mixed[] = { &a, &d };
	sbuf_reset(&s);
	assert_true(workload_model_target(one, 2, &s));
	assert_string_equal(sbuf_str(&s), "model");
	sbuf_reset(&s);
	assert_false(workload_model_target(two, 2, &s));
	assert_false(workload_model_target(mixed, 2, &s));
	assert_false(workload_model_target(one, 0, &s));
	assert_int_equal(s.len, 0);
	sbuf_release(&s);
}

/* A value an importer inferred (a fio job that names no rw:
 * its pattern, its depth) is never one workload with a recorded one. */
static void test_inferred_apart(void **state)
{
	(void)state;
	struct cell a = base();
	struct sbuf x = SBUF_INIT, y = SBUF_INIT;
	workload_key_inferred(&a, 0, WORKLOAD_ALL, &x);
	workload_key_inferred(&a, WORKLOAD_KEY(K_PATTERN) | WORKLOAD_KEY(K_IODEPTH),
			      WORKLOAD_ALL, &y);
	assert_string_not_equal(sbuf_str(&x), sbuf_str(&y));
	assert_non_null(strstr(sbuf_str(&y), "pattern~randread;"));
	assert_non_null(strstr(sbuf_str(&y), ";iodepth~32;"));
	char *k = workload_key_new(&a);
	assert_string_equal(k, sbuf_str(&x));
	free(k);
	sbuf_release(&x);
	sbuf_release(&y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_exact),
		cmocka_unit_test(test_rate_and_data),
		cmocka_unit_test(test_counts_where_it_applies),
		cmocka_unit_test(test_not_the_workload),
		cmocka_unit_test(test_exact_values),
		cmocka_unit_test(test_text_escaped),
		cmocka_unit_test(test_key_text),
		cmocka_unit_test(test_every_key_agrees),
		cmocka_unit_test(test_model_device),
		cmocka_unit_test(test_inferred_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
