/*
 * import_fio.c - `iomatrix import fio`: fio 3.x --output-format=json and
 * json+ into cells.  One cell per job (the entries of one job name and group
 * merged, so numjobs without group_reporting is still one cell); options come
 * from "job options" over "global options", echoed by fio as strings.
 * json+ latency bins (keyed by their value in ns) go into our log-linear
 * histogram by value.  With --status-interval a file holds several JSON
 * documents: the last complete one is the final report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"
#include "suite/keys.h"
#include "stats/randdist.h"
#include "import.h"
#include "import_fio2.h"
#include "fio_infer.h"
#include "fio_lat.h"
#include "util/intern.h"
#include "util/units.h"
#include "util/jsonutil.h"

struct fio_doc {
	const char *path;
	const char *buf;            /* the whole file */
	size_t start, end;          /* the document's bytes in buf */
	const cJSON *global;        /* "global options", may be NULL */
	const char *v2;             /* fio 2.x: its version (converted) */
};

/* Where a key (and its string value) appears in the document text, for
 * messages: the value's position, else the key's, else the document's. */
static void fio_pos(const struct fio_doc *d, const char *key, const char *val,
		    unsigned *line, unsigned *col)
{
	char needle[256];
	size_t off = d->start, first = 0;
	bool have_first = false;

	if (key) {
		snprintf(needle, sizeof(needle), "\"%s\"", key);
		size_t nl = strlen(needle), from = d->start;
		const char *hit;
		while (from < d->end &&
		       (hit = memmem(d->buf + from, d->end - from, needle, nl))) {
			size_t k = (size_t)(hit - d->buf), i = k + nl;
			if (!have_first) {
				first = k;
				have_first = true;
			}
			from = k + 1;
			while (i < d->end && (d->buf[i] == ' ' || d->buf[i] == '\t'))
				i++;
			if (i >= d->end || d->buf[i] != ':')
				continue;
			i++;
			while (i < d->end && (d->buf[i] == ' ' || d->buf[i] == '\t'))
				i++;
			size_t vl = val ? strlen(val) : 0;
			if (!val || (i + vl + 2 <= d->end && d->buf[i] == '"' &&
				     !memcmp(d->buf + i + 1, val, vl) &&
				     d->buf[i + 1 + vl] == '"')) {
				off = i;
				have_first = false;
				break;
			}
		}
		if (have_first)
			off = first;
	}
	import_linecol(d->buf, off, line, col);
}

/* Option value as fio echoed it: the job's own, else the global one. */
static const char *fio_opt(const struct fio_doc *d, const cJSON *job,
			   const char *key)
{
	const char *v = json_str(cJSON_GetObjectItemCaseSensitive(job, "job options"), key);
	return v ? v : json_str(d->global, key);
}

static const char *fio_opt2(const struct fio_doc *d, const cJSON *job,
			    const char *k1, const char *k2)
{
	const char *v = fio_opt(d, job, k1);
	return v ? v : fio_opt(d, job, k2);
}

/* fio's boolean options: "1"/"0", also "true"/"false". */
static int fio_bool(const char *v, bool *out)
{
	if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") ||
	    !strcmp(v, "on")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") ||
	    !strcmp(v, "off")) {
		*out = false;
		return 0;
	}
	return -1;
}

/* Digits only (fio prints options so): strtoul also took " +16". */
static int fio_uint(const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t x;

	if (units_parse_uint(v, &x) < 0 || x < lo || x > hi)
		return -1;
	*out = (unsigned)x;
	return 0;
}

/* fio's rw names (":N" suffixes stripped). */
static int fio_pattern(const char *rw, enum pattern *p)
{
	char b[32];
	snprintf(b, sizeof(b), "%s", rw);
	char *colon = strchr(b, ':');
	if (colon)
		*colon = '\0';
	if (!strcmp(b, "read")) *p = PAT_READ;
	else if (!strcmp(b, "write")) *p = PAT_WRITE;
	else if (!strcmp(b, "randread")) *p = PAT_RANDREAD;
	else if (!strcmp(b, "randwrite")) *p = PAT_RANDWRITE;
	else if (!strcmp(b, "rw") || !strcmp(b, "readwrite")) *p = PAT_READWRITE;
	else if (!strcmp(b, "randrw")) *p = PAT_RANDRW;
	else return -1;
	return 0;
}

/* Copy with truncation (device names are short; paths may not be). */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static const char *base_name(const char *p, char *buf, size_t len)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", p);
	size_t n = strlen(tmp);
	while (n > 1 && tmp[n - 1] == '/')
		tmp[--n] = '\0';
	const char *s = strrchr(tmp, '/');
	copy_str(buf, len, s ? s + 1 : tmp);
	return buf;
}

/*
 * The device a job measured, when --device does not say: a block device's
 * name (/dev/nvme0n1 -> nvme0n1), else the directory's name (directory=
 * /mnt/ssd -> ssd; filename=/mnt/ssd/test -> ssd), else the bare file name,
 * else the job name.
 */
static void fio_device(const char *filename, const char *directory,
		       const char *jobname, char *out, size_t len)
{
	char b[PATH_MAX];

	if (filename && !strncmp(filename, "/dev/", 5)) {
		base_name(filename, out, len);
	} else if (directory && directory[0]) {
		base_name(directory, out, len);
	} else if (filename && strchr(filename, '/')) {
		snprintf(b, sizeof(b), "%s", filename);
		char *slash = strrchr(b, '/');
		if (slash == b)
			copy_str(out, len, filename + 1);
		else {
			*slash = '\0';
			base_name(b, out, len);
		}
	} else if (filename && filename[0]) {
		copy_str(out, len, filename);
	} else {
		copy_str(out, len, jobname);
	}
	if (!out[0])
		copy_str(out, len, "fio");
}

static void iso_of(double epoch, char *buf, size_t len)
{
	struct tm tm;
	time_t t;

	/* 1e11 s is the year 5138: anything later is not a fio timestamp */
	if (!(epoch > 0 && epoch < 1e11) || (t = (time_t)epoch, !gmtime_r(&t, &tm))) {
		buf[0] = '\0';
		return;
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* fio's command line for the jobs of a document, from the echoed options
 * (options given without a value, like time_based, are not echoed). */
static char *fio_command(const struct fio_doc *d, const cJSON *jobs)
{
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	const cJSON *e, *job;

	if (!s)
		return NULL;
	n += (size_t)snprintf(s, cap, "fio");
#define APPEND(...) do { \
		int k_ = snprintf(NULL, 0, __VA_ARGS__); \
		if (k_ < 0) break; \
		if (n + (size_t)k_ + 1 > cap) { \
			size_t nc_ = (n + (size_t)k_ + 1) * 2; \
			char *ns_ = realloc(s, nc_); \
			if (!ns_) { free(s); return NULL; } \
			s = ns_; cap = nc_; \
		} \
		n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__); \
	} while (0)
	cJSON_ArrayForEach(e, d->global)
		if (cJSON_IsString(e))
			APPEND(" --%s=%s", e->string, e->valuestring);
	const char *last = NULL;
	cJSON_ArrayForEach(job, jobs) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(job, "jobname");
		const cJSON *jo = cJSON_GetObjectItemCaseSensitive(job, "job options");
		if (!cJSON_IsString(name))
			continue;
		/* numjobs without group_reporting repeats the job: once */
		if (last && !strcmp(last, name->valuestring))
			continue;
		last = name->valuestring;
		APPEND(" --name=%s", name->valuestring);
		cJSON_ArrayForEach(e, jo)
			if (cJSON_IsString(e) && strcmp(e->string, "name"))
				APPEND(" --%s=%s", e->string, e->valuestring);
	}
#undef APPEND
	return s;
}

/* Parameters of a job entry; -1 with errors added. */
/* The strings of a job's cell until import_set_add() copies them. */
struct fio_strs {
	char device[CELL_NAME_MAX];
	char path[PATH_MAX];
	bool rw_given;          /* the options name rw (or readwrite) */
};

/* The job's device (--device, else named after its file or directory)
 * and path: the first of filename's "a:b" list, else the directory. */
static void fio_target(const struct fio_doc *d, const cJSON *job,
		       const struct import_fio_opts *o, const char *jobname,
		       struct fio_strs *str)
{
	const char *filename = fio_opt(d, job, "filename");
	const char *directory = fio_opt(d, job, "directory");
	char fn[PATH_MAX];

	if (filename) {
		snprintf(fn, sizeof(fn), "%s", filename);
		char *colon = strchr(fn, ':'); /* "a:b" is a list of files */
		if (colon)
			*colon = '\0';
		filename = fn;
	}
	if (o->device)
		snprintf(str->device, sizeof(str->device), "%s", o->device);
	else
		fio_device(filename, directory, jobname, str->device,
			   sizeof(str->device));
	snprintf(str->path, sizeof(str->path), "%s",
		 filename ? filename : directory ? directory : "");
}

static int fio_params(const struct fio_doc *d, const cJSON *job,
		      const struct import_fio_opts *o, struct cell *p,
		      struct fio_strs *str, struct errlist *errs)
{
	const char *jobname = cJSON_GetObjectItemCaseSensitive(job, "jobname")->valuestring;
	const char *v;
	unsigned line, col;
	size_t before = errs->n;
	unsigned nrfiles = 1;

#define BAD(key, val, ...) do { \
		fio_pos(d, key, val, &line, &col); \
		errlist_add(errs, d->path, line, col, __VA_ARGS__); \
	} while (0)

	cell_init(p);
	p->device = str->device;
	p->path = str->path;
	cell_set_label(p, jobname);
	p->label_given = true;
	p->size = 0;
	p->seed = 0;
	snprintf(p->engine, sizeof(p->engine), "psync"); /* fio's default */
	p->direct = false;                                /* fio's default */

	v = fio_opt2(d, job, "rw", "readwrite");
	str->rw_given = v != NULL;
	if (v && fio_pattern(v, &p->pattern) < 0)
		BAD("rw", v, "job '%s': rw '%s' has no iomatrix pattern; use read write randread randwrite rw randrw",
		    jobname, v);
	v = fio_opt2(d, job, "bs", "blocksize");
	if (v) {
		char b[64];
		snprintf(b, sizeof(b), "%s", v);
		char *comma = strchr(b, ',');
		if (comma)
			*comma = '\0'; /* "read,write" sizes: the read one */
		if (units_parse_size(b, &p->bs) < 0 || !p->bs)
			BAD("bs", v, "job '%s': bad bs '%s'", jobname, v);
	}
	if ((v = fio_opt(d, job, "iodepth")) &&
	    fio_uint(v, 1, 65536, &p->iodepth) < 0)
		BAD("iodepth", v, "job '%s': bad iodepth '%s'", jobname, v);
	if ((v = fio_opt(d, job, "numjobs")) &&
	    fio_uint(v, 1, 65536, &p->jobs) < 0)
		BAD("numjobs", v, "job '%s': bad numjobs '%s'", jobname, v);
	if ((v = fio_opt(d, job, "ioengine"))) {
		/* fio's synchronous engines are what our psync does */
		if (!strcmp(v, "sync") || !strcmp(v, "pvsync") ||
		    !strcmp(v, "pvsync2") || !strcmp(v, "vsync"))
			snprintf(p->engine, sizeof(p->engine), "psync");
		else
			snprintf(p->engine, sizeof(p->engine), "%s", v);
	}
	if ((v = fio_opt(d, job, "direct")) && fio_bool(v, &p->direct) < 0)
		BAD("direct", v, "job '%s': bad direct '%s'", jobname, v);
	if ((v = fio_opt(d, job, "buffered"))) {
		bool b;
		if (fio_bool(v, &b) < 0)
			BAD("buffered", v, "job '%s': bad buffered '%s'", jobname, v);
		else if (!fio_opt(d, job, "direct"))
			p->direct = !b;
	}
	if ((v = fio_opt(d, job, "nrfiles")) && fio_uint(v, 1, 1u << 20, &nrfiles) < 0)
		BAD("nrfiles", v, "job '%s': bad nrfiles '%s'", jobname, v);
	p->files = nrfiles;
	if ((v = fio_opt2(d, job, "filesize", "size"))) {
		if (strchr(v, '%')) {
			if (units_parse_percent(v, &p->size_pct) < 0)
				BAD("size", v, "job '%s': bad size '%s'", jobname, v);
		} else if (units_parse_size(v, &p->size) < 0) {
			BAD("size", v, "job '%s': bad size '%s'", jobname, v);
		} else if (!fio_opt(d, job, "filesize") && nrfiles > 1) {
			p->size /= nrfiles; /* fio's size is the job's total */
		}
	}
	if ((v = fio_opt(d, job, "runtime")) &&
	    units_parse_duration(v, &p->runtime_ns) < 0)
		BAD("runtime", v, "job '%s': bad runtime '%s'", jobname, v);
	if ((v = fio_opt(d, job, "ramp_time")) &&
	    units_parse_duration(v, &p->ramp_ns) < 0)
		BAD("ramp_time", v, "job '%s': bad ramp_time '%s'", jobname, v);
	if ((v = fio_opt2(d, job, "io_size", "io_limit")) &&
	    units_parse_size(v, &p->io_size) < 0)
		BAD("io_size", v, "job '%s': bad io_size '%s'", jobname, v);
	if ((v = fio_opt(d, job, "offset")) && !strchr(v, '%') &&
	    units_parse_size(v, &p->offset) < 0)
		BAD("offset", v, "job '%s': bad offset '%s'", jobname, v);
	if ((v = fio_opt(d, job, "rwmixread")) &&
	    fio_uint(v, 0, 100, &p->rwmixread) < 0)
		BAD("rwmixread", v, "job '%s': bad rwmixread '%s'", jobname, v);
	if ((v = fio_opt(d, job, "rwmixwrite")) && !fio_opt(d, job, "rwmixread")) {
		unsigned w;
		if (fio_uint(v, 0, 100, &w) < 0)
			BAD("rwmixwrite", v, "job '%s': bad rwmixwrite '%s'", jobname, v);
		else
			p->rwmixread = 100 - w;
	}
	if (!pattern_is_mixed(p->pattern))
		p->rwmixread = 50; /* our default: the key is invalid otherwise */
	/* fio caps a synchronous engine's queue depth at 1 ("note: both
	 * iodepth >= 1 and synchronous I/O engine are selected"): so do we. */
	const struct engine *eng = engine_lookup(p->engine);
	if (eng && !(eng->flags & ENGINE_ASYNC))
		p->iodepth = 1;
	if ((v = fio_opt(d, job, "fsync")) && fio_uint(v, 0, 1u << 30, &p->fsync) < 0)
		BAD("fsync", v, "job '%s': bad fsync '%s'", jobname, v);
	if ((v = fio_opt(d, job, "end_fsync")) && fio_bool(v, &p->end_fsync) < 0)
		BAD("end_fsync", v, "job '%s': bad end_fsync '%s'", jobname, v);
	if ((v = fio_opt(d, job, "fdatasync")) && fio_uint(v, 0, 1u << 30, &p->fdatasync) < 0)
		BAD("fdatasync", v, "job '%s': bad fdatasync '%s'", jobname, v);
	if ((v = fio_opt(d, job, "norandommap")) && fio_bool(v, &p->norandommap) < 0)
		BAD("norandommap", v, "job '%s': bad norandommap '%s'", jobname, v);
	if ((v = fio_opt(d, job, "randrepeat")) && fio_bool(v, &p->randrepeat) < 0)
		BAD("randrepeat", v, "job '%s': bad randrepeat '%s'", jobname, v);
	if ((v = fio_opt(d, job, "random_distribution"))) {
		struct randdist rd;
		char why[240], text[RANDDIST_TEXT_MAX];
		if (randdist_parse(v, &rd, why, sizeof(why)) < 0)
			BAD("random_distribution", v, "job '%s': %s", jobname, why);
		else if (rd.kind != RANDDIST_RANDOM) {
			randdist_format(&rd, text, sizeof(text));
			if (!(p->random_distribution = intern_str(text)))
				BAD("random_distribution", v, "out of memory");
		}
	}
	if ((v = fio_opt(d, job, "randseed"))) {
		uint64_t seed = 0;
		if (units_parse_uint(v, &seed) < 0)   /* strtoull took "-1" as 2^64 - 1 */
			BAD("randseed", v, "job '%s': bad randseed '%s'", jobname, v);
		else if (key_check_recorded(K_SEED, seed, NULL, 0) < 0)
			BAD("randseed", v, "job '%s': randseed %s is past %llu, the largest seed a result set records exactly; import a run with a smaller randseed",
			    jobname, v, (unsigned long long)cell_keys[K_SEED].max);
		p->seed = seed;
	}
#undef BAD
	fio_target(d, job, o, jobname, str);
	return errs->n > before ? -1 : 0;
}

/* A job must have done IO; one that names no rw gets the direction it did
 * (fio_infer.h), which inferred records under "pattern": the direction,
 * with sequential or random not recorded.  0, or -1 with an error at the
 * job's name. */
static int fio_direction(const struct fio_doc *d, const cJSON *const *entries,
			 size_t n, bool rw_given, struct cell *p, cJSON *inferred,
			 struct errlist *errs)
{
	const cJSON *job = entries[0];
	const char *jobname = cJSON_GetObjectItemCaseSensitive(job, "jobname")->valuestring;
	struct fio_done f;
	unsigned line, col;
	char why[256];

	fio_done_of(entries, n, &f);
	if (rw_given && f.mask)
		return 0;
	fio_pos(d, "jobname", jobname, &line, &col);
	if (!f.mask || fio_infer_pattern(&f, &p->pattern, &p->rwmixread) < 0) {
		errlist_add(errs, d->path, line, col, f.mask ?
			    "job '%s' did only trims and names no rw: iomatrix has no trim pattern" :
			    "job '%s': its read, write and trim sections all show zero IO, so "
			    "nothing was measured; check that the job ran (its error, runtime "
			    "and size) and import a run that did IO", jobname);
		return -1;
	}
	snprintf(why, sizeof(why), "%s, from the sections that did IO; sequential or random "
		 "is not recorded (the cell holds fio's default, sequential)",
		 p->pattern == PAT_READWRITE ? "reads and writes" :
		 p->pattern == PAT_WRITE ? "writes" : "reads");
	cJSON_AddStringToObject(inferred, "pattern", why);
	return 0;
}

/* A job that names no rw (fio 2.x run from a job file records none of
 * its options): what its output says of the rest, each entry of inferred
 * saying where it came from.  bs: the bytes per IO; iodepth: fio's
 * iodepth_level, else "not recorded"; the engine and direct: fio's
 * defaults, assumed.  The warning text of all of them into note. */
static void fio_unrecorded(const struct fio_doc *d, const cJSON *job, const struct fio_acc *a,
			   struct cell *p, cJSON *inferred, char *note, size_t nlen)
{
	char why[256];
	uint64_t bs;

	note[0] = '\0';
	if (!cJSON_GetObjectItemCaseSensitive(inferred, "pattern"))
		return;
	const struct dir_result *r = &a->dir[pattern_reads(p->pattern) ? DIR_READ : DIR_WRITE];
	if (!fio_opt2(d, job, "bs", "blocksize")) {
		if (fio_infer_bs(r->bytes, r->ios, &bs) == 0) {
			p->bs = bs;
			snprintf(why, sizeof(why), "%llu bytes, the bytes per IO of the output "
				 "(no job option names bs)", (unsigned long long)bs);
		} else {
			snprintf(why, sizeof(why), "not recorded: no job option names bs and the "
				 "bytes per IO are no whole block (fio's default 4k assumed)");
		}
		cJSON_AddStringToObject(inferred, "bs", why);
	}
	const struct engine *eng = engine_lookup(p->engine);
	if (!fio_opt(d, job, "iodepth") && eng && (eng->flags & ENGINE_ASYNC)) {
		unsigned depth;
		if (fio_infer_depth(job, &depth, why, sizeof(why)) == 0)
			p->iodepth = depth;
		cJSON_AddStringToObject(inferred, "iodepth", why);
	}
	if (!fio_opt(d, job, "ioengine"))
		cJSON_AddStringToObject(inferred, "engine",
					"not recorded: fio's default (sync) assumed");
	if (!fio_opt(d, job, "direct") && !fio_opt(d, job, "buffered"))
		cJSON_AddStringToObject(inferred, "direct",
					"not recorded: fio's default (buffered) assumed");
	size_t len = (size_t)snprintf(note, nlen, "fio's JSON names no rw for this job, so its "
				      "parameters are partly inferred from the output");
	const cJSON *e;
	cJSON_ArrayForEach(e, inferred)
		if (len < nlen)
			len += (size_t)snprintf(note + len, nlen - len, "; %s: %s", e->string,
						e->valuestring);
}

/* What fio_acc_dir's error r (fio_lat.h) says about job jobname's
 * direction di, at the job's name (or the percentile key). */
static void fio_dir_error(const struct fio_doc *d, const char *jobname, int di, int r,
			  const char *bad_key, struct errlist *errs)
{
	const char *dn = di == DIR_READ ? "read" : "write";
	unsigned line, col;

	fio_pos(d, r == -4 ? bad_key : "jobname", r == -4 ? NULL : jobname, &line, &col);
	if (r == -2)
		errlist_add(errs, d->path, 0, 0, "out of memory");
	else if (r == -3)
		errlist_add(errs, d->path, line, col,
			    "job '%s': '%s' holds a negative count or latency, a count past 2^64 or a fraction of an IO (or max below min); fio never writes one: the file was edited or damaged",
			    jobname, dn);
	else if (r == -4)
		errlist_add(errs, d->path, line, col,
			    "job '%s': '%s' percentile key '%.40s' is not a percentile in (0, 100]; fio writes keys like \"99.900000\": the file was edited or damaged",
			    jobname, dn, bad_key ? bad_key : "");
	else
		errlist_add(errs, d->path, line, col,
			    "job '%s': '%s' lacks io_bytes/iops/bw_bytes/runtime/lat_ns/clat_ns; this reads fio 3.x JSON (--output-format=json or json+)",
			    jobname, dn);
}

/* Import one job: the entries [first, first+n) of the jobs array. */
static int fio_job(struct import_set *s, const struct fio_doc *d,
		   const cJSON *const *entries, size_t n, double timestamp,
		   const struct import_fio_opts *o, const char *docnote,
		   struct errlist *errs)
{
	const cJSON *job = entries[0];
	const char *jobname = cJSON_GetObjectItemCaseSensitive(job, "jobname")->valuestring;
	struct cell p;
	struct fio_strs str;
	struct fio_acc a;
	struct rep_result rep;
	unsigned line, col;
	int ret = -1;
	bool moved = false;
	bool group_reporting = false;
	const char *gr = fio_opt(d, job, "group_reporting");
	char inferred[1024];
	cJSON *ik = cJSON_CreateObject(); /* what was inferred, by key */

	memset(&a, 0, sizeof(a));
	if (!ik) {
		errlist_add(errs, d->path, 0, 0, "out of memory");
		return -1;
	}
	memset(&rep, 0, sizeof(rep));
	if (gr && fio_bool(gr, &group_reporting) < 0)
		group_reporting = true; /* fio echoes it as "1" when set */
	if (fio_params(d, job, o, &p, &str, errs) < 0 ||
	    fio_direction(d, entries, n, str.rw_given, &p, ik, errs) < 0) {
		cJSON_Delete(ik);
		return -1;
	}
	if (n > 1 && p.jobs == 1)
		p.jobs = (unsigned)n; /* several entries of one name */

	for (size_t i = 0; i < n; i++) {
		const cJSON *e = entries[i];
		double err = 0, v;
		if (json_num(e, "error", &err) == 0 && err != 0) {
			fio_pos(d, "jobname", jobname, &line, &col);
			errlist_add(errs, d->path, line, col,
				    "job '%s' ended with error %g (%s); fix the job and run fio again",
				    jobname, err,
				    err > 0 && err < 4096 ? strerror((int)err) : "unknown error");
			goto out;
		}
		for (int di = 0; di < DIR__COUNT; di++) {
			bool on = di == DIR_READ ? pattern_reads(p.pattern) :
						   pattern_writes(p.pattern);
			const cJSON *od = cJSON_GetObjectItemCaseSensitive(
				e, di == DIR_READ ? "read" : "write");
			if (!on)
				continue;
			int r = cJSON_IsObject(od) ? fio_acc_dir(&a, di, od) : -1;
			if (r < 0) {
				fio_dir_error(d, jobname, di, r, a.bad_key, errs);
				goto out;
			}
		}
		if (json_num(e, "usr_cpu", &v) == 0) {
			rep.have_cpu = true;
			a.usr += v;
		}
		if (json_num(e, "sys_cpu", &v) == 0)
			a.sys += v;
		a.entries++;
	}
	fio_unrecorded(d, job, &a, &p, ik, inferred, sizeof(inferred));
	for (int di = 0; di < DIR__COUNT; di++)
		rep.dir[di] = a.dir[di];
	rep.lat_kind = a.kind;
	moved = true; /* rep owns the histograms now */
	rep.runtime_ns = import_u64(a.runtime_ms * 1e6);
	rep.cpu_usr_pct = a.usr;
	rep.cpu_sys_pct = a.sys;
	if (timestamp > 0) {
		double elapsed = 0;
		json_num(job, "elapsed", &elapsed);
		iso_of(timestamp - elapsed, rep.started_at, sizeof(rep.started_at));
		iso_of(timestamp, rep.finished_at, sizeof(rep.finished_at));
	}

	cJSON *src = cJSON_CreateObject();
	if (src) {
		cJSON_AddStringToObject(src, "fio_jobname", jobname);
		double g = 0;
		json_num(job, "groupid", &g);
		cJSON_AddNumberToObject(src, "fio_groupid", g);
		cJSON_AddNumberToObject(src, "fio_entries", (double)n);
		cJSON_AddBoolToObject(src, "group_reporting", group_reporting);
		cJSON *opts = cJSON_CreateObject();
		const cJSON *e;
		cJSON_ArrayForEach(e, d->global)
			if (cJSON_IsString(e))
				cJSON_AddStringToObject(opts, e->string, e->valuestring);
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(job, "job options"))
			if (cJSON_IsString(e)) {
				cJSON_DeleteItemFromObjectCaseSensitive(opts, e->string);
				cJSON_AddStringToObject(opts, e->string, e->valuestring);
			}
		cJSON_AddItemToObject(src, "fio_options", opts);
		if (inferred[0])
			cJSON_AddStringToObject(src, "inferred", inferred);
		if (ik->child) {
			cJSON_AddItemToObject(src, "inferred_keys", ik);
			ik = NULL;
		}
		cJSON_AddStringToObject(src, "file", d->path);
		if (d->v2) {
			cJSON_AddStringToObject(src, "fio_version", d->v2);
			cJSON_AddItemToObject(src, "units_converted", import_fio2_units_json());
		}
	}
	struct import_cell *c = import_set_add(s, &p, &rep, src);
	if (!c) {
		errlist_add(errs, d->path, 0, 0, "out of memory");
		goto out;
	}
	import_cell_warn(c, "imported from fio output, not measured by iomatrix");
	if (inferred[0])
		import_cell_warn(c, "%s", inferred);
	if (a.kind == LAT_COMPLETION)
		import_cell_warn(c, "latency is fio's completion latency (clat: submission excluded), the kind its percentiles were printed for; fio's total latency (lat) is kept apart as lat_total_ns; fio's lat_percentiles=1 gives total-latency percentiles");
	if (docnote)
		import_cell_warn(c, "%s", docnote);
	for (int di = 0; di < DIR__COUNT; di++) {
		const char *dn = di == DIR_READ ? "read" : "write";
		if (a.no_lat[di])
			import_cell_warn(c, "fio recorded no %s latency (gtod_reduce=1 or disable_lat): IOPS and bandwidth only", dn);
		if (a.pct_lost[di] && !a.dir[di].hist)
			import_cell_warn(c, "%s percentiles of %u fio job entries cannot be merged without json+ bins; run fio with --output-format=json+ or group_reporting",
					 dn, a.entries);
	}
	if (!engine_known(p.engine))
		import_cell_warn(c, "fio engine '%s' has no iomatrix equivalent", p.engine);
	char why[256];
	if (import_cell_check(c, why, sizeof(why)) < 0) {
		fio_pos(d, "jobname", jobname, &line, &col);
		errlist_add(errs, d->path, line, col,
			    "job '%s': its numbers are not ones fio measures (%s); the file was edited or damaged: import fio's own output",
			    jobname, why);
		goto out;  /* rep is in the set now (zeroed): nothing to free */
	}
	ret = 0;
out:
	cJSON_Delete(ik);
	if (ret < 0) {
		/* an entry failed after others were folded into a */
		for (int di = 0; !moved && di < DIR__COUNT; di++)
			free(a.dir[di].hist);
		rep_result_release(&rep);
	}
	return ret;
}

/* True if the JSON value starting at buf[start] is still open at the end
 * of the file (a report cut short), so the error belongs at the end. */
static bool json_unclosed(const char *buf, size_t start, size_t len)
{
	long depth = 0;
	bool str = false;

	for (size_t i = start; i < len; i++) {
		int d = json_bracket(buf, &i, &str);
		depth += d;
		if (d < 0 && depth == 0)
			return false;
	}
	return depth > 0;
}

/* A fio job entry, keyed for grouping (name + group id) and ordered by
 * where it first appears. */
struct job_key {
	const char *name;
	double group;
	int idx, first;
	const cJSON *j;
};

static bool job_key_same(const struct job_key *a, const struct job_key *b)
{
	return a->group == b->group && !strcmp(a->name, b->name);
}

static int job_key_cmp(const void *pa, const void *pb)
{
	const struct job_key *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static int job_first_cmp(const void *pa, const void *pb)
{
	const struct job_key *a = pa, *b = pb;
	if (a->first != b->first)
		return (a->first > b->first) - (a->first < b->first);
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The last complete JSON document of the file: every document starts
 * with '{' at the start of a line; anything before (fio's "note:" and
 * warning lines) is skipped, and a status-interval file cut short keeps
 * its last complete report (noted in docnote).  NULL with an error added,
 * or with nothing added when there is no JSON at all. */
static cJSON *fio_last_doc(struct fio_doc *d, size_t len, unsigned *ndocs,
			   char *docnote, size_t notelen, struct errlist *errs)
{
	const char *buf = d->buf, *path = d->path;
	cJSON *doc = NULL;
	size_t pos = 0;
	unsigned line, col;

	for (;;) {
		size_t start = pos;
		while (start < len && !(buf[start] == '{' &&
					(start == 0 || buf[start - 1] == '\n')))
			start++;
		if (start >= len)
			break;
		const char *end = NULL;
		cJSON *next = cJSON_ParseWithLengthOpts(buf + start, len - start,
							&end, 0);
		if (!next) {
			const char *ep = cJSON_GetErrorPtr();
			size_t off = ep && ep >= buf && ep <= buf + len ?
				(size_t)(ep - buf) : start;
			if (json_unclosed(buf, start, len))
				off = len;
			import_linecol(buf, off, &line, &col);
			if (*ndocs == 0) {
				errlist_add(errs, path, line, col,
					    "malformed JSON (%s); is this fio --output-format=json output?",
					    off >= len ? "unexpected end of file" :
							 "unexpected character");
				return NULL;
			}
			snprintf(docnote, notelen,
				 "%s:%u:%u: an incomplete JSON report after %u complete ones was ignored",
				 path, line, col, *ndocs);
			break;
		}
		cJSON_Delete(doc);
		doc = next;
		d->start = start;
		d->end = (size_t)(end - buf);
		(*ndocs)++;
		pos = d->end;
	}
	return doc;
}

/* The set's source: fio's version, the files and their commands. */
static void fio_source(struct import_set *s, const struct fio_doc *d,
		       const cJSON *jobs, const char *version)
{
	char *cmd = fio_command(d, jobs);

	if (!s->source && (s->source = cJSON_CreateObject())) {
		cJSON_AddStringToObject(s->source, "kind", "fio");
		cJSON_AddArrayToObject(s->source, "files");
		cJSON_AddStringToObject(s->source, "version", version);
		if (cmd)
			cJSON_AddStringToObject(s->source, "command", cmd);
		cJSON_AddArrayToObject(s->source, "commands");
		cJSON_AddStringToObject(s->source, "note",
			"measured by fio, imported by iomatrix; options given without a value (time_based...) are not in fio's JSON");
	}
	cJSON *files = cJSON_GetObjectItemCaseSensitive(s->source, "files");
	cJSON *cmds = cJSON_GetObjectItemCaseSensitive(s->source, "commands");
	if (files)
		cJSON_AddItemToArray(files, cJSON_CreateString(d->path));
	if (cmds && cmd)
		cJSON_AddItemToArray(cmds, cJSON_CreateString(cmd));
	free(cmd);
}

/* Group the job entries by job name and group id, in order of first
 * appearance, and make a cell of each group.  Sorted once (O(n log n)): a
 * scan per job with cJSON_GetArrayItem made 10,000 jobs cubic.  0, or -1
 * when out of memory. */
static int fio_groups(struct import_set *s, const struct fio_doc *d,
		      const cJSON *jobs, double ts, const struct import_fio_opts *o,
		      const char *docnote, struct errlist *errs)
{
	int nj = cJSON_GetArraySize(jobs), i = 0;
	const cJSON **entries = calloc((size_t)(nj > 0 ? nj : 1), sizeof(*entries));
	struct job_key *keys = calloc((size_t)(nj > 0 ? nj : 1), sizeof(*keys));
	unsigned line, col;
	size_t nk = 0;
	const cJSON *ji;

	if (!entries || !keys) {
		free(entries);
		free(keys);
		errlist_add(errs, d->path, 0, 0, "out of memory");
		return -1;
	}
	cJSON_ArrayForEach(ji, jobs) {
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ji, "jobname");
		if (!cJSON_IsObject(ji) || !cJSON_IsString(nm)) {
			import_linecol(d->buf, d->start, &line, &col);
			errlist_add(errs, d->path, line, col,
				    "job %d has no \"jobname\"; not fio 3.x JSON output", i + 1);
		} else {
			double g = 0;
			json_num(ji, "groupid", &g);
			keys[nk++] = (struct job_key){ nm->valuestring, g, i, i, ji };
		}
		i++;
	}
	if (nk > 1)
		qsort(keys, nk, sizeof(*keys), job_key_cmp);
	/* each run of equal keys is one job; its first index orders it */
	for (size_t a = 0, b; a < nk; a = b) {
		for (b = a + 1; b < nk && job_key_same(&keys[a], &keys[b]); b++)
			keys[b].first = keys[a].first;
	}
	if (nk > 1)
		qsort(keys, nk, sizeof(*keys), job_first_cmp);
	for (size_t a = 0, b; a < nk; a = b) {
		size_t n = 0;
		for (b = a; b < nk && keys[b].first == keys[a].first; b++)
			entries[n++] = keys[b].j;
		fio_job(s, d, entries, n, ts, o, docnote, errs);
	}
	free(keys);
	free(entries);
	if (nj == 0) {
		import_linecol(d->buf, d->start, &line, &col);
		errlist_add(errs, d->path, line, col, "fio output holds no jobs");
	}
	return 0;
}

/* The set's start and end from the report's timestamp and elapsed time:
 * the earliest start and the latest end over the files. */
static void fio_times(struct import_set *s, const cJSON *jobs, double ts)
{
	char iso[32];
	double elapsed = 0;

	iso_of(ts, iso, sizeof(iso));
	if (!s->finished_at[0] || strcmp(iso, s->finished_at) > 0)
		snprintf(s->finished_at, sizeof(s->finished_at), "%s", iso);
	if (cJSON_GetArraySize(jobs) > 0)
		json_num(cJSON_GetArrayItem(jobs, 0), "elapsed", &elapsed);
	iso_of(ts - elapsed, iso, sizeof(iso));
	if (!s->started_at[0] || strcmp(iso, s->started_at) < 0)
		snprintf(s->started_at, sizeof(s->started_at), "%s", iso);
}

int import_fio_file(struct import_set *s, const char *path,
		    const struct import_fio_opts *o, struct errlist *errs)
{
	size_t len = 0, before = errs->n;
	char *buf = import_read_file(path, &len, errs);
	cJSON *doc = NULL;
	struct fio_doc d = { .path = path };
	unsigned line, col, ndocs = 0;
	char docnote[256] = "";

	if (!buf)
		return -1;
	d.buf = buf;
	doc = fio_last_doc(&d, len, &ndocs, docnote, sizeof(docnote), errs);
	if (!doc) {
		if (errs->n == before)
			errlist_add(errs, path, 1, 1,
				    "no JSON found; run fio with --output-format=json (or json+)");
		goto out;
	}
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "fio version");
	const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!cJSON_IsArray(jobs) || !cJSON_IsString(ver)) {
		import_linecol(buf, d.start, &line, &col);
		errlist_add(errs, path, line, col,
			    "not fio output: no \"fio version\" and \"jobs\"; run fio with --output-format=json (or json+)");
		goto out;
	}
	if (import_fio2_version(ver->valuestring)) {
		/* µs, KiB, KiB/s: brought to 3.x's keys and units first */
		if (import_fio2_normalize(doc) < 0) {
			errlist_add(errs, path, 0, 0, "out of memory");
			goto out;
		}
		d.v2 = ver->valuestring;
	} else if (strncmp(ver->valuestring, "fio-3", 5)) {
		fio_pos(&d, "fio version", ver->valuestring, &line, &col);
		errlist_add(errs, path, line, col,
			    "'%s' output is not supported (this reads fio 2.x and 3.x JSON); run fio 2.x or later",
			    ver->valuestring);
		goto out;
	}
	d.global = cJSON_GetObjectItemCaseSensitive(doc, "global options");
	if (ndocs > 1 && !docnote[0])
		snprintf(docnote, sizeof(docnote),
			 "%u JSON reports in the file (status-interval): the last one is used",
			 ndocs);
	fio_source(s, &d, jobs, ver->valuestring);
	double ts = 0;
	json_num(doc, "timestamp", &ts);
	if (fio_groups(s, &d, jobs, ts, o, docnote[0] ? docnote : NULL, errs) < 0)
		goto out;
	if (ts > 0)
		fio_times(s, jobs, ts);
out:
	cJSON_Delete(doc);
	free(buf);
	return errs->n > before ? -1 : 0;
}
