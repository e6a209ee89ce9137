/*
 * chart_render.c - chart_render_all(): write gnuplot data (.dat) and
 * scripts (.gp) for a report and run one gnuplot process over all of them
 * (chart.h): the grouped bars and the CrystalDiskMark panel here, the line
 * charts in chart_lines.c, the charts of each optional section through its
 * row of r->sections[], all built from chart_gp.c's pieces.  Scripts
 * contain our own constants and whitelisted titles; every name from a
 * suite or result set (device names, cell labels) goes into the .dat
 * files, read as column headers and tick labels, where gnuplot never
 * substitutes commands or macros.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chart.h"
#include "chart_int.h"
#include "render/escape.h"
#include "util/fsutil.h"
#include "resultset/rset.h"

/* The half-width of a bar's 95 % interval, or NAN when no direction ran
 * twice: a single run has no interval, and gnuplot draws no error bar for
 * NaN, where 0 drew a bar of zero width that reads as a very precise one. */
static double entry_ci(const struct rentry *e, bool bw)
{
	double s = 0;
	bool any = false;
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &e->cell->dir[k];
		if (!d->present)
			continue;
		double c = bw ? d->bw.ci95 / 1e6 : d->iops.ci95;
		if (d->iops.n >= 2 && isfinite(c)) {
			s += c * c;
			any = true;
		}
	}
	return any ? sqrt(s) : NAN;
}

/* One bar chart over groups gi[0..n-1]: IOPS or MB/s, with 95 % CI bars. */
static int chart_bars_one(struct chart_ctx *x, bool bw, const size_t *gi, size_t n,
			  const char *file, const char *title)
{
	const struct report *r = x->r;
	struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;
	int colors[64];
	size_t nd = r->ndevs < 64 ? r->ndevs : 64, maxtick = 8, firsttick = 8;
	double mn = INFINITY, mx = 0;
	bool anyci = false;

	for (size_t d = 0; d < nd; d++)
		colors[d] = r->devs[d].color;
	escape_append(&dat, "workload", ESC_GPDATA);
	for (size_t d = 0; d < nd; d++) {
		sbuf_addc(&dat, ' ');
		escape_append(&dat, r->devs[d].display, ESC_GPDATA);
		sbuf_adds(&dat, " \"ci95\"");
	}
	sbuf_addc(&dat, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct rgroup *g = &r->groups[gi[i]];
		char tick[300];
		chart_group_what(g, tick, sizeof(tick));
		/* two workloads with one label (direct and buffered): the title
		 * tells them apart */
		for (size_t j = 0; j < n; j++) {
			char t2[300];
			chart_group_what(&r->groups[gi[j]], t2, sizeof(t2));
			if (j != i && !strcmp(t2, tick)) {
				snprintf(tick, sizeof(tick), "%s", g->title);
				break;
			}
		}
		size_t tl = strlen(tick);
		maxtick = tl > maxtick ? tl : maxtick;
		if (i == 0)
			firsttick = tl;
		escape_append(&dat, tick, ESC_GPDATA);
		for (size_t d = 0; d < nd; d++) {
			const struct rentry *e = NULL;
			for (size_t k = 0; k < g->n; k++)
				if (g->e[k].dev == d)
					e = &g->e[k];
			double v = e && e->cell->ok ? (bw ? rentry_bw(e) / 1e6 : rentry_iops(e)) : NAN;
			if (isfinite(v) && v > 0) {
				double ci = entry_ci(e, bw);
				/* a log axis cannot draw a bar below zero */
				if (ci >= v)
					ci = v * 0.99;
				anyci |= isfinite(ci);
				if (isfinite(ci))
					sbuf_addf(&dat, " %.17g %.17g", v, ci);
				else
					sbuf_addf(&dat, " %.17g NaN", v);
				mn = v < mn ? v : mn;
				mx = isfinite(ci) && v + ci > mx ? v + ci : v > mx ? v : mx;
			} else {
				sbuf_adds(&dat, " ? ?");
			}
		}
		sbuf_addc(&dat, '\n');
	}
	bool logy = chart_want_log(x, mn, mx);
	/* room for the rotated tick labels, from the longest one (bottom) and
	 * the first one (it reaches left of the first bar) */
	int h = 360 + (int)(maxtick * 2.5), w = 820;
	gp_begin(&gp, file, w, h, title, colors, nd, x->svg, x->png);
	sbuf_addf(&gp, "set bmargin %d\nset lmargin %d\n", 2 + (int)(maxtick * 0.22),
		  firsttick * 0.9 > 10 ? (int)(firsttick * 0.9) + 2 : 10);
	/* no bar ran twice: no error bars at all (gnuplot still draws the
	 * caps of a NaN bar, at the axis) */
	sbuf_addf(&gp, "set style data histograms\n"
		  "set style histogram %s gap 1%s\n"
		  "set style fill solid 0.9 border lc rgb '#333333'\n"
		  "set bars front\n"
		  "set xtics rotate by 30 right scale 0 font ',9' noenhanced\n"
		  "set ylabel '%s%s'\n", anyci ? "errorbars" : "clustered",
		  anyci ? " lw 1" : "", bw ? "MB/s (10^6 bytes/s)" : "IOPS",
		  logy ? ", log scale" : "");
	gp_yaxis(&gp, mn, mx, logy, "y");
	char plot[320];
	snprintf(plot, sizeof(plot), "plot for [i=1:%zu] '%s.dat' using (column(2*i))%s:xtic(1) "
		 "title columnhead(2*i) lc rgb C[i]\n", nd, file, anyci ? ":(column(2*i+1))" : "");
	sbuf_adds(&gp, plot);
	gp_end(&gp, file, w, h, x->svg, x->png, plot);
	int rc = chart_emit(x, file, title, -1, &dat, &gp);
	sbuf_release(&dat);
	sbuf_release(&gp);
	return rc;
}

/*
 * Bars per workload, split into panels by queue depth (QD1 and deeper
 * queues differ by orders of magnitude: one axis for both hides the QD1
 * bars) and into chunks of CHART_BARS_PER_CHART.
 */
static int chart_bars(struct chart_ctx *x, bool bw)
{
	const struct report *r = x->r;
	size_t *gi = calloc(r->ngroups + 1, sizeof(*gi));
	int rc = 0;
	bool have[2] = { false, false };

	if (!gi)
		return -1;
	for (size_t i = 0; i < r->ngroups; i++)
		have[r->groups[i].proto->cell.iodepth * r->groups[i].proto->cell.jobs > 1] = true;
	for (int deep = 0; deep < 2 && rc == 0; deep++) {
		size_t n = 0;
		for (size_t i = 0; i < r->ngroups; i++)
			if ((r->groups[i].proto->cell.iodepth * r->groups[i].proto->cell.jobs > 1) == deep)
				gi[n++] = i;
		if (!n)
			continue;
		size_t per = CHART_BARS_PER_CHART, nch = (n + per - 1) / per;
		for (size_t ch = 0; ch < nch && rc == 0; ch++) {
			char file[96], title[200], part[48] = "";
			size_t a = ch * per, b = a + per < n ? a + per : n;
			if (nch > 1)
				snprintf(part, sizeof(part), " (%zu of %zu)", ch + 1, nch);
			snprintf(file, sizeof(file), "%s-per-workload%s%s", bw ? "mbs" : "iops",
				 have[0] && have[1] ? (deep ? "-deeper-queues" : "-qd1") : "", "");
			if (nch > 1)
				snprintf(file + strlen(file), sizeof(file) - strlen(file), "-%zu", ch + 1);
			snprintf(title, sizeof(title), "%s per workload%s%s",
				 bw ? "Throughput (MB/s)" : "IOPS",
				 have[0] && have[1] ? (deep ? ", queue depth x jobs above 1" : ", QD1, 1 job") : "",
				 part);
			rc = chart_bars_one(x, bw, gi + a, b - a, file, title);
		}
	}
	free(gi);
	return rc;
}

/* ---- CrystalDiskMark-style overview: one panel per device ---- */

/*
 * The panel is built from the cells present, never from fixed slots: a row
 * is a pure read/write workload (sequential or random, no offset) of one
 * block size, queue depth and job count, read and write side by side.
 * Rows go in CrystalDiskMark's order: SEQ before RND, larger blocks first,
 * deeper queues first, T1 before more threads.  A device without such a
 * cell gets no panel, and a panel shows only the rows its device ran.
 * More than CDM_MAX_ROWS rows is a sweep, not a CrystalDiskMark run: the
 * panel then holds only CrystalDiskMark's default tests (cdm_default), the
 * sweep charts show the rest, and the chart note says so; when the set has
 * none of them, the note says why there is no panel (never a silent drop).
 */
#define CDM_MAX_ROWS 8
#define CDM_MAX_DEVS 6

struct cdm_row {
	bool rnd;
	uint64_t bs;
	int qd, jobs;
	double v[CDM_MAX_DEVS][2];   /* MB/s, read and write; NAN: not run */
};

/* The row of a group, or false when it is not CrystalDiskMark-like. */
static bool cdm_key(const struct rset_cell *c, struct cdm_row *k, int *wr)
{
	enum pattern p = c->cell.pattern;

	if ((p != PAT_READ && p != PAT_WRITE && p != PAT_RANDREAD && p != PAT_RANDWRITE) ||
	    c->cell.offset || c->cell.offset_pct > 0 || c->cell.iodepth < 1 || c->cell.jobs < 1)
		return false;
	k->rnd = p == PAT_RANDREAD || p == PAT_RANDWRITE;
	k->bs = c->cell.bs;
	k->qd = c->cell.iodepth;
	k->jobs = c->cell.jobs;
	*wr = p == PAT_WRITE || p == PAT_RANDWRITE;
	return true;
}

static int cdm_cmp(const void *pa, const void *pb)
{
	const struct cdm_row *a = pa, *b = pb;

	if (a->rnd != b->rnd)
		return a->rnd ? 1 : -1;
	if (a->bs != b->bs)
		return a->bs > b->bs ? -1 : 1;
	if (a->qd != b->qd)
		return a->qd > b->qd ? -1 : 1;
	return (a->jobs > b->jobs) - (a->jobs < b->jobs);
}

/* CrystalDiskMark's default tests (its profile since version 8), read and
 * write each: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1. */
#define CDM_DEFAULT_NAMES "SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and RND4K Q1T1"
static bool cdm_default(const struct cdm_row *k)
{
	if (k->jobs != 1)
		return false;
	if (!k->rnd)
		return k->bs == 1048576 && (k->qd == 8 || k->qd == 1);
	return k->bs == 4096 && (k->qd == 32 || k->qd == 1);
}

/* Fill rows[] from the groups that ran (the first ok cell of a device for a
 * row and direction), only CrystalDiskMark's default tests when defaults;
 * the number of rows, or CDM_MAX_ROWS + 1 for more. */
static size_t cdm_collect(const struct report *r, size_t nd, bool defaults,
			  struct cdm_row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rgroup *g = &r->groups[i];
		struct cdm_row k;
		int wr;
		if (!cdm_key(g->proto, &k, &wr) || (defaults && !cdm_default(&k)))
			continue;
		for (size_t e = 0; e < g->n; e++) {
			size_t d = g->e[e].dev, j;
			if (d >= nd || !g->e[e].cell->ok || !(rentry_bw(&g->e[e]) > 0))
				continue;
			for (j = 0; j < n && cdm_cmp(&rows[j], &k); j++)
				;
			if (j == n) {
				if (n == CDM_MAX_ROWS)
					return CDM_MAX_ROWS + 1;
				rows[n] = k;
				for (size_t a = 0; a < CDM_MAX_DEVS; a++)
					rows[n].v[a][0] = rows[n].v[a][1] = NAN;
				n++;
			}
			if (!isfinite(rows[j].v[d][wr]))
				rows[j].v[d][wr] = rentry_bw(&g->e[e]) / 1e6;
		}
	}
	qsort(rows, n, sizeof(*rows), cdm_cmp);
	return n;
}

/* "SEQ1M Q32T1", as bench/suite's derived labels. */
static void cdm_name(const struct cdm_row *k, char *buf, size_t len)
{
	struct cell c = { .pattern = k->rnd ? PAT_RANDREAD : PAT_READ, .bs = k->bs,
			  .iodepth = (unsigned)k->qd, .jobs = (unsigned)k->jobs };
	cell_label_derive(&c, buf, len);
}

/* One data block per device with a row (gnuplot `index`), its own header
 * and only its rows; shown[] gets those devices, the count is returned. */
static size_t cdm_data(const struct report *r, const struct cdm_row *rows, size_t n,
		       size_t nd, struct sbuf *dat, size_t *shown, size_t *nrows, double *mx)
{
	size_t ns = 0;

	for (size_t d = 0; d < nd; d++) {
		size_t m = 0;
		for (size_t k = 0; k < n; k++) {
			if (!isfinite(rows[k].v[d][0]) && !isfinite(rows[k].v[d][1]))
				continue;
			if (!m) {
				if (ns)
					sbuf_adds(dat, "\n\n");
				escape_append(dat, "test", ESC_GPDATA);
				sbuf_addc(dat, ' ');
				escape_append(dat, r->devs[d].display, ESC_GPDATA);
				sbuf_adds(dat, " \"write\" \"read label\" \"write label\"\n");
			}
			char name[64];
			cdm_name(&rows[k], name, sizeof(name));
			escape_append(dat, name, ESC_GPDATA);
			for (int w = 0; w < 2; w++) {
				double v = rows[k].v[d][w];
				if (isfinite(v)) {
					sbuf_addf(dat, " %.17g", v);
					*mx = v > *mx ? v : *mx;
				} else {
					sbuf_adds(dat, " ?");
				}
			}
			/* the bars' labels as the tables print the values (3
			 * significant figures: 0.406, 1.65, 48,200), never "%.0f",
			 * which made an HDD's 0.406 MB/s read "0" */
			for (int w = 0; w < 2; w++) {
				char t[48] = "";
				if (isfinite(rows[k].v[d][w]))
					fmt_sig3(rows[k].v[d][w], t, sizeof(t));
				sbuf_addc(dat, ' ');
				escape_append(dat, t, ESC_GPDATA);
			}
			sbuf_addc(dat, '\n');
			m++;
		}
		if (m) {
			nrows[ns] = m;
			shown[ns++] = d;
		}
	}
	return ns;
}

static int chart_cdm(struct chart_ctx *x)
{
	const struct report *r = x->r;
	size_t nd = r->ndevs < CDM_MAX_DEVS ? r->ndevs : CDM_MAX_DEVS;
	size_t shown[CDM_MAX_DEVS], nrows[CDM_MAX_DEVS], vals = 0;
	struct cdm_row rows[CDM_MAX_ROWS];
	double mx = 0;
	struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;

	size_t n = cdm_collect(r, nd, false, rows);
	bool sweep = n > CDM_MAX_ROWS;
	if (sweep)
		n = cdm_collect(r, nd, true, rows);
	for (size_t k = 0; k < n; k++)
		for (size_t d = 0; d < nd; d++)
			vals += isfinite(rows[k].v[d][0]) + isfinite(rows[k].v[d][1]);
	if (sweep)
		snprintf(x->cdm_note, sizeof(x->cdm_note), vals < 2 ?
			 "No CrystalDiskMark-style panel: the set's read and write cells are "
			 "a sweep of more than %d rows and hold none of CrystalDiskMark's "
			 "default tests (" CDM_DEFAULT_NAMES "); the sweep charts show them." :
			 "The CrystalDiskMark-style panel shows only CrystalDiskMark's default "
			 "tests (" CDM_DEFAULT_NAMES ") that ran: the set's read and write cells "
			 "are a sweep of more than %d rows, which the sweep charts show.",
			 CDM_MAX_ROWS);
	if (vals < 2)   /* nothing CrystalDiskMark-like was run */
		return 0;
	if (n < 2) {    /* one pair of bars: the bars per workload show it */
		char name[64];
		cdm_name(&rows[0], name, sizeof(name));
		snprintf(x->cdm_note, sizeof(x->cdm_note), "No CrystalDiskMark-style panel: "
			 "of its read and write tests only %s ran, which the charts per "
			 "workload show; the panel compares two or more.", name);
		return 0;
	}
	size_t ns = cdm_data(r, rows, n, nd, &dat, shown, nrows, &mx);
	int colors[2] = { 0, 1 };
	int w = ns > 1 ? 460 * (int)ns : 620, h = 440;
	if (w > 1400)
		w = 1400;
	const char *file = "crystaldiskmark-overview-mbs";
	const char *title = "CrystalDiskMark-style overview: MB/s, read and write";
	gp_begin(&gp, file, w, h, title, colors, 2, x->svg, x->png);
	/* the title goes over all panels, not over each */
	sbuf_adds(&gp, "unset title\n"
		  "set style data histograms\n"
		  "set style histogram clustered gap 1\n"
		  "set style fill solid 0.9 noborder\n"
		  "set xtics scale 0 font ',9' noenhanced\n"
		  "set key autotitle columnhead\n"
		  "set ylabel 'MB/s (10^6 bytes/s)'\nset bmargin 3\n");
	size_t most = 0;
	for (size_t s = 0; s < ns; s++)
		most = nrows[s] > most ? nrows[s] : most;
	/* CrystalDiskMark's four labels fit side by side in a panel; more
	 * would overlap */
	if (most > 4)
		sbuf_adds(&gp, "set xtics rotate by 30 right\nset bmargin 5\n");
	gp_yaxis(&gp, 0, mx * 1.12, false, "y");
	/* one panel per device, from its own data block; its name is the
	 * first key entry, read from the data file like every other name */
	struct sbuf plot = SBUF_INIT;
	sbuf_addf(&plot, "set multiplot layout 1,%zu ", ns);
	gp_title(&plot, "title", title);
	for (size_t s = 0; s < ns; s++) {
		sbuf_addf(&plot, "set xrange [-0.6:%zu.4]\n", nrows[s] - 1);
		sbuf_addf(&plot, "plot '%s.dat' index %zu using (0):(0) with points ps 0 lc rgb '#ffffff' "
			  "title columnhead(2), "
			  "'' index %zu using 2:xtic(1) title 'read' lc rgb '%s', "
			  "'' index %zu using 3 title 'write' lc rgb '%s', "
			  "'' index %zu using ($0-1.0/6):2:4 with labels "
			  "offset 0,0.6 font ',8' notitle, "
			  "'' index %zu using ($0+1.0/6):3:5 with labels "
			  "offset 0,0.6 font ',8' notitle\n",
			  file, s, s, report_colors[0], s, report_colors[3], s, s);
		if (s == 0)
			sbuf_adds(&plot, "unset ylabel\n");
	}
	sbuf_adds(&plot, "unset multiplot\n");
	sbuf_adds(&gp, sbuf_str(&plot));
	gp_end(&gp, file, w, h, x->svg, x->png, sbuf_str(&plot));
	int rc = chart_emit(x, file, title, -1, &dat, &gp);
	sbuf_release(&plot);
	sbuf_release(&dat);
	sbuf_release(&gp);
	return rc;
}

char *chart_find_program(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char buf[4096];
		if (len && len + strlen(prog) + 2 < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, prog);
			if (access(buf, X_OK) == 0)
				return strdup(buf);
		}
		path += len + (colon ? 1 : 0);
	}
	return NULL;
}

/* One gnuplot for everything: fork, fchdir to dfd (opened without
 * following links), exec by argv; its output goes to a new gnuplot.log
 * there (O_EXCL, never through a planted link). */
int chart_run_gnuplot(const char *gnuplot, int dfd, const char *dir, const char *script,
		      struct errlist *msgs)
{
	int logfd, status;

	logfd = openat(dfd, "gnuplot.log", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	pid_t pid = fork();

	if (pid < 0) {
		if (logfd >= 0)
			close(logfd);
		errlist_add(msgs, NULL, 0, 0, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char *const argv[] = { (char *)"gnuplot", (char *)script, NULL };
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		if (fchdir(dfd) < 0)
			_exit(126);
		if (logfd >= 0) {
			dup2(logfd, 1);
			dup2(logfd, 2);
		}
		execv(gnuplot, argv);
		_exit(127);
	}
	if (logfd >= 0)
		close(logfd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			errlist_add(msgs, NULL, 0, 0, "waiting for gnuplot: %s", strerror(errno));
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errlist_add(msgs, NULL, 0, 0, "gnuplot failed (exit %d); see '%s/gnuplot.log'",
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), dir);
		return -1;
	}
	return 0;
}

/* The report's charts: the names gnuplot will write are claimed first
 * (gnuplot's fopen would follow a planted link), then one run of all.gp. */
static int run_gnuplot(const char *gnuplot, struct chart_ctx *x, struct errlist *msgs)
{
	for (size_t i = 0; i < x->cs->n; i++) {
		char name[300];
		snprintf(name, sizeof(name), "%s.svg", x->cs->c[i].file);
		if (x->svg)
			outdir_claim(&x->od, name);
		snprintf(name, sizeof(name), "%s.png", x->cs->c[i].file);
		if (x->png)
			outdir_claim(&x->od, name);
	}
	outdir_claim(&x->od, "gnuplot.log");
	return chart_run_gnuplot(gnuplot, x->od.fd, x->od.path, "all.gp", msgs);
}

/*
 * Read an SVG gnuplot wrote and keep the <svg> element for inlining.  Every
 * chart uses the same ids (gnuplot_canvas, gpPt0, textbox...), so they get a
 * per-chart prefix: one HTML page may not define an id twice.
 */
static char *svg_inline(int dirfd, const char *file, size_t idx)
{
	static const char *const refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	char name[300], prefix[32];
	size_t len;
	struct sbuf out = SBUF_INIT;

	snprintf(name, sizeof(name), "%s.svg", file);
	char *buf = fsutil_read_at(dirfd, name, 16u << 20, 0, &len);
	if (!buf)
		return NULL;
	char *p = strstr(buf, "<svg");
	if (!p) {
		free(buf);
		return NULL;
	}
	snprintf(prefix, sizeof(prefix), "c%zu-", idx + 1);
	while (*p) {
		size_t best = (size_t)-1, which = 0;
		for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
			char *q = strstr(p, refs[i]);
			if (q && (size_t)(q - p) < best) {
				best = (size_t)(q - p);
				which = i;
			}
		}
		if (best == (size_t)-1) {
			sbuf_adds(&out, p);
			break;
		}
		size_t rl = strlen(refs[which]);
		sbuf_add(&out, p, best + rl);
		sbuf_adds(&out, prefix);
		p += best + rl;
	}
	free(buf);
	return sbuf_detach(&out);
}

int chart_render_all(const struct report *r, struct outdir *parent,
		     const struct chart_opts *o, struct chart_set *cs,
		     struct errlist *msgs)
{
	bool svg = o->svg, png = o->png;
	struct chart_ctx x = { .r = r, .svg = svg, .png = png, .cs = cs, .msgs = msgs,
			 .mode = o->mode, .scale = o->scale };
	char *gnuplot = NULL;
	int rc = 0;

	x.od.fd = -1;
	memset(cs, 0, sizeof(*cs));
	if (!svg && !png)
		return 0;
	gnuplot = chart_find_program("gnuplot");
	if (!gnuplot) {
		cs->note = strdup("Charts were skipped: gnuplot is not installed "
				  "(apt-get install gnuplot-nox, then run the report again).");
		fprintf(stderr, "iomatrix: gnuplot not found; charts skipped "
			"(install it with 'apt-get install gnuplot-nox')\n");
		return 0;
	}
	sbuf_init(&x.all);
	/* charts of an earlier report that this one does not redraw are
	 * removed by outdir_finish(), from the list that report left */
	int e = outdir_open_child(&x.od, parent, "charts", msgs);
	if (e < 0) {
		rc = e == -1 ? 2 : 1;
		goto out;
	}
	if (chart_cdm(&x) < 0 || chart_bars(&x, false) < 0 || chart_bars(&x, true) < 0 ||
	    chart_sweeps(&x, 0) < 0 || chart_sweeps(&x, 1) < 0 || chart_cells(&x) < 0) {
		errlist_add(msgs, x.od.path, 0, 0, "cannot write chart files");
		rc = 1;
		goto out;
	}
	struct chart_sink sink = { &x };
	for (size_t i = 0; r->sections[i]; i++)
		if (r->sections[i]->charts && r->sections[i]->charts(r, &sink) < 0) {
			errlist_add(msgs, x.od.path, 0, 0, "cannot write chart files");
			rc = 1;
			goto out;
		}
	if (chart_write_text(&x, "all.gp", &x.all) < 0) {
		rc = 1;
		goto out;
	}
	if (x.mode == CHART_SUMMARY || r->ngroups > CHART_MAX_CELL_CHARTS || x.cdm_note[0]) {
		char note[300] = "";
		if (x.mode == CHART_SUMMARY)
			snprintf(note, sizeof(note), "Latency and time-series charts are drawn for "
				 "latency cells, write cells and cells longer than 10 s; "
				 "'iomatrix report --charts all' draws them for every workload.");
		else if (r->ngroups > CHART_MAX_CELL_CHARTS)
			snprintf(note, sizeof(note), "Latency and time-series charts are drawn for "
				 "the first %d workloads; report.csv and each cell's JSON in cells/ "
				 "hold the numbers of all %zu.", CHART_MAX_CELL_CHARTS, r->ngroups);
		cs->note = fmt_str("%s%s%s", x.cdm_note, x.cdm_note[0] && note[0] ? " " : "", note);
	}
	if (run_gnuplot(gnuplot, &x, msgs) < 0) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; svg && i < cs->n; i++)
		cs->c[i].svg = svg_inline(x.od.fd, cs->c[i].file, i);
out:
	if (x.od.fd >= 0 && outdir_finish(&x.od, msgs) < 0 && !rc)
		rc = 1;
	outdir_close(&x.od);
	free(gnuplot);
	sbuf_release(&x.all);
	return rc;
}
