"""The fit report as aligned tables (gang, groups, holders, exclusions, verdict): printed by
`irisrl fit` and by `launch` when the fit gate refuses a gang (ops/fit_gate.py)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from irisrl.ops.types import FitReport

VERDICT_STYLE = {"fits": "green", "queues": "yellow", "never": "red", "unknown": "magenta"}


@contextlib.contextmanager
def tables_on_refusal() -> Iterator[None]:
    """A command that passes the fit gate (launch, export): when it refuses the gang, the report's
    tables are shown before the refusal itself (the CLI prints its message and exit code)."""
    from irisrl.ops.fit_gate import FitRefused

    try:
        yield
    except FitRefused as refused:
        render_report(refused.report)
        raise


def render_report(report: "FitReport", console: Any = None) -> None:
    from rich.console import Console

    console = console or Console(highlight=False, soft_wrap=False)
    req = report.request
    console.print(f"gang: {req.describe()}")
    if report.groups:
        console.print(_groups_table(report))
    if report.holders:
        console.print(_holders_table(report))
    if report.exclusions:
        console.print(_exclusions_table(report))
    for note in report.notes:
        console.print(f"note: {note}")
    for fix in report.fixes:
        console.print(f"fix:  {fix}")
    style = VERDICT_STYLE[report.verdict]
    console.print(f"[{style}]{report.verdict.upper()}[/{style}]: {report.summary}")
    console.print(f"[dim]from {report.source or 'a recorded state'} ({report.rpcs} controller calls)[/dim]")


def _table(*columns: str) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, name in enumerate(columns):
        table.add_column(name, justify="right" if i and name != "held by" else "left")
    return table


SHOWN_GROUPS = 8


def _groups_table(report: "FitReport") -> Any:
    """The groups that could ever hold the gang (all of them, up to SHOWN_GROUPS, when none can)."""
    need = report.request.nodes
    able = [g for g in report.groups if g.fit_empty >= need]
    rows = (able or sorted(report.groups, key=lambda g: -g.fit_empty))[:SHOWN_GROUPS]
    table = _table(report.request.group_by or "group", "nodes", "free now", "big enough", "held by")
    table.caption = _groups_caption(report, able, rows)
    for g in rows:
        table.add_row(g.group, str(g.nodes), f"{g.fit_now}/{need}", str(g.fit_empty), ", ".join(g.holders) or "-")
    return table


def _groups_caption(report: "FitReport", able: list[Any], rows: list[Any]) -> str:
    rest = len(report.groups) - len(rows)
    if not rest:
        return ""
    if able:
        small = len(report.groups) - len(able)
        return f"{small} more {report.request.group_by or 'group'}(s) can never hold {report.request.nodes} such nodes"
    return f"{rest} more, smaller"


def _holders_table(report: "FitReport") -> Any:
    table = _table("holding job", "state", "nodes", "age")
    for h in report.holders:
        table.add_row(h["job_id"], h["state"], str(h["nodes"]), _age(h["age_s"]))
    return table


def _exclusions_table(report: "FitReport") -> Any:
    table = _table("resource", "needed", "nodes that fit", "of")
    for e in report.exclusions:
        table.add_row(e.resource, e.need, str(e.fits), str(e.of))
    return table


def _age(seconds: int | None) -> str:
    if seconds is None:
        return "?"
    hours, rest = divmod(int(seconds), 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


# ------------------------------------------------------------------------------ the launch gate
