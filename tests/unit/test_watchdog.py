"""`watch --watchdog`: watch_loop + the persistent Watchdog against an in-memory backend whose
task logs grow with a fake clock (a healthy bring-up, then a throughput-starvation wedge)."""

from __future__ import annotations

import time

from irisrl.backends.base import JobSnapshot, LogCursor, LogLine, TaskView, page_after
from irisrl.ops.jobs import JobLogs
from irisrl.ops.watching import WatchdogHealth, watch_loop
from irisrl.observe.watchdog import WEDGE_TARGET_S, worst_case_wedge_s
from irisrl.util.exitcodes import Exit

T0 = 1_796_205_600.0   # 2026-12-02 10:00:00 UTC: log time of clock 0
WEDGE_ONSET = 130      # clock second of the first Waiting >> Running report


def _stamp(s: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(T0 + s))


def _stats(s: float, tput: float, running: int, waiting: int) -> str:
    return (f"(AsyncVLLMInferenceEngine pid=42, ip=10.0.0.1) INFO {_stamp(s)[5:]} [loggers.py:123] Engine 000: "
            f"Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: {tput:.1f} tokens/s, "
            f"Running: {running} reqs, Waiting: {waiting} reqs, GPU KV cache usage: 50.0%")


def script(recover_at: float | None = None) -> list[tuple[float, int, str]]:
    """(clock second the line is logged, task, text)."""
    lines = [(0, 0, "[irisrl] Staging train_data on this node (rank 0/2): DCAgent/tasks -> /tmp/td"),
             (0, 1, "[irisrl] Staging train_data on this node (rank 1/2): DCAgent/tasks -> /tmp/td"),
             (1, 0, "[irisrl] Ray nodes alive: 2/2"),
             (40, 0, f"{_stamp(40)}.000 | INFO | skyrl_train.trainer:train:301 - No checkpoint found, "
                     "starting training from scratch"),
             (41, 0, f"{_stamp(41)}.000 | INFO | skyrl_train.generators.harbor:__init__:77 - "
                     "TerminalBenchGenerator initialized with HarborConfigBuilder. Concurrent trials: 8.")]
    lines += [(s, 0, _stats(s, 800.0, 8, 0)) for s in range(50, WEDGE_ONSET, 10)]           # healthy
    end = recover_at or 600
    lines += [(s, 0, _stats(s, 20.0, 4, 40)) for s in range(WEDGE_ONSET, int(end), 10)]      # wedged, flat
    if recover_at:
        lines += [(s, 0, _stats(s, 900.0, 8, 0)) for s in range(int(recover_at), 600, 10)]  # cleared
    return lines


class FakeCluster:
    """snapshot() and fetch_logs() over a scripted log; lines appear as the clock passes them.
    Like Iris: GetJobStatus (detail=False) has no task list, ListTasks (detail=True) has;
    fetch_logs starts at `since_ms` inclusive. From `retry_at` on, task 0 runs attempt 1."""

    def __init__(self, clock, lines, ends_at: float = 1e9, retry_at: float = 1e9, starts_at: float = 0.0):
        self.clock, self.lines, self.ends_at, self.retry_at = clock, lines, ends_at, retry_at
        self.starts_at = starts_at   # ListTasks shows no start time before this, though counts say running
        self.calls: list[tuple] = []
        self.terminated = False
        self.returned = 0

    def snapshot(self, job_id, detail=True):
        self.calls.append(("snapshot", self.clock.t, detail))
        state = "succeeded" if self.clock.t >= self.ends_at else "running"
        retried = self.clock.t >= self.retry_at
        tasks = tuple(TaskView(i, state, None, 2 if retried and i == 0 else 1, f"w{i}",
                               started=self.clock.t >= self.starts_at)
                      for i in (0, 1))
        return JobSnapshot(job_id, state, 0, task_count=2, task_states={state: 2}, tasks=tasks if detail else (),
                           failure_count=int(retried))

    def fetch_logs(self, job_id, since_ms=0, max_lines=0, attempt=-1, task_index=None):
        self.calls.append(("fetch", self.clock.t, task_index, since_ms))
        out = [LogLine(x[1], x[3] if len(x) > 3 else 0, "stdout", x[2], int((T0 + x[0]) * 1000)) for x in self.lines
               if x[0] <= self.clock.t and x[1] == task_index and int((T0 + x[0]) * 1000) >= since_ms]
        out = out[:max_lines] if max_lines else out
        self.returned += len(out)
        return out

    def logs(self, job_id, cursor=LogCursor(), task_index=None, attempt=-1, max_lines=5000):
        """The Backend's one log method over this scripted FetchLogs (base.page_after's rule)."""
        return page_after(lambda since, limit: self.fetch_logs(job_id, since, limit, -1, task_index), cursor,
                          max_lines, attempt)

    def terminate(self, job_id):
        self.terminated = True


class Clock:
    def __init__(self):
        self.t = 0.0

    def sleep(self, s):
        self.t += s


def run(monkeypatch, lines, interval=30.0, keep_going=False, ends_at=1e9, timeout=1000.0, retry_at=1e9,
        starts_at=0.0):
    clock = Clock()
    monkeypatch.setattr("irisrl.ops.watcher.time.monotonic", lambda: clock.t)
    cluster = FakeCluster(clock, lines, ends_at, retry_at, starts_at)
    logs = JobLogs(cluster, "/u/j", follows_polls=True)
    fed: list[bytes] = []
    health = WatchdogHealth("/u/j", {"num_nodes": 2}, logs, interval, on_snapshot=logs.use)
    dog = health.dog
    dog.clock = lambda: T0 + clock.t      # the watchdog judges silence at the (fake) wall clock
    feed = dog.analyzer.feed
    dog.analyzer.feed = lambda name, data: (fed.append(data), feed(name, data))[1]
    code = watch_loop(cluster, "/u/j", interval, timeout, [], watchdog=True, sleep=clock.sleep, health=health,
                      keep_going=keep_going)
    return code, cluster, dog, fed, clock


def health_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if " health " in ln]


def test_wedge_exits_5_with_evidence_and_never_kills(monkeypatch, capsys, ops_on_terminal):
    code, cluster, dog, fed, clock = run(monkeypatch, script())
    out = capsys.readouterr().out
    heads = health_lines(out)
    assert code == Exit.WATCHDOG_KILL and not cluster.terminated
    assert [h.split(" health ")[1].split(" (")[0].split(" --")[0] for h in heads] == [
        "NO-KILL phase=bring-up", "NO-KILL phase=serving", "KILL phase=serving"]
    kill_block = out[out.index(heads[-1]):]
    assert "kill it with: irisrl kill /u/j --yes" in heads[-1] and "never kills" in heads[-1]
    assert "throughput-starvation wedge" in kill_block and "Waiting 40" in kill_block
    # flagged within 2 minutes of its onset, in log time and in (fake) wall time
    assert dog.analyzer.state.max_t - (T0 + WEDGE_ONSET) <= WEDGE_TARGET_S
    assert clock.t - WEDGE_ONSET <= worst_case_wedge_s(30.0) <= WEDGE_TARGET_S


def test_fetches_are_incremental_one_status_call_plus_one_fetch_per_task(monkeypatch, capsys, ops_on_terminal):
    lines = script()
    code, cluster, dog, fed, clock = run(monkeypatch, lines)
    polls = sum(1 for c in cluster.calls if c[0] == "snapshot" and not c[2])
    fetches = [c for c in cluster.calls if c[0] == "fetch"]
    assert len(fetches) == 2 * polls          # per poll: 1 GetJobStatus + 1 FetchLogs per task
    assert [c[1] for c in cluster.calls if c[0] == "snapshot" and c[2]] == [0.0]   # ListTasks once
    # every line reached the analyzer exactly once: no re-reads across polls
    delivered = b"".join(fed).decode().splitlines()
    seen_by_now = [text for s, _, text in lines if s <= clock.t]
    assert sorted(ln for ln in delivered if "irisrl-task-status:" not in ln) == sorted(seen_by_now)
    # the orchestrator's status: one line per task attempt and one for the job, never repeated per poll
    assert sorted(ln.split(" state=")[0] for ln in delivered if "irisrl-task-status:" in ln) == [
        "[0/0] irisrl-task-status:", "[1/0] irisrl-task-status:", "irisrl-task-status:"]
    # each task's cursor only moves forward, and the next fetch starts where the last line was
    for task in (0, 1):
        since = [c[3] for c in fetches if c[2] == task]
        assert since == sorted(since) and since[-1] == max(int((T0 + s) * 1000) for s, t, _ in lines
                                                           if t == task and s <= clock.t - 30)
    assert dog.polls == polls and dog.total_bytes == sum(len(b) for b in fed)
    # the wire re-sends at most the boundary millisecond's line per fetch (skipped by the cursor)
    assert cluster.returned <= len(seen_by_now) + len(fetches)


def test_keep_going_reports_kill_then_recovery_and_ends_with_the_job(monkeypatch, capsys, ops_on_terminal):
    code, cluster, dog, fed, clock = run(monkeypatch, script(recover_at=300), keep_going=True, ends_at=420)
    heads = [h.split(" health ")[1].split(" (")[0].split(" --")[0] for h in health_lines(capsys.readouterr().out)]
    assert heads == ["NO-KILL phase=bring-up", "NO-KILL phase=serving", "KILL phase=serving",
                     "NO-KILL phase=serving"]
    assert code == Exit.OK and not cluster.terminated    # the terminal state's exit, not 5
    # Iris's status of each task and of the job: fed on each change only, over ~15 polls
    status = [ln.split(" exit_code")[0] for ln in b"".join(fed).decode().splitlines() if "irisrl-task-status:" in ln]
    assert sorted(status) == sorted(f"{p}irisrl-task-status: state={s}" for p in ("[0/0] ", "[1/0] ", "")
                                    for s in ("RUNNING", "SUCCEEDED"))


def test_no_change_prints_nothing_more(monkeypatch, capsys, ops_on_terminal):
    quiet = [x for x in script() if x[0] < WEDGE_ONSET]
    code, cluster, dog, fed, clock = run(monkeypatch, quiet, timeout=400.0)
    assert code == Exit.UNKNOWN      # timed out, still healthy
    assert len(health_lines(capsys.readouterr().out)) == 2 and dog.polls > 10


def test_worst_case_wedge_latency_of_the_default_intervals():
    assert worst_case_wedge_s(30.0) == 100.0 <= WEDGE_TARGET_S < worst_case_wedge_s(60.0)


def test_a_new_attempt_is_discovered_and_its_lines_read(monkeypatch, capsys, ops_on_terminal):
    lines = [x for x in script() if x[0] < WEDGE_ONSET]
    lines += [(s, 0, _stats(s, 20.0, 4, 40), 1) for s in range(200, 400, 10)]   # attempt 1 wedges
    code, cluster, dog, fed, clock = run(monkeypatch, lines, retry_at=200)
    assert code == Exit.WATCHDOG_KILL
    assert [c[1] for c in cluster.calls if c[0] == "snapshot" and c[2]] == [0.0, 210.0]   # re-listed on the retry
    assert (0, 1) in dog.cursors and dog.cursors[(0, 1)] is not None


def test_tasks_listed_before_their_start_time_are_listed_again(monkeypatch, capsys, ops_on_terminal):
    code, cluster, dog, fed, clock = run(monkeypatch, script(), starts_at=45)
    assert code == Exit.WATCHDOG_KILL
    assert [c[1] for c in cluster.calls if c[0] == "snapshot" and c[2]] == [0.0, 30.0, 60.0]


def test_cli_keep_going_needs_watchdog_and_a_slow_interval_is_called_out(capsys, ops_on_terminal):
    import pytest

    from irisrl.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["watch", "j", "--keep-going", "--controller-url", "http://127.0.0.1:9"])
    assert done.value.code == Exit.USAGE and "--keep-going only applies with --watchdog" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["watch", "j", "--watchdog", "--interval", "90", "--controller-url", "http://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert done.value.code == Exit.UNKNOWN     # nothing listens there
    assert "a wedge may be reported up to ~160s after its onset" in err and "Traceback" not in err
