"""Eighth pass on issue 15: the exception CLASS decides, read from the libraries' own exception
modules (urllib3 / requests / httpx / aiohttp transport and cut-short classes, ray.exceptions'
object-loss classes, huggingface_hub's token error), the OSError family by errno, and an HTTP
status error by the URL it names (a model file on the Hub or another host vs an application's
API). Every line is our own reconstruction (other sizes, hosts, paths, repos), not a corpus
line; each is read alone through `health --log FILE --json` and through the Analyzer fed in
memory, which must agree (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both  # noqa: E402

from irisrl.observe import exceptions as E  # noqa: E402

NAMED = [
    # a download cut short, by class (urllib3 IncompleteRead / InvalidChunkLength, requests
    # ChunkedEncodingError, aiohttp ClientPayloadError) or by a ProtocolError's message
    ("hf_incomplete_download", "urllib3.exceptions.IncompleteRead: IncompleteRead(52428800 bytes read, 4771102720 more expected)"),
    ("hf_incomplete_download", "(ModelLoader pid=2231) urllib3.exceptions.IncompleteRead: IncompleteRead(7 bytes read, 9 more expected)"),
    ("hf_incomplete_download", "urllib3.exceptions.ProtocolError: ('Connection broken: IncompleteRead(3145728 bytes read, "
                               "1048576 more expected)', IncompleteRead(3145728 bytes read, 1048576 more expected))"),
    ("hf_incomplete_download", "urllib3.exceptions.ProtocolError: Response ended prematurely"),
    ("hf_incomplete_download", "requests.exceptions.ChunkedEncodingError: ('Connection broken: InvalidChunkLength(got length b'', "
                               "0 bytes read)', InvalidChunkLength(got length b'', 0 bytes read))"),
    ("hf_incomplete_download", "aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed"),
    ("hf_incomplete_download", "httpx.RemoteProtocolError: peer closed connection without sending complete message body "
                               "(received 1048576 bytes, expected 2097152)"),
    # an HTTP status error: on a model file / the Hub by its URL, cut before its URL by its status
    ("hf_http_error", "  HTTPError: 503 Server Error: Service Unavailable for"),
    ("hf_http_error", "requests.exceptions.httperror 502 server error bad gateway for url "
                      "https://models.example.org/checkpoints/encoder-large.zip"),
    ("hf_http_error", "requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: "
                      "https://hf-mirror.com/acme/coder-7b/resolve/main/model-00002-of-00003.safetensors"),
    ("hf_http_error", "aiohttp.client_exceptions.ClientResponseError: 503, message='Service Unavailable', "
                      "url='https://cdn.example.net/weights/vae.safetensors'"),
    ("hf_weights_missing", "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
                           "https://download.example.com/releases/download/v1/detector.onnx"),
    # the transport classes on a download
    ("hf_http_error", "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max "
                      "retries exceeded with url: /api/models/acme/tiny (Caused by NameResolutionError(\"<urllib3."
                      "connection.HTTPSConnection object at 0x7f00>: Failed to resolve 'huggingface.co'\"))"),
    ("hf_http_error", "httpx.ConnectError: [Errno 111] Connection refused while fetching https://hf-mirror.com/acme/x/resolve/main/config.json"),
    ("hf_http_error", "urllib.error.URLError: <urlopen error [Errno 110] Connection timed out> while fetching "
                      "https://download.pytorch.org/models/resnet50-0676ba61.pth"),
    ("hf_http_error", "urllib.error.HTTPError: HTTP Error 503: Service Unavailable"),
    # the errno family, any class
    ("disk_full", "PermissionError: [Errno 122] Disk quota exceeded: '/scratch/u/ckpt/step_100'"),
    ("disk_full", "RuntimeError: [Errno 28] No space left on device: '/tmp/ray/spill/obj_1'"),
    ("hf_weights_missing", "FileNotFoundError: No such file or directory: '/mnt/models/coder-7b/model-00003-of-00007.safetensors'"),
    ("hf_weights_missing", "OSError: [Errno 2] No such file or directory: '/ckpt/llm/model.safetensors.index.json'"),
    ("hf_http_error", "OSError: [Errno 101] Network is unreachable: 'https://huggingface.co/api/models/acme/llm-1b'"),
    # ray 2.60 exceptions: the owner worker died; every copy lost to a node failure
    ("ray_worker_died", "ray.exceptions.OwnerDiedError: Failed to retrieve object 00aa11. The object's owner has exited."),
    ("ray_node_dead", "ray.exceptions.ObjectLostError: Failed to retrieve object 00bb22. All copies of 00bb22 have "
                      "been lost due to node failure. Check cluster logs for more information about the failure."),
    # huggingface_hub: a token is required and none is configured
    ("hf_gated", "huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token found."),
    # datasets: a dataset repo that does not exist; a downloaded file whose checksum differs
    ("hf_repo_not_found", "datasets.exceptions.DatasetNotFoundError: Dataset 'acme/prompts-v2' doesn't exist on the Hub "
                          "or cannot be accessed."),
    ("hf_incomplete_download", "datasets.exceptions.NonMatchingChecksumError: Checksums didn't match for dataset source files:"),
    # grpc's private class keeps its underscore: a crash by its class
    ("python_crash", "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with: status = "
                     "StatusCode.INTERNAL>"),
    # the builtin base class and a tool's bare `Error:` are crashes by their class
    ("python_crash", "Exception: judge endpoint returned status 502"),
    ("python_crash", "Error: failed to start container \"trainer\": exec format error"),
    # the same classes from an application's own API are the catch-all, not the Hub's kinds
    ("python_crash", "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: "
                     "http://reward-svc:8080/score"),
    ("python_crash", "FileNotFoundError: [Errno 2] No such file or directory: '/data/prompts/train.parquet'"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_class_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


LOOK_ALIKES = [
    "2026-03-04 10:00:00 INFO Exception: none raised during warmup",
    "Caught Exception: retrying the judge call in 5s",
    "Error: no errors found in 12 shards",
    "urllib3 retry on ProtocolError, attempt 2 of 5",
]


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_a_look_alike_is_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL"


def test_the_errno_decides_by_number_or_text() -> None:
    assert E.errno_kind("[Errno 28] No space left on device") == "disk_full"
    assert E.errno_kind("disk quota exceeded") == "disk_full"
    assert E.errno_kind("[Errno 2] No such file or directory: 'x/pytorch_model-00001-of-00002.bin'") == "hf_weights_missing"
    assert E.errno_kind("[Errno 2] No such file or directory: 'x/pytorch_model.bin'") is None   # a run's own output
    assert E.errno_kind("[Errno 104] Connection reset by peer") is None                          # not on a download
    assert E.errno_kind("[Errno -3] Temporary failure in name resolution: https://huggingface.co/x") == "hf_http_error"


def test_a_status_error_cut_before_its_url_is_read_by_status() -> None:
    assert E.status_class_kind(E.Exc("HTTPError", "HTTPError", "429 Client Error: Too Many Requests for")) == "hf_http_error"
    assert E.status_class_kind(E.Exc("HTTPError", "HTTPError", "401 Client Error: Unauthorized for")) is None
    assert E.status_class_kind(E.Exc("HTTPError", "HTTPError", "500 Server Error for url: http://svc/x")) is None


def test_a_protocol_error_that_is_not_cut_short_is_transport() -> None:
    aborted = E.parse("urllib3.exceptions.ProtocolError: ('Connection aborted.', RemoteDisconnected('closed'))")
    assert aborted is not None and E.class_kind(aborted) is None
    assert E.timeout_kind(aborted, "ProtocolError ('Connection aborted.') https://huggingface.co/x") == "hf_http_error"
