"""A task's own status, as the orchestrator reports it, written as a log line so the analyzer
reads it like any other evidence (same streams, same clock, same cause catalogue).

`health JOB` and the watchdog turn each task attempt's status from Iris (state, exit code,
error text, pending reason) into one line fed into that task's stream:

    [3/0] 2026-12-03T16:00:00Z irisrl-task-status: state=FAILED exit_code=137 error="OOMKilled" pending=""

The `[i/a] ` prefix and the RFC3339 stamp are the ones `patterns.clean` already strips (rank
and time); the rest is `STATUS_TAG` then `key=value` pairs with JSON-quoted strings, so any
error text round-trips. A line of this shape is evidence that the process ended when its state
is terminal and not SUCCEEDED, or its exit code is non-zero. This module is a leaf (stdlib only).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

STATUS_TAG = "irisrl-task-status:"
TERMINAL_STATES = frozenset({"SUCCEEDED", "FAILED", "KILLED", "WORKER_FAILED", "PREEMPTED",
                             "UNSCHEDULABLE", "EVICTED"})
_LINE = re.compile(r'irisrl-task-status: state=(\w+) exit_code=(-?\d+|none) '
                   r'error=("(?:[^"\\]|\\.)*") pending=("(?:[^"\\]|\\.)*")')


@dataclass(frozen=True)
class TaskStatus:
    task_index: int
    attempt: int
    state: str                   # Iris's task state name without the TASK_STATE_ prefix
    exit_code: int | None = None
    error: str = ""              # the orchestrator's error text (e.g. "OOMKilled", an image pull error)
    pending: str = ""            # why a task is not running yet (Iris's pending reason)
    time: float | None = None    # epoch seconds of the state change, when known

    @property
    def ended_badly(self) -> bool:
        """The process ended and not cleanly: a failed terminal state or a non-zero exit code."""
        failed_state = self.state in TERMINAL_STATES and self.state != "SUCCEEDED"
        return failed_state or (self.exit_code is not None and self.exit_code != 0)

    def to_line(self) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ ", time.gmtime(self.time)) if self.time else ""
        code = "none" if self.exit_code is None else str(self.exit_code)
        return (f"[{self.task_index}/{self.attempt}] {stamp}{STATUS_TAG} state={self.state} "
                f"exit_code={code} error={json.dumps(self.error)} pending={json.dumps(self.pending)}")


def parse_status(text: str, task_index: int = 0, attempt: int = 0) -> TaskStatus | None:
    """Read a cleaned line (prefix and stamp already stripped) back; None if it is not one."""
    m = _LINE.search(text)
    if m is None:
        return None
    code = None if m.group(2) == "none" else int(m.group(2))
    return TaskStatus(task_index, attempt, m.group(1), code,
                      json.loads(m.group(3)), json.loads(m.group(4)))
