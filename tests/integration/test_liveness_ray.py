"""A real Ray actor stuck in a lock while the driver waits in ray.get: the standalone sampler
on the driver's tree (ray.init starts GCS, raylet, agents and workers below it), fed to
observe.liveness.judge, names the hang, with the stuck actor (not the driver's ray.get, nor
Ray's own ticking daemons) as the evidence. Ray's processes are told apart by name: every
process but the driver and the actor counts as Ray's own."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irisrl.observe.liveness import LivenessLog
from irisrl.runtime.liveness import tree

pytest.importorskip("ray")
pytestmark = pytest.mark.slow
SRC = Path(__file__).resolve().parents[2] / "src"
DRIVER = """
import os, sys, threading
sys.path.insert(0, sys.argv[2])
from irisrl.runtime.ray_node import loopback_env
loopback_env()                                   # Ray's servers on 127.0.0.1 only
import ray
ray.init(num_cpus=1, include_dashboard=False, _temp_dir=sys.argv[1], logging_level="ERROR")

@ray.remote
class Stuck:
    def run(self):
        lock = threading.Lock()
        lock.acquire()
        lock.acquire(timeout=12)                 # a deadlock, bounded so the test ends cleanly
        return 1

actor = Stuck.remote()
ref = actor.run.remote()
print("ready", flush=True)
ray.get(ref)
ray.shutdown()
"""


def test_stuck_actor_under_ray_get_is_the_hang(tmp_path: Path) -> None:
    temp = f"/tmp/irisrl-lv-{os.getpid()}"           # Ray's socket paths must stay short
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, temp, str(SRC)], stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, RAY_USAGE_STATS_ENABLED="0"))
    sampler = None
    pids: list[int] = []
    try:
        assert driver.stdout is not None and driver.stdout.readline().strip() == "ready"
        time.sleep(1.5)                                # the actor starts and takes its lock
        pids = list(tree(driver.pid))
        out = tmp_path / "samples.log"
        with out.open("w") as fh:
            sampler = subprocess.Popen([sys.executable, "-m", "irisrl.runtime.liveness", "--pid", str(driver.pid),
                                        "--interval", "1", "--no-stacks"], stdout=fh,
                                       env=dict(os.environ, PYTHONPATH=str(SRC)))
        time.sleep(6.5)
        sampler.send_signal(signal.SIGTERM)
        assert sampler.wait(10) == 0
        assert driver.wait(40) == 0                      # the lock times out, the driver shuts Ray down
    finally:
        for p in (sampler, driver):
            if p is not None and p.poll() is None:
                p.kill()
        for pid in pids:                                 # whatever Ray left of this test's tree
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(temp, ignore_errors=True)
    log = LivenessLog()
    for line in out.read_text().splitlines():
        log.feed(line, 0)
    samples = log.samples_by_rank[0]
    names = {p.name for s in samples for p in s.procs}
    work = {p.name for s in samples for p in s.procs if not p.infra}
    assert work == {"python -c", "ray::Stuck.run"}, names
    assert {"raylet", "gcs_server"} <= {n.split()[0] for n in names}
    hangs = log.judge(hang_after_s=3.0, now=samples[-1].t)
    assert [(h.rank, h.gang) for h in hangs] == [(0, True)]
    assert "ray::Stuck.run" in hangs[0].evidence and "futex" in hangs[0].evidence
