"""What irisrl needs from a scheduler backend. The Iris SDK adapter (iris_client.py) is the
one implementation; tests use the one in-memory backend, tests/support/memory_backend.py.
mypy (strict here) checks that both satisfy `Backend`: iris_client.py:_is_backend and the
memory backend's own check."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Protocol, TypedDict

from irisrl.core.states import exit_for_state

if TYPE_CHECKING:
    from irisrl.backends.fit import ClusterState
    from irisrl.plan.model import LaunchPlan
    from irisrl.plan.request import IrisRequest

BUNDLE_CAP_BYTES = 25 * 2**20   # Iris's own cap on a zipped workspace bundle (profiles may lower it)


@dataclass(frozen=True)
class AttemptView:
    """One attempt of a task as ListTasks reports it (Iris's TaskAttempt)."""
    attempt_id: int
    state: str
    exit_code: int | None        # None until the attempt finished
    error: str = ""
    started_ms: int | None = None
    finished_ms: int | None = None


@dataclass(frozen=True)
class TaskView:
    index: int
    state: str
    exit_code: int | None
    attempts: int
    worker: str
    error: str = ""
    pending_reason: str = ""
    started: bool = False   # has run at least once (any attempt has a start time)
    attempt_views: tuple[AttemptView, ...] = ()   # per attempt, oldest first (empty: not read)


@dataclass(frozen=True)
class JobSnapshot:
    """One authoritative read of a job (the shape of `irisrl status --json`)."""
    job_id: str
    state: str
    state_int: int
    error: str = ""
    exit_code: int | None = None
    failure_count: int = 0
    preemption_count: int = 0
    task_count: int = 0
    task_states: dict[str, int] = field(default_factory=dict)
    tasks: tuple[TaskView, ...] = ()
    absent: bool = False
    pending_reason: str = ""
    finished_ms: int | None = None   # when the job reached a terminal state (GetJobStatus finished_at)
    gpus_per_task: int = 0           # GetJobStatus resources.device.gpu.count (ListJobs leaves resources out)
    gpu_variant: str = ""

    @classmethod
    def missing(cls, job_id: str) -> "JobSnapshot":
        return cls(job_id=job_id, state="absent", state_int=0, absent=True)

    @property
    def exit(self) -> int:
        return int(exit_for_state(self.state, self.absent))

    @property
    def all_tasks_started(self) -> bool:
        """Every task has run at least once (check-ins count from here, not from submit)."""
        if self.tasks:
            return all(t.started for t in self.tasks)
        waiting = sum(n for s, n in self.task_states.items() if s in ("pending", "assigned", "unspecified"))
        return self.task_count > 0 and sum(self.task_states.values()) >= self.task_count and waiting == 0

    def to_dict(self) -> "SnapshotDict":
        tasks: list[TaskDict] = [TaskDict(index=t.index, state=t.state, exit_code=t.exit_code, attempts=t.attempts,
                                          worker=t.worker, error=t.error, pending_reason=t.pending_reason,
                                          started=t.started) for t in self.tasks]
        return SnapshotDict(job_id=self.job_id, state=self.state, state_int=self.state_int, error=self.error,
                            exit_code=self.exit_code, failure_count=self.failure_count,
                            preemption_count=self.preemption_count, task_count=self.task_count,
                            task_states=dict(self.task_states), tasks=tasks, absent=self.absent,
                            pending_reason=self.pending_reason)


class TaskDict(TypedDict):
    """One task in `irisrl status --json` (its attempts stay out: health reads them)."""
    index: int
    state: str
    exit_code: int | None
    attempts: int
    worker: str
    error: str
    pending_reason: str
    started: bool


class SnapshotDict(TypedDict):
    """JobSnapshot.to_dict(): the shape `irisrl status --json` is cut from."""
    job_id: str
    state: str
    state_int: int
    error: str
    exit_code: int | None
    failure_count: int
    preemption_count: int
    task_count: int
    task_states: dict[str, int]
    tasks: list[TaskDict]
    absent: bool
    pending_reason: str


@dataclass(frozen=True)
class JobSummary:
    """One row of the controller's job listing (ListJobs' JobStatus: marin-iris 0.2.20
    iris/rpc/job.proto, fields submitted_at, started_at, finished_at, resources, task_count)."""
    job_id: str
    state: str
    task_states: dict[str, int] = field(default_factory=dict)
    task_count: int = 0
    gpus_per_task: int = 0           # resources.device.gpu.count (0: no GPU asked)
    gpu_variant: str = ""            # resources.device.gpu.variant, e.g. "H100"
    submitted_ms: int | None = None
    started_ms: int | None = None    # the first task started (the gang was admitted)
    finished_ms: int | None = None   # reached a terminal state
    error: str = ""

    @property
    def user(self) -> str:
        """The job id's first part (/<user>/<job>)."""
        parts = self.job_id.strip("/").split("/")
        return parts[0] if len(parts) > 1 else ""

    @property
    def admitted_and_running(self) -> bool:
        """RUNNING with a task actually running: Iris reports a gang whose tasks are only
        assigned (not admitted / SchedulingGated pods) as a RUNNING job already."""
        return self.state == "running" and self.task_states.get("running", 0) > 0


@dataclass(frozen=True)
class LogLine:
    task_index: int
    attempt: int
    source: str
    data: str
    timestamp_ms: int


LineKey = tuple[int, int, str, str]   # (task, attempt, source, digest of the text) of a line at the cursor's ms


@dataclass(frozen=True)
class LogCursor:
    """Where a log read stopped: the newest millisecond read and the lines of that millisecond
    already returned (lines of one millisecond can arrive in separate pushes and pages can cut
    inside one: the next read asks from that millisecond again and skips exactly these)."""
    since_ms: int = 0
    seen: tuple[LineKey, ...] = ()


@dataclass(frozen=True)
class LogPage:
    """Lines after a cursor, oldest first; `cursor` continues after them; `more`: a full page
    came back (ask again now), else caught up for now."""
    lines: tuple[LogLine, ...]
    cursor: LogCursor
    more: bool


def line_key(line: LogLine) -> LineKey:
    """A digest, not the text: a cursor may be saved (fleet's state files) and a line may hold
    a secret."""
    digest = hashlib.blake2b(line.data.encode("utf-8", "replace"), digest_size=8).hexdigest()
    return (line.task_index, line.attempt, line.source, digest)


def page_after(read: Callable[[int, int], list[LogLine]], cursor: LogCursor, max_lines: int,
               attempt: int = -1, max_page_lines: int = 200_000) -> LogPage:
    """The one log-paging rule over a read `read(since_ms, limit)` that returns lines at or after
    since_ms (inclusive), oldest first: drop what the cursor saw at its millisecond (a multiset:
    two equal lines are two lines), grow the page while a whole page sits inside that
    millisecond, keep only `attempt`'s lines (-1: all). The cursor covers every line read (any
    attempt), so the next read neither loses nor repeats one."""
    limit = max(1, max_lines)
    while True:
        lines = read(cursor.since_ms, limit)
        fresh = _unseen(lines, cursor)
        if fresh or len(lines) < limit or limit >= max_page_lines:
            break
        limit *= 2   # a whole page inside one millisecond: ask for a larger page
    if not fresh:
        return LogPage((), cursor, False)
    newest = max(ln.timestamp_ms for ln in fresh)
    at_newest = [line_key(ln) for ln in lines if ln.timestamp_ms == newest]
    mine = tuple(ln for ln in fresh if attempt in (-1, ln.attempt))
    return LogPage(mine, LogCursor(newest, tuple(at_newest)), len(lines) >= limit)


def _unseen(lines: list[LogLine], cursor: LogCursor) -> list[LogLine]:
    left: dict[LineKey, int] = {}
    for key in cursor.seen:
        left[key] = left.get(key, 0) + 1
    fresh = []
    for ln in lines:
        key = line_key(ln)
        if ln.timestamp_ms == cursor.since_ms and left.get(key, 0) > 0:
            left[key] -= 1
            continue
        if ln.timestamp_ms >= cursor.since_ms:
            fresh.append(ln)
    return fresh


@dataclass(frozen=True)
class BundleFile:
    """One file of the workspace bundle: `path` inside it, `size` in bytes (before zipping);
    `source` on this machine (None: written at staging, e.g. the plan)."""
    path: str
    size: int
    source: Path | None = None


class BundleFileDict(TypedDict):
    path: str
    bytes: int


class SubmitRequestDict(TypedDict):
    job_id: str
    backend: str
    request: dict[str, object]
    workspace: str
    bundle_cap_bytes: int
    bundle: list[BundleFileDict]
    bundle_bytes: int


@dataclass(frozen=True)
class SubmitRequest:
    """What `Backend.dryrun(plan)` returns and `Backend.schedule` sends (TorchX's AppDryRunInfo
    shape): the controller request (plan/request.py, secrets unmasked; to_dict() masks them)
    and what the workspace bundle will hold. `backend`: which backend made it."""
    job_id: str
    backend: str
    request: "IrisRequest"
    workspace: Path
    bundle_cap: int
    bundle: tuple[BundleFile, ...]
    plan_json: str

    @property
    def bundle_bytes(self) -> int:
        return sum(f.size for f in self.bundle)

    def to_dict(self) -> SubmitRequestDict:
        return SubmitRequestDict(job_id=self.job_id, backend=self.backend, request=dict(self.request.to_dict()),
                                 workspace=str(self.workspace), bundle_cap_bytes=self.bundle_cap,
                                 bundle=[BundleFileDict(path=f.path, bytes=f.size) for f in self.bundle],
                                 bundle_bytes=self.bundle_bytes)


class Backend(Protocol):
    """A connected scheduler. Every call is one controller round trip (counted in `calls`),
    except dryrun (no round trip)."""

    url: str
    kind: str      # local | url | config: how the controller was found
    where: str     # what the ledger records (URL, or the cluster config path)
    calls: int

    def dryrun(self, plan: "LaunchPlan", workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> SubmitRequest:
        """The request `schedule` would send for `plan` (its workspace bundled, at most
        `bundle_cap` bytes zipped), sending nothing."""
        ...

    def schedule(self, request: SubmitRequest) -> str:
        """Send a dryrun's request as one gang job; the canonical job id."""
        ...

    def submit(self, plan: "LaunchPlan", workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> str:
        """schedule(dryrun(plan, workspace, bundle_cap))."""
        ...

    def snapshot(self, job_id: str, detail: bool = True) -> JobSnapshot:
        """An authoritative read of the job; per-task detail (rank 0's exit code) when `detail`."""
        ...

    def terminate(self, job_id: str) -> None: ...

    def read_cluster(self) -> "ClusterState":
        """What the scheduler sees (workers, what holds them, scale groups that can still grow;
        backends/cluster_state.py): `fit`'s input. No workers: provider "kubernetes"."""
        ...

    def list_jobs(self, prefix: str | None = None, running_only: bool = False) -> list[JobSummary]:
        """Top-level jobs (children excluded), optionally only the running ones."""
        ...

    def logs(self, job_id: str, cursor: LogCursor = LogCursor(), task_index: int | None = None,
             attempt: int = -1, max_lines: int = 5000) -> LogPage:
        """The lines of the job (or one task; one attempt, or all with -1) after `cursor`, oldest
        first, at most about `max_lines` (page_after's rule)."""
        ...

    def close(self) -> None: ...


def count_states(tasks: Iterable[TaskView]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for t in tasks:
        counts[t.state] = counts.get(t.state, 0) + 1
    return counts
