"""Sixth pass on issue 15: families read from the libraries' own raise / log sites, and the
precedence rule that a class names its family only when its message carries that family's
meaning. Every line is our own reconstruction of a family (other hosts, pids, ids, sizes,
wordings of the same site), not a corpus line; each is read alone through `health --log FILE
--json` (grep's prefilter) and through the Analyzer fed in memory (bytes.find): both agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irisrl.observe import causes as C
from irisrl.observe import exceptions as E

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both  # noqa: E402


NAMED = [
    # torch: a backend the build lacks is a build statement, not the runtime family its words name
    ("python_crash", "RuntimeError: Distributed package doesn't have MPI built in"),
    ("python_crash", "[rank3]: RuntimeError: Distributed package doesn't have NCCL built in. Reinstall torch with CUDA"),
    ("python_crash", "torch.distributed.DistNetworkError: PyTorch was built without libuv support; set USE_LIBUV=0"),
    ("python_crash", "AssertionError: Torch not compiled with CUDA enabled"),
    # ... while the same classes with a store's failure stay dist_timeout
    ("dist_timeout", "torch.distributed.DistStoreError: Failed to recv, got 0 bytes. Connection was likely closed."),
    ("dist_timeout", "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address."),
    # Lightning's launcher on a child that ended non-zero
    ("python_crash", "[rank: 3] Child process with PID 81122 terminated with code -6. Forcefully terminating all other processes"),
    # torch elastic's agent barrier
    ("dist_timeout", "E1104 02:11:09.551201 140221 torch/distributed/elastic/agent/server/api.py:960] "
                     "Error waiting on exit barrier. Elapsed: 301.2 seconds"),
    ("dist_timeout", "RuntimeError: Timed out initializing process group in Store_Based_Barrier after 1800 s"),
    # NCCL's allocator failing a CUDA call that is not a sticky kernel fault
    ("nccl_error", "gpu-3:551:551 [5] include/alloc.h:229 NCCL WARN Cuda failure 1 'invalid argument'"),
    ("nccl_error", "host9:77:91 [1] allocator.cc:142 (ncclMemAlloc) NCCL WARN Cuda failure 201 'invalid device context'"),
    ("cuda_error", "host9:77:91 [1] include/alloc.h:125 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'"),
    ("cuda_error", "host9:77:91 [1] enqueue.cc:1450 NCCL WARN Cuda failure 1 'invalid argument'"),
    # kubelet CRI pulls, both eras
    ("image_pull", 'E0611 07:01:12.123456    2211 remote_image.go:238] "PullImage from image service failed" '
                   'err="rpc error: code = Unknown desc = unauthorized" image="reg.example/team/app:v3"'),
    ("image_pull", 'E0611 07:01:12.123456    2211 remote_image.go:90] PullImage "reg.example/team/app:v3" from image '
                   'service failed: rpc error: code = NotFound'),
    # vLLM's KV-cache sizing at start, whole and cut
    ("engine_init_failed", "ValueError: To serve at least one request with the models's max seq len (131072), "
                           "(24.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.10 GiB)."),
    ("engine_init_failed", "ValueError: To serve at least one request with the model's max seq len (65536),"),
    # Hydra's missing primary config
    ("hydra_error", "Cannot find primary config 'train_grpo'. Check that it's in your config search path."),
    ("hydra_error", "hydra.errors.MissingConfigException: Primary config module 'skyrl_train.config' not found."),
    ("hydra_error", "Primary config directory not found."),
    # Ray's worker_died push, old and new wording, at the relay's WARNING level
    ("ray_worker_died", "2020-02-01 10:00:00,001 WARNING worker.py:1090 -- A worker died or was killed while executing "
                        "task ffffffffffffffff45b95b1c0100."),
    ("ray_worker_died", "2024-05-01 10:00:00,001 WARNING worker.py:2100 -- A worker died or was killed while executing a task"),
    ("ray_worker_died", "ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task."),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_child_that_exited_non_zero_ends_its_process(tmp_path: Path) -> None:
    report = both(tmp_path, ["[rank: 1] Child process with PID 7 terminated with code 1. Forcefully terminating all other processes"])
    assert report["verdict"] == "KILL"
    assert E.ends_process("Child process with PID 7 terminated with code 1.")
    assert not E.ends_process("Child process with PID 7 terminated with code 0.")


def test_a_class_names_its_family_only_with_that_familys_meaning() -> None:
    store = E.parse("torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined.")
    build = E.parse("torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built without libuv support")
    assert store is not None and build is not None
    assert E.class_kind(store) == "dist_timeout"
    assert E.class_kind(build) is None
    assert C.match(build.dotted + ": " + build.message).kind == "python_crash"  # type: ignore[union-attr]


LOOK_ALIKES = [
    "INFO 11-02 04:10:11 [kv_cache_utils.py:716] GPU KV cache size: 1,204,224 tokens",
    "INFO 11-02 04:10:11 [kv_cache_utils.py:720] Maximum concurrency for 32,768 tokens per request: 36.75x",
    "I0611 07:01:12.123456    2211 kuberuntime_image.go:60] Pulling image reg.example/team/app:v3",
    "[rank: 1] Child process with PID 7 terminated with code 0. Forcefully terminating all other processes",
    "INFO:torch.distributed.elastic.agent.server.api:Done waiting for other agents. Elapsed: 0.0009 seconds",
]


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_look_alikes_of_the_sixth_families_are_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL"
