/*
 * version.h - the build's identity: version, git commit and compiler, set
 * by the Makefile on version.c alone so that a new commit rebuilds one file.
 */
#ifndef IOMATRIX_VERSION_H
#define IOMATRIX_VERSION_H

extern const char iomatrix_version[];
extern const char iomatrix_git_commit[];
extern const char iomatrix_compiler[];

#endif
