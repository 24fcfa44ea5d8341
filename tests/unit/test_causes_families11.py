"""Eleventh pass on issue 15, from the misses of fresh sets 10 and current4 (as families, each from
its source): `ray start --block`'s "Some Ray subprocesses exited unexpectedly", a supervisor's
report of a child ended by a signal (billiard / celery's pool, torch elastic's agent), the weights'
index `weight_map` or an adapter's files not there; pass 12 (set 11's misses): torch elastic's signal
line in any case, Ray's older "Ray processes died unexpectedly", a registry that cannot give an
image, a checkpoint that cannot be loaded, a weight file not on disk in any wording, a body cut
short in any client's words, llama.cpp's "error from HF API". Our own reconstructed lines, read alone
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
    # pass 12, from set 11's misses
    ("python_crash", "torch.distributed.elastic: signal 15 (SIGTERM) received by PID 9021"),
    ("ray_node_dead", "2021-03-04 05:06:07,890 ERROR scripts.py:520 -- Ray processes died unexpectedly:"),
    ("image_pull", "error: unable to retrieve source image registry.acme.io/rl/trainer manifest sha256:0123abcd:"),
    ("checkpoint_corrupt", "[2025-03-01 10:11:12,131][4242] Could not load from checkpoint, attempt 1"),
    ("hf_weights_missing", "No such file or directory: '/mnt/models/q14b/model-00002-of-00006.safetensors'"),
    ("hf_weights_missing", "ERROR:root:No safetensors found in /home/u/.cache/huggingface/hub/models--a--b/snapshots/0f1e"),
    ("hf_incomplete_download", '{"event": "Failed to download chunk: (\'Connection broken: IncompleteRead(0 bytes read, 512 more expected)\')"}'),
    ("hf_http_error", "  what():  error from HF API, response code: 502, data: {\"error\":\"Bad gateway\"}"),
    # pass 13, from current5's misses
    ("hf_repo_not_found", "FileNotFoundError: acme/rl-7b/tokenizer_config.json (repository not found)"),
    # (pass 66: the corpus README's state-dict-mismatch rule, as three later sets label it: the file reads, the model disagrees)
    ("python_crash", "safetensors_rust.SafetensorError: File does not contain tensor lm_head.bias"),
    # (pass 146: a DCP checkpoint's data file missing is the checkpoint's, as its .metadata is; current sets 16, 69, 70
    # label it so, sets 5 and 33 hf_weights_missing)
    ("checkpoint_corrupt", "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_80/__7_0.distcp'"),
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
