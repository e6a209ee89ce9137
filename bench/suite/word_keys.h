/*
 * word_keys.h - cell keys whose value is one word of a short list:
 * model_dist (the model device's service-time distribution) and mem
 * (the IO buffers' memory, fio's iomem).  KT_CUSTOM rows of the key table
 * (keys.c); the word's index is the value, so the first word is the
 * default (all zero bytes).
 */
#ifndef IOMATRIX_WORD_KEYS_H
#define IOMATRIX_WORD_KEYS_H

#include "cell.h" /* enum mem_kind */
#include "key_ops.h"

extern const struct key_ops model_dist_ops, mem_ops;

/* key_text_fn of each (keys.h) */
void word_text_model_dist(const struct cell *c, enum key_text how, struct sbuf *b);
void word_text_mem(const struct cell *c, enum key_text how, struct sbuf *b);

/* "malloc", "mmaphuge" */
const char *mem_kind_name(enum mem_kind m);

#endif
