"""Cluster profiles: the only place cluster-specific facts live (image digest and where it
comes from, storage root, per-node resources, RL prefix, node-local task dir, W&B routing,
bundle cap). The shipped profile cites the launcher line each default is read from."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from irisrl.util.errors import UsageError

DEFAULT_PROFILE = "cw-us-east-02a"
PROFILES_DIR = Path(__file__).resolve().parent.parent / "data" / "profiles"


@dataclass(frozen=True)
class ClusterProfile:
    name: str
    gpus_per_node: int
    gpu_variant: str
    cpu_cap: int
    memory: str
    disk: str
    storage_root: str
    legacy_stores: tuple[str, ...]
    image: str
    image_skyrl_commit: str
    rl_prefix: str
    skyrl_root: str
    workspace_mount: str
    egress: bool
    bundle_cap_bytes: int
    image_source: str = ""             # provenance of the digest (repo path @ commit)
    experiments_dir: str = "/app/experiments"
    task_root: str = "/opt/openthoughts/tasks"
    wandb_entity: str = ""
    wandb_project: str = ""
    node_hour_usd: dict[str, float] = field(default_factory=dict)   # GPU type -> on-demand $ per node-hour
    price_source: str = ""             # where and when that price was read

    @property
    def rl_lib(self) -> str:
        return f"{self.rl_prefix}/lib"


def load_profile(name_or_path: str = DEFAULT_PROFILE) -> ClusterProfile:
    """A shipped profile by name, or a TOML file by path (an existing file is read as given,
    whatever its suffix: issue 16, D18)."""
    path = Path(name_or_path)
    is_path = "/" in name_or_path or bool(path.suffix)   # shipped names have neither
    source = path if is_path else PROFILES_DIR / f"{name_or_path}.toml"
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        what = f"profile file {name_or_path!r}" if is_path else f"cluster profile {name_or_path!r}"
        raise UsageError(f"{what} not found or unreadable ({exc.__class__.__name__}: {exc})",
                         f"use a shipped profile ({', '.join(shipped_profiles())}) or the path of a TOML "
                         "profile file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"profile file {name_or_path!r} is not TOML ({exc})",
                         f"a profile is TOML: copy src/irisrl/data/profiles/{DEFAULT_PROFILE}.toml "
                         "and edit its values") from None
    data["legacy_stores"] = tuple(data.get("legacy_stores", ()))
    try:
        return ClusterProfile(**data)
    except TypeError as exc:  # missing or unknown keys in a user's profile file
        raise UsageError(f"cluster profile {name_or_path!r} does not have the expected keys ({exc})",
                         f"copy src/irisrl/data/profiles/{DEFAULT_PROFILE}.toml and edit its values") from None


def shipped_profiles() -> list[str]:
    """Names of the profiles shipped with irisrl (data/profiles/*.toml)."""
    return sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))
