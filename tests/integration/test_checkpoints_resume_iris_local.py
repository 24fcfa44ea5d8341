"""`irisrl checkpoints` and `irisrl launch --resume` on the real Iris local cluster (the
session's, tests/integration/conftest.py), the checkpoints in moto's S3 on 127.0.0.1.

Each run is a real `launch --local --role trainer` of tests/integration/resume_ws (its
trainer a stand-in module that prints what SkyRL's trainer prints on a fresh start or a
resume, then closes two steps as upstream SkyRL's Timer does, without step numbers). The
test writes a checkpoint layout like the trainer's (global_step_N/{policy/...,data.pt,
trainer_state.pt} and latest_ckpt_global_step.txt, written last) under the run's
trainer.ckpt_path, which the launch points into the S3 store."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli  # noqa: E402
from runtime_fixtures import S3Server  # noqa: E402

pytestmark = pytest.mark.slow

WS = Path(__file__).resolve().parent / "resume_ws"
CFG = WS / "resume_cfg.yaml"


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    server = S3Server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def run(iris_cluster: SimpleNamespace, s3: S3Server, tmp_path: Path) -> SimpleNamespace:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"model_type": "qwen3", "num_attention_heads": 16,
                                                   "num_key_value_heads": 8, "hidden_size": 1024}))
    return SimpleNamespace(env={**iris_cluster.env, **s3.env()}, s3=s3, model=str(model), tmp=tmp_path)


def _launch(run: SimpleNamespace, *args: str) -> "tuple[int, str]":
    proc = irisrl_cli(run.env, "launch", "--local", "--rl_config", str(CFG), "--workspace", str(WS),
                      "--role", "trainer", "--max-retries", "0", "--no-wait", *args, timeout=180)
    return proc.returncode, proc.stdout + proc.stderr


def _launch_original(run: SimpleNamespace, name: str) -> "tuple[str, str]":
    """(job id, ckpt_path) of a fresh run whose checkpoints go to the S3 store."""
    ckpt = f"{run.s3.fresh_uri()}/checkpoints"
    code, out = _launch(run, "--model_path", run.model, "--num-nodes", "1", "--job-name", name,
                        "--skyrl_override", f"++trainer.ckpt_path={ckpt}")
    assert code == 0, out[-4000:]
    return f"/tester/{name}", ckpt


def _fs(run: SimpleNamespace):  # type: ignore[no-untyped-def]
    import fsspec

    from irisrl.runtime.store import s3_options

    return fsspec.filesystem("s3", **s3_options(run.env))


def _write_layout(run: SimpleNamespace, ckpt: str, complete: list[int], superseded: list[int] = (),  # type: ignore[assignment]
                  unfinished: list[int] = ()) -> None:  # type: ignore[assignment]
    """SkyRL's save_checkpoints layout: the step dirs, then the marker (written last)."""
    fs, root = _fs(run), ckpt.split("://", 1)[1]
    for step in [*complete, *superseded, *unfinished]:
        d = f"{root}/global_step_{step}"
        fs.pipe_file(f"{d}/policy/model_state.pt", b"w" * 1000)
        fs.pipe_file(f"{d}/policy/huggingface/config.json", b"{}")
        if step in complete:
            fs.pipe_file(f"{d}/data.pt", b"d" * 10)
            fs.pipe_file(f"{d}/trainer_state.pt", b"s" * 10)
    fs.pipe_file(f"{root}/latest_ckpt_global_step.txt", str(max(complete)).encode())


def _wait_terminal(run: SimpleNamespace, job: str, timeout: float = 150) -> dict:  # type: ignore[type-arg]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        res = irisrl_cli(run.env, "status", job, "--local", "--json")
        if res.returncode in (0, 1):
            return json.loads(res.stdout)  # type: ignore[no-any-return]
        time.sleep(1)
    raise AssertionError(f"{job} not terminal after {timeout}s")


def _plan(run: SimpleNamespace, job: str) -> dict:  # type: ignore[type-arg]
    from irisrl.ledger.store import Ledger

    plan = Ledger(Path(run.env["IRISRL_HOME"]) / "ledger.sqlite").plan_for(job)
    assert plan is not None, job
    return plan


def test_checkpoints_lists_the_latest_complete_and_prunes_only_with_yes(run: SimpleNamespace) -> None:
    job, ckpt = _launch_original(run, "ckprune-a")
    _write_layout(run, ckpt, complete=[1, 3, 5], superseded=[2], unfinished=[6])

    listed = irisrl_cli(run.env, "checkpoints", job, "--json")
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    assert data["ckpt_path"] == ckpt and data["marker_step"] == 5
    assert data["latest_complete"]["path"] == f"{ckpt}/global_step_5"
    assert {c["step"]: c["status"] for c in data["checkpoints"]} == \
        {1: "complete", 2: "superseded", 3: "complete", 5: "latest", 6: "unfinished"}
    assert all(c["size"] > 0 for c in data["checkpoints"])
    assert any("newer than the marker" in n for n in data["notes"])

    # refusals: nothing deleted by any of them
    assert irisrl_cli(run.env, "checkpoints", job, "--keep", "0").returncode == 64
    assert irisrl_cli(run.env, "checkpoints", job, "--yes").returncode == 64
    absent = irisrl_cli(run.env, "checkpoints", "/tester/never-launched", "--json")
    assert absent.returncode == 2 and "not in the run ledger" in absent.stderr

    dry = irisrl_cli(run.env, "checkpoints", job, "--keep", "2")
    assert dry.returncode == 0, dry.stderr
    assert "dry run, --keep 2: would delete 2 checkpoint(s)" in dry.stdout and "nothing deleted" in dry.stdout
    fs, root = _fs(run), ckpt.split("://", 1)[1]
    assert {p.rsplit("/", 1)[-1] for p in fs.ls(root, refresh=True)} >= {"global_step_1", "global_step_2"}

    pruned = irisrl_cli(run.env, "checkpoints", job, "--keep", "2", "--yes", "--json")
    assert pruned.returncode == 0, pruned.stderr
    prune = json.loads(pruned.stdout)["prune"]
    assert prune["executed"] and [c["step"] for c in prune["delete"]] == [1, 2]
    assert [c["step"] for c in prune["kept"]] == [3, 5] and [c["step"] for c in prune["reported"]] == [6]
    left = {p.rsplit("/", 1)[-1] for p in fs.ls(root, refresh=True)}
    assert left == {"global_step_3", "global_step_5", "global_step_6", "latest_ckpt_global_step.txt"}

    # --keep 1 never takes the latest complete one, and never the unfinished one
    one = json.loads(irisrl_cli(run.env, "checkpoints", job, "--keep", "1", "--yes", "--json").stdout)
    assert [c["step"] for c in one["prune"]["delete"]] == [3]
    assert {p.rsplit("/", 1)[-1] for p in fs.ls(root, refresh=True)} == \
        {"global_step_5", "global_step_6", "latest_ckpt_global_step.txt"}


def test_launch_resume_refusals_settings_fresh_rendezvous_and_health_from_the_resumed_step(
        run: SimpleNamespace) -> None:
    job, ckpt = _launch_original(run, "ckres-orig")
    orig = _plan(run, job)
    assert _wait_terminal(run, job)["state"] == "succeeded"

    code, out = _launch(run, "--resume", job, "--dry-run")
    assert code == 1 and "no complete checkpoint" in out, out[-3000:]

    _write_layout(run, ckpt, complete=[1, 2], unfinished=[3])

    code, out = _launch(run, "--resume", job, "--num-nodes", "2", "--dry-run")
    assert code == 1 and "the layout differs" in out, out[-3000:]
    assert "num_nodes: 1 -> 2" in out and "trainer.placement.policy_num_nodes: 1 -> 2" in out
    assert "--allow-layout-change" in out

    code, out = _launch(run, "--resume", job, "--num-nodes", "2", "--allow-layout-change", "--dry-run", "--json")
    assert code == 0, out[-3000:]
    assert "layout changed" in json.loads(out)["tags"]["resume_note"]

    code, out = _launch(run, "--resume", job, "--skyrl_override", "++trainer.policy.optimizer_config.lr=2e-06",
                        "--dry-run")
    assert code == 1 and "hyperparameters differ" in out and "lr: 1e-06 -> 2e-06" in out, out[-3000:]

    code, out = _launch(run, "--resume", job, "--rendezvous-dir", orig["rendezvous_dir"], "--dry-run")
    assert code == 1 and "its own rendezvous dir" in out, out[-3000:]

    # the resume alone: the config, workspace, role and override come from the ledger row
    bare = irisrl_cli(run.env, "launch", "--local", "--resume", job, "--dry-run", "--json", timeout=180)
    assert bare.returncode == 0, (bare.stdout + bare.stderr)[-3000:]
    alone = json.loads(bare.stdout)
    assert alone["config_path"] == str(CFG) and alone["workspace"] == str(WS) and alone["role"] == "trainer"
    assert alone["hydra_args"][-3:] == ["++trainer.resume_mode=from_path", f"++trainer.resume_path={ckpt}/global_step_2",
                                        f"++trainer.ckpt_path={ckpt}"]

    code, out = _launch(run, "--resume", job, "--job-name", "ckres-next")
    assert code == 0, out[-4000:]
    new_id = "/tester/ckres-next"
    new = _plan(run, new_id)
    settings = ["++trainer.resume_mode=from_path", f"++trainer.resume_path={ckpt}/global_step_2",
                f"++trainer.ckpt_path={ckpt}"]
    assert new["hydra_args"][-3:] == settings and new["command"][-3:] == settings
    assert new["tags"]["resume_of"] == job and new["tags"]["resume_step"] == "2"
    assert new["rendezvous_dir"] != orig["rendezvous_dir"]
    assert Path(new["rendezvous_dir"]).parent == Path(orig["rendezvous_dir"]).parent.parent / "ckres-next"
    assert _wait_terminal(run, new_id)["state"] == "succeeded"

    # the request as the container received it: the trainer's own argv
    pulled = irisrl_cli(run.env, "logs", new_id, "--local", "--out", str(run.tmp / "pulled"))
    assert pulled.returncode == 0, pulled.stderr
    text = (run.tmp / "pulled" / "combined.log").read_text()
    line = next(ln for ln in text.splitlines() if "FAKE_TRAINER_ARGS" in ln)
    assert line.split("FAKE_TRAINER_ARGS ", 1)[1].split()[-3:] == settings
    assert "Resuming from global_step: 2" in text

    # health counts from the resumed step: two steps after step 2 are steps 3 and 4
    health = irisrl_cli(run.env, "health", new_id, "--local", "--json")
    report = json.loads(health.stdout)
    assert report["global_step"] == 4, health.stdout[-3000:]
    assert any("(from 2)" in r["evidence"] for r in report["rungs"]), report["rungs"]
    before = json.loads(irisrl_cli(run.env, "health", job, "--local", "--json").stdout)
    assert before["global_step"] == 2   # the original counted from scratch
