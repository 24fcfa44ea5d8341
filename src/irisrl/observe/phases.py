"""Phase timings of one launch, derived from what the launcher sees: its own marks (entered,
validated, cluster up, submitted), the job's state transitions and the runtime's
`[irisrl] ...` log lines. Pure: callers pass wall-clock times (log lines: their Iris
timestamp); nothing here reads a clock, a file or the network.

Phases (each from the end of the previous mark that was reached):
    validate          process start -> plan built (rules ran)
    local cluster     -> the temporary local Iris controller answers (only when one was started)
    submit            -> Iris accepted the job (live checks, bundle, RPC)
    submit->running   -> every task runs (Iris scheduling, slice scale-up, task start)
    running->Ray N/N  -> `Ray nodes alive: N/N` (staging, node checks, rendezvous, `ray start`)
    rehearsal         -> PLACEMENT_MAP / PLACEMENT_FAILED / `Command exited` (or: command)
    job end           -> a terminal state (Ray stopped on every node, Iris notices)
    logs + health     -> logs pulled and the ladder evaluated
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from irisrl.core.states import TERMINAL

STARTED, ENTERED, VALIDATED = "started", "entered", "validated"
CLUSTER_UP, SUBMITTED, RUNNING = "cluster_up", "submitted", "running"
RAY_FORMED, COMMAND_DONE, ENDED, COLLECTED = "ray_formed", "command_done", "ended", "collected"

# (phase label, the mark that ends it, what the spinner says while it is open)
PHASES: tuple[tuple[str, str], ...] = (
    ("validate", VALIDATED),
    ("local cluster", CLUSTER_UP),
    ("submit", SUBMITTED),
    ("submit -> running", RUNNING),
    ("running -> Ray N/N", RAY_FORMED),
    ("rehearsal", COMMAND_DONE),
    ("job end", ENDED),
    ("logs + health", COLLECTED),
)

_CONTROLLER = re.compile(r"\[irisrl\] Runtime controller rank (\d+)/(\d+)")
_ALIVE = re.compile(r"\[irisrl\] Ray nodes alive: (\d+)/(\d+)")
_MAP = re.compile(r"\[irisrl\] PLACEMENT_MAP (\{.*\})\s*$")
_FAILED = re.compile(r"\[irisrl\] (PLACEMENT_FAILED .*?)\s*$")
_EXITED = re.compile(r"\[irisrl\] Command exited with code (-?\d+)")
_ERROR = re.compile(r"\[irisrl\] (ERROR .*?)\s*$")


@dataclass(frozen=True)
class Phase:
    name: str
    seconds: float | None      # None: the phase never ended (or never began)
    note: str = ""


@dataclass
class PhaseClock:
    """Collects marks; `phases()` turns them into durations. First observation wins, except
    RUNNING, which takes the earlier of the state transition and the last rank's first line
    (the state is only seen at poll time)."""
    num_tasks: int
    command_label: str = "rehearsal"
    marks: dict[str, float] = field(default_factory=dict)
    ranks_started: dict[int, float] = field(default_factory=dict)
    alive: tuple[int, int] | None = None
    state: str = ""
    task_states: dict[str, int] = field(default_factory=dict)
    placement: dict[str, Any] | None = None
    placement_failed: str | None = None
    command_exit: int | None = None
    errors: list[str] = field(default_factory=list)
    # applied to the text the clock keeps (errors, a placement failure): they reach the
    # summary and summary.json, so a secret a task printed must not (issue 16, D17)
    mask: Callable[[str], str] = field(default=lambda text: text, repr=False)

    def mark(self, name: str, t: float) -> None:
        self.marks.setdefault(name, t)

    def _mark_earliest(self, name: str, t: float) -> None:
        self.marks[name] = min(t, self.marks.get(name, t))

    def observe_state(self, state: str, task_states: dict[str, int], t: float) -> None:
        self.state, self.task_states = state, dict(task_states)
        if task_states.get("running", 0) >= self.num_tasks or (state == "running" and not task_states):
            self._mark_earliest(RUNNING, t)
        if state in TERMINAL:
            self.mark(ENDED, t)

    def observe_line(self, text: str, t: float) -> None:
        """One task log line (any rank) with its timestamp."""
        if "[irisrl]" not in text:
            return
        if m := _CONTROLLER.search(text):
            self.ranks_started.setdefault(int(m.group(1)), t)
            if len(self.ranks_started) >= self.num_tasks:
                self._mark_earliest(RUNNING, max(self.ranks_started.values()))
        elif m := _ALIVE.search(text):
            self.alive = (int(m.group(1)), int(m.group(2)))
            if self.alive[0] >= self.alive[1]:
                self.mark(RAY_FORMED, t)
        elif m := _MAP.search(text):
            self.placement = _json_or_none(m.group(1))
            self.mark(COMMAND_DONE, t)
        elif m := _FAILED.search(text):
            self.placement_failed = self.placement_failed or self.mask(m.group(1))
            self.mark(COMMAND_DONE, t)
        elif m := _EXITED.search(text):
            self.command_exit = int(m.group(1))
            self.mark(COMMAND_DONE, t)
        elif (m := _ERROR.search(text)) and len(self.errors) < 20:
            error = self.mask(m.group(1))
            if error not in self.errors:   # lines are seen live and again in the replay
                self.errors.append(error)

    def start(self) -> float | None:
        return self.marks.get(STARTED, self.marks.get(ENTERED))

    def phases(self) -> list[Phase]:
        """Every phase whose end was reached, in order, plus the first one still open."""
        out: list[Phase] = []
        prev = self.start()
        steps = [(label, m) for label, m in PHASES if m != CLUSTER_UP or CLUSTER_UP in self.marks]
        for i, (label, end_mark) in enumerate(steps):
            name = self.command_label if end_mark == COMMAND_DONE else label
            end = self.marks.get(end_mark)
            if end is None or prev is None:
                if prev is None or not any(m in self.marks for _, m in steps[i + 1:]):
                    out.append(Phase(name, None, "not reached"))
                    break
                out.append(Phase(name, None, "not observed (counted in the next phase)"))
                continue
            out.append(Phase(name, max(0.0, end - prev)))
            prev = max(prev, end)
        return out

    def total(self) -> float | None:
        start = self.start()
        ends = [t for k, t in self.marks.items() if k not in (STARTED, ENTERED)]
        return max(ends) - start if start is not None and ends else None

    def waiting_for(self) -> str:
        """What the launcher is waiting for now (the spinner's text)."""
        n = self.num_tasks
        if SUBMITTED not in self.marks:
            return "submitting the job to Iris"
        if ENDED in self.marks:
            return f"job {self.state}: pulling the logs, health check-in"
        if RUNNING not in self.marks:
            counts = ", ".join(f"{k}:{v}" for k, v in sorted(self.task_states.items())) or self.state or "pending"
            return f"Iris: scheduling {n} task(s) as one gang ({counts})"
        if RAY_FORMED not in self.marks:
            k = self.alive[0] if self.alive else 0
            return f"Ray: {k}/{n} nodes joined (staging, rendezvous, ray start on every node)"
        if COMMAND_DONE not in self.marks:
            return f"{self.command_label}: running on rank 0"
        return "job ending: Ray stopping on every node"

    def to_dict(self) -> dict[str, Any]:
        return {"phases": [{"name": p.name, "seconds": None if p.seconds is None else round(p.seconds, 3),
                            "note": p.note} for p in self.phases()],
                "total_s": None if self.total() is None else round(self.total() or 0.0, 3),
                "marks": {k: round(v, 3) for k, v in sorted(self.marks.items(), key=lambda kv: kv[1])},
                "state": self.state, "placement_ok": self.placement is not None and not self.placement_failed,
                "placement_failed": self.placement_failed, "command_exit": self.command_exit,
                "errors": list(self.errors)}


def _json_or_none(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
