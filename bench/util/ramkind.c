/*
 * ramkind.c - the RAM-kind table (see ramkind.h).  Before this there were
 * four hand lists (fingerprint, report warnings, the SSD section, the
 * tmpfs test in the fingerprint) and they disagreed on brd and devtmpfs.
 */
#include <ctype.h>
#include <string.h>

#include "ramkind.h"

enum { RK_DISK, RK_FS, RK_NAME };

/* how: RK_DISK matches a disk name prefix followed by a digit, RK_FS a
 * filesystem type, RK_NAME only a kind recorded by someone else (brd is
 * the driver behind ram0.., older or imported sets may say so). */
static const struct {
	const char *kind;
	int how;
} ram_kinds[] = {
	{ "zram", RK_DISK },
	{ "ram", RK_DISK },
	{ "pmem", RK_DISK },
	{ "brd", RK_NAME },
	{ "tmpfs", RK_FS },
	{ "ramfs", RK_FS },
	{ "devtmpfs", RK_FS },
};
#define NKINDS (sizeof(ram_kinds) / sizeof(ram_kinds[0]))

bool ram_kind_is(const char *kind)
{
	for (size_t i = 0; kind && i < NKINDS; i++)
		if (!strcmp(kind, ram_kinds[i].kind))
			return true;
	return false;
}

const char *ram_kind_of_disk(const char *disk)
{
	for (size_t i = 0; disk && i < NKINDS; i++) {
		size_t n = strlen(ram_kinds[i].kind);
		if (ram_kinds[i].how == RK_DISK && !strncmp(disk, ram_kinds[i].kind, n) &&
		    isdigit((unsigned char)disk[n]))
			return ram_kinds[i].kind;
	}
	return NULL;
}

const char *ram_kind_of_fs(const char *fstype)
{
	for (size_t i = 0; fstype && i < NKINDS; i++)
		if (ram_kinds[i].how == RK_FS && !strcmp(fstype, ram_kinds[i].kind))
			return ram_kinds[i].kind;
	return NULL;
}
