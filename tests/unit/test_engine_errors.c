/*
 * test_engine_errors.c - what psync and libaio answer when the system
 * call fails or falls short, now that they make the call themselves
 * (bench/engines/sysraw.h: -errno from the kernel, errno untouched):
 * a read of a closed fd is -EBADF in the request's result, a read at the
 * end of a file is a short transfer (the bytes there were), a read that
 * fits is the full length; libaio's refused iocb comes back from reap
 * with -EBADF.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"

struct fixture {
	char path[64];
	int fd;
	char buf[8192];
};

/* A 6,000-byte file: a 4K read at 4096 gets 1,904 bytes. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/iomatrix-engerr.XXXXXX");
	f->fd = mkstemp(f->path);
	memset(f->buf, 'x', sizeof(f->buf));
	if (f->fd < 0 || write(f->fd, f->buf, 6000) != 6000)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	close(f->fd);
	unlink(f->path);
	free(f);
	return 0;
}

static struct engine_ctx *start(const struct engine *e, struct fixture *f)
{
	struct engine_opts o;
	struct engine_ctx *ctx = NULL;
	char why[256] = "";
	engine_opts_init(&o);
	o.depth = 4;
	o.fds = &f->fd;
	o.nfds = 1;
	o.bufs = f->buf;
	o.buf_size = 4096;
	if (e->init(&ctx, &o, why, sizeof(why)) < 0)
		return NULL;
	return ctx;
}

static void test_psync(void **state)
{
	struct fixture *f = *state;
	const struct engine *e = engine_lookup("psync");
	assert_non_null(e);
	struct engine_ctx *ctx = start(e, f);
	assert_non_null(ctx);
	struct io_req r = { .fd = f->fd, .buf = f->buf, .len = 4096, .offset = 0 };
	assert_int_equal(e->queue(ctx, &r), ENGINE_Q_COMPLETED);
	assert_int_equal(r.result, 4096);
	r.offset = 4096; /* short: 1,904 bytes, then end of file */
	assert_int_equal(e->queue(ctx, &r), ENGINE_Q_COMPLETED);
	assert_int_equal(r.result, 1904);
	errno = 0;
	r.fd = 1000000; /* no such fd */
	assert_int_equal(e->queue(ctx, &r), ENGINE_Q_COMPLETED);
	assert_int_equal(r.result, -EBADF);
	e->release(ctx);
}

static void test_libaio(void **state)
{
	struct fixture *f = *state;
	const struct engine *e = engine_lookup("libaio");
	if (!e) {
		skip();
		return;
	}
	struct engine_ctx *ctx = start(e, f);
	if (!ctx) { /* no AIO here (aio-max-nr, a seccomp policy) */
		skip();
		return;
	}
	struct io_req r = { .fd = f->fd, .buf = f->buf, .len = 4096, .offset = 0 };
	struct io_req *out[4];
	assert_int_equal(e->queue(ctx, &r), ENGINE_Q_QUEUED);
	assert_int_equal(e->commit(ctx), 0);
	assert_int_equal(e->reap(ctx, 1, 4, out, 0), 1);
	assert_ptr_equal(out[0], &r);
	assert_int_equal(r.result, 4096);
	struct io_req bad = { .fd = 1000000, .buf = f->buf, .len = 4096, .offset = 0 };
	assert_int_equal(e->queue(ctx, &bad), ENGINE_Q_QUEUED);
	assert_int_equal(e->commit(ctx), 0);
	assert_int_equal(e->reap(ctx, 1, 4, out, 0), 1);
	assert_ptr_equal(out[0], &bad);
	assert_int_equal(bad.result, -EBADF);
	e->release(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_psync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_libaio, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
