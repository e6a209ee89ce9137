/*
 * test_batch.c - fio's batching rules (runner/batch.h), the one formula
 * the worker's loop and its engine options share: iodepth_batch 0, 1, up
 * to and past iodepth; the reap bounds with complete_min/max unset, set,
 * crossed, above what is in flight, and the full-queue and draining rule.
 */
#include "testutil.h"

#include "runner/batch.h"

static struct cell with(unsigned batch, unsigned cmin, unsigned cmax)
{
	struct cell c = { 0 };
	c.iodepth_batch = batch;
	c.iodepth_batch_complete_min = cmin;
	c.iodepth_batch_complete_max = cmax;
	return c;
}

static void test_submit_batch(void **state)
{
	(void)state;
	struct cell c = with(0, 0, 0);
	assert_int_equal(batch_submit(&c, 32), 0);   /* 0: everything queued */
	c = with(1, 0, 0);
	assert_int_equal(batch_submit(&c, 32), 1);
	assert_int_equal(batch_submit(&c, 1), 1);
	c = with(8, 0, 0);
	assert_int_equal(batch_submit(&c, 32), 8);
	c = with(32, 0, 0);
	assert_int_equal(batch_submit(&c, 32), 32);  /* equal: as given */
	c = with(64, 0, 0);
	assert_int_equal(batch_submit(&c, 32), 32);  /* past iodepth: capped */
	assert_int_equal(batch_submit(&c, 1), 1);    /* sync engines: depth 1 */
}

static void test_reap_bounds(void **state)
{
	(void)state;
	unsigned mn, mx;
	struct cell c = with(0, 0, 0);

	/* unset: up to iodepth, wait for none while slots are free */
	batch_reap_bounds(&c, 32, true, 4, 28, &mn, &mx);
	assert_int_equal(mx, 32);
	assert_int_equal(mn, 0);
	/* a full queue waits for one even with min 0 */
	batch_reap_bounds(&c, 32, true, 0, 32, &mn, &mx);
	assert_int_equal(mn, 1);
	/* so does a job that has stopped issuing: it only drains */
	batch_reap_bounds(&c, 32, false, 30, 2, &mn, &mx);
	assert_int_equal(mn, 1);

	c = with(0, 4, 8);
	batch_reap_bounds(&c, 32, true, 16, 16, &mn, &mx);
	assert_int_equal(mn, 4);
	assert_int_equal(mx, 8);
	/* min above what is in flight: what is in flight */
	batch_reap_bounds(&c, 32, true, 29, 3, &mn, &mx);
	assert_int_equal(mn, 3);
	/* max at or past iodepth: iodepth */
	c = with(0, 1, 64);
	batch_reap_bounds(&c, 32, true, 0, 32, &mn, &mx);
	assert_int_equal(mx, 32);
	c = with(0, 1, 32);
	batch_reap_bounds(&c, 32, true, 0, 32, &mn, &mx);
	assert_int_equal(mx, 32);
	assert_int_equal(mn, 1);
	/* min above max: max */
	c = with(0, 16, 4);
	batch_reap_bounds(&c, 32, true, 0, 32, &mn, &mx);
	assert_int_equal(mx, 4);
	assert_int_equal(mn, 4);
	/* nothing in flight, still issuing with free slots: wait for none */
	c = with(0, 8, 0);
	batch_reap_bounds(&c, 32, true, 32, 0, &mn, &mx);
	assert_int_equal(mn, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_submit_batch),
		cmocka_unit_test(test_reap_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
