"""Passes 15-23 on issue 15, from the misses of fresh sets 13, current6, 12, 14, current7, 15, current8, 16 and current9 (as families, each from its source):
any supervisor's "<process> exited on signal N" (Open MPI, daemons' waitpid loops), a pod or gang no
node can take in other schedulers' words (Volcano, KAI, the `Unschedulable` reason), Ray Serve's
"replicas that have taken more than Ns to be scheduled" (a wait), a client's "GET failed (<status>)",
Ollama's pull giving up on a body cut short, a loader that cannot open the weight file it names,
`Exception:` right after a log record's header, a traceback head that states what failed before it,
and a process end whose line carries a library's own failure text. Our own reconstructed lines,
read alone through `health --log FILE --json` and through the Analyzer fed in memory."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402

NAMED = [
    ("python_crash", "mpirun noticed that process rank 3 with PID 81723 on node gpu-a17 exited on signal 11 (Segmentation fault)."),
    ("python_crash", "2026-12-04 03:04:05 [alert] 77#77 process 4242 exited on signal 9"),
    ("pg_unplaceable", "  Warning  PodGroupPending  2m                 volcano  PodGroup rl/grpo-7b unschedule,reason: 3/4 tasks in gang unschedulable: pod group is not ready"),
    ("pg_unplaceable", "Warning  Unschedulable  4m   kai-scheduler  No nodes with enough resources were found: 8 node(s) didn't have enough resources: GPUs."),
    ("pg_timeout", "WARNING 2026-12-04 01:02:03,456 controller 88 -- Deployment 'Rollout' in application 'rl' has 2 replicas that have taken more than 30s to be scheduled. This may be due to waiting for the cluster to auto-scale."),
    ("hf_http_error", "get_repo_files: error: GET failed (503): upstream unavailable"),
    ("hf_weights_missing", "get_repo_files: error: GET failed (404): Entry not found"),
    ("hf_incomplete_download", "Error: max retries exceeded: EOF"),
    ("hf_weights_missing", "llama_model_load: error loading model: failed to open GGUF file '/srv/models/q3-8b-q4_k_m.gguf'"),
    ("hf_weights_missing", "loader: cannot open /mnt/ckpt/model-00003-of-00008.safetensors for reading"),
    ("engine_init_failed", "(EngineCore_DP0 pid=777) ERROR 12-04 01:02:03 [core.py:900] Exception: WorkerProc initialization failed due to an exception in a background process."),
    ("engine_init_failed", "[12/04/2026-01:02:03] [TRT-LLM] [E] Executor worker initialization error: Traceback (most recent call last):"),
    ("engine_dead", "Error: Rank 2 scheduler is dead. Exit code: -11 (SIGSEGV)"),
]


@pytest.mark.parametrize("line", [
    "node/gpu-a17 cordoned; marking the node unschedulable for maintenance",
    "WARNING 2026-12-04 01:02:03,456 controller 88 -- Deployment 'Rollout' in application 'rl' has 1 replicas that have taken more than 30s to initialize.",
    "INFO 12-04 01:02:03 [gguf.py:10] opened GGUF file '/srv/models/q3.gguf' (291 tensors)",
    # a command line's words are not a library's failure text: the abort is a python_crash
    "bash: line 1:  1708 Aborted                 python3 train.py --nccl-timeout 600",
])
def test_a_look_alike_is_not_named_by_the_new_families(tmp_path: Path, line: str) -> None:
    report = both(tmp_path, [line])
    assert report["verdict"] != "KILL" or line.startswith("bash:"), report
    assert not any(c["kind"] in ("pg_unplaceable", "pg_timeout", "hf_weights_missing", "nccl_timeout")
                   for c in report["causes"]), report["causes"]


def test_the_serve_wait_is_fatal_only_once_the_run_crashed(tmp_path: Path) -> None:
    wait = NAMED[4][1]
    assert both(tmp_path, [wait])["verdict"] == "NO-KILL"


# pass 16, from fresh set current6's misses (torch 2.11 on the H200)
NAMED16 = [
    ("cuda_error", "RuntimeError: Attempting to deserialize object on CUDA device 7 but torch.cuda.device_count() is 4. Please use torch.load with map_location"),
    ("checkpoint_corrupt", "RuntimeError: [enforce fail at inline_container.cc:199] . Attempted to read a PyTorch file with version 12, but the maximum supported version for reading is 10."),
    ("cuda_oom", "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 2: out of memory"),
    ("dist_timeout", "RuntimeError: Timeout waiting for key: rollout/version after 60000 ms"),
]


# pass 17, from fresh set 12's misses (training-side repositories, TensorFlow and Caffe among them)
NAMED17 = [
    ("image_pull", "Get https://nvcr.io/v2/acme/trainer/manifests/24.01: unauthorized: authentication required"),
    ("cuda_oom", "ResourceExhaustedError: OOM when allocating tensor with shape[64,4096,4096] and type float on /job:localhost/replica:0/task:0/device:GPU:0"),
    ("cuda_oom", "F0101 01:02:03.000000 1 syncedmem.cpp:71] Check failed: error == cudaSuccess (2 vs. 0)  out of memory"),
    ("checkpoint_corrupt", "tensorflow.python.framework.errors_impl.DataLossError: Checksum does not match: stored 123 vs. calculated on the restored bytes 456"),
    ("dist_timeout", "2026-01-02 03:04:05.678901: E tensorflow/core/distributed_runtime/master.cc:270] Master init: Unavailable: failed to connect to all addresses"),
    ("dist_timeout", "ERROR:tensorflow:Remote function on worker /job:worker/replica:0/task:3 failed with UnavailableError(): Connection reset by peer"),
    ("cuda_error", "F0101 01:02:03.000000 7 common.cpp:40] Check failed: error == cudaSuccess (700 vs. 0)  an illegal memory access was encountered"),
    ("cuda_error", "F0101 01:02:03.000000 7 math.cu:12] Check failed: status == CURAND_STATUS_SUCCESS (203 vs. 0)  CURAND_STATUS_INITIALIZATION_FAILED"),
    ("pg_timeout", "Waiting for placement groups to be ready"),
    ("hf_incomplete_download", "modelscope.hub.errors.FileIntegrityError: File /root/.cache/modelscope/hub/q/model.safetensors integrity check failed, expected sha256 signature is abc"),
    ("hf_http_error", "error: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache."),
]


def test_tensorflows_own_not_a_failure_notice_is_not_named(tmp_path: Path) -> None:
    line = ("2026-01-02 03:04:05.678901: W tensorflow/core/common_runtime/bfc_allocator.cc:290] Allocator (GPU_0_bfc) ran "
            "out of memory trying to allocate 3.1GiB. The caller indicates that this is not a failure, but may mean "
            "that there could be performance gains if more memory were available.")
    assert not both(tmp_path, [line])["causes"]


def test_a_tensorflow_warning_level_oom_is_a_warning_alone(tmp_path: Path) -> None:
    line = "2026-01-02 03:04:05.678901: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed: OOM when allocating tensor"
    report = both(tmp_path, [line])
    assert report["verdict"] == "NO-KILL" and report["causes"][0]["kind"] == "cuda_oom"


# pass 18, from fresh sets 14's and current7's misses
NAMED18 = [
    ("pod_oomkilled", "Stopped reason: OutOfMemoryError: Container killed due to memory usage"),
    ("image_pull", "slurmstepd: error: pyxis: failed to import docker image"),
    ("python_crash", "slurmstepd: error: pyxis: container start failed with error code: 2"),
    ("engine_init_failed", "2026-01-02T03:04:05Z ERROR xinference.core.worker pid:9 Failed to load model llama-rep0"),
    ("engine_dead", "localai-1  | 9:00PM ERR GRPC Model not responding: rpc error: code = Unavailable"),
    ("hf_repo_not_found", "Returning existing local_dir `out` as remote repo cannot be accessed in `snapshot_download` (404 Client Error. (Request ID: Root=1-abc)"),
    ("evicted", "  Message:  Pod was terminated in response to imminent node shutdown."),
    ("hf_gated", "httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'https://hub.mirror.local/api/whoami-v2'"),
    ("checkpoint_corrupt", "ValueError: Can't find a valid checkpoint at /runs/grpo/checkpoint-1200"),
]


def test_a_torch_oom_class_is_still_the_gpus(tmp_path: Path) -> None:
    assert_named(tmp_path, "cuda_oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB")


def test_snapshot_downloads_fallback_to_a_local_dir_is_named_but_not_a_death(tmp_path: Path) -> None:
    """huggingface_hub logs it at WARNING and returns the local dir: the run goes on."""
    report = both(tmp_path, [NAMED18[5][1]])
    assert report["verdict"] == "NO-KILL" and report["causes"][0]["kind"] == "hf_repo_not_found"


# pass 20, from fresh set 15's misses (the core repositories, 2025-2026)
NAMED20 = [
    ("ray_node_dead", "[2026-01-02 03:04:05,678 C 4242 4242] (raylet) node_manager.cc:99: An unexpected system state has occurred."),
    ("pg_unplaceable", "ValueError: Total available GPUs 16.0 is less than total desired GPUs 32"),
    ("dist_timeout", "torch.distributed.elastic.rendezvous.api.RendezvousClosedError"),
    ("engine_init_failed", "(Worker_TP0 pid=7) ERROR 01-02 03:04:05 [multiproc_executor.py:700] WorkerProc hit an exception."),
    ("engine_init_failed", "Exception: Capture cuda graph failed: Failed: Assertion error /src/kernel.cpp:10 'n > 0'"),
    ("engine_init_failed", "ray.exceptions.RayTaskError(RuntimeError): ray::LLMEngineActor.__init__() (pid=9, ip=10.1.2.3)"),
    # pass 22 (set 16's miss): the raylet named by its source file
    ("ray_node_dead", "[2026-01-02 03:04:05,678 C 77 77] local_task_manager.cc:512:  Check failed: it != tasks_.end()"),
    # pass 23 (current9's misses; not measured on a fresh set since)
    ("checkpoint_corrupt", "RuntimeError: Expected hasRecord(\"version\") to be true, but got false."),
    ("python_crash", "memory allocation of 8589934592 bytes failed"),
    ("python_crash", "pyarrow.lib.ArrowInvalid: Could not open Parquet input source '/d/train-00001-of-00008.parquet': magic bytes not found"),
]


# pass 21, from fresh set current8's misses (NCCL 2.28 on the H200)
NAMED21 = [
    ("nccl_error", "[rank3]: Duplicate GPU detected : rank 3 and rank 2 both on CUDA device 1b000"),
    ("nccl_error", "NET/Socket : no interface found"),
    ("python_crash", "[rank0]: TypeError: Input tensor data type is not supported for NCCL process group: Float8_e4m3fn"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED + NAMED16 + NAMED17 + NAMED18 + NAMED20 + NAMED21)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


NCCL_RETRIED_WARN = ("[2026-01-02 03:04:05,678] [misc/socket.cc:602] [node7:pid=42] NCCL WARN socketPollConnect "
                     "poll() failed, ret 1, error Connection timed out, revents 8, connect to 10.0.0.9:39953")


def test_an_nccl_warn_alone_is_named_but_not_a_death(tmp_path: Path) -> None:
    """Pass 19 (after fresh set 15 KILLed a WARN its run went past): NCCL's caller may retry."""
    report = both(tmp_path, [NCCL_RETRIED_WARN])
    assert report["verdict"] == "NO-KILL" and report["causes"][0]["kind"] == "nccl_error"


def test_an_nccl_warn_is_the_death_once_its_process_ended(tmp_path: Path) -> None:
    report = both(tmp_path, [NCCL_RETRIED_WARN, "[irisrl] Command exited with code 1"])
    assert report["verdict"] == "KILL" and report["cause_of_death"]["kind"] == "nccl_error"


def test_an_exception_report_at_a_boundary_is_surfaced(tmp_path: Path) -> None:
    """Pass 22 (set 16's unsurfaced line): Python's "Exception in <thread / callback / loop>:"."""
    for line in ("[10:11:12 TP2] Exception in run_tp_server:", "Exception in thread Thread-3 (rollout_loop):"):
        report = both(tmp_path, [line])
        assert report["causes"] or report["unrecognized"], line


def test_a_worker_proc_exception_after_serving_is_the_engines_death(tmp_path: Path) -> None:
    stats = ("INFO 01-02 03:04:00 metrics.py:341] Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: "
             "50.0 tokens/s, Running: 3 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 5.0%, CPU KV cache usage: 0.0%.")
    report = both(tmp_path, [stats, NAMED20[3][1]])
    assert primary(report) == "engine_dead"
