"""The one job-name -> series rule (core/series.py): the plan, the live policy state and the
ledger row all take a launch's series from it (issue 17: it was written three times)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

from irisrl.core.series import series_of

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from support.memory_backend import MemoryBackend  # noqa: E402


def test_series_is_the_explicit_one_else_the_name_prefix():
    assert series_of("a3-refill-7") == "a3"
    assert series_of("/alice/dense8b-r1") == "dense8b"     # a job id's user part is not the name
    assert series_of("solo") == "solo"
    assert series_of("a3-refill-7", "b1") == "b1"
    assert series_of("-odd") is None and series_of("", None) is None


def test_plan_policy_and_ledger_agree_on_the_series(monkeypatch, tmp_path):
    from irisrl.ledger.store import Ledger
    from irisrl.ops.live_state import gather_live_state
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan

    monkeypatch.chdir(REPO)
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path / "home"))
    plan, findings, _ = build_plan(PlanInputs(rl_config="examples/configs/smoke_colocated.yaml",
                                              workspace="examples/workspace", num_nodes=2, job_name="dense8b-r2"),
                                   Target(local=True))
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    assert plan.series == plan.tags["series"] == "dense8b"
    ledger = Ledger(tmp_path / "runs.db")
    ledger.record_launch(SimpleNamespace(to_dict=lambda: {"job_id": "/u/dense8b-r3", "job_name": "dense8b-r3"}),
                         "memory://", "url")
    assert [r["series"] for r in ledger.runs("dense8b")] == ["dense8b"]   # a plan without one: the rule's
    live = gather_live_state(replace(plan, series=None), MemoryBackend(), ledger, None)
    assert live.series == "dense8b"                                      # the policy's: the same rule
