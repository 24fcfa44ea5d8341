"""Secret values a task prints never reach what `irisrl logs` / `health` / `progress` save or
print for a live job of the real Iris local cluster (the session's, conftest.py): the ledger
holds only the masked plan, so the values come from the operator's environment and
`--secrets-env`, as launch reads them."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli  # noqa: E402
from iris_plans import trivial_plan  # noqa: E402

from irisrl.runtime.contract import ENV_S3_SECRET  # noqa: E402

pytestmark = pytest.mark.slow

HF = "hf_planted-token-31337"              # from the operator's environment
WANDB = "wandb-planted-from-file-4242"      # from the --secrets-env file only
S3 = "s3-planted-irisrl-secret-777"         # irisrl's own secret variable
TASK = ('echo "hf is $HF_TOKEN"; echo "wandb=$WANDB_API_KEY, s3=$' + ENV_S3_SECRET + '"; '
        'echo "[irisrl] Ray nodes alive: 1/1"; echo plain-marker-line')


def _wait_done(env: dict[str, str], job: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if irisrl_cli(env, "status", job, "--local", "--json").returncode in (0, 1):
            return
        time.sleep(1)
    raise AssertionError(f"{job} not terminal after {timeout}s")


def _files_text(root: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in sorted(root.rglob("*")) if p.is_file())


def test_logs_health_progress_mask_secrets_a_task_printed(on_iris_cluster, tmp_path):
    from irisrl.ops import LaunchSettings, Target, launch

    secrets = {"HF_TOKEN": HF, "WANDB_API_KEY": WANDB, ENV_S3_SECRET: S3}
    plan = trivial_plan("mask-logs", ["bash", "-c", TASK], on_iris_cluster.ws, env=secrets,
                        secret_keys=tuple(secrets))
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    env = {**on_iris_cluster.env, "HF_TOKEN": HF, ENV_S3_SECRET: S3}
    env.pop("DC_AGENT_SECRET_ENV", None)
    _wait_done(env, plan.job_id)
    secrets_file = tmp_path / "secrets.env"
    secrets_file.write_text(f"export WANDB_API_KEY='{WANDB}'\n")

    # The control: unmasked, the task's log does hold the values (the test can fail).
    raw = tmp_path / "raw"
    _pull_unmasked(on_iris_cluster.url, plan.job_id, raw)
    assert all(v in (raw / "combined.log").read_text() for v in secrets.values())

    out = tmp_path / "pulled"
    pulled = irisrl_cli(env, "logs", plan.job_id, "--local", "--out", str(out), "--secrets-env", str(secrets_file))
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    saved = _files_text(out)
    assert "hf is ***" in saved and "wandb=***, s3=***" in saved and "plain-marker-line" in saved
    health = irisrl_cli(env, "health", plan.job_id, "--local", "--json", "--secrets_env", str(secrets_file))
    progress = irisrl_cli(env, "progress", plan.job_id, "--local", "--json", "--secrets-env", str(secrets_file))
    assert health.returncode in (0, 1) and progress.returncode == 0, health.stderr + progress.stderr
    for text in (saved, pulled.stdout, pulled.stderr, health.stdout, health.stderr, progress.stdout, progress.stderr):
        for value in secrets.values():
            assert value not in text


def _pull_unmasked(url: str, job_id: str, out: Path) -> None:
    from irisrl.config.masking import Masker
    from irisrl.observe.pull import LogPuller
    from irisrl.ops.jobs import JobLogs, open_job

    with open_job(job_id, controller_url=url) as opened:
        LogPuller(JobLogs(opened.backend, opened.job_id), job_id, out, mask=Masker([])).pull_once(60)
