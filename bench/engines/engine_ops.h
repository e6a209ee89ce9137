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

/* The .fsync of the engines that do no IO (null, model): nothing to make
 * durable; 0. */
int engine_fsync_none(struct engine_ctx *ctx, int fd);

/* The .commit of the engines with nothing to submit after queue (null
 * holds its IO done, psync did it in queue); 0. */
int engine_commit_none(struct engine_ctx *ctx);

#endif
