/*
 * chart.c - write gnuplot data (.dat) and scripts (.gp) for a report and run
 * one gnuplot process over all of them (chart.h).  Scripts contain only our
 * own constants; every string from a suite or result set (device names, cell
 * labels) goes into the .dat files, read as column headers and tick labels,
 * where gnuplot never substitutes commands or macros.
 */
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
#include "escape.h"
#include "common/fsutil.h"
#include "resultset/rset.h"

struct ctx {
	const struct report *r;
	struct outdir od;     /* outdir/charts */
	bool svg, png;
	struct chart_set *cs;
	struct sbuf all;      /* all.gp */
	struct errlist *msgs;
	int err;
};

static int write_text(struct ctx *x, const char *name, const struct sbuf *b)
{
	return outdir_write(&x->od, name, sbuf_str(b), b->len, x->msgs);
}

static struct chart *chart_new(struct ctx *x, const char *file, const char *title,
			       int group)
{
	struct chart_set *cs = x->cs;
	if (cs->n == cs->alloc) {
		size_t na = cs->alloc ? cs->alloc * 2 : 16;
		struct chart *p = realloc(cs->c, na * sizeof(*p));
		if (!p)
			return NULL;
		cs->c = p;
		cs->alloc = na;
	}
	struct chart *c = &cs->c[cs->n];
	memset(c, 0, sizeof(*c));
	c->file = strdup(file);
	c->title = strdup(title);
	c->group = group;
	if (!c->file || !c->title) {
		free(c->file);
		free(c->title);
		return NULL;
	}
	cs->n++;
	return c;
}

/* Terminal lines, the plot body, PNG replot.  ncol colours in C[]. */
static void gp_begin(struct sbuf *g, const char *file, int height,
		     const int *colors, size_t ncol, bool svg, bool png)
{
	sbuf_adds(g, "# written by iomatrix report; re-plot with: gnuplot ");
	sbuf_addf(g, "%s.gp\nset encoding utf8\n", file);
	if (svg)
		sbuf_addf(g, "set terminal svg size 800,%d fixed noenhanced "
			  "font 'DejaVu Sans,12' background rgb 'white'\n"
			  "set output '%s.svg'\n", height, file);
	else if (png)
		sbuf_addf(g, "set terminal pngcairo size 800,%d noenhanced "
			  "font 'DejaVu Sans,10' background rgb 'white'\n"
			  "set output '%s.png'\n", height, file);
	sbuf_addf(g, "array C[%zu]\n", ncol ? ncol : 1);
	for (size_t i = 0; i < ncol; i++)
		sbuf_addf(g, "C[%zu] = '%s'\n", i + 1,
			  report_colors[colors[i] % REPORT_COLORS]);
	sbuf_adds(g, "set datafile missing '?'\n"
		  "set border 3 lc rgb '#555555'\nset tics nomirror\n"
		  "set grid ytics lc rgb '#dddddd' lt 1\n"
		  "set key top left noenhanced\n");
}

/* The plot command is repeated for the PNG: `replot` loses the titles
 * taken from column headers. */
static void gp_end(struct sbuf *g, const char *file, int height, bool svg, bool png,
		   const char *plot)
{
	if (svg && png)
		sbuf_addf(g, "set terminal pngcairo size 800,%d noenhanced "
			  "font 'DejaVu Sans,10' background rgb 'white'\n"
			  "set output '%s.png'\n%s", height, file, plot);
	sbuf_adds(g, "set output\nreset\n");
}

static void gp_logy(struct sbuf *g, double mn, double mx)
{
	if (mn > 0 && mx / mn > 50)
		sbuf_addf(g, "set logscale y 10\nset yrange [%g:*]\nset format y '%s'\n",
			  mn / 2, mn >= 1 ? "%.0s%c" : "%g");
	else
		sbuf_adds(g, "set yrange [0:*]\n");
}

static int chart_emit(struct ctx *x, const char *file, const char *title, int group,
		      const struct sbuf *dat, const struct sbuf *gp)
{
	char name[300];
	struct chart *c = chart_new(x, file, title, group);
	if (!c)
		return -1;
	snprintf(name, sizeof(name), "%s.dat", file);
	if (write_text(x, name, dat) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s.gp", file);
	if (write_text(x, name, gp) < 0)
		return -1;
	sbuf_addf(&x->all, "load '%s.gp'\n", file);
	c->svgfile = x->svg;
	c->png = x->png;
	return 0;
}

/* ---- grouped bars: IOPS and MB/s per workload, one bar per device ---- */

static int chart_bars(struct ctx *x, bool bw)
{
	const struct report *r = x->r;
	size_t per = CHART_BARS_PER_CHART;
	size_t nchunks = (r->ngroups + per - 1) / per;
	int colors[64];
	size_t nd = r->ndevs < 64 ? r->ndevs : 64;

	for (size_t d = 0; d < nd; d++)
		colors[d] = r->devs[d].color;
	for (size_t ch = 0; ch < nchunks; ch++) {
		struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;
		char file[64], title[128];
		double mn = INFINITY, mx = 0;
		size_t maxtick = 8;
		size_t g0 = ch * per, g1 = g0 + per < r->ngroups ? g0 + per : r->ngroups;

		snprintf(file, sizeof(file), "bars-%s-%zu", bw ? "mbs" : "iops", ch + 1);
		if (nchunks > 1)
			snprintf(title, sizeof(title), "%s per workload (%zu of %zu)",
				 bw ? "Throughput (MB/s)" : "IOPS", ch + 1, nchunks);
		else
			snprintf(title, sizeof(title), "%s per workload",
				 bw ? "Throughput (MB/s)" : "IOPS");
		escape_append(&dat, "workload", ESC_GPDATA);
		for (size_t d = 0; d < nd; d++) {
			sbuf_addc(&dat, ' ');
			escape_append(&dat, r->devs[d].display, ESC_GPDATA);
		}
		sbuf_addc(&dat, '\n');
		for (size_t gi = g0; gi < g1; gi++) {
			const struct rgroup *g = &r->groups[gi];
			char tick[200];
			size_t tl;
			if (g->proto->label[0])
				snprintf(tick, sizeof(tick), "%s %s", g->proto->label, g->proto->pattern);
			else
				snprintf(tick, sizeof(tick), "%s", g->words);
			tl = strlen(tick);
			if (tl > maxtick)
				maxtick = tl;
			escape_append(&dat, tick, ESC_GPDATA);
			for (size_t d = 0; d < nd; d++) {
				const struct rentry *e = NULL;
				for (size_t k = 0; k < g->n; k++)
					if (g->e[k].dev == d)
						e = &g->e[k];
				double v = e && e->cell->ok ?
					   (bw ? rentry_bw(e) / 1e6 : rentry_iops(e)) : NAN;
				if (isfinite(v) && v > 0) {
					sbuf_addf(&dat, " %.6g", v);
					mn = v < mn ? v : mn;
					mx = v > mx ? v : mx;
				} else {
					sbuf_adds(&dat, " ?");
				}
			}
			sbuf_addc(&dat, '\n');
		}
		int h = 460;
		gp_begin(&gp, file, h, colors, nd, x->svg, x->png);
		/* room for the rotated tick labels (gnuplot over-estimates it) */
		sbuf_addf(&gp, "set bmargin %d\n", 2 + (int)(maxtick * 0.2));
		sbuf_addf(&gp, "set style data histograms\n"
			  "set style histogram clustered gap 1\n"
			  "set style fill solid 0.9 noborder\n"
			  "set xtics rotate by 30 right scale 0 font ',9' noenhanced\n"
			  "set key above\n"
			  "set ylabel '%s'\n", bw ? "MB/s (10^6 bytes/s)" : "IOPS");
		gp_logy(&gp, mn, mx);
		char plot[256];
		snprintf(plot, sizeof(plot), "plot for [i=2:%zu] '%s.dat' using i:xtic(1) "
			 "title columnhead(i) lc rgb C[i-1]\n", nd + 1, file);
		sbuf_adds(&gp, plot);
		gp_end(&gp, file, h, x->svg, x->png, plot);
		int rc = chart_emit(x, file, title, -1, &dat, &gp);
		sbuf_release(&dat);
		sbuf_release(&gp);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ---- line charts from (x, y) series in column pairs ---- */

struct series {
	char *name;       /* owned */
	int color;
	int dash;         /* gnuplot dash type: 1 solid, 2 dashed (writes) */
	size_t n, alloc;
	double *x, *y;
};

struct lines {
	struct series *s;
	size_t n;
};

static struct series *lines_series(struct lines *l, const char *name, int color)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->s[i].name, name))
			return &l->s[i];
	struct series *p = realloc(l->s, (l->n + 1) * sizeof(*p));
	if (!p)
		return NULL;
	l->s = p;
	struct series *s = &l->s[l->n];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->color = color;
	s->dash = 1;
	if (!s->name)
		return NULL;
	l->n++;
	return s;
}

static int series_point(struct series *s, double x, double y)
{
	if (!s)
		return -1;
	if (s->n == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 16;
		double *nx = realloc(s->x, na * sizeof(double));
		if (!nx)
			return -1;
		s->x = nx;
		double *ny = realloc(s->y, na * sizeof(double));
		if (!ny)
			return -1;
		s->y = ny;
		s->alloc = na;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
	return 0;
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->s[i].name);
		free(l->s[i].x);
		free(l->s[i].y);
	}
	free(l->s);
	memset(l, 0, sizeof(*l));
}

static int chart_lines(struct ctx *x, struct lines *l, const char *file,
		       const char *title, int group, const char *xlabel,
		       const char *ylabel, int logx /* 0, 2 or 10 */,
		       int logy_mode /* 0 auto 1 on */)
{
	struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;
	size_t maxn = 0, ns = l->n < 64 ? l->n : 64;
	int colors[64];
	double mn = INFINITY, mx = 0;
	int rc;

	if (!ns)
		return 0;
	for (size_t i = 0; i < ns; i++) {
		colors[i] = l->s[i].color;
		if (l->s[i].n > maxn)
			maxn = l->s[i].n;
		for (size_t k = 0; k < l->s[i].n; k++) {
			double v = l->s[i].y[k];
			if (v > 0 && v < mn)
				mn = v;
			if (v > mx)
				mx = v;
		}
	}
	for (size_t i = 0; i < ns; i++) {
		sbuf_adds(&dat, i ? " \"x\" " : "\"x\" ");
		escape_append(&dat, l->s[i].name, ESC_GPDATA);
	}
	sbuf_addc(&dat, '\n');
	for (size_t k = 0; k < maxn; k++) {
		for (size_t i = 0; i < ns; i++) {
			const struct series *s = &l->s[i];
			if (k < s->n && isfinite(s->x[k]) && isfinite(s->y[k]))
				sbuf_addf(&dat, "%s%.6g %.6g", i ? " " : "", s->x[k], s->y[k]);
			else
				sbuf_adds(&dat, i ? " NaN NaN" : "NaN NaN");
		}
		sbuf_addc(&dat, '\n');
	}
	int h = 420;
	gp_begin(&gp, file, h, colors, ns, x->svg, x->png);
	sbuf_addf(&gp, "array D[%zu]\n", ns);
	for (size_t i = 0; i < ns; i++)
		sbuf_addf(&gp, "D[%zu] = %d\n", i + 1, l->s[i].dash);
	sbuf_addf(&gp, "set xlabel '%s'\nset ylabel '%s'\nset key top right\n", xlabel, ylabel);
	if (logx)
		sbuf_addf(&gp, "set logscale x %d\nset format x '%%g'\n", logx);
	if (logy_mode == 1)
		sbuf_adds(&gp, "set logscale y 10\nset format y '%g'\n");
	else
		gp_logy(&gp, mn, mx);
	char plot[300];
	snprintf(plot, sizeof(plot), "plot for [i=1:%zu] '%s.dat' using (column(2*i-1)):(column(2*i)) "
		 "with linespoints lw 2 pt 7 ps 0.7 lc rgb C[i] dt D[i] title columnhead(2*i)\n",
		 ns, file);
	sbuf_adds(&gp, plot);
	gp_end(&gp, file, h, x->svg, x->png, plot);
	rc = chart_emit(x, file, title, group, &dat, &gp);
	sbuf_release(&dat);
	sbuf_release(&gp);
	return rc;
}

/* Key of a group without one parameter, to find bs / qd sweeps.  The
 * offset is part of it: zone reads at 0 %, 50 % and 95 % share bs and QD
 * and are no sweep. */
static void sweep_key(const struct rset_cell *c, int skip, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%llu|%d|%d|%d|%s|%d|%s|%d|%d|%llu|%g", c->pattern,
		 skip == 0 ? 0ull : (unsigned long long)c->bs,
		 skip == 1 ? 0 : c->iodepth, c->jobs, c->rwmixread, c->engine,
		 c->direct, c->data, c->fsync, c->files,
		 (unsigned long long)c->offset_bytes, c->offset_pct);
}

/* Sweep points arrive in suite order (QD 1, 32, then 2, 4, ...); a line
 * through them must go left to right.  Insertion sort: a handful of points. */
static void series_sort_x(struct series *s)
{
	for (size_t i = 1; i < s->n; i++) {
		double xv = s->x[i], yv = s->y[i];
		size_t j = i;
		for (; j > 0 && s->x[j - 1] > xv; j--) {
			s->x[j] = s->x[j - 1];
			s->y[j] = s->y[j - 1];
		}
		s->x[j] = xv;
		s->y[j] = yv;
	}
}

static double dev_metric(const struct rentry *e, int what)
{
	switch (what) {
	case 0: return rentry_bw(e) / 1e6;
	case 1: return rentry_iops(e);
	default: return rentry_lat(e);
	}
}

/*
 * Sweep charts: for each distinct key-without-bs (or -qd) with at least 3
 * values, one chart with a line per device.  At most 6 sweeps per kind.
 */
static int chart_sweeps(struct ctx *x, int skip)
{
	const struct report *r = x->r;
	char key[256], k2[256];
	char **done = calloc(r->ngroups + 1, sizeof(char *));
	size_t ndone = 0, emitted = 0;
	int rc = 0;

	if (!done)
		return -1;
	for (size_t gi = 0; gi < r->ngroups && emitted < 6; gi++) {
		sweep_key(r->groups[gi].proto, skip, key, sizeof(key));
		bool seen = false;
		for (size_t i = 0; i < ndone; i++)
			seen |= !strcmp(done[i], key);
		if (seen)
			continue;
		done[ndone++] = strdup(key);
		size_t nvals = 0;
		for (size_t gj = 0; gj < r->ngroups; gj++) {
			sweep_key(r->groups[gj].proto, skip, k2, sizeof(k2));
			nvals += !strcmp(k2, key);
		}
		if (nvals < 3)
			continue;
		const struct rset_cell *p = r->groups[gi].proto;
		int whats[2] = { skip == 0 ? 0 : 1, 2 };
		int nwhat = skip == 0 ? 1 : 2;
		emitted++;
		for (int w = 0; w < nwhat; w++) {
			struct lines l = { 0 };
			for (size_t gj = 0; gj < r->ngroups; gj++) {
				sweep_key(r->groups[gj].proto, skip, k2, sizeof(k2));
				if (strcmp(k2, key))
					continue;
				const struct rgroup *g = &r->groups[gj];
				for (size_t k = 0; k < g->n; k++) {
					if (!g->e[k].cell->ok)
						continue;
					const struct rdev *dv = &r->devs[g->e[k].dev];
					double xv = skip == 0 ? (double)g->proto->bs / 1024 :
						    g->proto->iodepth;
					double yv = dev_metric(&g->e[k], whats[w]);
					if (whats[w] == 2)
						yv /= 1e3;
					if (series_point(lines_series(&l, dv->display, dv->color), xv, yv) < 0)
						rc = -1;
				}
			}
			for (size_t i = 0; i < l.n; i++)
				series_sort_x(&l.s[i]);
			char file[64], title[300], bs[32];
			fmt_bs(p->bs, bs, sizeof(bs));
			if (skip == 0) {
				snprintf(file, sizeof(file), "bs-%zu", emitted);
				snprintf(title, sizeof(title), "Throughput vs block size: %s, QD%d, %d job%s",
					 report_pattern_words(p->pattern, false), p->iodepth,
					 p->jobs, p->jobs == 1 ? "" : "s");
			} else {
				snprintf(file, sizeof(file), "qd-%s-%zu", w ? "lat" : "iops", emitted);
				snprintf(title, sizeof(title), "%s vs queue depth: %s %s, %d job%s",
					 w ? "Mean latency" : "IOPS", bs,
					 report_pattern_words(p->pattern, false), p->jobs,
					 p->jobs == 1 ? "" : "s");
			}
			if (rc == 0)
				rc = chart_lines(x, &l, file, title, -1,
						 skip == 0 ? "block size (KiB)" : "queue depth",
						 whats[w] == 0 ? "MB/s (10^6 bytes/s)" :
						 whats[w] == 1 ? "IOPS" : "mean latency (µs)",
						 2, 0);
			lines_release(&l);
		}
	}
	for (size_t i = 0; i < ndone; i++)
		free(done[i]);
	free(done);
	return rc;
}

static const char *const dnames[DIR__COUNT] = { "read", "write" };

/* Latency exceedance and bandwidth time series for one workload. */
static int chart_cell(struct ctx *x, size_t gi)
{
	const struct report *r = x->r;
	const struct rgroup *g = &r->groups[gi];
	struct lines pl = { 0 }, sl = { 0 };
	double lats[128];
	size_t nl = 0;
	char name[256], file[64], title[400];
	int rc = 0;

	for (size_t k = 0; k < g->n; k++)
		for (int dd = 0; dd < DIR__COUNT; dd++) {
			const struct rset_dir *d = &g->e[k].cell->dir[dd];
			if (g->e[k].cell->ok && d->present && d->npct && nl < 128)
				lats[nl++] = d->pct_ns[d->npct - 1];
		}
	double div;
	const char *unit = fmt_lat_unit(lats, nl, &div);
	for (size_t k = 0; k < g->n; k++) {
		const struct rset_cell *c = g->e[k].cell;
		const struct rdev *dv = &r->devs[g->e[k].dev];
		if (!c->ok)
			continue;
		for (int dd = 0; dd < DIR__COUNT; dd++) {
			const struct rset_dir *d = &c->dir[dd];
			if (!d->present)
				continue;
			if (g->mixed)
				snprintf(name, sizeof(name), "%s %s", dv->display, dnames[dd]);
			else
				snprintf(name, sizeof(name), "%s", dv->display);
			if (d->npct) {
				struct series *s = lines_series(&pl, name, dv->color);
				if (s && g->mixed && dd == DIR_WRITE)
					s->dash = 2;
				if (d->lat_min_ns > 0)
					rc |= series_point(s, d->lat_min_ns / div, 1.0);
				for (size_t i = 0; i < d->npct; i++)
					if (d->pct_p[i] < 100)
						rc |= series_point(s, d->pct_ns[i] / div,
								   1 - d->pct_p[i] / 100);
			}
			if (d->nseries >= 3) {
				struct series *s = lines_series(&sl, name, dv->color);
				if (s && g->mixed && dd == DIR_WRITE)
					s->dash = 2;
				double iv = (double)d->series_interval_ns / 1e9;
				for (size_t i = 0; i < d->nseries; i++)
					rc |= series_point(s, (i + 1) * iv, d->series_bw[i] / 1e6);
			}
		}
	}
	if (rc == 0 && pl.n) {
		char xl[64];
		snprintf(file, sizeof(file), "lat-%zu", gi + 1);
		snprintf(title, sizeof(title), "Latency percentiles (exceedance): %s", g->title);
		snprintf(xl, sizeof(xl), "latency (%s)", unit);
		/* the script is ours, the unit a constant */
		rc = chart_lines(x, &pl, file, title, (int)gi, xl,
				 "fraction of IOs slower", 10, 1);
	}
	if (rc == 0 && sl.n) {
		snprintf(file, sizeof(file), "bw-%zu", gi + 1);
		snprintf(title, sizeof(title), "Throughput over time (first repetition): %s", g->title);
		rc = chart_lines(x, &sl, file, title, (int)gi, "time (s)",
				 "MB/s (10^6 bytes/s)", 0, 0);
	}
	lines_release(&pl);
	lines_release(&sl);
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

	logfd = openat(dfd, "gnuplot.log", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (logfd >= 0)
		fchmod(logfd, 0644);
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
static int run_gnuplot(const char *gnuplot, struct ctx *x, struct errlist *msgs)
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

int chart_render_all(const struct report *r, struct outdir *parent, bool svg,
		     bool png, struct chart_set *cs, struct errlist *msgs)
{
	struct ctx x = { .r = r, .svg = svg, .png = png, .cs = cs, .msgs = msgs };
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
	if (chart_bars(&x, false) < 0 || chart_bars(&x, true) < 0 ||
	    chart_sweeps(&x, 0) < 0 || chart_sweeps(&x, 1) < 0) {
		errlist_add(msgs, x.od.path, 0, 0, "cannot write chart files");
		rc = 1;
		goto out;
	}
	for (size_t gi = 0; gi < r->ngroups && gi < CHART_MAX_CELL_CHARTS; gi++)
		if (chart_cell(&x, gi) < 0) {
			errlist_add(msgs, x.od.path, 0, 0, "cannot write chart files");
			rc = 1;
			goto out;
		}
	if (write_text(&x, "all.gp", &x.all) < 0) {
		rc = 1;
		goto out;
	}
	if (r->ngroups > CHART_MAX_CELL_CHARTS) {
		char note[200];
		snprintf(note, sizeof(note), "Latency and time-series charts are drawn for "
			 "the first %d workloads; report.csv and each cell's JSON in cells/ hold "
			 "the numbers of all %zu.",
			 CHART_MAX_CELL_CHARTS, r->ngroups);
		cs->note = strdup(note);
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

void chart_set_release(struct chart_set *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->c[i].file);
		free(cs->c[i].title);
		free(cs->c[i].svg);
	}
	free(cs->c);
	free(cs->note);
	memset(cs, 0, sizeof(*cs));
}
