/*
 * word_keys.c - the one-word keys (word_keys.h): parsing, PARAMS JSON and
 * text from one list of words per key.
 */
#include <stdio.h>
#include <string.h>

#include "util/sbuf.h"
#include "word_keys.h"
#include "ymap.h"

struct words {
	const char *key;
	const char *const *w;
	unsigned n;
};

static const char *const dist_words[] = { "fixed", "exponential", "uniform" };
static const char *const mem_words[] = { "malloc", "mmaphuge" };
static const struct words dist = { "model_dist", dist_words, 3 };
static const struct words mem = { "mem", mem_words, 2 };
_Static_assert(sizeof(enum model_dist) == sizeof(unsigned) &&
	       sizeof(enum mem_kind) == sizeof(unsigned), "words are stored as unsigned");

static int words_find(const struct words *ws, const char *v, unsigned *out)
{
	for (unsigned i = 0; v && i < ws->n; i++)
		if (!strcmp(v, ws->w[i])) {
			*out = i;
			return 0;
		}
	return -1;
}

static void words_list(const struct words *ws, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < ws->n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
				      i == 0 ? "" : i + 1 == ws->n ? " or " : ", ", ws->w[i]);
}

static int words_parse(const struct words *ws, const struct ykit *y, yaml_node_t *n,
		       void *out)
{
	const char *v = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
						    : NULL;
	unsigned i;
	if (words_find(ws, v, &i) < 0) {
		char list[128];
		words_list(ws, list, sizeof(list));
		ykit_err(y, n, "'%s' must be %s, not %s", ws->key, list,
			 v ? v : ykit_kind(n));
		return -1;
	}
	memcpy(out, &i, sizeof(i));
	return 0;
}

static cJSON *words_to_json(const struct words *ws, const void *f)
{
	unsigned i;
	memcpy(&i, f, sizeof(i));
	return cJSON_CreateString(i < ws->n ? ws->w[i] : "?");
}

static int words_from_json(const struct words *ws, const cJSON *v, void *f,
			   char *err, size_t errlen)
{
	unsigned i;
	if (!cJSON_IsString(v) || words_find(ws, v->valuestring, &i) < 0) {
		char list[128];
		words_list(ws, list, sizeof(list));
		snprintf(err, errlen, "'%s' must be %s", ws->key, list);
		return -1;
	}
	memcpy(f, &i, sizeof(i));
	return 0;
}

#define WORD_OPS(name, ws)                                                          \
	static int name##_yparse(const struct ykit *y, yaml_node_t *n, void *out)     \
	{ return words_parse(&ws, y, n, out); }                                      \
	static cJSON *name##_to_json(const void *f) { return words_to_json(&ws, f); } \
	static int name##_from_json(const cJSON *v, void *f, char *err, size_t len)  \
	{ return words_from_json(&ws, v, f, err, len); }                            \
	const struct key_ops name##_ops = { sizeof(unsigned), name##_yparse,          \
					    name##_to_json, name##_from_json }

WORD_OPS(model_dist, dist);
WORD_OPS(mem, mem);

void word_text_model_dist(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (how == KEY_TEXT_METHOD || c->model.dist != MODEL_FIXED)
		sbuf_addf(b, "%s service times", dist_words[c->model.dist < 3 ? c->model.dist : 0]);
}

const char *mem_kind_name(enum mem_kind m)
{
	return (unsigned)m < 2 ? mem_words[m] : "?";
}

/* said only when huge pages were asked for: the default reads as before */
void word_text_mem(const struct cell *c, enum key_text how, struct sbuf *b)
{
	if (c->mem == MEM_MMAPHUGE)
		sbuf_adds(b, how == KEY_TEXT_METHOD ? "huge pages (mem: mmaphuge)"
			  : "huge-page buffers");
	else if (how == KEY_TEXT_METHOD)
		sbuf_adds(b, "4K pages (malloc, as fio's default)");
}
