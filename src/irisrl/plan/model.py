"""LaunchPlan: frozen data with everything resolved. `launch --dry-run` renders exactly this
object and `launch` submits exactly this object (submit = backend.submit(plan))."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from irisrl.config.masking import MASK, MIN_SECRET_LEN, mask_text, secret_values  # noqa: F401 - MASK, MIN_SECRET_LEN re-exported
from irisrl.config.placement import PlacementGroup  # noqa: F401 - defined with the PG derivation, re-exported
from irisrl.core.findings import Finding

Mode = Literal["remote", "local"]
Role = Literal["trainer", "rehearsal", "export"]   # export: ops/export.py's HF export job (sized like the saved policy)


@dataclass(frozen=True)
class Device:
    type: str = "gpu"
    variant: str = "H100"
    count: int = 8


@dataclass(frozen=True)
class Resources:
    cpu: float
    memory: str   # "512GB"
    disk: str     # "512GB"
    device: Device

    def to_dict(self) -> dict[str, Any]:
        return {"cpu": self.cpu, "memory": self.memory, "disk": self.disk,
                "device": {"type": self.device.type, "variant": self.device.variant, "count": self.device.count}}


@dataclass(frozen=True)
class LaunchPlan:
    job_name: str
    user: str
    cluster: str
    image: str
    num_nodes: int
    gpus_per_node: int
    total_gpus: int
    coscheduling: dict[str, str] | None        # {"group_by": "leafgroup"} when num_nodes > 1
    resources: Resources
    priority: str                              # production | interactive | batch
    max_retries: int
    rendezvous_dir: str | None
    skyrl_ref: str | None
    entrypoint: tuple[str, ...]                # full in-container argv
    runtime_argv: tuple[str, ...]              # the runtime controller's own arguments
    command: tuple[str, ...]                   # CMD the controller runs on rank 0 (trainer or rehearsal)
    hydra_args: tuple[str, ...]
    env: dict[str, str]                        # the pod env, secrets UNMASKED: never render directly
    secret_env_keys: tuple[str, ...]
    ports: tuple[str, ...]
    placement_groups: tuple[PlacementGroup, ...]
    budget: dict[str, Any]
    findings: tuple[Finding, ...]
    mode: Mode
    role: Role
    workspace: str
    config_path: str
    config_sha256: str
    series: str | None = None
    hparams_fingerprint: str = ""
    model_path: str | None = None
    train_data: tuple[str, ...] = ()
    trials_dir: str | None = None
    tags: dict[str, str] = field(default_factory=dict)  # kind, sandbox, series (also in env)
    # the launch flags as given that shape what runs and that `launch --resume` repeats
    # (plan/build.py:launch_flags); stored in the ledger row with the rest, secrets scrubbed
    launch_flags: dict[str, Any] = field(default_factory=dict)

    @property
    def job_id(self) -> str:
        return f"/{self.user}/{self.job_name}"

    @property
    def replicas(self) -> int:
        return self.num_nodes

    def masked_env(self) -> dict[str, str]:
        secret = set(self.secret_env_keys)
        return {k: (MASK if k in secret else v) for k, v in sorted(self.env.items())}

    def secret_values(self) -> tuple[str, ...]:
        """The secret env values (longest first) that must never appear in any rendering."""
        return secret_values(self.env.get(k) for k in self.secret_env_keys)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`launch --dry-run --json`, the ledger, health's --plan): secrets masked,
        and any secret value that also shows up elsewhere (an arg, a path) replaced by MASK."""
        scrubbed: dict[str, Any] = _scrub(self._unscrubbed_dict(), self.secret_values())
        return scrubbed

    def _unscrubbed_dict(self) -> dict[str, Any]:
        return {
            "ok": True,
            "job_id": self.job_id,
            "job_name": self.job_name,
            "user": self.user,
            "cluster": self.cluster,
            "image": self.image,
            "num_nodes": self.num_nodes,
            "gpus_per_node": self.gpus_per_node,
            "total_gpus": self.total_gpus,
            "replicas": self.replicas,
            "coscheduling": self.coscheduling,
            "resources": self.resources.to_dict(),
            "priority": self.priority,
            "max_retries": self.max_retries,
            "rendezvous_dir": self.rendezvous_dir,
            "skyrl_ref": self.skyrl_ref,
            "entrypoint": list(self.entrypoint),
            "runtime_argv": list(self.runtime_argv),
            "command": list(self.command),
            "hydra_args": list(self.hydra_args),
            "env": self.masked_env(),
            "secret_env_keys": sorted(self.secret_env_keys),
            "ports": list(self.ports),
            "placement_groups": [pg.to_dict() for pg in self.placement_groups],
            "budget": self.budget,
            "findings": [f.to_dict() for f in self.findings],
            "mode": self.mode,
            "role": self.role,
            "workspace": self.workspace,
            "config_path": self.config_path,
            "config_sha256": self.config_sha256,
            "series": self.series,
            "hparams_fingerprint": self.hparams_fingerprint,
            "model_path": self.model_path,
            "train_data": list(self.train_data),
            "trials_dir": self.trials_dir,
            "tags": dict(self.tags),
            "launch_flags": dict(self.launch_flags),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=False)


def _scrub(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        return mask_text(value, secrets)
    if isinstance(value, dict):
        return {k: _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, secrets) for v in value]
    return value
