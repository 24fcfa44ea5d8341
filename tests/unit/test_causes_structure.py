"""Classification by structure (observe/exceptions.py, the library families in observe/causes.py):
exception classes whatever their module path, wrappers unwrapped, the HTTP status inside Hub
errors, the new kinds; each line gets ONE primary kind, the most specific. The lines are our
reconstructions from the libraries' own format strings (cited in causes.py / exceptions.py)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from irisrl.observe import causes as C
from irisrl.observe import exceptions as E
from irisrl.observe import patterns as P
from irisrl.observe.analyzer import Analyzer, hit_spans

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from prefilter import assert_grep_and_scan_agree  # noqa: E402

REQ = "(Request ID: Root=1-65a0b1c2-0d1e2f3a4b5c6d7e8f9a0b1c;6f0e1d2c-3b4a-5968-7a6b-5c4d3e2f1a0b)"
CASES = [
    # class names whatever the module path / version
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.1 GiB",
     "cuda_oom"),
    ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB", "cuda_oom"),
    ("RuntimeError: CUDA error: out of memory", "cuda_oom"),
    (f"huggingface_hub.errors.GatedRepoError: 403 Client Error. {REQ}", "hf_gated"),
    (f"huggingface_hub.utils._errors.GatedRepoError: 401 Client Error. {REQ}", "hf_gated"),
    ("Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.",
     "hf_gated"),
    ("OSError: You are trying to access a gated repo.", "hf_gated"),
    (f"huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. {REQ}", "hf_repo_not_found"),
    (f"huggingface_hub.utils._errors.RevisionNotFoundError: 404 Client Error. {REQ}", "hf_repo_not_found"),
    ("OSError: Qwen/Qwen9-1B is not a local folder and is not a valid model identifier listed on "
     "'https://huggingface.co/models'", "hf_repo_not_found"),
    (f"huggingface_hub.errors.RemoteEntryNotFoundError: 404 Client Error. {REQ}", "hf_weights_missing"),
    (f"huggingface_hub.utils._errors.EntryNotFoundError: 404 Client Error. {REQ}", "hf_weights_missing"),
    ("huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub",
     "hf_http_error"),
    # HTTP status inside a generic Hub error decides
    ("requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/api/models/x/y",
     "hf_gated"),
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://huggingface.co/api/models/org/name",
     "hf_repo_not_found"),
    ("huggingface_hub.errors.HfHubHTTPError: 404 Client Error: Not Found for url: "
     "https://huggingface.co/org/name/resolve/main/model-00001-of-00004.safetensors", "hf_weights_missing"),
    ("huggingface_hub.errors.HfHubHTTPError: 503 Server Error: Service Unavailable for url: "
     "https://huggingface.co/api/models/org/name", "hf_http_error"),
    # checkpoints
    ("safetensors_rust.SafetensorError: Error while deserializing header: header too large", "checkpoint_corrupt"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", "checkpoint_corrupt"),
    ("_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options",
     "checkpoint_corrupt"),
    ("RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory",
     "checkpoint_corrupt"),
    # CUDA
    ("torch.AcceleratorError: CUDA error: device-side assert triggered", "cuda_error"),
    ("RuntimeError: CUDA error: an illegal memory access was encountered", "cuda_error"),
    ("NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.", "cuda_error"),
    ("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k)`",
     "cuda_error"),
    # disk, in any wrapper
    ("OSError: [Errno 28] No space left on device", "disk_full"),
    ("ray.exceptions.RayTaskError(OSError): ray::FSDPPolicyWorker.save_checkpoint() (pid=8123, ip=10.0.0.3) "
     "OSError: [Errno 28] No space left on device: '/ckpt/global_step_40'", "disk_full"),
    ("RuntimeError: [enforce fail at inline_container.cc:626] . unexpected pos 1234560 vs 1234448", "disk_full"),
    ("RuntimeError: PytorchStreamWriter failed writing file data/12: file write failed", "disk_full"),
    ("/tmp/ray/session_2026-12-03_16-00-00_123456_1 is over 95% full, available space: 5.2GB; capacity: 100GB. "
     "Object creation will fail if spilling is required.", "disk_full"),
    # torch.distributed stores / rendezvous / gloo
    ("torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 7/8 clients joined.",
     "dist_timeout"),
    ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for "
     "recv operation to complete", "dist_timeout"),
    ("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", "dist_timeout"),
    # NCCL families
    ("[rank3]:[E1203 16:00:00.123456789 ProcessGroupNCCL.cpp:1834] [PG ID 0 PG GUID 0(default_pg) Rank 3]  failure "
     "detected by watchdog at work sequence id: 59958 PG status: last enqueued work: 59998", "nccl_timeout"),
    ("[rank0]:[E1203 16:00:00.1 ProcessGroupNCCL.cpp:1400] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL's "
     "watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.", "nccl_timeout"),
    ("node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with "
     "error 12, opcode 0, len 0, vendor err 129 (Recv)", "nccl_error"),
    ("host:1:2 [1] transport/net_ib/p2p.cc:648 NCCL WARN NET/IB: Got completion from peer 10.1.2.3<40554> with "
     "status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_RECV_RDMA_WITH_IMM(129) vendor_err=129", "nccl_error"),
    ("host:1:2 [0] misc/socket.cc:47 NCCL WARN socketProgress: Connection closed by remote peer 10.1.2.3<5678>",
     "nccl_error"),
    ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
     "unhandled system error", "nccl_error"),
    # vLLM v1, Ray, the orchestrator
    ("ERROR 12-03 16:00:00 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.",
     "engine_dead"),
    ("[2026-12-03 16:00:00,123 E 123 456] gcs_rpc_client.h:179: Failed to connect to GCS within 60 seconds. GCS may "
     "have been killed.", "ray_node_dead"),
    ("ray.exceptions.RayTaskError(ActorDiedError): ray::Trainer.step() (pid=1, ip=10.0.0.1)", "ray_actor_died"),
    ("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.", "ray_oom_kill"),
    ("      Reason:       OOMKilled", "pod_oomkilled"),
    ("    Last State:     Terminated  Reason: Error  Exit Code:    137", "pod_oomkilled"),
    ("  Warning  Failed     12s (x3 over 50s)  kubelet  Failed to pull image \"ghcr.io/x/y:v1\": rpc error: "
     "code = NotFound desc = failed to resolve reference: manifest unknown", "image_pull"),
    ("  Normal   BackOff    2s (x4 over 40s)   kubelet  Back-off pulling image \"ghcr.io/x/y:v1\"", "image_pull"),
    ("  Warning  Evicted    1m   kubelet  The node was low on resource: memory. Container rl was using 510Gi.",
     "evicted"),
    ("Pod rl-task-3 was preempted by a higher-priority job", "evicted"),
    # Hub errors on any endpoint (HF_ENDPOINT mirror / loopback): httpx's format, the backoff warnings
    ("httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'http://127.0.0.1:45397/org/m/resolve/main/"
     "config.json'", "hf_gated"),
    ("httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://127.0.0.1:4/api/models/org/m/"
     "revision/main'", "hf_http_error"),
    ("HTTP Error 429 thrown while requesting HEAD http://127.0.0.1:37119/org/m/resolve/main/config.json",
     "hf_http_error"),
    ("'[Errno -3] Temporary failure in name resolution' thrown while requesting HEAD "
     "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/resolve/main/config.json", "hf_http_error"),
    ("OSError: There was a specific connection error when trying to load org/m:", "hf_gated"),
    ("huggingface_hub.errors.HfHubHTTPError: (Request ID: Root=1-5a2c274d-a2081501f87a2fc37fca3007)", "hf_http_error"),
    ("RuntimeError: basic_ios::clear: iostream error", "disk_full"),
    ("-- Process 0 terminated with the following error:", "python_crash"),
    ('bash: line 1:   493 Aborted                 "/usr/bin/python3" "train.py"', "python_crash"),
    ("terminate called after throwing an instance of 'c10::DistBackendError'", "python_crash"),
    # older / other-runtime shapes of the same families
    ("RuntimeError: NCCL Error 2: unhandled system error", "nccl_error"),
    ("write /var/lib/containerd/tmp: no space left on device", "disk_full"),
    ("OSError: Incorrect path_or_model_id: '/models/x'. Please provide either the path to a local folder or the "
     "repo_id of a model on the Hub.", "hf_repo_not_found"),
    ("RuntimeError: Found no NVIDIA driver on your system.", "cuda_error"),
    ("ValueError: Free memory on device (20.1/79.1 GiB) on startup is less than desired GPU memory utilization "
     "(0.9, 71.2 GiB).", "engine_init_failed"),
    ("Out of memory: Killed process 4242 (python) total-vm:123kB, anon-rss:456kB", "pod_oomkilled"),
    ("zipfile.BadZipFile: File is not a zip file", "checkpoint_corrupt"),
    ("Your request to access model meta-llama/Llama-2-7b-hf is awaiting a review from the repo authors.", "hf_gated"),
    # anything else that is an exception: python_crash, by its class
    ("KeyError: 'advantages'", "python_crash"),
    ("ray.exceptions.RayTaskError(ZeroDivisionError): ray::Gen.run() (pid=4, ip=10.0.0.2) "
     "ZeroDivisionError: division by zero", "python_crash"),
    ("Fatal Python error: Segmentation fault", "python_crash"),
    ("terminate called after throwing an instance of 'std::runtime_error'", "python_crash"),
]


@pytest.mark.parametrize("line,kind", CASES, ids=[f"{k}-{i}" for i, (_, k) in enumerate(CASES)])
def test_structure_line_gets_its_most_specific_kind(line: str, kind: str) -> None:
    cause = C.match(P.clean(line.encode()).text)
    assert cause is not None and cause.kind == kind


@pytest.mark.parametrize("line,kind", CASES, ids=[f"{k}-{i}" for i, (_, k) in enumerate(CASES)])
def test_structure_line_passes_the_prefilter(line: str, kind: str) -> None:
    data = b"chatter\n" + line.encode() + b"\nchatter\n"
    assert [data[s:e] for s, e in hit_spans(data)] == [line.encode()]


BENIGN = [
    "host:1:2 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
    "host:1:2 [0] misc/ibvwrap.cc:108 NCCL WARN NET/IB : No device found.",
    "UserWarning: TypedStorage is deprecated. It will be removed in the future",
    "[rank0]:[W914 04:53:45.6 ProcessGroupNCCL.cpp:1476] Warning: WARNING: destroy_process_group() was not called",
    "INFO 12-03 16:00:00 [loggers.py:123] Engine 000: Avg generation throughput: 1800.0 tokens/s, Running: 16 reqs, "
    "Waiting: 0 reqs",
    # vLLM's scheduler preempting a sequence is not the pod being preempted (vllm/core/scheduler.py)
    "WARNING 12-03 16:00:00 [scheduler.py:1560] Sequence group 12 is preempted by PreemptionMode.RECOMPUTE mode because "
    "there is not enough KV cache space. This can affect the end-to-end performance.",
]


@pytest.mark.parametrize("line", BENIGN)
def test_structure_benign_lines_are_no_cause(line: str) -> None:
    assert C.match(P.clean(line.encode()).text) is None


def test_structure_c10d_connect_retry_warnings_are_not_a_kill() -> None:
    line = ("[W1203 16:00:00.123 socket.cpp:663] [c10d] The client socket has failed to connect to [node-0]:29500 "
            "(errno: 99 - Cannot assign requested address).")
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-1.attempt-0.log", (line + "\n").encode())
    report = analyzer.verdict().to_dict()
    assert report["verdict"] == "NO-KILL" and report["causes"][0]["kind"] == "dist_timeout"


def test_structure_a_placement_group_wait_is_a_warning_until_the_run_crashed() -> None:
    wait = ("2026-12-03 16:00:00,000\tWARNING insufficient_resources_manager.py:163 -- Waiting for creating a placement "
            "group of specs for 150 seconds. specs=[{'GPU': 1.0}].")
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", (wait + "\n").encode())
    report = analyzer.verdict().to_dict()
    assert report["verdict"] == "NO-KILL" and report["causes"][0]["kind"] == "pg_timeout"
    analyzer.feed("task-0.attempt-0.log", b"2026-12-03 16:05:00.000 | ERROR | x:y:1 - Training failed: boom\n")
    assert analyzer.verdict().to_dict()["cause_of_death"]["kind"] == "pg_timeout"


def test_structure_wrappers_are_unwrapped_to_the_inner_class() -> None:
    exc = E.parse("ray.exceptions.RayTaskError(OSError): ray::Worker.f() (pid=1, ip=1.2.3.4) OSError: [Errno 5] x")
    assert exc is not None and exc.name == "OSError" and exc.message == "[Errno 5] x"
    chained = E.parse("Training failed: RuntimeError: ValueError: bad shape")
    assert chained is not None and chained.name == "ValueError" and chained.message == "bad shape"
    assert E.parse("see https://example.com/FooError: nothing") is None
    assert E.parse("UserWarning: deprecated") is None
    assert E.parse("will retry on ReadTimeoutError") is None          # a name mentioned, not raised
    alone = E.parse("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError")
    assert alone is not None and alone.name == "RendezvousTimeoutError"


def test_structure_signature_masks_numbers_ids_paths_and_addresses() -> None:
    a = E.signature("ERROR 12-03 16:00:01 engine 7 at 0x7f3a2c10 on 10.0.0.17:4321 failed on /tmp/a/b.py req 9f3c2ab1d4")
    b = E.signature("ERROR 12-03 16:09:59 engine 41 at 0x55aa0000 on 10.0.3.2:80 failed on /var/x/y.py req 00ffee11aa")
    assert a == b and "<addr>" in a and "<ip>" in a and "<path>" in a


def _report(lines: list[str], source: str = "task-0.attempt-0.log") -> dict:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed(source, "".join(line + "\n" for line in lines).encode())
    return analyzer.verdict().to_dict()


def test_structure_enginecore_traceback_before_serving_is_init_failed_after_is_dead() -> None:
    tb = ["(EngineCore_DP0 pid=812) Traceback (most recent call last):",
          '(EngineCore_DP0 pid=812)   File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 1, in f',
          "(EngineCore_DP0 pid=812) AssertionError: unexpected block size"]
    before = _report(["2026-12-03 16:00:00 INFO starting"] + tb)
    assert before["cause_of_death"]["kind"] == "engine_init_failed"
    stats = ("INFO 12-03 16:00:10 [loggers.py:123] Engine 000: Avg generation throughput: 900.0 tokens/s, "
             "Running: 4 reqs, Waiting: 0 reqs")
    after = _report([stats] + tb)
    assert after["cause_of_death"]["kind"] == "engine_dead"
    assert not after["unrecognized"], "the traceback is one event, named by its final line"


GLOG_ONLY = [   # level prefixes with no needle on the line: patterns in the prefilter, not needles
    "E0213 12:07:20.086000 870572 torch/distributed/elastic/agent/server/api.py:712] worker group lost",
    "[2025-03-04 19:28:30,014 E 27497 27497] core_worker.cc:113: boom",
    "[E ProcessGroupGloo.cpp:138] something went away",
]


@pytest.mark.skipif(shutil.which("grep") is None, reason="no grep on PATH")
def test_structure_grep_and_the_python_scan_let_the_same_lines_through(tmp_path: Path) -> None:
    lines = [line for line, _ in CASES] + GLOG_ONLY
    assert_grep_and_scan_agree(lines, tmp_path, "chatter")


def test_structure_glog_level_lines_reach_the_safety_net() -> None:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", "".join(line + "\n" for line in GLOG_ONLY).encode())
    report = analyzer.verdict().to_dict()
    assert sorted(u["first"]["line"][-8:] for u in report["unrecognized"]) == sorted(g[-8:] for g in GLOG_ONLY)
