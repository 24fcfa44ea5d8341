"""Opening a job where it runs, one authoritative read, and killing one job (`kill`, the
`irisrl kill` engine and the Python API's) then waiting for the kill to land.
Each talks to the cluster the ledger recorded for the job unless a target says otherwise
(backends/resolve.py)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from irisrl.core.states import ACTIVE
from irisrl.util.errors import UndeterminedError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.backends.base import Backend, JobSnapshot


def open_ledger() -> Any:
    from irisrl.ledger.store import Ledger
    return Ledger()


def open_job(job: str, local: bool = False, controller_url: str | None = None,
             cluster_config: str | None = None) -> tuple[str, Any, Any]:
    """(job id, backend context manager, ledger) for JOB (/user/job or a bare job name)."""
    from irisrl.backends.resolve import Target, normalize_job_id, open_backend

    ledger = open_ledger()
    job_id = normalize_job_id(job, ledger)
    return job_id, open_backend(Target(local, controller_url, cluster_config).check(), job_id, ledger), ledger


@contextmanager
def job_log_source(job: str, target: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(job_id, LogSource) for a live job, through the backend's one entry point; closed on exit."""
    from irisrl.backends.resolve import log_source_for
    from irisrl.observe.pull import as_log_source

    bound = log_source_for(job, target)
    try:
        yield getattr(bound, "job_id", job), as_log_source(bound)
    finally:
        close = getattr(bound, "close", None)
        if callable(close):
            close()


def read_snapshot(backend: Any, job_id: str) -> Any:
    """One authoritative read; an absent job is cross-checked against pods when possible."""
    snap = backend.snapshot(job_id)
    if snap.absent:
        from irisrl.backends.pods import pods_exist

        if pods_exist(job_id):
            raise UndeterminedError(f"{job_id} is unknown to the controller but pods of it still exist",
                                    "check the pods (kubectl get pods -l iris.job_id=...) before acting")
    return snap


def await_terminal(backend: Any, job_id: str, wait_s: float) -> Any:
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


def kill(job: str, *, yes: bool = False, wait_s: float = 30.0, local: bool = False,
         controller_url: str | None = None, cluster_config: str | None = None) -> Killed:
    """Kill one job (/user/job or a bare job name) on the cluster the ledger recorded for it
    (or the target given), as `irisrl kill JOB [--yes]`; the ledger records the final state."""
    job_id, opener, ledger = open_job(job, local, controller_url, cluster_config)
    with opener as backend:
        killed = kill_job(backend, job_id, yes, wait_s)
    if killed.outcome == "terminated":
        ledger.update_state(job_id, killed.snap.state)
    return killed


class JobLogs:
    """The job-bound log source observe/pull.py's JobBoundAdapter expects, over a backend the
    caller already holds: every task (one detailed read), and one task's lines."""

    def __init__(self, backend: Any, job_id: str) -> None:
        self.backend, self.job_id = backend, job_id
        self.snap: Any = None   # the last read: the job's own status (observe/status_feed.py)

    def tasks(self) -> list[Any]:
        self.snap = self.backend.snapshot(self.job_id)
        return list(self.snap.tasks)

    def fetch(self, task_index: int, attempt: int = -1, since_ms: int = 0, max_lines: int = 5000) -> list[Any]:
        lines: list[Any] = self.backend.fetch_logs(self.job_id, since_ms=since_ms, max_lines=max_lines,
                                                   attempt=attempt, task_index=task_index)
        return lines
