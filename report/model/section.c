/*
 * section.c - section.h: what the model, the optional sections and the
 * renderer share without calling each other: the chart list, a device's
 * fingerprint from the sections, and the two fleet fields of a set that
 * the model needs to tell devices apart.
 */
#include "section.h"
#include "util/freemany.h"

#include <stdlib.h>
#include <string.h>

void chart_set_release(struct chart_set *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		FREE_MANY(cs->c[i].file, cs->c[i].title, cs->c[i].svg);
	FREE_MANY(cs->c, cs->note);
	memset(cs, 0, sizeof(*cs));
}

void *report_per_entry(const struct report *r, size_t size)
{
	size_t n = 0;
	for (size_t g = 0; g < r->ngroups; g++)
		n += r->groups[g].n;
	return calloc(n ? n : 1, size);
}

const struct rset_obj *report_dev_fp(const struct report *r, const struct rdev *d,
				     const char **path)
{
	for (size_t i = 0; r->sections[i]; i++) {
		const struct rset_obj *fp;
		if (r->sections[i]->dev_fp &&
		    (fp = r->sections[i]->dev_fp(r, d, path)) != NULL)
			return fp;
	}
	return NULL;
}

const char *report_cell_host(const struct rset_cell *c)
{
	return c->host;
}

const struct rset_fleet *report_set_fleet(const struct rset *rs)
{
	return rs->fleet.present ? &rs->fleet : NULL;
}

bool report_same_host(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}
