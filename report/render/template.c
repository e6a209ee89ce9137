/*
 * template.c - compile a Mustache-like template into a node tree, then
 * render it against a cJSON context (template.h).  Compilation is separate
 * from rendering so a malformed template is reported with file:line:col
 * before any output is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "template.h"

#define TMPL_MAX_DEPTH 32
#define TMPL_MAX_BYTES (4u << 20)

enum node_kind { N_TEXT, N_VAR, N_RAW, N_SECTION, N_INVERTED };

struct node {
	enum node_kind kind;
	const char *text;      /* N_TEXT: points into tmpl->src */
	size_t len;
	char *name;            /* owned, other kinds */
	const char *at;        /* where the tag starts in tmpl->src */
	struct node *child;    /* sections: first child */
	struct node *next;
};

struct tmpl {
	char *src;             /* owned copy of the text */
	struct node *root;
};

static void nodes_free(struct node *n)
{
	while (n) {
		struct node *next = n->next;
		nodes_free(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

void tmpl_free(struct tmpl *t)
{
	if (!t)
		return;
	nodes_free(t->root);
	free(t->src);
	free(t);
}

/* Position of p in src as 1-based line and column. */
static void tmpl_pos(const char *src, const char *p, unsigned *line,
		     unsigned *col)
{
	*line = 1;
	*col = 1;
	for (const char *q = src; q < p; q++) {
		if (*q == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static bool name_ok(const char *s, size_t len)
{
	if (len == 0)
		return false;
	if (len == 1 && s[0] == '.')
		return true;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

struct parser {
	struct tmpl *t;
	const char *file;
	struct errlist *errs;
	/* open sections; tail pointers of each level's child list */
	struct node *open[TMPL_MAX_DEPTH];
	struct node **tail[TMPL_MAX_DEPTH + 1];
	int depth;
};

static struct node *node_append(struct parser *ps, enum node_kind kind)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->kind = kind;
	*ps->tail[ps->depth] = n;
	ps->tail[ps->depth] = &n->next;
	return n;
}

/* The text [p, end) as a text node, when not empty.  -1 when out of
 * memory. */
static int text_append(struct parser *ps, const char *p, const char *end)
{
	if (end <= p)
		return 0;
	struct node *n = node_append(ps, N_TEXT);
	if (!n)
		return -1;
	n->text = p;
	n->len = (size_t)(end - p);
	return 0;
}

static int parse_error(struct parser *ps, const char *at, const char *msg,
		       const char *name)
{
	unsigned line, col;

	tmpl_pos(ps->t->src, at, &line, &col);
	if (name)
		errlist_add(ps->errs, ps->file, line, col, msg, name);
	else
		errlist_add(ps->errs, ps->file, line, col, "%s", msg);
	return -1;
}

struct tmpl *tmpl_parse(const char *text, const char *file,
			struct errlist *errs)
{
	struct parser ps = { 0 };
	struct tmpl *t = calloc(1, sizeof(*t));

	if (!t || !(t->src = strdup(text))) {
		errlist_add(errs, file, 0, 0, "out of memory");
		free(t);
		return NULL;
	}
	ps.t = t;
	ps.file = file;
	ps.errs = errs;
	ps.tail[0] = &t->root;

	const char *src = t->src, *p = src;
	for (;;) {
		const char *tag = strstr(p, "{{");
		const char *text_end = tag ? tag : p + strlen(p);
		if (!tag) {
			if (text_append(&ps, p, text_end) < 0)
				goto oom;
			break;
		}
		const char *in = tag + 2, *close;
		char sigil = *in;
		enum node_kind kind = N_VAR;
		bool standalone_kind = false;
		size_t closelen = 2;
		if (sigil == '{') {
			kind = N_RAW;
			in++;
			close = strstr(in, "}}}");
			closelen = 3;
		} else {
			if (sigil == '&') {
				kind = N_RAW;
				in++;
			} else if (sigil == '#' || sigil == '^' || sigil == '/' ||
				   sigil == '!') {
				standalone_kind = true;
				in++;
			}
			close = strstr(in, "}}");
		}
		if (!close) {
			parse_error(&ps, tag, "unclosed tag '{{' (missing '}}')", NULL);
			goto err;
		}
		const char *nl = memchr(in, '\n', (size_t)(close - in));
		if (nl && sigil != '!') {
			parse_error(&ps, tag, "tag spans a line break (missing '}}')", NULL);
			goto err;
		}
		/* name, trimmed */
		const char *ns = in, *ne = close;
		while (ns < ne && is_blank(*ns))
			ns++;
		while (ne > ns && is_blank(ne[-1]))
			ne--;
		if (sigil != '!' && !name_ok(ns, (size_t)(ne - ns))) {
			char bad[64];
			size_t bl = (size_t)(ne - ns) < sizeof(bad) - 1 ?
				    (size_t)(ne - ns) : sizeof(bad) - 1;
			memcpy(bad, ns, bl);
			bad[bl] = '\0';
			parse_error(&ps, tag, "bad tag name '%s' (use letters, digits, _ - .)", bad);
			goto err;
		}
		const char *after = close + closelen;

		/* Standalone line: drop the blanks around the tag and its newline. */
		if (standalone_kind) {
			const char *ls = tag;
			while (ls > p && is_blank(ls[-1]))
				ls--;
			bool at_line_start = (ls == src || ls[-1] == '\n') && ls >= p;
			const char *q = after;
			while (is_blank(*q))
				q++;
			if (at_line_start && (*q == '\n' || *q == '\0')) {
				text_end = ls;
				after = *q == '\n' ? q + 1 : q;
			}
		}
		if (text_append(&ps, p, text_end) < 0)
			goto oom;
		size_t nlen = (size_t)(ne - ns);
		if (sigil == '!') {
			/* comment */
		} else if (sigil == '/') {
			if (ps.depth == 0) {
				char nm[64];
				snprintf(nm, sizeof(nm), "%.*s", (int)(nlen < 60 ? nlen : 60), ns);
				parse_error(&ps, tag, "'{{/%s}}' closes no open section", nm);
				goto err;
			}
			struct node *o = ps.open[ps.depth - 1];
			if (strlen(o->name) != nlen || memcmp(o->name, ns, nlen)) {
				char nm[64];
				snprintf(nm, sizeof(nm), "%.*s", (int)(nlen < 60 ? nlen : 60), ns);
				char msg[200];
				snprintf(msg, sizeof(msg),
					 "'{{/%%s}}' does not match the open section '%s'",
					 o->name);
				parse_error(&ps, tag, msg, nm);
				goto err;
			}
			ps.depth--;
		} else {
			if (sigil == '#' || sigil == '^')
				kind = sigil == '#' ? N_SECTION : N_INVERTED;
			struct node *n = node_append(&ps, kind);
			if (!n || !(n->name = strndup(ns, nlen)))
				goto oom;
			n->at = tag;
			if (kind == N_SECTION || kind == N_INVERTED) {
				if (ps.depth >= TMPL_MAX_DEPTH) {
					parse_error(&ps, tag, "sections nested too deeply", NULL);
					goto err;
				}
				ps.open[ps.depth++] = n;
				ps.tail[ps.depth] = &n->child;
			}
		}
		p = after;
	}
	if (ps.depth > 0) {
		struct node *o = ps.open[ps.depth - 1];
		parse_error(&ps, o->at, "section '%s' is never closed (add '{{/...}}')", o->name);
		goto err;
	}
	return t;
oom:
	errlist_add(errs, file, 0, 0, "out of memory");
err:
	tmpl_free(t);
	return NULL;
}

struct tmpl *tmpl_load(const char *path, struct errlist *errs)
{
	struct tmpl *t = NULL;
	size_t n;
	char *buf = fsutil_read(path, TMPL_MAX_BYTES, &n);

	if (!buf) {
		if (errno == EFBIG)
			errlist_add(errs, path, 0, 0, "template larger than 4 MiB");
		else
			errlist_add(errs, path, 0, 0, "cannot open template: %s",
				    fsutil_strerror(errno));
		return NULL;
	}
	if (memchr(buf, '\0', n)) {
		errlist_add(errs, path, 0, 0, "template contains a NUL byte");
		goto out;
	}
	t = tmpl_parse(buf, path, errs);
out:
	free(buf);
	return t;
}

/* ---- rendering ---- */

struct ctx {
	const cJSON *stack[TMPL_MAX_DEPTH + 2];
	int n;
};

static const cJSON *ctx_lookup(const struct ctx *c, const char *name)
{
	if (!strcmp(name, "."))
		return c->n ? c->stack[c->n - 1] : NULL;
	char first[128];
	const char *dot = strchr(name, '.');
	size_t fl = dot ? (size_t)(dot - name) : strlen(name);
	if (fl == 0 || fl >= sizeof(first))
		return NULL;
	memcpy(first, name, fl);
	first[fl] = '\0';
	const cJSON *v = NULL;
	for (int i = c->n - 1; i >= 0 && !v; i--)
		if (cJSON_IsObject(c->stack[i]))
			v = cJSON_GetObjectItemCaseSensitive(c->stack[i], first);
	while (v && dot) {
		const char *s = dot + 1;
		dot = strchr(s, '.');
		fl = dot ? (size_t)(dot - s) : strlen(s);
		if (fl == 0 || fl >= sizeof(first))
			return NULL;
		memcpy(first, s, fl);
		first[fl] = '\0';
		if (cJSON_IsArray(v) && first[0] >= '0' && first[0] <= '9' &&
		    strspn(first, "0123456789") == fl && fl < 7)
			v = cJSON_GetArrayItem(v, atoi(first)); /* {{#list.0}}: non-empty */
		else
			v = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, first) : NULL;
	}
	return v;
}

static bool value_truthy(const cJSON *v)
{
	if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v))
		return false;
	if (cJSON_IsString(v))
		return v->valuestring && v->valuestring[0];
	if (cJSON_IsNumber(v))
		return v->valuedouble != 0;
	if (cJSON_IsArray(v))
		return cJSON_GetArraySize(v) > 0;
	return true;
}

static void value_append(struct sbuf *out, const cJSON *v, enum esc_mode m)
{
	char num[64];

	if (!v)
		return;
	if (cJSON_IsString(v)) {
		escape_append(out, v->valuestring, m);
	} else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		/* range first: casting 1e300 or NaN to long long is UB */
		if (d > -1e15 && d < 1e15 && d == (double)(long long)d)
			snprintf(num, sizeof(num), "%lld", (long long)d);
		else
			snprintf(num, sizeof(num), "%.6g", d);
		escape_append(out, num, m);
	} else if (cJSON_IsTrue(v)) {
		escape_append(out, "true", m);
	}
}

static void render_nodes(const struct node *n, struct ctx *c,
			 enum esc_mode m, struct sbuf *out)
{
	for (; n; n = n->next) {
		const cJSON *v;
		switch (n->kind) {
		case N_TEXT:
			sbuf_add(out, n->text, n->len);
			break;
		case N_VAR:
			value_append(out, ctx_lookup(c, n->name), m);
			break;
		case N_RAW:
			value_append(out, ctx_lookup(c, n->name), ESC_NONE);
			break;
		case N_INVERTED:
			if (!value_truthy(ctx_lookup(c, n->name)))
				render_nodes(n->child, c, m, out);
			break;
		case N_SECTION:
			v = ctx_lookup(c, n->name);
			if (!value_truthy(v))
				break;
			if (c->n >= (int)(sizeof(c->stack) / sizeof(c->stack[0])))
				break; /* cannot happen: depth bounded at parse */
			if (cJSON_IsArray(v)) {
				const cJSON *e;
				cJSON_ArrayForEach(e, v) {
					c->stack[c->n++] = e;
					render_nodes(n->child, c, m, out);
					c->n--;
				}
			} else {
				c->stack[c->n++] = v;
				render_nodes(n->child, c, m, out);
				c->n--;
			}
			break;
		}
	}
}

int tmpl_render(const struct tmpl *t, const cJSON *ctx, enum esc_mode mode,
		struct sbuf *out)
{
	struct ctx c = { .n = 0 };

	if (ctx)
		c.stack[c.n++] = ctx;
	render_nodes(t->root, &c, mode, out);
	return out->oom ? -1 : 0;
}
