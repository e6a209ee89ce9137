/*
 * fleetfile.h - the JSON of fleet result sets (results/README.md, "Fleet
 * sets"): the manifest's "fleet" object and its hosts, the fleet keys of a
 * cell file (host, plan_id, starts), and an aggregate cell's "fleet"
 * object.  The fleet logic (who runs what, merging, clocks) is
 * bench/fleet/'s; it writes and reads these objects only through here.
 *
 * Builders return a new object the caller owns, or NULL when out of
 * memory; functions that add to an object return 0 or -ENOMEM.
 */
#ifndef IOMATRIX_FLEETFILE_H
#define IOMATRIX_FLEETFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "resultset.h"

/* ---- the manifest ---- */

/* Add "fleet": {mode, plan_cells, device_overrides, hosts: []} to a new
 * manifest m (device_args: run's --device arguments as given). */
int resultset_fleet_manifest(cJSON *m, bool aggregate, size_t plan_cells,
			     const char *const *device_args, size_t ndevice_args);

/* One host of the manifest's fleet.hosts, as the controller knows it. */
struct resultset_fleet_host {
	const char *name;            /* the ssh destination as given */
	const char *status;          /* "done", "running", "failed", ... */
	const char *error;           /* NULL: null */
	const char *hostname, *version, *git_commit; /* the hello's; NULL: null */
	bool have_clock;             /* the clock fields below are known */
	int64_t offset_ns, error_ns, rtt_min_ns, rtt_median_ns;
	size_t samples;
	double wall_offset_s;
	const cJSON *info;           /* the agent's {host, tool, devices, machine}
				      * (copied) */
};
cJSON *resultset_fleet_host_json(const struct resultset_fleet_host *h);
/* Put hosts and same_machine (groups of host names that are one machine;
 * both taken) and, when margin_ns is not 0, barrier_margin_ns into the
 * manifest's fleet object and rewrite the manifest.  0 or -errno
 * (-EINVAL: rs is not a fleet set). */
int resultset_fleet_save_hosts(struct resultset *rs, cJSON *hosts,
			       cJSON *same_machine, uint64_t margin_ns);

/* What --resume reads of a fleet set's manifest; the strings are copies
 * the caller frees with resultset_fleet_facts_release(). */
struct resultset_fleet_facts {
	bool aggregate;
	char **hosts;                /* slot order, NULL-terminated */
	size_t nhosts;
	char **device_args;          /* fleet.device_overrides, NULL-terminated */
	size_t ndevice_args;
	double scale;                /* 1 when absent or not a number */
};
/* 0; -1 with err set when the set is not a fleet set or out of memory. */
int resultset_fleet_facts(const struct resultset *rs,
			  struct resultset_fleet_facts *f, char *err, size_t errlen);
void resultset_fleet_facts_release(struct resultset_fleet_facts *f);
/* Is dir a fleet set (its manifest has a "fleet" object)? */
bool resultset_is_fleet(const char *dir);

/* ---- cell files ---- */

/* Set a fleet cell's own keys: its set id, the plan id and the host ("all"
 * for an aggregate). */
int resultset_fleet_cell_tag(cJSON *cell, int id, int plan_id, const char *host);
/* A fleet cell's "fleet_session" (which run or resume of the set measured
 * it) and, when start is not NULL, "measured_at": {start, end = now} on
 * the controller's clock. */
int resultset_fleet_cell_measured(cJSON *cell, unsigned session, const char *start);
/* One element of a host cell's "starts": how late repetition rep started
 * against its go, and (when have_start) its start on the controller's
 * clock. */
cJSON *resultset_fleet_start_json(int64_t rep, int64_t late_ns, bool have_start,
				  int64_t start_ns);
/* Set a host cell's "starts" (an array of resultset_fleet_start_json()
 * elements, taken). */
int resultset_fleet_cell_starts(cJSON *cell, cJSON *starts);
/* Add a string to a cell's "warnings" (when it has that array). */
int resultset_cell_add_warning(cJSON *cell, const char *w);

/* An element of an aggregate repetition's "hosts". */
cJSON *resultset_fleet_rep_host_json(const char *host, int64_t start_ns,
				     uint64_t runtime_ns);
/* An element of an aggregate cell's fleet.reps: {rep, start_skew_ns,
 * common_window_ns, hosts} (hosts taken, even on failure). */
cJSON *resultset_fleet_rep_json(unsigned rep, int64_t skew_ns, uint64_t window_ns,
				cJSON *hosts);
/* An aggregate cell's "fleet": {hosts, start_skew_ns, barrier_margin_ns,
 * reps} (reps taken, even on failure). */
cJSON *resultset_fleet_aggregate_json(const char *const *hosts, size_t nhosts,
				      double start_skew_ns, uint64_t margin_ns,
				      cJSON *reps);

#endif
