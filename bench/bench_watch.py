"""Benchmark: what one `irisrl watch` poll costs against a running local controller.

Starts irisrl's local cluster (a background controller process, 2 fake nodes), submits a
2-node gang that sleeps, then times N watch polls (snapshot(detail=False): one GetJobStatus)
and N status reads (detail=True: GetJobStatus + ListTasks). Prints one JSON line.

    .venv/bin/python bench/bench_watch.py [--polls 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "integration"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polls", type=int, default=200)
    args = parser.parse_args()

    from iris_plans import trivial_plan

    from irisrl.backends import local_cluster
    from irisrl.backends.iris_client import IrisBackend

    with tempfile.TemporaryDirectory(prefix="bench-watch-") as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        (ws / "f.txt").write_text("x")
        state = local_cluster.spawn_controller(Path(tmp) / "cluster", 2, 8, "H100", tie_to_parent=True)
        try:
            with IrisBackend(state.url, "local") as backend:
                job_id = backend.submit(trivial_plan("bench-watch", ["sleep", "600"], ws, nodes=2), ws)
                _wait_running(backend, job_id)
                result = {"bench": "watch_poll", "polls": args.polls}
                for label, detail in (("watch_poll", False), ("status_read", True)):
                    times, calls0 = [], backend.calls
                    for _ in range(args.polls):
                        t0 = time.perf_counter()
                        backend.snapshot(job_id, detail=detail)
                        times.append((time.perf_counter() - t0) * 1000)
                    result[label] = {"calls_per_poll": (backend.calls - calls0) / args.polls,
                                     "ms_median": round(statistics.median(times), 2),
                                     "ms_p95": round(sorted(times)[int(0.95 * len(times)) - 1], 2),
                                     "ms_max": round(max(times), 2)}
                backend.terminate(job_id)
        finally:
            local_cluster.stop_process_group(state.pid)
    print(json.dumps(result))


def _wait_running(backend, job_id: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while backend.snapshot(job_id, detail=False).state != "running":
        if time.monotonic() > deadline:
            raise SystemExit(f"{job_id} not running after {timeout}s")
        time.sleep(0.1)


if __name__ == "__main__":
    main()
