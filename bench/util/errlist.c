/*
 * errlist.c - error lists for parsers (see errlist.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "errlist.h"
#include "termesc.h"

void errlist_add(struct errlist *e, const char *file, unsigned line,
		 unsigned col, const char *fmt, ...)
{
	char msg[1024], full[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (file && line)
		snprintf(full, sizeof(full), "%s:%u:%u: %s", file, line, col, msg);
	else if (file)
		snprintf(full, sizeof(full), "%s: %s", file, msg);
	else
		snprintf(full, sizeof(full), "%s", msg);
	char **m = array_grow(e->msgs, &e->alloc, e->n, sizeof(*m), 8);
	if (!m)
		return; /* out of memory: drop the message, never crash */
	e->msgs = m;
	e->msgs[e->n] = strdup(full);
	if (e->msgs[e->n])
		e->n++;
}

void errlist_print_as(const struct errlist *e, FILE *f, const char *prefix)
{
	for (size_t i = 0; i < e->n && i < ERRLIST_SHOW_MAX; i++)
		termesc_puts(f, prefix, e->msgs[i]);
	if (e->n > ERRLIST_SHOW_MAX)
		fprintf(f, "%s... and %zu more\n", prefix ? prefix : "", e->n - ERRLIST_SHOW_MAX);
}

void errlist_print(const struct errlist *e, FILE *f)
{
	errlist_print_as(e, f, NULL);
}

void errlist_cap(struct errlist *e, size_t from, size_t max, const char *what)
{
	char more[200];

	if (from > e->n || e->n - from <= max + 1)
		return;
	size_t keep = from + max, dropped = e->n - keep;
	for (size_t i = keep; i < e->n; i++)
		free(e->msgs[i]);
	e->n = keep;
	snprintf(more, sizeof(more), "... and %zu more %s", dropped, what);
	e->msgs[e->n] = strdup(more); /* the slot exists: n shrank */
	if (e->msgs[e->n])
		e->n++;
}

void errlist_release(struct errlist *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->msgs[i]);
	free(e->msgs);
	e->msgs = NULL;
	e->n = e->alloc = 0;
}
