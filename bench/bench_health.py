"""Health benchmark (docs/BENCHMARKS.md, "Health").

    .venv/bin/python bench/bench_health.py [--size-mb 1024] [--path /tmp/irisrl-bench/health.log]

1. Generates (once, deterministic seed) a realistic combined log of a 7-node / 48-engine run:
   bring-up, vLLM stats from every engine every 10 s, agent/NCCL/HTTP chatter, per-step metric
   lines, a throughput-starvation wedge in the last hour.
2. Times `irisrl health --log FILE --json` against `LC_ALL=C grep -cE <the ladder's needles>`
   over the same file in the same run (page cache warm for both), with peak RSS of each.
3. Appends 10 MB more log and times the re-evaluation from the saved `--state` against the
   full pass; then truncates the file back so the next run reuses it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from irisrl.observe.patterns import GREP_PATTERN
from irisrl.observe.synth import LogBuilder, bring_up, serving, trainer_up

SEED = 20261202
ROOT = Path(__file__).resolve().parents[1]
IRISRL = [sys.executable, "-m", "irisrl"]


CHATTER_PER_10S = 2000   # agent/sandbox/HTTP/NCCL lines per 10 s across the run (200 lines/s)


def _minute(b: LogBuilder, wedged: bool) -> None:
    """One minute of a 48-engine run: every engine's stats line every 10 s, plus chatter."""
    if wedged:
        serving(b, 48, 60, tput=260.0, running=4, waiting=60, interval=10, chatter=CHATTER_PER_10S)
    else:
        serving(b, 48, 60, tput=1700.0, running=16, waiting=0, interval=10, chatter=CHATTER_PER_10S)


def generate(path: Path, size: int, seed: int = SEED) -> None:
    """Write `size` bytes (at least) of log, streaming: memory stays one block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    b = LogBuilder(seed=seed)
    bring_up(b, 7, sha=None)
    trainer_up(b, 48)
    written, minute = 0, 0
    tmp = path.with_suffix(".partial")
    with open(tmp, "w") as fh:
        while written < size:
            _minute(b, wedged=written > size * 0.97)
            minute += 1
            if minute % 30 == 0:
                b.step_metrics(minute // 30, 0.1 + 0.001 * minute)
            text = b.text()
            b.lines.clear()
            fh.write(text)
            written += len(text)
    os.replace(tmp, path)


def append_more(path: Path, size: int, seed: int = SEED + 1) -> None:
    b = LogBuilder(seed=seed, t=2_000_000_000.0, nodes=7)
    with open(path, "a") as fh:
        written = 0
        while written < size:
            _minute(b, wedged=True)
            text = b.text()
            b.lines.clear()
            fh.write(text)
            written += len(text)


def timed(argv: list[str], env: dict | None = None) -> tuple[float, int, int, str]:
    """(wall seconds, peak RSS MB, exit code, stdout) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read().decode() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss // 1024, proc.returncode, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--path", default="/tmp/irisrl-bench/health.log")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    path = Path(args.path)
    size = args.size_mb << 20
    if not path.exists() or path.stat().st_size < size:
        t0 = time.perf_counter()
        generate(path, size)
        print(f"generated {path} ({path.stat().st_size / 2**20:.0f} MiB) in {time.perf_counter() - t0:.0f}s")
    base = path.stat().st_size
    subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)   # warm the page cache
    grep_env = dict(os.environ, LC_ALL="C")
    results: dict[str, list] = {"grep": [], "health": []}
    for _ in range(args.repeat):
        results["grep"].append(timed(["grep", "-cE", GREP_PATTERN, str(path)], grep_env))
        results["health"].append(timed(IRISRL + ["health", "--log", str(path), "--json"]))
    state = path.with_suffix(".state")
    state.unlink(missing_ok=True)
    try:
        full = timed(IRISRL + ["health", "--log", str(path), "--json", "--state", str(state)])
        append_more(path, 10 << 20)
        added = path.stat().st_size - base
        incr = timed(IRISRL + ["health", "--log", str(path), "--json", "--state", str(state)])
    finally:
        os.truncate(path, base)
        state.unlink(missing_ok=True)
    verdict = json.loads(results["health"][-1][3])
    grep_s = min(r[0] for r in results["grep"])
    health_s = min(r[0] for r in results["health"])
    summary = {
        "file_mib": round(base / 2**20), "lines_matched_by_grep": int(results["grep"][-1][3].strip() or 0),
        "grep_s": [round(r[0], 2) for r in results["grep"]], "grep_rss_mb": max(r[1] for r in results["grep"]),
        "health_s": [round(r[0], 2) for r in results["health"]], "health_rss_mb": max(r[1] for r in results["health"]),
        "ratio_best": round(health_s / grep_s, 2), "verdict": verdict["verdict"], "phase": verdict["phase"],
        "state_full_s": round(full[0], 2), "added_mib": round(added / 2**20, 1),
        "incremental_s": round(incr[0], 2), "incremental_pct_of_full": round(100 * incr[0] / full[0], 1),
        "incremental_rss_mb": incr[1], "cpus": os.cpu_count(),
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
