#!/usr/bin/env python3
"""Measure how well `irisrl health` names real failure lines, one line per log file.

For each JSONL entry ({"kind", "line", "source", ...}) the line is written alone to a temp file
and `irisrl health --log FILE --json` runs in-process through irisrl.cli.main:main (the same
code path as the command). Primary kind = cause_of_death.kind, else the first causes[].kind.

- failure line (kind is not "benign"/null): named = primary kind == label; surfaced = named, or
  any cause, or any `unrecognized` entry (absent on older code: treated as empty).
- benign line (kind "benign", or null as in tests/fixtures/real_lines/lines.jsonl): must not
  give verdict KILL.

Usage:
  PYTHONPATH=src .venv/bin/python scripts/measure_causes.py tests/fixtures/corpus/public/dev.jsonl [--verbose] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENIGN = "benign"


@dataclass
class Outcome:
    label: str
    primary: str | None
    verdict: str | None
    surfaced: bool
    line: str
    source: str


@dataclass
class FileReport:
    path: str
    outcomes: list[Outcome] = field(default_factory=list)

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.label != BENIGN]

    def benign(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.label == BENIGN]

    def summary(self) -> dict[str, Any]:
        fails, benign = self.failures(), self.benign()
        named = sum(o.primary == o.label for o in fails)
        surfaced = sum(o.surfaced for o in fails)
        benign_kills = sum(o.verdict == "KILL" for o in benign)
        return {
            "file": self.path,
            "failures": len(fails),
            "named": named,
            "named_pct": _pct(named, len(fails)),
            "surfaced": surfaced,
            "surfaced_pct": _pct(surfaced, len(fails)),
            "benign": len(benign),
            "benign_kills": benign_kills,
            "per_kind": self.per_kind(),
            "confusion": self.confusion(),
        }

    def per_kind(self) -> dict[str, dict[str, int]]:
        table: dict[str, dict[str, int]] = {}
        for o in self.outcomes:
            row = table.setdefault(o.label, {"n": 0, "named": 0, "surfaced": 0, "kills": 0})
            row["n"] += 1
            row["named"] += o.label != BENIGN and o.primary == o.label
            row["surfaced"] += o.label != BENIGN and o.surfaced
            row["kills"] += o.verdict == "KILL"
        return dict(sorted(table.items()))

    def confusion(self) -> dict[str, int]:
        pairs = Counter(f"{o.label} -> {o.primary}" for o in self.failures() if o.primary != o.label)
        pairs.update(f"benign -> KILL ({o.primary})" for o in self.benign() if o.verdict == "KILL")
        return dict(pairs.most_common())


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def run_health(log: Path) -> dict[str, Any]:
    """`irisrl health --log LOG --json` in-process; returns the parsed JSON."""
    from irisrl.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(["health", "--log", str(log), "--json"])
        except SystemExit:
            pass
    text = out.getvalue()
    try:
        parsed: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"health gave no JSON for {log}: {text[:200]!r} {err.getvalue()[:200]!r}") from exc
    return parsed


def primary_kind(report: dict[str, Any]) -> str | None:
    death = report.get("cause_of_death")
    if isinstance(death, dict) and death.get("kind"):
        return str(death["kind"])
    causes = report.get("causes") or []
    return str(causes[0]["kind"]) if causes else None


def outcome(entry: dict[str, Any], report: dict[str, Any]) -> Outcome:
    """Score one entry against its health --json report (`unrecognized` may be absent)."""
    label = entry.get("kind") or BENIGN
    primary = primary_kind(report)
    surfaced = primary is not None or bool(report.get("causes")) or bool(report.get("unrecognized"))
    return Outcome(label, primary, report.get("verdict"), surfaced, entry["line"], str(entry.get("source", "")))


def measure_entry(entry: dict[str, Any], workdir: Path) -> Outcome:
    log = workdir / "line.log"
    log.write_text(entry["line"] + "\n", encoding="utf-8")
    return outcome(entry, run_health(log))


def load_entries(path: Path) -> list[dict[str, Any]]:
    entries = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            entries.append(json.loads(raw))
        except json.JSONDecodeError as exc:
            sys.exit(f"error: {path}:{number} is not JSON ({exc.msg}); fix: one JSON object per line")
    return entries


def measure_file(path: Path) -> FileReport:
    report = FileReport(str(path))
    with tempfile.TemporaryDirectory(prefix="measure_causes.") as tmp:
        for entry in load_entries(path):
            report.outcomes.append(measure_entry(entry, Path(tmp)))
    return report


def print_text(report: FileReport, verbose: bool) -> None:
    s = report.summary()
    print(
        f"{s['file']}: failures N={s['failures']} named {s['named']} ({s['named_pct']}%) "
        f"surfaced {s['surfaced']} ({s['surfaced_pct']}%); benign N={s['benign']} KILLed {s['benign_kills']}"
    )
    if not verbose:
        return
    print("  per kind (n / named / surfaced / KILL verdicts):")
    for kind, row in s["per_kind"].items():
        print(f"    {kind:24} {row['n']:4} {row['named']:4} {row['surfaced']:4} {row['kills']:4}")
    print("  confusion (expected -> got):")
    for pair, count in s["confusion"].items():
        print(f"    {count:4}  {pair}")
    print("  misses:")
    for o in report.outcomes:
        wrong = o.verdict == "KILL" if o.label == BENIGN else o.primary != o.label
        if wrong:
            print(f"    [{o.label} -> {o.primary}/{o.verdict}] {o.source}: {o.line[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="corpus JSONL files")
    parser.add_argument("--verbose", action="store_true", help="per-kind table, confusion list and misses")
    parser.add_argument("--json", action="store_true", help="one JSON summary per file")
    args = parser.parse_args()
    for path in args.files:
        if not path.is_file():
            sys.exit(f"error: {path} is not a file; fix: pass a corpus JSONL file")
    for path in args.files:
        report = measure_file(path)
        if args.json:
            print(json.dumps(report.summary(), sort_keys=True))
        else:
            print_text(report, args.verbose)


if __name__ == "__main__":
    main()
