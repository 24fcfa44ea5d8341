"""Lines through `health` both ways, for the cause tests: the file path (`irisrl health --log
FILE --json`, grep prefilter) and the in-memory path (Analyzer.feed, the watchdog's), which must
agree on the primary kind, the verdict and the unrecognized count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from irisrl.cli.main import cli
from irisrl.observe.analyzer import Analyzer
from irisrl.observe.ladder import UNNAMED   # CauseEvent.guessed of the catch-all made from a net entry


def health_file(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    log = tmp_path / "one.log"
    log.write_text("".join(line + "\n" for line in lines))
    out = CliRunner().invoke(cli, ["health", "--log", str(log), "--json"])
    report: dict[str, Any] = json.loads(out.stdout[out.stdout.index("{"):])
    return report


def health_fed(lines: list[str]) -> dict[str, Any]:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("one.log", "".join(line + "\n" for line in lines).encode())
    return analyzer.verdict().to_dict()


def primary(report: dict[str, Any]) -> str | None:
    cod = report.get("cause_of_death") or {}
    return cod.get("kind") or next((c["kind"] for c in report.get("causes", [])), None)


def ruled(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The causes a rule named (not the catch-all the safety net makes of an error no rule names)."""
    return [c for c in report.get("causes", []) if c.get("guessed") != UNNAMED]


def named(report: dict[str, Any]) -> str | None:
    """The primary kind a rule named, None when only the safety net's catch-all (or nothing) reads the line."""
    cod = report.get("cause_of_death") or {}
    if cod.get("kind") and cod.get("guessed") != UNNAMED:
        return str(cod["kind"])
    return next((str(c["kind"]) for c in ruled(report)), None)


def both(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    """The file path's report, after checking the in-memory path agrees with it."""
    a, b = health_file(tmp_path, lines), health_fed(lines)
    assert (primary(a), a["verdict"], len(a.get("unrecognized", []))) == \
        (primary(b), b["verdict"], len(b.get("unrecognized", []))), lines
    return a


def assert_named(tmp_path: Path, kind: str, line: str) -> None:
    """`line` alone is named `kind` (its primary kind), both ways."""
    report = both(tmp_path, [line])
    assert primary(report) == kind, (line, report.get("causes"), report.get("unrecognized"))


def assert_kept_no_death(tmp_path: Path, line: str) -> None:
    """`line` alone is kept (named, or in `unrecognized`) but is no death: NO-KILL, both ways."""
    report = both(tmp_path, [line])
    assert report["verdict"] == "NO-KILL" and (primary(report) or report.get("unrecognized")), (line, report)


def assert_says_nothing(tmp_path: Path, line: str) -> None:
    """`line` alone is neither named nor kept, both ways."""
    report = both(tmp_path, [line])
    assert primary(report) is None and not report.get("unrecognized"), (line, report)
