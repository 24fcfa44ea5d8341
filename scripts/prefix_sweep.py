#!/usr/bin/env python3
"""Prefix robustness of `irisrl health`: a line must read the same whoever collected it.

Takes corpus lines that `health --log` reads right when alone (a failure with its labelled kind, a benign
line with no KILL), puts each behind the prefixes real pastes carry (a container runtime's timestamp,
a `docker compose` column, a journald header, a Ray actor's prefix, srun's / Open MPI's labels, ANSI
colours, a Python logging header, a bracketed timestamp) and reports every line whose primary kind or
verdict changes. Each variant runs in-process through `irisrl health --log FILE --json`
(scripts/measure_causes.py), one line per file.

Usage:
  PYTHONPATH=src .venv/bin/python scripts/prefix_sweep.py tests/fixtures/corpus/public/dev.jsonl [--limit 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure_causes as M  # noqa: E402

PREFIXES = {
    "container timestamp": "2026-12-04T01:02:03.456789012Z ",
    "compose column": "trainer-1  | ",
    "journald header": "Dec 04 01:02:03 gpu-node-3 python[12345]: ",
    "CI timestamp": "2026-12-04T01:02:03.4567890Z ",
    "Ray actor prefix": "(TaskRunner pid=123, ip=10.0.0.1) ",
    "srun label": "3: ",
    "Open MPI tag": "[1,3]<stderr>:",
    "ANSI colour": "\x1b[31m",
    "logger header": "2026-12-04 01:02:03,456 [trainer] ",   # no level of its own: the line keeps its own
    "bracketed time": "[2026-12-04 01:02:03] ",
}


def _right(label: str, outcome: M.Outcome) -> bool:
    return outcome.verdict != "KILL" if label == M.BENIGN else outcome.primary == label


def sweep(entries: list[dict[str, str]], workdir: Path) -> list[dict[str, str | None]]:
    """Every (line, prefix) whose reading differs from the bare line's, for the lines read right bare."""
    moved = []
    for entry in entries:
        bare = M.measure_entry(entry, workdir)
        if not _right(entry.get("kind") or M.BENIGN, bare):
            continue
        for name, prefix in PREFIXES.items():
            suffix = "\x1b[0m" if name == "ANSI colour" else ""
            seen = M.measure_entry({**entry, "line": prefix + entry["line"] + suffix}, workdir)
            if (seen.primary, seen.verdict) != (bare.primary, bare.verdict):
                moved.append({"prefix": name, "line": entry["line"], "bare": bare.primary, "prefixed": seen.primary,
                              "bare_verdict": bare.verdict, "prefixed_verdict": seen.verdict})
    return moved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="corpus JSONL files")
    ap.add_argument("--limit", type=int, default=0, help="a seeded sample of this many lines (0: all)")
    ap.add_argument("--json", action="store_true", help="the moved lines as JSON")
    args = ap.parse_args(argv)
    entries = [e for f in args.files for e in M.load_entries(f)]
    if args.limit:
        entries = random.Random(7).sample(entries, min(args.limit, len(entries)))
    with tempfile.TemporaryDirectory() as tmp:
        moved = sweep(entries, Path(tmp))
    if args.json:
        print(json.dumps(moved, indent=1, ensure_ascii=False))
    else:
        print(f"{len(entries)} lines x {len(PREFIXES)} prefixes: {len(moved)} readings moved")
        for m in moved:
            print(f"  [{m['prefix']}] {m['bare']}/{m['bare_verdict']} -> {m['prefixed']}/{m['prefixed_verdict']}: {m['line'][:140]}")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
