"""What a killed `launch --local` leaves behind, and the reaping of it (issue 16 D9).

A `launch --local` that starts a temporary cluster writes a launch record,
$IRISRL_HOME/local-cluster/launches/<pid>.json: its own identity (pid, start time, command
line, boot id: core/procs.ProcessIdentity), the temporary controller's identity, the
temporary directory, the job id, and the sessions of the job's processes (each Ray node
runs in a session of its own; a recorder thread adds them as they appear, because Ray's
agents overwrite their environ and can only be found by session). The controller's own session
is recorded the moment it is spawned. A normal end, an error or Ctrl-C tears the cluster
down and removes the record. A kill -9 cannot: the controller
exits with its parent, but Ray's agents linger, the directory stays and the ledger row
stays `pending`.

`reap_orphans()` (run by `launch --local`, `cluster up|down --local` and `runs`) takes
each record whose launcher is gone (or is another process under a reused pid) and ends
what is still ours: the recorded controller while its identity matches, processes carrying
the job's IRISRL_JOB_ID, and members of the recorded sessions that started after the
launcher (same boot); then removes the directory and marks an active ledger row `lost`.
Never by name, never host-wide."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, TypedDict

from irisrl.core.procs import ProcessIdentity, boot_id, pid_alive, session_of, start_ticks
from irisrl.util.errors import IrisrlError

TEMP_PREFIX = "irisrl-local-"
RECORD_EVERY_S = 1.0


def records_dir() -> Path:
    from irisrl.backends.local_cluster import state_dir

    return state_dir() / "launches"


class RecordData(TypedDict):
    """A launch record's JSON (core/procs.ProcessIdentity.to_record() for the processes)."""
    job_id: str
    tmp_dir: str
    sessions: list[int]
    launcher: Mapping[str, object] | None
    controller: Mapping[str, object] | None


class LaunchRecord:
    """This command's record while its temporary cluster lives (see the module doc)."""

    def __init__(self, job_id: str, tmp_dir: Path) -> None:
        me = ProcessIdentity.of(os.getpid())
        self.enabled = me is not None    # no /proc (not Linux): nothing could verify the record
        self.path = records_dir() / f"{os.getpid()}.json"
        self.data = RecordData(job_id=job_id, tmp_dir=str(tmp_dir), sessions=[],
                               launcher=me.to_record() if me else None, controller=None)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._write()

    def _write(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.data, indent=2))
            os.replace(tmp, self.path)

    def spawned(self, pid: int) -> None:
        """The controller exists (in a session of its own: its pid) but may not run Iris yet."""
        self._add_sessions({pid})

    def _add_sessions(self, found: "set[int] | frozenset[int]") -> None:
        new = set(found) - set(self.data["sessions"])
        if new:
            self.data["sessions"] = sorted(set(self.data["sessions"]) | new)
            self._write()

    def controller(self, pid: int) -> None:
        ident = ProcessIdentity.of(pid)
        self.data["controller"] = ident.to_record() if ident else None
        self._write()
        if not self.enabled:
            return
        self._thread = threading.Thread(target=self._record_sessions, name="irisrl-launch-record", daemon=True)
        self._thread.start()

    def _record_sessions(self) -> None:
        from irisrl.ops.reap import job_sessions

        while not self._stop.wait(RECORD_EVERY_S):
            try:
                self._add_sessions(job_sessions(self.data["job_id"]))
            except OSError:
                continue

    def close(self) -> None:
        """The cluster was torn down: nothing of this launch is left to reap."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class Reaped:
    job_id: str
    launcher_pid: int
    processes: list[int]
    removed_dir: str | None
    marked_lost: bool

    def line(self) -> str:
        parts = [f"{len(self.processes)} leftover process(es) stopped"]
        if self.removed_dir:
            parts.append(f"removed {self.removed_dir}")
        if self.marked_lost:
            parts.append("ledger row marked lost")
        return (f"cleaned up after an interrupted launch --local of {self.job_id} (pid {self.launcher_pid} "
                f"is gone): " + ", ".join(parts))


def reap_orphans() -> list[Reaped]:
    """Reap every launch record whose launcher is gone (see the module doc)."""
    directory = records_dir()
    if not directory.is_dir():
        return []
    reaped = []
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text())
            job_id = str(data["job_id"])
        except (OSError, ValueError, KeyError, TypeError):
            continue   # being written, or not ours to judge
        launcher = ProcessIdentity.from_record(data.get("launcher") or {})
        if launcher is None or launcher.check() == "ours":
            continue   # that launch still runs (or the record cannot tell: never guess)
        reaped.append(_reap(path, data, job_id, launcher))
    return reaped


def _reap(path: Path, data: RecordData, job_id: str, launcher: ProcessIdentity) -> Reaped:
    from irisrl.backends.local_cluster import stop_process_group
    from irisrl.ops.reap import reap_job_processes

    controller = ProcessIdentity.from_record(data.get("controller") or {})
    if controller is not None and controller.check() == "ours":
        stop_process_group(controller.pid, timeout=10.0)
    ended = reap_job_processes(job_id, sessions=_our_sessions(data, launcher), deadline_s=10.0)
    removed = _remove_temp_dir(str(data.get("tmp_dir") or ""))
    lost = _mark_lost(job_id)
    path.unlink(missing_ok=True)
    return Reaped(job_id, launcher.pid, ended, removed, lost)


def _our_sessions(data: RecordData, launcher: ProcessIdentity) -> frozenset[int]:
    """Recorded sessions that can still only be ours: same boot, and every live member
    started after the launcher did (a later clock tick: 10 ms) (a session id reused later would show a younger leader
    whose start time we never saw: such a session is skipped whole)."""
    if launcher.boot_id != boot_id():
        return frozenset()
    sessions = {int(s) for s in data.get("sessions") or [] if isinstance(s, int) and s > 1}
    if not sessions:
        return frozenset()
    members: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (sid := session_of(int(entry))) in sessions and pid_alive(int(entry)):
            members.setdefault(sid, []).append(int(entry))
    return frozenset(sid for sid, pids in members.items()
                     if all((start_ticks(p) or 0) > launcher.start_ticks for p in pids))


def _remove_temp_dir(tmp_dir: str) -> str | None:
    """The temporary cluster's directory: only one irisrl named, directly under the temp dir."""
    path = Path(tmp_dir)
    if not path.name.startswith(TEMP_PREFIX) or path.parent != Path(tempfile.gettempdir()) or not path.is_dir() \
            or path.is_symlink():
        return None
    shutil.rmtree(path, ignore_errors=True)
    return str(path)


def _mark_lost(job_id: str) -> bool:
    from irisrl.core.states import ACTIVE, LOST
    from irisrl.ledger.store import Ledger

    ledger = Ledger()
    if not ledger.path.is_file():
        return False
    try:
        row = ledger.latest(job_id)
        if row is None or (row.get("last_state") or "pending") not in ACTIVE:
            return False
        ledger.update_state(job_id, LOST)
    except (sqlite3.Error, OSError, IrisrlError):   # an unreadable ledger is reported by whoever reads it
        return False
    return True

