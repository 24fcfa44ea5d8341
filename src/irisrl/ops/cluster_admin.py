"""`irisrl cluster up|status|down --local`'s engine: irisrl's own persistent local Iris
cluster (backends/local_cluster.py: loopback only, fake whole nodes). irisrl never stops or
restarts a remote cluster, so there is nothing here for one. Each call first reaps what a
launch killed with -9 left (ops/local_cluster.announce_reaped)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from irisrl.config.profile import DEFAULT_PROFILE

if TYPE_CHECKING:
    from irisrl.backends.local_cluster import LocalClusterState, Stopped


@dataclass(frozen=True)
class ClusterUp:
    state: "LocalClusterState"
    gpu_variant: str
    seconds: float      # how long the start took
    state_dir: str


class ClusterStatus(TypedDict):
    """`cluster status --json`. process: ours | unverifiable | other | gone (None: no record)."""
    up: bool
    url: str | None
    pid: int | None
    nodes: int | None
    gpus_per_node: int | None
    uptime_s: float | None
    state_dir: str
    recorded: bool
    process: str | None


def cluster_up(nodes: int = 2, gpus_per_node: int | None = None, profile: str = DEFAULT_PROFILE) -> ClusterUp:
    """Start the persistent local controller in the background, its fake nodes shaped like the
    profile's (GPUs per node, variant, CPU, memory, disk)."""
    from irisrl.backends import local_cluster
    from irisrl.config.profile import load_profile
    from irisrl.ops.local_cluster import announce_reaped

    announce_reaped()
    prof = load_profile(profile)
    t0 = time.monotonic()
    state = local_cluster.start(nodes, gpus_per_node or prof.gpus_per_node, prof.gpu_variant,
                                cpu=prof.cpu_cap, memory=prof.memory, disk=prof.disk)
    return ClusterUp(state, prof.gpu_variant, time.monotonic() - t0, str(local_cluster.state_dir()))


def cluster_status() -> ClusterStatus:
    """The recorded local cluster: whether its controller is still ours and answers."""
    from irisrl.backends import local_cluster

    state = local_cluster.read_state()
    ownership = state.ownership() if state else "gone"
    listening = bool(state and ownership in ("ours", "unverifiable") and local_cluster.is_listening(state.url))
    return {"up": listening, "url": state.url if state else None, "pid": state.pid if state else None,
            "nodes": state.nodes if state else None, "gpus_per_node": state.gpus_per_node if state else None,
            "uptime_s": round(time.time() - state.started_at, 1) if state and listening else None,
            "state_dir": str(local_cluster.state_dir()), "recorded": state is not None,
            "process": ownership if state else None}


def cluster_down() -> "Stopped | None":
    """Stop the recorded controller (only while its pid still runs it); None: no record."""
    from irisrl.backends import local_cluster
    from irisrl.ops.local_cluster import announce_reaped

    announce_reaped()   # what launches killed with -9 left (their temporary clusters)
    return local_cluster.stop()
