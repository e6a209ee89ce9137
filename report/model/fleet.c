/*
 * fleet.c - fleet.h: the report's fleet additions to the model: its
 * devices' fingerprints, its title and its summary sentences (per workload
 * the hosts' range, or their sum).  The Fleet section's text and tables
 * are render/fleet_out.c's.
 */
#include "fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "section.h"

const struct rset_obj *fleet_dev_fp(const struct report *r, const struct rdev *d,
				    const char **path)
{
	const struct rset_fleet *fl = report_set_fleet(&r->sets[d->set]);

	if (!fl || !d->host || !strcmp(d->host, "all"))
		return NULL;
	for (size_t i = 0; i < fl->nhosts; i++) {
		const struct rset_fleet_host *h = &fl->hosts[i];
		if (!h->name || strcmp(h->name, d->host))
			continue;
		for (size_t k = 0; k < h->ndevices; k++) {
			const struct rset_fleet_dev *dv = &h->devices[k];
			if (!dv->name || strcmp(dv->name, d->name))
				continue;
			if (path)
				*path = dv->path;
			return dv->fp.present ? &dv->fp : NULL;
		}
	}
	return NULL;
}

char *fleet_title(const struct rset *rs)
{
	const struct rset_fleet *fl = report_set_fleet(rs);
	if (!fl)
		return NULL;
	const char *mode = fl->mode;
	size_t n = fl->nhosts;
	char buf[256];

	snprintf(buf, sizeof(buf), "%s: %s of %zu host%s", rs->suite_name ? rs->suite_name : "fleet",
		 mode && !strcmp(mode, "aggregate") ? "aggregate load" : "survey", n,
		 n == 1 ? "" : "s");
	return strdup(buf);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#define SUMMARY_GROUPS 6

/* Survey: "On 4K random reads, scratch on the 3 hosts ranged from 98,500
 * IOPS (h1) to 146,000 (h2), median 124,000." */
static char *survey_sentence(const struct report *r, const struct rgroup *g)
{
	const char *lo_h = NULL, *hi_h = NULL, *dev = NULL;
	double lo = 0, hi = 0, v[256];
	size_t n = 0;
	char a[32], b[32], c[32], buf[512];

	for (size_t k = 0; k < g->n && n < 256; k++) {
		const struct rdev *d = &r->devs[g->e[k].dev];
		if (!d->host || !g->e[k].cell->ok || (dev && strcmp(dev, d->name)))
			continue;
		dev = d->name;
		double x = rentry_iops(&g->e[k]);
		if (!n || x < lo) {
			lo = x;
			lo_h = d->host;
		}
		if (!n || x > hi) {
			hi = x;
			hi_h = d->host;
		}
		v[n++] = x;
	}
	if (n < 2)
		return NULL;
	qsort(v, n, sizeof(*v), cmp_dbl);
	fmt_sig3(lo, a, sizeof(a));
	fmt_sig3(hi, b, sizeof(b));
	fmt_sig3(n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, c, sizeof(c));
	snprintf(buf, sizeof(buf), "On %s, %s on the %zu hosts ranged from %s IOPS (%s) to %s (%s), median %s.",
		 g->words, dev, n, a, lo_h, b, hi_h, c);
	return strdup(buf);
}

/* Aggregate: "On 4K random reads, the 3 hosts together did 8,950,000
 * IOPS and 36,700 MB/s (h1 2,900,000, h2 ..., h3 ...)." */
static char *aggregate_sentence(const struct report *r, const struct rgroup *g)
{
	char buf[768], a[32], b[32];
	size_t used = 0;
	const struct rentry *all = NULL;
	size_t n = 0;

	for (size_t k = 0; k < g->n; k++)
		if (r->devs[g->e[k].dev].host && !strcmp(r->devs[g->e[k].dev].host, "all") &&
		    g->e[k].cell->ok)
			all = &g->e[k];
	if (!all)
		return NULL;
	for (size_t k = 0; k < g->n; k++)
		n += r->devs[g->e[k].dev].host && g->e[k].cell->ok && &g->e[k] != all;
	fmt_iops(rentry_iops(all), a, sizeof(a));
	fmt_sig3(rentry_bw(all) / 1e6, b, sizeof(b));
	if (n < 2) {   /* nothing was summed: say what it is */
		snprintf(buf, sizeof(buf), "On %s, the one host did %s IOPS and %s MB/s: an "
			 "aggregate of one host is no aggregate.", g->words, a, b);
		return strdup(buf);
	}
	used = (size_t)snprintf(buf, sizeof(buf), "On %s, the %zu hosts together did %s IOPS and %s MB/s (",
				g->words, n, a, b);
	bool first = true;
	for (size_t k = 0; k < g->n && used + 64 < sizeof(buf); k++) {
		const struct rdev *d = &r->devs[g->e[k].dev];
		if (!d->host || &g->e[k] == all || !g->e[k].cell->ok)
			continue;
		fmt_iops(rentry_iops(&g->e[k]), a, sizeof(a));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s %s",
					 first ? "" : ", ", d->host, a);
		first = false;
	}
	if (used + 3 < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, ").");
	return strdup(buf);
}

bool fleet_summary(struct report *r)
{
	size_t shown = 0;

	if (r->nsets != 1 || !report_set_fleet(&r->sets[0]))
		return false;
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		bool agg = false;
		for (size_t k = 0; k < g->n; k++)
			agg |= r->devs[g->e[k].dev].host && !strcmp(r->devs[g->e[k].dev].host, "all");
		char *s = agg ? aggregate_sentence(r, g) : survey_sentence(r, g);
		if (!s)
			continue;
		if (shown++ == SUMMARY_GROUPS) {
			free(s);
			char more[96];
			snprintf(more, sizeof(more), "%zu more workloads in the results below.",
				 r->ngroups - SUMMARY_GROUPS);
			report_summary_add(r, strdup(more));
			break;
		}
		report_summary_add(r, s);
	}
	return true;
}
