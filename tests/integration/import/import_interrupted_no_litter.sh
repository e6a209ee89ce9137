#!/bin/sh
# An import stopped by SIGINT or SIGTERM while it writes leaves either the
# complete set or nothing: never a hidden .iomatrix-tmp.*.importing.PID
# directory (the signal waits until the set is written or removed).
# Deterministic: the test hook (bench/util/testhook.h) pauses the import
# after its first, middle and last cell are in the hidden temp set; the
# test sees that directory, sends the signal, and lets the import go on.
# Python starts each import with default signal handling (a shell's
# background job would ignore SIGINT).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 - "$IOMATRIX" "$T" <<'PY'
import errno, os, select, signal, subprocess, sys, shutil
exe, t = sys.argv[1], sys.argv[2]
csv = os.path.join(t, "many.csv")
with open(csv, "w") as f:
    f.write("device,pattern,bs,iops,lat_ms,mib_s\n")
    for i in range(20):
        f.write("d%d,rndrd,4k,%d,0.5,1.0\n" % (i, 1000 + i))
res = os.path.join(t, "res")
fifo = os.path.join(t, "hook")
os.mkfifo(fifo)
n = 0
bad = False
def check(ok, what):
    global n, bad
    n += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
    bad |= not ok
def paused(p):
    """The hook's line, or "" when the import ended without pausing."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    data = b""
    while not data.endswith(b"\n"):
        if not poll.poll(100):
            if p.poll() is not None:
                break
            continue
        chunk = os.read(fd, 64)
        if not chunk:
            break
        data += chunk
    os.close(fd)
    return data.decode().strip()
def go(p):
    """Let the paused import go on; it waits for this line, unless the
    signal killed it while it was paused (which is the bug)."""
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO or p.poll() is not None:
                return  # no reader and gone
            os.sched_yield()
            continue
        os.write(fd, b"go\n")
        os.close(fd)
        return
for cell in (1, 10, 20):
    for sig in (signal.SIGINT, signal.SIGTERM):
        what = "%s after cell %d" % (sig.name, cell)
        os.makedirs(res)
        env = dict(os.environ, IOMATRIX_RESULTS=res, IOMATRIX_TEST_HOOK="import_cell:%d,fifo=%s" % (cell, fifo))
        p = subprocess.Popen([exe, "import", "csv", csv], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM)])
        line = paused(p)                # the import is paused in the middle of its write
        tmp = [e for e in os.listdir(res) if ".importing." in e]
        check(line == "import_cell %d" % cell and len(tmp) == 1,
              "%s: paused with the hidden set there (%s, %s)" % (what, line, tmp))
        p.send_signal(sig)
        go(p)
        err = p.stderr.read().decode()
        rc = p.wait()
        left = os.listdir(res)
        litter = [e for e in left if "iomatrix-tmp" in e or ".importing." in e]
        whole = [e for e in left if e not in litter and os.path.isfile(os.path.join(res, e, "manifest.json"))
                 and len(os.listdir(os.path.join(res, e, "cells"))) == 20]
        check(not litter and (len(whole) == len(left)) and rc == -sig,
              "%s: exit %d, left %s (%d complete)%s" % (what, rc, left, len(whole), err and ": " + err.strip()[:200]))
        shutil.rmtree(res)
sys.exit(1 if bad else 0)
PY
