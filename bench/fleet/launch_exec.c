/*
 * launch_exec.c - `run --mpi` in the binary that every rank starts: become
 * the MPI helper (cmd/mpi/), which links the MPI library this binary does
 * not.  The helper's own command line is built here, so its options are
 * not mistaken for run's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/version.h"
#include "fleet/launch.h"

#ifndef IOMATRIX_LIBEXEC_DIR
#define IOMATRIX_LIBEXEC_DIR "/usr/local/libexec/iomatrix"
#endif

int launch_exec_helper(int argc, char **argv)
{
	char self[PATH_MAX], helper[PATH_MAX + 32], caller[256];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *dirs[2] = { NULL, IOMATRIX_LIBEXEC_DIR };
	char **av;

	if (n <= 0) {
		fprintf(stderr, "iomatrix: --mpi: cannot find this binary (/proc/self/exe): %s\n",
			strerror(errno));
		return 2;
	}
	self[n] = '\0';
	snprintf(caller, sizeof(caller), "%s+%s", iomatrix_version, iomatrix_git_commit);
	av = calloc((size_t)argc + 8, sizeof(*av));
	if (!av)
		return 1;
	for (int d = 0; d < 2; d++) {
		if (d == 0) {
			char *slash = strrchr(self, '/');
			snprintf(helper, sizeof(helper), "%.*s/%s", (int)(slash - self), self,
				 LAUNCH_MPI_HELPER);
		} else {
			snprintf(helper, sizeof(helper), "%s/%s", dirs[1], LAUNCH_MPI_HELPER);
		}
		if (access(helper, X_OK) < 0)
			continue;
		int k = 0;
		av[k++] = helper;
		av[k++] = "--iomatrix";
		av[k++] = self;
		av[k++] = "--caller";
		av[k++] = caller;
		av[k++] = "--";
		for (int i = 0; i < argc; i++)
			av[k++] = argv[i];
		av[k] = NULL;
		fflush(NULL);
		execv(helper, av);
		fprintf(stderr, "iomatrix: --mpi: cannot run %s: %s\n", helper, strerror(errno));
		free(av);
		return 1;
	}
	free(av);
	fprintf(stderr, "iomatrix: --mpi: this iomatrix was built without MPI (no %s beside %s or in %s); "
		"install an MPI (Debian: apt-get install openmpi-bin libopenmpi-dev) and build again with 'make'\n",
		LAUNCH_MPI_HELPER, self, IOMATRIX_LIBEXEC_DIR);
	return 2;
}

