"""A task's own status, as the orchestrator reports it, written as a log line so the analyzer
reads it like any other evidence (same streams, same clock, same cause catalogue).

`health JOB` and the watchdog turn each task attempt's status from Iris (state, exit code,
error text, pending reason) into one line fed into that task's stream:

    [3/0] irisrl-task-status: state=FAILED exit_code=137 error="OOMKilled" pending="" at=2026-12-03T16:00:00Z

The `[i/a] ` prefix is the one `patterns.clean` already strips (rank); the rest is
`STATUS_TAG` then `key=value` pairs with JSON-quoted strings, so any error text round-trips.
The orchestrator's time of the change (`at=`, UTC) comes last, past where the analyzer looks for
a line's own time: the line is undated to the ladder and takes its stream's last time (it sits
right after that attempt's last line). A leading stamp would mix Iris's wall clock into the log
clock, which may be another zone or, in tests, fabricated: the newest dated line would jump,
and an engine's last report would read as hours of silence (seen on the live wedge test). A line of this shape is evidence that the process ended when its state
is terminal and not SUCCEEDED, or its exit code is non-zero. This module is a leaf (stdlib only).
"""

from __future__ import annotations

import calendar
import json
import re
import time
from dataclasses import dataclass

STATUS_TAG = "irisrl-task-status:"
TERMINAL_STATES = frozenset({"SUCCEEDED", "FAILED", "KILLED", "WORKER_FAILED", "PREEMPTED",
                             "UNSCHEDULABLE", "EVICTED"})
_LINE = re.compile(r'irisrl-task-status: state=(\w+) exit_code=(-?\d+|none) '
                   r'error=("(?:[^"\\]|\\.)*") pending=("(?:[^"\\]|\\.)*")(?: at=(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ))?')


@dataclass(frozen=True)
class TaskStatus:
    task_index: int
    attempt: int
    state: str                   # Iris's task state name without the TASK_STATE_ prefix
    exit_code: int | None = None
    error: str = ""              # the orchestrator's error text (e.g. "OOMKilled", an image pull error)
    pending: str = ""            # why a task is not running yet (Iris's pending reason)
    time: float | None = None    # epoch seconds of the state change, when known (written as `at=`)

    @property
    def ended_badly(self) -> bool:
        """The process ended and not cleanly: a failed terminal state or a non-zero exit code."""
        failed_state = self.state in TERMINAL_STATES and self.state != "SUCCEEDED"
        return failed_state or (self.exit_code is not None and self.exit_code != 0)

    def to_line(self) -> str:
        at = time.strftime(" at=%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.time)) if self.time else ""
        code = "none" if self.exit_code is None else str(self.exit_code)
        return (f"[{self.task_index}/{self.attempt}] {STATUS_TAG} state={self.state} "
                f"exit_code={code} error={json.dumps(self.error)} pending={json.dumps(self.pending)}{at}")


def parse_status(text: str, task_index: int = 0, attempt: int = 0) -> TaskStatus | None:
    """Read a cleaned line (prefix and stamp already stripped) back; None if it is not one."""
    m = _LINE.search(text)
    if m is None:
        return None
    code = None if m.group(2) == "none" else int(m.group(2))
    at = calendar.timegm(time.strptime(m.group(5), "%Y-%m-%dT%H:%M:%SZ")) if m.group(5) else None
    return TaskStatus(task_index, attempt, m.group(1), code,
                      json.loads(m.group(3)), json.loads(m.group(4)), None if at is None else float(at))
