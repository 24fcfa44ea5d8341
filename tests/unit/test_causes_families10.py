"""Tenth pass on issue 15, from the misses of fresh set 9 (as families, each from its source):
inference engines other than vLLM (Hugging Face TGI's launcher / shard manager / warmup, vLLM v0's
and Aphrodite's worker `Error executing method` by the method's phase, SGLang / lmdeploy /
TensorRT-LLM by name), kube-scheduler's "0/N nodes are available" at any level and clouds'
capacity refusals (surfaced: no error word), a shell that could not run a program, Rust panics, a
container Docker would not create, wget / curl download statuses, peft's missing adapter files, an
exception class named in brackets. Every line is our own reconstruction, read alone through
`health --log FILE --json` and through the Analyzer fed in memory."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, named, primary  # noqa: E402

NAMED = [
    # TGI launcher/src/main.rs, server interceptor.py, flash_causal_lm.py warmup
    ("engine_init_failed", "2025-01-10T08:00:01.000000Z ERROR text_generation_launcher: Shard 1 failed to start"),
    ("engine_init_failed", "2025-01-10T08:00:00.000000Z ERROR text_generation_launcher: Method Warmup encountered an error."),
    ("engine_init_failed", "RuntimeError: Not enough memory to handle 8192 prefill tokens. You need to decrease `--max-batch-prefill-tokens`"),
    ("engine_init_failed", "2025-01-10T08:00:01.000000Z ERROR shard-manager: text_generation_launcher: "
                           "Shard process was signaled to shutdown with signal 9 rank=1"),
    ("engine_dead", "2025-01-10T08:00:01.000000Z ERROR text_generation_launcher: Shard 0 crashed"),
    # vLLM v0 worker_base.py execute_method / Aphrodite's copy: the method's phase decides
    ("engine_init_failed", "(RayWorkerWrapper pid=1234, ip=10.0.0.2) ERROR 03-01 10:00:00 worker_base.py:464] "
                           "Error executing method 'init_device'. This might cause deadlock in distributed execution."),
    ("engine_init_failed", "(RayWorkerAphrodite pid=99) ERROR:    Error executing method determine_num_available_blocks. "
                           "This might cause deadlock in distributed execution."),
    ("engine_dead", "(RayWorkerWrapper pid=1234) ERROR 03-01 10:00:00 worker_base.py:464] "
                    "Error executing method 'execute_model'. This might cause deadlock in distributed execution."),
    ("engine_init_failed", "Error: ShardCannotStart"),
    ("engine_init_failed", "2024-01-01T00:00:00.000000Z ERROR shard-manager: text_generation_launcher: Error when initializing model rank=0"),
    ("engine_dead", "ERROR 05-01 10:00:00 worker_base.py:464] Error executing method 'start_worker_execution_loop'. "
                    "This might cause deadlock in distributed execution."),
    ("engine_init_failed", "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: mem_fraction_static=0.5"),
    ("engine_init_failed", "RuntimeError: Initialization failed. Please see the error messages above."),
    # other engines by name
    ("engine_init_failed", "2025-01-01 10:00:00,000 - lmdeploy - ERROR - TurboMind engine failed to initialize"),
    ("engine_dead", "[TRT-LLM] [E] Executor worker died: broken pipe"),
    # nowhere to run: the scheduler's FitError at any level, clouds' capacity
    ("pg_unplaceable", "2025-03-03T10:00:00Z [Normal] 0/6 nodes are available: 6 node(s) had untolerated taint {dedicated: infra}."),
    ("pg_unplaceable", "An error occurred (InsufficientInstanceCapacity) when calling the RunInstances operation: "
                       "We currently do not have sufficient p5.48xlarge capacity in the Availability Zone you requested."),
    ("pg_unplaceable", "Out of capacity for shape BM.GPU.H100.8 in availability domain AD-2."),
    ("pg_unplaceable", "All provisioning attempts failed. Try another region."),
    ("pg_unplaceable", "code: ZONE_RESOURCE_POOL_EXHAUSTED zone: us-central1-b"),
    ("pg_unplaceable", "Allocation failed. We do not have sufficient capacity for the requested VM size. Code: ZonalAllocationFailed"),
    ("pg_unplaceable", "  Normal   NotTriggerScaleUp  2m  cluster-autoscaler  pod didn't trigger scale-up: 1 max node group size reached"),
    ("pg_unplaceable", "sky.exceptions.ResourcesUnavailableError: Failed to provision all possible launchable resources. "
                       "Relax the task's resource requirements: 8x H100"),
    ("pg_unplaceable", "Failed to acquire resources in all zones in us-east-1 for {AWS(p4d.24xlarge)}."),
    # a process that never ran or ended in a runtime's panic
    ("python_crash", "/bin/sh: 1: ray: not found"),
    ("python_crash", "bash: line 1: torchrun: command not found"),
    ("python_crash", "zsh: command not found: deepspeed"),
    ("python_crash", "/usr/bin/env: 'python': No such file or directory"),
    ("python_crash", "standard_init_linux.go:228: exec user process caused: no such file or directory"),
    ("python_crash", "thread 'main' panicked at src/main.rs:10:5:"),
    ("python_crash", "panic: runtime error: invalid memory address or nil pointer dereference"),
    ("python_crash", "E0101 10:00:00.000000  7 actor/src/panic_handler.rs:47] panic at runtime/src/lib.rs:12:3, stacktrace:"),
    ("python_crash", "2025-01-01T00:00:00Z error creating container: Error response from daemon: No such image layer"),
    ("image_pull", "Error response from daemon: toomanyrequests: You have reached your pull rate limit."),
    # downloads by wget / curl
    ("hf_weights_missing", "2024-02-02 10:00:00 ERROR 404: Not Found."),
    ("hf_weights_missing", "curl: (22) The requested URL returned error: 404"),
    ("hf_http_error", "2024-02-02 10:00:00 ERROR 503: Service Unavailable."),
    ("hf_http_error", "curl: (22) The requested URL returned error: 429"),
    ("hf_weights_missing", "HTTP request sent, awaiting response... 404 Not Found"),
    ("hf_http_error", "curl: (28) Operation timed out after 30001 milliseconds with 0 bytes received"),
    ("hf_incomplete_download", "curl: (18) transfer closed with 1048576 bytes remaining to read"),
    # peft's adapter files
    ("hf_weights_missing", "ValueError: Can't find 'adapter_config.json' at 'acme/lora-7b'"),
    ("hf_weights_missing", "ValueError: Can't find weights for ./out/lora in ./out/lora or in the Hugging Face Hub."),
    # a class in brackets
    ("python_crash", "Job failed: [ValueError] learning rate must be positive"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_tgi_shard_signal_after_serving_is_the_engine_dying(tmp_path: Path) -> None:
    stats = ("INFO 01-10 08:00:00 metrics.py:341] Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: "
             "50.0 tokens/s, Running: 3 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 5.0%, CPU KV cache usage: 0.0%.")
    report = both(tmp_path, [stats, "2025-01-10T08:00:01.000000Z ERROR shard-manager: text_generation_launcher: "
                                    "Shard process was signaled to shutdown with signal 9 rank=1"])
    assert primary(report) == "engine_dead"


BENIGN = [
    "2025-01-01 10:00:00 INFO text_generation_launcher: Shard ready in 12.3s rank=0",
    "hash: abc123: recorded",
    "INFO scheduler: capacity planning done, 8 nodes ready",
    "2024-02-02 10:00:00 -- https://example.org/a.bin: 200 OK",
    # a script polling a local server's health until it answers
    "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server",
]


@pytest.mark.parametrize("line", BENIGN)
def test_a_look_alike_is_not_a_kill(tmp_path: Path, line: str) -> None:
    report = both(tmp_path, [line])
    assert report["verdict"] != "KILL" and named(report) is None, report.get("causes")
