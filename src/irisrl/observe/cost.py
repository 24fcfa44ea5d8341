"""GPU-hours by phase of one job, and what they cost. Pure: callers pass Iris's timestamps
(epoch ms: ListJobs' submitted_at / started_at / finished_at) and the milestones seen in
the job's log lines (each with its Iris timestamp); nothing here reads a clock or the network.

Phases, in time order (each ends where the next begins):
    queued      submitted -> admitted (Iris started_at): no GPUs held, 0 GPU-hours
    bring-up    admitted -> the first rollout (a vLLM engine generating, the rollout
                coordinator scaling, or a training step, whichever the log shows first)
    productive  the first rollout -> death or the end
    dead        the cause of death (or the silence onset) -> the end, or now while it runs
GPU-hours = seconds x nodes x GPUs per node / 3600; the phases sum to the job's total."""

from __future__ import annotations

import calendar
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from irisrl.observe import patterns as P

if TYPE_CHECKING:
    from irisrl.config.profile import ClusterProfile

PHASES = ("queued", "bring-up", "productive", "dead")
_NEEDLES = ("Running: ", "RolloutCoordinator", "WANDB_MIRROR", "Step ")


@dataclass
class Milestones:
    """What the log says about a job's progress, in Iris time (ms): the first rollout and
    the newest output line."""
    first_rollout_ms: int | None = None
    last_output_ms: int | None = None

    def observe(self, text: str, t_ms: int) -> None:
        self.last_output_ms = t_ms if self.last_output_ms is None else max(self.last_output_ms, t_ms)
        if self.first_rollout_ms is not None or not any(n in text for n in _NEEDLES):
            return
        stats = P.STATS_B.search(text.encode("utf-8", "replace"))
        if (stats and int(stats.group(2)) > 0) or P.COORDINATOR.search(text) or P.WANDB_STEP.search(text) \
                or P.CONSOLE_STEP.search(text) or P.CONSOLE_STEP_OPEN.search(text):
            self.first_rollout_ms = t_ms


@dataclass(frozen=True)
class JobClock:
    """A job's marks in Iris time (ms). `end_ms`: finished_at, or now while it runs."""
    submitted_ms: int | None
    started_ms: int | None
    end_ms: int
    first_rollout_ms: int | None = None
    dead_ms: int | None = None


class Segment(TypedDict):
    phase: str
    start_ms: int
    end_ms: int


def segments(clock: JobClock) -> list[Segment]:
    """The phases on the time axis (empty ones left out), each clamped inside the job's life."""
    end = clock.end_ms
    first = next((t for t in (clock.submitted_ms, clock.started_ms) if t is not None), end)
    submitted = min(first, end)
    if clock.started_ms is None:
        return [Segment(phase="queued", start_ms=submitted, end_ms=end)] if end > submitted else []
    started = max(min(clock.started_ms, end), submitted)
    dead = end if clock.dead_ms is None else max(min(clock.dead_ms, end), started)
    rollout = dead if clock.first_rollout_ms is None else max(min(clock.first_rollout_ms, dead), started)
    marks = (("queued", submitted, started), ("bring-up", started, rollout), ("productive", rollout, dead),
             ("dead", dead, end))
    return [Segment(phase=p, start_ms=a, end_ms=b) for p, a, b in marks if b > a]


def seconds_by_phase(clock: JobClock) -> dict[str, float]:
    out = {p: 0.0 for p in PHASES}
    for seg in segments(clock):
        out[seg["phase"]] += (seg["end_ms"] - seg["start_ms"]) / 1000.0
    return out


def gpu_hours_by_phase(clock: JobClock, gpus: int) -> dict[str, float]:
    """GPU-hours per phase for a job holding `gpus` GPUs in all (queued holds none)."""
    return {p: 0.0 if p == "queued" else s * gpus / 3600.0 for p, s in seconds_by_phase(clock).items()}


def log_time_to_ms(iso: str | None, log_end_s: float | None, last_line_ms: int | None) -> int | None:
    """A log-clock time (the analyzer's ISO `time` of a cause) in Iris time: shifted by the
    offset between the newest line's Iris timestamp and the analyzer's newest log time (log
    stamps may carry no zone, and lines ship with a delay). None when either is unknown."""
    if not iso or log_end_s is None or last_line_ms is None:
        return None
    try:
        t = calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        return None
    return int(t * 1000 + (last_line_ms - log_end_s * 1000))


@dataclass(frozen=True)
class Price:
    """On-demand price of one node of `gpus_per_node` GPUs of a type, and where it is from."""
    node_hour_usd: float
    gpus_per_node: int
    source: str

    def usd(self, gpu_hours: float) -> float:
        return gpu_hours * self.node_hour_usd / self.gpus_per_node


@dataclass(frozen=True)
class PriceBook:
    """Prices per GPU type from the cluster profile (`node_hour_usd`); unknown types: None."""
    prices: dict[str, Price] = field(default_factory=dict)

    @classmethod
    def from_profile(cls, profile: "ClusterProfile") -> "PriceBook":
        return cls({variant.upper(): Price(float(usd), profile.gpus_per_node, profile.price_source)
                    for variant, usd in profile.node_hour_usd.items()})

    def price(self, variant: str) -> Price | None:
        return self.prices.get(variant.upper())


# -- the JSON shapes of `fleet --json` and `cost --json` (ops/ fills them; plots.py draws them) --
class FleetJob(TypedDict):
    job_id: str
    user: str
    target: str
    state: str
    nodes: int
    gpus: int                      # in all (nodes x GPUs per node)
    gpu_variant: str
    age_s: float                   # since submission
    phase: str                     # queued | bring-up | serving | training | finished | dead
    step: int | None
    last_reward: float | None
    verdict: str | None            # KILL | NO-KILL | None (no logs read yet)
    cause: str | None              # the cause of death's kind
    gpu_hours: float
    gpu_hours_by_phase: dict[str, float]
    cost_usd: float | None         # None: no price for this GPU type
    last_output_age_s: float | None


class FleetTotals(TypedDict):
    jobs: int
    running: int
    gpu_hours: float
    gpu_hours_by_phase: dict[str, float]
    gpu_hours_lost_to_dead_runs: float
    cost_usd: float                # of the priced jobs
    unpriced_jobs: int
    rpcs: int                      # controller round trips this refresh
    refresh_s: float
    problems: list[str]            # clusters or jobs that could not be read this refresh


class FleetReport(TypedDict):
    jobs: list[FleetJob]
    totals: FleetTotals


class CostReport(TypedDict):
    job_id: str
    user: str
    state: str
    phase: str
    nodes: int
    gpus: int
    gpu_variant: str
    verdict: str | None
    cause: str | None
    gpu_hours: float
    gpu_hours_by_phase: dict[str, float]
    seconds_by_phase: dict[str, float]
    cost_usd: float | None
    node_hour_usd: float | None
    price_source: str | None
    segments: list[Segment]         # the phases on the time axis (epoch ms)
