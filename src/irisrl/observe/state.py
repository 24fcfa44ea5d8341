"""What the analyzer has learned from the logs so far: small, JSON-serialisable, so that a
watchdog can save it with the byte offset per file and resume from the new bytes only."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

from irisrl.observe.causes import CauseEvent
from irisrl.observe.liveness import LivenessLog
from irisrl.observe.unrecognized import Unrecognized

STATE_VERSION = 1


@dataclass(slots=True, repr=False)
class Event:
    """A milestone seen in the logs: the evidence line, its log time and arrival order."""
    evidence: str
    t: float | None
    seq: int

    def later_than(self, other: "Event | None") -> bool:
        if other is None:
            return True
        if self.t is not None and other.t is not None and self.t != other.t:
            return self.t > other.t
        return self.seq > other.seq


@dataclass(slots=True, repr=False, eq=False)
class EngineState:
    """Latest stats report of one vLLM engine plus the start of any suspicious streak."""
    last_t: float | None = None
    tput: float = 0.0
    running: int = 0
    waiting: int = 0
    reports: int = 0
    streak_t: float | None = None      # first report of the current Waiting>>Running streak
    streak_tput: float = 0.0           # highest throughput within the current streak
    streak_first: float = 0.0          # throughput at the streak's first report (evidence)
    zero_t: float | None = None        # first report of 0 tokens/s while requests are queued
    last_line: str = ""
    hidden: int = 0                    # other engines' reports folded into this one by Ray's dedup
    hidden_t: float | None = None      # when that dedup line was seen


@dataclass(repr=False, eq=False)
class SourceState:
    offset: int = 0                    # bytes fed so far (the --state resume point)
    rem: str = ""                      # partial last line, latin-1 (lossless for bytes)
    last_t: float | None = None        # log time of the latest dated line
    # log time of the latest dated line per task stream in this source ("rank/node"): an
    # undated line takes its time from its own stream only, never from another task's line
    stream_t: dict[str, float] = field(default_factory=dict)


@dataclass(repr=False, eq=False)
class State:
    year: int
    seq: int = 0
    max_t: float | None = None
    last_line_t: float | None = None   # newest dated line of ANY kind (silence), from each chunk's tail
    hit_lines: int = 0
    sources: dict[str, SourceState] = field(default_factory=dict)
    skyrl_at: Event | None = None
    staged: dict[str, str] = field(default_factory=dict)   # rank -> evidence
    staged_n: int | None = None
    ray_alive: list[Any] | None = None                     # [k, n, evidence]
    missing_weights: Event | None = None
    missing_count: int = 0
    retry: Event | None = None
    norm_topk: Event | None = None
    dcp_engaged: Event | None = None
    dcp_rejected: Event | None = None
    trainer_up: Event | None = None
    start_step: int | None = None
    coordinator: Event | None = None
    concurrent_trials: int | None = None
    global_step: int | None = None
    first_generating: Event | None = None
    crash: Event | None = None
    last_progress: Event | None = None
    finished: Event | None = None
    step_t: dict[str, float] = field(default_factory=dict)   # global step -> log time first seen
    timer_steps: int = 0                                     # `Finished: 'step'` lines (upstream SkyRL)
    sync_started: Event | None = None                        # a weight sync began ...
    sync_finished: Event | None = None                       # ... and the latest that ended
    sandbox_failures: dict[str, int] = field(default_factory=dict)   # step in progress -> Harbor/Daytona lines
    sandbox_failed: Event | None = None                      # the latest such line
    engines: dict[str, EngineState] = field(default_factory=dict)
    causes: list[CauseEvent] = field(default_factory=list)   # failure lines (observe/causes.py)
    unrecognized: list[Unrecognized] = field(default_factory=list)   # error lines no cause names
    unrecognized_dropped: int = 0                            # new signatures past the bound (counted only)
    ended: dict[str, list[Any]] = field(default_factory=dict)   # rank -> [t, seq] of the latest end evidence
    # stream -> [evidence, rank, t, seq]: a Traceback header waiting for its final exception line
    tracebacks: dict[str, list[Any]] = field(default_factory=dict)
    # the runtime's liveness samples folded into one running judgement per rank (bounded: the
    # last sample and its stacks per rank; observe/liveness.py)
    liveness: LivenessLog = field(default_factory=lambda: LivenessLog(keep=0))

    def to_dict(self) -> dict[str, Any]:
        live, self.liveness = self.liveness, LivenessLog(keep=0)   # asdict would deep-copy it
        try:
            data = dataclasses.asdict(self)
        finally:
            self.liveness = live
        return {"version": STATE_VERSION, **data, "liveness": live.to_dict()}

    def map_text(self, fn: Callable[[str], str]) -> "State":
        """A copy with every evidence text passed through `fn` (cleaning, redaction)."""
        out = copy.copy(self)
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Event):
                setattr(out, f.name, Event(fn(value.evidence) if value.evidence else "", value.t, value.seq))
        out.staged = {k: fn(v) for k, v in self.staged.items()}
        out.causes = [dataclasses.replace(c, evidence=fn(c.evidence)) for c in self.causes]
        out.unrecognized = [dataclasses.replace(u, line=fn(u.line), signature=fn(u.signature)) for u in self.unrecognized]
        out.tracebacks = {k: [fn(v[0]), *v[1:]] for k, v in self.tracebacks.items()}
        out.liveness = self.liveness.map_text(fn)
        if self.ray_alive:
            out.ray_alive = [self.ray_alive[0], self.ray_alive[1], fn(self.ray_alive[2])]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"state version {data.get('version')!r}, expected {STATE_VERSION}")
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name == "sources":
                value = {k: SourceState(**v) for k, v in value.items()}
            elif f.name == "causes":
                value = [CauseEvent(**c) for c in value]
            elif f.name == "unrecognized":
                value = [Unrecognized(**u) for u in value]
            elif f.name == "engines":
                value = {k: EngineState(**v) for k, v in value.items()}
            elif f.name == "liveness":
                value = LivenessLog.from_dict(value)
            elif isinstance(value, dict) and "evidence" in value and "seq" in value:
                value = Event(**value)
            kwargs[f.name] = value
        return cls(**kwargs)
