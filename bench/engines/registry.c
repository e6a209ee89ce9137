/*
 * registry.c - the registry of IO engines (engine.h): one explicit static
 * array, the one list of engine names, so the set of engines reads off this
 * file; and the defaults of engine_opts.  io_uring is always known; it has
 * ops (ENGINE_BUILTIN) only when built against liburing (HAVE_LIBURING).
 */
#include "engine.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Defined at the bottom of each engine_*.c file. */
extern const struct engine engine_libaio;
extern const struct engine engine_uring;
extern const struct engine engine_psync;
extern const struct engine engine_null;
extern const struct engine engine_model;

static const struct engine *const engines[] = {
	&engine_libaio,
	&engine_uring,
	&engine_psync,
	&engine_null,
	&engine_model,
};
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const struct engine *engine_lookup(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct engine *engine_find(const char *name)
{
	const struct engine *e = engine_lookup(name);
	return e && (e->flags & ENGINE_BUILTIN) ? e : NULL;
}

bool engine_known(const char *name)
{
	return engine_lookup(name) != NULL;
}

const char *const *engine_names(void)
{
	static const char *names[NENGINES + 1];
	/* constant data; filling it twice from two threads writes the same */
	for (size_t i = 0; i < NENGINES; i++)
		names[i] = engines[i]->name;
	names[NENGINES] = NULL;
	return names;
}

const char *engine_names_text(void)
{
	static char text[NENGINES * 16 + 8];
	size_t n = 0;

	/* idempotent, like engine_names() */
	for (size_t i = 0; i < NENGINES; i++) {
		const char *sep = i == 0 ? "" : i + 1 == NENGINES ? " or " : ", ";
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", sep,
				      engines[i]->name);
	}
	return text;
}

void engine_opts_init(struct engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->depth = 1;
	o->batch = 1;
	o->sqthread_poll_cpu = -1;
	o->nonvectored = -1;
}
