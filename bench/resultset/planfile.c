/*
 * planfile.c - plan.json (resultset.h): the suite's cells as the run will
 * measure them, written one cell at a time, byte for byte what cJSON_Print
 * gives for the whole plan.  Split from setdir.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/fsutil.h"
#include "resultset.h"

/* A JSON string literal of text, escaped as cJSON does; NULL on OOM. */
static char *json_literal(const char *text)
{
	cJSON *j = cJSON_CreateString(text);
	char *out = j ? cJSON_PrintUnformatted(j) : NULL;

	cJSON_Delete(j);
	return out;
}

/* The plan's members after "cells" (purge, preconditioning, rounds of
 * the SSD keys, only when a suite uses them), printed as cJSON_Print
 * would at depth 1.  0 or -ENOMEM. */
static int plan_extra_write(FILE *f, const struct suite *s)
{
	cJSON *x = cJSON_CreateObject(), *m;
	int ret = 0;

	if (!x || plan_ssd_to_json(s, x) < 0) {
		cJSON_Delete(x);
		return -ENOMEM;
	}
	cJSON_ArrayForEach(m, x) {
		char *k = json_literal(m->string), *v = cJSON_Print(m);
		if (!k || !v) {
			free(k);
			free(v);
			ret = -ENOMEM;
			break;
		}
		fprintf(f, ",\n\t%s:\t", k);
		for (const char *p = v; *p; p++) {
			putc(*p, f);
			if (*p == '\n')
				putc('\t', f);
		}
		free(k);
		free(v);
	}
	cJSON_Delete(x);
	return ret;
}

int resultset_plan_write(FILE *f, const struct suite *s)
{
	char *name = json_literal(s->name ? s->name : "");
	char *sha = json_literal(s->sha256);
	int ret = 0;

	/* Byte for byte what cJSON_Print gives for the whole plan (the plan
	 * goldens hold it), one cell at a time so that a 100,000-cell plan
	 * never exists as one tree: each cell object is printed alone and
	 * indented to its depth (2) in the "cells" array. */
	if (!name || !sha) {
		ret = -ENOMEM;
		goto out;
	}
	fprintf(f, "{\n\t\"schema_version\":\t%d,\n\t\"suite\":\t%s,\n"
		"\t\"sha256\":\t%s,\n\t\"cells\":\t[", RESULTSET_SCHEMA_VERSION,
		name, sha);
	for (size_t i = 0; i < s->ncells; i++) {
		char why[160];
		/* the loader refused these already: what is written is read */
		if (cell_check_recorded(&s->cells[i], why, sizeof(why)) < 0) {
			ret = -ERANGE;
			goto out;
		}
		cJSON *c = cell_to_json(&s->cells[i]);
		char *txt = c ? cJSON_Print(c) : NULL;
		cJSON_Delete(c);
		if (!txt) {
			ret = -ENOMEM;
			goto out;
		}
		if (i)
			fputs(", ", f);
		for (const char *p = txt; *p; p++) {
			putc(*p, f);
			if (*p == '\n')
				fputs("\t\t", f);
		}
		free(txt);
	}
	fputs("]", f);
	if ((ret = plan_extra_write(f, s)) < 0)
		goto out;
	fputs("\n}\n", f);
	if (ferror(f))
		ret = -EIO;
out:
	free(name);
	free(sha);
	return ret;
}

int resultset_write_plan(struct resultset *rs, const struct suite *s)
{
	struct fsutil_atomic a;
	int ret = fsutil_atomic_begin_at(&a, rs->dirfd, "plan.json");

	if (ret < 0)
		return ret;
	if ((ret = resultset_plan_write(a.f, s)) < 0) {
		fsutil_atomic_abort(&a);
		return ret;
	}
	return fsutil_atomic_commit(&a);
}
