"""On a GPU machine: the sampler's GPU readings (nvidia-smi --query-gpu) against nvidia-smi's
own XML report (`nvidia-smi -q -x`, another code path and format), and the memory a process
allocates (torch, when installed) visible in the next reading. Skipped without nvidia-smi."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from irisrl.runtime.liveness import Gpu

pytestmark = pytest.mark.skipif(shutil.which("nvidia-smi") is None, reason="no nvidia-smi (no GPU here)")


def _xml() -> list[tuple[int, int, int]]:
    """(util %, used MiB, total MiB) per GPU, in nvidia-smi's index order."""
    root = ET.fromstring(subprocess.run(["nvidia-smi", "-q", "-x"], capture_output=True, text=True,
                                        timeout=30, check=True).stdout)
    def num(gpu: ET.Element, path: str) -> int:
        return int(str(gpu.findtext(path, "0")).split()[0])    # "143771 MiB", "100 %"

    return [(num(g, "utilization/gpu_util"), num(g, "fb_memory_usage/used"), num(g, "fb_memory_usage/total"))
            for g in root.findall("gpu")]


def test_gpu_readings_match_nvidia_smi() -> None:
    rows = Gpu().read()
    assert isinstance(rows, list) and rows, rows
    xml = _xml()
    assert [r[0] for r in rows] == list(range(len(xml)))
    for (_, util, used, total), (x_util, x_used, x_total) in zip(rows, xml):
        assert total == x_total and used is not None and util is not None
        assert abs(used - x_used) <= 256 and abs(util - x_util) <= 50


def test_gpu_memory_a_process_allocates_shows() -> None:
    torch = pytest.importorskip("torch")
    before = Gpu().read()
    assert isinstance(before, list)
    block = torch.empty(4 * 1024**3, dtype=torch.uint8, device="cuda:0")   # 4 GiB
    try:
        after = Gpu().read()
        assert isinstance(after, list)
        used_before, used_after = before[0][2], after[0][2]
        assert used_before is not None and used_after is not None
        assert used_after - used_before >= 4000, (before, after)
    finally:
        del block
