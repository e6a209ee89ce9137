/*
 * test_launch.c - a launcher's ranks as fleet hosts (bench/fleet/launch.h):
 * names NODE:LOCAL_RANK and the characters a node may not hold, the
 * {rank}/{node}/{local_rank} placeholders of a device path, the suite
 * message's "launch" object, round trip and refusals, and the launcher
 * judged from the variables each launcher documents, together.
 */
#include "testutil.h"

#include <string.h>

#include "fleet/launch.h"

static struct launch_host host(const char *node, int rank, int local)
{
	struct launch_host h;

	memset(&h, 0, sizeof(h));
	strcpy(h.node, node);
	h.rank = rank;
	h.local_rank = local;
	return h;
}

static void test_names(void **state)
{
	static const char *const bad[] = { "", "a b", "a,b", "a=b", "a:b", "a\tb", "a\x7f" };
	struct launch_host h = host("n01", 5, 1);

	(void)state;
	assert_int_equal(launch_host_name(&h), 0);
	assert_string_equal(h.name, "n01:1");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h = host(bad[i], 0, 0);
		assert_int_equal(launch_host_name(&h), -1);
	}
	h = host("n01", 0, -1);
	assert_int_equal(launch_host_name(&h), -1);
}

static void test_expand(void **state)
{
	struct launch_host h = host("n07", 12, 3);
	char out[64];

	(void)state;
	assert_int_equal(launch_expand_path("/s/{node}-{local_rank}/r{rank}", &h, out, sizeof(out)), 0);
	assert_string_equal(out, "/s/n07-3/r12");
	/* other braces stay as they are; a path without any is copied */
	assert_int_equal(launch_expand_path("/s/{x}/{rank", &h, out, sizeof(out)), 0);
	assert_string_equal(out, "/s/{x}/{rank");
	assert_int_equal(launch_expand_path("/plain", &h, out, sizeof(out)), 0);
	assert_string_equal(out, "/plain");
	/* exactly fits / one byte short */
	assert_int_equal(launch_expand_path("{rank}", &h, out, 3), 0);
	assert_string_equal(out, "12");
	assert_int_equal(launch_expand_path("{rank}", &h, out, 2), -1);
	assert_int_equal(launch_expand_path("ab", &h, out, 2), -1);
}

/* A placeholder is one name: a node called "../victimdir" would put
 * SCR/{node} outside SCR.  Refused only where {node} is used. */
static void test_expand_refuses_a_path(void **state)
{
	static const char *const bad[] = { "../victimdir", "..", ".", "a/b", "a..b", "n 1",
					   "n\xc3\xa9", "" };
	char out[64];
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct launch_host h = host(bad[i], 3, 0);
		assert_false(launch_name_ok(bad[i]));
		assert_int_equal(launch_expand_path("/scr/{node}/", &h, out, sizeof(out)), -2);
		assert_int_equal(launch_expand_path("/scr/r{rank}/", &h, out, sizeof(out)), 0);
		assert_string_equal(out, "/scr/r3/");
	}
	assert_true(launch_name_ok("n01.cluster_a-1"));
}

static void test_json(void **state)
{
	struct launch_host h = host("n02", 7, 2), back;
	cJSON *j = launch_host_json(&h);

	(void)state;
	assert_non_null(j);
	assert_int_equal(launch_host_from_json(j, &back), 0);
	assert_string_equal(back.name, "n02:2");
	assert_int_equal(back.rank, 7);
	cJSON_Delete(j);
	static const char *const bad[] = {
		"[]", "{}", "{\"rank\":1,\"node\":\"n\"}", "{\"rank\":-1,\"node\":\"n\",\"local_rank\":0}",
		"{\"rank\":1.5,\"node\":\"n\",\"local_rank\":0}", "{\"rank\":1e300,\"node\":\"n\",\"local_rank\":0}",
		"{\"rank\":1,\"node\":\"a b\",\"local_rank\":0}", "{\"rank\":1,\"node\":7,\"local_rank\":0}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = cJSON_Parse(bad[i]);
		assert_int_equal(launch_host_from_json(j, &back), -1);
		cJSON_Delete(j);
	}
}

/* The environment of one test case: "NAME=VALUE" strings, NULL-ended. */
static const char *const *fake_env;

static char *fake_getenv(const char *name)
{
	size_t n = strlen(name);
	for (const char *const *e = fake_env; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return (char *)*e + n + 1;
	return NULL;
}

static const char *judge(const char *const *env, int rank, int size)
{
	fake_env = env;
	return launch_launcher(fake_getenv, rank, size);
}

static void test_launcher(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const stray_step[] = { "SLURM_STEP_ID=7", NULL };
	static const char *const batch[] = { "SLURM_JOB_ID=42", "SLURM_PROCID=0",
					     "SLURM_NTASKS=4", NULL };
	static const char *const srun[] = { "SLURM_JOB_ID=42", "SLURM_STEP_ID=0", "SLURM_PROCID=2",
					    "SLURM_STEP_NUM_TASKS=4", "SLURM_LOCALID=0", NULL };
	static const char *const ompi[] = { "OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=2",
					    "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL };
	/* mpirun in an allocation: its orted runs in a step of its own,
	 * whose SLURM_PROCID is the node's, not the rank's */
	static const char *const ompi_in_slurm[] = { "OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=2",
		"OMPI_COMM_WORLD_LOCAL_RANK=0", "SLURM_JOB_ID=42", "SLURM_STEP_ID=1",
		"SLURM_PROCID=0", "SLURM_STEP_NUM_TASKS=2", NULL };
	static const char *const hydra[] = { "PMI_RANK=2", "PMI_SIZE=4", NULL };
	static const char *const bad_num[] = { "OMPI_COMM_WORLD_SIZE=4x", "OMPI_COMM_WORLD_RANK=2",
					       "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL };
	(void)state;
	assert_string_equal(judge(none, 0, 1), "singleton");
	assert_string_equal(judge(stray_step, 0, 1), "singleton");
	assert_string_equal(judge(batch, 0, 1), "singleton");
	assert_string_equal(judge(srun, 2, 4), "srun");
	assert_string_equal(judge(srun, 1, 4), "unknown");      /* not this rank's */
	assert_string_equal(judge(srun, 0, 1), "singleton");    /* not this world */
	assert_string_equal(judge(ompi, 2, 4), "mpirun");
	assert_string_equal(judge(ompi_in_slurm, 2, 4), "mpirun");
	assert_string_equal(judge(hydra, 2, 4), "mpiexec");
	assert_string_equal(judge(bad_num, 2, 4), "unknown");
	assert_string_equal(judge(none, 0, 3), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_expand_refuses_a_path),
		cmocka_unit_test(test_launcher),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
