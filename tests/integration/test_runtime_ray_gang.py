"""The controller end to end with real Ray: a 2-node gang on one host (file store) runs the
placement rehearsal as CMD; and a task killed the way Iris's local worker kills it
(SIGKILL to its process group) leaves none of its Ray processes behind."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from runtime_fixtures import PY, spawn_rank

pytestmark = pytest.mark.slow

ARGS = ["--local", "--gpus-per-node", "4", "--poll-interval", "0.3", "--park-interval", "0.5", "--beat-interval", "0.5",
        "--head-timeout", "20", "--worker-exit-timeout", "30", "--ray-start-timeout", "120",
        "--rendezvous-timeout", "150", "--exit-linger", "0"]


def processes_mentioning(text: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmd and str(os.getpid()) != pid:
            found.append(f"{pid}: {cmd[:150]}")
    return found


def ray_temp_link(workdir: Path, rank: int) -> str:
    from irisrl.runtime.ray_node import temp_alias

    return temp_alias(str(workdir / ".irisrl" / f"ray-{rank}"))


def wait_until_gone(text: str, timeout: float) -> list[str]:
    deadline = time.monotonic() + timeout
    while (left := processes_mentioning(text)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left


def test_gang_real_ray_two_nodes_rehearsal_passes_and_ray_stops(tmp_path: Path) -> None:
    plan = {"num_nodes": 2, "gpus_per_node": 4, "placement_groups": [
        {"name": "policy", "role": "policy", "bundles": [{"GPU": 4, "CPU": 4}], "strategy": "STRICT_SPREAD"},
        {"name": "engine-0", "role": "engine", "bundles": [{"GPU": 2, "CPU": 1}], "strategy": "STRICT_PACK"},
        {"name": "engine-1", "role": "engine", "bundles": [{"GPU": 2, "CPU": 1}], "strategy": "STRICT_PACK"}]}
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    args = ["--rendezvous-dir", f"file://{tmp_path / 'rdv'}", *ARGS]
    worker = spawn_rank(tmp_path, 1, 2, args)
    head = spawn_rank(tmp_path, 0, 2, args, [PY, "-m", "irisrl.runtime.rehearsal", "--plan",
                                              str(tmp_path / "plan.json"), "--timeout", "30"])
    assert head.wait(240) == 0, head.text() + "\n--- worker ---\n" + worker.text()
    assert worker.wait(60) == 0, worker.text()
    out = head.text()
    assert "[irisrl] Ray nodes alive: 2/2" in out
    assert "[irisrl] PLACEMENT_MAP " in out
    assert "Ray runtime started." in out and "Ray runtime started." in worker.text()
    for rank in (0, 1):
        temp = tmp_path / f"node{rank}" / ".irisrl" / f"ray-{rank}"
        assert any(p.name.startswith("session_") for p in temp.iterdir()), f"no Ray session under {temp}"
        assert wait_until_gone(ray_temp_link(tmp_path / f"node{rank}", rank), 20) == []


def test_gang_task_sigkilled_like_iris_local_kill_leaves_no_ray(tmp_path: Path) -> None:
    head = spawn_rank(tmp_path, 0, 1, ARGS, [PY, "-c", "import time; time.sleep(300)"])
    head.wait_for_line("Running on rank 0", 180)
    link = ray_temp_link(tmp_path / "node0", 0)
    assert processes_mentioning(link), "expected this task's Ray processes to be running"
    os.killpg(head.proc.pid, signal.SIGKILL)     # what Iris's local worker does on kill
    head.proc.wait(10)
    assert wait_until_gone(link, 30) == []
    if os.path.islink(link):
        os.remove(link)                          # a SIGKILLed controller cannot remove its /tmp alias


def test_gang_sigterm_on_real_ray_head_exits_143_and_stops_its_ray(tmp_path: Path) -> None:
    head = spawn_rank(tmp_path, 0, 1, ARGS, [PY, "-c", "import time; time.sleep(300)"])
    head.wait_for_line("Running on rank 0", 180)
    link = ray_temp_link(tmp_path / "node0", 0)
    assert processes_mentioning(link), "expected this task's Ray processes to be running"
    head.proc.send_signal(signal.SIGTERM)        # after ray.init in the controller: our handler still rules
    assert head.wait(60) == 143, head.text()
    assert wait_until_gone(link, 20) == []
