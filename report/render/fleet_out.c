/*
 * fleet_out.c - the Fleet section of the output (section_out.h): the
 * hosts, their fingerprints and clock offsets; per workload the fleet
 * spread (min / median / max of the hosts' IOPS) with the hosts at least
 * 1.5x away from the median named, and in aggregate mode the start skew
 * of each "all" cell against its runtime.  The numbers come from the same
 * loaded cells the tables show (model/fleet.h).
 */
#include "section_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/report.h"

#define OUTLIER_RATIO 1.5

static void add_row(cJSON *rows, const char *const *cells, size_t n)
{
	cJSON *r = cJSON_CreateObject();
	cJSON *a = r ? cJSON_AddArrayToObject(r, "cells") : NULL;

	for (size_t i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(cells[i] ? cells[i] : "–"));
	if (r)
		cJSON_AddItemToArray(rows, r);
}

/* The host's wall clock against the controller's, from the least-delay
 * ping (the monotonic offset the barrier uses has no meaning to a reader:
 * each side counts from its own start). */
static void fmt_offset(const struct rset_fleet_host *h, char *buf, size_t len)
{
	if (isnan(h->wall_offset_s) || isnan(h->clock_error_ns))
		snprintf(buf, len, "–");
	else
		snprintf(buf, len, "%+.3f ms ± %.3f ms (RTT %.3f ms)",
			 h->wall_offset_s * 1e3, h->clock_error_ns / 1e6, h->rtt_min_ns / 1e6);
}

/* One set's hosts: name as given, real hostname, kernel, CPU, iomatrix,
 * wall-clock offset and how it ended. */
static void hosts_table(const struct rset *rs, cJSON *fo)
{
	const struct rset_fleet *fl = report_set_fleet(rs);
	cJSON *rows = cJSON_AddArrayToObject(fo, "hosts");
	char off[96], ver[96];

	for (size_t i = 0; i < fl->nhosts; i++) {
		const struct rset_fleet_host *h = &fl->hosts[i];
		const char *err = h->error;
		char status[160];
		fmt_offset(h, off, sizeof(off));
		snprintf(ver, sizeof(ver), "%s%s%s%s", h->version ? h->version : "–",
			 h->git_commit ? " (git " : "", h->git_commit ? h->git_commit : "",
			 h->git_commit ? ")" : "");
		snprintf(status, sizeof(status), "%s%s%.120s", h->status ? h->status : "?",
			 err ? ": " : "", err ? err : "");
		const char *cells[] = { h->name, h->hostname, rset_obj_str(&h->host, "kernel"),
					rset_obj_str(&h->host, "cpu_model"), ver, off, status };
		add_row(rows, cells, sizeof(cells) / sizeof(cells[0]));
	}
}

/* Hosts that were one machine (fleet.same_machine): said in the intro,
 * since their numbers are not independent. */
/* A set made by run --mpi: the hosts were the ranks of the launcher the
 * manifest records (fleet/launch.h judged it), or one rank that no
 * launcher started (a singleton), which is said so.  Said only when the
 * manifest records the launch. */
static void launch_note(const struct rset_launch *la, char *intro, size_t len)
{
	size_t n = strlen(intro);
	char impl[160] = "", ranks[64] = "";

	if (!la->present || n >= len)
		return;
	if (la->implementation)
		snprintf(impl, sizeof(impl), " (%.150s)", la->implementation);
	if (la->ranks > 0 && la->nodes > 0)
		snprintf(ranks, sizeof(ranks), ": %d rank%s on %d node%s", la->ranks,
			 la->ranks == 1 ? "" : "s", la->nodes, la->nodes == 1 ? "" : "s");
	if (!strcmp(la->launcher, "singleton"))
		snprintf(intro + n, len - n, " The host was one MPI process%s that no launcher "
			 "started (a singleton), named by its node and its rank on that node.", impl);
	else if (!strcmp(la->launcher, "unknown"))
		snprintf(intro + n, len - n, " The hosts were the ranks of an MPI launch%s%s whose "
			 "launcher set none of the variables mpirun, srun or mpiexec set, each named "
			 "by its node and its rank on that node.", impl, ranks);
	else
		snprintf(intro + n, len - n, " The hosts were the ranks of %s%s%s, each named by its node and its rank on that node.",
			 la->launcher, impl, ranks);
}

static void same_machine_note(const struct rset_fleet *fl, char *intro, size_t len)
{
	for (size_t i = 0; i < fl->nsame_machine; i++) {
		const struct rset_names *g = &fl->same_machine[i];
		size_t used = strlen(intro), k = 0;
		if (used + 64 >= len)
			continue;
		used += (size_t)snprintf(intro + used, len - used, " Warning: hosts ");
		for (size_t j = 0; j < g->n; j++)
			if (g->v[j] && used + strlen(g->v[j]) + 4 < len)
				used += (size_t)snprintf(intro + used, len - used, "%s%s",
							 k++ ? ", " : "", g->v[j]);
		if (used < len)
			snprintf(intro + used, len - used, " are one machine (same machine-id or boot id): they shared its CPU, memory and perhaps its disks, so their numbers are not independent.");
	}
}

void fleet_context(const struct report *r, const struct chart_set *cs, bool html,
		   cJSON *ctx)
{
	cJSON *sets = NULL;

	(void)cs;
	(void)html;

	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		const struct rset_fleet *fl = report_set_fleet(rs);
		char intro[1536];
		if (!fl)
			continue;
		if (!sets) {
			cJSON *f = cJSON_AddObjectToObject(ctx, "fleet");
			sets = f ? cJSON_AddArrayToObject(f, "sets") : NULL;
			if (!sets)
				return;
		}
		cJSON *fo = cJSON_CreateObject();
		if (!fo)
			return;
		bool agg = fl->mode && !strcmp(fl->mode, "aggregate");
		int nh = (int)fl->nhosts;
		if (agg && nh == 1)
			snprintf(intro, sizeof(intro),
				 "Aggregate run of one host from %s, which is no aggregate: its \"all\" row is that host's own numbers.",
				 rs->shown);
		else if (agg)
			snprintf(intro, sizeof(intro),
				 "Aggregate run of %d hosts from %s: every host ran each cell at the same instant against the same target; the \"all\" row of each workload sums their IOPS and bandwidth over the common window and merges their latency histograms bucket by bucket. The hosts' own rows follow it.",
				 nh, rs->shown);
		else
			snprintf(intro, sizeof(intro),
				 "Survey of %d hosts from %s: every host ran the whole suite on its own devices. Rows are host · device; each workload ends with the fleet spread and names the hosts far from the median.",
				 nh, rs->shown);
		launch_note(&fl->launch, intro, sizeof(intro));
		same_machine_note(fl, intro, sizeof(intro));
		cJSON_AddStringToObject(fo, "intro", intro);
		cJSON_AddStringToObject(fo, "corner", fl->launch.present ? "host (node:local rank)" : "host (as given)");
		cJSON *cols = cJSON_AddArrayToObject(fo, "cols");
		static const char *const names[] = { "hostname", "kernel", "CPU", "iomatrix",
						     "clock offset (wall)", "status" };
		for (size_t i = 0; cols && i < sizeof(names) / sizeof(names[0]); i++)
			cJSON_AddItemToArray(cols, cJSON_CreateString(names[i]));
		hosts_table(rs, fo);
		cJSON_AddItemToArray(sets, fo);
	}
}

static int fleet_out_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Survey: the spread of one device's hosts in group g. */
static void spread_lines(const struct report *r, const struct rgroup *g,
			 const char *device, cJSON *lines, cJSON *outl)
{
	double v[256], sorted[256], sess[256];
	const char *who[256];
	size_t n = 0;
	char a[32], b[32], c[32], line[512];

	for (size_t k = 0; k < g->n && n < 256; k++) {
		const struct rdev *d = &r->devs[g->e[k].dev];
		if (!d->host || !strcmp(d->host, "all") || strcmp(d->name, device) ||
		    !g->e[k].cell->ok)
			continue;
		who[n] = d->host;
		sess[n] = g->e[k].cell->fleet_session;
		v[n++] = rentry_iops(&g->e[k]);
	}
	if (n < 2)
		return;
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), fleet_out_cmp);
	double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	fmt_sig3(sorted[0], a, sizeof(a));
	fmt_sig3(med, b, sizeof(b));
	fmt_sig3(sorted[n - 1], c, sizeof(c));
	/* the run most hosts were measured in: a host from another (a
	 * resumed set) was measured at another time, and a gap may be the
	 * time rather than the host */
	double usual = sess[0];
	size_t best = 0;
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;
		for (size_t k = 0; k < n; k++)
			same += sess[k] == sess[i];
		if (same > best) {
			best = same;
			usual = sess[i];
		}
	}
	snprintf(line, sizeof(line), "Fleet spread of %s over %zu hosts: min %s / median %s / max %s IOPS (max/min %.2fx).%s",
		 device, n, a, b, c, sorted[0] > 0 ? sorted[n - 1] / sorted[0] : 0.0,
		 best < n ? " The hosts were not all measured at the same time (a resumed set): the spread mixes hosts and times." : "");
	cJSON_AddItemToArray(lines, cJSON_CreateString(line));
	for (size_t i = 0; i < n; i++) {
		if (med <= 0 || v[i] <= 0)
			continue;
		double ratio = v[i] < med ? med / v[i] : v[i] / med;
		if (ratio < OUTLIER_RATIO)
			continue;
		snprintf(line, sizeof(line), "%s is %.1fx %s than the fleet median on %s (%s)%s",
			 who[i], ratio, v[i] < med ? "slower" : "faster",
			 g->proto->cell.label ? g->proto->cell.label : g->title, device,
			 sess[i] != usual ? ", but it was measured at another time than most hosts (a resumed run), so the gap may be the time, not the host." : ".");
		cJSON_AddItemToArray(outl, cJSON_CreateString(line));
	}
}

/* Aggregate: the skew and window of an "all" cell. */
static void skew_line(const struct rset_cell *c, cJSON *lines)
{
	const struct rset_cell_fleet *fl = &c->fleet;
	char hosts[256] = "", line[640];
	size_t used = 0;

	if (!fl->present)
		return;
	int nh = (int)fl->nhosts;
	for (size_t i = 0; i < fl->nhosts; i++)
		if (used + strlen(fl->hosts[i]) + 3 < sizeof(hosts))
			used += (size_t)snprintf(hosts + used, sizeof(hosts) - used, "%s%s",
						 used ? ", " : "", fl->hosts[i]);
	double skew = fl->start_skew_ns;
	double rt = c->runtime_mean_ns > 0 ? c->runtime_mean_ns : (double)c->cell.runtime_ns;
	double pct = rt > 0 ? skew / rt * 100 : 0;
	/* the "all" row sums the hosts' IOPS at one latency: Little's law
	 * holds for the IOs in flight on all hosts, not for the QD of the
	 * title, and the reader is told so */
	int depth = (c->cell.iodepth > 0 ? c->cell.iodepth : 1) * (c->cell.jobs > 0 ? c->cell.jobs : 1);
	snprintf(line, sizeof(line), "Aggregate of %s (%d IO%s in flight on each host, %d in all: "
		 "the \"all\" row's IOPS times its mean latency is about %d, not %d): "
		 "start skew %.2f ms (%.2f %% of the runtime)%s",
		 hosts, depth, depth == 1 ? "" : "s", depth * nh, depth * nh, depth,
		 skew / 1e6, pct,
		 pct > 1 ? "; over 1 %: the hosts did not overlap for all of the run, so the sum overstates the simultaneous load." : ".");
	cJSON_AddItemToArray(lines, cJSON_CreateString(line));
}

void fleet_group_context(const struct report *r, size_t gi, cJSON *group)
{
	const struct rgroup *g = &r->groups[gi];
	cJSON *lines = cJSON_CreateArray(), *outl = cJSON_CreateArray();
	const char *seen[64];
	size_t nseen = 0;

	if (!lines || !outl)
		goto out;
	for (size_t k = 0; k < g->n; k++) {
		const struct rdev *d = &r->devs[g->e[k].dev];
		bool dup = false;
		if (!d->host)
			continue;
		if (!strcmp(d->host, "all")) {
			if (g->e[k].cell->ok)
				skew_line(g->e[k].cell, lines);
			continue;
		}
		for (size_t i = 0; i < nseen; i++)
			dup |= !strcmp(seen[i], d->name);
		if (dup || nseen == 64)
			continue;
		seen[nseen++] = d->name;
		/* aggregate groups show the skew; the spread is for surveys */
		bool agg = false;
		for (size_t j = 0; j < g->n; j++)
			agg |= r->devs[g->e[j].dev].host && !strcmp(r->devs[g->e[j].dev].host, "all");
		if (!agg)
			spread_lines(r, g, d->name, lines, outl);
	}
	if (cJSON_GetArraySize(lines)) {
		cJSON_AddItemToObject(group, "fleet_lines", lines);
		lines = NULL;
	}
	if (cJSON_GetArraySize(outl)) {
		cJSON_AddItemToObject(group, "fleet_outliers", outl);
		outl = NULL;
	}
out:
	cJSON_Delete(lines);
	cJSON_Delete(outl);
}
