"""The last resort (observe/resemblance.py): an error line no rule and no vocabulary row names is
guessed by the kind of the labelled corpus lines it shares the most distinctive words with.

The rules here run on a small table of our own (monkeypatched in for `resemblance.load`), so each
threshold can fail on its own; the shipped table is checked against the corpus files it lists."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from irisrl.observe import causes as C
from irisrl.observe import resemblance as R
from irisrl.observe.analyzer import Analyzer

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "corpus"

# (kind, line) rows of a toy corpus: two sources per word so every word counts (MIN_SOURCES)
TOY = [
    ("pg_unplaceable", "provisioning attempts failed, clouds lack capacity for the cluster"),
    ("pg_unplaceable", "provisioning failed again: capacity exhausted in every zone"),
    ("pg_unplaceable", "no capacity left for provisioning the workers"),
    ("image_pull", "registry refused the manifest for the image"),
    ("image_pull", "manifest unknown to registry while pulling the image"),
    ("benign", "checkpoint shard saved in twelve seconds"),
    ("benign", "shard checkpoint saved after twelve seconds"),
    ("benign", "checkpoint shard upload done"),
] + [("benign", f"step {n} finished with reward mean {n}") for n in range(12)]   # the usual lines: words get rare
UNNAMED = "ERROR: provisioning attempts failed: the capacity of the region ran out"


def _toy(rows: list[tuple[str, str]] = TOY) -> R.Table:
    blob = "".join(json.dumps({"kind": k, "line": line, "source": f"toy#{i}"}) + "\n" for i, (k, line) in enumerate(rows))
    return R.from_json(R.build({"toy.jsonl": blob.encode()}))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> R.Table:
    table = _toy()
    monkeypatch.setattr(R, "load", lambda: table)
    return table


def _report(lines: list[str]) -> dict[str, Any]:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", "".join(line + "\n" for line in lines).encode())
    return analyzer.verdict().to_dict()


def test_a_line_sharing_a_kinds_words_is_guessed_as_that_kind(toy: R.Table) -> None:
    guess = R.nearest(UNNAMED, toy)
    assert guess is not None and guess.kind == "pg_unplaceable" and guess.share >= R.MIN_SHARE
    assert {"provisioning", "capacity"} <= set(guess.shared)


@pytest.mark.parametrize("line, why", [
    ("ERROR: the checkpoint shard upload failed after twelve seconds", "benign look-alikes win the vote"),
    ("ERROR: provisioning waits on the registry", "one distinctive word per kind: the vote is split"),
    ("ERROR: capacity", "one distinctive word in common"),
    ("ERROR: the frobnicator is broken", "nothing in common"),
])
def test_nothing_is_guessed_without_agreeing_evidence(toy: R.Table, line: str, why: str) -> None:
    assert R.nearest(line, toy) is None, why


def test_no_table_guesses_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(R, "DATA", tmp_path / "absent.json")
    R.load.cache_clear()
    try:
        assert R.load() is None and R.nearest(UNNAMED) is None
    finally:
        R.load.cache_clear()


def test_a_guess_is_reported_as_one_and_is_fatal_only_once_the_process_ended(toy: R.Table) -> None:
    alone = _report([UNNAMED])
    assert alone["verdict"] == "NO-KILL" and not alone["unrecognized"]
    assert alone["causes"][0] | {"line": None} == alone["causes"][0] | {
        "kind": "pg_unplaceable", "status": "warning", "guessed": "resemblance", "line": None}
    ended = _report([UNNAMED, "[irisrl] Command exited with code 1"])
    assert ended["verdict"] == "KILL" and ended["cause_of_death"]["kind"] == "pg_unplaceable"
    assert any("guessed by resemblance" in r for r in ended["reasons"]), ended["reasons"]


def test_a_real_exception_is_the_death_before_a_guess_by_resemblance(toy: R.Table) -> None:
    report = _report([UNNAMED, "ValueError: reward shape mismatch", "[irisrl] Command exited with code 1"])
    assert report["cause_of_death"]["kind"] == "python_crash"
    assert {c["kind"] for c in report["causes"]} == {"python_crash", "pg_unplaceable"}


def test_a_notice_is_never_guessed(toy: R.Table) -> None:
    report = _report(["INFO 12-03 16:00:00 [x.py:1] provisioning attempts failed: capacity ran out, retrying"])
    assert not report["causes"]


def test_a_look_alike_the_kinds_own_rule_rules_out_is_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [("cuda_error", "NVRM Xid link error on the nvlink fabric"), ("cuda_error", "Xid nvlink fabric error NVRM link")]
    table = _toy(rows + TOY)
    monkeypatch.setattr(R, "load", lambda: table)
    line = "ERROR NVRM Xid link 7 Nonfatal nvlink fabric event"
    assert R.nearest(line, table) is not None and C.resemble(line) is None


def test_the_shipped_table_is_what_its_corpus_files_build() -> None:
    raw = json.loads(R.DATA.read_text())
    for name, digest in raw["sources"].items():
        assert hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() == digest, \
            f"{name} changed: rerun scripts/build_resemblance.py"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_resemblance.py"), "--check"],
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src")}, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_shipped_table_leaves_application_errors_unnamed() -> None:
    """Lines of our own harness (reward, sandbox, trial) look like nothing in the corpus: shown as
    unrecognized, not dressed up as an infrastructure kind."""
    for line in ("reward server refused the connection", "sandbox command timed out after 30s (trial 12)",
                 "trainer  | cannot open shard index /data/train.idx", "tool call failed: command not found in sandbox"):
        assert R.nearest(line) is None, line
