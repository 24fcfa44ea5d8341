"""`irisrl finish JOB --json` after a `launch --local` on the persistent local Iris cluster
(tests/integration/conftest.py): the bundle holds the task logs and health.json (the `health
--json` document); on a run whose node checks fail (--model_path names a directory the nodes
do not have) the failing rank's log and a KILL naming that cause. And `launch --finish`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli  # noqa: E402

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
LAUNCH = ["launch", "--local", "--rl_config", str(REPO / "examples" / "configs" / "smoke_colocated.yaml"),
          "--workspace", str(REPO / "examples" / "workspace"), "--num-nodes", "2", "--max-retries", "0"]


def _finish(env: dict[str, str], job: str, out: Path | None = None) -> dict:
    res = irisrl_cli(env, "finish", job, "--local", "--json", *(["--out", str(out)] if out else []), timeout=180)
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads(res.stdout)
    assert set(doc) >= {"bundle", "items"} and all(set(i) == {"path", "size"} for i in doc["items"])
    return doc


def test_finish_after_a_failed_node_check_names_the_cause_and_keeps_the_failing_ranks_log(on_iris_cluster,
                                                                                          tmp_path: Path) -> None:
    env = on_iris_cluster.env
    missing = tmp_path / "no-such-model"
    res = irisrl_cli(env, *LAUNCH, "--job-name", "finish-nodecheck", "--model_path", str(missing), timeout=300)
    assert res.returncode == 1, res.stdout[-4000:] + res.stderr[-4000:]
    doc = _finish(env, "/tester/finish-nodecheck")
    bundle = Path(doc["bundle"])
    assert bundle.is_dir() and bundle.is_relative_to(tmp_path / "traces")   # the pulled-logs default dir
    paths = {i["path"]: i["size"] for i in doc["items"]}
    assert {"health.json", "launch.json", "trials.json", "logs/combined.log"} <= set(paths)
    health = json.loads((bundle / "health.json").read_text())
    assert health["verdict"] == "KILL", health
    death = health["cause_of_death"]
    assert death["kind"] == "node_check_failed" and str(missing) in death["line"], death
    assert "node_check_failed" in {c["kind"] for c in health["causes"]}
    rank_log = bundle / "logs" / f"task-{death['rank']}.attempt-0.log"
    assert f"logs/{rank_log.name}" in paths and paths[f"logs/{rank_log.name}"] > 0
    assert f"node checks failed on rank {death['rank']}/2" in rank_log.read_text()


def test_launch_finish_then_finish_json_on_a_run_that_succeeded(on_iris_cluster, tmp_path: Path) -> None:
    env = on_iris_cluster.env
    res = irisrl_cli(env, *LAUNCH, "--job-name", "finish-ok", "--finish", timeout=400)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]
    m = re.search(r"^evidence bundle of /tester/finish-ok: (\S+)", res.stdout, re.M)   # launch --finish's
    assert m and (Path(m.group(1)) / "health.json").is_file(), res.stdout[-4000:]
    launch_doc = json.loads((Path(m.group(1)) / "launch.json").read_text())
    assert launch_doc["summary"]["job_id"] == "/tester/finish-ok"   # the launch summary went in

    doc = _finish(env, "/tester/finish-ok", tmp_path / "bundle")
    assert doc["bundle"] == str((tmp_path / "bundle").resolve())
    paths = {i["path"] for i in doc["items"]}
    assert {"logs/task-0.attempt-0.log", "logs/task-1.attempt-0.log", "health.json"} <= paths
    health = json.loads((tmp_path / "bundle" / "health.json").read_text())
    assert health["verdict"] == "NO-KILL" and doc["verdict"] == "NO-KILL", health
    assert "Runtime controller rank 1/2" in (tmp_path / "bundle" / "logs" / "task-1.attempt-0.log").read_text()
