/*
 * reproduce.h - what `iomatrix reproduce` checks before it hands a set's own
 * suite to run's code path (cmd/cmd_reproduce.c): that every device of
 * the set is mapped to a local path, and that an imported set carries
 * every parameter a re-run needs (fio's JSON echoes its job options; a CSV
 * of published figures does not say how big or how long).  The verdicts
 * are report/reproduce/repro.h's.
 *
 * Functions return 0, or -1 with the whole message (naming the fix) in err.
 */
#ifndef IOMATRIX_REPRODUCE_H
#define IOMATRIX_REPRODUCE_H

#include <stddef.h>

#include "util/sbuf.h"
#include "resultset/reprofile.h"

/* Every device of o's manifest has a "NAME=PATH" among maps; else err
 * lists the set's devices (with the paths they had) and the --device
 * arguments to add.  (A map may also name a device only the suite has:
 * the suite's loader refuses one that names neither, received.h.)  The
 * message is one line, the set's names raw: print it through termesc. */
int reproduce_check_devices(const struct repro_original *o, const char *const *maps,
			    size_t nmaps, struct sbuf *err);

/* An imported set (source kind other than "iomatrix") can be re-run: its
 * cells carry the parameters the source recorded.  fio: every cell has
 * fio's job options and an extent (size, io_size, number_ios or runtime);
 * csv: never (published figures give no size or runtime; the engine too
 * when no column gave it).  sysbench logs carry their whole command. */
int reproduce_check_complete(const struct repro_original *o, struct sbuf *err);

#endif
