"""What the plan tells the trainer, as MarinSkyRL's launcher would (launch_rl_iris.py,
rl_config_translation.py, rl_data.py @ f2e41858): train data pointed at the node-local task dir,
per-job paths, served model name, W&B routing, resources and image from the profile."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from irisrl.config.profile import load_profile
from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs, build_plan

REPO = Path(__file__).resolve().parents[2]
DENSE = str(REPO / "examples" / "configs" / "dense8b_disagg.yaml")
NOW = datetime(2026, 12, 2, 10, 11, 12, tzinfo=timezone.utc)


def _plan(local=False, **kw):
    base = dict(rl_config=DENSE, num_nodes=7, job_name="d8", model_path="Qwen/Qwen3-8B",
                train_data='["DCAgent/tasks", "s3://bucket/more-tasks"]', now=NOW,
                workspace=str(REPO / "examples" / "workspace"), environ={"IRISRL_USER": "alice"})
    base.update(kw)
    plan, findings, _ = build_plan(PlanInputs(**base), Target(local=local), dry_run=True)
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    return plan


def _hydra(plan) -> dict[str, str]:
    return dict(a.lstrip("+").split("=", 1) for a in plan.hydra_args if "=" in a)


def test_plan_train_data_points_at_the_node_local_task_dir():
    plan = _plan()
    assert _hydra(plan)["data.train_data"] == "['/opt/openthoughts/tasks/tasks',s3://bucket/more-tasks]"
    argv = list(plan.runtime_argv)
    assert argv[argv.index("--task-root") + 1] == "/opt/openthoughts/tasks"
    assert json.loads(argv[argv.index("--train-data") + 1]) == ["DCAgent/tasks", "s3://bucket/more-tasks"]
    assert plan.train_data == ("DCAgent/tasks", "s3://bucket/more-tasks")  # what each node stages


def test_plan_without_hf_ids_has_no_task_root():
    plan = _plan(train_data='["s3://bucket/more-tasks"]')
    assert "--task-root" not in plan.runtime_argv
    assert _hydra(plan)["data.train_data"] == "[s3://bucket/more-tasks]"


def test_plan_local_mode_extracts_under_the_run_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path))
    plan = _plan(local=True, rendezvous_dir=str(tmp_path / "rdzv"))
    argv = list(plan.runtime_argv)
    assert argv[argv.index("--task-root") + 1] == str(tmp_path / "runs" / "d8" / "tasks")


def test_plan_per_job_paths_and_served_name():
    hydra = _hydra(_plan())
    assert hydra["trainer.ckpt_path"] == "s3://marin-us-east-02a/iris/d8/checkpoints"
    assert hydra["terminal_bench_config.trials_dir"] == "s3://marin-us-east-02a/iris/d8/trace_jobs"
    assert hydra["trainer.export_path"] == "'/app/experiments/d8/exports'"
    assert hydra["generator.engine_init_kwargs.served_model_name"] == "Qwen3-8B"
    assert hydra["trainer.run_name"] == "d8"


@pytest.mark.parametrize("environ, expected", [
    ({}, ("dogml", "OpenThoughts-Agent")),
    ({"WANDB_ENTITY": "team", "WANDB_PROJECT": "proj"}, ("team", "proj")),
])
def test_plan_wandb_routing_from_env_else_profile(environ, expected):
    plan = _plan(environ={"IRISRL_USER": "alice", **environ})
    assert (plan.env["WANDB_ENTITY"], plan.env["WANDB_PROJECT"]) == expected


def test_profile_defaults_are_the_launchers_with_provenance():
    profile = load_profile()
    assert profile.image.startswith("ghcr.io/open-thoughts/openthoughts-agent@sha256:")
    assert "launch_rl_iris.py@f2e41858" in profile.image_source
    assert (profile.memory, profile.cpu_cap) == ("1700GB", 48)
    plan = _plan()
    assert (plan.resources.memory, plan.resources.disk, plan.image) == ("1700GB", "21800Gi", profile.image)


def test_plan_runbook_entrypoint_module_runs_as_written(tmp_path):
    import yaml

    raw = yaml.safe_load(Path(DENSE).read_text())
    raw["entrypoint"] = "examples.terminal_bench.entrypoints.main_tbench"
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(raw))
    plan = _plan(rl_config=str(cfg))
    assert plan.command[:3] == ("python", "-m", "examples.terminal_bench.entrypoints.main_tbench")


def test_plan_wandb_routing_from_the_secrets_file_wins(tmp_path):
    secrets = tmp_path / "secrets.env"
    secrets.write_text("WANDB_ENTITY=file-team\n")
    plan = _plan(secrets_env=str(secrets), environ={"IRISRL_USER": "alice", "WANDB_ENTITY": "shell-team"})
    assert plan.env["WANDB_ENTITY"] == "file-team" and plan.env["WANDB_PROJECT"] == "OpenThoughts-Agent"


def test_plan_local_mode_requests_memory_the_local_workers_have(tmp_path, monkeypatch):
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path))
    plan = _plan(local=True, rendezvous_dir=str(tmp_path / "rdzv"))
    assert plan.resources.memory == "512GB"  # Iris's local workers advertise 1000 GiB; 1700GB never schedules
    assert _plan(local=True, rendezvous_dir=str(tmp_path / "r2"), memory="64GB").resources.memory == "64GB"
