/*
 * array.c - room in a growable array (array.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

void *array_grow(void *p, size_t *alloc, size_t n, size_t size, size_t first)
{
	if (n < *alloc)
		return p;
	size_t na = *alloc ? *alloc * 2 : first ? first : 1;
	while (na <= n)
		na *= 2;
	if (na > SIZE_MAX / size)
		return NULL;
	void *q = realloc(p, na * size);
	if (q)
		*alloc = na;
	return q;
}
