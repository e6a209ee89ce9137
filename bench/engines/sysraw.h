/*
 * sysraw.h - a system call without libc's wrapper, for the engines' one
 * call per IO (psync's pread/pwrite, libaio's io_submit).  Internal to
 * bench/engines.  Returns what the kernel returns: the result, or -errno
 * (errno is left alone).
 *
 * Why: syscall(2) is a function that shuffles its six arguments into the
 * kernel's registers and tests the result for errno, and libaio's
 * io_submit is a wrapper around it again: 11 user instructions per IO
 * for psync's pread and 41 for libaio's io_submit (callgrind on a loop
 * device, 2026-12-06), where the instruction itself needs four moves.
 * Other architectures keep syscall(2).  sysraw6 is io_uring's enter,
 * whose fifth argument (the signal mask) must reach the kernel as NULL.
 */
#ifndef IOMATRIX_SYSRAW_H
#define IOMATRIX_SYSRAW_H

#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>

static inline long sysraw4(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long ret = syscall(nr, a, b, c, d);
	return ret < 0 ? -errno : ret;
#endif
}

static inline long sysraw6(long nr, long a, long b, long c, long d, long e, long f)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long ret = syscall(nr, a, b, c, d, e, f);
	return ret < 0 ? -errno : ret;
#endif
}

#endif
