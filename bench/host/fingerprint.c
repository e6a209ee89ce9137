/*
 * fingerprint.c - host, tool and device fingerprints for the manifest, from
 * procfs and sysfs.  Missing information becomes JSON null: a fingerprint
 * must never stop a run (containers and VMs hide much of sysfs).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <yaml.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "util/ramkind.h"
#include "util/sbuf.h"
#include "util/version.h"
#include "fingerprint.h"
#include "fpkeys.h"
#include "util/sha256.h"
#include "util/jsonw.h"

int sysfs_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	/* one line, trimmed: sysfs pads some values (model) with spaces */
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	size_t l = strlen(buf);
	while (l > 0 && isspace((unsigned char)buf[l - 1]))
		buf[--l] = '\0';
	size_t s = 0;
	while (buf[s] && isspace((unsigned char)buf[s]))
		s++;
	if (s)
		memmove(buf, buf + s, l - s + 1);
	return 0;
}

/* Add a string read from a file, or null. */
static void add_file_str(cJSON *o, const char *key, const char *path)
{
	char buf[256];

	if (sysfs_read(path, buf, sizeof(buf)) == 0 && buf[0])
		cJSON_AddStringToObject(o, key, buf);
	else
		cJSON_AddNullToObject(o, key);
}

/* k: v, or null when v is NULL or "" */
static void add_str_or_null(cJSON *o, const char *key, const char *v)
{
	jsonw_str(o, key, v && *v ? v : NULL);
}

static int read_u64(const char *path, unsigned long long *v)
{
	char buf[64], *end;

	if (sysfs_read(path, buf, sizeof(buf)) < 0 || !buf[0])
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return (errno || *end) ? -1 : 0;
}

/* Value of "key : value" line in /proc/cpuinfo, first match. */
static int cpuinfo_value(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	size_t kl = strlen(key);
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) || (line[kl] != ' ' && line[kl] != '\t' &&
					       line[kl] != ':'))
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		strfmt(out, len, "%s", colon);
		out[strcspn(out, "\n")] = '\0';
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static bool cpuinfo_has_flag(const char *flag)
{
	char flags[8192];
	char pat[64];

	/* flags line is long; read it whole */
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;
	if (!f)
		return false;
	strfmt(pat, sizeof(pat), " %s", flag);
	while (fgets(flags, sizeof(flags), f)) {
		if (strncmp(flags, "flags", 5))
			continue;
		flags[strcspn(flags, "\n")] = '\0';
		strcat(flags, " "); /* room: fgets left at least one byte */
		char *p = strstr(flags, pat);
		while (p) {
			char after = p[strlen(pat)];
			if (after == ' ' || after == '\0') {
				found = true;
				break;
			}
			p = strstr(p + 1, pat);
		}
		break;
	}
	fclose(f);
	return found;
}

static bool contains_ci(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

/*
 * Virtualization, the way systemd-detect-virt does it: the CPUID hypervisor
 * leaf, then DMI vendor strings, then Xen.  Containers are reported apart
 * (detect_container): a container in a VM is both.  NULL on bare metal.
 */
static const char *detect_container(char *buf, size_t len)
{
	if (access("/.dockerenv", F_OK) == 0)
		return "docker";
	if (access("/run/.containerenv", F_OK) == 0)
		return "podman";
	if (sysfs_read("/run/systemd/container", buf, len) == 0 && buf[0])
		return buf;
	return NULL;
}

/* A hypervisor's name by a mark it leaves: its CPUID signature (leaf
 * 0x40000000, x86 only) or a string in a DMI table (a substring, any
 * case). */
struct virt_mark {
	const char *mark, *name;
};

static const struct virt_mark virt_cpuid[] = {
	{ "KVMKVMKVM", "kvm" },       { "Microsoft Hv", "microsoft" },
	{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" },
	{ "TCGTCGTCGTCG", "qemu" },   { "bhyve bhyve ", "bhyve" },
	{ "VBoxVBoxVBox", "oracle" },
};
static const struct virt_mark virt_dmi[] = {
	{ "KVM", "kvm" },          { "QEMU", "qemu" },
	{ "VMware", "vmware" },    { "VirtualBox", "oracle" },
	{ "innotek", "oracle" },   { "Xen", "xen" },
	{ "Microsoft Corporation", "microsoft" },
	{ "Amazon EC2", "amazon" }, { "Google", "google" },
	{ "Parallels", "parallels" }, { "Bochs", "bochs" },
};

/* The hypervisor named by its CPUID signature, or NULL. */
static const char *virt_by_cpuid(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return NULL;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (size_t i = 0; i < sizeof(virt_cpuid) / sizeof(virt_cpuid[0]); i++)
		if (!strcmp(sig, virt_cpuid[i].mark))
			return virt_cpuid[i].name;
#endif
	return NULL;
}

static const char *detect_virt(void)
{
	const char *name = virt_by_cpuid();
	char v[256];

	if (name)
		return name;
	static const char *const files[] = {
		"/sys/class/dmi/id/product_name", "/sys/class/dmi/id/sys_vendor",
		"/sys/class/dmi/id/board_vendor", "/sys/class/dmi/id/bios_vendor",
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (sysfs_read(files[i], v, sizeof(v)) < 0)
			continue;
		for (size_t j = 0; j < sizeof(virt_dmi) / sizeof(virt_dmi[0]); j++)
			if (contains_ci(v, virt_dmi[j].mark))
				return virt_dmi[j].name;
	}
	if (sysfs_read("/sys/hypervisor/type", v, sizeof(v)) == 0 &&
	    !strcmp(v, "xen"))
		return "xen";
	if (cpuinfo_has_flag("hypervisor"))
		return "vm-other"; /* a hypervisor, but one we cannot name */
	return NULL;
}

cJSON *fingerprint_host(void)
{
	cJSON *h = cJSON_CreateObject();
	struct utsname u;
	char buf[512], vbuf[128];
	unsigned long long memkb = 0;

	if (!h)
		return NULL;
	if (gethostname(buf, sizeof(buf) - 1) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		cJSON_AddStringToObject(h, "hostname", buf);
	} else {
		cJSON_AddNullToObject(h, "hostname");
	}
	if (uname(&u) == 0) {
		cJSON_AddStringToObject(h, "kernel", u.release);
		cJSON_AddStringToObject(h, "kernel_version", u.version);
		cJSON_AddStringToObject(h, "arch", u.machine);
	} else {
		cJSON_AddNullToObject(h, "kernel");
		cJSON_AddNullToObject(h, "kernel_version");
		cJSON_AddNullToObject(h, "arch");
	}

	/* os: PRETTY_NAME of os-release */
	FILE *f = fopen("/etc/os-release", "r");
	if (!f)
		f = fopen("/usr/lib/os-release", "r");
	bool have_os = false;
	if (f) {
		while (fgets(buf, sizeof(buf), f)) {
			if (strncmp(buf, "PRETTY_NAME=", 12))
				continue;
			char *v = buf + 12;
			v[strcspn(v, "\n")] = '\0';
			size_t l = strlen(v);
			if (l >= 2 && (v[0] == '"' || v[0] == '\'') && v[l - 1] == v[0]) {
				v[l - 1] = '\0';
				v++;
			}
			cJSON_AddStringToObject(h, "os", v);
			have_os = true;
			break;
		}
		fclose(f);
	}
	if (!have_os)
		cJSON_AddNullToObject(h, "os");

	if (cpuinfo_value("model name", buf, sizeof(buf)) == 0 ||
	    cpuinfo_value("Model", buf, sizeof(buf)) == 0 ||
	    cpuinfo_value("cpu model", buf, sizeof(buf)) == 0 ||
	    cpuinfo_value("Hardware", buf, sizeof(buf)) == 0)
		cJSON_AddStringToObject(h, "cpu_model", buf);
	else
		cJSON_AddNullToObject(h, "cpu_model");
	cJSON_AddNumberToObject(h, "cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));

	f = fopen("/proc/meminfo", "r");
	if (f) {
		while (fgets(buf, sizeof(buf), f))
			if (sscanf(buf, "MemTotal: %llu kB", &memkb) == 1)
				break;
		fclose(f);
	}
	if (memkb)
		cJSON_AddNumberToObject(h, "mem_bytes", (double)memkb * 1024.0);
	else
		cJSON_AddNullToObject(h, "mem_bytes");
	add_file_str(h, "governor",
		     "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	add_str_or_null(h, "virtualization", detect_virt());
	add_str_or_null(h, "container", detect_container(vbuf, sizeof(vbuf)));
	fp_fill_nulls(h, fp_host_keys);
	return h;
}

cJSON *fingerprint_tool(void)
{
	return fingerprint_tool_build(iomatrix_version, iomatrix_git_commit,
				      iomatrix_compiler);
}

cJSON *fingerprint_tool_build(const char *version, const char *git_commit,
			      const char *compiler)
{
	cJSON *t = cJSON_CreateObject(), *libs;

	if (!t)
		return NULL;
	cJSON_AddStringToObject(t, "name", "iomatrix");
	cJSON_AddStringToObject(t, "version", version ? version : "unknown");
	cJSON_AddStringToObject(t, "git_commit", git_commit ? git_commit : "unknown");
	cJSON_AddStringToObject(t, "compiler", compiler ? compiler : "unknown");
	libs = cJSON_AddObjectToObject(t, "libs");
	if (!libs)
		return t;
	/* libaio has no version API; record that it is linked. */
	cJSON_AddStringToObject(libs, "libaio", "linked");
#ifdef HAVE_LIBURING
#if defined(IO_URING_VERSION_MAJOR)
	char v[32];
	strfmt(v, sizeof(v), "%d.%d", io_uring_major_version(),
		 io_uring_minor_version());
	cJSON_AddStringToObject(libs, "liburing", v);
#else
	/* liburing < 2.4 has no version API */
	cJSON_AddStringToObject(libs, "liburing", "<2.4");
#endif
#else
	cJSON_AddNullToObject(libs, "liburing");
#endif
	cJSON_AddStringToObject(libs, "libyaml", yaml_get_version_string());
	cJSON_AddStringToObject(libs, "cjson", cJSON_Version());
	return t;
}

int blkdev_resolve(dev_t dev, struct blkdev *out)
{
	char link[128], real[PATH_MAX], part[PATH_MAX + 16];

	memset(out, 0, sizeof(*out));
	out->dev = dev;
	if (major(dev) == 0)
		return -ENOENT; /* anonymous device: tmpfs, overlay, btrfs subvol */
	strfmt(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (!realpath(link, real))
		return -errno;
	strfmt(out->sysdir, sizeof(out->sysdir), "%s", real);
	const char *base = strrchr(real, '/');
	strfmt(out->name, sizeof(out->name), "%s", base ? base + 1 : real);
	strfmt(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK) == 0 && base) {
		out->partition = true;
		real[base - real] = '\0';
		const char *pb = strrchr(real, '/');
		strfmt(out->disk, sizeof(out->disk), "%s", pb ? pb + 1 : real);
	} else {
		strfmt(out->disk, sizeof(out->disk), "%s", out->name);
	}
	return 0;
}

/* Undo the octal escapes of /proc/self/mountinfo (\040 for a space). */
static void unescape_mount(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' &&
		    r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* "rw,relatime" + "rw,discard" -> "rw,relatime,discard": the per-mount
 * options, then the superblock options not already listed. */
static void merge_options(char *out, size_t len, const char *mnt,
			  const char *sup)
{
	strfmt(out, len, "%s", mnt);
	if (!sup)
		return;
	char tmp[1024];
	strfmt(tmp, sizeof(tmp), "%s", sup);
	char *save = NULL;
	for (char *o = strtok_r(tmp, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		bool dup = false;
		size_t ol = strlen(o);
		for (const char *p = out; *p;) {
			size_t pl = strcspn(p, ",");
			if (pl == ol && !strncmp(p, o, ol)) {
				dup = true;
				break;
			}
			p += pl;
			if (*p == ',')
				p++;
		}
		if (dup)
			continue;
		size_t n = strlen(out);
		if (n + 1 + ol + 1 > len)
			break;
		out[n] = ',';
		memcpy(out + n + 1, o, ol + 1);
	}
}

/* The mount holding `real` (an absolute, resolved path): the entry with the
 * longest mount point that prefixes it (the last one wins when mounts are
 * stacked).  Fills fstype, options (per-mount + super options), source. */
static int mount_lookup(const char *real, char *fstype, size_t flen,
			char *opts, size_t olen, char *source, size_t slen)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0, best = 0;
	int found = -1;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		/* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
		char *save = NULL, *tok, *fields[6] = { 0 };
		int i = 0;
		char *dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (tok = strtok_r(line, " ", &save); tok && i < 6;
		     tok = strtok_r(NULL, " ", &save))
			fields[i++] = tok;
		if (i < 6)
			continue;
		char *mp = fields[4];
		unescape_mount(mp);
		size_t ml = strlen(mp);
		bool prefix = !strcmp(mp, "/") ||
			      (!strncmp(real, mp, ml) && (real[ml] == '/' || real[ml] == '\0'));
		if (!prefix || ml < best)
			continue;
		best = ml;
		char *rest = dash + 3, *s2 = NULL;
		char *fs = strtok_r(rest, " \n", &s2);
		char *src = strtok_r(NULL, " \n", &s2);
		char *sup = strtok_r(NULL, " \n", &s2);
		strfmt(fstype, flen, "%s", fs ? fs : "");
		strfmt(source, slen, "%s", src ? src : "");
		if (src)
			unescape_mount(source);
		merge_options(opts, olen, fields[5], sup);
		found = 0;
	}
	free(line);
	fclose(f);
	return found;
}

/* Serial number of a disk: nvme/virtio expose it directly, SCSI/SATA in the
 * unit serial number VPD page (0x80: 4 header bytes, then ASCII). */
static int read_serial(const char *diskdir, char *out, size_t len)
{
	char path[PATH_MAX];
	static const char *const names[] = { "device/serial", "serial",
					     "device/wwid" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strfmt(path, sizeof(path), "%s/%s", diskdir, names[i]);
		if (sysfs_read(path, out, len) == 0 && out[0])
			return 0;
	}
	strfmt(path, sizeof(path), "%s/device/vpd_pg80", diskdir);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		unsigned char b[260];
		ssize_t n = read(fd, b, sizeof(b));
		close(fd);
		if (n > 4) {
			size_t l = b[3];
			if (l > (size_t)n - 4)
				l = (size_t)n - 4;
			if (l >= len)
				l = len - 1;
			memcpy(out, b + 4, l);
			out[l] = '\0';
			/* trim spaces */
			while (l > 0 && out[l - 1] == ' ')
				out[--l] = '\0';
			char *s = out;
			while (*s == ' ')
				s++;
			memmove(out, s, strlen(s) + 1);
			if (out[0])
				return 0;
		}
	}
	return -1;
}

/* virtual hardware (or no hardware at all) behind a disk, or NULL */
static const char *virtual_kind(const struct blkdev *b, const char *vendor,
				const char *model)
{
	static const struct {
		const char *prefix, *kind;
	} names[] = {
		{ "loop", "loop" }, { "nbd", "nbd" }, { "vd", "virtio" },
		{ "xvd", "xen" },   { "rbd", "rbd" },
	};
	const char *ram = ram_kind_of_disk(b->disk); /* zram, brd, pmem */

	if (ram)
		return ram;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(b->disk, names[i].prefix, strlen(names[i].prefix)))
			return names[i].kind;
	if (strstr(b->sysdir, "/virtio"))
		return "virtio";
	if (strstr(b->sysdir, "/vmbus") || contains_ci(vendor, "Msft"))
		return "hyperv";
	if (contains_ci(vendor, "VMware") || contains_ci(model, "VMware"))
		return "vmware";
	if (contains_ci(vendor, "QEMU") || contains_ci(model, "QEMU"))
		return "qemu";
	if (contains_ci(vendor, "VBOX") || contains_ci(model, "VBOX"))
		return "virtualbox";
	if (contains_ci(vendor, "Xen"))
		return "xen";
	if (contains_ci(model, "Virtual disk") || contains_ci(model, "Virtual Disk"))
		return "virtual";
	return NULL;
}

static void add_u64(cJSON *o, const char *key, const char *path,
		    double mult)
{
	unsigned long long v;

	if (read_u64(path, &v) == 0)
		cJSON_AddNumberToObject(o, key, (double)v * mult);
	else
		cJSON_AddNullToObject(o, key);
}

/*
 * A stacked device (LVM/dm, md RAID) has no hardware of its own: follow its
 * first slave (down to the whole disk under a partition) until a device
 * with a `device` directory is found.  hw gets that sysfs directory (or
 * `disk` itself); slaves lists the immediate slaves of `disk`.
 */
static void find_hardware(const char *disk, char *hw, size_t hwlen,
			  cJSON *slaves)
{
	char cur[PATH_MAX], path[PATH_MAX + 32];

	strfmt(cur, sizeof(cur), "%s", disk);
	strfmt(hw, hwlen, "%s", disk);
	for (int depth = 0; depth < 8; depth++) {
		struct stat st;
		strfmt(path, sizeof(path), "%s/device", cur);
		if (stat(path, &st) == 0)
			break;
		strfmt(path, sizeof(path), "%s/slaves", cur);
		DIR *d = opendir(path);
		if (!d)
			break;
		char first[256] = "";
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			if (depth == 0 && slaves) {
				char dev[300];
				strfmt(dev, sizeof(dev), "/dev/%s", e->d_name);
				cJSON_AddItemToArray(slaves, cJSON_CreateString(dev));
			}
			if (!first[0])
				strfmt(first, sizeof(first), "%s", e->d_name);
		}
		closedir(d);
		if (!first[0])
			break;
		char real[PATH_MAX];
		strfmt(path, sizeof(path), "/sys/class/block/%s", first);
		if (!realpath(path, real))
			break;
		strfmt(path, sizeof(path), "%s/partition", real);
		if (access(path, F_OK) == 0) {
			char *slash = strrchr(real, '/');
			if (slash)
				*slash = '\0';
		}
		strfmt(cur, sizeof(cur), "%s", real);
		strfmt(hw, hwlen, "%s", real);
	}
}

/*
 * The RAM under a loop device: its backing file's filesystem (tmpfs,
 * ramfs) or the disk that filesystem is on (zram, brd), through loop
 * devices stacked on loop devices.  A loop device over a file in /dev/shm
 * is memory, not "virtual (loop)" storage with the host's caching.  NULL
 * when the backing is storage or cannot be read; fs gets the backing
 * file's filesystem type when its mount is found.
 */
static const char *loop_ram_kind(const char *diskdir, char *fs, size_t fslen)
{
	char path[PATH_MAX + 32], bf[PATH_MAX], real[PATH_MAX], opts[1024], src[PATH_MAX];
	struct blkdev bb;
	struct stat st;

	strfmt(path, sizeof(path), "%s", diskdir);
	for (int depth = 0; depth < 4; depth++) {
		strfmt(path + strlen(path), sizeof(path) - strlen(path), "/loop/backing_file");
		if (sysfs_read(path, bf, sizeof(bf)) < 0 || !bf[0] || !realpath(bf, real) ||
		    stat(real, &st) < 0)
			return NULL;
		char t[64] = "";
		if (mount_lookup(real, t, sizeof(t), opts, sizeof(opts), src, sizeof(src)) == 0) {
			if (depth == 0)
				strfmt(fs, fslen, "%s", t);
			if (ram_kind_of_fs(t))
				return ram_kind_of_fs(t);
		}
		if (blkdev_resolve(st.st_dev, &bb) < 0)
			return NULL;
		if (ram_kind_of_disk(bb.disk))
			return ram_kind_of_disk(bb.disk);
		if (strncmp(bb.disk, "loop", 4))
			return NULL;
		strfmt(path, sizeof(path), "/sys/block/%s", bb.disk);
	}
	return NULL;
}

static void add_blockdev_info(cJSON *fp, const struct blkdev *b)
{
	char disk[PATH_MAX], path[PATH_MAX + 64], buf[256];
	char vendor[128] = "", model[256] = "";

	/* The queue and device attributes live on the whole disk. */
	strfmt(disk, sizeof(disk), "%s", b->sysdir);
	if (b->partition) {
		char *slash = strrchr(disk, '/');
		if (slash)
			*slash = '\0';
	}
	strfmt(path, sizeof(path), "/dev/%s", b->name);
	cJSON_AddStringToObject(fp, "block_device", path);
	if (b->partition) {
		strfmt(path, sizeof(path), "/dev/%s", b->disk);
		cJSON_AddStringToObject(fp, "disk", path);
	} else {
		cJSON_AddNullToObject(fp, "disk");
	}

	/* model, vendor, firmware, serial: of the hardware under any
	 * LVM/md layers; geometry and scheduler: of the device itself */
	char hw[PATH_MAX];
	cJSON *slaves = cJSON_CreateArray();
	find_hardware(disk, hw, sizeof(hw), slaves);
	if (slaves && cJSON_GetArraySize(slaves) > 0) {
		cJSON_AddItemToObject(fp, "stacked_on", slaves);
		strfmt(path, sizeof(path), "%s/dm/name", disk);
		add_file_str(fp, "dm_name", path);
	} else {
		cJSON_Delete(slaves);
	}
	strfmt(path, sizeof(path), "%s/device/model", hw);
	if (sysfs_read(path, model, sizeof(model)) < 0 || !model[0]) {
		strfmt(path, sizeof(path), "%s/device/name", hw); /* mmc */
		sysfs_read(path, model, sizeof(model));
	}
	strfmt(path, sizeof(path), "%s/device/vendor", hw);
	sysfs_read(path, vendor, sizeof(vendor));
	add_str_or_null(fp, "model", model);
	add_str_or_null(fp, "vendor", vendor);
	strfmt(path, sizeof(path), "%s/device/firmware_rev", hw); /* nvme */
	if (sysfs_read(path, buf, sizeof(buf)) < 0 || !buf[0]) {
		strfmt(path, sizeof(path), "%s/device/rev", hw); /* scsi */
		sysfs_read(path, buf, sizeof(buf));
	}
	add_str_or_null(fp, "firmware", buf);
	if (read_serial(hw, buf, sizeof(buf)) == 0) {
		char hex[65];
		sha256_hex(buf, strlen(buf), hex);
		cJSON_AddStringToObject(fp, "serial_sha256", hex);
	} else {
		cJSON_AddNullToObject(fp, "serial_sha256");
	}
	/* size of the device itself (partition or disk), in 512-byte units */
	strfmt(path, sizeof(path), "%s/size", b->sysdir);
	add_u64(fp, "size_bytes", path, 512.0);
	strfmt(path, sizeof(path), "%s/queue/rotational", disk);
	unsigned long long rot;
	if (read_u64(path, &rot) == 0)
		cJSON_AddBoolToObject(fp, "rotational", rot != 0);
	else
		cJSON_AddNullToObject(fp, "rotational");
	strfmt(path, sizeof(path), "%s/queue/logical_block_size", disk);
	add_u64(fp, "logical_block_bytes", path, 1.0);
	strfmt(path, sizeof(path), "%s/queue/physical_block_size", disk);
	add_u64(fp, "physical_block_bytes", path, 1.0);
	/* "none [mq-deadline] kyber": the active one is bracketed */
	strfmt(path, sizeof(path), "%s/queue/scheduler", disk);
	if (sysfs_read(path, buf, sizeof(buf)) == 0 && buf[0]) {
		char *l = strchr(buf, '['), *r = l ? strchr(l, ']') : NULL;
		if (l && r) {
			*r = '\0';
			cJSON_AddStringToObject(fp, "scheduler", l + 1);
		} else {
			cJSON_AddStringToObject(fp, "scheduler", buf);
		}
	} else {
		cJSON_AddNullToObject(fp, "scheduler");
	}
	strfmt(path, sizeof(path), "%s/queue/write_cache", disk);
	add_file_str(fp, "write_cache", path);
	const char *vk = virtual_kind(b, vendor, model);
	char bfs[64] = "";
	bool loop = !strncmp(b->disk, "loop", 4);
	const char *lram = loop ? loop_ram_kind(disk, bfs, sizeof(bfs)) : NULL;
	if (lram)
		vk = lram; /* RAM, whatever the loop driver in between */
	cJSON_AddBoolToObject(fp, "virtual", vk != NULL);
	add_str_or_null(fp, "virtual_kind", vk);
	if (loop) {
		strfmt(path, sizeof(path), "%s/loop/backing_file", disk);
		add_file_str(fp, "loop_backing_file", path);
		if (bfs[0])
			cJSON_AddStringToObject(fp, "loop_backing_fs", bfs);
		/* the disk under the backing file: a loop device is that disk's
		 * speed through a filesystem, so the same-disk check follows it */
		char bf[PATH_MAX];
		struct stat bst;
		struct blkdev bb;
		if (sysfs_read(path, bf, sizeof(bf)) == 0 && stat(bf, &bst) == 0 &&
		    blkdev_resolve(bst.st_dev, &bb) == 0) {
			strfmt(path, sizeof(path), "/dev/%s", bb.name);
			cJSON_AddStringToObject(fp, "loop_backing_device", path);
			strfmt(path, sizeof(path), "/dev/%s", bb.disk);
			cJSON_AddStringToObject(fp, "loop_backing_disk", path);
		}
	}
}

cJSON *fingerprint_device(const char *path)
{
	cJSON *fp = cJSON_CreateObject();
	char real[PATH_MAX], probe[PATH_MAX];
	struct stat st;
	struct blkdev b;
	const char *kind;

	if (!fp)
		return NULL;
	strfmt(probe, sizeof(probe), "%s", path);
	/* a file that does not exist yet: describe its directory */
	if (stat(probe, &st) < 0) {
		char *slash = strrchr(probe, '/');
		if (slash == probe)
			probe[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			strcpy(probe, ".");
		if (stat(probe, &st) < 0) {
			fp_fill_nulls(fp, fp_device_keys);
			return fp;
		}
		kind = "file";
	} else if (S_ISBLK(st.st_mode)) {
		kind = "block";
	} else if (S_ISDIR(st.st_mode)) {
		kind = "directory";
	} else {
		kind = "file";
	}
	cJSON_AddStringToObject(fp, "kind", kind);

	if (S_ISBLK(st.st_mode)) {
		if (blkdev_resolve(st.st_rdev, &b) == 0) {
			add_blockdev_info(fp, &b);
		} else {
			cJSON_AddNullToObject(fp, "block_device");
			cJSON_AddBoolToObject(fp, "virtual", false);
		}
		fp_fill_nulls(fp, fp_device_keys); /* fs_type ... null */
		return fp;
	}

	char fstype[64] = "", opts[1024] = "", source[PATH_MAX] = "";
	if (!realpath(probe, real))
		strfmt(real, sizeof(real), "%s", probe);
	int have_mount = mount_lookup(real, fstype, sizeof(fstype), opts,
				      sizeof(opts), source, sizeof(source));
	int r = blkdev_resolve(st.st_dev, &b);
	if (r < 0 && have_mount == 0 && source[0] == '/') {
		/* btrfs and friends report an anonymous st_dev: use the
		 * mount source instead */
		struct stat sst;
		if (stat(source, &sst) == 0 && S_ISBLK(sst.st_mode))
			r = blkdev_resolve(sst.st_rdev, &b);
	}
	if (r == 0) {
		add_blockdev_info(fp, &b);
	} else {
		/* tmpfs, ramfs, devtmpfs: memory, not a disk; the disk keys
		 * become null below */
		const char *mem = have_mount == 0 ? ram_kind_of_fs(fstype) : NULL;
		cJSON_AddBoolToObject(fp, "virtual", mem != NULL);
		add_str_or_null(fp, "virtual_kind", mem);
	}
	add_str_or_null(fp, "fs_type", have_mount == 0 ? fstype : NULL);
	add_str_or_null(fp, "mount_options", have_mount == 0 ? opts : NULL);
	add_str_or_null(fp, "mount_source", have_mount == 0 ? source : NULL);
	fp_fill_nulls(fp, fp_device_keys);
	return fp;
}
