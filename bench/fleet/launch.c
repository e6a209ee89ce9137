/*
 * launch.c - host names and path placeholders of a launcher's fleet
 * (launch.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/launch.h"

int launch_host_name(struct launch_host *h)
{
	size_t n = strlen(h->node);

	if (!n || n >= LAUNCH_NODE_MAX)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)h->node[i];
		if (c <= ' ' || c == 0x7f || c == ',' || c == '=' || c == ':')
			return -1;
	}
	if (h->local_rank < 0 || h->rank < 0)
		return -1;
	snprintf(h->name, sizeof(h->name), "%s:%d", h->node, h->local_rank);
	return 0;
}

static const struct {
	const char *word;
	size_t len;
} words[] = {
	{ "{rank}", 6 },
	{ "{node}", 6 },
	{ "{local_rank}", 12 },
};

bool launch_name_ok(const char *s)
{
	if (!*s || !strcmp(s, ".") || strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return false;
	return true;
}

int launch_expand_path(const char *in, const struct launch_host *h, char *out,
		       size_t outlen)
{
	size_t k = 0;

	if (!outlen)
		return -1;
	while (*in) {
		char num[16];
		const char *rep = NULL;
		size_t skip = 1;
		for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
			if (!strncmp(in, words[w].word, words[w].len)) {
				skip = words[w].len;
				if (w == 1) {
					rep = h->node;
				} else {
					snprintf(num, sizeof(num), "%d", w == 0 ? h->rank : h->local_rank);
					rep = num;
				}
				break;
			}
		if (rep && !launch_name_ok(rep))
			return -2;
		size_t n = rep ? strlen(rep) : 1;
		if (k + n >= outlen)
			return -1;
		memcpy(out + k, rep ? rep : in, n);
		k += n;
		in += skip;
	}
	out[k] = '\0';
	return 0;
}

/* Variable name of get as a number in [0, 2^24): -1 when absent or not one. */
static long launch_env_num(char *(*get)(const char *), const char *name)
{
	const char *v = get(name);
	char *end;

	if (!v || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	long n = strtol(v, &end, 10);
	return errno || *end || n >= 16777216 ? -1 : n;
}

const char *launch_launcher(char *(*get)(const char *), int rank, int size)
{
	if (launch_env_num(get, "OMPI_COMM_WORLD_SIZE") == size &&
	    launch_env_num(get, "OMPI_COMM_WORLD_RANK") == rank &&
	    launch_env_num(get, "OMPI_COMM_WORLD_LOCAL_RANK") >= 0)
		return "mpirun";
	if (launch_env_num(get, "SLURM_JOB_ID") >= 0 && launch_env_num(get, "SLURM_STEP_ID") >= 0 &&
	    launch_env_num(get, "SLURM_PROCID") == rank &&
	    launch_env_num(get, "SLURM_STEP_NUM_TASKS") == size)
		return "srun";
	if (launch_env_num(get, "PMI_SIZE") == size && launch_env_num(get, "PMI_RANK") == rank)
		return "mpiexec";
	return size == 1 ? "singleton" : "unknown";
}

cJSON *launch_host_json(const struct launch_host *h)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddNumberToObject(o, "rank", h->rank) ||
	    !cJSON_AddStringToObject(o, "node", h->node) ||
	    !cJSON_AddNumberToObject(o, "local_rank", h->local_rank)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* a rank number as JSON gives it: an integer in [0, 2^24) */
static int get_rank(const cJSON *j, const char *k, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= 16777216.0 ||
	    v->valuedouble != (double)(int)v->valuedouble)
		return -1;
	*out = (int)v->valuedouble;
	return 0;
}

int launch_host_from_json(const cJSON *j, struct launch_host *h)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(j, "node");

	memset(h, 0, sizeof(*h));
	if (!cJSON_IsObject(j) || !cJSON_IsString(node) ||
	    strlen(node->valuestring) >= sizeof(h->node) ||
	    get_rank(j, "rank", &h->rank) < 0 || get_rank(j, "local_rank", &h->local_rank) < 0)
		return -1;
	strcpy(h->node, node->valuestring);
	return launch_host_name(h);
}
