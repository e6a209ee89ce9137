/*
 * qosfile.c - the cell file's "load_sweep" object (qosfile.h): the one
 * writer and the one reader.
 */
#include "qosfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonutil.h"

static bool num(cJSON *o, const char *k, double v)
{
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

static cJSON *point_json(const struct qos_point *p)
{
	cJSON *o = cJSON_CreateObject(), *r, *s;
	if (!o || !num(o, "offered_iops", p->offered_iops) ||
	    !num(o, "achieved_iops", p->achieved_iops) ||
	    !cJSON_AddBoolToObject(o, "refined", p->refined) ||
	    !(r = cJSON_AddObjectToObject(o, "response")) ||
	    !num(r, "p50_ns", p->p50_ns) || !num(r, "p99_ns", p->p99_ns) ||
	    !num(r, "p999_ns", p->p999_ns) || !num(r, "p9999_ns", p->p9999_ns) ||
	    !num(r, "mean_ns", p->mean_ns) ||
	    !(s = cJSON_AddObjectToObject(o, "service")) ||
	    !num(s, "p50_ns", p->svc_p50_ns) || !num(s, "p99_ns", p->svc_p99_ns) ||
	    !num(s, "p999_ns", p->svc_p999_ns) || !num(s, "mean_ns", p->svc_mean_ns)) {
		cJSON_Delete(o);
		return NULL;
	}
	cJSON *iv;
	if (p->iv_n && (!(iv = cJSON_AddObjectToObject(r, "interval_p99_ns")) ||
			!num(iv, "intervals", p->iv_n) || !num(iv, "min", p->iv_p99_min_ns) ||
			!num(iv, "max", p->iv_p99_max_ns))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static bool verdict_json(cJSON *o, const struct sweep_data *s)
{
	struct qos_verdict v;
	cJSON *q = cJSON_AddObjectToObject(o, "qos");
	qos_judge(s->pts, s->n, &s->target, &v);
	if (!q || !cJSON_AddStringToObject(q, "metric", qos_metric_name(s->target.metric)) ||
	    !num(q, "target_ns", (double)s->target.target_ns) ||
	    !cJSON_AddBoolToObject(q, "met", v.met))
		return false;
	if (v.met)
		return num(q, "sustained_iops", v.sustained_iops) &&
		       num(q, "sustained_pct_of_max", s->max_iops > 0 ?
			   100 * v.sustained_iops / s->max_iops : 0);
	if (v.best < 0)
		return true;
	return num(q, "lowest_ns", v.lowest_ns) &&
	       num(q, "lowest_offered_iops", s->pts[v.best].offered_iops);
}

cJSON *resultset_sweep_to_json(const struct sweep_data *s)
{
	cJSON *o = cJSON_CreateObject(), *a;
	int knee = qos_knee(s->pts, s->n, QOS_KNEE_K, &s->target);
	if (!o || !num(o, "max_iops", s->max_iops) || !num(o, "knee_k", QOS_KNEE_K) ||
	    !(knee >= 0 ? num(o, "knee_index", knee) :
	      cJSON_AddNullToObject(o, "knee_index") != NULL) ||
	    !(a = cJSON_AddArrayToObject(o, "points")))
		goto err;
	for (size_t i = 0; i < s->n; i++)
		if (!cJSON_AddItemToArray(a, point_json(&s->pts[i])))
			goto err;
	if (s->target.metric != QOS_NONE && !verdict_json(o, s))
		goto err;
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

/* a number >= 0 at o.k into *v; false when missing or not one */
static bool get(const cJSON *o, const char *k, double *v)
{
	double x;
	if (json_num(o, k, &x) < 0 || x < 0)
		return false;
	*v = x;
	return true;
}

static bool point_from(const cJSON *o, struct qos_point *p)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "response");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "service");
	const cJSON *iv = cJSON_GetObjectItemCaseSensitive(r, "interval_p99_ns");
	double ivn = 0;
	memset(p, 0, sizeof(*p));
	p->refined = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "refined"));
	/* absent in sets before it: not known */
	if (get(iv, "intervals", &ivn) && ivn >= 1 && ivn < 1e9 &&
	    get(iv, "min", &p->iv_p99_min_ns) && get(iv, "max", &p->iv_p99_max_ns) &&
	    p->iv_p99_min_ns <= p->iv_p99_max_ns)
		p->iv_n = (unsigned)ivn;
	return get(o, "offered_iops", &p->offered_iops) &&
	       get(o, "achieved_iops", &p->achieved_iops) &&
	       get(r, "p50_ns", &p->p50_ns) && get(r, "p99_ns", &p->p99_ns) &&
	       get(r, "p999_ns", &p->p999_ns) && get(r, "p9999_ns", &p->p9999_ns) &&
	       get(r, "mean_ns", &p->mean_ns) &&
	       get(s, "p50_ns", &p->svc_p50_ns) && get(s, "p99_ns", &p->svc_p99_ns) &&
	       get(s, "p999_ns", &p->svc_p999_ns) && get(s, "mean_ns", &p->svc_mean_ns);
}

int resultset_sweep_from_json(const cJSON *cell, struct sweep_data *out,
			      char *err, size_t errlen)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(cell, "load_sweep");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "points"), *x;
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(o, "qos");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(cell, "params");
	memset(out, 0, sizeof(*out));
	out->knee = -1;
	if (!o)
		return 0;
	int n = cJSON_GetArraySize(a);
	if (!cJSON_IsArray(a) || !get(o, "max_iops", &out->max_iops) ||
	    !(out->pts = calloc(n ? (size_t)n : 1, sizeof(*out->pts))))
		goto bad;
	cJSON_ArrayForEach(x, a)
		if (!point_from(x, &out->pts[out->n++]))
			goto bad;
	qos_points_sort(out->pts, out->n);
	/* the target is the cell's parameter; "qos" holds the verdict of it */
	const cJSON *pq = cJSON_GetObjectItemCaseSensitive(params, "qos");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(q ? q : pq, "metric");
	double t = 0;
	if ((q || pq) && (!cJSON_IsString(m) ||
	    qos_metric_parse(m->valuestring, &out->target.metric) < 0 ||
	    !get(q ? q : pq, "target_ns", &t)))
		goto bad;
	out->target.target_ns = (uint64_t)t;
	out->knee = qos_knee(out->pts, out->n, QOS_KNEE_K, &out->target);
	return 1;
bad:
	snprintf(err, errlen, "'load_sweep' of the cell is malformed");
	sweep_data_release(out);
	return -1;
}

void sweep_data_release(struct sweep_data *s)
{
	free(s->pts);
	memset(s, 0, sizeof(*s));
	s->knee = -1;
}
