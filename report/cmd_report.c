/*
 * cmd_report.c - `iomatrix report` (not built yet: says so and exits 2).
 */
#include <stdio.h>

#include "../bench/cli.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iomatrix: 'report' is not built yet\n");
	return EXIT_USAGE;
}
