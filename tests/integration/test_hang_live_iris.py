"""A real hang under the real runtime on the Iris local cluster: a 2-task gang (the runtime
controller through the plan's BOOT command, the fake Ray) whose command is a two-process socket
barrier one rank of which never enters it (it blocks on a lock it holds). The controllers
sample their trees every second (`--liveness-interval 1` in the plan's runtime argv: the
controller's own flag, the one the launcher would pass), and `irisrl watch JOB --watchdog
--hang-after 5` exits 5 on a `hang` naming rank 0 (the task whose tree holds the barrier; rank
1's tree is empty under the in-process fake Ray, so it is not judged) within --hang-after + two
sample intervals of the onset, plus the watchdog's poll and the log fetch; `irisrl health JOB
--hang-after 5 --json` names it too, with the wait channel as evidence. The job is still
running afterwards: nothing kills it but the test's own teardown. The look-alike under the same
runtime, a command that moves a slow transfer between two processes and then computes
silently, each for longer than --hang-after, beside an idle waiter (a server nobody calls),
runs to its end with no KILL."""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from test_runtime_iris_local import _irisrl, iris, submit  # noqa: E402,F401 - the module's cluster fixture
from iris_plans import trivial_plan  # noqa: E402
from runtime_fixtures import fake_ray_env  # noqa: E402

pytestmark = pytest.mark.slow

INTERVAL, HANG_AFTER = 1.0, 5.0
SLACK_S = 5.0      # watch's 1 s poll, the log fetch, and a loaded 2-core machine
# CMD: rank 0 of the barrier (recv of the peer's arrival byte) and the peer that connects but
# never enters (a lock it already holds), as two processes; ONSET is when both are in place
BARRIER = r"""
import socket, subprocess, sys, time
srv = socket.create_server(("127.0.0.1", 0))
peer = subprocess.Popen([sys.executable, "-c",
    "import ctypes, socket, sys, threading\n"
    "ctypes.CDLL(None).prctl(1, 9)\n"   # PR_SET_PDEATHSIG, SIGKILL: gone with the task (no wakeups while it blocks)
    "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\n"
    "lock = threading.Lock(); lock.acquire(); lock.acquire()\n", str(srv.getsockname()[1])])
conn, _ = srv.accept()
print(f"ONSET {time.time():.3f}", flush=True)
conn.recv(1)
"""


# CMD of the look-alikes, each phase longer than --hang-after beside an idle waiter (a server
# nobody calls: an engine with nothing queued): 8 s of a slow transfer between two processes
# (4 KiB every 50 ms), then 8 s of silent compute; then a clean exit
LOOKALIKES = r"""
import socket, subprocess, sys, time
idle = subprocess.Popen([sys.executable, "-c",
    "import socket\nsrv = socket.create_server(('127.0.0.1', 0))\nsrv.accept()\n"])
srv = socket.create_server(("127.0.0.1", 0))
sender = subprocess.Popen([sys.executable, "-c",
    "import socket, sys, time\n"
    "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\n"
    "end = time.time() + 8\n"
    "while time.time() < end:\n"
    "    s.sendall(b'x' * 4096); time.sleep(0.05)\n", str(srv.getsockname()[1])])
conn, _ = srv.accept()
while conn.recv(65536):
    pass
x, end = 0, time.time() + 8
while time.time() < end:
    x = (x * 31 + 7) % 1000003
idle.kill()
"""


def hang_plan(iris, name: str, script: str = BARRIER):
    from irisrl.plan.build import BOOT, BOOT_NAME

    rdv = iris.root / "rdv" / name
    fake = iris.root / "fake-ray" / name
    fake.mkdir(parents=True)
    argv = ("--rendezvous-dir", f"file://{rdv}", "--local", "--gpus-per-node", "8", "--poll-interval", "0.3",
            "--beat-interval", "0.5", "--park-interval", "0.5", "--head-timeout", "20", "--worker-exit-timeout", "20",
            "--exit-linger", "1", "--term-grace", "2", "--liveness-interval", str(INTERVAL))
    command = (sys.executable, "-c", script)
    env = {**fake_ray_env(str(fake)), "IRIS_PYTHON": sys.executable}
    plan = trivial_plan(name, ["bash", "-c", BOOT, BOOT_NAME, *argv, "--", *command], iris.ws, nodes=2, env=env)
    return replace(plan, runtime_argv=argv, command=command)


def _onset(iris, job: str) -> float:
    out = iris.root / "traces" / job
    pulled = _irisrl(iris.env, "logs", job, "--local", "--out", str(out))
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    lines = [ln for f in out.rglob("*") if f.is_file() for ln in f.read_text(errors="replace").splitlines()]
    return float(next(m.group(1) for ln in lines if (m := re.search(r"ONSET (\d+\.\d+)", ln))))   # not the argv echo


def test_watchdog_names_a_real_hang_under_the_runtime_within_hang_after_plus_two_intervals(iris):
    name = "hang-barrier"
    submit(iris, hang_plan(iris, name))
    try:
        watch = _irisrl(iris.env, "watch", name, "--local", "--watchdog", "--interval", "1", "--hang-after",
                        str(HANG_AFTER), "--timeout", "80s", timeout=100)
        named_at = time.time()
        out = watch.stdout + watch.stderr
        assert watch.returncode == 5, out
        kill_line = next(ln for ln in watch.stdout.splitlines() if " health KILL " in ln)
        assert "cause of death: hang (rank 0" in kill_line, out
        took = named_at - _onset(iris, name)
        print(json.dumps({"hang_named_after_onset_s": round(took, 1), "bound_s": HANG_AFTER + 2 * INTERVAL}))
        assert took <= HANG_AFTER + 2 * INTERVAL + SLACK_S, out
        health = _irisrl(iris.env, "health", name, "--local", "--hang-after", str(HANG_AFTER), "--json")
        assert health.returncode == 1, health.stdout + health.stderr
        report = json.loads(health.stdout)
        hang = [c for c in report["causes"] if c["kind"] == "hang"]
        assert [(c["rank"], c["status"]) for c in hang] == [("0", "fatal")], report["causes"]
        assert "futex" in hang[0]["line"] and report["cause_of_death"]["kind"] == "hang"
        assert json.loads(_irisrl(iris.env, "status", name, "--local", "--json").stdout)["state"] == "running"
    finally:
        _irisrl(iris.env, "kill", name, "--local", "--yes")   # teardown: the test's job, by id


def test_watchdog_never_kills_a_slow_transfer_or_silent_compute_beside_an_idle_waiter(iris):
    name = "hang-lookalike"
    submit(iris, hang_plan(iris, name, LOOKALIKES))
    try:
        watch = _irisrl(iris.env, "watch", name, "--local", "--watchdog", "--interval", "1", "--hang-after",
                        str(HANG_AFTER), "--timeout", "80s", timeout=100)
        out = watch.stdout + watch.stderr
        assert watch.returncode == 0 and " health KILL " not in out, out       # the job ends, never a KILL
        assert "succeeded" in out, out
    finally:
        _irisrl(iris.env, "kill", name, "--local", "--yes")
