"""Where irisrl keeps its own state (ledger, local-cluster records, policy)."""

from __future__ import annotations

import os
from pathlib import Path

from irisrl.util.errors import UsageError


def irisrl_home() -> Path:
    """$IRISRL_HOME, default ~/.local/state/irisrl (created on first use by writers). A path
    that is (or lies under) something other than a directory is a usage error (issue 16, D16)."""
    env = os.environ.get("IRISRL_HOME")
    home = Path(env).expanduser() if env else Path.home() / ".local" / "state" / "irisrl"
    _check_dir_or_absent(home)
    return home


def _check_dir_or_absent(home: Path) -> None:
    """The nearest existing one of `home` and its parents must be a directory."""
    for path in (home, *home.parents):
        if path.exists():
            if not path.is_dir():
                where = "" if path == home else f" ({path} is a file)"
                raise UsageError(f"the state directory {home} is not a directory{where}",
                                 "point $IRISRL_HOME at a directory (or unset it for ~/.local/state/irisrl)")
            return
