"""Paged log pull from a live job, against a small interface, `LogSource` (its one
implementation over a Backend's `logs` is ops/jobs.JobLogs). Nothing is silently truncated: the manifest says
how many lines each task and attempt gave and what could not be fetched.

Output layout (`irisrl logs JOB --out DIR`):
    DIR/task-<i>.attempt-<a>.log   one file per task and attempt, lines as printed
    DIR/combined.log               all of them, each line prefixed `[<i>/<a>] ` (health reads it)
    DIR/job.log                    the job's own status lines (when the source gives them)
    DIR/manifest.json              per file: lines, bytes, pages, complete, error

The orchestrator's status of each attempt (and of the job) is written and fed as
`irisrl-task-status:` lines (observe/status_feed.py) in that attempt's stream, each time it
changes: an active state before the attempt's new lines, a terminal one after them, so an
offline `health --log` on the files reads the same evidence as `health JOB`.

Secret values are masked (irisrl.config.masking) before a line is written or fed anywhere:
`mask=` is what the caller knows (e.g. `--secrets-env`); the default masks the operator's
environment's allowlisted secrets.
"""

from __future__ import annotations

import builtins
import datetime as dt
import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

from irisrl.observe import status_feed
from irisrl.observe.task_status import TaskStatus, parse_status

DEFAULT_DEADLINE_S = 1800.0
Mask = Callable[[bytes], bytes]


def default_mask() -> Mask:
    """The operator's allowlisted secrets from the environment and $DC_AGENT_SECRET_ENV
    (an unreadable file is skipped here; the CLI's --secrets-env is strict)."""
    from irisrl.config.masking import operator_masker

    return operator_masker(strict=False)


@dataclass(frozen=True)
class TaskRef:
    task_index: int
    attempt: int = 0
    state: str = ""          # e.g. "running", "succeeded" (free text from the backend)
    status: TaskStatus | None = None   # the orchestrator's status of this attempt, when the source gives it
    fetch: bool = True       # False: no logs to ask for yet (never started; saves a FetchLogs)


@dataclass
class Page:
    lines: list[Any]         # str or bytes, with or without the trailing newline
    cursor: Any              # pass back to continue after these lines (also to follow later)
    more: bool               # True: another page is ready now; False: caught up for now


@runtime_checkable
class LogSource(Protocol):
    def tasks(self, job_id: str) -> list[TaskRef]: ...

    def fetch(self, job_id: str, task_index: int, attempt: int, cursor: Any) -> Page: ...


def job_status(source: Any, job_id: str) -> TaskStatus | None:
    """Optional `source.job_status(job_id)`: the job's own status (state, error, pending reason)."""
    probe = getattr(source, "job_status", None)
    return probe(job_id) if callable(probe) else None


def status_block(pull: TaskPull, settled: bool) -> bytes:
    """This attempt's status line when it changed since the last one written and belongs on
    this side of its logs (`settled`: terminal, after them; else before them)."""
    st = pull.status
    if st is None or status_feed.is_settled(st) != settled or status_feed.key(st) == pull.status_fed:
        return b""
    pull.status_fed = status_feed.key(st)
    return status_feed.encoded(st.to_line())


class JobStatusTracker:
    """The job-level status line (masked), once per change; `last`: that status, as written."""

    def __init__(self, mask: Mask) -> None:
        self.mask = mask
        self.fed: tuple[Any, ...] | None = None
        self.last: TaskStatus | None = None

    def block(self, source: Any, job_id: str) -> bytes:
        try:
            st = job_status(source, job_id)
        except Exception:  # noqa: BLE001 - the job line is extra evidence; the logs still count
            return b""
        if st is None or status_feed.key(st) == self.fed:
            return b""
        self.fed = status_feed.key(st)
        data = self.mask(status_feed.encoded(status_feed.job_line(st)))
        self.last = parse_status(data.decode("utf-8", "replace"))
        return data


def job_done(source: Any, job_id: str) -> bool:
    """Optional `source.job_done(job_id)`: without it, a follow stops at its deadline."""
    probe = getattr(source, "job_done", None)
    return bool(probe(job_id)) if callable(probe) else False


@dataclass
class TaskPull:
    task_index: int
    attempt: int
    state: str
    file: str
    lines: int = 0
    bytes: int = 0
    pages: int = 0
    complete: bool = False
    error: str | None = None
    cursor: Any = field(default=None, repr=False)
    status: TaskStatus | None = field(default=None, repr=False)
    status_fed: tuple[Any, ...] | None = field(default=None, repr=False)   # key of the last status line written
    fetch: bool = field(default=True, repr=False)

    @property
    def key(self) -> tuple[int, int]:
        return (self.task_index, self.attempt)

    @property
    def prefix(self) -> builtins.bytes:     # builtins: the `bytes` field above shadows the type here
        return f"[{self.task_index}/{self.attempt}] ".encode()


def _as_bytes(line: Any) -> bytes:
    data = line if isinstance(line, bytes) else str(line).encode("utf-8", "replace")
    return data if data.endswith(b"\n") else data + b"\n"


def pages(source: LogSource, job_id: str, pull: TaskPull, deadline: float) -> Iterator[bytes]:
    """The pages of one task/attempt from its cursor on, as byte blocks; errors are recorded."""
    while True:
        if time.monotonic() > deadline:
            pull.error = "deadline reached before the last page: pull again to complete"
            return
        try:
            page = source.fetch(job_id, pull.task_index, pull.attempt, pull.cursor)
        except Exception as exc:  # noqa: BLE001 - recorded in the manifest, never hidden
            pull.error = f"{type(exc).__name__}: {exc}"
            return
        block = b"".join(_as_bytes(x) for x in page.lines)
        pull.pages += 1
        pull.lines += len(page.lines)
        pull.bytes += len(block)
        pull.cursor = page.cursor
        pull.error = None
        if block:
            yield block
        if not page.more:
            pull.complete = True
            return


def pull_pages(source: LogSource, job_id: str, pull: TaskPull, deadline: float) -> Iterator[bytes]:
    """`pages`, unless the attempt has nothing to fetch yet (never started): then none, complete."""
    if pull.fetch:
        yield from pages(source, job_id, pull, deadline)
    else:
        pull.complete = True


class LogPuller:
    """Pulls every task/attempt of a job into a directory; `follow()` appends new lines."""

    def __init__(self, source: LogSource, job_id: str, out: Path,
                 on_progress: Callable[[TaskPull, int], None] | None = None, mask: Mask | None = None) -> None:
        self.source, self.job_id, self.out = source, job_id, Path(out)
        self.mask = default_mask() if mask is None else mask
        self.on_progress = on_progress or (lambda pull, n: None)
        self.pulls: dict[tuple[int, int], TaskPull] = {}
        self.list_error: str | None = None
        self.job = JobStatusTracker(self.mask)
        self._mode = "wb"    # the first pull starts the files afresh; later ones append

    def discover(self) -> list[TaskPull]:
        try:
            refs = self.source.tasks(self.job_id)
        except Exception as exc:  # noqa: BLE001
            self.list_error = f"could not list tasks: {type(exc).__name__}: {exc}"
            return []
        for ref in sorted(refs, key=lambda r: (r.task_index, r.attempt)):
            key = (ref.task_index, ref.attempt)
            if key not in self.pulls:
                name = f"task-{ref.task_index}.attempt-{ref.attempt}.log"
                self.pulls[key] = TaskPull(ref.task_index, ref.attempt, ref.state, name)
            pull = self.pulls[key]
            pull.state = ref.state or pull.state
            pull.status = getattr(ref, "status", None) or pull.status
            pull.fetch = bool(getattr(ref, "fetch", True))
        return list(self.pulls.values())

    def pull_once(self, deadline_s: float = DEFAULT_DEADLINE_S) -> dict[str, Any]:
        self.out.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + deadline_s
        mode, self._mode = self._mode, "ab"
        with open(self.out / "combined.log", mode) as combined:
            for pull in self.discover():
                pull.complete = False
                with open(self.out / pull.file, mode if pull.pages == 0 else "ab") as fh:
                    self._status(pull, False, fh, combined)
                    for block in pull_pages(self.source, self.job_id, pull, deadline):
                        block = self.mask(block)
                        fh.write(block)
                        combined.write(b"".join(pull.prefix + ln for ln in block.splitlines(keepends=True)))
                        self.on_progress(pull, block.count(b"\n"))
                    self._status(pull, True, fh, combined)
            job_block = self.job.block(self.source, self.job_id)
            if mode == "wb":
                (self.out / "job.log").unlink(missing_ok=True)   # a re-pull into the same directory
            if job_block:
                with open(self.out / "job.log", "ab") as fh:
                    fh.write(job_block)
                combined.write(job_block)
        return self.write_manifest()

    def _status(self, pull: TaskPull, settled: bool, fh: Any, combined: Any) -> None:
        """The status line (already `[i/a] `-prefixed) into the task's file and combined.log."""
        block = self.mask(status_block(pull, settled))
        fh.write(block)
        combined.write(block)

    def follow(self, interval_s: float, max_s: float, stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
        """Pull, then again every interval until the job is done (one last pull), max_s passes, or stop()."""
        end = time.monotonic() + max_s
        manifest = self.pull_once()
        while not stop() and time.monotonic() < end:
            finished = job_done(self.source, self.job_id)
            time.sleep(0 if finished else min(interval_s, max(0.0, end - time.monotonic())))
            manifest = self.pull_once()
            if finished:
                break
        return manifest

    def manifest(self) -> dict[str, Any]:
        tasks = []
        for pull in sorted(self.pulls.values(), key=lambda p: p.key):
            row = asdict(pull)
            for private in ("cursor", "status", "status_fed", "fetch"):
                row.pop(private, None)
            tasks.append(row)
        problems = [f"task {t['task_index']} attempt {t['attempt']}: {t['error'] or 'incomplete'}"
                    for t in tasks if t["error"] or not t["complete"]]
        if self.list_error:
            problems.insert(0, self.list_error)
        job = self.job.last
        return {"job_id": self.job_id, "pulled_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "out_dir": str(self.out), "combined": "combined.log", "tasks": tasks,
                "job_status": None if job is None else {"state": job.state, "exit_code": job.exit_code,
                                                        "error": job.error, "pending": job.pending},
                "total_lines": sum(t["lines"] for t in tasks), "complete": not problems, "problems": problems}

    def write_manifest(self) -> dict[str, Any]:
        manifest = self.manifest()
        (self.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        return manifest


OUT_NAME_MAX = 200   # + "_<stamp>" stays under the usual 255-byte file-name limit


def default_out_dir(job_id: str, now: dt.datetime | None = None) -> Path:
    """./traces/<user>_<job>_<UTC stamp>/. One directory name whatever the job id holds
    (`..`, spaces, 10,000 characters: issue 16, D4): other characters become '-', and the
    name is cut to fit a file name."""
    now = now or dt.datetime.now(dt.timezone.utc)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", job_id.strip("/").replace("/", "_")).strip(".-")[:OUT_NAME_MAX] or "job"
    return Path("traces") / f"{name}_{now.strftime('%Y%m%dT%H%M%SZ')}"


class JobFeeder:
    """Live, incremental: each `feed_new` streams only the lines that arrived since the last
    call (per task/attempt cursors kept here), e.g. for `watch --watchdog` with one Analyzer
    kept across intervals. The source may be a fresh connection each time."""

    def __init__(self, job_id: str, mask: Mask | None = None) -> None:
        self.job_id = job_id
        self.pulls: dict[tuple[int, int], TaskPull] = {}
        self.mask = default_mask() if mask is None else mask
        self.job = JobStatusTracker(self.mask)
        self.log_bytes = 0   # task log bytes fed (status lines not counted)

    def feed_new(self, source: LogSource, sink: Callable[[str, bytes], None],
                 deadline_s: float = DEFAULT_DEADLINE_S) -> list[str]:
        """Stream the new pages, and each attempt's status line when it changed, into
        `sink(source_name, bytes)`; returns what could not be fetched."""
        puller = LogPuller(source, self.job_id, Path("."), mask=self.mask)
        puller.pulls = self.pulls
        deadline = time.monotonic() + deadline_s
        for pull in puller.discover():
            pull.complete = False
            name = pull.file.removesuffix(".log")
            fed = pull.bytes
            for block in _status_and_pages(source, self.job_id, pull, deadline):
                sink(name, self.mask(block))
            self.log_bytes += pull.bytes - fed
        job_block = self.job.block(source, self.job_id)
        if job_block:
            sink(status_feed.JOB_STREAM, job_block)
        problems: list[str] = puller.manifest()["problems"]
        return problems


def _status_and_pages(source: LogSource, job_id: str, pull: TaskPull, deadline: float) -> Iterator[bytes]:
    """An attempt's changed active status, its new pages, then its changed terminal status
    (evaluated after the pages: lazily, nothing held in memory)."""
    before = status_block(pull, False)
    if before:
        yield before
    yield from pull_pages(source, job_id, pull, deadline)
    after = status_block(pull, True)
    if after:
        yield after


def feed_job(source: LogSource, job_id: str, sink: Callable[[str, bytes], None],
             deadline_s: float = DEFAULT_DEADLINE_S, mask: Mask | None = None) -> list[str]:
    """Stream every task/attempt's pages into `sink(source_name, bytes)` without writing files
    (health / progress JOB). Returns the problems (unfetchable tasks), empty when complete."""
    return JobFeeder(job_id, mask).feed_new(source, sink, deadline_s)
