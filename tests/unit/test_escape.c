/*
 * test_escape.c - hostile strings end up inert in every output format.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "report/render/escape.h"

static char *esc(const char *s, enum esc_mode m)
{
	char *r = escape_dup(s, m);
	assert_non_null(r);
	return r;
}

static void test_html_entities(void **state)
{
	(void)state;
	char *s = esc("<script>alert(1)</script> & \"x\" 'y'", ESC_HTML);
	assert_string_equal(s, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;");
	free(s);
}

static void test_md_pipe_backslash_newline(void **state)
{
	(void)state;
	char *s = esc("a|b\\c\nd", ESC_MD);
	assert_string_equal(s, "a\\|b\\\\c d");
	free(s);
}

static void test_md_no_raw_html_or_code(void **state)
{
	(void)state;
	char *s = esc("<script>`touch /tmp/pwned`", ESC_MD);
	assert_string_equal(s, "\\<script\\>\\`touch /tmp/pwned\\`");
	free(s);
}

static void test_csv_quotes_when_needed(void **state)
{
	(void)state;
	char *s = esc("plain", ESC_CSV);
	assert_string_equal(s, "plain");
	free(s);
	s = esc("a,b", ESC_CSV);
	assert_string_equal(s, "\"a,b\"");
	free(s);
	s = esc("\"; system(\"id\"); \"", ESC_CSV);
	assert_string_equal(s, "\"\"\"; system(\"\"id\"\"); \"\"\"");
	free(s);
	s = esc("line\nbreak", ESC_CSV);   /* a name has no line breaks */
	assert_string_equal(s, "line\\nbreak");
	free(s);
}

/* report.csv held a device name's ESC ] 2 ; ... BEL raw, and
 * `cat report.csv` retitled the terminal.  Controls become text as
 * termesc writes them; a backslash stays one (CSV unescapes nothing). */
static void test_csv_controls_as_text(void **state)
{
	(void)state;
	char *s = esc("d\x1b]2;owned\x07\x1b[2J", ESC_CSV);
	assert_string_equal(s, "d\\e]2;owned\\x07\\e[2J");
	free(s);
	s = esc("C:\\x,\x9b", ESC_CSV);
	assert_string_equal(s, "\"C:\\x,\\x9b\"");
	free(s);
	s = esc("\t=1+1", ESC_CSV);  /* the tab is text: no formula */
	assert_string_equal(s, "\\t=1+1");
	free(s);
}

static void test_csv_formula_injection(void **state)
{
	(void)state;
	char *s = esc("=HYPERLINK(\"http://x\")", ESC_CSV);
	assert_string_equal(s, "\"'=HYPERLINK(\"\"http://x\"\")\"");
	free(s);
	s = esc("@SUM(A1)", ESC_CSV);
	assert_string_equal(s, "\"'@SUM(A1)\"");
	free(s);
	s = esc("  -2+3", ESC_CSV);   /* spaces a spreadsheet may trim */
	assert_string_equal(s, "\"'  -2+3\"");
	free(s);
	s = esc("ssd-1", ESC_CSV); /* a dash inside is fine */
	assert_string_equal(s, "ssd-1");
	free(s);
}

static void test_gnuplot_no_backquote_or_macro(void **state)
{
	(void)state;
	char *s = esc("it's `touch /tmp/pwned` @x\nnext", ESC_GNUPLOT);
	assert_null(strchr(s, '`'));
	assert_null(strchr(s, '@'));
	assert_null(strchr(s, '\n'));
	assert_non_null(strstr(s, "it''s"));
	free(s);
}

static void test_gnuplot_system_call_stays_string(void **state)
{
	(void)state;
	/* inside '...' only a lone ' could end the string */
	char *s = esc("'; system(\"id\"); '", ESC_GNUPLOT);
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			assert_int_equal(p[1], '\'');
			p++;
		}
	}
	free(s);
}

static void test_gpdata_quoted_without_inner_quote(void **state)
{
	(void)state;
	char *s = esc("a \"b\"\tc", ESC_GPDATA);
	assert_string_equal(s, "\"a 'b' c\"");
	free(s);
}

static void test_slug(void **state)
{
	(void)state;
	char buf[32];
	escape_slug("../../etc/passwd", buf, sizeof(buf));
	assert_string_equal(buf, "etc-passwd");
	escape_slug("RND4K Q32T16", buf, sizeof(buf));
	assert_string_equal(buf, "rnd4k-q32t16");
	escape_slug("<>", buf, sizeof(buf));
	assert_string_equal(buf, "x");
	escape_slug("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", buf, 8);
	assert_int_equal(strlen(buf), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_entities),
		cmocka_unit_test(test_md_pipe_backslash_newline),
		cmocka_unit_test(test_md_no_raw_html_or_code),
		cmocka_unit_test(test_csv_quotes_when_needed),
		cmocka_unit_test(test_csv_formula_injection),
		cmocka_unit_test(test_csv_controls_as_text),
		cmocka_unit_test(test_gnuplot_no_backquote_or_macro),
		cmocka_unit_test(test_gnuplot_system_call_stays_string),
		cmocka_unit_test(test_gpdata_quoted_without_inner_quote),
		cmocka_unit_test(test_slug),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
