/*
 * placement.h - where a repetition's jobs run: cpus_allowed (fio's name; the
 * jobs share the set, as fio's default cpus_allowed_policy=shared) and
 * numa_node (the node's CPUs, and its memory for the IO buffers; needs a
 * build with libnuma).  Resolved once per repetition, applied to each job
 * thread before it starts and to each job's buffers.
 *
 * Functions return 0, or -errno with a message in err naming the key and
 * the fix.
 */
#ifndef IOMATRIX_PLACEMENT_H
#define IOMATRIX_PLACEMENT_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct placement {
	bool bind_cpus;      /* set holds the CPUs the jobs may run on */
	cpu_set_t set;
	int node;            /* NUMA node of the buffers, -1 none */
	char cpus[128];      /* the set as a cpulist ("0-3"), "" unbound */
};

/* cpus_allowed: NULL or "" for none; numa_node: -1 for none. */
int placement_resolve(const char *cpus_allowed, int numa_node, struct placement *p,
		      char *err, size_t errlen);

/* Bind threads created with attr to the set (no-op when unbound). */
int placement_apply_attr(const struct placement *p, pthread_attr_t *attr);

/* Move [buf, buf+len) to the node (best effort; no-op without a node). */
void placement_bind_memory(const struct placement *p, void *buf, size_t len);

/* Was iomatrix built with libnuma (numa_node usable)? */
bool placement_have_numa(void);

#endif
