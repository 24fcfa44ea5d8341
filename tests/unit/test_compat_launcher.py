"""irisrl's in-container command against MarinSkyRL's real launcher, key by key, for the two
canonical layouts (56GPU dense 8B at 7 nodes, 32GPU MoE 30B EP4 at 4 nodes).

The configs are our own reconstructions (tests/fixtures/compat/*.yaml); the launcher's Hydra
arguments for them are kept as data (*.expected.json, derived by hand from the launcher's code at
the commit and paths the file cites). Every key must carry the same value after Hydra parses it,
unless the data lists the key under "differences" with the reason, and then it must differ.
docs/COMPAT.md's tables are rendered from the same data (IRISRL_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from irisrl.plan.build import PlanInputs

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # importlib mode: tests/plan_bypass.py
from plan_bypass import build_plan_past_layout_errors  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
COMPAT = REPO / "tests" / "fixtures" / "compat"
DOC = REPO / "docs" / "COMPAT.md"
LAYOUTS = ("dense8b_56gpu_runbook", "moe30b_32gpu_ep4_runbook")
_ABSENT = "(not passed)"


@pytest.fixture(scope="module")
def parser():
    from hydra.core.override_parser.overrides_parser import OverridesParser
    return OverridesParser.create()


def _expected(name: str) -> dict[str, Any]:
    return json.loads((COMPAT / f"{name}.expected.json").read_text())


def _plan(expected: dict[str, Any]):
    launch = expected["launch"]
    plan, findings, _ = build_plan_past_layout_errors(PlanInputs(
        rl_config=str(COMPAT / expected["config"]), num_nodes=launch["num_nodes"], gpus_per_node=launch["gpus_per_node"],
        model_path=launch["model_path"], train_data=json.dumps(launch["train_data"]), job_name=launch["job_name"],
        workspace=str(REPO / "examples" / "workspace"), environ={"IRISRL_USER": "compat"},
        rendezvous_dir="s3://marin-us-east-02a/iris/rl-rdzv/compat"), dry_run=True)
    # layout rules are another test's business; this one compares arguments
    assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
    return plan


def _parsed(parser, args) -> dict[str, tuple[str, Any]]:
    """key -> (prefix, value), the last occurrence winning as in Hydra."""
    out: dict[str, tuple[str, Any]] = {}
    for arg, override in zip(args, parser.parse_overrides(list(args))):
        out[override.key_or_group] = (re.match(r"^\+*", arg).group(0), override.value())
    return out


def compare(parser, name: str) -> list[tuple[str, str, Any, Any, str]]:
    """Rows (key, launcher prefix, launcher value, irisrl value, verdict) in launcher order."""
    expected = _expected(name)
    launcher = _parsed(parser, expected["launcher_args"])
    irisrl = _parsed(parser, _plan(expected).hydra_args)
    rows = []
    for key in list(launcher) + [k for k in irisrl if k not in launcher]:
        prefix, theirs = launcher.get(key, ("", _ABSENT))
        ours = irisrl.get(key, ("", _ABSENT))[1]
        why = expected["differences"].get(key)
        rows.append((key, prefix, theirs, ours, f"irisrl differs because {why}" if why else "same"))
    return rows


@pytest.mark.parametrize("name", LAYOUTS)
def test_compat_every_hydra_key_same_or_an_explained_difference(parser, name: str) -> None:
    for key, _, theirs, ours, verdict in compare(parser, name):
        if verdict == "same":
            assert ours == theirs, f"{key}: launcher {theirs!r}, irisrl {ours!r} (unexplained)"
        else:
            assert ours != theirs, f"{key} is listed as a difference but is the same: drop it from the data"


@pytest.mark.parametrize("name", LAYOUTS)
def test_compat_trainer_module_is_the_launchers(name: str) -> None:
    expected = _expected(name)
    assert _plan(expected).command[:3] == ("python", "-m", expected["entry_module"])


@pytest.mark.parametrize("name", LAYOUTS)
def test_compat_expected_data_cites_its_source(name: str) -> None:
    source = _expected(name)["source"]
    assert source["repo"] == "marin-community/MarinSkyRL" and re.fullmatch(r"[0-9a-f]{40}", source["commit"])
    assert source["paths"]


def _cell(value: Any) -> str:
    text = value if value == _ABSENT else json.dumps(value)
    return "`" + text.replace("|", "\\|") + "`" if len(text) <= 70 else "`" + text[:67].replace("|", "\\|") + "...`"


def render_table(parser, name: str) -> str:
    lines = ["| Hydra key | launcher prefix | real launcher | irisrl (`++`) | verdict |", "|---|---|---|---|---|"]
    for key, prefix, theirs, ours, verdict in compare(parser, name):
        lines.append(f"| `{key}` | `{prefix or '(none)'}` | {_cell(theirs)} | {_cell(ours)} | {verdict} |")
    return "\n".join(lines)


@pytest.mark.parametrize("name", LAYOUTS)
def test_compat_doc_tables_match_the_data(parser, name: str) -> None:
    begin, end = f"<!-- compat:{name}:begin -->", f"<!-- compat:{name}:end -->"
    doc = DOC.read_text()
    assert begin in doc and end in doc, f"docs/COMPAT.md lacks the {name} markers"
    table = render_table(parser, name)
    current = doc[doc.index(begin) + len(begin):doc.index(end)].strip()
    if os.environ.get("IRISRL_UPDATE_GOLDEN") == "1":
        DOC.write_text(doc.replace(doc[doc.index(begin):doc.index(end)], f"{begin}\n{table}\n"))
        return
    assert current == table, "docs/COMPAT.md is stale: run with IRISRL_UPDATE_GOLDEN=1"
