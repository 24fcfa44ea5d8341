"""Following a job `launch` just submitted: a line per state transition and the task logs
with rank prefixes (masked like every saved trace), until the job ends. Ctrl-C detaches
(never kills) and says how to re-attach or kill; on launch's temporary local cluster it
says that the cluster and the job stop now (nothing is left to re-attach to). The poll loop is ops/watcher.JobWatcher."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irisrl.backends.base import Backend
from irisrl.ops.output import emit
from irisrl.ops.watcher import Finished, GaveUp, JobWatcher, LogLine, Polled, ReadFailed, Transition, Waiting, \
    transition_line
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.ledger.store import Ledger
    from irisrl.ops.summary import LaunchProgress
    from irisrl.plan.model import LaunchPlan

# A local gang is admitted in seconds; one still pending after this will not be (remote gangs
# may legitimately wait hours for admission: no such limit there).
LOCAL_PENDING_DEADLINE_S = 300.0


def follow(backend: Backend, job_id: str, plan: "LaunchPlan", ledger: "Ledger", interval: float, ephemeral: bool = False,
           deadline_s: float | None = None, progress: "LaunchProgress | None" = None,
           pending_deadline_s: float | None = None) -> int:
    """Follow until terminal (exit 0 succeeded, 1 otherwise), `deadline_s` or the pending
    deadline (exit 3), or Ctrl-C (130). `progress`: the launch summary's LaunchProgress."""
    from irisrl.ops.summary import plan_masker

    mask = plan_masker(plan)   # the same values the saved traces are masked with
    watcher = JobWatcher(backend, job_id, interval, logs=True, timeout_s=deadline_s,
                         pending_deadline_s=pending_deadline_s, pause=progress.poll_interval if progress else None)
    try:
        for event in watcher.events():
            if isinstance(event, Polled) and progress:
                progress.on_snapshot(event.snap)
            elif isinstance(event, Transition):
                emit(mask(transition_line(event.snap)))
            elif isinstance(event, LogLine):
                if progress:
                    progress.on_line(event.line)
                emit(mask(event.text))
            elif isinstance(event, Waiting) and progress:
                progress.idle()
            elif isinstance(event, ReadFailed):
                emit(f"{job_id} read failed ({event.failures}): {event.message}", err=True)
            elif isinstance(event, Finished):
                snap = backend.snapshot(job_id)  # per-task detail once: rank 0's exit code
                ledger.update_state(job_id, snap.state)
                emit(f"{job_id} finished: {snap.state} (rank 0 exit {snap.exit_code})")
                return Exit.OK if snap.state == "succeeded" else Exit.FAIL
            elif isinstance(event, GaveUp):
                _gave_up(job_id, event, deadline_s, pending_deadline_s)
                return Exit.UNKNOWN
        return Exit.UNKNOWN   # pragma: no cover - the watcher always ends with Finished or GaveUp
    except KeyboardInterrupt:
        if ephemeral:   # the cluster is this command's: nothing to re-attach to afterwards
            ledger.update_state(job_id, "killed")
            emit(f"\ninterrupted: {job_id} ran on this command's temporary local cluster; the cluster and the "
                 "job stop now.\nfor jobs that outlive the command: irisrl cluster up --local, then launch --local",
                 err=True)
            return int(Exit.INTERRUPTED)
        emit(f"\ndetached from {job_id}; it keeps running.", err=True)
        emit(f"re-attach: irisrl watch {job_id}\nkill:      irisrl kill {job_id} --yes", err=True)
        return int(Exit.INTERRUPTED)


def _gave_up(job_id: str, event: GaveUp, deadline_s: float | None, pending_deadline_s: float | None) -> None:
    if event.reason == "pending":
        said = event.snap.pending_reason if event.snap is not None else ""
        reason = " ".join(said.split()) or "no reason given"
        emit(f"{job_id} is still pending after {pending_deadline_s or event.after_s:.0f}s on the local cluster ({reason}); "
                   "not admitted", err=True)
        emit(f"it was left in place: irisrl status {job_id} / irisrl kill {job_id} --yes", err=True)
    elif event.reason == "timeout":
        state = event.snap.state if event.snap is not None else "unknown"
        emit(f"stopped following {job_id} after {deadline_s or event.after_s:.0f}s; it is still {state}", err=True)
    else:
        emit(f"stopped following {job_id}: its state could not be read; irisrl status {job_id}", err=True)
