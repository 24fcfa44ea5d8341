"""Eighth pass on issue 15: message catalogues read from the libraries' own strings
(observe/vocabulary.py): cudaGetErrorString's texts (libcudart.so.12, nvidia-cuda-runtime-cu12
12.9.79), ncclGetErrorString's (libnccl.so.2, nvidia-nccl-cu12 2.32.3), Ray's words for a raylet
that went away (ray 2.60.0 wheel), container registries' refusals, a container that never started,
SGLang's engine processes. Every line is our own reconstruction (other hosts, pids, kernels and
wordings of the same message site), not a corpus line; each is read alone through `health --log
FILE --json` and through the Analyzer fed in memory: both agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both  # noqa: E402

NAMED = [
    # cudaGetErrorString's texts in a CUDA error report, the generic ones included
    ("cuda_error", "Failed to copy vector C from device to host (error code an illegal instruction was encountered)!"),
    ("cuda_error", "Failed to launch vectorAdd kernel (error code invalid device function)!"),
    ("cuda_error", "Failed to allocate device vector B (error code initialization error)!"),
    ("cuda_error", "RuntimeError: CUDA error: too many resources requested for launch"),
    ("cuda_error", "[rank5]: RuntimeError: CUDA error: invalid configuration argument"),
    ("cuda_error", "cudaErrorNoDevice: no CUDA-capable device is detected"),
    ("cuda_error", "ERROR: CUDA-capable device(s) is/are busy or unavailable on GPU 3"),
    ("cuda_error", "E1203 04:05:06.789 1234 kernel.cu:88] CUDA runtime error: invalid device ordinal"),
    ("cuda_error", "[kernels.cu:41] CUDA Error: unknown error at matmul_kernel"),
    ("cuda_error", "RuntimeError: no kernel image is available for execution on the device"),
    ("cuda_error", "ERROR 12-03 04:05:06 worker.py:12] the launch timed out and was terminated"),
    ("cuda_error", "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before "
                   "calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility "
                   "was attempted on non supported HW"),
    ("cuda_error", "[E1203 04:05:06.000] cudaStreamSynchronize(stream) failed: unspecified launch failure"),
    ("cuda_error", "gemm.cu:77 cudaMalloc failed: initialization error"),
    # a library's own failure text needs no error word around it
    ("cuda_error", "[rank2]: an illegal instruction was encountered"),
    # cuBLAS / cuDNN status names whatever the words around them
    ("cuda_error", "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH"),
    ("cuda_error", "E1203 04:05:06.789 77 gemm.cpp:90] cublasLtMatmul returned CUBLAS_STATUS_NOT_SUPPORTED"),
    # torch's words for a driver it cannot use
    ("cuda_error", "RuntimeError: The NVIDIA driver on your system is too old (found version 10020). Please update "
                   "your GPU driver."),
    ("cuda_error", "CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
                   "before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized"),
    # the runtime's OOM text in the samples' report is the OOM
    ("cuda_oom", "Failed to allocate device vector C (error code out of memory)!"),
    # ncclGetErrorString's texts that do not say NCCL
    ("nccl_error", "RuntimeError: remote process exited or there was a network error"),
    # a raylet that went away, in Ray's own words (old and current)
    ("ray_node_dead", "(pid=5150) E1203 04:05:06.789012 5160 core_worker.cc:401] Raylet failed. Shutting down."),
    ("ray_node_dead", "[2026-12-03 04:05:06,789 C 611 640] core_worker.cc:900: Exiting because the Raylet IPC "
                      "connection failed and the local Raylet is dead. Status: IOError: Broken pipe"),
    ("ray_node_dead", "[2026-12-03 04:05:06,789 E 611 640] core_worker.cc:555: Failed to notify Raylet. The raylet "
                      "may have already shut down or the connection was lost."),
    ("ray_node_dead", "2026-12-03 04:05:06,789\tERROR agent.py:88 -- Raylet is dead! Exiting Runtime Env Agent."),
    ("ray_node_dead", "[ERROR] Background srun 'ray-head' died (pid=4242). Attempting to exit."),
    # a process out of file descriptors is its own crash, not the node's death
    ("python_crash", "[2026-12-03 04:05:06,789 E 611 611] (raylet) worker_pool.cc:900: Failed to start worker: "
                     "IOError: [Errno 24] Too many open files"),
    # kube-scheduler: no node for the pod, whatever its preemption clause says
    ("pg_unplaceable", "Warning  FailedScheduling  5s  default-scheduler  0/4 nodes are available: 4 Insufficient "
                       "nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod."),
    # registries refusing the pull
    ("image_pull", "Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may "
                   "increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit"),
    ("image_pull", "Error: failed to pull ghcr.io/acme/trainer:v9: NAME_UNKNOWN: repository name not known to registry"),
    ("image_pull", "Error response from daemon: pull access denied for acme/trainer, repository does not exist or "
                   "may require 'docker login': denied: requested access to the resource is denied"),
    ("image_pull", "ERROR: failed to solve: nvcr.io/nvidia/pytorch:25.01-py3: failed to resolve source metadata for "
                   "nvcr.io/nvidia/pytorch:25.01-py3: unexpected status code 401 Unauthorized"),
    ("image_pull", "Error response from daemon: Head \"https://ghcr.io/v2/acme/trainer/manifests/v9\": denied: denied"),
    ("image_pull", "Warning  Failed  12s  kubelet  Error: InvalidImageName"),
    # a model host or mirror refusing a model file
    ("hf_http_error", "requests.exceptions.httperror 429 client error too many requests for url "
                      "http://models.example.net/models/minilm-l6.zip"),
    ("hf_http_error", "ERROR 12-03 04:05:06 loader.py:40] 503 Service Unavailable for url: "
                      "https://mirror.example.org/resolve/main/model-00002-of-00004.safetensors"),
    # a container that never started
    ("python_crash", "docker: Error response from daemon: failed to create task for container: failed to create "
                     "shim task: OCI runtime create failed: runc create failed: unable to start container process: "
                     "exec: \"/entry.sh\": permission denied: unknown."),
    ("python_crash", "Error: failed to start containerd task \"trainer\": OCI runtime exec failed: exec failed: "
                     "exec format error: unknown"),
    ("python_crash", "docker: Error response from daemon: could not select device driver \"nvidia\" with "
                     "capabilities: [[gpu]]."),
    # kubelet / Job controller: a container that never ran, a Job that gave up
    ("python_crash", "learner-7f9c   0/1     CreateContainerConfigError   0          40s"),
    ("python_crash", "learner-7f9c   0/1     RunContainerError   3          2m"),
    ("python_crash", "Warning  BackoffLimitExceeded  3s  job-controller  Job has reached the specified backoff limit"),
    # kube-scheduler: no node for the pod, whatever the reason
    ("pg_unplaceable", "Warning  FailedScheduling  30s  default-scheduler  0/6 nodes are available: 6 node(s) didn't "
                       "match Pod's node affinity/selector."),
    # SGLang's engine processes
    ("engine_dead", "[2026-12-03 04:05:06 DP0] Health check failed. Server couldn't get a response from detokenizer "
                    "for last 60 seconds. tic start time: 04:04:06. last_heartbeat time: 04:03:59"),
    ("engine_dead", "[2026-12-03 04:05:06] Rank 3 scheduler is dead. Please check if there are relevant logs."),
    ("engine_dead", "[2026-12-03 04:05:06] Child process unexpectedly failed with exitcode=139. pid=8123"),
    ("engine_init_failed", "[2026-12-03 04:05:06] Initialization failed. warmup error: Traceback (most recent call last):"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_catalogue_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


BENIGN = [
    # CUDA's texts outside a CUDA error report, and the NCCL channel's notices
    "INFO 12-03 04:05:06 config.py:12] invalid argument names are ignored: --foo",
    "NCCL INFO Channel 00/02 : 0[0] -> 1[1] via P2P/IPC, unknown error count 0",
    "cudaMalloc returned success",
    # a registry answering fine
    "Status: Downloaded newer image for acme/trainer:v9",
    # an application's own API refusing is no model download
    "ERROR 12-03 04:05:06 judge.py:40] 503 Service Unavailable for url: http://judge.internal:8000/v1/score",
    # a health check that passed
    "[2026-12-03 04:05:06] INFO:     127.0.0.1:5555 - \"GET /health HTTP/1.1\" 200 OK",
]


@pytest.mark.parametrize("line", BENIGN)
def test_a_look_alike_is_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL"
