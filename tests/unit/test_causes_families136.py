"""Passes 136 and after on issue 15 (fifteenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py). Pass 136 came from a metamorphic check, not from corpus misses: each named corpus
line re-read under the prefixes real logs put around it (a Ray actor's, a torchrun rank's, a container runtime's
time, mpirun's, docker compose's column, ANSI colour) must keep its kind."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402


@pytest.mark.parametrize("line", [
    # another library's timeout in a rank's output is that library's wait, not the process group's
    "[rank3]: httpx.ReadTimeout: timed out",
    "[rank3]: litellm.exceptions.Timeout: litellm.Timeout: Read timed out. Timeout passed=2.0, time taken=2.036 seconds",
    "[rank3]: subprocess.TimeoutExpired: Command '['python', 'eval.py']' timed out after 30 seconds",
    "[rank3]: multiprocessing.context.TimeoutError",
    "[rank3]: filelock._core._errors.Timeout: The file lock '/ck/global_step_10.lock' could not be acquired.",
    # a builtin timeout whose message names what else it waited on (a URL, an endpoint, a Ray task)
    "[rank3]: TimeoutError: judge endpoint did not answer in 0.1 s",
    "[rank3]: RuntimeError: DataLoader timed out after 3 seconds",
])
def test_a_ranks_wait_on_something_else_is_not_its_groups(tmp_path: Path, line: str) -> None:
    assert primary(both(tmp_path, [line])) != "dist_timeout"


def test_a_ranks_own_timeout_stays_its_groups(tmp_path: Path) -> None:
    # (the pass-131 lines: a builtin or torch class, nothing else named as waited on)
    assert_named(tmp_path, "dist_timeout", "[rank3]: RuntimeError: Operation timed out!")
    assert_named(tmp_path, "dist_timeout", "[rank6]: TimeoutError: pipe.recv() timed out after 60.0 seconds")
