"""JOB commands: status, watch, kill, and the ledger's `runs`: parse the flags, call ops/
(ops/jobs.py, ops/watching.py), render. Each talks to the cluster the ledger recorded for the job
unless a target flag says otherwise (backends/resolve.py)."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.target_opts import target_options
from irisrl.ops.watching import DEFAULT_INTERVAL_S, WATCHDOG_INTERVAL_S
from irisrl.ops.watcher import task_counts
from irisrl.util.errors import UsageError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.ops.jobs import JobSnapshot


# ---------------------------------------------------------------------------------------- status
@click.command(epilog="""\b
Examples:
  irisrl status /alice/dense8b-r1
  irisrl status dense8b-r1 --json
  irisrl status smoke-1 --local

\b
Exit: 0 succeeded, 1 failed/killed/worker_failed/unschedulable, 2 absent,
3 could not determine, 4 pending/building/running.""")
@click.argument("job")
@json_flag
@target_options
def status(job: str, as_json: bool, local: bool, controller_url: str | None, cluster_config: str | None) -> None:
    """One authoritative read of JOB (/user/job or a bare job name) from its controller."""
    from irisrl.ops.jobs import open_job, status as read_status

    with open_job(job, local, controller_url, cluster_config) as opened:
        snap = read_status(opened.backend, opened.job_id, opened.ledger)
        where = opened.backend.where
    if as_json:
        click.echo(json.dumps(status_json(snap), indent=2))
    else:
        render_status(snap, where)
    raise click.exceptions.Exit(snap.exit)


def status_json(snap: JobSnapshot) -> dict[str, object]:
    data = snap.to_dict()
    return {"job_id": data["job_id"], "state": data["state"], "state_int": data["state_int"], "error": data["error"],
            "exit_code": data["exit_code"], "failure_count": data["failure_count"],
            "preemption_count": data["preemption_count"], "task_count": data["task_count"],
            "task_states": data["task_states"],
            "tasks": [{"index": t["index"], "state": t["state"], "exit_code": t["exit_code"], "attempts": t["attempts"],
                       "worker": t["worker"], "error": t["error"]} for t in data["tasks"]],
            "absent": data["absent"], "pending_reason": data["pending_reason"]}


def render_status(snap: JobSnapshot, where: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    if snap.absent:
        console.print(f"{snap.job_id}: absent (unknown to the controller at {where})")
        return
    console.print(f"{snap.job_id}  state={snap.state}  tasks={task_counts(snap.task_states)}  "
                  f"failures={snap.failure_count}  preemptions={snap.preemption_count}  exit_code={snap.exit_code}")
    if snap.error:
        console.print(f"error: {snap.error}")
    if snap.pending_reason and snap.state == "pending":
        console.print(f"waiting: {snap.pending_reason}")
    table = Table("rank", "state", "exit", "attempts", "worker", "error")
    for t in snap.tasks:
        table.add_row(str(t.index), t.state, "" if t.exit_code is None else str(t.exit_code), str(t.attempts),
                      t.worker or "-", t.error or t.pending_reason)
    console.print(table)


# ----------------------------------------------------------------------------------------- watch
def parse_duration(text: str) -> float:
    """'90' / '90s' / '15m' / '2h' -> seconds."""
    units = {"s": 1, "m": 60, "h": 3600}
    raw = text.strip().lower()
    try:
        if raw and raw[-1] in units:
            return float(raw[:-1]) * units[raw[-1]]
        return float(raw)
    except ValueError:
        raise UsageError(f"bad duration {text!r}", "use seconds or a unit: 90s, 15m, 2h") from None


@click.command(epilog="""\b
Examples:
  irisrl watch /alice/dense8b-r1
  irisrl watch dense8b-r1 --interval 30 --checkins 15m,30m --timeout 6h
  irisrl watch dense8b-r1 --watchdog                 # health every poll, exit 5 on KILL
  irisrl watch dense8b-r1 --watchdog --keep-going    # print every verdict change, never exit on KILL
  irisrl watch smoke-1 --local --interval 2

\b
--watchdog re-evaluates the health ladder every poll from the new log lines
only and prints a line (with the reasons) whenever the verdict or phase
changes. A wedge is flagged once it spans 60 s of log time, so it is
reported within about 60 s + 10 s (vLLM report spacing) + --interval of
its onset: the watchdog's default interval is 30 s (under 2 minutes).
A hung rank (no progress in its liveness samples: cause `hang`) is named
--hang-after (180 s) after its last progress, seen within two sample
intervals (30 s each) and one poll: under 5 minutes from its onset.
Watch NEVER kills a job: a KILL verdict is advice with evidence; killing
stays `irisrl kill JOB --yes`.

\b
Exit: as `status` for the terminal state (0 succeeded, 1 failed/killed/...,
2 absent); 3 on --timeout or repeated read failures; 5 health verdict KILL
with --watchdog (unless --keep-going).""")
@click.argument("job")
@click.option("--interval", default=None, type=float,
              help=f"Seconds between polls [default: {DEFAULT_INTERVAL_S:g}; {WATCHDOG_INTERVAL_S:g} with --watchdog].")
@click.option("--checkins", default="", help="Full health analyses after every task first ran, e.g. 15m,30m.")
@click.option("--timeout", "timeout", default=None, help="Give up (exit 3) after this long, e.g. 6h.")
@click.option("--watchdog", is_flag=True,
              help="Re-evaluate health every poll from the new log lines; exit 5 on KILL (never kills).")
@flag("keep-going", is_flag=True, help="With --watchdog: on KILL keep watching and printing changes.")
@flag("hang-after", type=click.FloatRange(min=1.0), default=None,
      help="With --watchdog: seconds a rank's liveness samples may show no progress before it is a hang "
           "[default: 180].")
@target_options
def watch(job: str, interval: float | None, checkins: str, timeout: str | None, watchdog: bool, keep_going: bool,
          hang_after: float | None, local: bool, controller_url: str | None, cluster_config: str | None) -> None:
    """Follow JOB's authoritative state until it is terminal; a line per transition."""
    if interval is None:
        interval = WATCHDOG_INTERVAL_S if watchdog else DEFAULT_INTERVAL_S
    if interval <= 0:
        raise UsageError("--interval must be > 0", "e.g. --interval 60")
    if keep_going and not watchdog:
        raise UsageError("--keep-going only applies with --watchdog", "add --watchdog, or drop --keep-going")
    if hang_after is not None and not watchdog:
        raise UsageError("--hang-after only applies with --watchdog", "add --watchdog, or drop --hang-after")
    marks = [parse_duration(c) for c in checkins.split(",") if c.strip()]
    limit = parse_duration(timeout) if timeout else None
    from irisrl.ops.jobs import open_job
    from irisrl.ops.watching import note_wedge_latency, watch as watch_job

    if watchdog:
        note_wedge_latency(interval)
    with open_job(job, local, controller_url, cluster_config) as opened:
        code = watch_job(opened.job_id, interval=interval, timeout_s=limit, checkins=marks, watchdog=watchdog,
                         keep_going=keep_going, hang_after_s=hang_after, backend=opened.backend)
    raise click.exceptions.Exit(code)


# ------------------------------------------------------------------------------------------ kill
@click.command(epilog="""\b
Examples:
  irisrl kill /alice/dense8b-r1            # says what would be killed, exit 1
  irisrl kill /alice/dense8b-r1 --yes      # terminates that one job

Job-scoped only: irisrl has no command that stops or restarts a whole cluster.""")
@click.argument("job")
@click.option("--yes", is_flag=True, help="Really terminate the job (required for a pending or running job).")
@click.option("--wait", "wait_s", default=30.0, show_default=True, type=float,
              help="Seconds to wait for the controller to confirm KILLED.")
@target_options
def kill(job: str, yes: bool, wait_s: float, local: bool, controller_url: str | None, cluster_config: str | None) -> None:
    """Terminate one job (with --yes), then confirm its state."""
    from irisrl.ops.jobs import kill as kill_job, open_job

    with open_job(job, local, controller_url, cluster_config) as opened:
        killed = kill_job(opened.job_id, yes=yes, wait_s=wait_s, backend=opened.backend)
    job_id, snap = killed.job_id, killed.snap
    if killed.outcome == "absent":
        click.echo(f"{job_id}: absent on {killed.where}; nothing to kill")
    elif killed.outcome == "inactive":
        click.echo(f"{job_id} is already {snap.state}; nothing to kill")
    elif killed.outcome == "refused":
        click.echo(f"refusing to kill {job_id} ({snap.state}, tasks {task_counts(snap.task_states)}) on "
                   f"{killed.where} without --yes", err=True)
        click.echo(f"fix:   never kill a RUNNING job without permission; if you have it: irisrl kill {job_id} --yes",
                   err=True)
    else:
        click.echo(f"{job_id}: terminated, state={snap.state}")
    raise click.exceptions.Exit(killed.exit_code)


# ------------------------------------------------------------------------------------------ runs
@click.command(epilog="""\b
Examples:
  irisrl runs
  irisrl runs --series dense8b --json""")
@json_flag
@flag("series", default=None, help="Only launches of this series.")
def runs(as_json: bool, series: str | None) -> None:
    """The ledger of launches irisrl made (SQLite under $IRISRL_HOME)."""
    from irisrl.ops.jobs import runs as read_runs

    found = read_runs(series, with_plans=as_json)
    if as_json:
        click.echo(json.dumps(found.rows, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("submitted", "job", "series", "nodes", "model", "state", "cluster", "config sha", "fingerprint")
    for r in found.rows:
        table.add_row(time.strftime("%Y-%m-%d %H:%M", time.localtime(float(str(r["submitted_at"] or 0)))),
                      str(r["job_id"]), str(r["series"] or "-"), str(r["nodes"] or "-"), str(r["model"] or "-"),
                      str(r["last_state"] or "-"), str(r["cluster"] or "-"), str(r["config_sha256"] or "")[:12],
                      str(r["hparams_fingerprint"] or "")[:12])
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    console.print(table if found.rows else f"no launches recorded in {found.ledger_path}")
