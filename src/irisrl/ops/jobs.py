"""Opening a job where it runs, one authoritative read, a job's logs as observe/'s LogSource,
and killing one job (`kill`, the `irisrl kill` engine and the Python API's) then waiting for
the kill to land. A job is opened on the cluster the ledger recorded for it unless a target
says otherwise (backends/resolve.py); every function that talks to the cluster takes the
`Backend` it is given (tests pass tests/support/memory_backend.py)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from irisrl.backends.base import Backend, JobSnapshot, LogCursor, TaskView
from irisrl.core.states import ACTIVE, TASK_DONE
from irisrl.observe import status_feed
from irisrl.observe.pull import Page, TaskRef
from irisrl.observe.task_status import TaskStatus
from irisrl.util.errors import UndeterminedError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.ledger.store import Ledger

__all__ = ["JobLogs", "JobSnapshot", "Killed", "OpenedJob", "kill", "kill_job", "open_job", "read_snapshot", "status"]


def open_ledger() -> "Ledger":
    from irisrl.ledger.store import Ledger
    return Ledger()


@dataclass(frozen=True)
class OpenedJob:
    """JOB resolved: its canonical id, the connected backend of its cluster, the ledger."""
    job_id: str
    backend: Backend
    ledger: "Ledger"


@contextmanager
def open_job(job: str, local: bool = False, controller_url: str | None = None,
             cluster_config: str | None = None) -> Iterator[OpenedJob]:
    """JOB (/user/job or a bare job name) opened where it runs: the CLI's one way to get the
    Backend it hands to ops/ (closed on exit)."""
    from irisrl.backends.resolve import Target, normalize_job_id, open_backend

    ledger = open_ledger()
    job_id = normalize_job_id(job, ledger)
    with open_backend(Target(local, controller_url, cluster_config).check(), job_id, ledger) as backend:
        yield OpenedJob(job_id, backend, ledger)


def job_id_of(job: str) -> str:
    """JOB's canonical id (a bare name: the ledger's launch of it, else /$USER/name)."""
    from irisrl.backends.resolve import normalize_job_id

    return normalize_job_id(job, open_ledger())


def read_snapshot(backend: Backend, job_id: str) -> JobSnapshot:
    """One authoritative read; an absent job is cross-checked against pods when possible."""
    snap = backend.snapshot(job_id)
    if snap.absent:
        from irisrl.backends.pods import pods_exist

        if pods_exist(job_id):
            raise UndeterminedError(f"{job_id} is unknown to the controller but pods of it still exist",
                                    "check the pods (kubectl get pods -l iris.job_id=...) before acting")
    return snap


def status(backend: Backend, job_id: str, ledger: "Ledger | None" = None) -> JobSnapshot:
    """`irisrl status JOB`: one authoritative read; the ledger keeps the state it saw."""
    snap = read_snapshot(backend, job_id)
    if not snap.absent and ledger is not None:
        ledger.update_state(job_id, snap.state)
    return snap


def await_terminal(backend: Backend, job_id: str, wait_s: float) -> JobSnapshot:
    """The job's snapshot once it is no longer active, or after `wait_s` (whichever first)."""
    deadline = time.monotonic() + wait_s
    while True:
        snap = backend.snapshot(job_id)
        if snap.absent or snap.state not in ACTIVE or time.monotonic() >= deadline:
            return snap
        time.sleep(0.5)


@dataclass(frozen=True)
class Killed:
    """What `kill` did: `outcome` is "absent", "inactive" (already terminal), "refused" (active,
    no `yes`) or "terminated"; `snap` the job as last read (after the kill for "terminated");
    `where` the controller; `exit_code` the CLI's (0 killed or already terminal, 1 refused,
    2 absent, 3 not confirmed killed within the wait)."""

    job_id: str
    outcome: str
    snap: JobSnapshot
    where: str

    @property
    def exit_code(self) -> int:
        if self.outcome == "absent":
            return int(Exit.ABSENT)
        if self.outcome == "refused":
            return int(Exit.FAIL)
        if self.outcome == "terminated" and self.snap.state != "killed":
            return int(Exit.UNKNOWN)
        return int(Exit.OK)


def kill_job(backend: Backend, job_id: str, yes: bool = False, wait_s: float = 30.0) -> Killed:
    """Terminate `job_id` on `backend` if it is active and `yes`, then wait up to `wait_s` for
    the controller to say it ended. Never kills without `yes`."""
    where = backend.where
    snap = read_snapshot(backend, job_id)
    if snap.absent:
        return Killed(job_id, "absent", snap, where)
    if snap.state not in ACTIVE:
        return Killed(job_id, "inactive", snap, where)
    if not yes:
        return Killed(job_id, "refused", snap, where)
    backend.terminate(job_id)
    return Killed(job_id, "terminated", await_terminal(backend, job_id, wait_s), where)


def kill(job: str, *, yes: bool = False, wait_s: float = 30.0, backend: Backend | None = None, local: bool = False,
         controller_url: str | None = None, cluster_config: str | None = None) -> Killed:
    """Kill one job (/user/job or a bare job name), as `irisrl kill JOB [--yes]`, on `backend`
    (else the cluster the ledger recorded for it, or the target given); the ledger records
    the final state."""
    if backend is not None:
        return _kill_recorded(backend, job_id_of(job), open_ledger(), yes, wait_s)
    with open_job(job, local, controller_url, cluster_config) as opened:
        return _kill_recorded(opened.backend, opened.job_id, opened.ledger, yes, wait_s)


def _kill_recorded(backend: Backend, job_id: str, ledger: "Ledger", yes: bool, wait_s: float) -> Killed:
    killed = kill_job(backend, job_id, yes, wait_s)
    if killed.outcome == "terminated":
        ledger.update_state(job_id, killed.snap.state)
    return killed


class JobLogs:
    """A job's logs as observe/pull.py's LogSource, over the Backend's one log method: every
    task and attempt (each ref with its attempt's Iris status), paged by the backend's
    LogCursor; the job's own status from the last read.

    `watch` (`follows_polls=True`) hands in each poll's snapshot (`use`) instead of a read
    per pull: Iris's GetJobStatus carries no task list, so the tasks come from one detailed
    read (ListTasks) on the first poll, while a task has not started yet, and when the
    poll's snapshot shows the tasks changed (state counts, failures, preemptions: a new
    attempt); logs are asked only of started tasks (a pending one's status is evidence too)."""

    def __init__(self, backend: Backend, job_id: str, page_lines: int = 5000, follows_polls: bool = False) -> None:
        self.backend, self.job_id, self.page_lines, self.follows_polls = backend, job_id, page_lines, follows_polls
        self.snap: JobSnapshot | None = None   # the last read: the job's own status (observe/status_feed.py)
        self._views: tuple[TaskView, ...] = ()
        self._key: tuple[object, ...] | None = None

    def use(self, snap: JobSnapshot) -> None:
        self.snap = snap

    def views(self) -> list[TaskView]:
        if not self.follows_polls:
            self.snap = self.backend.snapshot(self.job_id)
            return list(self.snap.tasks)
        snap = self.snap
        key = None if snap is None else (tuple(sorted(snap.task_states.items())), snap.failure_count,
                                          snap.preemption_count)
        if snap is not None and snap.tasks:
            self._views = tuple(snap.tasks)
        elif key is None or key != self._key or not self._views or not all(v.started for v in self._views):
            # Also while a task has not started: ListTasks can lag the counts (running, no start time yet).
            self._views = tuple(self.backend.snapshot(self.job_id).tasks)
        self._key = key
        return list(self._views)

    def tasks(self, job_id: str) -> list[TaskRef]:
        refs = []
        for view in self.views():
            fetch = not self.follows_polls or view.started
            statuses = {st.attempt: st for st in status_feed.attempt_statuses(view)}
            ids = sorted(statuses) if view.attempt_views else range(max(1, view.attempts or 1))
            refs += [TaskRef(view.index, attempt, view.state, statuses.get(attempt), fetch) for attempt in ids]
        return refs

    def job_status(self, job_id: str) -> TaskStatus | None:
        return status_feed.job_status(self.snap)

    def job_done(self, job_id: str) -> bool:
        views = self.views()
        return bool(views) and all(v.state.lower() in TASK_DONE for v in views)

    def fetch(self, job_id: str, task_index: int, attempt: int, cursor: object) -> Page:
        start = cursor if isinstance(cursor, LogCursor) else LogCursor()
        page = self.backend.logs(self.job_id, start, task_index=task_index, attempt=attempt,
                                 max_lines=self.page_lines)
        return Page([ln.data for ln in page.lines], page.cursor, page.more)


@dataclass(frozen=True)
class Runs:
    """The ledger's launches (`irisrl runs`): one row per launch, newest first (the ledger's
    columns; with `plan`, each row's masked plan under "plan"), and where the ledger is."""
    rows: list[dict[str, object]]
    ledger_path: str


def runs(series: str | None = None, *, with_plans: bool = False) -> Runs:
    """The launches irisrl recorded (optionally of one series). Launches killed with -9 are
    reaped first, so their rows read `lost` (ops/orphans.py)."""
    from irisrl.ops.local_cluster import announce_reaped

    announce_reaped()
    ledger = open_ledger()
    rows: list[dict[str, object]] = [dict(r) for r in ledger.runs(series)]
    if with_plans:
        rows = [{**r, "plan": ledger.plan_by_row(int(str(r["id"])))} for r in rows]
    return Runs(rows, str(ledger.path))
