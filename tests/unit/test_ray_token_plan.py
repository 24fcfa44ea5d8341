"""Every plan carries its own Ray token (RAY_AUTH_MODE=token + RAY_AUTH_TOKEN, a secret):
fresh per plan, masked in the dry run (text and JSON), the request rendering and the ledger."""

from __future__ import annotations

import json
from pathlib import Path

from irisrl.ledger.store import Ledger
from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs, build_plan
from irisrl.plan.render import render_json, render_text
from irisrl.plan.request import build_request

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _plan(config: Path = EXAMPLES / "configs/smoke_colocated.yaml"):  # type: ignore[no-untyped-def]
    plan, findings, _ = build_plan(PlanInputs(rl_config=str(config), num_nodes=2, workspace=str(EXAMPLES / "workspace")),
                                   Target(local=True))
    assert plan is not None, findings
    assert plan is not None
    return plan


def test_each_plan_has_its_own_token_and_token_mode() -> None:
    a, b = _plan(), _plan()
    assert a.env["RAY_AUTH_MODE"] == "token" and "RAY_AUTH_TOKEN" in a.secret_env_keys
    assert len(a.env["RAY_AUTH_TOKEN"]) == 64 and a.env["RAY_AUTH_TOKEN"] != b.env["RAY_AUTH_TOKEN"]
    request = build_request(a)
    assert request.env["RAY_AUTH_TOKEN"] == a.env["RAY_AUTH_TOKEN"]   # what submit sends: the real value
    assert request.to_dict()["env"]["RAY_AUTH_TOKEN"] == "***"


def test_an_extra_env_ray_auth_setting_cannot_turn_it_off(tmp_path) -> None:
    import yaml

    cfg = tmp_path / "cfg.yaml"
    raw = yaml.safe_load((EXAMPLES / "configs/smoke_colocated.yaml").read_text())
    raw.setdefault("extra_env", {}).update(RAY_AUTH_MODE="disabled", RAY_AUTH_TOKEN="shared")
    cfg.write_text(yaml.safe_dump(raw))
    plan = _plan(cfg)
    assert plan.env["RAY_AUTH_MODE"] == "token" and plan.env["RAY_AUTH_TOKEN"] != "shared"


def test_the_token_never_appears_in_a_rendering_or_the_ledger(tmp_path) -> None:
    plan = _plan()
    token = plan.env["RAY_AUTH_TOKEN"]
    assert token not in render_text(plan, 200) and token not in render_json(plan)
    assert json.loads(render_json(plan))["env"]["RAY_AUTH_TOKEN"] == "***"
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.record_launch(plan, "http://127.0.0.1:1", "local")
    assert token.encode() not in (tmp_path / "l.sqlite").read_bytes()
