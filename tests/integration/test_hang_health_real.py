"""Issue 18's done-when, end to end on real processes: `python -m irisrl.runtime.liveness --pid PID`
samples each one, and its output fed to `irisrl health --log FILE --hang-after S --json` gives a
cause of kind `hang` for a Python deadlock (two threads, two locks) and for a two-process socket
barrier that one rank never enters (that rank the culprit), and no hang (no KILL) for a process
computing silently, a slow transfer that outlasts --hang-after, and an idle waiter (a server
nobody calls) while its peer computes. Shorter clock than production: 0.5 s samples, 3 s."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from test_liveness_real import (BARRIER, COMPUTE, DEADLOCK, NEVER_ENTERS, RECEIVER, SENDER,  # noqa: E402
                                _pair, _py, _sampler)

import irisrl  # noqa: E402

SRC = str(Path(irisrl.__file__).resolve().parents[1])   # the irisrl under test (PYTHONPATH first)
INTERVAL, HANG_AFTER = 0.5, 3.0
SPAN = HANG_AFTER + 2 * INTERVAL
DEADLINE_S = 40.0
# an engine with nothing queued: a server waiting for a connection that never comes
IDLE = "import socket\nsrv = socket.create_server(('127.0.0.1', 0))\nsrv.accept()\n"


def _covered(out: Path) -> bool:
    times = [float(t.split('"t":', 1)[1].split(",", 1)[0]) for t in out.read_text().splitlines() if '"t":' in t]
    return len(times) >= 2 and times[-1] - times[0] >= SPAN


def _health(files: list[Path]) -> tuple[int, dict]:
    args = [a for f in files for a in ("--log", str(f))]
    res = subprocess.run([sys.executable, "-m", "irisrl", "health", *args, "--hang-after", str(HANG_AFTER), "--json"],
                         env=dict(os.environ, PYTHONPATH=SRC), capture_output=True, text=True, timeout=60)
    assert res.returncode in (0, 1), res.stdout + res.stderr
    return res.returncode, json.loads(res.stdout)


def _hangs(report: dict) -> list[tuple[str, str]]:
    return [(c["rank"], c["status"]) for c in report["causes"] if c["kind"] == "hang"]


def test_health_names_real_hangs_and_never_kills_the_look_alikes(tmp_path):
    targets = {"deadlock": [_py(DEADLOCK)], "compute": [_py(COMPUTE)], "barrier": _pair(BARRIER, NEVER_ENTERS),
               "transfer": _pair(RECEIVER, SENDER), "idle": [_py(COMPUTE), _py(IDLE)]}
    samplers: list[subprocess.Popen[str]] = []
    try:
        time.sleep(0.5)                                   # the deadlock forms (0.2 s), the pairs connect
        # per-task file names: health reads the rank from them (task-N.attempt-0)
        files = {k: [tmp_path / k / f"task-{r}.attempt-0.log" for r in range(len(ps))] for k, ps in targets.items()}
        for k, procs in targets.items():
            (tmp_path / k).mkdir()
            samplers += [_sampler(p.pid, f) for p, f in zip(procs, files[k])]
        deadline = time.monotonic() + DEADLINE_S
        while not all(_covered(f) for fs in files.values() for f in fs):
            assert time.monotonic() < deadline, "samplers did not cover the span in time"
            time.sleep(0.2)
        for s in samplers:
            s.send_signal(signal.SIGTERM)
        assert all(s.wait(10) == 0 for s in samplers)
    finally:
        for p in [*samplers, *(p for ps in targets.values() for p in ps)]:
            if p.poll() is None:
                p.kill()
                p.wait(5)
    verdicts = {k: _health(fs) for k, fs in files.items()}
    code, report = verdicts["deadlock"]
    assert code == 1 and _hangs(report) == [("0", "fatal")], report
    death = report["cause_of_death"]
    assert death["kind"] == "hang" and "rank 0 made no progress since" in death["line"] and "futex" in death["line"]
    code, report = verdicts["barrier"]
    assert code == 1 and _hangs(report) == [("1", "fatal"), ("0", "warning")], report   # rank 1 never entered
    assert report["cause_of_death"]["rank"] == "1"
    for look_alike in ("compute", "transfer", "idle"):             # 0 false KILLs
        code, report = verdicts[look_alike]
        assert code == 0 and _hangs(report) == [] and report["verdict"] == "NO-KILL", (look_alike, report)
