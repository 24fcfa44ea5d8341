"""`irisrl export` on the real Iris local cluster (the session's, conftest.py): a run in the
ledger with the trainer's checkpoint layout (written here), an export job whose entrypoint is
the stand-in in the test workspace (tests/support/export_standin.py: the image's
skyrl_train.entrypoints.checkpoint_export is not in CI) uploading with huggingface_hub to the
loopback Hub (tests/support/hub_server.py, HF_ENDPOINT), followed to the end, the repo checked;
and each refusal: no checkpoint, no repo id, no token (nothing submitted), a failing job (its
error shown, exit 1), files missing after the job (exit 1)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

SUPPORT = Path(__file__).resolve().parents[1] / "support"
sys.path.insert(0, str(SUPPORT))
from hub_server import HubServer  # noqa: E402

from irisrl.cli.main import main  # noqa: E402

pytestmark = pytest.mark.slow
TOKEN = "hf_local-cluster-export-token"


@pytest.fixture
def hub(on_iris_cluster: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServer]:
    hf = pytest.importorskip("huggingface_hub")
    import huggingface_hub.constants as constants

    with HubServer(token=TOKEN) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
        monkeypatch.setattr(constants, "ENDPOINT", server.url)
        monkeypatch.setenv("HF_TOKEN", TOKEN)
        server.hf_path = str(Path(hf.__file__).resolve().parents[1])   # type: ignore[attr-defined]
        yield server


def record_run(tmp_path: Path, name: str, *, steps: tuple[int, ...] = (2, 4), latest: int | None = 4,
               repo: str | None = "org/export-it") -> Path:
    """A finished local run as the ledger keeps it (one node of the local cluster's 8 fake H100,
    an FSDP2 policy on 4 of them), with the trainer's checkpoint layout."""
    from irisrl.ledger.store import Ledger

    root = tmp_path / name / "checkpoints"
    root.mkdir(parents=True)
    for step in steps:
        (root / f"global_step_{step}" / "policy").mkdir(parents=True)
        (root / f"global_step_{step}" / "trainer_state.pt").write_bytes(b"state")   # SkyRL writes it last in the dir
    if latest is not None:
        (root / "latest_ckpt_global_step.txt").write_text(str(latest))
    hydra = [f"++trainer.ckpt_path={root}", "++trainer.strategy=fsdp2", "++trainer.placement.policy_num_nodes=1",
             "++trainer.placement.policy_num_gpus_per_node=4"] + ([f"++trainer.hf_hub_repo_id={repo}"] if repo else [])
    plan = {"job_id": f"/tester/{name}", "job_name": name, "user": "tester", "cluster": "local", "mode": "local",
            "image": "", "priority": "interactive", "num_nodes": 1, "gpus_per_node": 8,
            "resources": {"cpu": 1.0, "memory": "1GB", "disk": "1GB", "device": {"type": "gpu", "variant": "H100",
                                                                                 "count": 8}},
            "hydra_args": hydra, "env": {}, "secret_env_keys": [],
            "model_path": "Qwen/Qwen3-0.6B", "config_path": "cfg.yaml", "config_sha256": "0" * 64}
    Ledger().record_launch(SimpleNamespace(to_dict=lambda: plan), "local", "local")
    return root


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    shutil.copy(SUPPORT / "export_standin.py", ws / "export_standin.py")
    return ws


def standin(hub: HubServer, mode: str) -> str:
    """The export entrypoint: the stand-in, run from the task's workdir with this venv's Python."""
    script = (f'cd "$IRIS_WORKDIR" && PYTHONPATH={shlex.quote(hub.hf_path)} '   # type: ignore[attr-defined]
              f'exec {shlex.quote(sys.executable)} export_standin.py "$@"')
    return shlex.join(["bash", "-c", script, "standin", "--mode", mode])


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def export_args(tmp_path: Path, hub: HubServer, name: str, mode: str, *extra: str) -> list[str]:
    """CPU only: the stand-in converts nothing (the GPU request itself: the first test)."""
    return ["export", name, "--local", "--export-entrypoint", standin(hub, mode), "--workspace",
            str(workspace(tmp_path)), "--cpu-only", "--cpu", "1", "--memory", "1GB", "--disk", "1GB",
            "--timeout", "180", "--json", *extra]


def test_default_export_asks_for_the_saved_policys_gpus_and_the_local_cluster_runs_it(
        hub: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No --cpu-only: the request the source would make (a whole node of the run's 8 GPUs for
    the 4-rank FSDP2 policy), admitted by the local cluster's fake-H100 workers."""
    record_run(tmp_path, "exp-gpu")
    args = [a for a in export_args(tmp_path, hub, "exp-gpu", "ok") if a != "--cpu-only"]
    args = args[:args.index("--cpu")] + args[args.index("--cpu") + 6:]   # the run's cpu/memory/disk
    code, out, err = run_cli(capsys, *args)
    data = json.loads(out)
    assert code == 0, err
    assert data["ok"] and data["request"]["replicas"] == 1
    assert data["request"]["resources"]["device"] == {"type": "gpu", "variant": "H100", "count": 8}
    assert (data["resources"]["policy_nodes"], data["resources"]["policy_gpus_per_node"]) == (1, 4)
    assert hub.files("org/export-it") == ["config.json", "model.safetensors", "tokenizer.json"]


def test_export_runs_on_the_local_cluster_and_the_repo_check_passes(
        hub: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record_run(tmp_path, "exp-ok")
    code, out, err = run_cli(capsys, *export_args(tmp_path, hub, "exp-ok", "ok", "--upload-mode", "all"))
    data = json.loads(out)
    assert code == 0, err
    assert data["ok"] and data["state"] == "succeeded" and data["export_job"] == "/tester/exp-ok-export-4"
    assert data["missing"] == [] and data["checkpoint"]["step"] == 4
    assert hub.files("org/export-it") == ["checkpoints/step_4/config.json", "checkpoints/step_4/model.safetensors",
                                          "checkpoints/step_4/tokenizer.json", "config.json", "model.safetensors",
                                          "tokenizer.json"]
    assert data["request"]["resources"]["device"]["count"] == 0 and data["request"]["env"]["HF_TOKEN"] == "***"
    assert TOKEN not in out + err


def test_a_two_node_policy_exports_on_a_coscheduled_gang_under_the_runtime(
        hub: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Megatron policy on 2 x 8 GPUs: the export job is the 2-node gang (the local cluster's
    gang-2 group), the runtime controller forms one Ray cluster on a fresh rendezvous dir and runs
    the entrypoint on rank 0, as a launch does."""
    from irisrl.util.paths import irisrl_home

    root = record_run(tmp_path, "exp-gang")
    from irisrl.ledger.store import Ledger

    plan = Ledger().plan_for("/tester/exp-gang")
    assert plan is not None
    rdzv = str(irisrl_home() / "rdzv" / "exp-gang" / "20261203-000000-00000000")
    plan.update(num_nodes=2, rendezvous_dir=rdzv, runtime_argv=[
        "--rendezvous-dir", rdzv, "--rendezvous-timeout", "120", "--gpus-per-node", "8", "--local",
        "--park-interval", "1"])
    plan["hydra_args"] = [f"++trainer.ckpt_path={root}", "++trainer.strategy=megatron",
                          "++trainer.placement.policy_num_nodes=2", "++trainer.placement.policy_num_gpus_per_node=8",
                          "++trainer.hf_hub_repo_id=org/export-gang"]
    Ledger().record_launch(SimpleNamespace(to_dict=lambda: plan), "local", "local")
    args = [a for a in export_args(tmp_path, hub, "exp-gang", "ok") if a != "--cpu-only"]
    args = args[:args.index("--cpu")] + args[args.index("--cpu") + 6:]
    code, out, err = run_cli(capsys, *args)
    data = json.loads(out)
    assert code == 0, (err, data.get("log_tail"))
    assert data["request"]["replicas"] == 2 and data["request"]["coscheduling"] == {"group_by": "leafgroup"}
    argv = data["request"]["argv"]
    assert "irisrl.runtime.controller" in argv[2] and argv[argv.index("--rendezvous-dir") + 1] != rdzv
    assert hub.files("org/export-gang") == ["config.json", "model.safetensors", "tokenizer.json"]


def test_export_of_an_earlier_step_to_a_named_repo(hub: HubServer, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record_run(tmp_path, "exp-step", repo=None)
    code, out, err = run_cli(capsys, *export_args(tmp_path, hub, "exp-step", "ok", "--step", "2",
                                                  "--export-hf", "me/step2"))
    assert code == 0, err
    assert json.loads(out)["export_job"] == "/tester/exp-step-export-2"
    assert hub.files("me/step2") == ["config.json", "model.safetensors", "tokenizer.json"]


def test_export_job_that_fails_shows_its_error_and_exits_1(hub: HubServer, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    record_run(tmp_path, "exp-fail")
    code, out, _ = run_cli(capsys, *export_args(tmp_path, hub, "exp-fail", "fail"))
    data = json.loads(out)
    assert code == 1 and data["state"] == "failed" and not data["ok"]
    assert any("stand-in failure" in line for line in data["log_tail"]), data
    assert hub.files("org/export-it") == []
    code, out, _ = run_cli(capsys, *[a for a in export_args(tmp_path, hub, "exp-fail", "fail") if a != "--json"])
    assert code == 1 and "the export job failed" in out and "[standin] RuntimeError" in out   # as logged, no markup


def test_export_with_files_missing_after_the_job_exits_1(hub: HubServer, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    record_run(tmp_path, "exp-partial")
    code, out, _ = run_cli(capsys, *export_args(tmp_path, hub, "exp-partial", "partial"))
    data = json.loads(out)
    assert code == 1 and data["state"] == "succeeded" and data["files"] == ["config.json"]
    assert data["missing"] == ["*.safetensors|*.bin", "tokenizer*|*.model"]


@pytest.mark.parametrize("name, run, token, says, rc", [
    ("exp-nockpt", {"steps": (), "latest": None}, True, "no complete checkpoint", 1),
    ("exp-norepo", {"repo": None}, True, "no Hub repo", 64),
    ("exp-notoken", {}, False, "HF_TOKEN is not set", 1),
])
def test_export_refusals_submit_nothing(hub: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, name: str, run: dict[str, object],
                                        token: bool, says: str, rc: int) -> None:
    from irisrl.backends.iris_client import IrisBackend
    from irisrl.backends.local_cluster import read_state

    record_run(tmp_path, name, **run)   # type: ignore[arg-type]
    if not token:
        monkeypatch.delenv("HF_TOKEN")
    code, _, err = run_cli(capsys, *export_args(tmp_path, hub, name, "ok"))
    assert code == rc and says in err and "Traceback" not in err
    state = read_state(Path(hub_home()) / "local-cluster")
    with IrisBackend(state.url) as backend:
        assert not [j for j in backend.list_jobs() if j.job_id.startswith(f"/tester/{name}-export")]


def hub_home() -> str:
    import os

    return os.environ["IRISRL_HOME"]
