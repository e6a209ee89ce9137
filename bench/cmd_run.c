/*
 * cmd_run.c - `iomatrix run` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "cli.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'run' is not built yet\n");
	return EXIT_USAGE;
}
