/*
 * fleet.h - `iomatrix run SUITE --hosts H1,H2,...`: drive one suite on
 * many hosts through ssh (survey: each host on its own disks; aggregate:
 * every host the same cell at the same instant) and write one result set,
 * results/<UTC>_<suite>_fleet/, whose cells carry a "host" field
 * (results/README.md, docs/fleet.md).
 *
 * The controller is one thread and one poll loop over every host's ssh
 * pipes; each host is a small state machine (controller.c), and the set is
 * written as results arrive (fleet_set.c).  fleet_run() is controller.c's
 * and fleet_is_set() fleet_set.c's: both include fleet_int.h, which takes
 * struct fleet_opts from this header, so no fleet.c shares its name.
 */
#ifndef IOMATRIX_FLEET_H
#define IOMATRIX_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "fleet/ssh.h"

struct fleet_transport;

/* What `run` parsed that the fleet needs too (all borrowed; fleet_run
 * may change its copy's suite_path, scale and devices to a resumed set's). */
struct run_fleet_common {
	const char *suite_path;     /* NULL on resume: the set's suite.yaml */
	const char *out, *resume;
	const char *const *devices; /* "NAME=PATH" or "HOST:NAME=PATH" */
	size_t ndevices;
	double scale;               /* 0: not given */
	bool yes_destroy_data, quiet;
	int argc;                   /* the command line, for the manifest */
	char **argv;
	volatile sig_atomic_t *stop;
	char *set_dir;          /* out, when not NULL: the set's directory */
	size_t set_dir_len;
};

struct fleet_opts {
	const char *const *hosts;   /* as given: ssh destinations */
	size_t nhosts;
	bool aggregate;
	bool skip_unreachable;
	struct ssh_opts ssh;
	unsigned parallel;          /* survey: hosts at once, 0 = all */
	struct run_fleet_common run;
	/* NULL: ssh to each host.  Else the hosts are a launcher's ranks
	 * (fleet/launch.h, `run --mpi`) and hosts/nhosts are their names. */
	const struct fleet_transport *transport;
};

/* Run it; returns the exit code of `run` (0, 1, 2, 130). */
int fleet_run(const struct fleet_opts *o);

/* Is dir a fleet result set (its manifest has "fleet")? */
bool fleet_is_set(const char *dir);

#endif
