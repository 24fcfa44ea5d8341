#!/usr/bin/env python3
"""Build src/irisrl/data/resemblance.json, the table irisrl/observe/resemblance.py reads to guess
the kind of an error line no rule names, from labelled corpus files.

Usage:
    PYTHONPATH=src python scripts/build_resemblance.py                # the files the table lists now
    PYTHONPATH=src python scripts/build_resemblance.py --add tests/fixtures/corpus/public/heldout12.jsonl

A corpus file joins the table only by name (`--add`), after it was measured as a fresh held-out
set: a set the table learned from measures nothing. `--check` exits 1 when the shipped table is not
what its listed files build (tests/unit/test_resemblance.py runs the same check).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from irisrl.observe import resemblance

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "corpus"


def render(names: list[str]) -> str:
    table = resemblance.build({name: (CORPUS / name).read_bytes() for name in names})
    return json.dumps(table, separators=(",", ":")) + "\n"


def listed() -> list[str]:
    return list(json.loads(resemblance.DATA.read_text())["sources"]) if resemblance.DATA.exists() else []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--add", nargs="*", default=[], type=Path, help="corpus files to learn from as well")
    ap.add_argument("--check", action="store_true", help="only check the shipped table is up to date")
    args = ap.parse_args()
    names = sorted(set(listed()) | {str(p.resolve().relative_to(CORPUS)) for p in args.add})
    if not names:
        print("no corpus file named: pass --add FILE ...", file=sys.stderr)
        return 2
    text = render(names)
    if args.check:
        fresh = resemblance.DATA.exists() and resemblance.DATA.read_text() == text
        print("up to date" if fresh else f"stale: rerun {Path(__file__).name}", file=sys.stderr)
        return 0 if fresh else 1
    resemblance.DATA.write_text(text)
    print(f"{resemblance.DATA.relative_to(ROOT)}: {len(names)} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
