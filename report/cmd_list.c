/*
 * cmd_list.c - `iomatrix list` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "../bench/cli.h"

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'list' is not built yet\n");
	return EXIT_USAGE;
}
