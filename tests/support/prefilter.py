"""The prefilter's two paths must agree: grep with patterns.GREP_PATTERN (files, large blocks)
and analyzer.hit_spans (bytes.find passes, small blocks) let exactly the same lines through."""

from __future__ import annotations

import subprocess
from pathlib import Path

from irisrl.observe import patterns as P
from irisrl.observe.analyzer import hit_spans


def assert_grep_and_scan_agree(lines: list[str], tmp_path: Path, filler: str = "chatter") -> None:
    """Interleave `lines` with filler lines no needle matches; both paths keep `lines`, in order."""
    data = "".join(f"{filler} {i}\n{line}\n" for i, line in enumerate(lines)).encode()
    log = tmp_path / "lines.log"
    log.write_bytes(data)
    out = subprocess.run(["grep", "-E", P.GREP_PATTERN, str(log)], capture_output=True,
                         env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}, check=True)
    assert out.stdout.decode().splitlines() == lines
    assert [data[s:e].decode() for s, e in hit_spans(data)] == lines
