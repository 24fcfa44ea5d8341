"""The plan builder: names, rendezvous, topology, roles, env, command, fingerprint."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest

from irisrl.core.target import Target
from irisrl.plan.build import BOOT, PlanInputs, build_plan, default_job_name, hparams_fingerprint

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "examples" / "configs"
DENSE = str(CONFIGS / "dense8b_disagg.yaml")
SMOKE = str(CONFIGS / "smoke_colocated.yaml")
NOW = datetime(2026, 12, 2, 10, 11, 12, tzinfo=timezone.utc)


def _opts(config=DENSE, **kw) -> PlanInputs:
    base = dict(rl_config=config, train_data='["DCAgent/tasks"]',
                workspace=str(REPO / "examples" / "workspace"), now=NOW, environ={"IRISRL_USER": "alice"})
    base.update(kw)
    return PlanInputs(**base)


def _build(local=False, **kw):
    """build_plan as `launch --dry-run` calls it (on the local cluster with local=True)."""
    return build_plan(_opts(**kw), Target(local=local), dry_run=True)


def _plan(**kw):
    plan, findings, _ = _build(**kw)
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    return plan


def test_plan_default_job_name_is_stem_and_utc_stamp():
    assert default_job_name("cfgs/Dense_8B.v2.yaml", "20261202-101112") == "dense-8b-v2-20261202-101112"
    plan = _plan()
    assert plan.job_name == "dense8b-disagg-20261202-101112"
    assert plan.job_id == "/alice/dense8b-disagg-20261202-101112"


def test_plan_rendezvous_fresh_per_launch_under_storage_root():
    a, b = _plan(), _plan()
    assert a.rendezvous_dir != b.rendezvous_dir
    assert a.rendezvous_dir.startswith("s3://marin-us-east-02a/iris/rl-rdzv/dense8b-disagg-20261202-101112/20261202-101112-")


def test_plan_explicit_rendezvous_used_as_given():
    assert _plan(rendezvous_dir="s3://b/x/run1").rendezvous_dir == "s3://b/x/run1"


def test_plan_dense_topology_gang_and_resources():
    plan = _plan(num_nodes=7)
    d = plan.to_dict()
    assert (d["num_nodes"], d["gpus_per_node"], d["total_gpus"], d["replicas"]) == (7, 8, 56, 7)
    assert d["coscheduling"] == {"group_by": "leafgroup"}
    assert d["resources"] == {"cpu": 48.0, "memory": "1700GB", "disk": "21800Gi",
                              "device": {"type": "gpu", "variant": "H100", "count": 8}}
    assert d["priority"] == "interactive" and d["max_retries"] == 1
    assert d["mode"] == "remote" and d["role"] == "trainer"
    assert d["ports"] == ["ray"]


def test_plan_node_count_defaults_to_budget_and_wrong_count_is_an_error():
    assert _plan().num_nodes == 7
    plan, findings, budget = _build(num_nodes=4)
    assert plan is None and budget.num_nodes == 7
    assert any(f.rule == "TOPO-NODES" for f in findings)


def test_plan_single_node_has_no_coscheduling(tmp_path):
    cfg = tmp_path / "one.yaml"
    text = Path(SMOKE).read_text().replace("policy_num_nodes: 2", "policy_num_nodes: 1")
    cfg.write_text(text)
    plan = _plan(config=str(cfg))
    assert plan.num_nodes == 1 and plan.coscheduling is None


def test_plan_local_defaults_to_rehearsal_on_loopback(tmp_path, monkeypatch):
    plan = _plan(config=SMOKE, local=True)
    assert plan.mode == "local" and plan.role == "rehearsal"
    assert plan.env["IRIS_ADVERTISE_HOST"] == plan.env["IRIS_BIND_HOST"] == "127.0.0.1"
    assert plan.command == ("python", "-m", "irisrl.runtime.rehearsal", "--plan", ".irisrl/plan.json",
                            "--timeout", "30")
    assert plan.rendezvous_dir.startswith(os.environ["IRISRL_HOME"] + "/rdzv/smoke-colocated-")
    assert "--local" in plan.runtime_argv and "--local" not in _plan().runtime_argv
    assert _plan(config=SMOKE, local=True, role="trainer").role == "trainer"
    assert _plan(config=SMOKE, rehearse=True).role == "rehearsal"


def test_plan_trainer_command_and_entrypoint_shape():
    plan = _plan(num_nodes=7)
    assert plan.command[:3] == ("python", "-m", "examples.terminal_bench.entrypoints.main_tbench")  # the example names it
    assert plan.command[3:] == plan.hydra_args
    assert plan.entrypoint[:4] == ("bash", "-c", BOOT, "irisrl-boot")
    sep = plan.entrypoint.index("--")
    assert plan.entrypoint[4:sep] == plan.runtime_argv
    assert plan.entrypoint[sep + 1:] == plan.command


def test_plan_boot_script_runs_controller_from_workdir(tmp_path):
    """Run the real BOOT with bash: it must cd to IRIS_WORKDIR, prepend .irisrl/lib and the
    workdir to PYTHONPATH and pass every argument through untouched."""
    probe = tmp_path / "probe.py"
    probe.write_text("import json, os, sys; print(json.dumps([os.getcwd(), os.environ['PYTHONPATH'], sys.argv[1:]]))")
    fake_python = tmp_path / "py"
    fake_python.write_text(f"#!/bin/sh\nshift 2\nexec {sys.executable} {probe} \"$@\"\n")
    fake_python.chmod(0o755)
    workdir = tmp_path / "app"
    workdir.mkdir()
    env = dict(os.environ, IRIS_WORKDIR=str(workdir), IRIS_PYTHON=str(fake_python), PYTHONPATH="/opt/skyrl/skyrl-train")
    args = ["--train-data", '["a b", "c"]', "--", "python", "-m", "x", "++k='v w'"]
    out = subprocess.run(["bash", "-c", BOOT, "irisrl-boot", *args], env=env, capture_output=True, text=True,
                         timeout=30, check=True)
    cwd, pythonpath, argv = json.loads(out.stdout)
    assert Path(cwd) == workdir.resolve()
    assert pythonpath == f"{cwd}/.irisrl/lib:{cwd}:/opt/skyrl/skyrl-train"
    assert argv == args


def test_plan_env_tags_pythonpath_and_engines():
    plan = _plan(num_nodes=7)
    env = plan.env
    assert env["PYTHONPATH"].endswith("/opt/skyrl/skyrl-train")
    assert env["IRISRL_KIND"] == "agentic-rl" and env["IRISRL_SANDBOX"] == "daytona"
    assert env["IRISRL_SERIES"] == "dense8b" and env["IRISRL_JOB_ID"] == plan.job_id
    assert plan.tags == {"kind": "agentic-rl", "sandbox": "daytona", "series": "dense8b"}
    assert "IRIS_ADVERTISE_HOST" not in env


def test_plan_smoke_sandbox_none_and_series_flag():
    plan = _plan(config=SMOKE, series="s7")
    assert plan.env["IRISRL_SANDBOX"] == "none" and plan.series == "s7"


def test_plan_runtime_argv_data_model_ref():
    plan = _plan(num_nodes=7, skyrl_ref="abc123", rendezvous_timeout=99)
    argv = list(plan.runtime_argv)
    assert argv[argv.index("--train-data") + 1] == '["DCAgent/tasks"]'
    assert argv[argv.index("--prestage-model") + 1] == "Qwen/Qwen3-8B"
    assert argv[argv.index("--skyrl-ref") + 1] == "abc123"
    assert argv[argv.index("--skyrl-root") + 1] == "/opt/skyrl"
    assert argv[argv.index("--rendezvous-timeout") + 1] == "99"
    assert argv[argv.index("--gpus-per-node") + 1] == "8"


def test_plan_overrides_last_and_they_shape_placement():
    plan = _plan(num_nodes=6, skyrl_overrides=("++generator.num_inference_engines=40",))
    assert plan.hydra_args[-1] == "++generator.num_inference_engines=40"
    assert plan.budget["num_inference_engines"] == 40
    engines = [g for g in plan.placement_groups if g.role == "engine"]
    assert sum(len(g.bundles) for g in engines) == 40


def test_plan_num_inference_engines_env_follows_hydra(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(Path(DENSE).read_text().replace("extra_env:\n", "extra_env:\n  NUM_INFERENCE_ENGINES: 56\n"))
    plan = _plan(config=str(cfg), num_nodes=7)
    assert plan.env["NUM_INFERENCE_ENGINES"] == "48"
    assert any(f.rule == "ENV-COLLISION" and "NUM_INFERENCE_ENGINES" in f.path for f in plan.findings)


def test_plan_hparams_fingerprint_ignores_run_facts_but_not_hparams():
    a = _plan(num_nodes=7, job_name="a-1", model_path="Qwen/Qwen3-8B")
    b = _plan(num_nodes=7, job_name="b-2", train_data='["other"]')
    assert a.hparams_fingerprint == b.hparams_fingerprint and len(a.hparams_fingerprint) == 64
    raw = {"trainer": {"policy": {"optimizer_config": {"lr": 1e-6}}}, "generator": {}}
    raw2 = {"trainer": {"policy": {"optimizer_config": {"lr": 2e-6}}}, "generator": {}}
    assert hparams_fingerprint(raw) != hparams_fingerprint(raw2)
    raw3 = {"trainer": {"run_name": "x", "ckpt_path": "s3://y", "policy": {"optimizer_config": {"lr": 1e-6},
                                                                          "model": {"path": "m"}}}, "generator": {}}
    assert hparams_fingerprint(raw) == hparams_fingerprint(raw3)


def test_plan_secrets_in_env_and_marked(tmp_path):
    secrets = tmp_path / "s.env"
    secrets.write_text("export HF_TOKEN=hf_planted_value\nAWS_SECRET_ACCESS_KEY=nope\n")
    plan = _plan(secrets_env=str(secrets))
    assert plan.env["HF_TOKEN"] == "hf_planted_value"
    assert "HF_TOKEN" in plan.secret_env_keys
    assert not any(k.startswith("AWS_") for k in plan.env)
    assert plan.to_dict()["env"]["HF_TOKEN"] == "***"


def test_plan_bad_priority_is_usage_error():
    from irisrl.util.errors import UsageError
    with pytest.raises(UsageError):
        build_plan(replace(_opts(), priority="urgent"))


def test_plan_to_dict_scrubs_secret_values_everywhere(tmp_path):
    """The ledger and plan.json use to_dict(): a secret value must not survive in args either."""
    token = "hf_scrub_me_123456"
    plan = _plan(environ={"IRISRL_USER": "alice", "HF_TOKEN": token}, skyrl_overrides=(f"++trainer.note={token}",))
    assert token in plan.hydra_args[-1]  # the real plan keeps it (the trainer needs its args)
    assert token not in json.dumps(plan.to_dict())


def test_plan_launcher_env_keys_are_known_to_env_collision():
    """Every variable the launcher sets is in H1's launcher-key list, so ENV-COLLISION warns
    when a config's extra_env sets one (the launcher wins)."""
    from irisrl.config.extra_env_keys import is_launcher_key
    from irisrl.plan.build import _launcher_env
    from irisrl.config.profile import load_profile

    for local in (False, True):
        env = _launcher_env(local, load_profile(), "/a/b", "s", "none", {})
        assert [k for k in env if not is_launcher_key(k)] == []
