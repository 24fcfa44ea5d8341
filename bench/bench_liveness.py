"""Liveness sampler cost: CPU per sample on a process tree of ~50 processes.

Builds a tree (a root Python process with --procs - 1 children: a tenth of them Python
processes with 8 threads, the rest `sleep`), then takes --samples samples in this process
with runtime/liveness.py's Sampler (stacks off: py-spy runs only after quiet samples and is
bounded separately) and reports the CPU time per sample (user+sys of this process, plus that
of its children: nvidia-smi when present), the wall time, and that cost as a share of one core
at the default 30 s interval (target < 1%).

    .venv/bin/python bench/bench_liveness.py [--procs 50] [--samples 40] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from irisrl.runtime.liveness import DEFAULT_INTERVAL_S, Sampler, Stacks, tree  # noqa: E402

THREADED = ("import threading, time\n"
            "[threading.Thread(target=time.sleep, args=(600,), daemon=True).start() for _ in range(8)]\n"
            "time.sleep(600)")
ROOT = """
import subprocess, sys, time
n = int(sys.argv[1])
kids = [subprocess.Popen([sys.executable, "-c", sys.argv[2]] if i % 10 == 0 else ["sleep", "600"]) for i in range(n)]
print("ready", flush=True)
time.sleep(600)
"""


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure(procs: int, samples: int) -> dict[str, float]:
    root = subprocess.Popen([sys.executable, "-c", ROOT, str(procs - 1), THREADED], stdout=subprocess.PIPE, text=True)
    try:
        assert root.stdout is not None and root.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sampler = Sampler(root.pid, DEFAULT_INTERVAL_S, stacks=Stacks(enabled=False))
        sampler.line()                                   # warm: first sight of every process
        cpu, wall, size = [], [], 0
        for _ in range(samples):
            c0, w0 = _cpu(), time.perf_counter()
            line = sampler.line()
            cpu.append(_cpu() - c0)
            wall.append(time.perf_counter() - w0)
            size = len(line)
        tree_size = len(tree(root.pid))
        proc_entries = sum(1 for e in os.listdir("/proc") if e.isdigit())
    finally:
        for pid in tree(root.pid):                       # the tree this bench started, by pid
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        root.wait(10)
    cpu_ms = statistics.mean(cpu) * 1000
    return {"procs_in_tree": tree_size, "procs_on_host": proc_entries, "samples": samples,
            "cpu_ms_per_sample": round(cpu_ms, 2), "cpu_ms_max": round(max(cpu) * 1000, 2),
            "wall_ms_median": round(statistics.median(wall) * 1000, 2),
            "core_share_at_30s_pct": round(cpu_ms / (DEFAULT_INTERVAL_S * 1000) * 100, 4),
            "line_bytes": size, "gpu": sampler.gpu.binary is not None}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--procs", type=int, default=50)
    p.add_argument("--samples", type=int, default=40)
    p.add_argument("--json", help="write the result here too")
    args = p.parse_args()
    result = measure(args.procs, args.samples)
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0 if result["core_share_at_30s_pct"] < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
