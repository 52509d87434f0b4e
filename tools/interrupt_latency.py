#!/usr/bin/env python3
"""How long `fdsolve run` takes to honour SIGTERM in the middle of a solve: starts the run with
`--log-level info`, waits until the log shows the loop has done `--after` checks (so the signal
lands among the cycles, not in the set-up), waits `--delay` seconds more, sends SIGTERM and
prints the seconds from the signal to the loop's hand-over to the checkpoint (its debug line
"checkpoint at iteration N": the loop has stopped; copying and writing the checkpoint and the
last state follow) and to the process's exit, with its exit code (143 expected).

usage: tools/interrupt_latency.py [--fdsolve build/solver/fdsolve] [--after 2] [--delay 0.3]
                                  -- CASE.yaml [fdsolve run options...]
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK_LINE = re.compile(r"(iteration|cycle|step) \d+")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fdsolve", default=os.path.join(ROOT, "build/solver/fdsolve"))
    p.add_argument("--after", type=int, default=2, help="checks logged before the signal")
    p.add_argument("--delay", type=float, default=0.3, help="seconds after those checks")
    p.add_argument("run", nargs=argparse.REMAINDER)
    args = p.parse_args()
    run = [a for a in args.run if a != "--"]
    with tempfile.TemporaryDirectory() as out:
        cmd = [args.fdsolve, "run"] + run + ["--output", out, "--log-level", "debug"]
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        seen = 0
        ready = threading.Event()
        lines = []

        def read():
            nonlocal seen
            for line in proc.stderr:
                lines.append((time.monotonic(), line))
                if CHECK_LINE.search(line):
                    seen += 1
                    if seen >= args.after:
                        ready.set()
            ready.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        ready.wait()
        if proc.poll() is not None:
            sys.exit("the run ended before the signal:\n" + "".join(l for _, l in lines[-20:]))
        time.sleep(args.delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait()
        latency = time.monotonic() - sent
        reader.join(timeout=5)
        abandoned = any("abandoned part-way" in l for _, l in lines)
        handed = [t for t, l in lines if t > sent and "checkpoint at iteration" in l]
        writing = (handed[0] - sent) if handed else float("nan")
        print("%s: loop stopped %.3f s after SIGTERM, process exit after %.3f s "
              "(exit %d)%s" % (
            " ".join(run), writing, latency, rc if rc >= 0 else 128 - rc,
            ", a cycle abandoned part-way" if abandoned else ""))
        sys.stdout.flush()
        return 0


if __name__ == "__main__":
    sys.exit(main())
