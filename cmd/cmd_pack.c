/*
 * cmd_pack.c - `iomatrix pack SET -o FILE [--with-report]` and
 * `iomatrix unpack FILE [-o DIR]`: a set as one deterministic file and
 * back (share/pack.h holds the rules and the caps).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "share/pack.h"
#include "resultset/schema.h"

static const struct option_spec pack_opts[] = {
	{ "-o", "--out --output", "FILE", .flags = OPT_REQUIRED, .value = OPTV_FILE },
	{ "--with-report", NULL, NULL },
	{ NULL },
};

const struct command_spec pack_spec = {
	.name = "pack", .forms = { "SET" }, .opts = pack_opts, .operand = OPTV_DIR,
};

static const struct option_spec unpack_opts[] = {
	{ "-o", "--out --output", "DIR", .value = OPTV_DIR },
	{ NULL },
};

const struct command_spec unpack_spec = {
	.name = "unpack", .forms = { "FILE" }, .opts = unpack_opts, .operand = OPTV_FILE,
};

static void pack_usage(FILE *f)
{
	optspec_usage(f, &pack_spec);
	fprintf(f, "\n"
		   "Write result set SET as one file FILE.tar.gz (or FILE.tar.zst when this\n"
		   "libarchive has zstd): its files under one directory named as the set, in\n"
		   "byte order, with fixed times, owner and mode, so the same set always gives\n"
		   "the same bytes.  The set must verify (iomatrix verify); one written before\n"
		   "checksums is packed with a warning.  What unpack would refuse is refused\n"
		   "here first (a file name outside [A-Za-z0-9._+-], a set named with a\n"
		   "leading '.'), and so is FILE inside SET.\n"
		   "  -o FILE        the pack to write (replaced atomically)\n"
		   "  --with-report  include SET/report/ too\n"
		   "Exit 0, 1 when writing failed, 2 when SET is not a set or fails verification.\n");
}

static void unpack_usage(FILE *f)
{
	optspec_usage(f, &unpack_spec);
	fprintf(f, "\n"
		   "Unpack a pack made by 'iomatrix pack' into DIR/SET (DIR defaults to\n"
		   "$IOMATRIX_RESULTS or ./results) and print that path.  Only plain files and\n"
		   "directories below one set directory are accepted: a link, device, FIFO,\n"
		   "absolute path, '..', a name outside [A-Za-z0-9._+-], a path deeper than\n"
		   "%d, more than %d members, a file over %llu MiB or more than %llu MiB in\n"
		   "all (every decompressed byte counts) is refused.  The set is written\n"
		   "under a temporary name, its SHA256SUMS checked, and only then renamed\n"
		   "into place; an existing set is never overwritten.  Ctrl-C at any time\n"
		   "before that removes everything it wrote.\n"
		   "  -o DIR  the directory to unpack into (made if missing)\n"
		   "Exit 0, 1 when writing failed, 2 when the pack is refused, 130 when\n"
		   "interrupted (nothing is left, not even the DIR it made).\n",
		PACK_MAX_DEPTH, PACK_MAX_MEMBERS, (unsigned long long)(PACK_MAX_FILE_BYTES >> 20),
		(unsigned long long)(PACK_MAX_TOTAL_BYTES >> 20));
}

/* The operand and -o of argv; 0, or EXIT_USAGE after saying why. */
static int parse(int argc, char **argv, const char *what, bool *with_report,
		 const char **operand, const char **out)
{
	for (int i = 1; i < argc; i++) {
		if (cli_is_out(argv[i])) {
			if (i + 1 >= argc) {
				fprintf(stderr, "iomatrix: %s: %s needs a value\n", what, argv[i]);
				return EXIT_USAGE;
			}
			*out = argv[++i];
		} else if (with_report && !strcmp(argv[i], "--with-report")) {
			*with_report = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "iomatrix: %s: unknown option '%s'\n", what, argv[i]);
			return EXIT_USAGE;
		} else if (*operand) {
			fprintf(stderr, "iomatrix: %s: one operand only ('%s' and '%s')\n",
				what, *operand, argv[i]);
			return EXIT_USAGE;
		} else {
			*operand = argv[i];
		}
	}
	return 0;
}

static int exit_of(int r)
{
	if (r == -EINTR)
		return EXIT_INTERRUPTED;
	return r == -EINVAL || r == -EEXIST ? EXIT_USAGE : EXIT_RUNTIME;
}

int cmd_pack(int argc, char **argv)
{
	const char *set = NULL, *out = NULL;
	bool with_report = false, warn;
	char err[2048];

	if (cli_wants_help(argc, argv)) {
		pack_usage(stdout);
		return EXIT_OK;
	}
	if (parse(argc, argv, "pack", &with_report, &set, &out) || !set || !out) {
		if (!set || !out)
			fprintf(stderr, "iomatrix: pack: give a set and -o FILE\n");
		pack_usage(stderr);
		return EXIT_USAGE;
	}
	int r = resultset_pack(set, out, with_report, &warn, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "iomatrix: pack: %s\n", err);
		return exit_of(r);
	}
	if (warn)
		fprintf(stderr, "iomatrix: pack: warning: '%s' has no SHA256SUMS (written "
			"before iomatrix kept checksums); the pack cannot prove it intact\n", set);
	printf("%s\n", out);
	return EXIT_OK;
}

int cmd_unpack(int argc, char **argv)
{
	const char *file = NULL, *out = NULL;
	bool warn;
	char err[4096], dir[4096];

	if (cli_wants_help(argc, argv)) {
		unpack_usage(stdout);
		return EXIT_OK;
	}
	if (parse(argc, argv, "unpack", NULL, &file, &out) || !file) {
		if (!file)
			fprintf(stderr, "iomatrix: unpack: give a pack FILE\n");
		unpack_usage(stderr);
		return EXIT_USAGE;
	}
	/* Ctrl-C always works: unpack polls the flag, removes its temporary
	 * tree and returns -EINTR (exit 130); once the set is renamed into
	 * place the signal is too late and the set stays */
	static volatile sig_atomic_t stop;
	struct sigaction old[3];
	cli_catch_signals(&stop, old);
	int r = resultset_unpack(file, out ? out : resultset_root(), dir, sizeof(dir),
				 &warn, &stop, err, sizeof(err));
	cli_release_signals(old);
	if (r < 0) {
		fprintf(stderr, "iomatrix: unpack: %s\n", err);
		return exit_of(r);
	}
	if (warn)
		fprintf(stderr, "iomatrix: unpack: warning: '%s' has no SHA256SUMS (packed "
			"from a set written before checksums); it cannot be proven intact\n", dir);
	printf("%s\n", dir);
	return EXIT_OK;
}
