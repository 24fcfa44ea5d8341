"""A remote plan never lands on the local cluster by accident: `launch` without a target flag
goes to the profile's cluster config even while a local cluster is up."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from iris_plans import irisrl_cli

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_launch_without_target_flag_ignores_the_running_local_cluster(iris_cluster: SimpleNamespace,
                                                                     tmp_path: Path) -> None:
    env = dict(iris_cluster.env, IRISRL_CLUSTER_CONFIG=str(tmp_path / "missing-cluster.yaml"))
    before = irisrl_cli(env, "runs", "--json")
    proc = irisrl_cli(env, "launch", "--rl_config", str(REPO / "examples/configs/smoke_colocated.yaml"),
                      "--workspace", str(REPO / "examples/workspace"), "--num-nodes", "2",
                      "--job-name", "not-local-by-accident", "--no-wait")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "submitted" not in out
    assert "missing-cluster.yaml" in out  # it went for the profile's cluster config, named in the error
    assert "Traceback" not in out
    assert irisrl_cli(env, "runs", "--json").stdout == before.stdout  # nothing recorded, nothing submitted
