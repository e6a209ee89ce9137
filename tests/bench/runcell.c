/*
 * runcell.c - drive the runner directly on one cell given as key=value
 * arguments (no suite, no result set): used by `make bench` to compare the
 * engines with fio, and handy to poke at the runner by hand.
 *
 *   runcell path=/dev/zram0 engine=libaio pattern=randread bs=4k iodepth=32 \
 *           runtime=10s [jobs= size= files= offset= ramp= requests= io_size=
 *           rwmixread= fsync= end_fsync= data= direct= seed= keep_files=]
 *
 * Prints one line per repetition: iops, bw_bytes_s, lat_mean_ns, and the rep
 * JSON when json=1.  Exit 0 ok, 1 runtime failure, 2 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "runner.h"
#include "units.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int set_kv(struct cell *c, const char *k, const char *v, int *json)
{
	uint64_t u;
	if (!strcmp(k, "path"))
		snprintf(c->path, sizeof(c->path), "%s", v);
	else if (!strcmp(k, "device"))
		snprintf(c->device, sizeof(c->device), "%s", v);
	else if (!strcmp(k, "engine"))
		snprintf(c->engine, sizeof(c->engine), "%s", v);
	else if (!strcmp(k, "pattern"))
		return pattern_parse(v, &c->pattern);
	else if (!strcmp(k, "bs"))
		return units_parse_size(v, &c->bs);
	else if (!strcmp(k, "size"))
		return units_parse_size(v, &c->size);
	else if (!strcmp(k, "offset"))
		return units_parse_size(v, &c->offset);
	else if (!strcmp(k, "io_size"))
		return units_parse_size(v, &c->io_size);
	else if (!strcmp(k, "runtime"))
		return units_parse_duration(v, &c->runtime_ns);
	else if (!strcmp(k, "ramp"))
		return units_parse_duration(v, &c->ramp_ns);
	else if (!strcmp(k, "interval"))
		return units_parse_duration(v, &c->interval_ns);
	else if (!strcmp(k, "json"))
		*json = atoi(v);
	else if (!strcmp(k, "compress_pct")) {
		c->data = DATA_COMPRESSIBLE;
		c->compress_pct = (unsigned)atoi(v);
	} else if (!strcmp(k, "data")) {
		if (!strcmp(v, "random"))
			c->data = DATA_RANDOM;
		else if (!strcmp(v, "zero"))
			c->data = DATA_ZERO;
		else
			return -1;
	} else {
		char *end;
		u = strtoull(v, &end, 0);
		if (*end && strcmp(v, "true") && strcmp(v, "false"))
			return -1;
		if (!strcmp(v, "true"))
			u = 1;
		if (!strcmp(k, "iodepth"))
			c->iodepth = (unsigned)u;
		else if (!strcmp(k, "jobs"))
			c->jobs = (unsigned)u;
		else if (!strcmp(k, "files"))
			c->files = (unsigned)u;
		else if (!strcmp(k, "requests"))
			c->requests = u;
		else if (!strcmp(k, "rwmixread"))
			c->rwmixread = (unsigned)u;
		else if (!strcmp(k, "fsync"))
			c->fsync = (unsigned)u;
		else if (!strcmp(k, "end_fsync"))
			c->end_fsync = u != 0;
		else if (!strcmp(k, "direct"))
			c->direct = u != 0;
		else if (!strcmp(k, "drop_caches"))
			c->drop_caches = u != 0;
		else if (!strcmp(k, "keep_files"))
			c->keep_files = u != 0;
		else if (!strcmp(k, "seed"))
			c->seed = u;
		else if (!strcmp(k, "repeat"))
			c->repeat = (unsigned)u;
		else if (!strcmp(k, "destructive"))
			c->destructive = u != 0;
		else
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cell c;
	struct target t;
	struct rep_result r;
	char err[512] = "";
	int json = 0, rc = 0;

	cell_init(&c);
	snprintf(c.device, sizeof(c.device), "bench");
	c.pattern = PAT_RANDREAD;
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "runcell: expected key=value, got '%s'\n", argv[i]);
			return 2;
		}
		*eq = 0;
		if (set_kv(&c, argv[i], eq + 1, &json) < 0) {
			fprintf(stderr, "runcell: bad '%s=%s'\n", argv[i], eq + 1);
			return 2;
		}
	}
	if (!c.path[0]) {
		fprintf(stderr, "runcell: path= is required\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	struct run_ctl ctl = { .stop = &stop_flag };
	int ret = runner_prepare(&c, &t, &ctl, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "runcell: %s\n", err);
		return ret == -EINVAL ? 2 : 1;
	}
	for (unsigned rep = 1; rep <= (c.repeat ? c.repeat : 1); rep++) {
		ret = runner_run_rep(&c, &t, &ctl, &r, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "runcell: %s\n", err);
			rep_result_release(&r);
			rc = ret == -EINTR ? 130 : ret == -EINVAL ? 2 : 1;
			break;
		}
		double rt = r.runtime_ns / 1e9;
		uint64_t ios = r.dir[0].ios + r.dir[1].ios;
		uint64_t bytes = r.dir[0].bytes + r.dir[1].bytes;
		struct welford w = r.dir[0].lat;
		welford_merge(&w, &r.dir[1].lat);
		printf("rep=%u ios=%llu read_ios=%llu write_ios=%llu bytes=%llu runtime_ns=%llu "
		       "iops=%.0f bw_bytes_s=%.0f lat_mean_ns=%.0f usr_pct=%.1f sys_pct=%.1f\n",
		       rep, (unsigned long long)ios, (unsigned long long)r.dir[0].ios,
		       (unsigned long long)r.dir[1].ios, (unsigned long long)bytes,
		       (unsigned long long)r.runtime_ns, rt > 0 ? ios / rt : 0,
		       rt > 0 ? bytes / rt : 0, w.mean, r.cpu_usr_pct, r.cpu_sys_pct);
		if (r.warning[0])
			fprintf(stderr, "runcell: warning: %s\n", r.warning);
		if (json) {
			cJSON *j = rep_result_to_json(&r, (int)rep);
			char *s = j ? cJSON_PrintUnformatted(j) : NULL;
			if (s)
				printf("%s\n", s);
			free(s);
			cJSON_Delete(j);
		}
		rep_result_release(&r);
	}
	runner_cleanup(&t, c.keep_files);
	target_release(&t);
	return rc;
}
