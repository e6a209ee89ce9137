/*
 * fuzz_cmds.c - libFuzzer target for the commands that read result sets,
 * run as a user would: `report SET -o OUT --charts none` (every format, the
 * real templates from ./templates), `compare SET SET`, `list BASE`.  Same
 * input format as fuzz_rset.c.  Outputs go to the scratch BASE/out; stdout
 * is closed by run.sh (-close_fd_mask=1).
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz_set_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char set[340], out[340], cmp[340], base[300];
	const char *dir = fuzz_set_fill(data, size);

	if (!dir)
		return 0;
	snprintf(set, sizeof(set), "%s", dir);
	snprintf(base, sizeof(base), "%s", rset_fuzz_base);
	snprintf(out, sizeof(out), "%s/out", rset_fuzz_base);
	snprintf(cmp, sizeof(cmp), "%s/cmp", rset_fuzz_base);
	{
		char *argv[] = { (char *)"report", set, (char *)"-o", out,
				 (char *)"--charts", (char *)"none", NULL };
		(void)cli_call(cli_find("report"), 6, argv, NULL);
	}
	{
		char *argv[] = { (char *)"compare", set, set, (char *)"-o", cmp,
				 (char *)"--threshold", (char *)"1", NULL };
		(void)cli_call(cli_find("compare"), 7, argv, NULL);
	}
	{
		char *argv[] = { (char *)"list", base, NULL };
		(void)cli_call(cli_find("list"), 2, argv, NULL);
	}
	fflush(stdout);
	return 0;
}
