"""Passes 90 and after on issue 15 (eleventh round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import both, primary  # noqa: E402

FT = "[rank1]:[titan] 2026-01-02 10:00:00,001 - torchft.manager - ERROR - [ft_group_2:0c1d/1 - step 812] "


def test_an_error_a_fault_tolerance_manager_took_in_is_no_death(tmp_path: Path) -> None:
    # torchft's Manager logs each error it is handed, then discards the step and carries on (report_error)
    for said in ("got exception in all reduce -- skipping remaining: NCCL Error 6: remote process exited",
                 "got exception in recovery: Connection reset by peer",
                 "got exception waiting for work Timed out after 30 seconds"):
        assert both(tmp_path, [FT + said])["verdict"] == "NO-KILL", said
    # so does any line that says it skips the rest of the work at hand
    assert both(tmp_path, ["2026-01-02 10:00:00 ERROR collector: shard 3 unreadable (OSError: [Errno 5] Input/output error), "
                           "skipping the rest of the shard"])["verdict"] == "NO-KILL"
    # its give-up is the replica's end, and the same error outside the manager's report is what it is
    gave_up = both(tmp_path, [FT + "should_commit failed 4 times consecutively, exceeding max_retries=3",
                              "RuntimeError: should_commit failed 4 times consecutively, exceeding max_retries=3",
                              "Command exited with code 1"])
    assert gave_up["verdict"] == "KILL" and primary(gave_up) == "python_crash"
    assert both(tmp_path, ["[rank1]: torch.distributed.DistBackendError: NCCL Error 6: remote process exited",
                           "Command exited with code 1"])["verdict"] == "KILL"
