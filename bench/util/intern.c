/*
 * intern.c - intern.h: a chained hash table of the distinct values seen,
 * behind one mutex.  A suite has a handful of distinct texts, so the
 * table stays small; it grows by doubling.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "intern.h"

struct ientry {
	struct ientry *next;
	size_t len;
	uint64_t hash;
	max_align_t data[]; /* len bytes (+ a NUL for texts) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ientry **table;
static size_t nbuckets, nentries;

static uint64_t fnv1a(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static int grow(void)
{
	size_t n = nbuckets ? nbuckets * 2 : 64;
	struct ientry **t = calloc(n, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < nbuckets; i++)
		for (struct ientry *e = table[i], *next; e; e = next) {
			next = e->next;
			e->next = t[e->hash % n];
			t[e->hash % n] = e;
		}
	free(table);
	table = t;
	nbuckets = n;
	return 0;
}

/* len bytes at p, stored with a NUL after them */
static const void *intern(const void *p, size_t len)
{
	uint64_t h = fnv1a(p, len);
	const void *ret = NULL;

	pthread_mutex_lock(&lock);
	if (nentries >= nbuckets && grow() < 0)
		goto out;
	for (struct ientry *e = table[h % nbuckets]; e; e = e->next)
		if (e->hash == h && e->len == len && !memcmp(e->data, p, len)) {
			ret = e->data;
			goto out;
		}
	struct ientry *e = malloc(sizeof(*e) + len + 1);
	if (!e)
		goto out;
	e->len = len;
	e->hash = h;
	memcpy(e->data, p, len);
	((char *)e->data)[len] = '\0';
	e->next = table[h % nbuckets];
	table[h % nbuckets] = e;
	nentries++;
	ret = e->data;
out:
	pthread_mutex_unlock(&lock);
	if (!ret)
		errno = ENOMEM;
	return ret;
}

const char *intern_str(const char *s)
{
	return s && *s ? intern(s, strlen(s)) : NULL;
}

const void *intern_mem(const void *p, size_t len)
{
	return len ? intern(p, len) : NULL;
}
