"""One poll loop for following a job: JobWatcher yields events (the poll's snapshot, state
transitions, task log lines, health checks, read failures, the end) and both `launch` (ops/follow.py) and
`watch` (ops/watching.py) consume it, each rendering and deciding on its own.

Per poll: one GetJobStatus (`snapshot(detail=False)`), plus one FetchLogs page run when the
watcher follows logs. A transition is a change of (absent, state, task counts, failures,
error, pending reason). Never kills anything."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Union

from irisrl.backends import base
from irisrl.backends.base import Backend, JobSnapshot, LogCursor
from irisrl.core.states import TERMINAL
from irisrl.util.errors import UndeterminedError

if TYPE_CHECKING:
    from irisrl.observe.ladder import HealthReport

READ_FAILURES_MAX = 3   # consecutive failed status reads before a watcher gives up


@dataclass(frozen=True)
class Polled:
    """Every successful read, first in its poll (bookkeeping: phase clocks, log sources)."""
    snap: JobSnapshot


@dataclass(frozen=True)
class Transition:
    snap: JobSnapshot


@dataclass(frozen=True)
class LogLine:
    """One new task log line (backend LogLine: task_index, attempt, timestamp_ms, source, data)."""
    line: base.LogLine

    @property
    def text(self) -> str:
        retry = f".{self.line.attempt}" if self.line.attempt else ""
        return f"[rank {self.line.task_index}{retry}] {self.line.data}"


@dataclass(frozen=True)
class Waiting:
    """The end of a poll of a job that is not terminal: consumers run their per-poll checks."""
    snap: JobSnapshot


@dataclass(frozen=True)
class ReadFailed:
    failures: int
    message: str


@dataclass(frozen=True)
class Finished:
    """The job is terminal or absent (the poll's snapshot, without per-task detail)."""
    snap: JobSnapshot


@dataclass(frozen=True)
class GaveUp:
    """The watcher stopped before the end: reason is "timeout", "pending" or "read_failures"."""
    reason: str
    snap: JobSnapshot | None
    after_s: float


@dataclass(frozen=True)
class HealthChanged:
    """The health check of one poll of a running (or just ended) job, when the watcher was
    given one: `report` (observe's HealthReport; None when the check failed with `error`),
    `changed` (its verdict/phase changed: worth showing), `problems` (log-read problems, only
    when they differ from the last poll's)."""
    report: "HealthReport | None"
    changed: bool
    problems: tuple[str, ...] = ()
    error: str | None = None

    @property
    def verdict(self) -> str | None:
        return None if self.report is None else str(self.report.verdict)


Event = Union[Polled, Transition, LogLine, HealthChanged, Waiting, ReadFailed, Finished, GaveUp]


def _monotonic() -> float:
    return time.monotonic()   # looked up per call: tests move the module's clock


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


class JobWatcher:
    """Poll `job_id` every `interval` s until it ends or a limit is hit.

    `logs`: also page new task log lines each poll. `timeout_s`: give up after this long.
    `pending_deadline_s`: give up on a job still pending after this long (a local gang is
    admitted in seconds). `pause(interval)`: the pause before the next poll (e.g. longer
    while Ray forms). `health(snap) -> HealthChanged`: a health check run each poll of a
    running job and once at the end (e.g. ops/watching.WatchdogHealth)."""

    def __init__(self, backend: Backend, job_id: str, interval: float, *, logs: bool = False,
                 timeout_s: float | None = None, pending_deadline_s: float | None = None,
                 pause: Callable[[float], float] | None = None, sleep: Callable[[float], None] | None = None,
                 clock: Callable[[], float] | None = None,
                 health: Callable[[JobSnapshot], HealthChanged] | None = None) -> None:
        self.backend, self.job_id, self.interval = backend, job_id, interval
        self.timeout_s, self.pending_deadline_s = timeout_s, pending_deadline_s
        self.pause = pause or (lambda base: base)
        self.sleep = sleep or _sleep
        self.clock = clock or _monotonic
        self.log_pager = LogPager(backend, job_id) if logs else None
        self.health = health

    def events(self) -> Iterator[Event]:
        start = self.clock()
        last_key: tuple[object, ...] | None = None
        failures = 0
        while True:
            try:
                snap = self.backend.snapshot(self.job_id, detail=False)
                failures = 0
            except UndeterminedError as exc:
                failures += 1
                yield ReadFailed(failures, exc.message)
                if failures >= READ_FAILURES_MAX:
                    yield GaveUp("read_failures", None, self.clock() - start)
                    return
                snap = None
            if snap is not None:
                yield Polled(snap)
                key = (snap.absent, snap.state, tuple(sorted(snap.task_states.items())), snap.failure_count,
                       snap.error, snap.pending_reason)
                if key != last_key:
                    yield Transition(snap)
                    last_key = key
                yield from self._log_lines(snap)
                if snap.absent or snap.state in TERMINAL:
                    yield from self._log_lines(snap)   # the lines written as it ended
                    if self.health is not None and not snap.absent:
                        yield self.health(snap)   # the last lines: the final verdict/phase, for the record
                    yield Finished(snap)
                    return
                if self.health is not None and snap.state == "running":
                    yield self.health(snap)
                yield Waiting(snap)
            elapsed = self.clock() - start
            if self.timeout_s is not None and elapsed >= self.timeout_s:
                yield GaveUp("timeout", snap, elapsed)
                return
            if self.pending_deadline_s is not None and snap is not None and snap.state == "pending" \
                    and elapsed > self.pending_deadline_s:
                yield GaveUp("pending", snap, elapsed)
                return
            self.sleep(self.pause(self.interval))

    def _log_lines(self, snap: JobSnapshot) -> Iterator[LogLine]:
        if self.log_pager is not None:
            tasks = max(snap.task_count, sum(snap.task_states.values()))
            yield from (LogLine(line) for line in self.log_pager.page(tasks))


class LogPager:
    """New task log lines of all ranks, each task paged by its own cursor (Backend.logs). One
    cursor for the whole job would lose lines: tasks push their logs separately, so a rank's
    line can reach the store after another rank's later one, behind a job-wide cursor (seen:
    rank 0's last line missing from `launch --local`'s output under load)."""

    def __init__(self, backend: Backend, job_id: str, page_size: int = 1000) -> None:
        self.backend, self.job_id, self.page_size = backend, job_id, page_size
        self.cursors: dict[int, LogCursor] = {}

    def page(self, task_count: int, max_pages: int = 20) -> Iterator[base.LogLine]:
        """Every task's new lines (tasks 0 .. task_count-1; at least task 0), task by task."""
        for task in range(max(1, task_count)):
            for _ in range(max_pages):
                page = self.backend.logs(self.job_id, self.cursors.get(task, LogCursor()), task_index=task,
                                         max_lines=self.page_size)
                self.cursors[task] = page.cursor
                yield from page.lines
                if not page.more:
                    break


def transition_line(snap: JobSnapshot) -> str:
    """`[HH:MM:SS] JOB state=S tasks=k:v,... failures=N [error=...] [waiting=...]`."""
    parts = [f"[{time.strftime('%H:%M:%S')}] {snap.job_id} state={'absent' if snap.absent else snap.state}",
             f"tasks={task_counts(snap.task_states)}", f"failures={snap.failure_count}"]
    if snap.error:
        parts.append(f"error={one_line(snap.error)}")
    if snap.pending_reason and snap.state in ("pending", "building"):
        parts.append(f"waiting={one_line(snap.pending_reason)}")  # gang admission, coschedule, image pull
    return " ".join(parts)


def task_counts(counts: dict[str, int]) -> str:
    return ",".join(f"{k}:{v}" for k, v in sorted(counts.items())) or "-"


def one_line(text: str) -> str:
    return " ".join(text.split())
