"""`irisrl launch`: build the plan (ops.plan_launch: the same checks as validate, plus the
launch rules), then print it (--dry-run) or submit it (ops.launch, imported only when
submitting). The flags are cli/launch_options.py."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

import click

from irisrl.cli.launch_options import LaunchArgs, launch_options, options_from_flags
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.ops.types import LaunchPlan

EPILOG = """\b
Examples:
  irisrl launch --rl_config examples/configs/dense8b_disagg.yaml --num-nodes 7 \\
      --model_path Qwen/Qwen3-8B --train_data '["DCAgent/tasks"]' \\
      --workspace examples/workspace --job-name dense8b-r1 --dry-run
  irisrl launch --rl_config examples/configs/dense8b_disagg.yaml --num-nodes 7 --dry-run --json
  irisrl launch --local --rl_config examples/configs/smoke_colocated.yaml --num-nodes 2
  irisrl launch --rl_config cfg.yaml --skyrl_override '++trainer.max_steps=2' --rehearse
  irisrl launch --resume /alice/dense8b-r1 --dry-run        # JOB's recorded config and flags
  irisrl launch --resume /alice/dense8b-r1 --skyrl_override '++trainer.max_steps=400'
  irisrl launch --local --rl_config examples/configs/smoke_colocated.yaml --num-nodes 2 --finish

\b
Exit codes: 0 plan ok / submitted, 1 errors found or the job failed, 3 could not
determine, 64 usage error. A dry run prints "not submitting" as its last line.
"""


@click.command("launch", epilog=EPILOG, context_settings={"max_content_width": 100})
@launch_options
@click.option("--finish", "finish", is_flag=True,
              help="When the followed job ends, write its evidence bundle (as `irisrl finish JOB`).")
def launch(finish: bool, **kwargs: Any) -> None:
    """Check a config and launch it as a gang of whole 8-GPU nodes (or --dry-run to print the plan)."""
    from irisrl.ops.planning import plan_launch

    entered = time.time()  # phase timings of the end-of-run summary
    args = options_from_flags(kwargs)
    if finish and args.show.no_wait:
        raise click.UsageError("--finish needs the launch to follow the job to its end: drop --no-wait "
                               "(or run `irisrl finish JOB` once it ended)")
    planned = plan_launch(args.inputs, args.target, dry_run=args.show.dry_run)   # a --resume plan too
    marks = {"entered": entered, "validated": time.time()}
    width = _width()
    if planned.plan is None:
        if args.show.as_json:   # a config that did not load has no budget (null, as validate --json says)
            click.echo(planned.to_json())
        else:
            from irisrl.cli.render_findings import make_console, render_findings

            render_findings(planned.findings, make_console(width=width))
        raise click.exceptions.Exit(Exit.FAIL)
    if args.show.dry_run:
        click.echo(planned.to_json() if args.show.as_json else planned.to_text(width), nl=args.show.as_json)
        raise click.exceptions.Exit(Exit.OK)
    raise click.exceptions.Exit(_submit(planned.plan, args, marks, finish))


def _width() -> int | None:
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 20 else None


def _submit(plan: "LaunchPlan", args: LaunchArgs, marks: dict[str, float], finish: bool = False) -> int:
    from irisrl.cli.render_fit import tables_on_refusal
    from irisrl.cli.render_summary import render_summary
    from irisrl.ops.launcher import LaunchSettings, launch as launch_plan

    settings = LaunchSettings(args.target, no_wait=args.show.no_wait, policy=args.policy,
                              series_explicit=bool(args.inputs.series), allow_queue=args.allow_queue,
                              secrets_env=args.inputs.secrets_env, marks=marks, on_summary=render_summary,
                              on_end=_bundle_writer(args.show.as_json) if finish else None)
    with tables_on_refusal():
        return launch_plan(plan, settings).exit_code


def _bundle_writer(as_json: bool) -> Any:
    """launch --finish: the evidence bundle of the ended job (ops/finish.py), rendered as
    `irisrl finish` does; a bundle that cannot be made is said, the launch's exit code stands."""
    def write(backend: Any, job_id: str, summary: Any) -> None:
        from irisrl.cli.finish_cmd import render
        from irisrl.ops.finish import build_bundle
        from irisrl.util.errors import IrisrlError

        try:
            render(build_bundle(backend, job_id, summary=summary.to_dict() if summary else None), as_json)
        except IrisrlError as exc:
            click.echo(f"warning: no evidence bundle for {job_id}: {exc.message}", err=True)
    return write
