#!/bin/sh
# An import stopped by SIGINT or SIGTERM at any moment leaves either the
# complete set or nothing: never a hidden .iomatrix-tmp.*.importing.PID
# directory (the signal waits until the set is written or removed).
# Python starts each import with default signal handling (a shell's
# background job would ignore SIGINT) and stops it after a delay.
. "$(dirname "$0")/../lib.sh"
need_cmd python3
python3 - "$IOMATRIX" "$T" <<'PY'
import os, signal, subprocess, sys, time, shutil
exe, t = sys.argv[1], sys.argv[2]
csv = os.path.join(t, "many.csv")
with open(csv, "w") as f:
    f.write("device,pattern,bs,iops,lat_ms,mib_s\n")
    for i in range(1000):
        f.write("d%d,rndrd,4k,%d,0.5,1.0\n" % (i, 1000 + i))
res = os.path.join(t, "res")
bad = 0
rounds = 0
for delay in (0.2, 0.5, 0.8, 1.0, 1.3, 1.6):
    for sig in (signal.SIGINT, signal.SIGTERM):
        os.makedirs(res)
        p = subprocess.Popen([exe, "import", "csv", csv], env=dict(os.environ, IOMATRIX_RESULTS=res),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM)])
        time.sleep(delay)
        p.send_signal(sig)
        p.wait()
        rounds += 1
        for e in os.listdir(res):
            d = os.path.join(res, e)
            if "iomatrix-tmp" in e or ".importing." in e:
                bad = 1; print("# litter after %s at %gs: %s" % (sig.name, delay, e))
            elif not (os.path.isfile(d + "/manifest.json") and len(os.listdir(d + "/cells")) == 1000):
                bad = 1; print("# partial set after %s at %gs" % (sig.name, delay))
        shutil.rmtree(res)
print(("ok" if not bad else "not ok") + " 1 - no litter and no partial set after %d interrupted imports" % rounds)
sys.exit(bad)
PY
