/*
 * warnings.c - what a reader must be told about the numbers: per device the
 * warnings (page cache, buffered writes, compressible data, noisy or wild
 * cells, short runs, failures, a file set far smaller than the device, a
 * virtual device, missing cells), and the alerts shown above everything (a
 * rehearsal at --scale, two names for one device).  Split from load.c;
 * report_warn() is the door for the optional sections.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/devident.h"
#include "report.h"
#include "report_int.h"
#include "resultset/sums.h"
#include "section.h"
#include "engines/engine.h"
#include "util/ramkind.h"
#include "util/array.h"
#include "host/fpkeys.h"
#include "util/units.h"
#include "util/sysload.h"
#include "suite/workload.h"

static void warn_add(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn_add(struct report *r, const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	char *s = sbuf_detach(&b);
	if (!s)
		return;
	/* one VM, two sets: say it once */
	for (size_t i = 0; i < r->nwarns; i++)
		if (!strcmp(r->warns[i].text, s)) {
			free(s);
			return;
		}
	if (r->nwarns == r->warns_alloc) {
		size_t na = r->warns_alloc ? r->warns_alloc * 2 : 16;
		struct rwarn *p = realloc(r->warns, na * sizeof(*p));
		if (!p) {
			free(s);
			return;
		}
		r->warns = p;
		r->warns_alloc = na;
	}
	r->warns[r->nwarns++].text = s;
}

void report_warn(struct report *r, const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	warn_add(r, "%s", sbuf_str(&b));
	sbuf_release(&b);
}

/* ---- warnings ---- */

/* Cells of device d matching pred, as "N cells (A, B, C and N more)". */
struct cellpick {
	size_t n;
	struct sbuf names;
};

/* A cell by its label and pattern, and what tells it apart from the
 * device's other cells of that label, pattern and block size (apart:
 * suite/workload.h workload_apart): "RND4K Q1T1 randread (engine
 * io_uring)", so an engine matrix's cells are never named alike. */
static void pick_add(struct cellpick *p, const struct rset_cell *c, uint64_t apart)
{
	if (p->n < 3) {
		if (p->n)
			sbuf_adds(&p->names, ", ");
		/* derived labels name no direction (SEQ1M Q8T1 is read and write) */
		if (c->cell.label[0])
			sbuf_addf(&p->names, "%s %s", c->cell.label, pattern_name(c->cell.pattern));
		else
			sbuf_addf(&p->names, "cell %d", c->id);
		if (apart) {
			sbuf_adds(&p->names, " (");
			workload_say(&c->cell, apart, &p->names);
			sbuf_addc(&p->names, ')');
		}
	}
	p->n++;
}

/* Is c a cell of device dv? */
static bool dev_cell(const struct rdev *dv, const struct rset_cell *c)
{
	return !strcmp(c->cell.device, dv->name) &&
	       report_same_host(report_cell_host(c), dv->host);
}

/* pick_add's apart of each cell of dv's set (0 for another device's):
 * n log n in cells.  NULL out of memory (the names are then shorter). */
static uint64_t *dev_apart(const struct report *r, const struct rdev *dv)
{
	const struct rset *rs = &r->sets[dv->set];
	size_t n = rs->ncells ? rs->ncells : 1, m = 0;
	const struct cell **cells = malloc(n * sizeof(*cells));
	size_t *at = malloc(n * sizeof(*at));
	uint64_t *sub = malloc(n * sizeof(*sub)), *apart = calloc(n, sizeof(*apart));
	bool ok = cells && at && sub && apart;
	for (size_t i = 0; ok && i < rs->ncells; i++)
		if (dev_cell(dv, &rs->cells[i])) {
			cells[m] = &rs->cells[i].cell;
			at[m++] = i;
		}
	ok = ok && workload_apart(cells, m, WORKLOAD_ALL, sub) == 0;
	for (size_t k = 0; ok && k < m; k++)
		apart[at[k]] = sub[k];
	free(cells);
	free(at);
	free(sub);
	if (!ok) {
		free(apart);
		return NULL;
	}
	return apart;
}

static const char *pick_text(struct cellpick *p, struct sbuf *out)
{
	sbuf_reset(out);
	sbuf_addf(out, "%zu cell%s (%s%s", p->n, p->n == 1 ? "" : "s",
		  sbuf_str(&p->names), p->n > 3 ? ", ..." : "");
	sbuf_adds(out, ")");
	return sbuf_str(out);
}

static bool name_like_hdd(const char *n)
{
	static const char *const words[] = { "hdd", "hard", "spin", "sas", "sata",
					     "rpm", "7200", "5400", "10k", "15k" };
	char low[128];
	size_t i;

	for (i = 0; n[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)n[i]);
	low[i] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(low, words[i]))
			return true;
	return false;
}

static double set_mem(const struct rset *rs)
{
	return rset_obj_num(&rs->host, "mem_bytes", 0);
}

/* " (missing: RND4K Q1T1 randread on hdd, ...)" from plan.json, or "". */
static void missing_cells(const struct rset *rs, struct sbuf *out)
{
	size_t n = 0;
	int maxid = 0;

	sbuf_reset(out);
	/* which ids the set has, as a bitmap: a scan per plan cell made a
	 * 20,000-cell report quadratic */
	for (size_t i = 0; i < rs->ncells; i++)
		if (rs->cells[i].id > maxid)
			maxid = rs->cells[i].id;
	unsigned char *have = calloc((size_t)maxid / 8 + 1, 1);
	if (!have)
		return;
	for (size_t i = 0; i < rs->ncells; i++)
		if (rs->cells[i].id > 0)
			have[rs->cells[i].id / 8] |= (unsigned char)(1u << (rs->cells[i].id % 8));
	for (size_t i = 0; i < rs->nplan_cells; i++) {
		const struct rset_plan_cell *p = &rs->plan_cells[i];
		int v = p->id;
		if (v <= maxid && (have[v / 8] & (1u << (v % 8))))
			continue;
		if (n < 3)
			sbuf_addf(out, "%s%s %s on %s", n ? ", " : " (missing: ",
				  p->label ? p->label : "?", p->pattern ? p->pattern : "?",
				  p->device ? p->device : "?");
		n++;
	}
	free(have);
	if (n > 3)
		sbuf_addf(out, " and %zu more", n - 3);
	if (n)
		sbuf_addc(out, ')');
}

enum wkind { W_CACHE, W_BUFWRITE, W_DATA, W_NOISY, W_WILD, W_SHORT, W_FAILED, W_NULL,
	     W_MODEL, W_NOIO, W__N };

/* The warnings about one device's cells and fingerprint. */
/*
 * Other work on the machine while cells ran (bench/util/sysload.h: at
 * least SYSLOAD_OTHER_CPUS CPUs kept busy by other processes, or
 * SYSLOAD_STEAL_PCT % of the CPU time stolen by the hypervisor, over a
 * repetition), naming the cells.  Silent for sets without host_load.
 */
static void warn_load(struct report *r, size_t d, const uint64_t *apart, struct sbuf *tmp)
{
	const struct rdev *dv = &r->devs[d];
	const struct rset *rs = &r->sets[dv->set];
	struct cellpick pk = { 0 };
	double other = 0, steal = 0;
	int reps = 0, hit = 0;

	for (size_t i = 0; i < rs->ncells; i++) {
		const struct rset_cell *c = &rs->cells[i];
		if (!c->ok || !dev_cell(dv, c) || !c->load_competed)
			continue;
		pick_add(&pk, c, apart ? apart[i] : 0);
		reps += c->load_reps;
		hit += c->load_competed;
		other = c->load_other_cpus_max > other ? c->load_other_cpus_max : other;
		steal = c->load_steal_pct_max > steal ? c->load_steal_pct_max : steal;
	}
	if (pk.n) {
		/* name only what crossed its bar */
		char why[160] = "";
		if (other >= SYSLOAD_OTHER_CPUS)
			snprintf(why, sizeof(why), "other processes kept up to %.1f CPUs busy", other);
		if (steal >= SYSLOAD_STEAL_PCT)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%sthe hypervisor stole up to %.0f %% of the CPU time",
				 why[0] ? " and " : "", steal);
		warn_add(r, "%s: other work competed for the CPU during %s: %s, in %d of "
			 "%d repetition%s (the rule: %.1f CPUs of other work, or %.0f %% "
			 "steal, over a repetition); %s numbers may be low, rerun on a "
			 "quiet machine", dv->display, pick_text(&pk, tmp), why, hit, reps,
			 reps == 1 ? "" : "s", SYSLOAD_OTHER_CPUS, SYSLOAD_STEAL_PCT,
			 pk.n == 1 ? "its" : "their");
	}
	sbuf_release(&pk.names);
}

static void warnings_device(struct report *r, size_t d, const uint64_t *apart,
			    struct sbuf *tmp)
{
	char a[32], b[32];
	const struct rdev *dv = &r->devs[d];
	const struct rset *rs = &r->sets[dv->set];
	struct cellpick pk[W__N];
	double mem = set_mem(rs), maxset = 0;
	const char *first_err = NULL;

	size_t ncells = 0;
	memset(pk, 0, sizeof(pk));
	for (size_t i = 0; i < rs->ncells; i++) {
		const struct rset_cell *c = &rs->cells[i];
		if (!dev_cell(dv, c))
			continue;
		ncells++;
		uint64_t ap = apart ? apart[i] : 0;
		if (!c->ok) {
			pick_add(&pk[W_FAILED], c, ap);
			if (!first_err)
				first_err = c->error ? c->error : c->status;
			continue;
		}
		const struct engine *eng = engine_lookup(c->cell.engine);
		if (eng && (eng->flags & ENGINE_NO_IO))
			pick_add(&pk[strcmp(eng->name, "model") ? W_NULL : W_MODEL], c, ap);
		double set_bytes = (double)c->cell.size * c->cell.files;
		if (set_bytes > maxset)
			maxset = set_bytes;
		bool reads = c->dir[DIR_READ].present, writes = c->dir[DIR_WRITE].present;
		if (!c->cell.direct && reads && mem > 0 && set_bytes > 0 && set_bytes < mem)
			pick_add(&pk[W_CACHE], c, ap);
		if (!c->cell.direct && writes && !c->cell.fsync && !c->cell.end_fsync &&
		    !c->cell.fdatasync && !c->cell.sysbench_fsync_freq)
			pick_add(&pk[W_BUFWRITE], c, ap);
		if (writes && c->cell.data != DATA_RANDOM)
			pick_add(&pk[W_DATA], c, ap);
		bool noisy = false;
		for (int k = 0; k < DIR__COUNT; k++)
			noisy |= c->dir[k].present && c->dir[k].iops.n >= 2 &&
				 c->dir[k].iops.cv > 0.05;
		bool wild = false;
		for (int k = 0; k < DIR__COUNT; k++)
			wild |= c->dir[k].present && c->dir[k].iops.n >= 2 &&
				(c->dir[k].iops.cv > 0.5 ||
				 c->dir[k].iops.ci95 >= c->dir[k].iops.mean ||
				 c->dir[k].bw.ci95 >= c->dir[k].bw.mean ||
				 c->dir[k].lat_mean.ci95 >= c->dir[k].lat_mean.mean);
		if (wild)
			pick_add(&pk[W_WILD], c, ap);
		else if (noisy)
			pick_add(&pk[W_NOISY], c, ap);
		if (c->runtime_mean_ns > 0 && c->runtime_mean_ns < 5e9)
			pick_add(&pk[W_SHORT], c, ap);
		/* a repetition that completed no IO in a direction it ran */
		bool noio = false;
		for (int k = 0; k < DIR__COUNT; k++)
			noio |= c->dir[k].present && c->dir[k].iops.n >= 1 &&
				!(c->dir[k].iops.min > 0);
		if (noio)
			pick_add(&pk[W_NOIO], c, ap);
	}
	const char *nm = dv->display;
	/* the null engine never reaches the device: what the fingerprint
	 * says about the disk is beside the point for those cells */
	bool all_null = ncells && pk[W_NULL].n + pk[W_MODEL].n == ncells;
	if (pk[W_NULL].n)
		warn_add(r, "%s: %s used the null engine, which does no IO: %s measure "
			 "iomatrix itself, not storage", nm, pick_text(&pk[W_NULL], tmp),
			 pk[W_NULL].n == 1 ? "its numbers" : "their numbers");
	if (pk[W_MODEL].n)
		warn_add(r, "%s: %s used the model engine, a device that does no IO and "
			 "behaves as its model_* keys say: %s a model's, not storage's",
			 nm, pick_text(&pk[W_MODEL], tmp),
			 pk[W_MODEL].n == 1 ? "its numbers are" : "their numbers are");
	if (pk[W_CACHE].n) {
		units_format_size(mem, a, sizeof(a));
		warn_add(r, "%s: %s read%s a file set smaller than the host's RAM (%s) "
			 "with buffered IO: the page cache likely served them, so the "
			 "numbers measure memory, not the device (use direct: true)",
			 nm, pick_text(&pk[W_CACHE], tmp), pk[W_CACHE].n == 1 ? "s" : "", a);
	}
	if (pk[W_BUFWRITE].n)
		warn_add(r, "%s: %s wrote%s with buffered IO and no fsync: the page cache "
			 "absorbed the writes (set fsync or end_fsync, or direct: true)",
			 nm, pick_text(&pk[W_BUFWRITE], tmp), "");
	if (pk[W_DATA].n)
		warn_add(r, "%s: %s wrote zero or compressible data: devices and "
			 "filesystems that compress or deduplicate look faster than "
			 "with real data (use data: random)", nm, pick_text(&pk[W_DATA], tmp));
	if (pk[W_NOISY].n)
		warn_add(r, "%s: %s %s noisy (IOPS varies by more than 5 %% between "
			 "repetitions): compare with care, or run longer or more "
			 "repetitions", nm, pick_text(&pk[W_NOISY], tmp),
			 pk[W_NOISY].n == 1 ? "is" : "are");
	if (pk[W_WILD].n)
		warn_add(r, "%s: %s %s by more than 50 %% between repetitions or "
			 "%s a 95 %% confidence interval as wide as the value (marked † "
			 "in the tables, shown without ±): such a mean is "
			 "not a stable number; run longer or find what disturbs it",
			 nm, pick_text(&pk[W_WILD], tmp), pk[W_WILD].n == 1 ? "varies" : "vary",
			 pk[W_WILD].n == 1 ? "has" : "have");
	if (pk[W_SHORT].n)
		warn_add(r, "%s: %s ran for less than 5 s: caches and background "
			 "work may not have settled (raise runtime)", nm,
			 pick_text(&pk[W_SHORT], tmp));
	if (pk[W_NOIO].n)
		warn_add(r, "%s: %s completed no IO in %s: the device did not "
			 "answer within the runtime, or the job got no CPU; an IOPS of 0 "
			 "measures neither, so no ratio or sentence is drawn from %s",
			 nm, pick_text(&pk[W_NOIO], tmp),
			 pk[W_NOIO].n == 1 ? "a repetition" : "some repetition",
			 pk[W_NOIO].n == 1 ? "it" : "them");
	if (pk[W_FAILED].n)
		warn_add(r, "%s: %s failed (first error: %s)", nm,
			 pick_text(&pk[W_FAILED], tmp), first_err ? first_err : "unknown");
	if (!all_null && dv->info && dv->info->size_bytes > 0 && maxset > 0 &&
	    maxset * 10 < (double)dv->info->size_bytes) {
		units_format_size(maxset, a, sizeof(a));
		units_format_size((double)dv->info->size_bytes, b, sizeof(b));
		warn_add(r, "%s: the file set (%s) is far smaller than the device (%s): %s",
			 nm, a, b, dv->info->rotational == 1 ?
			 "a hard disk is short-stroked (only its fastest tracks are used) "
			 "and disk or RAID caches may hold much of it" :
			 "device or RAID caches (DRAM, SLC) may hold much of it, so "
			 "sustained numbers may be lower");
	}
	/* RAM first and on its own: a RAM device named "hdd" gets both */
	if (!all_null && dv->info && ram_kind_is(dv->info->virt_kind))
		warn_add(r, "%s: the device is RAM (%s%s%s), not storage: " RAM_KIND_WHY, nm,
			 dv->info->virt_kind, dv->info->loop_backing_file ?
			 ", a loop device over " : "", dv->info->loop_backing_file ?
			 dv->info->loop_backing_file : "");
	if (all_null)
		;
	else if (dv->info && name_like_hdd(dv->name) &&
	    (dv->info->rotational == 0 || dv->info->virt == 1))
		warn_add(r, "%s: named like a hard disk but the kernel reports it %s: "
			 "check the path points at the disk you mean",
			 nm, dv->info->virt == 1 ? "as a virtual device" : "non-rotational");
	else if (dv->info && ram_kind_is(dv->info->virt_kind))
		; /* said above */
	else if (dv->info && dv->info->virt == 1)
		warn_add(r, "%s: the device is virtual (%s): numbers include the "
			 "host's caching", nm,
			 dv->info->virt_kind ? dv->info->virt_kind :
			 dv->info->block_device ? dv->info->block_device : "virtio, loop, ...");
	for (int k = 0; k < W__N; k++)
		sbuf_release(&pk[k].names);
}

int sets_verify(struct report *r)
{
	r->unverified = calloc(r->nsets ? r->nsets : 1, sizeof(*r->unverified));
	r->verified = calloc(r->nsets ? r->nsets : 1, sizeof(*r->verified));
	if (!r->unverified || !r->verified)
		return -1;
	for (size_t s = 0; s < r->nsets; s++) {
		struct rset *rs = &r->sets[s];
		int st = sums_verify_dir(rs->dir, SUMS_SET, &r->unverified[s]);
		if (st < 0)
			return -1;
		r->verified[s] = st;
		/* no SHA256SUMS: a set written before checksums, accepted */
		if (st == SUMS_FAILED)
			errlist_add(&rs->warnings, NULL, 0, 0,
				    "'%s' fails verification (%s): these are not the files "
				    "its run wrote; see 'iomatrix verify %s'",
				    rs->shown, r->unverified[s], rs->shown);
	}
	return 0;
}

void warnings_compute(struct report *r)
{
	struct sbuf tmp = SBUF_INIT;

	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		for (size_t i = 0; i < rs->warnings.n; i++)
			warn_add(r, "%s", rs->warnings.msgs[i]);
		if (strcmp(rs->source_kind, "iomatrix")) {
			if (!strcmp(rs->source_kind, "synthetic"))
				warn_add(r, "%s holds SYNTHETIC numbers from a toy model, "
					 "not a measurement; do not publish them", rs->shown);
			else
				warn_add(r, "%s was imported from %s output; parameters "
					 "the tool did not record are shown with defaults",
					 rs->shown, rs->source_kind);
		}
		missing_cells(rs, &tmp);
		if (strcmp(rs->status, "complete"))
			warn_add(r, "%s is %s: only %zu of %d cells finished; this report is partial%s",
				 rs->shown, rs->status, rs->ncells, rs->cells_total, sbuf_str(&tmp));
		else if ((int)rs->ncells < rs->cells_total)
			warn_add(r, "%s: %d of %d cells %s missing; this report is partial%s",
				 rs->shown, rs->cells_total - (int)rs->ncells, rs->cells_total,
				 rs->cells_total - (int)rs->ncells == 1 ? "is" : "are", sbuf_str(&tmp));
		const char *virt = rset_obj_str(&rs->host, "virtualization");
		if (virt && virt[0] && strcmp(virt, "none"))
			warn_add(r, "host '%s' is a virtual machine (%s): the hypervisor's "
				 "caches and neighbours affect the numbers",
				 rs->hostname, virt);
	}

	for (size_t d = 0; d < r->ndevs; d++) {
		uint64_t *apart = dev_apart(r, &r->devs[d]);
		warnings_device(r, d, apart, &tmp);
		warn_load(r, d, apart, &tmp);
		free(apart);
	}

	/* runner warnings, counted per distinct text */
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		const char *seen[16];
		size_t nseen = 0;
		for (size_t i = 0; i < rs->ncells && nseen < 16; i++) {
			for (size_t wi = 0; wi < rs->cells[i].nwarnings; wi++) {
				const char *w = rs->cells[i].warnings[wi];
				if (nseen >= 16)
					continue;
				bool dup = false;
				for (size_t k = 0; k < nseen; k++)
					dup |= !strcmp(seen[k], w);
				if (dup)
					continue;
				seen[nseen++] = w;
				size_t cnt = 0;
				for (size_t j = 0; j < rs->ncells; j++)
					for (size_t x = 0; x < rs->cells[j].nwarnings; x++)
						if (!strcmp(rs->cells[j].warnings[x], w)) {
							cnt++;
							break;
						}
				warn_add(r, "%s: warning recorded in %zu cell%s: %s", rs->shown,
					 cnt, cnt == 1 ? "" : "s", w);
			}
		}
	}
	sbuf_release(&tmp);
}

/* ---- alerts: what must be read before any number ---- */

static void alert_add(struct report *r, char *s)
{
	(void)array_add_str(&r->alerts, &r->nalerts, s);
}

/* Device a's identity (host/devident.h): its keys when it is a model
 * device; else its disk on its host, unknown for an import. */
static struct dev_ident ident_of(const struct report *r, const struct rdev *d)
{
	struct dev_ident id = { NULL, { NULL, NULL, NULL }, d->model };
	if (!d->model && d->info && !d->imported) {
		id.host = d->host ? d->host : r->sets[d->set].hostname;
		id.disk = d->info->disk;
	}
	return id;
}

bool report_same_disk(const struct report *r, size_t a, size_t b, const char **what)
{
	const struct rdev *da = &r->devs[a], *db = &r->devs[b];
	struct dev_ident ia = ident_of(r, da), ib = ident_of(r, db);
	const char *w = NULL;
	/* one name in two sets is a device and its own past: no alert */
	if (a == b || !strcmp(da->name, db->name) || !devident_same(&ia, &ib, &w))
		return false;
	*what = w;
	return true;
}

/* Device b is device a, under any name (what: the disk or the model). */
static bool same_disk(const struct report *r, const struct rdev *da,
		      const struct rdev *db, const char **what)
{
	struct dev_ident ia = ident_of(r, da), ib = ident_of(r, db);
	return devident_same(&ia, &ib, what);
}

/*
 * Two names for one device (host/devident.h): a device compared with
 * itself (seed 000 with /mnt/hdd and /mnt/ssd absent puts both "devices" in
 * scratch directories on the same disk; two model devices with one set of
 * keys).  Every target of that device is named, once: "a (old), b (old),
 * a (new) and b (new) are the same device".  One name in several sets (a
 * device and its own past) is no alert.  Quadratic in the devices, which
 * are few (the cells are not walked).
 */
static void same_device_alerts(struct report *r)
{
	bool *done = calloc(r->ndevs ? r->ndevs : 1, sizeof(*done));

	if (!done)
		return;
	for (size_t a = 0; a < r->ndevs; a++) {
		const struct rdev *da = &r->devs[a];
		const char *what = NULL;
		size_t last = a;
		bool two_names = false;
		if (done[a])
			continue;
		for (size_t b = a + 1; b < r->ndevs; b++)
			if (!done[b] && same_disk(r, da, &r->devs[b], &what)) {
				last = b;
				two_names |= strcmp(da->name, r->devs[b].name) != 0;
			}
		if (!two_names)
			continue;
		struct sbuf names = SBUF_INIT;
		sbuf_adds(&names, da->display);
		done[a] = true;
		for (size_t b = a + 1; b < r->ndevs; b++)
			if (!done[b] && same_disk(r, da, &r->devs[b], NULL)) {
				sbuf_addf(&names, "%s%s", b == last ? " and " : ", ",
					  r->devs[b].display);
				done[b] = true;
			}
		if (da->model)
			alert_add(r, fmt_str("%s are one model device (the same model keys): "
					       "this compares the model with itself. Give each "
					       "model device its own keys.", sbuf_str(&names)));
		else
			alert_add(r, fmt_str("%s are the same device (%s): this compares "
					       "a device with itself. Point each device at its own "
					       "disk (--device NAME=PATH).", sbuf_str(&names), what));
		sbuf_release(&names);
	}
	free(done);
}

void alerts_compute(struct report *r)
{
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		if (rs->scale == 1 || strcmp(rs->source_kind, "iomatrix"))
			continue;
		char pct[32];
		snprintf(pct, sizeof(pct), "%.3g %%", rs->scale * 100);
		r->rehearsal = true;
		alert_add(r, fmt_str("Rehearsal, not a measurement: %s was run with --scale %g, "
				       "so file sizes, run times, request counts and pauses are %s of "
				       "what suite '%s' specifies. Run it without --scale before "
				       "publishing these numbers.", rs->shown, rs->scale, pct,
				       rs->suite_name ? rs->suite_name : "?"));
	}
	same_device_alerts(r);
}
