/*
 * run_devices.c - before the first cell, tell the user where each device
 * really is (run_devices.h).  Seed 000 run with /mnt/hdd and /mnt/ssd
 * absent put both "devices" on the root disk and the report compared a
 * disk with itself; this is where the user can still press Ctrl-C.
 */
#include <string.h>
#include <unistd.h>

#include "util/ramkind.h"
#include "util/jsonutil.h"
#include "run_devices.h"
#include "fpkeys.h"

int run_devices_describe(const cJSON *devices, bool quiet, FILE *out)
{
	const cJSON *d;
	int groups = 0, i = 0;

	cJSON_ArrayForEach(d, devices) {
		if (quiet)
			break;
		const cJSON *fp = cJSON_GetObjectItemCaseSensitive(d, "fingerprint");
		const char *name = json_str(d, "name"), *path = json_str(d, "path");
		const char *bd = json_str(fp, "block_device"), *fs = json_str(fp, "fs_type");
		const char *vk = json_str(fp, "virtual_kind");
		bool missing = path && access(path, F_OK) != 0;
		fprintf(out, "iomatrix: device %s: %s -> %s%s%s%s%s%s\n", name ? name : "?",
			path ? path : "?", bd ? bd : "no block device",
			fs ? ", " : "", fs ? fs : "", vk ? " (" : "", vk ? vk : "", vk ? ")" : "");
		if (missing)
			fprintf(out, "iomatrix: device %s: '%s' does not exist yet and will be created\n",
				name ? name : "?", path);
	}
	/* RAM: even when quiet, and before any cell, so that a mistyped path
	 * that landed in memory can still be stopped */
	cJSON_ArrayForEach(d, devices) {
		const cJSON *fp = cJSON_GetObjectItemCaseSensitive(d, "fingerprint");
		const char *vk = json_str(fp, "virtual_kind"), *name = json_str(d, "name");
		if (ram_kind_is(vk))
			fprintf(out, "iomatrix: WARNING: device %s (%s) is RAM (%s), not storage: "
				RAM_KIND_WHY "; the report will say so (Ctrl-C stops now)\n",
				name ? name : "?", json_str(d, "path") ? json_str(d, "path") : "?", vk);
	}
	cJSON_ArrayForEach(d, devices) {
		const cJSON *fp = cJSON_GetObjectItemCaseSensitive(d, "fingerprint");
		const char *bd = json_str(fp, "block_device"), *name = json_str(d, "name");
		const cJSON *e;
		int j = 0, same = 0;
		bool earlier = false;
		char names[1024];
		size_t len = 0;

		if (!bd || !name) {
			i++;
			continue;
		}
		names[0] = '\0';
		const char *what = bd;
		cJSON_ArrayForEach(e, devices) {
			const cJSON *fp2 = cJSON_GetObjectItemCaseSensitive(e, "fingerprint");
			const char *n2 = json_str(e, "name");
			if (j != i && n2 && fp_same_disk(fp, fp2, &what)) {
				if (j < i)
					earlier = true;
				if (len < sizeof(names))
					len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
								same ? ", " : "", n2);
				same++;
			}
			j++;
		}
		if (same && !earlier) {
			fprintf(out, "iomatrix: warning: %s and %s are the same device (%s): this "
				"compares a device with itself; point each at its own disk with "
				"--device NAME=PATH (Ctrl-C stops now)\n", name, names, what);
			groups++;
		}
		i++;
	}
	return groups;
}
