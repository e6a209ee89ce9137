/*
 * fsdir.h - directory streams on descriptors: the readers of a directory's
 * entries open the directory themselves (O_NOFOLLOW, or relative to a
 * descriptor they hold) and turn the descriptor into a DIR here, so who
 * closes what is said once.
 *
 * Errors: NULL with errno set; a descriptor handed over is then closed.
 */
#ifndef IOMATRIX_FSDIR_H
#define IOMATRIX_FSDIR_H

#include <dirent.h>

/* A stream over directory fd, which the stream takes over (closedir
 * closes it).  fd < 0, a failed open handed straight in: NULL, errno as
 * that open left it. */
DIR *fsdir_open_fd(int fd);
/* A stream over the entries of directory fd from the first, on a dup of
 * fd, so that closedir leaves fd open (the two share one position, so it
 * is rewound first). */
DIR *fsdir_open_dup(int fd);

#endif
