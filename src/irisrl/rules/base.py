"""The shape of a rule and of what it finds. Rules never print: the CLI renders findings."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable, Literal

Severity = Literal["error", "warning", "info"]
Scope = Literal["config", "launch", "live"]  # validate runs "config"; dry-run adds "launch"; launch adds "live"
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    path: str      # YAML key path, e.g. "generator.num_inference_engines", or a flag "--num-nodes"
    message: str   # what is wrong, with the arithmetic or the value
    fix: str       # how to fix it

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    title: str
    scope: Scope
    check: Callable[[Any], Iterable[Finding]]

    def finding(self, path: str, message: str, fix: str, severity: Severity | None = None) -> Finding:
        return Finding(self.id, severity or self.severity, path, message, fix)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (SEVERITY_ORDER[f.severity], f.rule, f.path))
