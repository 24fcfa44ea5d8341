"""`irisrl launch`: build the plan (same checks as validate, plus the launch rules), then
print it (--dry-run) or submit it through the ops API (irisrl.ops.launch, imported only when
submitting). The flags are cli/launch_options.py."""

from __future__ import annotations

import os
import time
from typing import Any

import click

from irisrl.cli.launch_options import launch_options, options_from_flags
from irisrl.util.exitcodes import Exit

EPILOG = """\b
Examples:
  irisrl launch --rl_config examples/configs/dense8b_disagg.yaml --num-nodes 7 \\
      --model_path Qwen/Qwen3-8B --train_data '["DCAgent/tasks"]' \\
      --workspace examples/workspace --job-name dense8b-r1 --dry-run
  irisrl launch --rl_config examples/configs/dense8b_disagg.yaml --num-nodes 7 --dry-run --json
  irisrl launch --local --rl_config examples/configs/smoke_colocated.yaml --num-nodes 2
  irisrl launch --rl_config cfg.yaml --skyrl_override '++trainer.max_steps=2' --rehearse

\b
Exit codes: 0 plan ok / submitted, 1 errors found or the job failed, 3 could not
determine, 64 usage error. A dry run prints "not submitting" as its last line.
"""


@click.command("launch", epilog=EPILOG, context_settings={"max_content_width": 100})
@launch_options
def launch(**kwargs: Any) -> None:
    """Check a config and launch it as a gang of whole 8-GPU nodes (or --dry-run to print the plan)."""
    from irisrl.plan.build import build_plan
    from irisrl.plan.render import render_error_json, render_json, render_text

    entered = time.time()  # phase timings of the end-of-run summary
    opts, allow_queue = options_from_flags(kwargs)
    plan, findings, budget = build_plan(opts)
    marks = {"entered": entered, "validated": time.time()}
    width = _width()
    if plan is None:
        if opts.as_json:   # a config that did not load has no budget (null, as validate --json says)
            unloaded = any(f.rule == "CFG-YAML" and f.severity == "error" and f.path == str(opts.rl_config)
                           for f in findings)
            click.echo(render_error_json(findings, None if unloaded else budget.to_dict()))
        else:
            from irisrl.cli.render_findings import make_console, render_findings

            render_findings(findings, make_console(width=width))
        raise click.exceptions.Exit(Exit.FAIL)
    if opts.dry_run:
        click.echo(render_json(plan) if opts.as_json else render_text(plan, width), nl=opts.as_json)
        raise click.exceptions.Exit(Exit.OK)
    raise click.exceptions.Exit(_submit(plan, opts, marks, allow_queue))


def _width() -> int | None:
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 20 else None


def _submit(plan: Any, opts: Any, marks: dict[str, float], allow_queue: bool) -> int:
    from irisrl.ops.fit_gate import FitRefused
    from irisrl.cli.render_summary import render_summary
    from irisrl.ops.launcher import LaunchSettings, launch as launch_plan

    settings = LaunchSettings(local=opts.local, controller_url=opts.controller_url, cluster_config=opts.cluster_config,
                              no_wait=opts.no_wait, policy=opts.policy, series_explicit=bool(opts.series),
                              allow_queue=allow_queue, secrets_env=opts.secrets_env, marks=marks,
                              on_summary=render_summary)
    try:
        return launch_plan(plan, settings).exit_code
    except FitRefused as refused:
        from irisrl.cli.render_fit import render_report

        render_report(refused.report)
        raise
