/*
 * keyfirst.c - the least rank of each key (keyfirst.h).
 */
#include <stdlib.h>
#include <string.h>

#include "keyfirst.h"

struct keyfirst_item {
	const char *key;
	size_t rank;
	char *item;     /* where its first goes */
};

static int keyfirst_cmp(const void *a, const void *b)
{
	const struct keyfirst_item *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

int keyfirst_fill(void *items, size_t n, size_t size, size_t key_off, size_t rank_off,
		  size_t first_off)
{
	struct keyfirst_item *v = calloc(n ? n : 1, sizeof(*v));
	char *p = items;
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++, p += size) {
		memcpy(&v[i].key, p + key_off, sizeof(v[i].key));
		memcpy(&v[i].rank, p + rank_off, sizeof(v[i].rank));
		v[i].item = p + first_off;
	}
	qsort(v, n, sizeof(*v), keyfirst_cmp);
	for (size_t i = 0, first = 0; i < n; i++) {
		if (!i || strcmp(v[i].key, v[i - 1].key))
			first = v[i].rank;
		memcpy(v[i].item, &first, sizeof(first));
	}
	free(v);
	return 0;
}
