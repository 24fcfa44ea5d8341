"""The one real Iris local cluster (2 workers on 127.0.0.1) of the integration modules that
need one: started once per session by `irisrl cluster up --local` (a start costs tens of
seconds on CI's 2 cores), stopped by `irisrl cluster down --local` after the last test.

The shell that starts it holds cloud credentials (SHELL_LEAKS): tasks must never see them.
Tests share its IRISRL_HOME (ledger, cluster state), so each test uses its own job names."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from iris_plans import irisrl_cli  # noqa: E402

SHELL_LEAKS = {"AWS_ACCESS_KEY_ID": "AKIALEAKLEAK", "AWS_SECRET_ACCESS_KEY": "aws-leak-value",
               "R2_ACCESS_KEY_ID": "r2-leak-value", "HF_TOKEN": "hf_shell-leak-value"}


@pytest.fixture(scope="session")
def iris_cluster(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """root, env (for `python -m irisrl` subprocesses), state, url, ws (a workspace with hello.txt)."""
    from irisrl.backends import local_cluster

    root = tmp_path_factory.mktemp("iris-local")
    env = {**os.environ, "HOME": str(root / "home"), "IRISRL_HOME": str(root / "state"), "IRISRL_USER": "tester",
           "RAY_USAGE_STATS_ENABLED": "0", **SHELL_LEAKS}
    up = irisrl_cli(env, "cluster", "up", "--local", "--nodes", "2")
    assert up.returncode == 0, up.stdout + up.stderr
    state = local_cluster.read_state(root / "state" / "local-cluster")
    ws = root / "ws"
    ws.mkdir()
    (ws / "hello.txt").write_text("hello\n")
    yield SimpleNamespace(root=root, env=env, state=state, url=state.url, ws=ws)
    down = irisrl_cli(env, "cluster", "down", "--local")
    assert down.returncode == 0, down.stderr
    assert not local_cluster.is_alive(state.pid)


@pytest.fixture
def on_iris_cluster(iris_cluster: SimpleNamespace, monkeypatch: pytest.MonkeyPatch,
                    tmp_path: Path) -> SimpleNamespace:
    """The cluster, with this process pointed at it (in-process CLI and submit_and_follow)."""
    monkeypatch.chdir(tmp_path)  # anything written to ./ (e.g. ./traces) stays out of the repo
    monkeypatch.setenv("HOME", iris_cluster.env["HOME"])
    monkeypatch.setenv("IRISRL_HOME", iris_cluster.env["IRISRL_HOME"])
    return iris_cluster
