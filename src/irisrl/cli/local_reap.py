"""After a temporary local cluster stops: end every process that still carries this launch's
job id in its environment (IRISRL_JOB_ID, set by the plan, inherited by the task's controller,
`ray start`, raylet, GCS and Ray's agents and workers).

Why: stopping the cluster SIGKILLs the task's controller; PDEATHSIG takes `ray start` and its
reaper takes the raylet, but Ray's dashboard agent, runtime-env agent and idle workers can
outlive it for a while (seen after Ctrl-C). Matched by exact environ entry, so only processes
this launch started are touched; never by name, never host-wide."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from irisrl.runtime.contract import ENV_JOB_ID


def job_processes(job_id: str, proc: Path = Path("/proc")) -> list[int]:
    """PIDs whose environment has exactly `IRISRL_JOB_ID=<job_id>` (unreadable ones skipped)."""
    entry = f"{ENV_JOB_ID}={job_id}".encode()
    found = []
    for pid_dir in proc.iterdir():
        if not pid_dir.name.isdigit() or int(pid_dir.name) == os.getpid():
            continue
        try:
            environ = (pid_dir / "environ").read_bytes()
        except OSError:
            continue        # gone, or another user's
        if entry in environ.split(b"\0") and _running(int(pid_dir.name)):   # zombies are done
            found.append(int(pid_dir.name))
    return found


def reap_job_processes(job_id: str, grace_s: float = 3.0, settle_s: float = 1.0,
                       deadline_s: float = 20.0) -> list[int]:
    """End every process of this job (SIGTERM, SIGKILL after `grace_s`), scanning again until
    none has appeared for `settle_s` (a raylet being killed may still have spawned an agent);
    bounded by `deadline_s`. Returns the PIDs it ended.

    A first scan that finds none ends it at once (the normal end of a launch): every process
    of the job carries the id, so with none alive none is left to start another."""
    ended: set[int] = set()
    end = time.monotonic() + deadline_s
    quiet_since: float | None = None
    while time.monotonic() < end:
        pids = job_processes(job_id)
        if pids:
            quiet_since = None
            _terminate(pids, grace_s)
            ended.update(pids)
            continue
        if not ended:
            break
        quiet_since = quiet_since or time.monotonic()
        if time.monotonic() - quiet_since >= settle_s:
            break
        time.sleep(0.1)
    return sorted(ended)


def _terminate(pids: list[int], grace_s: float) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + grace_s
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if _running(p)]
            if pids:
                time.sleep(0.1)
        if not pids:
            return


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
