"""`irisrl export` (ops/export.py) without a cluster: the checkpoint lookup on the trainer's
layout (a local dir and moto's S3 on loopback), the export job's request, the refusals, and
run_export over the in-memory backend with the upload checked on the loopback Hub
(tests/support/hub_server.py, real huggingface_hub against it)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from hub_server import HubServer  # noqa: E402
from memory_backend import MemoryBackend, attempt, finished, line, task  # noqa: E402

from irisrl.backends.base import JobSnapshot  # noqa: E402
from irisrl.cli.main import main  # noqa: E402
from irisrl.ops.export import ExportSettings, build_export, checkpoint_dir, hf_token, missing_files, \
    parse_entrypoint, run_export  # noqa: E402
from irisrl.util.errors import IrisrlError, UsageError  # noqa: E402

TOKEN = "hf_unit-secret-token-value"
JOB = "/tester/dense-r1"


def write_checkpoints(root: Path, steps: tuple[int, ...], latest: int | None) -> str:
    """The trainer's layout: global_step_N dirs and latest_ckpt_global_step.txt."""
    for step in steps:
        (root / f"global_step_{step}" / "policy").mkdir(parents=True)
        (root / f"global_step_{step}" / "trainer_state.pt").write_bytes(b"state")
    if latest is not None:
        (root / "latest_ckpt_global_step.txt").write_text(f"{latest}\n")
    return str(root)


def source_plan(ckpt_root: str, repo: str | None = "org/dense-r1", mode: str = "remote") -> dict[str, object]:
    """The masked plan the ledger keeps for a launch (the keys export reads)."""
    hydra = ["+terminal_bench_config=terminal_bench", "++trainer.strategy=megatron",
             f"++trainer.ckpt_path={ckpt_root}", "++trainer.export_path=s3://b/exports/dense-r1"]
    if repo:
        hydra.append(f"++trainer.hf_hub_repo_id={repo}")
    return {"job_id": JOB, "job_name": "dense-r1", "user": "tester", "cluster": "cw", "mode": mode,
            "image": "ghcr.io/example/gpu-rl@sha256:" + "0" * 64, "priority": "production",
            "hydra_args": hydra, "env": {"LD_LIBRARY_PATH": "/opt/lib", "HF_TOKEN": "***", "IRISRL_JOB_ID": JOB,
                                         "WANDB_API_KEY": "***"},
            "secret_env_keys": ["HF_TOKEN", "WANDB_API_KEY"], "model_path": "Qwen/Qwen3-8B",
            "config_path": "cfg.yaml", "config_sha256": "a" * 64, "hparams_fingerprint": "f" * 16}


@pytest.fixture
def hub() -> Iterator[HubServer]:
    pytest.importorskip("huggingface_hub")
    with HubServer(token=TOKEN) as server:
        yield server


@pytest.fixture
def hub_env(hub: HubServer, monkeypatch: pytest.MonkeyPatch) -> HubServer:
    import huggingface_hub.constants as constants

    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    monkeypatch.setattr(constants, "ENDPOINT", hub.url)   # read at import; the env var is for the job
    return hub


# ---------------------------------------------------------------------------- the checkpoint
def test_checkpoint_dir_is_the_trainers_latest_complete_step(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10, 20, 30), latest=20)   # 30 is still being written
    ckpt = checkpoint_dir(root, None)
    assert (ckpt.step, ckpt.latest_complete, ckpt.path) == (20, 20, f"{root}/global_step_20")
    assert checkpoint_dir(root, 10).step == 10


@pytest.mark.parametrize("steps, latest, step, says", [
    ((10,), None, None, "no complete checkpoint"),
    ((), None, None, "no complete checkpoint"),
    ((10, 30), 20, None, "global_step_20 is not a complete checkpoint"),      # marker without its dir
    ((10, 20, 30), 20, 30, "global_step_30 is not a complete checkpoint"),    # past the marker
    ((10, 20), 20, 15, "global_step_15 is not a complete checkpoint"),
])
def test_checkpoint_dir_refuses_what_is_not_complete(tmp_path: Path, steps: tuple[int, ...], latest: int | None,
                                                      step: int | None, says: str) -> None:
    root = write_checkpoints(tmp_path / "ckpt", steps, latest)
    with pytest.raises(IrisrlError, match=says):
        checkpoint_dir(root, step)


def test_checkpoint_dir_reads_the_trainers_layout_in_s3_on_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("boto3")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from support.s3_server import S3Server

    server = S3Server("ckpt")
    try:
        s3 = server.client()
        for step in (5, 10):
            s3.put_object(Bucket="ckpt", Key=f"run/checkpoints/global_step_{step}/trainer_state.pt", Body=b"s")
        s3.put_object(Bucket="ckpt", Key="run/checkpoints/latest_ckpt_global_step.txt", Body=b"10")
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        assert checkpoint_dir("s3://ckpt/run/checkpoints", None).path == "s3://ckpt/run/checkpoints/global_step_10"
        assert checkpoint_dir("s3://ckpt/run/checkpoints", 5).step == 5
        with pytest.raises(IrisrlError, match="global_step_7"):
            checkpoint_dir("s3://ckpt/run/checkpoints", 7)
    finally:
        server.stop()


# ------------------------------------------------------------------------------- the request
def test_export_request_is_one_cpu_task_running_the_images_entrypoint(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {"HF_ENDPOINT": "http://hub.test"})
    request = export.request()
    assert request.name == "dense-r1-export-10" and request.replicas == 1 and request.group_by is None
    assert request.max_retries_failure == 0
    assert request.resources.device.count == 0 and request.resources.device.type == "cpu"
    assert request.task_image == "ghcr.io/example/gpu-rl@sha256:" + "0" * 64
    assert request.argv[:3] == ("python", "-m", "skyrl_train.entrypoints.checkpoint_export")
    assert "++trainer.strategy=megatron" in request.argv
    assert request.argv[-7:] == (
        "++checkpoint_export.step=10", f"++checkpoint_export.checkpoint_path={root}/global_step_10",
        "++checkpoint_export.export_root=s3://b/exports/dense-r1", "++checkpoint_export.hf_hub_repo_id=org/dense-r1",
        "++checkpoint_export.hf_hub_private=false", "++checkpoint_export.hf_hub_revision=main",
        "++checkpoint_export.hf_upload_mode=latest")
    # the run's own non-secret env, the operator's token and Hub; never the run's masked values
    assert request.env == {"LD_LIBRARY_PATH": "/opt/lib", "HF_ENDPOINT": "http://hub.test", "HF_TOKEN": TOKEN}
    shown = json.dumps(export.to_dict())
    assert TOKEN not in shown and '"HF_TOKEN": "***"' in shown


def test_export_flags_override_the_run(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10, 20), latest=20)
    settings = ExportSettings(repo="me/other", step=10, entrypoint=parse_entrypoint("python standin.py --mode ok"),
                              upload_mode="all", private=True, cpu=2, memory="8GB")
    request = build_export(JOB, source_plan(root), settings, TOKEN, {}).request()
    assert request.argv[:3] == ("python", "standin.py", "--mode")
    assert "++checkpoint_export.hf_hub_repo_id=me/other" in request.argv
    assert "++checkpoint_export.hf_upload_mode=all" in request.argv
    assert "++checkpoint_export.hf_hub_private=true" in request.argv
    assert (request.name, request.resources.cpu, request.resources.memory) == ("dense-r1-export-10", 2, "8GB")


def test_export_refuses_a_run_without_a_repo_id(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    with pytest.raises(UsageError, match="no Hub repo") as err:
        build_export(JOB, source_plan(root, repo=None), ExportSettings(), TOKEN, {})
    assert "--export-hf" in err.value.fix


def test_export_refuses_a_run_without_checkpoints(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (), latest=None)
    with pytest.raises(IrisrlError, match="no complete checkpoint"):
        build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {})


def test_hf_token_comes_from_the_secrets_irisrl_forwards(tmp_path: Path) -> None:
    with pytest.raises(IrisrlError, match="HF_TOKEN is not set"):
        hf_token(None, {})
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"export HF_TOKEN='{TOKEN}'\n")
    assert hf_token(str(secrets), {}) == TOKEN
    assert hf_token(None, {"HF_TOKEN": TOKEN}) == TOKEN


def test_missing_files_follows_marinskyrls_hf_export_contract() -> None:
    full = ("config.json", "model-00001-of-00002.safetensors", "tokenizer_config.json")
    assert missing_files(full, "latest", 3) == ()
    assert missing_files(("config.json", "pytorch_model.bin", "spm.model"), "latest", 3) == ()
    assert missing_files(("config.json",), "latest", 3) == ("*.safetensors|*.bin", "tokenizer*|*.model")
    assert missing_files(("sub/config.json", "model.safetensors", "tokenizer.json"), "latest", 3) == ("config.json",)
    assert missing_files(full, "all", 3) == ("checkpoints/step_3/config.json", "checkpoints/step_3/*.safetensors|*.bin",
                                             "checkpoints/step_3/tokenizer*|*.model")
    archived = full + tuple(f"checkpoints/step_3/{f}" for f in full)
    assert missing_files(archived, "all", 3) == () and missing_files(archived, "all", 4) != ()


# -------------------------------------------------------------- the loopback Hub, for real
def test_hub_server_takes_huggingface_hubs_create_upload_and_list(hub_env: HubServer, tmp_path: Path) -> None:
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    (folder / "model.safetensors").write_bytes(b"\0" * 32)
    api = HfApi(token=TOKEN)
    api.create_repo(repo_id="org/m", repo_type="model", exist_ok=True)
    api.create_repo(repo_id="org/m", repo_type="model", exist_ok=True)   # 409 -> exists, fine
    api.upload_folder(folder_path=str(folder), repo_id="org/m", path_in_repo="", repo_type="model",
                      commit_message="step 1")
    assert api.list_repo_files("org/m") == ["config.json", "model.safetensors"]
    assert sorted(s.rfilename for s in api.model_info("org/m").siblings or []) == ["config.json", "model.safetensors"]
    assert hub_env.repos["org/m"].files["model.safetensors"] == b"\0" * 32
    with pytest.raises(RepositoryNotFoundError):
        api.list_repo_files("org/absent")
    with pytest.raises(HfHubHTTPError):
        HfApi(token="hf_wrong").list_repo_files("org/m")


# ------------------------------------------------------------------- run_export (memory backend)
def _published(hub: HubServer, repo: str, *names: str) -> None:
    from huggingface_hub import CommitOperationAdd, HfApi

    api = HfApi(token=TOKEN)
    api.create_repo(repo_id=repo, exist_ok=True)
    api.create_commit(repo, [CommitOperationAdd(n, b"x") for n in names], commit_message="export")


def test_run_export_follows_the_job_then_checks_the_repo(hub_env: HubServer, tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {})
    _published(hub_env, "org/dense-r1", "config.json", "model.safetensors", "tokenizer.json")
    backend = MemoryBackend(script=[JobSnapshot(export.job_id, "running", 3),
                                    finished(export.job_id, "succeeded", 1)])
    result = run_export(backend, export, TOKEN, poll_s=0)
    assert result.ok and result.files == ("config.json", "model.safetensors", "tokenizer.json")
    assert backend.submitted[export.job_id].env["HF_TOKEN"] == TOKEN


def test_run_export_reports_files_missing_after_the_job(hub_env: HubServer, tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {})
    _published(hub_env, "org/dense-r1", "config.json")
    result = run_export(MemoryBackend(script=[finished(export.job_id, "succeeded", 1)]), export, TOKEN, poll_s=0)
    assert not result.ok and result.missing == ("*.safetensors|*.bin", "tokenizer*|*.model")
    result = run_export(MemoryBackend(script=[finished(export.job_id, "succeeded", 1)]),
                        build_export(JOB, source_plan(root, repo="org/never"), ExportSettings(), TOKEN, {}),
                        TOKEN, poll_s=0)
    assert result.files == () and len(result.missing) == 3


def test_run_export_shows_a_failed_jobs_error_and_log_tail_masked(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {})
    failed = JobSnapshot(export.job_id, "failed", 4, exit_code=3, tasks=(
        task(0, attempt(0, "failed", 1, 2, exit_code=3, error="exit code 3")),))
    now = int(time.time() * 1000)
    backend = MemoryBackend(script=[failed], lines=[line(0, "a previous export of the same name", now - 60_000),
                                                    line(0, "loading checkpoint", now + 1),
                                                    line(0, f"RuntimeError: bad token {TOKEN}", now + 2)])
    result = run_export(backend, export, TOKEN, poll_s=0)
    assert not result.ok and (result.state, result.exit_code, result.error) == ("failed", 3, "exit code 3")
    assert result.log_tail == ("loading checkpoint", "RuntimeError: bad token ***")


def test_run_export_terminates_a_job_past_its_deadline(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(timeout_s=5), TOKEN, {})
    ticks = iter(range(0, 100, 3))
    backend = MemoryBackend(script=[JobSnapshot(export.job_id, "running", 3)])
    with pytest.raises(IrisrlError, match="did not finish within 5s"):
        run_export(backend, export, TOKEN, poll_s=0, clock=lambda: float(next(ticks)))
    assert backend.terminated == [export.job_id]


# ------------------------------------------------------------------------------------ the CLI
def _record(plan: dict[str, object]) -> None:
    """A launch in the ledger, as `launch` records it (its masked plan JSON)."""
    from types import SimpleNamespace

    from irisrl.ledger.store import Ledger

    Ledger().record_launch(SimpleNamespace(to_dict=lambda: plan), "http://127.0.0.1:1", "url")


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def test_cli_dry_run_shows_the_request_never_the_token(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _record(source_plan(write_checkpoints(tmp_path / "ckpt", (10,), latest=10)))
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    code, out, err = run_cli(capsys, "export", "dense-r1", "--dry-run", "--json")
    data = json.loads(out)
    assert code == 0 and data["export_job"] == "/tester/dense-r1-export-10"
    assert data["request"]["env"]["HF_TOKEN"] == "***" and data["request"]["resources"]["device"]["count"] == 0
    assert data["checkpoint"]["step"] == 10 and data["repo"] == "org/dense-r1"
    code, out, err = run_cli(capsys, "export", "dense-r1", "--dry-run")
    assert code == 0 and "not submitting (dry run)" in out and "HF_TOKEN=***" in out
    assert TOKEN not in out + err


@pytest.mark.parametrize("args, env, says, rc", [
    (("export", "absent-run"), {"HF_TOKEN": TOKEN}, "not in irisrl's ledger", 2),
    (("export", "dense-r1", "--dry-run"), {}, "HF_TOKEN is not set", 1),
    (("export", "dense-r1", "--step", "99", "--dry-run"), {"HF_TOKEN": TOKEN}, "global_step_99 is not a complete", 1),
    (("export", "dense-r1", "--export-entrypoint", "'unclosed", "--dry-run"), {"HF_TOKEN": TOKEN},
     "--export-entrypoint", 64),
])
def test_cli_refusals_are_one_message_and_an_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...],
                                                      env: dict[str, str], says: str, rc: int) -> None:
    _record(source_plan(write_checkpoints(tmp_path / "ckpt", (10,), latest=10)))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code, out, err = run_cli(capsys, *args)
    assert code == rc and says in err and "Traceback" not in err


def test_cli_refuses_a_run_without_a_repo_id(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _record(source_plan(write_checkpoints(tmp_path / "ckpt", (10,), latest=10), repo=None))
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    code, _, err = run_cli(capsys, "export", "dense-r1", "--dry-run")
    assert code == 64 and "no Hub repo" in err and "--export-hf" in err
    code, out, _ = run_cli(capsys, "export", "dense-r1", "--dry-run", "--export-hf", "me/named")
    assert code == 0 and "me/named" in out
