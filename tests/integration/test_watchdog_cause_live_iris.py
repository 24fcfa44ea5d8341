"""`irisrl watch JOB --watchdog` on a real Iris local cluster: a job comes up, then prints one
REAL NCCL watchdog timeout line (tests/fixtures/real_lines/lines.jsonl, hiyouga/LlamaFactory#7396)
and keeps running; no `Training failed:` line ever comes. The fatal cause alone makes the
watchdog exit 5, its KILL line names the cause and the rank, the fix follows, and the job is
left running (watch never kills)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli as _irisrl  # noqa: E402
from iris_plans import trivial_plan  # noqa: E402

pytestmark = pytest.mark.slow

LINES = Path(__file__).resolve().parents[1] / "fixtures" / "real_lines" / "lines.jsonl"
NCCL = next(r["line"] for r in map(json.loads, LINES.read_text().splitlines())
            if r["kind"] == "nccl_timeout" and r["source"] == "hiyouga/LlamaFactory#7396")
# Short sleeps and a heartbeat: Iris's local runtime reads task pipes with readline() on a
# buffered stream (see test_watchdog_live_iris.py), so the task keeps writing.
TASK = "\n".join([
    "echo '[irisrl] Ray nodes alive: 1/1'",
    "sleep 0.1; echo '2026-12-02 10:00:40.000 | INFO | skyrl_train.trainer:train:301 - No checkpoint found, "
    "starting training from scratch'",
    f"sleep 0.1; echo '{NCCL}'",
    "for i in $(seq 600); do echo heartbeat; sleep 0.5; done"])


@pytest.fixture
def nccl_job(on_iris_cluster, request):
    from irisrl.ops import LaunchSettings, Target, launch

    env, ws = on_iris_cluster.env, on_iris_cluster.ws
    plan = trivial_plan("nccl-" + request.node.name.rsplit("_", 1)[-1], ["bash", "-c", TASK], ws, nodes=1,
                        role="trainer")
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    yield plan.job_id, env
    _irisrl(env, "kill", plan.job_id, "--local", "--yes")   # teardown: the test's job, by id


def test_watchdog_kills_on_a_real_nccl_timeout_line_alone_and_names_the_cause(nccl_job):
    job, env = nccl_job
    watch = _irisrl(env, "watch", job, "--local", "--watchdog", "--interval", "1", "--timeout", "90s", timeout=120)
    out = watch.stdout
    assert watch.returncode == 5, out + watch.stderr
    lines = out.splitlines()
    k = next(i for i, ln in enumerate(lines) if " health KILL " in ln)
    assert "cause of death: nccl_timeout (rank 0" in lines[k] and "never kills" in lines[k]
    assert "Training failed" not in out
    assert any(ln.startswith("  fix: ") and "SKYRL_WORKER_NCCL_TIMEOUT_IN_S" in ln for ln in lines[k:])
    status = json.loads(_irisrl(env, "status", job, "--local", "--json").stdout)
    assert status["state"] == "running"             # watch never kills
