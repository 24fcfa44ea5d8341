"""One test per launch rule: it fires on a launch made to break it and stays silent on the
examples launched as the runbook says."""

from __future__ import annotations

import os
import subprocess
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs, build_plan

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "examples" / "configs"
WORKSPACE = str(REPO / "examples" / "workspace")
DENSE = str(CONFIGS / "dense8b_disagg.yaml")
ALL_SECRETS = {"HF_TOKEN": "hf_x", "WANDB_API_KEY": "wb_x", "DAYTONA_API_KEY": "dt_x", "IRISRL_USER": "alice"}
EXAMPLES = {"dense8b_disagg.yaml": 7, "moe30b_ep4_r3_dcp2.yaml": 4, "smoke_colocated.yaml": 2}
PROFILE = REPO / "src" / "irisrl" / "data" / "profiles" / "cw-us-east-02a.toml"


def _opts(local=False, controller_url=None, dry_run=True, **kw) -> tuple[PlanInputs, Target, bool]:
    """build_plan's arguments: what runs, where (local / controller_url), whether a dry run."""
    base = dict(rl_config=DENSE, num_nodes=7, train_data='["DCAgent/tasks"]', workspace=WORKSPACE,
                job_name="dense-r1", now=datetime(2026, 1, 1, tzinfo=timezone.utc), environ=dict(ALL_SECRETS))
    base.update(kw)
    return PlanInputs(**base), Target(local=local, controller_url=controller_url), dry_run


def _lch(options: tuple[PlanInputs, Target, bool], rule: str):
    _, findings, _ = build_plan(*options)
    return [f for f in findings if f.rule == rule]


def _profile(tmp_path: Path, **changes) -> str:
    data = tomllib.loads(PROFILE.read_text())
    data.update(changes)
    lines = []
    for key, value in data.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, (int, float)):
            lines.append(f"{key} = {value}")
        elif isinstance(value, list):
            lines.append(f"{key} = [" + ", ".join(f'"{v}"' for v in value) + "]")
        else:
            lines.append(f'{key} = "{value}"')
    path = tmp_path / "profile.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("name,nodes", sorted(EXAMPLES.items()))
def test_launch_rules_silent_on_examples(name, nodes):
    plan, findings, _ = build_plan(*_opts(rl_config=str(CONFIGS / name), num_nodes=nodes, dry_run=False))
    assert plan is not None
    # LCH-STORAGE-ROOT (info) always says which storage root was used: not a complaint
    assert [f.to_dict() for f in findings if f.rule.startswith("LCH-") and f.severity != "info"] == []


def test_lch_rdzv_required_without_storage_root(tmp_path):
    found = _lch(_opts(profile=_profile(tmp_path, storage_root="")), "LCH-RDZV-REQUIRED")
    assert found and found[0].severity == "error"
    assert not _lch(_opts(profile=_profile(tmp_path, storage_root=""), rendezvous_dir="s3://b/r"), "LCH-RDZV-REQUIRED")


def test_lch_rdzv_required_node_local_path_for_a_remote_gang():
    found = _lch(_opts(rendezvous_dir="/tmp/rdzv/run1"), "LCH-RDZV-REQUIRED")
    assert found and "own disk" in found[0].message
    assert not _lch(_opts(rendezvous_dir="/tmp/rdzv/run1", local=True), "LCH-RDZV-REQUIRED")
    shared_host = _lch(_opts(rendezvous_dir="/tmp/rdzv/run1", controller_url="http://127.0.0.1:1"), "LCH-RDZV-REQUIRED")
    assert [f.severity for f in shared_host] == ["warning"]


def test_lch_rdzv_legacy_store():
    found = _lch(_opts(rendezvous_dir="s3://marin-na/iris/rl-x/r1"), "LCH-RDZV-LEGACY")
    assert found and "s3://marin-na" in found[0].message


def test_lch_image_digest_floating_tag(tmp_path):
    found = _lch(_opts(profile=_profile(tmp_path, image="ghcr.io/marin-community/marin/gpu-rl:gpu-rl")),
                 "LCH-IMAGE-DIGEST")
    assert found and found[0].severity == "error"


def _git_repo(path: Path) -> None:
    path.mkdir()
    (path / "f").write_text("x")
    git = ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@e", "-c", "commit.gpgsign=false"]
    subprocess.run(git[:3] + ["init", "-q"], check=True, timeout=30)
    subprocess.run(git + ["add", "f"], check=True, timeout=30)
    subprocess.run(git + ["commit", "-qm", "c"], check=True, timeout=30)


def test_lch_skyrl_ref_checkout_ahead_of_image(tmp_path):
    checkout = tmp_path / "skyrl"
    _git_repo(checkout)
    found = _lch(_opts(skyrl_checkout=str(checkout)), "LCH-SKYRL-REF")
    assert found and found[0].severity == "warning" and "de40d31c" in found[0].message
    assert not _lch(_opts(skyrl_checkout=str(checkout), skyrl_ref="abc"), "LCH-SKYRL-REF")


def test_lch_cpu_above_cap():
    found = _lch(_opts(cpu=64), "LCH-CPU")
    assert found and found[0].severity == "warning"


def test_lch_retries_zero():
    found = _lch(_opts(max_retries=0), "LCH-RETRIES")
    assert found and found[0].severity == "warning"


def test_lch_secrets_warning_on_dry_run_error_on_launch_skipped_locally():
    env = {"IRISRL_USER": "alice"}
    dry = _lch(_opts(environ=env), "LCH-SECRETS")
    assert {f.path for f in dry} == {"HF_TOKEN", "WANDB_API_KEY", "DAYTONA_API_KEY"}
    assert {f.severity for f in dry} == {"warning"}
    assert {f.severity for f in _lch(_opts(environ=env, dry_run=False), "LCH-SECRETS")} == {"error"}
    assert _lch(_opts(environ=env, dry_run=False, local=True), "LCH-SECRETS") == []


@pytest.mark.parametrize("text", ['["a", 1]', "not json", "[]", '{"a": 1}', '"x"'])
def test_lch_train_data_not_a_json_list_of_strings(text):
    found = _lch(_opts(train_data=text), "LCH-TRAIN-DATA")
    assert found and found[0].severity == "error"


def test_lch_train_data_empty_list_says_it_lists_nothing():
    found = _lch(_opts(train_data="[]"), "LCH-TRAIN-DATA")
    assert found[0].message == "--train_data '[]' lists nothing"


def test_lch_train_data_absent_is_a_warning():
    found = _lch(_opts(train_data=None), "LCH-TRAIN-DATA")
    assert found and found[0].severity == "warning"


def test_lch_model_object_store_uri():
    found = _lch(_opts(model_path="s3://bucket/models/qwen"), "LCH-MODEL")
    assert found and found[0].severity == "error"


def test_lch_model_host_path_on_a_remote_launch():
    found = _lch(_opts(model_path="/Users/me/models/qwen"), "LCH-MODEL")
    assert found and "this machine" in found[0].message
    assert not _lch(_opts(model_path="/Users/me/models/qwen", local=True), "LCH-MODEL")


def test_lch_model_missing(tmp_path):
    cfg = tmp_path / "nomodel.yaml"
    cfg.write_text(Path(DENSE).read_text().replace("      path: Qwen/Qwen3-8B\n", "      path: null\n"))
    found = _lch(_opts(rl_config=str(cfg)), "LCH-MODEL")
    assert found and "no model" in found[0].message


@pytest.mark.parametrize("name", ["Bad_Name", "-lead", "trail-", "a" * 64, "has space", "UPPER", "ok\n"])
def test_lch_job_name_invalid(name):
    assert _lch(_opts(job_name=name), "LCH-JOB-NAME")


def test_lch_job_name_valid_63_chars():
    assert not _lch(_opts(job_name="a" * 63), "LCH-JOB-NAME")


def test_lch_workspace_size_over_cap_but_skips_venv_and_git(tmp_path):
    profile = _profile(tmp_path, bundle_cap_bytes=4096)
    ws = tmp_path / "ws"
    (ws / ".venv").mkdir(parents=True)
    (ws / ".git").mkdir()
    (ws / ".venv" / "big.bin").write_bytes(os.urandom(20000))
    (ws / ".git" / "pack").write_bytes(os.urandom(20000))
    (ws / "chat_templates").mkdir()
    (ws / "chat_templates" / "qwen3_thinking_acc.jinja2").write_text("{{ x }}")
    assert not _lch(_opts(profile=profile, workspace=str(ws)), "LCH-WORKSPACE-SIZE")
    (ws / "blob.bin").write_bytes(os.urandom(8000))
    found = _lch(_opts(profile=profile, workspace=str(ws)), "LCH-WORKSPACE-SIZE")
    assert found and found[0].severity == "error"


def test_lch_workspace_size_compressible_raw_over_cap_is_fine(tmp_path):
    profile = _profile(tmp_path, bundle_cap_bytes=4096)
    ws = tmp_path / "ws"
    (ws / "chat_templates").mkdir(parents=True)
    (ws / "chat_templates" / "qwen3_thinking_acc.jinja2").write_text("{{ x }}")
    (ws / "zeros.txt").write_bytes(b"0" * 50000)  # 50 KB raw, tiny zipped
    assert not _lch(_opts(profile=profile, workspace=str(ws)), "LCH-WORKSPACE-SIZE")
