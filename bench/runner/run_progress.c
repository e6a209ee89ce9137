/*
 * run_progress.c - the progress line, ETA and finished-cell lines of `run`
 * (run_progress.h).
 */
#include "run_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "suite/workload.h"
#include "util/monotime.h"

/* Seconds a cell takes when it is time-limited, -1 when unknown. */
static double cell_estimate_s(const struct cell *c)
{
	uint64_t ns = cell_estimate_ns(c);
	return ns ? (double)ns / 1e9 : -1;
}

static void format_eta(double s, char *buf, size_t len)
{
	if (s < 0) {
		snprintf(buf, len, "?");
		return;
	}
	unsigned long t = (unsigned long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lus", t);
}

static double eta_s(const struct run_progress *ps, double cell_elapsed)
{
	double avg = ps->done_n ? ps->done_s / (double)ps->done_n : -1;
	double cur = cell_estimate_s(ps->c);
	double left;

	if (cur < 0)
		cur = avg;
	if (cur < 0 || (ps->unknown_left && avg < 0))
		return -1;
	left = cur - cell_elapsed;
	if (left < 0)
		left = 0;
	return left + ps->known_left_s + (double)ps->unknown_left * avg;
}

/* Drop the ETA's sums: without them the ETA is "?". */
static void run_progress_eta_free(struct run_progress *ps)
{
	free(ps->eta_known);
	free(ps->eta_unknown);
	ps->eta_known = NULL;
	ps->eta_unknown = NULL;
}

/* The suffix sums of the ETA: estimate and count of cells stopped by size
 * from cell k on, made once (a scan of the remaining cells per cell made
 * a run quadratic in its cells). */
static void eta_init(struct run_progress *ps, const struct cell *cells,
		     size_t n, const bool *skip)
{
	ps->eta_known = calloc(n + 1, sizeof(*ps->eta_known));
	ps->eta_unknown = calloc(n + 1, sizeof(*ps->eta_unknown));
	if (!ps->eta_known || !ps->eta_unknown) {
		run_progress_eta_free(ps);
		return;
	}
	for (size_t k = n; k-- > 0;) {
		bool sk = skip && skip[k];
		double est = sk ? -1 : cell_estimate_s(&cells[k]);
		ps->eta_known[k] = ps->eta_known[k + 1] + (!sk && est >= 0 ? est : 0);
		ps->eta_unknown[k] = ps->eta_unknown[k + 1] + (!sk && est < 0);
	}
}

void run_progress_init(struct run_progress *ps, const char *mode, bool quiet,
		       const struct cell *cells, size_t n, const bool *skip)
{
	memset(ps, 0, sizeof(*ps));
	ps->tty = isatty(STDERR_FILENO);
	ps->quiet = quiet;
	if (mode && !strcmp(mode, "plain")) {
		ps->plain = true;
		ps->tty = false;
	} else if (mode && !strcmp(mode, "tty")) {
		ps->tty = true;
	} else if (mode && !strcmp(mode, "none")) {
		ps->tty = false;
	}
	ps->n = n;
	ps->set_start = mono_s();
	eta_init(ps, cells, n, skip);
	/* cells that share a label are named apart: an engine matrix's
	 * "RND4K Q1T1 randread (engine io_uring)" */
	const struct cell **cp = malloc((n ? n : 1) * sizeof(*cp));
	ps->apart = malloc((n ? n : 1) * sizeof(*ps->apart));
	for (size_t i = 0; cp && i < n; i++)
		cp[i] = &cells[i];
	if (!cp || !ps->apart || workload_apart(cp, n, WORKLOAD_ALL, ps->apart) < 0) {
		free(ps->apart);
		ps->apart = NULL;
	}
	free(cp);
}

/* "disk RND4K Q1T1 randread (engine io_uring)": the cell as the plan
 * names it, and what tells it apart from cells of its label. */
static const char *cell_name(const struct run_progress *ps, const struct cell *c,
			     struct sbuf *b)
{
	sbuf_reset(b);
	sbuf_addf(b, "%s %s %s", c->device, c->label, pattern_name(c->pattern));
	if (c == ps->c && ps->c_apart) {
		sbuf_adds(b, " (");
		workload_say(c, ps->c_apart, b);
		sbuf_addc(b, ')');
	}
	return sbuf_str(b);
}

void run_progress_release(struct run_progress *ps)
{
	run_progress_eta_free(ps);
	free(ps->apart);
	ps->apart = NULL;
}

void run_progress_cell(struct run_progress *ps, size_t i, const struct cell *c,
		       unsigned round)
{
	ps->known_left_s = ps->eta_known ? ps->eta_known[i + 1] : 0;
	ps->unknown_left = ps->eta_unknown ? ps->eta_unknown[i + 1] : 0;
	ps->k = i + 1;
	ps->c = c;
	ps->c_apart = ps->apart && i < ps->n ? ps->apart[i] : 0;
	ps->rep = 0;
	ps->round = round;
	ps->cell_start = mono_s();
}

void run_progress_cell_done(struct run_progress *ps)
{
	ps->done_s += mono_s() - ps->cell_start;
	ps->done_n++;
}

void run_progress_cb(void *arg, const struct progress *p)
{
	struct run_progress *ps = arg;
	char eta[32], line[512];
	double now = mono_s();

	if (ps->quiet || (!ps->tty && !ps->plain))
		return;
	if (now - ps->last_print < (ps->plain ? 1.0 : 0.2))
		return;
	ps->last_print = now;
	format_eta(eta_s(ps, now - ps->cell_start), eta, sizeof(eta));
	if (p->in_layout) {
		snprintf(line, sizeof(line), "cell %zu/%zu %s %s %s  laying out %3.0f%%  ETA %s",
			 ps->k, ps->n, ps->c->device, ps->c->label,
			 pattern_name(ps->c->pattern),
			 p->layout_frac * 100, eta);
	} else {
		char round[32] = "";   /* steady-state rounds: "round 3 " */
		if (ps->round)
			snprintf(round, sizeof(round), "round %u ", ps->round);
		snprintf(line, sizeof(line), "%scell %zu/%zu %s %s %s rep %u/%u%s  %.0f IOPS  %.1f MB/s  ETA %s",
			 round, ps->k, ps->n, ps->c->device, ps->c->label,
			 pattern_name(ps->c->pattern), ps->rep,
			 ps->c->steady.window ? ps->c->steady.max : ps->c->repeat,
			 p->in_ramp ? " (ramp)" : "", p->iops,
			 p->bw_bytes_s / 1e6, eta);
	}
	if (ps->plain) {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	ps->line_open = true;
}

void run_progress_clear(struct run_progress *ps)
{
	if (ps->line_open) {
		fprintf(stderr, "\r\033[K");
		ps->line_open = false;
	}
}

void run_progress_round(const struct run_progress *ps, const char *dev,
			unsigned round, unsigned max, bool resuming)
{
	if (ps->quiet)
		return;
	if (resuming)
		fprintf(stderr, "iomatrix: %s: resuming at round %u\n", dev, round);
	else
		fprintf(stderr, "iomatrix: %s: round %u (at most %u)\n", dev, round, max);
}

void run_progress_rounds_verdict(const struct run_progress *ps, const char *dev,
				 unsigned steady_round, bool finished,
				 unsigned rounds_done, unsigned window)
{
	if (steady_round && !ps->quiet)
		fprintf(stderr, "iomatrix: %s: steady state at round %u (window %u..%u)\n",
			dev, steady_round, steady_round + 1 - window, steady_round);
	else if (!steady_round && finished)
		fprintf(stderr, "iomatrix: warning: %s: NOT steady after %u rounds; "
			"the results are the averages of the last %u\n", dev,
			rounds_done, window);
}

/*
 * One direction's latency over every repetition, as the report prints it
 * (resultset/rset.h, lat_mean_all and lat_p99_all): the mean of all IOs
 * (IO-weighted, the exact merge) and the p99 of the merged histogram.
 * " lat mean 134.4 us p99 210.9 us", or nothing without IO.
 */
static void lat_words(const struct rep_result *reps, unsigned nreps, int d,
		      char *buf, size_t len)
{
	struct lat_hist *h = calloc(1, sizeof(*h));
	double sum = 0;
	uint64_t n = 0;

	buf[0] = '\0';
	for (unsigned r = 0; r < nreps; r++) {
		sum += reps[r].dir[d].lat.mean * (double)reps[r].dir[d].lat.n;
		n += reps[r].dir[d].lat.n;
		if (h && reps[r].dir[d].hist)
			hist_merge(h, reps[r].dir[d].hist);
	}
	if (n && h && h->total)
		snprintf(buf, len, "lat mean %.1f us  p99 %.1f us", sum / (double)n / 1e3,
			 (double)hist_percentile(h, 99) / 1e3);
	else if (n)
		snprintf(buf, len, "lat mean %.1f us", sum / (double)n / 1e3);
	free(h);
}

void run_progress_cell_line(const struct run_progress *ps, const struct cell *c,
			    const char *error, const struct rep_result *reps,
			    unsigned nreps)
{
	double iops = 0, bw = 0;
	char lat[DIR__COUNT][96];
	int ndirs = 0;

	/* a failure is an error message, not progress: --quiet keeps it */
	if (error) {
		struct sbuf nm = SBUF_INIT;
		fprintf(stderr, "cell %zu/%zu %s: failed: %s\n", ps->k, ps->n,
			cell_name(ps, c, &nm), error);
		sbuf_release(&nm);
		return;
	}
	if (ps->quiet)
		return;
	for (unsigned r = 0; r < nreps; r++) {
		double secs = (double)reps[r].runtime_ns / 1e9;
		for (int d = 0; d < DIR__COUNT; d++)
			if (secs > 0) {
				iops += (double)reps[r].dir[d].ios / secs;
				bw += (double)reps[r].dir[d].bytes / secs;
			}
	}
	if (nreps) {
		iops /= nreps;
		bw /= nreps;
	}
	for (int d = 0; d < DIR__COUNT; d++) {
		lat_words(reps, nreps, d, lat[d], sizeof(lat[d]));
		ndirs += lat[d][0] != '\0';
	}
	/* a mixed cell: each direction's latency, as the report's rows */
	char both[256];
	if (ndirs == 2)
		snprintf(both, sizeof(both), "read %s, write %s", lat[DIR_READ], lat[DIR_WRITE]);
	else
		snprintf(both, sizeof(both), "%s", lat[DIR_READ][0] ? lat[DIR_READ] :
			 lat[DIR_WRITE][0] ? lat[DIR_WRITE] : "lat mean 0.0 us");
	struct sbuf nm = SBUF_INIT;
	fprintf(stderr, "cell %zu/%zu %s: %.0f IOPS  %.1f MB/s  %s  (%u rep%s)\n",
		ps->k, ps->n, cell_name(ps, c, &nm), iops, bw / 1e6, both, nreps,
		nreps == 1 ? "" : "s");
	sbuf_release(&nm);
}
