/*
 * site_repro.c - site.h's site_repro_links(): the index links each original
 * set to the sets that reproduce it (their manifest's "reproduces" names
 * the original's directory name and the sha256 of its manifest.json), each
 * with its verdict, and each reproduction back to its original.  The
 * verdicts are repro.h's, computed from the two sets' own repetitions at
 * the tolerance the reproduction recorded: the few pairs an archive has are
 * loaded in full, the rest of the site reads summaries only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "reproduce/repro.h"
#include "resultset/reprofile.h"
#include "resultset/rset.h"
#include "site.h"

/* "reproduced", or "not reproduced: 1 slower, 2 inconclusive" (cls "same"
 * or "worse"); 0, or -1 when the two sets cannot be loaded. */
static int pair_verdict(const char *orig, const char *rep, double tol, char *buf,
			size_t len, const char **cls)
{
	static const char *const labels[2] = { "original", "reproduction" };
	char *dirs[2] = { (char *)orig, (char *)rep };
	struct errlist errs = ERRLIST_INIT;
	struct report r;
	struct repro p;
	int ret = -1;

	/* the verdict alone: no optional section is loaded */
	if (report_load_labelled(&r, dirs, 2, labels, NULL, &errs) == 0 &&
	    repro_judge(&r, 0, 1, tol, &p) == 0) {
		if (p.n && p.count[RV_SAME] == p.n) {
			snprintf(buf, len, "reproduced within ±%g %%", tol);
			*cls = "same";
		} else {
			size_t o = (size_t)snprintf(buf, len, "not reproduced within ±%g %%:", tol);
			for (int v = 0; v < RV__N && o < len; v++)
				if (v != RV_SAME && p.count[v])
					o += (size_t)snprintf(buf + o, len - o, " %zu %s,", p.count[v],
							      repro_verdict_words[v]);
			if (o < len && buf[o - 1] == ',')
				buf[o - 1] = '\0';
			*cls = repro_missed(&p) ? "worse" : "few";
		}
		repro_release(&p);
		ret = 0;
	}
	report_release(&r);
	errlist_release(&errs);
	return ret;
}

/* Index of the set named name whose manifest.json hashes to sha, or
 * SIZE_MAX. */
static size_t find_original(const struct site *s, const char *name, const char *sha)
{
	for (size_t i = 0; i < s->nsets; i++) {
		char path[4200], hex[65];
		size_t len;
		if (strcmp(s->sets[i].name, name))
			continue;
		snprintf(path, sizeof(path), "%s/manifest.json", s->sets[i].path);
		char *buf = fsutil_read(path, RESULTSET_MAX_FILE_BYTES, &len);
		if (!buf)
			continue;
		sha256_hex(buf, len, hex);
		free(buf);
		if (!strcmp(hex, sha))
			return i;
	}
	return SIZE_MAX;
}

int site_repro_links(const struct site *s, cJSON *const *rows)
{
	/* each original's "reproductions", made at its first reproduction */
	cJSON **lists = calloc(s->nsets ? s->nsets : 1, sizeof(*lists));
	if (!lists)
		return -1;
	for (size_t i = 0; i < s->nsets; i++) {
		char why[256], verdict[256];
		const char *cls = "few";
		struct rset m;
		int rc = rset_load_manifest(s->sets[i].path, &m, why, sizeof(why));
		const struct rset_reproduces *rp = &m.reproduces;
		size_t o;
		if (rc < 0 || !rp->present ||
		    (o = find_original(s, rp->set, rp->manifest_sha256)) == SIZE_MAX) {
			rset_release(&m);
			continue;
		}
		double tol = rp->tolerance_pct > 0 ? rp->tolerance_pct : REPRO_DEFAULT_TOLERANCE_PCT;
		rset_release(&m);
		const struct site_set *bad = s->sets[o].failed_why ? &s->sets[o] :
					     s->sets[i].failed_why ? &s->sets[i] : NULL;
		if (bad) /* its numbers are not on the site: no verdict from them */
			snprintf(verdict, sizeof(verdict), "not judged: %s fails verification",
				 bad->name);
		else if (pair_verdict(s->sets[o].path, s->sets[i].path, tol, verdict,
				      sizeof(verdict), &cls) < 0)
			snprintf(verdict, sizeof(verdict), "not judged: a set cannot be read");
		cJSON *rr = rows[i];
		if (!lists[o])
			lists[o] = cJSON_AddArrayToObject(rows[o], "reproductions");
		cJSON *a = lists[o];
		cJSON *x = cJSON_CreateObject(), *y = cJSON_CreateObject();
		if (!a || !x || !y) {
			cJSON_Delete(x);
			cJSON_Delete(y);
			free(lists);
			return -1;
		}
		char href[300];
		snprintf(href, sizeof(href), "sets/%s/report.html", s->sets[i].slug);
		cJSON_AddStringToObject(x, "href", href);
		cJSON_AddStringToObject(x, "name", s->sets[i].name);
		cJSON_AddStringToObject(x, "verdict", verdict);
		cJSON_AddStringToObject(x, "cls", cls);
		cJSON_AddItemToArray(a, x);
		snprintf(href, sizeof(href), "sets/%s/report.html", s->sets[o].slug);
		cJSON_AddStringToObject(y, "href", href);
		cJSON_AddStringToObject(y, "name", s->sets[o].name);
		cJSON_AddStringToObject(y, "verdict", verdict);
		cJSON_AddStringToObject(y, "cls", cls);
		cJSON_AddItemToObject(rr, "reproduces", y);
	}
	free(lists);
	return 0;
}
