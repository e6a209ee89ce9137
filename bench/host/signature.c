/*
 * signature.c - libblkid's view of a block device (signature.h).  The same
 * loop as wipefs: every superblock and partition-table magic in turn, not
 * just the first, so an ext4 left inside an LVM PV is named too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <blkid.h>

#include "util/sbuf.h"
#include "signature.h"

/* A value from the device: printable ASCII only (a label may hold escape
 * sequences meant for the user's terminal), cut at 64 characters. */
static void printable(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; in && *in && n + 1 < len && n < 64; in++)
		out[n++] = ((unsigned char)*in < 0x20 || (unsigned char)*in >= 0x7f) ? '?' : *in;
	out[n] = '\0';
}

static const char *usage_word(const char *type, const char *usage)
{
	if (!strcmp(type, "LVM2_member") || !strcmp(type, "LVM1_member"))
		return "LVM physical volume";
	if (usage && !strcmp(usage, "raid"))
		return "RAID member";
	if (usage && !strcmp(usage, "crypto"))
		return "encrypted volume";
	return NULL;
}

static void add_one(blkid_probe pr, struct sbuf *out)
{
	const char *v = NULL;
	char type[80], label[80] = "", uuid[80] = "";

	if (out->len)
		sbuf_adds(out, "; ");
	if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0) {
		printable(v, type, sizeof(type));
		sbuf_addf(out, "a %s partition table", type);
		if (blkid_probe_lookup_value(pr, "PTUUID", &v, NULL) == 0) {
			printable(v, uuid, sizeof(uuid));
			sbuf_addf(out, " (UUID %s)", uuid);
		}
		return;
	}
	if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) < 0) {
		sbuf_adds(out, "an unnamed signature");
		return;
	}
	printable(v, type, sizeof(type));
	if (blkid_probe_lookup_value(pr, "LABEL", &v, NULL) == 0)
		printable(v, label, sizeof(label));
	if (blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0)
		printable(v, uuid, sizeof(uuid));
	const char *usage = NULL, *word;
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	word = usage_word(type, usage);
	sbuf_addf(out, "%s", type);
	if (label[0])
		sbuf_addf(out, " '%s'", label);
	if (word || uuid[0])
		sbuf_addf(out, " (%s%s%s%s)", word ? word : "", word && uuid[0] ? ", " : "",
			  uuid[0] ? "UUID " : "", uuid);
}

int signature_describe(const char *path, char *buf, size_t len)
{
	struct sbuf out = SBUF_INIT;
	blkid_probe pr;
	int n = 0;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		int e = errno ? errno : EIO;
		strfmt(buf, len, "cannot read its signatures (%s)", strerror(e));
		return -e;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL |
					  BLKID_SUBLKS_UUID | BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* bounded: a crafted device cannot make the list endless */
	while (n < 16 && blkid_do_probe(pr) == 0) {
		add_one(pr, &out);
		n++;
	}
	blkid_free_probe(pr);
	if (n)
		strfmt(buf, len, "%s", out.buf ? out.buf : "signatures (out of memory naming them)");
	else
		strfmt(buf, len, "no filesystem, partition table, RAID, LVM or crypt "
		       "signature that libblkid knows");
	sbuf_release(&out);
	return n;
}
