/*
 * ymap.h - the one walker of a YAML map in a suite, used by the suite
 * loader (suite_parse.c) and the SNIA PTS keys (ssd_keys.c): the value must be a
 * map, of at most YMAP_MAX_KEYS keys, each a name and given once.
 *
 * libyaml boundary: nodes belong to y->doc; the key string handed to the
 * callback points into it and is valid only during the call.
 */
#ifndef IOMATRIX_YMAP_H
#define IOMATRIX_YMAP_H

#include <stdbool.h>

#include <yaml.h>

#include "util/errlist.h"

/* No map of a suite has more keys than the key table; devices and exclude
 * entries are compared pairwise, so the bound keeps validation fast on
 * hostile input. */
#define YMAP_MAX_KEYS 64

#define YLINE(n) ((unsigned)(n)->start_mark.line + 1)
#define YCOL(n) ((unsigned)(n)->start_mark.column + 1)

/* What a parser of a suite's YAML needs: the document, where errors go
 * and the file name they carry.  err, when set, receives every error
 * instead of errs (the loader dedups and caps them there). */
struct ykit {
	yaml_document_t *doc;
	struct errlist *errs;
	const char *file;
	void (*err)(void *err_arg, unsigned line, unsigned col, const char *msg);
	void *err_arg;
};

/* Report an error at node n through y (file:line:col). */
void ykit_err(const struct ykit *y, const yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "a list", "a map" or "a value", for messages. */
const char *ykit_kind(const yaml_node_t *n);

/* Called for each pair with a good key; returns -1 when it reported an
 * error, else 0. */
typedef int (*ymap_pair_fn)(const struct ykit *y, const char *key,
			    yaml_node_t *kn, yaml_node_t *vn, void *arg);

/*
 * Walk the map n, which `what` names in messages ("'defaults'", "a
 * device").  Not a map, or more than YMAP_MAX_KEYS keys: an error and -1
 * without a call.  A key that is not a name, or repeats an earlier one: an
 * error, and the pair is skipped.  Returns 0 when neither the walker nor a
 * callback reported an error, else -1.
 */
int ymap_each(const struct ykit *y, yaml_node_t *n, const char *what,
	      ymap_pair_fn fn, void *arg);

#endif
