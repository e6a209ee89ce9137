/*
 * test_suite.c - the suite loader: matrix expansion and its order, exclude,
 * include, per-device values, --device and --scale, derived labels, every
 * key's validation, error positions, did-you-mean, one-pass error lists and
 * the limits (aliases, size, UTF-8, cell count).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/sha256.h"
#include "suite/suite.h"

#define HEAD "suite: t\ndevices:\n  - name: d\n    path: /tmp\n"

static struct suite *load_opts(const char *text, const struct suite_opts *o,
			       struct errlist *e)
{
	struct suite *s = NULL;
	int rc = suite_load_buffer("t.yaml", text, strlen(text), o, &s, e);
	assert_true((rc == 0) == (s != NULL));
	return s;
}

static struct suite *load(const char *text, struct errlist *e)
{
	return load_opts(text, NULL, e);
}

static struct suite *load_ok(const char *text)
{
	struct errlist e = ERRLIST_INIT;
	struct suite *s = load(text, &e);
	if (!s)
		errlist_print(&e, stderr);
	assert_non_null(s);
	errlist_release(&e);
	return s;
}

/* The suite fails to load and one message contains want. */
static void expect_err(const char *text, const char *want)
{
	struct errlist e = ERRLIST_INIT;
	struct suite *s = load(text, &e);
	bool found = false;

	if (s)
		fprintf(stderr, "loaded, but wanted '%s'\n", want);
	assert_null(s);
	for (size_t i = 0; i < e.n; i++)
		found |= strstr(e.msgs[i], want) != NULL;
	if (!found || !e.n) {
		fprintf(stderr, "want '%s', got:\n", want);
		errlist_print(&e, stderr);
	}
	assert_true(found);
	errlist_release(&e);
}

static void test_matrix_order(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: [read, write]\n"
				  "  bs: [4k, 1m]\n  iodepth: [1, 8, 32]\n");
	assert_int_equal(s->ncells, 12);
	/* first key outermost, last fastest */
	assert_int_equal(s->cells[0].pattern, PAT_READ);
	assert_true(s->cells[0].bs == 4096 && s->cells[0].iodepth == 1);
	assert_int_equal(s->cells[1].iodepth, 8);
	assert_int_equal(s->cells[2].iodepth, 32);
	assert_true(s->cells[3].bs == 1048576 && s->cells[3].iodepth == 1);
	assert_int_equal(s->cells[6].pattern, PAT_WRITE);
	for (size_t i = 0; i < s->ncells; i++)
		assert_int_equal(s->cells[i].id, (int)i + 1);
	suite_free(s);
}

static void test_scalar_matrix_value(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: randread\n  bs: 8k\n");
	assert_int_equal(s->ncells, 1);
	assert_true(s->cells[0].bs == 8192);
	suite_free(s);
}

static void test_exclude(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: [read, randread]\n"
				  "  bs: [4k, 1m]\nexclude:\n  - {pattern: read, bs: 4k}\n"
				  "  - {pattern: randread, bs: [1m]}\n");
	assert_int_equal(s->ncells, 2);
	assert_true(s->cells[0].pattern == PAT_READ && s->cells[0].bs == 1048576);
	assert_true(s->cells[1].pattern == PAT_RANDREAD && s->cells[1].bs == 4096);
	suite_free(s);
}

static void test_exclude_device_and_label(void **state)
{
	(void)state;
	struct suite *s = load_ok("suite: t\ndevices:\n  - {name: a, path: /a}\n"
				  "  - {name: b, path: /b}\nmatrix:\n  pattern: [read, write]\n"
				  "exclude:\n  - {device: a, pattern: write}\n"
				  "  - {label: \"SEQ4K Q1T1\", device: b, pattern: read}\n");
	assert_int_equal(s->ncells, 2);
	assert_string_equal(s->cells[0].device, "a");
	assert_int_equal(s->cells[0].pattern, PAT_READ);
	assert_string_equal(s->cells[1].device, "b");
	assert_int_equal(s->cells[1].pattern, PAT_WRITE);
	suite_free(s);
}

static void test_include_every_device(void **state)
{
	(void)state;
	struct suite *s = load_ok("suite: t\ndevices:\n  - {name: a, path: /a}\n"
				  "  - {name: b, path: /b}\nmatrix:\n  pattern: read\n"
				  "include:\n  - {label: \"MINE\", pattern: randrw, rwmixread: 70}\n");
	assert_int_equal(s->ncells, 4);
	/* device by device: matrix cells then includes */
	assert_string_equal(s->cells[0].device, "a");
	assert_string_equal(s->cells[1].label, "MINE");
	assert_true(s->cells[1].label_given);
	assert_int_equal(s->cells[1].rwmixread, 70);
	assert_string_equal(s->cells[2].device, "b");
	assert_string_equal(s->cells[3].device, "b");
	assert_string_equal(s->cells[3].path, "/b");
	suite_free(s);
}

static void test_include_only(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "include:\n  - {pattern: read}\n  - pattern: write\n    bs: 1m\n");
	assert_int_equal(s->ncells, 2);
	assert_string_equal(s->cells[1].label, "SEQ1M Q1T1");
	suite_free(s);
}

static void test_defaults_and_builtin(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: read\n");
	const struct cell *c = &s->cells[0];
	assert_true(c->bs == 4096 && c->iodepth == 1 && c->jobs == 1);
	assert_string_equal(c->engine, "libaio");
	assert_true(c->direct);
	assert_true(c->size == 1ULL << 30 && c->files == 1);
	assert_true(c->runtime_ns == 0 && c->repeat == 1 && c->rwmixread == 50);
	assert_int_equal(c->data, DATA_RANDOM);
	assert_true(c->seed == CELL_DEFAULT_SEED);
	assert_true(c->interval_ns == 1000000000ULL);
	suite_free(s);
	s = load_ok(HEAD "defaults:\n  bs: 64k\n  runtime: 30s\n  keep_files: true\nmatrix:\n  pattern: read\n");
	assert_true(s->cells[0].bs == 65536 && s->cells[0].runtime_ns == 30000000000ULL);
	assert_true(s->cells[0].keep_files);
	suite_free(s);
}

static void test_every_key_parses(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "defaults:\n  pattern: randrw\n  bs: 8k\n  iodepth: 16\n"
		"  jobs: 4\n  engine: io_uring\n  direct: false\n  size: 2g\n  files: 3\n"
		"  offset: 1m\n  runtime: 2m\n  ramp: 500ms\n  requests: 1000\n  io_size: 1g\n"
		"  rwmixread: 70\n  fsync: 8\n  end_fsync: true\n  data: compressible:40\n"
		"  drop_caches: yes\n  repeat: 3\n  cooldown: 10s\n  seed: 42\n  interval: 250ms\n"
		"  keep_files: true\nmatrix:\n  iodepth: 16\n");
	const struct cell *c = &s->cells[0];
	assert_int_equal(c->pattern, PAT_RANDRW);
	assert_true(c->bs == 8192 && c->iodepth == 16 && c->jobs == 4);
	assert_string_equal(c->engine, "io_uring");
	assert_false(c->direct);
	assert_true(c->size == 2ULL << 30 && c->files == 3 && c->offset == 1048576);
	assert_true(c->runtime_ns == 120000000000ULL && c->ramp_ns == 500000000ULL);
	assert_true(c->requests == 1000 && c->io_size == 1ULL << 30);
	assert_true(c->rwmixread == 70 && c->fsync == 8 && c->end_fsync);
	assert_true(c->data == DATA_COMPRESSIBLE && c->compress_pct == 40);
	assert_true(c->drop_caches && c->repeat == 3);
	assert_true(c->cooldown_ns == 10000000000ULL && c->seed == 42);
	assert_true(c->interval_ns == 250000000ULL && c->keep_files);
	suite_free(s);
}

static void test_engine_null(void **state)
{
	(void)state;
	/* plain `null` is a YAML null, but for engine it names the null engine */
	struct suite *s = load_ok(HEAD "defaults:\n  engine: null\nmatrix:\n  pattern: read\n");
	assert_string_equal(s->cells[0].engine, "null");
	suite_free(s);
	expect_err(HEAD "defaults:\n  engine: ~\nmatrix:\n  pattern: read\n", "'engine' has no value");
}

static void test_percent_sizes(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "defaults:\n  size: 50%\nmatrix:\n  pattern: read\n"
				  "  offset: [0%, 4m, 95%]\n");
	assert_int_equal(s->ncells, 3);
	assert_true(s->cells[0].size == 0 && s->cells[0].size_pct == 50.0);
	assert_true(s->cells[0].offset == 0 && s->cells[0].offset_pct == 0);
	assert_true(s->cells[1].offset == 4194304);
	assert_true(s->cells[2].offset_pct == 95.0);
	suite_free(s);
	/* "0" and "0%" are the same offset: a repeated cell */
	expect_err(HEAD "matrix:\n  pattern: read\n  offset: [0, 0%]\n", "repeats cell 1");
}

static void test_sysbench_aliases(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: [seqrd, seqwr, rndrd, rndwr, rndrw, seqrewr]\n");
	static const enum pattern want[] = { PAT_READ, PAT_WRITE, PAT_RANDREAD,
		PAT_RANDWRITE, PAT_RANDRW, PAT_REWRITE };
	assert_int_equal(s->ncells, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(s->cells[i].pattern, want[i]);
	suite_free(s);
}

static void test_device_overrides_win(void **state)
{
	(void)state;
	struct suite *s = load_ok("suite: t\ndefaults:\n  engine: libaio\n  size: 1g\n"
				  "devices:\n  - {name: a, path: /a}\n"
				  "  - {name: tmpfs, path: /dev/shm, direct: false, size: 64m}\n"
				  "matrix:\n  pattern: read\n  direct: [true]\n");
	assert_int_equal(s->ncells, 2);
	assert_true(s->cells[0].direct && s->cells[0].size == 1ULL << 30);
	assert_false(s->cells[1].direct);
	assert_true(s->cells[1].size == 64ULL << 20);
	assert_int_equal(s->ndevices, 2);
	assert_string_equal(s->devices[1].name, "tmpfs");
	suite_free(s);
}

static void test_destructive_and_keep(void **state)
{
	(void)state;
	struct suite *s = load_ok("suite: t\nkeep_files: true\ndevices:\n"
				  "  - {name: raw, path: /dev/sdz, destructive: true}\n"
				  "matrix:\n  pattern: write\n");
	assert_true(s->cells[0].destructive && s->devices[0].destructive);
	assert_true(s->cells[0].keep_files);
	suite_free(s);
}

static void test_cli_device_override(void **state)
{
	(void)state;
	const char *ov[] = { "d=/srv/scratch" };
	struct suite_opts o = { ov, 1, 0 };
	struct errlist e = ERRLIST_INIT;
	struct suite *s = load_opts(HEAD "matrix:\n  pattern: read\n", &o, &e);
	assert_non_null(s);
	assert_string_equal(s->cells[0].path, "/srv/scratch");
	assert_string_equal(s->devices[0].path, "/srv/scratch");
	suite_free(s);
	/* a device without path is fine when the command line gives one */
	s = load_opts("suite: t\ndevices:\n  - name: d\nmatrix:\n  pattern: read\n", &o, &e);
	assert_non_null(s);
	suite_free(s);
	const char *bad[] = { "nosuch=/x" };
	o.device_overrides = bad;
	s = load_opts(HEAD "matrix:\n  pattern: read\n", &o, &e);
	assert_null(s);
	assert_non_null(strstr(e.msgs[0], "no device 'nosuch' (it has: d)"));
	errlist_release(&e);
}

static void test_scale(void **state)
{
	(void)state;
	struct suite_opts o = { NULL, 0, 0.1 };
	struct errlist e = ERRLIST_INIT;
	struct suite *s = load_opts(HEAD "defaults:\n  size: 1g\n  runtime: 30s\n  ramp: 5s\n"
				    "  cooldown: 10s\n  repeat: 2\n  requests: 1000\n  io_size: 100m\nmatrix:\n  pattern: read\n  bs: 1m\n",
				    &o, &e);
	const struct cell *c = &s->cells[0];
	assert_true(c->size == 102ULL << 20); /* 102.4 MiB rounded down to bs */
	assert_true(c->runtime_ns == 3000000000ULL);
	/* ramp and cooldown scale too: a scaled run is a quick rehearsal */
	assert_true(c->ramp_ns == 500000000ULL && c->cooldown_ns == 1000000000ULL);
	assert_true(c->requests == 100);
	assert_true(c->io_size == 10ULL << 20);
	suite_free(s);
	o.scale = 1e-9; /* never below bs */
	s = load_opts(HEAD "defaults:\n  size: 1g\nmatrix:\n  pattern: read\n  bs: 1m\n", &o, &e);
	assert_true(s->cells[0].size == 1ULL << 20);
	suite_free(s);
	errlist_release(&e);
}

static void test_labels(void **state)
{
	(void)state;
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: [read, randread, randrw]\n"
				  "  bs: [128k]\n  iodepth: 32\n  jobs: 16\n  rwmixread: 70\n");
	assert_string_equal(s->cells[0].label, "SEQ128K Q32T16");
	assert_string_equal(s->cells[1].label, "RND128K Q32T16");
	assert_string_equal(s->cells[2].label, "RND128K Q32T16 R70");
	assert_false(s->cells[0].label_given);
	suite_free(s);
}

static void test_text_and_sha(void **state)
{
	(void)state;
	const char *t = HEAD "title: \"T\"\ndescription: D\nmatrix:\n  pattern: read\n";
	char hex[65];
	struct suite *s = load_ok(t);
	sha256_hex(t, strlen(t), hex);
	assert_string_equal(s->sha256, hex);
	assert_string_equal(s->text, t);
	assert_int_equal(s->text_len, strlen(t));
	assert_string_equal(s->name, "t");
	assert_string_equal(s->title, "T");
	assert_string_equal(s->description, "D");
	assert_string_equal(s->file, "t.yaml");
	suite_free(s);
}

/* Each key rejects a bad value, naming the key, at the value's position. */
static void test_key_validation(void **state)
{
	static const struct { const char *yaml, *msg; } t[] = {
		{ "  pattern: sideways\n", "t.yaml:6:12: unknown pattern 'sideways'" },
		{ "  bs: 256\n", "t.yaml:6:7: 'bs' 256 is out of range 512B..64MiB" },
		{ "  bs: 128m\n", "'bs' 128m is out of range" },
		{ "  bs: four\n", "'bs' four is not a size" },
		{ "  iodepth: 0\n", "'iodepth' 0 is out of range 1..1024" },
		{ "  iodepth: 1025\n", "'iodepth' 1025 is out of range 1..1024" },
		{ "  jobs: 257\n", "'jobs' 257 is out of range 1..256" },
		{ "  engine: spdk\n", "unknown engine 'spdk'" },
		{ "  engine: io-uring\n", "(did you mean 'io_uring'?)" },
		{ "  direct: maybe\n", "'direct' must be true or false, not 'maybe'" },
		{ "  size: 0\n", "'size' 0 is too small" },
		{ "  size: 150%\n", "'size' 150% is not a percentage" },
		{ "  files: 0\n", "'files' 0 is out of range 1..4096" },
		{ "  offset: 100%\n", "'offset' 100% is not a percentage" },
		{ "  runtime: 0\n", "'runtime' 0 is out of range 1ms..7d" },
		{ "  runtime: soon\n", "'runtime' soon is not a duration" },
		{ "  ramp: 2d\n", "'ramp' 2d is out of range 0s..1d" },
		{ "  requests: 0\n", "'requests' 0 is too small: at least 1" },
		{ "  requests: -5\n", "'requests' must be a whole number" },
		{ "  io_size: 1\n", "'io_size' 1 is too small" },
		{ "  rwmixread: 101\n", "'rwmixread' 101 is out of range 0..100" },
		{ "  fsync: x\n", "'fsync' must be a whole number" },
		{ "  end_fsync: 2\n", "'end_fsync' must be true or false" },
		{ "  data: ones\n", "unknown data 'ones'" },
		{ "  data: compressible:x\n", "the compressible share must be 0..100" },
		{ "  drop_caches: sometimes\n", "'drop_caches' must be true or false" },
		{ "  repeat: 0\n", "'repeat' 0 is out of range 1..1000" },
		{ "  cooldown: 1y\n", "'cooldown' 1y is not a duration" },
		{ "  seed: abc\n", "'seed' must be a whole number" },
		{ "  interval: 1ms\n", "'interval' 1ms is out of range 10ms..1h" },
		{ "  keep_files: 1\n", "'keep_files' must be true or false" },
		{ "  label: x\n", "'label' names one cell" },
		{ "  bs: [4k, 8k]\n", "'bs' takes a single value here, not a list" },
		{ "  iodepth: ~\n", "'iodepth' has no value" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char buf[512];
		snprintf(buf, sizeof(buf), HEAD "defaults:\n%smatrix:\n  jobs: 1\n", t[i].yaml);
		expect_err(buf, t[i].msg);
	}
}

static void test_cross_key_checks(void **state)
{
	(void)state;
	expect_err(HEAD "matrix:\n  pattern: read\n  bs: 4100\n", "t.yaml:7:7: 'bs' 4100 is not a multiple of 512");
	/* fine without O_DIRECT */
	struct suite *s = load_ok(HEAD "matrix:\n  pattern: read\n  bs: 4100\n  direct: false\n");
	suite_free(s);
	expect_err(HEAD "defaults:\n  engine: psync\nmatrix:\n  pattern: read\n  iodepth: [1, 4]\n",
		   "t.yaml:9:16: 'iodepth' 4 with engine 'psync'");
	expect_err(HEAD "matrix:\n  pattern: [read, write]\n  rwmixread: 60\n",
		   "t.yaml:7:14: 'rwmixread' only applies to readwrite or randrw");
	/* rwmixread in defaults is fine when some cell it reaches is mixed */
	s = load_ok(HEAD "defaults:\n  rwmixread: 60\nmatrix:\n  pattern: [read, randrw]\n");
	assert_int_equal(s->cells[1].rwmixread, 60);
	suite_free(s);
	expect_err(HEAD "defaults:\n  end_fsync: true\nmatrix:\n  pattern: read\n",
		   "'end_fsync' only applies to writes");
	expect_err(HEAD "defaults:\n  size: 1m\n  offset: 1m\nmatrix:\n  pattern: read\n",
		   "'offset' 1MiB leaves nothing of 'size' 1MiB");
	expect_err(HEAD "defaults:\n  io_size: 4k\nmatrix:\n  pattern: read\n  bs: 1m\n",
		   "'io_size' is smaller than 'bs'");
	expect_err(HEAD "defaults:\n  offset: 1000\nmatrix:\n  pattern: read\n",
		   "'offset' is not a multiple of 512");
}

/* The model's keys against the cell's time: one IO must fit
 * the runtime, or 60 s without one; the limit itself passes, the write
 * rate counts only for writes, model_noise at its slowest factor. */
static void test_model_fits_runtime(void **state)
{
	(void)state;
#define M HEAD "defaults:\n  engine: model\n  runtime: 2s\n"
	expect_err(M "  model_bw: 1\nmatrix:\n  pattern: read\n",
		   "t.yaml:8:13: 'model_bw' makes one 4KiB IO of the model take 1h8m16s, "
		   "longer than 'runtime' 2s: it could not complete in time; raise "
		   "'model_bw' to at least 2KiB, or lengthen the runtime");
	suite_free(load_ok(M "  model_bw: 2k\nmatrix:\n  pattern: read\n"));
	expect_err(M "  model_bw: 2047\nmatrix:\n  pattern: read\n",
		   "take 2.001 s, longer than 'runtime' 2s");
	expect_err(M "  model_latency: 3s\nmatrix:\n  pattern: read\n",
		   "'model_latency' makes one 4KiB IO of the model take 3.000 s, longer "
		   "than 'runtime' 2s: it could not complete in time; lower "
		   "'model_latency' to at most 2s");
	expect_err(HEAD "defaults:\n  engine: model\n  runtime: 500ms\n  model_iops: 1\n"
		   "matrix:\n  pattern: read\n", "raise 'model_iops' to at least 2");
	expect_err(M "  model_latency: 2s\n  model_noise: 10%\nmatrix:\n  pattern: read\n",
		   "take 2.200 s (with model_noise)");
	/* the write rate holds back writes only */
	suite_free(load_ok(M "  model_write_rate: 1\nmatrix:\n  pattern: read\n"));
	expect_err(M "  model_write_rate: 1\nmatrix:\n  pattern: randwrite\n",
		   "'model_write_rate' makes one 4KiB IO");
	/* no runtime: 60 s, the longest model_latency */
	expect_err(HEAD "defaults:\n  engine: model\n  model_bw: 64\n  requests: 4\n"
		   "matrix:\n  pattern: read\n",
		   "take 64.000 s, longer than 60s, the longest a model IO may take without "
		   "a 'runtime': it could not complete in time; raise 'model_bw' to at "
		   "least 69B");
	/* not a model cell: the keys are someone else's error (usage) */
	expect_err(HEAD "defaults:\n  model_bw: 1\nmatrix:\n  pattern: read\n",
		   "'model_bw' is an model option");
#undef M
}

static void test_structure_errors(void **state)
{
	(void)state;
	expect_err("", "empty suite");
	expect_err("- a\n- b\n", "a suite is a map of keys");
	expect_err(HEAD "matrix: [read]\n", "'matrix' must be a map");
	expect_err(HEAD "matrix:\n  pattern: []\n", "'pattern' has an empty list");
	expect_err(HEAD "matrix: {}\n", "'matrix' is empty");
	expect_err("suite: t\ndevices: /tmp\nmatrix:\n  pattern: read\n", "'devices' must be a list");
	expect_err("suite: t\ndevices: []\nmatrix:\n  pattern: read\n", "'devices' is empty");
	expect_err("suite: t\ndevices:\n  - path: /x\nmatrix:\n  pattern: read\n", "device without a 'name'");
	expect_err("suite: t\ndevices:\n  - {name: d, path: /x, colour: red}\nmatrix:\n  pattern: read\n",
		   "unknown key 'colour' in a device");
	expect_err("suite: t\ndevices:\n  - {name: d, paht: /x}\nmatrix:\n  pattern: read\n",
		   "unknown key 'paht' in a device (did you mean 'path'?)");
	expect_err(HEAD "include: {pattern: read}\n", "'include' must be a list of maps");
	expect_err(HEAD "include:\n  - {}\n", "empty 'include' entry");
	expect_err(HEAD "include:\n  - {pattern: read, label: \"a\\nb\"}\n", "'label' must be one line of text");
	expect_err(HEAD "include:\n  - {pattern: [read, write]}\n", "'pattern' takes a single value here");
	expect_err(HEAD "matrix:\n  pattern: read\nexclude:\n  - {}\n", "empty 'exclude' entry");
	expect_err(HEAD "matrix:\n  pattern: read\nexclude:\n  - {colour: red}\n", "unknown key 'colour' in 'exclude'");
	expect_err(HEAD "matrix:\n  pattern: read\n  label: [a]\n", "'label' names one cell");
	expect_err(HEAD "iodepth: 4\nmatrix:\n  pattern: read\n", "cell keys go under 'defaults' or 'matrix'");
	expect_err(HEAD "matrix:\n  pattern: read\ntitle: [a]\n", "'title' must be text");
	expect_err("suite: t\nsuite: u\ndevices:\n  - {name: d, path: /x}\nmatrix:\n  pattern: read\n",
		   "t.yaml:2:1: duplicate key 'suite' (first at line 1)");
	expect_err(HEAD "defaults:\n  bs: 4k\n  bs: 8k\nmatrix:\n  pattern: read\n",
		   "t.yaml:7:3: duplicate key 'bs' (first at line 6)");
	expect_err(HEAD "keep_files: true\ndefaults:\n  keep_files: false\nmatrix:\n  pattern: read\n",
		   "'keep_files' is given both at the top and in 'defaults'");
	expect_err("suite: t\ndevices:\n  - {name: \"a/b\", path: /x}\nmatrix:\n  pattern: read\n",
		   "bad device name 'a/b'");
	expect_err("suite: my.suite-1_OK\ndevices:\n  - {name: d, path: /x}\nmatrix:\n  pattern: read\n",
		   "bad suite name 'my.suite-1_OK'");
}

static void test_did_you_mean(void **state)
{
	(void)state;
	expect_err(HEAD "defaults:\n  iodepht: 4\nmatrix:\n  pattern: read\n",
		   "t.yaml:6:3: unknown key 'iodepht' in 'defaults' (did you mean 'iodepth'?)");
	expect_err(HEAD "matrix:\n  patern: read\n", "(did you mean 'pattern'?)");
	/* fio's names, none near its key's spelling */
	expect_err(HEAD "defaults:\n  numjobs: 4\nmatrix:\n  pattern: read\n",
		   "t.yaml:6:3: unknown key 'numjobs' in 'defaults' (fio's 'numjobs' is 'jobs' here)");
	expect_err(HEAD "matrix:\n  rw: [read]\n", "unknown key 'rw' in 'matrix' (fio's 'rw' is 'pattern' here)");
	expect_err(HEAD "defaults:\n  rwmixwrite: 30\nmatrix:\n  pattern: read\n",
		   "(fio's 'rwmixwrite' is 'rwmixread' here: 100 minus it)");
	expect_err(HEAD "matrix:\n  pattern: randreed\n", "unknown pattern 'randreed' (did you mean 'randread'?)");
	expect_err(HEAD "matrix:\n  pattern: rndrdd\n", "(did you mean 'rndrd'?)");
	expect_err(HEAD "defautls:\n  bs: 4k\nmatrix:\n  pattern: read\n", "unknown key 'defautls' (did you mean 'defaults'?)");
	expect_err(HEAD "matrix:\n  pattern: read\nexclud:\n  - {bs: 4k}\n", "(did you mean 'exclude'?)");
	/* nothing close: no suggestion */
	struct errlist e = ERRLIST_INIT;
	assert_null(load(HEAD "matrix:\n  pattern: read\n  zzzzzz: 1\n", &e));
	assert_int_equal(e.n, 1);
	assert_null(strstr(e.msgs[0], "did you mean"));
	errlist_release(&e);
}

static void test_all_errors_one_pass(void **state)
{
	(void)state;
	struct errlist e = ERRLIST_INIT;
	assert_null(load("suite: t\ndevices:\n  - {name: d, path: /x}\n  - {name: d, path: /y}\n"
			 "defaults:\n  iodepht: 4\n  runtime: 30x\nmatrix:\n  pattern: [read, randreed]\n"
			 "  bs: [4k, 1000]\n", &e));
	assert_int_equal(e.n, 5);
	assert_non_null(strstr(e.msgs[0], "t.yaml:4:5: duplicate device name 'd'"));
	assert_non_null(strstr(e.msgs[1], "t.yaml:6:3: unknown key 'iodepht'"));
	assert_non_null(strstr(e.msgs[2], "t.yaml:7:12: 'runtime' 30x"));
	assert_non_null(strstr(e.msgs[3], "t.yaml:9:19: unknown pattern 'randreed'"));
	assert_non_null(strstr(e.msgs[4], "t.yaml:10:12: 'bs' 1000 is not a multiple of 512"));
	errlist_release(&e);
}

static void test_same_error_once(void **state)
{
	(void)state;
	struct errlist e = ERRLIST_INIT;
	/* one bad bs reached by 8 cells is one message */
	assert_null(load(HEAD "matrix:\n  pattern: [read, write]\n  bs: 1000\n  iodepth: [1, 2, 4, 8]\n", &e));
	assert_int_equal(e.n, 1);
	errlist_release(&e);
}

static void test_yaml_syntax_position(void **state)
{
	(void)state;
	expect_err(HEAD "matrix:\n  pattern: [read\n", "t.yaml:7:1: yaml: did not find expected ',' or ']'");
	expect_err(HEAD "matrix:\n\tpattern: read\n", "yaml: found character that cannot start any token");
	expect_err(HEAD "matrix:\n  pattern: *nope\n", "yaml: found undefined alias");
}

static void test_billion_laughs_fast(void **state)
{
	(void)state;
	char buf[4096];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "suite: t\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i < 20; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n",
				      i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	expect_err(buf, "YAML aliases expand to more than 10000 nodes");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* 10^20 nodes if expanded; must stop at once (generous bound for ASan) */
	assert_true(t1.tv_sec - t0.tv_sec < 5);
	/* a few aliases are fine */
	struct suite *s = load_ok("suite: t\ndevices:\n  - {name: d, path: /x}\n"
				  "matrix:\n  pattern: read\n  bs: [4k, &bs 8k]\n"
				  "include:\n  - {pattern: write, bs: *bs}\n");
	assert_int_equal(s->ncells, 3);
	assert_true(s->cells[2].bs == 8192);
	suite_free(s);
}

/* libyaml is quadratic in nesting depth: a file of '[' must fail at once */
static void test_deep_nesting(void **state)
{
	(void)state;
	size_t n = 1000000;
	char *buf = malloc(n + 16);
	struct timespec t0, t1;
	assert_non_null(buf);
	memcpy(buf, "suite: ", 7);
	memset(buf + 7, '[', n);
	buf[7 + n] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	expect_err(buf, "t.yaml:1:39: nested deeper than 32 levels");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 5);
	free(buf);
	/* block nesting too: 40 levels of maps */
	char blk[4096];
	size_t m = (size_t)sprintf(blk, "suite: t\ndefaults:\n");
	for (int i = 0; i < 40; i++)
		m += (size_t)sprintf(blk + m, "%*sk%d:\n", i + 1, "", i);
	sprintf(blk + m, "%*sz: 1\n", 41, "");
	expect_err(blk, "nested deeper than 32 levels");
}

static void test_hostile_sizes(void **state)
{
	(void)state;
	char *buf = malloc(1 << 20);
	size_t n;
	assert_non_null(buf);
	/* a map with thousands of keys is refused before pairwise checks */
	n = (size_t)sprintf(buf, "suite: t\ndefaults:\n");
	for (int i = 0; i < 20000; i++)
		n += (size_t)sprintf(buf + n, "  k%d: 1\n", i);
	expect_err(buf, "t.yaml:3:3: 'defaults' has more than 64 keys");
	n = (size_t)sprintf(buf, "suite: t\ndevices:\n");
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(buf + n, "  - {name: d%d, path: /x}\n", i);
	sprintf(buf + n, "matrix:\n  pattern: read\n");
	expect_err(buf, "more than 256 devices");
	free(buf);
}

static void test_limits(void **state)
{
	(void)state;
	/* not UTF-8, with the position of the bad byte */
	expect_err("suite: t\ntitle: \"caf\xe9\"\n", "t.yaml:2:12: file is not UTF-8 text (bad byte 0xe9)");
	expect_err("suite: t\n\xc0\xaf\n", "not UTF-8"); /* overlong */
	{
		struct errlist e = ERRLIST_INIT;
		struct suite *s = NULL;
		static const char nul[] = "suite: t\n\0x\n";
		assert_int_equal(suite_load_buffer("t.yaml", nul, sizeof(nul) - 1, NULL, &s, &e), -1);
		assert_non_null(strstr(e.msgs[0], "NUL byte"));
		errlist_release(&e);
	}
	/* over 1 MiB */
	{
		size_t big = SUITE_MAX_BYTES + 1;
		char *b = malloc(big);
		assert_non_null(b);
		memset(b, '#', big);
		struct errlist e = ERRLIST_INIT;
		struct suite *s = NULL;
		assert_int_equal(suite_load_buffer("t.yaml", b, big, NULL, &s, &e), -1);
		assert_non_null(strstr(e.msgs[0], "larger than 1 MiB"));
		errlist_release(&e);
		free(b);
	}
}

static void test_too_many_cells(void **state)
{
	(void)state;
	/* 7 x 10 x 10 x 10 x 16 = 112,000 */
	expect_err(HEAD "matrix:\n  pattern: [read, write, randread, randwrite, readwrite, randrw, rewrite]\n"
		   "  bs: [4k, 8k, 16k, 32k, 64k, 128k, 256k, 512k, 1m, 2m]\n"
		   "  iodepth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n  jobs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
		   "  repeat: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n",
		   "the suite expands to 112000 cells, more than 100000");
	/* a raw product past any reasonable bound fails without enumerating */
	expect_err(HEAD "matrix:\n  pattern: [read, write, randread, randwrite, readwrite, randrw, rewrite]\n"
		   "  bs: [4k, 8k, 16k, 32k, 64k, 128k, 256k, 512k, 1m, 2m]\n"
		   "  iodepth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n  jobs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
		   "  repeat: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n"
		   "  seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n  files: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n",
		   "'matrix' expands to more than 1000000 combinations on 1 device before 'exclude'");
}

static void test_duplicate_cells(void **state)
{
	(void)state;
	expect_err(HEAD "matrix:\n  pattern: read\n  bs: [4k, 8k, 4k]\n",
		   "t.yaml:6:3: cell 3 ('SEQ4K Q1T1' on 'd') repeats cell 1 ('SEQ4K Q1T1')");
	expect_err(HEAD "matrix:\n  pattern: read\ninclude:\n  - {label: x, pattern: read}\n",
		   "t.yaml:8:5: cell 2 ('x' on 'd') repeats cell 1");
	/* reported once per entry, not per device */
	struct errlist e = ERRLIST_INIT;
	assert_null(load("suite: t\ndevices:\n  - {name: a, path: /a}\n  - {name: b, path: /b}\n"
			 "include:\n  - {pattern: read}\n  - {pattern: read}\n", &e));
	assert_int_equal(e.n, 1);
	errlist_release(&e);
	/* the same cell on two devices is no repeat; a different label alone is */
	struct suite *s = load_ok("suite: t\ndevices:\n  - {name: a, path: /a}\n  - {name: b, path: /b}\n"
				  "include:\n  - {pattern: read}\n  - {pattern: read, runtime: 1s}\n");
	assert_int_equal(s->ncells, 4);
	suite_free(s);
}

static void test_empty_after_exclude(void **state)
{
	(void)state;
	expect_err(HEAD "matrix:\n  pattern: [read, write]\nexclude:\n  - {pattern: [read, write]}\n",
		   "the matrix is empty for device 'd'");
	/* excluding everything on one device only is also reported */
	expect_err("suite: t\ndevices:\n  - {name: a, path: /a}\n  - {name: b, path: /b}\n"
		   "matrix:\n  pattern: read\nexclude:\n  - {device: b}\n", "the matrix is empty for device 'b'");
}

static void test_missing_pieces(void **state)
{
	(void)state;
	expect_err("devices:\n  - {name: d, path: /x}\nmatrix:\n  pattern: read\n", "missing 'suite: NAME'");
	expect_err("suite: t\nmatrix:\n  pattern: read\n", "missing 'devices'");
	expect_err(HEAD, "no cells: add a 'matrix' or an 'include'");
	expect_err(HEAD "matrix:\n  bs: 4k\n", "no 'pattern' for this cell");
	expect_err("suite: t\ndevices:\n  - name: d\nmatrix:\n  pattern: read\n",
		   "t.yaml:3:5: device 'd' has no 'path'; add one or give --device d=PATH");
	expect_err(HEAD "matrix:\n  pattern: read\n---\nsuite: u\n", "a second YAML document");
}

static void test_keys_help(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	suite_keys_help(f);
	fclose(f);
	static const char *keys[] = { "pattern", "bs", "iodepth", "jobs", "engine", "direct",
		"size", "files", "offset", "runtime", "ramp", "requests", "io_size", "rwmixread",
		"fsync", "end_fsync", "data", "drop_caches", "repeat", "cooldown", "seed",
		"interval", "keep_files", "label" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char k[40];
		snprintf(k, sizeof(k), "\n  %s ", keys[i]);
		assert_non_null(strstr(buf, k));
	}
	assert_non_null(strstr(buf, "1..1024"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_order),
		cmocka_unit_test(test_scalar_matrix_value),
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_exclude_device_and_label),
		cmocka_unit_test(test_include_every_device),
		cmocka_unit_test(test_include_only),
		cmocka_unit_test(test_defaults_and_builtin),
		cmocka_unit_test(test_every_key_parses),
		cmocka_unit_test(test_engine_null),
		cmocka_unit_test(test_percent_sizes),
		cmocka_unit_test(test_sysbench_aliases),
		cmocka_unit_test(test_device_overrides_win),
		cmocka_unit_test(test_destructive_and_keep),
		cmocka_unit_test(test_cli_device_override),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_text_and_sha),
		cmocka_unit_test(test_key_validation),
		cmocka_unit_test(test_cross_key_checks),
		cmocka_unit_test(test_model_fits_runtime),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_all_errors_one_pass),
		cmocka_unit_test(test_same_error_once),
		cmocka_unit_test(test_yaml_syntax_position),
		cmocka_unit_test(test_billion_laughs_fast),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_hostile_sizes),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_too_many_cells),
		cmocka_unit_test(test_duplicate_cells),
		cmocka_unit_test(test_empty_after_exclude),
		cmocka_unit_test(test_missing_pieces),
		cmocka_unit_test(test_keys_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
