"""The end of a rehearsal launch (`launch --local`, `launch --rehearse`): what the job waits
for while it runs (ops/output.waiting: the CLI shows it as a spinner), then the summary as
data (LaunchSummary: phase timings, the placement map or the group that did not place, the
health ladder on the collected logs, where those logs were saved; cli/render_summary.py
draws it).

Logs go to `./traces/<job>_<UTC stamp>/` (observe/pull.py's `default_out_dir`, the same place
`irisrl logs` writes; `traces/` is git-ignored): one file per task and attempt, combined.log,
manifest.json, plus summary.json (phases, marks, placement, verdict) for machines."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from irisrl.backends.base import Backend, JobSnapshot, LogCursor, LogLine
from irisrl.observe.phases import (COLLECTED, COMMAND_DONE, ENDED, ENTERED, RAY_FORMED, RUNNING, STARTED, VALIDATED,
                                   PhaseClock)
from irisrl.ops.output import emit, waiting

if TYPE_CHECKING:
    from irisrl.config.masking import Masker
    from irisrl.observe.ladder import HealthReport
    from irisrl.plan.model import LaunchPlan

PULL_DEADLINE_S = 120.0
FORMING_POLL_S = 1.0


def process_start_time() -> float | None:
    """Wall-clock start of this process (Linux /proc), so `validate` includes interpreter
    start-up and imports, as a user waits for them. None elsewhere.

    /proc/<pid>/stat gives the start in clock ticks since boot; it is placed on the wall clock
    through CLOCK_BOOTTIME (same origin, sub-tick precision). Not through /proc/stat's
    `btime`: that is whole seconds, which biased every start (and so `validate` and the
    total) by up to a second."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[19])          # field 22 (starttime), counted after the `)`
        since_start = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return time.time() - since_start if since_start >= 0 else None


class LaunchProgress:
    """Feeds a PhaseClock from follow()'s snapshots and log lines and, while entered, reports
    what the launch waits for through ops/output.waiting (the CLI's spinner)."""

    def __init__(self, plan: "LaunchPlan", marks: dict[str, float] | None = None) -> None:
        label = "rehearsal" if getattr(plan, "role", "") == "rehearsal" else "command"
        self.clock = PhaseClock(num_tasks=int(plan.num_nodes), command_label=label, mask=plan_masker(plan))
        for name, t in (marks or {}).items():
            self.clock.mark(name, t)
        started = process_start_time()
        if started is not None and ENTERED in self.clock.marks and started <= self.clock.marks[ENTERED]:
            self.clock.mark(STARTED, started)
        self._active = False
        self._warmed = False

    def mark(self, name: str, t: float | None = None) -> None:
        self.clock.mark(name, time.time() if t is None else t)
        self._update()

    def on_snapshot(self, snap: JobSnapshot) -> None:
        self.clock.observe_state(snap.state, dict(snap.task_states or {}), time.time())
        self._update()

    def on_line(self, line: LogLine) -> None:
        self.clock.observe_line(str(line.data), line.timestamp_ms / 1000.0)

    def poll_interval(self, base: float) -> float:
        """follow()'s pause: at least FORMING_POLL_S while the ranks form Ray (the longest wait;
        every mark in it comes from a log line's own Iris timestamp, so slower polls change no
        phase and leave the shared CPU to `ray start`), `base` otherwise (the job's end is
        only seen by polling)."""
        marks = self.clock.marks
        forming = RUNNING in marks and RAY_FORMED not in marks and COMMAND_DONE not in marks and ENDED not in marks
        return max(base, FORMING_POLL_S) if forming else base

    def idle(self) -> None:
        """Called by follow() between polls: once the command is done (the job is ending,
        the launcher only waits), import what the summary needs, so `logs + health` is
        only the work itself."""
        if self._warmed or COMMAND_DONE not in self.clock.marks:
            return
        self._warmed = True
        import irisrl.observe.analyzer  # noqa: F401
        import irisrl.observe.pull  # noqa: F401
        import irisrl.observe.render  # noqa: F401

    def __enter__(self) -> "LaunchProgress":
        self._active = True
        self._update()
        return self

    def __exit__(self, *_: object) -> None:
        self._active = False
        waiting(None)

    def _update(self) -> None:
        if self._active:
            waiting(self.clock.waiting_for())


@dataclass(frozen=True)
class LaunchSummary:
    """A rehearsal's summary: the phase clock (timings, placement map or failure), the health
    report on the collected logs (None if it could not be made), where the logs are, what
    went wrong collecting them, and the exit code the job's outcome gives."""
    job_id: str
    exit_code: int
    clock: PhaseClock
    out: Path
    report: "HealthReport | None" = None
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """summary.json's content."""
        return {"job_id": self.job_id, "exit_code": int(self.exit_code), **self.clock.to_dict(),
                "placement": self.clock.placement,
                "health": self.report.to_dict() if self.report is not None else None,
                "log_problems": self.problems}


def collect_summary(backend: Backend, job_id: str, plan: "LaunchPlan", progress: LaunchProgress, code: int,
                    out_dir: Path | None = None) -> LaunchSummary:
    """Pull the logs, run the health ladder on them, write summary.json. The job's outcome
    (`code`) decides the exit; a summary that cannot be made is reported in it, not fatal."""
    from irisrl.observe.pull import LogPuller, default_out_dir
    from irisrl.ops.jobs import JobLogs

    out = Path(out_dir or default_out_dir(job_id)).resolve()
    report, problems = None, []
    try:
        replay_task_lines(backend, job_id, progress.clock)
        manifest = LogPuller(JobLogs(backend, job_id), job_id, out,
                             mask=plan_masker(plan)).pull_once(PULL_DEADLINE_S)
        problems = list(manifest.get("problems", []))
        mask_secret_values(out, plan)
        report = _health(out, plan)
    except Exception as exc:  # noqa: BLE001 - the job's outcome stands; the summary says what failed
        problems.append(f"log pull / health failed: {type(exc).__name__}: {exc}")
    progress.mark(COLLECTED)
    summary = LaunchSummary(job_id, int(code), progress.clock, out, report, problems)
    _write_json(summary)
    return summary


def replay_task_lines(backend: Backend, job_id: str, clock: PhaseClock, page: int = 5000, max_pages: int = 20) -> None:
    """Feed every task's full log (with Iris timestamps) to the clock once more: the live
    follower pages all tasks by one timestamp cursor and can skip a rank's late-arriving
    lines; marks are first-wins (RUNNING earliest), so lines seen twice change nothing."""
    for task in backend.snapshot(job_id).tasks:
        cursor = LogCursor()
        for _ in range(max_pages):
            got = backend.logs(job_id, cursor, task_index=task.index, max_lines=page)
            for line in got.lines:
                clock.observe_line(str(line.data), line.timestamp_ms / 1000.0)
            cursor = got.cursor
            if not got.more:
                break


def plan_masker(plan: "LaunchPlan") -> "Masker":
    """irisrl.config.masking's Masker for the plan's secret env values plus the operator's
    allowlisted ones (the same values `logs JOB` masks)."""
    from irisrl.config.masking import Masker, operator_secret_values

    secret = set(getattr(plan, "secret_env_keys", ()) or ())
    values = [v for k, v in (getattr(plan, "env", {}) or {}).items() if k in secret]
    return Masker([*values, *operator_secret_values(strict=False)])


def mask_secret_values(out: Path, plan: "LaunchPlan") -> None:
    """The pulled logs are saved files: a secret value a task printed is replaced by *** there
    too, as in everything irisrl prints (the puller masks as it writes; this pass is kept for
    files written by anything else)."""
    mask = plan_masker(plan)
    if not mask:
        return
    for path in out.glob("*.log"):
        data = path.read_bytes()
        masked = mask(data)
        if masked != data:
            path.write_bytes(masked)


def _health(out: Path, plan: "LaunchPlan") -> "HealthReport | None":
    from irisrl.observe.analyzer import analyze_files

    combined = out / "combined.log"
    return analyze_files([combined], plan.to_dict()) if combined.exists() else None


def _write_json(summary: LaunchSummary) -> None:
    path = summary.out / "summary.json"
    try:
        summary.out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summary.to_dict(), indent=2, default=str) + "\n")
    except OSError as exc:
        emit(f"could not write {path}: {exc}", err=True)


__all__ = ["LaunchProgress", "LaunchSummary", "collect_summary", "process_start_time", "VALIDATED"]
