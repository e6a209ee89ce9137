/*
 * fuzz_fleet_controller.c - libFuzzer target for the controller's state
 * machine: two fake hosts whose agents "say" the input, line by line, into
 * the real controller (fleet_host_line, fleet_step, fleet_host_overdue):
 * hello, pongs, suite_ok, ready, rep_done, result, alive, error, bye and
 * garbage, in any order, in survey or aggregate mode, from the handshake
 * or from an idle host.  The set is written to a temporary directory and
 * removed.  No crash, no UB, no leak, whatever the agents say.
 *
 * Input: byte 0 picks the mode (bit 0 aggregate, bit 1 start after the
 * handshake); then lines, each prefixed by the host ('1' or '2').  Two
 * macros stand for what a fuzzer cannot guess: "P<n>" is a pong that
 * echoes the controller's t0 (t1 = n), "S" a suite_ok with the suite's
 * sha256.  Also built into tests/unit/test_fuzz_regress.c.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/errlist.h"
#include "util/version.h"
#include "fleet/fleet_int.h"
#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fctl_yaml[] =
	"suite: fuzz-fleet\n"
	"defaults: {engine: null, size: 64KiB, requests: 8, repeat: 3}\n"
	"devices:\n"
	"  - {name: scratch, path: /nonexistent/}\n"
	"matrix:\n"
	"  pattern: [randread, read]\n";

static struct suite *fctl_suite;
static char fctl_root[64];

static int fctl_rm(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void fctl_teardown(void)
{
	rmdir(fctl_root);
}

static int fctl_setup(void)
{
	struct errlist errs = ERRLIST_INIT;
	struct suite_opts so = { 0 };

	if (fctl_suite)
		return 0;
	snprintf(fctl_root, sizeof(fctl_root), "/tmp/iomatrix-fuzzctl.XXXXXX");
	if (!mkdtemp(fctl_root))
		return -1;
	atexit(fctl_teardown); /* each input removes its set; this, the root */
	int r = suite_load_buffer("suite.yaml", fctl_yaml, strlen(fctl_yaml), &so,
				  &fctl_suite, &errs);
	errlist_release(&errs);
	return r;
}

/* The macros, or the line as given. */
static void fctl_line(struct fleet *f, struct fhost *h, const char *l, size_t len)
{
	char buf[256];

	if (len >= 1 && l[0] == 'P' && h->nsamples < FLEET_PINGS) {
		long long t1 = atoll(l + 1) % 1000000000;
		int n = snprintf(buf, sizeof(buf), "{\"op\":\"pong\",\"t0\":%lld,\"t1\":%lld,\"t2\":%lld}",
				 (long long)h->samples[h->nsamples].t0, t1, t1 + 10);
		fleet_host_line(f, h, buf, (size_t)n, fleet_now(f));
	} else if (len == 1 && l[0] == 'S') {
		int n = snprintf(buf, sizeof(buf), "{\"op\":\"suite_ok\",\"sha256\":\"%s\",\"machine\":{\"machine_id\":\"x\"}}",
				 f->s->sha256);
		fleet_host_line(f, h, buf, (size_t)n, fleet_now(f));
	} else {
		fleet_host_line(f, h, l, len, fleet_now(f));
	}
}

static void fctl_start(struct fleet *f, bool idle)
{
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		h->conn.to_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		h->st = HS_HELLO;
		if (!idle)
			continue;
		h->st = HS_IDLE;
		h->hello = cJSON_CreateObject();
		h->info = cJSON_CreateObject();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile sig_atomic_t no_stop;
	static const char *const hosts[] = { "h1", "h2" };
	char out[128];
	struct fleet f = { 0 };

	if (!size || fctl_setup() < 0)
		return 0;
	snprintf(out, sizeof(out), "%s/set", fctl_root);
	struct fleet_opts o = { .hosts = hosts, .nhosts = 2, .aggregate = data[0] & 1,
				.run = { .quiet = true, .out = out, .stop = &no_stop } };
	f.o = &o;
	f.s = fctl_suite;
	f.lock_fd = -1;
	f.epoch_ns = 0;
	f.epoch_ns = fleet_now(&f);
	f.silence_ns = (int64_t)FLEET_SILENCE_S * 1000000000;
	f.line_ns = (int64_t)FLEET_LINE_S * 1000000000;
	if (fleet_hosts_init(&f) < 0)
		goto out;
	fctl_start(&f, data[0] & 2);
	if (fleet_step(&f) < 0) /* idle hosts: the gate, then their first cell */
		goto out;
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	while (p < end && !f.fatal) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		struct fhost *h = &f.h[len && p[0] == '2'];
		/* lines reach the controller NUL-terminated (linebuf_next) */
		char *line = len ? malloc(len) : NULL;
		if (line) {
			memcpy(line, p + 1, len - 1);
			line[len - 1] = '\0';
		}
		if (line && fleet_live(h))
			fctl_line(&f, h, line, len - 1);
		free(line);
		for (size_t i = 0; i < f.nh; i++)
			if (fleet_live(&f.h[i]))
				fleet_host_overdue(&f, &f.h[i]);
		/* twice: a step that ends a cell starts the next on the second */
		if (fleet_step(&f) < 0 || fleet_step(&f) < 0)
			break;
		p += len + 1;
	}
	if (f.have_rs)
		fleet_set_finish(&f, "failed");
out:
	fleet_hosts_release(&f);
	if (f.have_rs)
		resultset_release(&f.rs);
	if (f.lock_fd >= 0)
		close(f.lock_fd);
	nftw(out, fctl_rm, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}
