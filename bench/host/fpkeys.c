/*
 * fpkeys.c - fpkeys.h: the fingerprint key tables.  The order is the
 * report's; fingerprint.c writes its keys in the order it finds them.
 */
#include <stddef.h>
#include <string.h>

#include "fpkeys.h"
#include "util/jsonutil.h"

const struct fp_key fp_host_keys[] = {
	{ .name = "hostname" },
	{ .name = "kernel", .label = "kernel" },
	{ .name = "kernel_version" },
	{ .name = "os", .label = "OS" },
	{ .name = "arch", .label = "arch" },
	{ .name = "cpu_model", .label = "CPU" },
	{ .name = "cpus", .label = "CPUs" },
	{ .name = "mem_bytes", .label = "memory" },
	{ .name = "governor", .label = "CPU governor" },
	{ .name = "virtualization", .label = "virtualization" },
	{ .name = "container" },
	{ .name = NULL },
};

const struct fp_key fp_device_keys[] = {
	{ .name = "model", .label = "model" },
	{ .name = "vendor", .label = "vendor" },
	{ .name = "firmware", .label = "firmware" },
	{ .name = "kind", .label = "path kind" },
	{ .name = "block_device", .label = "block device" },
	{ .name = "disk" },
	{ .name = "stacked_on", .optional = true },
	{ .name = "dm_name", .optional = true },
	{ .name = "serial_sha256" },
	{ .name = "size_bytes", .label = "size" },
	{ .name = "rotational", .label = "rotational" },
	{ .name = "virtual", .label = "virtual" },
	{ .name = "virtual_kind" },
	{ .name = "logical_block_bytes", .label = "logical block (bytes)" },
	{ .name = "physical_block_bytes", .label = "physical block (bytes)" },
	{ .name = "scheduler", .label = "scheduler" },
	{ .name = "write_cache", .label = "write cache" },
	{ .name = "loop_backing_file", .optional = true },
	{ .name = "loop_backing_fs", .optional = true },
	{ .name = "loop_backing_device", .optional = true },
	{ .name = "loop_backing_disk", .optional = true },
	{ .name = "fs_type", .label = "filesystem" },
	{ .name = "mount_options", .label = "mount options" },
	{ .name = "mount_source" },
	{ .name = NULL },
};

void fp_fill_nulls(cJSON *o, const struct fp_key *keys)
{
	for (const struct fp_key *k = keys; o && k->name; k++)
		if (!k->optional && !cJSON_HasObjectItem(o, k->name))
			cJSON_AddNullToObject(o, k->name);
}

cJSON *fp_host_unknown(const char *name)
{
	cJSON *h = cJSON_CreateObject();

	if (h && name && name[0])
		cJSON_AddStringToObject(h, "hostname", name);
	fp_fill_nulls(h, fp_host_keys);
	return h;
}

cJSON *fp_device_unknown(void)
{
	cJSON *f = cJSON_CreateObject();

	fp_fill_nulls(f, fp_device_keys);
	return f;
}

static const char *fp_str(const cJSON *o, const char *k)
{
	const char *v = json_str(o, k);
	return v && v[0] ? v : NULL;
}

/* The whole disk a device's numbers come from: the disk under a loop's
 * backing file, else the device's own whole disk, else the device. */
static const char *fp_underlying(const struct fp_disk *d)
{
	return d->loop_backing_disk ? d->loop_backing_disk :
	       d->disk ? d->disk : d->block_device;
}

bool fp_disk_same(const struct fp_disk *a, const struct fp_disk *b, const char **what)
{
	const char *ba = a->block_device, *bb = b->block_device;
	if (ba && bb && !strcmp(ba, bb)) {
		if (what)
			*what = ba;
		return true;
	}
	if (!a->loop_backing_disk && !b->loop_backing_disk)
		return false;
	const char *ua = fp_underlying(a), *ub = fp_underlying(b);
	if (!ua || !ub || strcmp(ua, ub))
		return false;
	if (what)
		*what = ua;
	return true;
}

void fp_disk_of(const cJSON *fp, struct fp_disk *out)
{
	out->block_device = fp_str(fp, "block_device");
	out->disk = fp_str(fp, "disk");
	out->loop_backing_disk = fp_str(fp, "loop_backing_disk");
}
