"""`irisrl finish JOB`: parse, ONE ops call (ops/finish.py: the evidence bundle), render."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.target_opts import target_options

if TYPE_CHECKING:
    from irisrl.ops.finish import Bundle

EPILOG = """\b
Examples:
  irisrl finish /alice/dense8b-r1                 # -> ./traces/alice_dense8b-r1_<UTC stamp>/finish/
  irisrl finish dense8b-r1 --out /tmp/r1-evidence --json
  irisrl finish /tester/smoke-1 --local --json
  irisrl launch --local --rl_config examples/configs/smoke_colocated.yaml --num-nodes 2 --finish

\b
The bundle: logs/ (every task and attempt's log, combined.log, manifest.json: as `irisrl
logs`), health.json (the `irisrl health JOB --json` document, judged now), launch.json (the
ledger row and masked plan of the launch; the launch summary with `launch --finish`),
trials.json (Harbor trials by kind and step), flight-recorder/ (the NCCL flight-recorder
dumps the runtime copied to the store: task-<r>.attempt-<a>/<file>). A remote run's bundle
is also copied to <rendezvous dir>/evidence/ in its store. --json prints
{"bundle": DIR, "items": [{"path", "size"}, ...], "stored", "verdict", "cause", "problems"}.
Secret values (the allowlist's, from the environment and $DC_AGENT_SECRET_ENV) are saved as ***.

\b
Exit codes: 0 everything gathered, 2 no such job, 3 something could not be gathered (listed),
64 usage error.
"""


@click.command("finish", epilog=EPILOG, context_settings={"max_content_width": 100})
@click.argument("job")
@flag("out", default=None, metavar="DIR", help="Bundle directory [default: ./traces/<job>_<UTC stamp>/finish/].")
@json_flag
@target_options
@click.pass_context
def finish(ctx: click.Context, /, job: str, out: str | None, as_json: bool, local: bool,
           controller_url: str | None, cluster_config: str | None) -> None:
    """Gather a run's evidence (logs, health, launch and trials summaries, NCCL dumps) in one place."""
    from irisrl.ops.finish import finish as build

    bundle = build(job, out=out, local=local, controller_url=controller_url, cluster_config=cluster_config)
    render(bundle, as_json)
    ctx.exit(bundle.exit_code)


def render(bundle: Bundle, as_json: bool) -> None:
    """The bundle as JSON, or a table of its files (also `launch --finish`'s rendering)."""
    if as_json:
        click.echo(json.dumps(bundle.to_dict(), indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console: Any = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    table = Table()
    table.add_column("file", overflow="fold")
    table.add_column("bytes", justify="right", no_wrap=True)
    for item in bundle.items:
        table.add_row(Text(item["path"]), f"{item['size']:,}")
    console.print(Text(f"evidence bundle of {bundle.job_id}: {bundle.bundle}"), soft_wrap=True)
    console.print(table)
    console.print(Text(f"health: {bundle.verdict or 'not judged'}" + (f" ({bundle.cause})" if bundle.cause else "")
                       + (f"; store copy: {bundle.stored}" if bundle.stored else "")))
    for problem in bundle.problems:
        console.print(Text("not gathered: ", style="bold red") + Text(problem))
