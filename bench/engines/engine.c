/*
 * engine.c - the registry of IO engines: one explicit static array, so the
 * set of engines reads off this file.  io_uring is present only when built
 * against liburing (HAVE_LIBURING).
 */
#include "engine.h"

#include <stddef.h>
#include <string.h>

/* Defined at the bottom of each engine_*.c file. */
extern const struct engine engine_libaio;
extern const struct engine engine_psync;
extern const struct engine engine_null;
#ifdef HAVE_LIBURING
extern const struct engine engine_uring;
#endif

static const struct engine *const engines[] = {
	&engine_libaio,
#ifdef HAVE_LIBURING
	&engine_uring,
#endif
	&engine_psync,
	&engine_null,
};
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

static const char *const known[] = { "libaio", "io_uring", "psync", "null" };

const struct engine *engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
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

void engine_opts_init(struct engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->depth = 1;
	o->batch = 1;
	o->sqthread_poll_cpu = -1;
	o->nonvectored = -1;
}

bool engine_known(const char *name)
{
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i], name))
			return true;
	return false;
}
