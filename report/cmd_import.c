/*
 * cmd_import.c - `iomatrix import` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "../bench/cli.h"

int cmd_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'import' is not built yet\n");
	return EXIT_USAGE;
}
