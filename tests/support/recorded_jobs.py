"""Recorded jobs for `fleet` / `cost` tests and bench/bench_fleet.py: the health fixtures'
logs (tests/fixtures/logs/<case>/combined.log[.gz], our own reconstructions) replayed as a
cluster's job listing and FetchLogs answers through the in-memory backend. Each line's Iris
timestamp is its own log stamp (the previous one's when it has none), as Iris stamps a line
when it ships it."""

from __future__ import annotations

import calendar
import gzip
import re
from dataclasses import dataclass
from pathlib import Path

from irisrl.backends.base import JobSnapshot, JobSummary, LogLine

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "logs"
YEAR = 2026
_PREFIX = re.compile(r"^\[(\d+)(?:/(\d+))?\] ")
_STAMP = re.compile(r"(?:(\d{4})-)?(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)")


@dataclass(frozen=True)
class RecordedJob:
    summary: JobSummary
    lines: list[LogLine]
    status: JobSnapshot


def fixture_text(case: str) -> str:
    plain = FIXTURES / case / "combined.log"
    if plain.exists():
        return plain.read_text(errors="replace")
    return gzip.decompress((FIXTURES / case / "combined.log.gz").read_bytes()).decode("utf-8", "replace")


def log_lines(text: str, start_ms: int) -> list[LogLine]:
    out, t = [], start_ms
    for raw in text.splitlines():
        m = _PREFIX.match(raw)
        task, attempt = (int(m.group(1)), int(m.group(2) or 0)) if m else (0, 0)
        body = raw[m.end():] if m else raw
        s = _STAMP.search(body)
        if s:
            try:
                t = max(t, calendar.timegm((int(s.group(1) or YEAR), int(s.group(2)), int(s.group(3)),
                                            int(s.group(4)), int(s.group(5)), int(s.group(6)), 0, 0, 0)) * 1000)
            except (ValueError, OverflowError):
                pass
        out.append(LogLine(task, attempt, "stdout", body, t))
    return out


def recorded(case: str, job_id: str, state: str, nodes: int = 2, gpus: int = 8, variant: str = "H100",
             queued_s: float = 120.0, tail_s: float = 30.0) -> RecordedJob:
    """A job that ran `case`'s log: admitted a minute before its first line, submitted
    `queued_s` before that, ended (`state` terminal) or read `tail_s` after its last line."""
    text = fixture_text(case)
    first = next((m for m in map(_STAMP.search, text.splitlines()) if m and m.group(1)), None)
    base = calendar.timegm((YEAR, 12, 2, 10, 0, 0, 0, 0, 0)) * 1000 if first is None else \
        calendar.timegm((int(first.group(1)), int(first.group(2)), int(first.group(3)), int(first.group(4)),
                         int(first.group(5)), int(first.group(6)), 0, 0, 0)) * 1000
    lines = log_lines(text, base)
    started = (lines[0].timestamp_ms if lines else base) - 60_000
    end = (lines[-1].timestamp_ms if lines else started) + int(tail_s * 1000)
    terminal = state in ("succeeded", "failed", "killed")
    summary = JobSummary(job_id, state, {state: nodes}, task_count=nodes, submitted_ms=started - int(queued_s * 1000),
                         started_ms=started, finished_ms=end if terminal else None)
    status = JobSnapshot(job_id, state, 0, task_count=nodes, gpus_per_task=gpus, gpu_variant=variant)
    return RecordedJob(summary, lines, status)


def end_ms(job: RecordedJob) -> int:
    return job.summary.finished_ms or ((job.lines[-1].timestamp_ms if job.lines else job.summary.started_ms or 0) + 30_000)
