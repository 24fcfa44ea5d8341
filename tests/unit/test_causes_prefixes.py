"""A line reads the same whoever collected it: torchrun's per-rank tee (`[rank3]:`, older
`[default3]:`), a log record's header before a caught exception, a `docker compose` service column
before a process prefix. Our own reconstructed lines, each bare and prefixed, through both readers
(tests/support/one_line.py); the bare reading is the reference, so the test fails on any prefix
that changes the kind or the verdict."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import both, primary  # noqa: E402

BARE = [
    ("hf_incomplete_download", "urllib3.exceptions.IncompleteRead: IncompleteRead(524288 bytes read, 1048576 more expected)"),
    ("hf_http_error", "httpx.ReadTimeout: timed out"),
    ("hf_http_error", "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)"),
    ("dist_timeout", "torch.distributed.elastic.rendezvous.api.RendezvousClosedError"),
    ("python_crash", "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the future was running or pending."),
    ("cuda_oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 139.80 GiB of which 1.10 GiB is free."),
    ("nccl_timeout", "[E1204 01:02:03.456789012 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation timeout: "
                     "WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600042 milliseconds before timing out."),
]
TORCHRUN = ["[rank3]: ", "[rank12]:", "[default3]: "]
LOG_HEADER = ["2026-12-04 01:02:03,456 - trainer - ERROR - ", "ERROR 12-04 01:02:03 [worker.py:88] "]


@pytest.mark.parametrize(("kind", "line"), BARE)
@pytest.mark.parametrize("prefix", TORCHRUN + LOG_HEADER)
def test_a_prefix_does_not_change_the_reading(tmp_path: Path, kind: str, line: str, prefix: str) -> None:
    if prefix in LOG_HEADER and line.startswith("[E"):
        pytest.skip("a glog line is not logged through a Python logger")
    bare = both(tmp_path, [line])
    assert primary(bare) == kind, bare.get("causes")
    seen = both(tmp_path, [prefix + line])
    assert (primary(seen), seen["verdict"]) == (kind, bare["verdict"]), prefix + line


def test_an_engine_traceback_reads_by_phase_behind_a_compose_column(tmp_path: Path) -> None:
    head = "(EngineCore_DP0 pid=4242) ERROR 12-04 01:02:03 [core.py:866] Traceback (most recent call last):"
    for line in (head, "vllm-1  | " + head):
        report = both(tmp_path, [line])
        assert (primary(report), report["verdict"]) == ("engine_init_failed", "KILL"), line
    # a compose column with no process prefix after it stays part of the line (its name is evidence)
    assert primary(both(tmp_path, ["vllm-1  | INFO 12-04 01:02:03 [loggers.py:1] Engine 000: Avg prompt throughput: 1.0 tokens/s"])) is None
