"""backends/k8s_state.py: a cluster state from kubectl JSON (our own minimal objects in the
shape `kubectl get nodes/pods -o json` prints), then fit's verdicts with a preferred leafgroup."""

from __future__ import annotations

import json

import pytest

from irisrl.backends.fit import GangRequest, parse_size, simulate
from irisrl.backends.k8s_state import LEAFGROUP_LABEL, quantity, read_k8s_state, state_from_k8s
from irisrl.util.errors import UndeterminedError


def k8s_node(name: str, leafgroup: str, cpu: str = "127500m", memory: str = "2113533056Ki", gpus: str = "8",
             ready: bool = True, cordoned: bool = False) -> dict:
    return {"metadata": {"name": name, "labels": {LEAFGROUP_LABEL: leafgroup}},
            "spec": {"unschedulable": True} if cordoned else {},
            "status": {"allocatable": {"cpu": cpu, "memory": memory, "nvidia.com/gpu": gpus,
                                       "ephemeral-storage": "1Ti"},
                       "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}


def k8s_pod(name: str, node: str, cpu: str, memory: str, gpus: str = "0", job: str | None = None,
            init_cpu: str | None = None) -> dict:
    pod = {"metadata": {"name": name, "namespace": "iris", "labels": {"iris.job_id": job} if job else {}},
           "spec": {"nodeName": node, "containers": [{"resources": {"requests": {
               "cpu": cpu, "memory": memory, "nvidia.com/gpu": gpus}}}]},
           "status": {"phase": "Running", "startTime": "2026-12-03T05:00:00Z"}}
    if init_cpu:
        pod["spec"]["initContainers"] = [{"resources": {"requests": {"cpu": init_cpu}}}]
    return pod


def gang(nodes: int) -> GangRequest:
    return GangRequest(nodes, 48000, parse_size("512GB"), 8, "gpu", "H100", group_by="leafgroup")


def test_quantity_parses_kubernetes_cpu_and_memory():
    assert quantity("127500m", milli=True) == 127500
    assert quantity("128", milli=True) == 128000
    assert quantity("2113533056Ki") == 2113533056 * 1024
    assert quantity("1.5Gi") == int(1.5 * 2**30)
    assert quantity("64G") == 64 * 10**9


def test_k8s_state_sums_pod_requests_and_names_gpu_holders():
    nodes = {"items": [k8s_node("n1", "lg-1"), k8s_node("n2", "lg-1"), k8s_node("n3", "lg-2", cordoned=True)]}
    pods = {"items": [k8s_pod("iris-a-0", "n1", "48", "512Gi", "8", job="alice.rl-a"),
                      k8s_pod("nhc-daemon", "n2", "500m", "1Gi", init_cpu="2")]}
    state = state_from_k8s(nodes, pods, "test", read_at_ms=1_796_281_200_000)
    n1, n2, n3 = state.nodes
    assert (n1.held_cpu_m, n1.held_gpus, n1.holders) == (48000, 8, ("alice.rl-a",))
    assert (n2.held_cpu_m, n2.holders) == (2000, ())   # the init container's 2 CPU dominate
    assert not n3.healthy and state.grouping == "preferred"
    assert state.jobs["alice.rl-a"].started_ms == 1_796_274_000_000


def test_k8s_gang_spread_over_leafgroups_fits_with_a_note():
    nodes = {"items": [k8s_node("a1", "lg-a"), k8s_node("b1", "lg-b")]}
    report = simulate(state_from_k8s(nodes, {"items": []}, "test"), gang(2))
    assert report.verdict == "fits"
    assert any("spread over several" in n for n in report.notes)
    assert any("Kueue quota" in n for n in report.notes)


def test_k8s_cpu_short_nodes_never_fit_a_48_cpu_request():
    nodes = {"items": [k8s_node(f"n{i}", "lg", cpu="40") for i in range(3)]}
    report = simulate(state_from_k8s(nodes, {"items": []}, "test"), gang(2))
    assert report.verdict == "never" and "48 CPU fits 0 of 3 nodes" in report.summary


def test_read_k8s_state_passes_context_and_reports_kubectl_failures():
    seen = []

    def run(argv):
        seen.append(argv)
        return json.dumps({"items": []})

    read_k8s_state(["kubectl", "--context", "ctx"], "test", run=run)
    assert seen[0][:5] == ["kubectl", "--context", "ctx", "get", "nodes"]
    assert "--field-selector=status.phase!=Succeeded,status.phase!=Failed" in seen[1]

    def failing(argv):
        raise UndeterminedError("kubectl get nodes failed: Unauthorized", "check credentials")

    with pytest.raises(UndeterminedError, match="Unauthorized"):
        read_k8s_state(["kubectl"], "test", run=failing)


@pytest.mark.parametrize("printed", ["Unable to connect to the server", "[]", '{"items": "none"}'])
def test_read_k8s_state_output_that_is_not_a_kubectl_list_is_undetermined(printed):
    with pytest.raises(UndeterminedError, match="kubectl get nodes"):
        read_k8s_state(["kubectl"], "test", run=lambda argv: printed)


def test_kubectl_argv_takes_kubeconfig_and_context_from_the_cluster_config(tmp_path, monkeypatch):
    import shutil

    from irisrl.backends.k8s_state import kubectl_argv

    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/kubectl")
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = tmp_path / "cw.yaml"
    cfg.write_text("platform:\n  coreweave:\n    kubeconfig_path: ~/.kube/coreweave-iris\n"
                   "    kube_context: marin-gpu_US-EAST-02A\n")
    assert kubectl_argv(str(cfg)) == ["kubectl", "--kubeconfig", str(tmp_path / ".kube/coreweave-iris"),
                                      "--context", "marin-gpu_US-EAST-02A"]
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert kubectl_argv(str(cfg)) is None


class _NoWorkersController:
    """An in-memory stand-in for IrisBackend on a KubernetesProvider cluster: no workers, no
    autoscaler groups."""
    kind, calls = "config", 0

    def __init__(self, where: str) -> None:
        self.where = where

    def list_workers(self):
        self.calls += 1
        return []

    def autoscaler_status(self):
        self.calls += 1
        return type("Status", (), {"groups": []})()

    def read_cluster(self):   # Backend.read_cluster, as IrisBackend answers it
        from irisrl.backends.cluster_state import read_cluster_state

        return read_cluster_state(self)


def test_read_state_without_workers_asks_kubernetes_through_the_cluster_config(tmp_path, monkeypatch):
    import shutil

    from irisrl.backends.cluster_state import read_state

    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/kubectl")
    cfg = tmp_path / "cw.yaml"
    cfg.write_text("platform:\n  coreweave:\n    kube_context: ctx\n")
    answers = {"nodes": {"items": [k8s_node("a1", "lg-a"), k8s_node("a2", "lg-a")]}, "pods": {"items": []}}
    state = read_state(_NoWorkersController(str(cfg)), run=lambda argv: json.dumps(answers[argv[4]]))
    assert state.provider == "kubernetes" and len(state.nodes) == 2 and state.rpcs == 2
    assert simulate(state, gang(2)).verdict == "fits"


def test_gpu_health_check_pods_iris_evicts_for_gangs_do_not_hold_their_nodes(tmp_path):
    """cw-us-east-02a lists cw-hpc-verification in kubernetes_provider.preempt_namespaces
    (marin-community/marin lib/iris/config/cw-us-east-02a.yaml @ 004f4a559daf): Iris deletes
    its negative-priority GPU pods when a gang is submitted, so they do not block it."""
    from irisrl.backends.k8s_state import evictable_namespaces

    config = tmp_path / "cluster.yaml"
    config.write_text("kubernetes_provider:\n  namespace: iris\n  preempt_namespaces: [cw-hpc-verification, iris]\n")
    evictable = evictable_namespaces(str(config))
    assert evictable == frozenset({"cw-hpc-verification"})     # never Iris's own namespace
    nodes = {"items": [k8s_node("n1", "lg-a"), k8s_node("n2", "lg-a")]}
    nhc = k8s_pod("nhc", "n2", "1", "1Gi", gpus="8")
    nhc["metadata"]["namespace"] = "cw-hpc-verification"
    nhc["spec"]["priority"] = -1
    pods = {"items": [nhc]}
    assert simulate(state_from_k8s(nodes, pods, "test"), gang(2)).verdict == "queues"
    report = simulate(state_from_k8s(nodes, pods, "test", evictable=evictable), gang(2))
    assert report.verdict == "fits" and report.nodes == ("n1", "n2")
    nhc["spec"]["priority"] = 0     # not preemptible: Iris leaves it, it holds the node
    assert simulate(state_from_k8s(nodes, pods, "test", evictable=evictable), gang(2)).verdict == "queues"
