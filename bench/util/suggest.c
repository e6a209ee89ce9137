/*
 * suggest.c - edit distance and did-you-mean (suggest.h).  Three rolling
 * rows instead of a matrix: labels are up to 96 characters, and a suite
 * with many unknown keys asks often.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "suggest.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

static int same(char x, char y)
{
	return tolower((unsigned char)x) == tolower((unsigned char)y);
}

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = !same(a[i - 1], b[j - 1]);
			size_t v = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

const char *suggest_word(const char *word, const char *const *words)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX, len = strlen(word), limit = len <= 4 ? 1 : 2;

	for (size_t i = 0; words[i]; i++) {
		size_t d = suggest_distance(word, words[i]);
		if (d < bestd) {
			bestd = d;
			best = words[i];
		}
	}
	return best && bestd <= limit && bestd < len ? best : NULL;
}
