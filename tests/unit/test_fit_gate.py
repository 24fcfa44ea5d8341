"""launch's fit gate (ops/fit_gate.py) on in-memory cluster states: never refuses unless
--allow-queue, queues warns and lets the launch go on, an unreadable cluster is not checked."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support.memory_backend import MemoryBackend  # noqa: E402
from irisrl.backends.fit import GIB, ClusterState, Holder, Node
from irisrl.ops import output
from irisrl.ops.fit_gate import FitRefused, fit_gate
from irisrl.util.errors import UndeterminedError

PLAN_DICT = {"num_nodes": 2, "coscheduling": {"group_by": "leafgroup"},
             "resources": {"cpu": 48.0, "memory": "512GB", "disk": "512GB",
                           "device": {"type": "gpu", "variant": "H100", "count": 8}}}
PLAN = SimpleNamespace(job_id="/alice/rl-x", to_dict=lambda: PLAN_DICT)


def _node(name: str, cpu: int = 128, holder: str | None = None) -> Node:
    held = dict(held_cpu_m=48000, held_memory=512 * GIB, held_gpus=8, holders=(holder,)) if holder else {}
    return Node(name, cpu * 1000, 2048 * GIB, 8, "gpu", "h100", attributes={"leafgroup": "lg-a"}, **held)


class Unreadable(MemoryBackend):
    """A cluster whose state cannot be read (kubectl refused, say)."""
    def read_cluster(self) -> ClusterState:
        raise UndeterminedError("kubectl: connection refused")


def _gate(state: ClusterState | None, allow_queue: bool = False) -> tuple[Any, list[tuple[str, bool]]]:
    """fit_gate over the in-memory backend holding `state` (None: an unreadable cluster)."""
    backend = Unreadable() if state is None else MemoryBackend(cluster=state)
    lines: list[tuple[str, bool]] = []
    with output.using(lambda text="", *, err=False: lines.append((text, err))):
        report = fit_gate(PLAN, backend=backend, allow_queue=allow_queue)
    return report, lines


def test_fit_gate_free_group_lets_the_launch_go_on_with_a_fit_line():
    report, lines = _gate(ClusterState(nodes=(_node("n1"), _node("n2"))))
    assert report.verdict == "fits" and lines == [(f"fit: {report.summary}", True)]


def test_fit_gate_held_group_warns_naming_the_holder_and_does_not_refuse():
    state = ClusterState(nodes=(_node("n1"), _node("n2", holder="/bob/rl")), jobs={"/bob/rl": Holder("/bob/rl")})
    report, lines = _gate(state)
    assert report.verdict == "queues"
    assert len(lines) == 1 and lines[0][1] and lines[0][0].startswith("warning: will queue") and "/bob/rl" in lines[0][0]


def test_fit_gate_never_fitting_gang_is_refused_with_the_fix():
    with pytest.raises(FitRefused) as refused:
        _gate(ClusterState(nodes=(_node("n1", cpu=32), _node("n2", cpu=32))))
    assert "/alice/rl-x was not submitted" in refused.value.message and refused.value.fix == "--cpu 32"
    assert refused.value.exit_code == 1 and refused.value.report.verdict == "never"


def test_fit_gate_never_fitting_gang_with_allow_queue_only_warns():
    report, lines = _gate(ClusterState(nodes=(_node("n1", cpu=32), _node("n2", cpu=32))),
                          allow_queue=True)
    assert report.verdict == "never" and lines[0][1] and "submitting anyway (--allow-queue)" in lines[0][0]


def test_fit_gate_unreadable_cluster_is_not_checked_and_not_refused():
    report, lines = _gate(None)
    assert report is None and lines == [("fit: not checked (kubectl: connection refused)", True)]


def test_a_command_shows_the_fit_tables_before_the_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    """launch and export (cli/render_fit.tables_on_refusal): the report's tables, then the refusal itself."""
    from irisrl.cli.render_fit import tables_on_refusal

    with pytest.raises(FitRefused):
        with tables_on_refusal():
            _gate(ClusterState(nodes=(_node("n1", cpu=32), _node("n2", cpu=32))))
    out = capsys.readouterr().out
    assert "gang:" in out and "fix:  --cpu 32" in out
