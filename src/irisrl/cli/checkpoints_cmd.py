"""`irisrl checkpoints JOB [--keep N] [--yes] [--json]`: parse -> ops.checkpoints -> render."""

from __future__ import annotations

import json
import sys
from typing import Any, Mapping

import click

from irisrl.cli.options import flag, json_flag
from irisrl.util.exitcodes import Exit
from irisrl.util.sizes import format_bytes

EPILOG = """\b
Examples:
  irisrl checkpoints /alice/dense8b-r1
  irisrl checkpoints dense8b-r1 --keep 2           # dry run: what would be deleted
  irisrl checkpoints dense8b-r1 --keep 2 --yes     # delete it
  irisrl checkpoints dense8b-r1 --json

\b
Statuses: latest (the latest complete save: latest_ckpt_global_step.txt names it and it holds
trainer_state.pt; never deleted), complete (an older full save), superseded (an older dir
without trainer_state.pt: a save that died), unfinished (newer than the marker: a save in
progress or one that died mid-save; reported, never deleted).

\b
Exit codes: 0 listed / pruned, 1 refused, 2 the run is not in the ledger, 3 the store did
not answer, 64 usage error.
"""


@click.command("checkpoints", epilog=EPILOG, context_settings={"max_content_width": 100})
@click.argument("job")
@flag("keep", type=int, default=None, metavar="N", help="Prune to the N newest complete checkpoints (dry run without --yes).")
@click.option("--yes", is_flag=True, help="Really delete what --keep would delete.")
@json_flag
def checkpoints(job: str, keep: int | None, yes: bool, as_json: bool) -> None:
    """List a run's trainer checkpoints in the store, name the latest complete one, prune to --keep N."""
    from irisrl.ops.checkpoints import checkpoints as run_checkpoints

    if yes and keep is None:
        raise click.UsageError("--yes deletes what --keep N would delete: pass --keep N as well")
    result = run_checkpoints(job, keep=keep, yes=yes)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        _render(result.to_dict())
    raise click.exceptions.Exit(int(result.exit_code) or Exit.OK)


def _size(n: int | None) -> str:
    return "-" if n is None else format_bytes(n)


def _render(data: Mapping[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    console.print(f"{data['job_id']}: checkpoints under {data['ckpt_path']}")
    prune = data.get("prune") or {}
    fate = {c["step"]: ("delete" if not prune.get("executed") else "deleted") for c in prune.get("delete", [])}
    fate.update({c["step"]: "keep" for c in prune.get("kept", [])})
    fate.update({c["step"]: "reported" for c in prune.get("reported", [])})
    table = Table("step", "status", "size", "path", *(["prune"] if prune else []))
    for c in data["checkpoints"]:
        table.add_row(str(c["step"]), c["status"], _size(c["size"]), c["path"],
                      *([fate.get(c["step"], "keep")] if prune else []))
    console.print(table)
    latest = data["latest_complete"]
    console.print(f"latest complete: global_step_{latest['step']}" if latest else "latest complete: none")
    for note in data["notes"]:
        console.print(f"note: {note}")
    if prune:
        n, freed = len(prune["delete"]), _size(prune["freed_bytes"])
        if prune["executed"]:
            console.print(f"pruned to --keep {prune['keep']}: deleted {n} checkpoint(s), {freed}")
        else:
            console.print(f"dry run, --keep {prune['keep']}: would delete {n} checkpoint(s), {freed}; "
                          "nothing deleted (add --yes)")
