"""The one in-memory Backend for unit tests of our own logic (watch loops, the launch summary,
live rules): scripted snapshots, canned log lines, recorded submissions. It satisfies
irisrl.backends.base.Backend, checked by mypy (`_is_backend` below; pyproject.toml lists
this file). Tests that need the real scheduler use the Iris local cluster instead."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from irisrl.backends.fit import ClusterState
from irisrl.backends.base import BUNDLE_CAP_BYTES, AttemptView, Backend, JobSnapshot, JobSummary, LogCursor, LogLine, \
    LogPage, SubmitRequest, TaskView, page_after
from irisrl.plan.request import IrisRequest, build_request

if TYPE_CHECKING:
    from irisrl.plan.model import LaunchPlan


def line(task_index: int, data: str, timestamp_ms: int, attempt: int = 0, source: str = "stdout") -> LogLine:
    return LogLine(task_index, attempt, source, data, timestamp_ms)


def task(index: int, *attempts: AttemptView, state: str | None = None, pending_reason: str = "") -> TaskView:
    """A task as ListTasks reports it: its attempts (oldest first), the last one's state,
    exit code and error as the task's own (no attempt: pending)."""
    last = attempts[-1] if attempts else None
    return TaskView(index, state or (last.state if last else "pending"), last.exit_code if last else None,
                    len(attempts), f"worker-{index}" if last else "", last.error if last else "", pending_reason,
                    started=any(a.started_ms for a in attempts), attempt_views=tuple(attempts))


def attempt(attempt_id: int, state: str, started_ms: int | None = None, finished_ms: int | None = None,
            exit_code: int | None = None, error: str = "") -> AttemptView:
    return AttemptView(attempt_id, state, exit_code, error, started_ms, finished_ms)


def finished(job_id: str, state: str, n: int, exit_code: int | None = 0) -> JobSnapshot:
    """A job whose `n` tasks all ended in `state` (rank 0 with `exit_code`)."""
    tasks = tuple(TaskView(i, state, exit_code, 1, f"worker-{i}", started=True) for i in range(n))
    return JobSnapshot(job_id, state, 0, exit_code=exit_code, task_count=n, task_states={state: n}, tasks=tasks)


@dataclass
class MemoryBackend:
    """snapshot() answers from `script`, one item per call (the last repeats; an Exception item
    is raised); with no script, a submitted job reads pending and any other job absent."""
    script: list[JobSnapshot | Exception] = field(default_factory=list)
    lines: list[LogLine] = field(default_factory=list)
    url: str = "memory://"
    kind: str = "url"
    where: str = "memory://"
    calls: int = 0
    submitted: dict[str, IrisRequest] = field(default_factory=dict)
    terminated: list[str] = field(default_factory=list)
    closed: bool = False
    jobs: list[JobSummary] = field(default_factory=list)          # list_jobs' rows (fleet), when given
    statuses: dict[str, JobSnapshot] = field(default_factory=dict)  # snapshot() per job, before `script`
    job_logs: dict[str, list[LogLine]] = field(default_factory=dict)    # logs() per job, before `lines`
    scheduled: list[SubmitRequest] = field(default_factory=list)
    cluster: ClusterState = field(default_factory=lambda: ClusterState(provider="kubernetes"))   # read_cluster()

    def dryrun(self, plan: LaunchPlan, workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> SubmitRequest:
        """The same controller request IrisBackend sends; no bundle (nothing is staged)."""
        return SubmitRequest(plan.job_id, "memory", build_request(plan), Path(workspace or plan.workspace),
                             bundle_cap, (), plan.to_json())

    def schedule(self, request: SubmitRequest) -> str:
        self.calls += 1
        self.scheduled.append(request)
        self.submitted[request.job_id] = request.request
        return request.job_id

    def submit(self, plan: LaunchPlan, workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> str:
        return self.schedule(self.dryrun(plan, workspace, bundle_cap))

    def snapshot(self, job_id: str, detail: bool = True) -> JobSnapshot:
        self.calls += 1
        if job_id in self.statuses:
            return self.statuses[job_id]
        if not self.script:
            return JobSnapshot(job_id, "pending", 1) if job_id in self.submitted else JobSnapshot.missing(job_id)
        item = self.script[min(self.calls - 1, len(self.script) - 1)]
        if isinstance(item, Exception):
            raise item
        return item

    def terminate(self, job_id: str) -> None:
        self.calls += 1
        self.terminated.append(job_id)

    def list_jobs(self, prefix: str | None = None, running_only: bool = False) -> list[JobSummary]:
        self.calls += 1
        if self.jobs:
            return [j for j in self.jobs if j.job_id.startswith(prefix or "") and (not running_only or j.state == "running")]
        jobs = [JobSummary(job_id, "pending") for job_id in self.submitted if job_id.startswith(prefix or "")]
        return [] if running_only else jobs

    def logs(self, job_id: str, cursor: LogCursor = LogCursor(), task_index: int | None = None,
             attempt: int = -1, max_lines: int = 5000) -> LogPage:
        return page_after(lambda since, limit: self.read_lines(job_id, since, limit, task_index), cursor, max_lines,
                          attempt)

    def read_lines(self, job_id: str, since_ms: int, limit: int, task_index: int | None) -> list[LogLine]:
        """One FetchLogs: the job's (or task's) lines at or after `since_ms`, oldest first."""
        self.calls += 1
        found = sorted((ln for ln in self.job_logs.get(job_id, self.lines)
                        if ln.timestamp_ms >= since_ms and task_index in (None, ln.task_index)),
                       key=lambda ln: ln.timestamp_ms)
        return found[:limit]

    def read_cluster(self) -> ClusterState:
        self.calls += 1
        return self.cluster

    def close(self) -> None:
        self.closed = True


def _is_backend(backend: MemoryBackend) -> Backend:
    return backend   # mypy: MemoryBackend satisfies the Backend Protocol
