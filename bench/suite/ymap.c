/*
 * ymap.c - walk a YAML map of a suite (ymap.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ymap.h"

void ykit_err(const struct ykit *y, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (y->err)
		y->err(y->err_arg, YLINE(n), YCOL(n), msg);
	else
		errlist_add(y->errs, y->file, YLINE(n), YCOL(n), "%s", msg);
}

const char *ykit_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a map";
	default: return "a value";
	}
}

/* The earlier pair of n with the same scalar key as p, or NULL. */
static yaml_node_t *earlier_key(const struct ykit *y, yaml_node_t *n,
				yaml_node_pair_t *p, const char *key)
{
	for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++) {
		yaml_node_t *k2 = yaml_document_get_node(y->doc, q->key);
		if (k2 && k2->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k2->data.scalar.value, key))
			return k2;
	}
	return NULL;
}

int ymap_each(const struct ykit *y, yaml_node_t *n, const char *what,
	      ymap_pair_fn fn, void *arg)
{
	int rc = 0;

	if (n->type != YAML_MAPPING_NODE) {
		ykit_err(y, n, "%s must be a map of 'key: value', not %s", what,
			 ykit_kind(n));
		return -1;
	}
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start > YMAP_MAX_KEYS) {
		ykit_err(y, n, "%s has more than %d keys; no suite map needs that many",
			 what, YMAP_MAX_KEYS);
		return -1;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(y->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(y->doc, p->value);
		if (!kn || !vn)
			continue;
		if (kn->type != YAML_SCALAR_NODE) {
			ykit_err(y, kn, "a key in %s must be a name, not %s", what,
				 ykit_kind(kn));
			rc = -1;
			continue;
		}
		const char *key = (const char *)kn->data.scalar.value;
		yaml_node_t *k2 = earlier_key(y, n, p, key);
		if (k2) {
			ykit_err(y, kn, "duplicate key '%s' (first at line %u); keep one",
				 key, YLINE(k2));
			rc = -1;
			continue;
		}
		if (fn(y, key, kn, vn, arg) < 0)
			rc = -1;
	}
	return rc;
}
