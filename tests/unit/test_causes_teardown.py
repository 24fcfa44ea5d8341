"""Lines at or after the run's own end line are teardown (issue 15, pass 5): Ray's shutdown after
a clean rehearsal or training run (RpcError "Cancelling all calls", "Failed to mark the local node as
draining" as its SIGTERM drain races the GCS going away: tests/faults/test_lifecycle_faults.py) is
neither a death nor a warning: `status: teardown` in health --json, not in the text's warnings.
The lines are our own reconstructions of those shapes."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from irisrl.observe.analyzer import Analyzer
from irisrl.observe.render import render_health

END = "[irisrl] Command exited with code 0"
TEARDOWN = ["ray.exceptions.RpcError: Cancelling all calls",
            "(raylet) [2026-12-03 16:00:31,000 E 42 42] node_manager.cc:2000: Failed to mark the local node as draining "
            "on SIGTERM: GCS unavailable"]
PLACED = "[irisrl] Ray nodes alive: 2/2"


def _report(lines: list[str]) -> tuple[dict[str, Any], str]:
    analyzer = Analyzer({"num_nodes": 2, "role": "rehearsal", "train_data": []})
    analyzer.feed("task-0.attempt-0.log", "".join(line + "\n" for line in lines).encode())
    report = analyzer.verdict()
    out = io.StringIO()
    render_health(report, Console(file=out, width=200))
    return report.to_dict(), out.getvalue()


def test_ray_shutdown_after_the_end_line_is_teardown_not_a_warning() -> None:
    report, text = _report([PLACED, END] + TEARDOWN)
    assert report["verdict"] == "NO-KILL" and report["phase"] == "finished"
    statuses = [c["status"] for c in report["causes"]] + [u["status"] for u in report["unrecognized"]]
    assert statuses and set(statuses) == {"teardown"}, (report["causes"], report["unrecognized"])
    assert not any("not fatal" in r for r in report["reasons"]), report["reasons"]
    assert "Cancelling all calls" not in text and "draining" not in text, text


def test_the_same_lines_before_the_end_line_are_still_shown() -> None:
    report, text = _report([PLACED] + TEARDOWN + [END])
    statuses = [c["status"] for c in report["causes"]] + [u["status"] for u in report["unrecognized"]]
    assert "teardown" not in statuses and "fatal" not in statuses, statuses
    assert "Cancelling all calls" in text or "draining" in text, text
