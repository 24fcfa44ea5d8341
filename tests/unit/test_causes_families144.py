"""Passes 144 and after on issue 15 (sixteenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402

NAMED = [
    # ---- pass 144 (public set 73): SGLang's running-phase SIGQUIT handler in its current words ("one child failed")
    ("[2026-11-30 08:12:44] SIGQUIT received. signum=None, frame=None. It usually means one child failed.", "engine_dead"),
    # vLLM's dump of the batch an engine step failed on, old and new wordings, with and without the logger's head
    ("(EngineCore_DP0 pid=4410) ERROR 11-30 08:12:44 [dump_input.py:72] Dumping input data", "engine_dead"),
    ("(EngineCore pid=311) ERROR 11-30 08:12:44 [dump_input.py:79] Dumping scheduler output for model execution: "
     "SchedulerOutput(scheduled_new_reqs=[], num_scheduled_tokens={r-1: 1}, total_num_scheduled_tokens=1)", "engine_dead"),
    ("[dump_input.py:76] Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[])", "engine_dead"),
    ("(EngineCore pid=311) ERROR 11-30 08:12:44 [dump_input.py:90] Dumping input data for V1 LLM engine "
     "(v0.30.1, reason=exception) with config: model='Qwen/Qwen3-8B', ", "engine_dead"),
    # ---- pass 145 (current set 65): bash's signal report whose padded words run into the command
    ("sandbox.sh: line 7:  4410 File size limit exceededdd if=/dev/zero of=big.bin bs=1M count=64", "python_crash"),
    ("sandbox.sh: line 7:  4410 CPU time limit exceededpython3 solution.py", "python_crash"),
    # a dotted exception class named for what expired, with no error word (the prefilter's `xpired`)
    ("pebble.common.types.ProcessExpired: Abnormal termination", "python_crash"),
    # ---- pass 146 (current sets 69, 70): a DCP checkpoint's data file missing is the checkpoint's, as its .metadata is
    ("[rank1]: FileNotFoundError: [Errno 2] No such file or directory: '/ck/run-3/global_step_80/policy/__1_0.distcp'",
     "checkpoint_corrupt"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/ck/run-3/global_step_80/.metadata'", "checkpoint_corrupt"),
]


@pytest.mark.parametrize(("line", "kind"), NAMED)
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_dump_for_another_reason_is_no_engine_death(tmp_path: Path) -> None:
    # (a slow stage's diagnostic: the engine goes on after it)
    line = ("(EngineCore pid=311) ERROR 11-30 08:12:44 [dump_input.py:90] Dumping input data for V1 LLM engine "
            "(v0.30.1, reason=timeout) with config: model='Qwen/Qwen3-8B', ")
    assert primary(both(tmp_path, [line])) != "engine_dead"


@pytest.mark.parametrize("line", ["the lease expired, renewing it", "INFO cache entry expired for key rollout/12"])
def test_an_expiry_in_passing_says_no_failure(tmp_path: Path, line: str) -> None:
    report = both(tmp_path, [line])
    assert primary(report) is None and not report.get("unrecognized")
