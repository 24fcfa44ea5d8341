"""The runtime copies the NCCL flight-recorder dumps to the store before the task exits, on a
failed command and on failed node checks too (real controller subprocesses, a real S3 API:
moto on 127.0.0.1; Ray is the folder-backed fake)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from runtime_fixtures import PY, S3Server, fake_ray_env, spawn_rank  # noqa: E402

FAST = ["--local", "--store-timeout", "5", "--exit-linger", "0", "--liveness-interval", "0"]


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    server = S3Server()
    yield server
    server.stop()


def _env(tmp: Path, s3: S3Server) -> tuple[dict[str, str], str]:
    fake = tmp / "fake-ray"
    fake.mkdir()
    prefix = str(tmp / "fr_dumps" / "fr-job" / "nccl_fr_rank")   # its directory does not exist yet
    return {**fake_ray_env(str(fake)), **s3.env(), "TORCH_NCCL_DEBUG_INFO_TEMP_FILE": prefix,
            "TORCH_FR_DUMP_TEMP_FILE": prefix}, prefix


def _store(uri: str, s3: S3Server):
    from irisrl.runtime.store import Store

    return Store(uri, 5, env={**os.environ, **s3.env()})


def test_a_failed_command_leaves_its_dump_in_the_store(tmp_path: Path, s3: S3Server) -> None:
    env, prefix = _env(tmp_path, s3)
    uri = s3.fresh_uri()
    # the trainer's stand-in: writes rank 0's dump where torch would (no mkdir: the runtime made it), then fails
    crash = [PY, "-c", f"open({prefix!r} + '0', 'wb').write(b'fr-pickle-0'); raise SystemExit(3)"]
    head = spawn_rank(tmp_path, 0, 1, ["--rendezvous-dir", uri, *FAST], crash, env)
    assert head.wait(60) == 3, head.text()
    assert _store(uri, s3).read("flight-recorder/task-0.attempt-0/nccl_fr_rank0") == b"fr-pickle-0"
    assert "NCCL flight-recorder dump(s) copied to" in head.text()


def test_failed_node_checks_still_copy_the_dumps(tmp_path: Path, s3: S3Server) -> None:
    env, prefix = _env(tmp_path, s3)
    Path(prefix).parent.mkdir(parents=True)
    Path(prefix + "1").write_bytes(b"fr-pickle-1")     # a dump left on this node by the attempt's trainer
    uri = s3.fresh_uri()
    head = spawn_rank(tmp_path, 0, 1, ["--rendezvous-dir", uri, *FAST, "--check-model-config",
                                       str(tmp_path / "no-such-model")], [PY, "-c", "pass"], env, attempt=2)
    assert head.wait(60) == 1, head.text()
    assert "node checks failed" in head.text()
    assert _store(uri, s3).read("flight-recorder/task-0.attempt-2/nccl_fr_rank1") == b"fr-pickle-1"


def test_no_dump_writes_nothing(tmp_path: Path, s3: S3Server) -> None:
    env, _ = _env(tmp_path, s3)
    uri = s3.fresh_uri()
    head = spawn_rank(tmp_path, 0, 1, ["--rendezvous-dir", uri, *FAST], [PY, "-c", "pass"], env)
    assert head.wait(60) == 0, head.text()
    assert _store(uri, s3).list("flight-recorder") == []


def test_finish_downloads_the_dumps_and_copies_the_bundle_to_the_s3_store(tmp_path: Path, s3: S3Server,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain on a real S3 API: a failed task's dump copied by the runtime, then `finish`
    (ops/finish.build_bundle over the in-memory backend) downloads it and writes the bundle
    to <rendezvous dir>/evidence/."""
    from dataclasses import replace

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
    from memory_backend import MemoryBackend, finished, line

    from irisrl.ledger.store import Ledger
    from irisrl.ops.finish import build_bundle
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan

    env, prefix = _env(tmp_path, s3)
    uri = s3.fresh_uri()
    crash = [PY, "-c", f"open({prefix!r} + '0', 'wb').write(b'fr-pickle-0'); raise SystemExit(3)"]
    assert spawn_rank(tmp_path, 0, 1, ["--rendezvous-dir", uri, *FAST], crash, env).wait(60) == 3

    repo = Path(__file__).resolve().parents[2]
    plan, _, _ = build_plan(PlanInputs(rl_config=str(repo / "examples" / "configs" / "smoke_colocated.yaml"), job_name="fr-s3", num_nodes=2,
                                          workspace=str(repo / "examples" / "workspace"),
                                          environ={"IRISRL_USER": "tester"}), Target(local=True), dry_run=True)
    plan = replace(plan, mode="remote", rendezvous_dir=uri)   # a remote run's store
    Ledger().record_launch(plan, "memory://", "url", state="failed")
    for key, value in s3.env().items():
        monkeypatch.setenv(key, value)
    backend = MemoryBackend(statuses={plan.job_id: finished(plan.job_id, "failed", 1, exit_code=3)},
                            job_logs={plan.job_id: [line(0, "[irisrl] Command exited with code 3", 1_000)]})
    bundle = build_bundle(backend, plan.job_id, tmp_path / "bundle")
    assert bundle.problems == [], bundle.problems
    assert (tmp_path / "bundle" / "flight-recorder/task-0.attempt-0/nccl_fr_rank0").read_bytes() == b"fr-pickle-0"
    assert bundle.stored == f"{uri}/evidence"
    store = _store(uri, s3)
    assert store.read("evidence/flight-recorder/task-0.attempt-0/nccl_fr_rank0") == b"fr-pickle-0"
    assert store.read("evidence/health.json") == (tmp_path / "bundle" / "health.json").read_bytes()
