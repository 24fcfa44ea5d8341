"""`irisrl port`: the Jupiter (Apptainer SIF, 4-GPU GH200) -> Iris rewrite, run in-process
through the real CLI entry point, with the output checked by the real rule catalogue."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from irisrl.cli.main import main
from irisrl.config.port import port_config
from irisrl.config.profile import load_profile
from irisrl.util.errors import IrisrlError

REPO = Path(__file__).resolve().parents[2]
JUPITER = REPO / "examples" / "jupiter" / "dense8b_gh200_sif.yaml"
WORKSPACE = REPO / "examples" / "workspace"
RL_LIB = load_profile().rl_lib


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def jupiter() -> dict[str, Any]:
    return yaml.safe_load(JUPITER.read_text())


def write(tmp_path: Path, cfg: dict[str, Any], name: str = "jupiter.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path


def port_args(src: Path, out: Path, *extra: str) -> list[str]:
    return ["port", str(src), "-o", str(out), "--workspace", str(WORKSPACE), *extra]


def test_port_jupiter_example_gives_clean_iris_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "iris.yaml"
    rc, stdout, _ = run_cli(port_args(JUPITER, out, "--from-num-nodes", "14"), capsys)
    assert rc == 0, stdout
    text = out.read_text()
    assert "#" not in text  # no comments, and nothing that looks like one
    cfg = yaml.safe_load(text)
    assert "container" not in cfg
    placement = cfg["trainer"]["placement"]
    assert (placement["policy_num_nodes"], placement["policy_num_gpus_per_node"]) == (1, 8)
    assert (placement["ref_num_nodes"], placement["ref_num_gpus_per_node"]) == (1, 8)
    assert cfg["generator"]["num_inference_engines"] == 48  # (14 x 4 - 8) / TP1
    assert cfg["trainer"]["enable_db_registration"] is False
    env = cfg["extra_env"]
    assert env["LD_LIBRARY_PATH"] == RL_LIB
    for gone in ("APPTAINERENV_LD_LIBRARY_PATH", "APPTAINERENV_NCCL_DEBUG", "TRITON_LIBCUDA_PATH", "LIBRARY_PATH",
                 "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "NCCL_P2P_DISABLE", "NCCL_NVLS_ENABLE",
                 "NCCL_COLLNET_ENABLE", "HF_HOME"):
        assert gone not in env, gone
    for kept in ("VLLM_USE_FLASHINFER_SAMPLER", "VLLM_ATTENTION_BACKEND", "PYTORCH_CUDA_ALLOC_CONF", "NCCL_DEBUG",
                 "SKYRL_WORKER_NCCL_TIMEOUT_IN_S", "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC"):
        assert kept in env, kept
    assert "56 GPUs = 7 nodes of 8" in stdout
    assert "--num-nodes 7" in stdout
    for rule_id in ("CFG-CONTAINER", "ENV-SIF", "ENV-OFFLINE", "ENV-NCCL-CRIPPLE", "ENV-UNEXPANDED",
                    "ENG-EXPLICIT", "TOPO-NODES", "TOPO-GPUS-PER-NODE-FORCED", "CFG-DB-REGISTRATION"):
        assert rule_id in stdout, rule_id


def test_port_change_rule_ids_are_catalogue_ids() -> None:
    from irisrl.rules.catalogue import all_rules

    result = port_config(jupiter(), load_profile(), 4, 14)
    known = {r.id for r in all_rules()}
    assert {c.rule for c in result.changes} <= known


def test_port_json_reports_changes_and_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, stdout, _ = run_cli(port_args(JUPITER, tmp_path / "o.yaml", "--from-num-nodes", "14", "--json"), capsys)
    payload = json.loads(stdout)
    assert rc == 0 and payload["ok"] is True and payload["written"] is True
    assert payload["budget"]["total_gpus"] == 56 and payload["num_nodes"] == 7
    assert {"rule", "path", "message"} <= set(payload["changes"][0])
    assert "--num-nodes 7" in payload["launch_command"]


def test_port_disaggregated_null_engines_without_from_num_nodes_refuses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.yaml"
    rc, _, err = run_cli(port_args(JUPITER, out), capsys)
    assert rc == 1
    assert "--from-num-nodes" in err and "generator.num_inference_engines" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_port_policy_nodes_not_whole_refuses_with_arithmetic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = jupiter()
    cfg["trainer"]["placement"]["policy_num_nodes"] = 3
    out = tmp_path / "o.yaml"
    rc, _, err = run_cli(port_args(write(tmp_path, cfg), out, "--from-num-nodes", "14"), capsys)
    assert rc == 1
    assert "trainer.placement.policy_num_nodes: 3 node(s) x 4 GPUs = 12 GPUs" in err
    assert not out.exists()


def test_port_engine_gpus_not_whole_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = jupiter()
    cfg["generator"]["inference_engine_tensor_parallel_size"] = 3
    out = tmp_path / "o.yaml"
    rc, _, err = run_cli(port_args(write(tmp_path, cfg), out, "--from-num-nodes", "13"), capsys)  # 52 - 8 = 44
    assert rc == 1 and "44 engine GPUs" in err and not out.exists()


@pytest.mark.parametrize("flags", [["--from-gpus-per-node", "0"], ["--from-num-nodes", "-2"], ["--from-num-nodes", "x"]])
def test_port_bad_flag_is_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    rc, _, _ = run_cli(port_args(JUPITER, tmp_path / "o.yaml", *flags), capsys)
    assert rc == 64


def test_port_refuses_to_overwrite_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write(tmp_path, jupiter())
    before = src.read_text()
    rc, _, _ = run_cli(port_args(src, src, "--from-num-nodes", "14"), capsys)
    assert rc == 64 and src.read_text() == before


def test_port_unreadable_input_is_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("trainer: [unclosed\n")
    rc, _, err = run_cli(port_args(bad, tmp_path / "o.yaml"), capsys)
    assert rc == 1 and "not valid YAML" in err and "Traceback" not in err


def test_port_top_level_extra_env_wins_collision() -> None:
    cfg = jupiter()
    cfg["extra_env"] = {"NCCL_DEBUG": "WARN", "MY_FLAG": "1"}
    result = port_config(cfg, load_profile(), 4, 14)
    env = result.config["extra_env"]
    assert env["NCCL_DEBUG"] == "WARN" and env["MY_FLAG"] == "1" and "VLLM_ATTENTION_BACKEND" in env
    assert any(c.path == "extra_env.NCCL_DEBUG" and "top-level" in c.message for c in result.changes)


def test_port_apptainerenv_renamed_when_bare_name_absent() -> None:
    cfg = jupiter()
    cfg["container"]["extra_env"] = {"APPTAINERENV_VLLM_MQ_MAX_CHUNK_BYTES_MB": "64", "APPTAINER_BINDPATH": "/p"}
    env = port_config(cfg, load_profile(), 4, 14).config["extra_env"]
    assert env["VLLM_MQ_MAX_CHUNK_BYTES_MB"] == "64"
    assert not any(k.startswith("APPTAINER") for k in env)


@pytest.mark.parametrize("value, expected", [
    ("${CONDA_PREFIX}/lib", RL_LIB),
    ("$CONDA_PREFIX/lib:/usr/local/cuda/lib64:$LD_LIBRARY_PATH", f"{RL_LIB}:/usr/local/cuda/lib64"),
    ("/.singularity.d/libs:$LD_LIBRARY_PATH", None),   # nothing usable left: dropped, not replaced
    ("/usr/local/cuda/lib64", f"{RL_LIB}:/usr/local/cuda/lib64"),
])
def test_port_ld_library_path_is_literal_rl_lib(value: str, expected: str | None) -> None:
    cfg = jupiter()
    cfg["container"]["extra_env"] = {"LD_LIBRARY_PATH": value}
    assert port_config(cfg, load_profile(), 4, 14).config["extra_env"].get("LD_LIBRARY_PATH") == expected


def test_port_absent_ld_library_path_stays_absent() -> None:
    """Production configs run without it (tests/unit/test_production_configs.py): port adds none."""
    cfg = jupiter()
    del cfg["container"]
    result = port_config(cfg, load_profile(), 4, 14)
    assert "LD_LIBRARY_PATH" not in result.config.get("extra_env", {})
    assert not any(c.rule == "ENV-LD-LIBRARY-PATH" for c in result.changes)


def test_port_secret_values_never_printed_and_cloud_creds_dropped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = jupiter()
    cfg["container"]["extra_env"].update({"AWS_SECRET_ACCESS_KEY": "planted-aws-s3cr3t",
                                          "HF_TOKEN": "hf_planted_t0ken", "WANDB_DIR": "$SCRATCH/planted-wandb"})
    src = write(tmp_path, cfg)
    out = tmp_path / "o.yaml"
    for extra in ([], ["--json"]):
        rc, stdout, err = run_cli(port_args(src, out, "--from-num-nodes", "14", *extra), capsys)
        for secret in ("planted-aws-s3cr3t", "hf_planted_t0ken", "planted-wandb"):
            assert secret not in stdout + err
    env = yaml.safe_load(out.read_text())["extra_env"]
    assert "AWS_SECRET_ACCESS_KEY" not in env and "WANDB_DIR" not in env


def test_port_colocated_config_needs_no_engine_count() -> None:
    cfg = jupiter()
    cfg["trainer"]["placement"]["colocate_all"] = True
    result = port_config(cfg, load_profile(), 4, None)
    assert result.config["generator"]["num_inference_engines"] is None
    assert not any(c.rule == "ENG-EXPLICIT" for c in result.changes)


def test_port_kl_with_separate_ref_counts_ref_gpus_in_engines() -> None:
    cfg = jupiter()
    cfg["trainer"]["algorithm"]["use_kl_loss"] = True
    cfg["trainer"]["placement"]["colocate_policy_ref"] = False
    result = port_config(cfg, load_profile(), 4, 14)
    assert result.config["generator"]["num_inference_engines"] == 40  # 56 - 8 policy - 8 ref


def test_port_unused_ref_with_odd_nodes_mirrors_policy() -> None:
    cfg = jupiter()
    cfg["trainer"]["placement"]["ref_num_nodes"] = 1  # 4 GPUs: not a whole node, but no KL -> unused
    result = port_config(cfg, load_profile(), 4, 14)
    assert result.config["trainer"]["placement"]["ref_num_nodes"] == 1
    assert any(c.path.endswith("ref_num_nodes") and "not used" in c.message for c in result.changes)


def test_port_nested_extra_env_outside_container_is_moved() -> None:
    cfg = jupiter()
    cfg["generator"]["extra_env"] = {"VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "600"}
    result = port_config(cfg, load_profile(), 4, 14)
    assert "extra_env" not in result.config["generator"]
    assert result.config["extra_env"]["VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS"] == "600"
    assert any(c.rule == "ENV-MISPLACED" for c in result.changes)


@pytest.mark.parametrize("mutate, where", [
    (lambda c: c["trainer"].__setitem__("placement", ["not", "a", "mapping"]), "trainer.placement"),
    (lambda c: c["trainer"]["placement"].__setitem__("policy_num_nodes", "two"), "policy_num_nodes"),
    (lambda c: c.__setitem__("extra_env", "HF_TOKEN=x"), "extra_env"),
    (lambda c: c["generator"].__setitem__("inference_engine_tensor_parallel_size", 0), "tensor_parallel_size"),
])
def test_port_bad_shapes_refused_with_key_path(mutate: Any, where: str) -> None:
    cfg = copy.deepcopy(jupiter())
    mutate(cfg)
    with pytest.raises(IrisrlError) as exc:
        port_config(cfg, load_profile(), 4, 14)
    assert where in exc.value.message and exc.value.fix


def test_port_result_with_remaining_errors_is_written_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = jupiter()
    cfg["trainer"]["train_batch_size"] = 60  # 60 % 64: TOPO-BATCH, which port does not change
    out = tmp_path / "o.yaml"
    rc, stdout, _ = run_cli(port_args(write(tmp_path, cfg), out, "--from-num-nodes", "14"), capsys)
    assert rc == 1 and out.exists()
    assert "TOPO-BATCH" in stdout and "FAILED" in stdout


def test_port_printed_next_command_passes_launch_dry_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shlex

    out = tmp_path / "iris.yaml"
    rc, stdout, _ = run_cli(port_args(JUPITER, out, "--from-num-nodes", "14"), capsys)
    assert rc == 0
    argv = shlex.split(next(line for line in stdout.splitlines() if line.startswith("next:")).split(":", 1)[1])
    rc, plan_text, err = run_cli(argv[1:] + ["--json"], capsys)
    assert rc == 0, plan_text + err
    plan = json.loads(plan_text)
    assert plan["num_nodes"] == 7 and "++generator.num_inference_engines=48" in plan["hydra_args"]
    assert plan["env"]["LD_LIBRARY_PATH"] == RL_LIB and "NCCL_P2P_DISABLE" not in plan["env"]


def test_port_pinned_engines_kept_with_note_when_node_count_disagrees() -> None:
    cfg = jupiter()
    cfg["generator"]["num_inference_engines"] = 40
    result = port_config(cfg, load_profile(), 4, 14)
    assert result.config["generator"]["num_inference_engines"] == 40
    assert any(c.rule == "ENG-EXPLICIT" and "implies 48" in c.message for c in result.changes)


def test_port_and_smoke_config_import_nothing_heavy(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = f"""
import sys
from irisrl.cli.main import main
for argv in (["port", {str(JUPITER)!r}, "-o", {str(tmp_path / 'p.yaml')!r}, "--from-num-nodes", "14", "--json"],
             ["smoke-config", {str(REPO / 'examples/configs/dense8b_disagg.yaml')!r}, "-o", {str(tmp_path / 's.yaml')!r}]):
    try:
        main(argv)
    except SystemExit:
        pass
heavy = ("iris", "ray", "fsspec", "huggingface_hub", "matplotlib")
print("HEAVY=" + ",".join(m for m in heavy if m in sys.modules), file=sys.stderr)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "HEAVY=\n" in done.stderr, done.stderr[-2000:]


def test_port_drops_apptainer_backend_with_its_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert jupiter()["backend"] == {"kind": "apptainer"}  # the example carries one
    result = port_config(jupiter(), load_profile(), from_num_nodes=14)
    assert "backend" not in result.config
    assert [c.path for c in result.changes if c.rule == "CFG-BACKEND"] == ["backend"]


def test_port_jupiter_host_path_is_a_finding_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = jupiter()
    cfg["data"]["val_data"] = ["/e/data1/tasks/val"]
    cfg["terminal_bench"]["trials_dir"] = "/e/fscratch/runs/trace_jobs"
    out = tmp_path / "o.yaml"
    rc, stdout, _ = run_cli(port_args(write(tmp_path, cfg), out, "--from-num-nodes", "14"), capsys)
    assert rc == 1 and out.exists()
    assert stdout.count("CFG-HOST-PATH") == 2 and "/e/data1" in stdout and "/e/fscratch" in stdout
    assert yaml.safe_load(out.read_text())["data"]["val_data"] == ["/e/data1/tasks/val"]  # not replaced by a guess


def test_port_invents_no_placement_or_registration_keys() -> None:
    cfg = jupiter()
    placement = cfg["trainer"]["placement"]
    for key in ("ref_num_nodes", "ref_num_gpus_per_node", "policy_num_gpus_per_node"):
        del placement[key]
    del cfg["trainer"]["enable_db_registration"]
    ported = port_config(cfg, load_profile(), from_num_nodes=14).config
    placement = ported["trainer"]["placement"]
    assert not {"ref_num_nodes", "ref_num_gpus_per_node", "policy_num_gpus_per_node"} & set(placement)
    assert not any(k.startswith("critic") for k in placement) and "critic" not in ported["trainer"]
    assert "enable_db_registration" not in ported["trainer"]


def test_port_null_node_count_stays_null_for_the_launcher_to_fill() -> None:
    cfg = jupiter()
    cfg["trainer"]["placement"]["ref_num_nodes"] = None
    ported = port_config(cfg, load_profile(), from_num_nodes=14).config
    assert ported["trainer"]["placement"]["ref_num_nodes"] is None


def test_port_help_names_the_backend_drop_and_the_host_path_finding(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["port", "--help"], capsys)
    assert rc == 0 and "CFG-BACKEND" in out and "CFG-HOST-PATH" in out and "Nothing is invented" in out
