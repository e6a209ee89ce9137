/*
 * suite_cli.c - option parsing shared by validate, plan and export (see
 * suite_cli.h), so --device and --scale mean the same everywhere.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cliopt.h"
#include "suite_cli.h"

static int push(const char ***arr, size_t *n, const char *s)
{
	const char **a = realloc(*arr, (*n + 1) * sizeof(*a));
	if (!a)
		return -1;
	a[(*n)++] = s;
	*arr = a;
	return 0;
}

/* "--opt VALUE" or "--opt=VALUE"; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name)) {
		if (*i + 1 >= argc)
			return NULL;
		return argv[++*i];
	}
	return NULL;
}

static bool is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

int suite_cli_parse(int argc, char **argv, unsigned allow, const char *cmd,
		    struct suite_cli *o)
{
	bool only_files = false;

	memset(o, 0, sizeof(*o));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (only_files || a[0] != '-' || !a[1]) {
			if (push(&o->files, &o->nfiles, a) < 0)
				goto oom;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_files = true;
			continue;
		}
		if (is_opt(a, "--device")) {
			if (!(v = opt_value(argc, argv, &i, "--device")))
				goto missing;
			if (push(&o->devices, &o->ndevices, v) < 0)
				goto oom;
		} else if (is_opt(a, "--scale")) {
			if (!(v = opt_value(argc, argv, &i, "--scale")))
				goto missing;
			if (suite_cli_scale(v, &o->scale) < 0)
				goto usage;
		} else if ((allow & SCLI_FORMAT) && is_opt(a, "--format")) {
			if (!(o->format = opt_value(argc, argv, &i, "--format")))
				goto missing;
		} else if ((allow & SCLI_OUT) && (is_opt(a, "--out") || cli_is_out(a))) {
			if (cli_is_out(a)) {
				if (i + 1 >= argc)
					goto missing;
				o->outdir = argv[++i];
			} else if (!(o->outdir = opt_value(argc, argv, &i, "--out"))) {
				goto missing;
			}
		} else {
			fprintf(stderr, "iomatrix: unknown option '%s'; see 'iomatrix %s --help'\n",
				a, cmd);
			goto usage;
		}
	}
	return EXIT_OK;
missing:
	fprintf(stderr, "iomatrix: option '%s' of '%s' needs a value\n", argv[argc - 1], cmd);
	goto usage;
oom:
	fprintf(stderr, "iomatrix: out of memory (%s)\n", cmd);
usage:
	suite_cli_release(o);
	return EXIT_USAGE;
}

void suite_cli_help(FILE *f, unsigned allow)
{
	if (allow & SCLI_OUT)
		fprintf(f, "  -o DIR              the output directory (--out and --output also work)\n");
	if (allow & SCLI_FORMAT)
		fprintf(f, "  --format FMT        text (default) or json\n");
	fprintf(f, "  --device NAME=PATH  device NAME of the suite is PATH instead, as 'run'\n"
		   "                      takes it (repeatable)\n"
		   "  --scale F           multiply size, runtime, requests, io_size, ramp and\n"
		   "                      cooldown by F, as 'run --scale' does\n\n");
}

void suite_cli_release(struct suite_cli *o)
{
	free(o->devices);
	free(o->files);
	o->devices = o->files = NULL;
	o->ndevices = o->nfiles = 0;
}

struct suite_opts suite_cli_opts(const struct suite_cli *o)
{
	struct suite_opts so = { o->devices, o->ndevices, o->scale };
	return so;
}

int suite_cli_scale(const char *v, double *out)
{
	char *end;
	double f;

	errno = 0;
	f = strtod(v, &end);
	/* decimal only: strtod would also take 0x10, inf, nan */
	if (errno || end == v || *end || v[strspn(v, "0123456789.eE+-")] ||
	    !(isdigit((unsigned char)v[0]) || v[0] == '.') || !(f > 0) ||
	    !isfinite(f) || f > SUITE_CLI_MAX_SCALE) {
		fprintf(stderr, "iomatrix: bad --scale '%s'; give a positive factor up to %g, such as 0.1 or 2\n",
			v, SUITE_CLI_MAX_SCALE);
		return -1;
	}
	*out = f;
	return 0;
}

enum { SH_DEVICE = 1, SH_OUT, SH_SCALE, SH_DESTROY, SH_QUIET, SH_PROGRESS };

const struct option_spec run_shared_opts[] = {
	{ "--device", NULL, "NAME=PATH", .flags = OPT_REPEAT, .id = SH_DEVICE },
	{ "--out", "-o --output", "DIR", .value = OPTV_DIR, .id = SH_OUT },
	{ "--scale", NULL, "F", .id = SH_SCALE },
	{ "--yes-destroy-data", .id = SH_DESTROY },
	{ "--quiet", "-q", .id = SH_QUIET },
	{ "--progress", NULL, "auto|tty|plain|none", .value = OPTV_WORDS,
	  .words = "auto tty plain none", .id = SH_PROGRESS },
	{ NULL },
};

int run_shared_init(struct run_shared *s, int argc)
{
	memset(s, 0, sizeof(*s));
	if (!(s->devices = calloc((size_t)argc + 1, sizeof(*s->devices)))) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	return 0;
}

void run_shared_release(struct run_shared *s)
{
	free(s->devices);
	s->devices = NULL;
}

/* Take p's option when it is a row of run_shared_opts: 1 taken, 0 not one
 * of them, -1 a bad value (the fix printed to stderr). */
static int run_shared_option(struct run_shared *s, const struct optspec_parse *p)
{
	const char *v = p->value;

	if (!p->opt || p->opt < run_shared_opts ||
	    p->opt >= run_shared_opts + sizeof(run_shared_opts) / sizeof(run_shared_opts[0]))
		return 0;
	switch (p->opt->id) {
	case SH_DEVICE:
		if (!strchr(v, '=') || v[0] == '=') {
			fprintf(stderr, "iomatrix: '--device %s' needs NAME=PATH, e.g. --device "
				"ssd=/mnt/ssd\n", v);
			return -1;
		}
		s->devices[s->ndevices++] = v;
		break;
	case SH_OUT: s->out = v; break;
	case SH_SCALE:
		if (suite_cli_scale(v, &s->scale) < 0)
			return -1;
		s->scale_arg = v;
		break;
	case SH_DESTROY: s->yes_destroy_data = true; break;
	case SH_QUIET: s->quiet = true; break;
	case SH_PROGRESS: s->progress = v; break;
	default: return 0;
	}
	return 1;
}

int run_shared_next(struct optspec_parse *p, struct run_shared *s)
{
	int r;

	while ((r = optspec_next(p)) > 0) {
		int taken = run_shared_option(s, p);
		if (taken <= 0)
			return taken < 0 ? -1 : 1;
	}
	return r;
}
