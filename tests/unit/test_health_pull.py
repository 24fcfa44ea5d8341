"""Paged log pull against an in-memory LogSource, and through the Backend's one log method
(ops/jobs.JobLogs over tests/support/memory_backend.py): nothing is silently truncated."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from irisrl.cli.main import main
from irisrl.observe.analyzer import analyze_files
from irisrl.observe.pull import LogPuller, Page, TaskRef, default_out_dir, feed_job
from irisrl.ops.jobs import JobLogs

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.memory_backend import MemoryBackend, attempt, finished, line, task  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


class FakeSource:
    """Tasks with line lists, served `page` lines at a time; `broken` tasks raise."""

    def __init__(self, logs: dict[tuple[int, int], list[str]], page: int = 3, broken: set[int] = frozenset()) -> None:
        self.logs, self.page, self.broken, self.calls = logs, page, broken, 0
        self.done = False

    def tasks(self, job_id: str) -> list[TaskRef]:
        return [TaskRef(t, a, "running") for t, a in sorted(self.logs)]

    def fetch(self, job_id: str, task_index: int, attempt: int, cursor: Any) -> Page:
        self.calls += 1
        if task_index in self.broken:
            raise ConnectionError("controller went away")
        start = cursor or 0
        lines = self.logs[(task_index, attempt)][start:start + self.page]
        end = start + len(lines)
        return Page(lines, end, end < len(self.logs[(task_index, attempt)]))

    def job_done(self, job_id: str) -> bool:
        return self.done


def _fixture_source(name: str, page: int = 50) -> FakeSource:
    logs = {}
    for path in sorted((FIXTURES / name).glob("task-*.log")):
        task = int(path.name.split("-")[1].split(".")[0])
        logs[(task, 0)] = path.read_text().splitlines()
    return FakeSource(logs, page)


def test_pull_writes_every_page_per_task_combined_and_manifest(tmp_path: Path) -> None:
    src = FakeSource({(0, 0): [f"a{i}" for i in range(10)], (0, 1): ["b0"], (1, 0): [f"c{i}" for i in range(7)]})
    manifest = LogPuller(src, "/u/j", tmp_path).pull_once()
    assert (tmp_path / "task-0.attempt-0.log").read_text().splitlines() == [f"a{i}" for i in range(10)]
    assert manifest["complete"] and manifest["total_lines"] == 18
    assert [t["lines"] for t in manifest["tasks"]] == [10, 1, 7]
    assert [t["pages"] for t in manifest["tasks"]] == [4, 1, 3]
    combined = (tmp_path / "combined.log").read_text().splitlines()
    assert combined[0] == "[0/0] a0" and "[0/1] b0" in combined and combined[-1] == "[1/0] c6"
    assert json.loads((tmp_path / "manifest.json").read_text())["total_lines"] == 18


def test_pull_reports_what_could_not_be_fetched(tmp_path: Path) -> None:
    src = FakeSource({(0, 0): ["x"], (1, 0): ["y"]}, broken={1})
    manifest = LogPuller(src, "/u/j", tmp_path).pull_once()
    assert not manifest["complete"]
    assert manifest["problems"] == ["task 1 attempt 0: ConnectionError: controller went away"]


def test_follow_appends_new_lines_until_job_done(tmp_path: Path) -> None:
    src = FakeSource({(0, 0): ["l0", "l1"]}, page=10)
    puller = LogPuller(src, "/u/j", tmp_path)
    rounds = []

    def stop() -> bool:
        rounds.append(1)
        if len(rounds) == 1:
            src.logs[(0, 0)] += ["l2", "l3"]
        else:
            src.done = True
        return False

    manifest = puller.follow(interval_s=0.01, max_s=5, stop=stop)
    assert (tmp_path / "task-0.attempt-0.log").read_text().splitlines() == ["l0", "l1", "l2", "l3"]
    assert manifest["tasks"][0]["lines"] == 4


def test_health_from_a_live_source_equals_health_from_files() -> None:
    from irisrl.observe.analyzer import Analyzer

    plan = json.loads((FIXTURES / "starved_ranks" / "plan.json").read_text())
    analyzer = Analyzer(plan)
    assert feed_job(_fixture_source("starved_ranks"), "/u/j", analyzer.feed) == []
    files = analyze_files(sorted((FIXTURES / "starved_ranks").glob("*.log")), plan)
    assert analyzer.verdict().to_dict() == files.to_dict()


def _backend(lines: list[tuple[str, int, int]]) -> MemoryBackend:
    """One task; (text, timestamp_ms, attempt) lines; as many attempts as the lines name."""
    attempts = 1 + max(a for _, _, a in lines)
    views = task(0, *(attempt(a, "succeeded", 1, 2, 0) for a in range(attempts)))
    snap = finished("/u/j", "succeeded", 1)
    return MemoryBackend(statuses={"/u/j": replace(snap, tasks=(views,))},
                         lines=[line(0, text, ts, a) for text, ts, a in lines])


def _fixture_backend(name: str) -> MemoryBackend:
    """The fixture's task files as a running job's lines (one attempt per task)."""
    lines, tasks = [], []
    for path in sorted((FIXTURES / name).glob("task-*.log")):
        index = int(path.name.split("-")[1].split(".")[0])
        tasks.append(task(index, attempt(0, "running", 1)))
        lines += [line(index, text, 1000 + n) for n, text in enumerate(path.read_text().splitlines())]
    snap = finished("/u/j", "running", len(tasks), exit_code=None)
    return MemoryBackend(statuses={"/u/j": replace(snap, tasks=tuple(tasks))}, lines=lines)


def _logged(path: Path) -> list[str]:
    """The task's own lines in a pulled file (without the orchestrator's status lines)."""
    return [ln for ln in path.read_text().splitlines() if "irisrl-task-status:" not in ln]


def test_backend_pages_cut_inside_one_millisecond_lose_nothing(tmp_path: Path) -> None:
    backend = _backend([(f"m{i}", 1000 + i // 4, 0) for i in range(23)])    # 4 lines per millisecond
    source = JobLogs(backend, "/u/j", page_lines=3)
    manifest = LogPuller(source, "/u/j", tmp_path).pull_once()
    assert _logged(tmp_path / "task-0.attempt-0.log") == [f"m{i}" for i in range(23)]
    assert manifest["complete"] and source.job_done("/u/j")


def test_equal_lines_in_one_millisecond_are_each_kept(tmp_path: Path) -> None:
    """The cursor is a multiset of the lines seen at its millisecond: repeats are lines too."""
    backend = _backend([("same", 1000, 0)] * 5 + [("next", 1001, 0)])
    LogPuller(JobLogs(backend, "/u/j", page_lines=2), "/u/j", tmp_path).pull_once()
    assert _logged(tmp_path / "task-0.attempt-0.log") == ["same"] * 5 + ["next"]


def test_backend_logs_split_attempts_of_one_task(tmp_path: Path) -> None:
    backend = _backend([(f"a{i}", 1000 + i, 0) for i in range(5)] + [(f"b{i}", 2000 + i, 1) for i in range(4)])
    manifest = LogPuller(JobLogs(backend, "/u/j", page_lines=2), "/u/j", tmp_path).pull_once()
    assert _logged(tmp_path / "task-0.attempt-1.log") == [f"b{i}" for i in range(4)]
    assert [t["lines"] for t in manifest["tasks"]] == [5, 4] and manifest["complete"]


def test_logs_pulled_through_a_backend_feed_health_log(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from irisrl.ops.observing import pull_logs

    manifest = pull_logs(_fixture_backend("starved_ranks"), "/u/j", str(tmp_path / "o"))
    assert manifest["complete"] and len(manifest["tasks"]) == 7
    with pytest.raises(SystemExit) as exc:
        main(["health", "--log", str(tmp_path / "o" / "combined.log"), "--plan",
              str(FIXTURES / "starved_ranks" / "plan.json"), "--json"])
    assert exc.value.code == 1 and json.loads(capsys.readouterr().out)["rungs"][1]["status"] == "fail"


def test_health_job_reads_plan_and_pulls_through_the_backend() -> None:
    from irisrl.ops.health_check import health

    check = health("/u/j", backend=_fixture_backend("starved_ranks"), plan_path=str(FIXTURES / "starved_ranks" / "plan.json"))
    assert check.exit_code == 1 and check.to_dict()["rungs"][1]["status"] == "fail"


def test_default_out_dir_is_traces_job_stamp() -> None:
    import datetime as dt

    out = default_out_dir("/alice/dense8b-r1", dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.timezone.utc))
    assert out == Path("traces/alice_dense8b-r1_20261202T100000Z")


def test_job_feeder_streams_only_new_lines_and_matches_a_full_pass() -> None:
    from irisrl.observe.analyzer import Analyzer
    from irisrl.observe.pull import JobFeeder

    full = _fixture_source("starved_ranks")
    plan = json.loads((FIXTURES / "starved_ranks" / "plan.json").read_text())
    growing = FakeSource({k: v[: len(v) // 2] for k, v in full.logs.items()}, page=50)
    feeder, live, seen = JobFeeder("/u/j"), Analyzer(plan), []

    def sink(name: str, data: bytes) -> None:
        seen.append(data.count(b"\n"))
        live.feed(name, data)

    assert feeder.feed_new(growing, sink) == []
    first = sum(seen)
    for key, lines in full.logs.items():
        growing.logs[key] = list(lines)
    assert feeder.feed_new(growing, sink) == []
    assert 0 < first < sum(seen) == sum(len(v) for v in full.logs.values())   # every line once
    once = Analyzer(plan)
    assert feed_job(full, "/u/j", once.feed) == []
    assert live.verdict().to_dict() == once.verdict().to_dict()


def test_logs_health_and_progress_use_the_mask_the_caller_built_once(tmp_path: Path) -> None:
    """ops takes the mask the CLI built (one read of the secrets file, refused before the cluster
    is reached): what it masks never reaches a pulled file, a reason or a progress row."""
    from irisrl.ops.health_check import health
    from irisrl.ops.observing import progress, pull_logs

    calls: list[int] = []

    def mask(data: bytes) -> bytes:
        calls.append(1)
        return data.replace(b"planted-4242", b"****")

    backend = _backend([("2026-12-03 10:00:00 ERROR token planted-4242 rejected: Traceback", 1000, 0),
                        ("2026-12-03 10:00:01 RuntimeError: boom planted-4242", 2000, 0)])
    pull_logs(backend, "/u/j", str(tmp_path / "out"), mask=mask)
    pulled = "".join(p.read_text() for p in (tmp_path / "out").glob("*.log"))
    assert "****" in pulled and "planted-4242" not in pulled
    check = health("/u/j", backend=backend, mask=mask, now=1e10)
    assert "planted-4242" not in json.dumps(check.to_dict())
    progress("/u/j", backend=backend, mask=mask)
    assert calls   # every path went through the caller's mask
