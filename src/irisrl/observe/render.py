"""Text rendering of a health report: the ladder as a table, then the verdict and its
reasons, and last the cause of death with its fix (what an operator reads first on a
terminal is the bottom)."""

from __future__ import annotations

from typing import Any

from irisrl.observe.ladder import UNNAMED, HealthReport

CAUSE_REASON = "cause of death: "   # ladder.evaluate's first reason when a cause killed the run
STATUS_STYLE = {"pass": "green", "fail": "bold red", "pending": "yellow", "n/a": "dim"}


def _throughput_line(report: HealthReport) -> str:
    tp = report.throughput
    if not tp.get("engines_reporting"):
        return "throughput: no recent vLLM stats"
    return (f"throughput: {tp['gen_tokens_per_s']} gen tok/s, running {tp['running']}, waiting {tp['waiting']}, "
            f"{tp['engines_reporting']} engine(s) reporting")


def render_health(report: HealthReport, console: Any, title: str | None = None,
                  trials_unknown: str = "no --trials-dir") -> None:
    """Print `report` on a rich Console. `trials_unknown`: why trials completed is unknown."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title) if title else None, show_lines=False, expand=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("rung", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("evidence", overflow="fold")
    for r in report.rungs:
        table.add_row(str(r.rung), r.name, Text(r.status, style=STATUS_STYLE.get(r.status, "")), Text(r.evidence))
    console.print(table)
    console.print(Text(_throughput_line(report)))
    steps = "?" if report.global_step is None else str(report.global_step)
    trials = f"unknown ({trials_unknown})" if report.trials_completed is None else str(report.trials_completed)
    console.print(Text(f"phase: {report.phase}   global step: {steps}   trials completed: {trials}"))
    for counts in (report.trial_steps or [])[-3:]:     # reward-0 attribution, the latest steps
        console.print(Text(f"  {counts.evidence()}"))
    style = "bold red" if report.kill else "bold green"
    console.print(Text(f"verdict: {report.verdict}", style=style))
    closing = cause_lines(report)
    for reason in report.reasons:
        if not (closing and reason.startswith(CAUSE_REASON)):   # printed in full below
            console.print(Text(f"  - {reason}"))
    for line, style in unrecognized_lines(report):
        console.print(Text(line, style=style))
    for line, style in closing:
        console.print(Text(line, style=style))


UNRECOGNIZED_SHOWN = 3


def unrecognized_lines(report: HealthReport) -> list[tuple[str, str]]:
    """The safety net's top entries (observe/unrecognized.py): error lines no cause names."""
    rows = [u for u in report.unrecognized if u["status"] != "teardown"]   # after the run's end: not warnings
    if not rows:
        return []
    more = f"; {len(rows) - UNRECOGNIZED_SHOWN} more in health --json" if len(rows) > UNRECOGNIZED_SHOWN else ""
    out = [(f"error lines no cause names ({len(rows)} signature(s){more}):", "yellow")]
    for u in rows[:UNRECOGNIZED_SHOWN]:
        loc = where(u["first"])
        out.append((f"  {u['count']}x {u['status']}" + (f" ({loc})" if loc else "") + f": {u['first']['line']}", ""))
    return out


def where(cause: dict[str, Any]) -> str:
    """`rank 3, 2026-12-02T10:02:20Z` (whatever of the two is known)."""
    parts = [f"rank {cause['rank']}" if cause.get("rank") is not None else "", cause.get("time") or ""]
    return ", ".join(p for p in parts if p)


def cause_lines(report: HealthReport) -> list[tuple[str, str]]:
    """The closing lines: the cause of death (observe/causes.py) and its fix, on a KILL."""
    from irisrl.observe.causes import BY_KIND

    death = report.cause_of_death
    if death is not None and death.get("guessed") == UNNAMED:
        # the catch-all made from the safety net's entry: an error no rule names, its process ended on it
        loc = where(death)
        return [("cause of death: crashed on an error the catalogue does not name" + (f" at {loc}" if loc else ""),
                 "bold red"), (f"  {death['line']}", "")]
    if death is None:
        if report.kill:
            return [("cause of death: not one the catalogue names; the reasons above are the evidence", "bold red")]
        return []
    title = BY_KIND[death["kind"]].title if death["kind"] in BY_KIND else death["kind"]
    loc = where(death)
    guess = f", guessed by {death['guessed']}" if death.get("guessed") else ""   # named by words, not a rule
    lines = [(f"cause of death: {death['kind']} ({title}{guess})" + (f" at {loc}" if loc else ""), "bold red"),
             (f"  {death['line']}", ""), (f"fix: {death['fix']}", "bold")]
    others: dict[str, set[str | None]] = {}
    for c in report.causes:
        if c["kind"] != death["kind"] and c.get("guessed") != UNNAMED:   # (the net's entries are listed above)
            others.setdefault(f"{c['kind']} ({c['status']})", set()).add(c["rank"])
    if others:
        seen = "; ".join(f"{k} on {len(r)} rank(s)" for k, r in others.items())
        lines.insert(2, (f"  also seen (health --json lists each): {seen}", ""))
    return lines
