"""ops/finish.py: the evidence bundle built from the in-memory backend (a failed 2-node run whose
node checks failed on rank 0), the ledger's launch row, and the flight-recorder dumps the
runtime left in the run's store (a file store here; S3: tests/integration)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from irisrl.backends.base import JobSnapshot
from irisrl.util.errors import IrisrlError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from memory_backend import MemoryBackend, attempt, line, task  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
NODE_CHECK = ("[irisrl] ERROR rank 0: node checks failed on rank 0/2: gpus 4 fake (local mode); model /no/such/model: "
              "no config.json at /no/such/model/config.json")


def _plan(job_name: str):
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan

    plan, findings, _ = build_plan(PlanInputs(
        rl_config=str(REPO / "examples" / "configs" / "smoke_colocated.yaml"), job_name=job_name,
        num_nodes=2, workspace=str(REPO / "examples" / "workspace"),
        environ={"IRISRL_USER": "tester"}), Target(local=True), dry_run=True)
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    return plan


def _failed_run(job_id: str) -> MemoryBackend:
    failed = attempt(0, "failed", 1_000, 2_000, exit_code=1, error="Exit code 1")
    ok = attempt(0, "killed", 1_000, 2_100, exit_code=None)
    snap = JobSnapshot(job_id, "failed", 0, error="task 0 failed", exit_code=1, task_count=2,
                       task_states={"failed": 1, "killed": 1}, tasks=(task(0, failed), task(1, ok)))
    logs = [line(0, "[irisrl] Runtime controller rank 0/2 on 127.0.0.1 (task /tester/fin/0)", 1_000),
            line(1, "[irisrl] Runtime controller rank 1/2 on 127.0.0.1 (task /tester/fin/1)", 1_001),
            line(0, NODE_CHECK, 1_100)]
    return MemoryBackend(statuses={job_id: snap}, job_logs={job_id: logs})


def _record(plan) -> None:
    from irisrl.ledger.store import Ledger

    Ledger().record_launch(plan, "memory://", "local", state="failed")


def test_bundle_of_a_failed_run_holds_the_failing_ranks_log_health_launch_and_dumps(tmp_path: Path) -> None:
    from irisrl.ops.finish import build_bundle
    from irisrl.runtime.store import Store

    plan = _plan("fin-1")
    _record(plan)
    Store(plan.rendezvous_dir).write("flight-recorder/task-0.attempt-0/nccl_fr_rank0", b"fr-pickle")
    bundle = build_bundle(_failed_run(plan.job_id), plan.job_id, tmp_path / "b")

    doc = bundle.to_dict()
    assert doc["bundle"] == str((tmp_path / "b").resolve()) and doc["stored"] is None   # local run: no store copy
    paths = {i["path"]: i["size"] for i in doc["items"]}
    for name in ("logs/task-0.attempt-0.log", "logs/task-1.attempt-0.log", "logs/combined.log", "health.json",
                 "launch.json", "trials.json", "flight-recorder/task-0.attempt-0/nccl_fr_rank0"):
        assert name in paths and paths[name] == (tmp_path / "b" / name).stat().st_size, name
    assert NODE_CHECK in (tmp_path / "b" / "logs" / "task-0.attempt-0.log").read_text()
    health = json.loads((tmp_path / "b" / "health.json").read_text())
    assert health["verdict"] == "KILL" and bundle.verdict == "KILL"
    assert health["cause_of_death"]["kind"] == "node_check_failed" and health["cause_of_death"]["rank"] == "0"
    assert "node_check_failed" in {c["kind"] for c in health["causes"]}
    launch = json.loads((tmp_path / "b" / "launch.json").read_text())
    assert launch["ledger"]["job_id"] == plan.job_id and launch["plan"]["job_name"] == "fin-1"
    assert (tmp_path / "b" / "flight-recorder/task-0.attempt-0/nccl_fr_rank0").read_bytes() == b"fr-pickle"
    assert bundle.problems == [] and bundle.exit_code == 0


def test_bundle_health_is_the_health_json_document(tmp_path: Path) -> None:
    from irisrl.ops.finish import build_bundle
    from irisrl.ops.health_check import health

    plan = _plan("fin-2")
    _record(plan)
    backend = _failed_run(plan.job_id)
    build_bundle(backend, plan.job_id, tmp_path / "b")
    saved = json.loads((tmp_path / "b" / "health.json").read_text())
    direct = health(plan.job_id, backend=backend).to_dict()
    keep = ("verdict", "phase", "causes", "cause_of_death")
    assert {k: saved[k] for k in keep} == {k: direct[k] for k in keep}


def test_remote_run_bundle_is_copied_to_its_store(tmp_path: Path) -> None:
    from irisrl.ops.finish import build_bundle

    rdv = f"file://{tmp_path / 'store' / 'rl-rdzv' / 'fin-3' / 'x'}"   # stands for <storage root>/rl-rdzv/<job>/<fresh>
    plan = replace(_plan("fin-3"), mode="remote", rendezvous_dir=rdv)
    _record(plan)
    bundle = build_bundle(_failed_run(plan.job_id), plan.job_id, tmp_path / "b")
    assert bundle.stored == f"{rdv}/evidence"
    copied = tmp_path / "store" / "rl-rdzv" / "fin-3" / "x" / "evidence"
    assert (copied / "health.json").read_bytes() == (tmp_path / "b" / "health.json").read_bytes()
    assert {p.relative_to(copied).as_posix() for p in copied.rglob("*") if p.is_file()} == \
        {i["path"] for i in bundle.items}


def test_an_unknown_job_is_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    from irisrl.ops.finish import build_bundle

    with pytest.raises(IrisrlError) as err:
        build_bundle(MemoryBackend(), "/tester/nope", tmp_path / "b")
    assert err.value.exit_code == 2 and not (tmp_path / "b").exists()


def test_a_job_irisrl_did_not_launch_still_gets_logs_and_health(tmp_path: Path) -> None:
    from irisrl.ops.finish import build_bundle

    bundle = build_bundle(_failed_run("/tester/foreign"), "/tester/foreign", tmp_path / "b")
    launch = json.loads((tmp_path / "b" / "launch.json").read_text())
    assert launch["ledger"] is None and "no ledger row" in launch["note"]
    assert bundle.verdict == "KILL" and "logs/task-0.attempt-0.log" in {i["path"] for i in bundle.items}
