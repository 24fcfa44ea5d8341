"""The standing-constraint policy (runbook section 7) as data: TOML at
$IRISRL_HOME/policy.toml or --policy FILE; these defaults when absent.

    daytona_cap = 6                       # RUNNING Daytona-backed RL jobs per cluster
    daytona_name_patterns = ["*-rl-*"]    # fnmatch on job names launched by other tools
    concluded_series = ["a3"]             # series that must not be launched again
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from irisrl.util.errors import UsageError
from irisrl.util.paths import irisrl_home

DEFAULT_CAP = 6
DEFAULT_CONCLUDED = ("a3",)
KNOWN_KEYS = {"daytona_cap", "daytona_name_patterns", "concluded_series"}


@dataclass(frozen=True)
class Policy:
    daytona_cap: int = DEFAULT_CAP
    daytona_name_patterns: tuple[str, ...] = ()
    concluded_series: tuple[str, ...] = DEFAULT_CONCLUDED
    source: str = "defaults"
    notes: tuple[str, ...] = field(default_factory=tuple)


def default_policy_path() -> Path:
    return irisrl_home() / "policy.toml"


def load_policy(path: str | Path | None = None) -> Policy:
    """--policy FILE (must exist), else $IRISRL_HOME/policy.toml if present, else defaults."""
    explicit = path is not None
    target = Path(path) if path is not None else default_policy_path()
    if not target.exists():
        if explicit:
            raise UsageError(f"policy file {target} does not exist", "pass an existing TOML file to --policy")
        return Policy()
    try:
        data = tomllib.loads(target.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"policy file {target} is not valid TOML ({exc})",
                         "fix the file; keys: daytona_cap, daytona_name_patterns, concluded_series") from None
    return _from_dict(data, str(target))


def _from_dict(data: dict[str, object], source: str) -> Policy:
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise UsageError(f"policy file {source}: unknown key(s) {', '.join(unknown)}",
                         f"use only {', '.join(sorted(KNOWN_KEYS))}")
    cap = data.get("daytona_cap", DEFAULT_CAP)
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
        raise UsageError(f"policy file {source}: daytona_cap must be a non-negative integer, got {cap!r}",
                         "e.g. daytona_cap = 6")
    patterns = _str_list(data.get("daytona_name_patterns", []), "daytona_name_patterns", source)
    concluded = _str_list(data.get("concluded_series", list(DEFAULT_CONCLUDED)), "concluded_series", source)
    return Policy(cap, patterns, concluded, source)


def _str_list(value: object, key: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"policy file {source}: {key} must be a list of strings, got {value!r}",
                         f'e.g. {key} = ["a3"]')
    return tuple(value)
