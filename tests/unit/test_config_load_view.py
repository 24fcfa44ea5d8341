"""Config loading and the typed view: bad input becomes findings, never an exception."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from _cfgutil import CONFIGS, example_raw, set_path  # noqa: E402

from irisrl.config.load import load_config, parse_config_text
from irisrl.config.view import build_view


def test_load_example_ok_with_sha() -> None:
    loaded = load_config(CONFIGS / "dense8b_disagg.yaml")
    assert loaded.ok and loaded.raw["trainer"]["strategy"] == "megatron" and len(loaded.sha256) == 64


@pytest.mark.parametrize("text, words", [("a: [\n", "line"), ("- 1\n", "list"), ("", "empty"), ("\t- x", "YAML")])
def test_load_bad_yaml_is_a_cfg_yaml_finding(text: str, words: str) -> None:
    loaded = parse_config_text(text, "x.yaml")
    assert not loaded.ok and loaded.raw == {}
    assert loaded.findings[0].rule == "CFG-YAML" and words in loaded.findings[0].message


def test_load_directory_or_missing_is_a_finding(tmp_path: Path) -> None:
    assert load_config(tmp_path / "missing.yaml").findings[0].message == "config file not found"
    assert "unreadable" in load_config(tmp_path).findings[0].message


def test_view_reads_examples() -> None:
    v = build_view(example_raw("moe"))
    assert (v.tp, v.dcp, v.ep, v.enable_r3, v.mp_backend, v.async_scheduling) == (8, 2, 8, True, False, False)
    assert v.uses_harbor and v.uses_kl and v.strict_spread_pg is True and not v.issues
    assert v.chat_template_path == "chat_templates/qwen3_thinking_acc.jinja2"


def test_view_wrong_types_become_findings_with_defaults() -> None:
    raw = example_raw("dense")
    set_path(raw, "trainer.placement", ["not", "a", "mapping"])
    set_path(raw, "generator.inference_engine_tensor_parallel_size", True)
    set_path(raw, "generator.num_inference_engines", -3)
    set_path(raw, "trainer.strategy", "jax")
    v = build_view(raw)
    paths = {f.path for f in v.issues}
    assert {"trainer.placement", "generator.inference_engine_tensor_parallel_size",
            "generator.num_inference_engines", "trainer.strategy"} <= paths
    assert all(f.rule == "CFG-TYPE" and f.severity == "error" for f in v.issues)
    assert v.tp == 1 and v.colocate_all is True and v.strategy == "megatron"


def test_view_absent_strategy_defaults_to_megatron() -> None:
    raw = example_raw("smoke")
    del raw["trainer"]["strategy"]
    v = build_view(raw)
    assert v.strategy == "megatron" and not v.strategy_given


_leaf = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
                  st.floats(allow_nan=True), st.text(max_size=8), st.lists(st.integers(), max_size=3))
_tree = st.recursive(_leaf, lambda inner: st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)
_paths = st.sampled_from(["trainer", "generator", "extra_env", "trainer.placement", "trainer.placement.colocate_all",
                          "generator.num_inference_engines", "generator.engine_init_kwargs",
                          "trainer.policy.fsdp_config.fsdp_size", "trainer.algorithm", "trainer.policy.model.path",
                          "generator.inference_engine_tensor_parallel_size", "extra_env.LD_LIBRARY_PATH"])


@settings(max_examples=150, deadline=None)
@given(example=st.sampled_from(["dense", "moe", "smoke"]), path=_paths, value=_tree)
def test_view_and_rules_never_crash_on_any_value(example: str, path: str, value: object) -> None:
    from irisrl.config.budget import compute_budget
    from irisrl.config.profile import load_profile
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import RuleContext

    raw = set_path(example_raw(example), path, value)
    view = build_view(raw)
    ctx = RuleContext(raw=raw, view=view, budget=compute_budget(view, 8, 4), profile=load_profile(), num_nodes=4)
    findings = run_rules(ctx)
    assert "INTERNAL" not in {f.rule for f in findings}, [f.to_dict() for f in findings if f.rule == "INTERNAL"]
