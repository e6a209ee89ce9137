/*
 * test_placement.c - cpus_allowed and numa_node resolve into the CPU set the
 * job threads get, and refuse CPUs or nodes this machine does not have with
 * the key and the fix in the message.
 */
#include "testutil.h"

#include <errno.h>
#include <string.h>

#include "runner/placement.h"

static void test_unbound(void **state)
{
	struct placement p;
	char err[256] = "";
	(void)state;
	assert_int_equal(placement_resolve(NULL, -1, &p, err, sizeof(err)), 0);
	assert_false(p.bind_cpus);
	assert_string_equal(p.cpus, "");
	assert_int_equal(placement_resolve("", -1, &p, err, sizeof(err)), 0);
	assert_false(p.bind_cpus);
}

static void test_cpus(void **state)
{
	struct placement p;
	char err[256] = "";
	(void)state;
	assert_int_equal(placement_resolve("0", -1, &p, err, sizeof(err)), 0);
	assert_true(p.bind_cpus);
	assert_string_equal(p.cpus, "0");
	assert_int_equal(placement_resolve("1000", -1, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cpus_allowed '1000': CPU 1000 is not one"));
	assert_non_null(strstr(err, "drop cpus_allowed"));
	assert_int_equal(placement_resolve("0-", -1, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cpus_allowed: bad CPU list"));
}

static void test_numa(void **state)
{
	struct placement p;
	char err[256] = "";
	(void)state;
	int ret = placement_resolve(NULL, 0, &p, err, sizeof(err));
	if (!placement_have_numa()) {
		assert_int_equal(ret, -EOPNOTSUPP);
		assert_non_null(strstr(err, "built without libnuma"));
		return;
	}
	if (ret == -EOPNOTSUPP) /* kernel without NUMA policy */
		skip();
	assert_int_equal(ret, 0);
	assert_true(p.bind_cpus);
	assert_int_equal(p.node, 0);
	assert_int_equal(placement_resolve(NULL, 1000, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "numa_node 1000: this machine has nodes 0-"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unbound),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_numa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
