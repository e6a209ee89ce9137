/*
 * cmd_site.c - placeholder until the site lands.
 */
#include "cli.h"
int cmd_site(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return EXIT_USAGE;
}
