"""`irisrl validate`: text and JSON output, exit codes, and what it imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _cfgutil import CONFIGS, EXAMPLES, REPO, WORKSPACE, example_raw, set_path  # noqa: E402

from irisrl.cli.main import main

IRISRL = REPO / ".venv" / "bin" / "irisrl"
HEAVY = ("iris", "ray", "fsspec", "huggingface_hub", "matplotlib", "hydra")


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code), out, err


def dense(*extra: str) -> list[str]:
    return ["validate", str(CONFIGS / "dense8b_disagg.yaml"), "--workspace", str(WORKSPACE), *extra]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_validate_examples_exit_0(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    cfg, nodes = EXAMPLES[name]
    rc, out, _ = run_cli(["validate", str(CONFIGS / cfg), "--workspace", str(WORKSPACE), "--num-nodes", str(nodes)], capsys)
    assert rc == 0 and "OK: no errors" in out and "GPU budget" in out


def test_validate_text_groups_findings_and_shows_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = set_path(example_raw("dense"), "extra_env.NCCL_DEBUG", 1)
    set_path(raw, "extra_env.PYTHONPATH", "/x")
    cfg = tmp_path / "c.yaml"
    import yaml

    cfg.write_text(yaml.safe_dump(raw))
    rc, out, _ = run_cli(["validate", str(cfg), "--workspace", str(WORKSPACE), "--num_nodes", "4"], capsys)
    assert rc == 1
    assert out.index("Errors (1)") < out.index("Warnings (1)") < out.index("Info (1)") < out.index("GPU budget")
    line = next(x for x in out.splitlines() if "TOPO-NODES" in x)
    assert "--num-nodes: policy 1x8 + engines 48xTP1 = 56 GPUs = 7 nodes of 8; got 4" in line and "fix:" in line
    assert "FAILED: 1 error(s)" in out


def test_validate_json_is_exactly_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(dense("--num-nodes", "4", "--json"), capsys)
    data = json.loads(out)
    assert rc == 1 and set(data) == {"config", "ok", "budget", "findings"} and data["ok"] is False
    assert data["budget"] == {"policy_gpus": 8, "ref_gpus": 0, "engine_gpus": 48, "total_gpus": 56, "gpus_per_node": 8,
                              "num_nodes": 7, "requested_nodes": 4, "num_inference_engines": 48}
    assert data["findings"][0] == {"rule": "TOPO-NODES", "severity": "error", "path": "--num-nodes",
                                   "message": "policy 1x8 + engines 48xTP1 = 56 GPUs = 7 nodes of 8; got 4",
                                   "fix": "launch with --num-nodes 7, or change the layout to use 4 nodes (32 GPUs)"}


def test_validate_json_nulls_when_engines_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(dense("--json", "--skyrl_override", "generator.num_inference_engines=null"), capsys)
    data = json.loads(out)
    assert rc == 1 and data["budget"]["total_gpus"] is None and data["budget"]["num_nodes"] is None
    assert data["budget"]["requested_nodes"] is None
    assert [f["rule"] for f in data["findings"]] == ["ENG-EXPLICIT"]


def test_validate_without_num_nodes_checks_no_node_count(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(dense("--json"), capsys)
    assert rc == 0 and json.loads(out)["findings"] == []


def test_validate_gpus_per_node_forced_warning_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(dense("--gpus-per-node", "4", "--json"), capsys)
    data = json.loads(out)
    assert rc == 0 and data["ok"] is True and data["budget"]["num_nodes"] == 13
    assert {f["rule"] for f in data["findings"]} == {"TOPO-GPUS-PER-NODE-FORCED"}


@pytest.mark.parametrize("args", [["--num-nodes", "abc"], ["--num-nodes", "0"], ["--bogus"], ["--workspace", "/no/such/dir"]])
def test_validate_usage_errors_exit_64(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, _ = run_cli(["validate", str(CONFIGS / "dense8b_disagg.yaml"), *args], capsys)
    assert rc == 64


def test_validate_missing_config_is_a_finding_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["validate", str(tmp_path / "nope.yaml"), "--json"], capsys)
    data = json.loads(out)
    assert rc == 1 and data["budget"] is None and data["findings"][0]["rule"] == "CFG-YAML"


def test_validate_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["validate", "--help"], capsys)
    assert rc == 0 and "Examples:" in out and "--skyrl_override" in out and "--num_nodes" in out


def test_validate_subprocess_imports_nothing_heavy() -> None:
    code = ("import sys; from irisrl.cli.main import main\n"
            "try:\n    main(['validate', sys.argv[1], '--workspace', sys.argv[2], '--num-nodes', '7', '--json'])\n"
            "except SystemExit as e:\n    rc = e.code\n"
            f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
            "print('RC', rc, 'HEAVY', heavy, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, str(CONFIGS / "dense8b_disagg.yaml"), str(WORKSPACE)],
                         capture_output=True, text=True, timeout=60)
    assert "RC 0 HEAVY []" in out.stderr, out.stderr


def test_validate_console_script_runs(tmp_path: Path) -> None:
    out = subprocess.run([str(IRISRL), "validate", str(CONFIGS / "moe30b_ep4_r3_dcp2.yaml"), "--workspace", str(WORKSPACE),
                          "--num-nodes", "3", "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert json.loads(out.stdout)["findings"][0]["message"].startswith("policy 2x8 + engines 2xTP8 = 32 GPUs = 4 nodes of 8")


@pytest.mark.parametrize("snippet", [
    'extra_env:\n  "\\ud800KEY": "\\udfff/x.jinja2"\n',                # lone surrogates in a key and a value
    "extra_env:\n  LOOP: &loop [1, *loop]\n",                          # a YAML anchor that contains itself
    "generator:\n  num_inference_engines: " + "9" * 400 + "\n",         # an integer no float can hold
    "trainer:\n  placement: [1, 2]\n",                                 # a list where a mapping belongs
])
@pytest.mark.parametrize("as_json", [False, True])
def test_validate_odd_yaml_gives_findings_not_tracebacks(snippet: str, as_json: bool, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    base = yaml.safe_dump(example_raw("dense"))
    cfg = tmp_path / "odd.yaml"
    cfg.write_text(base + snippet, encoding="utf-8")
    args = ["validate", str(cfg), "--workspace", str(WORKSPACE)] + (["--json"] if as_json else [])
    rc, out, _ = run_cli(args, capsys)
    assert rc in (0, 1) and "INTERNAL" not in out
    if as_json:
        json.loads(out)


def test_dry_run_json_of_a_config_that_does_not_load_has_no_budget(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["launch", "--rl_config", str(tmp_path / "missing.yaml"), "--num-nodes", "1",
                          "--dry-run", "--json"], capsys)
    data = json.loads(out)
    assert rc == 1 and data["budget"] is None and [f["rule"] for f in data["findings"]] == ["CFG-YAML"]


def test_validate_model_path_local_dir_drives_model_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "my-mla-moe"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"num_attention_heads": 64, "num_key_value_heads": 64,
                                                   "kv_lora_rank": 512, "n_routed_experts": 64}))
    args = ["validate", str(CONFIGS / "moe30b_ep4_r3_dcp2.yaml"), "--workspace", str(WORKSPACE), "--num-nodes", "4",
            "--model_path", str(model), "--json"]
    rc, out, _ = run_cli(args, capsys)
    assert rc == 0 and json.loads(out)["findings"] == []          # MLA: ceiling 8 // 1 = 8 >= dcp 2
    rc, out, _ = run_cli(args + ["--skyrl_override", "generator.inference_engine_decode_context_parallel_size=16"], capsys)
    assert rc == 1 and "DCP-DIVIDES" in {f["rule"] for f in json.loads(out)["findings"]}


def test_validate_unknown_model_says_so_and_still_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(dense("--model_path", "acme/private-8b", "--num-nodes", "7", "--json"), capsys)
    data = json.loads(out)
    assert rc == 0 and [(f["rule"], f["path"]) for f in data["findings"]] == [("MODEL-UNKNOWN", "--model_path")]
