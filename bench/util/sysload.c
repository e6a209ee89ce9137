/*
 * sysload.c - /proc/loadavg and /proc/stat readings around a repetition,
 * and the rule that says other work competed (sysload.h).
 */
#include "sysload.h"
#include "testhook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool read_loadavg(const char *dir, struct sysload *s)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/loadavg", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fscanf(f, "%lf %lf %lf", &s->load[0], &s->load[1], &s->load[2]) == 3;
	fclose(f);
	return ok && s->load[0] >= 0 && s->load[1] >= 0 && s->load[2] >= 0;
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice":
 * guest time is already inside user (and guest_nice inside nice). */
static bool read_stat(const char *dir, struct sysload *s)
{
	char path[4096], line[1024];
	snprintf(path, sizeof(path), "%s/stat", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool got = false;
	s->ncpu = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		if (!strncmp(line, "cpu ", 4)) {
			int n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
				       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
			if (n < 4)
				break;
			s->busy = v[0] + v[1] + v[2];
			s->iowait = v[4];
			s->steal = v[7];
			s->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
			got = true;
		} else if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9') {
			s->ncpu++;
		}
	}
	fclose(f);
	return got;
}

int sysload_read(const char *dir, struct sysload *s)
{
	memset(s, 0, sizeof(*s));
	s->have_load = read_loadavg(dir, s);
	s->have_stat = read_stat(dir, s);
	return s->have_load || s->have_stat ? 0 : -1;
}

void sysload_delta(const struct sysload *a, const struct sysload *b, double own_cpu_s,
		   double hz, struct sysload_delta *out)
{
	memset(out, 0, sizeof(*out));
	out->ncpu = b->ncpu ? b->ncpu : a->ncpu;
	if (!a->have_stat || !b->have_stat || b->total <= a->total || b->busy < a->busy ||
	    b->iowait < a->iowait || b->steal < a->steal || !out->ncpu || !(hz > 0))
		return;
	double tot = (double)(b->total - a->total);
	double busy = (double)(b->busy - a->busy);
	double own = own_cpu_s > 0 ? own_cpu_s * hz : 0;
	out->have_cpu = true;
	out->busy_pct = busy / tot * 100;
	out->iowait_pct = (double)(b->iowait - a->iowait) / tot * 100;
	out->steal_pct = (double)(b->steal - a->steal) / tot * 100;
	/* ticks are sampled, our rusage exact: never more than all of busy */
	if (own > busy)
		own = busy;
	out->own_pct = own / tot * 100;
	out->other_cpus = (busy - own) / tot * out->ncpu;
}

bool sysload_competed(double other_cpus, double steal_pct)
{
	return other_cpus >= SYSLOAD_OTHER_CPUS || steal_pct >= SYSLOAD_STEAL_PCT;
}

const char *sysload_dir(void)
{
	const char *d = testhook_value("proc");
	return d ? d : "/proc";
}
