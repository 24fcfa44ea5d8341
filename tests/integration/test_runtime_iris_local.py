"""The runtime controller as a real Iris local-cluster gang (2 tasks on 2 workers, leafgroup
coscheduling), launched through the plan's BOOT command and the workspace bundle, with the
fake Ray: how Iris reports a gang whose head's CMD fails (rank 0 failed with CMD's code,
rank 1 succeeded) and one that succeeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from iris_plans import trivial_plan  # noqa: E402
from runtime_fixtures import fake_ray_env  # noqa: E402

pytestmark = pytest.mark.slow


def _irisrl(env: dict[str, str], *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "irisrl", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def iris(tmp_path_factory):
    root = tmp_path_factory.mktemp("iris-rt")
    env = {**os.environ, "HOME": str(root / "home"), "IRISRL_HOME": str(root / "state"), "IRISRL_USER": "tester",
           "RAY_USAGE_STATS_ENABLED": "0"}
    up = _irisrl(env, "cluster", "up", "--local", "--nodes", "2")
    assert up.returncode == 0, up.stdout + up.stderr
    ws = root / "ws"
    ws.mkdir()
    yield SimpleNamespace(root=root, env=env, ws=ws)
    assert _irisrl(env, "cluster", "down", "--local").returncode == 0


def gang_plan(iris, name: str, code: int):
    from irisrl.plan.build import BOOT, BOOT_NAME

    rdv = iris.root / "rdv" / name
    fake = iris.root / "fake-ray" / name
    fake.mkdir(parents=True)
    # file:// on purpose: Iris's local worker rewrites every argv string that starts with a
    # container mount path (/tmp, /app) into a per-task host dir, which would split the store
    argv = ("--rendezvous-dir", f"file://{rdv}", "--local", "--gpus-per-node", "8", "--poll-interval", "0.3",
            "--beat-interval", "0.5", "--park-interval", "0.5", "--head-timeout", "20", "--worker-exit-timeout", "20",
            "--exit-linger", "8")
    command = (sys.executable, "-c", f"import sys; print('trainer here'); sys.exit({code})")
    env = {**fake_ray_env(str(fake)), "IRIS_PYTHON": sys.executable}
    from dataclasses import replace

    plan = trivial_plan(name, ["bash", "-c", BOOT, BOOT_NAME, *argv, "--", *command], iris.ws, nodes=2, env=env)
    return replace(plan, runtime_argv=argv, command=command)


def status(iris, name: str) -> dict:
    done = _irisrl(iris.env, "watch", name, "--interval", "0.5", "--timeout", "120s")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    out = _irisrl(iris.env, "status", name, "--json")
    return json.loads(out.stdout)


def submit(iris, plan) -> None:
    code = subprocess.run([sys.executable, "-c", (
        "import sys, pickle; from irisrl.ops import LaunchSettings, Target, launch; "
        "sys.exit(launch(pickle.load(sys.stdin.buffer), LaunchSettings(Target(local=True), no_wait=True)).exit_code)")],
        input=__import__("pickle").dumps(plan), env=iris.env, capture_output=True, timeout=180)
    assert code.returncode == 0, code.stdout.decode() + code.stderr.decode()


def test_iris_local_gang_failed_head_reports_rank0_failed_rank1_succeeded(iris):
    submit(iris, gang_plan(iris, "rt-fail", 3))
    st = status(iris, "rt-fail")
    tasks = {t["index"]: t for t in st["tasks"]}
    assert st["state"] == "failed" and st["exit_code"] == 3, st
    assert tasks[0]["state"] == "failed" and tasks[0]["exit_code"] == 3, tasks
    assert tasks[1]["state"] == "succeeded" and tasks[1]["exit_code"] == 0, tasks
    assert json.loads((iris.root / "rdv" / "rt-fail" / "done.json").read_text())["status"] == "failed"


def test_iris_local_gang_success_all_tasks_succeed(iris):
    submit(iris, gang_plan(iris, "rt-ok", 0))
    st = status(iris, "rt-ok")
    assert st["state"] == "succeeded", st
    assert sorted(t["state"] for t in st["tasks"]) == ["succeeded", "succeeded"]
