/*
 * fio_export.c - fio_export.h: the job files (job_header, write_job), the
 * shell script (its preamble, purge and preconditioning steps, one line per
 * cell, the rounds loop) and the notes on what is not the same.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "resultset/setout.h"
#include "util/cliopt.h"
#include "util/units.h"
#include "engines/engine.h"
#include "suite/fio_map.h"
#include "pts/run_ssd.h"
#include "fio_export.h"

/* lower-case, [a-z0-9] kept, runs of anything else -> one '-' */
static void slug(const char *in, char *out, size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (; *in && n + 2 < len; in++) {
		unsigned char c = (unsigned char)*in;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && n)
				out[n++] = '-';
			out[n++] = (char)c;
			dash = false;
		} else if (c >= 'A' && c <= 'Z') {
			if (dash && n)
				out[n++] = '-';
			out[n++] = (char)(c - 'A' + 'a');
			dash = false;
		} else {
			dash = true;
		}
	}
	out[n] = '\0';
}

/* Text for a fio comment: no control characters. */
static void comment_safe(const char *in, char *out, size_t len)
{
	size_t n = 0;
	for (; *in && n + 1 < len; in++)
		out[n++] = ((unsigned char)*in < 0x20 || *in == 0x7f) ? '?' : *in;
	out[n] = '\0';
}

static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void emit_line(void *arg, const char *key, const char *val)
{
	fprintf(arg, "%s=%s\n", key, val);
}

/* One export: the suite, the directory, run-all.sh being written. */
struct exp {
	const struct suite *s;
	const char *dir;
	FILE *sh;
};

/* A path that run-all.sh must treat as a block device: one now, one under
 * /dev (a device of another machine), or one the suite says is destroyed. */
static bool blockish(const struct suite_device *d)
{
	struct stat st;

	if (stat(d->path, &st) == 0)
		return S_ISBLK(st.st_mode);
	return d->destructive || (!strncmp(d->path, "/dev/", 5) &&
				  strncmp(d->path, "/dev/shm/", 9));
}

/* The job file's own account of what it is and what it is not. */
static void job_header(FILE *f, const struct suite *s, const struct cell *c)
{
	char lab[CELL_LABEL_MAX], dev[PATH_MAX + 8], t[32];
	double env = fio_map_io_size_env(c);

	comment_safe(c->label, lab, sizeof(lab));
	comment_safe(c->path, dev, sizeof(dev));
	if (c->id > 0)
		fprintf(f, "; iomatrix export: cell %d of suite '%s' (sha256 %.16s...)\n",
			c->id, s->name, s->sha256);
	else
		fprintf(f, "; iomatrix export: preconditioning of suite '%s' (sha256 %.16s...),\n"
			   "; run once before the device's cells\n", s->name, s->sha256);
	fprintf(f, "; device '%s' at %s, label '%s'\n", c->device, dev, lab);
	units_format_duration(c->cooldown_ns, t, sizeof(t));
	fprintf(f, "; repeat %u, cooldown %s: run-all.sh repeats the job%s\n",
		c->steady.window ? c->steady.max : c->repeat, t,
		c->drop_caches ? " and drops the page cache first" : "");
	if (c->steady.window)
		fprintf(f, "; NOT THE SAME: steady_state (window %u, max %u): iomatrix stops "
			   "repeating once IOPS are steady and reports the window average;\n"
			   "; fio cannot judge that, run-all.sh runs all %u repetitions\n",
			c->steady.window, c->steady.max, c->steady.max);
	if (s->rounds.on && c->id > 0)
		fprintf(f, "; NOT THE SAME: rounds (max %u, window %u): iomatrix stops at steady "
			   "state; run-all.sh runs every round\n",
			s->rounds.rule.max, s->rounds.rule.window);
	const char *unlike = fio_map_unlike(c);
	if (unlike)
		fprintf(f, "; NOT THE SAME: %s\n", unlike);
	if (c->sysbench_fsync_freq)
		fprintf(f, "; NOT THE SAME: sysbench_fsync_freq %u (one fsync per file after "
			   "every %u requests of all jobs together):\n; fio counts fsync "
			   "per job and file, so this job has no periodic fsync\n",
			c->sysbench_fsync_freq, c->sysbench_fsync_freq);
	if (c->sequential_shared && !pattern_is_random(c->pattern) && c->jobs > 1)
		fprintf(f, "; NOT THE SAME: sequential_shared: iomatrix's %u jobs take turns on one "
			   "stream over the files\n; (sysbench's seqrd/seqwr/seqrewr); fio has no "
			   "shared position, each job here reads or writes its own\n", c->jobs);
	if (pattern_is_random(c->pattern) && c->jobs > 1 && !c->norandommap &&
	    !c->random_distribution)
		fprintf(f, "; NOT THE SAME: random map: iomatrix's %u jobs share one pass (every "
			   "block once per pass of them all);\n; fio gives each job a map of "
			   "its own, so its jobs overlap\n", c->jobs);
	if (c->randrepeat == false && c->repeat > 1)
		fprintf(f, "; randrepeat=0: fio seeds each run from the clock, iomatrix "
			   "each repetition from the seed and its number\n");
	if (c->rate.iops[0] || c->rate.iops[1])
		fprintf(f, "; NOT THE SAME: latency under rate_iops: iomatrix counts each IO's "
			   "latency from its\n; intended start in the rate schedule (response "
			   "latency), fio's lat/clat from when\n; fio issued it; when the device "
			   "falls behind, the wait is in iomatrix's numbers\n; only (compare "
			   "fio's lat with iomatrix's service_lat_ns)\n");
	if (load_sweep_on(&c->load_sweep))
		fprintf(f, "; NOT THE SAME: load_sweep: fio cannot sweep the offered load; this "
			   "job is the\n; cell's unthrottled probe; iomatrix then runs it once per "
			   "load point at\n; rate_iops = that load / numjobs\n");
	if (env > 0)
		fprintf(f, "; io_size: %.6g of the device's bytes per job, more than fio's "
			   "io_size=100%%:\n; run-all.sh sets ${" FIO_MAP_IO_SIZE_ENV "} in bytes\n",
			env);
}

/*
 * The histogram log of a cell's job: fio's latency histogram of each
 * interval of the cell's series (log_hist_msec), as iomatrix keeps them in
 * series.hist, so that both tools compare interval by interval.  Logging
 * only: not part of the workload (the report's fio command line, from
 * fio_map, leaves it out).  fio writes it where it runs, named for the
 * job's section; run-all.sh moves it beside the repetition's JSON.
 */
static void job_hist_log(FILE *f, const struct cell *c, const char *section)
{
	uint64_t iv = cell_interval_ns(c), ms = (iv + 500000) / 1000000;

	if (ms < 1)
		ms = 1;
	fprintf(f, "; each interval's latency histogram, as iomatrix's series.hist:\n"
		   "; iomatrix import fio JOB.json --hist-log %s_clat_hist.1.log\n"
		   "; reads them back (fio writes completion latency; run with\n"
		   "; --output-format=json+, whose bins hold the IOs after the last line)\n",
		section);
	if (ms * 1000000 != iv)
		fprintf(f, "; NOT THE SAME: the cell's interval is %.3f ms; fio logs whole ms\n",
			(double)iv / 1e6);
	fprintf(f, "write_hist_log=%s\nlog_hist_msec=%llu\n", section, (unsigned long long)ms);
}

static int write_job(const struct suite *s, const struct cell *c,
		     const char *section, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	job_header(f, s, c);
	fprintf(f, "[%s]\n", section);
	fio_map_cell(c, fio_map_path_is_dir(c->path), emit_line, f);
	if (c->id > 0)
		job_hist_log(f, c, section);
	if (ferror(f)) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

/* The fio command of one job in run-all.sh; out: the JSON name's stem. */
static void sh_fio(FILE *sh, const struct cell *c, const char *name,
		   const char *out)
{
	double env = fio_map_io_size_env(c);

	fputc('\t', sh);
	if (env > 0) {
		fprintf(sh, FIO_MAP_IO_SIZE_ENV "=$(iosize ");
		sh_quote(sh, c->path);
		fprintf(sh, " %.9g %llu) ", env, (unsigned long long)(c->bs ? c->bs : 4096));
	}
	fprintf(sh, "fio --output-format=json+ --output=\"$D/%s.json\" \"$D/%s.fio\"\n",
		out, name);
	/* a cell's histogram log, written where fio ran: beside its JSON */
	if (c->id > 0)
		fprintf(sh, "\tfor f in cell-%04d_clat_hist.*.log; do [ ! -e \"$f\" ] || "
			    "mv -f \"$f\" \"$D/%s${f#cell-%04d}\"; done\n", c->id, out, c->id);
}

/* Does a cell of device d do IO (engine null opens nothing)? */
static bool device_io(const struct suite *s, const struct suite_device *d)
{
	for (size_t k = 0; k < s->ncells; k++) {
		const struct engine *e = engine_find(s->cells[k].engine);
		if (!strcmp(s->cells[k].device, d->name) && (!e || !(e->flags & ENGINE_NO_IO)))
			return true;
	}
	return false;
}

/* Top of run-all.sh: what it is, what it is not, and its guards. */
static void sh_preamble(struct exp *e)
{
	const struct suite *s = e->s;
	FILE *sh = e->sh;

	fprintf(sh, "#!/bin/sh\n"
		    "# The fio equivalent of suite '%s', in iomatrix's order.\n"
		    "# Each repetition writes NNNN-....repN.json (json+) and its latency\n"
		    "# histogram log NNNN-....repN_clat_hist.1.log next to this script.\n"
		    "# Generated by iomatrix export fio; needs fio 3.x.\n"
		    "# Device paths are used as the suite gives them: relative ones are\n"
		    "# relative to where you run this script, as with 'iomatrix run'.\n"
		    "# Purge is a blkdiscard that asks first; preconditioning runs as fio\n"
		    "# jobs before a device's cells; rounds are a loop over every round:\n"
		    "# fio cannot stop at steady state as iomatrix does (see each job file).\n"
		    "# A block device is written only with IOMATRIX_YES_DESTROY_DATA=1.\n"
		    "set -eu\nD=$(dirname \"$0\")\n"
		    "# iosize DEV SHARE BS: SHARE of DEV's bytes, whole blocks (io_size over 100%%)\n"
		    "iosize() {\n"
		    "\tblockdev --getsize64 \"$1\" | awk -v f=\"$2\" -v b=\"$3\" '{ v = int($1 * f / b) * b;"
		    " if (v < b) v = b; printf \"%%.0f\\n\", v }'\n"
		    "}\n", s->name);
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		char nm[CELL_NAME_MAX];
		comment_safe(d->name, nm, sizeof(nm));
		if (!strncmp(d->path, "/dev/", 5) && strncmp(d->path, "/dev/shm/", 9) &&
		    device_io(s, d)) {
			/* fio would make a regular file in /dev: memory */
			fprintf(sh, "[ -b ");
			sh_quote(sh, d->path);
			fprintf(sh, " ] || { echo \"run-all.sh: device '%s': no block device \"", nm);
			sh_quote(sh, d->path);
			fprintf(sh, "\"; fio would write a file in /dev (memory)\" >&2; exit 2; }\n");
		}
		if (!ssd_device_writes(s, d))
			continue;
		fprintf(sh, "if [ -b ");
		sh_quote(sh, d->path);
		fprintf(sh, " ] && [ \"${IOMATRIX_YES_DESTROY_DATA:-}\" != 1 ]; then\n"
			    "\techo \"run-all.sh: device '%s': writing block device \"", nm);
		sh_quote(sh, d->path);
		fprintf(sh, "\" destroys all its data; set IOMATRIX_YES_DESTROY_DATA=1 to confirm\" >&2\n"
			    "\texit 2\nfi\n");
	}
	for (size_t i = 0; i < s->ndevices; i++)
		if (fio_map_path_is_dir(s->devices[i].path)) {
			fprintf(sh, "mkdir -p ");
			sh_quote(sh, s->devices[i].path);
			fprintf(sh, "\n");
		}
}

/* Purge and preconditioning of device d before its first cell `first`:
 * a blkdiscard that asks, then one fio job per pass.  0 or -errno. */
static int sh_prepare(struct exp *e, const struct suite_device *d,
		      const struct cell *first)
{
	char path[PATH_MAX + 300], name[256], ds[80], nm[CELL_NAME_MAX];
	FILE *sh = e->sh;
	int rc;

	slug(d->name, ds, sizeof(ds));
	comment_safe(d->name, nm, sizeof(nm));
	if (d->purge == PURGE_DISCARD) {
		fprintf(sh, "# purge: discard (SNIA PTS) of device '%s'\n"
			    "printf '%%s' \"run-all.sh: discard ALL data on \"", nm);
		sh_quote(sh, d->path);
		fprintf(sh, "\" (device '%s')? type yes: \" >&2\n"
			    "read ans || ans=\n"
			    "[ \"$ans\" = yes ] || { echo \"run-all.sh: not purged; stopping\" >&2; exit 1; }\n"
			    "blkdiscard ", nm);
		sh_quote(sh, d->path);
		fprintf(sh, "\n");
	}
	for (unsigned k = 0; k < d->pre.npass && d->pre.kind != PRECOND_NONE; k++) {
		const struct precond_pass *p = &d->pre.pass[k];
		struct cell pc;

		ssd_precond_cell(first, p, k, &pc);
		if (p->amount_mult > 0)
			pc.io_size_mult = p->amount_mult;
		else
			pc.io_size = p->amount_bytes;
		snprintf(name, sizeof(name), "pre-%s-%u", ds, k + 1);
		snprintf(path, sizeof(path), "%s/%s.fio", e->dir, name);
		if ((rc = write_job(e->s, &pc, name, path)) < 0) {
			fprintf(stderr, "iomatrix: cannot write '%s': %s\n", path, strerror(-rc));
			return rc;
		}
		fprintf(sh, "# preconditioning pass %u of device '%s'\n{\n", k + 1, nm);
		sh_fio(sh, &pc, name, name);
		fprintf(sh, "}\n");
	}
	return 0;
}

/* Job file and run-all.sh lines of cell c; round: "" or ".round$round". */
static int sh_cell(struct exp *e, const struct cell *c, const char *round)
{
	char path[PATH_MAX + 300], name[256], out[300], sl[128], ds[80], sec[32];
	unsigned reps = c->steady.window ? c->steady.max : c->repeat;
	int rc;

	slug(c->label, sl, sizeof(sl));
	slug(c->device, ds, sizeof(ds));
	snprintf(name, sizeof(name), "%04d-%s-%s-%s", c->id, ds, sl,
		 pattern_name(c->pattern));
	snprintf(path, sizeof(path), "%s/%s.fio", e->dir, name);
	snprintf(sec, sizeof(sec), "cell-%04d", c->id);
	/* with rounds, every round runs the same job file */
	if ((rc = write_job(e->s, c, sec, path)) < 0) {
		fprintf(stderr, "iomatrix: cannot write '%s': %s\n", path, strerror(-rc));
		return rc;
	}
	snprintf(out, sizeof(out), "%s%s.rep$rep", name, round);
	fprintf(e->sh, "for rep in $(seq 1 %u); do\n", reps);
	if (c->drop_caches)
		fprintf(e->sh, "\tsync; echo 3 > /proc/sys/vm/drop_caches || true\n");
	sh_fio(e->sh, c, name, out);
	if (c->cooldown_ns && reps > 1)
		fprintf(e->sh, "\t[ $rep = %u ] || sleep %.3f\n", reps,
			(double)c->cooldown_ns / 1e9);
	fprintf(e->sh, "done\n");
	return 0;
}
/* Say on stderr what run-all.sh will destroy and what is not the same. */
static void export_notes(const struct suite *s)
{
	bool steady = false;

	for (size_t i = 0; i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		if (ssd_device_writes(s, d) && blockish(d))
			fprintf(stderr, "iomatrix: warning: run-all.sh writes block device '%s' "
				"(device '%s'), destroying all data on it; it refuses to run "
				"unless IOMATRIX_YES_DESTROY_DATA=1 is set\n", d->path, d->name);
		if (d->purge == PURGE_DISCARD)
			fprintf(stderr, "iomatrix: note: device '%s': purge is a blkdiscard "
				"step in run-all.sh that asks first\n", d->name);
		if (d->pre.kind != PRECOND_NONE)
			fprintf(stderr, "iomatrix: note: device '%s': preconditioning is "
				"pre-*.fio, run before the device's cells\n", d->name);
	}
	for (size_t i = 0; i < s->ncells; i++)
		steady |= s->cells[i].steady.window > 0;
	if (s->rounds.on || steady)
		fprintf(stderr, "iomatrix: note: NOT THE SAME: %s at steady state in "
			"iomatrix; fio cannot judge that, so run-all.sh runs every %s "
			"(the job files say so)\n",
			s->rounds.on ? "rounds stop" : "steady_state cells stop",
			s->rounds.on ? "round up to max" : "repetition up to max");
}

static const struct suite_device *device_of(const struct suite *s,
					    const struct cell *c, size_t *idx)
{
	for (size_t i = 0; i < s->ndevices; i++)
		if (!strcmp(s->devices[i].name, c->device)) {
			*idx = i;
			return &s->devices[i];
		}
	return NULL;
}

/* Cells in run order, each device prepared before its first cell. */
static int export_cells(struct exp *e)
{
	const struct suite *s = e->s;
	bool *prepared = calloc(s->ndevices + 1, sizeof(*prepared));
	int rc = 0;

	if (!prepared)
		return -ENOMEM;
	for (size_t i = 0; rc == 0 && i < s->ncells; i++) {
		size_t k = 0;
		const struct suite_device *d = device_of(s, &s->cells[i], &k);
		if (d && !prepared[k]) {
			prepared[k] = true;
			rc = sh_prepare(e, d, &s->cells[i]);
		}
		if (rc == 0)
			rc = sh_cell(e, &s->cells[i], "");
	}
	free(prepared);
	return rc;
}

/* Rounds: per device, preparation once, then every round of its cells. */
static int export_rounds(struct exp *e)
{
	const struct suite *s = e->s;
	int rc = 0;

	for (size_t d = 0; rc == 0 && d < s->ndevices; d++) {
		const struct cell *first = NULL;
		for (size_t i = 0; !first && i < s->ncells; i++)
			if (!strcmp(s->cells[i].device, s->devices[d].name))
				first = &s->cells[i];
		if (!first)
			continue;
		if ((rc = sh_prepare(e, &s->devices[d], first)) < 0)
			break;
		fprintf(e->sh, "# rounds: all %u of them; iomatrix stops once the tracked cells "
			"are steady (window %u), which fio cannot judge\n"
			"round=1\nwhile [ $round -le %u ]; do\n",
			s->rounds.rule.max, s->rounds.rule.window, s->rounds.rule.max);
		for (size_t i = 0; rc == 0 && i < s->ncells; i++)
			if (!strcmp(s->cells[i].device, s->devices[d].name))
				rc = sh_cell(e, &s->cells[i], ".round$round");
		fprintf(e->sh, "round=$((round + 1))\ndone\n");
	}
	return rc;
}

int export_fio(const struct suite *s, const char *dir)
{
	char path[PATH_MAX + 300];
	struct exp e = { s, dir, NULL };
	int rc;

	if (strlen(dir) >= PATH_MAX - 300) {
		fprintf(stderr, "iomatrix: directory name too long\n");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < s->ndevices; i++)
		if (strpbrk(s->devices[i].path, "\n\r")) {
			fprintf(stderr, "iomatrix: device '%s' path contains a newline; fio job files cannot hold it\n",
				s->devices[i].name);
			return EXIT_USAGE;
		}
	char why[1024];
	if (resultset_output_check(dir, NULL, why, sizeof(why)) < 0) {  /* setout.h */
		fprintf(stderr, "iomatrix: %s\n", why);
		return EXIT_USAGE;
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "iomatrix: cannot create '%s': %s\n", dir,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "%s/run-all.sh", dir);
	e.sh = fopen(path, "w");
	if (!e.sh) {
		fprintf(stderr, "iomatrix: cannot write '%s': %s\n", path,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	sh_preamble(&e);
	rc = s->rounds.on ? export_rounds(&e) : export_cells(&e);
	if (rc < 0) {
		fclose(e.sh);
		return EXIT_RUNTIME;
	}
	if (ferror(e.sh) | fclose(e.sh)) {
		fprintf(stderr, "iomatrix: cannot write run-all.sh\n");
		return EXIT_RUNTIME;
	}
	chmod(path, 0755);
	export_notes(s);
	printf("%s: %zu fio job files and run-all.sh\n", dir, s->ncells);
	return EXIT_OK;
}
