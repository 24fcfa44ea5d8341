"""`irisrl logs` / `health` / `progress` on a live job of a real Iris local cluster, through
the backend's log source (the session's cluster, tests/integration/conftest.py; trivial bash
tasks print ladder lines)."""

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

# Rank 1 never stages its data: the ladder must name it (rung 2) and say KILL.
TASK = r"""
r=${IRIS_TASK_ID##*/}; r=${r%%:*}
if [ "$r" = 0 ]; then
  echo "[irisrl] Staging train_data on this node (rank 0/2): DCAgent/tasks -> /tmp/td"
  echo "[irisrl] Ray nodes alive: 2/2"
  echo "2026-12-02 10:00:01.000 | INFO     | skyrl_train.generators.harbor:__init__:77 - TerminalBenchGenerator initialized with HarborConfigBuilder. Concurrent trials: 8."
  echo "2026-12-02 10:00:02.000 | INFO     | skyrl_train.trainer:train:301 - No checkpoint found, starting training from scratch"
  echo 'WANDB_MIRROR kind=train step=1 metrics={"reward/avg_raw_reward": 0.25, "policy/policy_entropy": 0.5, "policy/raw_grad_norm": 0.3, "policy/log_ratio_abs_mean": 0.004}'
else
  echo "[irisrl] worker waiting for the head"
fi
"""


def _wait_done(env: dict[str, str], job: str, timeout: float = 90) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        res = _irisrl(env, "status", job, "--local", "--json")
        if res.returncode in (0, 1):   # terminal: succeeded / failed
            return json.loads(res.stdout)
        time.sleep(1)
    raise AssertionError(f"{job} not terminal after {timeout}s")


def test_live_job_logs_health_and_progress(on_iris_cluster, tmp_path):
    from irisrl.ops import LaunchSettings, Target, launch

    env, ws = on_iris_cluster.env, on_iris_cluster.ws
    plan = trivial_plan("health-live", ["bash", "-c", TASK], ws, nodes=2, role="trainer")
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    _wait_done(env, plan.job_id)

    out = tmp_path / "pulled"
    pulled = _irisrl(env, "logs", plan.job_id, "--local", "--out", str(out), "--json")
    manifest = json.loads(pulled.stdout)
    assert pulled.returncode == 0 and manifest["complete"], pulled.stdout + pulled.stderr
    assert {t["task_index"] for t in manifest["tasks"]} == {0, 1}
    assert "Staging train_data on this node (rank 0/2)" in (out / "task-0.attempt-0.log").read_text()
    assert "[1/0] [irisrl] worker waiting for the head" in (out / "combined.log").read_text()

    health = _irisrl(env, "health", plan.job_id, "--local", "--json")
    report = json.loads(health.stdout)
    assert health.returncode == 1 and report["verdict"] == "KILL", health.stdout + health.stderr
    assert report["rungs"][1]["status"] == "fail" and "missing rank(s) 1" in report["rungs"][1]["evidence"]
    files = _irisrl(env, "health", "--log", str(out / "combined.log"), "--plan", "/dev/null", "--json")
    assert files.returncode == 3   # /dev/null is not a plan: unreadable input

    progress = _irisrl(env, "progress", plan.job_id, "--local", "--json")
    assert progress.returncode == 0 and json.loads(progress.stdout)[0]["reward"] == 0.25


# The trainer came up, then nothing: its last dated line is long before the wall clock.
SILENT_TASK = r"""
echo "2026-01-05 10:00:01.000 | INFO     | skyrl_train.generators.harbor:__init__:77 - TerminalBenchGenerator initialized with HarborConfigBuilder. Concurrent trials: 8."
echo "2026-01-05 10:00:02.000 | INFO     | skyrl_train.trainer:train:301 - No checkpoint found, starting training from scratch"
echo 'WANDB_MIRROR kind=train step=1 metrics={"reward/avg_raw_reward": 0.25}'
for i in $(seq 150); do echo .; sleep 2; done
"""
# The undated dots flush the burst out of Iris's local runtime's line buffer (it reads task
# pipes with select() + readline(): a burst can wait there until the task writes again); they
# carry no time, so they do not move the logs' clock: the job stays silent in rung 9's sense.


def _statuses(report: dict) -> tuple:
    # evidence holds "no output for Ns": seconds apart between the two reads; names and statuses must match
    return report["verdict"], report["phase"], [(r["rung"], r["name"], r["status"]) for r in report["rungs"]]


def test_api_and_cli_agree_on_a_silent_job(on_iris_cluster):
    """issue 17: `ops.health` is the call `irisrl health JOB` makes (wall clock, trials, task
    statuses): on a running job gone silent both say KILL with rung 9 failed."""
    from irisrl import ops

    env, ws = on_iris_cluster.env, on_iris_cluster.ws
    plan = trivial_plan("health-silent", ["bash", "-c", SILENT_TASK], ws, nodes=1, role="trainer")
    assert ops.launch(plan, ops.LaunchSettings(ops.Target(local=True), no_wait=True)).exit_code == 0
    try:
        deadline = time.monotonic() + 180   # a loaded 2-core CI box starts the job slowly
        while (check := ops.health(plan.job_id, local=True)).problems or check.report.global_step is None:
            assert time.monotonic() < deadline, check.reasons   # the lines are printed, the job still runs
            time.sleep(1)
        cli = _irisrl(env, "health", plan.job_id, "--local", "--json")
        assert cli.returncode == 1, cli.stdout + cli.stderr
        api = ops.health(plan.job_id, local=True)
        assert _statuses(api.to_dict()) == _statuses(json.loads(cli.stdout))
        assert api.verdict == "KILL" and api.exit_code == 1
        assert api.report.rungs[8].status == "fail" and "no output from any task" in api.report.rungs[8].evidence
    finally:
        _irisrl(env, "kill", plan.job_id, "--local", "--yes")   # teardown: the test's job, by id
