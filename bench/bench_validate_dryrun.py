"""Cold-process timings: `irisrl validate` and `irisrl launch --dry-run` on the dense example
next to `python -c "import iris.client"`, measured in the same run (median of N runs each,
interleaved so machine load hits all three alike).

    .venv/bin/python bench/bench_validate_dryrun.py [--runs 9] [--markdown]

Targets (issue 2): median < 0.5 s, and at most 1/4 of the iris import."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DENSE = "examples/configs/dense8b_disagg.yaml"
COMMANDS: dict[str, list[str]] = {
    "irisrl validate": [sys.executable, "-m", "irisrl", "validate", DENSE, "--num-nodes", "7",
                        "--workspace", "examples/workspace"],
    "irisrl launch --dry-run": [sys.executable, "-m", "irisrl", "launch", "--rl_config", DENSE, "--num-nodes", "7",
                                "--workspace", "examples/workspace", "--train_data", '["DCAgent/tasks"]',
                                "--job-name", "bench", "--dry-run"],
    'python -c "import iris.client"': [sys.executable, "-c", "import iris.client"],
}
TIMEOUT_S = 120


def time_once(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds user+sys) of one cold process. CPU time is much less
    sensitive than wall time to other work on a shared machine."""
    env = dict(os.environ, COLUMNS="100", IRISRL_USER="bench")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure the installed state: bytecode cached by the warm-up
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, timeout=TIMEOUT_S)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def measure(runs: int) -> dict[str, list[tuple[float, float]]]:
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for name, argv in COMMANDS.items():  # one warm-up each: page cache, .pyc files
        time_once(argv)
    for _ in range(runs):
        for name, argv in COMMANDS.items():
            times[name].append(time_once(argv))
    return times


def report(samples: dict[str, list[tuple[float, float]]], markdown: bool) -> str:
    times = {name: [w for w, _ in values] for name, values in samples.items()}
    cpu = {name: [c for _, c in values] for name, values in samples.items()}
    iris = statistics.median(times['python -c "import iris.client"'])
    iris_cpu = statistics.median(cpu['python -c "import iris.client"'])
    lines = ["| command | median wall s | min s | max s | vs iris import | median CPU s | CPU vs iris |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, values in times.items():
        med, med_cpu = statistics.median(values), statistics.median(cpu[name])
        lines.append(f"| `{name}` | {med:.3f} | {min(values):.3f} | {max(values):.3f} | {med / iris:.2f}x "
                     f"| {med_cpu:.3f} | {med_cpu / iris_cpu:.2f}x |")
    verdicts = []
    for name in ("irisrl validate", "irisrl launch --dry-run"):
        med = statistics.median(times[name])
        ok = med < 0.5 and med <= iris / 4
        verdicts.append(f"{name}: median {med:.3f} s, {'meets' if ok else 'MISSES'} "
                        f"< 0.5 s and <= 1/4 of the iris import ({iris / 4:.3f} s)")
    text = "\n".join(lines) + "\n\n" + "\n".join(f"- {v}" for v in verdicts)
    return text if markdown else text.replace("`", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    runs = max(args.runs, 7)
    print(f"{runs} cold runs each, python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(report(measure(runs), args.markdown))


if __name__ == "__main__":
    main()
