"""`irisrl daytona snapshots [--purge] [--yes] [--json]`: parse, ONE ops call
(ops/daytona.py:snapshots), render."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from irisrl.cli.options import flag, json_flag
from irisrl.util.errors import UsageError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.ops.daytona import SnapshotReport


@click.group("daytona", context_settings={"max_content_width": 100})
def daytona() -> None:
    """Daytona (the sandboxes of Harbor rollouts): snapshot quota hygiene."""


@daytona.command("snapshots", epilog="""\b
Examples:
  irisrl daytona snapshots                  # the org's snapshots against the quota; what would go
  irisrl daytona snapshots --purge          # the same, as a dry run of the purge
  irisrl daytona snapshots --purge --yes    # delete stale harbor__* snapshots (idle > 2 h)
  irisrl daytona snapshots --json

\b
Only snapshots named harbor__* (made by Harbor) idle for more than 2 hours (since last
used, else since created) are deleted, by id; nothing else ever is. The key is
DAYTONA_RL_API_KEY (environment or --secrets-env / $DC_AGENT_SECRET_ENV; the file wins);
a generic DAYTONA_API_KEY alone is not used. DAYTONA_API_URL is honoured.
`irisrl launch` does the same purge before submitting a Daytona-backed run.

\b
Exit codes: 0 listed / purged, 1 a deletion failed, 3 skipped (no SDK, no key) or
Daytona unreachable, 64 usage error.
""")
@click.option("--purge", is_flag=True, help="Delete the stale Harbor snapshots (needs --yes; else a dry run).")
@click.option("--yes", is_flag=True, help="Confirm --purge.")
@flag("secrets-env", metavar="FILE", default=None,
      help="dotenv file with DAYTONA_RL_API_KEY (default: $DC_AGENT_SECRET_ENV).")
@json_flag
def snapshots(purge: bool, yes: bool, secrets_env: str | None, as_json: bool) -> None:
    """The RL org's Daytona snapshots against its quota; --purge --yes deletes the stale Harbor ones."""
    from irisrl.ops.daytona import snapshots as list_or_purge

    if yes and not purge:
        raise UsageError("--yes confirms --purge, which was not given", "irisrl daytona snapshots --purge --yes")
    report = list_or_purge(delete=purge and yes, secrets_env=secrets_env)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        _render(report, dry_run=purge and not yes)
    raise click.exceptions.Exit(_exit_code(report))


def _exit_code(report: SnapshotReport) -> int:
    if report["status"] == "skipped" or (report["status"] == "failed" and not report["snapshots"]):
        return Exit.UNKNOWN
    return Exit.FAIL if report["status"] == "failed" else Exit.OK


def _render(report: SnapshotReport, dry_run: bool) -> None:
    from rich.console import Console

    from irisrl.ops.daytona import summary_line

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    if report["snapshots"]:
        console.print(_table(report))
    if report["key"]:
        console.print(f"key {report['key']}, API {report['api_url'] or 'the SDK default'}", markup=False,
                      soft_wrap=True)
    console.print(f"daytona snapshots: {summary_line(report)}", markup=False, soft_wrap=True)
    if dry_run and report["would_purge"]:
        console.print(f"dry run: {report['would_purge']} would be deleted; add --yes to delete them", soft_wrap=True)


def _table(report: SnapshotReport) -> Any:
    from rich.table import Table

    hours = report["stale_after_s"] / 3600
    table = Table("name", "id", "last active (UTC)", "idle", "action",
                  title=f"{report['total']} snapshots (quota {report['quota']}; harbor__* idle > {hours:g} h go)",
                  title_justify="left")
    for row in report["snapshots"]:
        style = "red" if row["action"] in ("purged", "would purge", "failed") else None if row["harbor"] else "dim"
        table.add_row(row["name"], row["id"], row["last_active"][:19].replace("T", " "), _idle(row["idle_s"]),
                      row["action"], style=style)
    return table


def _idle(seconds: float) -> str:
    return f"{seconds / 60:.0f}m" if seconds < 7200 else f"{seconds / 3600:.1f}h" if seconds < 172800 \
        else f"{seconds / 86400:.0f}d"
