# Sourced by the fleet integration tests after tests/lib.sh: start test
# hosts, 127.0.0.1 sshd processes on free ports, each with its own host key,
# a key pair made for the test, StrictModes no and its PidFile in $T; an
# ssh_config ($SSHCFG) names them h1..hN.  The remote iomatrix is the
# binary under test (pass --remote-iomatrix "$IOMATRIX").
# Each host has one ssh connection for the whole test, a master that
# every later ssh to it shares (ControlPath): a new connection costs the
# host's sshd about 0.15 s of CPU (a new sshd process, key exchange,
# authentication), a new session on the master a fork; the fleet tests
# made a few dozen.  Killing a host's sshd ends its master too; the next
# ssh to it connects anew (fleet_restart makes a new master).
# Sessions get HOME=$T/hI: sshd runs a command through the user's shell,
# and bash started by sshd reads ~/.bashrc, which on a developer's machine
# may cost more than the agent (pyenv init: 0.13 s of CPU per session).
#
#   fleet_start N       start hosts h1..hN (skips the test, 77, when sshd
#                       cannot run here: not root, not installed)
#   fleet_kill I        kill host hI's sshd processes, listener and sessions
#                       (a lost host; its agent sees its input end)
#   fleet_restart I     start hI's sshd again on the same port
#   fleet_agents        pids of this test's '$IOMATRIX agent' processes (none
#                       is the goal)
# Test hooks in agents (bench/util/testhook.h), so that a test waits for an
# agent's point, never on a clock:
#   fleet_hook_agent N  write $FLEET_AGENT, a remote iomatrix for hosts
#                       h1..hN: host I's agent (told apart by sshd's port)
#                       runs with the hook in file $T/hook-I if there is
#                       one, pausing on FIFO $T/hookfifo-I (hook_wait,
#                       hook_go), and when it ends it writes into FIFO
#                       $T/end-I, which the test must read (fleet_ends)
#   fleet_ends I...     read the ends of hosts I...' agents (run it in the
#                       background before the run: an agent's end waits
#                       for it); a line per missing end in $T/ends
#   fleet_lose I        with host I's agent paused: kill its sshd, let the
#                       agent go on, and wait until it has ended
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
SSHCFG=$T/ssh_config
FLEET_N=0

fleet_cleanup() {
	i=1
	while [ "$i" -le "$FLEET_N" ]; do
		[ -f "$T/h$i/pid" ] && fleet_kill_tree "$(cat "$T/h$i/pid")" all
		i=$((i + 1))
	done
	rm -rf "$T"
}
trap fleet_cleanup EXIT INT TERM

fleet_start() {
	n=$1
	[ "$(id -u)" = 0 ] || skip "sshd test hosts need root (sshd's privilege separation)"
	[ -x "$SSHD" ] || skip "sshd not installed (openssh-server; .ci/install-deps installs it)"
	need_cmd ssh
	need_cmd ssh-keygen
	mkdir -p /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$T/id" >/dev/null || fail "ssh-keygen"
	cp "$T/id.pub" "$T/authorized_keys"
	: >"$T/known_hosts"
	: >"$SSHCFG"
	i=1
	while [ "$i" -le "$n" ]; do
		fleet_start_one "$i" || fail "cannot start sshd for h$i: $(tail -n 3 "$T/h$i/log" 2>/dev/null)"
		i=$((i + 1))
	done
}

fleet_start_one() {
	i=$1; d=$T/h$i
	mkdir -p "$d"
	ssh-keygen -q -t ed25519 -N '' -f "$d/hostkey" >/dev/null || return 1
	for try in 1 2 3 4 5 6 7 8; do
		port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
		cat >"$d/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $d/hostkey
PidFile $d/sshd.pid
AuthorizedKeysFile $T/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
MaxStartups 200
LogLevel ERROR
AcceptEnv IOMATRIX_FLEET_TEST
SetEnv HOME=$d
CFG
		"$SSHD" -D -f "$d/sshd_config" -E "$d/log" &
		echo $! >"$d/pid"
		echo "$port" >"$d/port"
		FLEET_N=$i
		cat >>"$SSHCFG" <<CFG
Host h$i
  HostName 127.0.0.1
  Port $port
  User $(id -un)
  IdentityFile $T/id
  IdentitiesOnly yes
  UserKnownHostsFile $T/known_hosts
  StrictHostKeyChecking yes
  KexAlgorithms curve25519-sha256
  LogLevel ERROR
  SetEnv IOMATRIX_FLEET_TEST=$T
  ControlMaster no
  ControlPath $T/h$i/master
CFG
		echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/hostkey.pub")" >>"$T/known_hosts"
		k=0
		while [ $k -lt 50 ]; do
			fleet_master "$i" && return 0
			kill -0 "$(cat "$d/pid")" 2>/dev/null || break
			sleep 0.1; k=$((k + 1))
		done
		kill "$(cat "$d/pid")" 2>/dev/null
		# port taken or too slow: drop this host's config and retry
		sed -i "/^Host h$i\$/,\$d" "$SSHCFG"
		sed -i "/^\[127.0.0.1\]:$port /d" "$T/known_hosts"
	done
	return 1
}

# fleet_master I: connect to hI, authenticate, and leave that connection
# in the background as the master of hI's later ssh sessions (its end is
# the end of hI's sshd session).  Fails while sshd does not listen yet.
fleet_master() {
	ssh -F "$SSHCFG" -o BatchMode=yes -o ConnectTimeout=2 -o ControlMaster=yes -f -N "h$1" 2>/dev/null
}

# Kill host I's sshd: the listener and every session's sshd, not what
# they run (as when a machine's sshd dies or is restarted).
fleet_kill() {
	d=$T/h$1
	[ -f "$d/pid" ] || return 0
	fleet_kill_tree "$(cat "$d/pid")" sshd
	rm -f "$d/pid"
}
# fleet_kill_tree PID sshd|all: SIGKILL the tree (only sshd processes, or all).
fleet_kill_tree() {
	for c in $(pgrep -P "$1" 2>/dev/null); do
		fleet_kill_tree "$c" "$2"
	done
	if [ "$2" = all ] || [ "$(cat "/proc/$1/comm" 2>/dev/null)" = sshd ]; then
		kill -9 "$1" 2>/dev/null
	fi
}
fleet_restart() {
	d=$T/h$1
	"$SSHD" -D -f "$d/sshd_config" -E "$d/log" &
	echo $! >"$d/pid"
	k=0
	while [ $k -lt 50 ]; do
		fleet_master "$1" && return 0
		sleep 0.1; k=$((k + 1))
	done
	return 1
}

fleet_hook_agent() {
	FLEET_AGENT=$T/agent.sh
	cat >"$FLEET_AGENT" <<W
#!/bin/sh
port=\$(echo "\$SSH_CONNECTION" | cut -d' ' -f4)
i=1
while [ \$i -le $1 ]; do [ "\$port" = "\$(cat "$T/h\$i/port")" ] && n=\$i; i=\$((i + 1)); done
hook=\$(cat "$T/hook-\$n" 2>/dev/null)
IOMATRIX_TEST_HOOK=\${hook:+\$hook,fifo=$T/hookfifo-\$n} "$IOMATRIX" "\$@"
rc=\$?
timeout 30 sh -c 'echo "agent exit \$1" >"\$2"' _ \$rc "$T/end-\$n"
exit \$rc
W
	chmod +x "$FLEET_AGENT"
	i=1
	while [ "$i" -le "$1" ]; do
		mkfifo "$T/hookfifo-$i" "$T/end-$i" || fail "mkfifo"
		i=$((i + 1))
	done
}
fleet_ends() {
	for i in "$@"; do
		hook_wait "$T/end-$i" >/dev/null || echo "h$i's agent did not end"
	done >"$T/ends"
}
fleet_lose() {
	fleet_kill "$1"
	hook_go "$T/hookfifo-$1" || fail "h$1's agent did not take the answer"
	hook_wait "$T/end-$1" >/dev/null || fail "h$1's agent did not stop when its session died"
}

# 'iomatrix agent' processes of the binary under test started by this
# test's hosts, wherever they are (an agent whose sshd died is re-parented
# to init): the ssh_config sets IOMATRIX_FLEET_TEST=$T in their
# environment, so the agents of fleet tests running in parallel are not
# counted.
fleet_agents() {
	for p in $(pgrep -xf "$IOMATRIX agent" 2>/dev/null); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxF "IOMATRIX_FLEET_TEST=$T" && echo "$p"
	done
}
