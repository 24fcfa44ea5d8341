"""The standalone sampler (`python -m irisrl.runtime.liveness`) on real processes, its lines
fed to observe.liveness.judge with a short hang_after: a Python deadlock (two threads, two
locks) and a two-process socket barrier that one side never enters are hangs; a process
computing silently and a slow transfer that outlasts hang_after are not. All scenarios run
side by side, each under its own sampler, in ~7 s. With py-spy on PATH the deadlock's evidence
carries its Python stack (checked then; without it the wait channel stands alone)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from irisrl.observe.liveness import LivenessLog

SRC = Path(__file__).resolve().parents[2] / "src"
INTERVAL, HANG_AFTER = 0.5, 3.0
SPAN = HANG_AFTER + 2 * INTERVAL      # sampled time each sampler must cover
DEADLINE_S = 40.0                     # a loaded 2-core machine starts 7 interpreters slowly

DEADLOCK = """
import threading, time
a, b = threading.Lock(), threading.Lock()
def grab(x, y):
    with x:
        time.sleep(0.2)
        with y:
            pass
ts = [threading.Thread(target=grab, args=p) for p in ((a, b), (b, a))]
[t.start() for t in ts]
[t.join() for t in ts]
"""
COMPUTE = "x = 0\nwhile True:\n    x = (x * 31 + 7) % 1000003\n"
# rank 0 of the barrier: accepts the peer and waits for its arrival byte
BARRIER = """
import socket, sys
srv = socket.create_server(("127.0.0.1", 0))
print(srv.getsockname()[1], flush=True)
peer, _ = srv.accept()
peer.recv(1)
"""
# rank 1: connects, then never enters the barrier (stuck on a lock it already holds)
NEVER_ENTERS = """
import socket, sys, threading
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
lock = threading.Lock()
lock.acquire()
lock.acquire()
"""
# a transfer slower than hang_after: 4 KiB every 50 ms, receiver reads as it comes
RECEIVER = """
import socket
srv = socket.create_server(("127.0.0.1", 0))
print(srv.getsockname()[1], flush=True)
peer, _ = srv.accept()
while peer.recv(65536):
    pass
"""
SENDER = """
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
while True:
    s.sendall(b"x" * 4096)
    time.sleep(0.05)
"""


def _py(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)


def _sampler(pid: int, out: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    with out.open("w") as fh:
        return subprocess.Popen([sys.executable, "-m", "irisrl.runtime.liveness", "--pid", str(pid),
                                 "--interval", str(INTERVAL), "--quiet-samples", "2"], stdout=fh, text=True, env=env)


def _covered(out: Path) -> bool:
    """The sampler's flushed lines already span SPAN seconds of its own clock."""
    times = [float(t.split('"t":', 1)[1].split(",", 1)[0]) for t in out.read_text().splitlines() if '"t":' in t]
    return len(times) >= 2 and times[-1] - times[0] >= SPAN


def _pair(server: str, client: str) -> list[subprocess.Popen[str]]:
    first = _py(server)
    assert first.stdout is not None
    port = first.stdout.readline().strip()
    return [first, _py(client, port)]


def _log(outputs: dict[int, str]) -> LivenessLog:
    log = LivenessLog()
    for rank, out in outputs.items():
        for text in out.splitlines():
            assert log.feed(text, rank), text
    assert all(s[-1].t - s[0].t >= SPAN for s in log.samples_by_rank.values())
    return log


def _judge(outputs: dict[int, str]) -> list[tuple[int, bool, bool]]:
    return [(h.rank, h.culprit, h.gang) for h in _log(outputs).judge(hang_after_s=HANG_AFTER)]


def test_real_hangs_and_look_alikes(tmp_path):
    targets = {"deadlock": [_py(DEADLOCK)], "compute": [_py(COMPUTE)],
               "barrier": _pair(BARRIER, NEVER_ENTERS), "transfer": _pair(RECEIVER, SENDER)}
    samplers: dict[str, list[subprocess.Popen[str]]] = {}
    try:
        time.sleep(0.5)                                   # the deadlock forms (0.2 s), the pairs connect
        files = {k: [tmp_path / f"{k}-{rank}.log" for rank in range(len(procs))] for k, procs in targets.items()}
        samplers = {k: [_sampler(p.pid, f) for p, f in zip(procs, files[k])] for k, procs in targets.items()}
        deadline = time.monotonic() + DEADLINE_S
        while not all(_covered(f) for fs in files.values() for f in fs):   # lines arrive one by one
            assert time.monotonic() < deadline, "samplers did not cover the span in time"
            time.sleep(0.2)
        for s in (s for ss in samplers.values() for s in ss):
            s.send_signal(signal.SIGTERM)
        assert all(s.wait(10) == 0 for ss in samplers.values() for s in ss)   # SIGTERM: a clean exit
        outs = {k: {rank: f.read_text() for rank, f in enumerate(fs)} for k, fs in files.items()}
    finally:
        for p in (p for ps in [*targets.values(), *samplers.values()] for p in ps):
            if p.poll() is None:
                p.kill()
                p.wait(5)
    assert _judge(outs["deadlock"]) == [(0, True, True)]
    assert _judge(outs["compute"]) == []
    assert _judge(outs["barrier"]) == [(1, True, True), (0, False, True)]   # rank 1 never entered
    assert _judge(outs["transfer"]) == []
    evidence = _log(outs["deadlock"]).judge(hang_after_s=HANG_AFTER)[0].evidence
    assert "futex" in evidence
    if shutil.which("py-spy"):
        assert "stack: Thread._wait_for_tstate_lock" in evidence or "stack: _wait_for_tstate_lock" in evidence
