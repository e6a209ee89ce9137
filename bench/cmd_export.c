/*
 * cmd_export.c - `iomatrix export` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "cli.h"

int cmd_export(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'export' is not built yet\n");
	return EXIT_USAGE;
}
