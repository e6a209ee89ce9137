/*
 * run_check.c - run_int.h's run_check_inputs(): what `run` refuses before
 * any IO, each refusal with its fix (exit 2).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/units.h"
#include "engines/engine.h"
#include "host/safety.h"
#include "pts/run_ssd.h"
#include "runner/runner.h"
#include "run_int.h"

/* A cell's IO buffers must fit this machine's memory (validate bounds them
 * by the language only, suite/cell.h): said before any IO, not as "out of
 * memory" from the runner.  1 when refused. */
static int run_check_memory(const struct cell *c)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	uint64_t need = cell_buffer_bytes(c);
	char b[32], n[32], m[32];

	if (!mem || need <= mem)
		return 0;
	units_format_size((double)c->bs, b, sizeof(b));
	units_format_size((double)need, n, sizeof(n));
	units_format_size((double)mem, m, sizeof(m));
	fprintf(stderr, "iomatrix: cell %d (%s %s): jobs %u x iodepth %u x bs %s = %s of IO "
		"buffers, more than this machine's memory (%s); lower jobs, iodepth or bs\n",
		c->id, c->device, c->label, c->jobs, c->iodepth, b, n, m);
	return 1;
}

/* Once every check passed: say what each block device about to be
 * written holds, the last chance to press Ctrl-C (printed when quiet). */
static void destroy_notice(const struct suite *s)
{
	char held[SAFETY_HOLDS_MAX];

	for (size_t i = 0; i < s->ndevices; i++)
		if (ssd_device_writes(s, &s->devices[i]) &&
		    safety_describe_device(s->devices[i].path, held, sizeof(held)) == 0)
			fprintf(stderr, "iomatrix: device '%s': %s: all of it will be overwritten\n",
				s->devices[i].name, held);
}

int run_check_inputs(const struct suite *s, bool yes_destroy_data)
{
	int bad = 0;

	for (size_t i = 0; i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		char err[SAFETY_HOLDS_MAX + 1024], parent[PATH_MAX];
		struct stat st;
		bool writes = ssd_device_writes(s, d);

		if (d->purge == PURGE_DISCARD && !yes_destroy_data) {
			char held[SAFETY_HOLDS_MAX] = "";
			safety_describe_device(d->path, held, sizeof(held));
			fprintf(stderr, "%s:%u:%u: 'purge: discard' of device '%s' erases "
				"all of '%s': add --yes-destroy-data to the command line "
				"if that is what you want%s%s%s\n", s->file, d->purge_line,
				d->purge_col, d->name, d->path, held[0] ? " (" : "", held,
				held[0] ? ")" : "");
			bad = 1;
			continue;
		}
		if (stat(d->path, &st) < 0) {
			/* a file that does not exist yet is fine if its
			 * directory does: the runner creates it */
			fsutil_parent(d->path, parent, sizeof(parent));
			if (errno != ENOENT || stat(parent, &st) < 0 ||
			    !S_ISDIR(st.st_mode)) {
				char pb[512];   /* a resumed set's path, as text */
				int e = errno == 0 ? ENOENT : errno;
				fprintf(stderr, "iomatrix: device '%s': cannot use '%s': %s; create it or pass --device %s=PATH\n",
					d->name, termesc(d->path, pb, sizeof(pb)), strerror(e), d->name);
				bad = 1;
				continue;
			}
		}
		bool direct = false, io = false;
		for (size_t k = 0; k < s->ncells; k++) {
			const struct engine *e = engine_find(s->cells[k].engine);
			bool cell_io = !e || !(e->flags & ENGINE_NO_IO);
			if (!strcmp(s->cells[k].device, d->name) && cell_io) {
				io = true;
				direct = direct || s->cells[k].direct;
			}
		}
		/* before the O_DIRECT probe, which creates a file */
		if (safety_check_target(d->name, d->path, writes, io, d->destructive,
					yes_destroy_data, err, sizeof(err)) < 0) {
			termesc_puts(stderr, "iomatrix: ", err);
			bad = 1;
			continue;
		}
		if (direct && runner_check_direct(d->path, err, sizeof(err)) < 0) {
			termesc_puts(stderr, "iomatrix: ", err);
			bad = 1;
			continue;
		}
		if (safety_check_device(d->name, d->path, writes, d->destructive,
					yes_destroy_data, err, sizeof(err)) < 0) {
			termesc_puts(stderr, "iomatrix: ", err);
			bad = 1;
		}
	}
	for (size_t k = 0; k < s->ncells && !bad; k++)
		bad = run_check_memory(&s->cells[k]);
	for (size_t k = 0; k < s->ncells; k++) {
		const struct cell *c = &s->cells[k];
		if (!engine_find(c->engine)) {
			/* suggest the first built-in engine that does real IO */
			const char *alt = "psync";
			for (const char *const *n = engine_names(); *n; n++) {
				const struct engine *e = engine_find(*n);
				if (e && !(e->flags & ENGINE_NO_IO)) {
					alt = *n;
					break;
				}
			}
			fprintf(stderr, "iomatrix: cell %d (%s %s): engine '%s' is not built into this iomatrix; use %s or rebuild with its library installed\n",
				c->id, c->device, c->label, c->engine, alt);
			bad = 1;
			break;
		}
	}
	if (!bad)
		destroy_notice(s);
	return bad ? -1 : 0;
}
