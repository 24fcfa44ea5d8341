"""LaunchPlan factory for the Iris integration tests and benchmarks (not a test module):
trivial commands, real plan shape; and `irisrl_cli`, the CLI as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from irisrl.plan.model import Device, LaunchPlan, Resources


def trivial_plan(job_name: str, command: list[str], workspace: Path, *, nodes: int = 1, user: str = "tester",
                 env: dict[str, str] | None = None, secret_keys: tuple[str, ...] = (), **overrides: Any) -> LaunchPlan:
    plan = LaunchPlan(
        job_name=job_name, user=user, cluster="cw-us-east-02a", image="ghcr.io/example/gpu-rl@sha256:" + "0" * 64,
        num_nodes=nodes, gpus_per_node=8, total_gpus=8 * nodes,
        coscheduling={"group_by": "leafgroup"} if nodes > 1 else None,
        resources=Resources(cpu=48, memory="512GB", disk="512GB", device=Device("gpu", "H100", 8)),
        priority="interactive", max_retries=0, rendezvous_dir=None, skyrl_ref=None,
        entrypoint=tuple(command), runtime_argv=(), command=tuple(command), hydra_args=(),
        env=dict(env or {}), secret_env_keys=secret_keys, ports=("ray",), placement_groups=(), budget={},
        findings=(), mode="local", role="trainer", workspace=str(workspace), config_path="cfg.yaml",
        config_sha256="0" * 64, tags={"kind": "agentic-rl", "sandbox": "none", "series": job_name.split("-")[0]},
    )
    return replace(plan, **overrides) if overrides else plan


def irisrl_cli(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python -m irisrl ARGS` in a fresh process with ENV (text output captured)."""
    return subprocess.run([sys.executable, "-m", "irisrl", *args], env=env, capture_output=True, text=True,
                          timeout=timeout)
