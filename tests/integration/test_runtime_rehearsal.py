"""Placement rehearsal against Ray's real scheduler: two real Ray nodes on this host with
4 fake GPUs each (started once for the module by the runtime's own RayNode)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from runtime_fixtures import PY, rank_env

pytestmark = pytest.mark.slow

GPU = {"GPU": 1, "CPU": 1}


@pytest.fixture(scope="module")
def ray_cluster(ray_two_nodes: str) -> str:
    """Two real Ray nodes x 4 fake GPUs (tests/integration/conftest.py)."""
    return ray_two_nodes


def plan(engines: int) -> dict:
    """Scaled-down disaggregated layout: policy owns node A whole (STRICT_SPREAD, one 4-GPU
    bundle per node), engines are TP=2 groups packed on one node each."""
    groups = [{"name": "policy", "role": "policy", "bundles": [{"GPU": 4, "CPU": 4}], "strategy": "STRICT_SPREAD"}]
    groups += [{"name": f"engine-{i}", "role": "engine", "bundles": [GPU, GPU], "strategy": "STRICT_PACK"}
               for i in range(engines)]
    return {"num_nodes": 2, "gpus_per_node": 4, "placement_groups": groups}


def rehearse(tmp_path: Path, address: str, doc: dict, timeout: float = 5) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(doc))
    env = rank_env(0, 1, {"RAY_ADDRESS": address})
    return subprocess.run([PY, "-m", "irisrl.runtime.rehearsal", "--plan", str(path), "--timeout", str(timeout)],
                          capture_output=True, text=True, env=env, timeout=120)


def machine_line(out: str, tag: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"[irisrl] {tag} "))


def test_rehearsal_disaggregated_2x4_places_every_group(ray_cluster: str, tmp_path: Path) -> None:
    done = rehearse(tmp_path, ray_cluster, plan(engines=2))
    assert done.returncode == 0, done.stdout + done.stderr
    pmap = json.loads(machine_line(done.stdout, "PLACEMENT_MAP").split(" ", 2)[2])
    by_node = {n["node"]: {g["name"] for g in n["groups"]} for n in pmap["nodes"]}
    policy_node = next(n for n, groups in by_node.items() if "policy" in groups)
    assert by_node[policy_node] == {"policy"}              # engines never share the policy node
    other = next(n for n in by_node if n != policy_node)
    assert by_node[other] == {"engine-0", "engine-1"}
    assert all(n["gpus_used"] == 4 for n in pmap["nodes"])
    assert "GPUS USED" in done.stdout                     # the human table


def test_rehearsal_one_engine_too_many_fails_naming_it(ray_cluster: str, tmp_path: Path) -> None:
    done = rehearse(tmp_path, ray_cluster, plan(engines=3), timeout=3)
    assert done.returncode == 1, done.stdout + done.stderr
    line = machine_line(done.stdout, "PLACEMENT_FAILED")
    assert line.startswith("[irisrl] PLACEMENT_FAILED engine-2: 2 bundles (2 GPUs, STRICT_PACK")
    assert '"rank0": 0.0' in line and '"rank1": 0.0' in line
    # the failed attempt released what it had placed: a fitting plan places again
    assert rehearse(tmp_path, ray_cluster, plan(engines=2)).returncode == 0


def test_rehearsal_bad_plan_exits_2_without_ray(tmp_path: Path) -> None:
    done = rehearse(tmp_path, "127.0.0.1:1", {"placement_groups": [{"name": "x", "bundles": [GPU], "strategy": "TIGHT"}]})
    assert done.returncode == 2
    assert "strategy 'TIGHT' is not one of" in done.stdout
