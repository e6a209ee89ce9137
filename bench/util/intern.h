/*
 * intern.h - interned values: one shared, immutable copy of each distinct
 * text (or byte string) for the life of the process.  A value type that
 * is copied freely and compared as bytes (struct cell) holds a long,
 * rarely set text as an interned pointer instead of a fixed array: two
 * equal texts are the same pointer, so byte comparison still means
 * equality, and a 100,000-cell plan carries one copy, not 100,000.
 *
 * Ownership: the copies belong to this room and are never freed (they
 * stay reachable, so a leak checker does not report them).  Thread-safe.
 */
#ifndef IOMATRIX_INTERN_H
#define IOMATRIX_INTERN_H

#include <stddef.h>

/* The interned copy of s, or NULL when s is NULL or "" (the empty text
 * has one representation, NULL) or when out of memory (errno ENOMEM). */
const char *intern_str(const char *s);
/* The interned copy of len bytes at p (len > 0), aligned for any type;
 * NULL when len is 0 or out of memory (errno ENOMEM). */
const void *intern_mem(const void *p, size_t len);

#endif
