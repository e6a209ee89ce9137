/*
 * array.c - room in a growable array (array.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

void *array_push(void *pp, size_t *alloc, size_t *n, size_t size, size_t first)
{
	char *p, *q;
	size_t one = *n + 1;

	/* the caller's pointer is a T *: copied, not read as a void * */
	memcpy(&p, pp, sizeof(p));
	if (alloc)
		q = array_grow(p, alloc, *n, size, first);
	else
		q = one && one <= SIZE_MAX / size ? realloc(p, one * size) : NULL;
	if (!q)
		return NULL;
	memcpy(pp, &q, sizeof(q));
	memset(q + *n * size, 0, size);
	return q + (*n)++ * size;
}

int array_add_str(char ***v, size_t *n, char *s)
{
	char **p = s ? ARRAY_ADD(*v, *n) : NULL;
	if (!p) {
		free(s);
		return -1;
	}
	*p = s;
	return 0;
}

int array_reserve2(void *pa, size_t asize, void *pb, size_t bsize, size_t *alloc, size_t want,
		   size_t first)
{
	void *const slot[2] = { pa, pb };
	const size_t size[2] = { asize, bsize };
	size_t na = *alloc ? *alloc : first ? first : 1;

	if (want <= *alloc)
		return 0;
	while (na < want) {
		if (na > SIZE_MAX / 2)
			return -1;
		na *= 2;
	}
	for (int i = 0; i < 2; i++) {
		char *p, *q;
		if (na > SIZE_MAX / size[i])
			return -1;
		/* the caller's pointer is a T *: copied, not read as a void * */
		memcpy(&p, slot[i], sizeof(p));
		if (!(q = realloc(p, na * size[i])))
			return -1;
		memset(q + *alloc * size[i], 0, (na - *alloc) * size[i]);
		memcpy(slot[i], &q, sizeof(q));
	}
	*alloc = na;
	return 0;
}
