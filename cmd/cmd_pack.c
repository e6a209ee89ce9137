/*
 * cmd_pack.c - `iomatrix pack SET -o FILE` and `iomatrix unpack FILE`: their
 * option tables, then a set as one deterministic file and back
 * (share/pack.h holds the rules and the caps).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "cli.h"
#include "share/pack.h"
#include "resultset/schema.h"

struct pack_args {
	const char *out;
	bool with_report;
};

static const struct option_spec pack_opts[] = {
	{ "-o", "--out --output", .kind = OPTK_FILE, .flags = OPT_REQUIRED,
	  OPT_AT(struct pack_args, out), .help = "the pack to write (replaced atomically)" },
	{ "--with-report", .kind = OPTK_FLAG, OPT_AT(struct pack_args, with_report),
	  .help = "include SET/report/ too" },
	{ NULL },
};

static const struct option_spec unpack_opts[] = {
	{ "-o", "--out --output", .kind = OPTK_DIR, OPT_AT(struct pack_args, out),
	  .help = "the directory to unpack into (made if missing; default: "
		  "$IOMATRIX_RESULTS or ./results)" },
	{ NULL },
};

/* The bounds of unpack, from share/pack.h. */
static void unpack_limits(FILE *f)
{
	fprintf(f, "Limits: a path at most %d deep, at most %d members, %llu MiB a file and\n"
		   "%llu MiB in all.\n", PACK_MAX_DEPTH, PACK_MAX_MEMBERS,
		(unsigned long long)(PACK_MAX_FILE_BYTES >> 20),
		(unsigned long long)(PACK_MAX_TOTAL_BYTES >> 20));
}

/* What cmd (pack, unpack) says of its outcome r (resultset_pack() or
 * _unpack()): the error err and its exit code, or EXIT_OK and, when the
 * set had no SHA256SUMS (warn), a warning naming it (set), since when
 * (old) and what that costs. */
static int pack_outcome(const char *cmd, int r, const char *err, bool warn, const char *set,
			const char *old, const char *cost)
{
	if (r < 0) {
		fprintf(stderr, "iomatrix: %s: %s\n", cmd, err);
		return r == -EINTR ? EXIT_INTERRUPTED :
		       r == -EINVAL || r == -EEXIST ? EXIT_USAGE : EXIT_RUNTIME;
	}
	if (warn)
		fprintf(stderr, "iomatrix: %s: warning: '%s' has no SHA256SUMS (%s); %s\n", cmd,
			set, old, cost);
	return EXIT_OK;
}

int cmd_pack(const struct cmd_call *c)
{
	const struct pack_args *a = c->opts;
	const char *set = c->ops->v[0];
	bool warn;
	char err[2048];

	int r = resultset_pack(set, a->out, a->with_report, &warn, err, sizeof(err));
	int rc = pack_outcome("pack", r, err, warn, set, "written before iomatrix kept checksums",
			      "the pack cannot prove it intact");
	if (rc == EXIT_OK)
		printf("%s\n", a->out);
	return rc;
}

int cmd_unpack(const struct cmd_call *c)
{
	const struct pack_args *a = c->opts;
	const char *file = c->ops->v[0];
	bool warn;
	char err[4096], dir[4096];

	/* Ctrl-C always works: unpack polls the flag, removes its temporary
	 * tree and returns -EINTR (exit 130); once the set is renamed into
	 * place the signal is too late and the set stays */
	static volatile sig_atomic_t stop;
	struct sigaction old[3];
	cli_catch_signals(&stop, old);
	int r = resultset_unpack(file, a->out ? a->out : resultset_root(), dir, sizeof(dir),
				 &warn, &stop, err, sizeof(err));
	cli_release_signals(old);
	int rc = pack_outcome("unpack", r, err, warn, dir, "packed from a set written before "
			      "checksums", "it cannot be proven intact");
	if (rc == EXIT_OK)
		cmd_index_set_said(dir);
	return rc;
}

const struct command_spec pack_spec = {
	.name = "pack", .forms = { "SET" }, OPTSPEC_OPTS(pack_opts, struct pack_args),
	.operand = OPTK_DIR,
	.about =
	"Write result set SET as one file FILE.tar.gz (or FILE.tar.zst when this\n"
	"libarchive has zstd): its files under one directory named as the set, in\n"
	"byte order, with fixed times, owner and mode, so the same set always gives\n"
	"the same bytes.  The set must verify (iomatrix verify); one written before\n"
	"checksums is packed with a warning.  What unpack would refuse is refused\n"
	"here first (a file name outside [A-Za-z0-9._+-], a set named with a\n"
	"leading '.'), and so is FILE inside SET.",
	.epilog = "Exit 0, 1 when writing failed, 2 when SET is not a set or fails verification.",
};

const struct command_spec unpack_spec = {
	.name = "unpack", .forms = { "FILE" }, OPTSPEC_OPTS(unpack_opts, struct pack_args),
	.operand = OPTK_FILE,
	.about =
	"Unpack a pack made by 'iomatrix pack' into DIR/SET and print that path.\n"
	"Only plain files and directories below one set directory are accepted:\n"
	"a link, device, FIFO, absolute path, '..', a name outside\n"
	"[A-Za-z0-9._+-], or a pack beyond the limits below is refused (every\n"
	"decompressed byte counts).  The set is written under a temporary name,\n"
	"its SHA256SUMS checked, and only then renamed into place; an existing set\n"
	"is never overwritten.  Ctrl-C at any time before that removes everything\n"
	"it wrote.",
	.epilog = "Exit 0, 1 when writing failed, 2 when the pack is refused, 130 when\n"
		  "interrupted (nothing is left, not even the DIR it made).",
	.more = unpack_limits,
};
