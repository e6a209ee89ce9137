/*
 * engine_ops.h - ops that several engines share, as the same function in
 * their struct engine (engine.h) rather than a copy each.  Below the
 * registry (registry.c), which lists the engines that use them.
 */
#ifndef IOMATRIX_ENGINE_OPS_H
#define IOMATRIX_ENGINE_OPS_H

struct engine_ctx;

/* The .fsync of the engines that do IO (libaio, io_uring, psync): the
 * plain fsync(2), blocking, with nothing in flight (the worker drains
 * first); -errno. */
int engine_fsync_syscall(struct engine_ctx *ctx, int fd);

#endif
