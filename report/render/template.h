/*
 * template.h - a small Mustache-like template engine for templates/
 * (template.c, about 430 lines: redis' sdstemplate grown with sections and
 * escape modes).
 *
 *   {{name}}        value, escaped with the render's escape mode
 *   {{{name}}} {{&name}}  value inserted raw (HTML/SVG we generated)
 *   {{#name}}..{{/name}}  list: once per element (element becomes the
 *                   context); object: once with it as context; true,
 *                   non-empty string, non-zero number: once
 *   {{^name}}..{{/name}}  once when name is missing, false, null, 0, "" or []
 *   {{! comment }}
 *   {{.}}           the current element;  {{a.b}} dotted lookup
 *
 * Names are looked up from the innermost context outwards.  A line holding
 * only a section, close or comment tag (and blanks) is removed entirely, so
 * Markdown tables can have one tag per line.  The context is a cJSON tree
 * owned by the caller.
 */
#ifndef IOMATRIX_TEMPLATE_H
#define IOMATRIX_TEMPLATE_H

#include <cjson/cJSON.h>

#include "util/errlist.h"
#include "escape.h"
#include "util/sbuf.h"

struct tmpl;

/* Compile text (copied).  On a malformed template returns NULL and adds
 * "file:line:col: message" to errs. */
struct tmpl *tmpl_parse(const char *text, const char *file,
			struct errlist *errs);
/* Read and compile a file (at most 4 MiB).  NULL with a message on error. */
struct tmpl *tmpl_load(const char *path, struct errlist *errs);
/* Append the rendering to out.  Returns 0, or -1 if out ran out of memory. */
int tmpl_render(const struct tmpl *t, const cJSON *ctx, enum esc_mode mode,
		struct sbuf *out);
void tmpl_free(struct tmpl *t);

#endif
