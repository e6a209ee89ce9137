/*
 * errlist.h - a growable list of error messages with positions, used by every
 * parser so that all problems of an input are reported in one pass.
 */
#ifndef IOMATRIX_ERRLIST_H
#define IOMATRIX_ERRLIST_H

#include <stddef.h>
#include <stdio.h>

struct errlist {
	char **msgs;
	size_t n, alloc;
};

#define ERRLIST_INIT { NULL, 0, 0 }

/* Append "file:line:col: message" (line/col 1-based; 0 omits them). */
void errlist_add(struct errlist *e, const char *file, unsigned line,
		 unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Print every message, one per line; past ERRLIST_SHOW_MAX the rest is
 * one line "... and N more" (a hostile input can hold millions).  A
 * message quotes names from its input (a device, a host, a path), so each
 * goes through termesc: no control character reaches the terminal. */
#define ERRLIST_SHOW_MAX 100
void errlist_print(const struct errlist *e, FILE *f);
/* The same with prefix (e.g. "iomatrix: ", NULL none) before each line. */
void errlist_print_as(const struct errlist *e, FILE *f, const char *prefix);
/* Keep at most max of the messages added since index `from` and replace
 * the others by one "... and N more <what>" message. */
void errlist_cap(struct errlist *e, size_t from, size_t max, const char *what);
void errlist_release(struct errlist *e);

#endif
