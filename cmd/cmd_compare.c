/*
 * cmd_compare.c - `iomatrix compare OLD NEW [-o DIR] [--threshold PCT]
 * [--map OLD=NEW]... [--format md,html,json] [--fail-on-regression]`: the
 * options, compare_run() (report/compare/compare.h, where the pairing and
 * the verdicts are), the files through the templates, the verdict lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare/compare.h"
#include "model/ratio.h"
#include "render/template.h"
#include "render/outdir.h"
#include "render/tmplpath.h"
#include "resultset/sums.h"
#include "util/termesc.h"
#include "sections.h"

static const struct option_spec compare_opts[] = {
	{ "-o", "--out --output", "DIR", .value = OPTV_DIR },
	{ "--threshold", NULL, "PCT" },
	{ "--map", NULL, "OLD=NEW", .flags = OPT_REPEAT },
	{ "--format", NULL, "md,html,json", .value = OPTV_WORDS,
	  .words = "md html json md,html,json" },
	{ "--fail-on-regression" },
	{ "--fail-on-inconclusive" },
	{ "--template", NULL, "DIR", .value = OPTV_DIR },
	{ NULL },
};

const struct command_spec compare_spec = {
	.name = "compare", .forms = { "OLD_SET NEW_SET" }, .opts = compare_opts,
	.operand = OPTV_DIR,
};

static void usage(FILE *f)
{
	optspec_usage(f, &compare_spec);
	fprintf(f,
		"\n"
		"Pair the workloads of two result sets (same device name and parameters)\n"
		"and give each pair one verdict from its primary metric: MB/s for blocks\n"
		"of 64 KiB and more, mean latency for latency cells (label starting LAT),\n"
		"IOPS otherwise.  The change is judged by the confidence interval of the\n"
		"ratio new/old (Welch's t on the logs of the repetitions; Bonferroni over\n"
		"every pair compared, family-wise 95 %%): a regression or an improvement\n"
		"when the whole interval lies beyond the threshold, \"no change\" when it\n"
		"lies within it, \"inconclusive\" otherwise: the data rule out neither,\n"
		"and more repetitions would tell.  With fewer than %d repetitions on\n"
		"either side there is no verdict (\"not enough repetitions to judge\").\n"
		"Writes compare.md, compare.html and compare.json to DIR (default\n"
		"NEW_SET/compare, derived output with its own SHA256SUMS: the set's own\n"
		"checksums, and so verify, list, history and site, are unchanged).\n\n"
		"  -o, --out DIR           where to write (--output also works)\n"
		"  --threshold PCT         smallest change that counts (default 5; when NEW\n"
		"                          reproduces OLD, the tolerance it recorded)\n"
		"  --map OLD=NEW           pair device OLD of the old set with NEW of the\n"
		"                          new set (repeatable; names may differ)\n"
		"  --format LIST           any of md,html,json (default: all)\n"
		"  --fail-on-regression    exit 3 when a regression is found\n"
		"  --fail-on-inconclusive  exit 4 when a change beyond the threshold is\n"
		"                          inconclusive (and no regression was found)\n"
		"  --template DIR          take compare.md.tmpl / compare.html.tmpl from DIR\n\n"
		"Exit: 0 compared; 2 bad usage or no workload matched; 3 regression with\n"
		"--fail-on-regression; 4 an inconclusive change beyond the threshold with\n"
		"--fail-on-inconclusive.\n", VERDICT_MIN_REPS);
}

struct copts {
	const char *out, *tdir, *format;
	const char *paths[2];
	double threshold;
	bool threshold_given;   /* --threshold on the command line */
	bool fail_on_reg, fail_on_inconc;
	struct compare_map map;
};

static int parse_args(int argc, char **argv, struct copts *c)
{
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool needs = cli_is_out(a) || !strcmp(a, "--threshold") ||
			     !strcmp(a, "--template") || !strcmp(a, "--map") || !strcmp(a, "--format");
		if (needs && i + 1 >= argc) {
			fprintf(stderr, "iomatrix: option '%s' needs a value\n", a);
			return -1;
		}
		if (cli_is_out(a)) {
			c->out = argv[++i];
		} else if (!strcmp(a, "--template")) {
			c->tdir = argv[++i];
		} else if (!strcmp(a, "--format")) {
			c->format = argv[++i];
		} else if (!strcmp(a, "--map")) {
			const char *v = argv[++i], *eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1] || c->map.n >= COMPARE_MAP_MAX) {
				fprintf(stderr, "iomatrix: bad --map '%s' (OLD=NEW: a device "
					"name of the old set, '=', one of the new set)\n", v);
				return -1;
			}
			char *o = strndup(v, (size_t)(eq - v));
			if (!o)
				return -1;
			c->map.old[c->map.n] = o;
			c->map.new[c->map.n++] = eq + 1;
		} else if (!strcmp(a, "--threshold")) {
			if (ratio_parse_threshold(argv[++i], &c->threshold) < 0)
				return -1;
			c->threshold_given = true;
		} else if (!strcmp(a, "--fail-on-inconclusive")) {
			c->fail_on_inconc = true;
		} else if (!strcmp(a, "--fail-on-regression")) {
			c->fail_on_reg = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix compare --help')\n", a);
			return -1;
		} else if (npos < 2) {
			c->paths[npos++] = a;
		} else {
			fprintf(stderr, "iomatrix: give exactly two result sets (OLD NEW)\n");
			return -1;
		}
	}
	if (npos != 2) {
		fprintf(stderr, "iomatrix: give two result sets: OLD NEW\n");
		usage(stderr);
		return -1;
	}
	for (const char *p = c->format; *p;) {
		size_t l = strcspn(p, ",");
		if (!((l == 2 && !strncmp(p, "md", 2)) || (l == 4 && !strncmp(p, "html", 4)) ||
		      (l == 4 && !strncmp(p, "json", 4)))) {
			fprintf(stderr, "iomatrix: unknown format '%.*s' (use md, html, json)\n",
				(int)l, p);
			return -1;
		}
		p += l + (p[l] == ',');
	}
	return 0;
}

static bool fmt_has(const char *list, const char *w)
{
	size_t wl = strlen(w);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == wl && !strncmp(p, w, l))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

static int write_outputs(const struct copts *c, struct outdir *od, cJSON *ctx,
			 cJSON *json, struct tmpl *tmd, struct tmpl *thtml,
			 const char *css, struct errlist *errs)
{
	int rc = EXIT_OK;
	struct sbuf o = SBUF_INIT;
	if (fmt_has(c->format, "md") &&
	    (tmpl_render(tmd, ctx, ESC_MD, &o) < 0 ||
	     outdir_write(od, "compare.md", sbuf_str(&o), o.len, errs) < 0))
		rc = EXIT_RUNTIME;
	sbuf_reset(&o);
	if (fmt_has(c->format, "html")) {
		cJSON_AddStringToObject(ctx, "css", css);
		if (tmpl_render(thtml, ctx, ESC_HTML, &o) < 0 ||
		    outdir_write(od, "compare.html", sbuf_str(&o), o.len, errs) < 0)
			rc = EXIT_RUNTIME;
	}
	sbuf_release(&o);
	if (fmt_has(c->format, "json")) {
		char *s = cJSON_Print(json);
		if (!s || outdir_write(od, "compare.json", s, strlen(s), errs) < 0)
			rc = EXIT_RUNTIME;
		free(s);
	}
	return rc;
}

/* The exit code a finished comparison asks for (rc: EXIT_OK so far). */
static int verdict_exit(const struct copts *o, const struct compare *c, int rc)
{
	if (rc == EXIT_OK && o->fail_on_reg && c->count[CMP_WORSE])
		return EXIT_REGRESSION;
	if (rc == EXIT_OK && o->fail_on_inconc && c->inconclusive_beyond)
		return EXIT_INCONCLUSIVE;
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct copts o = { .format = "md,html,json", .threshold = 5 };
	struct errlist errs = ERRLIST_INIT;
	struct compare c = { 0 };
	struct tmpl *tmd = NULL, *thtml = NULL;
	char *css = NULL;
	struct outdir od = { .fd = -1 };
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &o) < 0)
		goto out;
	if (!(tmd = tmplpath_load("compare.md.tmpl", o.tdir, argv, &errs)) ||
	    !(thtml = tmplpath_load("compare.html.tmpl", o.tdir, argv, &errs)) ||
	    !(css = tmplpath_read("style.css", o.tdir, argv, &errs)))
		goto out_errs;
	rc = compare_run(&c, o.paths, o.threshold, o.threshold_given, &o.map, report_sections, &errs);
	char wb[1400];   /* a warning, made inert for the terminal (termesc.h) */
	for (size_t s = 0; c.loaded && s < c.r.nsets; s++)
		for (size_t i = 0; i < c.r.sets[s].warnings.n; i++)
			fprintf(stderr, "iomatrix: warning: %s\n",
				termesc(c.r.sets[s].warnings.msgs[i], wb, sizeof(wb)));
	if (rc)
		goto out_errs;
	/* NEW/compare lives in a set that may come from anyone: never a link */
	int e = o.out ? outdir_open(&od, o.out, NULL, "compare", &errs) :
			outdir_open(&od, o.paths[1], "compare", "compare", &errs);
	if (e < 0) {
		rc = e == -1 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_errs;
	}
	rc = write_outputs(&o, &od, c.ctx, c.json, tmd, thtml, css, &errs);
	if (outdir_finish(&od, &errs) < 0)
		rc = EXIT_RUNTIME;
	/* its own SHA256SUMS: a set's list leaves compare/ out, and verify
	 * checks it apart from the measurement (resultset/sums.h) */
	int sr = rc == EXIT_OK ? sums_write_at(od.fd, 0) : 0;
	if (sr < 0) {
		errlist_add(&errs, NULL, 0, 0, "cannot write '%s/%s': %s", od.path,
			    SUMS_FILE, strerror(-sr));
		rc = EXIT_RUNTIME;
	}
	/* stdout: the verdict first, then every regression and improvement */
	compare_print(&c, stdout);
	if (rc == EXIT_OK)   /* "written" only when it is true */
		printf("written: %s/\n", od.path);
	rc = verdict_exit(&o, &c, rc);
out_errs:
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	compare_release(&c);
	for (size_t i = 0; i < o.map.n; i++)
		free((char *)o.map.old[i]);
	tmpl_free(tmd);
	tmpl_free(thtml);
	free(css);
	outdir_close(&od);
	errlist_release(&errs);
	return rc;
}
