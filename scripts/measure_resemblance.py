#!/usr/bin/env python3
"""How well the resemblance table (irisrl/observe/resemblance.py) alone names lines of a corpus file
it did not learn from: each file the table lists is left out in turn, a table is built from the
others, and every line of the left-out file is guessed with it (no rule, no vocabulary: the
last resort's own precision and reach, on lines it never saw).

Usage:
    PYTHONPATH=src python scripts/measure_resemblance.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from irisrl.observe import resemblance as R

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "corpus"


def left_out(name: str, blobs: dict[str, bytes]) -> Counter[str]:
    table = R.from_json(R.build({n: b for n, b in blobs.items() if n != name}))
    tally: Counter[str] = Counter()
    for raw in blobs[name].decode().splitlines():
        if not raw.strip():
            continue
        entry = json.loads(raw)
        guess = R.nearest(entry["line"], table)
        if entry["kind"] == R.BENIGN:
            tally["benign guessed" if guess else "benign left"] += 1
        else:
            tally["right" if guess and guess.kind == entry["kind"] else "wrong" if guess else "no guess"] += 1
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    names = list(json.loads(R.DATA.read_text())["sources"])
    blobs = {n: (CORPUS / n).read_bytes() for n in names}
    per_file = {n: left_out(n, blobs) for n in names}
    total: Counter[str] = sum(per_file.values(), Counter())
    if args.json:
        print(json.dumps({"files": per_file, "total": total}, indent=1))
        return 0
    for name, t in [*per_file.items(), ("ALL", total)]:
        guessed = t["right"] + t["wrong"]
        fails = guessed + t["no guess"]
        print(f"{name:28} failures {fails:4}  guessed {guessed:4} ({100 * guessed / max(fails, 1):5.1f}%)  "
              f"right {t['right']:4} (precision {100 * t['right'] / max(guessed, 1):5.1f}%)  "
              f"benign guessed {t['benign guessed']}/{t['benign guessed'] + t['benign left']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
