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

#include "common/version.h"
#include "host/fingerprint.h"
#include "import.h"
#include "resultset/resultset.h"
#include "common/sha256.h"
#include "common/units.h"

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

void import_rep_release(struct import_rep *r)
{
	for (int d = 0; d < IMP_NDIR; d++) {
		free(r->dir[d].hist);
		r->dir[d].hist = NULL;
	}
}

void import_set_release(struct import_set *s)
{
	for (size_t i = 0; i < s->ncells; i++) {
		struct import_cell *c = &s->cells[i];
		for (size_t r = 0; r < c->nreps; r++)
			import_rep_release(&c->reps[r]);
		free(c->reps);
		for (size_t w = 0; w < c->nwarnings; w++)
			free(c->warnings[w]);
		free(c->warnings);
		cJSON_Delete(c->source);
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
	if (any_device) {
		memset(x.device, 0, sizeof(x.device));
		memset(x.path, 0, sizeof(x.path));
	}
	cJSON *j = cell_to_json(&x);
	char *t = j ? cJSON_PrintUnformatted(j) : NULL;
	uint64_t h = t ? fnv1a(t, strlen(t)) : 0;
	free(t);
	cJSON_Delete(j);
	return h;
}

struct import_cell *import_set_add(struct import_set *s, const struct cell *params,
				   struct import_rep *rep, cJSON *source)
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
		if (s->ncells == s->alloc) {
			size_t na = s->alloc ? s->alloc * 2 : 16;
			struct import_cell *nc = realloc(s->cells, na * sizeof(*nc));
			if (!nc)
				goto err;
			s->cells = nc;
			s->alloc = na;
		}
		if (index_put(&s->cellidx, h, s->ncells) < 0)
			goto err;
		c = &s->cells[s->ncells++];
		memset(c, 0, sizeof(*c));
		c->params = *params;
		if (import_set_add_device(s, params->device, params->path) < 0)
			goto err;
	}
	struct import_rep *nr = realloc(c->reps, (c->nreps + 1) * sizeof(*nr));
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
	return c->reps[0].dir[IMP_READ].iops + c->reps[0].dir[IMP_WRITE].iops;
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

static const char *dir_name(int d)
{
	return d == IMP_READ ? "read" : "write";
}

/* Percentile p of a direction: the tool's own figure when it printed that
 * percentile, else from the histogram; <0 when unknown. */
static double dir_pct(const struct import_dir *d, double p)
{
	for (size_t i = 0; i < d->npct; i++)
		if (fabs(d->pct_p[i] - p) < 1e-9)
			return d->pct_ns[i];
	if (d->hist && d->hist->total)
		return (double)hist_percentile(d->hist, p);
	return -1;
}

static cJSON *dir_lat_json(const struct import_dir *d)
{
	cJSON *o = cJSON_CreateObject(), *p;
	char key[32];

	if (!o)
		return NULL;
	if (d->have_lat_range) {
		cJSON_AddNumberToObject(o, "min", d->lat_min_ns);
		cJSON_AddNumberToObject(o, "max", d->lat_max_ns);
	}
	cJSON_AddNumberToObject(o, "mean", d->lat_mean_ns);
	if (d->have_stddev)
		cJSON_AddNumberToObject(o, "stddev", d->lat_stddev_ns);
	if (d->npct) {
		p = cJSON_AddObjectToObject(o, "percentiles");
		for (size_t i = 0; p && i < d->npct; i++) {
			snprintf(key, sizeof(key), "%f", d->pct_p[i]);
			cJSON_AddNumberToObject(p, key, d->pct_ns[i]);
		}
	} else if (d->hist && d->hist->total) {
		p = cJSON_AddObjectToObject(o, "percentiles");
		for (size_t i = 0; p && i < stats_fio_npercentiles; i++) {
			snprintf(key, sizeof(key), "%f", stats_fio_percentiles[i]);
			cJSON_AddNumberToObject(p, key,
				(double)hist_percentile(d->hist,
							stats_fio_percentiles[i]));
		}
	}
	return o;
}

static cJSON *dir_json(const struct import_dir *d)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "ios", (double)d->ios);
	cJSON_AddNumberToObject(o, "bytes", (double)d->bytes);
	cJSON_AddNumberToObject(o, "iops", d->iops);
	cJSON_AddNumberToObject(o, "bw_bytes_s", d->bw_bytes_s);
	if (d->have_lat)
		cJSON_AddItemToObject(o, "lat_ns", dir_lat_json(d));
	if (d->hist && d->hist->total) {
		cJSON *h = cJSON_AddObjectToObject(o, "hist");
		if (h) {
			cJSON_AddStringToObject(h, "scheme", "loglin64");
			cJSON_AddItemToObject(h, "buckets", hist_to_json(d->hist));
		}
	}
	return o;
}

/* STAT of one metric over the repetitions; NULL when a repetition lacks it. */
static cJSON *metric_stat(const struct import_cell *c, int d,
			  double (*get)(const struct import_dir *))
{
	double *x = calloc(c->nreps ? c->nreps : 1, sizeof(*x));
	struct summary sum;

	if (!x)
		return NULL;
	for (size_t r = 0; r < c->nreps; r++) {
		x[r] = get(&c->reps[r].dir[d]);
		if (x[r] < 0) {
			free(x);
			return NULL;
		}
	}
	summary_compute(x, c->nreps, &sum);
	free(x);
	return summary_to_json(&sum);
}

static double get_iops(const struct import_dir *d) { return d->iops; }
static double get_bw(const struct import_dir *d) { return d->bw_bytes_s; }
static double get_lat_mean(const struct import_dir *d)
{
	return d->have_lat ? d->lat_mean_ns : -1;
}
static double get_p50(const struct import_dir *d)
{
	return d->have_lat ? dir_pct(d, 50) : -1;
}
static double get_p99(const struct import_dir *d)
{
	return d->have_lat ? dir_pct(d, 99) : -1;
}
static double get_lat_max(const struct import_dir *d)
{
	return d->have_lat_range ? d->lat_max_ns : -1;
}

/* The latency of all repetitions of direction d together: exact moments
 * (Chan's merge) when every repetition has them, percentiles from the
 * merged histogram when every repetition has one. */
static cJSON *merged_lat_json(const struct import_cell *c, int d)
{
	struct import_dir m;
	struct lat_hist *h = NULL;
	double n = 0, mean = 0, m2 = 0;
	bool all_hist = true, all_range = true, all_sd = true;

	if (c->nreps == 1)
		return dir_lat_json(&c->reps[0].dir[d]);
	memset(&m, 0, sizeof(m));
	m.have_lat = true;
	for (size_t r = 0; r < c->nreps; r++) {
		const struct import_dir *x = &c->reps[r].dir[d];
		if (!x->have_lat)
			return NULL;
		double nx = x->lat_n ? (double)x->lat_n : (double)x->ios;
		if (nx <= 0)
			nx = 1;
		double delta = x->lat_mean_ns - mean;
		double tot = n + nx;
		mean += delta * nx / tot;
		double m2x = x->have_stddev && nx > 1 ?
			x->lat_stddev_ns * x->lat_stddev_ns * (nx - 1) : 0;
		m2 += m2x + delta * delta * n * nx / tot;
		n = tot;
		if (!x->have_lat_range)
			all_range = false;
		if (!x->have_stddev)
			all_sd = false;
		if (r == 0 || x->lat_min_ns < m.lat_min_ns)
			m.lat_min_ns = x->lat_min_ns;
		if (r == 0 || x->lat_max_ns > m.lat_max_ns)
			m.lat_max_ns = x->lat_max_ns;
		if (!x->hist)
			all_hist = false;
	}
	m.lat_mean_ns = mean;
	m.have_lat_range = all_range;
	m.have_stddev = all_sd;
	m.lat_stddev_ns = n > 1 ? sqrt(m2 / (n - 1)) : 0;
	if (all_hist) {
		h = calloc(1, sizeof(*h));
		if (h)
			for (size_t r = 0; r < c->nreps; r++)
				hist_merge(h, c->reps[r].dir[d].hist);
		m.hist = h;
	}
	cJSON *j = dir_lat_json(&m);
	free(h);
	return j;
}

cJSON *import_cell_to_json(const struct import_cell *c, int id)
{
	cJSON *j = cJSON_CreateObject(), *reps, *sum, *merged, *w;
	struct cell params = c->params;
	const char *started = NULL, *finished = NULL;

	if (!j)
		return NULL;
	params.id = id;
	cJSON_AddNumberToObject(j, "schema_version", RESULTSET_SCHEMA_VERSION);
	cJSON_AddNumberToObject(j, "id", id);
	cJSON_AddStringToObject(j, "status", "ok");
	cJSON_AddNullToObject(j, "error");
	cJSON_AddItemToObject(j, "params", cell_to_json(&params));
	for (size_t r = 0; r < c->nreps; r++) {
		if (!started && c->reps[r].started_at[0])
			started = c->reps[r].started_at;
		if (c->reps[r].finished_at[0])
			finished = c->reps[r].finished_at;
	}
	if (started)
		cJSON_AddStringToObject(j, "started_at", started);
	else
		cJSON_AddNullToObject(j, "started_at");
	if (finished)
		cJSON_AddStringToObject(j, "finished_at", finished);
	else
		cJSON_AddNullToObject(j, "finished_at");
	w = cJSON_AddArrayToObject(j, "warnings");
	for (size_t i = 0; w && i < c->nwarnings; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(c->warnings[i]));
	reps = cJSON_AddArrayToObject(j, "repetitions");
	for (size_t r = 0; reps && r < c->nreps; r++) {
		const struct import_rep *rep = &c->reps[r];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			goto err;
		cJSON_AddItemToArray(reps, o);
		cJSON_AddNumberToObject(o, "rep", (double)(r + 1));
		cJSON_AddNumberToObject(o, "runtime_ns", (double)rep->runtime_ns);
		if (rep->have_cpu) {
			cJSON *cpu = cJSON_AddObjectToObject(o, "cpu");
			if (cpu) {
				cJSON_AddNumberToObject(cpu, "usr_pct", rep->usr_pct);
				cJSON_AddNumberToObject(cpu, "sys_pct", rep->sys_pct);
			}
		}
		for (int d = 0; d < IMP_NDIR; d++)
			if (rep->dir[d].present)
				cJSON_AddItemToObject(o, dir_name(d),
						      dir_json(&rep->dir[d]));
	}
	sum = cJSON_AddObjectToObject(j, "summary");
	if (!sum)
		goto err;
	merged = cJSON_CreateObject();
	for (int d = 0; d < IMP_NDIR; d++) {
		if (!c->nreps || !c->reps[0].dir[d].present)
			continue;
		cJSON *sd = cJSON_AddObjectToObject(sum, dir_name(d)), *st;
		if (!sd)
			goto err_merged;
		static const struct {
			const char *key;
			double (*get)(const struct import_dir *);
		} metrics[] = {
			{ "iops", get_iops }, { "bw_bytes_s", get_bw },
			{ "lat_mean_ns", get_lat_mean }, { "lat_p50_ns", get_p50 },
			{ "lat_p99_ns", get_p99 }, { "lat_max_ns", get_lat_max },
		};
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++)
			if ((st = metric_stat(c, d, metrics[m].get)))
				cJSON_AddItemToObject(sd, metrics[m].key, st);
		cJSON *ml = merged_lat_json(c, d);
		if (ml && merged)
			cJSON_AddItemToObject(merged, dir_name(d), ml);
		else
			cJSON_Delete(ml);
	}
	if (merged)
		cJSON_AddItemToObject(sum, "lat_ns_merged", merged);
	if (c->source)
		cJSON_AddItemToObject(j, "source",
				      cJSON_Duplicate(c->source, true));
	return j;
err_merged:
	cJSON_Delete(merged);
err:
	cJSON_Delete(j);
	return NULL;
}

/* ---- the generated suite.yaml ---- */

struct strbuf {
	char *p;
	size_t n, alloc;
	bool oom;
};

static void sb_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		size_t room = b->alloc - b->n;
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < room) {
			b->n += (size_t)n;
			return;
		}
		size_t na = (b->alloc + (size_t)n + 1) * 2;
		char *np = realloc(b->p, na);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->alloc = na;
	}
}

/* A YAML double-quoted scalar. */
static void sb_yaml_str(struct strbuf *b, const char *s)
{
	sb_printf(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			sb_printf(b, "\\x%02x", *p);
		else
			sb_printf(b, "%c", *p);
	}
	sb_printf(b, "\"");
}

/* The rest of a comment line: a newline would end the comment early. */
static void sb_comment(struct strbuf *b, const char *s)
{
	for (const char *p = s; *p; p++)
		sb_printf(b, "%c", (*p == '\n' || *p == '\r') ? ' ' : *p);
	sb_printf(b, "\n");
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

static bool engine_is_ours(const char *e)
{
	return !strcmp(e, "libaio") || !strcmp(e, "io_uring") ||
	       !strcmp(e, "psync") || !strcmp(e, "null");
}

/*
 * A suite that measures the imported cells again with iomatrix: the devices
 * and, as include entries, each distinct parameter set (include cells run
 * on every device, which is what a fair comparison wants anyway).
 */
static char *suite_yaml(const struct import_set *s, const char *files)
{
	struct strbuf b = { 0 };
	char buf[64];

	sb_printf(&b, "# Generated by iomatrix %s 'import %s' from: ",
		  iomatrix_version, s->kind);
	sb_comment(&b, files);
	sb_printf(&b, "# The numbers of this result set were measured by %s, not by iomatrix.\n"
		      "# Running this suite measures the same parameters again with iomatrix\n"
		      "# (set the device paths with --device NAME=PATH).\n",
		  !strcmp(s->kind, "csv") ? "someone else (published figures)" : s->kind);
	sb_printf(&b, "suite: %s\n", s->name);
	if (s->title) {
		sb_printf(&b, "title: ");
		sb_yaml_str(&b, s->title);
		sb_printf(&b, "\n");
	}
	sb_printf(&b, "devices:\n");
	char (*names)[CELL_NAME_MAX] = device_names(s);
	if (!names) {
		free(b.p);
		return NULL;
	}
	for (size_t i = 0; i < s->ndevices; i++) {
		const char *name = names[i];
		if (strcmp(name, s->devices[i].name)) {
			sb_printf(&b, "  # ");
			sb_comment(&b, s->devices[i].name);
		}
		sb_printf(&b, "  - name: ");
		sb_yaml_str(&b, name);
		sb_printf(&b, "\n    path: ");
		sb_yaml_str(&b, s->devices[i].path[0] ? s->devices[i].path :
			    "/path/to/device");
		sb_printf(&b, "\n");
	}
	free(names);
	sb_printf(&b, "include:\n");
	/* one include entry per parameter set, whatever its device */
	struct import_index *seen = NULL;
	for (size_t i = 0; i < s->ncells; i++) {
		const struct cell *c = &s->cells[i].params;
		bool dup = false;
		uint64_t h = params_hash(c, true);
		size_t pos = 0, k;
		while (!dup && (k = index_next(seen, h, &pos)) != SIZE_MAX) {
			struct cell x = s->cells[k].params;
			memcpy(x.device, c->device, sizeof(x.device));
			memcpy(x.path, c->path, sizeof(x.path));
			dup = params_equal(&x, c);
		}
		if (dup)
			continue;
		if (index_put(&seen, h, i) < 0)
			b.oom = true;
		sb_printf(&b, "  - {pattern: %s, bs: %llu, iodepth: %u, jobs: %u",
			  pattern_name(c->pattern), (unsigned long long)c->bs,
			  c->iodepth, c->jobs);
		if (engine_is_ours(c->engine))
			sb_printf(&b, ", engine: %s", c->engine);
		sb_printf(&b, ", direct: %s", c->direct ? "true" : "false");
		if (c->size_pct > 0)
			sb_printf(&b, ", size: \"%g%%\"", c->size_pct);
		else if (c->size)
			sb_printf(&b, ", size: %llu", (unsigned long long)c->size);
		if (c->files > 1)
			sb_printf(&b, ", files: %u", c->files);
		if (c->runtime_ns) {
			units_format_duration(c->runtime_ns, buf, sizeof(buf));
			sb_printf(&b, ", runtime: %s", buf);
		}
		if (c->requests)
			sb_printf(&b, ", requests: %llu",
				  (unsigned long long)c->requests);
		if (c->io_size)
			sb_printf(&b, ", io_size: %llu",
				  (unsigned long long)c->io_size);
		if (pattern_is_mixed(c->pattern))
			sb_printf(&b, ", rwmixread: %u", c->rwmixread);
		/* the suite loader refuses fsync keys on cells that never write */
		if (c->fsync && pattern_writes(c->pattern))
			sb_printf(&b, ", fsync: %u", c->fsync);
		if (c->end_fsync && pattern_writes(c->pattern))
			sb_printf(&b, ", end_fsync: true");
		if (c->label_given) {
			sb_printf(&b, ", label: ");
			sb_yaml_str(&b, c->label);
		}
		sb_printf(&b, "}\n");
	}
	index_free(seen);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* ---- the manifest ---- */

static cJSON *null_host(void)
{
	static const char *const keys[] = {
		"hostname", "kernel", "os", "arch", "cpu_model", "cpus",
		"mem_bytes", "governor", "virtualization",
	};
	cJSON *h = cJSON_CreateObject();
	for (size_t i = 0; h && i < sizeof(keys) / sizeof(keys[0]); i++)
		cJSON_AddNullToObject(h, keys[i]);
	return h;
}

static cJSON *null_fingerprint(void)
{
	static const char *const keys[] = {
		"kind", "block_device", "model", "firmware", "vendor",
		"serial_sha256", "size_bytes", "rotational",
		"logical_block_bytes", "physical_block_bytes", "scheduler",
		"write_cache", "virtual", "fs_type", "mount_options",
	};
	cJSON *f = cJSON_CreateObject();
	for (size_t i = 0; f && i < sizeof(keys) / sizeof(keys[0]); i++)
		cJSON_AddNullToObject(f, keys[i]);
	return f;
}

static cJSON *manifest_json(const struct import_set *s, const char *sha,
			    const char *now)
{
	cJSON *m = cJSON_CreateObject(), *su, *devs;

	if (!m)
		return NULL;
	cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
	cJSON_AddStringToObject(m, "kind", "iomatrix-result-set");
	cJSON_AddStringToObject(m, "status", "running");
	cJSON_AddStringToObject(m, "started_at",
				s->started_at[0] ? s->started_at : now);
	cJSON_AddNullToObject(m, "finished_at");
	cJSON_AddNumberToObject(m, "scale", 1);
	if (s->source)
		cJSON_AddItemToObject(m, "source", cJSON_Duplicate(s->source, true));
	cJSON_AddItemToObject(m, "tool", fingerprint_tool());
	/* The host that ran the other tool is not in its output; this one's
	 * would be a lie. */
	cJSON_AddItemToObject(m, "host", null_host());
	su = cJSON_AddObjectToObject(m, "suite");
	if (su) {
		cJSON_AddStringToObject(su, "name", s->name);
		if (s->title)
			cJSON_AddStringToObject(su, "title", s->title);
		else
			cJSON_AddNullToObject(su, "title");
		if (s->description)
			cJSON_AddStringToObject(su, "description", s->description);
		else
			cJSON_AddNullToObject(su, "description");
		cJSON_AddStringToObject(su, "file", "suite.yaml");
		cJSON_AddStringToObject(su, "sha256", sha);
	}
	devs = cJSON_AddArrayToObject(m, "devices");
	for (size_t i = 0; devs && i < s->ndevices; i++) {
		cJSON *d = cJSON_CreateObject();
		if (!d)
			break;
		cJSON_AddItemToArray(devs, d);
		cJSON_AddStringToObject(d, "name", s->devices[i].name);
		cJSON_AddStringToObject(d, "path", s->devices[i].path);
		cJSON_AddItemToObject(d, "fingerprint", null_fingerprint());
	}
	cJSON_AddNumberToObject(m, "cells_total", (double)s->ncells);
	cJSON_AddItemToObject(m, "cells", cJSON_CreateArray());
	return m;
}

/* ---- writing ---- */

/* Remove the files a failed import wrote into its temporary directory. */
static void remove_tree(const char *dir)
{
	char path[PATH_MAX];
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR)
			remove_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}


static void parent_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
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
	cJSON *pj = NULL, *man;
	bool made_tmp = false;
	int ret = -1, r;

	iso8601_now(now, sizeof(now));
	/* Where it goes: checked before anything is written. */
	if (out_dir) {
		snprintf(final, sizeof(final), "%s", out_dir);
		size_t n = strlen(final);
		while (n > 1 && final[n - 1] == '/')
			final[--n] = '\0';
		struct stat st;
		if (stat(final, &st) == 0 &&
		    (!S_ISDIR(st.st_mode) || dir_is_empty(final) != 1)) {
			snprintf(err, errlen,
				 "'%s' already exists and is not an empty directory; choose another -o SETDIR",
				 final);
			return -1;
		}
	} else {
		char stamp[32];
		time_t t = time(NULL);
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H%M%SZ", &tm);
		for (int i = 1;; i++) {
			int n = i == 1 ?
				snprintf(final, sizeof(final), "%s/%s_%s_%s",
					 results_root, stamp, s->kind, s->name) :
				snprintf(final, sizeof(final), "%s/%s_%s_%s-%d",
					 results_root, stamp, s->kind, s->name, i);
			if (n >= (int)sizeof(final)) {
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
	parent_of(final, parent, sizeof(parent));
	if ((r = mkdir_parents(parent)) < 0) {
		snprintf(err, errlen, "cannot create '%s': %s", parent, strerror(-r));
		return -1;
	}
	const char *base = strrchr(final, '/');
	base = base ? base + 1 : final;
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.importing.%ld", parent, base,
		     (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "'%s': name too long", final);
		return -1;
	}

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
	pj = plan_to_json(&plan);
	if (!pj)
		goto oom;

	man = manifest_json(s, sha, now);
	if (!man)
		goto oom;
	/* rs owns man from here, also on failure. */
	if (resultset_create(&rs, NULL, tmp, s->name, man, err, errlen) < 0)
		goto out;
	made_tmp = true;
	rs.batch = true; /* tmp is renamed into place only when complete */
	snprintf(path, sizeof(path), "%s/suite.yaml", tmp);
	if ((r = atomic_write_file(path, yaml, strlen(yaml))) < 0)
		goto io;
	snprintf(path, sizeof(path), "%s/plan.json", tmp);
	if ((r = atomic_write_json(path, pj)) < 0)
		goto io;
	for (size_t i = 0; i < s->ncells; i++) {
		cJSON *cj = import_cell_to_json(&s->cells[i], (int)i + 1);
		if (!cj)
			goto oom;
		if (resultset_write_cell(&rs, (int)i + 1, cj, err, errlen) < 0)
			goto out;
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
	snprintf(dir_out, dir_outlen, "%s", final);
	ret = 0;
	goto out;
io:
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-r));
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	if (made_tmp)
		remove_tree(tmp);
	resultset_release(&rs);
	cJSON_Delete(pj);
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

char *import_read_file(const char *path, size_t *len)
{
	return read_file_bounded(path, IMPORT_MAX_FILE, len);
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
