"""Helpers for the config/rules tests: load an example, mutate it, run the config rules."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "examples" / "configs"
WORKSPACE = REPO / "examples" / "workspace"
EXAMPLES = {"dense": ("dense8b_disagg.yaml", 7), "moe": ("moe30b_ep4_r3_dcp2.yaml", 4),
            "smoke": ("smoke_colocated.yaml", 2)}


def example_raw(name: str) -> dict[str, Any]:
    return yaml.safe_load((CONFIGS / EXAMPLES[name][0]).read_text())


def set_path(raw: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    *parents, leaf = path.split(".")
    node = raw
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value
    return raw


def del_path(raw: dict[str, Any], path: str) -> dict[str, Any]:
    *parents, leaf = path.split(".")
    node = raw
    for part in parents:
        node = node[part]
    node.pop(leaf, None)
    return raw


def run_config(raw: dict[str, Any] | str, tmp_path: Path, *, num_nodes: int | None = None,
               overrides: tuple[str, ...] = (), workspace: Path | None = WORKSPACE, **kw: Any):
    """(findings, ctx) for a config mapping (or YAML text) written to tmp_path."""
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import build_context

    path = tmp_path / "cfg.yaml"
    path.write_text(raw if isinstance(raw, str) else yaml.safe_dump(copy.deepcopy(raw), sort_keys=False))
    ctx = build_context(path, num_nodes=num_nodes, overrides=overrides, workspace=workspace, **kw)
    return run_rules(ctx), ctx


def rules_of(findings) -> set[str]:
    return {f.rule for f in findings}
