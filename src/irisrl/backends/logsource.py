"""Task logs of one job for observe/ (health, logs, progress): the task list and paged
fetches per task and attempt, over the job's backend (opened by backends/resolve.py's
log_source_for, resolved like every JOB command: this module imports nothing above base.py)."""

from __future__ import annotations

from contextlib import AbstractContextManager, ExitStack

from irisrl.backends.base import Backend, JobSnapshot, LogLine, TaskView


class IrisLogSource:
    """Owns the backend `opener` yields (entered here, left on close)."""

    def __init__(self, job_id: str, opener: AbstractContextManager[Backend]) -> None:
        self.job_id = job_id
        self.snap: JobSnapshot | None = None
        self._stack = ExitStack()
        self._backend = self._stack.enter_context(opener)

    @property
    def cluster(self) -> str:
        return str(self._backend.where)

    def tasks(self) -> list[TaskView]:
        """One entry per task: index, state, attempts (ids 0..attempts-1, each one's status),
        worker. The read (GetJobStatus + ListTasks) is kept as `snap`: the job's own status."""
        self.snap = self._backend.snapshot(self.job_id)
        return list(self.snap.tasks)

    def fetch(self, task_index: int, attempt: int = -1, since_ms: int = 0, max_lines: int = 5000) -> list[LogLine]:
        """Up to `max_lines` lines of one task (one attempt, or all with -1) after `since_ms`;
        page by passing the last line's timestamp_ms + 1."""
        lines: list[LogLine] = self._backend.fetch_logs(self.job_id, since_ms=since_ms, max_lines=max_lines,
                                                        attempt=attempt, task_index=task_index)
        return lines

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> "IrisLogSource":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
