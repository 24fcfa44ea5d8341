"""Test-only: build a launch plan past layout errors, so a test can submit a layout Ray cannot
place and watch the rehearsal fail. Production has no such path (no flag, no plan option):
this swaps plan/build.py's error test for one that ignores layout rule IDs, for one call."""

from __future__ import annotations

from typing import Any
from unittest import mock

LAYOUT_RULES = ("TOPO-", "ENG-", "MOE-", "DCP-", "R3-")


def build_plan_past_layout_errors(options: Any, target: Any = None, dry_run: bool = False) -> tuple[Any, list[Any], Any]:
    """build_plan(options, target, dry_run), with errors of the layout rules not stopping the plan."""
    from irisrl.core.target import Target

    from irisrl.plan import build

    real = build.has_errors

    def errors_besides_layout(findings: Any) -> bool:
        return real([f for f in findings if not f.rule.startswith(LAYOUT_RULES)])

    with mock.patch.object(build, "has_errors", errors_besides_layout):
        return build.build_plan(options, target or Target(), dry_run)


def bypassed_rules(findings: list[Any]) -> list[str]:
    return sorted({f.rule for f in findings if f.severity == "error"})
