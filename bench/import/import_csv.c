/*
 * import_csv.c - `iomatrix import csv`: published numbers typed from a
 * write-up (device,pattern,bs,iops,lat_ms,mb_s), one cell per row, so that
 * someone else's tables can be archived, reported and compared like a run.
 * RFC 4180 CSV; rows with the same device and parameters are repetitions.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"
#include "import.h"
#include "util/units.h"

enum col {
	COL_DEVICE, COL_PATTERN, COL_BS, COL_IOPS, COL_LAT_MS, COL_MB_S,
	COL_MIB_S, COL_JOBS, COL_IODEPTH, COL_ENGINE, COL_DIRECT, COL__COUNT
};

static const char *const col_names[COL__COUNT] = {
	"device", "pattern", "bs", "iops", "lat_ms", "mb_s", "mib_s", "jobs",
	"iodepth", "engine", "direct",
};

#define CSV_MAX_FIELDS 64
#define CSV_FIELD_MAX 256

struct csv {
	const char *buf;
	size_t len, pos;
	unsigned line;              /* line of pos */
	const char *file;
};

struct field {
	char text[CSV_FIELD_MAX];
	unsigned line, col;         /* where it starts */
};

/*
 * Read one record into f (at most CSV_MAX_FIELDS).  Returns the number of
 * fields, 0 at the end of input, -1 on a quoting error (reported).
 */
static int csv_record(struct csv *c, struct field *f, struct errlist *errs)
{
	int n = 0;

	if (c->pos >= c->len)
		return 0;
	for (;;) {
		size_t k = 0;
		size_t line_start = c->pos;
		/* column of pos: scan back to the line start */
		while (line_start > 0 && c->buf[line_start - 1] != '\n')
			line_start--;
		if (n == CSV_MAX_FIELDS) {
			errlist_add(errs, c->file, c->line, 1,
				    "more than %d fields in a record", CSV_MAX_FIELDS);
			return -1;
		}
		f[n].line = c->line;
		f[n].col = (unsigned)(c->pos - line_start) + 1;
		if (c->pos < c->len && c->buf[c->pos] == '"') {
			unsigned qline = c->line, qcol = f[n].col;
			c->pos++;
			for (;;) {
				if (c->pos >= c->len) {
					errlist_add(errs, c->file, qline, qcol,
						    "quoted field is not closed; add the closing '\"'");
					return -1;
				}
				char ch = c->buf[c->pos++];
				if (ch == '"') {
					if (c->pos < c->len && c->buf[c->pos] == '"') {
						c->pos++;
					} else {
						break;
					}
				}
				if (ch == '\n')
					c->line++;
				if (k + 1 < CSV_FIELD_MAX)
					f[n].text[k++] = ch;
			}
			if (c->pos < c->len && c->buf[c->pos] != ',' &&
			    c->buf[c->pos] != '\n' && c->buf[c->pos] != '\r') {
				size_t ls = c->pos;
				while (ls > 0 && c->buf[ls - 1] != '\n')
					ls--;
				errlist_add(errs, c->file, c->line,
					    (unsigned)(c->pos - ls) + 1,
					    "unexpected '%c' after a closing quote; double a quote inside a quoted field (\"\")",
					    c->buf[c->pos]);
				return -1;
			}
		} else {
			while (c->pos < c->len && c->buf[c->pos] != ',' &&
			       c->buf[c->pos] != '\n' && c->buf[c->pos] != '\r') {
				if (c->buf[c->pos] == '"') {
					errlist_add(errs, c->file, c->line,
						    (unsigned)(c->pos - line_start) + 1,
						    "'\"' inside an unquoted field; quote the whole field");
					return -1;
				}
				if (k + 1 < CSV_FIELD_MAX)
					f[n].text[k++] = c->buf[c->pos];
				c->pos++;
			}
		}
		f[n].text[k] = '\0';
		n++;
		if (c->pos >= c->len)
			return n;
		if (c->buf[c->pos] == ',') {
			c->pos++;
			continue;
		}
		if (c->buf[c->pos] == '\r')
			c->pos++;
		if (c->pos < c->len && c->buf[c->pos] == '\n') {
			c->pos++;
			c->line++;
		}
		return n;
	}
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	memmove(s, s + i, n - i + 1);
}

/* A plain decimal >= 0 (units_parse_decimal: digits and one point):
 * strtod also read "0x10" as 16, "1e3" as 1000 and " +5" as 5.  -1 if
 * malformed. */
static int parse_num(const char *s, double *out)
{
	const char *end;

	if (units_parse_decimal(s, &end, out) < 0 || *end)
		return -1;
	return 0;
}

/* Digits only, within [lo, hi]. */
static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t v;

	if (units_parse_uint(s, &v) < 0 || v < lo || v > hi)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* The header: which column holds what (colidx).  The number of columns,
 * or -1 with every problem added to errs. */
static int csv_header(struct csv *c, struct field *f, int *colidx,
		      struct errlist *errs)
{
	size_t before = errs->n;
	int ncols = csv_record(c, f, errs);

	for (int i = 0; i < COL__COUNT; i++)
		colidx[i] = -1;
	if (ncols <= 0) {
		if (ncols == 0)
			errlist_add(errs, c->file, 1, 1,
				    "empty file; the first line must be the header device,pattern,bs,iops,lat_ms,mb_s");
		return -1;
	}
	for (int i = 0; i < ncols; i++) {
		trim(f[i].text);
		for (char *p = f[i].text; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		int k;
		for (k = 0; k < COL__COUNT; k++)
			if (!strcmp(f[i].text, col_names[k]))
				break;
		if (k == COL__COUNT) {
			errlist_add(errs, c->file, f[i].line, f[i].col,
				    "unknown column '%s'; the header is device,pattern,bs,iops,lat_ms,mb_s (or mib_s; optional jobs,iodepth,engine,direct)",
				    f[i].text);
			continue;
		}
		if (colidx[k] >= 0) {
			errlist_add(errs, c->file, f[i].line, f[i].col,
				    "column '%s' appears twice", f[i].text);
			continue;
		}
		colidx[k] = i;
	}
	static const int required[] = { COL_DEVICE, COL_PATTERN, COL_BS, COL_IOPS };
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (colidx[required[i]] < 0)
			errlist_add(errs, c->file, 1, 1,
				    "missing column '%s'; the header is device,pattern,bs,iops,lat_ms,mb_s",
				    col_names[required[i]]);
	if (colidx[COL_MB_S] >= 0 && colidx[COL_MIB_S] >= 0)
		errlist_add(errs, c->file, 1, 1,
			    "both 'mb_s' (10^6 bytes/s) and 'mib_s' (2^20 bytes/s) given; keep one");
	return errs->n > before ? -1 : ncols;
}

/* One data row, read. */
struct csv_row {
	struct cell p;
	char dev[CELL_NAME_MAX];
	double iops, lat_ms, mb, unit;
	bool have_lat, have_bw;
};

/* The optional columns jobs, iodepth, engine, direct into r->p. */
static void csv_optional(const char *path, struct field *f, const int *colidx,
			 struct csv_row *r, struct errlist *errs)
{
	struct cell *p = &r->p;

	if (colidx[COL_JOBS] >= 0 && f[colidx[COL_JOBS]].text[0] &&
	    parse_uint(f[colidx[COL_JOBS]].text, 1, 256, &p->jobs) < 0)
		errlist_add(errs, path, f[colidx[COL_JOBS]].line,
			    f[colidx[COL_JOBS]].col, "bad jobs '%s'; expected 1..256",
			    f[colidx[COL_JOBS]].text);
	if (colidx[COL_IODEPTH] >= 0 && f[colidx[COL_IODEPTH]].text[0] &&
	    parse_uint(f[colidx[COL_IODEPTH]].text, 1, 1024, &p->iodepth) < 0)
		errlist_add(errs, path, f[colidx[COL_IODEPTH]].line,
			    f[colidx[COL_IODEPTH]].col,
			    "bad iodepth '%s'; expected 1..1024",
			    f[colidx[COL_IODEPTH]].text);
	if (colidx[COL_ENGINE] >= 0 && f[colidx[COL_ENGINE]].text[0])
		strfmt(p->engine, sizeof(p->engine), "%s", /* cut: an unknown name */
		       f[colidx[COL_ENGINE]].text);
	if (colidx[COL_DIRECT] >= 0 && f[colidx[COL_DIRECT]].text[0]) {
		const char *d = f[colidx[COL_DIRECT]].text;
		if (!strcmp(d, "true") || !strcmp(d, "1") || !strcmp(d, "yes"))
			p->direct = true;
		else if (!strcmp(d, "false") || !strcmp(d, "0") || !strcmp(d, "no"))
			p->direct = false;
		else
			errlist_add(errs, path, f[colidx[COL_DIRECT]].line,
				    f[colidx[COL_DIRECT]].col,
				    "bad direct '%s'; expected true or false", d);
	}
}

/* The fields of a data row into r; problems go to errs. */
static void csv_fields(const char *path, struct field *f, const int *colidx,
		       struct csv_row *r, struct errlist *errs)
{
	struct cell *p = &r->p;

	cell_init(p);
	r->dev[0] = '\0';
	p->device = r->dev;
	p->size = 0;        /* not published */
	snprintf(p->engine, sizeof(p->engine), "unknown");
	r->iops = r->lat_ms = r->mb = 0;
	r->have_lat = r->have_bw = false;

	struct field *fd = &f[colidx[COL_DEVICE]];
	if (!fd->text[0] || strlen(fd->text) >= sizeof(r->dev))
		errlist_add(errs, path, fd->line, fd->col,
			    "device name must be 1..%zu characters", sizeof(r->dev) - 1);
	else
		memcpy(r->dev, fd->text, strlen(fd->text) + 1); /* length checked above */
	struct field *fp = &f[colidx[COL_PATTERN]];
	if (pattern_parse(fp->text, &p->pattern) < 0)
		errlist_add(errs, path, fp->line, fp->col,
			    "unknown pattern '%s'; use read write randread randwrite readwrite randrw rewrite or seqrd seqwr rndrd rndwr rndrw seqrewr",
			    fp->text);
	else if (!strcmp(fp->text, "rndrw"))
		p->rwmixread = 60; /* sysbench --file-rw-ratio=1.5 */
	struct field *fb = &f[colidx[COL_BS]];
	if (units_parse_size(fb->text, &p->bs) < 0 || p->bs == 0)
		errlist_add(errs, path, fb->line, fb->col,
			    "bad block size '%s'; write it like 4k, 16KiB or 4096", fb->text);
	struct field *fi = &f[colidx[COL_IOPS]];
	if (parse_num(fi->text, &r->iops) < 0)
		errlist_add(errs, path, fi->line, fi->col,
			    "bad iops '%s'; expected a plain decimal number >= 0 (digits, one point)", fi->text);
	if (colidx[COL_LAT_MS] >= 0 && f[colidx[COL_LAT_MS]].text[0]) {
		struct field *fl = &f[colidx[COL_LAT_MS]];
		if (parse_num(fl->text, &r->lat_ms) < 0)
			errlist_add(errs, path, fl->line, fl->col,
				    "bad lat_ms '%s'; expected milliseconds as a plain decimal >= 0 or an empty field",
				    fl->text);
		else
			r->have_lat = true;
	}
	int bwcol = colidx[COL_MB_S] >= 0 ? colidx[COL_MB_S] : colidx[COL_MIB_S];
	r->unit = colidx[COL_MB_S] >= 0 ? 1e6 : 1048576.0;
	if (bwcol >= 0 && f[bwcol].text[0]) {
		if (parse_num(f[bwcol].text, &r->mb) < 0)
			errlist_add(errs, path, f[bwcol].line, f[bwcol].col,
				    "bad %s '%s'; expected a plain decimal number >= 0 or an empty field",
				    col_names[colidx[COL_MB_S] >= 0 ? COL_MB_S : COL_MIB_S],
				    f[bwcol].text);
		else
			r->have_bw = true;
	}
	csv_optional(path, f, colidx, r, errs);
}

/* The row as a one-repetition cell of s.  A mixed pattern's published
 * figure is the total: split it by the read share so that read + write
 * adds up again.  0; -1 when out of memory; -2 when the cell check
 * (import_cell_check) refuses the figures, with why. */
static int csv_add(struct import_set *s, struct csv_row *r, char *why, size_t whylen)
{
	struct cell *p = &r->p;
	struct rep_result rep;

	if (cell_set_label_derived(p) < 0)
		return -1;
	memset(&rep, 0, sizeof(rep));
	for (int d = 0; d < DIR__COUNT; d++) {
		bool on = d == DIR_READ ? pattern_reads(p->pattern) :
					  pattern_writes(p->pattern);
		if (!on)
			continue;
		double share = 1;
		if (pattern_is_mixed(p->pattern))
			share = d == DIR_READ ? p->rwmixread / 100.0 :
						1 - p->rwmixread / 100.0;
		struct dir_result *x = &rep.dir[d];
		x->present = true;
		x->iops = r->iops * share;
		x->bw_bytes_s = r->have_bw ? r->mb * r->unit * share :
					     r->iops * share * (double)p->bs;
		if (r->have_lat) {
			x->known |= REP_LAT;
			x->lat_mean_ns = r->lat_ms * 1e6;
		}
	}
	struct import_cell *ic = import_set_add(s, p, &rep, NULL);
	if (!ic)
		return -1;
	import_cell_warn(ic, "published figures typed from a write-up, not measured by iomatrix: no histogram, percentiles or repetition data");
	if (pattern_is_mixed(p->pattern))
		import_cell_warn(ic, "the published figure is the read+write total; split %u/%u by rwmixread",
				 p->rwmixread, 100 - p->rwmixread);
	if (!r->have_bw)
		import_cell_warn(ic, "bandwidth not published: computed as iops x bs");
	return import_cell_check(ic, why, whylen) < 0 ? -2 : 0;
}

int import_csv_file(struct import_set *s, const char *path,
		    struct errlist *errs)
{
	struct field f[CSV_MAX_FIELDS];
	int colidx[COL__COUNT];
	size_t len = 0, errs_before = errs->n;
	char *buf = import_read_file(path, &len, errs);
	struct csv c;
	struct csv_row row;
	int n, ncols;
	unsigned rows = 0;

	if (!buf)
		return -1;
	c.buf = buf;
	c.len = len;
	c.pos = 0;
	c.line = 1;
	c.file = path;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		c.pos = 3; /* a UTF-8 byte-order mark from spreadsheet exports */
	if ((ncols = csv_header(&c, f, colidx, errs)) < 0)
		goto out;
	while ((n = csv_record(&c, f, errs)) != 0) {
		size_t row_errs = errs->n;

		if (n < 0)
			goto out;
		if (n == 1 && !f[0].text[0])
			continue; /* blank line */
		if (n != ncols) {
			errlist_add(errs, path, f[0].line, 1,
				    "%d fields, the header has %d", n, ncols);
			continue;
		}
		for (int i = 0; i < n; i++)
			trim(f[i].text);
		csv_fields(path, f, colidx, &row, errs);
		if (errs->n > row_errs)
			continue;
		rows++;
		char why[256];
		int ar = csv_add(s, &row, why, sizeof(why));
		if (ar == -2) {
			errlist_add(errs, path, f[0].line, 1,
				    "these figures are beyond what a device measures (%s); correct the row",
				    why);
			goto out;
		}
		if (ar < 0) {
			errlist_add(errs, path, 0, 0, "out of memory");
			goto out;
		}
	}
	if (errs->n == errs_before && rows == 0)
		errlist_add(errs, path, c.line, 1,
			    "no data rows after the header");
out:
	free(buf);
	if (errs->n > errs_before)
		return -1;
	if (!s->source) {
		s->source = cJSON_CreateObject();
		if (s->source) {
			cJSON_AddStringToObject(s->source, "kind", "csv");
			cJSON *fa = cJSON_AddArrayToObject(s->source, "files");
			if (fa)
				cJSON_AddItemToArray(fa, cJSON_CreateString(path));
			cJSON_AddNullToObject(s->source, "version");
			cJSON_AddNullToObject(s->source, "command");
			cJSON_AddStringToObject(s->source, "note",
				"published numbers typed from a write-up, not measured by iomatrix");
		}
	}
	return 0;
}
