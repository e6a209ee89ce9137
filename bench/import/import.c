/*
 * import.c - what the importers share: the in-memory import_set (cells with
 * repetitions, devices, source), its schema-v1 JSON (cells, plan, manifest,
 * a generated suite.yaml that re-measures the imported cells), and the
 * all-or-nothing write: build the set in a hidden temporary directory next
 * to its destination, then rename it into place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "resultset/setout.h"
#include "util/array.h"
#include "util/fsutil.h"
#include "util/sbuf.h"
#include "util/termesc.h"
#include "util/version.h"
#include "engines/engine.h"
#include "host/fingerprint.h"
#include "host/fpkeys.h"
#include "import.h"
#include "resultset/cellcheck.h"
#include "resultset/resultset.h"
#include "resultset/tmpdir.h"
#include "util/sha256.h"
#include "util/units.h"
#include "util/testhook.h"

#define IMPORT_MAX_FILE (256u << 20)

/*
 * Open-addressing index from a 64-bit hash to an item number.  Devices and
 * parameter sets are looked up through it instead of a scan of all earlier
 * ones (a scan made 10,000 fio jobs or CSV devices quadratic).  A hash hit
 * is confirmed by a real comparison.
 */
struct import_index {
	uint64_t *h;
	size_t *v;     /* item + 1; 0: empty slot */
	size_t cap, n;
};

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	return h;
}

static void index_free(struct import_index *x)
{
	if (!x)
		return;
	free(x->h);
	free(x->v);
	free(x);
}

static int index_put(struct import_index **xp, uint64_t h, size_t item)
{
	struct import_index *x = *xp;
	if (!x && !(x = *xp = calloc(1, sizeof(*x))))
		return -1;
	if (2 * (x->n + 1) > x->cap) {
		size_t nc = x->cap ? 2 * x->cap : 64;
		struct import_index y = { calloc(nc, sizeof(uint64_t)), calloc(nc, sizeof(size_t)), nc, 0 };
		if (!y.h || !y.v) {
			free(y.h);
			free(y.v);
			return -1;
		}
		for (size_t i = 0; i < x->cap; i++) {
			if (!x->v[i])
				continue;
			size_t k = x->h[i] & (nc - 1);
			while (y.v[k])
				k = (k + 1) & (nc - 1);
			y.h[k] = x->h[i];
			y.v[k] = x->v[i];
			y.n++;
		}
		free(x->h);
		free(x->v);
		*x = y;
	}
	size_t k = h & (x->cap - 1);
	while (x->v[k])
		k = (k + 1) & (x->cap - 1);
	x->h[k] = h;
	x->v[k] = item + 1;
	x->n++;
	return 0;
}

/* Items stored under hash h, one per call: start with *pos = 0; returns
 * SIZE_MAX when there are no more. */
static size_t index_next(const struct import_index *x, uint64_t h, size_t *pos)
{
	if (!x || !x->cap)
		return SIZE_MAX;
	for (; *pos < x->cap; (*pos)++) {
		size_t k = (h + *pos) & (x->cap - 1);
		if (!x->v[k])
			return SIZE_MAX;
		if (x->h[k] == h) {
			(*pos)++;
			return x->v[k] - 1;
		}
	}
	return SIZE_MAX;
}

void import_set_init(struct import_set *s, const char *kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	snprintf(s->name, sizeof(s->name), "%s", kind);
}

void import_set_release(struct import_set *s)
{
	for (size_t i = 0; i < s->ncells; i++) {
		struct import_cell *c = &s->cells[i];
		rep_results_free(c->reps, c->nreps);
		for (size_t w = 0; w < c->nwarnings; w++)
			free(c->warnings[w]);
		free(c->warnings);
		cJSON_Delete(c->source);
		free(c->device);
		free(c->path);
	}
	free(s->cells);
	free(s->devices);
	index_free(s->devidx);
	index_free(s->cellidx);
	s->devidx = s->cellidx = NULL;
	s->devalloc = 0;
	free(s->title);
	free(s->description);
	cJSON_Delete(s->source);
	s->cells = NULL;
	s->devices = NULL;
	s->source = NULL;
	s->title = s->description = NULL;
	s->ncells = s->alloc = s->ndevices = 0;
}

void import_set_name_from_file(struct import_set *s, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n = 0;

	base = base ? base + 1 : path;
	for (const char *p = base; *p && n + 1 < sizeof(s->name); p++) {
		char ch = *p;
		if (ch == '.' && strchr(p + 1, '.') == NULL && p != base)
			break; /* drop the last extension */
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		      ch == '.' || ch == '_' || ch == '-'))
			ch = '-';
		s->name[n++] = ch;
	}
	s->name[n] = '\0';
	if (!n || s->name[0] == '.')
		snprintf(s->name, sizeof(s->name), "%s", s->kind);
}

int import_set_add_device(struct import_set *s, const char *name,
			  const char *path)
{
	uint64_t h = fnv1a(name, strlen(name));
	size_t pos = 0, i;
	while ((i = index_next(s->devidx, h, &pos)) != SIZE_MAX)
		if (!strcmp(s->devices[i].name, name))
			return 0;
	if (s->ndevices == s->devalloc) {
		size_t na = s->devalloc ? 2 * s->devalloc : 8;
		struct import_device *nd = realloc(s->devices, na * sizeof(*nd));
		if (!nd)
			return -1;
		s->devices = nd;
		s->devalloc = na;
	}
	if (index_put(&s->devidx, h, s->ndevices) < 0)
		return -1;
	struct import_device *d = &s->devices[s->ndevices++];
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->path, sizeof(d->path), "%s", path ? path : "");
	return 0;
}

/* Two parameter sets describe the same cell when their JSON is equal
 * (ids aside: they are not assigned yet). */
static bool params_equal(const struct cell *a, const struct cell *b)
{
	struct cell x = *a, y = *b;
	x.id = y.id = 0;
	cJSON *ja = cell_to_json(&x), *jb = cell_to_json(&y);
	bool eq = ja && jb && cJSON_Compare(ja, jb, true);
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return eq;
}

/* Hash of what params_equal compares (device and path blanked when
 * any_device), so that equal parameter sets share a hash. */
static uint64_t params_hash(const struct cell *c, bool any_device)
{
	struct cell x = *c;
	x.id = 0;
	if (any_device)
		x.device = x.path = "";
	cJSON *j = cell_to_json(&x);
	char *t = j ? cJSON_PrintUnformatted(j) : NULL;
	uint64_t h = t ? fnv1a(t, strlen(t)) : 0;
	free(t);
	cJSON_Delete(j);
	return h;
}

struct import_cell *import_set_add(struct import_set *s, const struct cell *params,
				   struct rep_result *rep, cJSON *source)
{
	struct import_cell *c = NULL;

	uint64_t h = params_hash(params, false);
	size_t pos = 0, i;
	while ((i = index_next(s->cellidx, h, &pos)) != SIZE_MAX)
		if (params_equal(&s->cells[i].params, params)) {
			c = &s->cells[i];
			break;
		}
	if (!c) {
		struct import_cell *nc = array_grow(s->cells, &s->alloc, s->ncells,
						    sizeof(*nc), 16);
		if (!nc)
			goto err;
		s->cells = nc;
		c = &s->cells[s->ncells];
		memset(c, 0, sizeof(*c));
		c->params = *params;
		/* the cell's own copies: params may borrow a parser's buffers */
		if (!(c->device = strdup(params->device)) ||
		    !(c->path = strdup(params->path)) ||
		    index_put(&s->cellidx, h, s->ncells) < 0) {
			free(c->device);
			free(c->path);
			goto err;
		}
		s->ncells++;
		c->params.device = c->device;
		c->params.path = c->path;
		if (import_set_add_device(s, params->device, params->path) < 0)
			goto err;
	}
	struct rep_result *nr = realloc(c->reps, (c->nreps + 1) * sizeof(*nr));
	if (!nr)
		goto err;
	c->reps = nr;
	c->reps[c->nreps++] = *rep;
	memset(rep, 0, sizeof(*rep));
	if (source) {
		/* Keep the first repetition's extras; later ones say the same. */
		if (!c->source)
			c->source = source;
		else
			cJSON_Delete(source);
	}
	return c;
err:
	cJSON_Delete(source);
	return NULL;
}

void import_cell_warn(struct import_cell *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < c->nwarnings; i++)
		if (!strcmp(c->warnings[i], buf))
			return;
	char **nw = realloc(c->warnings, (c->nwarnings + 1) * sizeof(*nw));
	if (!nw)
		return;
	c->warnings = nw;
	if ((c->warnings[c->nwarnings] = strdup(buf)))
		c->nwarnings++;
}

double import_cell_iops(const struct import_cell *c)
{
	if (!c->nreps)
		return 0;
	return c->reps[0].dir[DIR_READ].iops + c->reps[0].dir[DIR_WRITE].iops;
}

const struct import_cell *import_set_find(const struct import_set *s,
					  const char *device, enum pattern p,
					  uint64_t bs)
{
	for (size_t i = 0; i < s->ncells; i++) {
		const struct cell *c = &s->cells[i].params;
		if (!strcmp(c->device, device) && c->pattern == p && c->bs == bs)
			return &s->cells[i];
	}
	return NULL;
}

/* ---- JSON of a cell ---- */

cJSON *import_cell_to_json(const struct import_cell *c, int id)
{
	struct cell params = c->params;
	struct cell_outcome o = {
		.reps = c->reps, .nreps = c->nreps,
		.warnings = c->warnings, .nwarnings = c->nwarnings,
		.source = c->source,
	};

	params.id = id;
	for (size_t r = 0; r < c->nreps; r++) {
		if (!o.started_at && c->reps[r].started_at[0])
			o.started_at = c->reps[r].started_at;
		if (c->reps[r].finished_at[0])
			o.finished_at = c->reps[r].finished_at;
	}
	return resultset_cell_to_json(&params, &o);
}

int import_cell_check(const struct import_cell *c, char *why, size_t whylen)
{
	cJSON *j = import_cell_to_json(c, 1);
	struct cell back;
	char err[256];
	int ret = -1;

	if (!j) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (cellcheck_cell(j, why, whylen) < 0)
		goto out;
	if (cell_from_json(cJSON_GetObjectItemCaseSensitive(j, "params"), &back,
			   err, sizeof(err)) < 0) {
		snprintf(why, whylen, "parameters: %s", err);
		goto out;
	}
	ret = 0;
out:
	cJSON_Delete(j);
	return ret;
}

/* ---- the generated suite.yaml ---- */

/* A YAML double-quoted scalar. */
static void sb_yaml_str(struct sbuf *b, const char *s)
{
	sbuf_addf(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sbuf_addf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			sbuf_addf(b, "\\x%02x", *p);
		else
			sbuf_addc(b, (char)*p);
	}
	sbuf_addf(b, "\"");
}

/* The rest of a comment line: a newline would end the comment early. */
static void sb_comment(struct sbuf *b, const char *s)
{
	termesc_append(b, s);   /* one line of text: no control reaches a reader */
	sbuf_addf(b, "\n");
}

/* Device i's name as a suite accepts it ([A-Za-z0-9._-], 63 at most):
 * published names like "640G SATA (Local)" become "640G-SATA-Local". */
static void device_base_name(const struct import_set *s, size_t i, char *out,
			     size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (const char *p = s->devices[i].name; *p && n + 1 < len; p++) {
		char ch = *p;
		bool okc = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
			   ch == '-';
		if (!okc) {
			if (!dash && n)
				out[n++] = '-';
			dash = true;
			continue;
		}
		out[n++] = ch;
		dash = ch == '-';
	}
	while (n && out[n - 1] == '-')
		n--;
	out[n] = '\0';
	if (!n)
		snprintf(out, len, "device%zu", i + 1);
}

/* The suite names of all devices, each computed once: a clash with an
 * earlier name gets "-N" (N the device's number, then counting up until
 * free).  Looked up through a hash index, so 10,000 devices cost
 * milliseconds; the old recursion over every earlier device was
 * exponential.  Caller frees.  NULL when out of memory. */
static char (*device_names(const struct import_set *s))[CELL_NAME_MAX]
{
	char (*names)[CELL_NAME_MAX] = calloc(s->ndevices ? s->ndevices : 1, sizeof(*names));
	struct import_index *idx = NULL;

	if (!names)
		return NULL;
	for (size_t i = 0; i < s->ndevices; i++) {
		char base[CELL_NAME_MAX];
		device_base_name(s, i, base, sizeof(base));
		snprintf(names[i], sizeof(names[i]), "%s", base);
		for (size_t n = i + 1;; n++) {
			uint64_t h = fnv1a(names[i], strlen(names[i]));
			size_t pos = 0, k;
			bool clash = false;
			while (!clash && (k = index_next(idx, h, &pos)) != SIZE_MAX)
				clash = !strcmp(names[k], names[i]);
			if (!clash) {
				if (index_put(&idx, h, i) < 0)
					goto oom;
				break;
			}
			snprintf(names[i], sizeof(names[i]), "%.50s-%zu", base, n);
		}
	}
	index_free(idx);
	return names;
oom:
	index_free(idx);
	free(names);
	return NULL;
}

/*
 * A suite that measures the imported cells again with iomatrix: the devices
 * and, as include entries, each distinct parameter set (include cells run
 * on every device, which is what a fair comparison wants anyway).
 */
static char *suite_yaml(const struct import_set *s, const char *files)
{
	struct sbuf b = SBUF_INIT;
	char buf[64];

	sbuf_addf(&b, "# Generated by iomatrix %s 'import %s' from: ",
		  iomatrix_version, s->kind);
	sb_comment(&b, files);
	sbuf_addf(&b, "# The numbers of this result set were measured by %s, not by iomatrix.\n"
		      "# Running this suite measures the same parameters again with iomatrix\n"
		      "# (set the device paths with --device NAME=PATH).\n",
		  !strcmp(s->kind, "csv") ? "someone else (published figures)" : s->kind);
	sbuf_addf(&b, "suite: %s\n", s->name);
	if (s->title) {
		sbuf_addf(&b, "title: ");
		sb_yaml_str(&b, s->title);
		sbuf_addf(&b, "\n");
	}
	sbuf_addf(&b, "devices:\n");
	char (*names)[CELL_NAME_MAX] = device_names(s);
	if (!names) {
		sbuf_release(&b);
		return NULL;
	}
	bool oom = false;
	for (size_t i = 0; i < s->ndevices; i++) {
		const char *name = names[i];
		if (strcmp(name, s->devices[i].name)) {
			sbuf_addf(&b, "  # ");
			sb_comment(&b, s->devices[i].name);
		}
		sbuf_addf(&b, "  - name: ");
		sb_yaml_str(&b, name);
		sbuf_addf(&b, "\n    path: ");
		sb_yaml_str(&b, s->devices[i].path[0] ? s->devices[i].path :
			    "/path/to/device");
		sbuf_addf(&b, "\n");
	}
	free(names);
	sbuf_addf(&b, "include:\n");
	/* one include entry per parameter set, whatever its device */
	struct import_index *seen = NULL;
	for (size_t i = 0; i < s->ncells; i++) {
		const struct cell *c = &s->cells[i].params;
		bool dup = false;
		uint64_t h = params_hash(c, true);
		size_t pos = 0, k;
		while (!dup && (k = index_next(seen, h, &pos)) != SIZE_MAX) {
			struct cell x = s->cells[k].params;
			x.device = c->device;
			x.path = c->path;
			dup = params_equal(&x, c);
		}
		if (dup)
			continue;
		if (index_put(&seen, h, i) < 0)
			oom = true;
		sbuf_addf(&b, "  - {pattern: %s, bs: %llu, iodepth: %u, jobs: %u",
			  pattern_name(c->pattern), (unsigned long long)c->bs,
			  c->iodepth, c->jobs);
		if (engine_known(c->engine))
			sbuf_addf(&b, ", engine: %s", c->engine);
		sbuf_addf(&b, ", direct: %s", c->direct ? "true" : "false");
		if (c->size_pct > 0)
			sbuf_addf(&b, ", size: \"%g%%\"", c->size_pct);
		else if (c->size)
			sbuf_addf(&b, ", size: %llu", (unsigned long long)c->size);
		if (c->files > 1)
			sbuf_addf(&b, ", files: %u", c->files);
		if (c->runtime_ns) {
			units_format_duration(c->runtime_ns, buf, sizeof(buf));
			sbuf_addf(&b, ", runtime: %s", buf);
		}
		if (c->requests)
			sbuf_addf(&b, ", requests: %llu",
				  (unsigned long long)c->requests);
		if (c->io_size)
			sbuf_addf(&b, ", io_size: %llu",
				  (unsigned long long)c->io_size);
		if (pattern_is_mixed(c->pattern))
			sbuf_addf(&b, ", rwmixread: %u", c->rwmixread);
		/* the suite loader refuses fsync keys on cells that never write */
		if (c->fsync && pattern_writes(c->pattern))
			sbuf_addf(&b, ", fsync: %u", c->fsync);
		if (c->end_fsync && pattern_writes(c->pattern))
			sbuf_addf(&b, ", end_fsync: true");
		if (c->label_given) {
			sbuf_addf(&b, ", label: ");
			sb_yaml_str(&b, c->label);
		}
		sbuf_addf(&b, "}\n");
	}
	index_free(seen);
	if (oom) {
		sbuf_release(&b);
		return NULL;
	}
	return sbuf_detach(&b); /* NULL when an allocation failed */
}

/* ---- the manifest ---- */

static cJSON *manifest_json(const struct import_set *s, const char *sha,
			    const char *now)
{
	struct manifest_info mi = {
		.started_at = s->started_at[0] ? s->started_at : now,
		.scale = 1, .source = s->source,
		/* The host that ran the other tool is not in its output; this
		 * one's would be a lie. */
		.tool = fingerprint_tool(), .host = fp_host_unknown(s->host),
		.suite_name = s->name, .title = s->title,
		.description = s->description, .file = "suite.yaml",
		.sha256 = sha, .cells_total = s->ncells,
	};
	cJSON *m = resultset_manifest_new(&mi);

	for (size_t i = 0; m && i < s->ndevices; i++)
		resultset_manifest_add_device(m, s->devices[i].name,
					      s->devices[i].path, -1,
					      fp_device_unknown());
	return m;
}

/* ---- writing ---- */

/* The hidden directories of imports into parent that died before they
 * could clean up (tmpdir.h). */
static void sweep_parent(const char *parent)
{
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		resultset_tmp_sweep(fd);
		close(fd);
	}
}

/* The set's directory: -o SETDIR if it is new or an empty directory, else
 * RESULTS/STAMP_KIND_NAME[-N], the first free one.  0, or -1 with err set. */
static int import_set_dest(const struct import_set *s, const char *results_root,
			   const char *out_dir, char *final, size_t finallen,
			   char *err, size_t errlen)
{
	if (out_dir) {
		snprintf(final, finallen, "%s", out_dir);
		size_t n = strlen(final);
		while (n > 1 && final[n - 1] == '/')
			final[--n] = '\0';
		struct stat st;
		if (stat(final, &st) == 0 &&
		    (!S_ISDIR(st.st_mode) || fsutil_dir_is_empty(final) != 1)) {
			snprintf(err, errlen,
				 "'%s' already exists and is not an empty directory; choose another -o SETDIR",
				 final);
			return -1;
		}
	} else {
		/* named by when it was measured, as a run's set is */
		char stamp[32];
		time_t t = time(NULL);
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H%M%SZ", &tm);
		if (strlen(s->started_at) == 20)   /* 2026-11-30T02:40:12Z */
			snprintf(stamp, sizeof(stamp), "%.13s%.2s%.2sZ", s->started_at,
				 s->started_at + 14, s->started_at + 17);
		for (int i = 1;; i++) {
			int n = i == 1 ?
				snprintf(final, finallen, "%s/%s_%s_%s",
					 results_root, stamp, s->kind, s->name) :
				snprintf(final, finallen, "%s/%s_%s_%s-%d",
					 results_root, stamp, s->kind, s->name, i);
			if (n >= (int)finallen) {
				snprintf(err, errlen, "results directory '%s': name too long",
					 results_root);
				return -1;
			}
			if (access(final, F_OK) != 0)
				break;
			if (i > 9999) {
				snprintf(err, errlen, "cannot find a free name in '%s'",
					 results_root);
				return -1;
			}
		}
	}
	return 0;
}

int import_set_write(struct import_set *s, const char *results_root,
		     const char *out_dir, char *dir_out, size_t dir_outlen,
		     char *err, size_t errlen)
{
	char final[PATH_MAX], tmp[PATH_MAX + 64], parent[PATH_MAX], now[32];
	char sha[65], path[PATH_MAX + 80], files[1024] = "";
	struct resultset rs = { 0 };
	struct suite plan = { 0 };
	struct cell *cells = NULL;
	char *yaml = NULL;
	cJSON *man;
	bool made_tmp = false;
	int ret = -1, r, tmpfd = -1;

	iso8601_now(now, sizeof(now));
	/* Where it goes: checked before anything is written. */
	if (import_set_dest(s, results_root, out_dir, final, sizeof(final), err, errlen) < 0)
		return -1;
	if (resultset_output_check(final, NULL, err, errlen) < 0)
		return -2;
	if (fsutil_parent(final, parent, sizeof(parent)) < 0) {
		snprintf(err, errlen, "'%s': name too long", final);
		return -1;
	}
	if ((r = fsutil_mkdir_p(parent)) < 0) {
		snprintf(err, errlen, "cannot create '%s': %s", parent, strerror(-r));
		return -1;
	}
	const char *base = strrchr(final, '/');
	base = base ? base + 1 : final;
	if (snprintf(tmp, sizeof(tmp), "%s/" FSUTIL_TMP_PREFIX "%s" RESULTSET_TMP_IMPORTING "%ld",
		     parent, base, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "'%s': name too long", final);
		return -1;
	}
	sweep_parent(parent);

	/* The source files, for the suite.yaml comment. */
	const cJSON *fl = cJSON_GetObjectItemCaseSensitive(s->source, "files"), *f;
	cJSON_ArrayForEach(f, fl) {
		if (cJSON_IsString(f) && strlen(files) + strlen(f->valuestring) + 2 < sizeof(files)) {
			if (files[0])
				strcat(files, " ");
			strcat(files, f->valuestring);
		}
	}
	yaml = suite_yaml(s, files);
	if (!yaml)
		goto oom;
	sha256_hex(yaml, strlen(yaml), sha);

	/* plan.json through the shared writer: a suite holding our cells. */
	cells = calloc(s->ncells ? s->ncells : 1, sizeof(*cells));
	if (!cells)
		goto oom;
	for (size_t i = 0; i < s->ncells; i++) {
		cells[i] = s->cells[i].params;
		cells[i].id = (int)i + 1;
	}
	plan.name = s->name;
	memcpy(plan.sha256, sha, sizeof(plan.sha256));
	plan.cells = cells;
	plan.ncells = s->ncells;
	man = manifest_json(s, sha, now);
	if (!man)
		goto oom;
	/* rs owns man from here, also on failure. */
	if (resultset_create(&rs, NULL, tmp, s->name, man, err, errlen) < 0)
		goto out;
	made_tmp = true;
	if ((tmpfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
		resultset_tmp_hold(tmpfd); /* ours until the rename (tmpdir.h) */
	snprintf(path, sizeof(path), "%s/suite.yaml", tmp);
	if ((r = fsutil_write_atomic(path, yaml, strlen(yaml))) < 0)
		goto io;
	snprintf(path, sizeof(path), "%s/plan.json", tmp);
	if ((r = resultset_write_plan(&rs, &plan)) < 0)
		goto io;
	for (size_t i = 0; i < s->ncells; i++) {
		cJSON *cj = import_cell_to_json(&s->cells[i], (int)i + 1);
		if (!cj)
			goto oom;
		if (resultset_write_cell(&rs, (int)i + 1, cj, err, errlen) < 0)
			goto out;
		testhook_point("import_cell");
	}
	if (resultset_finish(&rs, "complete", err, errlen) < 0)
		goto out;
	/* resultset_finish stamps the import time; the measurement's own end
	 * time is the truer finished_at when the tool printed one. */
	if (s->finished_at[0]) {
		cJSON_ReplaceItemInObjectCaseSensitive(rs.manifest, "finished_at",
			cJSON_CreateString(s->finished_at));
		if (resultset_save_manifest(&rs, err, errlen) < 0)
			goto out;
	}
	if (rename(tmp, final) < 0) {
		snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, final,
			 strerror(errno));
		goto out;
	}
	made_tmp = false;
	/* the rename is durable only once the parent directory is */
	if ((r = fsutil_fsync_dir_at(AT_FDCWD, parent)) < 0) {
		snprintf(err, errlen, "cannot fsync '%s': %s", parent, strerror(-r));
		goto out;
	}
	snprintf(dir_out, dir_outlen, "%s", final);
	ret = 0;
	goto out;
io:
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-r));
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	if (tmpfd >= 0)
		close(tmpfd);
	if (made_tmp)
		fsutil_remove_tree_at(AT_FDCWD, tmp);
	resultset_release(&rs);
	free(cells);
	free(yaml);
	return ret;
}

/* ---- small helpers ---- */

uint64_t import_u64(double x)
{
	if (!(x > 0))
		return 0;
	if (x >= 18446744073709549568.0) /* largest double below 2^64 */
		return UINT64_MAX;
	return (uint64_t)x;
}

char *import_read_file(const char *path, size_t *len, struct errlist *errs)
{
	char *buf = fsutil_read(path, IMPORT_MAX_FILE, len);

	if (!buf)
		errlist_add(errs, path, 0, 0, "cannot read '%s': %s", path,
			    fsutil_strerror(errno));
	return buf;
}

void import_linecol(const char *buf, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;

	for (size_t i = 0; i < off && buf[i]; i++) {
		if (buf[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}
