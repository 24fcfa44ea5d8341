"""watch's loop against an in-memory backend: transitions, exit codes, deadlines, check-ins."""

from __future__ import annotations

import sys
from pathlib import Path

from irisrl.backends.base import JobSnapshot, LogCursor, LogPage
from irisrl.cli.job_cmds import parse_duration
from irisrl.ops.watching import watch_loop
from irisrl.util.errors import UndeterminedError
from irisrl.util.exitcodes import Exit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from memory_backend import MemoryBackend  # noqa: E402


def ScriptedBackend(script):  # noqa: N802 - reads as the backend it builds
    """The shared in-memory backend, answering one scripted snapshot (or error) per poll."""
    return MemoryBackend(script=list(script))


def snap(state, **kw):
    return JobSnapshot("/u/j", state, 0, task_count=2, **kw)


class Clock:
    def __init__(self):
        self.t = 0.0

    def sleep(self, s):
        self.t += s


def run(backend, monkeypatch, **kw):
    clock = Clock()
    monkeypatch.setattr("irisrl.ops.watcher.time.monotonic", lambda: clock.t)
    return watch_loop(backend, "/u/j", kw.pop("interval", 1.0), kw.pop("timeout", None), kw.pop("checkins", []),
                      sleep=clock.sleep, **kw)


def test_watch_prints_transitions_once_and_exits_0_on_success(monkeypatch, capsys, ops_on_terminal):
    b = ScriptedBackend([snap("pending", pending_reason="coschedule waiting"), snap("pending", pending_reason="coschedule waiting"),
                         snap("running", task_states={"running": 2}), snap("succeeded", task_states={"succeeded": 2})])
    assert run(b, monkeypatch) == Exit.OK
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and "waiting=coschedule waiting" in out[0] and "state=succeeded" in out[2]
    assert b.calls == 4  # one controller call per poll


def test_watch_exit_1_on_failed_and_2_on_absent(monkeypatch):
    assert run(ScriptedBackend([snap("failed", error="exit 3")]), monkeypatch) == Exit.FAIL
    assert run(ScriptedBackend([JobSnapshot.missing("/u/j")]), monkeypatch) == Exit.ABSENT


def test_watch_timeout_exits_3(monkeypatch):
    assert run(ScriptedBackend([snap("running")]), monkeypatch, timeout=5.0) == Exit.UNKNOWN


def test_watch_repeated_read_failures_exit_3(monkeypatch):
    err = UndeterminedError("controller down")
    assert run(ScriptedBackend([err, err, err, snap("succeeded")]), monkeypatch) == Exit.UNKNOWN
    assert run(ScriptedBackend([err, err, snap("succeeded")]), monkeypatch) == Exit.OK


def test_watch_checkins_count_from_all_tasks_running_not_submission(monkeypatch):
    seen = []
    script = [snap("pending", task_states={"pending": 2})] * 100 + [snap("running", task_states={"running": 2})] * 20 \
        + [snap("succeeded")]
    code = run(ScriptedBackend(script), monkeypatch, checkins=[10.0],
               on_checkin=lambda label: seen.append(label) or "NO-KILL")
    assert code == Exit.OK and seen == ["10s"]


def test_watch_watchdog_kill_verdict_exits_5_without_killing(monkeypatch):
    b = ScriptedBackend([snap("running", task_states={"running": 2})])
    code = run(b, monkeypatch, checkins=[3.0], on_checkin=lambda label: "KILL", watchdog=True)
    assert code == Exit.WATCHDOG_KILL
    assert b.terminated == []   # advice only: watch never kills


def test_parse_duration_units():
    assert parse_duration("15m") == 900 and parse_duration("2h") == 7200 and parse_duration("30") == 30


def test_follow_gives_up_on_a_local_gang_that_is_never_admitted(monkeypatch, tmp_path, capsys, ops_on_terminal):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
    from iris_plans import trivial_plan

    from irisrl.ops import follow as launch_follow, watcher

    clock = Clock()
    monkeypatch.setattr(watcher.time, "monotonic", lambda: clock.t)
    monkeypatch.setattr(watcher.time, "sleep", clock.sleep)
    backend = ScriptedBackend([snap("pending", pending_reason="coschedule_mismatch")])
    backend.logs = lambda *a, **k: LogPage((), LogCursor(), False)

    class NoLedger:
        def update_state(self, *a):
            raise AssertionError("not terminal")

    code = launch_follow.follow(backend, "/u/j", trivial_plan("j", ["true"], tmp_path), NoLedger(), 1.0,
                                pending_deadline_s=30.0)
    assert code == Exit.UNKNOWN and "still pending after 30s" in capsys.readouterr().err
    assert backend.calls <= 33
