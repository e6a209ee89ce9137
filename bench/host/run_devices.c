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
#include "devident.h"
#include "fpkeys.h"

/* Device i's identity (devident.h): a model device by its keys, else
 * the disk of its fingerprint on this machine. */
static struct dev_ident ident_of(const cJSON *d, const struct run_target *t)
{
	struct dev_ident id = { .host = "this machine", .model = t ? t->model : NULL };
	fp_disk_of(cJSON_GetObjectItemCaseSensitive(d, "fingerprint"), &id.disk);
	return id;
}

static void describe_one(const cJSON *d, const struct run_target *t, FILE *out)
{
	const cJSON *fp = cJSON_GetObjectItemCaseSensitive(d, "fingerprint");
	const char *name = json_str(d, "name"), *path = json_str(d, "path");
	const char *bd = json_str(fp, "block_device"), *fs = json_str(fp, "fs_type");
	const char *vk = json_str(fp, "virtual_kind");

	if (t && t->model) {
		/* what the model is, not the disk under its directory */
		const char *keys = strchr(t->model, ';');
		fprintf(out, "iomatrix: device %s: a model device (%s); no IO reaches %s\n",
			name ? name : "?", keys ? keys + 1 : "every model key at its default",
			path ? path : "?");
		return;
	}
	fprintf(out, "iomatrix: device %s: %s -> %s%s%s%s%s%s\n", name ? name : "?",
		path ? path : "?", bd ? bd : "no block device",
		fs ? ", " : "", fs ? fs : "", vk ? " (" : "", vk ? vk : "", vk ? ")" : "");
	if (path && access(path, F_OK) != 0 && !(t && t->no_io))
		fprintf(out, "iomatrix: device %s: '%s' does not exist yet and will be created\n",
			name ? name : "?", path);
}

int run_devices_describe(const cJSON *devices, const struct run_target *targets,
			 bool quiet, FILE *out)
{
	const cJSON *d;
	int groups = 0, i = 0;

	cJSON_ArrayForEach(d, devices) {
		if (quiet)
			break;
		describe_one(d, targets ? &targets[i++] : NULL, out);
	}
	/* RAM: even when quiet, and before any cell, so that a mistyped path
	 * that landed in memory can still be stopped */
	i = 0;
	cJSON_ArrayForEach(d, devices) {
		const cJSON *fp = cJSON_GetObjectItemCaseSensitive(d, "fingerprint");
		const char *vk = json_str(fp, "virtual_kind"), *name = json_str(d, "name");
		bool model = targets && targets[i++].model;
		if (ram_kind_is(vk) && !model)
			fprintf(out, "iomatrix: WARNING: device %s (%s) is RAM (%s), not storage: "
				RAM_KIND_WHY "; the report will say so (Ctrl-C stops now)\n",
				name ? name : "?", json_str(d, "path") ? json_str(d, "path") : "?", vk);
	}
	i = 0;
	cJSON_ArrayForEach(d, devices) {
		const char *name = json_str(d, "name");
		const struct run_target *t = targets ? &targets[i] : NULL;
		struct dev_ident a = ident_of(d, t);
		const cJSON *e;
		int j = 0, same = 0, last = -1;
		bool earlier = false;
		char names[1024];
		size_t len = 0;

		if (!name) {
			i++;
			continue;
		}
		const char *what = NULL;
		cJSON_ArrayForEach(e, devices) {
			struct dev_ident b = ident_of(e, targets ? &targets[j] : NULL);
			if (j != i && json_str(e, "name") && devident_same(&a, &b, &what)) {
				earlier |= j < i;
				last = j;
				same++;
			}
			j++;
		}
		/* "a, b and c": the list, then its last name after "and" */
		len = (size_t)snprintf(names, sizeof(names), "%s", name);
		j = 0;
		cJSON_ArrayForEach(e, devices) {
			struct dev_ident b = ident_of(e, targets ? &targets[j] : NULL);
			if (j != i && json_str(e, "name") && devident_same(&a, &b, NULL) &&
			    len < sizeof(names))
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							j == last ? " and " : ", ", json_str(e, "name"));
			j++;
		}
		if (same && !earlier && a.model)
			fprintf(out, "iomatrix: warning: %s are one model device (the same model "
				"keys): the report will compare the model with itself; give each its "
				"own keys (Ctrl-C stops now)\n", names);
		else if (same && !earlier)
			fprintf(out, "iomatrix: warning: %s are the same device (%s): this "
				"compares a device with itself; point each at its own disk with "
				"--device NAME=PATH (Ctrl-C stops now)\n", names, what);
		groups += same && !earlier;
		i++;
	}
	return groups;
}
