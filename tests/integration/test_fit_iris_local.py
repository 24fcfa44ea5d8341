"""`fit` against a real Iris local cluster, each verdict checked against what Iris then does
with the submitted job.

The cluster: scale group pair-a (2 workers of 64 CPU, leafgroup lg-a, up from the start:
buffer_slices 1) and pair-b (2 workers of 32 CPU / 256GB, leafgroup lg-b, brought up only on
demand, at most one slice). One module, one cluster, phases in order (2 cores: few, quick)."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from iris_plans import trivial_plan  # noqa: E402

from irisrl.backends import local_cluster  # noqa: E402
from irisrl.plan.model import Device, Resources  # noqa: E402

CLUSTER_YAML = """\
name: irisrl-fit-test
platform: {local: {}}
controller: {local: {port: 0}}
scale_groups:
  pair-a:
    num_vms: 2
    buffer_slices: 1
    max_slices: 1
    resources: {cpu: 64, ram: 512GB, disk: 512GB, device_type: gpu, device_variant: H100, device_count: 8,
                capacity_type: on-demand}
    worker: {attributes: {leafgroup: lg-a}}
    slice_template: {num_vms: 2, local: {}}
  pair-b:
    num_vms: 2
    max_slices: 1
    resources: {cpu: 32, ram: 256GB, disk: 512GB, device_type: gpu, device_variant: H100, device_count: 8,
                capacity_type: on-demand}
    worker: {attributes: {leafgroup: lg-b}}
    slice_template: {num_vms: 2, local: {}}
"""
# A task that keeps writing (Iris's local runtime buffers a silent task's pipe) for a minute.
BUSY = [sys.executable, "-c", "import time\nfor i in range(90): print(i, flush=True); time.sleep(1)"]


@pytest.fixture(scope="module")
def fit_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    from irisrl.backends.iris_client import IrisBackend

    root = tmp_path_factory.mktemp("fit-local")
    os.environ.setdefault("HOME", str(root))
    state = local_cluster.spawn_controller(root / "cluster", 4, 8, "H100", config_text=CLUSTER_YAML)
    ws = root / "ws"
    ws.mkdir()
    backend = IrisBackend(state.url, "local")
    try:
        yield SimpleNamespace(backend=backend, ws=ws, url=state.url)
    finally:
        for job in backend.list_jobs():
            if job.state in ("pending", "running", "building"):
                backend.terminate(job.job_id)
        backend.close()
        local_cluster.stop_process_group(state.pid)


def _plan(name: str, ws: Path, cpu: float = 48, memory: str = "512GB"):
    plan = trivial_plan(name, BUSY, ws, nodes=2)
    return replace(plan, resources=Resources(cpu=cpu, memory=memory, disk="512GB", device=Device("gpu", "H100", 8)))


def _fit(backend, plan):
    from irisrl.backends.cluster_state import read_cluster_state
    from irisrl.backends.fit import GangRequest, simulate

    return simulate(read_cluster_state(backend), GangRequest.from_plan(plan.to_dict()))


def _wait(backend, job_id: str, done, timeout: float = 45.0):
    deadline = time.monotonic() + timeout
    snap = backend.snapshot(job_id)
    while not done(snap) and time.monotonic() < deadline:
        time.sleep(0.5)
        snap = backend.snapshot(job_id)
    return snap


def _running(snap) -> bool:
    return snap.task_states.get("running", 0) == snap.task_count > 0


def _workers_up(backend, n: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while len(backend.list_workers()) < n:
        assert time.monotonic() < deadline, f"fewer than {n} workers registered within {timeout}s"
        time.sleep(0.5)


def test_fit_verdicts_match_what_iris_does_with_the_submitted_jobs(fit_cluster):
    from irisrl.ops.fit_gate import fit_gate
    from irisrl.util.errors import IrisrlError

    b, ws = fit_cluster.backend, fit_cluster.ws
    _workers_up(b, 2)

    # 1. fits now: both lg-a workers are free; Iris then runs the gang on exactly those workers.
    first = _plan("fitfirst-a", ws)
    report = _fit(b, first)
    assert report.verdict == "fits" and report.group == "lg-a", report.summary
    job_a = b.submit(first, ws)
    snap = _wait(b, job_a, _running)
    assert _running(snap), snap
    assert sorted(t.worker for t in snap.tasks) == sorted(report.nodes)

    # 2. would queue: lg-a is held by the first job and lg-b's 32 CPU are too few; Iris leaves
    #    the job pending with a coscheduling reason.
    second = _plan("fitsecond-b", ws)
    report = _fit(b, second)
    assert report.verdict == "queues", report.summary
    assert [h["job_id"] for h in report.holders] == [job_a] and report.holders[0]["age_s"] is not None
    # the CLI path records the state it read; replaying the recording gives the same verdict
    from irisrl import ops

    target = ops.Target(controller_url=fit_cluster.url)
    recorded, plan_file = ws.parent / "state.json", ws.parent / "second.json"
    plan_file.write_text(json.dumps(second.to_dict()))
    assert ops.fit(str(plan_file), target, record=str(recorded)).verdict == "queues"
    assert ops.fit(str(plan_file), target, state_file=str(recorded)).verdict == "queues"
    job_b = b.submit(second, ws)
    time.sleep(3)
    snap = b.snapshot(job_b)
    assert snap.state == "pending" and snap.task_states.get("running", 0) == 0, snap
    assert "Coscheduling" in snap.pending_reason and "Insufficient CPU" in snap.pending_reason, snap

    # 3. can never fit: 100 CPU per node exceeds every worker and scale group; launch's gate
    #    refuses (nothing submitted); submitted anyway, Iris never runs it.
    third = _plan("fitthird-c", ws, cpu=100)
    report = _fit(b, third)
    assert report.verdict == "never" and "--cpu 64" in report.fixes, report
    with pytest.raises(IrisrlError):
        fit_gate(third, b, allow_queue=False)
    assert all(j.job_id != third.job_id for j in b.list_jobs())
    job_c = b.submit(third, ws)
    time.sleep(3)
    snap = b.snapshot(job_c)
    assert snap.state in ("pending", "unschedulable") and snap.task_states.get("running", 0) == 0, snap
    assert "need 100 cores" in snap.pending_reason, snap

    # 4. fits by scale-up: 16 CPU / 128GB fit pair-b's fresh slice; Iris brings it up and runs it there.
    fourth = _plan("fitfourth-d", ws, cpu=16, memory="128GB")
    report = _fit(b, fourth)
    assert report.verdict == "fits" and report.scale_group == "pair-b", report.summary
    job_d = b.submit(fourth, ws)
    snap = _wait(b, job_d, _running, timeout=60)
    assert _running(snap), snap
    workers = {w.worker_id: w for w in b.list_workers()}
    assert {workers[t.worker].metadata.attributes["leafgroup"].string_value for t in snap.tasks} == {"lg-b"}
