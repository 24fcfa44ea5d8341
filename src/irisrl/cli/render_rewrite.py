"""What `port` and `smoke-config` show: the list of changes (text table or one JSON object),
the validation of the written file, or the refusal. The work is ops/rewrite.py."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable, Mapping

import click

from irisrl.util.errors import IrisrlError

if TYPE_CHECKING:
    from irisrl.ops.rewrite import Rewritten


def rewrite_or_refuse(ctx: click.Context, src: str, as_json: bool, rewrite: Callable[[], "Rewritten"]) -> "Rewritten":
    """What `rewrite()` wrote and found. A refusal writes nothing: raised for text output
    (exit code table), or one JSON object and the error's exit code with --json."""
    try:
        return rewrite()
    except IrisrlError as err:
        if not as_json:
            raise
        emit_json(refusal_json(src, err))
        ctx.exit(err.exit_code)
        raise   # unreachable: ctx.exit raises


def render_text(title: str, done: "Rewritten", out: str, footer: list[str]) -> None:
    """The changes in aligned columns (one per line; long messages run on rather than
    wrap), then the validation findings as `validate` renders them."""
    from irisrl.cli import render_findings as render

    changes, check = done.changes, done.check
    click.echo(f"{title}: {len(changes)} change(s)")
    rows = [("RULE", "PATH", "CHANGE")] + [(c.rule, c.path, c.message) for c in changes]
    rule_w = max(len(r[0]) for r in rows)
    path_w = max(len(r[1]) for r in rows)
    for rule_id, path, message in rows if changes else ():
        click.echo(f"  {rule_id:<{rule_w}}  {path:<{path_w}}  {message}")
    click.echo(f"wrote {out} (YAML, no comments)")
    console = render.make_console()
    console.print(f"[bold]validation of {out}[/]" if check.findings else f"validation of {out}: no findings")
    render.render_findings(check.findings, console)
    if check.budget is not None:
        console.print(f"budget: {check.budget.describe()}", markup=False)
    render.render_summary(check.findings, console)
    for line in footer:
        click.echo(line)


def emit_json(payload: Mapping[str, object]) -> None:
    click.echo(json.dumps(payload, indent=2, ensure_ascii=False))


def refusal_json(src: str, err: IrisrlError) -> dict[str, object]:
    return {"config": src, "ok": False, "written": False, "changes": [],
            "error": {"message": err.message, "fix": err.fix}}
