/*
 * reproduce.c - reproduce.h: device mapping and the completeness of an
 * imported set's parameters, checked before any IO.
 */
#include "reproduce.h"

#include <stdbool.h>
#include <string.h>

#include "resultset/rset.h"
#include "util/termesc.h"


static bool map_names(const char *map, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(map, name, n) && map[n] == '=';
}

int reproduce_check_devices(const struct repro_original *o, const char *const *maps,
			    size_t nmaps, struct sbuf *err)
{
	struct sbuf missing = SBUF_INIT, all = SBUF_INIT;
	int bad = 0;

	for (size_t k = 0; k < o->manifest.ndevices; k++) {
		const char *name = o->manifest.devices[k].name;
		const char *path = o->manifest.devices[k].path;
		bool found = false;
		if (!name) /* out of memory while the manifest was read */
			continue;
		for (size_t i = 0; i < nmaps && !found; i++)
			found = map_names(maps[i], name);
		/* raw: the one message reaches the terminal through
		 * errlist_print, which escapes it (termesc.h) */
		sbuf_addf(&all, "%s%s (was %s)", all.len ? ", " : "", name, path[0] ? path : "?");
		if (!found)
			sbuf_addf(&missing, " --device %s=PATH", name);
	}
	if (missing.len) {
		sbuf_addf(err, "set '%s' ran on devices %s; map each to a path here:%s",
			  o->dir, all.len ? sbuf_str(&all) : "none", sbuf_str(&missing));
		bad = 1;
	}
	sbuf_release(&missing);
	sbuf_release(&all);
	return bad ? -1 : 0;
}

/* fio: the job options of every cell, and how far each job went. */
static void fio_missing(const struct rset *rs, struct sbuf *m)
{
	static const char *const extent[] = { "size", "filesize", "io_size", "io_limit",
					      "number_ios", "runtime" };
	for (size_t i = 0; i < rs->ncells; i++) {
		const struct rset_cell *c = &rs->cells[i];
		const struct rset_obj *opts = &c->fio_options;
		bool has = false;
		char lb[128];
		termesc(c->cell.label ? c->cell.label : "?", lb, sizeof(lb));
		if (!opts->n) {
			sbuf_addf(m, "  cell %d (%s): fio's job options (the JSON has no "
				  "\"job options\")\n", c->id, lb);
			continue;
		}
		for (size_t k = 0; k < sizeof(extent) / sizeof(extent[0]); k++)
			has |= rset_obj_str(opts, extent[k]) != NULL;
		if (!has)
			sbuf_addf(m, "  cell %d (%s): size or runtime (fio's default, the whole "
				  "file or device, is not recorded)\n", c->id, lb);
	}
}

int reproduce_check_complete(const struct repro_original *o, struct sbuf *err)
{
	struct rset rs;
	struct errlist errs = ERRLIST_INIT;
	struct sbuf m = SBUF_INIT;
	const char *kind = o->manifest.source_kind;
	int ret = 0;

	if (!strcmp(kind, "iomatrix") || !strcmp(kind, "sysbench"))
		return 0;
	memset(&rs, 0, sizeof(rs));
	if (rset_load(o->dir, &rs, &errs) < 0) {
		for (size_t i = 0; i < errs.n; i++)
			sbuf_addf(err, "%s\n", errs.msgs[i]);
		rset_release(&rs);
		errlist_release(&errs);
		return -1;
	}
	if (!strcmp(kind, "fio")) {
		fio_missing(&rs, &m);
	} else {
		bool engine = false;
		for (size_t i = 0; i < rs.ncells; i++)
			engine |= !strcmp(rs.cells[i].cell.engine, "unknown");
		sbuf_addf(&m, "  every cell: size and runtime (%s figures give neither)%s\n",
			  kind, engine ? "; the engine" : "");
	}
	if (m.len) {
		sbuf_addf(err, "set '%s' was imported from %s output that lacks what a re-run "
			  "needs:\n%sreproduce needs the parameters of every cell; run the "
			  "workload with 'iomatrix run' and compare instead\n", o->dir,
			  kind, sbuf_str(&m));
		ret = -1;
	}
	sbuf_release(&m);
	rset_release(&rs);
	errlist_release(&errs);
	return ret;
}
