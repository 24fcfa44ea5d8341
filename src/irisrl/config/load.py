"""Read an RL config YAML into a plain mapping. Never raises on bad input: a missing,
unreadable or non-mapping file becomes a CFG-YAML finding, so `validate` can report it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irisrl.core.findings import Finding

REQUIRED_SECTIONS: tuple[str, ...] = ("trainer", "generator")
# Nodes the config may hold once its aliases are expanded. A real config has a few thousand;
# nested anchors ("billion laughs") load in milliseconds as shared references but expand to
# billions of nodes when the rules walk them (issue 16, D1).
MAX_EXPANDED_NODES = 100_000
_FIX_YAML = "pass an RL config YAML whose top level is a mapping (trainer:, generator:, data:, ...)"


@dataclass(frozen=True)
class LoadedConfig:
    path: str
    raw: dict[str, Any]                 # {} when the file could not be used
    text: str = ""
    sha256: str = ""
    findings: tuple[Finding, ...] = field(default_factory=tuple)  # CFG-YAML only

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


def _yaml_error(path: str, message: str, fix: str = _FIX_YAML) -> Finding:
    return Finding("CFG-YAML", "error", path, message, fix)


# `8e-6`, `1E5`: floats to OmegaConf/Hydra (which is how SkyRL reads the same YAML) and in
# YAML 1.2, but strings to PyYAML's YAML 1.1 resolver; read them as the trainer will.
_DOTLESS_FLOAT = r"^[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+$"
_LOADER: Any = None


def _loader() -> Any:
    global _LOADER
    if _LOADER is None:
        import re

        import yaml  # PyYAML; the C loader when available (faster on big configs)

        class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
            pass

        Loader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(_DOTLESS_FLOAT), list("-+0123456789"))
        _LOADER = Loader
    return _LOADER


def _safe_load(text: str) -> Any:
    import yaml

    return yaml.load(text, Loader=_loader())  # noqa: S506 - a safe loader


def parse_config_text(text: str, path: str = "<config>") -> LoadedConfig:
    """Parse YAML text; problems become CFG-YAML findings (never an exception)."""
    import yaml

    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    try:
        data = _safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return LoadedConfig(path, {}, text, digest, (_yaml_error(path, f"not valid YAML{where}: {problem}",
                                                                 "fix the YAML syntax at that line"),))
    except (ValueError, RecursionError) as exc:  # e.g. odd timestamps, absurd nesting
        return LoadedConfig(path, {}, text, digest, (_yaml_error(path, f"YAML could not be read: {exc}"),))
    too_big = _expansion_problem(data)
    if too_big:
        return LoadedConfig(path, {}, text, digest, (_yaml_error(
            path, too_big, "write the config out without nested anchors/aliases (*name)"),))
    if data is None:
        return LoadedConfig(path, {}, text, digest, (_yaml_error(path, "the config is empty"),))
    if not isinstance(data, dict):
        return LoadedConfig(path, {}, text, digest, (_yaml_error(
            path, f"the top level is a {type(data).__name__}, not a mapping"),))
    raw = {str(k): v for k, v in data.items()}
    missing = [s for s in REQUIRED_SECTIONS if s not in raw]
    findings = tuple(_yaml_error(s, f"required section `{s}:` is missing",
                                 f"add a top-level `{s}:` mapping (see examples/configs/)") for s in missing)
    return LoadedConfig(path, raw, text, digest, findings)


class _Cyclic(Exception):
    pass


def _expansion_problem(data: Any) -> str:
    """Why the loaded YAML cannot be walked (an alias cycle, or more than MAX_EXPANDED_NODES
    nodes once aliases are expanded), else "". Counts each shared node once: milliseconds."""
    try:
        size = _expanded_size(data, {})
    except _Cyclic:
        return "an alias refers to a node that contains it (a recursive structure)"
    except RecursionError:
        return "the YAML is nested too deeply to read"
    if size > MAX_EXPANDED_NODES:
        return (f"the YAML expands to more than {MAX_EXPANDED_NODES:,} nodes through its anchors and "
                f"aliases (nested *alias references): refused rather than walked")
    return ""


def _expanded_size(node: Any, memo: dict[int, int | None]) -> int:
    if not isinstance(node, (dict, list)):
        return 1
    key = id(node)
    if key in memo:
        seen = memo[key]
        if seen is None:  # still being counted: the node contains itself
            raise _Cyclic
        return seen
    memo[key] = None
    children = node.values() if isinstance(node, dict) else node
    total = 1
    for child in children:
        total += _expanded_size(child, memo)
        if total > MAX_EXPANDED_NODES:
            break   # big enough to refuse; no need for the exact (astronomic) figure
    memo[key] = total
    return total


def load_config(path: str | Path) -> LoadedConfig:
    """Load an RL config file. A missing or unreadable file is a CFG-YAML finding."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadedConfig(str(path), {}, findings=(_yaml_error(str(path), "config file not found",
                                                                   "check the path (relative to the current directory)"),))
    except (OSError, UnicodeDecodeError) as exc:
        return LoadedConfig(str(path), {}, findings=(_yaml_error(str(path), f"config file unreadable: {exc}",
                                                                   "pass a readable UTF-8 YAML file"),))
    return parse_config_text(text, str(path))
