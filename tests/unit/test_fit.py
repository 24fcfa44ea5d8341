"""backends/fit.py: Iris's coscheduled admission replayed over in-memory cluster states."""

from __future__ import annotations

import json

import pytest

from irisrl.backends.fit import (GIB, ClusterState, GangRequest, Holder, Node, ScaleGroup, parse_size,
                                 simulate)

H100 = dict(device_type="gpu", device_variant="h100", gpus=8)


def node(name: str, group: str | None, cpu: int = 128, mem_gib: int = 2048, held_by: str | None = None,
         held_gpus: int = 8, healthy: bool = True) -> Node:
    attrs = {"leafgroup": group} if group else {}
    held = dict(held_cpu_m=48000, held_memory=512 * GIB, held_gpus=held_gpus, holders=(held_by,)) if held_by else {}
    return Node(name, cpu_m=cpu * 1000, memory=mem_gib * GIB, attributes=attrs, healthy=healthy, **H100, **held)


def gang(nodes: int, cpu: int = 48, memory: str = "512GB", group_by: str | None = "leafgroup") -> GangRequest:
    return GangRequest(nodes=nodes, cpu_m=cpu * 1000, memory=parse_size(memory), gpus=8, device_type="gpu",
                       device_variant="H100", group_by=group_by)


def test_parse_size_binary_units_as_iris_parses_memory():
    assert parse_size("512GB") == 512 * GIB
    assert parse_size("1TiB") == 1024 * GIB
    assert parse_size("16g") == 16 * GIB
    with pytest.raises(ValueError):
        parse_size("lots")


def test_fit_two_free_nodes_in_one_leafgroup_fits_now_on_those_nodes():
    state = ClusterState(nodes=(node("a1", "lg-a"), node("b1", "lg-b"), node("b2", "lg-b")))
    report = simulate(state, gang(2))
    assert report.verdict == "fits"
    assert (report.group, report.nodes) == ("lg-b", ("b1", "b2"))


def test_fit_group_held_by_running_job_queues_and_names_holder_with_age():
    state = ClusterState(nodes=(node("b1", "lg-b"), node("b2", "lg-b", held_by="/bob/rl-a")),
                         jobs={"/bob/rl-a": Holder("/bob/rl-a", "running", started_ms=1_000, nodes=1)},
                         read_at_ms=3_601_000)
    report = simulate(state, gang(2))
    assert report.verdict == "queues"
    assert report.holders == ({"job_id": "/bob/rl-a", "state": "running", "age_s": 3600, "nodes": 1},)
    assert report.groups[0].fit_now == 1 and report.groups[0].fit_empty == 2


def test_fit_nodes_split_across_leafgroups_never_fit_and_suggest_fewer_nodes():
    state = ClusterState(nodes=tuple(node(f"{g}{i}", f"lg-{g}") for g in "abc" for i in range(3)))
    report = simulate(state, gang(4))
    assert report.verdict == "never"
    assert "the largest leafgroup has 3 node(s) that fit, 4 needed" in report.summary
    assert any(f.startswith("--num-nodes 3") for f in report.fixes)


def test_fit_cpu_and_memory_exclusions_counted_per_resource_like_kueue_reported():
    # marin-community/marin PR #7631: 48 CPU / 1 TiB on 32 H100 nodes, 13 short on CPU, 19 on memory.
    short_cpu = [node(f"c{i}", "lg", cpu=40, mem_gib=2048) for i in range(13)]
    short_mem = [node(f"m{i}", "lg", cpu=128, mem_gib=900) for i in range(19)]
    report = simulate(ClusterState(nodes=tuple(short_cpu + short_mem)), gang(1, cpu=48, memory="1TiB"))
    assert report.verdict == "never"
    assert "48 CPU fits 19 of 32 nodes; 1 TiB memory fits 13 of 32 nodes" in report.summary
    assert report.fixes == ("--cpu 40", "--memory 900GiB")


def test_fit_disk_is_not_checked_by_iris_only_noted():
    big_disk_request = GangRequest(1, 48000, 512 * GIB, 8, "gpu", "H100", disk=parse_size("4TB"))
    state = ClusterState(nodes=(Node("a", 128000, 2048 * GIB, 8, "gpu", "h100", disk=parse_size("1TB")),))
    report = simulate(state, big_disk_request)
    assert report.verdict == "fits"
    assert any("does not check disk" in n for n in report.notes)


def test_fit_wrong_device_variant_and_unhealthy_workers_do_not_count():
    state = ClusterState(nodes=(Node("a100", 128000, 2048 * GIB, 8, "gpu", "a100", attributes={"leafgroup": "x"}),
                                node("sick", "x", healthy=False)))
    report = simulate(state, gang(1))
    assert report.verdict == "never"
    assert report.exclusions[0].resource == "device" and report.exclusions[0].fits == 0


def test_fit_empty_local_cluster_fits_by_scaling_up_a_slice_of_exactly_n_nodes():
    template = node("tpl", "lg-2")
    state = ClusterState(scale_groups=(ScaleGroup("gang-3", 3, 1, node("t3", "lg-3")),
                                       ScaleGroup("gang-2", 2, 1, template)))
    report = simulate(state, gang(2))
    assert report.verdict == "fits" and report.scale_group == "gang-2" and report.group == "lg-2"


def test_fit_scale_group_at_max_slices_queues():
    state = ClusterState(scale_groups=(ScaleGroup("gang-2", 2, 0, node("t", "lg-2")),))
    assert simulate(state, gang(2)).verdict == "queues"


def test_fit_preferred_leafgroup_admits_spread_gang_and_says_so():
    state = ClusterState(nodes=(node("a1", "lg-a"), node("b1", "lg-b")), grouping="preferred")
    report = simulate(state, gang(2))
    assert report.verdict == "fits"
    assert any("spread over several" in n for n in report.notes)


def test_fit_kubernetes_provider_without_workers_is_unknown():
    report = simulate(ClusterState(provider="kubernetes"), gang(2))
    assert report.verdict == "unknown"


def test_fit_request_from_plan_json_and_state_round_trip():
    plan = {"num_nodes": 2, "coscheduling": {"group_by": "leafgroup"},
            "resources": {"cpu": 48, "memory": "512GB", "disk": "512GB",
                          "device": {"type": "gpu", "variant": "H100", "count": 8}}}
    req = GangRequest.from_plan(plan)
    assert (req.nodes, req.cpu_m, req.memory, req.gpus, req.group_by) == (2, 48000, 512 * GIB, 8, "leafgroup")
    state = ClusterState(nodes=(node("b1", "lg-b", held_by="/x/y"),), scale_groups=(ScaleGroup("g", 2, 1, node("t", "z")),),
                         jobs={"/x/y": Holder("/x/y", started_ms=5)})
    assert ClusterState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    json.dumps(simulate(state, req).to_dict())


def test_fit_recorded_256_worker_state_verdicts_by_gang_size():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "fixtures" / "fit" / "state-256.json"
    state = ClusterState.from_dict(json.loads(path.read_text()))
    assert len(state.nodes) == 256
    verdicts = {n: simulate(state, gang(n)).verdict for n in (8, 11, 16)}
    assert verdicts == {8: "fits", 11: "queues", 16: "never"}
    assert "--num-nodes 11" in simulate(state, gang(16)).fixes[0]
