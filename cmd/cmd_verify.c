/*
 * cmd_verify.c - `iomatrix verify SET|DIR...`: check each set against its
 * SHA256SUMS (resultset/sums.h), the same check `sha256sum -c SHA256SUMS`
 * makes, plus the files the list does not name.  A DIR that is not a set
 * is a results directory: each set in it that `list` shows is checked
 * (the one set test and walker, resultset/setwalk.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "resultset/setwalk.h"
#include "resultset/sums.h"

struct verify_args {
	bool quiet;
};

static const struct option_spec verify_opts[] = {
	{ "--quiet", "-q", .kind = OPTK_FLAG, OPT_AT(struct verify_args, quiet),
	  .help = "print only the sets that fail" },
	{ NULL },
};

/* Derived output, apart from the measurement: "  derived report/: intact
 * (12 files)" and each problem of one that fails. */
static void print_derived(const struct sums_check *c, bool quiet)
{
	for (size_t i = 0; i < SUMS_NDERIVED; i++) {
		const struct sums_derived *d = &c->derived[i];
		if (!d->present || (quiet && d->state != SUMS_FAILED))
			continue;
		if (d->state == SUMS_INTACT)
			printf("  derived %s/: intact (%zu file%s)\n", sums_derived_dirs[i],
			       d->nfiles, d->nfiles == 1 ? "" : "s");
		else if (d->state == SUMS_NONE)
			printf("  derived %s/: no checksums of its own\n", sums_derived_dirs[i]);
		else
			printf("  derived %s/: FAILED\n", sums_derived_dirs[i]);
		for (size_t k = 0; k < d->nproblems; k++) {
			char pb[512];
			printf("    %s\n", termesc(d->problems[k], pb, sizeof(pb)));
		}
	}
}

/* 0 intact or no checksums, 1 failed (the measurement or derived output),
 * 2 unreadable. */
static int verify_set(const char *dir, bool quiet)
{
	struct sums_check c;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0) {
		char d[512];
		fprintf(stderr, "iomatrix: cannot open '%s': %s\n", termesc(dir, d, sizeof(d)),
			strerror(errno));
		return 2;
	}
	r = sums_verify_at(fd, SUMS_SET, &c);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "iomatrix: cannot read '%s': %s\n", dir, strerror(-r));
		return 2;
	}
	/* the set's directory and its file names come from the set: a newline
	 * or an escape sequence in one is printed as text (termesc.h), so it
	 * cannot forge a line such as "x: intact" */
	bool failed = sums_check_failed(&c);
	struct sbuf b = SBUF_INIT;
	termesc_append(&b, dir);
	if (c.state == SUMS_INTACT && (!quiet || failed))
		printf("%s: intact (%zu file%s)\n", sbuf_str(&b), c.nfiles, c.nfiles == 1 ? "" : "s");
	else if (c.state == SUMS_NONE && (!quiet || failed))
		printf("%s: no checksums (a set written before iomatrix kept SHA256SUMS)\n",
		       sbuf_str(&b));
	else if (c.state == SUMS_FAILED) {
		printf("%s: FAILED\n", sbuf_str(&b));
		for (size_t i = 0; i < c.nproblems; i++) {
			sbuf_reset(&b);
			termesc_append(&b, c.problems[i]);
			printf("  %s\n", sbuf_str(&b));
		}
	}
	sbuf_release(&b);
	print_derived(&c, quiet);
	r = failed;
	sums_check_release(&c);
	return r;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sets of a results directory, as list, history and site count them
 * (resultset/setwalk.h): collected for verify_root. */
struct verify_found {
	char **names;
	size_t n;
};

static int verify_found_add(const char *set, const char *rel, void *arg)
{
	struct verify_found *f = arg;
	if (resultset_repo_own(rel))
		return 0;
	char **nn = realloc(f->names, (f->n + 1) * sizeof(*nn));
	if (!nn)
		return -ENOMEM;
	f->names = nn;
	if (!(nn[f->n] = strdup(set)))
		return -ENOMEM;
	f->n++;
	return 0;
}

/* Does dir hold a folder (dot folders aside)? */
static bool has_folder(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4096];
	struct stat st;
	bool found = false;

	while (d && !found && (e = readdir(d)))
		found = e->d_name[0] != '.' && fsutil_join(p, sizeof(p), dir, e->d_name) == 0 &&
			lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
	if (d)
		closedir(d);
	return found;
}

/* Each set below root that `list` shows, in name order. */
static int verify_root(const char *root, bool quiet)
{
	struct verify_found f = { NULL, 0 };
	int e = resultset_walk(root, 1, verify_found_add, &f);
	int rc = e < 0 ? 2 : 0;   /* out of memory: what was found is checked */

	if (e < 0 && e != -ENOMEM) {
		fprintf(stderr, "iomatrix: cannot open '%s': %s\n", root, strerror(-e));
		return 2;
	}
	/* a results directory nothing has run into yet holds no sets: that
	 * is an answer, not a mistake; one whose folders are not sets is */
	if (!f.n && !rc && !has_folder(root)) {
		char t[1024];
		printf("%s: no sets\n", termesc(root, t, sizeof(t)));
	} else if (!f.n && !rc) {
		fprintf(stderr, "iomatrix: '%s' is neither a result set nor a directory of sets\n", root);
		rc = 2;
	}
	if (f.n > 1)
		qsort(f.names, f.n, sizeof(*f.names), cmp_name);
	for (size_t i = 0; i < f.n; i++) {
		int r = verify_set(f.names[i], quiet);
		if (r > rc)
			rc = r;
		free(f.names[i]);
	}
	free(f.names);
	return rc;
}

int cmd_verify(const struct cmd_call *c)
{
	const struct verify_args *a = c->opts;
	const struct optlist *ops = c->ops;
	int rc = 0;

	for (size_t i = 0; i < ops->n; i++) {
		int r = resultset_is_set(ops->v[i]) ? verify_set(ops->v[i], a->quiet) :
						      verify_root(ops->v[i], a->quiet);
		/* a failed set (1) is the answer; an unreadable operand (2)
		 * is a usage error only when nothing failed */
		if (r == 1 || (r == 2 && rc == 0))
			rc = r;
	}
	return rc;
}

const struct command_spec verify_spec = {
	.name = "verify", .forms = { "SET|DIR..." }, OPTSPEC_OPTS(verify_opts, struct verify_args),
	.operand = OPTK_DIR,
	.about =
	"Check each result set against its SHA256SUMS (what 'sha256sum -c SHA256SUMS'\n"
	"checks, plus files the list does not name); a DIR that is not a set is a\n"
	"results directory, whose sets are each checked.  Prints one line per set:\n"
	"'intact', 'no checksums' (written before iomatrix kept them) or 'FAILED'\n"
	"followed by each changed, missing or extra file of the measurement.  Derived\n"
	"output (report/ and compare/, which report and compare write into a set) is\n"
	"not part of the measurement: each is checked against its own SHA256SUMS and\n"
	"reported apart, on a 'derived' line below the set's.",
	.epilog = "Exit 0 when nothing fails (a directory with no sets and no other folders\n"
		  "prints 'no sets'), 1 when a measurement or derived output does, 2 when an\n"
		  "operand is not a set or a directory of sets.",
};
