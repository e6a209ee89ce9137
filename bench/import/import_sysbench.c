/*
 * import_sysbench.c - `iomatrix import sysbench`: sysbench 1.0 fileio `run`
 * output into cells.  The header gives the parameters (threads, file set,
 * block size, mode words such as "Doing random read test"), the tail the
 * figures (reads/s, writes/s, MiB/s, latency min/avg/max/95th in ms).  A log
 * may hold several runs, e.g. seed 003's script appending every mode to one
 * file after a "----DIR BS MODE----" line.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "util/units.h"

/* One run as read from the log; -1 means "not seen". */
struct sb_run {
	unsigned start_line;
	char version[64];
	char marker_dir[PATH_MAX];
	enum pattern marker_mode;
	bool have_marker_mode;
	uint64_t marker_bs;
	long threads;
	long nfiles;
	double file_bytes;
	uint64_t bs;
	long requests;
	double rw_ratio;
	long fsync_every;
	int end_fsync;
	char flags[64];
	char io_mode[32];
	bool have_mode;
	enum pattern mode;
	char mode_words[64];
	double reads_s, writes_s, fsyncs_s, read_mib_s, written_mib_s;
	double total_time_s, events;
	double lat_min, lat_avg, lat_max, lat_pct, lat_pct_p, lat_sum;
	bool have_reads, have_writes, have_rmib, have_wmib, have_time;
	bool have_lat_min, have_lat_avg, have_lat_max, have_lat_pct;
	unsigned fig_line[16];      /* the line of each figure (sb_figs), 0 none */
};

static void sb_run_init(struct sb_run *r, unsigned line)
{
	memset(r, 0, sizeof(*r));
	r->start_line = line;
	r->threads = r->nfiles = r->requests = r->fsync_every = -1;
	r->end_fsync = -1;
	r->rw_ratio = -1;
	r->file_bytes = -1;
}

/* "16MiB", "6.25GiB", "64MiB" -> bytes (powers of 1024); -1 if bad. */
static double sb_size(const char *s)
{
	const char *end;
	double v;
	uint64_t mul = 1;

	if (units_parse_decimal(s, &end, &v) < 0)
		return -1;
	while (*end == ' ')
		end++;
	switch (tolower((unsigned char)*end)) {
	case 'k': mul = 1ULL << 10; end++; break;
	case 'm': mul = 1ULL << 20; end++; break;
	case 'g': mul = 1ULL << 30; end++; break;
	case 't': mul = 1ULL << 40; end++; break;
	case 'b': break;
	case '\0': return v;
	default: return -1;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : v * (double)mul;
}

/* A number followed only by an optional unit letter ("2.0007s").  Decimal
 * only, as sysbench prints it (printf %.2f): strtod also took "0x10" as
 * 16, "1e308" and "inf". */
static int sb_num(const char *s, double *out)
{
	const char *end;
	double v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (units_parse_decimal(s, &end, &v) < 0)
		return -1;
	if (*end == 's')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/* If line (leading blanks skipped) starts with key, the text after it. */
static const char *after(const char *line, const char *key)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strlen(key);
	return strncmp(line, key, n) ? NULL : line + n;
}

static int mode_words(const char *w, enum pattern *p)
{
	if (!strncmp(w, "random read", 11)) *p = PAT_RANDREAD;
	else if (!strncmp(w, "random write", 12)) *p = PAT_RANDWRITE;
	else if (!strncmp(w, "random r/w", 10)) *p = PAT_RANDRW;
	else if (!strncmp(w, "sequential read", 15)) *p = PAT_READ;
	else if (!strncmp(w, "sequential write", 16)) *p = PAT_WRITE;
	else if (!strncmp(w, "sequential rewrite", 18)) *p = PAT_REWRITE;
	else return -1;
	return 0;
}

static const char *sysbench_mode_name(enum pattern p)
{
	switch (p) {
	case PAT_RANDREAD: return "rndrd";
	case PAT_RANDWRITE: return "rndwr";
	case PAT_RANDRW: return "rndrw";
	case PAT_READ: return "seqrd";
	case PAT_WRITE: return "seqwr";
	case PAT_REWRITE: return "seqrewr";
	default: return "?";
	}
}

static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Mode, block size and threads: the log, else the script's marker line,
 * else the command line (which must not contradict the log).  Problems go
 * to errs. */
static void sb_what(const char *path, const struct sb_run *r,
		    const struct import_sysbench_opts *o, struct cell *p,
		    struct errlist *errs)
{
	enum pattern cli_mode;
	bool have_cli_mode = o->mode && pattern_parse(o->mode, &cli_mode) == 0;

	if (r->have_mode) {
		p->pattern = r->mode;
		if (have_cli_mode && cli_mode != r->mode)
			errlist_add(errs, path, r->start_line, 1,
				    "--mode %s contradicts the log ('Doing %s test')",
				    o->mode, r->mode_words);
	} else if (r->have_marker_mode) {
		p->pattern = r->marker_mode;
	} else if (have_cli_mode) {
		p->pattern = cli_mode;
	} else {
		errlist_add(errs, path, r->start_line, 1,
			    "the log does not say the test mode ('Doing ... test'); give --mode rndrd|rndwr|rndrw|seqrd|seqwr|seqrewr");
	}
	if (r->bs) {
		p->bs = r->bs;
		if (o->bs && o->bs != r->bs)
			errlist_add(errs, path, r->start_line, 1,
				    "--bs %llu contradicts the log (block size %llu)",
				    (unsigned long long)o->bs, (unsigned long long)r->bs);
	} else if (r->marker_bs) {
		p->bs = r->marker_bs;
	} else if (o->bs) {
		p->bs = o->bs;
	} else {
		errlist_add(errs, path, r->start_line, 1,
			    "the log does not say the block size ('Block size 16KiB'); give --bs");
	}
	if (r->threads > 0) {
		p->jobs = (unsigned)r->threads;
		if (o->threads && o->threads != p->jobs)
			errlist_add(errs, path, r->start_line, 1,
				    "--threads %u contradicts the log (%ld threads)",
				    o->threads, r->threads);
	} else if (o->threads) {
		p->jobs = o->threads;
	} else {
		errlist_add(errs, path, r->start_line, 1,
			    "the log does not say the threads ('Number of threads: N'); give --threads");
	}
}

/* The device name: --device, else the marker line's directory, else the
 * log's file name without its extension. */
static void sb_device(const char *path, const struct sb_run *r,
		      const struct import_sysbench_opts *o, char *dev, size_t len)
{
	char b[PATH_MAX];

	if (o->device) {
		snprintf(dev, len, "%s", o->device);
	} else if (r->marker_dir[0]) {
		snprintf(b, sizeof(b), "%s", r->marker_dir);
		size_t n = strlen(b);
		while (n > 1 && b[n - 1] == '/')
			b[--n] = '\0';
		const char *sl = strrchr(b, '/');
		copy_str(dev, len, sl && sl[1] ? sl + 1 : b);
	} else {
		const char *sl = strrchr(path, '/');
		copy_str(b, sizeof(b), sl ? sl + 1 : path);
		char *dot = strrchr(b, '.');
		if (dot && dot != b)
			*dot = '\0';
		copy_str(dev, len, b);
	}
}

/* The run's figures as one repetition of the pattern's directions. */
static void sb_rep(const struct sb_run *r, enum pattern pat, struct rep_result *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->runtime_ns = import_u64(r->total_time_s * 1e9);
	for (int d = 0; d < DIR__COUNT; d++) {
		bool on = d == DIR_READ ? pattern_reads(pat) : pattern_writes(pat);
		if (!on)
			continue;
		struct dir_result *x = &rep->dir[d];
		x->present = true;
		x->iops = d == DIR_READ ? r->reads_s : r->writes_s;
		x->bw_bytes_s = (d == DIR_READ ? r->read_mib_s : r->written_mib_s) *
				1048576.0;
		x->ios = import_u64(x->iops * r->total_time_s + 0.5);
		x->bytes = import_u64(x->bw_bytes_s * r->total_time_s + 0.5);
		if (r->have_lat_avg) {
			x->known |= REP_LAT;
			x->lat_mean_ns = r->lat_avg * 1e6;
			if (r->have_lat_min && r->have_lat_max)
				x->known |= REP_LAT_RANGE;
			x->lat_min_ns = r->lat_min * 1e6;
			x->lat_max_ns = r->lat_max * 1e6;
			if (r->have_lat_pct) {
				x->npct = 1;
				x->pct_p[0] = r->lat_pct_p;
				x->pct_ns[0] = r->lat_pct * 1e6;
			}
		}
	}
}

/* Turn a finished run into a cell. */
static int sb_emit(struct import_set *s, const char *path, struct sb_run *r,
		   const struct import_sysbench_opts *o, struct cell *first,
		   struct errlist *errs)
{
	struct cell p;
	struct rep_result rep;
	size_t before = errs->n;

	/* Figures: all of them or the log is cut or not fileio output. */
	if (!r->have_reads || !r->have_writes || !r->have_time ||
	    !r->have_rmib || !r->have_wmib) {
		errlist_add(errs, path, r->start_line, 1,
			    "sysbench run is incomplete: no %s; is this the output of 'sysbench fileio ... run'?",
			    !r->have_reads ? "'reads/s'" : !r->have_writes ? "'writes/s'" :
			    !r->have_rmib ? "'read, MiB/s'" : !r->have_wmib ? "'written, MiB/s'" :
			    "'total time'");
		return -1;
	}
	char pdev[CELL_NAME_MAX], ppath[PATH_MAX];
	cell_init(&p);
	p.device = pdev;
	p.path = ppath;
	p.size = 0;
	p.seed = 0;
	snprintf(p.engine, sizeof(p.engine), "psync");
	sb_what(path, r, o, &p, errs);
	if (errs->n > before)
		return -1;
	if (r->nfiles > 0)
		p.files = (unsigned)r->nfiles;
	if (r->file_bytes > 0)
		p.size = import_u64(r->file_bytes);
	if (r->requests > 0)
		p.requests = (uint64_t)r->requests; /* bounded when parsed */
	/* sysbench's periodic fsync is its own rule (one fsync per file after
	 * every N requests of all threads), not fio's per-file count; its
	 * random offsets are uniform draws with repeats, and its sequential
	 * threads take turns on one position (sb_fileio.c) */
	if (r->fsync_every > 0)
		p.sysbench_fsync_freq = (unsigned)r->fsync_every;
	p.end_fsync = r->end_fsync == 1;
	p.norandommap = pattern_is_random(p.pattern);
	p.sequential_shared = !pattern_is_random(p.pattern);
	p.direct = strstr(r->flags, "direct") != NULL;
	if (pattern_is_mixed(p.pattern) && r->rw_ratio >= 0)
		p.rwmixread = r->rw_ratio > 1e9 ? 100 :
			(unsigned)lround(100.0 * r->rw_ratio / (1.0 + r->rw_ratio));
	if (!strcmp(r->io_mode, "asynchronous"))
		snprintf(p.engine, sizeof(p.engine), "libaio");
	else if (!strcmp(r->io_mode, "mmap"))
		snprintf(p.engine, sizeof(p.engine), "mmap");
	cell_set_label_derived(&p);
	sb_device(path, r, o, pdev, sizeof(pdev));
	copy_str(ppath, sizeof(ppath), r->marker_dir);
	sb_rep(r, p.pattern, &rep);

	cJSON *src = cJSON_CreateObject();
	if (src) {
		cJSON_AddStringToObject(src, "sysbench_mode", sysbench_mode_name(p.pattern));
		cJSON_AddNumberToObject(src, "fsyncs_s", r->fsyncs_s);
		cJSON_AddNumberToObject(src, "events", r->events);
		cJSON_AddNumberToObject(src, "total_time_s", r->total_time_s);
		cJSON_AddNumberToObject(src, "latency_sum_ms", r->lat_sum);
		cJSON_AddStringToObject(src, "file", path);
		cJSON_AddNumberToObject(src, "line", r->start_line);
	}
	if (!first->device) {
		/* only its numbers are used (the header's command line) */
		*first = p;
		first->device = first->path = "";
	}
	struct import_cell *c = import_set_add(s, &p, &rep, src);
	if (!c) {
		errlist_add(errs, path, 0, 0, "out of memory");
		return -1;
	}
	import_cell_warn(c, "imported from sysbench output, not measured by iomatrix");
	if (pattern_is_mixed(p.pattern))
		import_cell_warn(c, "sysbench reports one latency for reads, writes and fsyncs together: it is given for both directions");
	if (r->fsyncs_s > 0)
		import_cell_warn(c, "sysbench also did %.2f fsync/s, counted in its events and latency", r->fsyncs_s);
	import_cell_warn(c, "sysbench prints latency in ms with 2 decimals (10 us resolution); no histogram, percentile %g only",
			 r->have_lat_pct ? r->lat_pct_p : 95);
	char why[256];
	if (import_cell_check(c, why, sizeof(why)) < 0) {
		errlist_add(errs, path, r->start_line, 1,
			    "the figures of this run are not ones sysbench measures (%s); "
			    "import the log as sysbench wrote it", why);
		return -1;
	}
	return 0;
}

/* "bad number for WHAT" at v's column of line.  Returns -1. */
static int sb_bad(const char *path, unsigned lineno, const char *line,
		  const char *v, const char *what, struct errlist *errs)
{
	while (*v == ' ' || *v == '\t')
		v++;
	errlist_add(errs, path, lineno, (unsigned)(v - line) + 1,
		    "bad number for %s: '%s'", what, v);
	return -1;
}

#define BADNUM(what) return sb_bad(path, lineno, line, v, what, errs)

/* A line of the run's header ("Number of threads:", "Block size", the
 * file set, modes and flags).  1 when it was one, 0 when not, -1 bad. */
static int sb_header(struct sb_run *run, const char *line, const char *path,
		     unsigned lineno, struct errlist *errs)
{
	const char *v;
	double x;

	if ((v = after(line, "Number of threads:"))) {
		if (sb_num(v, &x) < 0 || x < 1 || x > 1e6 || x != floor(x))
			BADNUM("threads");
		run->threads = (long)x;
	} else if ((v = after(line, "Extra file open flags:"))) {
		while (*v == ' ')
			v++;
		copy_str(run->flags, sizeof(run->flags), v);
	} else if (strstr(line, " files, ") && strstr(line, " each")) {
		long nf;
		char sz[64];
		if (sscanf(line, "%ld files, %63s each", &nf, sz) != 2 ||
		    nf < 1 || nf > 1000000 || (run->file_bytes = sb_size(sz)) < 0) {
			v = line;
			BADNUM("the file set ('N files, SIZE each')");
		}
		run->nfiles = nf;
	} else if ((v = after(line, "Block size "))) {
		double bsz = sb_size(v);
		if (bsz <= 0 || bsz > 1e12 || bsz != floor(bsz))
			BADNUM("block size");
		run->bs = (uint64_t)bsz;
	} else if ((v = after(line, "Number of IO requests:"))) {
		if (sb_num(v, &x) < 0 || x > 1e15 || x != floor(x))
			BADNUM("IO requests");
		run->requests = (long)x;
	} else if ((v = after(line, "Read/Write ratio for combined random IO test:"))) {
		if (sb_num(v, &run->rw_ratio) < 0)
			BADNUM("read/write ratio");
	} else if ((v = after(line, "Periodic FSYNC enabled, calling fsync() each "))) {
		const char *end;
		if (units_parse_decimal(v, &end, &x) < 0 || strncmp(end, " request", 8) ||
		    x < 1 || x > 1e6 || x != floor(x))
			BADNUM("the fsync frequency");
		run->fsync_every = (long)x;
	} else if (after(line, "Calling fsync() at the end of test, Enabled")) {
		run->end_fsync = 1;
	} else if (after(line, "Calling fsync() at the end of test, Disabled")) {
		run->end_fsync = 0;
	} else if ((v = after(line, "Using ")) && strstr(v, "I/O mode")) {
		copy_str(run->io_mode, sizeof(run->io_mode), v);
		run->io_mode[strcspn(run->io_mode, " ")] = '\0';
		if (!strncmp(v, "mmap", 4))
			snprintf(run->io_mode, sizeof(run->io_mode), "mmap");
	} else if ((v = after(line, "Doing "))) {
		const char *t = strstr(v, " test");
		if (t) {
			snprintf(run->mode_words, sizeof(run->mode_words), "%.*s",
				 (int)(t - v), v);
			if (mode_words(v, &run->mode) < 0) {
				errlist_add(errs, path, lineno, 1,
					    "unknown sysbench test mode '%s'",
					    run->mode_words);
				return -1;
			}
			run->have_mode = true;
		}
	} else {
		return 0;
	}
	return 1;
}

/* The figures of a run's tail, each printed once per run: its line's
 * key, its field and the flag that says it was read.  A second line of one
 * run is refused, not read over the first (an edited log, or two runs
 * pasted together without their banners). */
#define RUN_F(f) offsetof(struct sb_run, f)
static const struct sb_fig {
	const char *key, *what;
	size_t val, have;       /* have: 0 for figures that are optional */
} sb_figs[] = {
	{ "reads/s:", "reads/s", RUN_F(reads_s), RUN_F(have_reads) },
	{ "writes/s:", "writes/s", RUN_F(writes_s), RUN_F(have_writes) },
	{ "fsyncs/s:", "fsyncs/s", RUN_F(fsyncs_s), 0 },
	{ "read, MiB/s:", "read MiB/s", RUN_F(read_mib_s), RUN_F(have_rmib) },
	{ "written, MiB/s:", "written MiB/s", RUN_F(written_mib_s), RUN_F(have_wmib) },
	{ "total time:", "total time", RUN_F(total_time_s), RUN_F(have_time) },
	{ "total number of events:", "events", RUN_F(events), 0 },
	{ "min:", "latency min", RUN_F(lat_min), RUN_F(have_lat_min) },
	{ "avg:", "latency avg", RUN_F(lat_avg), RUN_F(have_lat_avg) },
	{ "max:", "latency max", RUN_F(lat_max), RUN_F(have_lat_max) },
	{ "sum:", "latency sum", RUN_F(lat_sum), 0 },
	/* "95th percentile:" (the number is --percentile): sb_pct_line */
	{ "th percentile:", "latency percentile", RUN_F(lat_pct), RUN_F(have_lat_pct) },
};
#define SB_NFIGS (sizeof(sb_figs) / sizeof(sb_figs[0]))
#define SB_PCT_FIG (SB_NFIGS - 1)
_Static_assert(SB_NFIGS <= sizeof(((struct sb_run *)0)->fig_line) / sizeof(unsigned),
	       "sb_run.fig_line holds a line per figure");

/* "95th percentile:" (or 1st, 2nd, 3rd): the text after it, the
 * percentile in *p; NULL when the line is not one. */
static const char *sb_pct_line(const char *line, double *p)
{
	static const char *const sfx[] = { "th percentile:", "st percentile:",
					   "nd percentile:", "rd percentile:" };
	const char *end;

	while (*line == ' ')
		line++;
	if (units_parse_decimal(line, &end, p) < 0)
		return NULL;
	for (size_t i = 0; i < 4; i++)
		if (!strncmp(end, sfx[i], 14))
			return end + 14;
	return NULL;
}

/* A line of the run's figures (rates, time, latency).  0 or -1 bad. */
static int sb_figure(struct sb_run *run, const char *line, const char *path,
		     unsigned lineno, struct errlist *errs)
{
	const char *v = NULL;
	double pp = 0;
	size_t f;

	for (f = 0; f < SB_PCT_FIG && !(v = after(line, sb_figs[f].key)); f++)
		;
	if (f == SB_PCT_FIG && !(v = sb_pct_line(line, &pp)))
		return 0;
	const struct sb_fig *g = &sb_figs[f];
	if (run->fig_line[f]) {
		errlist_add(errs, path, lineno, 1,
			    "a second '%s' line in the run of line %u (the first is line %u); "
			    "sysbench prints it once: import the log as sysbench wrote it",
			    f == SB_PCT_FIG ? "percentile" : g->what, run->start_line,
			    run->fig_line[f]);
		return -1;
	}
	double *val = (double *)((char *)run + g->val);
	/* sysbench always prints the unit of the total time: "12.0007s" */
	bool time = g->val == RUN_F(total_time_s), count = g->val == RUN_F(events);
	if (sb_num(v, val) < 0 || (time && (!strchr(v, 's') || *val <= 0)) ||
	    (count && *val != floor(*val)))
		BADNUM(g->what);
	run->fig_line[f] = lineno;
	if (g->have)
		*(bool *)((char *)run + g->have) = true;
	if (f == SB_PCT_FIG) {
		run->lat_pct_p = pp;
		if (!(pp > 0 && pp <= 100)) {
			errlist_add(errs, path, lineno, 1,
				    "'%gth percentile' is not a percentile in (0, 100]; "
				    "import the log as sysbench wrote it", pp);
			return -1;
		}
	}
	return 0;
}
#undef BADNUM

/* The set's "source": sysbench's version, and the first cell's parameters
 * in sysbench's words (the command is rebuilt from the log header). */
static void sb_source(struct import_set *s, const char *version,
		      const struct cell *c)
{
	char cmd[1024];

	if (!(s->source = cJSON_CreateObject()))
		return;
	cJSON_AddStringToObject(s->source, "kind", "sysbench");
	cJSON_AddArrayToObject(s->source, "files");
	if (version[0])
		cJSON_AddStringToObject(s->source, "version", version);
	else
		cJSON_AddNullToObject(s->source, "version");
	snprintf(cmd, sizeof(cmd),
		 "sysbench fileio --file-num=%u --file-total-size=%llu "
		 "--file-test-mode=%s --file-block-size=%llu --threads=%u%s%s "
		 "--file-fsync-freq=%u run",
		 c->files, (unsigned long long)c->size * c->files,
		 sysbench_mode_name(c->pattern),
		 (unsigned long long)c->bs, c->jobs,
		 c->direct ? " --file-extra-flags=direct" : "",
		 c->requests ? "" : " --events=0",
		 c->sysbench_fsync_freq);
	cJSON_AddStringToObject(s->source, "command", cmd);
	cJSON_AddStringToObject(s->source, "note",
		"measured by sysbench, imported by iomatrix; the command is rebuilt from the log header (--time is not in the log)");
}

/*
 * sysbench prints no date, but the scripts that run it often log `date`
 * before each run ("Mon Nov 30 02:40:12 UTC 2026").  The earliest such UTC
 * line dates the set, the latest ends it.  Other time zones are skipped:
 * without the offset the time would be wrong.
 */
static bool date_line(const char *line, struct import_set *s)
{
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	char wd[8], mo[8], tz[8], iso[80];
	int d, H, M, S, Y, n = 0;

	if (sscanf(line, "%3s %3s %d %d:%d:%d %7s %d%n", wd, mo, &d, &H, &M, &S, tz, &Y, &n) != 8)
		return false;
	if (strcmp(tz, "UTC") && strcmp(tz, "GMT"))
		return false;
	int m = -1;
	for (int k = 0; k < 12; k++)
		if (!strcmp(mo, mon[k]))
			m = k;
	if (m < 0 || d < 1 || d > 31 || H > 23 || M > 59 || S > 60 || Y < 1970 || Y > 9999 ||
	    H < 0 || M < 0 || S < 0)
		return false;
	snprintf(iso, sizeof(iso), "%04d-%02d-%02dT%02d:%02d:%02dZ", Y, m + 1, d, H, M, S);
	iso[20] = '\0';   /* the fields were range-checked: 20 characters */
	if (!s->started_at[0] || strcmp(iso, s->started_at) < 0)
		memcpy(s->started_at, iso, 21);
	if (!s->finished_at[0] || strcmp(iso, s->finished_at) > 0)
		memcpy(s->finished_at, iso, 21);
	return true;
}

/* The reading of one log: the run being read, the marker line of seed
 * 003's script before it, what was emitted. */
struct sb_log {
	struct import_set *s;
	const char *path;
	const struct import_sysbench_opts *o;
	struct errlist *errs;
	struct sb_run run, marker;
	bool in_run, pending_marker;
	unsigned runs;
	char version[64];
	struct cell first;
};

/* The run read so far is complete: emit it.  0 or -1. */
static int sb_flush(struct sb_log *L)
{
	if (!L->in_run)
		return 0;
	L->in_run = false;
	if (sb_emit(L->s, L->path, &L->run, L->o, &L->first, L->errs) < 0)
		return -1;
	L->runs++;
	return 0;
}

/* The lines that start or delimit a run: seed 003's marker
 * "----/data/ssd 16384 rndrd----" and the "sysbench 1.x" banner.  1 when
 * the line was one, 0 when not, -1 on error. */
static int sb_boundary(struct sb_log *L, const char *line, unsigned lineno)
{
	size_t ll = strlen(line);
	const char *v;

	if (!strncmp(line, "----", 4) && ll > 8) {
		char dir[PATH_MAX] = "", mode[32] = "", bs[32] = "";
		uint64_t bsz = 0;
		if (sb_flush(L) < 0)
			return -1;
		sb_run_init(&L->marker, lineno);
		/* the block size in digits only: %llu took "-1" as 2^64 - 1 */
		if (sscanf(line + 4, "%4095s %31s %31[a-z]", dir, bs, mode) >= 1) {
			copy_str(L->marker.marker_dir, sizeof(L->marker.marker_dir), dir);
			if (units_parse_uint(bs, &bsz) < 0)
				bsz = 0;
			L->marker.marker_bs = bsz;
			if (mode[0] && pattern_parse(mode, &L->marker.marker_mode) == 0)
				L->marker.have_marker_mode = true;
		}
		L->pending_marker = true;
		return 1;
	}
	if (date_line(line, L->s)) /* a script's `date` between runs */
		return 1;
	if ((v = after(line, "sysbench ")) && isdigit((unsigned char)*v)) {
		/* A new run; the previous one is complete. */
		if (sb_flush(L) < 0)
			return -1;
		sb_run_init(&L->run, lineno);
		if (L->pending_marker) {
			copy_str(L->run.marker_dir, sizeof(L->run.marker_dir),
				 L->marker.marker_dir);
			L->run.marker_bs = L->marker.marker_bs;
			L->run.marker_mode = L->marker.marker_mode;
			L->run.have_marker_mode = L->marker.have_marker_mode;
			L->pending_marker = false;
		}
		snprintf(L->run.version, sizeof(L->run.version), "sysbench %.*s",
			 (int)strcspn(v, " "), v);
		if (!L->version[0])
			copy_str(L->version, sizeof(L->version), L->run.version);
		if (strncmp(v, "1.", 2))
			errlist_add(L->errs, L->path, lineno, 1,
				    "'%s' output is not supported; this reads sysbench 1.0 fileio output",
				    L->run.version);
		L->in_run = true;
		return 1;
	}
	if (after(line, "Operations performed:")) {
		errlist_add(L->errs, L->path, lineno, 1,
			    "sysbench 0.4 output is not supported; this reads sysbench 1.0 fileio output");
		return -1;
	}
	return 0;
}

int import_sysbench_file(struct import_set *s, const char *path,
			 const struct import_sysbench_opts *o,
			 struct errlist *errs)
{
	size_t len = 0, before = errs->n;
	char *buf = import_read_file(path, &len, errs);
	unsigned lineno = 0;
	struct sb_log *L;

	if (!buf)
		return -1;
	if (!(L = calloc(1, sizeof(*L)))) {
		free(buf);
		errlist_add(errs, path, 0, 0, "out of memory");
		return -1;
	}
	L->s = s;
	L->path = path;
	L->o = o;
	L->errs = errs;
	sb_run_init(&L->marker, 0);
	char *save = NULL;
	for (char *line = buf; line && *line; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		/* a log cut inside "total time: 12.0007s" ends in "1" with
		 * no newline: a number on a cut line is no number at all */
		if (!nl && strpbrk(line, "0123456789")) {
			errlist_add(errs, path, lineno + 1, (unsigned)strlen(line) + 1,
				    "the log ends inside a line ('%.60s'): it was cut short; "
				    "import the complete sysbench output", line);
			goto out;
		}
		size_t ll = strlen(line);
		if (ll && line[ll - 1] == '\r')
			line[ll - 1] = '\0';
		lineno++;
		int b = sb_boundary(L, line, lineno);
		if (b < 0)
			goto out;
		if (b > 0)
			continue;
		if (!L->in_run) {
			/* Figures before any "sysbench 1.x" banner: a log whose
			 * head was cut off.  Start a run anyway. */
			if (!after(line, "File operations:") &&
			    !after(line, "Number of threads:"))
				continue;
			sb_run_init(&L->run, lineno);
			L->in_run = true;
		}
		int h = sb_header(&L->run, line, path, lineno, errs);
		if (h < 0 || (h == 0 && sb_figure(&L->run, line, path, lineno, errs) < 0))
			goto out;
	}
	if (sb_flush(L) < 0)
		goto out;
	if (!L->runs && errs->n == before)
		errlist_add(errs, path, lineno ? lineno : 1, 1,
			    "no sysbench fileio results found; save the output of 'sysbench fileio ... run'");
	if (errs->n == before) {
		if (!s->source)
			sb_source(s, L->version, &L->first);
		cJSON *files = cJSON_GetObjectItemCaseSensitive(s->source, "files");
		if (files)
			cJSON_AddItemToArray(files, cJSON_CreateString(path));
	}
out:
	free(buf);
	free(L);
	return errs->n > before ? -1 : 0;
}
