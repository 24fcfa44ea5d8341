"""--skyrl_override: Hydra's grammar, applied in order (last wins)."""

from __future__ import annotations

from irisrl.config.overrides import apply_parsed, parse_overrides


def test_overrides_apply_in_order_last_wins() -> None:
    raw = {"trainer": {"max_steps": 80, "placement": {"colocate_all": False}}, "generator": {}}
    parsed, bad = parse_overrides(["trainer.max_steps=2", "++trainer.max_steps=3", "+generator.new.deep=[1,2]",
                                   "~trainer.placement.colocate_all", "generator.x=null"])
    out = apply_parsed(raw, parsed)
    assert not bad
    assert out["trainer"]["max_steps"] == 3
    assert out["generator"]["new"] == {"deep": [1, 2]} and out["generator"]["x"] is None
    assert "colocate_all" not in out["trainer"]["placement"]
    assert raw["trainer"]["max_steps"] == 80  # the input is not modified


def test_overrides_values_parse_like_hydra() -> None:
    parsed, bad = parse_overrides(["a.b=true", "a.c='007'", "a.d=1.5", "+grp=name"])
    assert not bad
    assert [p.value for p in parsed] == [True, "007", 1.5, "name"]
    assert [p.kind for p in parsed] == ["change", "change", "change", "add"]


def test_overrides_bad_grammar_sweeps_and_packages_are_findings() -> None:
    parsed, bad = parse_overrides(["a.b", "a=1,2", "a@pkg=1", "ok=1"])
    assert [p.key for p in parsed] == ["ok"]
    assert [f.rule for f in bad] == ["CFG-OVERRIDE"] * 3
    assert bad[0].path == "--skyrl_override a.b" and "EQUAL" in bad[0].message


def test_no_overrides_do_not_import_hydra() -> None:
    import subprocess
    import sys

    code = ("import sys; from irisrl.config.overrides import parse_overrides; parse_overrides([]); "
            "print('hydra' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr
