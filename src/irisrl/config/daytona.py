"""Daytona snapshot hygiene: the rules, and which key it uses (ops/daytona.py applies them).

The rules are MarinSkyRL's (cloud/iris/iris_backend.py `_purge_stale_daytona_snapshots` @
52e94bfc; cloud/iris/tests/test_daytona_snapshot_purge.py @ 7ac7d0e0): the RL Daytona org
has a hard 40-snapshot quota and Harbor mints one `harbor__*` snapshot per trial; over the
quota every trial dies unscored and the job trains on all-zero rewards. So before a launch:
delete only snapshots whose name starts with `harbor__` and that have been idle (since
`last_used_at`, else `created_at`) for more than 2 hours; never anything else.

The key: DAYTONA_RL_API_KEY (the secrets file wins over the environment, as for every secret
irisrl reads). A generic DAYTONA_API_KEY alone is NOT used for the purge: MarinSkyRL's launcher
refuses it since cloud/iris/tests/test_daytona_credentials.py @ c96f6d25 (the purge deletes
across a whole org, and only the RL key names the dedicated RL org); the hygiene is then
skipped, and says so. When DAYTONA_RL_API_KEY is set, the pod's DAYTONA_API_KEY is that key
(config/secrets.py), as MarinSkyRL exposes the resolved RL key under the name Daytona and
Harbor read: the purge and the run's sandboxes are on the same org.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Mapping

from irisrl.config.secrets import DAYTONA_KEY, DAYTONA_RL_KEY, collect_secrets

HARBOR_PREFIX = "harbor__"
STALE_AFTER = datetime.timedelta(hours=2)
SNAPSHOT_QUOTA = 40          # the RL org's hard quota (MarinSkyRL DAYTONA_RL_SNAPSHOT_QUOTA)
RL_KEY = DAYTONA_RL_KEY
GENERIC_KEY = DAYTONA_KEY
API_URL = "DAYTONA_API_URL"  # honoured by the SDK; tests point it at a loopback server


def is_harbor(name: str) -> bool:
    return name.startswith(HARBOR_PREFIX)


def last_active(last_used_at: datetime.datetime | None, created_at: datetime.datetime) -> datetime.datetime:
    """When the snapshot was last used; never used: when it was created."""
    return last_used_at or created_at


def is_stale(name: str, last_used_at: datetime.datetime | None, created_at: datetime.datetime,
             now: datetime.datetime) -> bool:
    """A purge candidate: Harbor-made and idle for longer than STALE_AFTER."""
    return is_harbor(name) and now - last_active(last_used_at, created_at) > STALE_AFTER


@dataclass(frozen=True)
class DaytonaKey:
    value: str = field(repr=False)    # never printed
    source: str                       # "environment" or the secrets file's path
    api_url: str | None = None        # DAYTONA_API_URL, as the pod gets it (None: the SDK's default)


def resolve_rl_key(secrets_env: str | None = None, environ: Mapping[str, str] | None = None) -> DaytonaKey | None:
    """DAYTONA_RL_API_KEY (and DAYTONA_API_URL) from the environment or the secrets file (the
    file wins, as for the pod), else None: a generic DAYTONA_API_KEY alone is not used."""
    found = collect_secrets((RL_KEY, API_URL), secrets_env, environ)
    value = found.values.get(RL_KEY)
    return DaytonaKey(value, found.sources[RL_KEY], found.values.get(API_URL) or None) if value else None


def hygiene_intent(local: bool) -> str:
    """What a launch of a Daytona-backed run does about snapshots (the dry run shows it)."""
    if local:
        return "snapshots left alone: a --local launch does not purge (irisrl daytona snapshots does)"
    hours = STALE_AFTER.total_seconds() / 3600
    return (f"before submit, purge {HARBOR_PREFIX}* snapshots idle > {hours:g} h on the {RL_KEY} org "
            f"(quota {SNAPSHOT_QUOTA}); not on this dry run; skipped without the key or the SDK")
