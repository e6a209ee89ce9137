/*
 * iomatrix_mpi.c - the MPI helper: what `iomatrix run SUITE --mpi` becomes
 * on every rank of mpirun or srun (bench/fleet/run_fleet.c execs it, so the
 * iomatrix binary itself never links an MPI library).
 *
 *   iomatrix-mpi --iomatrix PATH --caller VERSION+COMMIT -- run SUITE --mpi ...
 *
 * Every rank starts its own `iomatrix agent` (before MPI_Init: a fork after
 * it is what MPI libraries warn about) and every rank is a host of one
 * fleet set, named NODE:LOCAL_RANK (fleet/launch.h).  Rank 0 is also the
 * controller: it runs `run` as `--hosts` would, with a connection per rank
 * instead of an ssh session - its own agent's pipes for itself, and for
 * rank r a pair of pipes that relay.c carries over MPI to rank r's agent.
 * The handshake (versions, schema), the clock offsets and the barrier of
 * aggregate mode, the histogram merge and the set are the ssh fleet's, so
 * a set made here verifies, reports and compares like a --hosts set.
 *
 * Deadlines: the start-up gather and broadcast wait at most MPI_START_S;
 * the controller's own deadlines cover the run (a silent rank fails its
 * part); after the controller ends the relay lingers at most a few seconds.
 * A rank that dies makes mpirun end the job: rank 0 gets SIGTERM and, as
 * on Ctrl-C, marks the set interrupted and leaves it resumable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cli.h"
#include "util/monotime.h"
#include "util/version.h"
#include "fleet/launch.h"
#include "fleet/run_fleet.h"
#include "run/run.h"
#include "resultset/schema.h"
#include "relay.h"

#define MPI_START_S 60
#define VERSION_MAX 160

struct rank_info {
	int rank, local_rank;
	char node[LAUNCH_NODE_MAX];
	char version[VERSION_MAX];   /* VERSION+COMMIT/schema N */
};

struct agent {
	pid_t pid;
	int to_fd, from_fd;          /* its stdin, its stdout */
};

static volatile sig_atomic_t got_signal, controller_done;
static pid_t agent_pid;

static void on_signal(int sig)
{
	got_signal = sig;
	if (agent_pid > 0)
		kill(agent_pid, SIGTERM); /* it stops, cleans up, says bye */
}

/* The agent this rank runs: stdin/stdout are pipes to us, stderr ours.
 * It dies with us (PDEATHSIG), and has its own process group as an ssh
 * session's agent has. */
static int agent_start(const char *path, struct agent *a)
{
	int in[2], out[2];
	pid_t parent = getpid();

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
		return -1;
	a->pid = fork();
	if (a->pid < 0)
		return -1;
	if (a->pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl(path, path, "agent", (char *)NULL);
		fprintf(stderr, "iomatrix-mpi: cannot run '%s agent': %s\n", path, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	a->to_fd = in[1];
	a->from_fd = out[0];
	agent_pid = a->pid;
	return 0;
}

static void agent_wait(struct agent *a)
{
	int st;

	for (int t = 0; a->pid > 0 && t < 300; t++) {
		if (waitpid(a->pid, &st, WNOHANG) != 0)
			return;
		if (t == 200)
			kill(a->pid, SIGKILL);
		usleep(10000);
	}
}

/* Wait for a nonblocking collective, at most MPI_START_S. */
static int wait_deadline(MPI_Request *req, const char *what)
{
	double until = mono_s() + MPI_START_S;

	for (;;) {
		int flag = 0;
		if (MPI_Test(req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (flag)
			return 0;
		if (mono_s() > until || got_signal) {
			fprintf(stderr, "iomatrix-mpi: %s did not complete within %d s%s\n", what,
				MPI_START_S, got_signal ? " (interrupted)" : "; a rank did not start");
			return -1;
		}
		usleep(1000);
	}
}

static void self_info(struct rank_info *ri)
{
	MPI_Comm node;
	int len = 0;

	memset(ri, 0, sizeof(*ri));
	MPI_Comm_rank(MPI_COMM_WORLD, &ri->rank);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &ri->local_rank);
	MPI_Comm_free(&node);
	char name[MPI_MAX_PROCESSOR_NAME];
	MPI_Get_processor_name(name, &len);
	snprintf(ri->node, sizeof(ri->node), "%.*s", len, name);
	/* a short name, as hostname(1) prints it: "n01", not "n01.cluster" */
	char *dot = strchr(ri->node, '.');
	if (dot && dot != ri->node)
		*dot = '\0';
	snprintf(ri->version, sizeof(ri->version), "%s+%s/schema %d", iomatrix_version,
		 iomatrix_git_commit, RESULTSET_SCHEMA_VERSION);
}

/* The manifest's fleet.launch: who launched, which MPI, ranks, nodes. */
static cJSON *launch_record(const struct rank_info *all, int n)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0, major = 0, minor = 0, nodes = 0;
	cJSON *o = cJSON_CreateObject();

	MPI_Get_library_version(lib, &len);
	lib[strcspn(lib, ",\n")] = '\0';
	MPI_Get_version(&major, &minor);
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < i && strcmp(all[k].node, all[i].node))
			k++;
		nodes += k == i;
	}
	char std[32];
	snprintf(std, sizeof(std), "%d.%d", major, minor);
	cJSON_AddStringToObject(o, "kind", "mpi");
	cJSON_AddStringToObject(o, "launcher", launch_launcher(getenv, 0, n));
	cJSON_AddStringToObject(o, "implementation", lib);
	cJSON_AddStringToObject(o, "mpi_standard", std);
	cJSON_AddNumberToObject(o, "ranks", n);
	cJSON_AddNumberToObject(o, "nodes", nodes);
	return o;
}

/* ---- rank 0: the controller's connections ---- */

struct ctl {
	struct launch_host *hosts;
	struct ssh_conn *conns;      /* per host, made before the run */
	struct relay_link *links;    /* hosts 1..n-1 */
	int n;
	int argc;
	char **argv;
	int rc;
};

static int ctl_connect(void *ctx, size_t i, struct ssh_conn *c, char *err, size_t errlen)
{
	struct ctl *x = ctx;

	if (i >= (size_t)x->n || x->conns[i].to_fd < 0) {
		snprintf(err, errlen, "rank %zu is connected already", i);
		return -EBUSY;
	}
	*c = x->conns[i];
	x->conns[i].to_fd = x->conns[i].from_fd = -1;
	x->conns[i].pid = 0;
	fcntl(c->from_fd, F_SETFL, fcntl(c->from_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static void *controller_main(void *arg)
{
	struct ctl *x = arg;

	x->rc = cli_call(cli_find("run"), x->argc, x->argv, NULL);
	fflush(stdout);
	controller_done = 1;
	/* hosts the controller never connected (it refused the suite): their
	 * pipes end here, so their agents see the end of input */
	for (int i = 0; i < x->n; i++) {
		if (x->conns[i].to_fd >= 0)
			close(x->conns[i].to_fd);
		if (x->conns[i].from_fd >= 0)
			close(x->conns[i].from_fd);
		x->conns[i].to_fd = x->conns[i].from_fd = -1;
	}
	return NULL;
}

static int ctl_setup(struct ctl *x, const struct rank_info *all, const struct agent *self)
{
	x->hosts = calloc((size_t)x->n, sizeof(*x->hosts));
	x->conns = calloc((size_t)x->n, sizeof(*x->conns));
	x->links = calloc((size_t)x->n, sizeof(*x->links));
	if (!x->hosts || !x->conns || !x->links)
		return -1;
	for (int i = 0; i < x->n; i++) {
		struct launch_host *h = &x->hosts[i];
		snprintf(h->node, sizeof(h->node), "%s", all[i].node);
		h->rank = all[i].rank;
		h->local_rank = all[i].local_rank;
		if (launch_host_name(h) < 0) {
			fprintf(stderr, "iomatrix-mpi: rank %d: node name '%s' cannot name a host (empty, or a space, ',', '=' or ':' in it)\n",
				i, all[i].node);
			return -2;
		}
		x->conns[i].err_fd = -1;
		if (i == 0) {
			x->conns[0].pid = self->pid;
			x->conns[0].to_fd = self->to_fd;
			x->conns[0].from_fd = self->from_fd;
			continue;
		}
		int to[2], from[2];
		if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0)
			return -1;
		x->conns[i].to_fd = to[1];
		x->conns[i].from_fd = from[0];
		x->links[i - 1] = (struct relay_link){ .peer = i, .rfd = to[0], .wfd = from[1] };
	}
	return 0;
}

static int root_run(struct ctl *x, const struct rank_info *all)
{
	struct fleet_transport t = { 0 };
	pthread_t th;
	int relay_rc;

	t.kind = "mpi";
	t.hosts = x->hosts;
	t.nhosts = (size_t)x->n;
	t.record = launch_record(all, x->n);
	t.connect = ctl_connect;
	t.ctx = x;
	run_fleet_set_transport(&t);
	if (pthread_create(&th, NULL, controller_main, x)) {
		fprintf(stderr, "iomatrix-mpi: cannot start the controller thread\n");
		return 1;
	}
	relay_rc = relay_run(x->links, (size_t)x->n - 1, &controller_done, &got_signal, 3000);
	pthread_join(th, NULL);
	run_fleet_set_transport(NULL);
	cJSON_Delete((cJSON *)t.record);
	return relay_rc < 0 ? -1 : x->rc;
}

/* ---- every rank ---- */

/* --remote-iomatrix PATH in run's arguments (read by run's own table):
 * the agent this rank runs (default: the iomatrix that started the
 * helper).  The caller parsed them already, so they parse here. */
static const char *agent_path(int argc, char **argv, const char *self)
{
	struct run_opts o = { 0 };
	struct optlist ops;
	const char *path = optspec_parse(&run_spec, argc, argv, &o, &ops) == 0 &&
			   o.fleet.remote ? o.fleet.remote : self;

	optspec_release(&run_spec, &o, &ops);
	return path;
}

/* Gather every rank's info to rank 0, which checks the versions; the
 * verdict goes back to everyone.  0 go on, 2 refused, -1 MPI failed. */
static int agree(struct rank_info *me, struct rank_info **all, int n)
{
	MPI_Request req;
	int verdict = 0;

	if (me->rank == 0 && !(*all = calloc((size_t)n, sizeof(**all))))
		return -1;
	if (MPI_Igather(me, sizeof(*me), MPI_BYTE, *all, sizeof(*me), MPI_BYTE, 0,
			MPI_COMM_WORLD, &req) != MPI_SUCCESS ||
	    wait_deadline(&req, "gathering the ranks") < 0)
		return -1;
	if (me->rank == 0)
		for (int i = 1; i < n; i++)
			if (strcmp((*all)[i].version, (*all)[0].version)) {
				fprintf(stderr, "iomatrix: rank %d (%.*s) runs iomatrix %.*s, rank 0 runs %.*s; "
					"install one build on every node\n", i, LAUNCH_NODE_MAX, (*all)[i].node,
					VERSION_MAX, (*all)[i].version, VERSION_MAX, (*all)[0].version);
				verdict = 2;
			}
	if (MPI_Ibcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS ||
	    wait_deadline(&req, "the start-up check") < 0)
		return -1;
	return verdict;
}

/* The helper's own options, which launch_exec_helper() gives it; run's
 * arguments follow "--". */
struct helper_args {
	const char *self, *caller;
};

static const struct option_spec helper_opts[] = {
	{ "--iomatrix", .kind = OPTK_FILE, .arg = "PATH", .flags = OPT_REQUIRED,
	  OPT_AT(struct helper_args, self), .help = "the iomatrix that started the helper" },
	{ "--caller", .kind = OPTK_STRING, .arg = "VERSION+COMMIT", .flags = OPT_REQUIRED,
	  OPT_AT(struct helper_args, caller), .help = "its version, which must be the helper's" },
	{ NULL },
};

static const struct command_spec helper_spec = {
	.name = NULL, .forms = { "run SUITE.yaml..." }, .opts = helper_opts,
};

int main(int argc, char **argv)
{
	struct helper_args h = { 0 };
	struct optlist run_argv;
	struct rank_info me, *all = NULL;
	struct agent ag = { 0 };
	struct sigaction sa;
	int n = 0, rc, provided = 0;

	if (optspec_parse(&helper_spec, argc, argv, &h, &run_argv) < 0) {
		fprintf(stderr, "usage: iomatrix-mpi --iomatrix PATH --caller VERSION+COMMIT -- run SUITE --mpi ...\n"
				"(started by 'iomatrix run --mpi' on each rank of mpirun or srun; not run by hand)\n");
		optspec_release(&helper_spec, &h, &run_argv);
		return 2;
	}
	const char *self = h.self, *caller = h.caller;
	char mine[VERSION_MAX];
	snprintf(mine, sizeof(mine), "%s+%s", iomatrix_version, iomatrix_git_commit);
	if (strcmp(mine, caller)) {
		fprintf(stderr, "iomatrix: %s is iomatrix %s but %s is %s; install both from one build (make install)\n",
			argv[0], mine, self, caller);
		return 2;
	}
	int rargc = (int)run_argv.n;
	char **rargv = (char **)run_argv.v; /* freed at exit */

	if (agent_start(agent_path(rargc, rargv, self), &ag) < 0) {
		fprintf(stderr, "iomatrix-mpi: cannot start the agent: %s\n", strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	self_info(&me);
	rc = agree(&me, &all, n);
	if (rc == 0 && me.rank == 0) {
		struct ctl x = { .n = n, .argc = rargc, .argv = rargv };
		int s = ctl_setup(&x, all, &ag);
		rc = s == -2 ? 2 : s < 0 ? 1 : root_run(&x, all);
		if (s == 0)
			ag.to_fd = ag.from_fd = -1; /* the controller's, and closed */
		free(x.hosts);
		free(x.conns);
		free(x.links);
	} else if (rc == 0) {
		struct relay_link l = { .peer = 0, .rfd = ag.from_fd, .wfd = ag.to_fd };
		static volatile sig_atomic_t never;
		/* ends when the agent ended and rank 0 closed its side.  On
		 * SIGTERM this rank waits for rank 0 (up to 900 ms) rather than
		 * leaving at once: mpirun kills the job's last processes as soon
		 * as one of them ends, and rank 0 is still writing the set */
		rc = relay_run(&l, 1, &got_signal, &never, 900) < 0 ? -1 : 0;
	}
	if (ag.to_fd >= 0) {
		close(ag.to_fd); /* refused at start-up: the agent sees the end */
		ag.to_fd = -1;
	}
	agent_wait(&ag);
	free(all);
	if (rc < 0) {
		/* a rank is gone: MPI_Finalize would wait for it */
		fprintf(stderr, "iomatrix-mpi: rank %d: the MPI connection failed; ending\n", me.rank);
		fflush(NULL);
		_exit(1);
	}
	if (me.rank == 0 && (rc == 130 || got_signal)) {
		/* interrupted (Ctrl-C on mpirun, or another rank died): the
		 * set is marked so and the job is ending, whose fence in
		 * MPI_Finalize would not complete.  The other ranks wait in
		 * theirs until rank 0 is done: mpirun kills what is left as
		 * soon as one rank ends, a second after SIGTERM at most */
		fflush(NULL);
		_exit(rc ? rc : 130);
	}
	MPI_Finalize();
	/* only rank 0 says how the run went: another rank's non-zero exit
	 * would make mpirun end the job before rank 0 wrote the set */
	return me.rank == 0 ? rc : 0;
}

/* Under AddressSanitizer (make SANITIZE=...): the MPI library keeps its
 * allocations to the end by design, which LeakSanitizer would report at
 * every exit of this helper.  The agents it starts are the plain binary,
 * checked as usual. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
