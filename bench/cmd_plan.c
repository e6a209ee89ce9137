/*
 * cmd_plan.c - `iomatrix plan` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "cli.h"

int cmd_plan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'plan' is not built yet\n");
	return EXIT_USAGE;
}
