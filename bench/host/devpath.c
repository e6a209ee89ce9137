/*
 * devpath.c - refuse non-block paths on /dev's filesystem (devpath.h).
 * "On /dev's filesystem" is decided by device number, not by spelling:
 * /dev/shm is its own tmpfs mount and stays allowed (and is reported as
 * RAM), a devtmpfs mounted elsewhere is caught, and /dev/../tmp is not.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "util/sbuf.h"
#include "util/suggest.h"
#include "devpath.h"

/* Is st_dev that of a mount whose type is devtmpfs? */
static bool dev_is_devtmpfs(dev_t dev)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	bool yes = false;

	if (!f)
		return false;
	while (!yes && getline(&line, &cap, f) > 0) {
		unsigned ma, mi;
		char fstype[64];
		const char *dash = strstr(line, " - ");

		if (sscanf(line, "%*d %*d %u:%u", &ma, &mi) == 2 && dash &&
		    sscanf(dash + 3, "%63s", fstype) == 1 && makedev(ma, mi) == dev)
			yes = !strcmp(fstype, "devtmpfs");
	}
	free(line);
	fclose(f);
	return yes;
}

static bool dev_is_devfs(dev_t dev)
{
	struct stat d, root;

	/* /dev counts only when it is its own mount: in a chroot whose /dev
	 * is a plain directory everything would match the root */
	if (stat("/dev", &d) == 0 && stat("/", &root) == 0 &&
	    d.st_dev != root.st_dev && d.st_dev == dev)
		return true;
	return dev_is_devtmpfs(dev);
}

/* The block device in dir whose name is nearest to `want`, or "". */
static void nearest_blockdev(const char *dir, const char *want, char *out,
			     size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t best = (size_t)-1;
	char name[NAME_MAX + 1] = "";

	out[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		struct stat st;
		size_t dist;

		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >= sizeof(p) ||
		    stat(p, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		dist = suggest_distance(want, e->d_name);
		/* ties: the shorter, then the smaller name, so the answer
		 * does not depend on readdir's order */
		if (dist < best || (dist == best &&
		    (strlen(e->d_name) < strlen(name) ||
		     (strlen(e->d_name) == strlen(name) && strcmp(e->d_name, name) < 0)))) {
			best = dist;
			strfmt(name, sizeof(name), "%s", e->d_name);
		}
	}
	closedir(d);
	/* a far guess is worse than none: it may name the system disk */
	if (name[0] && best <= (strlen(want) > 3 ? strlen(want) / 2 : 1))
		strfmt(out, len, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
}

static const char *kind_of(mode_t m)
{
	return S_ISCHR(m) ? "a character device" : S_ISDIR(m) ? "a directory" :
	       S_ISREG(m) ? "a regular file" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : "a special file";
}

/* Split probe at its last '/' (trailing ones dropped): probe becomes the
 * directory, want the name.  -1 when there is no '/'. */
static int split_last(char *probe, char *want, size_t wlen)
{
	size_t n = strlen(probe);
	char *slash;

	while (n > 1 && probe[n - 1] == '/')
		probe[--n] = '\0';
	slash = strrchr(probe, '/');
	if (!slash)
		return -1;
	strfmt(want, wlen, "%s", slash + 1);
	if (slash == probe)
		probe[1] = '\0';
	else
		*slash = '\0';
	return 0;
}

int devpath_check(const char *path, char *err, size_t errlen)
{
	char probe[PATH_MAX], want[NAME_MAX + 1] = "", near[PATH_MAX], what[64] = "";
	struct stat st;
	bool missing = false;

	if (!path[0])
		return 0;
	strfmt(probe, sizeof(probe), "%s", path);
	if (stat(path, &st) == 0) {
		if (S_ISBLK(st.st_mode) || !dev_is_devfs(st.st_dev))
			return 0;
		strfmt(what, sizeof(what), " (it is %s)", kind_of(st.st_mode));
		if (split_last(probe, want, sizeof(want)) < 0)
			strfmt(probe, sizeof(probe), ".");
	} else {
		/* the nearest existing ancestor decides where a new file
		 * would land; the first missing name is what was meant */
		do {
			if (split_last(probe, want, sizeof(want)) < 0)
				return 0; /* relative and nothing of it exists */
		} while (stat(probe, &st) < 0);
		if (!dev_is_devfs(st.st_dev))
			return 0;
		missing = true;
	}
	nearest_blockdev(probe, want, near, sizeof(near));
	strfmt(err, errlen, "no block device %s%s%s%s%s iomatrix never creates files in /dev "
	       "(it is memory): give a block device (lsblk lists them) or a directory on a disk",
	       path, missing ? " on this machine" : what, near[0] ? "; did you mean " : "",
	       near, near[0] ? "?" : ";");
	return missing ? DEVPATH_MISSING : -1;
}
