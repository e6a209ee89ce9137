/*
 * history_build.c - history.h's history_build(): an archive's sets, in
 * date order (each from the archive's index where it is current, archdb.h),
 * into a history, and the ones left out because they fail verification.  The command only parses its options and prints.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "util/cliopt.h"
#include "util/array.h"

/* Keep set s, which fails verification, in h->failed.  0, or -1 on OOM. */
static int failed_add(struct history *h, const struct arc_set *s)
{
	struct hist_failed *f = ARRAY_ADD(h->failed, h->nfailed);
	if (!f)
		return -1;
	f->set = strdup(s->name);
	f->path = strdup(s->path);
	f->problems = strdup(s->failed_why ? s->failed_why : "");
	return f->set && f->path && f->problems ? 0 : -1;
}

int history_build(struct history *h, char *const *dirs, size_t ndirs, bool all,
		  size_t *nfound, FILE *warnf, struct errlist *errs)
{
	struct arc_ref *refs = NULL;
	size_t nrefs = 0;
	int rc = EXIT_OK;

	struct arc_indexes ix = { 0 };
	*nfound = 0;
	size_t hidden = 0;
	if (arc_scan((char **)dirs, ndirs, all, &ix, &hidden, &refs, &nrefs, errs) < 0) {
		arc_indexes_close(&ix);
		arc_refs_free(refs, nrefs);
		return EXIT_USAGE;
	}
	arc_say_hidden(hidden);
	*nfound = nrefs;
	struct arc_stream *st = arc_stream_start(refs, nrefs);
	if (!st) {
		arc_refs_free(refs, nrefs);
		arc_indexes_close(&ix);
		return EXIT_RUNTIME;
	}
	struct arc_set set;
	int lrc;
	struct errlist e = ERRLIST_INIT, w = ERRLIST_INIT;
	while (arc_stream_next(st, &set, &lrc, &e, &w) == 0) {
		if ((lrc == 0 && set.failed_verify && failed_add(h, &set) < 0) ||
		    (lrc == 0 && history_add(h, &set) < 0)) {
			errlist_add(errs, NULL, 0, 0, "out of memory");
			rc = EXIT_RUNTIME;
		}
		arc_set_release(&set);
		arc_stream_warn(warnf, &e, &w);
		if (rc == EXIT_RUNTIME)
			break;
	}
	arc_stream_stop(st);
	arc_refs_free(refs, nrefs);
	arc_indexes_close(&ix);
	if (rc == EXIT_OK && history_finish(h, errs) < 0)
		rc = EXIT_USAGE;
	return rc;
}

void history_write_failed(const struct history *h, FILE *f)
{
	if (h->nfailed > 0)
		fprintf(f, "\nleft out: %zu set%s failing verification (SHA256SUMS):\n",
			h->nfailed, h->nfailed == 1 ? "" : "s");
	for (size_t i = 0; i < h->nfailed; i++)
		fprintf(f, "  %s: %s\n", h->failed[i].set, h->failed[i].problems);
}
