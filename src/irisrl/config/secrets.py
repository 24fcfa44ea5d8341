"""Secrets forwarded into the pod: an allowlist of names, read from the launcher's
environment and from a dotenv file (`--secrets-env FILE`, default $DC_AGENT_SECRET_ENV).

The file is parsed, never sourced: `KEY=VALUE` lines, optional `export `, matching outer
quotes stripped, no `$VAR` expansion, `#` comments. AWS_*/R2_* are never forwarded, whatever
the allowlist says: the cluster injects its own object-store credentials and these clobber
them. Values are secret: the plan lists their keys and every rendering masks them.

DAYTONA_RL_API_KEY (the RL org's Daytona key), when found, is also the pod's DAYTONA_API_KEY:
MarinSkyRL's launcher exposes the resolved RL key under the name Daytona and Harbor read
(cloud/iris/iris_backend.py `_resolve_daytona_rl_api_key` and its caller @ c96f6d25), so the
run's sandboxes are on the org whose snapshots the launch keeps under quota (config/daytona.py).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from irisrl.config.extra_env_keys import is_cloud_cred_key
from irisrl.util.errors import UndeterminedError

DEFAULT_ALLOWLIST: tuple[str, ...] = (
    "HF_TOKEN", "WANDB_API_KEY", "WANDB_ENTITY", "WANDB_PROJECT",
    "DAYTONA_API_KEY", "DAYTONA_API_URL", "DAYTONA_ORGANIZATION_ID", "DAYTONA_RL_API_KEY",
)
DAYTONA_KEY = "DAYTONA_API_KEY"          # what Daytona's SDK and Harbor read in the pod
DAYTONA_RL_KEY = "DAYTONA_RL_API_KEY"    # the RL org's key: wins for DAYTONA_API_KEY
ENV_SECRETS_FILE = "DC_AGENT_SECRET_ENV"           # the runbook's secrets file variable
ENV_EXTRA_ALLOWLIST = "IRISRL_SECRETS_ALLOWLIST"   # comma-separated names added to the allowlist

_LINE_RE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


@dataclass(frozen=True)
class Secrets:
    values: dict[str, str] = field(default_factory=dict)   # name -> value (never print)
    sources: dict[str, str] = field(default_factory=dict)  # name -> "environment" | file path
    file: str | None = None
    shadowed: tuple[str, ...] = ()   # values replaced by another (a generic Daytona key): still masked

    def has(self, name: str) -> bool:
        return bool(self.values.get(name))


def allowlist(extra: tuple[str, ...] = (), environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The default names, plus `extra`, plus $IRISRL_SECRETS_ALLOWLIST; never AWS_*/R2_*."""
    environ = os.environ if environ is None else environ
    added = tuple(n.strip() for n in environ.get(ENV_EXTRA_ALLOWLIST, "").split(",") if n.strip())
    names = dict.fromkeys(DEFAULT_ALLOWLIST + tuple(extra) + added)
    return tuple(n for n in names if not is_cloud_cred_key(n))


def parse_dotenv(text: str) -> dict[str, str]:
    """KEY=VALUE lines; `export ` allowed; outer quotes stripped; nothing expanded."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE_RE.match(line)
        if match:
            values[match.group(1)] = _unquote(match.group(2))
    return values


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if value and value[0] in "'\"":
        closing = value.find(value[0], 1)
        if closing > 0:  # a quoted value followed by a comment
            return value[1:closing]
    comment = re.search(r"\s#", value)
    return value[:comment.start()].rstrip() if comment else value


def read_secrets_file(path: str) -> dict[str, str]:
    try:
        return parse_dotenv(Path(path).expanduser().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UndeterminedError(f"secrets file {path!r} is unreadable ({exc.__class__.__name__})",
                         "pass --secrets-env with a readable dotenv file, or unset DC_AGENT_SECRET_ENV") from None


def secrets_file_path(explicit: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    environ = os.environ if environ is None else environ
    return explicit or environ.get(ENV_SECRETS_FILE) or None


def collect_secrets(names: tuple[str, ...], secrets_env: str | None = None,
                    environ: Mapping[str, str] | None = None) -> Secrets:
    """Allowlisted values from the environment, then the secrets file (the file wins:
    it is what the operator named for this launch)."""
    environ = os.environ if environ is None else environ
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    for name in names:
        if environ.get(name):
            values[name], sources[name] = environ[name], "environment"
    path = secrets_file_path(secrets_env, environ)
    if path:
        for name, value in read_secrets_file(path).items():
            if name in names and value:
                values[name], sources[name] = value, path
    shadowed: tuple[str, ...] = ()
    if values.get(DAYTONA_RL_KEY) and DAYTONA_KEY in names:
        if values.get(DAYTONA_KEY) and values[DAYTONA_KEY] != values[DAYTONA_RL_KEY]:
            shadowed = (values[DAYTONA_KEY],)
        values[DAYTONA_KEY] = values[DAYTONA_RL_KEY]
        sources[DAYTONA_KEY] = f"{DAYTONA_RL_KEY} ({sources[DAYTONA_RL_KEY]})"
    return Secrets(values, sources, path, shadowed)
