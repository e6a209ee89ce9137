/*
 * fleet_set.c - the fleet result set: results/<UTC>_<suite>_fleet/ with
 * one cell file per host and plan cell (and per plan cell an aggregate
 * "all" cell in aggregate mode), each carrying "host" and "plan_id", and a
 * manifest whose "fleet" object lists the hosts with their fingerprints,
 * versions and clock offsets (results/README.md, "Fleet sets").
 *
 * Cell ids: slot * N + plan id, N the plan's cell count; slots are the
 * hosts in --hosts order, after slot 0 "all" in aggregate mode.
 */
#include "fleet_int.h"
#include "fleet/launch.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/version.h"
#include "fleet/merge.h"
#include "host/safety.h"
#include "resultset/fleetfile.h"
#include "resultset/resume.h"
#include "suite/suite.h"

static int set_id(const struct fleet *f, size_t slot, size_t plan_idx)
{
	return (int)(slot * f->s->ncells) + f->s->cells[plan_idx].id;
}

static const char *slot_name(const struct fleet *f, size_t slot)
{
	if (f->o->aggregate)
		return slot ? f->o->hosts[slot - 1] : "all";
	return f->o->hosts[slot];
}

/* The set's manifest through the one writer, plus "fleet".  The devices
 * are the suite's as the controller resolved them; each host's own paths
 * and fingerprints go under fleet.hosts as they answer. */
static cJSON *manifest_new(const struct fleet *f)
{
	cJSON *m = resultset_manifest_for_suite(f->s, f->o->run.scale, f->o->run.argc, f->o->run.argv,
						f->nslots * f->s->ncells, false);

	if (m && resultset_fleet_manifest(m, f->o->aggregate, f->s->ncells,
					  f->o->run.devices, f->o->run.ndevices) < 0) {
		cJSON_Delete(m);
		return NULL;
	}
	/* how the hosts were started: the launcher, its library, ranks, nodes */
	if (m && f->o->transport && f->o->transport->record) {
		cJSON *fl = cJSON_GetObjectItemCaseSensitive(m, "fleet");
		cJSON *rec = cJSON_Duplicate(f->o->transport->record, 1);
		if (!fl || !rec || !cJSON_AddItemToObject(fl, "launch", rec)) {
			cJSON_Delete(rec);
			cJSON_Delete(m);
			return NULL;
		}
	}
	return m;
}

int fleet_set_begin(struct fleet *f, char *err, size_t errlen)
{
	const char *root = resultset_root();

	if (safety_check_results_dir(f->o->run.out ? f->o->run.out : root, err, errlen) < 0)
		return -1;
	if (resultset_create(&f->rs, root, f->o->run.out, f->s->name, manifest_new(f),
			     err, errlen) < 0)
		return -1;
	f->have_rs = true;
	/* as run does: a --resume of this set while it is written is refused */
	resume_lock(f->rs.dir, &f->lock_fd, err, errlen);
	int wr = resultset_write_inputs(&f->rs, f->s);
	if (wr < 0) {
		snprintf(err, errlen, "cannot write result set '%s': %s; free some space or use --out DIR",
			 f->rs.dir, strerror(-wr));
		return -1;
	}
	if (!f->o->run.quiet)
		fprintf(stderr, "iomatrix: writing result set '%s' (%zu cells)\n",
			f->rs.dir, f->nslots * f->s->ncells);
	return 0;
}

int fleet_set_resume(struct fleet *f, char *err, size_t errlen)
{
	if (!f->o->run.quiet)
		fprintf(stderr, "iomatrix: resuming result set '%s'\n", f->rs.dir);
	if (resultset_resume_begin(&f->rs, err, errlen) < 0)
		return -1;
	/* each resume is a run of its own: cells say which one measured them */
	f->session = (unsigned)cJSON_GetArraySize(
		cJSON_GetObjectItemCaseSensitive(f->rs.manifest, "resumed_at"));
	return 0;
}

/* Resume trusts no index, as plain resume: the cell file must be there,
 * finished, of this cell, measured with its parameters. */
bool fleet_cell_done(const struct fleet *f, size_t slot, size_t plan_idx)
{
	char why[256];

	if (!resultset_cell_ok(&f->rs, set_id(f, slot, plan_idx)))
		return false;
	if (resultset_cell_verify_as(&f->rs, &f->s->cells[plan_idx],
				     set_id(f, slot, plan_idx), why, sizeof(why)) < 0) {
		fprintf(stderr, "iomatrix: cell %d of %s: %s; measuring it again\n",
			f->s->cells[plan_idx].id, slot_name(f, slot), why);
		return false;
	}
	return true;
}

static const char *host_status(const struct fhost *h)
{
	if (h->skipped)
		return "skipped";
	if (h->st == HS_FAILED)
		return h->unreachable ? "unreachable" : "failed";
	if (h->st == HS_WAITING)
		return "waiting";
	return h->st == HS_DONE ? "done" : "running";
}

static cJSON *host_json(const struct fhost *h)
{
	struct resultset_fleet_host r = {
		.name = h->name, .status = host_status(h),
		.error = h->fail[0] ? h->fail : NULL,
		.hostname = proto_get_str(h->hello, "hostname"),
		.version = proto_get_str(h->hello, "version"),
		.git_commit = proto_get_str(h->hello, "git_commit"),
		.have_clock = h->clk.n > 0,
		.offset_ns = h->clk.offset_ns, .error_ns = h->clk.error_ns,
		.rtt_min_ns = h->clk.rtt_min_ns, .rtt_median_ns = h->clk.rtt_med_ns,
		.samples = (size_t)h->clk.n, .wall_offset_s = h->wall_offset_s,
		.info = h->info,
	};
	return resultset_fleet_host_json(&r);
}

static const char *machine_key(const struct fhost *h, const char *k)
{
	return proto_get_str(cJSON_GetObjectItemCaseSensitive(h->info, "machine"), k);
}

/* Are hosts a and b one machine (same machine-id, or same boot id)? */
static bool same_machine(const struct fhost *a, const struct fhost *b)
{
	static const char *const keys[] = { "machine_id", "boot_id" };
	for (size_t k = 0; k < 2; k++) {
		const char *x = machine_key(a, keys[k]), *y = machine_key(b, keys[k]);
		if (x && y && !strcmp(x, y))
			return true;
	}
	return false;
}

/* [["h1","h2"], ...]: groups of two or more hosts that are one machine,
 * each host in the group of the first host it matches. */
static cJSON *same_machine_json(const struct fleet *f)
{
	cJSON *groups = cJSON_CreateArray();

	for (size_t i = 0; groups && i < f->nh; i++) {
		bool first = true;
		for (size_t k = 0; k < i; k++)
			first &= !same_machine(&f->h[k], &f->h[i]);
		if (!first)
			continue;
		cJSON *g = cJSON_CreateArray();
		for (size_t k = i; g && k < f->nh; k++)
			if (k == i || same_machine(&f->h[i], &f->h[k]))
				cJSON_AddItemToArray(g, cJSON_CreateString(f->h[k].name));
		if (cJSON_GetArraySize(g) > 1)
			cJSON_AddItemToArray(groups, g);
		else
			cJSON_Delete(g);
	}
	return groups;
}

void fleet_warn_same_machine(const struct fleet *f)
{
	cJSON *groups = same_machine_json(f), *g, *n;

	cJSON_ArrayForEach(g, groups) {
		char list[1024] = "";
		size_t used = 0;
		cJSON_ArrayForEach(n, g)
			if (used + strlen(n->valuestring) + 3 < sizeof(list))
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 used ? ", " : "", n->valuestring);
		fprintf(stderr, "iomatrix: warning: hosts %s are one machine (same machine-id or boot id): they share its CPU, memory and perhaps its disks while they run, so their numbers are not independent\n",
			list);
	}
	cJSON_Delete(groups);
}

int fleet_set_host_info(struct fleet *f)
{
	cJSON *a = cJSON_CreateArray();

	if (!f->have_rs || !a) {
		cJSON_Delete(a);
		return -1;
	}
	for (size_t i = 0; i < f->nh; i++) {
		cJSON *h = host_json(&f->h[i]);
		if (h)
			cJSON_AddItemToArray(a, h);
	}
	return resultset_fleet_save_hosts(&f->rs, a, same_machine_json(f),
					  f->margin_ns) < 0 ? -1 : 0;
}

static int write_cell(struct fleet *f, size_t slot, size_t plan_idx,
		      const char *host, const char *start, cJSON *cell)
{
	char err[1024];

	resultset_fleet_cell_tag(cell, set_id(f, slot, plan_idx),
				 f->s->cells[plan_idx].id, host);
	/* when, on the controller's clock, and in which run: hosts measured
	 * at different times are not compared as if side by side */
	resultset_fleet_cell_measured(cell, f->session, start);
	if (resultset_write_cell(&f->rs, set_id(f, slot, plan_idx), cell, err, sizeof(err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
		f->failed_any = true;
		return -1;
	}
	return 0;
}

/* One line per finished host cell, as `run` prints one per cell. */
static void print_line(const struct fleet *f, const char *host, size_t plan_idx,
		       const cJSON *cell)
{
	const struct cell *c = &f->s->cells[plan_idx];
	const char *st = proto_get_str(cell, "status");
	const char *e = proto_get_str(cell, "error");
	const cJSON *sum = cJSON_GetObjectItemCaseSensitive(cell, "summary");
	double iops = 0;

	if (st && strcmp(st, "ok")) {
		char hb[256], eb[1024];   /* a host's words, as text (termesc.h) */
		fprintf(stderr, "%s: cell %d/%zu %s %s: failed: %s\n", termesc(host, hb, sizeof(hb)),
			c->id, f->s->ncells, c->device, c->label, termesc(e ? e : "?", eb, sizeof(eb)));
		return;
	}
	if (f->o->run.quiet)
		return;
	for (int d = 0; d < 2; d++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(sum, d ? "write" : "read");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(x, "iops"), "mean");
		if (cJSON_IsNumber(m))
			iops += m->valuedouble;
	}
	char hb[256];
	fprintf(stderr, "%s: cell %d/%zu %s %s %s: %.0f IOPS\n", termesc(host, hb, sizeof(hb)), c->id,
		f->s->ncells, c->device, c->label, pattern_name(c->pattern), iops);
}

int fleet_write_host_cell(struct fleet *f, struct fhost *h, size_t plan_idx,
			  cJSON *cell)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(cell, "fleet_starts");
	const cJSON *e;
	cJSON *starts = cJSON_CreateArray();

	/* the agent's start times are on its clock: keep how late each
	 * repetition started against its go, and the controller-clock start */
	cJSON_ArrayForEach(e, st) {
		int64_t rep, late;
		cJSON *o;
		if (!proto_get_i64(e, "rep", &rep) || rep < 1 || rep > 1000000 ||
		    !proto_get_i64(e, "late_ns", &late) || !starts)
			continue;
		bool known = (uint64_t)rep <= h->nstarts && h->cur == plan_idx &&
			     h->starts[rep - 1] != FLEET_NO_START;
		if ((o = resultset_fleet_start_json(rep, late, known,
						    known ? h->starts[rep - 1] : 0)))
			cJSON_AddItemToArray(starts, o);
	}
	cJSON_DeleteItemFromObjectCaseSensitive(cell, "fleet_starts");
	if (starts)
		resultset_fleet_cell_starts(cell, starts);
	print_line(f, h->name, plan_idx, cell);
	return write_cell(f, f->o->aggregate ? h->idx + 1 : h->idx, plan_idx, h->name,
			  h->cell_start[0] ? h->cell_start : NULL, cell);
}

int fleet_write_failed(struct fleet *f, size_t slot, size_t plan_idx,
		       const char *host, const char *why)
{
	char now[32];
	cJSON *cell;

	iso8601_now(now, sizeof(now));
	struct cell_outcome out = { .error = why, .started_at = now, .finished_at = now };
	cell = resultset_cell_to_json(&f->s->cells[plan_idx], &out);
	if (!cell)
		return -1;
	print_line(f, host, plan_idx, cell);
	return write_cell(f, slot, plan_idx, host, NULL, cell);
}

int fleet_set_finish(struct fleet *f, const char *status)
{
	char err[1024];

	fleet_set_host_info(f);
	if (resultset_finish(&f->rs, status, err, sizeof(err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
		return -1;
	}
	return 0;
}

/* Merge repetition r of every participant; fills out, the rep's fleet
 * facts *info (skew, window; the caller owns it) and *skew_out.  0, or -1
 * with why. */
static int merge_rep(struct fleet *f, struct fhost **part, size_t n, unsigned r,
		     struct rep_result *out, cJSON **info, int64_t *skew_out,
		     char *why, size_t whylen)
{
	const struct cell *c = &f->s->cells[f->agg_cur];
	struct rep_result *reps = calloc(n, sizeof(*reps));
	int64_t *start = calloc(n, sizeof(*start)), skew;
	uint64_t *rt = calloc(n, sizeof(*rt)), window;
	cJSON *hs = cJSON_CreateArray();
	int ret = -1;

	if (!reps || !start || !rt || !hs) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const cJSON *rj = cJSON_GetArrayItem(
			cJSON_GetObjectItemCaseSensitive(part[i]->result, "repetitions"), (int)r);
		char w[160];
		if (fleet_rep_from_json(rj, &reps[i], w, sizeof(w)) < 0) {
			snprintf(why, whylen, "host '%s' sent repetition %u with %s",
				 part[i]->name, r + 1, w);
			goto out;
		}
		/* every repetition merged was started by a go and ended by
		 * its rep_done: its start is known */
		if (r >= part[i]->nstarts || part[i]->starts[r] == FLEET_NO_START) {
			snprintf(why, whylen, "host '%s' sent repetition %u that it never reported done",
				 part[i]->name, r + 1);
			goto out;
		}
		/* measurement starts after the ramp, the same on every host */
		start[i] = part[i]->starts[r] + (int64_t)c->ramp_ns;
		rt[i] = reps[i].runtime_ns;
		cJSON *o = resultset_fleet_rep_host_json(part[i]->name, part[i]->starts[r], rt[i]);
		if (o)
			cJSON_AddItemToArray(hs, o);
	}
	window = fleet_common_window(start, rt, n, &skew);
	int mr = fleet_rep_merge(reps, n, window, out);
	if (mr == -EOVERFLOW) {
		snprintf(why, whylen, "repetition %u: the hosts' counts add up past 2^64 (a histogram bucket, the samples or a series interval); refused rather than wrapped",
			 r + 1);
		goto out;
	}
	if (mr < 0) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	*info = resultset_fleet_rep_json(r + 1, skew, window, hs);
	hs = NULL;
	if (!*info) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	*skew_out = skew;
	ret = 0;
out:
	rep_results_free(reps, n);
	free(start);
	free(rt);
	cJSON_Delete(hs);
	return ret;
}

/* The aggregate cell of the cell in progress from the held host results;
 * NULL with why when it cannot be made. */
static cJSON *aggregate_cell(struct fleet *f, struct fhost **part, size_t n,
			     char *why, size_t whylen)
{
	const struct cell *c = &f->s->cells[f->agg_cur];
	unsigned nreps = c->repeat;
	struct rep_result *agg = calloc(nreps ? nreps : 1, sizeof(*agg));
	cJSON *fl = NULL, *repinfo = cJSON_CreateArray(), *cell = NULL;
	const char *started = proto_get_str(part[0]->result, "started_at");
	const char *finished = proto_get_str(part[0]->result, "finished_at");
	double worst = 0, worst_frac = 0;
	unsigned done = 0;

	if (!agg || !repinfo) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(part[i]->result, "repetitions")) != (int)nreps) {
			snprintf(why, whylen, "host '%s' sent %d repetitions, the cell has %u",
				 part[i]->name, cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(part[i]->result, "repetitions")), nreps);
			goto out;
		}
	for (unsigned r = 0; r < nreps; r++, done++) {
		cJSON *info = NULL;
		int64_t skew_ns = 0;
		if (merge_rep(f, part, n, r, &agg[r], &info, &skew_ns, why, whylen) < 0)
			goto out;
		double skew = (double)skew_ns;
		double frac = agg[r].runtime_ns ? skew / (double)agg[r].runtime_ns : 0;
		if (skew > worst)
			worst = skew;
		if (frac > worst_frac)
			worst_frac = frac;
		cJSON_AddItemToArray(repinfo, info);
	}
	struct cell_outcome out = { .started_at = started, .finished_at = finished,
				    .reps = agg, .nreps = nreps };
	cell = resultset_cell_to_json(c, &out);
	if (!cell) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	const char **names = calloc(n, sizeof(*names));
	for (size_t i = 0; names && i < n; i++)
		names[i] = part[i]->name;
	fl = names ? resultset_fleet_aggregate_json(names, n, worst, f->margin_ns, repinfo) : NULL;
	free(names);
	repinfo = NULL;
	if (fl)
		cJSON_AddItemToObject(cell, "fleet", fl);
	fl = NULL;
	if (worst_frac > 0.01) {
		char w[256];
		snprintf(w, sizeof(w), "start skew %.1f ms is %.1f %% of the runtime (over 1 %%): the hosts did not load the target at the same time for all of it",
			 worst / 1e6, worst_frac * 100);
		resultset_cell_add_warning(cell, w);
	}
	if (f->nh > n) {
		char w[256];
		snprintf(w, sizeof(w), "aggregate over %zu of %zu hosts", n, f->nh);
		resultset_cell_add_warning(cell, w);
	}
out:
	rep_results_free(agg, done);
	cJSON_Delete(fl);
	cJSON_Delete(repinfo);
	return cell;
}

/* When the aggregate cell in progress was sent (the first host's time). */
static const char *part_start(const struct fleet *f)
{
	for (size_t i = 0; i < f->nh; i++)
		if (f->h[i].in_agg && f->h[i].cell_start[0])
			return f->h[i].cell_start;
	return NULL;
}

int fleet_write_aggregate(struct fleet *f, size_t plan_idx)
{
	struct fhost **part = calloc(f->nh ? f->nh : 1, sizeof(*part));
	size_t n = 0;
	char why[1024] = "", start[32] = "";
	cJSON *agg = NULL;

	if (!part)
		return -1;
	if (part_start(f))
		snprintf(start, sizeof(start), "%s", part_start(f));
	for (size_t i = 0; i < f->nh; i++)
		if (f->h[i].in_agg && f->h[i].st == HS_HELD)
			part[n++] = &f->h[i];
	if (f->agg_fail[0])
		snprintf(why, sizeof(why), "%s", f->agg_fail);
	else if (!n)
		snprintf(why, sizeof(why), "every host was lost");
	else if (!(agg = aggregate_cell(f, part, n, why, sizeof(why))) && !why[0])
		snprintf(why, sizeof(why), "cannot merge the hosts' results");
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (!h->in_agg)
			continue;
		const char *own = proto_get_str(h->result, "status");
		bool own_fail = h->result && own && strcmp(own, "ok") && !h->aborted;
		if (h->st == HS_HELD && !why[0]) {
			fleet_write_host_cell(f, h, plan_idx, h->result);
			h->result = NULL; /* written and freed */
		} else if (own_fail) { /* its own failure says more */
			fleet_write_host_cell(f, h, plan_idx, h->result);
			h->result = NULL;
		} else {
			fleet_write_failed(f, h->idx + 1, plan_idx, h->name,
					   h->st == HS_FAILED ? h->fail : why);
		}
		cJSON_Delete(h->result);
		h->result = NULL;
		h->in_agg = h->busy = h->aborted = h->agg_wait = false;
		if (h->st == HS_HELD)
			h->st = HS_IDLE;
	}
	f->agg_staged = false;
	if (agg) {
		print_line(f, "all", plan_idx, agg);
		write_cell(f, 0, plan_idx, "all", start[0] ? start : NULL, agg);
	} else {
		f->failed_any = true;
		fleet_write_failed(f, 0, plan_idx, "all", why);
	}
	free(part);
	return 0;
}

bool fleet_is_set(const char *dir)
{
	return resultset_is_fleet(dir);
}

/* --resume SET: the set fixes the hosts, the mode, the device paths and
 * the scale unless the command line says otherwise.  Fills *o, *hosts
 * and *devs (NULL-terminated arrays of copies; the caller frees them and
 * their strings). */
int fleet_set_open_resume(struct fleet *f, struct fleet_opts *o,
			  const char ***hosts, const char ***devs,
			  char *err, size_t errlen)
{
	struct resultset_fleet_facts ff;
	struct resume_set rz = { .scale = o->run.scale, .suite_given = o->run.suite_path };

	/* plain resume's checks: locked, made by run, its own suite.yaml a
	 * regular file, a scale in (0, 1e6] that --scale agrees with */
	int ret = resume_open(&f->rs, o->run.resume, &rz, err, errlen);
	f->lock_fd = rz.lock_fd;
	f->have_rs = f->rs.manifest != NULL;
	if (ret < 0)
		return -1;
	snprintf(f->suite_path, sizeof(f->suite_path), "%s", rz.suite_path);
	o->run.suite_path = f->suite_path;
	o->run.scale = rz.scale;
	/* copies: the manifest's host list is rewritten as we go */
	if (resultset_fleet_facts(&f->rs, &ff, err, errlen) < 0)
		return -1;
	*hosts = (const char **)ff.hosts;
	*devs = (const char **)ff.device_args;
	o->aggregate = ff.aggregate;
	if (o->nhosts) { /* the same hosts, in the same order: slots */
		bool same = o->nhosts == ff.nhosts;
		for (size_t i = 0; same && i < ff.nhosts; i++)
			same = !strcmp(o->hosts[i], ff.hosts[i]);
		if (!same) {
			snprintf(err, errlen, "--hosts differs from the hosts of set '%s'; resume without --hosts",
				 o->run.resume);
			return -1;
		}
	}
	o->hosts = *hosts;
	o->nhosts = ff.nhosts;
	if (!o->run.ndevices) {
		o->run.devices = *devs;
		o->run.ndevices = ff.ndevice_args;
	}
	return 0;
}

/* The suite given on --resume must be the set's own. */
int fleet_set_check_suite(const struct fleet *f, char *err, size_t errlen)
{
	struct resultset_facts facts;

	resultset_facts(&f->rs, &facts);
	if (!facts.suite_sha256 || strcmp(facts.suite_sha256, f->s->sha256)) {
		snprintf(err, errlen, "the suite differs from the suite of set '%s' (sha256); resume with the set's own copy: iomatrix run --resume %s",
			 f->rs.dir, f->rs.dir);
		return -1;
	}
	return 0;
}
