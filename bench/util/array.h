/*
 * array.h - the one growth rule of iomatrix's growable arrays: a struct
 * keeps its pointer, its count and its allocated length, and asks
 * array_grow() for room before it appends, so the doubling, the first
 * size and the overflow check are written once.
 *
 * Errors: array_grow() returns NULL when out of memory (or when the size
 * would overflow); the old array and *alloc are then unchanged and still
 * the caller's to free.
 */
#ifndef IOMATRIX_ARRAY_H
#define IOMATRIX_ARRAY_H

#include <stddef.h>

/* Room for element n of the array p, which has *alloc elements of size
 * bytes allocated (p NULL and *alloc 0 at first): p itself while
 * n < *alloc, else p reallocated to twice *alloc elements (first of them
 * the first time) and *alloc set to that.  The caller stores the result
 * back in its pointer; new elements are not zeroed. */
void *array_grow(void *p, size_t *alloc, size_t n, size_t size, size_t first);

/* One more element at the end of the array whose pointer is at pp (a
 * T **: the caller's own pointer, updated in place), *n elements long,
 * grown by array_grow()'s rule (with *alloc) or, alloc NULL, to exactly
 * *n + 1 (a short array that keeps no allocated length): the element is
 * zeroed and *n one more.  A pointer to it; NULL when out of memory, the
 * array, *alloc and *n then unchanged.  Call it through ARRAY_PUSH or
 * ARRAY_ADD, which take the array's pointer and counts themselves. */
void *array_push(void *pp, size_t *alloc, size_t *n, size_t size, size_t first);
#define ARRAY_PUSH(a, alloc, n, first) array_push(&(a), &(alloc), &(n), sizeof(*(a)), (first))
#define ARRAY_ADD(a, n) array_push(&(a), NULL, &(n), sizeof(*(a)), 1)

/* Append s, owned, to the string array *v of *n (grown to *n + 1): 0, or
 * -1 when s is NULL or memory runs out, s then freed (so a caller may
 * hand over a strdup or an sbuf_detach unchecked). */
int array_add_str(char ***v, size_t *n, char *s);

/* Room for want elements in two arrays that share one length (an
 * interval's bytes and its time, a bucket's index and its count): *pa of
 * asize-byte elements and *pb of bsize-byte ones, *alloc allocated in
 * each, grown by array_grow()'s rule (doubling, from first) and the new
 * elements zeroed.  Call it through ARRAY_RESERVE2, which takes the two
 * pointers themselves.  0, or -1 when out of memory or the size would
 * overflow: *alloc is then unchanged, and each array still holds its
 * elements and is the caller's to free. */
int array_reserve2(void *pa, size_t asize, void *pb, size_t bsize, size_t *alloc, size_t want,
		   size_t first);
#define ARRAY_RESERVE2(a, b, alloc, want, first) \
	array_reserve2(&(a), sizeof(*(a)), &(b), sizeof(*(b)), &(alloc), (want), (first))

#endif
