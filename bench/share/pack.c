/*
 * pack.c - `iomatrix pack`: one set (and optionally its report) as one
 * deterministic tar.gz or tar.zst (pack.h); libarchive writes the format.
 */
#include "pack.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resultset/setout.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "packname.h"
#include "resultset/sums.h"

bool pack_zstd_available(void)
{
	struct archive *a = archive_write_new();
	bool ok = a && archive_write_add_filter_zstd(a) == ARCHIVE_OK;

	if (a)
		archive_write_free(a);
	return ok;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && !strcmp(s + n - m, suffix);
}

/* Read relative path rel below dirfd, following no link. */
static char *read_rel(int dirfd, const char *rel, size_t *len)
{
	const char *slash = strrchr(rel, '/');
	if (!slash)
		return fsutil_read_at(dirfd, rel, PACK_MAX_FILE_BYTES, 0, len);
	char dir[PACK_MAX_PATH + 1];
	size_t n = (size_t)(slash - rel);
	if (n >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(dir, rel, n);
	dir[n] = '\0';
	int fd = fsutil_open_dir_at(dirfd, dir, false, NULL);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	char *data = fsutil_read_at(fd, slash + 1, PACK_MAX_FILE_BYTES, 0, len);
	int e = errno;
	close(fd);
	errno = e;
	return data;
}

/* The set must verify before it travels. */
static int pack_check(int dfd, const char *setdir, bool *warn, char *err,
		      size_t errlen)
{
	struct sums_check c;
	int r = sums_verify_at(dfd, SUMS_SET, &c);

	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", setdir, strerror(-r));
		return r;
	}
	if (c.state == SUMS_NONE)
		*warn = true;
	if (sums_check_failed(&c)) {
		const char *p0 = sums_check_problem(&c, 0);
		char p[256];
		snprintf(err, errlen, "'%s' fails verification (%s%s); "
			 "see 'iomatrix verify %s'", setdir,
			 termesc(p0 ? p0 : "SHA256SUMS", p, sizeof(p)),
			 sums_check_problem(&c, 1) ? ", ..." : "", setdir);
		r = -EINVAL;
	}
	sums_check_release(&c);
	return r;
}

static int add_member(struct archive *a, struct archive_entry *e, int dfd,
		      const char *setname, const char *rel, unsigned long long *total,
		      char *err, size_t errlen)
{
	char name[PACK_MAX_PATH + 1];
	size_t len;
	char *data = read_rel(dfd, rel, &len);

	if (!data) {
		int e2 = errno;
		snprintf(err, errlen, "cannot read '%s/%s': %s", setname, rel,
			 fsutil_strerror(e2));
		return e2 == ENOMEM ? -ENOMEM : -EINVAL;
	}
	if ((*total += len) > PACK_MAX_TOTAL_BYTES) {  /* unpack would refuse it */
		free(data);
		snprintf(err, errlen, "'%s' holds more than %llu bytes, more than a pack may",
			 setname, (unsigned long long)PACK_MAX_TOTAL_BYTES);
		return -EINVAL;
	}
	if ((size_t)snprintf(name, sizeof(name), "%s/%s", setname, rel) >= sizeof(name)) {
		free(data);
		snprintf(err, errlen, "path '%s/%s' is too long for a pack", setname, rel);
		return -EINVAL;
	}
	archive_entry_clear(e);
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, (la_int64_t)len);
	archive_entry_set_mtime(e, 0, 0);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	int r = archive_write_header(a, e) == ARCHIVE_OK &&
		(len == 0 || archive_write_data(a, data, len) == (la_ssize_t)len) ? 0 : -EIO;
	if (r < 0)
		snprintf(err, errlen, "cannot write the pack: %s", archive_error_string(a));
	free(data);
	return r;
}

static int pack_open(struct archive **out, const char *file, FILE *f, char *err,
		     size_t errlen)
{
	struct archive *a = archive_write_new();
	int r;

	if (!a)
		return -ENOMEM;
	if (ends_with(file, ".tar.gz") || ends_with(file, ".tgz")) {
		r = archive_write_add_filter_gzip(a);
		/* no timestamp in the gzip header: the same set, the same bytes */
		if (r == ARCHIVE_OK)
			r = archive_write_set_filter_option(a, "gzip", "timestamp", NULL);
	} else if (ends_with(file, ".tar.zst") || ends_with(file, ".tzst")) {
		if (!pack_zstd_available()) {
			snprintf(err, errlen, "this libarchive cannot write zstd; name the pack FILE.tar.gz");
			archive_write_free(a);
			return -EINVAL;
		}
		r = archive_write_add_filter_zstd(a);
	} else {
		snprintf(err, errlen, "cannot tell the format of '%s': name it FILE.tar.gz%s",
			 file, pack_zstd_available() ? " or FILE.tar.zst" : "");
		archive_write_free(a);
		return -EINVAL;
	}
	if (r == ARCHIVE_OK)
		r = archive_write_set_format_ustar(a);
	/* no zero padding after the compressed stream (libarchive pads the
	 * last block to 10240 bytes by default: gzip -t calls that trailing
	 * garbage and zstd refuses it) */
	if (r == ARCHIVE_OK)
		r = archive_write_set_bytes_in_last_block(a, 1);
	if (r == ARCHIVE_OK)
		r = archive_write_open_FILE(a, f);
	if (r != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot start the pack: %s", archive_error_string(a));
		archive_write_free(a);
		return -EIO;
	}
	*out = a;
	return 0;
}

/* Every path pack would write, checked by unpack's own rules first (so
 * that pack -> unpack round-trips whatever pack writes): each component a
 * name a pack can carry, no deeper than PACK_MAX_DEPTH.  0, or -EINVAL
 * naming the file and the rule. */
static int pack_names_ok(const char *setdir, char **paths, size_t n, char *err,
			 size_t errlen)
{
	char name[256];

	for (size_t i = 0; i < n; i++) {
		size_t depth = 1;
		const char *why = NULL;
		for (const char *s = paths[i]; *s && !why;) {
			size_t k = strcspn(s, "/");
			if (!packname_component_ok(s, k))
				why = "a name outside [A-Za-z0-9._+-] (or '.', '..', over 255 "
				      "bytes), which unpack refuses";
			else if (++depth > PACK_MAX_DEPTH)
				why = "deeper than a set can be, which unpack refuses";
			s += k + (s[k] == '/');
		}
		if (why) {
			snprintf(err, errlen, "'%s' holds '%s': %s; rename or remove it (and "
				 "write the set's SHA256SUMS again)", setdir,
				 termesc(paths[i], name, sizeof(name)), why);
			return -EINVAL;
		}
	}
	return 0;
}

/* Members, then close. */
static int pack_members(struct archive *a, int dfd, const char *setname,
			char **paths, size_t n, char *err, size_t errlen)
{
	struct archive_entry *e = archive_entry_new();
	int r = e ? 0 : -ENOMEM;

	unsigned long long total = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		r = add_member(a, e, dfd, setname, paths[i], &total, err, errlen);
	if (e)
		archive_entry_free(e);
	if (archive_write_close(a) != ARCHIVE_OK && r == 0) {
		snprintf(err, errlen, "cannot write the pack: %s", archive_error_string(a));
		r = -EIO;
	}
	return r;
}

int resultset_pack(const char *setdir, const char *out, bool with_report,
		   bool *warn, char *err, size_t errlen)
{
	char setname[256], **paths = NULL;
	size_t n = 0;
	struct fsutil_atomic af;
	struct archive *a = NULL;
	int r, dfd;

	*warn = false;
	if (packname_of_dir(setdir, setname, sizeof(setname)) < 0) {
		char sd[512];   /* the refused name, as text (termesc.h) */
		snprintf(err, errlen, "'%s' is not a name a pack can carry "
			 "(letters, digits and . _ + - only)", termesc(setdir, sd, sizeof(sd)));
		return -EINVAL;
	}
	dfd = open(setdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || faccessat(dfd, "manifest.json", F_OK, AT_SYMLINK_NOFOLLOW) < 0) {
		snprintf(err, errlen, "'%s' is not a result set (no manifest.json)", setdir);
		if (dfd >= 0)
			close(dfd);
		return -EINVAL;
	}
	if ((r = resultset_output_check(out, NULL, err, errlen)) < 0)
		goto out;
	if ((r = pack_check(dfd, setdir, warn, err, errlen)) < 0)
		goto out;
	if ((r = sums_list_at(dfd, with_report ? 0 : SUMS_SET, true, &paths, &n)) < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", setdir, strerror(-r));
		goto out;
	}
	if ((r = pack_names_ok(setdir, paths, n, err, errlen)) < 0)
		goto out;
	if (n > PACK_MAX_MEMBERS) {   /* unpack would refuse it */
		snprintf(err, errlen, "'%s' holds %zu files, more than a pack may (%d)",
			 setdir, n, PACK_MAX_MEMBERS);
		r = -EINVAL;
		goto out;
	}
	if ((r = fsutil_atomic_begin_at(&af, AT_FDCWD, out)) < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", out, strerror(-r));
		goto out;
	}
	if ((r = pack_open(&a, out, af.f, err, errlen)) == 0)
		r = pack_members(a, dfd, setname, paths, n, err, errlen);
	if (a)
		archive_write_free(a);
	if (r < 0) {
		fsutil_atomic_abort(&af);
	} else if ((r = fsutil_atomic_commit(&af)) < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", out, strerror(-r));
	}
out:
	sums_free_list(paths, n);
	close(dfd);
	return r;
}
