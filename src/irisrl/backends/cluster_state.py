"""Read a live controller into a fit.ClusterState: what Iris's scheduler sees.

Round trips (IrisBackend counts them): ListWorkers (totals, attributes, health, the task
ids each worker holds), one GetJobStatus per job holding a worker (its per-task resources
and start time: ListJobs leaves `resources` empty, seen on marin-iris 0.2.20.dev202606180959),
GetAutoscalerStatus (scale groups that can still add a slice): 2 + J calls. Held resources are summed per worker from the holding
jobs' resource specs, the way the scheduler derives them (iris/cluster/controller/reads.py
`resource_usage_by_worker`: every unfinished, worker-bound attempt holds its job's request).

A cluster whose controller has no worker daemons (KubernetesProvider, e.g. cw-us-east-02a:
"there are no worker daemons and no Iris autoscaler", marin-community/marin
lib/iris/config/cw-us-east-02a.yaml @ 004f4a559daf) lists no workers: the state says
provider="kubernetes" and fit answers "unknown" instead of guessing."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from irisrl.backends.fit import ClusterState, Holder, Node, ScaleGroup, now_ms

if TYPE_CHECKING:   # the SDK is untyped: these names are its own protobuf classes
    from iris.rpc.job_pb2 import JobStatus, ResourceSpecProto
    from iris.rpc.vm_pb2 import ScaleGroupStatus, WorkerHealthStatus, WorkerMetadata

    from iris.rpc.vm_pb2 import AutoscalerStatus

    from irisrl.backends.base import Backend
    from irisrl.backends.k8s_state import Runner


class ControllerReads(Protocol):
    """The raw controller reads `fit` needs (backends/iris_client.IrisBackend's)."""
    where: str
    calls: int

    def list_workers(self) -> "list[WorkerHealthStatus]": ...

    def job_status(self, job_id: str) -> "JobStatus | None": ...

    def autoscaler_status(self) -> "AutoscalerStatus": ...

# Scale-group availability values that still scale up (vm.proto ScaleGroupStatus).
SCALABLE = ("", "available", "requesting")
# A local slice's workers report this memory whatever the scale group declares (marin-iris
# 0.2.20.dev202606180959 iris/cluster/backends/gcp/fake.py: the local HardwareProbe's
# memory_bytes=1000 * 1024**3; CPU and GPUs do follow the group).
LOCAL_WORKER_MEMORY = 1000 * 1024**3
_DEVICE_TYPES = {0: "cpu", 1: "cpu", 2: "gpu", 3: "tpu"}   # config.proto AcceleratorType


def read_cluster_state(backend: ControllerReads) -> ClusterState:
    """One consistent-enough read of the cluster behind `backend` (an IrisBackend)."""
    start = backend.calls
    workers = backend.list_workers()
    holding = _holding_jobs(workers)
    statuses = {job_id: status for job_id in sorted(holding) if (status := backend.job_status(job_id)) is not None}
    groups = backend.autoscaler_status().groups
    nodes = tuple(_node(w, statuses) for w in workers)
    jobs = {job_id: _holder(job_id, statuses.get(job_id), holding[job_id]) for job_id in holding}
    scale = tuple(_scale_group(g) for g in groups)
    provider = "workers" if nodes or scale else "kubernetes"
    return ClusterState(nodes=nodes, scale_groups=scale, jobs=jobs, source=backend.where, read_at_ms=now_ms(),
                        rpcs=backend.calls - start, provider=provider)


def job_of_task(task_id: str) -> str:
    """/alice/rl/0 (or /alice/rl/0:1 on a retry) -> /alice/rl."""
    return task_id.split(":", 1)[0].rsplit("/", 1)[0]


def _holding_jobs(workers: "list[WorkerHealthStatus]") -> dict[str, int]:
    """job id -> how many workers hold one of its tasks."""
    counts: dict[str, int] = {}
    for worker in workers:
        for job_id in {job_of_task(t) for t in worker.running_job_ids}:
            counts[job_id] = counts.get(job_id, 0) + 1
    return counts


def _attributes(metadata: "WorkerMetadata") -> dict[str, str]:
    out = {}
    for key, value in metadata.attributes.items():
        which = value.WhichOneof("value")
        out[key] = "" if which is None else str(getattr(value, which))
    return out


def _node(worker: "WorkerHealthStatus", statuses: "dict[str, JobStatus]") -> Node:
    md = worker.metadata
    attrs = _attributes(md)
    gpu = md.device.gpu if md.device.WhichOneof("device") == "gpu" else None
    held = [statuses[job_of_task(t)].resources for t in worker.running_job_ids if job_of_task(t) in statuses]
    return Node(
        id=worker.worker_id, cpu_m=int(md.cpu_count) * 1000, memory=int(md.memory_bytes), disk=int(md.disk_bytes),
        gpus=int(gpu.count if gpu is not None else md.gpu_count),
        device_type=attrs.get("device-type") or (md.device.WhichOneof("device") or "cpu"),
        device_variant=attrs.get("device-variant") or (gpu.variant if gpu is not None else ""),
        attributes=attrs, healthy=bool(worker.healthy),
        held_cpu_m=sum(int(r.cpu_millicores) for r in held), held_memory=sum(int(r.memory_bytes) for r in held),
        held_gpus=sum(_gpu_count(r) for r in held),
        holders=tuple(sorted({job_of_task(t) for t in worker.running_job_ids})))


def _gpu_count(resources: "ResourceSpecProto") -> int:
    return int(resources.device.gpu.count) if resources.device.WhichOneof("device") == "gpu" else 0


def _holder(job_id: str, status: "JobStatus | None", nodes: int) -> Holder:
    if status is None:
        return Holder(job_id, "unknown", None, nodes)
    from irisrl.core.states import job_state_name

    started = int(status.started_at.epoch_ms) or int(status.submitted_at.epoch_ms) or None
    return Holder(job_id, job_state_name(status.state), started, nodes)


def _scale_group(group: "ScaleGroupStatus") -> ScaleGroup:
    cfg = group.config
    res = cfg.resources
    device_type = _DEVICE_TYPES.get(int(res.device_type), "cpu")
    attrs = {"device-type": device_type, **dict(cfg.worker.attributes)}
    if res.device_variant:
        attrs["device-variant"] = res.device_variant.lower()
    local = cfg.slice_template.WhichOneof("platform") == "local"
    memory = LOCAL_WORKER_MEMORY if local else int(res.memory_bytes)
    template = Node(id=f"{group.name}/new", cpu_m=int(res.cpu_millicores), memory=memory,
                    disk=int(res.disk_bytes), gpus=int(res.device_count) if device_type == "gpu" else 0,
                    device_type=device_type, device_variant=res.device_variant.lower(), attributes=attrs)
    live = sum(1 for s in group.slices if s.state != "failed")
    return ScaleGroup(group.name, int(cfg.num_vms) or 1, max(0, int(cfg.max_slices) - live), template,
                      available=group.availability_status in SCALABLE)


def read_state(backend: "Backend", run: "Runner | None" = None) -> ClusterState:
    """The controller's view; on a cluster without worker daemons, Kubernetes' (backends/
    k8s_state.py) when kubectl can reach it: through the cluster config's kubeconfig/context
    (a --cluster-config target), or $KUBECONFIG's current context. Else the "unknown" state."""
    import os

    state = backend.read_cluster()
    if state.provider != "kubernetes" or state.nodes:
        return state
    from irisrl.backends.k8s_state import evictable_namespaces, kubectl_argv, read_k8s_state

    config = backend.where if backend.kind == "config" else None
    argv = kubectl_argv(config) if (config or os.environ.get("KUBECONFIG")) else None
    if argv is None:
        return state
    source = f"{backend.where} via {' '.join(argv)}"
    evictable = evictable_namespaces(config)
    k8s = read_k8s_state(argv, source, run, evictable) if run else read_k8s_state(argv, source, evictable=evictable)
    return replace(k8s, rpcs=state.rpcs)
