"""`irisrl watch JOB --watchdog` on a real Iris local cluster: a job prints a bring-up, then
vLLM stats lines of a wedge spanning > 60 s of (fabricated) log time, then sleeps. The
watchdog must exit 5 on its own, and the job must still be RUNNING (watch never kills)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli as _irisrl  # noqa: E402
from iris_plans import trivial_plan  # noqa: E402

pytestmark = pytest.mark.slow

STATS = ("(AsyncVLLMInferenceEngine pid=42, ip=10.0.0.1) INFO 12-02 10:%s [loggers.py:123] Engine 000: "
         "Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: %s tokens/s, Running: %s reqs, "
         "Waiting: %s reqs, GPU KV cache usage: 50.0%%")
# Healthy 10:01:00-10:01:50, then Waiting 40 >> Running 4 with flat 20 tok/s from 10:02:00 to
# 10:04:00 (120 s of log time, printed within ~3 s), then the job only prints a heartbeat.
# Why the short sleeps and the heartbeat: Iris's local process runtime reads a task's pipe with
# select() + readline() on a buffered stream, so lines that reach the pipe together wait in
# Python's buffer until the next write; a real engine keeps logging, the heartbeat stands in.
TASK = "\n".join(
    ["echo '[irisrl] Staging train_data on this node (rank 0/1): DCAgent/tasks -> /tmp/td'",
     "echo '[irisrl] Ray nodes alive: 1/1'",
     "echo '2026-12-02 10:00:40.000 | INFO | skyrl_train.trainer:train:301 - No checkpoint found, "
     "starting training from scratch'",
     "echo '2026-12-02 10:00:41.000 | INFO | skyrl_train.generators.harbor:__init__:77 - "
     "TerminalBenchGenerator initialized with HarborConfigBuilder. Concurrent trials: 8.'"]
    + [f"echo '{STATS % (f'01:{s:02d}', '800.0', 8, 0)}'" for s in range(0, 60, 10)]
    + [f"echo '{STATS % (f'{2 + s // 60:02d}:{s % 60:02d}', '20.0', 4, 40)}'" for s in range(0, 130, 10)]
    + ["for i in $(seq 600); do echo heartbeat; sleep 0.5; done"])
TASK = TASK.replace("\necho", "\nsleep 0.1; echo")


@pytest.fixture
def wedged_job(on_iris_cluster, request):
    from irisrl.ops import LaunchSettings, Target, launch

    env, ws = on_iris_cluster.env, on_iris_cluster.ws
    name = "wedge-" + request.node.name.rsplit("_", 1)[-1]   # one job name per test: never a re-used id
    plan = trivial_plan(name, ["bash", "-c", TASK], ws, nodes=1, role="trainer")
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    yield plan.job_id, env
    _irisrl(env, "kill", plan.job_id, "--local", "--yes")   # teardown: the test's job, by id


def _state(env: dict[str, str], job: str) -> str:
    res = _irisrl(env, "status", job, "--local", "--json")
    return json.loads(res.stdout)["state"]


def test_watchdog_flags_a_live_wedge_exit_5_and_leaves_the_job_running(wedged_job):
    job, env = wedged_job
    t0 = time.monotonic()
    watch = _irisrl(env, "watch", job, "--local", "--watchdog", "--interval", "1", "--timeout", "90s", timeout=120)
    took = time.monotonic() - t0
    out = watch.stdout
    assert watch.returncode == 5, out + watch.stderr
    assert took < 90
    kill_line = next(ln for ln in out.splitlines() if " health KILL " in ln)
    assert "kill it with: irisrl kill " + job + " --yes" in kill_line and "never kills" in kill_line
    assert "throughput-starvation wedge" in out and "Waiting 40" in out
    assert _state(env, job) == "running"          # watch never kills


def test_watchdog_poll_cost_on_the_live_controller(wedged_job):
    """One GetJobStatus + one FetchLogs per started task per poll; later polls pull no old line
    (only the heartbeats printed since)."""
    from irisrl.backends import local_cluster
    from irisrl.backends.iris_client import IrisBackend
    from irisrl.ops.jobs import JobLogs
    from irisrl.ops.watching import WatchdogHealth

    job, env = wedged_job
    state = local_cluster.read_state(Path(env["IRISRL_HOME"]) / "local-cluster")
    with IrisBackend(state.url, "local") as backend:
        deadline = time.monotonic() + 60
        while backend.snapshot(job, detail=False).task_states.get("running", 0) == 0:
            assert time.monotonic() < deadline, "task never ran"
            time.sleep(0.3)
        logs = JobLogs(backend, job, follows_polls=True)
        health = WatchdogHealth(job, None, logs, 1.0, on_snapshot=logs.use)
        dog = health.dog
        verdict = None
        while verdict != "KILL":   # the first polls catch up with what the task printed
            assert time.monotonic() < deadline, "no KILL verdict within 60 s"
            verdict = health(backend.snapshot(job, detail=False)).verdict
            time.sleep(0.3)
        calls, times, fed = [], [], []
        feed = dog.analyzer.feed
        dog.analyzer.feed = lambda name, data: (fed.append(data), feed(name, data))[1]
        for _ in range(10):
            c0, t0 = backend.calls, time.perf_counter()
            health(backend.snapshot(job, detail=False))
            times.append((time.perf_counter() - t0) * 1000)
            calls.append(backend.calls - c0)
    print(json.dumps({"watchdog_poll": {"calls": calls, "ms_median": round(sorted(times)[5], 2),
                                        "ms_max": round(max(times), 2)}}))
    assert set(b"".join(fed).splitlines()) <= {b"heartbeat"}   # only new lines: nothing old fed again
    assert set(calls) == {2}                        # GetJobStatus + FetchLogs of the one task
