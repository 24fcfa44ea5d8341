"""Fleet refresh benchmark (docs/BENCHMARKS.md, "Fleet").

    PYTHONPATH=src .venv/bin/python bench/bench_fleet.py [--jobs 50] [--refreshes 10]

50 recorded jobs (the health fixtures' logs, tests/fixtures/logs, replayed through the
in-memory backend: 35 running, 15 ended, ten fixture cases: healthy, wedged, crashed, stalled) on one cluster.
Times the first `fleet` refresh (every log read from its start), then steady refreshes in
which each running job gets 200 new log lines (what ~20 s of a live run ships), and counts the
controller round trips (RPCs) of each refresh; then three one-shot `irisrl fleet` runs (a new
Fleet each, resuming from the health state files the previous one wrote). Not 50 live gangs: a 2-core machine cannot run
them; the live check is tests/integration/test_fleet_live.py."""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from support.memory_backend import MemoryBackend  # noqa: E402
from support.recorded_jobs import recorded, end_ms  # noqa: E402

from irisrl.backends.base import LogLine  # noqa: E402
from irisrl.ops.fleet import Fleet, FleetQuery, price_book  # noqa: E402

CASES = ["healthy_training_step12", "wedge", "norm_topk_prob_crash", "healthy_finished", "healthy_bringup_15min",
         "weight_sync_hang", "step_stall_after_step1", "vllm_never_serving", "stale_image_combined_by_task",
         "engines_silent_queued"]
ENDED = {2: "failed", 3: "succeeded", 8: "failed"}
BOUND_S = 2.0


class SlowBackend(MemoryBackend):
    """The in-memory backend with a controller round trip of `latency_s` per RPC."""
    latency_s: float = 0.0

    def list_jobs(self, *a, **k):  # type: ignore[no-untyped-def]
        time.sleep(self.latency_s)
        return super().list_jobs(*a, **k)

    def snapshot(self, *a, **k):  # type: ignore[no-untyped-def]
        time.sleep(self.latency_s)
        return super().snapshot(*a, **k)

    def read_lines(self, *a, **k):  # type: ignore[no-untyped-def]
        time.sleep(self.latency_s)
        return super().read_lines(*a, **k)


def build(n: int, latency_s: float) -> tuple[MemoryBackend, int, list[str]]:
    jobs = [recorded(CASES[i % len(CASES)], f"/user{i % 7}/job-{i:02d}", ENDED.get(i % len(CASES), "running"))
            for i in range(n)]
    backend = SlowBackend(jobs=[j.summary for j in jobs], statuses={j.summary.job_id: j.status for j in jobs},
                            job_logs={j.summary.job_id: list(j.lines) for j in jobs})
    running = [j.summary.job_id for j in jobs if j.summary.state == "running"]
    return backend, max(end_ms(j) for j in jobs), running


def grow(backend: MemoryBackend, running: list[str], k: int) -> None:
    for job_id in running:
        lines = backend.job_logs[job_id]
        t = lines[-1].timestamp_ms if lines else 0
        lines.extend(LogLine(i % 2, 0, "stdout", f"agent: trial chatter {k}.{i} observation truncated", t + 100 * (i + 1))
                     for i in range(200))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=50)
    ap.add_argument("--refreshes", type=int, default=10)
    ap.add_argument("--rpc-ms", type=float, default=0.0, help="simulated controller round trip per RPC")
    args = ap.parse_args()
    backend, now, running = build(args.jobs, args.rpc_ms / 1000.0)
    backend.latency_s = args.rpc_ms / 1000.0
    lines = sum(len(v) for v in backend.job_logs.values())
    view = Fleet(FleetQuery(), price_book())
    t0 = time.perf_counter()
    first = view.refresh([backend], now=now)
    first_s = time.perf_counter() - t0
    steady, rpcs = [], []
    for k in range(args.refreshes):
        grow(backend, running, k)
        t0 = time.perf_counter()
        report = view.refresh([backend], now=now + (k + 1) * 30_000)
        steady.append(time.perf_counter() - t0)
        rpcs.append(report["totals"]["rpcs"])
    # One-shot `irisrl fleet` processes: each starts from the health state files of the last.
    with tempfile.TemporaryDirectory() as tmp:
        oneshot = []
        for k in range(3):
            grow(backend, running, 100 + k)
            t0 = time.perf_counter()
            shot = Fleet(FleetQuery(), price_book(), state_dir=Path(tmp)).refresh([backend], now=now + (k + 20) * 30_000)
            oneshot.append((round(time.perf_counter() - t0, 3), shot["totals"]["rpcs"]))
        state_bytes = sum(f.stat().st_size for f in Path(tmp).rglob("*") if f.is_file())
    out = {"oneshot_with_state_files_s_rpcs": oneshot, "state_files_bytes": state_bytes,
           "jobs": args.jobs, "rpc_ms": args.rpc_ms, "running": len(running), "log_lines_first": lines,
           "first_refresh_s": round(first_s, 3), "first_refresh_rpcs": first["totals"]["rpcs"],
           "steady_refresh_s_median": round(statistics.median(steady), 3), "steady_refresh_s_max": round(max(steady), 3),
           "steady_refresh_rpcs": sorted(set(rpcs)), "new_lines_per_refresh": 200 * len(running),
           "rpc_formula": "1 ListJobs + 1 FetchLogs per unsettled job (+1 GetJobStatus per job the first time)",
           "bound_s": BOUND_S, "meets_bound": max(steady) <= BOUND_S and first_s <= BOUND_S,
           "gpu_hours_lost_to_dead_runs": report["totals"]["gpu_hours_lost_to_dead_runs"]}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
