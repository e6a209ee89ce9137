/*
 * key_ops.h - what a cell key of its own kind brings to the key table
 * (keys.h): its parsing and PARAMS JSON (struct key_ops, a KT_CUSTOM row's
 * .ops), its way of saying its value (key_text_fn, a row's .text), and
 * the callback through which it says its fio options (fio_map_emit).
 * qos_keys.c and word_keys.c define such keys and include this header,
 * not keys.h: the table in keys.c names their rows' ops and text
 * functions, and fio_map.c calls qos_fio_map(), so a header of either
 * would close a loop with them.  Types only.
 */
#ifndef IOMATRIX_KEY_OPS_H
#define IOMATRIX_KEY_OPS_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct cell;
struct sbuf;
struct ykit;
struct yaml_node_s;

/* A KT_CUSTOM key's own parsing and JSON (qos_keys.c has the examples). */
struct key_ops {
	size_t size;    /* bytes of the field */
	/* parse node n into out (size bytes): 0, or -1 with the error given
	 * through y (file:line:col) */
	int (*parse)(const struct ykit *y, struct yaml_node_s *n, void *out);
	/* the PARAMS value (caller owns it); only called off the default */
	cJSON *(*to_json)(const void *field);
	/* the reverse, into a zeroed field: 0, or -1 with err */
	int (*from_json)(const cJSON *v, void *field, char *err, size_t errlen);
};

/* How key_text() shows a value. */
enum key_text {
	KEY_TEXT_METHOD, /* the report's Method line: "yes (O_DIRECT)", "none" */
	KEY_TEXT_NOTE,   /* a title's note where the key is not at its default:
			  * "fixedbufs", "completions from 2"; nothing at it */
};

/* A key's own way to show its value (when the type's default way does not
 * say it well); appends to b, may append nothing. */
typedef void (*key_text_fn)(const struct cell *c, enum key_text how,
			    struct sbuf *b);

/* fio_map.h: called once per fio option, in job-file order; val is never
 * NULL. */
typedef void (*fio_map_emit)(void *arg, const char *key, const char *val);

#endif
