/*
 * setlist.c - setlist.h: the archive at a glance (`iomatrix list`), one
 * entry per result set (setlist_entry.c), from the archive's index where
 * the set is unchanged since it was indexed (archdb.h), else from its
 * files; newest first.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "archdb.h"
#include "archdb_read.h"
#include "archdb_stamp.h"
#include "setlist.h"
#include "resultset/setwalk.h"
#include "resultset/sums.h"
#include "util/array.h"

static int entry_cmp(const void *a, const void *b)
{
	const struct setlist_entry *x = a, *y = b;
	bool xu = x->date[0] == '?', yu = y->date[0] == '?';
	if (xu != yu)
		return xu ? 1 : -1;           /* unknown dates last */
	int c = strcmp(y->date, x->date);   /* newest first; ISO dates sort */
	return c ? c : strcmp(x->path, y->path);
}


/* One set the walker found: listed, or (the repository's example and
 * reference sets, which are not the user's archive) counted as hidden
 * unless --all. */
static int list_one(const char *set, const char *rel, void *arg)
{
	struct setlist *l = arg;
	bool own = resultset_repo_own(rel);

	struct setlist_entry *q = array_grow(l->e, &l->alloc, l->n, sizeof(*q), 32);
	if (!q)
		return -ENOMEM;
	l->e = q;
	struct setlist_entry *e = &l->e[l->n];
	char dirs[ARC_DIRS_STAMP_MAX], *date = NULL;
	long long row = l->db && !(own && !l->all) && arc_dirs_stamp(set, dirs) == 0 ?
			archdb_current(l->db, rel, dirs, &date, NULL) : 0;
	free(date);
	int got = row > 0 ? archdb_list_entry(l->db, row, set, e) : 0;
	if (got < 0)
		return -ENOMEM;
	if (!got && setlist_entry_read(set, e) < 0)
		got = -1;
	bool ok = got >= 0 && e->path && e->date && e->status;
	if (ok && own && !l->all) {
		l->hidden++;
		ok = false;
	}
	if (ok)
		l->n++;
	else
		setlist_entry_release(e);
	return 0;
}

static int width(const struct setlist *l, size_t off, const char *head)
{
	size_t w = strlen(head);
	for (size_t i = 0; i < l->n; i++) {
		const char *s = *(char *const *)((const char *)&l->e[i] + off);
		if (s && strlen(s) > w)
			w = strlen(s);
	}
	return (int)w;
}

void setlist_write_json(const struct setlist *l, FILE *f)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < l->n; i++)
		cJSON_AddItemToArray(a, set_brief_json(&l->e[i].brief));
	char *s = a ? cJSON_Print(a) : NULL;
	if (s)
		fprintf(f, "%s\n", s);
	free(s);
	cJSON_Delete(a);
}

int setlist_scan(struct setlist *l, const char *dir, bool use_index)
{
	char why[256];
	if (use_index && archdb_open_read(dir, &l->db, why, sizeof(why)) < 0)
		fprintf(stderr, "iomatrix: warning: %s; reading every set\n", why);
	int e = resultset_walk(dir, 1, list_one, l);
	archdb_close(l->db);
	l->db = NULL;
	if (e < 0)
		return e;
	if (l->n > 1)
		qsort(l->e, l->n, sizeof(*l->e), entry_cmp);
	return 0;
}

void setlist_write_text(const struct setlist *l, const char *dir, FILE *f)
{
	if (l->n == 0) {
		fprintf(f, "no result sets in '%s' (make one with 'iomatrix run SUITE.yaml')\n", dir);
		if (l->hidden)
			fprintf(f, "%zu example and reference set%s of this repository not shown "
			       "(iomatrix list --all)\n", l->hidden, l->hidden == 1 ? "" : "s");
		return;
	}
	int wd = width(l, offsetof(struct setlist_entry, date), "DATE");
	int ws = width(l, offsetof(struct setlist_entry, suite), "SUITE");
	int wh = width(l, offsetof(struct setlist_entry, host), "HOST");
	int wv = width(l, offsetof(struct setlist_entry, devices), "DEVICES");
	int wa = width(l, offsetof(struct setlist_entry, scale), "SCALE");
	int wc = width(l, offsetof(struct setlist_entry, cells), "CELLS");
	int wt = width(l, offsetof(struct setlist_entry, status), "STATUS");
	/* names are never cut: a column is as wide as its longest entry */
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %*s  %-*s  %-*s  %s\n", wd, "DATE", ws, "SUITE", wh, "HOST",
	       wv, "DEVICES", wa, "SCALE", wc, "CELLS", wt, "STATUS", "PATH");
	for (size_t i = 0; i < l->n; i++) {
		const struct setlist_entry *x = &l->e[i];
		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %*s  %-*s  %-*s  %s\n", wd, x->date,
		       ws, x->suite, wh, x->host, wv, x->devices, wa, x->scale, wc, x->cells,
		       wt, x->status, x->path);
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->e[i].unverified)
			fprintf(f, "FAILS VERIFY: %s: %s (not the files its run wrote; "
			       "'iomatrix verify %s' lists them)\n", l->e[i].path, l->e[i].unverified,
			       l->e[i].path);
	if (l->hidden)
		fprintf(f, "(%zu example and reference set%s of this repository not shown: "
		       "iomatrix list --all)\n", l->hidden, l->hidden == 1 ? "" : "s");
}

void setlist_release(struct setlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		setlist_entry_release(&l->e[i]);
	free(l->e);
	memset(l, 0, sizeof(*l));
}
