"""The typed Backend boundary (backends/base.py): the one log method's paging rule
(page_after, LogCursor), and TorchX's submission shape, `dryrun(plan) -> SubmitRequest` then
`schedule(request) -> job id` (submit is the two), for the Iris adapter without a connection
and for the in-memory backend."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irisrl.backends.base import LogCursor, LogLine, page_after
from irisrl.plan.request import build_request

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "integration"))
from iris_plans import trivial_plan  # noqa: E402
from support.memory_backend import MemoryBackend, line  # noqa: E402


def _reader(lines: list[LogLine], calls: list[tuple[int, int]]):  # type: ignore[no-untyped-def]
    """FetchLogs' contract: lines at or after since_ms (inclusive), oldest first, `limit` of them."""
    def read(since: int, limit: int) -> list[LogLine]:
        calls.append((since, limit))
        return [ln for ln in lines if ln.timestamp_ms >= since][:limit]
    return read


def _drain(lines: list[LogLine], page: int, attempt: int = -1) -> list[str]:
    got, cursor, calls = [], LogCursor(), []
    for _ in range(100):
        result = page_after(_reader(lines, calls), cursor, page, attempt)
        got += [ln.data for ln in result.lines]
        cursor = result.cursor
        if not result.more:
            break
    return got


def test_pages_cut_inside_a_millisecond_neither_lose_nor_repeat_and_equal_lines_count_twice() -> None:
    lines = [line(0, f"m{i}", 1000 + i // 4) for i in range(23)] + [line(1, "dup", 2000)] * 3 + [line(0, "end", 2001)]
    assert _drain(lines, page=3) == [f"m{i}" for i in range(23)] + ["dup"] * 3 + ["end"]
    repeated = [line(0, "same", 500)] * 5 + [line(0, "next", 501)]   # a page boundary inside equal lines
    assert _drain(repeated, page=2) == ["same"] * 5 + ["next"]


def test_a_whole_page_inside_one_millisecond_grows_the_page_instead_of_stalling() -> None:
    lines = [line(0, f"x{i}", 1000) for i in range(10)] + [line(0, "after", 1001)]
    calls: list[tuple[int, int]] = []
    first = page_after(_reader(lines, calls), LogCursor(), 4)
    second = page_after(_reader(lines, calls), first.cursor, 4)   # all 4 it gets back were seen: ask for more
    assert [ln.data for ln in first.lines] == ["x0", "x1", "x2", "x3"]
    assert [ln.data for ln in second.lines] == ["x4", "x5", "x6", "x7"] and calls[-1] == (1000, 8)
    assert _drain(lines, page=4) == [f"x{i}" for i in range(10)] + ["after"]


def test_one_attempt_is_filtered_while_the_cursor_covers_every_line() -> None:
    lines = [line(0, f"a{i}", 1000 + i, attempt=0) for i in range(5)] + [line(0, f"b{i}", 2000 + i, attempt=1)
                                                                       for i in range(4)]
    assert _drain(lines, page=2, attempt=1) == [f"b{i}" for i in range(4)]
    assert _drain(lines, page=2, attempt=0) == [f"a{i}" for i in range(5)]


def test_the_cursor_holds_digests_never_the_text_of_a_line() -> None:
    page = page_after(_reader([line(0, "token hf_s3cret", 5)], []), LogCursor(), 10)
    assert page.cursor.since_ms == 5 and "s3cret" not in repr(page.cursor)


def test_iris_dryrun_is_the_request_and_the_bundle_with_sizes_without_a_controller(tmp_path: Path) -> None:
    pytest.importorskip("iris.cluster.client.bundle")
    from irisrl.backends.iris_client import dryrun

    (tmp_path / "train.py").write_text("print('hi')\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "small.json").write_text("{}")
    plan = trivial_plan("dry-1", ["python", "train.py"], tmp_path, env={"HF_TOKEN": "hf_dry_secret"},
                        secret_keys=("HF_TOKEN",))
    req = dryrun(plan)   # no IrisBackend, no controller: what `launch --dry-run` can print
    assert req.backend == "iris" and req.request == build_request(plan) and req.job_id == plan.job_id
    sizes = {f.path: f.size for f in req.bundle}
    assert sizes["train.py"] == 12 and sizes["data/small.json"] == 2
    assert ".irisrl/plan.json" in sizes and ".irisrl/lib/irisrl/runtime/contract.py" in sizes
    assert req.bundle_bytes == sum(sizes.values())
    shown = req.to_dict()
    assert shown["request"]["env"]["HF_TOKEN"] == "***" and "hf_dry_secret" not in repr(shown)
    assert {"path": "train.py", "bytes": 12} in shown["bundle"]


def test_the_staged_bundle_is_exactly_the_dryrun_listing(tmp_path: Path) -> None:
    pytest.importorskip("iris.cluster.client.bundle")
    from irisrl.backends.bundle import staged_workspace
    from irisrl.backends.iris_client import dryrun

    (tmp_path / "train.py").write_text("x = 1\n")
    req = dryrun(trivial_plan("dry-2", ["python", "train.py"], tmp_path))
    with staged_workspace(req.workspace, req.plan_json, req.bundle_cap, req.bundle) as stage:
        staged = {p.relative_to(stage).as_posix(): p.stat().st_size for p in stage.rglob("*") if p.is_file()}
    assert staged == {f.path: f.size for f in req.bundle}


def test_memory_backend_submit_is_schedule_of_dryrun(tmp_path: Path) -> None:
    backend = MemoryBackend()
    plan = trivial_plan("dry-3", ["true"], tmp_path)
    job_id = backend.submit(plan)
    assert job_id == plan.job_id and [r.job_id for r in backend.scheduled] == [plan.job_id]
    assert backend.scheduled[0].request == backend.dryrun(plan).request == build_request(plan)
    assert backend.snapshot(job_id).state == "pending"


def test_the_sdk_free_dry_run_lists_what_irises_own_lister_lists(tmp_path: Path) -> None:
    """ops/submission.dry_run (what `launch --dry-run` can print, loading no Iris) and the
    Iris backend's dryrun name the same files with the same sizes, in a git checkout too."""
    pytest.importorskip("iris.cluster.client.bundle")
    import subprocess

    from irisrl.backends.iris_client import dryrun
    from irisrl.ops.submission import dry_run

    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "notes.log").write_text("ignored\n")
    (tmp_path / ".gitignore").write_text("*.log\n")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    plan = trivial_plan("dry-4", ["python", "train.py"], tmp_path)
    light, iris = dry_run(plan), dryrun(plan)
    assert {(f.path, f.size) for f in light.bundle} == {(f.path, f.size) for f in iris.bundle}
    assert "notes.log" not in {f.path for f in light.bundle} and light.request == iris.request


def test_the_dry_run_loads_no_iris() -> None:
    code = ("import sys; sys.path.insert(0, 'tests/integration'); from pathlib import Path; "
            "from iris_plans import trivial_plan; from irisrl.ops.submission import dry_run; "
            "dry_run(trivial_plan('dry-5', ['true'], Path('examples/workspace'))); "
            "print(sorted(m for m in sys.modules if m == 'iris' or m.startswith('iris.')))")
    out = subprocess_run(code)
    assert out.strip() == "[]", out


def subprocess_run(code: str) -> str:
    import os
    import subprocess

    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo / "src")}
    return subprocess.run([sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True,
                          check=True).stdout
