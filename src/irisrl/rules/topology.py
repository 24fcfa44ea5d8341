"""Topology rules: does the GPU budget fill the requested whole nodes, and do the placement
and batch sizes pass the checks SkyRL would otherwise make only at trainer start?"""

from __future__ import annotations

from typing import Any, Iterator

from irisrl.rules.base import Finding
from irisrl.rules.catalogue import rule

PL = "trainer.placement"


@rule("TOPO-NODES", "error", "--num-nodes differs from the nodes the GPU budget needs")
def topo_nodes(ctx: Any) -> Iterator[Finding]:
    b = ctx.budget
    if ctx.num_nodes is None or b.num_nodes is None or ctx.num_nodes == b.num_nodes:
        return
    yield topo_nodes.finding(
        "--num-nodes", f"{b.describe()}; got {ctx.num_nodes}",
        f"launch with --num-nodes {b.num_nodes}, or change the layout to use {ctx.num_nodes} nodes "
        f"({ctx.num_nodes * b.gpus_per_node} GPUs)")


@rule("TOPO-PARTIAL-NODE", "error", "The GPU budget is not a whole number of nodes")
def topo_partial_node(ctx: Any) -> Iterator[Finding]:
    b = ctx.budget
    if b.total_gpus is None or b.whole_nodes:
        return
    spare = b.num_nodes * b.gpus_per_node - b.total_gpus
    per_engine = b.tp * b.pp * b.dp
    hint = (f"add {spare // per_engine} engine(s)" if spare % per_engine == 0
            else "change the engine count or TP size")
    yield topo_partial_node.finding(
        "generator.num_inference_engines", f"{b.describe()}: {spare} GPU(s) of the last node would idle "
        f"(nodes are whole and exclusive)",
        f"size the layout to a multiple of {b.gpus_per_node} GPUs: {hint}")


@rule("TOPO-GPUS-PER-NODE-FORCED", "warning", "YAML per-node GPUs differ from --gpus_per_node (the flag wins)")
def topo_gpus_per_node_forced(ctx: Any) -> Iterator[Finding]:
    v = ctx.view
    for key, value in (("policy_num_gpus_per_node", v.policy_gpus_per_node_yaml),
                       ("ref_num_gpus_per_node", v.ref_gpus_per_node_yaml)):
        if value is not None and value != ctx.gpus_per_node:
            yield topo_gpus_per_node_forced.finding(
                f"{PL}.{key}", f"`{key}: {value}` is replaced by --gpus_per_node {ctx.gpus_per_node}",
                f"set `{key}: {ctx.gpus_per_node}` so the YAML says what runs (nodes are whole {ctx.gpus_per_node}-GPU nodes)")


@rule("TOPO-COLOCATE-MISMATCH", "error", "colocate_all with policy GPUs != engine GPUs")
def topo_colocate_mismatch(ctx: Any) -> Iterator[Finding]:
    v, b = ctx.view, ctx.budget
    if not v.colocate_all or b.engines_source != "explicit" or b.engine_gpus == b.policy_gpus:
        return
    right = b.policy_gpus // v.gpus_per_engine
    yield topo_colocate_mismatch.finding(
        "generator.num_inference_engines",
        f"colocate_all shares GPUs, so policy GPUs must equal engine GPUs: policy {b.policy_nodes}x{b.gpus_per_node} "
        f"= {b.policy_gpus} but engines {v.num_inference_engines}xTP{v.tp}"
        + (f"xPP{v.pp}" if v.pp > 1 else "") + (f"xDP{v.dp}" if v.dp > 1 else "") + f" = {b.engine_gpus}",
        f"set num_inference_engines: {right} (or null to derive it), or change policy_num_nodes")


@rule("TOPO-POLICY-REF", "error", "Colocated policy and ref with different shapes")
def topo_policy_ref(ctx: Any) -> Iterator[Finding]:
    v = ctx.view
    if not v.uses_kl or not (v.colocate_policy_ref or v.colocate_all):
        return
    if v.policy_num_nodes != v.ref_num_nodes:
        yield topo_policy_ref.finding(
            f"{PL}.ref_num_nodes", f"the ref model shares the policy GPUs (colocate_policy_ref) but "
            f"policy_num_nodes {v.policy_num_nodes} != ref_num_nodes {v.ref_num_nodes}",
            f"set ref_num_nodes: {v.policy_num_nodes}, or colocate_policy_ref: false to give the ref its own nodes")


def _policy_dp(ctx: Any) -> tuple[int, str] | None:
    v = ctx.view
    world = v.policy_num_nodes * ctx.gpus_per_node
    if v.strategy == "megatron":
        shard = v.megatron_tp * v.megatron_pp * v.megatron_cp
        if world % shard:
            return None
        return world // shard, f"policy world {world} / (megatron tp {v.megatron_tp} x pp {v.megatron_pp} x cp {v.megatron_cp})"
    return world // v.sequence_parallel_size, f"policy world {world} / sequence_parallel {v.sequence_parallel_size}"


def _megatron_shards(ctx: Any) -> Iterator[Finding]:
    v = ctx.view
    world = v.policy_num_nodes * ctx.gpus_per_node
    shard = v.megatron_tp * v.megatron_pp * v.megatron_cp
    if v.strategy == "megatron" and world % shard:
        yield topo_batch.finding(
            "trainer.policy.megatron_config", f"policy world {world} is not divisible by megatron tp x pp x cp "
            f"= {v.megatron_tp}x{v.megatron_pp}x{v.megatron_cp} = {shard}",
            "pick tensor/pipeline/context parallel sizes whose product divides the policy GPUs")


@rule("TOPO-BATCH", "error", "SkyRL's batch-size divisibility rules")
def topo_batch(ctx: Any) -> Iterator[Finding]:
    v = ctx.view
    yield from _megatron_shards(ctx)
    train, mini, micro, n = v.train_batch_size, v.policy_mini_batch_size, v.micro_train_batch_size_per_gpu, v.n_samples_per_prompt
    if train < mini or train % mini:
        yield topo_batch.finding("trainer.train_batch_size",
                                 f"train_batch_size {train} is not a multiple of policy_mini_batch_size {mini}",
                                 "make train_batch_size a multiple of policy_mini_batch_size")
        return
    dp = _policy_dp(ctx)
    if dp is None:
        return
    dp_size, how = dp
    per_gpu = mini * n // dp_size
    if per_gpu <= 0 or per_gpu % micro:
        yield topo_batch.finding(
            "trainer.micro_train_batch_size_per_gpu",
            f"per-GPU mini-batch = policy_mini_batch_size {mini} x n_samples_per_prompt {n} // dp {dp_size} "
            f"({how}) = {per_gpu}, not a positive multiple of micro_train_batch_size_per_gpu {micro}",
            "raise policy_mini_batch_size or n_samples_per_prompt, or lower micro_train_batch_size_per_gpu")
    if train < dp_size:
        yield topo_batch.finding("trainer.train_batch_size",
                                 f"train_batch_size {train} is below the policy data-parallel size {dp_size}",
                                 f"set train_batch_size >= {dp_size}")
