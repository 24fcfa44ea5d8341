"""A rehearsal's launch summary (ops/summary.LaunchSummary) for people: phase timings, the
placement map or the group that did not place, the health ladder on the collected logs,
where the logs were saved and the result. Plus the spinner that shows what a launch waits
for (ops/output.waiting)."""

from __future__ import annotations

import os
from typing import Any

from irisrl.util.exitcodes import Exit


def summary_console() -> Any:
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 120   # piped or captured: wide enough that the tables do not fold
    return console


def render_summary(summary: Any, console: Any = None) -> None:
    from rich.text import Text

    console = console or summary_console()
    clock, code = summary.clock, summary.exit_code
    console.print(Text(f"\nSummary of {summary.job_id}", style="bold"))
    console.print(phase_table(clock))
    _render_placement(console, clock)
    if summary.report is not None:
        from irisrl.ops.observing import render_health

        render_health(summary.report, console, title="health ladder (collected logs)")
    for problem in summary.problems:
        console.print(Text(f"logs: {problem}", style="yellow"))
    console.print(Text(f"logs saved: {summary.out}  (combined.log, task-<i>.attempt-<a>.log, summary.json)"))
    outcome = "SUCCEEDED" if code == Exit.OK else f"{(clock.state or 'failed').upper()} (exit {int(code)})"
    console.print(Text(f"result: {outcome}", style="bold green" if code == Exit.OK else "bold red"))


def phase_table(clock: Any) -> Any:
    from rich.table import Table

    table = Table(title="phases", title_justify="left")
    table.add_column("phase", no_wrap=True)
    table.add_column("seconds", justify="right", no_wrap=True)
    table.add_column("note")
    for phase in clock.phases():
        table.add_row(phase.name, "-" if phase.seconds is None else f"{phase.seconds:.1f}", phase.note)
    total = clock.total()
    table.add_row("total", "-" if total is None else f"{total:.1f}", "", style="bold")
    return table


def _render_placement(console: Any, clock: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    if clock.placement_failed:
        console.print(Text(f"rehearsal failed: {clock.placement_failed}", style="bold red"))
    pmap = clock.placement
    if not pmap:
        if not clock.placement_failed:
            console.print(Text("placement map: none (the rehearsal printed no PLACEMENT_MAP line)", style="yellow"))
        for err in clock.errors[:5]:
            console.print(Text(err, style="red"))
        return
    table = Table(title="placement map (Ray, this gang)", title_justify="left")
    table.add_column("node", no_wrap=True)
    table.add_column("GPUs used", justify="right", no_wrap=True)
    table.add_column("groups (role): GPUs")
    for node in pmap.get("nodes", []):
        groups = ", ".join(f"{g.get('name')} ({g.get('role')}): {g.get('gpus', 0):g}" for g in node.get("groups", []))
        table.add_row(str(node.get("node")), f"{node.get('gpus_used', 0):g}/{node.get('gpus_total', 0):g}", groups or "-")
    console.print(table)


class Spinner:
    """ops/output's `status` sink for a terminal: a rich status line on stderr that shows what
    a long wait waits for; nothing when stderr is not a terminal."""

    def __init__(self) -> None:
        self._status: Any = None
        self._console: Any = None

    def __call__(self, text: str | None) -> None:
        if text is None:
            if self._status is not None:
                self._status.stop()
                self._status = None
            return
        if self._status is not None:
            self._status.update(text)
        else:
            self._start(text)

    def _start(self, text: str) -> None:
        from rich.console import Console

        self._console = self._console or Console(stderr=True)
        if self._console.is_terminal:
            self._status = self._console.status(text)
            self._status.start()
