/*
 * setlist_entry.c - setlist.h's entry of one set, read from its manifest
 * through the typed reader (rset_load_manifest); a set still "running"
 * (or whose run was killed) counts the cell files in cells/ too, since its
 * manifest's index is written only when the run ends.  A corrupt manifest
 * is listed as such.  The archive's index stores the same entry
 * (archdb.h), so `list` reads it there when the set is unchanged.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "setlist_entry.h"
#include "render/render.h"
#include "resultset/cells.h"
#include "resultset/rset.h"
#include "resultset/sums.h"
#include "util/termesc.h"
#include "util/sbuf.h"
#include "util/freemany.h"

/* A string from a set, made inert for the terminal (util/termesc.h). */
static char *safe(const char *s)
{
	struct sbuf b = SBUF_INIT;
	termesc_append(&b, s ? s : "?");
	return sbuf_detach(&b);
}

/* One manifest index entry: a cell id and whether it failed. */
struct idx_cell {
	int id;
	bool failed;
};

static int idx_cmp(const void *a, const void *b)
{
	const struct idx_cell *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static bool idx_has(const struct idx_cell *idx, size_t n, int id)
{
	struct idx_cell key = { .id = id };
	return n && bsearch(&key, idx, n, sizeof(*idx), idx_cmp);
}

/*
 * Cells done and failed of the set at path with manifest m: the manifest's
 * index and the cell files in cells/ together.  A run writes the index
 * only when it ends, so while a set says "running" (or its run was
 * killed) its cells are the files on disk and each one's status is read
 * from it; once the run ended the index is the truth for the cells it
 * lists (list stays a manifest read on a big archive).  Returns the count
 * of index entries without a valid id.
 */
static int count_cells(const char *path, const struct rset *m, int *done, int *failed)
{
	bool running = !m->status_given || !strcmp(m->status, "running");
	struct idx_cell *idx = calloc(m->nindex + 1, sizeof(*idx));
	size_t nidx = 0;
	int bad = 0, *ids = NULL;
	size_t nids = 0;

	*done = *failed = 0;
	for (size_t i = 0; i < m->nindex; i++) {
		int id = m->index[i].id;
		const char *cs = m->index[i].status;
		if (id < 0) {
			bad++; /* not a cell: no id a set can hold */
			continue;
		}
		if (idx && !running)
			idx[nidx++] = (struct idx_cell){ id, cs && strcmp(cs, "ok") };
	}
	if (nidx > 1)
		qsort(idx, nidx, sizeof(*idx), idx_cmp);
	size_t k = 0; /* one count per id, however often the index lists it */
	for (size_t i = 0; i < nidx; i++)
		if (k == 0 || idx[k - 1].id != idx[i].id)
			idx[k++] = idx[i];
	nidx = k;
	for (size_t i = 0; i < nidx; i++) {
		(*done)++;
		*failed += idx[i].failed;
	}
	if (!idx && !running) { /* out of memory: the index alone */
		for (size_t i = 0; i < m->nindex; i++)
			if (m->index[i].id >= 0)
				(*done)++;
		return bad;
	}
	int setfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int cfd = setfd >= 0 ? resultset_cells_open(setfd) : -1;
	if (resultset_cells_list(cfd, &ids, &nids) == 0)
		for (size_t i = 0; i < nids; i++) {
			if (idx_has(idx, nidx, ids[i]))
				continue;
			int ok = resultset_cell_status_ok(cfd, ids[i]);
			if (ok < 0)
				continue; /* not a finished cell: the reader warns */
			(*done)++;
			*failed += !ok;
		}
	free(ids);
	free(idx);
	if (cfd >= 0)
		close(cfd);
	if (setfd >= 0)
		close(setfd);
	return bad;
}

int setlist_entry_read(const char *path, struct setlist_entry *e)
{
	return setlist_entry_read_known(path, -1, NULL, e);
}

int setlist_entry_read_known(const char *path, int verify, const char *known,
			     struct setlist_entry *e)
{
	char why[128];
	struct rset m;

	memset(e, 0, sizeof(*e));
	e->path = safe(path);
	int rc = rset_load_manifest(path, &m, why, sizeof(why));
	if (rc < 0 || m.schema_version > RESULTSET_SCHEMA_VERSION) {
		char st[200];
		if (rc < 0)
			snprintf(st, sizeof(st), "corrupt manifest (%s)", why);
		else
			snprintf(st, sizeof(st), "newer schema %g (upgrade iomatrix)",
				 m.schema_version);
		/* the directory name starts with the UTC date */
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		char d[32];
		snprintf(d, sizeof(d), "%.18s", base);
		e->date = safe(d);
		e->suite = safe("?");
		e->host = safe("?");
		e->devices = safe("?");
		e->scale = safe("?");
		e->cells = safe("?");
		e->status = safe(st);
		struct set_summary sm = { &m, -1, -1, -1, -1, NULL, st };
		int r = set_brief_fill(&sm, &e->brief);
		rset_release(&m);
		return r;
	}
	const char *kind = rset_obj_str(&m.source, "kind");
	struct sbuf b = SBUF_INIT;
	int done = 0, failed = 0;

	e->date = safe(m.started_at);
	e->suite = safe(m.suite_name);
	if (m.fleet.present) { /* run --hosts: "fleet:3" (the controller is not the host) */
		char fh[48];
		snprintf(fh, sizeof(fh), "fleet:%zu", m.fleet.nhosts);
		e->host = safe(fh);
	} else {
		e->host = safe(rset_obj_str(&m.host, "hostname"));
	}
	for (size_t i = 0; i < m.ndevices; i++)
		sbuf_addf(&b, "%s%s", b.len ? "," : "", m.devices[i].name);
	e->devices = safe(b.len ? sbuf_str(&b) : "?");
	sbuf_reset(&b);
	sbuf_addf(&b, "%g", m.scale);
	e->scale = safe(sbuf_str(&b));
	sbuf_reset(&b);
	int bad = count_cells(path, &m, &done, &failed);
	/* numbers from a set are checked before they become ints: 1e400 or
	 * -5 would otherwise print as -2147483648 or "8/-5" */
	int total = m.manifest_cells_total == -1 ? done :
		    m.manifest_cells_total < 0 ? -1 : m.manifest_cells_total;
	if (total >= 0)
		sbuf_addf(&b, "%d/%d", done, total);
	else
		sbuf_addf(&b, "%d/? (bad cells_total)", done);
	if (failed)
		sbuf_addf(&b, " (%d failed)", failed);
	if (bad)
		sbuf_addf(&b, " (%d bad index entr%s)", bad, bad == 1 ? "y" : "ies");
	e->cells = safe(sbuf_str(&b));
	sbuf_reset(&b);
	sbuf_adds(&b, m.status_given ? m.status : "?");
	if (kind && strcmp(kind, "iomatrix"))
		sbuf_addf(&b, " (%s)", kind);
	/* a running set has no SHA256SUMS yet; one without any (older sets)
	 * is accepted as it is */
	char *problems = NULL;
	int state = -1;
	if (!m.status_given || strcmp(m.status, "running")) {
		if (verify >= 0) {
			state = verify;
			problems = known ? strdup(known) : NULL;
		} else {
			state = sums_verify_dir(path, SUMS_SET, &problems);
		}
		if (state == SUMS_FAILED) {
			sbuf_adds(&b, ", FAILS VERIFY");
			e->unverified = safe(problems);
		}
	}
	e->status = safe(sbuf_str(&b));
	sbuf_release(&b);
	struct set_summary sm = { &m, done, failed, total, state,
				  state == SUMS_FAILED ? problems : NULL, NULL };
	int r = set_brief_fill(&sm, &e->brief);
	free(problems);
	rset_release(&m);
	return r;
}

void setlist_entry_release(struct setlist_entry *e)
{
	FREE_MANY(e->date, e->suite, e->host, e->devices, e->scale, e->cells, e->status, e->path,
		  e->unverified);
	set_brief_release(&e->brief);
}

