/*
 * packname.h - the names a pack may carry (pack.h): each path component
 * of [A-Za-z0-9._+-], not "." or "..", at most 255 bytes; the set's
 * top directory is such a component that does not begin with '.'.  Internal to pack.c and unpack.c.
 */
#ifndef IOMATRIX_RESULTSET_PACKNAME_H
#define IOMATRIX_RESULTSET_PACKNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "util/fsutil.h"

static inline bool packname_component_ok(const char *s, size_t n)
{
	if (n == 0 || n > 255 || (s[0] == '.' && (n == 1 || (n == 2 && s[1] == '.'))))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '+' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* A set's name (its directory, the top of a pack): a name a pack can
 * carry that does not begin with '.', which list, verify and the site
 * would hide as a temporary or dot name. */
static inline bool packname_set_ok(const char *s, size_t n)
{
	return packname_component_ok(s, n) && s[0] != '.';
}

/* The last component of directory path dir ("a/b/" -> "b") into out, if
 * it is a name a pack can carry.  0, or -1. */
static inline int packname_of_dir(const char *dir, char *out, size_t len)
{
	size_t n, b = fsutil_last_component(dir, &n);
	if (!packname_set_ok(dir + b, n) || n >= len)
		return -1;
	memcpy(out, dir + b, n);
	out[n] = '\0';
	return 0;
}

#endif
