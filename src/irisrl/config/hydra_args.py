"""The rl config YAML -> SkyRL Hydra overrides (`python -m skyrl_train.entrypoints.main_base ARGS`).

Every key of trainer/generator/data/environment (and terminal_bench, as terminal_bench_config)
becomes one `++dotted.key=value` override (`++` adds or replaces, so fork-only keys work too);
config_groups become `+group=name`; the launcher's facts (job name, paths, --gpus_per_node,
--model_path, --train_data, derived engine count) are written into the tree before
flattening; --skyrl_override values come last, in order, so the last one wins.

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
from typing import Any, Iterable, Mapping

from irisrl.rules.base import Finding

RULE_UNFORWARDED = "CFG-UNFORWARDED"
DEFAULT_ENTRYPOINT = "main_base"
ENTRYPOINT_PACKAGE = "skyrl_train.entrypoints"

# YAML section -> Hydra root, in the order the arguments are written.
FORWARDED_SECTIONS: dict[str, str] = {
    "trainer": "trainer",
    "generator": "generator",
    "data": "data",
    "environment": "environment",
    "terminal_bench": "terminal_bench_config",
}
# Top-level keys irisrl itself consumes (not Hydra arguments, but not dropped either).
CONSUMED_KEYS: dict[str, str] = {
    "extra_env": "pod environment",
    "config_groups": "Hydra config groups (+group=name)",
    "entrypoint": "the SkyRL entrypoint module",
}
# Blocks another rule already reports (CFG-CONTAINER): not reported twice.
CONTAINER_KEYS = frozenset({"container", "sif", "apptainer", "singularity", "conda", "binds", "pydeps"})

# A key path element Hydra accepts unquoted (grammar ID); dict-literal keys likewise.
_KEY_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$\-]*$")
# Strings safe to write unquoted: they parse back as the same string.
_PLAIN_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-./:]*$")
_RESERVED = frozenset({"true", "false", "null", "nan", "inf"})
_ENGINES_OVERRIDE_RE = re.compile(r"^\+{0,2}generator\.num_inference_engines=(\d+)$")
_ENTRYPOINT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class UnspellableKey(ValueError):
    """A mapping key that Hydra's override grammar cannot express."""


@dataclass(frozen=True)
class HydraInputs:
    """Launcher facts written into the config before it becomes Hydra arguments."""
    job_name: str
    artifacts_root: str               # run_name/ckpt/export nulls are filled under this
    gpus_per_node: int
    model_path: str | None = None
    train_data: tuple[str, ...] | None = None
    overrides: tuple[str, ...] = ()
    derived_num_inference_engines: int | None = None  # colocated + null: from the budget


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


def _walk(node: Any, path: str, leaves: list, unspellable: list) -> None:
    if not isinstance(node, Mapping) or not node:
        _leaf(path, node, leaves, unspellable)
        return
    for key, child in node.items():
        if isinstance(key, str) and _KEY_RE.fullmatch(key) and key.lower() not in _RESERVED:
            _walk(child, f"{path}.{key}", leaves, unspellable)
        else:
            unspellable.append(f"{path}.{key}")


def _leaf(path: str, value: Any, leaves: list, unspellable: list) -> None:
    try:
        format_value(value)
    except UnspellableKey as exc:
        unspellable.append(f"{path} (key {exc})")
        return
    leaves.append((path, value))


# ---------------------------------------------------------------- the whole config


def entry_module(raw: Mapping[str, Any]) -> str:
    """`skyrl_train.entrypoints.<entrypoint>`: main_base unless the config names another."""
    name = raw.get("entrypoint")
    if isinstance(name, str) and _ENTRYPOINT_RE.fullmatch(name):
        return f"{ENTRYPOINT_PACKAGE}.{name}"
    return f"{ENTRYPOINT_PACKAGE}.{DEFAULT_ENTRYPOINT}"


def trainer_command(raw: Mapping[str, Any], hydra_args: Iterable[str], python: str = "python") -> tuple[str, ...]:
    return (python, "-m", entry_module(raw), *hydra_args)


def unforwarded_findings(raw: Mapping[str, Any]) -> list[Finding]:
    """Top-level keys that would not reach the trainer (CFG-UNFORWARDED, error)."""
    findings = []
    for key in raw:
        if key in FORWARDED_SECTIONS or key in CONSUMED_KEYS or str(key).lower() in CONTAINER_KEYS:
            continue
        findings.append(Finding(
            RULE_UNFORWARDED, "error", str(key),
            f"top-level section {key!r} is not forwarded to SkyRL (irisrl forwards "
            f"{', '.join(FORWARDED_SECTIONS)}; consumes {', '.join(CONSUMED_KEYS)})",
            "move each of its keys to the section SkyRL reads it from (trainer:, generator:, data:, "
            "environment: or terminal_bench:), or delete the block"))
    entry = raw.get("entrypoint")
    if entry is not None and not (isinstance(entry, str) and _ENTRYPOINT_RE.fullmatch(entry)):
        findings.append(Finding(
            RULE_UNFORWARDED, "error", "entrypoint",
            f"entrypoint {entry!r} is not a module name under {ENTRYPOINT_PACKAGE}",
            f"use a module name such as {DEFAULT_ENTRYPOINT} or terminal_bench"))
    findings.extend(_section_type_findings(raw))
    return findings


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


def _is_group_map(groups: Any) -> bool:
    return isinstance(groups, Mapping) and all(
        isinstance(k, str) and _KEY_RE.fullmatch(k) and isinstance(v, str) and _PLAIN_RE.fullmatch(v)
        for k, v in groups.items())


def resolve_sections(raw: Mapping[str, Any], inputs: HydraInputs) -> dict[str, dict[str, Any]]:
    """The forwarded sections with the launcher's facts written in (a deep copy)."""
    sections: dict[str, dict[str, Any]] = {}
    for yaml_key, root in FORWARDED_SECTIONS.items():
        value = raw.get(yaml_key)
        if isinstance(value, Mapping):
            sections[root] = copy.deepcopy(dict(value))
        elif yaml_key in ("trainer", "generator", "data"):
            sections[root] = {}  # the launcher writes into these
    _apply_launcher_facts(sections, inputs)
    return sections


def _apply_launcher_facts(sections: dict[str, dict[str, Any]], inputs: HydraInputs) -> None:
    trainer, generator, data = sections["trainer"], sections["generator"], sections["data"]
    if trainer.get("strategy") is None:
        trainer["strategy"] = "megatron"  # the runbook's default for Iris configs
    if trainer.get("run_name") is None:
        trainer["run_name"] = inputs.job_name
    root = inputs.artifacts_root.rstrip("/")
    if trainer.get("ckpt_path") is None:
        trainer["ckpt_path"] = f"{root}/ckpts"
    if trainer.get("export_path") is None:
        trainer["export_path"] = f"{root}/exports"
    placement = _subtree(trainer, "placement")
    for role in ("policy", "ref", "critic"):
        key = f"{role}_num_gpus_per_node"
        if role != "critic" or key in placement:
            placement[key] = inputs.gpus_per_node
    if inputs.model_path:
        _subtree(_subtree(trainer, "policy"), "model")["path"] = inputs.model_path
    if inputs.train_data is not None:
        data["train_data"] = list(inputs.train_data)
    if generator.get("num_inference_engines") is None and inputs.derived_num_inference_engines:
        generator["num_inference_engines"] = inputs.derived_num_inference_engines


def _subtree(tree: dict[str, Any], key: str) -> dict[str, Any]:
    if not isinstance(tree.get(key), dict):
        tree[key] = {}
    return tree[key]


def forwarding_findings(raw: Mapping[str, Any]) -> list[Finding]:
    """Everything in `raw` that would not reach the trainer: unforwarded top-level keys and
    keys Hydra cannot spell (what rule CFG-UNFORWARDED reports)."""
    probe = HydraInputs(job_name="job", artifacts_root="/", gpus_per_node=1)
    return list(build_hydra_args(raw, probe).findings)


def build_hydra_args(raw: Mapping[str, Any], inputs: HydraInputs) -> HydraResult:
    """All Hydra arguments for this config and launch, plus what could not be forwarded."""
    findings = unforwarded_findings(raw)
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
