"""`irisrl fit`: will this gang be admitted? The check `launch` runs before submit is
ops/fit_gate.py; the report's rendering cli/render_fit.py; the simulation backends/fit.py; the
live read backends/cluster_state.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.render_fit import render_report
from irisrl.cli.target_opts import target_options
from irisrl.util.errors import IrisrlError, UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

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

EXIT_FOR = {"fits": Exit.OK, "queues": Exit.ACTIVE, "never": Exit.FAIL, "unknown": Exit.UNKNOWN}


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
    target = {"local": local, "controller_url": controller_url, "cluster_config": cluster_config}
    if state and record:   # a replay reads no controller: there would be nothing to record
        raise UsageError("--state replays a recorded cluster state; --record writes one read from a controller",
                         "pass one of them")
    plan_dict = _plan_from(plan, ctx.args, target)
    report = evaluate(plan_dict, target, state, record)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        render_report(report)
    raise click.exceptions.Exit(EXIT_FOR[report.verdict])


def _plan_from(plan: str | None, launch_args: list[str], target: dict[str, Any]) -> dict[str, Any]:
    if plan is not None:
        if launch_args:
            raise UsageError(f"--plan and launch flags ({' '.join(launch_args[:3])} ...) are exclusive",
                             "pass a plan JSON, or the launch flags that build one")
        return _read_plan(plan)
    if not launch_args:
        raise UsageError("nothing to check", "pass --plan PLAN.json, or launch flags (--rl_config CFG --num-nodes N ...)")
    return _build_plan(launch_args, target)


def _read_plan(path: str) -> dict[str, Any]:
    from irisrl.util.jsonio import loads_document

    try:
        text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        if not text.strip():
            raise ValueError("it is empty" if path != "-" else "stdin is empty")
        data = loads_document(text)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the plan {path}: {exc}", "pass the output of launch --dry-run --json") from None
    plan = data.get("plan", data) if isinstance(data, dict) else None
    if isinstance(plan, dict) and plan.get("ok") is False and "findings" in plan and "resources" not in plan:
        errors = [f for f in plan.get("findings") or () if isinstance(f, dict) and f.get("severity") == "error"]
        first = f": {errors[0].get('rule')} {errors[0].get('message')}" if errors else ""
        raise UsageError(f"{path} is a dry run that built no plan ({len(errors)} error(s){first})",
                         "fix the findings (irisrl launch ... --dry-run shows them), then pipe the plan again")
    if not isinstance(plan, dict) or "resources" not in plan or "num_nodes" not in plan:
        raise UsageError(f"{path} is not a launch plan (no resources / num_nodes)",
                         "pass the output of irisrl launch ... --dry-run --json")
    return plan


def _build_plan(args: list[str], target: dict[str, Any]) -> dict[str, Any]:
    """The launch parser builds the plan, exactly as `launch --dry-run` would."""
    from irisrl.cli.launch_options import parse_launch_flags
    from irisrl.plan.build import build_plan

    extra = ["--local"] if target["local"] else []
    extra += ["--cluster-config", target["cluster_config"]] if target["cluster_config"] else []
    try:
        options, _ = parse_launch_flags([*args, *extra, "--dry-run"])
    except click.UsageError as exc:
        raise UsageError(f"fit: {exc.format_message()}", "fit takes --plan, or launch's flags (irisrl launch --help)") \
            from None
    built, findings, _ = build_plan(options)
    if built is None:
        errors = [f for f in findings if f.severity == "error"]
        raise UndeterminedError(f"the config does not build a plan: {errors[0].rule} {errors[0].message}",
                                "irisrl validate / launch --dry-run shows every finding")
    return built.to_dict()


def _undetermined(exc: IrisrlError) -> IrisrlError:
    """fit's exit 1 means "can never fit": a cluster it could not reach or find (no local
    cluster up, no cluster config) is "could not determine", exit 3, as the epilog says."""
    if exc.exit_code != Exit.FAIL:
        return exc
    return UndeterminedError(exc.message, exc.fix)


def evaluate(plan: dict[str, Any], target: dict[str, Any], state_file: str | None = None,
             record: str | None = None) -> Any:
    from irisrl.backends.fit import simulate

    request = _request(plan)
    if state_file:
        return simulate(_load_state(state_file), request)
    from irisrl.backends.cluster_state import read_state
    from irisrl.backends.resolve import open_backend, target_from

    try:
        with open_backend(target_from(target)) as backend:
            state = read_state(backend)
    except IrisrlError as exc:
        raise _undetermined(exc) from None
    if record:
        _record(state, record)
    return simulate(state, request)


def _record(state: Any, path: str) -> None:
    try:
        Path(path).write_text(json.dumps(state.to_dict(), indent=1))
    except OSError as exc:
        raise UsageError(f"cannot write the cluster state to {path}: {exc.strerror or exc}",
                         "pass --record a file path in a writable directory") from None


def _request(plan: dict[str, Any]) -> Any:
    from irisrl.backends.fit import GangRequest

    try:
        return GangRequest.from_plan(plan)
    except (KeyError, TypeError, ValueError) as exc:
        why = f"no {exc} key" if isinstance(exc, KeyError) else str(exc)
        raise UsageError(f"the plan's resources cannot be read ({why})", "regenerate it with launch --dry-run --json") \
            from None


def _load_state(path: str) -> Any:
    from irisrl.backends.fit import ClusterState
    from irisrl.util.jsonio import loads_document

    try:
        return ClusterState.from_dict(loads_document(Path(path).read_bytes()))
    except (OSError, ValueError, TypeError, KeyError) as exc:
        why = f"no {exc} key" if isinstance(exc, KeyError) else str(exc)
        raise UsageError(f"cannot read the cluster state {path}: {why}", "pass a file written by fit --record") \
            from None


# ------------------------------------------------------------------------------------ rendering
