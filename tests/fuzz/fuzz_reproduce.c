/*
 * fuzz_reproduce.c - libFuzzer target for what `reproduce` reads of a
 * received set before it runs anything: the manifest, the suite and the
 * cells, as anyone who sends a set can write them.  Input: parts separated
 * by "\n%%\n", written as manifest.json, suite.yaml, cells/0001.json and
 * cells/0002.json of a scratch set; the first byte of the input also
 * chooses --yes-destroy-data (bit 0), the second --drop-caches (bit 2).  The manifest's suite sha256 is set to the
 * suite's (anyone can make them agree), then
 * reprofile_original_open, reproduce_check_complete, the received-set rule
 * (reproduce_received_load, every manifest device mapped to a scratch
 * path) and repro_judge_sets (the set against itself) run on it.
 * Asserts the rule: a suite that loads runs on no path but the command
 * line's, names no host, keeps no file, drops no cache without
 * --drop-caches, and opts into no destruction (the scratch paths are no
 * block devices); any breach abort()s.
 * Also built into tests/unit/test_fuzz_regress.c to replay its inputs.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "reproduce/received.h"
#include "reproduce/reproduce.h"
#include "reproduce/repro.h"
#include "resultset/reprofile.h"
#include "util/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char frepro_base[128];

static void frepro_cleanup(void)
{
	char cmd[200];
	if (frepro_base[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", frepro_base);
		if (system(cmd) != 0)
			frepro_base[0] = '\0';
	}
}

static void frepro_put(const char *dir, const char *name, const char *p, size_t len)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (!p)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return;
	if (len && write(fd, p, len) < 0)
		len = 0;
	close(fd);
}

/* The manifest part with its suite sha256 made the suite's (when it is a
 * JSON object); caller frees. */
static char *frepro_manifest(const char *m, size_t mlen, const char *suite, size_t slen)
{
	char hex[65], *text = NULL;
	cJSON *j = cJSON_ParseWithLength(m, mlen), *s;

	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return NULL;
	}
	sha256_hex(suite ? suite : "", suite ? slen : 0, hex);
	cJSON_DeleteItemFromObjectCaseSensitive(j, "suite");
	if ((s = cJSON_AddObjectToObject(j, "suite")))
		cJSON_AddStringToObject(s, "sha256", hex);
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return text;
}

/* The rule held for a suite that loaded: abort() when it did not. */
static void frepro_assert(const struct suite *s, const char *scratch, bool drop)
{
	size_t n = strlen(scratch);

	for (size_t i = 0; i < s->ndevices; i++) {
		if (strncmp(s->devices[i].path, scratch, n) || s->devices[i].destructive) {
			fprintf(stderr, "device '%s' runs on '%s' (destructive %d): not the "
				"command line's\n", s->devices[i].name, s->devices[i].path,
				s->devices[i].destructive);
			abort();
		}
	}
	for (size_t k = 0; k < s->ncells; k++)
		if (s->cells[k].keep_files || (s->cells[k].drop_caches && !drop))
			abort();
	if (s->nhosts || s->hosts)
		abort();
}

/* Map every device the manifest names (at most 16) to scratch/NAME. */
static size_t frepro_maps(const struct repro_original *o, const char *scratch,
			  char maps[16][300], const char *v[16])
{
	size_t n = 0;

	for (size_t i = 0; i < o->manifest.ndevices; i++) {
		const char *name = o->manifest.devices[i].name;
		if (n == 16 || !name || strchr(name, '/'))
			continue;
		snprintf(maps[n], sizeof(maps[n]), "%s=%s/%.60s", name, scratch, name);
		v[n] = maps[n];
		n++;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *names[4] = { "manifest.json", "suite.yaml", "cells/0001.json",
					 "cells/0002.json" };
	const char *p = (const char *)data, *end = p + size, *part[4];
	size_t len[4];
	char dir[200], scratch[200], maps[16][300];
	const char *v[16];

	if (!frepro_base[0]) {
		snprintf(frepro_base, sizeof(frepro_base), "%s/iomatrix-fuzzrepro.XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(frepro_base))
			abort();
		atexit(frepro_cleanup);
	}
	snprintf(dir, sizeof(dir), "%s/set", frepro_base);
	snprintf(scratch, sizeof(scratch), "%s/scratch", frepro_base);
	mkdir(dir, 0700);
	mkdir(scratch, 0700);
	snprintf(maps[0], sizeof(maps[0]), "%s/cells", dir);
	mkdir(maps[0], 0700);
	for (int i = 0; i < 4; i++) {
		const char *sep = p ? memmem(p, (size_t)(end - p), "\n%%\n", 4) : NULL;
		part[i] = p;
		len[i] = p ? (size_t)((sep ? sep : end) - p) : 0;
		p = sep ? sep + 4 : NULL;
	}
	char *m = part[0] ? frepro_manifest(part[0], len[0], part[1], len[1]) : NULL;
	frepro_put(dir, names[0], m ? m : part[0], m ? strlen(m) : len[0]);
	free(m);
	for (int i = 1; i < 4; i++)
		frepro_put(dir, names[i], part[i], len[i]);

	struct repro_original o;
	struct sbuf e = SBUF_INIT, note = SBUF_INIT;
	struct errlist errs = ERRLIST_INIT;
	char err[1024];
	if (reprofile_original_open(&o, dir, err, sizeof(err)) == 0 &&
	    reproduce_check_complete(&o, &e) == 0) {
		size_t n = frepro_maps(&o, scratch, maps, v);
		struct received rv = { &o, v, n, size && (data[0] & 1), size > 1 && (data[1] & 4) };
		struct suite_opts so = { .device_overrides = v, .ndevice_overrides = n };
		struct suite *s = NULL;
		if (reproduce_received_load(&rv, &so, &s, &note, &errs) == 0) {
			frepro_assert(s, scratch, rv.drop_caches);
			suite_free(s);
		}
		FILE *devnull = fopen("/dev/null", "w");
		bool missed;
		if (devnull) {
			repro_judge_sets(dir, dir, 10, devnull, &missed);
			fclose(devnull);
		}
	}
	reprofile_original_release(&o);
	sbuf_release(&e);
	sbuf_release(&note);
	errlist_release(&errs);
	return 0;
}
