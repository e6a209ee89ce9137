/*
 * version.c - build identity, compiled with -D flags from the Makefile so
 * that only this file is rebuilt when the commit changes.
 */
#include "version.h"

#ifndef IOMATRIX_VERSION
#define IOMATRIX_VERSION "0.0.0"
#endif
#ifndef IOMATRIX_GIT_COMMIT
#define IOMATRIX_GIT_COMMIT "unknown"
#endif

const char iomatrix_version[] = IOMATRIX_VERSION;
const char iomatrix_git_commit[] = IOMATRIX_GIT_COMMIT;
const char iomatrix_compiler[] =
#if defined(__clang__)
	"clang " __clang_version__;
#elif defined(__GNUC__)
	"gcc " __VERSION__;
#else
	"unknown compiler";
#endif
