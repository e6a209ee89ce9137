/*
 * cpulist.h - CPU lists as fio's cpus_allowed and the kernel's cpulist files
 * write them: "0-3,8,10-11".  Parsed into a cpu_set_t for sched/pthread
 * affinity, and checked against the CPUs this process may run on.
 *
 * Functions return 0, or -1 with a message in err (lower-case, says the fix).
 */
#ifndef IOMATRIX_CPULIST_H
#define IOMATRIX_CPULIST_H

#include <sched.h>
#include <stddef.h>

/* "0-3,8" -> set; -1 on syntax errors, descending ranges, ids at or past
 * CPU_SETSIZE, or an empty list. */
int cpulist_parse(const char *s, cpu_set_t *out, char *err, size_t errlen);

/* Format a set as a cpulist ("0-3,8"); "" when empty.  Truncates to len. */
void cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* Every CPU of want must be one this process may run on (its affinity
 * mask: online and in its cpuset).  -1 with the ones that are not, and the
 * ones that are, in err. */
int cpulist_check_usable(const cpu_set_t *want, char *err, size_t errlen);

#endif
