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


RDZV = "s3://b/iris/rl-rdzv/dense-r1/20261203-100000-abcd0123"


def source_plan(ckpt_root: str, repo: str | None = "org/dense-r1", mode: str = "remote", *,
                strategy: str = "megatron", policy: tuple[int, int] = (2, 8), run_nodes: int = 4,
                gpus_per_node: int = 8) -> dict[str, object]:
    """The masked plan the ledger keeps for a launch (the keys export reads): a 4-node run
    whose policy holds 2 x 8 GPUs (Megatron TP=8 PP=2), the rest rollout engines."""
    hydra = ["+terminal_bench_config=terminal_bench", f"++trainer.strategy={strategy}",
             f"++trainer.placement.policy_num_nodes={policy[0]}",
             f"++trainer.placement.policy_num_gpus_per_node={policy[1]}",
             "++trainer.policy.megatron_config.tensor_model_parallel_size=8",
             "++trainer.policy.megatron_config.pipeline_model_parallel_size=2",
             f"++trainer.ckpt_path={ckpt_root}", "++trainer.export_path=s3://b/exports/dense-r1"]
    if repo:
        hydra.append(f"++trainer.hf_hub_repo_id={repo}")
    return {"job_id": JOB, "job_name": "dense-r1", "user": "tester", "cluster": "cw", "mode": mode,
            "image": "ghcr.io/example/gpu-rl@sha256:" + "0" * 64, "priority": "production",
            "num_nodes": run_nodes, "gpus_per_node": gpus_per_node,
            "resources": {"cpu": 128.0, "memory": "1600GB", "disk": "800GB",
                          "device": {"type": "gpu", "variant": "H100", "count": gpus_per_node}},
            "rendezvous_dir": RDZV,
            "runtime_argv": ["--rendezvous-dir", RDZV, "--rendezvous-timeout", "1800", "--gpus-per-node", "8",
                             "--train-data", '["DCAgent/tasks"]', "--prestage-model", "Qwen/Qwen3-8B"],
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
    ((10, 30), 20, None, "no complete checkpoint .*global_step_20/ is missing"),   # marker without its dir
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
def test_megatron_export_is_the_saved_policys_gpu_gang_on_whole_nodes(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {"HF_ENDPOINT": "http://hub.test"})
    request = export.request()
    # the policy's 2 nodes (not the run's 4), the run's 8 GPUs and per-node resources on each
    assert (request.name, request.replicas, request.group_by) == ("dense-r1-export-10", 2, "leafgroup")
    assert (request.resources.device.type, request.resources.device.variant, request.resources.device.count) == \
        ("gpu", "H100", 8)
    assert (request.resources.cpu, request.resources.memory, request.resources.disk) == (128.0, "1600GB", "800GB")
    assert request.max_retries_failure == 0
    assert request.task_image == "ghcr.io/example/gpu-rl@sha256:" + "0" * 64
    # a gang: the runtime controller forms one Ray cluster on a fresh rendezvous dir, the command on rank 0
    argv = request.argv
    assert argv[:4] == ("bash", "-c", argv[2], "irisrl-boot") and "irisrl.runtime.controller" in argv[2]
    rdzv = argv[argv.index("--rendezvous-dir") + 1]
    assert rdzv.startswith("s3://b/iris/rl-rdzv/dense-r1-export-10/") and rdzv != RDZV
    assert argv[argv.index("--gpus-per-node") + 1] == "8" and argv[argv.index("--rendezvous-timeout") + 1] == "1800"
    assert "--train-data" not in argv and "--prestage-model" not in argv   # the trainer's, not the export's
    command = argv[argv.index("--") + 1:]
    assert command[:3] == ("python", "-m", "skyrl_train.entrypoints.checkpoint_export")
    assert "++trainer.strategy=megatron" in command
    assert command[-7:] == (
        "++checkpoint_export.step=10", f"++checkpoint_export.checkpoint_path={root}/global_step_10",
        "++checkpoint_export.export_root=s3://b/exports/dense-r1", "++checkpoint_export.hf_hub_repo_id=org/dense-r1",
        "++checkpoint_export.hf_hub_private=false", "++checkpoint_export.hf_hub_revision=main",
        "++checkpoint_export.hf_upload_mode=latest")
    assert request.ports == ("ray",)
    # the run's non-secret env (never its masked values), the operator's token and Hub, the gang's Ray token
    assert {k: v for k, v in request.env.items() if k != "RAY_AUTH_TOKEN"} == {
        "LD_LIBRARY_PATH": "/opt/lib", "HF_ENDPOINT": "http://hub.test", "HF_TOKEN": TOKEN, "RAY_AUTH_MODE": "token"}
    assert set(request.secret_env_keys) == {"HF_TOKEN", "RAY_AUTH_TOKEN"} and len(request.env["RAY_AUTH_TOKEN"]) == 64
    geo = export.to_dict()["resources"]
    assert (geo["nodes"], geo["gpus_per_node"], geo["policy_nodes"], geo["policy_gpus_per_node"]) == (2, 8, 2, 8)
    assert geo["strategy"] == "megatron" and geo["layout"] == "TP=8 PP=2"
    assert geo["why"].startswith("8 x H100 on each of 2 node(s): the saved policy's placement 2 x 8 GPUs")
    assert "checkpoint_exporter.py @ 292a86b0" in geo["why"]
    shown = json.dumps(export.to_dict())
    assert TOKEN not in shown and request.env["RAY_AUTH_TOKEN"] not in shown and '"HF_TOKEN": "***"' in shown


def test_fsdp_export_on_one_node_reserves_the_whole_node_and_runs_the_entrypoint_directly(tmp_path: Path) -> None:
    """MarinSkyRL exports FSDP on GPUs too (test_checkpoint_export_config.py @ 362ba384: an
    fsdp2 run's export keeps an H100 allocation); a 4-rank policy gets the node's 8 GPUs
    (test_export_hf_checkpoint.py @ 04a82f3b: whole eight-GPU node)."""
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root, strategy="fsdp2", policy=(1, 4)), ExportSettings(), TOKEN, {})
    request = export.request()
    assert (request.replicas, request.group_by, request.resources.device.count) == (1, None, 8)
    assert request.argv[:3] == ("python", "-m", "skyrl_train.entrypoints.checkpoint_export")
    assert request.ports == () and "RAY_AUTH_TOKEN" not in request.env
    assert export.geometry.layout == "" and "fsdp2" in export.geometry.why


def test_one_node_export_runs_on_the_skyrl_commit_the_run_moved_to(tmp_path: Path) -> None:
    """A run launched with --skyrl-ref trained on that SkyRL commit; a one-node export (no
    controller) checks it out too before the exporter runs, through the shipped runtime module."""
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    source = source_plan(root, strategy="fsdp2", policy=(1, 8))
    source["runtime_argv"] = [*source["runtime_argv"], "--skyrl-ref", "abc123", "--skyrl-root", "/opt/MarinSkyRL"]
    export = build_export(JOB, source, ExportSettings(), TOKEN, {})
    argv = export.request().argv
    assert argv[:2] == ("bash", "-c") and "-m irisrl.runtime.skyrl_ref" in argv[2]
    cut = argv.index("--")
    assert argv[4:cut] == ("--skyrl-ref", "abc123", "--skyrl-root", "/opt/MarinSkyRL")
    assert argv[cut + 1:cut + 4] == ("python", "-m", "skyrl_train.entrypoints.checkpoint_export")
    assert export.plan.skyrl_ref == "abc123"
    plain = build_export(JOB, source_plan(root, strategy="fsdp2", policy=(1, 8)), ExportSettings(), TOKEN, {})
    assert plain.request().argv[0] == "python" and plain.plan.skyrl_ref is None


def test_cpu_only_is_one_cpu_task_and_says_it_is_not_the_sources_way(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(cpu_only=True), TOKEN, {})
    request = export.request()
    assert (request.replicas, request.group_by, request.resources.device.type, request.resources.device.count) == \
        (1, None, "cpu", 0)
    assert (request.resources.cpu, request.resources.memory, request.resources.disk) == (8.0, "64GB", "256GB")
    assert request.argv[:3] == ("python", "-m", "skyrl_train.entrypoints.checkpoint_export")
    assert export.geometry.why.startswith("CPU only (--cpu-only), not the source's way")
    with pytest.raises(UsageError, match="--cpu-only and --gpus"):
        build_export(JOB, source_plan(root), ExportSettings(cpu_only=True, gpus=8), TOKEN, {})


@pytest.mark.parametrize("settings, says", [
    (ExportSettings(gpus=4), "cannot hold the saved policy's 2 x 8 ranks"),
    (ExportSettings(nodes=1), "cannot hold the saved policy's 2 x 8 ranks"),
    (ExportSettings(gpus=0), "--gpus 0 asks for no GPU"),
])
def test_gpu_overrides_that_cannot_hold_the_saved_policy_are_refused(tmp_path: Path, settings: ExportSettings,
                                                                      says: str) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    with pytest.raises(IrisrlError, match=says):
        build_export(JOB, source_plan(root), settings, TOKEN, {})


def test_gpu_overrides_and_the_refusals_of_a_plan_that_cannot_size_it(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(gpus=8, nodes=3, memory="900GB"), TOKEN, {})
    request = export.request()
    assert (request.replicas, request.resources.device.count, request.resources.memory) == (3, 8, "900GB")
    assert "(--gpus/--nodes)" in export.geometry.why
    bare = {k: v for k, v in source_plan(root).items() if k not in ("gpus_per_node", "resources")}
    bare["hydra_args"] = [a for a in source_plan(root)["hydra_args"] if "policy_num_gpus" not in a]   # type: ignore[attr-defined]
    with pytest.raises(IrisrlError, match="records no GPUs per node") as err:
        build_export(JOB, bare, ExportSettings(), TOKEN, {})
    assert "--cpu-only" in err.value.fix
    with pytest.raises(IrisrlError, match="no per-node cpu/memory/disk"):
        build_export(JOB, bare, ExportSettings(gpus=8), TOKEN, {})
    no_rdzv = {k: v for k, v in source_plan(root).items() if k != "rendezvous_dir"}
    with pytest.raises(IrisrlError, match="no rendezvous dir"):
        build_export(JOB, no_rdzv, ExportSettings(), TOKEN, {})


def test_export_flags_override_the_run(tmp_path: Path) -> None:
    root = write_checkpoints(tmp_path / "ckpt", (10, 20), latest=20)
    settings = ExportSettings(repo="me/other", step=10, entrypoint=parse_entrypoint("python standin.py --mode ok"),
                              upload_mode="all", private=True, cpu=2, memory="8GB", nodes=2)
    request = build_export(JOB, source_plan(root), settings, TOKEN, {}).request()
    assert request.argv[request.argv.index("--") + 1:][:3] == ("python", "standin.py", "--mode")
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


def test_run_export_refuses_a_gang_that_can_never_fit_before_submitting(tmp_path: Path) -> None:
    """The fit gate launch runs (ops/fit_gate.py): two 8-GPU nodes of 32 CPUs cannot hold the
    saved policy's 2 x 8-GPU gang at the run's 128 CPUs per node; nothing is submitted, the fix is
    shown; --allow-queue submits it anyway."""
    from irisrl.backends.fit import GIB, ClusterState, Node
    from irisrl.ops.fit_gate import FitRefused

    root = write_checkpoints(tmp_path / "ckpt", (10,), latest=10)
    export = build_export(JOB, source_plan(root), ExportSettings(), TOKEN, {})
    small = ClusterState(nodes=tuple(Node(f"n{i}", 32_000, 2048 * GIB, 8, "gpu", "h100", attributes={"leafgroup": "a"})
                                     for i in (1, 2)))
    backend = MemoryBackend(cluster=small)
    with pytest.raises(FitRefused) as refused:
        run_export(backend, export, TOKEN, poll_s=0)
    assert not backend.submitted and "was not submitted" in refused.value.message and "--cpu 32" in refused.value.fix
    queued = MemoryBackend(cluster=small, script=[finished(export.job_id, "failed", 1)])
    assert run_export(queued, export, TOKEN, poll_s=0, allow_queue=True).state == "failed"
    assert export.job_id in queued.submitted


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


def test_cli_dry_run_shows_the_request_and_why_never_the_token(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _record(source_plan(write_checkpoints(tmp_path / "ckpt", (10,), latest=10)))
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    code, out, err = run_cli(capsys, "export", "dense-r1", "--dry-run", "--json")
    data = json.loads(out)
    assert code == 0 and data["export_job"] == "/tester/dense-r1-export-10"
    assert data["request"]["env"]["HF_TOKEN"] == "***" and data["request"]["resources"]["device"]["count"] == 8
    assert data["request"]["replicas"] == 2 and data["request"]["coscheduling"] == {"group_by": "leafgroup"}
    assert data["resources"]["why"].startswith("8 x H100 on each of 2 node(s)")
    assert data["checkpoint"]["step"] == 10 and data["repo"] == "org/dense-r1"
    code, out, err = run_cli(capsys, "export", "dense-r1", "--dry-run")
    assert code == 0 and "not submitting (dry run)" in out and "HF_TOKEN=***" in out
    flat = " ".join(out.split())
    assert "2 task(s), each 8 x H100, cpu 128, memory 1600GB, disk 800GB; coscheduled by leafgroup" in flat
    assert "megatron TP=8 PP=2" in flat and "RAY_AUTH_TOKEN=***" in flat
    assert TOKEN not in out + err
    code, out, _ = run_cli(capsys, "export", "dense-r1", "--dry-run", "--json", "--cpu-only", "--memory", "16GB")
    data = json.loads(out)
    assert code == 0 and data["request"]["resources"]["device"]["count"] == 0 and data["request"]["replicas"] == 1
    assert data["request"]["resources"]["memory"] == "16GB" and data["resources"]["why"].startswith("CPU only")


@pytest.mark.parametrize("args, env, says, rc", [
    (("export", "absent-run"), {"HF_TOKEN": TOKEN}, "not in irisrl's ledger", 2),
    (("export", "dense-r1", "--dry-run"), {}, "HF_TOKEN is not set", 1),
    (("export", "dense-r1", "--step", "99", "--dry-run"), {"HF_TOKEN": TOKEN}, "global_step_99 is not a complete", 1),
    (("export", "dense-r1", "--export-entrypoint", "'unclosed", "--dry-run"), {"HF_TOKEN": TOKEN},
     "--export-entrypoint", 64),
    (("export", "dense-r1", "--gpus", "4", "--dry-run"), {"HF_TOKEN": TOKEN}, "cannot hold the saved policy's", 1),
    (("export", "dense-r1", "--gpus", "8", "--cpu-only", "--dry-run"), {"HF_TOKEN": TOKEN}, "--cpu-only and --gpus", 64),
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
