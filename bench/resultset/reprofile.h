/*
 * reprofile.h - the reproduction parts of a result set (results/README.md,
 * "Reproductions"): the manifest's "reproduces" object, which names the
 * set a reproduction re-ran by its id and by the sha256 of its
 * manifest.json, and reading an original set the way `iomatrix reproduce`
 * needs it (its manifest bytes and hash, its suite.yaml checked against
 * the manifest's suite sha256).  The verdicts are computed by whoever reads
 * both sets (report/reproduce/repro.h); only the JSON lives here.
 *
 * Functions return 0 or -errno with a message in err (lower-case, subject
 * quoted).
 */
#ifndef IOMATRIX_REPROFILE_H
#define IOMATRIX_REPROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "rset.h"

/* The manifest's "reproduces": {"set", "manifest_sha256", "path",
 * "tolerance_pct"}, as written (the reader, rset_manifest.c, gives struct
 * rset_reproduces). */
struct reproduces {
	const char *set;              /* the original's id: its directory name */
	const char *manifest_sha256;  /* of the original's manifest.json bytes */
	const char *path;             /* where it was read from, as given */
	double tolerance_pct;         /* the --tolerance judged by (0: none
				       * recorded, use the default) */
};

/* Add r to manifest m (strings copied).  0 or -ENOMEM. */
int reprofile_add(cJSON *m, const struct reproduces *r);

/* An original set as read for a reproduction: owned by the struct, free
 * with reprofile_original_release(). */
struct repro_original {
	char *dir;                    /* as given */
	char id[256];                 /* the directory's name */
	/* its manifest.json, typed (rset.h: no cells, no plan): the suite's
	 * sha256 (64 hex digits once opened), the devices, status, scale,
	 * source kind */
	struct rset manifest;
	char manifest_sha256[65];     /* of the bytes read */
	char suite_path[4096];        /* DIR/suite.yaml */
};

/* Read dir's manifest (the one reader: bounded, no links, a schema this
 * iomatrix reads) and check that its suite.yaml hashes to the manifest's
 * suite sha256.  0, or -errno (-EINVAL: the suite differs, the manifest
 * lacks one, or is no manifest of ours) with err set. */
int reprofile_original_open(struct repro_original *o, const char *dir,
			    char *err, size_t errlen);
void reprofile_original_release(struct repro_original *o);

#endif
