"""Where irisrl keeps its own state (ledger, local-cluster records, policy)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

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


def probe_free_space(directory: Path, nbytes: int = 1 << 20) -> None:
    """Write `nbytes` to a probe file in `directory` (created if absent), sync and remove it:
    OSError (ENOSPC on a full disk, EACCES, ...) before a state write that must not fail
    halfway (issue 16, D11). A few milliseconds for the default MiB."""
    import tempfile

    directory.mkdir(parents=True, exist_ok=True)
    fd, probe = tempfile.mkstemp(prefix=".write-probe-", dir=directory)
    try:
        chunk = b"\0" * 65536
        for _ in range(max(1, nbytes // len(chunk))):
            os.write(fd, chunk)
        os.fsync(fd)
    finally:
        os.close(fd)
        os.unlink(probe)


def links_leaving(root: Path, files: Iterable[Path]) -> list[tuple[str, str]]:
    """(path relative to root, its target) of each of `files` that resolves outside `root`:
    a symlink the bundler would follow and ship as a regular file (issue 16, D2:
    `ln -s ~/.ssh/id_rsa WS/k` put the key in every task's workdir)."""
    base = root.resolve()
    out = []
    for path in files:
        target = path.resolve()
        if not target.is_relative_to(base):
            out.append((path.relative_to(root).as_posix(), str(target)))
    return out
