"""The README's main command end to end, as a user runs it (a subprocess on a clean HOME and
IRISRL_HOME): the embedded Iris cluster, a 2-node gang, real Ray with fake GPUs, the placement
rehearsal, the summary, the saved logs, and nothing left running afterwards. Plus the failing
path: a layout Ray cannot place (built past validation by a test-only helper, tests/plan_bypass.py,
and submitted through the ops API) ends FAILED with exit 1 and the group named."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from e2e_run import IRISRL, REPO, RUN_TIMEOUT_S, clean_env, leftovers, run_in  # noqa: E402

sys.path.insert(0, str(REPO / "tests" / "support"))
from sigint import sigint_default  # noqa: E402

UNPLACEABLE = REPO / "tests" / "e2e" / "configs" / "unplaceable_2node.yaml"
BYPASS_LAUNCH = REPO / "tests" / "e2e" / "launch_bypassing_layout.py"   # the ops API, past layout errors
MAIN = ["launch", "--local", "--rl_config", "examples/configs/smoke_colocated.yaml",
        "--workspace", "examples/workspace", "--num-nodes", "2", "--max-retries", "0"]


def _job_id(out: str) -> str:
    m = re.search(r"^submitted (\S+) to ", out, re.M)
    assert m, f"no 'submitted JOB' line:\n{out[-3000:]}"
    return m.group(1)


def _saved_logs(out: str) -> Path:
    m = re.search(r"^logs saved: (\S+)", out, re.M)
    assert m, f"no 'logs saved:' line:\n{out[-3000:]}"
    return Path(m.group(1))


@pytest.mark.slow
def test_readme_main_command_succeeds_prints_summary_saves_logs_and_leaves_nothing(tmp_path: Path) -> None:
    code, out, env = run_in(MAIN, tmp_path)
    assert code == 0, out[-6000:]
    job = _job_id(out)
    assert leftovers([env["IRISRL_HOME"], f"IRISRL_JOB_ID={job}"]) == []
    assert "Token authentication is disabled" not in out   # every gang's Ray has its own token
    for needle in ("Summary of " + job, "submit -> running", "running -> Ray N/N", "rehearsal", "total",
                   "placement map", "health ladder", "Ray nodes alive N/N", "result: SUCCEEDED"):
        assert needle in out, needle
    assert re.search(r"rank0\s*│\s*8/8\s*│ colocated \(colocated\): 8", out), out[-4000:]
    assert re.search(r"rank1\s*│\s*8/8\s*│ colocated \(colocated\): 8", out)
    logs = _saved_logs(out)
    assert logs.is_relative_to(tmp_path / "traces")
    for name in ("combined.log", "task-0.attempt-0.log", "task-1.attempt-0.log", "manifest.json"):
        assert (logs / name).stat().st_size > 0, name
    assert "[irisrl] PLACEMENT_MAP" in (logs / "task-0.attempt-0.log").read_text()
    summary = json.loads((logs / "summary.json").read_text())
    assert summary["exit_code"] == 0 and summary["placement_ok"] and summary["state"] == "succeeded"
    phases = {p["name"]: p["seconds"] for p in summary["phases"]}
    assert list(phases)[:2] == ["validate", "local cluster"] and all(v is not None for v in phases.values())
    assert summary["health"]["verdict"] == "NO-KILL", summary["health"]


@pytest.mark.slow
def test_unplaceable_layout_fails_the_rehearsal_naming_the_group_exit_1(tmp_path: Path) -> None:
    shutil.copy(UNPLACEABLE, tmp_path / "unplaceable.yaml")
    args = ["--local", "--rl_config", "unplaceable.yaml", "--workspace", "examples/workspace",
            "--num-nodes", "2", "--max-retries", "0"]
    code, out, env = run_in(args, tmp_path, command=[sys.executable, str(BYPASS_LAUNCH)])
    assert code == 1, out[-6000:]
    job = _job_id(out)
    assert leftovers([env["IRISRL_HOME"], f"IRISRL_JOB_ID={job}"]) == []
    assert "test-only layout bypass: submitting despite TOPO-PLACEMENT" in out
    failed = re.search(r"^rehearsal failed: PLACEMENT_FAILED policy: .*free GPUs per node: (\{.*?\})", out, re.M)
    assert failed, out[-4000:]
    assert json.loads(failed.group(1)) == {"rank0": 4.0, "rank1": 4.0}
    assert "state=failed" in out and "result: FAILED (exit 1)" in out
    summary = json.loads((_saved_logs(out) / "summary.json").read_text())
    assert summary["exit_code"] == 1 and summary["placement_failed"].startswith("PLACEMENT_FAILED policy:")


@pytest.mark.slow
def test_ctrl_c_during_bring_up_returns_130_and_leaves_nothing(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the command) while Ray forms: the temporary cluster, the tasks and
    every Ray process are gone when the command returns."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    env = clean_env(tmp_path)
    proc = subprocess.Popen(sigint_default([IRISRL, *MAIN]), cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(ln) for ln in proc.stdout], daemon=True).start()
    seen, deadline = [], time.monotonic() + RUN_TIMEOUT_S
    try:
        while not any("Ray nodes alive: 1/2" in ln for ln in seen):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(seen)[-4000:]
            try:
                seen.append(lines.get(timeout=1))
            except queue.Empty:
                pass
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 130
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    job = _job_id("".join(seen))
    assert leftovers([env["IRISRL_HOME"], f"IRISRL_JOB_ID={job}"]) == []


def test_unplaceable_layout_is_refused_without_the_hidden_flag(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    proc = subprocess.run([IRISRL, "launch", "--local", "--rl_config", str(UNPLACEABLE), "--workspace",
                           str(REPO / "examples" / "workspace"), "--num-nodes", "2", "--dry-run"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "TOPO-PLACEMENT" in proc.stdout + proc.stderr
    assert "unsafe" not in subprocess.run([IRISRL, "launch", "--help"], env=env, capture_output=True, text=True,
                                          timeout=60).stdout
