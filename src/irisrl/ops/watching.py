"""`watch`'s engine: follow a job's authoritative state (ops/watcher.JobWatcher), run the
health check-ins and the per-poll watchdog, print a line per transition, return the exit
code. Never kills anything: a KILL verdict is advice with evidence."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from irisrl.backends.base import Backend, JobSnapshot
from irisrl.ops.health_check import PlanDict
from irisrl.ops.jobs import JobLogs
from irisrl.ops.output import emit
from irisrl.ops.watcher import READ_FAILURES_MAX, Finished, GaveUp, HealthChanged, JobWatcher, ReadFailed, Transition, \
    Waiting, transition_line
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.observe.ladder import LadderConfig
    from irisrl.observe.pull import LogSource
    from irisrl.ops.jobs import OpenedJob

DEFAULT_INTERVAL_S = 60.0
WATCHDOG_INTERVAL_S = 30.0   # window 60 s + vLLM report spacing 10 s + 30 s: a wedge shows within 2 min


def _stamp() -> str:
    return time.strftime("%H:%M:%S")


def watch_loop(backend: Backend, job_id: str, interval: float, timeout: float | None, checkins: list[float],
               on_checkin: Callable[[str], str | None] | None = None, watchdog: bool = False,
               sleep: Callable[[float], None] | None = None,
               health: Callable[[JobSnapshot], HealthChanged] | None = None,
               keep_going: bool = False) -> int:
    """Poll (one controller call per poll for the state, plus `health`'s incremental log
    fetch while the job runs); print on every transition and health change; return the exit
    code. With `watchdog`, a KILL verdict (from `health` or a check-in) returns 5 unless
    `keep_going`."""
    watcher = JobWatcher(backend, job_id, interval, timeout_s=timeout, sleep=sleep, health=health)
    ran_since: float | None = None
    pending_checkins = sorted(checkins)
    verdict: str | None = None
    for event in watcher.events():
        if isinstance(event, Transition):
            emit(transition_line(event.snap))
        elif isinstance(event, HealthChanged):
            show_health(job_id, event)
            verdict = event.verdict
        elif isinstance(event, ReadFailed):
            emit(f"[{_stamp()}] {job_id} read failed ({event.failures}/{READ_FAILURES_MAX}): {event.message}",
                       err=True)
        elif isinstance(event, Finished):
            return int(event.snap.exit)
        elif isinstance(event, GaveUp):
            if event.reason == "timeout":
                state = event.snap.state if event.snap is not None else "unknown"
                emit(f"[{_stamp()}] {job_id} watch timed out after {timeout:.0f}s (job still {state})", err=True)
            return Exit.UNKNOWN
        elif isinstance(event, Waiting):
            snap = event.snap
            if watchdog and verdict == "KILL" and not keep_going:
                return Exit.WATCHDOG_KILL
            verdict = None
            if ran_since is None and snap.all_tasks_started:
                ran_since = watcher.clock()  # check-ins count from when every task first ran
            while ran_since is not None and pending_checkins and watcher.clock() - ran_since >= pending_checkins[0]:
                label = _label(pending_checkins.pop(0))
                checkin_verdict = on_checkin(label) if on_checkin else None
                if watchdog and checkin_verdict == "KILL":
                    emit(f"[{_stamp()}] {job_id} watchdog: health verdict KILL at {label} "
                               f"-- advice only, watch never kills; kill it with: irisrl kill {job_id} --yes")
                    if not keep_going:
                        return Exit.WATCHDOG_KILL
    return Exit.UNKNOWN   # pragma: no cover - the watcher always ends with Finished or GaveUp


def show_health(job_id: str, event: HealthChanged) -> None:
    """watch's rendering of a health check: a failure, new log-read problems, a change."""
    from irisrl.observe.watchdog import change_lines

    if event.error is not None:
        emit(f"[{_stamp()}] {job_id} watchdog poll failed: {event.error}", err=True)
        return
    for problem in event.problems[:3]:
        emit(f"[{_stamp()}] {job_id} logs incomplete (next poll retries): {problem}", err=True)
    if event.changed and event.report is not None:
        emit("\n".join(change_lines(job_id, event.report)))


def _label(seconds: float) -> str:
    return f"{seconds / 60:g}m" if seconds % 60 == 0 else f"{seconds:g}s"


def health_checkin(backend: Backend, job_id: str, label: str, plan: PlanDict | None) -> str | None:
    """The health analysis at a `watch --checkins` mark. Returns "KILL" / "NO-KILL", or None
    when no analysis could be made (reported, never fatal to watch)."""
    from irisrl.ops.health_check import health

    try:   # the same check as `irisrl health JOB` (wall clock, trials, task statuses)
        report = health(job_id, plan=plan, backend=backend).report
    except Exception as exc:  # noqa: BLE001 - a failed check-in is reported, never fatal to watch
        emit(f"  check-in {label}: health analysis failed: {type(exc).__name__}: {exc}", err=True)
        return None
    reasons = "; ".join(list(report.reasons)[:3])
    emit(f"[{_stamp()}] {job_id} check-in {label}: health {report.verdict} "
               f"(phase {report.phase}){': ' + reasons if reasons else ''}")
    emit(f"  details: irisrl health {job_id}")
    return str(report.verdict)


class WatchdogHealth:
    """JobWatcher's `health` check for `watch --watchdog`: one persistent Watchdog (Analyzer +
    JobFeeder) fed only the new lines each poll; `self(snap)` is the poll's HealthChanged.
    Prints nothing (watch renders the events)."""

    def __init__(self, job_id: str, plan: PlanDict | None, source: "LogSource", interval: float,
                 on_snapshot: Callable[[JobSnapshot], None] = lambda snap: None,
                 config: "LadderConfig | None" = None) -> None:
        from irisrl.observe.watchdog import Watchdog

        self.dog = Watchdog(job_id, plan, config)
        self.source, self.interval, self.on_snapshot = source, interval, on_snapshot
        self._shown: list[str] = []

    def __call__(self, snap: JobSnapshot) -> HealthChanged:
        self.on_snapshot(snap)
        try:
            result = self.dog.poll(self.source, deadline_s=max(self.interval, 30.0))
        except Exception as exc:  # noqa: BLE001 - a failed poll is reported; watch goes on
            return HealthChanged(None, False, error=f"{type(exc).__name__}: {exc}")
        problems: tuple[str, ...] = ()
        if result.problems != self._shown:
            self._shown = list(result.problems)
            problems = tuple(result.problems)
        return HealthChanged(result.report, bool(result.changed), problems)


def note_wedge_latency(interval: float) -> None:
    """Warn when `interval` makes the worst-case wedge report later than the target."""
    from irisrl.observe.watchdog import WEDGE_TARGET_S, worst_case_wedge_s

    worst = worst_case_wedge_s(interval)
    if worst > WEDGE_TARGET_S:
        emit(f"note: with --interval {interval:g} a wedge may be reported up to ~{worst:.0f}s after its onset "
                   f"(over the {WEDGE_TARGET_S:.0f}s target); use --interval {WATCHDOG_INTERVAL_S:g} or less",
                   err=True)


def watch(job: str, *, interval: float | None = None, timeout_s: float | None = None,
          checkins: list[float] | None = None, watchdog: bool = False, keep_going: bool = False,
          hang_after_s: float | None = None, backend: Backend | None = None, local: bool = False,
          controller_url: str | None = None, cluster_config: str | None = None) -> int:
    """Follow JOB until it is terminal (the `irisrl watch` engine; usable from a notebook) on
    `backend` (else the cluster the ledger recorded for it, or the target given).
    Reports (ops/output) a line per transition, check-in and watchdog change; returns the exit code
    (0 succeeded, 1 failed, 2 absent, 3 timeout / unreadable, 5 KILL with `watchdog`, 130
    Ctrl-C: detached, with the re-attach command)."""
    from irisrl.ops.jobs import OpenedJob, job_id_of, open_job, open_ledger

    options = WatchOptions(interval if interval is not None else (WATCHDOG_INTERVAL_S if watchdog else DEFAULT_INTERVAL_S),
                           timeout_s, list(checkins or []), watchdog, keep_going, hang_after_s)
    if backend is not None:
        return _watch(OpenedJob(job_id_of(job), backend, open_ledger()), options)
    with open_job(job, local, controller_url, cluster_config) as opened:
        return _watch(opened, options)


@dataclass(frozen=True)
class WatchOptions:
    interval: float
    timeout_s: float | None
    checkins: list[float]
    watchdog: bool
    keep_going: bool
    hang_after_s: float | None


def _watch(opened: "OpenedJob", o: WatchOptions) -> int:
    job_id, backend, ledger = opened.job_id, opened.backend, opened.ledger
    plan = ledger.plan_for(job_id)
    health = None
    if o.watchdog:
        from irisrl.observe.ladder import LadderConfig

        logs = JobLogs(backend, job_id, follows_polls=True)
        config = LadderConfig() if o.hang_after_s is None else LadderConfig(hang_after_s=o.hang_after_s)
        health = WatchdogHealth(job_id, plan, logs, o.interval, on_snapshot=logs.use, config=config)
    try:
        code = watch_loop(backend, job_id, o.interval, o.timeout_s, o.checkins,
                          on_checkin=lambda label: health_checkin(backend, job_id, label, plan),
                          watchdog=o.watchdog, health=health, keep_going=o.keep_going)
    except KeyboardInterrupt:   # Ctrl-C detaches: watch never kills
        emit(f"\nstopped watching {job_id}; it keeps running.\nre-attach: irisrl watch {job_id}", err=True)
        return int(Exit.INTERRUPTED)
    if code in (Exit.OK, Exit.FAIL) and plan is not None:
        ledger.update_state(job_id, backend.snapshot(job_id, detail=False).state)
    return int(code)
