/*
 * rset_int.h - inside the set reader (rset*.c of bench/resultset/, and
 * reprofile.c, which reads an original set's manifest through it): the
 * JSON lookups the typed model is filled with.  Nothing outside this room
 * includes it: readers get the structs of rset.h.
 *
 * Every getter takes a possibly NULL or wrong-typed node and returns the
 * default then, so that a corrupt or hostile file reads as "absent".
 * Strings returned point into the tree.
 */
#ifndef IOMATRIX_RSET_INT_H
#define IOMATRIX_RSET_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "jsonread.h"
#include "rset.h"

const cJSON *rj_get(const cJSON *o, const char *key);
const char *rj_str(const cJSON *o, const char *key, const char *def);
/* A finite number, else def. */
double rj_num(const cJSON *o, const char *key, double def);
/* A positive number below 2^64, else 0. */
uint64_t rj_size(const cJSON *o, const char *key);
/* A number in [lo, hi], else def. */
int rj_int(const cJSON *o, const char *key, int def, int lo, int hi);
/* true/false as 1/0, else def. */
int rj_bool(const cJSON *o, const char *key, int def);
/* strdup of rj_str (NULL when absent or out of memory). */
char *rj_strdup(const cJSON *o, const char *key);

/*
 * The one reader of a set's JSON files (manifest.json, plan.json,
 * cells/NNNN.json): `name` relative to dirfd (AT_FDCWD: a path), read
 * bounded (RESULTSET_MAX_FILE_BYTES), never through a link, and parsed by
 * rset_parse_json into an object of a schema this iomatrix reads.  skip: a
 * top-level member left unparsed (NULL: none); hex (may be NULL): the
 * sha256 of the bytes read.  NULL with errno and why: ENOENT no file,
 * EFBIG too large, EBADMSG not JSON or not an object (why says which),
 * EPROTO a newer schema_version (why: it, "%g"), else the read's (why:
 * fsutil_strerror).  The caller owns the tree.
 */
cJSON *rset_file_read(int dirfd, const char *name, const char *skip, char hex[65],
		      char *why, size_t whylen);

/* A copy of s owned by rs (rs->strs); NULL when s is NULL or out of
 * memory. */
const char *rset_own(struct rset *rs, const char *s);
/* rset_own of o's string member key, else def (not copied). */
const char *rset_own_str(struct rset *rs, const cJSON *o, const char *key,
			 const char *def);
/* rs emptied, with the defaults of a set whose manifest says nothing
 * (status and host "unknown", source "iomatrix", scale 1, schema 1, no
 * cells_total), dir copied, shown too (NULL: dir): the one block of them.
 * 0, or -1 when out of memory. */
int rset_init(struct rset *rs, const char *dir, const char *shown);
/*
 * The one reader of manifest.json: `name` (relative to dirfd) through
 * rset_file_read (hex: the sha256 of its bytes, may be NULL), its members
 * into rs (rset_init'ed).  0, or -1 with errno and why as rset_file_read
 * says (ENOMEM: out of memory, rs partly filled).
 */
int rset_manifest_load(struct rset *rs, int dirfd, const char *name, char hex[65],
		       char *why, size_t whylen);
/* plan.json's members into rs: 0, or -1 when out of memory. */
int rset_plan_read(struct rset *rs, const cJSON *plan);
/* What those two and rset_own allocated. */
void rset_manifest_release(struct rset *rs);

/* A "percentiles" object (keys "50.000000": plain decimals in (0, 100],
 * as cellcheck.c admits them; finite values) into p and ns, ascending by
 * p, at most RSET_MAX_PCT of them; returns how many.  Other members are
 * passed over.  The cell's merged latency and each repetition's read it. */
size_t rset_pcts_read(const cJSON *pcts, double p[RSET_MAX_PCT], double ns[RSET_MAX_PCT]);

/* One repetition object (a cell's or a preconditioning pass's) into r:
 * 0, or -1 when out of memory (r holds what was read; release it). */
int rset_rep_read(const cJSON *rep, struct rset_rep *r);
/* A flat object (params, a fingerprint, the tool) into o: 0, or -1 when
 * out of memory.  Not an object: o is !present. */
int rset_obj_read(const cJSON *j, struct rset_obj *o);
/* A cell's "steady_state" object. */
void rset_cell_steady_read(const cJSON *ss, struct rset_cell_steady *s);

#endif
