"""Shared helpers for the runtime tests: simulated ranks as subprocesses (the way Iris's
local worker runs tasks), a loopback S3 server (moto) and a real multi-node Ray on one host."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
PY = sys.executable
sys.path.insert(0, str(REPO / "tests" / "support" / "fake_ray"))   # tests-only stand-in for Ray
from irisrl_fake_ray import fake_ray_env  # noqa: E402,F401 - re-exported to the runtime tests
sys.path.insert(0, str(REPO / "tests"))
from support.s3_server import TEST_KEY, TEST_SECRET, S3Server, free_port  # noqa: E402,F401 - re-exported


@dataclass
class Rank:
    rank: int
    proc: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait(self, timeout: float) -> int:
        """Exit code within timeout; the test fails (and the process is killed) otherwise."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            kill_group(self.proc)
            raise AssertionError(f"rank {self.rank} still running after {timeout} s:\n{self.text()}")

    def wait_for_line(self, needle: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"rank {self.rank} never printed {needle!r}:\n{self.text()}")
            time.sleep(0.05)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(10)


def rank_env(rank: int, n: int, extra: dict[str, str] | None = None, attempt: int = 0) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"IRIS_TASK_ID": f"/tester/job/{rank}" + (f":{attempt}" if attempt else ""),
                "IRIS_NUM_TASKS": str(n), "IRIS_ADVERTISE_HOST": "127.0.0.1",
                "RAY_USAGE_STATS_ENABLED": "0", "PYTHONUNBUFFERED": "1"})
    extra = dict(extra or {})
    paths = (str(SRC), extra.pop("PYTHONPATH", ""), env.get("PYTHONPATH", ""))   # src first, then the extra's
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env.update(extra)
    return env


def spawn_rank(tmp: Path, rank: int, n: int, args: list[str], command: list[str] | None = None,
               env: dict[str, str] | None = None, attempt: int = 0, tag: str = "") -> Rank:
    """One simulated node: `python -m irisrl.runtime.controller ARGS [-- CMD]` in its own
    process group (like Iris's local worker), with its own workdir and log file."""
    workdir = tmp / f"node{rank}{tag}"
    workdir.mkdir(parents=True, exist_ok=True)
    log = tmp / f"rank{rank}{tag}.log"
    argv = [PY, "-m", "irisrl.runtime.controller", *args]
    if command:
        argv += ["--", *command]
    full_env = rank_env(rank, n, env, attempt)
    full_env["IRIS_WORKDIR"] = str(workdir)
    with open(log, "wb") as fh:
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.STDOUT, env=full_env,
                                cwd=workdir, start_new_session=True)
    return Rank(rank, proc, log)
