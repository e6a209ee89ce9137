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

int engine_fsync_none(struct engine_ctx *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	return 0;
}

int engine_commit_none(struct engine_ctx *ctx)
{
	(void)ctx;
	return 0;
}
