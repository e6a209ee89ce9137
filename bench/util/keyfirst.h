/*
 * keyfirst.h - where each key first appears: of n items that each hold a
 * string key and a rank (a row, an order of appearance), the least rank
 * among the items of the same key, written into every item.  One sort by
 * (key, rank) finds it for all, O(n log n): compare's BMF names (the
 * first row of each name) and the report's group families (each ordered
 * by its first group) are this one question.
 *
 * Errors: keyfirst_fill() returns -1 when out of memory (no item
 * written), else 0.
 */
#ifndef IOMATRIX_KEYFIRST_H
#define IOMATRIX_KEYFIRST_H

#include <stddef.h>

/* items: n structs of size bytes, each with a char * key at key_off
 * (not NULL), a size_t rank at rank_off and a size_t at first_off that
 * receives the least rank of its key.  The items keep their order. */
int keyfirst_fill(void *items, size_t n, size_t size, size_t key_off, size_t rank_off,
		  size_t first_off);

#endif
