"""Derive a throwaway bring-up ("smoke") config from a real one (runbook section 3: colocated,
small max_steps, no trace upload). Works on a plain mapping and records every edit.

The layout: colocate_all, engine TP/PP/DP kept, the fewest whole nodes on which the policy
GPUs equal the engine GPUs (nodes = lcm(8, tp*pp*dp) / 8), the ref model on the same shape,
and num_inference_engines left null so it is derived (policy GPUs / GPUs per engine)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from irisrl.config.edits import Change, get, has, positive_int, put, show
from irisrl.config.profile import ClusterProfile
from irisrl.util.errors import IrisrlError

PLACEMENT = "trainer.placement"


@dataclass(frozen=True)
class SmokeResult:
    config: dict[str, Any]
    changes: tuple[Change, ...]
    num_nodes: int
    num_inference_engines: int


def smoke_config(cfg: dict[str, Any], profile: ClusterProfile, max_steps: int = 2,
                 nodes: int | None = None) -> SmokeResult:
    """Rewrite `cfg` (mutated in place and returned) into a colocated smoke config."""
    changes: list[Change] = []
    per_engine = _gpus_per_engine(cfg)
    num_nodes = _smoke_nodes(per_engine, profile.gpus_per_node, nodes)
    _set(cfg, f"{PLACEMENT}.colocate_all", True, "TOPO-COLOCATE-MISMATCH", changes, "smoke runs are colocated")
    _set(cfg, f"{PLACEMENT}.colocate_policy_ref", True, "TOPO-POLICY-REF", changes, "ref shares the policy GPUs")
    for role in ("policy", "ref"):
        _set(cfg, f"{PLACEMENT}.{role}_num_nodes", num_nodes, "TOPO-NODES", changes,
             f"{num_nodes} x {profile.gpus_per_node} GPUs = engine GPUs")
        _set(cfg, f"{PLACEMENT}.{role}_num_gpus_per_node", profile.gpus_per_node, "TOPO-GPUS-PER-NODE-FORCED",
             changes, "whole nodes")
    engines = num_nodes * profile.gpus_per_node // per_engine
    _set(cfg, "generator.num_inference_engines", None, "ENG-DERIVED", changes,
         f"derived: {num_nodes * profile.gpus_per_node} policy GPUs / {per_engine} GPUs per engine = {engines}")
    _set(cfg, "trainer.max_steps", max_steps, "SMOKE", changes, "a short bring-up run")
    _set(cfg, "trainer.eval_before_train", False, "SMOKE", changes, "no eval pass before the first step")
    _checkpoints_off(cfg, changes)
    _trace_upload_off(cfg, changes)
    _set(cfg, "trainer.enable_db_registration", False, "CFG-DB-REGISTRATION", changes, "never registered")
    if "enable_db_registration" in cfg:
        _set(cfg, "enable_db_registration", False, "CFG-DB-REGISTRATION", changes, "never registered")
    return SmokeResult(cfg, tuple(changes), num_nodes, engines)


def _gpus_per_engine(cfg: dict[str, Any]) -> int:
    each = 1
    for name in ("tensor", "pipeline", "data"):
        path = f"generator.inference_engine_{name}_parallel_size"
        value = get(cfg, path)
        each *= 1 if value is None else positive_int(value, path)
    return each


def _smoke_nodes(per_engine: int, gpus_per_node: int, nodes: int | None) -> int:
    """The fewest whole nodes holding a whole number of engines (or the --nodes asked for)."""
    if nodes is None:
        return math.lcm(gpus_per_node, per_engine) // gpus_per_node
    if (nodes * gpus_per_node) % per_engine:
        raise IrisrlError(
            f"--nodes {nodes}: {nodes} x {gpus_per_node} GPUs = {nodes * gpus_per_node} is not a whole number of "
            f"engines of {per_engine} GPUs (tp x pp x dp)",
            f"use a multiple of {math.lcm(gpus_per_node, per_engine) // gpus_per_node} for --nodes, or leave it out")
    return nodes


def _checkpoints_off(cfg: dict[str, Any], changes: list[Change]) -> None:
    # SkyRL saves only when the interval is > 0; hf_save_interval defaults to ckpt_interval.
    _set(cfg, "trainer.ckpt_interval", 0, "SMOKE", changes, "checkpoints off")
    _set(cfg, "trainer.hf_save_interval", 0, "SMOKE", changes, "HF exports off")
    _set(cfg, "trainer.resume_mode", None, "SMOKE", changes, "never resume a real run's checkpoint")
    for key, off in (("export_hf_artifact", False), ("hf_hub_repo_id", None)):
        if has(cfg, f"trainer.{key}"):
            _set(cfg, f"trainer.{key}", off, "SMOKE", changes, "no upload")


def _trace_upload_off(cfg: dict[str, Any], changes: list[Change]) -> None:
    for owner in ("terminal_bench", ""):
        present = owner in cfg if owner else "trace_upload" in cfg
        if present:
            path = f"{owner}.trace_upload.enabled" if owner else "trace_upload.enabled"
            _set(cfg, path, False, "SMOKE", changes, "no trace upload from a smoke run")


def _set(cfg: dict[str, Any], path: str, value: Any, rule: str, changes: list[Change], why: str) -> None:
    present = has(cfg, path)
    old = get(cfg, path)
    if present and old == value and type(old) is type(value):
        return
    put(cfg, path, value)
    before = show(old) if present else "absent"
    changes.append(Change(rule, path, f"{before} -> {show(value)} ({why})"))
