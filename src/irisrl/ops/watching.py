"""`watch`'s engine: follow a job's authoritative state (ops/watcher.JobWatcher), run the
health check-ins and the per-poll watchdog, print a line per transition, return the exit
code. Never kills anything: a KILL verdict is advice with evidence."""

from __future__ import annotations

import time
from typing import Any, Callable

from irisrl.ops.jobs import JobLogs
from irisrl.ops.output import emit
from irisrl.ops.watcher import READ_FAILURES_MAX, Finished, GaveUp, HealthChanged, JobWatcher, ReadFailed, Transition, \
    Waiting, transition_line
from irisrl.util.exitcodes import Exit

DEFAULT_INTERVAL_S = 60.0
WATCHDOG_INTERVAL_S = 30.0   # window 60 s + vLLM report spacing 10 s + 30 s: a wedge shows within 2 min


def _stamp() -> str:
    return time.strftime("%H:%M:%S")


def watch_loop(backend: Any, job_id: str, interval: float, timeout: float | None, checkins: list[float],
               on_checkin: Callable[[str], str | None] | None = None, watchdog: bool = False,
               sleep: Callable[[float], None] | None = None, health: Callable[[Any], HealthChanged] | None = None,
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
    if event.changed:
        emit("\n".join(change_lines(job_id, event.report)))


def _label(seconds: float) -> str:
    return f"{seconds / 60:g}m" if seconds % 60 == 0 else f"{seconds:g}s"


def health_checkin(job_id: str, label: str, plan: dict[str, Any] | None, target: dict[str, Any]) -> str | None:
    """The health analysis at a `watch --checkins` mark. Returns "KILL" / "NO-KILL", or None
    when no analysis could be made (reported, never fatal to watch)."""
    from irisrl.ops.health_check import health

    try:   # the same check as `irisrl health JOB` (wall clock, trials, task statuses)
        report = health(job_id, plan=plan, **target).report
    except Exception as exc:  # noqa: BLE001 - a failed check-in is reported, never fatal to watch
        emit(f"  check-in {label}: health analysis failed: {type(exc).__name__}: {exc}", err=True)
        return None
    reasons = "; ".join(list(report.reasons)[:3])
    emit(f"[{_stamp()}] {job_id} check-in {label}: health {report.verdict} "
               f"(phase {report.phase}){': ' + reasons if reasons else ''}")
    emit(f"  details: irisrl health {job_id}")
    return str(report.verdict)


class WatchLogs(JobLogs):
    """The job-bound log source (observe.pull.JobBoundAdapter's `bound`) over watch's own
    backend. Iris's GetJobStatus carries no task list, so the tasks (index, attempts) come
    from one detailed read (ListTasks) on the first poll, while a task has not started yet, and
    when the poll's snapshot shows the tasks changed (state counts, failures, preemptions: a
    new attempt).
    Steady state per poll: watch's GetJobStatus + one FetchLogs per started task. Every task
    is listed (a pending one's status is evidence too) but logs are asked only of started
    ones (`started_only`); the job's status is the poll's snapshot (`snap`), no extra call."""

    started_only = True

    def __init__(self, backend: Any, job_id: str) -> None:
        super().__init__(backend, job_id)
        self.snap: Any = None
        self._views: tuple[Any, ...] = ()
        self._key: tuple[Any, ...] | None = None

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
        return list(self._views)

    @staticmethod
    def _started(view: Any) -> bool:
        return bool(getattr(view, "started", True))


class WatchdogHealth:
    """JobWatcher's `health` check for `watch --watchdog`: one persistent Watchdog (Analyzer +
    JobFeeder) fed only the new lines each poll; `self(snap)` is the poll's HealthChanged.
    Prints nothing (watch renders the events)."""

    def __init__(self, job_id: str, plan: dict[str, Any] | None, source: Any, interval: float,
                 on_snapshot: Callable[[Any], None] = lambda snap: None, config: Any = None) -> None:
        from irisrl.observe.watchdog import Watchdog

        self.dog = Watchdog(job_id, plan, config)
        self.source, self.interval, self.on_snapshot = source, interval, on_snapshot
        self._shown: list[str] = []

    def __call__(self, snap: Any) -> HealthChanged:
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
          hang_after_s: float | None = None, local: bool = False, controller_url: str | None = None,
          cluster_config: str | None = None) -> int:
    """Follow JOB until it is terminal (the `irisrl watch` engine; usable from a notebook).
    Reports (ops/output) a line per transition, check-in and watchdog change; returns the exit code
    (0 succeeded, 1 failed, 2 absent, 3 timeout / unreadable, 5 KILL with `watchdog`, 130
    Ctrl-C: detached, with the re-attach command)."""
    from irisrl.ops.jobs import open_job

    if interval is None:
        interval = WATCHDOG_INTERVAL_S if watchdog else DEFAULT_INTERVAL_S
    job_id, opener, ledger = open_job(job, local, controller_url, cluster_config)
    plan = ledger.plan_for(job_id)
    with opener as backend:
        target = {"local": local, "controller_url": controller_url, "cluster_config": cluster_config}
        health = None
        if watchdog:
            from irisrl.observe.ladder import LadderConfig
            from irisrl.observe.pull import JobBoundAdapter

            logs = WatchLogs(backend, job_id)
            config = LadderConfig() if hang_after_s is None else LadderConfig(hang_after_s=hang_after_s)
            health = WatchdogHealth(job_id, plan, JobBoundAdapter(logs), interval, on_snapshot=logs.use, config=config)
        try:
            code = watch_loop(backend, job_id, interval, timeout_s, list(checkins or []),
                              on_checkin=lambda label: health_checkin(job_id, label, plan, target),
                              watchdog=watchdog, health=health, keep_going=keep_going)
        except KeyboardInterrupt:   # Ctrl-C detaches: watch never kills
            emit(f"\nstopped watching {job_id}; it keeps running.\nre-attach: irisrl watch {job_id}", err=True)
            return int(Exit.INTERRUPTED)
        if code in (Exit.OK, Exit.FAIL) and plan is not None:
            ledger.update_state(job_id, backend.snapshot(job_id, detail=False).state)
    return int(code)
