"""Continuous health (`irisrl watch JOB --watchdog`): one Analyzer and one JobFeeder kept for
the whole watch, so each poll pulls and parses only the log lines that arrived since the
last one, then re-evaluates the ladder. A change of verdict or phase is reported with its
reasons; a KILL is advice with evidence: nothing here (or in watch) ever kills a job.

Wedge latency: the ladder flags a wedge once one engine's Waiting >> Running streak spans
`LadderConfig.wedge_window_s` (60 s) of log time; the watchdog notices at its next poll, so
from onset: window + one vLLM report spacing (5-10 s) + the poll interval (+ the cluster's
log shipping delay). `worst_case_wedge_s()` states it; watch's default 30 s interval keeps
it under the 2-minute target.

The clock: each poll is judged at the wall clock (`clock()`) mapped onto the log's clock by
the offset measured when dated lines last arrived (log stamps may carry no year or zone, and
arrive after a shipping delay), so silence counts between polls: an engine that stops
reporting, no output, a stalled step or weight sync (rungs 5 and 9)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from irisrl.observe.analyzer import Analyzer
from irisrl.observe.ladder import HealthReport, LadderConfig
from irisrl.observe.pull import JobFeeder, LogSource
from irisrl.observe.render import where

VLLM_REPORT_SPACING_S = 10.0   # vLLM logs its stats every 5-10 s
WEDGE_TARGET_S = 120.0         # a wedge is flagged within 2 minutes of its onset (docs/REFERENCE.md, watchdog latency)
REASONS_SHOWN = 4


def worst_case_wedge_s(interval_s: float, config: LadderConfig | None = None) -> float:
    """Longest time from a wedge's onset to the poll that reports it."""
    return (config or LadderConfig()).wedge_window_s + VLLM_REPORT_SPACING_S + interval_s


@dataclass
class PollResult:
    report: HealthReport
    changed: bool                    # verdict or phase differs from the previous poll's
    new_bytes: int                   # log bytes this poll pulled (only what arrived since the last)
    problems: list[str] = field(default_factory=list)   # what could not be fetched this time


class Watchdog:
    """Poll with `poll(source)`: the new lines of every task/attempt go into the one
    Analyzer; the verdict is re-evaluated over everything seen so far."""

    def __init__(self, job_id: str, plan: dict[str, Any] | None = None, config: LadderConfig | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.job_id = job_id
        self.clock = clock
        self.analyzer = Analyzer(plan, config)
        self.feeder = JobFeeder(job_id)
        self.last: tuple[str, str, str] | None = None
        self.polls = 0
        self.total_bytes = 0
        self.skew: float | None = None   # wall clock minus log clock, at the last arrival of dated lines

    def poll(self, source: LogSource, deadline_s: float) -> PollResult:
        fed = 0

        def sink(name: str, data: bytes) -> None:
            nonlocal fed
            fed += len(data)
            self.analyzer.feed(name, data)

        before = self._log_end()
        problems = self.feeder.feed_new(source, sink, deadline_s)
        self.polls += 1
        self.total_bytes += fed
        now, end = self.clock(), self._log_end()
        if end is not None and (self.skew is None or end != before):
            self.skew = now - end
        report = self.analyzer.verdict(now_log_time=None if self.skew is None else now - self.skew)
        death = report.cause_of_death
        key = (report.verdict, report.phase, death["kind"] if death else "")
        changed, self.last = key != self.last, key
        return PollResult(report, changed, fed, problems)

    def _log_end(self) -> float | None:
        st = self.analyzer.state
        ends = [t for t in (st.max_t, st.last_line_t) if t is not None]
        return max(ends) if ends else None

    @property
    def cursors(self) -> dict[tuple[int, int], Any]:
        """Where each task/attempt's next fetch starts (tests check they only advance)."""
        return {k: p.cursor for k, p in self.feeder.pulls.items()}


def change_lines(job_id: str, report: HealthReport, now: float | None = None) -> list[str]:
    """The header line of a verdict/phase change, then its reasons (evidence) indented."""
    clock = time.strftime("%H:%M:%S", time.localtime(now))
    head = f"[{clock}] {job_id} health {report.verdict} phase={report.phase}"
    if report.log_time_end is not None:
        head += f" (log time {time.strftime('%m-%d %H:%M:%S', time.gmtime(report.log_time_end))} UTC)"
    death = report.cause_of_death
    if report.kill and death:
        loc = where(death)
        head += f" cause of death: {death['kind']}" + (f" ({loc})" if loc else "")
    if report.kill:
        head += f" -- advice only, watch never kills; kill it with: irisrl kill {job_id} --yes"
    reasons = list(report.reasons)
    lines = [head] + [f"  - {r}" for r in reasons[:REASONS_SHOWN]]
    if len(reasons) > REASONS_SHOWN:
        lines.append(f"  ... {len(reasons) - REASONS_SHOWN} more: irisrl health {job_id}")
    if report.kill and death:
        lines.append(f"  fix: {death['fix']}")
    return lines
