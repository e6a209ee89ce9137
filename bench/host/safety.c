/*
 * safety.c - the block-device guard and the results-directory check (see
 * safety.h).  Mount, swap and holder information comes from
 * /proc/self/mountinfo, /proc/swaps and /sys/block/X/holders, compared by
 * device number so that /dev/disk/by-id/... links and partitions count.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/sbuf.h"
#include "fingerprint.h"
#include "safety.h"
#include "scratch.h"
#include "signature.h"

#define MAX_DEVS 256

/* The device and, for a whole disk, its partitions. */
struct devset {
	dev_t dev[MAX_DEVS];
	char sysdir[MAX_DEVS][PATH_MAX];
	char name[MAX_DEVS][64];
	size_t n;
};

static bool devset_has(const struct devset *s, dev_t d, size_t *idx)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i] == d) {
			if (idx)
				*idx = i;
			return true;
		}
	return false;
}

static void devset_fill(struct devset *s, const struct blkdev *b)
{
	DIR *d;
	struct dirent *e;

	s->n = 0;
	s->dev[0] = b->dev;
	strfmt(s->sysdir[0], sizeof(s->sysdir[0]), "%s", b->sysdir);
	strfmt(s->name[0], sizeof(s->name[0]), "%s", b->name);
	s->n = 1;
	if (b->partition)
		return;
	d = opendir(b->sysdir);
	if (!d)
		return;
	while ((e = readdir(d)) && s->n < MAX_DEVS) {
		char path[PATH_MAX], buf[64];
		unsigned ma, mi;

		if (e->d_name[0] == '.')
			continue;
		strfmt(path, sizeof(path), "%s/%s/partition", b->sysdir, e->d_name);
		if (access(path, F_OK) < 0)
			continue;
		strfmt(path, sizeof(path), "%s/%s/dev", b->sysdir, e->d_name);
		if (sysfs_read(path, buf, sizeof(buf)) < 0 ||
		    sscanf(buf, "%u:%u", &ma, &mi) != 2)
			continue;
		s->dev[s->n] = makedev(ma, mi);
		strfmt(s->sysdir[s->n], sizeof(s->sysdir[0]), "%s/%s", b->sysdir,
		       e->d_name);
		strfmt(s->name[s->n], sizeof(s->name[0]), "%s", e->d_name);
		s->n++;
	}
	closedir(d);
}

/* Mount point of any device of s, or -1. */
static int find_mount(const struct devset *s, char *mp_out, size_t mplen,
		      size_t *which)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && getline(&line, &cap, f) > 0) {
		unsigned ma, mi;
		char mp[PATH_MAX], *dash, src[PATH_MAX];
		struct stat st;

		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &ma, &mi, mp) != 3)
			continue;
		if (devset_has(s, makedev(ma, mi), which)) {
			strfmt(mp_out, mplen, "%s", mp);
			found = 0;
			break;
		}
		/* btrfs reports an anonymous device: compare the source */
		dash = strstr(line, " - ");
		if (dash && sscanf(dash + 3, "%*s %4095s", src) == 1 &&
		    src[0] == '/' && stat(src, &st) == 0 && S_ISBLK(st.st_mode) &&
		    devset_has(s, st.st_rdev, which)) {
			strfmt(mp_out, mplen, "%s", mp);
			found = 0;
		}
	}
	free(line);
	fclose(f);
	return found;
}

static int find_swap(const struct devset *s, size_t *which)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[PATH_MAX + 128], file[PATH_MAX];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct stat st;
		if (sscanf(line, "%4095s", file) != 1 || file[0] != '/')
			continue; /* header line */
		if (stat(file, &st) == 0 && S_ISBLK(st.st_mode) &&
		    devset_has(s, st.st_rdev, which)) {
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

/* First holder (dm-0, md0...) of any device of s, or -1. */
static int find_holder(const struct devset *s, char *holder, size_t hlen,
		       size_t *which)
{
	for (size_t i = 0; i < s->n; i++) {
		char path[PATH_MAX + 16];
		DIR *d;
		struct dirent *e;

		strfmt(path, sizeof(path), "%s/holders", s->sysdir[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			strfmt(holder, hlen, "%s", e->d_name);
			closedir(d);
			*which = i;
			return 0;
		}
		closedir(d);
	}
	return -1;
}

/* What kind of device a holder is ("dm-0" -> " (device-mapper 'vg-lv':
 * LVM, crypt or multipath)", "md0" -> " (RAID array)"), or "". */
static void holder_kind(const char *holder, char *out, size_t len)
{
	char path[PATH_MAX], dm[128];

	out[0] = '\0';
	if (!strncmp(holder, "md", 2)) {
		strfmt(out, len, " (RAID array)");
		return;
	}
	strfmt(path, sizeof(path), "/sys/block/%s/dm/name", holder);
	if (sysfs_read(path, dm, sizeof(dm)) == 0)
		strfmt(out, len, " (device-mapper '%s': LVM, crypt or multipath)", dm);
}

/* "/dev/X holds ...", then each partition's signatures. */
static void devset_signatures(const struct devset *s, const char *path,
			      char *out, size_t len)
{
	char one[1024], dev[PATH_MAX];
	size_t n;

	signature_describe(path, one, sizeof(one));
	n = (size_t)strfmt(out, len, "%s holds %s", path, one);
	for (size_t i = 1; i < s->n && n < len; i++) {
		strfmt(dev, sizeof(dev), "/dev/%s", s->name[i]);
		signature_describe(dev, one, sizeof(one));
		n += (size_t)strfmt(out + n, len - n, "; its partition %s holds %s", dev, one);
	}
}

/* Does the kernel refuse an exclusive open (EBUSY)?  It knows claims that
 * mountinfo and sysfs do not show: a filesystem mounted in another mount
 * namespace (a container), a device a program opened with O_EXCL. */
static bool device_claimed(const char *path)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == EBUSY;
}

int safety_describe_device(const char *path, char *out, size_t len)
{
	struct stat st;
	struct blkdev b;
	struct devset *s;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	if (blkdev_resolve(st.st_rdev, &b) == 0)
		devset_fill(s, &b);
	else
		s->n = 1;
	devset_signatures(s, path, out, len);
	free(s);
	return 0;
}

int safety_check_device(const char *name, const char *path, bool writes,
			bool destructive, bool yes_destroy_data, char *err,
			size_t errlen)
{
	struct stat st;
	struct blkdev b;
	struct devset *s;
	char where[PATH_MAX];
	size_t which = 0;
	int ret = -1;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0; /* files and directories: nothing to guard */
	s = calloc(1, sizeof(*s));
	if (!s) {
		strfmt(err, errlen, "out of memory");
		return -1;
	}
	if (blkdev_resolve(st.st_rdev, &b) == 0) {
		devset_fill(s, &b);
	} else {
		s->dev[0] = st.st_rdev;
		strfmt(s->name[0], sizeof(s->name[0]), "%s", path);
		s->n = 1;
	}

	if (find_mount(s, where, sizeof(where), &which) == 0) {
		if (which == 0)
			strfmt(err, errlen,
			       "device '%s': '%s' is mounted on '%s'; unmount it first, or benchmark a directory on that filesystem instead",
			       name, path, where);
		else
			strfmt(err, errlen,
			       "device '%s': '%s' has partition '%s' mounted on '%s'; unmount it first, or benchmark a directory on that filesystem instead",
			       name, path, s->name[which], where);
		goto out;
	}
	if (find_swap(s, &which) == 0) {
		strfmt(err, errlen,
		       "device '%s': '%s'%s%s is used as swap; run swapoff first",
		       name, path, which ? " partition " : "",
		       which ? s->name[which] : "");
		goto out;
	}
	if (find_holder(s, where, sizeof(where), &which) == 0) {
		char what[160];
		holder_kind(where, what, sizeof(what));
		strfmt(err, errlen,
		       "device '%s': '%s' (%s) is a member of an active stack: held by '%s'%s; "
		       "--yes-destroy-data does not override this: stop that device first "
		       "(umount, vgchange -an, mdadm --stop or cryptsetup close)",
		       name, path, s->name[which], where, what);
		goto out;
	}
	if (device_claimed(path)) {
		strfmt(err, errlen,
		       "device '%s': '%s' is in use: the kernel reports it claimed (mounted, "
		       "maybe in another mount namespace or a container, or held by a "
		       "program or a device stack) although this namespace shows no mount; "
		       "--yes-destroy-data does not override this: release it first",
		       name, path);
		goto out;
	}
	if (writes && (!destructive || !yes_destroy_data)) {
		char *held = malloc(SAFETY_HOLDS_MAX);
		if (held)
			devset_signatures(s, path, held, SAFETY_HOLDS_MAX);
		strfmt(err, errlen,
		       "device '%s': writing to block device '%s' destroys its data (%s); %s",
		       name, path, held ? held : "its signatures are unknown: out of memory",
		       !destructive ? "add 'destructive: true' to the device in the suite and pass --yes-destroy-data" :
		       "pass --yes-destroy-data to confirm");
		free(held);
		goto out;
	}
	ret = 0;
out:
	free(s);
	return ret;
}

int safety_check_results_dir(const char *dir, char *err, size_t errlen)
{
	char probe[PATH_MAX];
	struct statvfs vfs;
	struct stat st;

	/* the nearest existing ancestor decides */
	strfmt(probe, sizeof(probe), "%s", dir[0] ? dir : ".");
	while (stat(probe, &st) < 0) {
		char *slash = strrchr(probe, '/');
		if (!slash) {
			strcpy(probe, ".");
			break;
		}
		if (slash == probe) {
			probe[1] = '\0';
			break;
		}
		*slash = '\0';
	}
	if (stat(probe, &st) == 0 && !S_ISDIR(st.st_mode)) {
		strfmt(err, errlen,
		       "results directory '%s': '%s' is not a directory; use --out DIR or set IOMATRIX_RESULTS",
		       dir, probe);
		return -1;
	}
	/* a kernel filesystem holds no data: /proc reports 0 blocks free,
	 * and "is full" would send the user to delete files */
	const char *pseudo = safety_pseudo_fs(probe);
	if (pseudo) {
		strfmt(err, errlen,
		       "results directory '%s' is on %s ('%s'), a kernel pseudo filesystem that holds no files; use --out DIR on a disk or set IOMATRIX_RESULTS",
		       dir, pseudo, probe);
		return -1;
	}
	if (statvfs(probe, &vfs) == 0) {
		if (vfs.f_flag & ST_RDONLY) {
			strfmt(err, errlen,
			       "results directory '%s' is on a read-only filesystem; use --out DIR or set IOMATRIX_RESULTS",
			       dir);
			return -1;
		}
		unsigned long long avail =
			(unsigned long long)(geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail) *
			vfs.f_frsize;
		if (vfs.f_blocks == 0) {
			/* no blocks at all: not a disk filesystem (one the
			 * table above does not name), not a full one */
			strfmt(err, errlen,
			       "results directory '%s' is on a filesystem without data blocks ('%s'), not a disk; use --out DIR on a disk or set IOMATRIX_RESULTS",
			       dir, probe);
			return -1;
		}
		if (avail < SAFETY_RESULTS_MIN_FREE) {
			strfmt(err, errlen,
			       "results directory '%s' is full (%llu KiB free); free some space, or use --out DIR or IOMATRIX_RESULTS",
			       dir, avail / 1024);
			return -1;
		}
	}
	if (access(probe, W_OK | X_OK) < 0) {
		strfmt(err, errlen,
		       "results directory '%s' is not writable (%s); use --out DIR or set IOMATRIX_RESULTS",
		       dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Filesystems that hold kernel state, not data.  Magic numbers from
 * linux/magic.h; the ones older headers lack are spelled out. */
static const struct { unsigned long magic; const char *name; } pseudo_fs[] = {
	{ PROC_SUPER_MAGIC, "procfs" },     { SYSFS_MAGIC, "sysfs" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },   { DEBUGFS_MAGIC, "debugfs" },
	{ 0x74726163, "tracefs" },          { SECURITYFS_MAGIC, "securityfs" },
	{ 0x27e0eb, "cgroup" },             { 0x63677270, "cgroup2" },
	{ 0xcafe4a11, "bpf" },              { 0x6165676c, "pstore" },
	{ 0xde5e81e4, "efivarfs" },         { 0x62656570, "configfs" },
	{ 0x42494e4d, "binfmt_misc" },      { SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },         { 0x6e736673, "nsfs" },
	{ 0x65735543, "fusectl" },          { 0x19800202, "mqueue" },
	{ USBDEVICE_SUPER_MAGIC, "usbdevfs" },
};

const char *safety_pseudo_fs(const char *path)
{
	struct statfs sf;
	char dir[PATH_MAX];

	if (statfs(path, &sf) < 0) {
		/* a file to be made: its directory decides */
		strfmt(dir, sizeof(dir), "%s", path);
		char *slash = strrchr(dir, '/');
		if (!slash)
			strfmt(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (statfs(dir, &sf) < 0)
			return NULL;
	}
	for (size_t i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)sf.f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

int safety_check_target(const char *name, const char *path, bool writes,
			bool io, bool destructive, bool yes_destroy_data,
			char *err, size_t errlen)
{
	struct stat st;
	const char *fs = safety_pseudo_fs(path);

	if (fs) {
		strfmt(err, errlen,
		       "device '%s': '%s' is on %s, a kernel pseudo filesystem, not storage; point the device at a directory, file or block device",
		       name, path, fs);
		return -1;
	}
	if (stat(path, &st) < 0 || S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode))
		return 0; /* absent (made by the runner), a directory, or guarded above */
	if (!S_ISREG(st.st_mode)) {
		if (!io)
			return 0; /* the null engine opens nothing */
		strfmt(err, errlen,
		       "device '%s': '%s' is a %s, not a directory, regular file or block device; only engine null accepts it",
		       name, path, S_ISCHR(st.st_mode) ? "character device" :
		       S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ? "socket" :
		       "special file");
		return -1;
	}
	if (!writes || !io || scratch_path_is_ours(path))
		return 0;
	if (!destructive) {
		strfmt(err, errlen,
		       "device '%s': '%s' is an existing file that iomatrix did not make, and writing overwrites its contents; add 'destructive: true' to the device in the suite and pass --yes-destroy-data, or point the device at a directory",
		       name, path);
		return -1;
	}
	if (!yes_destroy_data) {
		strfmt(err, errlen,
		       "device '%s': writing to existing file '%s' destroys its contents; pass --yes-destroy-data to confirm",
		       name, path);
		return -1;
	}
	return 0;
}
