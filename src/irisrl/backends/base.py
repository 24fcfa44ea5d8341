"""What irisrl needs from a scheduler backend. The Iris SDK adapter (iris_client.py) is the
one implementation; tests use the one in-memory backend, tests/support/memory_backend.py.
mypy (strict here) checks that both satisfy `Backend`: iris_client.py:_is_backend and the
memory backend's own check."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Protocol

from irisrl.core.states import exit_for_state

if TYPE_CHECKING:
    from irisrl.plan.model import LaunchPlan

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

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tasks"] = [asdict(t) for t in self.tasks]
        for task in data["tasks"]:
            task.pop("attempt_views", None)   # `status --json` keeps its shape; health reads them
        for private in ("finished_ms", "gpus_per_task", "gpu_variant"):
            data.pop(private, None)
        return data


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


class Backend(Protocol):
    """A connected scheduler. Every call is one controller round trip (counted in `calls`)."""

    url: str
    kind: str      # local | url | config: how the controller was found
    where: str     # what the ledger records (URL, or the cluster config path)
    calls: int

    def submit(self, plan: "LaunchPlan", workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> str:
        """Submit the plan's request (plan/request.py) as one gang job, its workspace bundled
        (at most `bundle_cap` bytes zipped); the canonical job id."""
        ...

    def snapshot(self, job_id: str, detail: bool = True) -> JobSnapshot:
        """An authoritative read of the job; per-task detail (rank 0's exit code) when `detail`."""
        ...

    def terminate(self, job_id: str) -> None: ...

    def list_jobs(self, prefix: str | None = None, running_only: bool = False) -> list[JobSummary]:
        """Top-level jobs (children excluded), optionally only the running ones."""
        ...

    def fetch_logs(self, job_id: str, since_ms: int = 0, max_lines: int = 0, attempt: int = -1,
                   tail: bool = False, task_index: int | None = None) -> list[LogLine]:
        """Lines of the job (or one task) at or after `since_ms` (inclusive), oldest first."""
        ...

    def close(self) -> None: ...


def count_states(tasks: Iterable[TaskView]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for t in tasks:
        counts[t.state] = counts.get(t.state, 0) + 1
    return counts
