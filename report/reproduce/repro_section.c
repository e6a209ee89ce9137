/*
 * repro_section.c - repro_section.h: the report's reproduction section.
 */
#include "repro_section.h"

#include <stdlib.h>
#include <string.h>

#include "resultset/reprofile.h"

static int add_pair(struct report *r, size_t orig, size_t rep, double tol)
{
	struct repro_report *rr = r->repro;
	struct repro *np = realloc(rr->p, (rr->n + 1) * sizeof(*np));
	if (!np)
		return -1;
	rr->p = np;
	if (repro_judge(r, orig, rep, tol, &rr->p[rr->n]) < 0)
		return -1;
	char *s = repro_sentence(&rr->p[rr->n]);
	rr->n++;
	if (s && r->nsets > 2) { /* which pair, when there could be several */
		char *t = fmt_str("%s (reproducing %s): %s", r->sets[rep].shown, r->sets[orig].shown, s);
		free(s);
		s = t;
	}
	if (!s)
		return -1;
	report_summary_add(r, s);
	return 0;
}

int repro_section_load(struct report *r)
{
	if (!(r->repro = calloc(1, sizeof(*r->repro))))
		return -1;
	for (size_t j = 0; j < r->nsets; j++) {
		const struct rset_reproduces *rp = &r->sets[j].reproduces;
		bool found = false;
		if (!rp->present)
			continue;
		for (size_t i = 0; i < r->nsets; i++) {
			if (i == j || !repro_of(r, i, j))
				continue;
			found = true;
			if (add_pair(r, i, j, rp->tolerance_pct > 0 ? rp->tolerance_pct :
					 REPRO_DEFAULT_TOLERANCE_PCT) < 0)
				return -1;
		}
		if (!found)
			report_warn(r, "Set %s reproduces set %s (manifest sha256 %.12s), which this "
				    "report does not include: give both to see the verdicts "
				    "(iomatrix report ORIGINAL %s).", r->sets[j].shown, rp->set,
				    rp->manifest_sha256, r->sets[j].shown);
	}
	return 0;
}

void repro_section_release(struct report *r)
{
	if (!r->repro)
		return;
	for (size_t i = 0; i < r->repro->n; i++)
		repro_release(&r->repro->p[i]);
	free(r->repro->p);
	free(r->repro);
	r->repro = NULL;
}

void repro_section_context(const struct report *r, const struct chart_set *cs,
			   bool html, cJSON *ctx)
{
	(void)cs, (void)html;
	if (!r->repro || !r->repro->n)
		return;
	cJSON *a = cJSON_AddArrayToObject(ctx, "reproduction");
	for (size_t i = 0; a && i < r->repro->n; i++) {
		cJSON *o = repro_context(&r->repro->p[i], r);
		if (o)
			cJSON_AddItemToArray(a, o);
	}
}
