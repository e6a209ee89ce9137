/*
 * test_cell.c - pattern names and aliases, cell defaults, CrystalDiskMark
 * labels, and the PARAMS JSON round trip (results/README.md keys).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/cell.h"
#include "suite/keys.h"
#include "util/intern.h"
#include "resultset/resultset.h"

static void test_pattern_names(void **state)
{
	(void)state;
	static const char *names[] = { "read", "write", "randread", "randwrite",
		"readwrite", "randrw", "rewrite" };
	for (int i = 0; i < PAT__COUNT; i++) {
		enum pattern p;
		assert_string_equal(pattern_name((enum pattern)i), names[i]);
		assert_int_equal(pattern_parse(names[i], &p), 0);
		assert_int_equal(p, i);
	}
	enum pattern p;
	assert_int_equal(pattern_parse("seqrewr", &p), 0);
	assert_int_equal(p, PAT_REWRITE);
	assert_int_equal(pattern_parse("rndrw", &p), 0);
	assert_int_equal(p, PAT_RANDRW);
	assert_int_equal(pattern_parse("READ", &p), -1);
	assert_int_equal(pattern_parse("", &p), -1);
}

static void test_pattern_props(void **state)
{
	(void)state;
	assert_true(pattern_reads(PAT_READ) && !pattern_writes(PAT_READ));
	assert_true(pattern_writes(PAT_REWRITE) && !pattern_reads(PAT_REWRITE));
	assert_true(pattern_reads(PAT_RANDRW) && pattern_writes(PAT_RANDRW));
	assert_true(pattern_is_random(PAT_RANDWRITE) && !pattern_is_random(PAT_READWRITE));
	assert_true(pattern_is_mixed(PAT_READWRITE) && pattern_is_mixed(PAT_RANDRW));
	assert_false(pattern_is_mixed(PAT_WRITE));
	assert_string_equal(data_name(DATA_COMPRESSIBLE), "compressible");
}

static void test_labels(void **state)
{
	(void)state;
	struct cell c;
	char b[CELL_LABEL_MAX];
	cell_init(&c);
	c.pattern = PAT_READ;
	c.bs = 1 << 20;
	c.iodepth = 8;
	cell_label_derive(&c, b, sizeof(b));
	assert_string_equal(b, "SEQ1M Q8T1");
	c.pattern = PAT_RANDREAD;
	c.bs = 4096;
	c.iodepth = 32;
	c.jobs = 16;
	cell_label_derive(&c, b, sizeof(b));
	assert_string_equal(b, "RND4K Q32T16");
	c.pattern = PAT_RANDRW;
	c.rwmixread = 70;
	c.iodepth = 16;
	c.jobs = 1;
	cell_label_derive(&c, b, sizeof(b));
	assert_string_equal(b, "RND4K Q16T1 R70");
	c.pattern = PAT_WRITE;
	c.bs = 512;
	cell_label_derive(&c, b, sizeof(b));
	assert_string_equal(b, "SEQ512B Q16T1");
	c.bs = 131072;
	c.pattern = PAT_REWRITE;
	cell_label_derive(&c, b, sizeof(b));
	assert_string_equal(b, "SEQ128K Q16T1");
}

static void test_json_roundtrip(void **state)
{
	(void)state;
	struct cell c, back;
	char err[128];
	cell_init(&c);
	c.id = 7;
	c.device = "ssd";
	c.path = "/mnt/ssd";
	c.label = intern_str("RND4K Q32T16");
	c.pattern = PAT_RANDRW;
	c.bs = 4096;
	c.iodepth = 32;
	c.jobs = 16;
	strcpy(c.engine, "io_uring");
	c.direct = false;
	c.size = 0;
	c.size_pct = 50;
	c.files = 4;
	c.offset_pct = 12.5;
	c.runtime_ns = 30000000000ULL;
	c.ramp_ns = 5000000000ULL;
	c.requests = 123456;
	c.io_size = 1ULL << 33;
	c.rwmixread = 70;
	c.fsync = 2;
	c.end_fsync = true;
	c.data = DATA_COMPRESSIBLE;
	c.compress_pct = 40;
	c.drop_caches = true;
	c.repeat = 3;
	c.cooldown_ns = 1000000000ULL;
	c.seed = 42;
	c.interval_ns = 500000000ULL;
	c.keep_files = true;
	c.iodepth_batch = 8;
	c.iodepth_batch_complete_min = 2;
	c.iodepth_batch_complete_max = 16;
	c.registerfiles = c.fixedbufs = c.sqthread_poll = c.hipri = true;
	c.sqthread_poll_cpu = 1;
	c.nonvectored = 0;
	c.cpus_allowed = intern_str("0-1,4");
	c.numa_node = -1; /* a negative value survives the round trip */
	c.fdatasync = 3;
	c.sysbench_fsync_freq = 100;
	c.norandommap = true;
	c.randrepeat = false;
	c.random_distribution = intern_str("zoned:60/10:40/90");
	c.thread = false;
	cJSON *j = cell_to_json(&c);
	assert_non_null(j);
	assert_int_equal(cJSON_GetArraySize(j), 47);
	assert_int_equal(cJSON_GetObjectItem(j, "numa_node")->valueint, -1);
	assert_non_null(cJSON_GetObjectItem(j, "bs_bytes"));
	assert_non_null(cJSON_GetObjectItem(j, "io_size_bytes"));
	assert_non_null(cJSON_GetObjectItem(j, "offset_bytes"));
	assert_int_equal(cell_from_json(j, &back, err, sizeof(err)), 0);
	/* device and path are borrowed from j (cell.h): same text */
	assert_string_equal(back.device, c.device);
	assert_string_equal(back.path, c.path);
	back.device = c.device;
	back.path = c.path;
	cJSON_Delete(j);
	back.label_given = c.label_given;
	back.destructive = c.destructive;
	assert_memory_equal(&c, &back, sizeof(c));
}

static void test_json_errors(void **state)
{
	(void)state;
	struct cell c;
	char err[128];
	cJSON *j = cJSON_Parse("{\"pattern\": \"sideways\"}");
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pattern"));
	cJSON_Delete(j);
	j = cJSON_Parse("{\"pattern\": \"read\", \"bs_bytes\": \"4k\"}");
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bs_bytes"));
	cJSON_Delete(j);
	j = cJSON_Parse("{\"pattern\": \"read\", \"direct\": 1}");
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), -1);
	cJSON_Delete(j);
	/* missing keys keep their defaults; unknown keys are ignored */
	j = cJSON_Parse("{\"pattern\": \"write\", \"future_key\": 1}");
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), 0);
	assert_true(c.bs == 4096 && c.pattern == PAT_WRITE && c.direct);
	cJSON_Delete(j);
	j = cJSON_Parse("[]");
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), -1);
	cJSON_Delete(j);
}

/* The keys a PARAMS object records: a field names its key (a second field
 * too: size_pct is K_SIZE's), in any order; identity and unknown fields
 * name none; and cell_to_json_keys writes back exactly those. */
static void test_json_keys(void **state)
{
	(void)state;
	struct cell c;
	char err[128];
	cJSON *j = cJSON_Parse("{\"iodepth\": 4, \"id\": 3, \"size_pct\": 50, \"future\": 1,"
			       " \"pattern\": \"read\", \"device\": \"d\", \"label\": \"L\"}");
	uint64_t k = cell_json_keys(j);
	assert_true(k == (1ULL << K_IODEPTH | 1ULL << K_SIZE | 1ULL << K_PATTERN |
			  1ULL << K_LABEL));
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), 0);
	cJSON *back = cell_to_json_keys(&c, k);     /* c borrows j's strings */
	char *t = cJSON_PrintUnformatted(back);
	assert_string_equal(t, "{\"id\":3,\"device\":\"d\",\"path\":\"\",\"label\":\"L\","
			    "\"pattern\":\"read\",\"iodepth\":4,\"size_bytes\":1073741824,"
			    "\"size_pct\":50}");
	free(t);
	cJSON_Delete(back);
	cJSON_Delete(j);
	assert_true(cell_json_keys(NULL) == 0);
}

/* cell_param_texts gives each field as cell_to_json writes it, and only
 * those: a default cell (omit_default keys absent, io_size without its
 * multiple) and one with the optional fields set (steady_state, the io_size
 * multiple, a CPU list, a label). */
static void check_param_texts(const struct cell *c)
{
	cJSON *j = cell_to_json(c);
	int fields = 3;   /* id, device, path */
	assert_non_null(j);
	for (int k = 0; k < NKEYS; k++) {
		struct cell_param_text t[2];
		int n = cell_param_texts(k, c, t);
		assert_true(n >= 0 && n <= 2);
		for (int i = 0; i < n; i++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, t[i].name);
			char *want = x ? cJSON_PrintUnformatted(x) : NULL;
			assert_non_null(want);
			assert_string_equal(t[i].text, want);
			free(want);
			free(t[i].text);
		}
		fields += n;
	}
	assert_int_equal(fields, cJSON_GetArraySize(j));
	cJSON_Delete(j);
}

static void test_param_texts(void **state)
{
	(void)state;
	struct cell c;
	char err[128];

	cell_init(&c);
	check_param_texts(&c);
	cJSON *j = cJSON_Parse("{\"id\": 1, \"device\": \"d\", \"label\": \"L\", "
			       "\"pattern\": \"randrw\", \"io_size_bytes\": 4096, \"io_size_mult\": 2.5, "
			       "\"cpus_allowed\": \"0-1\", \"size_pct\": 12.5, \"steady_state\": "
			       "{\"window\": 5, \"range_pct\": 20, \"slope_pct\": 10, \"max\": 25}}");
	assert_int_equal(cell_from_json(j, &c, err, sizeof(err)), 0);
	check_param_texts(&c);
	struct cell_param_text t[2];
	assert_int_equal(cell_param_texts(K_IO_SIZE, &c, t), 2);
	assert_string_equal(t[0].name, "io_size_bytes");
	assert_string_equal(t[1].text, "2.5");
	free(t[0].text);
	free(t[1].text);
	assert_int_equal(cell_param_texts(K_STEADY, &c, t), 1);
	assert_string_equal(t[0].text, "{\"window\":5,\"range_pct\":20,\"slope_pct\":10,\"max\":25}");
	free(t[0].text);
	cJSON_Delete(j);
}

static void test_plan_json(void **state)
{
	(void)state;
	struct cell cells[2];
	struct suite s = { 0 };
	cell_init(&cells[0]);
	cell_init(&cells[1]);
	cells[0].id = 1;
	cells[1].id = 2;
	s.name = "x";
	strcpy(s.sha256, "ab");
	s.cells = cells;
	s.ncells = 2;
	/* the streamed plan parses as one JSON object */
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	assert_non_null(f);
	assert_int_equal(resultset_plan_write(f, &s), 0);
	fclose(f);
	cJSON *j = cJSON_Parse(txt);
	free(txt);
	assert_non_null(j);
	assert_int_equal(cJSON_GetObjectItem(j, "schema_version")->valueint, 1);
	assert_string_equal(cJSON_GetObjectItem(j, "suite")->valuestring, "x");
	assert_string_equal(cJSON_GetObjectItem(j, "sha256")->valuestring, "ab");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "cells")), 2);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_names),
		cmocka_unit_test(test_pattern_props),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_plan_json),
		cmocka_unit_test(test_param_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
