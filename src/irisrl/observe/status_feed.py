"""The orchestrator's own status of every task attempt, and of the job, turned into
`irisrl-task-status:` lines (observe/task_status.py) for the analyzer's streams: a line only
when that attempt's (or the job's) status changes, never one per poll.

What Iris gives (marin-iris 0.2.20.dev202606180959, iris/rpc/job.proto): ListTasks' TaskStatus
per task with its TaskAttempts (attempt_id, state, exit_code, error, started_at, finished_at;
filled by iris/cluster/controller/service.py task_to_proto); GetJobStatus' JobStatus (state,
exit_code, error, finished_at, and `pending_reason` only while the job is PENDING: the
scheduler's diagnostic plus the autoscaler's hint). Error texts are the runtime's: the worker's
`Exit code 137: killed by SIGKILL (possibly OOM or resource limit)` (iris/cluster/worker/
task_attempt.py format_exit_error), Kubernetes' terminated reason/message (`OOMKilled`,
`Evicted`; iris/cluster/backends/k8s/tasks.py _extract_error).

Backends' views are read by attribute (observe imports no backend): a task view has index,
state, exit_code, attempts, error, pending_reason and optionally attempt_views (attempt_id,
state, exit_code, error, started_ms, finished_ms); a job snapshot has state, exit_code,
error, pending_reason and optionally finished_ms. A task's pending_reason (newer Iris: also
the backend's waiting reason, e.g. Kubernetes' ImagePullBackOff) goes with its attempt in
flight; ListTasks' own "Retrying (attempt N, last: failed)" follows a finished attempt and
is left out. Stamps: a finished attempt at its finish,
a running one at its start, a pending one undated (it takes its stream's last time)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from irisrl.observe.task_status import STATUS_TAG, TaskStatus

JOB_STREAM = "job"   # the analyzer source (and pulled file job.log) of the job-level line
_ACTIVE = frozenset({"PENDING", "ASSIGNED", "BUILDING", "RUNNING", "UNSPECIFIED"})


def _name(state: Any) -> str:
    """Iris's state name without the TASK_STATE_ / JOB_STATE_ prefix, upper case."""
    text = str(state or "unspecified").upper()
    return text.removeprefix("TASK_STATE_").removeprefix("JOB_STATE_")


def _secs(ms: Any) -> float | None:
    return ms / 1000.0 if isinstance(ms, int) and ms > 0 else None


def attempt_statuses(view: Any) -> list[TaskStatus]:
    """One TaskStatus per attempt of a task view; a task with no attempt yet (pending) gives
    one for attempt 0 with the task's own state and pending reason."""
    index = int(view.index)
    attempts = tuple(getattr(view, "attempt_views", ()) or ())
    if not attempts:
        last = max(0, int(getattr(view, "attempts", 0) or 0) - 1)
        return [TaskStatus(index, last, _name(view.state), getattr(view, "exit_code", None),
                           str(getattr(view, "error", "") or ""), str(getattr(view, "pending_reason", "") or ""))]
    out = []
    for a in attempts:
        when = a.finished_ms if a.finished_ms else a.started_ms
        out.append(TaskStatus(index, int(a.attempt_id), _name(a.state), a.exit_code, str(a.error or ""), "",
                              _secs(when)))
    if not is_settled(out[-1]):   # the task's waiting reason belongs to its attempt in flight
        out[-1] = replace(out[-1], pending=str(getattr(view, "pending_reason", "") or ""))
    return out


def job_status(snap: Any) -> TaskStatus | None:
    """The job's own status (task_index/attempt unused: the job line has no task prefix)."""
    if snap is None or getattr(snap, "absent", False):
        return None
    code = getattr(snap, "exit_code", None) if _name(snap.state) not in _ACTIVE else None
    return TaskStatus(-1, 0, _name(snap.state), code, str(getattr(snap, "error", "") or ""),
                      str(getattr(snap, "pending_reason", "") or ""), _secs(getattr(snap, "finished_ms", None)))


def describe(status: TaskStatus) -> str:
    """One line for a person: `PENDING: Scheduler: ...` / `FAILED (exit 1): ...`."""
    code = f" (exit {status.exit_code})" if status.exit_code not in (None, 0) else ""
    why = " ".join((status.pending or status.error).split())
    return f"{status.state}{code}" + (f": {why}" if why else "")


def job_line(status: TaskStatus) -> str:
    """The job-level line: the task line's shape without the `[i/a] ` prefix (no rank)."""
    line = status.to_line()
    return line[line.index("] ") + 2:]


def key(status: TaskStatus) -> tuple[str, int | None, str, str]:
    """What makes a status new: a changed state, exit code, error or pending reason."""
    return (status.state, status.exit_code, status.error, status.pending)


def is_settled(status: TaskStatus) -> bool:
    """Terminal: its line goes after that attempt's logs (it happened after them)."""
    return status.state not in _ACTIVE


def encoded(line: str) -> bytes:
    return (line + "\n").encode("utf-8", "replace")


__all__ = ["JOB_STREAM", "STATUS_TAG", "attempt_statuses", "describe", "encoded", "is_settled", "job_line", "job_status", "key"]
