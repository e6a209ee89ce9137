/*
 * fleet_wire.c - the controller's transport, under its state machine
 * (controller.c) and each host's conversation (fleet_host.c): the controller
 * clock, sending one message (proto_msg_new()) as a line to an agent, and
 * failing a host whose line cannot be sent.  It calls nothing above it.
 */
#include "fleet_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/monotime.h"

int64_t fleet_now(const struct fleet *f)
{
	return (int64_t)mono_ns() - f->epoch_ns;
}

bool fleet_live(const struct fhost *h)
{
	return h->st != HS_WAITING && h->st != HS_DONE && h->st != HS_FAILED;
}

/* Stop talking to h: close its input, end its ssh, remember why.  Its
 * remaining cells are written as failed by the caller's next step. */
void fleet_host_failed(struct fleet *f, struct fhost *h, const char *fmt, ...)
{
	va_list ap;

	(void)f;
	if (h->st == HS_FAILED)
		return;
	va_start(ap, fmt);
	vsnprintf(h->fail, sizeof(h->fail), fmt, ap);
	va_end(ap);
	h->st = HS_FAILED;
	/* a lost host's ssh has ended; a misbehaving agent gets 200 ms to
	 * see its input close before its ssh is terminated */
	ssh_close_input(&h->conn);
	ssh_reap(&h->conn, 200);
	ssh_release(&h->conn);
}

int fleet_send(struct fleet *f, struct fhost *h, cJSON *msg)
{
	size_t len;
	char *line = msg ? proto_line(msg, &len) : NULL;
	int ret = -ENOMEM;

	cJSON_Delete(msg);
	if (line && h->conn.to_fd >= 0)
		ret = fsutil_write_all(h->conn.to_fd, line, len);
	free(line);
	if (ret < 0 && h->st != HS_FAILED)
		fleet_host_failed(f, h, "lost: cannot send to its agent (%s)", strerror(-ret));
	return ret;
}
