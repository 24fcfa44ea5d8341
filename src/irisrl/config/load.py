"""Read an RL config YAML into a plain mapping. Never raises on bad input: a missing,
unreadable or non-mapping file becomes a CFG-YAML finding, so `validate` can report it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irisrl.rules.base import Finding

REQUIRED_SECTIONS: tuple[str, ...] = ("trainer", "generator")
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


def _safe_load(text: str) -> Any:
    import yaml  # PyYAML; the C loader when available (faster on big configs)

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader


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
