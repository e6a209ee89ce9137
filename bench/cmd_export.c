/*
 * cmd_export.c - `iomatrix export fio SUITE [-o DIR]`: one fio job file per
 * cell (NNNN-<device>-<label>-<pattern>.fio) doing what the cell does, plus
 * run-all.sh running them in order, each repetition to its own JSON file.
 * Readers use these to check our numbers against fio's.
 *
 * Mapping notes (where the two tools differ):
 *  - our `size` is per file and our files are shared by all jobs; fio's
 *    `filesize` is per file, and listing the files in filename= (named as
 *    the runner names them, CELL_FILE_FMT) makes every job use them.
 *  - sequential jobs each own a contiguous slice in our runner: fio gets
 *    size = slice and offset_increment = slice.
 *  - requests and io_size are totals for us, per job for fio: divided.
 *  - with a runtime alone we run until it ends (wrapping around the file),
 *    which is fio's time_based; requests/io_size become io_size (+
 *    number_ios), and runtime caps them; with none, one pass (fio's default).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "suite_cli.h"
#include "units.h"

static void export_usage(FILE *f)
{
	fprintf(f, "usage: iomatrix export fio SUITE.yaml [-o DIR] [--device NAME=PATH]...\n"
		   "                          [--scale F]\n\n"
		   "Write one fio job file per cell of the suite (NNNN-device-label-pattern.fio)\n"
		   "and run-all.sh, which runs them in order with --output-format=json.\n"
		   "DIR defaults to ./fio-SUITE; it is created if needed.\n");
}

static const char *fio_rw(enum pattern p)
{
	switch (p) {
	case PAT_READ: return "read";
	case PAT_WRITE: return "write";
	case PAT_RANDREAD: return "randread";
	case PAT_RANDWRITE: return "randwrite";
	case PAT_READWRITE: return "readwrite";
	case PAT_RANDRW: return "randrw";
	case PAT_REWRITE: return "write"; /* + overwrite=1 */
	default: return "read";
	}
}

/* lower-case, [a-z0-9] kept, runs of anything else -> one '-' */
static void slug(const char *in, char *out, size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (; *in && n + 2 < len; in++) {
		unsigned char c = (unsigned char)*in;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && n)
				out[n++] = '-';
			out[n++] = (char)c;
			dash = false;
		} else if (c >= 'A' && c <= 'Z') {
			if (dash && n)
				out[n++] = '-';
			out[n++] = (char)(c - 'A' + 'a');
			dash = false;
		} else {
			dash = true;
		}
	}
	out[n] = '\0';
}

/* Text for a fio comment: no control characters. */
static void comment_safe(const char *in, char *out, size_t len)
{
	size_t n = 0;
	for (; *in && n + 1 < len; in++)
		out[n++] = ((unsigned char)*in < 0x20 || *in == 0x7f) ? '?' : *in;
	out[n] = '\0';
}

/* fio splits filename= on ':'; escape it. */
static void fio_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == ':' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* Does the device path name a directory?  As the runner decides: an
 * existing directory is one (files CELL_FILE_FMT inside); a path that does
 * not exist yet is the scratch file itself, unless it ends in '/'. */
static bool path_is_dir(const char *p)
{
	struct stat st;
	if (stat(p, &st) < 0)
		return p[0] && p[strlen(p) - 1] == '/';
	return S_ISDIR(st.st_mode);
}

static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static int write_job(const struct suite *s, const struct cell *c,
		     const char *path)
{
	FILE *f = fopen(path, "w");
	char lab[CELL_LABEL_MAX], dev[PATH_MAX + 8], t[32];
	uint64_t size = c->size;

	if (!f)
		return -errno;
	comment_safe(c->label, lab, sizeof(lab));
	comment_safe(c->path, dev, sizeof(dev));
	fprintf(f, "; iomatrix export: cell %d of suite '%s' (sha256 %.16s...)\n"
		   "; device '%s' at %s, label '%s'\n",
		c->id, s->name, s->sha256, c->device, dev, lab);
	units_format_duration(c->cooldown_ns, t, sizeof(t));
	fprintf(f, "; repeat %u, cooldown %s: run-all.sh repeats the job%s\n",
		c->repeat, t, c->drop_caches ? " and drops the page cache first" : "");
	fprintf(f, "[cell-%04d]\n", c->id);
	fprintf(f, "rw=%s\n", fio_rw(c->pattern));
	if (c->pattern == PAT_REWRITE)
		fprintf(f, "overwrite=1\n");
	fprintf(f, "bs=%llu\n", (unsigned long long)c->bs);
	fprintf(f, "ioengine=%s\n", c->engine);
	fprintf(f, "iodepth=%u\n", c->iodepth);
	fprintf(f, "direct=%d\n", c->direct ? 1 : 0);
	fprintf(f, "numjobs=%u\ngroup_reporting=1\n", c->jobs);
	if (path_is_dir(c->path)) {
		/* Every file named explicitly: fio shares a file between jobs
		 * only when it is given by filename= (with directory= and
		 * filename_format the second job of the same names does no IO). */
		size_t dl = strlen(c->path);
		bool slash = dl && c->path[dl - 1] == '/';
		fprintf(f, "filename=");
		for (unsigned i = 0; i < c->files; i++) {
			char fn[CELL_NAME_MAX + 32];
			snprintf(fn, sizeof(fn), CELL_FILE_FMT, c->device, i);
			if (i)
				fputc(':', f);
			fio_escape(f, c->path);
			if (!slash)
				fputc('/', f);
			fio_escape(f, fn);
		}
		fprintf(f, "\n");
	} else {
		fprintf(f, "filename=");
		fio_escape(f, c->path);
		fprintf(f, "\n");
	}
	if (c->size_pct) {
		fprintf(f, "size=%g%%\n", c->size_pct);
	} else if (!pattern_is_random(c->pattern) && c->jobs > 1 && c->files == 1) {
		/* each sequential job owns a contiguous slice of the file */
		uint64_t slice = size / c->jobs;
		slice -= slice % c->bs;
		fprintf(f, "filesize=%llu\nsize=%llu\noffset_increment=%llu\n",
			(unsigned long long)size, (unsigned long long)slice,
			(unsigned long long)slice);
	} else {
		fprintf(f, "filesize=%llu\nsize=%llu\n", (unsigned long long)size,
			(unsigned long long)size * c->files);
	}
	if (c->offset_pct)
		fprintf(f, "offset=%g%%\n", c->offset_pct);
	else if (c->offset)
		fprintf(f, "offset=%llu\n", (unsigned long long)c->offset);
	/* Stop rule, whichever comes first.  fio's time_based ignores io_size
	 * and number_ios, so it is only used for a runtime alone; a count or a
	 * byte total becomes io_size (which wraps around the file as we do)
	 * and runtime then only caps it. */
	if (c->runtime_ns)
		fprintf(f, "%sruntime=%llums\n",
			c->requests || c->io_size ? "" : "time_based=1\n",
			(unsigned long long)(c->runtime_ns / 1000000ULL));
	if (c->ramp_ns)
		fprintf(f, "ramp_time=%llums\n", (unsigned long long)(c->ramp_ns / 1000000ULL));
	if (c->requests || c->io_size) {
		uint64_t per = UINT64_MAX;
		if (c->io_size) {
			per = c->io_size / c->jobs;
			per -= per % c->bs;
			if (!per)
				per = c->bs;
		}
		if (c->requests) {
			uint64_t n = (c->requests + c->jobs - 1) / c->jobs;
			fprintf(f, "number_ios=%llu\n", (unsigned long long)n);
			if (n <= UINT64_MAX / c->bs && n * c->bs < per)
				per = n * c->bs;
		}
		fprintf(f, "io_size=%llu\n", (unsigned long long)per);
	}
	if (pattern_is_mixed(c->pattern))
		fprintf(f, "rwmixread=%u\n", c->rwmixread);
	if (c->fsync)
		fprintf(f, "fsync=%u\n", c->fsync);
	if (c->end_fsync)
		fprintf(f, "end_fsync=1\n");
	switch (c->data) {
	case DATA_ZERO:
		fprintf(f, "zero_buffers=1\n");
		break;
	case DATA_COMPRESSIBLE:
		fprintf(f, "buffer_compress_percentage=%u\nrefill_buffers=1\n",
			c->compress_pct);
		break;
	case DATA_RANDOM:
		fprintf(f, "refill_buffers=1\n");
		break;
	}
	fprintf(f, "randrepeat=1\nrandseed=%llu\n", (unsigned long long)c->seed);
	if (c->drop_caches)
		fprintf(f, "invalidate=1\n");
	if (ferror(f)) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

static int export_fio(const struct suite *s, const char *dir)
{
	char path[PATH_MAX + 300], name[256], sl[128], ds[80];
	FILE *sh;

	if (strlen(dir) >= PATH_MAX - 300) {
		fprintf(stderr, "iomatrix export: directory name too long\n");
		return EXIT_USAGE;
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "iomatrix export: cannot create '%s': %s\n", dir,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < s->ncells; i++)
		if (strpbrk(s->cells[i].path, "\n\r")) {
			fprintf(stderr, "iomatrix export: device '%s' path contains a newline; fio job files cannot hold it\n",
				s->cells[i].device);
			return EXIT_USAGE;
		}
	snprintf(path, sizeof(path), "%s/run-all.sh", dir);
	sh = fopen(path, "w");
	if (!sh) {
		fprintf(stderr, "iomatrix export: cannot write '%s': %s\n", path,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	fprintf(sh, "#!/bin/sh\n"
		    "# Run the fio equivalent of every cell of suite '%s' in order.\n"
		    "# Each repetition writes NNNN-....repN.json next to this script.\n"
		    "# Generated by iomatrix export fio; needs fio 3.x.\n"
		    "# Device paths are used as the suite gives them: relative ones are\n"
		    "# relative to where you run this script, as with 'iomatrix run'.\n"
		    "set -e\nD=$(dirname \"$0\")\n", s->name);
	for (size_t d = 0; d < s->ndevices; d++)
		if (path_is_dir(s->devices[d].path)) {
			fprintf(sh, "mkdir -p ");
			sh_quote(sh, s->devices[d].path);
			fprintf(sh, "\n");
		}
	for (size_t i = 0; i < s->ncells; i++) {
		const struct cell *c = &s->cells[i];
		int rc;
		slug(c->label, sl, sizeof(sl));
		slug(c->device, ds, sizeof(ds));
		snprintf(name, sizeof(name), "%04d-%s-%s-%s", c->id, ds, sl,
			 pattern_name(c->pattern));
		snprintf(path, sizeof(path), "%s/%s.fio", dir, name);
		if ((rc = write_job(s, c, path)) < 0) {
			fprintf(stderr, "iomatrix export: cannot write '%s': %s\n",
				path, strerror(-rc));
			fclose(sh);
			return EXIT_RUNTIME;
		}
		fprintf(sh, "for rep in $(seq 1 %u); do\n", c->repeat);
		if (c->drop_caches)
			fprintf(sh, "\tsync; echo 3 > /proc/sys/vm/drop_caches || true\n");
		fprintf(sh, "\tfio --output-format=json --output=\"$D/%s.rep$rep.json\" \"$D/%s.fio\"\n",
			name, name);
		if (c->cooldown_ns && c->repeat > 1)
			fprintf(sh, "\t[ $rep = %u ] || sleep %.3f\n", c->repeat,
				(double)c->cooldown_ns / 1e9);
		fprintf(sh, "done\n");
	}
	if (ferror(sh) | fclose(sh)) {
		fprintf(stderr, "iomatrix export: cannot write run-all.sh\n");
		return EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "%s/run-all.sh", dir);
	chmod(path, 0755);
	printf("%s: %zu fio job files and run-all.sh\n", dir, s->ncells);
	return EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
	struct suite_cli o;
	struct errlist errs = ERRLIST_INIT;
	struct suite *s = NULL;
	char dir[PATH_MAX];
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		export_usage(stdout);
		return EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "fio")) {
		fprintf(stderr, "iomatrix export: %s%s%s; the only format is 'fio'\n",
			argc < 2 ? "give a format" : "unknown format '",
			argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
		export_usage(stderr);
		return EXIT_USAGE;
	}
	if (suite_cli_parse(argc - 1, argv + 1, SCLI_OUT, "export", &o))
		return EXIT_USAGE;
	if (o.nfiles != 1) {
		fprintf(stderr, "iomatrix export: give exactly one suite file\n");
		goto out;
	}
	struct suite_opts so = suite_cli_opts(&o);
	if (suite_load(o.files[0], &so, &s, &errs) < 0) {
		errlist_print(&errs, stderr);
		goto out;
	}
	if (o.outdir)
		snprintf(dir, sizeof(dir), "%s", o.outdir);
	else
		snprintf(dir, sizeof(dir), "fio-%s", s->name);
	rc = export_fio(s, dir);
out:
	suite_free(s);
	errlist_release(&errs);
	suite_cli_release(&o);
	return rc;
}
