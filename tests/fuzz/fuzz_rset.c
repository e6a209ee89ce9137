/*
 * fuzz_rset.c - libFuzzer target for the result-set loader (rset_load.c):
 * manifest, plan and cell JSON as another person's set could hold them.
 * Input: parts separated by "\n%%\n", written as manifest.json,
 * cells/0001.json, plan.json and cells/0002.json of a scratch set directory
 * (a missing part means a missing file), then rset_load() of that directory.
 * The whole input also goes through rset_parse_json() (nesting bound).
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/errlist.h"
#include "resultset/jsonread.h"
#include "resultset/rset.h"
#include "fuzz_set_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir;
	char why[256];
	cJSON *j;

	/* rset_parse_json reads buf[len]: it wants fsutil_read_at's NUL. */
	char *copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	j = rset_parse_json(copy, size, why, sizeof(why));
	cJSON_Delete(j);
	free(copy);
	dir = fuzz_set_fill(data, size);
	if (!dir)
		return 0;

	struct rset rs;
	struct errlist errs = ERRLIST_INIT;
	memset(&rs, 0, sizeof(rs));
	if (rset_load(dir, &rs, &errs) == 0) {
		for (size_t i = 0; i < rs.ncells; i++)
			(void)rset_device_find(&rs, rs.cells[i].cell.device ?
					       rs.cells[i].cell.device : "");
	}
	rset_release(&rs);
	errlist_release(&errs);
	return 0;
}
