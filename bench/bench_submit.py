"""Benchmark: submit-to-RUNNING of a 2-node gang on irisrl's local cluster, irisrl vs the
Iris CLI (`iris job run --replicas 2`) with the same trivial command, in one run.

For each round: irisrl = IrisBackend.submit(plan) (workspace staging + runtime + plan.json
bundle, exact env, leafgroup coscheduling) in this already-warm process, then poll until
RUNNING every 20 ms; iris CLI = `iris --controller-url URL job run --no-wait --replicas 2
--gpu H100x8 ...` as a subprocess (its own interpreter start included, as a user sees it),
then the same poll. `iris_cli_start_s` is the CLI's bare start-up (`iris --help`).

    .venv/bin/python bench/bench_submit.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "integration"))
IRIS = str(Path(sys.executable).parent / "iris")
CMD = ["sleep", "3"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    from iris_plans import trivial_plan

    from irisrl.backends import local_cluster
    from irisrl.backends.iris_client import IrisBackend

    ours, theirs = [], []
    with tempfile.TemporaryDirectory(prefix="bench-submit-") as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        (ws / "f.txt").write_text("x")
        state = local_cluster.spawn_controller(Path(tmp) / "cluster", 2, 8, "H100", tie_to_parent=True)
        env = {**os.environ, "HOME": str(Path(tmp) / "home")}
        try:
            with IrisBackend(state.url, "local") as backend:
                cli_start = _timed(lambda: subprocess.run([IRIS, "--help"], env=env, capture_output=True, check=True))
                warm = backend.submit(trivial_plan("bench-warmup", CMD, ws, nodes=2), ws)
                cold_s = _until_running(backend, warm, time.perf_counter())  # includes the gang-2 slice scale-up
                for i in range(args.rounds):
                    sides = [("irisrl", ours), ("iris", theirs)]
                    for side, sink in (sides if i % 2 == 0 else sides[::-1]):  # alternate who goes first
                        _wait_idle(backend)
                        t0 = time.perf_counter()
                        if side == "irisrl":
                            job = backend.submit(trivial_plan(f"bench-irisrl-{i}", CMD, ws, nodes=2), ws)
                        else:
                            job = f"/tester/bench-iriscli-{i}"
                            subprocess.run([IRIS, "--controller-url", state.url, "job", "run", "--no-wait",
                                            "--replicas", "2", "--gpu", "H100x8", "--enable-extra-resources",
                                            "--cpu", "48", "--memory", "512GB", "--disk", "512GB",
                                            "--job-name", job.rsplit("/", 1)[-1], "--user", "tester", "--", *CMD],
                                           env=env, cwd=ws, capture_output=True, check=True, timeout=120)
                        sink.append(_until_running(backend, job, t0))
        finally:
            local_cluster.stop_process_group(state.pid)
    print(json.dumps({"bench": "submit_to_running_2node_gang", "rounds": args.rounds,
                      "irisrl_s": [round(x, 2) for x in ours], "irisrl_median_s": round(statistics.median(ours), 2),
                      "iris_cli_s": [round(x, 2) for x in theirs],
                      "iris_cli_median_s": round(statistics.median(theirs), 2),
                      "iris_cli_start_s": round(cli_start, 2), "first_gang_cold_s": round(cold_s, 2)}))


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _until_running(backend, job_id: str, t0: float, timeout: float = 120.0) -> float:
    while True:
        snap = backend.snapshot(job_id, detail=False)
        if snap.state in ("running", "succeeded"):
            return time.perf_counter() - t0
        if snap.state in ("failed", "killed", "unschedulable") or time.perf_counter() - t0 > timeout:
            raise SystemExit(f"{job_id}: {snap.state} {snap.error} {snap.pending_reason}")
        time.sleep(0.02)


def _wait_idle(backend, timeout: float = 60.0) -> None:
    """Let the previous gang finish so both sides start from the same cluster state."""
    deadline = time.monotonic() + timeout
    while any(j.state in ("pending", "running") for j in backend.list_jobs()) and time.monotonic() < deadline:
        time.sleep(0.2)


if __name__ == "__main__":
    main()
