"""ops/watcher.JobWatcher, the one poll loop under launch and watch, against an in-memory
backend: the events of each poll in order, log paging without repeats, and every way it ends."""

from __future__ import annotations

from irisrl.backends.base import JobSnapshot, LogCursor, LogLine, page_after
from irisrl.ops.watcher import Finished, GaveUp, HealthChanged, JobWatcher, LogLine as LogEvent, Polled, ReadFailed, Transition, \
    Waiting
from irisrl.util.errors import UndeterminedError


class Backend:
    """Scripted snapshots (or errors) one per poll, repeating the last; logs appear by poll."""

    def __init__(self, script, logs_by_poll=None):
        self.script, self.polls, self.logs_by_poll = list(script), 0, logs_by_poll or {}
        self.lines: list[LogLine] = []

    def snapshot(self, job_id, detail=True):
        item = self.script[min(self.polls, len(self.script) - 1)]
        self.lines += self.logs_by_poll.get(self.polls, [])
        self.polls += 1
        if isinstance(item, Exception):
            raise item
        return item

    def logs(self, job_id, cursor=LogCursor(), task_index=None, attempt=-1, max_lines=1000):
        def read(since, limit):
            found = [ln for ln in self.lines if ln.timestamp_ms >= since and task_index in (None, ln.task_index)]
            return sorted(found, key=lambda ln: ln.timestamp_ms)[:limit]
        return page_after(read, cursor, max_lines, attempt)


def snap(state, **kw):
    return JobSnapshot("/u/j", state, 0, task_count=2, **kw)


def line(ms, text, task=0, attempt=0):
    return LogLine(task_index=task, attempt=attempt, timestamp_ms=ms, source="stdout", data=text)


class Clock:
    def __init__(self):
        self.t = 0.0

    def sleep(self, s):
        self.t += s


def events(backend, **kw):
    clock = Clock()
    watcher = JobWatcher(backend, "/u/j", kw.pop("interval", 1.0), sleep=clock.sleep, clock=lambda: clock.t, **kw)
    return list(watcher.events())


def kinds(evs):
    return [type(e).__name__ for e in evs]


def test_a_job_that_runs_then_succeeds_yields_one_transition_per_change_then_finished():
    b = Backend([snap("pending"), snap("pending"), snap("running", task_states={"running": 2}),
                 snap("succeeded", task_states={"succeeded": 2})])
    evs = events(b)
    assert kinds(evs) == ["Polled", "Transition", "Waiting", "Polled", "Waiting", "Polled", "Transition", "Waiting",
                          "Polled", "Transition", "Finished"]
    assert evs[-1].snap.state == "succeeded" and b.polls == 4


def test_log_lines_come_once_each_with_rank_and_attempt_prefix_even_when_sharing_a_millisecond():
    b = Backend([snap("running"), snap("running"), snap("failed")],
                logs_by_poll={0: [line(5, "a"), line(5, "b", task=1)], 1: [line(5, "c", attempt=1)],
                              2: [line(9, "last")]})
    texts = [e.text for e in events(b, logs=True) if isinstance(e, LogEvent)]
    assert texts == ["[rank 0] a", "[rank 1] b", "[rank 0.1] c", "[rank 0] last"]


def test_a_rank_whose_lines_reach_the_store_late_loses_none():
    """Tasks push their logs separately: rank 0's line stamped 100 can reach the store after rank
    1's line stamped 200 was read. A job-wide cursor (at 200) skipped it; each task's own does not."""
    b = Backend([snap("running"), snap("succeeded", task_states={"succeeded": 2})],
                logs_by_poll={0: [line(200, "rank1 early push", task=1)], 1: [line(100, "rank0 late push")]})
    texts = [e.text for e in events(b, logs=True) if isinstance(e, LogEvent)]
    assert texts == ["[rank 1] rank1 early push", "[rank 0] rank0 late push"]


def test_without_logs_the_watcher_never_fetches_them():
    b = Backend([snap("succeeded")])
    b.logs = None   # a call would raise
    assert kinds(events(b)) == ["Polled", "Transition", "Finished"]


def test_three_failed_reads_in_a_row_give_up_and_a_good_read_resets_the_count():
    down = UndeterminedError("controller unreachable")
    evs = events(Backend([down, down, snap("running"), down, down, down]))
    assert kinds(evs).count("ReadFailed") == 5 and isinstance(evs[-1], GaveUp)
    assert evs[-1].reason == "read_failures" and [e.failures for e in evs if isinstance(e, ReadFailed)] == [1, 2, 1, 2, 3]


def test_timeout_and_pending_deadline_end_with_gave_up_naming_the_reason():
    timed = events(Backend([snap("running")]), timeout_s=5.0)
    assert isinstance(timed[-1], GaveUp) and timed[-1].reason == "timeout" and timed[-1].after_s >= 5.0
    stuck = events(Backend([snap("pending", pending_reason="coschedule")]), pending_deadline_s=3.0)
    assert stuck[-1].reason == "pending" and stuck[-1].snap.pending_reason == "coschedule"


def test_an_absent_job_finishes_at_once():
    evs = events(Backend([JobSnapshot.missing("/u/j")]))
    assert isinstance(evs[-1], Finished) and evs[-1].snap.absent


def test_pause_sets_the_wait_between_polls():
    clock = Clock()
    watcher = JobWatcher(Backend([snap("running")]), "/u/j", 1.0, timeout_s=10.0, pause=lambda base: base * 5,
                         sleep=clock.sleep, clock=lambda: clock.t)
    polls = [e for e in watcher.events() if isinstance(e, Polled)]
    assert len(polls) == 3 and clock.t == 10.0   # polls at t=0, 5, 10


def test_the_poll_events_are_the_documented_types():
    b = Backend([snap("running"), snap("succeeded")])
    assert {type(e) for e in events(b)} == {Polled, Transition, Waiting, Finished}


# ------------------------------------------------------------------ launch's follow on the watcher
def _plan(tmp_path, **kw):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
    from iris_plans import trivial_plan

    return trivial_plan("j", ["true"], tmp_path, **kw)


class Ledger:
    def __init__(self):
        self.states = []

    def update_state(self, job_id, state):
        self.states.append((job_id, state))


def _follow(backend, plan, monkeypatch):
    from irisrl.ops import follow as launch_follow, watcher

    clock = Clock()
    monkeypatch.setattr(watcher.time, "monotonic", lambda: clock.t)
    monkeypatch.setattr(watcher.time, "sleep", clock.sleep)
    ledger = Ledger()
    return launch_follow.follow(backend, "/u/j", plan, ledger, 1.0), ledger


def test_follow_prints_transitions_and_masked_rank_lines_then_records_the_end(monkeypatch, tmp_path, capsys, ops_on_terminal):
    plan = _plan(tmp_path, env={"HF_TOKEN": "hf_s3cr3t-value"}, secret_keys=("HF_TOKEN",))
    b = Backend([snap("running", task_states={"running": 2}), snap("succeeded", task_states={"succeeded": 2})],
                logs_by_poll={0: [line(1, "token hf_s3cr3t-value"), line(2, "up", task=1)]})
    code, ledger = _follow(b, plan, monkeypatch)
    out = capsys.readouterr().out
    assert code == 0 and ledger.states == [("/u/j", "succeeded")]
    assert "[rank 0] token ***" in out and "[rank 1] up" in out and "hf_s3cr3t-value" not in out
    assert out.count("state=running") == 1 and "/u/j finished: succeeded" in out


def test_follow_survives_two_failed_reads_and_gives_up_on_the_third_with_exit_3(monkeypatch, tmp_path, capsys, ops_on_terminal):
    down = UndeterminedError("controller unreachable")
    ok, _ = _follow(Backend([down, down, snap("failed")]), _plan(tmp_path), monkeypatch)
    assert ok == 1
    gone, ledger = _follow(Backend([down]), _plan(tmp_path), monkeypatch)
    err = capsys.readouterr().err
    assert gone == 3 and ledger.states == [] and "read failed (3): controller unreachable" in err


def test_a_health_check_runs_each_running_poll_before_waiting_and_once_at_the_end():
    b = Backend([snap("pending"), snap("running", task_states={"running": 2}),
                 snap("succeeded", task_states={"succeeded": 2})])
    checked = []

    def health(s):
        checked.append(s.state)
        return HealthChanged(None, s.state == "succeeded")

    evs = events(b, health=health)
    assert kinds(evs) == ["Polled", "Transition", "Waiting",
                          "Polled", "Transition", "HealthChanged", "Waiting",
                          "Polled", "Transition", "HealthChanged", "Finished"]
    assert checked == ["running", "succeeded"] and [e.changed for e in evs if isinstance(e, HealthChanged)] == [
        False, True]


def test_no_health_check_on_an_absent_job():
    evs = events(Backend([JobSnapshot.missing("/u/j")]), health=lambda s: 1 / 0)
    assert kinds(evs)[-1] == "Finished" and "HealthChanged" not in kinds(evs)
