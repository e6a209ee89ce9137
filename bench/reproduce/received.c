/*
 * received.c - received.h: a received set's suite, loaded so that it
 * decides the workload and nothing else.
 */
#include "received.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reproduce.h"
#include "util/termesc.h"

static bool mapped(const struct received *rv, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < rv->ndevices; i++)
		if (!strncmp(rv->devices[i], name, n) && rv->devices[i][n] == '=')
			return true;
	return false;
}

/* The suite's own devices: each mapped (the manifest's are checked before
 * the suite is read, reproduce_check_devices; a map that names no device
 * of the suite is the suite loader's error). */
static int devices_mapped(const struct suite *s, const struct received *rv,
			  struct errlist *errs)
{
	int bad = 0;

	/* a device name is [A-Za-z0-9._-] (the suite parser's rule) */
	for (size_t i = 0; i < s->ndevices; i++) {
		if (mapped(rv, s->devices[i].name))
			continue;
		errlist_add(errs, NULL, 0, 0, "iomatrix: the suite of set '%s' names device "
			    "'%s', which its manifest does not list; a received set chooses no "
			    "path: map it with --device %s=PATH or remove it from the suite",
			    rv->o->dir, s->devices[i].name, s->devices[i].name);
		bad = 1;
	}
	return bad ? -1 : 0;
}

int reproduce_received_apply(struct suite *s, const struct received *rv,
			     struct sbuf *note, struct errlist *errs)
{
	int bad = devices_mapped(s, rv, errs) < 0;
	char h[256];

	for (size_t i = 0; i < s->ndevices; i++) {
		struct suite_device *d = &s->devices[i];
		struct stat st;
		/* the opt-in is the command line's, for its own block devices */
		d->destructive = rv->yes_destroy_data && stat(d->path, &st) == 0 &&
				 S_ISBLK(st.st_mode);
	}
	for (size_t k = 0; k < s->ncells && !rv->drop_caches; k++) {
		if (!s->cells[k].drop_caches)
			continue;
		errlist_add(errs, NULL, 0, 0, "iomatrix: set '%s': its suite asks for "
			    "'drop_caches: true' (cell %d, %s): as root that syncs and drops "
			    "this whole machine's page cache before every repetition, which "
			    "is not the set's to decide; add --drop-caches to reproduce it "
			    "that way", rv->o->dir, s->cells[k].id, s->cells[k].label);
		bad = 1;
		break;
	}
	for (size_t k = 0; k < s->ncells; k++) {
		if (!s->cells[k].keep_files)
			continue;
		errlist_add(errs, NULL, 0, 0, "iomatrix: set '%s': its suite asks for "
			    "'keep_files: true' (cell %d): where files stay on this machine is "
			    "not the set's to decide; reproduce refuses it (copy the suite, "
			    "and run it with 'iomatrix run' if you want that)", rv->o->dir,
			    s->cells[k].id);
		bad = 1;
		break;
	}
	if (s->nhosts) {
		struct sbuf hl = SBUF_INIT;
		for (size_t i = 0; i < s->nhosts; i++)
			sbuf_addf(&hl, "%s%s", i ? ", " : "", termesc(s->hosts[i], h, sizeof(h)));
		sbuf_addf(note, "iomatrix: note: the suite of set '%s' names hosts (%s); a "
			  "received set chooses no host: ignored, the cells run here\n",
			  rv->o->dir, sbuf_str(&hl));
		sbuf_release(&hl);
		for (size_t i = 0; i < s->nhosts; i++)
			free(s->hosts[i]);
		free(s->hosts);
		s->hosts = NULL;
		s->nhosts = 0;
		s->aggregate = -1;
	}
	return bad ? -1 : 0;
}

int reproduce_received_load(const struct received *rv, const struct suite_opts *so,
			    struct suite **out, struct sbuf *note, struct errlist *errs)
{
	struct sbuf e = SBUF_INIT;

	*out = NULL;
	/* the manifest's devices first: the message lists the set's devices
	 * and the paths they had */
	if (reproduce_check_devices(rv->o, rv->devices, rv->ndevices, &e) < 0) {
		errlist_add(errs, NULL, 0, 0, "iomatrix: %s", sbuf_str(&e));
		sbuf_release(&e);
		return -1;
	}
	sbuf_release(&e);
	if (suite_load(rv->o->suite_path, so, out, errs) < 0)
		return -1;
	if (strcmp((*out)->sha256, rv->o->manifest.suite_sha256)) {
		errlist_add(errs, NULL, 0, 0, "iomatrix: suite '%s' (sha256 %.12s) is not the "
			    "one the set recorded (sha256 %.12s); restore the set's own "
			    "suite.yaml", rv->o->suite_path, (*out)->sha256, rv->o->manifest.suite_sha256);
		goto fail;
	}
	if (reproduce_received_apply(*out, rv, note, errs) < 0)
		goto fail;
	return 0;
fail:
	suite_free(*out);
	*out = NULL;
	return -1;
}
