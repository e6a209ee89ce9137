/*
 * cells.c - the cell-file-name grammar and the walker of cells/ (cells.h).
 */
#include "cells.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/array.h"
#include "util/fsdir.h"
#include "util/fsutil.h"
#include "jsonread.h"

void resultset_cell_name(int id, char *buf, size_t len)
{
	snprintf(buf, len, "%04d.json", id);
}

int resultset_cell_file_id(const char *name)
{
	size_t n = strspn(name, "0123456789");
	char canon[RESULTSET_CELL_NAME_MAX];

	if (n < 4 || n > 7 || strcmp(name + n, ".json"))
		return 0;
	int id = atoi(name);
	/* one spelling per id: what the writer writes, nothing else */
	resultset_cell_name(id, canon, sizeof(canon));
	return id >= 1 && id <= RESULTSET_MAX_ID && !strcmp(canon, name) ? id : 0;
}

int resultset_cells_open(int setfd)
{
	return openat(setfd, "cells", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

int resultset_cells_list(int cellsfd, int **ids_out, size_t *n_out)
{
	int *ids = NULL;
	size_t n = 0, alloc = 0;
	DIR *d = fsdir_open_dup(cellsfd);   /* cellsfd stays open */
	struct dirent *de;

	*ids_out = NULL;
	*n_out = 0;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int id = resultset_cell_file_id(de->d_name);
		if (!id)
			continue;
		int *p = array_grow(ids, &alloc, n, sizeof(*p), 64);
		if (!p) {
			free(ids);
			closedir(d);
			return -ENOMEM;
		}
		ids = p;
		ids[n++] = id;
	}
	closedir(d);
	if (n > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(ids, n, sizeof(*ids), cmp_int);
	size_t m = 0; /* one name per id, so only a defensive dedup */
	for (size_t i = 0; i < n; i++)
		if (m == 0 || ids[m - 1] != ids[i])
			ids[m++] = ids[i];
	*ids_out = ids;
	*n_out = m;
	return 0;
}

int resultset_cell_status_ok(int cellsfd, int id)
{
	char name[RESULTSET_CELL_NAME_MAX];

	resultset_cell_name(id, name, sizeof(name));
	char why[128];
	size_t len;
	char *buf = fsutil_read_at(cellsfd, name, RESULTSET_MAX_FILE_BYTES, 0, &len);
	cJSON *j = buf ? rset_parse_json(buf, len, why, sizeof(why)) : NULL;
	free(buf);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return -1;
	}
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	/* a cell file without status is an ok cell (older writers) */
	int ok = !st || (cJSON_IsString(st) && !strcmp(st->valuestring, "ok"));
	cJSON_Delete(j);
	return ok;
}
