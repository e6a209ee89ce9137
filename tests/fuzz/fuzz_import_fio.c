/*
 * fuzz_import_fio.c - libFuzzer target for the importer of fio JSON / json+ output (report/import_fio.c).
 * What parses is turned into cell JSON as import_set_write() would store it
 * (nothing is written to disk).
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/errlist.h"
#include "import/import.h"
#include "fuzz_import_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_set s;
	struct errlist errs = ERRLIST_INIT;
	char path[64];
	int fd, rc;

	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	import_set_init(&s, "fio");
	struct import_fio_opts o = { .device = (size % 2) ? "nvme" : NULL };
	rc = import_fio_file(&s, path, &o, &errs);
	if (rc == 0)
		fuzz_import_cells(&s);
	import_set_release(&s);
	errlist_release(&errs);
	close(fd);
	return 0;
}
