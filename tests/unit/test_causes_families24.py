"""Passes 24 and after on issue 15, from the misses of fresh set 17 (as families, each from its
source): a supervisor's report of a child's non-zero exit with no error of its own (docker
compose, runpod / Go runners, "exited with status N") is the catch-all python_crash, named by
that end only when no error line came before it; Ray's older "The actor is dead because its node
has died" is the node's death; a CUDA check macro's "out of memory" (torch < 1.0's THCudaCheck) is
a CUDA OOM. Our own reconstructed lines, through both readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402

NAMED24 = [
    ("python_crash", "rollout-worker exited with exit code 134"),
    ("python_crash", "trainer-1 exited with code 2"),
    ("python_crash", "2026/12/04 01:02:03 supervisor: child process exited with status 1"),
    ("ray_node_dead", "The actor is dead because its node has died. Node Id: 5f0c9d1e2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091"),
    ("cuda_oom", "THCudaCheck FAIL file=/opt/src/THC/THCCachingAllocator.cpp line=510 error=2 : out of memory"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED24)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_clean_exit_is_not_a_crash(tmp_path: Path) -> None:
    report = both(tmp_path, ["rollout-worker exited with exit code 0"])
    assert primary(report) is None and report["verdict"] == "NO-KILL"


def test_the_error_before_the_exit_is_what_the_process_died_of(tmp_path: Path) -> None:
    """The exit report is the end, not the cause: an error line before it is named instead."""
    report = both(tmp_path, ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.",
                             "rollout-worker exited with exit code 1"])
    assert primary(report) == "cuda_oom"
    odd = both(tmp_path, ["ERROR 12-04 01:02:03 [reward.py:40] reward shard 7 returned a malformed batch",
                          "[error] rollout-worker exited with exit code 1"])
    assert primary(odd) is None and odd["reasons"][0].startswith("crashed: unrecognized error: ")
    assert "malformed batch" in odd["reasons"][0]
