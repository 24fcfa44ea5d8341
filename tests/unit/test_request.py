"""The request builder (plan -> the exact Iris request) and its one consumer, submit_kwargs:
what the dry run renders is what the SDK is handed."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest

from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs, build_plan
from irisrl.plan.model import LaunchPlan
from irisrl.plan.request import LOCAL_NET_ENV, build_request, local_argv
from irisrl.util.errors import IrisrlError

REPO = Path(__file__).resolve().parents[2]
SMOKE = str(REPO / "examples" / "configs" / "smoke_colocated.yaml")
NOW = datetime(2026, 12, 2, 10, 11, 12, tzinfo=timezone.utc)


def _plan(local: bool = False, **kw: object) -> LaunchPlan:
    opts = PlanInputs(rl_config=SMOKE, train_data='["DCAgent/tasks"]', num_nodes=2,
                         model_path="Qwen/Qwen3-0.6B", workspace=str(REPO / "examples" / "workspace"), now=NOW,
                         environ={"IRISRL_USER": "alice", "HF_TOKEN": "hf_request_secret_123456"}, **kw)
    plan, findings, _ = build_plan(opts, Target(local=local), dry_run=True)
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    return plan


def test_local_argv_keeps_host_tmp_paths_away_from_iris_remapping() -> None:
    argv = ["bash", "-c", "x", "--rendezvous-dir", "/tmp/home/rdzv/j", "/app/.irisrl/plan.json", "/tmpfoo", "/tmp"]
    assert local_argv(argv) == ["bash", "-c", "x", "--rendezvous-dir", "/./tmp/home/rdzv/j", "/app/.irisrl/plan.json",
                                "/./tmpfoo", "/./tmp"]
    assert Path("/./tmp/home/rdzv/j") == Path("/tmp/home/rdzv/j")


def test_request_remote_plan_sends_its_argv_env_and_image_as_planned() -> None:
    plan = _plan()
    req = build_request(plan)
    assert req.argv == plan.entrypoint and req.env == plan.env and req.task_image == plan.image
    assert (req.name, req.user, req.replicas, req.group_by) == (plan.job_name, "alice", 2, "leafgroup")
    assert req.priority_band == f"PRIORITY_BAND_{plan.priority.upper()}"


def test_request_local_plan_rewrites_tmp_argv_binds_loopback_and_has_no_image(tmp_path: Path) -> None:
    plan = _plan(local=True, rendezvous_dir="/tmp/irisrl-req/rdzv")
    req = build_request(plan)
    assert "/./tmp/irisrl-req/rdzv" in req.argv and "/tmp/irisrl-req/rdzv" not in req.argv
    assert all(req.env[k] == v for k, v in LOCAL_NET_ENV.items()) and req.task_image is None


def test_request_refuses_aws_and_r2_keys_in_the_pod_env() -> None:
    plan = _plan()
    bad = replace(plan, env={**plan.env, "AWS_ACCESS_KEY_ID": "x", "R2_TOKEN": "y"})
    with pytest.raises(IrisrlError, match="AWS_ACCESS_KEY_ID, R2_TOKEN"):
        build_request(bad)


def test_request_rendering_masks_secret_env_values() -> None:
    data = build_request(_plan()).to_dict()
    assert data["env"]["HF_TOKEN"] == "***" and "hf_request_secret_123456" not in str(data)


def test_submit_kwargs_hands_the_sdk_exactly_the_request() -> None:
    pytest.importorskip("iris.cluster.types")
    from irisrl.backends.iris_client import submit_kwargs

    req = build_request(_plan())
    kwargs = submit_kwargs(req)
    assert list(kwargs["entrypoint"].to_proto().run_command.argv) == list(req.argv)
    assert dict(kwargs["environment"].to_proto().env_vars) == req.env
    assert (kwargs["name"], kwargs["user"], kwargs["replicas"], kwargs["task_image"]) == \
        (req.name, req.user, req.replicas, req.task_image)
    assert kwargs["coscheduling"].group_by == "leafgroup" and kwargs["ports"] == list(req.ports)


def test_memory_backend_submit_records_the_request_and_refuses_what_iris_would() -> None:
    import sys

    sys.path.insert(0, str(REPO / "tests" / "support"))
    from memory_backend import MemoryBackend

    backend, plan = MemoryBackend(), _plan()
    assert backend.submit(plan) == plan.job_id and backend.submitted[plan.job_id] == build_request(plan)
    assert backend.snapshot(plan.job_id).state == "pending" and backend.snapshot("/x/y").absent
    with pytest.raises(IrisrlError, match="AWS_SECRET_ACCESS_KEY"):
        backend.submit(replace(plan, env={**plan.env, "AWS_SECRET_ACCESS_KEY": "z"}))
