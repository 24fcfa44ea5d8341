"""`fleet` and `cost` against the real Iris local cluster (the session's, conftest.py): two jobs
launched from the cluster's IRISRL_HOME, one that finishes and one that is killed, then read
from a different, empty IRISRL_HOME (the jobs come from the controller's listing, not the
ledger)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli, trivial_plan  # noqa: E402

from irisrl.core.states import ACTIVE  # noqa: E402
from irisrl.ops import LaunchSettings, Target, launch  # noqa: E402

pytestmark = pytest.mark.slow


def wait_for(url: str, job_id: str, done: object, timeout: float = 60) -> None:
    from irisrl.backends.iris_client import IrisBackend

    deadline = time.monotonic() + timeout
    with IrisBackend(url) as backend:
        while not done(backend.snapshot(job_id, detail=False)):  # type: ignore[operator]
            assert time.monotonic() < deadline, f"{job_id}: not there within {timeout}s"
            time.sleep(0.3)


def test_fleet_lists_jobs_from_another_home_and_cost_sums_its_phases(on_iris_cluster, tmp_path, ops_on_terminal):
    url = on_iris_cluster.url
    done = trivial_plan("fleet-done", ["bash", "-c", "echo starting; sleep 2; echo done"], on_iris_cluster.ws)
    doomed = trivial_plan("fleet-killed", ["sleep", "120"], on_iris_cluster.ws)
    assert launch(done, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    assert launch(doomed, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    wait_for(url, "/tester/fleet-killed", lambda s: s.task_states.get("running", 0) > 0)
    wait_for(url, "/tester/fleet-done", lambda s: s.state == "succeeded")
    code = irisrl_cli(on_iris_cluster.env, "kill", "/tester/fleet-killed", "--yes", "--local")
    assert code.returncode == 0, code.stdout + code.stderr

    other = {**on_iris_cluster.env, "IRISRL_HOME": str(tmp_path / "empty-home"), "IRISRL_USER": "someone-else"}
    out = irisrl_cli(other, "fleet", "--all-users", "--json", "--controller-url", url)
    assert out.returncode == 0, out.stderr
    first = json.loads(out.stdout)
    rows = {r["job_id"]: r for r in first["jobs"]}
    assert rows["/tester/fleet-done"]["state"] == "succeeded" and rows["/tester/fleet-killed"]["state"] == "killed"
    for job_id in ("/tester/fleet-done", "/tester/fleet-killed"):
        row = rows[job_id]
        assert row["gpu_hours"] >= 0 and row["gpus"] == 8 and row["phase"] in ("finished", "dead")
        assert set(row["gpu_hours_by_phase"]) == {"queued", "bring-up", "productive", "dead"}
    # a second run resumes from the health state files: the ended jobs cost no RPC, same rows
    again = json.loads(irisrl_cli(other, "fleet", "--all-users", "--json", "--controller-url", url).stdout)
    active = sum(1 for r in first["jobs"] if r["state"] in ACTIVE)
    assert again["totals"]["rpcs"] <= 1 + active < first["totals"]["rpcs"]
    strip = ("age_s", "last_output_age_s")
    assert {k: v for k, v in rows["/tester/fleet-done"].items() if k not in strip} == \
        {k: v for k, v in next(r for r in again["jobs"] if r["job_id"] == "/tester/fleet-done").items() if k not in strip}
    mine = irisrl_cli(other, "fleet", "--json", "--controller-url", url)   # someone-else has no jobs
    assert mine.returncode == 0 and json.loads(mine.stdout)["jobs"] == []

    cost = irisrl_cli({**other, "IRISRL_USER": "tester"}, "cost", "fleet-done", "--json", "--controller-url", url)
    assert cost.returncode == 0, cost.stderr
    report = json.loads(cost.stdout)
    assert report["job_id"] == "/tester/fleet-done" and report["gpu_hours_by_phase"]["bring-up"] > 0
    assert report["gpu_hours"] == pytest.approx(sum(report["gpu_hours_by_phase"].values()), abs=1e-3)
    assert report["cost_usd"] == pytest.approx(report["gpu_hours"] * 49.24 / 8, abs=0.01)
    absent = irisrl_cli(other, "cost", "/tester/never-was", "--controller-url", url)
    assert absent.returncode == 2 and "no job" in absent.stderr and "Traceback" not in absent.stderr
