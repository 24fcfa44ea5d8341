"""observe/liveness.py on synthetic sampler lines: one test per rule of the issue (a hang,
and each of the look-alikes that must not be one), plus the line parsing and the sampler's
own pieces that need no live process (py-spy output, GPU absence, IB counters)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from irisrl.observe.liveness import LivenessLog, judge, parse_line
from irisrl.runtime import liveness as sampler
from irisrl.runtime.contract import LIVENESS_TAG

I = 30.0   # sample interval


def proc(pid: int, name: str = "train.py", state: str = "S", wchan: str = "futex_do_wait", c: float = 0,
         mc: float = 0.0, io: int = 0, mio: int = 0, mw: int = 0, k: str | None = None,
         new: bool = False) -> dict[str, Any]:
    e: dict[str, Any] = {"p": pid, "pp": 1, "n": name, "s": state, "w": wchan, "th": 4}
    if not new:
        e.update(c=c, mc=mc, io=io, mio=mio, mw=mw)
    if k:
        e["k"] = k
    return e


def line(t: float, procs: list[dict[str, Any]], prefix: str = "") -> str:
    record = {"v": 1, "t": t, "i": I, "seq": int(t // I), "root": 1, "st": "off: py-spy not on PATH", "ps": procs}
    return f"{prefix}{LIVENESS_TAG} {json.dumps(record)}"


def feed(log: LivenessLog, rank: int, steps: list[list[dict[str, Any]]], t0: float = 1000.0) -> float:
    """One sample per step, I seconds apart; the first marks every process new. Returns last t."""
    t = t0
    for n, procs in enumerate(steps):
        t = t0 + n * I
        log.feed(line(t, [dict(p, **{}) if n else _new(p) for p in procs]), rank)
    return t


def _new(p: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in p.items() if k not in ("c", "mc", "io", "mio", "mw")}


def quiet_minutes(p: dict[str, Any], minutes: float) -> list[list[dict[str, Any]]]:
    return [[p]] * (int(minutes * 60 / I) + 1)


def test_deadlock_alone_is_a_gang_hang_with_the_wait_channel_as_evidence():
    log = LivenessLog()
    last = feed(log, 0, quiet_minutes(proc(10, "deadlock.py"), 4))
    hangs = log.judge(hang_after_s=180, now=last)
    assert [(h.rank, h.culprit, h.gang) for h in hangs] == [(0, True, True)]
    assert hangs[0].since == 1000.0 and "futex_do_wait" in hangs[0].evidence and "deadlock.py" in hangs[0].evidence


def test_waking_once_a_second_is_not_progress():
    """ray.get's signal check or a time.sleep(1) poll, with nothing else: the gang is quiet."""
    log = LivenessLog()
    last = feed(log, 0, [[proc(10, "main_base.py", mc=3.0, mw=30)]] * 12)
    assert [h.rank for h in log.judge(180, now=last)] == [0]


def test_not_before_hang_after():
    log = LivenessLog()
    last = feed(log, 0, quiet_minutes(proc(10), 2.5))
    assert log.judge(180, now=last) == []
    assert [h.rank for h in log.judge(180, now=last + 60)] == [0]


def test_a_transfer_that_moves_bytes_is_not_a_hang():
    moving = proc(10, "sync.py", wchan="wait_woken", mio=4096)          # slow, but every sample moves bytes
    bulk = proc(11, "sync2.py", wchan="wait_woken", io=BIG)               # bytes moved by a helper thread
    stream = proc(12, "sync3.py", wchan="wait_woken", mw=600)             # socket recv: 20 wakeups/s
    for p in (moving, bulk, stream):
        log = LivenessLog()
        last = feed(log, 0, [[p]] * 20)
        assert log.judge(180, now=last) == []


BIG = 64 * 1024 * int(I)


def test_a_long_computation_is_not_a_hang():
    log = LivenessLog()
    last = feed(log, 0, [[proc(10, "solve.py", state="R", wchan="-", c=29000, mc=29000)]] * 20)
    assert log.judge(180, now=last) == []


def test_busy_worker_threads_count_even_when_the_main_thread_waits():
    log = LivenessLog()
    last = feed(log, 0, [[proc(10, c=3000)]] * 20)          # 10% of a core in a thread pool
    assert log.judge(180, now=last) == []


def test_driver_in_ray_get_while_engines_generate_is_not_a_hang():
    log = LivenessLog()
    feed(log, 0, [[proc(10, "main_base.py", mc=3.0, mw=30)]] * 20)              # ray.get's 1 s signal check
    last = feed(log, 1, [[proc(20, "ray::AsyncVLLMInferenceEngine.generate", state="R", wchan="-", c=25000)]] * 20)
    assert log.judge(180, now=last) == []


def test_idle_engine_with_nothing_queued_is_not_a_hang_while_the_trainer_trains():
    log = LivenessLog()
    feed(log, 0, [[proc(10, "ray::PolicyWorker.train", state="R", wchan="-", c=30000, mc=20000)]] * 20)
    last = feed(log, 1, [[proc(20, "ray::AsyncVLLMInferenceEngine", wchan="futex_do_wait",
                               k="get (queue.py:171) < run_busy_loop (core.py:500)")]] * 20)
    assert log.judge(180, now=last) == []


def test_idle_engine_is_not_the_culprit_when_the_trainer_deadlocks_later():
    """Engines went idle first (waiting for requests), the trainer then stuck in a lock: the gang
    is hung and the trainer, not the earlier-quiet engine, is named the culprit."""
    log = LivenessLog()
    engine = proc(20, "ray::AsyncVLLMInferenceEngine", k="get (queue.py:171) < run_busy_loop (core.py:500)")
    feed(log, 1, [[engine]] * 20)
    training = [[proc(10, "ray::PolicyWorker.train", state="R", wchan="-", c=30000)]] * 8
    stuck = [[proc(10, "ray::PolicyWorker.train", k="acquire (<frozen>) < step (trainer.py:90)")]] * 12
    last = feed(log, 0, training + stuck)
    hangs = log.judge(180, now=last)
    assert [(h.rank, h.culprit, h.gang) for h in hangs] == [(0, True, True), (1, False, True)]
    assert "trainer.py:90" in hangs[0].evidence


def test_time_sleep_between_polls_is_not_a_hang():
    log = LivenessLog()
    poller = proc(10, "poll.py", wchan="hrtimer_nanosleep", mc=2.0, mw=30)   # wakes each second, sleeps again
    feed(log, 0, [[poller]] * 20)
    last = feed(log, 1, [[proc(20, "gen.py", state="R", wchan="-", c=20000)]] * 20)
    assert log.judge(180, now=last) == []
    reader = LivenessLog()                                               # a poll that reads its answer
    last = feed(reader, 0, [[proc(10, "poll.py", wchan="hrtimer_nanosleep", mc=2.0, mio=120)]] * 20)
    assert reader.judge(180, now=last) == []


def test_culprit_is_the_rank_its_peers_wait_on():
    """Socket barrier: rank 0 entered and waits in recv; rank 1 never entered (sits in a futex)."""
    log = LivenessLog()
    feed(log, 1, [[proc(20, "barrier.py", wchan="futex_do_wait")]] * 12)
    entered = [[proc(10, "barrier.py", state="R", wchan="-", c=25000)]] * 3
    last = feed(log, 0, entered + [[proc(10, "barrier.py", wchan="wait_woken")]] * 9)
    hangs = log.judge(180, now=last)
    assert [(h.rank, h.culprit) for h in hangs] == [(1, True), (0, False)]
    assert all(h.gang for h in hangs)
    shuffled = {rank: list(reversed(samples)) for rank, samples in log.samples_by_rank.items()}
    assert judge(shuffled, 180, now=last) == hangs                 # the function sorts by time itself


def test_evidence_names_the_stuck_actor_not_the_driver_in_ray_get():
    """Both main threads sit in a futex; the driver's wakes each second (ray.get's signal check,
    measured under ray 2.60), the actor's never: the actor is the evidence."""
    log = LivenessLog()
    steps = [[proc(10, "main_base.py", mw=30, mc=0.1), proc(30, "ray::Stuck.run")]] * 12
    hangs = log.judge(180, now=feed(log, 0, steps))
    assert len(hangs) == 1 and hangs[0].evidence.startswith("ray::Stuck.run (pid 30, blocked)")


def test_a_waiter_that_went_quiet_first_is_not_the_culprit():
    """Rank 0 waits in accept from the start; rank 1 works, then sticks in a futex: rank 1."""
    log = LivenessLog()
    feed(log, 0, [[proc(10, "server.py", wchan="inet_csk_accept")]] * 12)
    last = feed(log, 1, [[proc(20, "client.py", state="R", wchan="-", c=25000)]] * 3
                + [[proc(20, "client.py")]] * 9)
    hangs = log.judge(180, now=last)
    assert [(h.rank, h.culprit) for h in hangs] == [(1, True), (0, False)]


def test_a_stuck_rank_is_named_while_others_progress_only_on_positive_evidence():
    log = LivenessLog()
    feed(log, 0, [[proc(10, "ckpt.py", state="D", wchan="nfs_wait_on_request")]] * 12)   # uninterruptible
    feed(log, 1, [[proc(20, "ray.get driver", wchan="futex_do_wait")]] * 12)                   # a waiter
    last = feed(log, 2, [[proc(30, "gen.py", state="R", wchan="-", c=20000)]] * 12)
    hangs = log.judge(180, now=last)
    assert [(h.rank, h.culprit, h.gang) for h in hangs] == [(0, True, False)]


def test_ray_daemons_ticking_do_not_hide_a_stuck_worker():
    log = LivenessLog()
    ray = [proc(5, "raylet --raylet_socket_name=/tmp/r", c=9000, io=10**8), proc(6, "gcs_server", c=6000),
           proc(7, "ray::IDLE", c=3000), proc(8, "ray start", mw=900), proc(9, "ray/_private/log_monitor.py", mio=10)]
    steps = [[*ray, proc(4, "ray/dashboard/agent.py", wchan="ep_poll" if n % 2 else "-", c=2000),
              proc(10, "ray::PolicyWorker.train")] for n in range(12)]
    steps = [s + [proc(50 + n, "python3.11", state="Z", wchan="?", new=True)] for n, s in enumerate(steps)]
    last = feed(log, 0, steps)                         # zombies come and go: not work either
    hangs = log.judge(180, now=last)
    assert [h.rank for h in hangs] == [0] and "ray::PolicyWorker.train" in hangs[0].evidence


@pytest.mark.parametrize("cmdline, name", [
    ("/v/bin/python3\x00-u\x00/v/lib/python3.11/site-packages/ray/_private/log_monitor.py\x00--logs-dir=/x",
     "ray/_private/log_monitor.py"),
    ("/v/bin/python3\x00/v/lib/python3.11/site-packages/ray/dashboard/agent.py\x00--node-ip-address=1",
     "ray/dashboard/agent.py"),
    ("/v/bin/python\x00/v/bin/ray\x00start\x00--block\x00--head", "ray start"),
    ("ray::PolicyWorker.train                       ", "ray::PolicyWorker.train"),
    ("/v/lib/python3.11/site-packages/ray/core/src/ray/raylet/raylet\x00--raylet_socket_name=/tmp/s",
     "raylet --raylet_socket_name=/tmp/s"),
    ("python\x00-m\x00irisrl.runtime.rehearsal\x00--plan\x00p.json", "-m irisrl.runtime.rehearsal"),
    ("python3\x00-X\x00dev\x00-u\x00train.py\x00--lr", "train.py"),
    ("python3\x00-c\x00import time", "python -c"),
    ("sleep\x00600", "sleep 600"),
])
def test_process_names(monkeypatch, cmdline, name):
    monkeypatch.setattr(sampler, "_read", lambda path: cmdline if path.endswith("cmdline") else None)
    assert sampler.process_name(1) == name[:sampler.NAME_CHARS]


def test_a_changing_wait_channel_or_stack_is_progress():
    log = LivenessLog()
    steps = [[proc(10, wchan="futex_do_wait" if n % 2 else "pipe_read")] for n in range(12)]
    last = feed(log, 0, steps)
    assert log.judge(180, now=last) == []
    stacks = LivenessLog()
    steps = [[proc(10, k=f"step (loop.py:{n})")] for n in range(12)]
    last = feed(stacks, 0, steps)
    assert stacks.judge(180, now=last) == []


def test_processes_coming_and_going_are_progress():
    log = LivenessLog()
    steps = [[proc(10), proc(100 + n, "sh -c", new=True)] for n in range(12)]
    last = feed(log, 0, steps)
    assert log.judge(180, now=last) == []


def test_a_rank_whose_samples_stopped_is_not_judged():
    log = LivenessLog()
    feed(log, 0, quiet_minutes(proc(10, state="D"), 4))       # stuck, but its last sample is at t0 + 240
    last = feed(log, 1, [[proc(20, c=20000)]] * 20)            # keeps going to t0 + 570
    assert log.judge(180, now=last) == []


def test_parse_reads_prefixed_lines_and_ignores_the_rest():
    record = parse_line(line(5.0, [proc(1)], prefix="2026-12-03T10:00:00Z [rank 3] "))
    assert record is not None and record["ps"][0]["p"] == 1
    assert parse_line("[irisrl] Ray nodes alive: 2/2") is None
    assert parse_line(f"{LIVENESS_TAG} {{not json") is None
    assert parse_line(f'{LIVENESS_TAG} {{"v": 1, "err": "boom"}}') is None     # a sampler error line
    log = LivenessLog(keep=3)
    assert log.feed_all([(line(t, [proc(1)]), 0, None) for t in range(10)]) == 10
    assert [s.t for s in log.samples_by_rank[0]] == [7.0, 8.0, 9.0]
    assert log.feed(line(1.0, [proc(1)]), 2, t=42.0) and log.samples_by_rank[2][0].t == 42.0


def test_judge_with_nothing():
    assert judge({}, 180) == []
    assert LivenessLog().judge() == []


PYSPY = """Process 32353: /root/.pyenv/versions/3.11.7/bin/python3 /tmp/lv_dl.py
Python v3.11.7 (/root/.pyenv/versions/3.11.7/bin/python3.11)

Thread 32353 (idle): "MainThread"
    Thread._wait_for_tstate_lock (threading.py:1139)
    Thread.join (threading.py:1119)
    <listcomp> (lv_dl.py:10)
    <module> (lv_dl.py:10)
    <module> (lv_dl.py:11)
Thread 32410 (idle): "Thread-1 (grab)"
    grab (lv_dl.py:6)
    Thread.run (threading.py:982)
"""   # py-spy 0.4.3 `dump --nonblocking` of the two-lock deadlock (our run; one frame added)


def test_pyspy_main_thread_parse():
    assert sampler.parse_pyspy_main(PYSPY) == (
        "Thread._wait_for_tstate_lock (threading.py:1139) < Thread.join (threading.py:1119)"
        " < <listcomp> (lv_dl.py:10) < <module> (lv_dl.py:10)")
    assert sampler.parse_pyspy_main("Error: permission denied") is None


def test_no_nvidia_smi_and_no_pyspy_degrade_quietly(tmp_path):
    gpu = sampler.Gpu(binary="")
    assert gpu.read() is None
    assert sampler.Stacks(binary="").dump(1) is None and sampler.Stacks(binary="").mode == "off: py-spy not on PATH"
    broken = sampler.Gpu(binary=str(tmp_path / "missing-nvidia-smi"))
    reads = [broken.read() for _ in range(sampler.GPU_MAX_FAILURES + 1)]
    assert reads[0] == "err: FileNotFoundError" and str(reads[-1]).startswith("off: nvidia-smi failed")


def test_gpu_query_parses_nvidia_smi_csv_with_na(tmp_path):
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\necho '0, 97, 70000, 143771'\necho '1, [N/A], 5, 143771'\n")
    fake.chmod(0o755)
    assert sampler.Gpu(binary=str(fake)).read() == [[0, 97, 70000, 143771], [1, None, 5, 143771]]


def test_infiniband_counters_are_words_of_four_bytes(tmp_path):
    assert sampler.ib_bytes(str(tmp_path)) is None
    for dev, port, rx, tx in (("mlx5_0", 1, 10, 20), ("mlx5_1", 1, 1, 2)):
        d = tmp_path / dev / "ports" / str(port) / "counters"
        d.mkdir(parents=True)
        (d / "port_rcv_data").write_text(f"{rx}\n")
        (d / "port_xmit_data").write_text(f"{tx}\n")
    assert sampler.ib_bytes(str(tmp_path)) == (44, 88)


@pytest.mark.parametrize("argv", [["--pid", "999999999"], ["--pid", "1", "--interval", "0"]])
def test_standalone_refuses_bad_input(argv, capsys):
    assert sampler.main(argv) == 2
    assert "error:" in capsys.readouterr().err
