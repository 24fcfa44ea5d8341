"""Render findings and the GPU budget for people (rich, grouped by severity) and machines
(one JSON object). Shared by `validate`, the error path of `launch --dry-run` and the check of
`port` / `smoke-config`. The findings come sorted from ops/ (errors, warnings, info)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable, Mapping, TextIO

if TYPE_CHECKING:
    from irisrl.ops.types import Budget, Finding

SEVERITIES = ("error", "warning", "info")
_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_TITLE = {"error": "Errors", "warning": "Warnings", "info": "Info"}


def printable(text: str) -> str:
    """Text any UTF-8 stream can write: lone surrogates (YAML allows them) become escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def make_console(file: TextIO | None = None, width: int | None = None) -> Any:
    from rich.console import Console

    return Console(file=file, width=width, highlight=False, soft_wrap=True, emoji=False)


def counts(findings: Iterable["Finding"]) -> dict[str, int]:
    out = {s: 0 for s in SEVERITIES}
    for f in findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def render_findings(findings: Iterable["Finding"], console: Any) -> None:
    """Findings grouped by severity, one per line: rule ID, key path, message, fix."""
    from rich.markup import escape

    ordered = list(findings)
    for sev in SEVERITIES:
        group = [f for f in ordered if f.severity == sev]
        if not group:
            continue
        console.print(f"[{_STYLE[sev]}]{_TITLE[sev]} ({len(group)})[/]")
        width = max(len(f.rule) for f in group)
        for f in group:
            console.print(f"  [{_STYLE[sev]}]{escape(printable(f.rule.ljust(width)))}[/]  "
                          f"[bold]{escape(printable(f.path))}[/]: {escape(printable(f.message))}  "
                          f"[dim]fix:[/] {escape(printable(f.fix))}")


def render_budget(budget: "Budget", console: Any) -> None:
    """The GPU budget as an aligned table, then the sum behind the node count."""
    from rich.table import Table

    def show(value: Any) -> str:
        return "-" if value is None else str(value)

    d = budget.to_dict()
    table = Table(title="GPU budget", title_justify="left", show_header=True, header_style="bold")
    table.add_column("item")
    table.add_column("value", justify="right")
    rows = (("policy GPUs", d["policy_gpus"]), ("ref GPUs", d["ref_gpus"]), ("engine GPUs", d["engine_gpus"]),
            ("total GPUs", d["total_gpus"]), ("GPUs per node", d["gpus_per_node"]),
            ("inference engines", d["num_inference_engines"]), ("nodes required", d["num_nodes"]),
            ("nodes requested", d["requested_nodes"]))
    for name, value in rows:
        table.add_row(name, show(value))
    console.print(table)
    from rich.markup import escape

    console.print(f"  {escape(budget.describe())}")


def render_summary(findings: Iterable["Finding"], console: Any) -> None:
    n = counts(findings)
    tail = f"{n['warning']} warning(s), {n['info']} info"
    if n["error"]:
        console.print(f"[bold red]FAILED[/]: {n['error']} error(s), {tail}")
    else:
        console.print(f"[bold green]OK[/]: no errors, {tail}")


def render_text(findings: Iterable["Finding"], budget: "Budget | None", console: Any, title: str | None = None) -> None:
    findings = list(findings)
    if title:
        from rich.markup import escape

        console.print(f"[bold]{escape(printable(title))}[/]")
    render_findings(findings, console)
    if budget is not None:
        render_budget(budget, console)
    render_summary(findings, console)


def dumps(payload: Mapping[str, object]) -> str:
    return printable(json.dumps(payload, indent=2, ensure_ascii=False))
