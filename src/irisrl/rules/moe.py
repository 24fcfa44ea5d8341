"""MoE, decode-context-parallel (DCP) and R3 (router replay) rules. Model-aware rules need
model facts; without them MODEL-UNKNOWN says which checks were skipped."""

from __future__ import annotations

from typing import Iterator

from irisrl.config.extra_env_keys import coerce_env_value
from irisrl.config.models import HYBRID_ROUTING_TYPES
from irisrl.core.findings import Finding
from irisrl.rules.catalogue import rule
from irisrl.rules.context import RuleContext

GEN = "generator"
KW = "generator.engine_init_kwargs"
DCP_KEY = f"{GEN}.inference_engine_decode_context_parallel_size"
GUARD_ENV = "VLLM_ALLOW_ROUTED_EXPERTS_DCP"
W13_ENV = "SKYRL_W13_RELOAD_BRACKET"
MODEL_AWARE = ("DCP-KV-HEADS", "MOE-EXPERT-FSDP")


def _env(ctx: RuleContext, key: str) -> str | None:
    env = ctx.view.extra_env
    return coerce_env_value(env[key]).strip() if key in env else None


def _is_moe(ctx: RuleContext) -> bool:
    """MoE per the model facts; without facts, R3 router capture implies MoE."""
    return bool(ctx.model.is_moe if ctx.model is not None else ctx.view.enable_r3)


@rule("MODEL-UNKNOWN", "info", "Model facts unavailable: model-aware rules skipped")
def model_unknown(ctx: RuleContext) -> Iterator[Finding]:
    """Info, not a warning: it says what irisrl could not check, not that the config is wrong
    (it fired on MarinSkyRL's production 64GPU_qwen3_6_35b_a3b.yaml, a model not in the table;
    tests/unit/test_production_configs.py)."""
    if ctx.model is None:
        yield model_unknown.finding(
            "trainer.policy.model.path" if not ctx.model_path_flag else "--model_path",
            f"model facts (KV heads, experts) unavailable: {ctx.model_note}; skipped {', '.join(MODEL_AWARE)}",
            "use a model in the built-in table, a local model dir with config.json, a model already in the HF "
            "cache, or pass --fetch-model-config")


@rule("DCP-DIVIDES", "error", "tp % dcp != 0 or dcp > tp (or DCP without the vLLM backend)")
def dcp_divides(ctx: RuleContext) -> Iterator[Finding]:
    v = ctx.view
    if v.dcp <= 1:
        return
    if v.dcp > v.tp or v.tp % v.dcp:
        yield dcp_divides.finding(DCP_KEY, f"decode context parallel {v.dcp} must divide TP {v.tp} "
                                  f"(tp % dcp = {v.tp % v.dcp}, dcp {'>' if v.dcp > v.tp else '<='} tp)",
                                  f"use a DCP size that divides {v.tp} (e.g. 2 with TP 8)")
    if v.backend != "vllm":
        yield dcp_divides.finding(f"{GEN}.backend", f"decode context parallel needs the vllm backend, got {v.backend!r}",
                                  "set generator.backend: vllm or DCP 1")


@rule("DCP-KV-HEADS", "error", "dcp > tp // num_kv_heads (MLA counts one KV head)")
def dcp_kv_heads(ctx: RuleContext) -> Iterator[Finding]:
    v, m = ctx.view, ctx.model
    if v.dcp <= 1 or m is None or not m.effective_kv_heads:
        return
    kv = m.effective_kv_heads
    ceiling = v.tp // kv
    if v.dcp > ceiling:
        kind = "MLA (1 latent KV head)" if m.mla else f"{kv} KV heads"
        yield dcp_kv_heads.finding(DCP_KEY, f"{m.name} has {kind}: DCP ceiling = tp {v.tp} // {kv} = {ceiling}, got dcp {v.dcp}",
                                   f"use dcp <= {max(ceiling, 1)}" + ("" if ceiling >= 1 else " (DCP off)") +
                                   f", or raise TP to {v.dcp * kv}")


@rule("DCP-R3-GUARD", "error", "DCP > 1 with R3 router capture and no VLLM_ALLOW_ROUTED_EXPERTS_DCP=1")
def dcp_r3_guard(ctx: RuleContext) -> Iterator[Finding]:
    v = ctx.view
    value = _env(ctx, GUARD_ENV)
    if v.dcp > 1 and v.enable_r3 and value != "1":
        shown = "absent" if value is None else f"{value!r}"
        yield dcp_r3_guard.finding(f"extra_env.{GUARD_ENV}",
                                   f"DCP {v.dcp} with enable_return_routed_experts: SkyRL refuses at start unless "
                                   f"{GUARD_ENV}=1 (it is {shown})",
                                   f'add `{GUARD_ENV}: "1"` to the top-level extra_env')


def _hybrid_routing(ctx: RuleContext) -> bool | None:
    """True for a hybrid linear-attention MoE (Qwen3-Next); None when the model is unknown."""
    if ctx.model is None:
        return None
    return ctx.model.model_type in HYBRID_ROUTING_TYPES or "qwen3-next" in ctx.model.name.lower()


def _wants_mp(ctx: RuleContext) -> bool | None:
    """Which executor R3/DCP needs: the mp backend (True) for Qwen3-Next with R3 capture, the
    Ray executor (False) otherwise, None when the model is unknown and R3 is on without DCP."""
    v = ctx.view
    if v.dcp > 1:
        return False
    hybrid = _hybrid_routing(ctx)
    return None if hybrid is None else hybrid


@rule("R3-EXECUTOR", "error",
      "R3/DCP executor: mp backend for Qwen3-Next R3 capture, Ray executor otherwise; async_scheduling false")
def r3_executor(ctx: RuleContext) -> Iterator[Finding]:
    """Router-replay capture (R3) and DCP run with async_scheduling false. They need the Ray
    executor (inference_engine_mp_backend false), except Qwen3-Next with R3 capture: vLLM's
    Ray compiled-DAG executor deadlocks on its hybrid architecture, so it needs the mp backend.
    Source: marin-community/MarinSkyRL cloud/iris/configs/128GPU_80B_A3B_next_cp1.yaml
    @ 03b8394b28039d6a403ef55e170fb76e579d1a01 (Qwen3-Next: mp_backend true, R3 on) against
    tasktrove_dq_sweep_30b.yaml and 64GPU_qwen3_6_35b_a3b.yaml (other MoE: mp_backend false),
    and the fork's agent notes on the Qwen3-Next Ray compiled-DAG deadlock."""
    v = ctx.view
    if not (v.enable_r3 or v.dcp > 1):
        return
    why = "R3 router capture" if v.enable_r3 else f"DCP {v.dcp}"
    yield from _executor_findings(ctx, why, _wants_mp(ctx))
    if v.async_scheduling is not False:
        shown = "unset" if v.async_scheduling is None else "true"
        yield r3_executor.finding(f"{KW}.async_scheduling", f"{why} needs async_scheduling false (it is {shown})",
                                  "set generator.engine_init_kwargs.async_scheduling: false")


def _executor_findings(ctx: RuleContext, why: str, wants_mp: bool | None) -> Iterator[Finding]:
    v, path = ctx.view, f"{GEN}.inference_engine_mp_backend"
    mp = str(v.mp_backend).strip().lower() in ("true", "1", "yes")
    shown = "unset" if v.mp_backend is None else repr(v.mp_backend)
    if wants_mp is True and not mp:
        name = ctx.model.name if ctx.model else "the model"
        yield r3_executor.finding(path, f"{name} is a hybrid (Qwen3-Next) MoE: with {why} vLLM's Ray "
                                  f"executor deadlocks, so it needs the mp backend (inference_engine_mp_backend is {shown})",
                                  "set generator.inference_engine_mp_backend: true")
    elif wants_mp is False and v.mp_backend is not False:
        yield r3_executor.finding(path, f"{why} needs the Ray executor: inference_engine_mp_backend must be false "
                                  f"(it is {shown})", "set generator.inference_engine_mp_backend: false")
    elif wants_mp is None and mp:
        yield r3_executor.finding(path, f"{why} with the mp backend is right only for a hybrid (Qwen3-Next) model, "
                                  f"and the model is unknown ({ctx.model_note})",
                                  "set inference_engine_mp_backend: false unless the model is Qwen3-Next; pass "
                                  "--model_path so irisrl can tell", severity="warning")
    elif wants_mp is None and v.mp_backend is None:
        yield r3_executor.finding(path, f"{why} needs the executor chosen explicitly (it is unset)",
                                  "set generator.inference_engine_mp_backend: false (true only for Qwen3-Next)")


@rule("MOE-EXPERT-FSDP", "error", "(num_experts // ep) % fsdp_size != 0 (FSDP strategies)")
def moe_expert_fsdp(ctx: RuleContext) -> Iterator[Finding]:
    v, m = ctx.view, ctx.model
    if not v.is_fsdp or m is None or not m.is_moe:
        return
    fsdp = v.fsdp_size if v.fsdp_size != -1 else ctx.budget.policy_gpus
    shown = f"{v.fsdp_size}" if v.fsdp_size != -1 else f"-1 (all {fsdp} policy GPUs)"
    local = m.num_experts // v.fsdp_ep
    if local % fsdp:
        yield moe_expert_fsdp.finding(
            "trainer.policy.fsdp_config.fsdp_size",
            f"{m.name}: experts {m.num_experts} // ep {v.fsdp_ep} = {local} local experts, not divisible by "
            f"fsdp_size {shown} (dim-0 shard guard)",
            "pick fsdp_size and expert_model_parallel_size so (num_experts // ep) % fsdp_size == 0")


@rule("MOE-STRICT-SPREAD", "error", "MoE R3/DCP disaggregated without policy_strict_spread_pg: true")
def moe_strict_spread(ctx: RuleContext) -> Iterator[Finding]:
    v = ctx.view
    if v.colocate_all or not _is_moe(ctx) or not (v.enable_r3 or v.dcp > 1):
        return
    if v.strict_spread_pg is not True:
        yield moe_strict_spread.finding(
            "trainer.placement.policy_strict_spread_pg",
            "MoE with R3/DCP, disaggregated: without policy_strict_spread_pg the policy bundles can land on the "
            "engine nodes and a TP engine cannot place on one node",
            "set trainer.placement.policy_strict_spread_pg: true")


@rule("MOE-W13", "error", "MoE with SKYRL_W13_RELOAD_BRACKET=0 (served policy emits token salad)")
def moe_w13(ctx: RuleContext) -> Iterator[Finding]:
    value = _env(ctx, W13_ENV)
    if value is None or not _is_moe(ctx):
        return
    if value.lower() in ("0", "false", "no", "off", ""):
        yield moe_w13.finding(f"extra_env.{W13_ENV}",
                              f"{W13_ENV}={value!r} turns off the FusedMoE w13 reload bracket; the served MoE "
                              "policy emits CJK token salad (reward 0) after weight sync",
                              f'remove it or set `{W13_ENV}: "1"`')
