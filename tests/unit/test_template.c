/*
 * test_template.c - the report template engine: variables, sections,
 * inverted sections, standalone lines, escaping and malformed templates.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "report/render/template.h"

static char *render(const char *text, const char *json, enum esc_mode m)
{
	struct errlist e = ERRLIST_INIT;
	struct tmpl *t = tmpl_parse(text, "t.tmpl", &e);
	assert_non_null(t);
	cJSON *ctx = cJSON_Parse(json);
	assert_non_null(ctx);
	struct sbuf out = SBUF_INIT;
	assert_int_equal(tmpl_render(t, ctx, m, &out), 0);
	cJSON_Delete(ctx);
	tmpl_free(t);
	errlist_release(&e);
	return sbuf_detach(&out);
}

static char *parse_err(const char *text)
{
	struct errlist e = ERRLIST_INIT;
	struct tmpl *t = tmpl_parse(text, "bad.tmpl", &e);
	assert_null(t);
	assert_true(e.n >= 1);
	char *msg = strdup(e.msgs[0]);
	errlist_release(&e);
	return msg;
}

static void test_variable_substituted(void **state)
{
	(void)state;
	char *s = render("a {{x}} b {{ n }}", "{\"x\":\"X\",\"n\":42}", ESC_NONE);
	assert_string_equal(s, "a X b 42");
	free(s);
}

static void test_missing_variable_is_empty(void **state)
{
	(void)state;
	char *s = render("[{{nope}}]", "{}", ESC_NONE);
	assert_string_equal(s, "[]");
	free(s);
}

static void test_variable_escaped_per_mode(void **state)
{
	(void)state;
	char *s = render("{{x}}|{{{x}}}|{{&x}}", "{\"x\":\"<b>\"}", ESC_HTML);
	assert_string_equal(s, "&lt;b&gt;|<b>|<b>");
	free(s);
}

static void test_list_section_repeats(void **state)
{
	(void)state;
	char *s = render("{{#rows}}<{{name}}:{{top}}>{{/rows}}",
			 "{\"top\":\"T\",\"rows\":[{\"name\":\"a\"},{\"name\":\"b\"}]}",
			 ESC_NONE);
	assert_string_equal(s, "<a:T><b:T>");
	free(s);
}

static void test_dot_and_dotted_names(void **state)
{
	(void)state;
	char *s = render("{{#l}}{{.}},{{/l}}{{h.name}}",
			 "{\"l\":[\"x\",\"y\"],\"h\":{\"name\":\"host\"}}", ESC_NONE);
	assert_string_equal(s, "x,y,host");
	free(s);
}

static void test_inverted_section(void **state)
{
	(void)state;
	char *s = render("{{^l}}none{{/l}}{{^f}}F{{/f}}{{^t}}T{{/t}}",
			 "{\"l\":[],\"f\":false,\"t\":true}", ESC_NONE);
	assert_string_equal(s, "noneF");
	free(s);
}

static void test_standalone_lines_removed(void **state)
{
	(void)state;
	char *s = render("| a |\n|---|\n{{#r}}\n| {{v}} |\n{{/r}}\nend\n",
			 "{\"r\":[{\"v\":1},{\"v\":2}]}", ESC_MD);
	assert_string_equal(s, "| a |\n|---|\n| 1 |\n| 2 |\nend\n");
	free(s);
}

static void test_comment_dropped(void **state)
{
	(void)state;
	char *s = render("a{{! hello }}b\n  {{! line }}\nc", "{}", ESC_NONE);
	assert_string_equal(s, "ab\nc");
	free(s);
}

static void test_unclosed_tag_reports_line(void **state)
{
	(void)state;
	char *m = parse_err("line one\nline {{two\n");
	assert_non_null(strstr(m, "bad.tmpl:2:6:"));
	free(m);
}

static void test_unclosed_section_reports_open_line(void **state)
{
	(void)state;
	char *m = parse_err("x\n\n{{#rows}}\nabc\n");
	assert_non_null(strstr(m, "bad.tmpl:3:1:"));
	assert_non_null(strstr(m, "'rows'"));
	free(m);
}

static void test_mismatched_close(void **state)
{
	(void)state;
	char *m = parse_err("{{#a}}{{/b}}");
	assert_non_null(strstr(m, "bad.tmpl:1:7:"));
	free(m);
	m = parse_err("{{/a}}");
	assert_non_null(strstr(m, "closes no open section"));
	free(m);
}

static void test_bad_name(void **state)
{
	(void)state;
	char *m = parse_err("{{a b}}");
	assert_non_null(strstr(m, "bad tag name"));
	free(m);
	m = parse_err("{{}}");
	assert_non_null(strstr(m, "bad tag name"));
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variable_substituted),
		cmocka_unit_test(test_missing_variable_is_empty),
		cmocka_unit_test(test_variable_escaped_per_mode),
		cmocka_unit_test(test_list_section_repeats),
		cmocka_unit_test(test_dot_and_dotted_names),
		cmocka_unit_test(test_inverted_section),
		cmocka_unit_test(test_standalone_lines_removed),
		cmocka_unit_test(test_comment_dropped),
		cmocka_unit_test(test_unclosed_tag_reports_line),
		cmocka_unit_test(test_unclosed_section_reports_open_line),
		cmocka_unit_test(test_mismatched_close),
		cmocka_unit_test(test_bad_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
