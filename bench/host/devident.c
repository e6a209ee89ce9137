/*
 * devident.c - the device identity (devident.h).
 */
#include "devident.h"

#include <string.h>

bool devident_same(const struct dev_ident *a, const struct dev_ident *b,
		   const char **what)
{
	if (a->model || b->model) {
		/* two model devices with twice the service time are two
		 * devices, whatever disk their directories are on */
		if (!a->model || !b->model || strcmp(a->model, b->model))
			return false;
		if (what)
			*what = "model device";
		return true;
	}
	if (!a->host || !b->host || strcmp(a->host, b->host))
		return false;
	return fp_disk_same(&a->disk, &b->disk, what);
}
