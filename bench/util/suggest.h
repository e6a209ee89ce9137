/*
 * suggest.h - "did you mean": the one edit distance of iomatrix and the one
 * rule for when a near word is worth suggesting, so every message that
 * offers a fix ("unknown key 'iodepht' (did you mean 'iodepth'?)") agrees.
 */
#ifndef IOMATRIX_SUGGEST_H
#define IOMATRIX_SUGGEST_H

#include <stddef.h>

/* Longest word compared; longer ones are never near anything. */
#define SUGGEST_MAX_LEN 128

/* Optimal string alignment distance between a and b: an insertion, a
 * deletion, a substitution or the swap of two neighbours ("iodepht") each
 * cost 1, letters compare without case.  SIZE_MAX when either is longer
 * than SUGGEST_MAX_LEN. */
size_t suggest_distance(const char *a, const char *b);

/* The word of `words` (NULL-terminated) nearest to `word` when it is near
 * enough to be what was meant: at most 1 edit for a word of up to 4
 * characters, 2 for a longer one, and fewer edits than the word has
 * characters.  NULL when none is.  Returns a pointer into words. */
const char *suggest_word(const char *word, const char *const *words);

#endif
