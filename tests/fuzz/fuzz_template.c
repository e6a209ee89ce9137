/*
 * fuzz_template.c - libFuzzer target for the report template engine
 * (report/render/template.c): parse any template text and render it with a context.
 * Input: TEMPLATE, optionally followed by "\n%%\n" and a JSON context (a
 * built-in context with strings hostile to every format is used otherwise).
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/errlist.h"
#include "util/sbuf.h"
#include "report/render/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char tmpl_default_ctx[] =
	"{\"title\":\"<script>alert(1)</script> | `x` @y 'q' \\\"d\\\"\","
	"\"n\":42,\"f\":0.125,\"big\":1e300,\"neg\":-3,\"t\":true,\"z\":false,"
	"\"nil\":null,\"empty\":\"\",\"list\":[\"a\",{\"x\":\"b\"}],"
	"\"rows\":[{\"dev\":\"hdd\",\"iops\":123.5},{\"dev\":\"s|s\\nd\",\"iops\":0}],"
	"\"obj\":{\"a\":{\"b\":\"deep\"}}}";

/* Longest array anywhere in v (sections iterate arrays). */
static size_t tmpl_max_array(const cJSON *v)
{
	size_t m = 0, n = 0;
	const cJSON *e;

	if (!v || !(cJSON_IsArray(v) || cJSON_IsObject(v)))
		return 0;
	cJSON_ArrayForEach(e, v) {
		size_t sub = tmpl_max_array(e);
		if (sub > m)
			m = sub;
		n++;
	}
	return cJSON_IsArray(v) && n > m ? n : m;
}

/* Count "{{#" openers: nested sections over arrays multiply the output, and
 * a template that asks for 100^6 rows is the user's choice, not a bug. */
static size_t tmpl_sections(const char *s)
{
	size_t n = 0;
	while ((s = strstr(s, "{{#"))) {
		n++;
		s += 3;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum esc_mode modes[] = {
		ESC_HTML, ESC_MD, ESC_CSV, ESC_GNUPLOT, ESC_GPDATA, ESC_NONE,
	};
	struct errlist errs = ERRLIST_INIT;
	struct sbuf out = SBUF_INIT;
	struct tmpl *t = NULL;
	cJSON *ctx = NULL;
	char *text;
	const char *sep;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	sep = strstr(text, "\n%%\n");
	if (sep) {
		text[sep - text] = '\0';
		ctx = cJSON_Parse(sep + 4);
	}
	if (!ctx)
		ctx = cJSON_Parse(tmpl_default_ctx);
	if (!ctx)
		goto out;
	{
		size_t a = tmpl_max_array(ctx), s = tmpl_sections(text), rows = 1;
		for (size_t i = 0; i < s && rows <= 100000; i++)
			rows *= a > 1 ? a : 1;
		if (rows > 100000)
			goto out;
	}
	t = tmpl_parse(text, "fuzz.tmpl", &errs);
	if (t)
		tmpl_render(t, ctx, modes[size % (sizeof(modes) / sizeof(modes[0]))],
			    &out);
out:
	tmpl_free(t);
	sbuf_release(&out);
	errlist_release(&errs);
	cJSON_Delete(ctx);
	free(text);
	return 0;
}
