"""The `hang` cause: liveness lines in a run's logs reach the analyzer's per-rank judgement
through every prefilter path (grep on files, grep on fed blocks, pure Python), become `hang`
findings at verdict time (culprit fatal, waiting peers warnings), survive save/load in bounded
memory, and disturb nothing else (no cause, no safety-net entry, no clock, no silence)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from irisrl.cli.main import cli
from irisrl.observe import causes as C
from irisrl.observe.analyzer import GREP_MIN_BYTES, Analyzer, feed_file
from irisrl.observe.ladder import LadderConfig
from irisrl.runtime.contract import LIVENESS_TAG

I = 30.0
T0 = 1_796_000_000.0


def proc(pid: int, name: str = "train.py", wchan: str = "futex_do_wait", c: float = 0, mc: float = 0.0,
         k: str | None = None, new: bool = False) -> dict[str, Any]:
    e: dict[str, Any] = {"p": pid, "pp": 1, "n": name, "s": "S", "w": wchan, "th": 4}
    if not new:
        e.update(c=c, mc=mc, io=0, mio=0, mw=0)
    if k:
        e["k"] = k
    return e


def sample(t: float, procs: list[dict[str, Any]], prefix: str = "") -> str:
    record = {"v": 1, "t": t, "i": I, "seq": 1, "root": 1, "st": "off: py-spy not on PATH", "ps": procs}
    return f"{prefix}{LIVENESS_TAG} {json.dumps(record)}\n"


def rank_lines(rank: int, n: int, busy: bool, name: str = "train.py", k: str | None = None) -> list[str]:
    """n samples I apart for `rank` (prefixed `[rank] `): computing, or quiet in a futex."""
    return [sample(T0 + i * I, [proc(10 + rank, name, c=20000 if busy else 0, mc=20000 if busy else 0,
                                     k=k, new=i == 0)], f"[{rank}] ") for i in range(n)]


def verdict(text: str, tmp_path: Path, *, grep: bool = True, hang_after: float = 180.0, monkeypatch: Any = None,
            now: float | None = None) -> Any:
    log = tmp_path / "combined.log"
    log.write_text(text)
    if not grep:
        monkeypatch.setenv("IRISRL_HEALTH_NO_GREP", "1")
    analyzer = Analyzer(None, LadderConfig(hang_after_s=hang_after))
    feed_file(analyzer, log)
    return analyzer, analyzer.verdict(now_log_time=now)


def hangs(report: Any) -> list[tuple[str, str]]:
    return [(c["rank"], c["status"]) for c in report.causes if c["kind"] == "hang"]


def test_hang_is_a_derived_fatal_rung_9_cause_at_the_end_of_the_catalogue():
    cause = C.BY_KIND["hang"]
    assert cause.derived and cause.fatal and cause.rung == 9 and not cause.needles
    assert C.CATALOGUE[-1] is cause and "py-spy" in cause.fix and "flight recorder" in cause.fix


@pytest.mark.parametrize("grep", [True, False])
def test_a_quiet_gang_names_the_culprit_fatal_and_its_waiting_peer_as_a_warning(tmp_path, monkeypatch, grep):
    # rank 1 stuck in a lock acquire (py-spy stack), rank 0 waits in recv: both quiet 4 minutes
    text = "".join(rank_lines(0, 9, False, k="recv (barrier.py:5)") + rank_lines(1, 9, False, k="acquire (x.py:3)"))
    _, report = verdict(text, tmp_path, grep=grep, monkeypatch=monkeypatch)
    assert report.kill and hangs(report) == [("1", "fatal"), ("0", "warning")]
    assert report.phase == "hung"
    death = report.cause_of_death
    assert death["kind"] == "hang" and death["rank"] == "1" and death["time"] == C.iso_time(T0)
    assert "rank 1 made no progress since" in death["line"] and "acquire (x.py:3)" in death["line"]
    assert "the other ranks wait on it" in death["line"]
    peer = next(c for c in report.causes if c["rank"] == "0")
    assert "it waits on rank 1" in peer["line"]
    assert report.rungs[8].status == "fail"


def test_a_waiter_is_not_hung_while_its_peer_computes(tmp_path):
    text = "".join(rank_lines(0, 9, True) + rank_lines(1, 9, False, k="recv (barrier.py:5)"))
    _, report = verdict(text, tmp_path)
    assert hangs(report) == [] and not report.kill


def test_hang_after_decides_and_now_ages_it(tmp_path):
    text = "".join(rank_lines(0, 5, False))            # quiet 120 s
    assert hangs(verdict(text, tmp_path)[1]) == []
    assert hangs(verdict(text, tmp_path, hang_after=100.0)[1]) == [("0", "fatal")]
    assert hangs(verdict(text, tmp_path, now=T0 + 4 * I + 60)[1]) == [("0", "fatal")]   # judged later: 180 s
    assert hangs(verdict(text, tmp_path, now=T0 + 3600)[1]) == []       # samples stopped long ago: stale


def test_a_finished_run_is_not_hung(tmp_path):
    text = "".join(rank_lines(0, 9, False)) + "Training complete\n"
    assert hangs(verdict(text, tmp_path)[1]) == []


def test_liveness_lines_disturb_nothing_else(tmp_path):
    # names and stacks full of failure words; samples written with a container timestamp prefix
    noisy = [proc(7, "fail_fast_error.py Traceback", k="raise_error (x.py:1) < handle_exception (y.py:2)")]
    text = "".join(f"2026-12-03T10:00:{i:02d}.000000000Z " + sample(T0 + i, noisy) for i in range(3))
    analyzer, report = verdict(text, tmp_path)
    st = analyzer.state
    assert report.causes == [] and report.unrecognized == [] and not report.kill
    assert st.max_t is None and st.last_line_t is None and st.hit_lines == 3
    assert st.liveness.newest() is not None


def test_every_prefilter_path_reads_the_same_samples(tmp_path, monkeypatch):
    filler = "".join(f"chatter line {i} with nothing to see\n" for i in range(GREP_MIN_BYTES // 30))
    text = filler + "".join(rank_lines(0, 9, False)) + filler
    assert len(text) > GREP_MIN_BYTES
    fed = Analyzer(None, LadderConfig())
    fed.feed("big-block", text.encode())                     # a block >= GREP_MIN_BYTES: grep on a pipe
    file_grep = verdict(text, tmp_path)[0]
    file_python = verdict(text, tmp_path, grep=False, monkeypatch=monkeypatch)[0]
    small = Analyzer(None, LadderConfig())
    for i in range(0, len(text), 4096):                      # small blocks: bytes.find in Python
        small.feed("small-blocks", text[i:i + 4096].encode())
    judged = [a.verdict().causes for a in (fed, file_grep, file_python, small)]
    assert judged[0] and all(j == judged[0] for j in judged), judged


def test_save_and_load_resume_the_judgement_in_bounded_space(tmp_path):
    lines = rank_lines(0, 2000, False, k="acquire (x.py:3)")
    one_pass = Analyzer(None, LadderConfig())
    one_pass.feed("task-0.attempt-0", "".join(lines).encode())
    resumed = Analyzer(None, LadderConfig())
    resumed.feed("task-0.attempt-0", "".join(lines[:1500]).encode())
    saved = tmp_path / "state.json"
    resumed.save(saved)
    size_at_1500 = saved.stat().st_size
    resumed = Analyzer.load(saved)
    resumed.feed("task-0.attempt-0", "".join(lines[1500:]).encode())
    resumed.save(saved)
    assert saved.stat().st_size == size_at_1500 < 4096      # one sample per rank, whatever the length
    assert Analyzer.load(saved).verdict().causes == one_pass.verdict().causes
    assert hangs(one_pass.verdict()) == [("0", "fatal")]


def test_health_cli_hang_after_and_json(tmp_path):
    log = tmp_path / "task-3.attempt-0.log"                 # rank from the per-task file name
    log.write_text("".join(sample(T0 + i * I, [proc(9, new=i == 0)]) for i in range(5)))
    runner = CliRunner()
    quiet = runner.invoke(cli, ["health", "--log", str(log), "--json"])
    assert quiet.exit_code == 0, quiet.output
    named = runner.invoke(cli, ["health", "--log", str(log), "--hang-after", "90", "--json"])
    assert named.exit_code == 1, named.output
    causes = json.loads(named.output)["causes"]
    assert [(c["kind"], c["rank"], c["status"]) for c in causes] == [("hang", "3", "fatal")]


def test_a_secret_in_a_process_name_never_reaches_the_report_or_the_state_file(tmp_path):
    # a non-Python process is named with its first argument (runtime/liveness.py process_name)
    lines = [sample(T0 + i * I, [proc(5, "uploader token=abc123secret", new=i == 0)]) for i in range(9)]
    analyzer = Analyzer(None, LadderConfig())
    analyzer.feed("task-0.attempt-0", "".join(lines).encode())
    report = analyzer.verdict()
    assert hangs(report) == [("0", "fatal")] and "token=***" in report.causes[0]["line"]
    saved = tmp_path / "state.json"
    analyzer.save(saved)
    assert "abc123secret" not in json.dumps(report.to_dict()) and "abc123secret" not in saved.read_text()


def test_watch_hang_after_needs_the_watchdog(capsys):
    from irisrl.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["watch", "some-job", "--hang-after", "60"])
    assert done.value.code == 64 and "--hang-after only applies with --watchdog" in capsys.readouterr().err
