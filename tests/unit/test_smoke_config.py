"""`irisrl smoke-config`: a colocated bring-up config derived from a real one, run through
the real CLI entry point and checked by the real rule catalogue."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from irisrl.cli.main import main
from irisrl.config.profile import load_profile
from irisrl.config.smoke import smoke_config
from irisrl.util.errors import IrisrlError

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "examples" / "configs"
WORKSPACE = REPO / "examples" / "workspace"
EXAMPLES = ("dense8b_disagg", "moe30b_ep4_r3_dcp2", "smoke_colocated")


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def example(name: str) -> dict[str, Any]:
    return yaml.safe_load((CONFIGS / f"{name}.yaml").read_text())


def smoke_args(src: Path, out: Path, *extra: str) -> list[str]:
    return ["smoke-config", str(src), "-o", str(out), "--workspace", str(WORKSPACE), *extra]


@pytest.mark.parametrize("name", EXAMPLES)
def test_smoke_config_of_each_example_is_clean_and_colocated(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"{name}_smoke.yaml"
    rc, stdout, _ = run_cli(smoke_args(CONFIGS / f"{name}.yaml", out), capsys)
    assert rc == 0, stdout
    text = out.read_text()
    assert "#" not in text
    cfg = yaml.safe_load(text)
    trainer, placement = cfg["trainer"], cfg["trainer"]["placement"]
    assert placement["colocate_all"] is True and placement["colocate_policy_ref"] is True
    assert placement["policy_num_nodes"] == placement["ref_num_nodes"] == 1  # 8 GPUs hold 8xTP1, 4xTP2, 1xTP8
    assert placement["policy_num_gpus_per_node"] == 8
    assert cfg["generator"]["num_inference_engines"] is None
    assert trainer["max_steps"] == 2
    assert (trainer["ckpt_interval"], trainer["hf_save_interval"], trainer["resume_mode"]) == (0, 0, None)
    assert trainer["enable_db_registration"] is False
    assert cfg["terminal_bench"]["trace_upload"]["enabled"] is False
    launch = next(line for line in stdout.splitlines() if line.startswith("launch:"))
    argv = shlex.split(launch.split(":", 1)[1])
    assert argv[:4] == ["irisrl", "launch", "--rl_config", str(out)]
    assert argv[argv.index("--num-nodes") + 1] == "1"


def test_smoke_config_keeps_engine_tp_and_derives_engines() -> None:
    result = smoke_config(example("moe30b_ep4_r3_dcp2"), load_profile())
    gen = result.config["generator"]
    assert gen["inference_engine_tensor_parallel_size"] == 8
    assert gen["inference_engine_decode_context_parallel_size"] == 2
    assert (result.num_nodes, result.num_inference_engines) == (1, 1)


@pytest.mark.parametrize("tp, pp, nodes", [(1, 1, 1), (2, 1, 1), (3, 1, 3), (4, 2, 1), (16, 1, 2), (6, 1, 3)])
def test_smoke_nodes_are_fewest_whole_nodes_with_policy_equal_engine_gpus(tp: int, pp: int, nodes: int) -> None:
    cfg = example("dense8b_disagg")
    cfg["generator"]["inference_engine_tensor_parallel_size"] = tp
    cfg["generator"]["inference_engine_pipeline_parallel_size"] = pp
    result = smoke_config(cfg, load_profile())
    assert result.num_nodes == nodes
    assert result.num_nodes * 8 == result.num_inference_engines * tp * pp


def test_smoke_nodes_flag_sets_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.yaml"
    rc, stdout, _ = run_cli(smoke_args(CONFIGS / "moe30b_ep4_r3_dcp2.yaml", out, "--nodes", "2", "--max-steps", "5",
                                       "--json"), capsys)
    payload = json.loads(stdout)
    assert rc == 0 and payload["ok"] is True
    assert payload["num_nodes"] == 2 and payload["num_inference_engines"] == 2
    assert payload["budget"]["total_gpus"] == 16
    assert "--num-nodes 2" in payload["launch_command"]
    assert yaml.safe_load(out.read_text())["trainer"]["max_steps"] == 5


def test_smoke_nodes_flag_not_holding_whole_engines_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = example("dense8b_disagg")
    cfg["generator"]["inference_engine_tensor_parallel_size"] = 3
    src = tmp_path / "c.yaml"
    src.write_text(yaml.safe_dump(cfg))
    out = tmp_path / "s.yaml"
    rc, _, err = run_cli(smoke_args(src, out, "--nodes", "2"), capsys)
    assert rc == 1 and "--nodes 2" in err and "multiple of 3" in err and not out.exists()


@pytest.mark.parametrize("flags", [["--max-steps", "0"], ["--nodes", "0"], ["--max-steps", "many"]])
def test_smoke_bad_flags_are_usage_errors(flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, _ = run_cli(smoke_args(CONFIGS / "dense8b_disagg.yaml", tmp_path / "s.yaml", *flags), capsys)
    assert rc == 64


def test_smoke_missing_input_is_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_cli(smoke_args(tmp_path / "absent.yaml", tmp_path / "s.yaml"), capsys)
    assert rc == 1 and "not found" in err and "Traceback" not in err


def test_smoke_json_refusal_is_one_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = example("dense8b_disagg")
    cfg["generator"]["inference_engine_tensor_parallel_size"] = "eight"
    src = tmp_path / "c.yaml"
    src.write_text(yaml.safe_dump(cfg))
    rc, stdout, _ = run_cli(smoke_args(src, tmp_path / "s.yaml", "--json"), capsys)
    payload = json.loads(stdout)
    assert rc == 1 and payload["ok"] is False and payload["written"] is False
    assert "inference_engine_tensor_parallel_size" in payload["error"]["message"]


def test_smoke_bad_tp_type_refused_with_path() -> None:
    cfg = example("dense8b_disagg")
    cfg["generator"]["inference_engine_tensor_parallel_size"] = [8]
    with pytest.raises(IrisrlError, match="inference_engine_tensor_parallel_size"):
        smoke_config(cfg, load_profile())


def test_smoke_adds_db_registration_false_when_absent() -> None:
    cfg = example("dense8b_disagg")
    del cfg["trainer"]["enable_db_registration"]
    result = smoke_config(cfg, load_profile())
    assert result.config["trainer"]["enable_db_registration"] is False


def test_smoke_printed_dry_run_command_passes_launch_dry_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dense_smoke.yaml"
    rc, stdout, _ = run_cli(smoke_args(CONFIGS / "dense8b_disagg.yaml", out), capsys)
    assert rc == 0
    line = next(line for line in stdout.splitlines() if line.startswith("dry run:"))
    argv = shlex.split(line.split(":", 1)[1])
    assert argv[:2] == ["irisrl", "launch"] and argv[-1] == "--dry-run"
    rc, plan_text, err = run_cli(argv[1:], capsys)
    assert rc == 0, plan_text + err
    assert plan_text.rstrip().endswith("not submitting (dry run)")
    assert "++trainer.max_steps=2" in plan_text and "++trainer.placement.colocate_all=true" in plan_text
