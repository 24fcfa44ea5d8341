"""A line reads the same whoever collected it, on the corpus's own lines (issue 15: generalize, don't enumerate): every
fourth line of every corpus file that `health` names, re-read behind the wrappers collectors put around a line (a
container runtime's RFC 3339 time, mpirun's `[1,0]<stderr>:`, a docker compose service column, ANSI colour), keeps its
kind. The wrappers are the cleaner's (observe/patterns.py); tests/unit/test_causes_prefixes.py checks torchrun's tee and
log headers on reconstructed lines. The in-memory reader (the watchdog's) only: the file path is the same code after
the prefilter."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import health_fed, primary  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
EVERY = 4
ISO_TIME = re.compile(r"^\s*\d{4}-\d\d-\d\dT\d\d:\d\d")   # a line with its own container time: two would be one prefix too many
WRAPPERS: dict[str, Callable[[str], str]] = {
    "container_time": lambda line: f"2026-12-05T10:11:12.123456789Z {line}",
    "mpirun": lambda line: f"[1,0]<stderr>:{line}",
    "compose": lambda line: f"trainer-1  | {line}",
    "ansi": lambda line: f"\x1b[31m{line}\x1b[0m",
}


def _kind(line: str) -> str | None:
    return primary(health_fed([line]))


@pytest.fixture(scope="module")
def named() -> dict[str, str]:
    """The sampled corpus lines `health` names, with the kind it gives each bare."""
    out: dict[str, str] = {}
    for path in sorted(CORPUS.glob("*/*.jsonl")):
        if path.name.startswith("raw_"):
            continue
        rows = [json.loads(raw)["line"] for raw in path.read_text(encoding="utf-8").splitlines() if raw.strip()]
        for line in rows[::EVERY]:
            if (kind := _kind(line)) is not None:
                out[line] = kind
    return out


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_a_wrapper_keeps_every_named_lines_kind(named: dict[str, str], wrapper: str) -> None:
    wrap = WRAPPERS[wrapper]
    lines = [line for line in named if not (wrapper == "container_time" and ISO_TIME.search(line))]
    changed = [(named[line], seen, line[:160]) for line in lines if (seen := _kind(wrap(line))) != named[line]]
    assert len(lines) > 2000
    assert not changed, changed[:10]
