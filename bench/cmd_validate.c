/*
 * cmd_validate.c - `iomatrix validate` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "cli.h"

int cmd_validate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'validate' is not built yet\n");
	return EXIT_USAGE;
}
