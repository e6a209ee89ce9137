/*
 * cmd_compare.c - `iomatrix compare` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "../bench/cli.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'compare' is not built yet\n");
	return EXIT_USAGE;
}
