"""The controller samples its node's process tree into the task log: a one-rank gang (the
folder-backed fake Ray, tests/support/fake_ray) whose command is a deadlocked process; the
log's liveness lines name the command's process, never the controller itself, and fed to
observe.liveness.judge they name the hang. --liveness-interval 0 prints none."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from runtime_fixtures import PY, fake_ray_env, spawn_rank  # noqa: E402

from irisrl.observe.liveness import LivenessLog, parse_line  # noqa: E402
from irisrl.runtime.contract import LIVENESS_TAG  # noqa: E402

FAST = ["--local", "--poll-interval", "0.2", "--exit-linger", "0", "--term-grace", "2"]
# a deadlock (the main thread waits on a lock it holds) that ends itself after 6 s
STUCK = "import threading, sys\nl = threading.Lock(); l.acquire()\nl.acquire(timeout=6)\nsys.exit(0)"


def _run(tmp: Path, interval: str) -> str:
    fake = tmp / f"fake-ray-{interval}"
    fake.mkdir()
    head = spawn_rank(tmp, 0, 1, [*FAST, "--liveness-interval", interval], [PY, "-c", STUCK],
                      fake_ray_env(str(fake)), tag=f"-{interval}")
    assert head.wait(40) == 0, head.text()
    return head.text()


def test_controller_prints_liveness_lines_of_its_command(tmp_path: Path) -> None:
    text = _run(tmp_path, "0.5")
    records = [r for r in (parse_line(t) for t in text.splitlines()) if r is not None]
    assert len(records) >= 4, text
    controller = records[0]["root"]
    pids = {p["p"] for r in records for p in r["ps"]}
    assert controller not in pids                                   # its own threads are not the run's
    assert any(p["n"] == "python -c" and p["w"].startswith("futex") for r in records for p in r["ps"]), text
    log = LivenessLog()
    for t in text.splitlines():
        log.feed(t, 0)
    stuck = [r for r in log.samples_by_rank[0] if any(p.name == "python -c" for p in r.procs)]
    assert [h.rank for h in log.judge(hang_after_s=2.0, now=stuck[-1].t)] == [0]


def test_liveness_interval_zero_disables(tmp_path: Path) -> None:
    assert LIVENESS_TAG not in _run(tmp_path, "0")
