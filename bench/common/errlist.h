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
void errlist_print(const struct errlist *e, FILE *f);
void errlist_release(struct errlist *e);

#endif
