/*
 * placement.c - CPU and NUMA placement of job threads and their buffers.
 * The set is applied through the thread attributes, so a job never runs a
 * single IO on the wrong CPU; the buffers are bound (and moved, if already
 * touched by the data fill) to the node before the first IO.
 */
#include "placement.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/cpulist.h"

#ifdef HAVE_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

bool placement_have_numa(void)
{
#ifdef HAVE_LIBNUMA
	return true;
#else
	return false;
#endif
}

/* The CPUs of NUMA node `node` into out. */
static int placement_node_cpus(int node, cpu_set_t *out, char *err, size_t errlen)
{
#ifdef HAVE_LIBNUMA
	if (numa_available() < 0) {
		snprintf(err, errlen, "numa_node %d: the kernel offers no NUMA policy "
			 "here (numa_available failed); drop numa_node", node);
		return -EOPNOTSUPP;
	}
	if (node > numa_max_node() || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)node)) {
		snprintf(err, errlen, "numa_node %d: this machine has nodes 0-%d; pick "
			 "one of them or drop numa_node", node, numa_max_node());
		return -EINVAL;
	}
	struct bitmask *bm = numa_allocate_cpumask();
	if (!bm)
		return -ENOMEM;
	int ret = numa_node_to_cpus(node, bm);
	CPU_ZERO(out);
	for (unsigned c = 0; ret == 0 && c < bm->size && c < CPU_SETSIZE; c++)
		if (numa_bitmask_isbitset(bm, c))
			CPU_SET((int)c, out);
	numa_free_cpumask(bm);
	if (ret < 0 || !CPU_COUNT(out)) {
		snprintf(err, errlen, "numa_node %d has no CPUs (a memory-only node); "
			 "pick a node with CPUs or drop numa_node", node);
		return -EINVAL;
	}
	return 0;
#else
	(void)out;
	snprintf(err, errlen, "numa_node %d: this iomatrix was built without libnuma; "
		 "install libnuma-dev and rebuild, or drop numa_node", node);
	return -EOPNOTSUPP;
#endif
}

int placement_resolve(const char *cpus_allowed, int numa_node, struct placement *p,
		      char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->node = -1;
	char why[200];
	if (cpus_allowed && *cpus_allowed) {
		if (cpulist_parse(cpus_allowed, &p->set, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "cpus_allowed: %s", why);
			return -EINVAL;
		}
		if (cpulist_check_usable(&p->set, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "cpus_allowed '%s': %s; pick from those or drop "
				 "cpus_allowed", cpus_allowed, why);
			return -EINVAL;
		}
		p->bind_cpus = true;
	}
	if (numa_node >= 0) {
		cpu_set_t nset;
		int ret = placement_node_cpus(numa_node, &nset, err, errlen);
		if (ret < 0)
			return ret;
		if (p->bind_cpus) {
			cpu_set_t both;
			CPU_AND(&both, &p->set, &nset);
			if (!CPU_COUNT(&both)) {
				char n[128];
				cpulist_format(&nset, n, sizeof(n));
				snprintf(err, errlen, "cpus_allowed '%s' has no CPU on numa_node "
					 "%d (its CPUs: %s); change one of the two",
					 cpus_allowed, numa_node, n);
				return -EINVAL;
			}
			p->set = both;
		} else {
			p->set = nset;
		}
		p->bind_cpus = true;
		p->node = numa_node;
	}
	if (p->bind_cpus)
		cpulist_format(&p->set, p->cpus, sizeof(p->cpus));
	return 0;
}

int placement_apply_attr(const struct placement *p, pthread_attr_t *attr)
{
	if (!p->bind_cpus)
		return 0;
	return -pthread_attr_setaffinity_np(attr, sizeof(p->set), &p->set);
}

void placement_bind_memory(const struct placement *p, void *buf, size_t len)
{
#ifdef HAVE_LIBNUMA
	if (p->node < 0 || !len)
		return;
	unsigned long mask[(CPU_SETSIZE + 8 * sizeof(unsigned long) - 1) /
			   (8 * sizeof(unsigned long))] = { 0 };
	mask[p->node / (8 * sizeof(unsigned long))] |= 1ul << (p->node % (8 * sizeof(unsigned long)));
	/* best effort: an unmovable page stays where it is, IO still works */
	mbind(buf, len, MPOL_BIND, mask, CPU_SETSIZE, MPOL_MF_MOVE);
#else
	(void)p, (void)buf, (void)len;
#endif
}
