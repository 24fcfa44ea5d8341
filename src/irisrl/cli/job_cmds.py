"""JOB commands: status, watch, kill, and the ledger's `runs`. Each talks to the cluster the
ledger recorded for the job unless a target flag says otherwise (backends/resolve.py)."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Callable

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.target_opts import target_options
from irisrl.util.errors import IrisrlError, UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

READ_FAILURES_MAX = 3


def _ledger() -> Any:
    from irisrl.ledger.store import Ledger
    return Ledger()


def _open(job: str, local: bool, controller_url: str | None, cluster_config: str | None) -> tuple[str, Any, Any]:
    from irisrl.backends.resolve import Target, normalize_job_id, open_backend

    ledger = _ledger()
    job_id = normalize_job_id(job, ledger)
    return job_id, open_backend(Target(local, controller_url, cluster_config).check(), job_id, ledger), ledger


def read_snapshot(backend: Any, job_id: str) -> Any:
    """One authoritative read; an absent job is cross-checked against pods when possible."""
    snap = backend.snapshot(job_id)
    if snap.absent:
        from irisrl.backends.pods import pods_exist

        if pods_exist(job_id):
            raise UndeterminedError(f"{job_id} is unknown to the controller but pods of it still exist",
                                    "check the pods (kubectl get pods -l iris.job_id=...) before acting")
    return snap


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
    job_id, opener, ledger = _open(job, local, controller_url, cluster_config)
    with opener as backend:
        snap = read_snapshot(backend, job_id)
    if not snap.absent:
        ledger.update_state(job_id, snap.state)
    if as_json:
        click.echo(json.dumps(status_json(snap), indent=2))
    else:
        render_status(snap, backend.where)
    raise click.exceptions.Exit(snap.exit)


def status_json(snap: Any) -> dict[str, Any]:
    data = snap.to_dict()
    keys = ("job_id", "state", "state_int", "error", "exit_code", "failure_count", "preemption_count",
            "task_count", "task_states", "tasks", "absent", "pending_reason")
    out = {k: data[k] for k in keys}
    out["tasks"] = [{k: t[k] for k in ("index", "state", "exit_code", "attempts", "worker", "error")}
                    for t in data["tasks"]]
    return out


def render_status(snap: Any, where: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    if snap.absent:
        console.print(f"{snap.job_id}: absent (unknown to the controller at {where})")
        return
    console.print(f"{snap.job_id}  state={snap.state}  tasks={_counts(snap.task_states)}  "
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


def _counts(counts: dict[str, int]) -> str:
    return ",".join(f"{k}:{v}" for k, v in sorted(counts.items())) or "-"


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


def transition_line(snap: Any) -> str:
    parts = [f"[{time.strftime('%H:%M:%S')}] {snap.job_id} state={'absent' if snap.absent else snap.state}",
             f"tasks={_counts(snap.task_states)}", f"failures={snap.failure_count}"]
    if snap.error:
        parts.append(f"error={_one_line(snap.error)}")
    if snap.pending_reason and snap.state in ("pending", "building"):
        parts.append(f"waiting={_one_line(snap.pending_reason)}")  # gang admission, coschedule, image pull
    return " ".join(parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def health_checkin(job_id: str, label: str, plan: dict | None, target: dict[str, Any]) -> str | None:
    """THE plug-in point for the health analysis at each check-in (issue 3 item 4): pull the
    job's logs so far through the backend's LogSource and ask observe/'s Analyzer for the
    verdict. Returns "KILL" / "NO-KILL", or None when no analysis could be made."""
    try:
        from irisrl.observe.analyzer import Analyzer
        from irisrl.observe.pull import as_log_source, feed_job
    except ImportError:
        click.echo(f"  check-in {label}: health analysis not available in this build")
        return None
    from irisrl.backends.resolve import log_source_for

    try:
        analyzer = Analyzer(plan)
        with log_source_for(job_id, target) as bound:
            problems = feed_job(as_log_source(bound), job_id, analyzer.feed, deadline_s=600)
        report = analyzer.verdict()
    except Exception as exc:  # noqa: BLE001 - a failed check-in is reported, never fatal to watch
        click.echo(f"  check-in {label}: health analysis failed: {type(exc).__name__}: {exc}", err=True)
        return None
    reasons = "; ".join(list(report.reasons)[:3] + [f"logs incomplete: {p}" for p in problems][:2])
    click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} check-in {label}: health {report.verdict} "
               f"(phase {report.phase}){': ' + reasons if reasons else ''}")
    click.echo(f"  details: irisrl health {job_id}")
    return report.verdict


def watch_loop(backend: Any, job_id: str, interval: float, timeout: float | None, checkins: list[float],
               on_checkin: Callable[[str], str | None] | None = None, watchdog: bool = False,
               sleep: Callable[[float], None] = time.sleep) -> int:
    """Poll (one controller call per poll); print on every transition; return the exit code."""
    start = time.monotonic()
    last_key: tuple | None = None
    failures = 0
    ran_since: float | None = None
    pending_checkins = sorted(checkins)
    while True:
        try:
            snap = backend.snapshot(job_id, detail=False)  # one controller call per poll
            failures = 0
        except UndeterminedError as exc:
            failures += 1
            click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} read failed ({failures}/{READ_FAILURES_MAX}): "
                       f"{exc.message}", err=True)
            if failures >= READ_FAILURES_MAX:
                return Exit.UNKNOWN
            snap = None
        if snap is not None:
            key = (snap.absent, snap.state, tuple(sorted(snap.task_states.items())), snap.failure_count,
                   snap.error, snap.pending_reason)
            if key != last_key:
                click.echo(transition_line(snap))
                last_key = key
            if snap.absent or snap.state in ("succeeded", "failed", "killed", "worker_failed", "unschedulable"):
                return snap.exit
            if ran_since is None and snap.all_tasks_started:
                ran_since = time.monotonic()  # check-ins count from when every task first ran
            while ran_since is not None and pending_checkins and time.monotonic() - ran_since >= pending_checkins[0]:
                label = _label(pending_checkins.pop(0))
                verdict = on_checkin(label) if on_checkin else None
                if watchdog and verdict == "KILL":
                    click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} watchdog: health verdict KILL at {label} "
                               f"(not killing; decide with: irisrl kill {job_id} --yes)")
                    return Exit.WATCHDOG_KILL
        if timeout is not None and time.monotonic() - start >= timeout:
            click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} watch timed out after {timeout:.0f}s "
                       f"(job still {snap.state if snap else 'unknown'})", err=True)
            return Exit.UNKNOWN
        sleep(interval)


def _label(seconds: float) -> str:
    return f"{seconds / 60:g}m" if seconds % 60 == 0 else f"{seconds:g}s"


@click.command(epilog="""\b
Examples:
  irisrl watch /alice/dense8b-r1
  irisrl watch dense8b-r1 --interval 30 --checkins 15m,30m --timeout 6h
  irisrl watch smoke-1 --local --interval 2

\b
Exit: as `status` for the terminal state (0 succeeded, 1 failed/killed/...,
2 absent); 3 on --timeout or repeated read failures; 5 health verdict KILL
with --watchdog (watch never kills).""")
@click.argument("job")
@click.option("--interval", default=60.0, show_default=True, type=float, help="Seconds between polls.")
@click.option("--checkins", default="", help="Health check-ins after every task first ran, e.g. 15m,30m.")
@click.option("--timeout", "timeout", default=None, help="Give up (exit 3) after this long, e.g. 6h.")
@click.option("--watchdog", is_flag=True, help="Exit 5 when a check-in's health verdict is KILL.")
@target_options
def watch(job: str, interval: float, checkins: str, timeout: str | None, watchdog: bool, local: bool,
          controller_url: str | None, cluster_config: str | None) -> None:
    """Follow JOB's authoritative state until it is terminal; a line per transition."""
    if interval <= 0:
        raise UsageError("--interval must be > 0", "e.g. --interval 60")
    marks = [parse_duration(c) for c in checkins.split(",") if c.strip()]
    limit = parse_duration(timeout) if timeout else None
    job_id, opener, ledger = _open(job, local, controller_url, cluster_config)
    plan = ledger.plan_for(job_id)
    with opener as backend:
        target = {"local": local, "controller_url": controller_url, "cluster_config": cluster_config}
        code = watch_loop(backend, job_id, interval, limit, marks,
                          on_checkin=lambda label: health_checkin(job_id, label, plan, target), watchdog=watchdog)
        if code in (Exit.OK, Exit.FAIL) and plan is not None:
            ledger.update_state(job_id, backend.snapshot(job_id, detail=False).state)
    raise click.exceptions.Exit(int(code))


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
    job_id, opener, ledger = _open(job, local, controller_url, cluster_config)
    with opener as backend:
        snap = read_snapshot(backend, job_id)
        if snap.absent:
            click.echo(f"{job_id}: absent on {backend.where}; nothing to kill")
            raise click.exceptions.Exit(Exit.ABSENT)
        if snap.state not in ("pending", "building", "running"):
            click.echo(f"{job_id} is already {snap.state}; nothing to kill")
            raise click.exceptions.Exit(Exit.OK)
        if not yes:
            click.echo(f"refusing to kill {job_id} ({snap.state}, tasks {_counts(snap.task_states)}) on "
                       f"{backend.where} without --yes", err=True)
            click.echo(f"fix:   never kill a RUNNING job without permission; if you have it: irisrl kill {job_id} --yes",
                       err=True)
            raise click.exceptions.Exit(Exit.FAIL)
        backend.terminate(job_id)
        final = _await_terminal(backend, job_id, wait_s)
    ledger.update_state(job_id, final.state)
    click.echo(f"{job_id}: terminated, state={final.state}")
    raise click.exceptions.Exit(Exit.OK if final.state == "killed" else Exit.UNKNOWN)


def _await_terminal(backend: Any, job_id: str, wait_s: float) -> Any:
    deadline = time.monotonic() + wait_s
    while True:
        snap = backend.snapshot(job_id)
        if snap.absent or snap.state not in ("pending", "building", "running") or time.monotonic() >= deadline:
            return snap
        time.sleep(0.5)


# ------------------------------------------------------------------------------------------ runs
@click.command(epilog="""\b
Examples:
  irisrl runs
  irisrl runs --series dense8b --json""")
@json_flag
@flag("series", default=None, help="Only launches of this series.")
def runs(as_json: bool, series: str | None) -> None:
    """The ledger of launches irisrl made (SQLite under $IRISRL_HOME)."""
    ledger = _ledger()
    rows = ledger.runs(series)
    if as_json:
        click.echo(json.dumps([{**r, "plan": ledger.plan_by_row(r["id"])} for r in rows], indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("submitted", "job", "series", "nodes", "model", "state", "cluster", "config sha", "fingerprint")
    for r in rows:
        table.add_row(time.strftime("%Y-%m-%d %H:%M", time.localtime(r["submitted_at"] or 0)), r["job_id"],
                      r["series"] or "-", str(r["nodes"] or "-"), r["model"] or "-", r["last_state"] or "-",
                      r["cluster"] or "-", (r["config_sha256"] or "")[:12], (r["hparams_fingerprint"] or "")[:12])
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    console.print(table if rows else f"no launches recorded in {ledger.path}")
