/*
 * suite_ctx.c - the bottom of the suite loader (suite_int.h): the error
 * list every room reports into, did-you-mean, the strings a parsed value
 * keeps, and the node helpers.  It calls no other file of the loader, so
 * the loader's calls point one way: suite_load.c -> suite_expand.c ->
 * suite_check.c / suite_parse.c -> suite_value.c -> suite_ctx.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/suggest.h"
#include "suite_int.h"

/* Add one error at a position; identical messages (one problem reached by
 * many cells) are reported once. */
void err_at(struct ctx *x, unsigned line, unsigned col, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	if (x->too_many)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errlist_add(x->errs, x->file, line, col, "%s", msg);
	struct errlist *e = x->errs;
	if (e->n > x->nerrs_start + 1) {
		for (size_t i = x->nerrs_start; i + 1 < e->n; i++)
			if (!strcmp(e->msgs[i], e->msgs[e->n - 1])) {
				free(e->msgs[--e->n]);
				return;
			}
	}
	if (e->n - x->nerrs_start >= SUITE_MAX_ERRORS) {
		errlist_add(e, x->file, 0, 0, "too many errors; stopping");
		x->too_many = true;
	}
}

bool has_errors(const struct ctx *x)
{
	return x->errs->n > x->nerrs_start;
}

/* " (did you mean 'x'?)" for the nearest of words (suggest.h), or "" */
void suite_suggest(const char *word, const char *const *words, char *buf,
		   size_t len)
{
	const char *best = suggest_word(word, words);

	if (best)
		snprintf(buf, len, " (did you mean '%s'?)", best);
	else
		buf[0] = '\0';
}

const char *suite_scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* True if the scalar is a plain (unquoted) YAML null: ~, null, or empty. */
bool suite_is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *v = suite_scalar(n);
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
	       !strcmp(v, "NULL");
}

/* Errors of the shared YAML helpers (ymap.c, ssd_keys.c) go through
 * err_at, which drops repeats and stops at SUITE_MAX_ERRORS. */
static void ykit_to_ctx(void *arg, unsigned line, unsigned col, const char *msg)
{
	err_at(arg, line, col, "%s", msg);
}

struct ykit ctx_ykit(struct ctx *x)
{
	return (struct ykit){ .doc = x->doc, .errs = x->errs, .file = x->file,
			      .err = ykit_to_ctx, .err_arg = x };
}

/* A copy of v (n bytes; a string) owned by the ctx (kvals are copied by
 * value, so they share it); NULL ("" for a string) when out of memory,
 * with the error given. */
const char *ctx_str_n(struct ctx *x, const void *v, size_t n)
{
	char *c;

	char **p = array_grow(x->strs, &x->astrs, x->nstrs, sizeof(*p), 64);
	if (!p)
		goto oom;
	x->strs = p;
	if (!(c = malloc(n)))
		goto oom;
	memcpy(c, v, n);
	x->strs[x->nstrs++] = c;
	return c;
oom:
	err_at(x, 0, 0, "out of memory");
	return NULL;
}

const char *ctx_str(struct ctx *x, const char *v)
{
	const char *c = ctx_str_n(x, v, strlen(v) + 1);
	return c ? c : "";
}
