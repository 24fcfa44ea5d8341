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
               sleep: Callable[[float], None] = time.sleep, on_poll: Callable[[Any], str | None] | None = None,
               keep_going: bool = False) -> int:
    """Poll (one controller call per poll for the state, plus `on_poll`'s incremental log
    fetch while the job runs); print on every transition; return the exit code. With
    `watchdog`, a KILL verdict (from `on_poll` or a check-in) returns 5 unless `keep_going`.
    Never kills anything."""
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
                if on_poll is not None and not snap.absent:
                    on_poll(snap)   # the last lines: the final verdict/phase, for the record
                return snap.exit
            verdict = on_poll(snap) if on_poll is not None and snap.state == "running" else None
            if watchdog and verdict == "KILL" and not keep_going:
                return Exit.WATCHDOG_KILL
            if ran_since is None and snap.all_tasks_started:
                ran_since = time.monotonic()  # check-ins count from when every task first ran
            while ran_since is not None and pending_checkins and time.monotonic() - ran_since >= pending_checkins[0]:
                label = _label(pending_checkins.pop(0))
                verdict = on_checkin(label) if on_checkin else None
                if watchdog and verdict == "KILL":
                    click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} watchdog: health verdict KILL at {label} "
                               f"-- advice only, watch never kills; kill it with: irisrl kill {job_id} --yes")
                    if not keep_going:
                        return Exit.WATCHDOG_KILL
        if timeout is not None and time.monotonic() - start >= timeout:
            click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} watch timed out after {timeout:.0f}s "
                       f"(job still {snap.state if snap else 'unknown'})", err=True)
            return Exit.UNKNOWN
        sleep(interval)


class WatchLogs:
    """The job-bound log source (observe.pull.JobBoundAdapter's `bound`) over watch's own
    backend. Iris's GetJobStatus carries no task list, so the tasks (index, attempts) come
    from one detailed read (ListTasks) on the first poll, while a task has not started yet, and
    when the poll's snapshot shows the tasks changed (state counts, failures, preemptions: a
    new attempt).
    Steady state per poll: watch's GetJobStatus + one FetchLogs per started task."""

    def __init__(self, backend: Any, job_id: str) -> None:
        self.backend, self.job_id, self.snap = backend, job_id, None
        self._views: tuple[Any, ...] = ()
        self._key: tuple | None = None

    def use(self, snap: Any) -> None:
        self.snap = snap

    def tasks(self) -> list[Any]:
        snap = self.snap
        key = None if snap is None else (tuple(sorted(snap.task_states.items())), snap.failure_count,
                                          snap.preemption_count)
        if snap is not None and snap.tasks:
            self._views = tuple(snap.tasks)
        elif key is None or key != self._key or not self._views or not all(self._started(v) for v in self._views):
            # Also while a task has not started: ListTasks can lag the counts (running, no start time yet).
            self._views = tuple(self.backend.snapshot(self.job_id).tasks)
        self._key = key
        return [v for v in self._views if self._started(v)]

    @staticmethod
    def _started(view: Any) -> bool:
        return bool(getattr(view, "started", True))

    def fetch(self, task_index: int, attempt: int = -1, since_ms: int = 0, max_lines: int = 5000) -> list[Any]:
        return self.backend.fetch_logs(self.job_id, since_ms=since_ms, max_lines=max_lines, attempt=attempt,
                                       task_index=task_index)


def watchdog_poller(job_id: str, plan: dict | None, source: Any, interval: float,
                    on_snapshot: Callable[[Any], None] = lambda snap: None,
                    config: Any = None) -> tuple[Callable[[Any], str | None], Any]:
    """`on_poll` for watch_loop: one persistent Watchdog (Analyzer + JobFeeder) fed only the
    new lines each poll; prints the change lines; returns the current verdict."""
    from irisrl.observe.watchdog import Watchdog, change_lines

    dog = Watchdog(job_id, plan, config)
    shown: list[str] = []

    def poll(snap: Any) -> str | None:
        on_snapshot(snap)
        try:
            result = dog.poll(source, deadline_s=max(interval, 30.0))
        except Exception as exc:  # noqa: BLE001 - a failed poll is reported; watch goes on
            click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} watchdog poll failed: {type(exc).__name__}: {exc}",
                       err=True)
            return None
        if result.problems != shown:
            shown[:] = result.problems
            for problem in result.problems[:3]:
                click.echo(f"[{time.strftime('%H:%M:%S')}] {job_id} logs incomplete (next poll retries): {problem}",
                           err=True)
        if result.changed:
            click.echo("\n".join(change_lines(job_id, result.report)))
        return result.report.verdict

    return poll, dog


def _label(seconds: float) -> str:
    return f"{seconds / 60:g}m" if seconds % 60 == 0 else f"{seconds:g}s"


DEFAULT_INTERVAL_S = 60.0
WATCHDOG_INTERVAL_S = 30.0   # window 60 s + vLLM report spacing 10 s + 30 s: a wedge shows within 2 min


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
@target_options
def watch(job: str, interval: float | None, checkins: str, timeout: str | None, watchdog: bool, keep_going: bool,
          local: bool, controller_url: str | None, cluster_config: str | None) -> None:
    """Follow JOB's authoritative state until it is terminal; a line per transition."""
    if interval is None:
        interval = WATCHDOG_INTERVAL_S if watchdog else DEFAULT_INTERVAL_S
    if interval <= 0:
        raise UsageError("--interval must be > 0", "e.g. --interval 60")
    if keep_going and not watchdog:
        raise UsageError("--keep-going only applies with --watchdog", "add --watchdog, or drop --keep-going")
    marks = [parse_duration(c) for c in checkins.split(",") if c.strip()]
    limit = parse_duration(timeout) if timeout else None
    if watchdog:
        _note_wedge_latency(interval)
    job_id, opener, ledger = _open(job, local, controller_url, cluster_config)
    plan = ledger.plan_for(job_id)
    with opener as backend:
        target = {"local": local, "controller_url": controller_url, "cluster_config": cluster_config}
        on_poll = None
        if watchdog:
            from irisrl.observe.pull import JobBoundAdapter

            logs = WatchLogs(backend, job_id)
            on_poll, _ = watchdog_poller(job_id, plan, JobBoundAdapter(logs), interval, on_snapshot=logs.use)
        code = watch_loop(backend, job_id, interval, limit, marks,
                          on_checkin=lambda label: health_checkin(job_id, label, plan, target), watchdog=watchdog,
                          on_poll=on_poll, keep_going=keep_going)
        if code in (Exit.OK, Exit.FAIL) and plan is not None:
            ledger.update_state(job_id, backend.snapshot(job_id, detail=False).state)
    raise click.exceptions.Exit(int(code))


def _note_wedge_latency(interval: float) -> None:
    from irisrl.observe.watchdog import WEDGE_TARGET_S, worst_case_wedge_s

    worst = worst_case_wedge_s(interval)
    if worst > WEDGE_TARGET_S:
        click.echo(f"note: with --interval {interval:g} a wedge may be reported up to ~{worst:.0f}s after its onset "
                   f"(over the {WEDGE_TARGET_S:.0f}s target); use --interval {WATCHDOG_INTERVAL_S:g} or less",
                   err=True)


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
