/*
 * launch.h - a fleet that another launcher started: under `mpirun` or
 * `srun`, every rank is a host of one fleet set.  The launcher, not ssh,
 * starts the agents (cmd/mpi/ starts one per rank and carries its lines to
 * rank 0); the controller (controller.c) is handed a connection per host through
 * struct fleet_transport instead of spawning ssh, and everything else -
 * handshake, clock offsets, barrier, merge, the set - is the ssh fleet's.
 *
 * A host is named NODE:LOCAL_RANK (the node as the launcher names it, the
 * rank among the ranks on that node), so hosts on one node sort together
 * and `--device HOST:NAME=PATH` still splits at the last ':' before '='.
 *
 * Pure code besides the table: no MPI here, so the core build and its unit
 * tests do not need an MPI library.
 */
#ifndef IOMATRIX_FLEET_LAUNCH_H
#define IOMATRIX_FLEET_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "fleet/ssh.h"

/* Longest node name kept (MPI_MAX_PROCESSOR_NAME is 256 in Open MPI). */
#define LAUNCH_NODE_MAX 256
#define LAUNCH_NAME_MAX (LAUNCH_NODE_MAX + 16)

/* One rank as the launcher placed it. */
struct launch_host {
	char name[LAUNCH_NAME_MAX];   /* NODE:LOCAL_RANK, the fleet's host name */
	char node[LAUNCH_NODE_MAX];
	int rank, local_rank;
};

struct fleet_transport {
	const char *kind;                /* "mpi" */
	const struct launch_host *hosts; /* in rank order */
	size_t nhosts;
	const cJSON *record;             /* fleet.launch of the manifest (copied) */
	/* Host i's agent session: fills c as ssh_spawn would (pid 0 when no
	 * child of this process carries it).  0, or -errno with err. */
	int (*connect)(void *ctx, size_t i, struct ssh_conn *c, char *err, size_t errlen);
	void *ctx;
};

/* h's name, NODE:LOCAL_RANK, into h->name.  -1 when the node name is empty,
 * too long or holds a byte a host name may not (control, space, ',', '='). */
int launch_host_name(struct launch_host *h);

/*
 * Copies in to out with {rank}, {node} and {local_rank} replaced by h's
 * (a device path per rank: /scratch/{node}/r{local_rank}); any other brace
 * is copied as it is.  A placeholder expands to one name, never to a path:
 * a value that is empty, ".", or holds a '/', a ".." or a byte outside
 * [A-Za-z0-9._-] (a rank whose host calls itself "../victimdir" would
 * turn SCR/{node} into a path outside SCR) is refused.  0; -1 when out
 * (outlen bytes) is too small; -2 when a value used is no such name.
 */
int launch_expand_path(const char *in, const struct launch_host *h, char *out,
		       size_t outlen);

/* May s be what a placeholder expands to (above)? */
bool launch_name_ok(const char *s);

/*
 * Who started this MPI job, judged from what each launcher documents that
 * it sets in every process it starts, all of it together and in agreement
 * with the MPI world this process is rank `rank` of `size` in:
 *   "mpirun"    Open MPI's mpirun/mpiexec: OMPI_COMM_WORLD_SIZE,
 *               OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_LOCAL_RANK;
 *   "srun"      Slurm's srun: SLURM_JOB_ID, SLURM_STEP_ID, SLURM_PROCID
 *               and SLURM_STEP_NUM_TASKS (a batch script alone has no
 *               step; srun inside mpirun is mpirun's);
 *   "mpiexec"   MPICH's Hydra (and Intel MPI's): PMI_RANK and PMI_SIZE;
 *   "singleton" none of them and one process: MPI started by itself,
 *               no launcher (a stray SLURM_STEP_ID changes nothing);
 *   "unknown"   several processes, but no launcher's variables agree.
 * get: getenv, or a test's.  Never NULL.
 */
const char *launch_launcher(char *(*get)(const char *), int rank, int size);

/* {"rank", "node", "local_rank"} for the suite message; NULL out of memory.
 * launch_host_from_json reads it back (0, or -1 when malformed). */
cJSON *launch_host_json(const struct launch_host *h);
int launch_host_from_json(const cJSON *j, struct launch_host *h);

/* The MPI helper's name, and where `run --mpi` looks for it: beside the
 * running binary, then in the install's libexec directory. */
#define LAUNCH_MPI_HELPER "iomatrix-mpi"

/*
 * `iomatrix run ... --mpi` in the plain binary: exec the helper
 * (LAUNCH_MPI_HELPER beside /proc/self/exe, then in the install's
 * libexec directory) with argv, run's arguments from "run" on.  Returns
 * only when it cannot: 2 with the install line when there is none, 1 when
 * it would not start.
 */
int launch_exec_helper(int argc, char **argv);

#endif
