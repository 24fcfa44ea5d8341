"""Passes 117 and after on issue 15 (thirteenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402


@pytest.mark.parametrize(("line", "kind"), [
    # ---- the CUDA driver API's status as a number (cuda.h CUresult: 2 is CUDA_ERROR_OUT_OF_MEMORY)
    ("[saver.cpp] CUresult error result=2 file=csrc/saver.cpp func=cu_mem_create line=88", "cuda_oom"),
    ("cuMemMap failed with CUresult 2", "cuda_oom"),
    ("[saver.cpp] CUresult error result=719 file=csrc/saver.cpp func=cu_mem_unmap line=91", "cuda_error"),
])
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_successful_curesult_is_no_failure(tmp_path: Path) -> None:
    assert primary(both(tmp_path, ["cuMemCreate returned CUresult 0 for a 2 MiB chunk"])) is None
