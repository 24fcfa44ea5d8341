"""One job's health, progress and GPU-hours, kept across refreshes (`fleet --watch`, `cost`).

Each refresh reads only the log lines that arrived since the last one, with ONE FetchLogs of
the whole job (every task; more only while a backlog fills whole pages), feeds them to a
persistent observe/watchdog.Watchdog (Analyzer + JobFeeder cursors), the progress collector
(last reward) and the cost milestones (first rollout, last output, in Iris time). A job that
is terminal and was read once after it ended is settled: no more RPCs. Its resources (GPUs
per task: ListJobs leaves them out) come from one GetJobStatus, once."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from irisrl.backends.base import Backend, JobSummary, LogCursor, LogLine
from irisrl.core.states import TERMINAL
from irisrl.observe.cost import JobClock, Milestones, log_time_to_ms
from irisrl.observe.pull import Page, TaskRef

if TYPE_CHECKING:
    from irisrl.observe.ladder import HealthReport

STATE_VERSION = 2   # 2: the log cursor is the backend's LogCursor
PAGE_LINES = 5000
MAX_PAGES = 40          # a backlog of 200k lines is read over several refreshes


@dataclass
class JobTracker:
    job_id: str
    gpus_per_task: int | None = None
    gpu_variant: str = ""
    milestones: Milestones = field(default_factory=Milestones)
    settled: bool = False
    dead_ms: int | None = None
    report: HealthReport | None = None   # the last refresh's verdict (None: not judged yet)
    last_reward: float | None = None
    log_problems: list[str] = field(default_factory=list)
    rpcs: int = 0                      # controller round trips this tracker made (its own count: thread-safe)
    _cursor: LogCursor = field(default_factory=LogCursor)
    _pending: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    _judge_s: float = 0.0

    def __post_init__(self) -> None:
        from irisrl.observe.progress import ProgressCollector
        from irisrl.observe.watchdog import Watchdog

        self.watchdog = Watchdog(self.job_id, None, clock=lambda: self._judge_s)
        self.progress = ProgressCollector()

    # -- a refresh -------------------------------------------------------------------------------
    def refresh(self, backend: Backend, summary: JobSummary, now_ms: int) -> None:
        """Bring this job up to date with `summary` (its ListJobs row)."""
        if self.read(backend, summary):
            self.judge(summary, now_ms)

    def read(self, backend: Backend, summary: JobSummary) -> bool:
        """The controller half (may run in a worker thread, one per job): the resources once,
        then the new log lines while the job is not settled. True: judge() next."""
        if self.gpus_per_task is None:
            self.gpus_per_task, self.gpu_variant = summary.gpus_per_task, summary.gpu_variant
            if not self.gpus_per_task:
                snap = backend.snapshot(self.job_id, detail=False)
                self.rpcs += 1
                self.gpus_per_task, self.gpu_variant = snap.gpus_per_task, snap.gpu_variant
        if summary.started_ms is None:
            return False
        if self.settled:
            return self.report is None    # restored from its state files: judge once, no RPC
        self._pull(backend)
        return True

    def judge(self, summary: JobSummary, now_ms: int) -> None:
        """The CPU half: feed what read() fetched and re-evaluate (also with no new lines:
        silence counts between refreshes). A terminal job judged once is settled."""
        terminal = summary.state in TERMINAL
        self._judge_s = (summary.finished_ms if terminal and summary.finished_ms else now_ms) / 1000.0
        self._judge()
        self.settled = terminal

    def _pull(self, backend: Backend) -> None:
        """The new lines of every task (ordered by time), sorted into per-attempt pages."""
        fresh: list[LogLine] = []
        for _ in range(MAX_PAGES):
            page = backend.logs(self.job_id, self._cursor, max_lines=PAGE_LINES)
            self.rpcs += 1
            self._cursor = page.cursor
            fresh.extend(page.lines)
            if not page.more:
                break
        for ln in fresh:
            self._pending.setdefault((ln.task_index, ln.attempt), []).append(ln.data)
            self.milestones.observe(ln.data, ln.timestamp_ms)

    def _judge(self) -> None:
        result = self.watchdog.poll(self, deadline_s=60.0)
        self.report, self.log_problems = result.report, list(result.problems)
        if not self.report.kill:
            self.dead_ms = None          # recovered (e.g. output resumed after a silence)
        elif self.dead_ms is None:
            death = self.report.cause_of_death or {}
            self.dead_ms = log_time_to_ms(death.get("time"), self.report.log_time_end,
                                          self.milestones.last_output_ms) or self.milestones.last_output_ms
        rows = self.progress.rows(last=1)
        if rows and rows[-1].get("reward") is not None:
            self.last_reward = float(rows[-1]["reward"])

    # -- the health state files: a later `irisrl fleet` reads only the bytes since this one ------
    def save(self, directory: Path) -> None:
        """The analyzer's state (observe/analyzer.py Analyzer.save: offsets, what was learned,
        secrets redacted) and this tracker's cursor and milestones, atomically."""
        directory.mkdir(parents=True, exist_ok=True)
        self.watchdog.analyzer.save(directory / "analyzer.json")
        data = {"version": STATE_VERSION, "job_id": self.job_id, "gpus_per_task": self.gpus_per_task,
                "gpu_variant": self.gpu_variant, "settled": self.settled, "dead_ms": self.dead_ms,
                "last_reward": self.last_reward, "since_ms": self._cursor.since_ms, "seen": [list(k) for k in self._cursor.seen],
                "first_rollout_ms": self.milestones.first_rollout_ms, "last_output_ms": self.milestones.last_output_ms,
                "skew": self.watchdog.skew}
        tmp = directory / "tracker.json.tmp"
        tmp.write_text(json.dumps(data))
        os.replace(tmp, directory / "tracker.json")

    @classmethod
    def restore(cls, directory: Path, job_id: str) -> "JobTracker":
        """The tracker saved in `directory`; a fresh one when there is none or it is unreadable
        (then the job's logs are read again from the start: slower, never wrong)."""
        from irisrl.observe.analyzer import Analyzer

        tracker = cls(job_id)
        try:
            data = json.loads((directory / "tracker.json").read_text())
            if data.get("version") != STATE_VERSION or data.get("job_id") != job_id:
                return tracker
            analyzer = Analyzer.load(directory / "analyzer.json")
        except (OSError, ValueError):
            return tracker
        tracker.watchdog.analyzer, tracker.watchdog.skew = analyzer, data["skew"]
        tracker.gpus_per_task, tracker.gpu_variant = data["gpus_per_task"], data["gpu_variant"]
        tracker.settled, tracker.dead_ms, tracker.last_reward = data["settled"], data["dead_ms"], data["last_reward"]
        tracker._cursor = LogCursor(int(data["since_ms"]), tuple((int(t), int(a), str(src), str(d))
                                                                  for t, a, src, d in data["seen"]))
        tracker.milestones = Milestones(data["first_rollout_ms"], data["last_output_ms"])
        return tracker

    # -- observe.pull.LogSource over the lines this refresh fetched -------------------------------
    def tasks(self, job_id: str) -> list[TaskRef]:
        return [TaskRef(task, attempt) for task, attempt in sorted(self._pending)]

    def fetch(self, job_id: str, task_index: int, attempt: int, cursor: object) -> Page:
        lines = self._pending.pop((task_index, attempt), [])
        if lines:
            self.progress.feed(f"task-{task_index}.attempt-{attempt}",
                               "".join(ln if ln.endswith("\n") else ln + "\n" for ln in lines).encode("utf-8", "replace"))
        return Page(lines, None, False)

    # -- what the callers read ---------------------------------------------------------------------
    @property
    def gpus(self) -> int:
        return int(self.gpus_per_task or 0)

    def clock(self, summary: JobSummary, now_ms: int) -> JobClock:
        end = summary.finished_ms if summary.state in TERMINAL and summary.finished_ms else now_ms
        return JobClock(summary.submitted_ms, summary.started_ms, end, self.milestones.first_rollout_ms,
                        self.dead_ms)


def now_ms() -> int:
    return int(time.time() * 1000)
