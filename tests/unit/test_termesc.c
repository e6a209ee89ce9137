/*
 * test_termesc.c - the terminal's escape of a string from a set: every
 * byte a terminal acts on (C0, DEL, ESC, C1 as UTF-8 and as 8-bit bytes,
 * invalid UTF-8) is written as text, so a name cannot forge a line or send
 * an escape sequence; printable ASCII and valid UTF-8 stay; a short buffer
 * cuts with "...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/termesc.h"

static void expect(const char *in, const char *want)
{
	char buf[256];
	assert_string_equal(termesc(in, buf, sizeof(buf)), want);
}

static void test_controls_as_text(void **state)
{
	(void)state;
	expect("x\nFORGED: intact (4 files)", "x\\nFORGED: intact (4 files)");
	expect("\x1b]0;owned\x07", "\\e]0;owned\\x07");
	expect("a\rb\tc\\d\x7f", "a\\rb\\tc\\\\d\\x7f");
	expect("\xc2\x9b" "31m", "\\xc2\\x9b31m");       /* U+009B: CSI in UTF-8 */
	expect("\x9b" "31m", "\\x9b31m");               /* 8-bit CSI */
	expect("\xc0\xaf", "\\xc0\\xaf");               /* overlong '/' */
	expect("\xed\xa0\x80", "\\xed\\xa0\\x80");       /* a surrogate */
	expect(NULL, "");
}

static void test_printable_stays(void **state)
{
	(void)state;
	expect("2026-12-02T024012Z_quick_host/cells/0001.json",
	       "2026-12-02T024012Z_quick_host/cells/0001.json");
	expect("d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x92\xbe", "d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x92\xbe");
}

static void test_short_buffer(void **state)
{
	char buf[8];
	(void)state;
	assert_string_equal(termesc("abcdefghij", buf, sizeof(buf)), "abcd...");
	assert_true(strlen(termesc("\n\n\n\n\n", buf, sizeof(buf))) < sizeof(buf));
}

/* A CSV cell keeps one backslash (its reader unescapes nothing); every
 * control is text all the same. */
static void test_field_keeps_backslash(void **state)
{
	struct sbuf b = SBUF_INIT;
	(void)state;
	termesc_append_field(&b, "C:\\dir\x1b[2J\x07\n");
	assert_string_equal(sbuf_str(&b), "C:\\dir\\e[2J\\x07\\n");
	sbuf_release(&b);
}

/* One line: the prefix as given, the message escaped, one newline. */
static void test_puts_one_line(void **state)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	(void)state;
	assert_non_null(f);
	termesc_puts(f, "iomatrix: ", "host 'h\x1b]2;x\x07'\nFORGED");
	termesc_puts(f, NULL, NULL);
	fclose(f);
	assert_string_equal(out, "iomatrix: host 'h\\e]2;x\\x07'\\nFORGED\n\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls_as_text),
		cmocka_unit_test(test_printable_stays),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_field_keeps_backslash),
		cmocka_unit_test(test_puts_one_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
