/*
 * engine_ops.c - the ops several engines share (engine_ops.h).
 */
#include <errno.h>
#include <unistd.h>

#include "engine_ops.h"

int engine_fsync_syscall(struct engine_ctx *ctx, int fd)
{
	(void)ctx;
	return fsync(fd) < 0 ? -errno : 0;
}
