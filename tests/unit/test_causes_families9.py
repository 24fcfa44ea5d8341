"""Ninth pass on issue 15, from the misses of fresh sets 8 and current3 (as families, each from
its source): HTTP 416 (a resumed download asked past the file's end) and 451 (an access refusal)
by status, huggingface_hub 1.x's own HTTP client (an httpx / httpcore transport failure with no
other URL is the Hub's), the Hub's inference services as an application's API, the NVSwitch
driver's SXid records, torch's "no usable CUDA" statements, transformers' "Unable to load weights
from", numpy's short write, gloo's monitored barrier. Every line is our own reconstruction, read
alone through `health --log FILE --json` and through the Analyzer fed in memory."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both  # noqa: E402

NAMED = [
    ("hf_incomplete_download", "requests.exceptions.HTTPError: 416 Client Error: Requested Range Not Satisfiable for url: "
                               "https://huggingface.co/acme/m/resolve/main/model-00002-of-00003.safetensors"),
    ("hf_incomplete_download", "httpx.HTTPStatusError: Client error '416 Range Not Satisfiable' for url "
                               "'https://hf-mirror.com/acme/m/resolve/main/tokenizer.json'"),
    ("hf_incomplete_download", "HTTPError: 416 Client Error: Range Not Satisfiable"),
    ("hf_gated", "huggingface_hub.errors.HfHubHTTPError: Client error '451 Unavailable For Legal Reasons' for url "
                 "'https://huggingface.co/api/models/acme/m/revision/main'"),
    ("hf_http_error", "httpx.ConnectTimeout: timed out"),
    ("hf_http_error", "[rank3]: httpcore.ReadError: [Errno 104] Connection reset by peer"),
    ("hf_http_error", "httpx.RemoteProtocolError: Server disconnected without sending a response."),
    ("python_crash", "openai.APIConnectionError: Connection error."),
    ("python_crash", "requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: "
                     "https://router.huggingface.co/hf-inference/models/acme/judge"),
    ("python_crash", "httpx.ReadTimeout: timed out while calling http://reward-svc:8080/score"),
    ("cuda_error", "Dec  3 04:05:06 node7 kernel: nvidia-nvswitch3: SXid (PCI:0000:86:00.0): 20034, Fatal, Link 12 LTSSM Fault Up"),
    ("cuda_error", "RuntimeError: No CUDA GPUs are available"),
    ("cuda_error", "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                   "If you are running on a CPU-only machine, please use torch.load with map_location"),
    ("checkpoint_corrupt", "OSError: Unable to load weights from pytorch checkpoint file for '/ckpt/step_40/pytorch_model.bin' "
                           "at '/ckpt/step_40/pytorch_model.bin'."),
    ("disk_full", "OSError: 8388608 requested and 4096 written"),
    ("dist_timeout", "[rank0]: RuntimeError: [Rank 0]: Ranks 5, 7 failed to pass monitoredBarrier in 60000 ms"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


BENIGN = [
    # a non-fatal Xid the driver grades so: kept as a warning at most
    "NVRM: Xid (PCI:0000:3b:00): 13, Graphics Exception: non-fatal, ESR 0x405840",
    # the Hub's retry notice on a ranged resume
    "WARNING huggingface_hub.file_download: Error while downloading from https://huggingface.co/a/b/resolve/main/x.bin: "
    "peer closed connection. Trying to resume download...",
    "INFO 12-03 04:05:06 numpy dump: 4096 requested and 4096 written",
]


@pytest.mark.parametrize("line", BENIGN)
def test_a_look_alike_is_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL"
