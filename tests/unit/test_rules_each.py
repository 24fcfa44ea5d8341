"""One test per config-scope rule ID: it fires on a config made to break it and stays silent on
the three examples (whose only finding is the smoke config's ENG-DERIVED info)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _cfgutil import EXAMPLES, WORKSPACE, del_path, example_raw, rules_of, run_config, set_path  # noqa: E402

Case = tuple[str, Callable[[dict[str, Any]], Any], dict[str, Any]]


def env(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda raw: set_path(raw, f"extra_env.{key}", value)


# rule id -> (example, mutation, run options)
CASES: dict[str, Case] = {
    "CFG-TYPE": ("dense", lambda r: set_path(r, "generator.num_inference_engines", "many"), {}),
    "CFG-SECTION": ("dense", lambda r: r.update(genrator={"backend": "vllm"}), {}),
    "CFG-ENTRYPOINT": ("dense", lambda r: r.update(entrypoint="main_tbench"), {}),
    "CFG-HYDRA-KEY": ("dense", lambda r: set_path(r, "generator.gpu_memory_utilisation", 0.8), {}),
    "CFG-UNFORWARDED": ("dense", lambda r: set_path(r, "generator.sampling_params", {"bad key": 1}), {}),
    "CFG-OVERRIDE": ("dense", lambda r: r, {"overrides": ("generator.num_inference_engines",)}),
    "CFG-CONTAINER": ("dense", lambda r: r.update(container={"sif": "/x.sif", "extra_env": {"A": "1"}}), {}),
    "CFG-STRATEGY-DEFAULT": ("dense", lambda r: del_path(r, "trainer.strategy"), {}),
    "CFG-DB-REGISTRATION": ("dense", lambda r: set_path(r, "trainer.enable_db_registration", True), {}),
    "CFG-ASSET": ("dense", lambda r: set_path(r, "generator.engine_init_kwargs.custom_chat_template_chat_completion_path",
                                              "chat_templates/missing.jinja2"), {}),
    "CFG-ASSET-EXAMPLE": ("dense", lambda r: set_path(r, "generator.engine_init_kwargs.custom_chat_template_chat_completion_path",
                                                      "examples/terminal_bench/qwen3_thinking_acc.jinja2"), {}),
    "TOPO-NODES": ("dense", lambda r: r, {"num_nodes": 4}),
    "TOPO-PARTIAL-NODE": ("dense", lambda r: set_path(r, "generator.num_inference_engines", 47), {"num_nodes": None}),
    "TOPO-GPUS-PER-NODE-FORCED": ("dense", lambda r: set_path(r, "trainer.placement.policy_num_gpus_per_node", 16), {}),
    "TOPO-COLOCATE-MISMATCH": ("smoke", lambda r: set_path(r, "generator.num_inference_engines", 4), {}),
    "TOPO-POLICY-REF": ("moe", lambda r: set_path(r, "trainer.placement.ref_num_nodes", 1), {}),
    "TOPO-PLACEMENT": ("dense", lambda r: (set_path(r, "generator.inference_engine_tensor_parallel_size", 2),
                                           set_path(r, "generator.num_inference_engines", 24)), {}),
    "TOPO-BATCH": ("dense", lambda r: set_path(r, "trainer.train_batch_size", 96), {}),
    "ENG-EXPLICIT": ("dense", lambda r: set_path(r, "generator.num_inference_engines", None), {}),
    "ENG-DERIVED": ("smoke", lambda r: r, {}),
    "ENG-TP-INTRANODE": ("smoke", lambda r: set_path(r, "generator.inference_engine_tensor_parallel_size", 16), {}),
    "ENG-EP": ("moe", lambda r: set_path(r, "generator.inference_engine_expert_parallel_size", 4), {}),
    "ENG-CUSTOM-AR": ("smoke", lambda r: del_path(r, "generator.engine_init_kwargs.disable_custom_all_reduce"), {}),
    "DCP-DIVIDES": ("moe", lambda r: set_path(r, "generator.inference_engine_decode_context_parallel_size", 3), {}),
    "DCP-KV-HEADS": ("moe", lambda r: set_path(r, "generator.inference_engine_decode_context_parallel_size", 4), {}),
    "DCP-R3-GUARD": ("moe", lambda r: del_path(r, "extra_env.VLLM_ALLOW_ROUTED_EXPERTS_DCP"), {}),
    "R3-EXECUTOR": ("moe", lambda r: set_path(r, "generator.inference_engine_mp_backend", True), {}),
    "MOE-EXPERT-FSDP": ("moe", lambda r: (set_path(r, "trainer.strategy", "fsdp2"),
                                          set_path(r, "trainer.policy.fsdp_config", {"fsdp_size": -1, "expert_model_parallel_size": 16})), {}),
    "MOE-STRICT-SPREAD": ("moe", lambda r: set_path(r, "trainer.placement.policy_strict_spread_pg", False), {}),
    "MOE-W13": ("moe", env("SKYRL_W13_RELOAD_BRACKET", "0"), {}),
    "MODEL-UNKNOWN": ("dense", lambda r: set_path(r, "trainer.policy.model.path", "acme/not-a-known-model"), {}),
    "ENV-MISPLACED": ("dense", lambda r: set_path(r, "trainer.extra_env", {"NCCL_DEBUG": "INFO"}), {}),
    "ENV-SIF": ("dense", env("APPTAINERENV_LD_LIBRARY_PATH", "/.singularity.d/libs"), {}),
    # Offline is fine for the prestaged policy model; a different Hub ref model is not prestaged.
    "ENV-OFFLINE": ("dense", lambda r: (env("HF_HUB_OFFLINE", "1")(r),
                                        set_path(r, "trainer.ref.model.path", "Qwen/Qwen3-4B")), {}),
    "ENV-NCCL-CRIPPLE": ("dense", env("NCCL_P2P_DISABLE", "1"), {}),
    "ENV-UNEXPANDED": ("dense", env("LD_LIBRARY_PATH", "$CONDA_PREFIX/lib"), {}),
    "ENV-LD-LIBRARY-PATH": ("dense", env("LD_LIBRARY_PATH", "/opt/openthoughts/envs/rl/lib::lib"), {}),
    "ENV-CLOUD-CREDS": ("dense", env("AWS_SECRET_ACCESS_KEY", "hunter2-planted-secret"), {}),
    "ENV-COERCED": ("dense", env("VLLM_USE_V1", True), {}),
    "ENV-COLLISION": ("dense", env("PYTHONPATH", "/somewhere"), {}),
}
# CFG-YAML breaks the file itself: tested separately below.
MY_MODULES = ("irisrl.rules.structure", "irisrl.rules.topology", "irisrl.rules.engines",
              "irisrl.rules.moe", "irisrl.rules.env", "irisrl.rules.forwarding")


def _run_case(rule_id: str, tmp_path: Path):
    example, mutate, opts = CASES[rule_id]
    raw = example_raw(example)
    mutate(raw)
    opts = {"num_nodes": EXAMPLES[example][1], **opts}
    return run_config(raw, tmp_path, **opts)


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_fires_on_config_made_to_break_it(rule_id: str, tmp_path: Path) -> None:
    findings, _ = _run_case(rule_id, tmp_path)
    hits = [f for f in findings if f.rule == rule_id]
    assert hits, f"{rule_id} did not fire; got {sorted(rules_of(findings))}"
    for f in hits:
        assert f.path and f.message and f.fix
    assert "INTERNAL" not in rules_of(findings)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_are_clean(name: str, tmp_path: Path) -> None:
    findings, ctx = run_config(example_raw(name), tmp_path, num_nodes=EXAMPLES[name][1])
    expected = {"ENG-DERIVED"} if name == "smoke" else set()
    assert rules_of(findings) == expected, [f.to_dict() for f in findings]
    assert ctx.budget.num_nodes == EXAMPLES[name][1]


def test_every_config_rule_of_the_catalogue_has_a_case() -> None:
    from irisrl.rules.catalogue import all_rules

    mine = {r.id for r in all_rules() if r.check.__module__ in MY_MODULES}
    assert mine - set(CASES) == {"CFG-YAML"}


@pytest.mark.parametrize("text", ["- a\n- b\n", "", "a: [unclosed\n", "just a string\n"])
def test_cfg_yaml_fires_on_unusable_yaml_and_alone(text: str, tmp_path: Path) -> None:
    findings, _ = run_config(text, tmp_path)
    assert rules_of(findings) == {"CFG-YAML"}


def test_cfg_yaml_fires_on_missing_section(tmp_path: Path) -> None:
    findings, _ = run_config("trainer: {}\n", tmp_path)
    assert [f.path for f in findings if f.rule == "CFG-YAML"] == ["generator"]


def test_cfg_yaml_missing_file_is_a_finding(tmp_path: Path) -> None:
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import build_context

    findings = run_rules(build_context(tmp_path / "nope.yaml"))
    assert [f.rule for f in findings] == ["CFG-YAML"] and "not found" in findings[0].message


def test_topo_nodes_message_shows_the_sum(tmp_path: Path) -> None:
    findings, _ = _run_case("TOPO-NODES", tmp_path)
    (f,) = [f for f in findings if f.rule == "TOPO-NODES"]
    assert f.message == "policy 1x8 + engines 48xTP1 = 56 GPUs = 7 nodes of 8; got 4"
    assert "--num-nodes 7" in f.fix


def test_eng_explicit_gives_right_and_naive_values(tmp_path: Path) -> None:
    findings, _ = _run_case("ENG-EXPLICIT", tmp_path)
    (f,) = [f for f in findings if f.rule == "ENG-EXPLICIT"]
    assert "(7x8)//1 = 56" in f.message and "= 48 engines fit" in f.message
    assert f.fix == "set num_inference_engines: 48"


def test_eng_explicit_without_num_nodes_says_what_to_pin(tmp_path: Path) -> None:
    raw = set_path(example_raw("moe"), "generator.num_inference_engines", None)
    findings, _ = run_config(raw, tmp_path)
    (f,) = [f for f in findings if f.rule == "ENG-EXPLICIT"]
    assert "16 trainer GPUs" in f.message and "// 8" in f.fix


def test_moe_expert_fsdp_minus_one_means_all_policy_gpus(tmp_path: Path) -> None:
    findings, _ = _run_case("MOE-EXPERT-FSDP", tmp_path)
    (f,) = [f for f in findings if f.rule == "MOE-EXPERT-FSDP"]
    assert "128 // ep 16 = 8" in f.message and "-1 (all 16 policy GPUs)" in f.message


def test_moe_expert_fsdp_silent_when_divisible(tmp_path: Path) -> None:
    raw = example_raw("moe")
    set_path(raw, "trainer.strategy", "fsdp2")
    set_path(raw, "trainer.policy.fsdp_config", {"fsdp_size": -1, "expert_model_parallel_size": 4})
    findings, _ = run_config(raw, tmp_path, num_nodes=4)
    assert "MOE-EXPERT-FSDP" not in rules_of(findings)


def test_dcp_kv_heads_uses_model_facts(tmp_path: Path) -> None:
    findings, _ = _run_case("DCP-KV-HEADS", tmp_path)
    (f,) = [f for f in findings if f.rule == "DCP-KV-HEADS"]
    assert "tp 8 // 4 = 2, got dcp 4" in f.message
    assert "DCP-DIVIDES" not in rules_of(findings)


def test_model_unknown_skips_model_aware_rules(tmp_path: Path) -> None:
    raw = example_raw("moe")
    set_path(raw, "trainer.policy.model.path", "acme/private-moe")
    set_path(raw, "generator.inference_engine_decode_context_parallel_size", 4)
    findings, _ = run_config(raw, tmp_path, num_nodes=4)
    assert "MODEL-UNKNOWN" in rules_of(findings) and "DCP-KV-HEADS" not in rules_of(findings)


def test_cloud_creds_value_never_shown(tmp_path: Path) -> None:
    findings, _ = _run_case("ENV-CLOUD-CREDS", tmp_path)
    assert all("hunter2" not in (f.message + f.fix + f.path) for f in findings)


def test_env_coerced_says_the_string(tmp_path: Path) -> None:
    findings, _ = _run_case("ENV-COERCED", tmp_path)
    (f,) = [f for f in findings if f.rule == "ENV-COERCED"]
    assert f.severity == "info" and "'1'" in f.message


def test_override_applies_before_rules(tmp_path: Path) -> None:
    findings, ctx = run_config(example_raw("dense"), tmp_path, num_nodes=7,
                               overrides=("generator.num_inference_engines=40", "generator.num_inference_engines=48"))
    assert not findings and ctx.budget.total_gpus == 56
    findings, _ = run_config(example_raw("dense"), tmp_path, num_nodes=7,
                             overrides=("generator.num_inference_engines=40",))
    assert "TOPO-NODES" in rules_of(findings)


def test_asset_host_path_is_flagged(tmp_path: Path) -> None:
    raw = set_path(example_raw("dense"), "generator.engine_init_kwargs.custom_chat_template_chat_completion_path",
                   "/Users/alice/templates/t.jinja2")
    findings, _ = run_config(raw, tmp_path, num_nodes=7)
    assert any(f.rule == "CFG-ASSET" and "launching machine" in f.message for f in findings)


def test_asset_found_only_under_the_workspace(tmp_path: Path) -> None:
    findings, _ = run_config(example_raw("dense"), tmp_path, num_nodes=7, workspace=tmp_path)
    assert "CFG-ASSET" in rules_of(findings)
    findings, _ = run_config(example_raw("dense"), tmp_path, num_nodes=7, workspace=WORKSPACE)
    assert "CFG-ASSET" not in rules_of(findings)


def test_eng_explicit_with_too_few_nodes_asks_for_more(tmp_path: Path) -> None:
    raw = set_path(example_raw("moe"), "generator.num_inference_engines", None)
    findings, _ = run_config(raw, tmp_path, num_nodes=2)
    (f,) = [f for f in findings if f.rule == "ENG-EXPLICIT"]
    assert "leave no room for engines" in f.message and "trainer's 2" in f.fix


def test_topo_partial_node_suggests_whole_engines(tmp_path: Path) -> None:
    findings, _ = _run_case("TOPO-PARTIAL-NODE", tmp_path)
    (f,) = [f for f in findings if f.rule == "TOPO-PARTIAL-NODE"]
    assert "55 GPUs = 6.875 nodes of 8: 1 GPU(s) of the last node would idle" in f.message
    assert f.fix.endswith("add 1 engine(s)")


def test_env_rules_also_read_misplaced_extra_env(tmp_path: Path) -> None:
    raw = example_raw("dense")
    raw["container"] = {"extra_env": {"NCCL_P2P_DISABLE": "1", "LD_LIBRARY_PATH": "$CONDA_PREFIX/lib"}}
    findings, _ = run_config(raw, tmp_path, num_nodes=7)
    paths = {(f.rule, f.path) for f in findings}
    assert {("CFG-CONTAINER", "container"), ("ENV-MISPLACED", "container.extra_env"),
            ("ENV-NCCL-CRIPPLE", "container.extra_env.NCCL_P2P_DISABLE"),
            ("ENV-UNEXPANDED", "container.extra_env.LD_LIBRARY_PATH")} <= paths
