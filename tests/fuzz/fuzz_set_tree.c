/*
 * fuzz_set_tree.c - libFuzzer target: a hostile result-set tree.  Each of
 * the first bytes of the input picks what sits at one position of a set
 * (manifest, plan, suite, cells/, each cell, report/, report/charts, the
 * output lists, temp names ...): missing, a valid file, the fuzz payload, a
 * directory, a FIFO, a link to a file or directory OUTSIDE the tree, a
 * dangling link to a new name outside, a link loop.  Then `report`,
 * `compare`, `list` and `run --resume` (of a null-engine suite, so no IO)
 * run on it, and the target asserts that nothing outside the tree was
 * created, changed or deleted: any difference abort()s.
 * Also built into tests/unit/test_fuzz_regress.c to replay its corpus.
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "util/fsutil.h"
#include "util/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum kind {
	K_MISSING, K_VALID, K_PAYLOAD, K_DIR, K_FIFO, K_LINK_FILE, K_LINK_DIR,
	K_LINK_NEW, K_LINK_LOOP, K__COUNT
};

/* Positions in the set, parents before children; `proto` names the file of
 * the prototype set that K_VALID copies (NULL: a valid directory). */
static const struct { const char *name, *proto; } tree_pos[] = {
	{ "manifest.json", "manifest.json" }, { "plan.json", "plan.json" },
	{ "suite.yaml", "suite.yaml" },       { "cells", NULL },
	{ "cells/0001.json", "cells/0001.json" },
	{ "cells/0002.json", "cells/0002.json" },
	{ "cells/0001.json.tmp.7", "cells/0001.json" },
	{ ".iomatrix-tmp.AAAAAAAAAAAA", "plan.json" },
	{ "report", NULL },                   { "report/charts", NULL },
	{ "report/.iomatrix-files", NULL },   { "report/charts/.iomatrix-files", NULL },
	{ "report/report.md", "plan.json" },  { "report/charts/bars-iops-1.svg", "plan.json" },
	{ "report/charts/gnuplot.log", "plan.json" },
	{ "compare", NULL },                  { "compare/compare.md", "plan.json" },
	{ "compare/.iomatrix-files", NULL },
};
#define NPOS (sizeof(tree_pos) / sizeof(tree_pos[0]))

static char tree_base[256];    /* BASE: proto/, set/, outside/, scratch/ */

static int tree_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void tree_rmrf(const char *path)
{
	nftw(path, tree_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void tree_cleanup(void)
{
	if (tree_base[0])
		tree_rmrf(tree_base);
}

static void put(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return;
	if (write(fd, text, len) < 0)
		len = 0;
	close(fd);
}

/* BASE and the prototype set, once per process: a real `run` of a
 * null-engine suite whose device is BASE/scratch. */
static int tree_init(void)
{
	char p[512], out[512];
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	if (tree_base[0])
		return 0;
	snprintf(tree_base, sizeof(tree_base), "%s/iomatrix-tree.XXXXXX", tmp);
	if (!mkdtemp(tree_base)) {
		tree_base[0] = '\0';
		return -1;
	}
	atexit(tree_cleanup);
	snprintf(p, sizeof(p), "%s/scratch", tree_base);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proto.yaml", tree_base);
	char suite[1024];
	int n = snprintf(suite, sizeof(suite),
			 "suite: tree\ndefaults: {engine: null, size: 64KiB, requests: 8}\n"
			 "devices:\n  - {name: d, path: %s/scratch}\n"
			 "include:\n  - {pattern: randread, bs: 4k}\n"
			 "  - {pattern: read, bs: 4k}\n", tree_base);
	put(p, suite, (size_t)n);
	snprintf(out, sizeof(out), "%s/proto", tree_base);
	char *argv[] = { (char *)"run", p, (char *)"--out", out, (char *)"--quiet", NULL };
	FILE *saved = stdout;
	(void)saved;
	return cli_call(cli_find("run"), 5, argv, NULL) == 0 ? 0 : -1;
}

/* One line per entry below dir (type, size, mode, mtime, content hash),
 * not followed into links: what must not change. */
static void snapshot(const char *dir, const char *rel, FILE *out)
{
	char path[1024];
	struct dirent **ents;
	int n;

	snprintf(path, sizeof(path), "%s%s%s", dir, rel[0] ? "/" : "", rel);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char sub[1024], full[2048];
		struct stat st;
		const char *nm = ents[i]->d_name;
		if (!strcmp(nm, ".") || !strcmp(nm, "..")) {
			free(ents[i]);
			continue;
		}
		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", nm);
		snprintf(full, sizeof(full), "%s/%s", dir, sub);
		if (lstat(full, &st) == 0) {
			char hex[65] = "-";
			if (S_ISREG(st.st_mode)) {
				size_t len = 0;
				char *b = fsutil_read_at(AT_FDCWD, full, 1 << 20, 0, &len);
				if (b)
					sha256_hex(b, len, hex);
				free(b);
			}
			fprintf(out, "%s %o %lld %lld.%09ld %s\n", sub, (unsigned)st.st_mode,
				(long long)st.st_size, (long long)st.st_mtim.tv_sec,
				st.st_mtim.tv_nsec, hex);
			if (S_ISDIR(st.st_mode))
				snapshot(dir, sub, out);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static char *snap_all(void)
{
	char *buf = NULL, p[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	/* the tree is BASE/set; everything else in BASE is outside it */
	snapshot(tree_base, "outside", f);
	snprintf(p, sizeof(p), "%s", tree_base);
	DIR *d = opendir(p);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, "set") && strcmp(de->d_name, "outside") &&
		    strcmp(de->d_name, "out") && strcmp(de->d_name, "scratch"))
			fprintf(f, "base: %s\n", de->d_name);
	if (d)
		closedir(d);
	fclose(f);
	return buf;
}

/* outside/: a user's files of every kind iomatrix writes or cleans. */
static void make_outside(void)
{
	static const char *const files[] = {
		"victim.txt", "a.png", "b.svg", "c.gp", "d.dat", "gnuplot.log",
		"report.md", "compare.md", "thesis.tmp.docx", ".iomatrix-tmp.ZZZZZZZZZZZZ",
		"0001.json.tmp.9", "manifest.json", ".iomatrix-files",
	};
	char p[512];
	snprintf(p, sizeof(p), "%s/outside", tree_base);
	tree_rmrf(p);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/outside/dir", tree_base);
	mkdir(p, 0755);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/outside/%s", tree_base, files[i]);
		put(p, "user data\n", 10);
		snprintf(p, sizeof(p), "%s/outside/dir/%s", tree_base, files[i]);
		put(p, "user data\n", 10);
	}
}

static void make_pos(size_t i, enum kind k, const uint8_t *pay, size_t plen)
{
	char path[512], src[512], tgt[512];
	snprintf(path, sizeof(path), "%s/set/%s", tree_base, tree_pos[i].name);
	switch (k) {
	case K_MISSING:
		break;
	case K_VALID:
		if (!tree_pos[i].proto) {
			mkdir(path, 0755);
			break;
		}
		snprintf(src, sizeof(src), "%s/proto/%s", tree_base, tree_pos[i].proto);
		size_t len = 0;
		char *b = fsutil_read_at(AT_FDCWD, src, 1 << 20, 0, &len);
		if (b)
			put(path, b, len);
		free(b);
		break;
	case K_PAYLOAD:
		put(path, (const char *)pay, plen);
		break;
	case K_DIR:
		mkdir(path, 0755);
		break;
	case K_FIFO:
		mkfifo(path, 0644);
		break;
	case K_LINK_FILE:
		snprintf(tgt, sizeof(tgt), "%s/outside/victim.txt", tree_base);
		symlink(tgt, path);
		break;
	case K_LINK_DIR:
		snprintf(tgt, sizeof(tgt), "%s/outside/dir", tree_base);
		symlink(tgt, path);
		break;
	case K_LINK_NEW:
		snprintf(tgt, sizeof(tgt), "%s/outside/new-%zu", tree_base, i);
		symlink(tgt, path);
		break;
	case K_LINK_LOOP:
		symlink(path, path);
		break;
	default:
		break;
	}
}

static void run_cmd(char **argv)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	(void)cli_call(cli_find(argv[0]), argc, argv, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char set[512], out[512], base[512];

	if (size < 1 || tree_init() < 0)
		return 0;
	snprintf(set, sizeof(set), "%s/set", tree_base);
	snprintf(out, sizeof(out), "%s/out", tree_base);
	snprintf(base, sizeof(base), "%s", tree_base);
	tree_rmrf(set);
	tree_rmrf(out);
	mkdir(set, 0755);
	make_outside();
	/* byte i picks position i; the rest is the payload */
	size_t npos = size - 1 < NPOS ? size - 1 : NPOS;
	const uint8_t *pay = data + 1 + npos;
	size_t plen = size - 1 - npos;
	for (size_t i = 0; i < NPOS; i++)
		make_pos(i, i < npos ? (enum kind)(data[1 + i] % K__COUNT) : K_VALID, pay, plen);

	char *before = snap_all();
	bool charts = data[0] & 1;
	char *rep[] = { (char *)"report", set, (char *)"--charts",
			(char *)(charts ? "svg" : "none"), NULL };
	char *cmp[] = { (char *)"compare", set, set, NULL };
	char *cmpo[] = { (char *)"compare", set, set, (char *)"-o", out, NULL };
	char *lst[] = { (char *)"list", base, NULL };
	char *res[] = { (char *)"run", (char *)"--resume", set, (char *)"--quiet", NULL };
	run_cmd(rep);
	run_cmd(cmp);
	if (data[0] & 2)
		run_cmd(cmpo);
	run_cmd(lst);
	run_cmd(res);
	fflush(stdout);
	char *after = snap_all();
	if (!before || !after || strcmp(before, after)) {
		fprintf(stderr, "fuzz_set_tree: something outside the set changed\n"
			"--- before\n%s--- after\n%s", before ? before : "?", after ? after : "?");
		abort();
	}
	free(before);
	free(after);
	return 0;
}
