"""NCCL flight-recorder dump path: launch scopes it to a node-local directory of the job
(whatever the config named), `port` rewrites a Jupiter/foreign one, CFG-HOST-PATH no longer
sends it to the object store, and the runtime finds the dumps torch wrote."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cfgutil import EXAMPLES, example_raw, rules_of, run_config, set_path  # noqa: E402

from irisrl.runtime import flight_recorder
from irisrl.runtime.contract import FR_ENV_VARS, fr_dump_path, fr_env

REPO = Path(__file__).resolve().parents[2]
JUPITER_FR = "/e/data1/datasets/playground/nccl_trace/673_relaunch_rank"


@pytest.mark.parametrize("configured, expected", [
    (None, "/tmp/fr_dumps/r3/nccl_fr_rank"),                                 # unset: SkyRL's file name
    ("/tmp/nccl_fr_rank", "/tmp/fr_dumps/r3/nccl_fr_rank"),                  # bare: into the job's dir
    ("/tmp/fr_dumps/80b-next-cp1/nccl_fr_rank", "/tmp/fr_dumps/r3/nccl_fr_rank"),   # stale slug (the launcher's case)
    (JUPITER_FR, "/tmp/fr_dumps/r3/673_relaunch_rank"),                      # a Jupiter path: file name kept
    ("s3://bucket/fr/", "/tmp/fr_dumps/r3/fr"),                              # an object store cannot take a local file
])
def test_dump_path_is_node_local_under_the_job_name(configured: str | None, expected: str) -> None:
    assert fr_dump_path(configured, "r3") == expected


def test_fr_env_sets_both_names_and_prefers_the_new_name_as_skyrl_reads_it() -> None:
    env = fr_env({"TORCH_NCCL_DEBUG_INFO_TEMP_FILE": "/tmp/a", "TORCH_FR_DUMP_TEMP_FILE": "/x/b"}, "j")
    assert env == {k: "/tmp/fr_dumps/j/b" for k in FR_ENV_VARS}


def _plan(tmp_path: Path, extra_env: dict[str, str] | None, job_name: str = "fr-job-1"):
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan

    raw = example_raw("smoke")
    if extra_env is not None:
        raw.setdefault("extra_env", {}).update(extra_env)
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(raw, sort_keys=False))
    plan, findings, _ = build_plan(PlanInputs(rl_config=str(cfg), job_name=job_name,
                                                 num_nodes=EXAMPLES["smoke"][1],
                                                 workspace=str(REPO / "examples" / "workspace"),
                                                 environ={"IRISRL_USER": "alice"}), Target(), dry_run=True)
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    return plan, findings


@pytest.mark.parametrize("extra_env", [None, {"TORCH_NCCL_DEBUG_INFO_TEMP_FILE": "/tmp/fr_dumps/other-job/nccl_fr_rank"},
                                       {"TORCH_NCCL_DEBUG_INFO_TEMP_FILE": JUPITER_FR}])
def test_launch_env_points_both_variables_at_the_jobs_node_local_dir(tmp_path: Path, extra_env) -> None:
    plan, findings = _plan(tmp_path, extra_env)
    name = "673_relaunch_rank" if extra_env and extra_env["TORCH_NCCL_DEBUG_INFO_TEMP_FILE"] == JUPITER_FR else "nccl_fr_rank"
    for key in FR_ENV_VARS:
        assert plan.env[key] == f"/tmp/fr_dumps/fr-job-1/{name}"
    assert "CFG-HOST-PATH" not in rules_of(findings)


def test_host_path_rule_skips_the_dump_variable_but_not_other_jupiter_paths(tmp_path: Path) -> None:
    raw = set_path(example_raw("smoke"), "extra_env", {"TORCH_NCCL_DEBUG_INFO_TEMP_FILE": JUPITER_FR})
    findings, _ = run_config(raw, tmp_path, num_nodes=EXAMPLES["smoke"][1])
    assert "CFG-HOST-PATH" not in rules_of(findings)
    raw["extra_env"]["HF_HOME"] = "/e/fscratch/hf"
    findings, _ = run_config(raw, tmp_path, num_nodes=EXAMPLES["smoke"][1])
    assert [f.path for f in findings if f.rule == "CFG-HOST-PATH"] == ["extra_env.HF_HOME"]


def test_port_rewrites_a_jupiter_dump_path_to_a_node_local_one() -> None:
    from irisrl.config.port import port_config
    from irisrl.config.profile import load_profile

    cfg = {"extra_env": {"TORCH_NCCL_DEBUG_INFO_TEMP_FILE": JUPITER_FR, "TORCH_FR_DUMP_TEMP_FILE": "/tmp/nccl_fr_rank"}}
    result = port_config(cfg, load_profile("cw-us-east-02a"))
    env = result.config["extra_env"]
    assert env["TORCH_NCCL_DEBUG_INFO_TEMP_FILE"] == "/tmp/fr_dumps/job/673_relaunch_rank"
    assert env["TORCH_FR_DUMP_TEMP_FILE"] == "/tmp/fr_dumps/job/nccl_fr_rank"
    changed = {c.path: c for c in result.changes if c.rule == "CFG-HOST-PATH"}
    assert set(changed) == {"extra_env.TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "extra_env.TORCH_FR_DUMP_TEMP_FILE"}
    assert "s3://" not in changed["extra_env.TORCH_NCCL_DEBUG_INFO_TEMP_FILE"].message


def test_runtime_finds_only_this_prefixes_dump_files(tmp_path: Path) -> None:
    prefix = str(tmp_path / "fr" / "job" / "nccl_fr_rank")
    assert flight_recorder.dump_files(prefix) == []            # no directory yet: nothing, no error
    flight_recorder.ensure_dump_dir(prefix)
    for name in ("nccl_fr_rank0", "nccl_fr_rank7", "other.txt"):
        (tmp_path / "fr" / "job" / name).write_bytes(b"x")
    assert [Path(p).name for p in flight_recorder.dump_files(prefix)] == ["nccl_fr_rank0", "nccl_fr_rank7"]
    assert flight_recorder.store_key(3, 1, prefix + "7") == "flight-recorder/task-3.attempt-1/nccl_fr_rank7"
    assert flight_recorder.dump_prefix({"TORCH_NCCL_DEBUG_INFO_TEMP_FILE": "/a", "TORCH_FR_DUMP_TEMP_FILE": "/b"}) == "/b"


def test_an_unmakeable_dump_dir_is_said_not_fatal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("not a dir")
    flight_recorder.ensure_dump_dir(str(tmp_path / "file" / "job" / "nccl_fr_rank"))
    assert "cannot create the NCCL flight-recorder dump directory" in capsys.readouterr().out
