"""A fit.ClusterState from Kubernetes, for clusters whose Iris controller has no workers.

On a KubernetesProvider cluster (cw-us-east-02a) Kueue admits gangs, and Iris itself derives
capacity as "node allocatable minus running pod resource requests, queried via kubectl"
(iris/cluster/backends/k8s/tasks.py K8sTaskProvider, marin-iris 0.2.20.dev202606180959).
This reader does the same with two read-only calls: `kubectl get nodes -o json` and
`kubectl get pods --all-namespaces -o json` (pods bound to a node and not finished).

- a node counts when Ready and not cordoned; its leafgroup is the CoreWeave label
  `backend.coreweave.cloud/leafgroup` (iris/cluster/backends/k8s/coreweave_topology.py);
- held = the effective requests of its pods (max of the containers' sum and any one init
  container), for cpu, memory and nvidia.com/gpu; a pod requesting GPUs is named as a holder
  (its `iris.job_id` label, else namespace/name), daemon pods only count in the sums;
- the Iris device variant is not a node selector on Kubernetes (only pool/region map to
  labels, `_CONSTRAINT_KEY_TO_NODE_LABEL`), so nodes carry no variant and match any;
- `leafgroup` is a preferred Kueue topology level by default there (`_CW_DEFAULT_TOPOLOGIES`),
  so the state says grouping="preferred".

GPU pods Iris evicts for gang work are not counted as held: in the cluster config's
`kubernetes_provider.preempt_namespaces` (not Iris's own namespace), with a negative
priority and a GPU request (K8sTaskProvider._evict_preemptible_blockers / _is_preemptible_blocker;
cw-us-east-02a lists cw-hpc-verification, CoreWeave's node-health-check pods).

Kueue quota, taints other than Iris's own tolerations, and the preemption of lower-priority
pods are not modelled (the report notes it). Every kubectl call has a deadline."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Callable

from irisrl.backends.fit import ClusterState, Holder, Node, now_ms
from irisrl.util.errors import UndeterminedError

LEAFGROUP_LABEL = "backend.coreweave.cloud/leafgroup"
GPU = "nvidia.com/gpu"
KUBECTL_TIMEOUT_S = 60.0
Runner = Callable[[list[str]], str]
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}
_DECIMAL = {"k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}


def quantity(text: object, milli: bool = False) -> int:
    """A Kubernetes quantity ("127500m", "2113533056Ki", "8", "1.5Gi") as an int (x1000 when
    `milli`, for CPU in millicores)."""
    s = str(text or "0").strip()
    scale = 1000 if milli else 1
    if s.endswith("m"):
        return int(float(s[:-1]) * scale / 1000)
    for suffix, mult in {**_BINARY, **_DECIMAL}.items():
        if s.endswith(suffix):
            return int(float(s[: -len(suffix)]) * mult * scale)
    return int(float(s) * scale)


def kubectl_argv(cluster_config: str | None) -> list[str] | None:
    """`kubectl` plus the cluster config's --kubeconfig/--context (platform.coreweave), or None
    when kubectl is not installed."""
    if shutil.which("kubectl") is None:
        return None
    argv = ["kubectl"]
    platform = _coreweave_platform(cluster_config) if cluster_config else {}
    if platform.get("kubeconfig_path"):
        argv += ["--kubeconfig", str(Path(str(platform["kubeconfig_path"])).expanduser())]
    if platform.get("kube_context"):
        argv += ["--context", str(platform["kube_context"])]
    return argv


def evictable_namespaces(cluster_config: str | None) -> frozenset[str]:
    """`kubernetes_provider.preempt_namespaces` less Iris's own namespace (never evicted)."""
    from irisrl.config.storage_root import read_cluster_yaml

    provider = read_cluster_yaml(cluster_config).get("kubernetes_provider") if cluster_config else None
    if not isinstance(provider, dict) or not isinstance(provider.get("preempt_namespaces"), list):
        return frozenset()
    return frozenset(str(n) for n in provider["preempt_namespaces"]) - {str(provider.get("namespace", "iris"))}


def _coreweave_platform(path: str) -> "Json":
    from irisrl.config.storage_root import read_cluster_yaml

    platform = read_cluster_yaml(path).get("platform")
    coreweave = platform.get("coreweave") if isinstance(platform, dict) else None
    return _obj(coreweave)


def _run(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=KUBECTL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise UndeterminedError(f"{' '.join(argv[:4])} ... did not answer within {KUBECTL_TIMEOUT_S:.0f}s",
                                "check the Kubernetes context (kubectl get nodes) and retry") from None
    if done.returncode != 0:
        raise UndeterminedError(f"{' '.join(argv[:4])} ... failed: {done.stderr.strip()[:300]}",
                                "check the Kubernetes context and its credentials (kubectl get nodes)")
    return done.stdout


def read_k8s_state(kubectl: list[str], source: str, run: Runner = _run,
                   evictable: frozenset[str] = frozenset()) -> ClusterState:
    """Two kubectl reads -> a ClusterState (grouping preferred, provider kubernetes)."""
    nodes = _list_json(run, [*kubectl, "get", "nodes", "-o", "json", "--request-timeout=30s"])
    pods = _list_json(run, [*kubectl, "get", "pods", "--all-namespaces", "-o", "json", "--request-timeout=30s",
                            "--field-selector=status.phase!=Succeeded,status.phase!=Failed"])
    return state_from_k8s(nodes, pods, source, evictable=evictable)


def _list_json(run: Runner, argv: list[str]) -> "Json":
    """A kubectl List object; anything else (a wrapper or plugin printing text) is undetermined."""
    try:
        data = json.loads(run(argv))
    except ValueError as exc:
        raise UndeterminedError(f"{' '.join(argv[:4])} ... did not print JSON ({exc})",
                                "run it by hand: kubectl get nodes -o json") from None
    if not isinstance(data, dict) or not isinstance(data.get("items", []), list):
        raise UndeterminedError(f"{' '.join(argv[:4])} ... printed no kubectl List",
                                "run it by hand: kubectl get nodes -o json")
    return _obj(data)


Json = dict[str, object]   # one kubectl JSON object


def _obj(value: object) -> Json:
    """`value` when it is a JSON object, else an empty one (kubectl leaves fields out)."""
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def _items(value: object) -> list[Json]:
    """The JSON objects of a list (anything else: none)."""
    return [_obj(v) for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def state_from_k8s(nodes: Json, pods: Json, source: str, read_at_ms: int | None = None,
                   evictable: frozenset[str] = frozenset()) -> ClusterState:
    read_at = read_at_ms or now_ms()
    by_node: dict[str, list[Json]] = {}
    for pod in _items(pods.get("items")):
        node_name = _text(_obj(pod.get("spec")).get("nodeName"))
        if node_name and not _evicted_for_gangs(pod, evictable):
            by_node.setdefault(node_name, []).append(pod)
    jobs: dict[str, Holder] = {}
    out = []
    for item in _items(nodes.get("items")):
        node = _node(item, by_node.get(_text(_obj(item.get("metadata")).get("name")), []), jobs)
        if node is not None:
            out.append(node)
    return ClusterState(nodes=tuple(out), jobs=jobs, source=source, read_at_ms=read_at, rpcs=0,
                        provider="kubernetes", grouping="preferred")


def _node(item: Json, pods: list[Json], jobs: dict[str, Holder]) -> Node | None:
    meta, spec, status = _obj(item.get("metadata")), _obj(item.get("spec")), _obj(item.get("status"))
    ready = any(c.get("type") == "Ready" and c.get("status") == "True" for c in _items(status.get("conditions")))
    alloc = _obj(status.get("allocatable"))
    labels = _obj(meta.get("labels"))
    gpus = quantity(alloc.get(GPU, 0))
    requests = [_effective_requests(p) for p in pods]
    holders = []
    for pod, req in zip(pods, requests):
        if req[GPU] > 0:
            name = _holder_name(pod)
            holders.append(name)
            prior = jobs.get(name)
            jobs[name] = Holder(name, "running", _started_ms(pod), (prior.nodes if prior else 0) + 1)
    attributes = {"leafgroup": str(labels[LEAFGROUP_LABEL])} if LEAFGROUP_LABEL in labels else {}
    return Node(id=str(meta["name"]), cpu_m=quantity(alloc.get("cpu"), milli=True),
                memory=quantity(alloc.get("memory")), gpus=gpus, device_type="gpu" if gpus else "cpu",
                device_variant="", disk=quantity(alloc.get("ephemeral-storage")), attributes=attributes,
                held_cpu_m=sum(r["cpu"] for r in requests), held_memory=sum(r["memory"] for r in requests),
                held_gpus=sum(r[GPU] for r in requests), holders=tuple(sorted(set(holders))),
                healthy=ready and not spec.get("unschedulable", False))


def _effective_requests(pod: Json) -> dict[str, int]:
    spec = _obj(pod.get("spec"))

    def reqs(container: Json) -> dict[str, int]:
        r = _obj(_obj(container.get("resources")).get("requests"))
        return {"cpu": quantity(r.get("cpu"), milli=True), "memory": quantity(r.get("memory")), GPU: quantity(r.get(GPU))}

    main = [reqs(c) for c in _items(spec.get("containers"))]
    init = [reqs(c) for c in _items(spec.get("initContainers"))]
    return {k: max(sum(r[k] for r in main), max((r[k] for r in init), default=0)) for k in ("cpu", "memory", GPU)}


def _evicted_for_gangs(pod: Json, evictable: frozenset[str]) -> bool:
    meta, spec = _obj(pod.get("metadata")), _obj(pod.get("spec"))
    priority = spec.get("priority")
    return (_text(meta.get("namespace")) in evictable and isinstance(priority, int) and priority < 0
            and not meta.get("deletionTimestamp") and _effective_requests(pod)[GPU] > 0)


def _holder_name(pod: Json) -> str:
    meta = _obj(pod.get("metadata"))
    job = _text(_obj(meta.get("labels")).get("iris.job_id"))
    return job or f"{meta.get('namespace', '?')}/{meta.get('name', '?')}"


def _started_ms(pod: Json) -> int | None:
    started = _text(_obj(pod.get("status")).get("startTime")) or _text(_obj(pod.get("metadata")).get("creationTimestamp"))
    if not started:
        return None
    try:
        return int(datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None
