"""Eleventh pass on issue 15, from the misses of fresh sets 10 and current4 (as families, each from
its source): `ray start --block`'s "Some Ray subprocesses exited unexpectedly", a supervisor's
report of a child ended by a signal (billiard / celery's pool, torch elastic's agent), the weights'
index `weight_map` or an adapter's files not there. Our own reconstructed lines, read alone
through `health --log FILE --json` and through the Analyzer fed in memory."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both  # noqa: E402

NAMED = [
    ("ray_node_dead", "2026-12-04 01:02:03,456 ERROR scripts.py:1201 -- Some Ray subprocesses exited unexpectedly:"),
    ("python_crash", "[2026-12-04 01:02:03,456: ERROR/MainProcess] Process 'ForkPoolWorker-12' pid:4711 exited with 'signal 11 (SIGSEGV)'"),
    ("python_crash", "W1204 02:00:00.000000 88 torch/distributed/elastic/agent/server/api.py:723] Received 2 death signal, shutting down workers"),
    ("hf_weights_missing", "RuntimeError: failed to read weight_map from /models/q7b/model.safetensors.index.json"),
    ("hf_weights_missing", "ValueError: adapter model file not found in /runs/lora/step-80. Make sure you are passing the correct path"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


@pytest.mark.parametrize("line", [
    "INFO 12-04 01:02:03 loader.py:40] weight_map has 291 entries",
    "celery-1 | Process 'ForkPoolWorker-4' pid:29 exited with 'exitcode 0'",
])
def test_a_look_alike_is_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL"
