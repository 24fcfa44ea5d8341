"""`irisrl fit`: will this gang be admitted? Parse, one call (ops/fit_check.fit), render
(cli/render_fit.py). The check `launch` runs before submit is ops/fit_gate.py."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.render_fit import render_report
from irisrl.cli.target_opts import target_options
from irisrl.util.errors import UsageError

if TYPE_CHECKING:
    from irisrl.ops.types import PlanInputs, Target

EPILOG = """\b
Examples:
  irisrl fit --rl_config examples/configs/dense8b_disagg.yaml --workspace examples/workspace \\
             --num-nodes 7 --cpu 48 --memory 512GB --local
  irisrl launch --rl_config cfg.yaml --num-nodes 4 --dry-run --json | irisrl fit --plan - --json
  irisrl fit --plan plan.json --controller-url http://127.0.0.1:10000 --record state.json
  irisrl fit --plan plan.json --state state.json        # replay a recorded cluster state

\b
Without --plan, every other flag is a `launch` flag: the plan is built as `launch --dry-run`
builds it. Exit codes: 0 fits now, 4 would queue, 1 can never fit, 3 could not determine
(controller or kubectl unreachable, no local cluster up, no cluster config found, a config
that builds no plan; a Kubernetes cluster with no kubectl access), 64 usage.
"""


@click.command("fit", epilog=EPILOG, context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                                      "max_content_width": 100})
@flag("plan", default=None, metavar="JSON", help="A plan (launch --dry-run --json output); '-' reads stdin.")
@flag("state", default=None, metavar="FILE", help="Replay a recorded cluster state instead of asking a controller.")
@flag("record", default=None, metavar="FILE", help="Write the cluster state read from the controller to FILE.")
@target_options
@json_flag
@click.pass_context
def fit(ctx: click.Context, plan: str | None, state: str | None, record: str | None, local: bool,
        controller_url: str | None, cluster_config: str | None, as_json: bool) -> None:
    """Say whether a gang fits the cluster now, would queue (and behind whom), or never fits."""
    from irisrl.ops.fit_check import exit_code, fit as check_fit
    from irisrl.ops.types import PlanInputs, Target

    target = Target(local, controller_url, cluster_config)
    source: str | PlanInputs
    if plan is not None:
        if ctx.args:
            raise UsageError(f"--plan and launch flags ({' '.join(ctx.args[:3])} ...) are exclusive",
                             "pass a plan JSON, or the launch flags that build one")
        source, plan_target = plan, target
    elif ctx.args:
        source, plan_target = _launch_inputs(ctx.args, target)
    else:
        raise UsageError("nothing to check", "pass --plan PLAN.json, or launch flags (--rl_config CFG --num-nodes N ...)")
    report = check_fit(source, target, state, record, plan_target=plan_target)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        render_report(report)
    raise click.exceptions.Exit(exit_code(report))


def _launch_inputs(args: list[str], target: "Target") -> "tuple[PlanInputs, Target]":
    """What launch's flags say runs, and where its plan is built for: launch's own target
    flags, with fit's --local / --cluster-config on top (the plan's mode and storage root)."""
    from irisrl.cli.launch_options import parse_launch_flags

    try:
        parsed = parse_launch_flags(list(args))
    except click.UsageError as exc:
        raise UsageError(f"fit: {exc.format_message()}", "fit takes --plan, or launch's flags (irisrl launch --help)") \
            from None
    plan_target = replace(parsed.target, local=parsed.target.local or target.local,
                          cluster_config=target.cluster_config or parsed.target.cluster_config)
    return parsed.inputs, plan_target
