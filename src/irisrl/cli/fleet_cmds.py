"""`fleet` and `cost`: parse the flags, ONE ops call (ops/fleet.py, ops/cost.py), render."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.target_opts import target_options
from irisrl.util.errors import UsageError

if TYPE_CHECKING:
    from irisrl.ops.types import CostReport, FleetReport


def _hours(h: float) -> str:
    return f"{h:,.2f}" if h < 100 else f"{h:,.0f}"


def _usd(v: float | None) -> str:
    return "-" if v is None else f"${v:,.2f}"


def _age(s: float | None) -> str:
    if s is None:
        return "-"
    return f"{s:.0f}s" if s < 120 else f"{s / 60:.0f}m" if s < 7200 else f"{s / 3600:.1f}h"


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, width=None if sys.stdout.isatty() else 200)


def fleet_table(report: FleetReport) -> Any:
    from rich.table import Table

    totals = report["totals"]
    table = Table("user", "job", "state", "age", "nodes x GPUs", "phase", "step", "reward", "last out",
                  "verdict / cause", "GPU-h", "dead GPU-h", "cost",
                  title=f"{totals['jobs']} jobs ({totals['running']} running)", title_justify="left")
    for j in report["jobs"]:
        per_node = j["gpus"] // j["nodes"] if j["nodes"] else 0
        style = "red" if j["phase"] == "dead" else "yellow" if j["state"] == "failed" else None
        verdict = "-" if j["verdict"] is None else j["verdict"] + (f": {j['cause']}" if j["cause"] else "")
        table.add_row(j["user"], j["job_id"].rsplit("/", 1)[-1], j["state"], _age(j["age_s"]),
                      f"{j['nodes']} x {per_node}" + (f" {j['gpu_variant']}" if j["gpu_variant"] else ""),
                      j["phase"], "-" if j["step"] is None else str(j["step"]),
                      "-" if j["last_reward"] is None else f"{j['last_reward']:.3f}", _age(j["last_output_age_s"]),
                      verdict, _hours(j["gpu_hours"]), _hours(j["gpu_hours_by_phase"]["dead"]), _usd(j["cost_usd"]),
                      style=style)
    by = totals["gpu_hours_by_phase"]
    priced = _usd(totals["cost_usd"]) + (f" (+{totals['unpriced_jobs']} unpriced)" if totals["unpriced_jobs"] else "")
    table.caption = (f"GPU-hours {_hours(totals['gpu_hours'])} (bring-up {_hours(by['bring-up'])}, productive "
                     f"{_hours(by['productive'])}) | GPU-hours lost to dead runs {_hours(totals['gpu_hours_lost_to_dead_runs'])}"
                     f" | cost {priced} | {totals['rpcs']} RPCs in {totals['refresh_s']:.2f}s")
    table.caption += "".join(f"\nnot read: {p}" for p in totals["problems"])
    table.caption_justify = "left"
    return table


# ------------------------------------------------------------------------------------------ fleet
@click.command(epilog="""\b
Examples:
  irisrl fleet                              # your jobs on the local cluster / every profile's cluster
  irisrl fleet --all-users --hours 6
  irisrl fleet --user alice --filter phase=dead --filter 'job=^dense'
  irisrl fleet --controller-url http://127.0.0.1:10000 --controller-url http://10.0.0.5:10000 --json
  irisrl fleet --all-users --watch --interval 30
  irisrl fleet --all-users --plot fleet.png

\b
Filters (KEY=REGEX, all must match): user, job, state, phase, verdict, cause, target.
RPCs per refresh and cluster: 1 ListJobs + 1 FetchLogs per unsettled job (+1 GetJobStatus
the first time a job is seen); a job read once after it ended costs nothing more.""")
@click.option("--all-users", is_flag=True, help="Every user's jobs (default: yours, $IRISRL_USER or $USER).")
@flag("user", default=None, help="This user's jobs.")
@flag("hours", type=float, default=24.0, help="Ended jobs from the last H hours (active ones always show).")
@click.option("--filter", "filters", multiple=True, metavar="KEY=REGEX", help="Keep rows whose KEY matches (repeatable).")
@click.option("--watch", is_flag=True, help="Refresh in place until Ctrl-C (reads only new log lines per job).")
@flag("interval", type=float, default=30.0, help="Seconds between --watch refreshes.")
@flag("profile", default=None, help="Cluster profile whose prices apply (default cw-us-east-02a).")
@click.option("--plot", "plot_path", default=None, help="Write GPU-hours per job by phase to this PNG.")
@json_flag
@click.option("--local", is_flag=True, help="The local cluster (irisrl cluster up --local).")
@flag("controller-url", multiple=True, help="An Iris controller to list (repeatable).")
@flag("cluster-config", multiple=True, type=click.Path(dir_okay=False), help="An Iris cluster YAML (repeatable).")
def fleet(all_users: bool, user: str | None, hours: float, filters: tuple[str, ...], watch: bool, interval: float,
          profile: str | None, plot_path: str | None, as_json: bool, local: bool, controller_url: tuple[str, ...],
          cluster_config: tuple[str, ...]) -> None:
    """Every job on the cluster(s) (the controller's listing, not this machine's ledger): health,
    phase, progress, GPU-hours by phase and cost, trouble first."""
    from irisrl.ops.fleet import FleetOptions, fleet as fleet_once, fleet_query
    from irisrl.ops.plotting import plot_fleet

    if hours <= 0 or interval <= 0:
        raise UsageError("--hours and --interval must be positive", "e.g. --hours 24 --interval 30")
    if watch and (as_json or plot_path):
        raise UsageError("--watch draws a live table", "drop --json / --plot, or drop --watch")
    query = fleet_query(all_users, user, hours, filters)
    options = FleetOptions(query, local, controller_url, cluster_config, profile)
    if watch:
        _watch(options, interval)
        return
    report = fleet_once(options)
    if plot_path:
        click.echo(f"wrote {plot_fleet(report, plot_path)}", err=as_json)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        _console().print(fleet_table(report) if report["jobs"] else "no jobs match")
        if not report["jobs"]:
            for problem in report["totals"]["problems"]:
                click.echo(f"not read: {problem}", err=True)


def _watch(options: Any, interval: float) -> None:
    from rich.live import Live

    from irisrl.ops.fleet import fleet_reports

    reports = fleet_reports(options, interval_s=interval)
    with Live(fleet_table(next(reports)), console=_console(), auto_refresh=False) as live:
        for report in reports:
            live.update(fleet_table(report), refresh=True)


# ------------------------------------------------------------------------------------------- cost
def cost_table(report: CostReport) -> Any:
    from rich.table import Table

    table = Table("phase", "time", "GPU-hours", "cost")
    per_gpu_hour = report["node_hour_usd"] / (report["gpus"] / report["nodes"]) \
        if report["node_hour_usd"] and report["gpus"] and report["nodes"] else None
    for phase, hours in report["gpu_hours_by_phase"].items():
        note = " (no GPUs held)" if phase == "queued" else ""
        table.add_row(phase + note, _age(report["seconds_by_phase"][phase]), _hours(hours),
                      _usd(hours * per_gpu_hour if per_gpu_hour is not None else None))
    table.add_row("total", "", _hours(report["gpu_hours"]), _usd(report["cost_usd"]), style="bold")
    return table


def cost_header(report: CostReport) -> str:
    per_node = report["gpus"] // report["nodes"] if report["nodes"] else 0
    health = f", {report['verdict']}" + (f" ({report['cause']})" if report["cause"] else "") if report["verdict"] else ""
    return (f"{report['job_id']}: {report['state']}, phase {report['phase']}, {report['nodes']} node(s) x {per_node} "
            f"{report['gpu_variant'] or 'GPU'}{health}")


def cost_footer(report: CostReport) -> str:
    if report["node_hour_usd"]:
        return f"price: ${report['node_hour_usd']} per node-hour ({report['price_source']})"
    return f"no price for {report['gpu_variant'] or 'this GPU type'} in the profile: GPU-hours only"


@click.command(epilog="""\b
Examples:
  irisrl cost /alice/dense8b-r1
  irisrl cost dense8b-r1 --json        # a bare name is looked up on the cluster
  irisrl cost dense8b-r1 --plot r1-cost.png --controller-url http://127.0.0.1:10000

\b
Phases: queued (submitted -> admitted, no GPUs held), bring-up (admitted -> first rollout),
productive (first rollout -> death or end), dead (cause of death or silence onset -> end/now).""")
@click.argument("job")
@json_flag
@flag("profile", default=None, help="Cluster profile whose prices apply (default cw-us-east-02a).")
@click.option("--plot", "plot_path", default=None, help="Write the phases on a time axis and the GPU-hours to this PNG.")
@target_options
def cost(job: str, as_json: bool, profile: str | None, plot_path: str | None, local: bool,
         controller_url: str | None, cluster_config: str | None) -> None:
    """GPU-hours of JOB by phase, from Iris's timestamps and its log milestones, and their price."""
    from irisrl.ops.cost import cost as job_cost
    from irisrl.ops.plotting import plot_cost

    report = job_cost(job, local=local, controller_url=controller_url, cluster_config=cluster_config, profile=profile)
    if plot_path:
        click.echo(f"wrote {plot_cost(report, plot_path)}", err=as_json)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        console = _console()
        console.print(cost_header(report))
        console.print(cost_table(report))
        console.print(cost_footer(report))
