"""Golden `irisrl fit` renderings on the recorded 256-worker state (docs/REFERENCE.md "Will it fit?"
example: 11 nodes queue; 16 nodes never fit), at a fixed terminal width. A change in the tables
shows up as a diff in review. Regenerate with IRISRL_UPDATE_GOLDEN=1."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from irisrl.cli.main import main

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
STATE = "tests/fixtures/fit/state-256.json"
PLAN = {"coscheduling": {"group_by": "leafgroup"},
        "resources": {"cpu": 48.0, "memory": "512GB", "disk": "512GB",
                      "device": {"type": "gpu", "variant": "H100", "count": 8}}}


@pytest.mark.parametrize("nodes, verdict, code", [(11, "queues", 4), (16, "never", 1)])
def test_fit_render_of_recorded_256_state_matches_golden(nodes, verdict, code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("COLUMNS", "100")
    plan = tmp_path / f"plan-{nodes}.json"
    plan.write_text(json.dumps({**PLAN, "num_nodes": nodes}))
    with pytest.raises(SystemExit) as exit_info:
        main(["fit", "--plan", str(plan), "--state", STATE])
    out = capsys.readouterr().out
    golden = GOLDEN / f"fit_state256_{nodes}nodes.txt"
    if os.environ.get("IRISRL_UPDATE_GOLDEN"):
        golden.write_text(out)
    assert exit_info.value.code == code and f"{verdict.upper()}: " in out
    assert out == golden.read_text()
