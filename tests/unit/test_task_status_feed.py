"""The orchestrator's status of each task attempt and of the job, fed to the analyzer as
`irisrl-task-status:` lines (observe/status_feed.py, observe/pull.py) by `health JOB`, the
watchdog and the log pull: once per change, in the attempt's stream, stamped with Iris's own
time, with the same evidence offline (`health --log` on the pulled files)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from irisrl.backends.base import JobSnapshot
from irisrl.cli.main import main
from irisrl.observe import status_feed
from irisrl.observe.pull import JobFeeder, LogPuller
from irisrl.observe.task_status import STATUS_TAG, parse_status
from irisrl.ops.health_check import health
from irisrl.ops.jobs import JobLogs

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.memory_backend import MemoryBackend, attempt, line, task  # noqa: E402

T0_MS = 1_796_205_600_000   # 2026-12-02 10:00:00 UTC
ERROR = "ValueError: bad shape"
EXIT_137 = "Exit code 137: killed by SIGKILL (possibly OOM or resource limit)"   # Iris worker's text


def _job(state: str, *tasks: Any, error: str = "", pending: str = "", finished_ms: int | None = None) -> JobSnapshot:
    counts: dict[str, int] = {}
    for t in tasks:
        counts[t.state] = counts.get(t.state, 0) + 1
    return JobSnapshot("/u/j", state, 0, error=error, task_count=len(tasks), task_states=counts, tasks=tuple(tasks),
                       pending_reason=pending, finished_ms=finished_ms)


def _running() -> JobSnapshot:
    return _job("running", task(0, attempt(0, "running", T0_MS)), task(1, attempt(0, "running", T0_MS + 5)))


def _failed() -> JobSnapshot:
    return _job("failed", task(0, attempt(0, "failed", T0_MS, T0_MS + 60_000, 1, "Exit code: 1")),
                task(1, attempt(0, "killed", T0_MS + 5, T0_MS + 61_000, 137, EXIT_137)),
                error="Task /u/j/0 failed", finished_ms=T0_MS + 61_000)


def _lines() -> list[Any]:
    return [line(0, "[irisrl] Ray nodes alive: 2/2", T0_MS + 1000), line(1, "worker up", T0_MS + 1000),
            line(0, ERROR, T0_MS + 59_000)]


def _collect(feeder: JobFeeder, source: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    feeder.feed_new(source, lambda name, data: out.extend((name, ln) for ln in data.decode().splitlines()))
    return out


def test_statuses_per_attempt_with_iris_times_and_a_pending_task() -> None:
    view = task(3, attempt(0, "failed", T0_MS, T0_MS + 2000, 137, EXIT_137), attempt(1, "running", T0_MS + 9000))
    first, second = status_feed.attempt_statuses(view)
    assert (first.task_index, first.attempt, first.state, first.exit_code, first.error) == (3, 0, "FAILED", 137, EXIT_137)
    assert first.time == (T0_MS + 2000) / 1000 and first.ended_badly
    assert (second.attempt, second.state, second.exit_code, second.time) == (1, "RUNNING", None, (T0_MS + 9000) / 1000)
    assert first.to_line().startswith("[3/0] irisrl-task-status: state=FAILED exit_code=137")
    assert first.to_line().endswith(" at=2026-12-02T10:00:02Z") and parse_status(first.to_line()).time == first.time
    (pending,) = status_feed.attempt_statuses(task(2, pending_reason="Retrying (attempt 1, last: failed)"))
    assert (pending.attempt, pending.state, pending.pending, pending.time) == (0, "PENDING", "Retrying (attempt 1, "
                                                                               "last: failed)", None)
    line_ = status_feed.job_line(status_feed.job_status(_job("pending", pending="Scheduler: no worker has 8 GPUs")))
    assert line_.startswith(STATUS_TAG) and parse_status(line_).pending == "Scheduler: no worker has 8 GPUs"


def test_one_line_per_change_active_before_the_logs_terminal_after() -> None:
    backend = MemoryBackend(script=[_running()], lines=_lines()[:2])
    feeder, source = JobFeeder("/u/j", mask=lambda b: b), JobLogs(backend, "/u/j")
    first = _collect(feeder, source)
    assert first[0] == ("task-0.attempt-0", "[0/0] irisrl-task-status: state=RUNNING "
                                            'exit_code=none error="" pending="" at=2026-12-02T10:00:00Z')
    assert first[1] == ("task-0.attempt-0", "[irisrl] Ray nodes alive: 2/2")
    assert ("job", 'irisrl-task-status: state=RUNNING exit_code=none error="" pending=""') in first
    assert [ln for _, ln in _collect(feeder, source)] == []          # nothing changed: no line at all
    backend.script, backend.lines = [_failed()], _lines()
    third = _collect(feeder, source)
    task0 = [ln for name, ln in third if name == "task-0.attempt-0"]
    assert task0 == [ERROR, '[0/0] irisrl-task-status: state=FAILED exit_code=1 '
                            'error="Exit code: 1" pending="" at=2026-12-02T10:01:00Z']   # after the attempt's last line
    killed = parse_status(next(ln for name, ln in third if name == "task-1.attempt-0"))
    assert killed is not None and (killed.state, killed.exit_code, killed.error) == ("KILLED", 137, EXIT_137)
    assert [ln for name, ln in third if name == "job"] == [
        'irisrl-task-status: state=FAILED exit_code=none error="Task /u/j/0 failed" pending="" '
        'at=2026-12-02T10:01:01Z']
    assert [ln for _, ln in _collect(feeder, source)] == []


def test_status_error_text_is_masked() -> None:
    backend = MemoryBackend(script=[_job("failed", task(0, attempt(0, "failed", T0_MS, T0_MS + 1, 1, "token hf_s3cret")))])
    feeder = JobFeeder("/u/j", mask=lambda b: b.replace(b"hf_s3cret", b"***"))
    seen = _collect(feeder, JobLogs(backend, "/u/j"))
    assert any('error="token ***"' in ln for _, ln in seen) and not any("s3cret" in ln for _, ln in seen)


def test_watch_polls_cost_no_more_and_a_pending_task_is_listed_not_fetched() -> None:
    snap = _job("running", task(0, attempt(0, "running", T0_MS)), task(1, pending_reason=""))
    backend = MemoryBackend(script=[snap], lines=_lines()[:1])
    logs = JobLogs(backend, "/u/j", follows_polls=True)
    logs.use(JobSnapshot("/u/j", "running", 3, task_count=2, task_states={"running": 1, "pending": 1}))
    seen = _collect(JobFeeder("/u/j", mask=lambda b: b), logs)
    assert backend.calls == 2   # ListTasks (a task has not started) + one FetchLogs for the started task only
    assert any(name == "task-1.attempt-0" and "state=PENDING" in ln for name, ln in seen)


def test_pulled_files_keep_the_status_lines_and_health_log_reads_the_same(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture) -> None:
    from irisrl.observe import analyzer as A

    backend = MemoryBackend(script=[_failed()], lines=_lines())
    LogPuller(JobLogs(backend, "/u/j"), "/u/j", tmp_path, mask=lambda b: b).pull_once()
    combined = (tmp_path / "combined.log").read_text().splitlines()
    assert combined[-1].startswith("irisrl-task-status: state=FAILED")   # the job's line (no task prefix)
    assert "[0/0] " + ERROR in combined and any(ln.startswith("[1/0] ") and "exit_code=137" in ln for ln in combined)
    assert 'error="Exit code: 1" pending=""' in (tmp_path / "task-0.attempt-0.log").read_text().splitlines()[-1]
    assert "state=FAILED" in (tmp_path / "job.log").read_text()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["job_status"]["state"] == "FAILED" and manifest["total_lines"] == 3   # status lines not counted

    fed: list[str] = []
    real_feed = A.Analyzer.feed
    monkeypatch.setattr(A.Analyzer, "feed", lambda self, name, data: (fed.extend(
        ln for ln in data.decode().splitlines() if STATUS_TAG in ln), real_feed(self, name, data))[1])
    health("/u/j", backend=backend)   # `health JOB`'s call, on the backend it is handed
    # `health JOB` fed the analyzer exactly the status lines `health --log combined.log` reads
    # (the catalogue's prefilter decides, in both paths alike, which lines it parses)
    offline = sorted(ln.split(STATUS_TAG)[1] for ln in combined if STATUS_TAG in ln)
    assert sorted(ln.split(STATUS_TAG)[1] for ln in fed) == offline
    assert len(offline) == 3 and sum("exit_code=137" in ln for ln in offline) == 1


def test_health_on_a_job_that_never_started_says_why(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    reason = "Scheduler: Insufficient GPUs (need 8, available 0)\n\nAutoscaler: (scaling up) waiting for h100-8"
    backend = MemoryBackend(script=[_job("pending", task(0), task(1), pending=reason)])
    check = health("/u/j", backend=backend)
    report = check.to_dict()
    assert check.exit_code == 3 and report["verdict"] == "NO-KILL"
    assert any("not started yet" in r and "Iris: job PENDING: Scheduler: Insufficient GPUs (need 8, available 0) "
               "Autoscaler: (scaling up) waiting for h100-8" in r for r in report["reasons"]), report["reasons"]


@pytest.mark.parametrize("case", ["wedge", "healthy_training_step12", "engines_silent_queued"])
def test_status_lines_leave_the_ladder_clock_alone(case: str) -> None:
    """Iris's wall-clock time rides at the end of the line (`at=`), not as the line's time: the
    logs' own clock (another zone, or fabricated as here) keeps judging silence and wedges.
    Each status line is its own block, as the feeder sends it (so it is a chunk's tail)."""
    import gzip

    from irisrl.observe.analyzer import Analyzer
    from irisrl.observe.task_status import TaskStatus

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / case
    plan = json.loads((fixture / "plan.json").read_text())
    plain, with_status = Analyzer(plan), Analyzer(plan)
    wall = 1_900_000_000.0   # 2030: far from the fixtures' log clock
    paths = sorted(fixture.glob("task-*.log")) or sorted(fixture.glob("combined.log*"))
    assert paths
    for index, path in enumerate(paths):
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        plain.feed(path.name, data)
        with_status.feed(path.name, status_feed.encoded(TaskStatus(index, 0, "RUNNING", time=wall).to_line()))
        with_status.feed(path.name, data)
    with_status.feed(status_feed.JOB_STREAM, status_feed.encoded(status_feed.job_line(
        TaskStatus(-1, 0, "RUNNING", time=wall))))
    assert with_status.verdict().to_dict() == plain.verdict().to_dict()


def test_a_waiting_reason_goes_with_the_attempt_in_flight() -> None:
    """Newer Iris says why an assigned / building task waits (TaskStatus.status_message, e.g.
    Kubernetes' ImagePullBackOff); the installed SDK's proto has no such field."""
    from iris.rpc import job_pb2

    from irisrl.backends.iris_client import _task_view

    proto = job_pb2.TaskStatus(task_id="/u/j/2", state=job_pb2.TASK_STATE_BUILDING,
                               attempts=[job_pb2.TaskAttempt(attempt_id=0, state=job_pb2.TASK_STATE_BUILDING)])
    assert _task_view(proto).pending_reason == ""           # marin-iris 0.2.20: no status_message
    waiting = "ImagePullBackOff: Back-off pulling image \"ghcr.io/x/y:bad\""

    class Newer:   # the proto with the newer field, everything else as it is
        status_message = waiting

        def __getattr__(self, name: str) -> Any:
            return getattr(proto, name)

    view = _task_view(Newer())
    (status,) = status_feed.attempt_statuses(view)
    assert (status.task_index, status.state, status.pending) == (2, "BUILDING", waiting)
    retried = task(1, attempt(0, "failed", T0_MS, T0_MS + 1, 1, "Exit code: 1"), state="pending",
                   pending_reason="Retrying (attempt 1, last: failed)")
    assert [s.pending for s in status_feed.attempt_statuses(retried)] == [""]


def test_the_job_line_is_masked_everywhere_and_a_re_pull_starts_job_log_afresh(tmp_path: Path) -> None:
    snap = _job("failed", task(0, attempt(0, "failed", T0_MS, T0_MS + 1, 1, "Exit code: 1")),
                error="hf_s3cret rejected", finished_ms=T0_MS + 1)
    mask = lambda b: b.replace(b"hf_s3cret", b"***")   # noqa: E731
    for _ in range(2):   # the second `logs` run into the same directory
        manifest = LogPuller(JobLogs(MemoryBackend(script=[snap]), "/u/j"), "/u/j", tmp_path,
                             mask=mask).pull_once()
    assert manifest["job_status"]["error"] == "*** rejected"
    assert (tmp_path / "job.log").read_text().count("irisrl-task-status:") == 1
    assert not any("s3cret" in p.read_text() for p in tmp_path.iterdir())
