/*
 * test_optspec.c - one option table per command: the usage lines, the
 * `iomatrix --help` synopsis and the completion answers of every command
 * name exactly the options of its table, fit 79 columns, the generator
 * brackets, repeats and splits forms as the table says, and no parser
 * compares with an option its table lacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "cli.h"
#include "util/fsutil.h"

#define MAXCMD 64

/* What fn(f, ...) printed, as a new string. */
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
	optspec_complete(f, specs, ns, n, (char **)words);
	fclose(f);
	return buf;
}

/* Every line of text is at most 79 columns (bytes: the texts are ASCII). */
static void assert_fits(const char *text, const char *what)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");
		if (l > 79)
			fail_msg("%s: a line of %zu columns: %.*s", what, l, (int)l, p);
		p += l + (p[l] == '\n');
	}
}

/* Every "-x"/"--xy" word of text (after a space, '[' or line start) is an
 * option of c, and every option of c is one of them. */
static void assert_names_table(const char *text, const struct command_spec *c,
			       const char *what)
{
	size_t nopts = 0;
	while (optspec_row(c, nopts))
		nopts++;
	bool *seen = calloc(nopts + 1, sizeof(*seen));
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
		for (const struct option_spec *o; (o = optspec_row(c, i)); i++)
			if (!strcmp(o->name, word))
				break;
		if (i == nopts)
			fail_msg("%s: '%s' is not in the table of '%s'", what, word, c->name);
		seen[i] = true;
		p += l - 1;
	}
	for (size_t i = 0; i < nopts; i++)
		if (!seen[i])
			fail_msg("%s: option '%s' of the table is missing", what,
				 optspec_row(c, i)->name);
	free(seen);
}

static void test_usage_and_synopsis_name_the_table(void **state)
{
	const struct command_spec *specs[MAXCMD];
	size_t n = cli_command_specs(specs, MAXCMD);
	(void)state;

	assert_true(n >= 11);
	for (size_t i = 0; i < n; i++) {
		char what[96];
		char *u = capture_usage(optspec_usage, specs[i]);
		char *s = capture_usage(optspec_synopsis, specs[i]);
		snprintf(what, sizeof(what), "%s usage", specs[i]->name);
		assert_fits(u, what);
		assert_names_table(u, specs[i], what);
		snprintf(what, sizeof(what), "%s synopsis", specs[i]->name);
		assert_fits(s, what);
		assert_names_table(s, specs[i], what);
		free(u);
		free(s);
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
		for (size_t k = 0; (o = optspec_row(c, k)); k++) {
			if (!o->arg)
				continue;
			const char *wv[] = { c->name, "x", o->name, "" };
			out = capture_complete(4, wv);
			switch (o->value) {
			case OPTV_WORDS: {
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
			case OPTV_DIR: assert_string_equal(out, "@dir\n"); break;
			case OPTV_FILE: assert_string_equal(out, "@file\n"); break;
			case OPTV_SUITE: assert_string_equal(out, "@suite\n"); break;
			case OPTV_NONE: assert_string_equal(out, ""); break;
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

static const struct option_spec demo_opts[] = {
	{ "--alpha", NULL, "A", .flags = OPT_REPEAT },
	{ "--needed", NULL, "N", .flags = OPT_REQUIRED },
	{ "--flag", "-f" },
	{ "--second", NULL, "S", OPT_FORM(1) },
	{ "--both", NULL, NULL, OPT_FORM(0) | OPT_FORM(1) },
	{ "--a-rather-long-option-name", NULL, "WITH-A-LONG-VALUE" },
	{ "--and-another-long-one", NULL, "VALUE" },
	{ NULL },
};

static const struct command_spec demo = {
	.name = "demo", .forms = { "IN...", "OTHER" }, .opts = demo_opts,
	.note = "(a note)",
};

static void test_generator_forms_brackets_wrapping(void **state)
{
	(void)state;
	char *u = capture_usage(optspec_usage, &demo);
	assert_string_equal(u,
		"usage: iomatrix demo IN... [--alpha A]... --needed N [--flag] [--both]\n"
		"                     [--a-rather-long-option-name WITH-A-LONG-VALUE]\n"
		"                     [--and-another-long-one VALUE]\n"
		"       iomatrix demo OTHER [--second S] [--both]\n");
	free(u);
	char *s = capture_usage(optspec_synopsis, &demo);
	assert_string_equal(s,
		"  iomatrix demo IN... [--alpha A]... --needed N [--flag] [--both]\n"
		"      [--a-rather-long-option-name WITH-A-LONG-VALUE]\n"
		"      [--and-another-long-one VALUE]\n"
		"  iomatrix demo OTHER [--second S] [--both]  (a note)\n");
	free(s);
	assert_ptr_equal(optspec_find(&demo, "-f"), &demo_opts[2]);
	assert_null(optspec_find(&demo, "--fla"));
}

static const struct option_spec demo_shared[] = {
	{ "--out", "-o --output", "DIR", .id = 7 },
	{ "--mode", NULL, "a|b", .value = OPTV_WORDS, .words = "a b" },
	{ NULL },
};

static const struct command_spec demo_sh = {
	.name = "demo", .forms = { "IN..." }, .shared = demo_shared, .opts = demo_opts,
};

/* optspec_next over argv (NULL-terminated): the rows and values it
 * returns, "name=value" or "=operand", space-separated; "!" at an error. */
static char *parse_all(const char *const *args)
{
	char *argv[32];
	int argc = 0;
	static char out[512];
	size_t len = 0;

	argv[argc++] = "demo";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	struct optspec_parse p = { .c = &demo_sh, .argc = argc, .argv = argv, .i = 1 };
	int r;
	out[0] = '\0';
	while ((r = optspec_next(&p)) > 0)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s=%s", len ? " " : "",
					p.opt ? p.opt->name : "", p.value ? p.value : "(flag)");
	if (r < 0)
		snprintf(out + len, sizeof(out) - len, "%s!", len ? " " : "");
	return out;
}

static void test_parse_by_table(void **state)
{
	(void)state;
	/* shared rows first in usage, then the command's own */
	assert_ptr_equal(optspec_row(&demo_sh, 0), &demo_shared[0]);
	assert_ptr_equal(optspec_row(&demo_sh, 2), &demo_opts[0]);
	assert_null(optspec_row(&demo_sh, 2 + 7));
	assert_ptr_equal(optspec_find(&demo_sh, "--output"), &demo_shared[0]);

	const char *ok[] = { "in", "--alpha=1", "--alpha", "2", "-f", "-o", "d", "--output=e",
			     "-", "--mode", "b", "--", "--flag", NULL };
	assert_string_equal(parse_all(ok), "=in --alpha=1 --alpha=2 --flag=(flag) --out=d "
			    "--out=e =- --mode=b =--flag");
	const char *unknown[] = { "in", "--flg", NULL };
	assert_string_equal(parse_all(unknown), "=in !");
	const char *missing[] = { "--needed", NULL };
	assert_string_equal(parse_all(missing), "!");
	const char *empty[] = { "--needed=", "x", NULL };
	assert_string_equal(parse_all(empty), "!");
	const char *flagval[] = { "--flag=yes", NULL };
	assert_string_equal(parse_all(flagval), "!");
	const char *word[] = { "--mode", "c", NULL };
	assert_string_equal(parse_all(word), "!");
	const char *shorteq[] = { "-o=x", NULL }; /* '=' only after long names */
	assert_string_equal(parse_all(shorteq), "!");
	const char *none[] = { NULL };
	assert_string_equal(parse_all(none), "");
}

static const struct command_spec *spec_named(const char *name)
{
	const struct command_spec *specs[MAXCMD];
	size_t n = cli_command_specs(specs, MAXCMD);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(specs[i]->name, name))
			return specs[i];
	fail_msg("no command '%s'", name);
	return NULL;
}

/* The other direction: every option string a parser compares with ("-x",
 * "--xy" as a whole C string literal in its source) is in its command's
 * table, by name or alias, and a parser that takes cli_is_out() has -o,
 * --out and --output there.  (plan, validate and export share
 * suite/suite_cli.c, whose options depend on the caller's flags; their
 * own files are checked.) */
static void test_parsers_take_only_table_options(void **state)
{
	static const struct { const char *cmd, *file; } src[] = {
		{ "run", "cmd/cmd_run.c" },     { "run", "bench/fleet/run_fleet.c" },
		{ "plan", "cmd/cmd_plan.c" },   { "validate", "cmd/cmd_validate.c" },
		{ "export", "cmd/cmd_export.c" }, { "import", "cmd/cmd_import.c" },
		{ "agent", "cmd/cmd_agent.c" }, { "report", "cmd/cmd_report.c" },
		{ "compare", "cmd/cmd_compare.c" },
		{ "list", "cmd/cmd_list.c" },
		{ "history", "cmd/cmd_history.c" },
		{ "site", "cmd/cmd_site.c" },
		{ "reproduce", "cmd/cmd_reproduce.c" },
	};
	const char *root = getenv("IOMATRIX_ROOT");
	(void)state;

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		const struct command_spec *c = spec_named(src[i].cmd);
		char path[4096];
		size_t len;
		snprintf(path, sizeof(path), "%s/%s", root && root[0] ? root : ".", src[i].file);
		char *text = fsutil_read(path, 1 << 22, &len);
		if (!text)
			fail_msg("cannot read '%s' (run from the repository root)", path);
		for (const char *p = text; (p = strstr(p, "\"-")); p++) {
			size_t l = 1 + strspn(p + 2, "-abcdefghijklmnopqrstuvwxyz");
			if (p[1 + l] != '"' || p[l] == '-')
				continue;
			char lit[64];
			snprintf(lit, sizeof(lit), "%.*s", (int)l, p + 1);
			if (!strcmp(lit, "--help") || !strcmp(lit, "-h"))
				continue;
			if (!optspec_find(c, lit))
				fail_msg("%s compares with '%s', which the table of '%s' lacks",
					 src[i].file, lit, c->name);
		}
		if (strstr(text, "cli_is_out("))
			if (!optspec_find(c, "-o") || !optspec_find(c, "--out") ||
			    !optspec_find(c, "--output"))
				fail_msg("%s takes -o/--out/--output; the table of '%s' lacks one",
					 src[i].file, c->name);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_and_synopsis_name_the_table),
		cmocka_unit_test(test_completion_offers_the_table),
		cmocka_unit_test(test_completion_commands_and_operands),
		cmocka_unit_test(test_generator_forms_brackets_wrapping),
		cmocka_unit_test(test_parsers_take_only_table_options),
		cmocka_unit_test(test_parse_by_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
