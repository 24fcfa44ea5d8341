"""The rl config YAML -> SkyRL Hydra overrides (`python -m <entrypoint module> ARGS`).

Every key of trainer/generator/data/environment/rollout/trajectory_runner/teacher (and
terminal_bench, as terminal_bench_config) becomes one `++dotted.key=value` override (`++` adds
or replaces, so fork-only keys work too); config_groups become `+group=name`; context_budget
becomes the length limits it derives (config/context_budget.py); the launcher's facts (job
name, per-job paths, per-node GPUs, --model_path and its served name, --train_data, derived
engine count) are written into the tree before flattening; --skyrl_override values come last,
in order, so the last one wins.

The oracle is MarinSkyRL's launcher, marin-community/MarinSkyRL cloud/iris/
rl_config_translation.py `build_skyrl_hydra_args` and launch_rl_iris.py `build_task_command`
@ f2e41858f1fb72ab8023db6ff51c85d5a467e38b (the runbook-era schema); newer registered
entrypoint names are mapped as rl_config_translation.py @ 00ee4e42 maps them. Where irisrl
differs on purpose (e.g. `++` everywhere), docs/COMPAT.md says why, key by key.

Nothing is dropped silently: a top-level key irisrl does not forward, or a key Hydra's
grammar cannot spell, becomes a CFG-UNFORWARDED finding. Values are written so that
Hydra's own parser reads back exactly the Python value the YAML held (tests check this
with hydra-core's OverridesParser). No hydra import here: dry runs stay light.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, TypeGuard

from irisrl.config.schema import DEFAULT_ENTRY_MODULE, entrypoint_module
from irisrl.config.view import resolve_role_gpus_per_node
from irisrl.core.findings import Finding

RULE_UNFORWARDED = "CFG-UNFORWARDED"
# YAML section -> Hydra root, in the order the arguments are written.
FORWARDED_SECTIONS: dict[str, str] = {
    "trainer": "trainer",
    "generator": "generator",
    "data": "data",
    "environment": "environment",
    "terminal_bench": "terminal_bench_config",
    "rollout": "rollout",                      # SkyRL reads cfg.rollout.fanout (pre-2026-09 trees)
    "trajectory_runner": "trajectory_runner",  # its successor in newer trees
    "teacher": "teacher",                      # on-policy distillation (the launcher's ++teacher.*)
}
# Top-level keys irisrl itself consumes (not Hydra arguments, but not dropped either).
CONSUMED_KEYS: dict[str, str] = {
    "extra_env": "pod environment",
    "config_groups": "Hydra config groups (+group=name)",
    "entrypoint": "the SkyRL entrypoint module",
    "context_budget": "the length limits it derives",
}
# Blocks another rule already reports (CFG-CONTAINER): not reported twice.
CONTAINER_KEYS = frozenset({"container", "sif", "apptainer", "singularity", "conda", "binds", "pydeps"})
# `backend: {kind: <one of these>}` names another launcher; CFG-BACKEND reports it (and port drops it).
FOREIGN_BACKENDS = ("apptainer", "singularity", "slurm", "sif")


def foreign_backend(raw: Mapping[str, Any]) -> str | None:
    """The kind of a top-level backend block that names another launcher, else None."""
    backend = raw.get("backend")
    kind = backend.get("kind") if isinstance(backend, Mapping) else backend
    return kind if isinstance(kind, str) and kind.lower() in FOREIGN_BACKENDS else None

# A key path element Hydra accepts unquoted (grammar ID); dict-literal keys likewise.
_KEY_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$\-]*$")
# Strings safe to write unquoted: they parse back as the same string.
_PLAIN_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-./:]*$")
_RESERVED = frozenset({"true", "false", "null", "nan", "inf"})
_ENGINES_OVERRIDE_RE = re.compile(r"^\+{0,2}generator\.num_inference_engines=(\d+)$")


class UnspellableKey(ValueError):
    """A mapping key that Hydra's override grammar cannot express."""


@dataclass(frozen=True)
class HydraInputs:
    """Launcher facts written into the config before it becomes Hydra arguments."""
    job_name: str
    artifacts_root: str               # per-job root: <root>/checkpoints, <root>/trace_jobs
    gpus_per_node: int
    model_path: str | None = None
    train_data: tuple[str, ...] | None = None   # as the trainer sees them (node-local task dirs)
    overrides: tuple[str, ...] = ()
    derived_num_inference_engines: int | None = None  # colocated + null: from the budget
    num_nodes: int | None = None      # fills null policy/ref_num_nodes, as the launcher does
    export_path: str | None = None    # default <artifacts_root>/exports


@dataclass(frozen=True)
class HydraResult:
    args: tuple[str, ...]
    sections: dict[str, Any]          # Hydra root -> the resolved tree that was flattened
    num_inference_engines: int | None  # the value SkyRL will see (after overrides)
    findings: tuple[Finding, ...] = field(default_factory=tuple)


# ---------------------------------------------------------------- value spelling


def format_value(value: Any) -> str:
    """Spell one Python value in Hydra's override grammar so that it parses back equal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _format_float(value)
    if isinstance(value, str):
        return _format_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{_dict_key(k)}: {format_value(v)}" for k, v in value.items()) + "}"
    return _format_string(str(value))  # dates and other YAML scalars: their text


def _format_float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    return text if any(c in text for c in ".eE") else text + ".0"


def _format_string(value: str) -> str:
    if _PLAIN_RE.fullmatch(value) and value.lower() not in _RESERVED:
        return value
    return _quote(value)


def _quote(value: str) -> str:
    """Single-quote for Hydra: escape quotes; double backslash runs before a quote or the end."""
    out: list[str] = []
    run = 0  # pending backslashes
    for ch in value:
        if ch == "\\":
            run += 1
            continue
        if ch == "'":
            out.append("\\" * (2 * run) + "\\'")
        else:
            out.append("\\" * run + ch)
        run = 0
    out.append("\\" * (2 * run))
    return "'" + "".join(out) + "'"


def _dict_key(key: Any) -> str:
    if isinstance(key, str) and _KEY_RE.fullmatch(key) and key.lower() not in _RESERVED:
        return key
    raise UnspellableKey(repr(key))


def format_override(key: str, value: Any, prefix: str = "++") -> str:
    return f"{prefix}{key}={format_value(value)}"


# ---------------------------------------------------------------- flattening


def flatten(tree: Mapping[str, Any], root: str) -> tuple[list[tuple[str, Any]], list[str]]:
    """Leaves of `tree` as (dotted key, value); also the paths whose keys Hydra cannot spell."""
    leaves: list[tuple[str, Any]] = []
    unspellable: list[str] = []
    _walk(tree, root, leaves, unspellable)
    return leaves, unspellable


def _walk(node: Any, path: str, leaves: list[Any], unspellable: list[str]) -> None:
    if not isinstance(node, Mapping) or not node:
        _leaf(path, node, leaves, unspellable)
        return
    for key, child in node.items():
        if isinstance(key, str) and _KEY_RE.fullmatch(key) and key.lower() not in _RESERVED:
            _walk(child, f"{path}.{key}", leaves, unspellable)
        else:
            unspellable.append(f"{path}.{key}")


def _leaf(path: str, value: Any, leaves: list[Any], unspellable: list[str]) -> None:
    try:
        format_value(value)
    except UnspellableKey as exc:
        unspellable.append(f"{path} (key {exc})")
        return
    leaves.append((path, value))


# ---------------------------------------------------------------- the whole config


def entry_module(raw: Mapping[str, Any]) -> str:
    """The module the trainer runs as `python -m` (config/schema.py maps the spellings; a value
    neither launcher accepts is CFG-ENTRYPOINT's error and falls back to main_base here)."""
    return entrypoint_module(raw.get("entrypoint")) or DEFAULT_ENTRY_MODULE


def trainer_command(raw: Mapping[str, Any], hydra_args: Iterable[str], python: str = "python") -> tuple[str, ...]:
    return (python, "-m", entry_module(raw), *hydra_args)


def _section_type_findings(raw: Mapping[str, Any]) -> list[Finding]:
    out = []
    for key in FORWARDED_SECTIONS:
        if key in raw and raw[key] is not None and not isinstance(raw[key], Mapping):
            out.append(Finding(RULE_UNFORWARDED, "error", key,
                               f"section {key!r} is a {type(raw[key]).__name__}, not a mapping; "
                               f"its value cannot become Hydra arguments",
                               f"write {key}: as a mapping of keys"))
    groups = raw.get("config_groups")
    if groups is not None and not _is_group_map(groups):
        out.append(Finding(RULE_UNFORWARDED, "error", "config_groups",
                           "config_groups must map group names to config names (strings)",
                           "write e.g. config_groups: {terminal_bench_config: terminal_bench}"))
    return out


def _is_group_map(groups: Any) -> TypeGuard[Mapping[str, str]]:
    return isinstance(groups, Mapping) and all(
        isinstance(k, str) and _KEY_RE.fullmatch(k) and isinstance(v, str) and _PLAIN_RE.fullmatch(v)
        for k, v in groups.items())


def resolve_sections(raw: Mapping[str, Any], inputs: HydraInputs) -> dict[str, dict[str, Any]]:
    """The forwarded sections with context_budget and the launcher's facts written in (a deep copy)."""
    from irisrl.config.context_budget import apply_context_budget, parse_context_budget

    sections: dict[str, dict[str, Any]] = {}
    for yaml_key, root in FORWARDED_SECTIONS.items():
        value = raw.get(yaml_key)
        if isinstance(value, Mapping):
            sections[root] = copy.deepcopy(dict(value))
        elif yaml_key in ("trainer", "generator", "data"):
            sections[root] = {}  # the launcher writes into these
    budget, _ = parse_context_budget(raw)  # its problems are CFG-CONTEXT-BUDGET findings
    if budget is not None:
        apply_context_budget(sections, budget)
    _apply_launcher_facts(sections, inputs, uses_terminal_bench(raw))
    return sections


def uses_terminal_bench(raw: Mapping[str, Any]) -> bool:
    groups = raw.get("config_groups")
    return isinstance(raw.get("terminal_bench"), Mapping) or (
        isinstance(groups, Mapping) and "terminal_bench_config" in groups)


def last_override(hydra_args: object, key: str) -> str | None:
    """The value the trainer sees for `key` among a plan's Hydra args (`k=v`, `+k=v`, `++k=v`;
    the last wins, as in Hydra), quotes stripped; None when absent or null. The one reader of a
    recorded plan's overrides (health's plan facts, checkpoints, export)."""
    found: str | None = None
    for arg in hydra_args if isinstance(hydra_args, (list, tuple)) else ():
        name, sep, value = str(arg).partition("=")
        if sep and name.lstrip("+~") == key:
            value = value.strip().strip("'\"")
            found = None if value in ("null", "None", "") else value
    return found


def job_paths(artifacts_root: str, export_path: str | None = None) -> dict[str, str]:
    """Per-job paths named as launch_rl_iris.py @ f2e41858 names them: <root>/checkpoints
    (`++trainer.ckpt_path`), <root>/trace_jobs (`++terminal_bench_config.trials_dir`), and
    <experiments>/<job>/exports (rl_config_translation's export_path)."""
    root = artifacts_root.rstrip("/")
    return {"ckpt_path": f"{root}/checkpoints", "trials_dir": f"{root}/trace_jobs",
            "export_path": export_path or f"{root}/exports"}


def served_model_name(model_path: str) -> str:
    """Harbor/LiteLLM want a model name with one '/' at most: the launcher serves `org/name`
    as `name` (rl_config_translation.py @ f2e41858, generator.engine_init_kwargs.served_model_name)."""
    return model_path.rstrip("/").split("/")[-1]


def _apply_launcher_facts(sections: dict[str, dict[str, Any]], inputs: HydraInputs, terminal_bench: bool) -> None:
    trainer, generator, data = sections["trainer"], sections["generator"], sections["data"]
    if trainer.get("strategy") is None:
        trainer["strategy"] = "megatron"  # the runbook's default for Iris configs
    if not trainer.get("run_name"):
        trainer["run_name"] = inputs.job_name
    paths = job_paths(inputs.artifacts_root, inputs.export_path)
    for key in ("ckpt_path", "export_path"):
        if not trainer.get(key):  # an explicit YAML path wins, as in the launcher
            trainer[key] = paths[key]
    if terminal_bench:  # the launcher's --trials-dir auto: per job, over the YAML's value
        _subtree(sections, "terminal_bench_config")["trials_dir"] = paths["trials_dir"]
    _fill_placement(_subtree(trainer, "placement"), inputs)
    if inputs.model_path:
        _subtree(_subtree(trainer, "policy"), "model")["path"] = inputs.model_path
        _subtree(generator, "engine_init_kwargs")["served_model_name"] = served_model_name(inputs.model_path)
    if inputs.train_data is not None:
        data["train_data"] = list(inputs.train_data)
    if generator.get("num_inference_engines") is None and inputs.derived_num_inference_engines:
        generator["num_inference_engines"] = inputs.derived_num_inference_engines


def _fill_placement(placement: dict[str, Any], inputs: HydraInputs) -> None:
    """Null node counts from --num-nodes; per-node GPUs as `_resolve_gpus_per_node` does: the
    YAML value when it fits the node (fewer GPUs per node spreads ranks), else the node's."""
    for role in ("policy", "ref"):
        if placement.get(f"{role}_num_nodes") is None and inputs.num_nodes is not None:
            placement[f"{role}_num_nodes"] = inputs.num_nodes
        key = f"{role}_num_gpus_per_node"
        value = placement.get(key)
        typed = value if isinstance(value, int) and not isinstance(value, bool) else None
        placement[key] = resolve_role_gpus_per_node(typed, inputs.gpus_per_node)


def _subtree(tree: dict[str, Any], key: str) -> dict[str, Any]:
    if not isinstance(tree.get(key), dict):
        tree[key] = {}
    node: dict[str, Any] = tree[key]
    return node


def forwarding_findings(raw: Mapping[str, Any]) -> list[Finding]:
    """Everything in `raw` that would not reach the trainer: unforwarded top-level keys and
    keys Hydra cannot spell (what rule CFG-UNFORWARDED reports)."""
    probe = HydraInputs(job_name="job", artifacts_root="/", gpus_per_node=1)
    return list(build_hydra_args(raw, probe).findings)


def build_hydra_args(raw: Mapping[str, Any], inputs: HydraInputs) -> HydraResult:
    """All Hydra arguments for this config and launch, plus what could not be forwarded."""
    findings = _section_type_findings(raw)
    args: list[str] = []
    groups = raw.get("config_groups")
    if _is_group_map(groups):
        args.extend(f"+{group}={name}" for group, name in groups.items())
    sections = resolve_sections(raw, inputs)
    for root, tree in sections.items():
        leaves, unspellable = flatten(tree, root)
        args.extend(format_override(key, value) for key, value in leaves)
        findings.extend(_unspellable_finding(path) for path in unspellable)
    args.extend(inputs.overrides)
    engines = _engines_after_overrides(sections["generator"].get("num_inference_engines"), inputs.overrides)
    return HydraResult(tuple(args), sections, engines, tuple(findings))


def _unspellable_finding(path: str) -> Finding:
    return Finding(RULE_UNFORWARDED, "error", path,
                   f"{path}: this key cannot be written as a Hydra override (keys must be "
                   f"identifiers: letters, digits, _ or -, not starting with a digit)",
                   "rename the key, or set it with --skyrl_override in a form Hydra accepts")


def _engines_after_overrides(value: Any, overrides: Iterable[str]) -> int | None:
    engines = value if isinstance(value, int) and not isinstance(value, bool) else None
    for override in overrides:
        match = _ENGINES_OVERRIDE_RE.fullmatch(override.strip())
        if match:
            engines = int(match.group(1))
    return engines
