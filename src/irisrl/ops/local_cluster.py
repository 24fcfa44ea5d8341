"""The local Iris cluster a `launch --local` submits to: the one `cluster up --local` left
running, else a temporary one for the command's lifetime, stopped with every process of the
job when the command ends (ops/reap.py). A launch record (ops/orphans.py) lets a later
command reap what this one leaves if it is killed with -9."""

from __future__ import annotations

import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from irisrl.ops.orphans import TEMP_PREFIX, LaunchRecord, reap_orphans
from irisrl.ops.output import emit
from irisrl.util.errors import IrisrlError

if TYPE_CHECKING:
    from irisrl.plan.model import LaunchPlan


@contextmanager
def local_controller(no_wait: bool, plan: "LaunchPlan") -> Iterator[tuple[str, bool]]:
    """The local cluster's URL: the one `cluster up --local` started, else (not --no-wait) a
    temporary one for this command's lifetime, stopped (with its tasks) on any exit."""
    from irisrl.backends import local_cluster
    from irisrl.backends.iris_client import prefetch_sdk

    announce_reaped()   # what an earlier launch killed with -9 left behind
    state = local_cluster.running_state()
    if state is not None:
        if plan.num_nodes > state.nodes:
            raise IrisrlError(
                f"the local cluster at {state.url} has {state.nodes} fake node(s); {plan.job_id} needs a gang of "
                f"{plan.num_nodes} (it would stay pending forever)",
                f"irisrl cluster down --local && irisrl cluster up --local --nodes {plan.num_nodes}")
        yield state.url, False
        return
    if no_wait:
        raise IrisrlError("--local --no-wait needs a local cluster that outlives this command",
                          "start one first: irisrl cluster up --local")
    nodes = max(2, int(plan.num_nodes))
    with tempfile.TemporaryDirectory(prefix=TEMP_PREFIX) as tmp:
        record = LaunchRecord(plan.job_id, Path(tmp))   # for reap_orphans, should this command be killed
        try:
            emit(f"starting a temporary local cluster ({nodes} fake nodes) for this command...")
            res = plan.resources
            imports = prefetch_sdk()   # the SDK import overlaps Iris's own start-up (2 processes)
            state = local_cluster.spawn_controller(Path(tmp), nodes, plan.gpus_per_node, res.device.variant,
                                                   tie_to_parent=True, cpu=int(res.cpu), memory=res.memory,
                                                   disk=res.disk, on_spawn=record.spawned)
            record.controller(state.pid)
            imports.join(PREFETCH_JOIN_S)
            emit(f"temporary local cluster at {state.url} (pid {state.pid}); it stops when this command ends")
            try:
                yield state.url, True
            finally:
                with _sigint_deferred():   # a second Ctrl-C must not cut the teardown short
                    _teardown(plan.job_id, state.pid)
        finally:
            record.close()


def _teardown(job_id: str, controller_pid: int) -> None:
    from irisrl.backends import local_cluster
    from irisrl.ops.reap import job_sessions, reap_job_processes

    sessions = job_sessions(job_id)   # while the job's Ray nodes are still alive
    local_cluster.stop_process_group(controller_pid)
    reap_job_processes(job_id, sessions=sessions)   # Ray agents/workers that outlive their raylet


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Ignore SIGINT while the block runs (main thread only), then restore the handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def announce_reaped() -> None:
    """Reap what killed launches left (ops/orphans.py) and say so on stderr."""
    for reaped in reap_orphans():
        emit(reaped.line(), err=True)


PREFETCH_JOIN_S = 120.0
