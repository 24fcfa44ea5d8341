"""Ray token authentication on a real gang (issue 16): `launch --local` of the smoke plan
on a temporary Iris cluster, with rank 0's CMD replaced by a probe that connects to the
gang's own Ray head twice: without the token (refused) and with the job's env (connected,
2 nodes). The job's output no longer carries Ray's "Token authentication is disabled"
warning, and the token value appears in no output, saved log, ledger row or plan file."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs, build_plan
from irisrl.runtime.contract import ENV_RAY_AUTH_TOKEN

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="local Iris")]

REPO = Path(__file__).resolve().parents[2]
PROBE = r"""
import os, subprocess, sys
addr = os.environ["RAY_ADDRESS"]
client = "import ray,sys; ray.init(address=sys.argv[1], log_to_driver=False); print('nodes', len(ray.nodes()))"
bare = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
no = subprocess.run([sys.executable, "-c", client, addr], env=bare, capture_output=True, text=True, timeout=150)
told = "token" in (no.stdout + no.stderr).lower()
print(f"PROBE no-token rc={no.returncode} says-token={told}", flush=True)
yes = subprocess.run([sys.executable, "-c", client, addr], capture_output=True, text=True, timeout=150)
print(f"PROBE with-token rc={yes.returncode} {yes.stdout.strip().splitlines()[-1:]}", flush=True)
sys.exit(0 if no.returncode != 0 and told and yes.returncode == 0 else 1)
"""
LAUNCH = ("import sys, pickle; from irisrl.ops import LaunchSettings, Target, launch, output\n"
          "with output.using(output.to_terminal):\n"
          "    sys.exit(launch(pickle.load(sys.stdin.buffer), LaunchSettings(Target(local=True))).exit_code)\n")


def test_gang_ray_refuses_a_client_without_the_token_and_warns_no_more(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    plan, _, _ = build_plan(PlanInputs(rl_config=str(REPO / "examples/configs/smoke_colocated.yaml"),
                                       num_nodes=2, job_name="ray-token",
                                       workspace=str(REPO / "examples/workspace"), max_retries=0), Target(local=True))
    assert plan is not None
    token = plan.env[ENV_RAY_AUTH_TOKEN]
    assert len(token) == 64 and plan.env["RAY_AUTH_MODE"] == "token"
    probe = (sys.executable, "-c", PROBE)
    head = plan.entrypoint[:plan.entrypoint.index("--") + 1]
    plan = replace(plan, role="trainer", command=probe, entrypoint=(*head, *probe))
    env = {**os.environ, "IRISRL_HOME": os.environ["IRISRL_HOME"], "COLUMNS": "160"}
    proc = subprocess.run([sys.executable, "-c", LAUNCH], input=pickle.dumps(plan), env=env, cwd=tmp_path,
                          capture_output=True, timeout=420)
    out = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
    assert proc.returncode == 0, out[-5000:]
    assert "PROBE no-token rc=1 says-token=True" in out and "PROBE with-token rc=0 ['nodes 2']" in out, out[-5000:]
    assert "Token authentication is disabled" not in out
    assert token not in out
    home = Path(os.environ["IRISRL_HOME"])
    for path in [*home.rglob("*"), *tmp_path.rglob("*")]:
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path


def test_a_stray_home_token_file_does_not_split_a_gang(tmp_path: Path, monkeypatch) -> None:
    """Without RAY_AUTH_MODE, `ray start --head` turns token auth on by itself when it finds
    ~/.ray/auth_token, `ray start --address` does not, and the worker was refused
    (InvalidAuthToken). ray_node.pin_auth_mode makes the mode explicit ("disabled" here)."""
    from irisrl.runtime.ray_node import RealRayNode

    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text("f" * 64)   # another tool's, in a shared HOME
    monkeypatch.setenv("HOME", str(home))
    for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN"):
        monkeypatch.setenv(key, "x")
        monkeypatch.delenv(key)              # absent now, and absent again after the test
    ray_bin = str(Path(sys.executable).parent / "ray")
    head = RealRayNode(0, "n0", 1, True, str(tmp_path / "n0"), 120, ray_bin)
    worker = RealRayNode(1, "n1", 1, True, str(tmp_path / "n1"), 120, ray_bin)
    try:
        address = head.start_head("127.0.0.1", None)
        worker.join(address)                 # raised RayNodeError (InvalidAuthToken) before
        assert os.environ["RAY_AUTH_MODE"] == "disabled"
        assert worker.problem() is None and head.problem() is None
    finally:
        worker.stop()
        head.stop()
