/*
 * suite_int.h - inside the suite loader: the context its rooms share
 * (suite_load.c, suite_parse.c, suite_value.c, suite_expand.c,
 * suite_check.c).
 * Not for use outside bench/suite/.  Errors go through err_at() into the
 * context's errlist; parsers keep going so that all errors of a file are
 * reported in one pass.
 */
#ifndef IOMATRIX_SUITE_INT_H
#define IOMATRIX_SUITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "keys.h"
#include "ssd_keys.h"
#include "suite.h"
#include "ymap.h"

/* A "billion laughs" file is small but its aliases expand to billions of
 * nodes.  We walk the document once, counting every node visit through
 * aliases, and give up past the document's own nodes plus this bound. */
#define SUITE_MAX_ALIAS_NODES 10000
#define SUITE_MAX_DEPTH 32
/* Enumerating the raw product to apply `exclude` is cheap, but not forever. */
#define SUITE_MAX_RAW_PRODUCT 1000000ULL
/* Devices and exclude entries are compared pairwise, so bound them to keep
 * validation fast on hostile input (maps: YMAP_MAX_KEYS). */
#define SUITE_MAX_DEVICES 256
#define SUITE_MAX_EXCLUDES 64
#define SUITE_MAX_ERRORS 200

/* One parsed value of a key, with where it was written. */
struct kval {
	uint64_t u;      /* pattern, sizes, numbers, bools, durations, data kind */
	double pct;      /* KT_SIZE_PCT/KT_OFFSET: >0 percent; KT_DATA: compress % */
	const char *s;   /* engine, label, exclude device: owned by the ctx
			  * (ctx_str); cpulist, random_distribution: interned
			  * (util/intern.h) or ""; NULL for the other types; a
			  * matrix of 100,000 numbers carries no string room */
	const struct steady_rule *ss; /* KT_STEADY, owned by the ctx */
	const void *blob;  /* KT_CUSTOM: ops->size bytes, owned by the ctx */
	unsigned line, col;
};

/* A set of key values (defaults, a device, an include entry). */
struct pset {
	uint64_t set;            /* bit k: cell_keys[k] given */
	struct kval v[NKEYS];
};

struct mvals {                   /* one matrix key, or one exclude key */
	int key;                 /* index in cell_keys[], or -1: device (exclude) */
	struct kval *vals;
	size_t n;
	unsigned line, col;
};

struct dev {
	struct suite_device d;
	bool has_path;
	bool named;          /* a name was given (maybe a bad one) */
	struct pset ps;
	unsigned line, col;
	unsigned path_line, path_col; /* 0: from --device */
};

struct excl {
	struct mvals *m;
	size_t n;
};

struct incl {
	struct pset ps;
	unsigned line, col;
	/* device: the devices the entry runs on (ctx_str), checked once every
	 * device is known; none given: every device */
	const char **devs;
	size_t ndevs;
	unsigned dline, dcol;
};

/* Where a key that only matters for some cells was given, and whether any
 * cell it reached could use it (rwmixread on a mixed pattern, fsync on a
 * writing one). */
struct usage {
	int key;
	unsigned line, col;
	bool used;
};

struct ctx {
	char **strs;         /* the strings of kvals (ctx_str), freed at release */
	size_t nstrs, astrs;
	const char *file;
	struct errlist *errs;
	unsigned nerrs_start;
	bool too_many;
	yaml_document_t *doc;
	struct suite *s;
	struct pset defaults;
	struct dev *devs;
	size_t ndevs;
	struct mvals *matrix;
	size_t nmatrix;
	unsigned matrix_line, matrix_col;
	bool have_matrix;
	struct excl *excl;
	size_t nexcl;
	struct incl *incl;
	size_t nincl;
	bool have_suite, have_devices;
	struct kval top_keep;      /* top-level keep_files, merged into defaults */
	bool have_top_keep;
	/* Parsing found errors: still check the cells that parsed, so every
	 * mistake is reported in one pass, but stay quiet about conclusions
	 * drawn from missing pieces (no pattern, empty matrix). */
	bool partial;
	struct usage *usage;
	size_t nusage, ausage;
	struct track_pos *track_pos; /* rounds: where each track was written */
};

struct pos {
	unsigned line[NKEYS], col[NKEYS]; /* 0: default */
};

struct srcpos {
	unsigned line, col;
};

/* line and column of a node, 1-based (ymap.h) */
#define NLINE(n) YLINE(n)
#define NCOL(n) YCOL(n)

/* Walk a map (ymap_each) with a callback of the loader's own kind. */
typedef void (*pair_fn)(struct ctx *x, const char *key, yaml_node_t *kn,
			yaml_node_t *vn, void *arg);

/* suite_ctx.c: calls no other file of the loader */
/* Add one error at a position; identical messages (one problem reached by
 * many cells) are reported once, and past SUITE_MAX_ERRORS none. */
void err_at(struct ctx *x, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* true once this file has any error */
bool has_errors(const struct ctx *x);
/* " (did you mean 'x'?)" for the nearest of words (suggest.h), or "" */
void suite_suggest(const char *word, const char *const *words, char *buf, size_t len);
/* A scalar node's text (owned by the document). */
const char *suite_scalar(const yaml_node_t *n);
/* True if the scalar is a plain (unquoted) YAML null: ~, null, or empty. */
bool suite_is_null(const yaml_node_t *n);
/* The shared YAML helpers' view of x; their errors go through err_at. */
struct ykit ctx_ykit(struct ctx *x);
/* A copy of v owned by x (freed with it). */
const char *ctx_str(struct ctx *x, const char *v);
/* A copy of the n bytes at v owned by x (freed with it), NULL when out of
 * memory. */
const char *ctx_str_n(struct ctx *x, const void *v, size_t n);

/* suite_parse.c */
/* Count node visits through aliases; false once past limit or too deep. */
bool count_nodes(struct ctx *x, yaml_node_t *n, unsigned depth, size_t *count,
		 size_t limit);
/* Walk the map n (ymap_each) calling fn for each good pair; false when n
 * is not a map or has too many keys (error given). */
bool each_pair(struct ctx *x, yaml_node_t *n, const char *what, pair_fn fn,
	       void *arg);
/* One top-level key of the suite, for each_pair on the document root. */
void top_pair(struct ctx *x, const char *key, yaml_node_t *kn, yaml_node_t *vn,
	      void *arg);

/* suite_value.c */
/* "4 KiB"-style size for messages. */
void suite_fmt_size(uint64_t v, char *buf, size_t len);
/* Parse node n as a value of key k into out: 0, or -1 with the error given. */
int value_parse(struct ctx *x, int k, yaml_node_t *n, struct kval *out);
/* Store a parsed value of key k into cell c. */
void value_apply(int k, const struct kval *v, struct cell *c);
/* True when cell c holds value v of key k (exclude entries). */
bool value_matches(int k, const struct kval *v, const struct cell *c);

/* suite_check.c */
/* Why key k, given but used by no cell it reaches, is an error. */
void usage_text(int k, char *buf, size_t len);
/* The checks of one resolved cell that involve several keys; p: where each
 * key was given, fl:fc where the cell came from. */
void cell_check(struct ctx *x, const struct cell *c, const struct pos *p,
		unsigned fl, unsigned fc);
/* Identical cells of the expanded suite are an error at their source. */
void duplicates_check(struct ctx *x, const struct srcpos *src);

/* suite_expand.c */
/* Expand the matrix into x->s->cells (cartesian product minus exclude,
 * plus include), check every cell and apply --scale. */
void suite_expand(struct ctx *x, const struct suite_opts *opts);

#endif
