"""The committed tree holds no merge leftovers (`*.orig` / `*.rej` / conflict markers): two
`.orig` copies of docs once rode along in a merge commit unnoticed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEFTOVER = re.compile(r"\.(?:orig|rej)$|~$")
MARKER = re.compile(rb"^(?:<{7}|>{7}) ", re.MULTILINE)


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def test_no_merge_leftover_files_are_tracked() -> None:
    assert [p for p in _tracked() if LEFTOVER.search(p)] == []


def test_no_conflict_markers_in_tracked_text() -> None:
    hits = []
    for rel in _tracked():
        path = ROOT / rel
        if path.suffix in {".py", ".md", ".toml", ".txt", ".sh", ".yaml", ".yml", ".cfg"} and path.is_file():
            if MARKER.search(path.read_bytes()):
                hits.append(rel)
    assert hits == []
