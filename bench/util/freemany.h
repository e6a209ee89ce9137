/*
 * freemany.h - free() of several owned pointers in one call, for the
 * release functions whose struct owns a run of strings: FREE_MANY(s->a,
 * s->b, s->c) frees each (NULL ones too, as free() does).  The list is
 * still the struct's ownership, written once per struct; what is no
 * longer written out is a free() a line (systemd's free_many_charp()).
 * free_strv() frees an array of n owned strings and the array.
 */
#ifndef IOMATRIX_FREEMANY_H
#define IOMATRIX_FREEMANY_H

#include <stddef.h>
#include <stdlib.h>

static inline void free_many(void *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
}

static inline void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

#define FREE_MANY(...) \
	free_many((void *const[]){ __VA_ARGS__ }, \
		  sizeof((void *const[]){ __VA_ARGS__ }) / sizeof(void *))

#endif
