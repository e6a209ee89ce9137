/*
 * build.c - build.h: one report, or one comparison, written: from the
 * sets to SHA256SUMS, the same steps for both.
 */
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"
#include "render/render.h"
#include "render/template.h"
#include "render/tmplpath.h"
#include "resultset/setout.h"
#include "resultset/sums.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/cliopt.h"

bool report_list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == wl && !strncmp(p, word, wl))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

/* Each loaded set's own warnings, made inert for the terminal. */
static void build_warnings(const struct report *r, FILE *warnf)
{
	char wb[1400];
	for (size_t s = 0; s < r->nsets; s++)
		for (size_t i = 0; i < r->sets[s].warnings.n; i++)
			fprintf(warnf, "iomatrix: warning: %s\n",
				termesc(r->sets[s].warnings.msgs[i], wb, sizeof(wb)));
}

/* -o DIR is the user's; SET/NAME lives in a set that may come from
 * anyone, so it must be a real directory, not a link.  EXIT_OK, or the
 * exit code of outdir_open's error. */
static int build_open(struct outdir *od, const char *out, const char *set,
		      const char *name, struct errlist *errs)
{
	int e = out ? outdir_open(od, out, NULL, name, errs) :
		      outdir_open(od, set, name, name, errs);
	return e == 0 ? EXIT_OK : e == -1 ? EXIT_USAGE : EXIT_RUNTIME;
}

/* Last, after every file: stale files of an earlier run go (only those an
 * earlier iomatrix listed), and, when all was written, the directory's own
 * SHA256SUMS (a set's list leaves report/ and compare/ out, and verify
 * checks each apart from the measurement).  rc: so far; returns it, or
 * EXIT_RUNTIME. */
static int build_finish(struct outdir *od, int rc, struct errlist *errs)
{
	if (outdir_finish(od, errs) < 0)
		rc = EXIT_RUNTIME;
	int sr = rc == EXIT_OK ? sums_write_at(od->fd, 0) : 0;
	if (sr < 0) {
		errlist_add(errs, NULL, 0, 0, "cannot write '%s/%s': %s", od->path,
			    SUMS_FILE, strerror(-sr));
		rc = EXIT_RUNTIME;
	}
	return rc;
}

/* fio-commands.txt: the equivalent fio command of every cell.  0 or -1. */
static int write_fio_commands(const struct report *r, struct outdir *od,
			      struct errlist *errs)
{
	struct sbuf fio = SBUF_INIT;
	int ret;

	sbuf_adds(&fio, "# fio command lines equivalent to each cell (device: workload)\n");
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++) {
			const struct rentry *e = &r->groups[gi].e[k];
			sbuf_adds(&fio, "\n# ");
			/* a comment line: keep it one line */
			escape_append(&fio, r->devs[e->dev].display, ESC_MD);
			sbuf_adds(&fio, ": ");
			escape_append(&fio, r->groups[gi].title, ESC_MD);
			char ub[256];
			const char *why = report_fio_unlike(e->cell, ub, sizeof(ub));
			if (why) {
				sbuf_adds(&fio, " (NOT THE SAME: ");
				escape_append(&fio, why, ESC_MD);
				sbuf_addc(&fio, ')');
			}
			sbuf_addc(&fio, '\n');
			report_fio_command(e->cell, rdev_is_dir(&r->devs[e->dev]), &fio);
			sbuf_addc(&fio, '\n');
		}
	ret = outdir_write(od, "fio-commands.txt", sbuf_str(&fio), fio.len, errs);
	sbuf_release(&fio);
	return ret;
}

/* Template t rendered with ctx (escaped for mode) into od as name: report
 * and compare write their .md and .html this way.  0, or -1 (a NULL ctx,
 * out of memory, is a failure too). */
static int build_write_tmpl(struct outdir *od, const char *name, const struct tmpl *t,
			    const cJSON *ctx, enum esc_mode mode, struct errlist *errs)
{
	struct sbuf s = SBUF_INIT;
	int ret = ctx && tmpl_render(t, ctx, mode, &s) == 0 &&
		  outdir_write(od, name, sbuf_str(&s), s.len, errs) == 0 ? 0 : -1;
	sbuf_release(&s);
	return ret;
}

/* j printed into od as name (report.json, compare.json): 0, or -1 (a NULL
 * j, out of memory, is a failure too). */
static int build_write_json(struct outdir *od, const char *name, const cJSON *j,
			    struct errlist *errs)
{
	char *s = j ? cJSON_Print(j) : NULL;
	int ret = s && outdir_write(od, name, s, strlen(s), errs) == 0 ? 0 : -1;
	free(s);
	return ret;
}

/* What write_documents() writes and with which templates. */
struct report_docs {
	struct tmpl *tmd, *thtml;
	const char *css;
	const char **files;         /* name, description, ... for the templates */
	size_t nfiles;
	bool md, html, csv, json;
};

/* report.md, report.html, report.csv, report.json as asked.  0, or -1
 * when one failed (the others are still written). */
static int write_documents(const struct report *r, const struct chart_set *cs,
			   const struct report_docs *d, struct outdir *od,
			   struct errlist *errs)
{
	struct sbuf buf = SBUF_INIT;
	int ret = 0;

	if (d->md) {
		cJSON *ctx = report_context(r, cs, false, d->files, d->nfiles);
		if (build_write_tmpl(od, "report.md", d->tmd, ctx, ESC_MD, errs) < 0)
			ret = -1;
		cJSON_Delete(ctx);
	}
	if (d->html) {
		cJSON *ctx = report_context(r, cs, true, d->files, d->nfiles);
		if (ctx)
			cJSON_AddStringToObject(ctx, "css", d->css);
		if (build_write_tmpl(od, "report.html", d->thtml, ctx, ESC_HTML, errs) < 0)
			ret = -1;
		cJSON_Delete(ctx);
	}
	if (d->csv) {
		if (report_write_csv(r, &buf) < 0 ||
		    outdir_write(od, "report.csv", sbuf_str(&buf), buf.len, errs) < 0)
			ret = -1;
		sbuf_reset(&buf);
	}
	if (d->json) {
		cJSON *j = report_json(r);
		if (build_write_json(od, "report.json", j, errs) < 0)
			ret = -1;
		cJSON_Delete(j);
	}
	sbuf_release(&buf);
	return ret;
}

/* The files of this report as name, description pairs (for the templates
 * and the closing listing).  Returns the number of strings in files[]. */
static size_t report_files(const char **files, bool md, bool html,
			   const char *format, bool charts)
{
	size_t nf = 0;

	if (md) { files[nf++] = "report.md"; files[nf++] = "this report in GitHub-flavoured Markdown"; }
	if (html) { files[nf++] = "report.html"; files[nf++] = "this report as one self-contained HTML page"; }
	if (report_list_has(format, "csv")) { files[nf++] = "report.csv"; files[nf++] = "one row per cell, device and direction: every parameter and metric"; }
	if (report_list_has(format, "json")) { files[nf++] = "report.json"; files[nf++] = "the aggregated numbers behind the tables"; }
	files[nf++] = "fio-commands.txt"; files[nf++] = "the equivalent fio command of every cell";
	if (charts) { files[nf++] = "charts/"; files[nf++] = "each chart as .svg/.png with its gnuplot script (.gp) and data (.dat): gnuplot all.gp re-plots them"; }
	return nf;
}

/* What was written, the summary lines and the warning count. */
void report_build_print(const struct report_build *b, FILE *out, FILE *err)
{
	const struct report *r = &b->r;
	char pb[1024];   /* a set's path and its words, as text (termesc.h) */
	fprintf(out, "report: %s/\n", termesc(b->od.path, pb, sizeof(pb)));
	for (size_t i = 0; i < b->nfiles; i += 2)
		fprintf(out, "  %s\n", b->files[i]);
	if (b->cs.n)
		fprintf(out, "  %zu chart%s\n", b->cs.n, b->cs.n == 1 ? "" : "s");
	for (size_t i = 0; i < r->nsummary; i++)
		termesc_puts(out, NULL, r->summary[i]);
	if (r->nwarns)
		fprintf(out, "%zu warning%s: see the Warnings section\n", r->nwarns,
			r->nwarns == 1 ? "" : "s");
	if (b->cs.note)
		termesc_puts(err, "iomatrix: ", b->cs.note);
}


/* The documents and what the report lists.  EXIT_OK or EXIT_RUNTIME. */
static int documents(const struct report_build_opts *o, struct report_build *b,
		     const struct report_docs *d0, struct errlist *errs)
{
	int rc = EXIT_OK;
	if (write_fio_commands(&b->r, &b->od, errs) < 0)
		rc = EXIT_RUNTIME;
	b->nfiles = report_files(b->files, d0->md, d0->html, o->format, b->cs.n > 0);
	struct report_docs d = *d0;
	d.files = b->files;
	d.nfiles = b->nfiles;
	if (write_documents(&b->r, &b->cs, &d, &b->od, errs) < 0)
		rc = EXIT_RUNTIME;
	return build_finish(&b->od, rc, errs);
}

int report_build(const struct report_build_opts *o, struct report_build *b,
		 FILE *warnf, struct errlist *errs)
{
	struct report_docs d = { .md = report_list_has(o->format, "md"),
				 .html = report_list_has(o->format, "html"),
				 .csv = report_list_has(o->format, "csv"),
				 .json = report_list_has(o->format, "json") };
	struct chart_opts copts = o->charts;
	char *css = NULL;
	int rc = EXIT_USAGE;

	memset(b, 0, sizeof(*b));
	b->od.fd = -1;
	if (!d.md && !d.html)
		copts.svg = copts.png = false;
	/* templates first: a malformed one stops us before anything is written */
	if ((d.md && !(d.tmd = tmplpath_load("report.md.tmpl", o->tdir, o->argv, errs))) ||
	    (d.html && (!(d.thtml = tmplpath_load("report.html.tmpl", o->tdir, o->argv, errs)) ||
			!(css = tmplpath_read("style.css", o->tdir, o->argv, errs)))))
		goto out;
	d.css = css;
	rc = report_load(&b->r, o->sets, o->nsets, o->baseline, o->title, o->sections, errs);
	b->loaded = true;
	build_warnings(&b->r, warnf);
	if (rc != 0 || (rc = build_open(&b->od, o->out, o->sets[0], "report", errs)) != EXIT_OK)
		goto out;
	int cr = chart_render_all(&b->r, &b->od, &copts, &b->cs, errs);
	if (cr == 2) { /* charts/ is a planted link: refuse, write nothing */
		rc = EXIT_USAGE;
		goto out;
	}
	if (cr != 0)
		rc = EXIT_RUNTIME;  /* tables are still written */
	if (documents(o, b, &d, errs) != EXIT_OK)
		rc = EXIT_RUNTIME;
out:
	tmpl_free(d.tmd);
	tmpl_free(d.thtml);
	free(css);
	return rc;
}

void report_build_release(struct report_build *b)
{
	if (b->loaded)
		report_release(&b->r);
	chart_set_release(&b->cs);
	outdir_close(&b->od);
	memset(b, 0, sizeof(*b));
	b->od.fd = -1;
}

/* ---- compare ---- */

/* compare's documents: the word of --format and the file it makes. */
enum build_cmp_kind { CMPF_MD, CMPF_HTML, CMPF_JSON, CMPF_JUNIT, CMPF_BMF };
static const struct build_cmp_format {
	const char *word, *file;
	enum build_cmp_kind kind;
} build_cmp_formats[] = {
	{ "md", "compare.md", CMPF_MD }, { "html", "compare.html", CMPF_HTML },
	{ "json", "compare.json", CMPF_JSON }, { "junit", "compare.junit.xml", CMPF_JUNIT },
	{ "bmf", "compare.bmf.json", CMPF_BMF },
};
#define BUILD_CMP_NFORMATS (sizeof(build_cmp_formats) / sizeof(build_cmp_formats[0]))

/* The comparison as document kind k into s.  0, or -1 (out of memory,
 * or a template that failed). */
static int build_cmp_render(enum build_cmp_kind k, const struct compare *c, struct tmpl *tmd,
			    struct tmpl *thtml, const char *css, struct sbuf *s)
{
	char *j = NULL;
	cJSON *doc = NULL;
	int ret;

	switch (k) {
	case CMPF_MD: case CMPF_HTML:
		doc = compare_context(c, k == CMPF_HTML ? css : NULL);
		ret = doc && tmpl_render(k == CMPF_HTML ? thtml : tmd, doc,
					 k == CMPF_HTML ? ESC_HTML : ESC_MD, s) == 0 ? 0 : -1;
		cJSON_Delete(doc);
		return ret;
	case CMPF_JSON: case CMPF_BMF:
		doc = k == CMPF_JSON ? compare_json(c) : compare_bmf(c);
		j = doc ? cJSON_Print(doc) : NULL;
		cJSON_Delete(doc);
		break;
	case CMPF_JUNIT:
		compare_junit(c, s);
		return s->oom ? -1 : 0;
	}
	if (j) {
		sbuf_adds(s, j);
		sbuf_addc(s, '\n');
	}
	free(j);
	return j && !s->oom ? 0 : -1;
}

/* The documents --format asks for, into the output directory, or with
 * -o - (one format: the command checked) to o->docf.  EXIT_OK, or
 * EXIT_RUNTIME when one failed (the others are still written). */
static int compare_documents(const struct compare_build_opts *o, struct compare_build *b,
			     struct tmpl *tmd, struct tmpl *thtml, const char *css,
			     struct errlist *errs)
{
	struct sbuf s = SBUF_INIT;
	int rc = EXIT_OK;

	for (size_t k = 0; k < BUILD_CMP_NFORMATS; k++) {
		const struct build_cmp_format *f = &build_cmp_formats[k];
		if (!report_list_has(o->format, f->word))
			continue;
		sbuf_reset(&s);
		if (build_cmp_render(f->kind, &b->c, tmd, thtml, css, &s) < 0) {
			if (s.oom)
				errlist_add(errs, NULL, 0, 0, "%s: out of memory", f->file);
			rc = EXIT_RUNTIME;
		} else if (!o->docf) {
			if (outdir_write(&b->od, f->file, sbuf_str(&s), s.len, errs) < 0)
				rc = EXIT_RUNTIME;
		} else if (fwrite(sbuf_str(&s), 1, s.len, o->docf) != s.len ||
			   fflush(o->docf) != 0) {
			errlist_add(errs, NULL, 0, 0, "cannot write %s to standard output: %s",
				    f->file, strerror(errno));
			rc = EXIT_RUNTIME;
		}
	}
	sbuf_release(&s);
	return rc;
}

/* The verdicts appended to path (GITHUB_STEP_SUMMARY) as a Markdown
 * section.  Not inside a result set, not through a link planted at path,
 * not into a FIFO or device (fsutil_append); when it cannot be written,
 * a warning on warnf: the summary is a courtesy to the reader of a CI
 * run, and the comparison's exit code is its verdict, not this file's. */
static void compare_summary_append(const struct compare *c, const char *path, FILE *warnf)
{
	char why[2048], pb[1024];
	struct sbuf s = SBUF_INIT;
	int e;

	if (resultset_output_check(path, NULL, why, sizeof(why)) < 0) {
		fprintf(warnf, "iomatrix: warning: GITHUB_STEP_SUMMARY: %s; the summary was "
			"not written\n", why);
		return;
	}
	compare_step_summary(c, &s);
	e = s.oom ? -ENOMEM : fsutil_append(path, sbuf_str(&s), s.len);
	if (e < 0)
		fprintf(warnf, "iomatrix: warning: cannot append the summary to "
			"GITHUB_STEP_SUMMARY '%s': %s; the comparison stands\n",
			termesc(path, pb, sizeof(pb)), fsutil_strerror(-e));
	sbuf_release(&s);
}

int compare_build(const struct compare_build_opts *o, struct compare_build *b,
		  FILE *warnf, struct errlist *errs)
{
	struct tmpl *tmd = NULL, *thtml = NULL;
	char *css = NULL;
	int rc = EXIT_USAGE;

	memset(b, 0, sizeof(*b));
	b->od.fd = -1;
	/* templates first: a malformed one stops us before anything is written */
	if (!(tmd = tmplpath_load("compare.md.tmpl", o->tdir, o->argv, errs)) ||
	    !(thtml = tmplpath_load("compare.html.tmpl", o->tdir, o->argv, errs)) ||
	    !(css = tmplpath_read("style.css", o->tdir, o->argv, errs)))
		goto out;
	rc = compare_run(&b->c, o->paths, o->threshold, o->threshold_given, o->map,
			 o->sections, errs);
	if (b->c.loaded)
		build_warnings(&b->c.r, warnf);
	if (rc != 0)
		goto out;
	if (o->docf) {   /* -o -: no directory, no SHA256SUMS */
		b->judged = true;
		rc = compare_documents(o, b, tmd, thtml, css, errs);
	} else {
		if ((rc = build_open(&b->od, o->out, o->paths[1], "compare", errs)) != EXIT_OK)
			goto out;
		b->judged = true;
		rc = build_finish(&b->od, compare_documents(o, b, tmd, thtml, css, errs), errs);
	}
	if (o->step_summary && *o->step_summary)
		compare_summary_append(&b->c, o->step_summary, warnf);
out:
	tmpl_free(tmd);
	tmpl_free(thtml);
	free(css);
	return rc;
}

void compare_build_print(const struct compare_build *b, int rc, FILE *out)
{
	if (!b->judged)
		return;
	/* the verdict first, then every regression and improvement */
	compare_print(&b->c, out);
	char pb[1024];   /* a set's path, as text (termesc.h) */
	if (rc == EXIT_OK && b->od.path)   /* "written" only when it is true */
		fprintf(out, "written: %s/\n", termesc(b->od.path, pb, sizeof(pb)));
}

void compare_build_release(struct compare_build *b)
{
	compare_release(&b->c);
	outdir_close(&b->od);
	memset(b, 0, sizeof(*b));
	b->od.fd = -1;
}
