"""Where irisrl keeps its own state (ledger, local-cluster records, policy)."""

from __future__ import annotations

import os
from pathlib import Path


def irisrl_home() -> Path:
    """$IRISRL_HOME, default ~/.local/state/irisrl (created on first use by writers)."""
    env = os.environ.get("IRISRL_HOME")
    return Path(env).expanduser() if env else Path.home() / ".local" / "state" / "irisrl"
