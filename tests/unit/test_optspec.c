/*
 * test_optspec.c - one option table per command (util/optspec.h): every
 * command's table is sound; its usage lines, `iomatrix --help` synopsis,
 * `CMD --help` and completion answers name exactly the options of its
 * table and fit 79 columns; the parser takes each kind of value by its
 * row (both spellings, aliases, repeats, defaults, ranges, words, forms,
 * required options, operand counts) and refuses the rest with a message
 * that names the option, the value and what it takes; and no command's
 * source compares argv with an option by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cli.h"
#include "util/fsutil.h"

#define MAXCMD 64

/* What fn(f, c) printed, as a new string. */
static char *capture_usage(void (*fn)(FILE *, const struct command_spec *),
			   const struct command_spec *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, c);
	fclose(f);
	return buf;
}

static char *capture_complete(int n, const char **words)
{
	const struct command_spec *specs[MAXCMD];
	size_t ns = cli_command_specs(specs, MAXCMD);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	optspec_complete(f, &main_spec, specs, ns, n, (char **)words);
	fclose(f);
	return buf;
}

/* Every line of text is at most 79 columns (characters: UTF-8 counted
 * once). */
static void assert_fits(const char *text, const char *what)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n"), cols = 0;
		for (size_t i = 0; i < l; i++)
			cols += ((unsigned char)p[i] & 0xc0) != 0x80;
		if (cols > 79)
			fail_msg("%s: a line of %zu columns: %.*s", what, cols, (int)l, p);
		p += l + (p[l] == '\n');
	}
}

static size_t nrows(const struct command_spec *c)
{
	size_t n = 0;
	while (optspec_row(c, n, NULL))
		n++;
	return n;
}

/* Every "-x"/"--xy" word of text (after a space, '[' or line start) is an
 * option of c, and every option of c that is not hidden is one of them. */
static void assert_names_table(const char *text, const struct command_spec *c,
			       const char *what)
{
	size_t n = nrows(c);
	bool *seen = calloc(n + 1, sizeof(*seen));
	assert_non_null(seen);
	for (const char *p = text; *p; p++) {
		if (*p != '-' || (p > text && p[-1] != ' ' && p[-1] != '[' && p[-1] != '\n'))
			continue;
		size_t l = strspn(p, "-abcdefghijklmnopqrstuvwxyz");
		if (l < 2) /* a lone '-' in prose */
			continue;
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)l, p);
		size_t i = 0;
		for (const struct option_spec *o; (o = optspec_row(c, i, NULL)); i++)
			if (!strcmp(o->name, word))
				break;
		if (i == n)
			fail_msg("%s: '%s' is not in the table of '%s'", what, word, c->name);
		seen[i] = true;
		p += l - 1;
	}
	for (size_t i = 0; i < n; i++)
		if (!seen[i] && !(optspec_row(c, i, NULL)->flags & OPT_HIDDEN))
			fail_msg("%s: option '%s' of the table is missing", what,
				 optspec_row(c, i, NULL)->name);
	free(seen);
}

static void test_every_table_is_sound(void **state)
{
	const struct command_spec *specs[MAXCMD];
	size_t n = cli_command_specs(specs, MAXCMD);
	(void)state;

	assert_true(n >= 15);
	for (size_t i = 0; i < n; i++) {
		if (optspec_check_table(specs[i]) < 0)
			fail_msg("the table of '%s' (its message above)", specs[i]->name);
		/* cli_call() parses into a struct of opts_size bytes: a
		 * command with options names its struct */
		if (optspec_row(specs[i], 0, NULL) && !specs[i]->opts_size)
			fail_msg("the table of '%s' has rows but no OPTSPEC_OPTS", specs[i]->name);
	}
	assert_int_equal(optspec_check_table(&main_spec), 0);
}

static void test_usage_help_and_synopsis_name_the_table(void **state)
{
	const struct command_spec *specs[MAXCMD];
	size_t n = cli_command_specs(specs, MAXCMD);
	(void)state;

	for (size_t i = 0; i < n; i++) {
		char what[96];
		char *u = capture_usage(optspec_usage, specs[i]);
		char *s = capture_usage(optspec_synopsis, specs[i]);
		/* more() is the suite key reference (the key table's own text) */
		struct command_spec own = *specs[i];
		own.more = NULL;
		char *h = capture_usage(optspec_help, &own);
		snprintf(what, sizeof(what), "%s usage", specs[i]->name);
		assert_fits(u, what);
		assert_names_table(u, specs[i], what);
		snprintf(what, sizeof(what), "%s synopsis", specs[i]->name);
		assert_fits(s, what);
		assert_names_table(s, specs[i], what);
		snprintf(what, sizeof(what), "%s --help", specs[i]->name);
		assert_fits(h, what);
		/* --help starts with the usage, and gives each option a line of
		 * its own that begins with its name */
		assert_memory_equal(h, u, strlen(u));
		const struct option_spec *o;
		for (size_t k = 0; (o = optspec_row(specs[i], k, NULL)); k++) {
			char line[80];
			snprintf(line, sizeof(line), "\n  %s", o->name);
			if (!strstr(h, line))
				fail_msg("%s: no line for %s", what, o->name);
		}
		free(u);
		free(s);
		free(h);
	}
}

static void test_completion_offers_the_table(void **state)
{
	const struct command_spec *specs[MAXCMD];
	size_t n = cli_command_specs(specs, MAXCMD);
	(void)state;

	for (size_t i = 0; i < n; i++) {
		const struct command_spec *c = specs[i];
		const char *w[] = { c->name, "-" };
		char *out = capture_complete(2, w);
		char what[96];
		snprintf(what, sizeof(what), "completion of '%s -'", c->name);
		assert_names_table(out, c, what);
		free(out);
		const struct option_spec *o;
		for (size_t k = 0; (o = optspec_row(c, k, NULL)); k++) {
			if (o->kind == OPTK_FLAG)
				continue;
			const char *wv[] = { c->name, "x", o->name, "" };
			out = capture_complete(4, wv);
			switch (o->kind) {
			case OPTK_WORD:
			case OPTK_WORDS: {
				/* each word of the table, one per line, in order */
				char *want = strdup(o->words);
				for (char *p = want; *p; p++)
					if (*p == ' ')
						*p = '\n';
				size_t wl = strlen(want);
				if (strncmp(out, want, wl) || strcmp(out + wl, "\n"))
					fail_msg("%s %s: offers '%s'", c->name, o->name, out);
				free(want);
				break;
			}
			case OPTK_DIR: assert_string_equal(out, "@dir\n"); break;
			case OPTK_FILE: assert_string_equal(out, "@file\n"); break;
			case OPTK_SUITE: assert_string_equal(out, "@suite\n"); break;
			default: assert_string_equal(out, ""); break;
			}
			free(out);
		}
	}
}

static void test_completion_commands_and_operands(void **state)
{
	(void)state;
	const char *w0[] = { "" };
	char *out = capture_complete(1, w0);
	assert_non_null(strstr(out, "run\n"));
	assert_non_null(strstr(out, "site\n"));
	assert_null(strstr(out, "agent\n")); /* not for people */
	/* the program's own options, from its table, the hidden ones not */
	assert_non_null(strstr(out, "\n--help\n--version\n"));
	assert_null(strstr(out, "--complete"));
	free(out);

	const char *w1[] = { "import", "" };
	out = capture_complete(2, w1);
	assert_string_equal(out, "fio\nsysbench\ncsv\n");
	free(out);
	const char *w2[] = { "import", "fio", "--device", "d", "" };
	out = capture_complete(5, w2);
	assert_string_equal(out, "@file\n");
	free(out);
	const char *w3[] = { "--quiet", "run", "--quiet", "" }; /* a flag is no value */
	out = capture_complete(4, w3);
	assert_string_equal(out, "@suite\n");
	free(out);
	const char *w4[] = { "run", "--output", "" }; /* an alias */
	out = capture_complete(3, w4);
	assert_string_equal(out, "@dir\n");
	free(out);
	const char *w5[] = { "nosuch", "" };
	out = capture_complete(2, w5);
	assert_string_equal(out, "");
	free(out);
}

/* A command of every kind of option, for the generator and the parser. */
struct demo_sub {
	const char *out;
	double scale;
};

struct demo {
	struct optlist alpha;
	const char *needed, *word, *list, *pair, *text, *when;
	bool flag, both;
	int n, idx;
	double num, pct;
	uint64_t size, dur;
	struct demo_sub sub;
};

static const char *demo_check(const char *v)
{
	return strchr(v, '/') ? "text without '/'" : NULL;
}

static const struct option_spec demo_sub[] = {
	{ "--out", "-o --output", .kind = OPTK_DIR, OPT_AT(struct demo_sub, out), .help = "x" },
	{ "--scale", .kind = OPTK_NUMBER, .arg = "F", OPT_ABOVE_TO(0, 10),
	  OPT_AT(struct demo_sub, scale), .help = "x" },
	{ NULL },
};

#define D(f) OPT_AT(struct demo, f)

static const struct option_spec demo_opts[] = {
	{ "--alpha", .kind = OPTK_STRING, .arg = "A", .flags = OPT_REPEAT, D(alpha), .help = "x" },
	{ "--needed", .kind = OPTK_STRING, .arg = "N", .flags = OPT_REQUIRED, D(needed),
	  .help = "x" },
	{ "--flag", "-f", .kind = OPTK_FLAG, D(flag), .help = "x" },
	{ "--second", .kind = OPTK_INT, .arg = "S", .forms = OPT_FORM(1), D(n),
	  OPT_FROM_TO(1, 4096), .help = "x" },
	{ "--both", .kind = OPTK_FLAG, .forms = OPT_FORM(0) | OPT_FORM(1), D(both), .help = "x" },
	{ "--a-rather-long-option-name", .kind = OPTK_WORD, .arg = "WITH-A-LONG-VALUE",
	  .words = "red green blue", D(word), .def = "green", .help = "x" },
	{ "--and-another-long-one", .kind = OPTK_WORD, .arg = "VALUE", .words = "auto linear log",
	  D(idx), .help = "x" },
	{ "--list", .kind = OPTK_WORDS, .words = "md html json", D(list), .help = "x" },
	{ "--pair", .kind = OPTK_PAIR, D(pair), .help = "x" },
	{ "--text", .kind = OPTK_STRING, D(text), OPT_FROM_TO(1, 5), .check = demo_check,
	  .help = "x" },
	{ "--num", .kind = OPTK_NUMBER, D(num), OPT_FROM_BELOW(-1, 1e6), .help = "x" },
	{ "--pct", .kind = OPTK_PERCENT, D(pct), OPT_ABOVE_BELOW(0, 1000), .def = "10",
	  .help = "x" },
	{ "--size", .kind = OPTK_SIZE, D(size), OPT_ABOVE(0), .help = "x" },
	{ "--dur", .kind = OPTK_DURATION, D(dur), OPT_FROM_TO(1e9, 60e9), .help = "x" },
	{ "--when", .kind = OPTK_STRING, D(when), .flags = OPT_OPERAND, .help = "x" },
	OPT_INCLUDE(demo_sub, struct demo, sub),
	{ NULL },
};

static const struct command_spec demo = {
	.name = "demo", .forms = { "IN [MORE]", "OTHER..." }, .opts = demo_opts,
	.first_words = "in other", .first_what = "thing", .note = "(a note)",
};

/* a form's required options first: what makes it that form (run --mpi) */
static void test_generator_forms_brackets_wrapping(void **state)
{
	(void)state;
	assert_int_equal(optspec_check_table(&demo), 0);
	char *u = capture_usage(optspec_usage, &demo);
	assert_string_equal(u,
		"usage: iomatrix demo IN [MORE] --needed N [--alpha A]... [--flag] [--both]\n"
		"                     [--a-rather-long-option-name WITH-A-LONG-VALUE]\n"
		"                     [--and-another-long-one VALUE] [--list LIST] [--pair A=B]\n"
		"                     [--text TEXT] [--num F] [--pct PCT] [--size SIZE]\n"
		"                     [--dur TIME] [--when TEXT] [--out DIR] [--scale F]\n"
		"       iomatrix demo OTHER... [--second S] [--both]\n");
	free(u);
	char *h = capture_usage(optspec_help, &demo);
	assert_non_null(strstr(h, "\n  --flag, -f                x\n"));
	assert_non_null(strstr(h, "\n  --alpha A                 x (repeatable)\n"));
	assert_non_null(strstr(h, "\n  --a-rather-long-option-name WITH-A-LONG-VALUE\n"
				  "                            x (default: green)\n"));
	assert_non_null(strstr(h, "\n  --out, -o, --output DIR   x\n"));
	free(h);
	assert_ptr_equal(optspec_find(&demo, "-f"), &demo_opts[2]);
	assert_ptr_equal(optspec_find(&demo, "--output"), &demo_sub[0]);
	assert_null(optspec_find(&demo, "--fla"));
	size_t off;
	assert_ptr_equal(optspec_row(&demo, 16, &off), &demo_sub[1]);
	assert_int_equal(off, offsetof(struct demo, sub));
	assert_null(optspec_row(&demo, 17, NULL));
}

/* optspec_parse of "demo ARGS..." (NULL-terminated): its return, what it
 * stored in *d, its one line of stderr in err (without the newline). */
static int parse(struct demo *d, struct optlist *ops, char *err, size_t len, ...)
{
	char *argv[40];
	int argc = 0;
	va_list ap;

	argv[argc++] = "demo";
	va_start(ap, len);
	for (char *a; argc < 39 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	memset(d, 0, sizeof(*d));
	fflush(stderr);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int r = optspec_parse(&demo, argc, argv, d, ops);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	err[0] = '\0';
	if (fgets(err, (int)len, tmp))
		err[strcspn(err, "\n")] = '\0';
	fclose(tmp);
	return r;
}

#define PARSE(...) parse(&d, &ops, err, sizeof(err), __VA_ARGS__, (char *)NULL)
/* the call refused with this message */
#define REFUSED(msg, ...) do { \
		assert_int_equal(PARSE(__VA_ARGS__), -1); \
		assert_string_equal(err, msg); \
		optspec_release(&demo, &d, &ops); \
	} while (0)

static void test_parse_every_kind(void **state)
{
	struct demo d;
	struct optlist ops;
	char err[512];
	(void)state;

	assert_int_equal(PARSE("in", "--needed=n", "--alpha", "1", "--alpha=2", "-f", "more",
			       "--and-another-long-one", "log", "--list=json,md", "--pair", "a=b",
			       "--text", "abc", "--num=-0.5", "--pct", "5%", "--size=16k",
			       "--dur", "30s", "-o", "d", "--scale=2.5"), 0);
	assert_string_equal(err, "");
	assert_int_equal(d.alpha.n, 2);
	assert_string_equal(d.alpha.v[0], "1");
	assert_string_equal(d.alpha.v[1], "2");
	assert_string_equal(d.needed, "n");
	assert_true(d.flag);
	assert_string_equal(d.word, "green");     /* the default */
	assert_int_equal(d.idx, 2);               /* "log": its index */
	assert_string_equal(d.list, "json,md");
	assert_string_equal(d.pair, "a=b");
	assert_string_equal(d.text, "abc");
	assert_true(d.num == -0.5);
	assert_true(d.pct == 5);
	assert_int_equal(d.size, 16384);
	assert_int_equal(d.dur, 30000000000ull);
	assert_string_equal(d.sub.out, "d");      /* an included row, at its offset */
	assert_true(d.sub.scale == 2.5);
	assert_int_equal(ops.n, 2);
	assert_string_equal(ops.v[0], "in");
	assert_string_equal(ops.v[1], "more");
	optspec_release(&demo, &d, &ops);
	assert_null(d.alpha.v);
	assert_null(ops.v);

	/* the default stays unless given; the last of a plain option wins;
	 * '-' and everything after '--' are operands */
	assert_int_equal(PARSE("--needed", "a", "--needed", "b", "in", "--", "--flag"), 0);
	assert_string_equal(d.needed, "b");
	assert_true(d.pct == 10);
	assert_false(d.flag);
	assert_string_equal(ops.v[1], "--flag");
	optspec_release(&demo, &d, &ops);
	assert_int_equal(PARSE("other", "-", "--second", "7"), 0);
	assert_int_equal(d.n, 7);
	assert_string_equal(ops.v[1], "-");
	optspec_release(&demo, &d, &ops);
}

static void test_parse_refusals_name_the_fix(void **state)
{
	struct demo d;
	struct optlist ops;
	char err[512];
	(void)state;

	REFUSED("iomatrix: unknown option '--flg' (did you mean '--flag'?); see 'iomatrix demo "
		"--help'", "in", "--needed", "x", "--flg");
	REFUSED("iomatrix: unknown option '--zzzzzz'; see 'iomatrix demo --help'", "--zzzzzz");
	REFUSED("iomatrix: unknown option '--outptu' (did you mean '--output'?); see 'iomatrix "
		"demo --help'", "--outptu=x");
	REFUSED("iomatrix: '--needed' needs a value: '--needed N'; see 'iomatrix demo --help'",
		"in", "--needed");
	REFUSED("iomatrix: '--needed' needs a value: '--needed N'; see 'iomatrix demo --help'",
		"in", "--needed=");
	REFUSED("iomatrix: '--flag' takes no value; give it alone, without '=yes'", "--flag=yes");
	REFUSED("iomatrix: unknown option '-o=x'; see 'iomatrix demo --help'", "-o=x");
	REFUSED("iomatrix: bad --second '0': it takes a whole number from 1 to 4096",
		"other", "--needed", "x", "--second", "0");
	REFUSED("iomatrix: bad --second '1x': it takes a whole number from 1 to 4096",
		"--second=1x");
	REFUSED("iomatrix: bad --a-rather-long-option-name 'gren': it takes one of: red green "
		"blue (did you mean 'green'?)", "--a-rather-long-option-name", "gren");
	REFUSED("iomatrix: bad --list 'md,htm': it takes one or more of md html json, "
		"comma-separated (did you mean 'html'?)", "--list=md,htm");
	REFUSED("iomatrix: bad --list 'md,,json': it takes one or more of md html json, "
		"comma-separated", "--list=md,,json");
	REFUSED("iomatrix: bad --pair 'a=': it takes A=B", "--pair", "a=");
	REFUSED("iomatrix: bad --pair '=b': it takes A=B", "--pair", "=b");
	REFUSED("iomatrix: bad --text 'abcdef': it takes text of 1 to 5 characters",
		"--text", "abcdef");
	REFUSED("iomatrix: bad --text 'a/b': it takes text without '/'", "--text", "a/b");
	REFUSED("iomatrix: bad --num '0x10': it takes a number from -1, below 1000000",
		"--num", "0x10");
	REFUSED("iomatrix: bad --num 'inf': it takes a number from -1, below 1000000",
		"--num", "inf");
	REFUSED("iomatrix: bad --num '-2': it takes a number from -1, below 1000000",
		"--num", "-2");
	REFUSED("iomatrix: bad --pct '0': it takes a percentage above 0 and below 1000 (5 or 5%)",
		"--pct", "0");
	REFUSED("iomatrix: bad --pct '5%x': it takes a percentage above 0 and below 1000 (5 or "
		"5%)", "--pct", "5%x");
	REFUSED("iomatrix: bad --size '0': it takes a size above 0 (4k, 1MiB)", "--size", "0");
	REFUSED("iomatrix: bad --dur '2m': it takes a duration from 1s to 1m (500ms, 30s, 2m)",
		"--dur", "2m");
	REFUSED("iomatrix: bad --scale '0': it takes a number above 0, up to 10", "--scale=0");
	/* after argv: the form, required options, operands */
	REFUSED("iomatrix: say which thing: in other; see 'iomatrix demo --help'", "--needed", "x");
	REFUSED("iomatrix: unknown thing 'out' (use in other); see 'iomatrix demo --help'", "out");
	REFUSED("iomatrix: --second is not an option of 'iomatrix demo in'; see 'iomatrix demo "
		"--help'", "in", "--needed", "x", "--second", "3");
	REFUSED("iomatrix: missing --needed N; see 'iomatrix demo --help'", "in");
	REFUSED("iomatrix: demo in takes [MORE]; 'c' is one too many (see 'iomatrix demo "
		"--help')", "in", "b", "c", "--needed", "x");
}

static const struct option_spec two_opts[] = {
	{ "--from", .kind = OPTK_STRING, .flags = OPT_OPERAND, OPT_AT(struct demo, text),
	  .help = "x" },
	{ NULL },
};

static const struct command_spec two = {
	.name = "two", .forms = { "OLD NEW" }, .opts = two_opts,
};

static void test_parse_operands(void **state)
{
	struct demo d = { 0 };
	struct optlist ops;
	char *one[] = { "two", "a", NULL }, *three[] = { "two", "a", "b", "c", NULL };
	char *from[] = { "two", "--from", "x", "b", NULL };
	(void)state;

	assert_int_equal(optspec_parse(&two, 2, one, &d, &ops), -1);    /* missing NEW */
	optspec_release(&two, &d, &ops);
	assert_int_equal(optspec_parse(&two, 4, three, &d, &ops), -1);  /* 'c' too many */
	optspec_release(&two, &d, &ops);
	/* an OPT_OPERAND option stands for the first operand */
	assert_int_equal(optspec_parse(&two, 4, from, &d, &ops), 0);
	assert_int_equal(ops.n, 1);
	optspec_release(&two, &d, &ops);
}

/* A table whose field does not fit its kind is refused before argv is
 * read. */
static const struct option_spec wrong_opts[] = {
	{ "--n", .kind = OPTK_INT, OPT_AT(struct demo, num), .help = "x" },
	{ NULL },
};
static const struct command_spec wrong = { .name = "wrong", .forms = { "" }, .opts = wrong_opts };
static const struct option_spec twice_opts[] = {
	{ "--a", .kind = OPTK_FLAG, OPT_AT(struct demo, flag), .help = "x" },
	{ "--b", "--a", .kind = OPTK_FLAG, OPT_AT(struct demo, both), .help = "x" },
	{ NULL },
};
static const struct command_spec twice = { .name = "twice", .forms = { "" }, .opts = twice_opts };
static const struct option_spec out_opts[] = {
	{ "-o", "--out", .kind = OPTK_DIR, OPT_AT(struct demo, text), .help = "x" },
	{ NULL },
};
static const struct command_spec outs = { .name = "outs", .forms = { "" }, .opts = out_opts };

static void test_unsound_tables_refused(void **state)
{
	(void)state;
	fflush(stderr);
	int saved = dup(2);
	FILE *null = fopen("/dev/null", "w");
	dup2(fileno(null), 2);
	int a = optspec_check_table(&wrong), b = optspec_check_table(&twice),
	    c = optspec_check_table(&outs);
	dup2(saved, 2);
	close(saved);
	fclose(null);
	assert_int_equal(a, -1);
	assert_int_equal(b, -1);
	assert_int_equal(c, -1);
}

/* The struct a spec names: a row stored past its end is refused, and a
 * new one starts from opts_init. */
struct small {
	int n;
	double start;
};
static const struct option_spec small_opts[] = {
	{ "--n", .kind = OPTK_INT, OPT_AT(struct small, n), .help = "x" },
	{ NULL },
};
static const struct option_spec past_opts[] = {
	{ "--big", .kind = OPTK_SIZE, OPT_AT(struct demo, size), .help = "x" },
	{ NULL },
};
static const struct command_spec small = {
	.name = "small", .forms = { "[X]" }, OPTSPEC_OPTS(small_opts, struct small),
	.opts_init = &(const struct small){ .start = -1 },
};
static const struct command_spec past = {
	.name = "past", .forms = { "" }, OPTSPEC_OPTS(past_opts, struct small),
};

static void test_opts_struct(void **state)
{
	(void)state;
	struct small *o = optspec_opts_new(&small);
	assert_non_null(o);
	assert_int_equal(o->n, 0);
	assert_true(o->start == -1);
	free(o);
	assert_int_equal(optspec_check_table(&small), 0);
	fflush(stderr);
	int saved = dup(2);
	FILE *null = fopen("/dev/null", "w");
	dup2(fileno(null), 2);
	int r = optspec_check_table(&past);
	dup2(saved, 2);
	close(saved);
	fclose(null);
	assert_int_equal(r, -1);
}

/* cli_call(): the command gets its struct parsed, its operands and extra;
 * a refused command line never reaches it and exits 2. */
static int small_calls;
static int small_fn(const struct cmd_call *c)
{
	const struct small *o = c->opts;

	small_calls++;
	assert_int_equal(o->n, 7);
	assert_true(o->start == -1);
	assert_int_equal(c->ops->n, 1);
	assert_string_equal(c->ops->v[0], "x");
	assert_int_equal(c->argc, 3);
	assert_string_equal(c->extra, "extra");
	return 5;
}

static void test_cli_call(void **state)
{
	static const struct command cmd = { &small, small_fn };
	char *good[] = { "small", "--n=7", "x", NULL }, *bad[] = { "small", "--n=x", NULL };
	(void)state;

	assert_int_equal(cli_call(&cmd, 3, good, "extra"), 5);
	assert_int_equal(small_calls, 1);
	fflush(stderr);
	int saved = dup(2);
	FILE *null = fopen("/dev/null", "w");
	dup2(fileno(null), 2);
	int r = cli_call(&cmd, 2, bad, NULL);
	dup2(saved, 2);
	close(saved);
	fclose(null);
	assert_int_equal(r, EXIT_USAGE);
	assert_int_equal(small_calls, 1);
	assert_ptr_equal(cli_find("list")->spec, &list_spec);
	assert_null(cli_find("lst"));
}

/* No command compares argv with an option by hand: every option string a
 * command's source holds ("-x", "--xy" as a whole C string literal) is in
 * its table, not in a strcmp. */
static void test_no_hand_parser(void **state)
{
	static const char *const src[] = {
		"cmd/main.c", "cmd/commands.c", "cmd/cmd_run.c", "cmd/cmd_plan.c", "cmd/cmd_validate.c",
		"cmd/cmd_export.c", "cmd/cmd_import.c", "cmd/cmd_agent.c", "cmd/cmd_report.c",
		"cmd/cmd_compare.c", "cmd/cmd_list.c", "cmd/cmd_history.c", "cmd/cmd_site.c",
		"cmd/cmd_reproduce.c", "cmd/cmd_verify.c", "cmd/cmd_pack.c",
		"cmd/mpi/iomatrix_mpi.c", "bench/fleet/run_fleet.c", "bench/suite/suite_cli.c",
	};
	const char *root = getenv("IOMATRIX_ROOT");
	(void)state;

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		char path[4096];
		size_t len;
		snprintf(path, sizeof(path), "%s/%s", root && root[0] ? root : ".", src[i]);
		char *text = fsutil_read(path, 1 << 22, &len);
		if (!text)
			fail_msg("cannot read '%s' (run from the repository root)", path);
		for (const char *p = text; (p = strstr(p, "cmp(")); p++) {
			size_t l = strcspn(p, ";{");
			const char *q = memmem(p, l, "\"-", 2);
			if (q)
				fail_msg("%s compares with an option by hand: %.*s", src[i], (int)l, p - 3);
		}
		if (strstr(text, "cli_is_out("))
			fail_msg("%s parses -o by hand (cli_is_out)", src[i]);
		free(text);
	}
}

/* "-" alone is standard output; a path that starts with one is a path. */
static void test_is_stdout(void **state)
{
	(void)state;
	assert_true(optspec_is_stdout("-"));
	assert_false(optspec_is_stdout("-o"));
	assert_false(optspec_is_stdout("./-"));
	assert_false(optspec_is_stdout(""));
	assert_false(optspec_is_stdout(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_table_is_sound),
		cmocka_unit_test(test_usage_help_and_synopsis_name_the_table),
		cmocka_unit_test(test_completion_offers_the_table),
		cmocka_unit_test(test_completion_commands_and_operands),
		cmocka_unit_test(test_generator_forms_brackets_wrapping),
		cmocka_unit_test(test_parse_every_kind),
		cmocka_unit_test(test_parse_refusals_name_the_fix),
		cmocka_unit_test(test_parse_operands),
		cmocka_unit_test(test_unsound_tables_refused),
		cmocka_unit_test(test_opts_struct),
		cmocka_unit_test(test_cli_call),
		cmocka_unit_test(test_no_hand_parser),
		cmocka_unit_test(test_is_stdout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
