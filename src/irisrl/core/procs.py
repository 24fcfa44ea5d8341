"""Process liveness on this host, read from /proc (Linux): the one place irisrl checks
whether a pid still runs, on the operator's machine and in the container (stdlib only: it
ships with the runtime, backends/bundle.py:SHIPPED_CORE)."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name (which may hold spaces and parentheses):
    [state, ppid, pgrp, session, ...]; None when the process is gone or unreadable."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def pid_alive(pid: int) -> bool:
    """Running and not a zombie (exited, not yet reaped); gone from /proc means dead."""
    fields = _stat_fields(pid)
    return fields is not None and len(fields) > 0 and fields[0] != "Z"


def session_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    try:
        return int(fields[3]) if fields else None
    except (IndexError, ValueError):
        return None


def start_ticks(pid: int) -> int | None:
    """When `pid` started, in clock ticks since boot (/proc/<pid>/stat field 22): with the
    boot id, what tells a process from a later one that reuses its pid."""
    fields = _stat_fields(pid)
    try:
        return int(fields[19]) if fields else None
    except (IndexError, ValueError):
        return None


def boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def cmdline(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return [part.decode(errors="replace") for part in raw.split(b"\0")[:-1]] if raw else None


@dataclass(frozen=True)
class ProcessIdentity:
    """Who a pid was when irisrl recorded it: command line, start time and boot (a pid alone
    may name another process after a restart or a reboot)."""
    pid: int
    start_ticks: int
    cmdline: tuple[str, ...]
    boot_id: str

    @classmethod
    def of(cls, pid: int) -> "ProcessIdentity | None":
        """The live process `pid` now (None when it is gone or unreadable)."""
        ticks, argv = start_ticks(pid), cmdline(pid)
        if ticks is None or argv is None or not pid_alive(pid):
            return None
        return cls(pid, ticks, tuple(argv), boot_id())

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> "ProcessIdentity | None":
        """From to_record()'s fields; None when they are missing (a record older than them)."""
        try:
            return cls(int(data["pid"]), int(data["start_ticks"]), tuple(str(a) for a in data["cmdline"]),
                       str(data["boot_id"]))
        except (KeyError, TypeError, ValueError):
            return None

    def to_record(self) -> dict[str, Any]:
        return {"pid": self.pid, "start_ticks": self.start_ticks, "cmdline": list(self.cmdline),
                "boot_id": self.boot_id}

    def check(self) -> str:
        """"ours": the same process still runs; "gone": that pid runs nothing (or a zombie);
        "other": the pid now belongs to another process (restart, reboot)."""
        now = ProcessIdentity.of(self.pid)
        if now is None:
            return "gone"
        return "ours" if now == self else "other"


def reap_child(pid: int) -> None:
    """Collect `pid`'s exit status if it is our own child (so it stops being a zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def terminate(pids: Iterable[int], grace_s: float) -> None:
    """SIGTERM every pid, SIGKILL what still runs after `grace_s`; bounded by 2 x grace_s."""
    alive = list(pids)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in alive:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + grace_s
        while alive and time.monotonic() < deadline:
            alive = [p for p in alive if pid_alive(p)]
            if alive:
                time.sleep(0.1)
        if not alive:
            return
