"""Passes 81 and after on issue 15 (tenth round): families read from the libraries' and tools' own words (the
NVIDIA driver's libraries that cannot be loaded, bash's `Killed` glued to a child's last output) and one
structural rule (a tally of errors by type in a notice is no exception). Our own reconstructed lines, not the
corpus's, through both readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, named, primary  # noqa: E402

NAMED81 = [
    # the driver's user-space libraries that the loader or a caller cannot open: the node's GPU stack is unusable
    ("cuda_error", "RuntimeError: Failed to load libcuda.so.1"),
    ("cuda_error", "OSError: libnvidia-ml.so.1: cannot open shared object file: No such file or directory"),
    ("cuda_error", "AssertionError: libcuda.so cannot found!"),
    ("cuda_error", "RuntimeError: Failed to retrieve cuGetProcAddress from libcuda.so.1"),
    ("cuda_error", "ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: undefined symbol: cuCtxCreate_v4"),
    # bash's Killed written after a line with no newline, or over a \r-rewritten progress bar
    ("pod_oomkilled", "Loading checkpoint shards:  50%|█████     | 2/4 [00:31<00:31, 15.6s/it] Killed"),
    ("pod_oomkilled", "Killedding train split: 12000 examples [00:04, 2800 examples/s]"),
    # huggingface_hub 2.x's offline readings by class: the Hub unreachable and nothing cached
    ("hf_http_error", "huggingface_hub.errors.RevisionResolutionError: Cannot resolve revision 'v2' for model 'org/m': "
                      "'local_files_only=True' is set and no matching entry was found in the local cache ('/hf/refs/v2')."),
    ("hf_http_error", "huggingface_hub.errors.CachedRepoTreeNotFoundError: No cached tree listing found for 'org/m' (revision 'main', repo_type 'model')"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED81)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_what_the_families_do_not_take(tmp_path: Path) -> None:
    # a toolkit library the program ships (cuBLAS) is the program's install, not the node's driver
    assert primary(both(tmp_path, ["ImportError: libcublas.so.12: cannot open shared object file: No such file or directory"])) != "cuda_error"
    # srun's report of a task's signal is srun's; a sentence's "was Killed" is no shell word
    assert primary(both(tmp_path, ["srun: error: gpu-node-03: task 17: Killed"])) == "python_crash"
    assert primary(both(tmp_path, ["2026-01-02 10:00:00 ERROR the rollout worker was Killed"])) != "pod_oomkilled"


def test_a_tally_of_errors_by_type_in_a_notice_is_no_exception(tmp_path: Path) -> None:
    # an end-of-run summary counts errors by class at INFO level: no death, whatever the class
    tally = both(tmp_path, ["[2026-01-02 10:00:00,001] [INFO] [root]   OutOfMemoryError: 3"])
    assert tally["verdict"] == "NO-KILL" and named(tally) is None
    assert both(tmp_path, ["2026-01-02 10:00:00,001 - INFO - collector - TimeoutError: 12"])["verdict"] == "NO-KILL"
    # the same class with a message is the exception; an uncaught KeyError's key may be a number
    assert primary(both(tmp_path, ["[2026-01-02 10:00:00,001] [ERROR] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"])) == "cuda_oom"
    assert primary(both(tmp_path, ["KeyError: 2"])) == "python_crash"


def test_a_check_that_names_an_engine_is_no_engine_death(tmp_path: Path) -> None:
    # the exception's class is no failure word of the message: a version / requirement check names vLLM without it failing
    for line in ("AssertionError: TrainerX only supports vllm >= 0.9.0",
                 "ValueError: vLLM's sampler requires FlashInfer.",
                 "NotImplementedError: LoRA is only supported through AsyncLLMEngine"):
        assert primary(both(tmp_path, [line])) == "python_crash", line
    # the message's own failure words still name the engine's death
    assert primary(both(tmp_path, ["RuntimeError: vLLM engine loop error: worker 3 failed"])) == "engine_dead"
    assert primary(both(tmp_path, ["RuntimeError: Background Engine loop is dead."])) == "engine_dead"


def test_an_assertion_that_names_cuda_is_no_device_assert(tmp_path: Path) -> None:
    # "assert" as a CUDA failure word is the device-side assert, not Python's AssertionError class
    assert primary(both(tmp_path, ["AssertionError: Float8 rowwise scaling requires CUDA compute capability >= 9.0"])) == "python_crash"
    assert primary(both(tmp_path, ["RuntimeError: CUDA error: device-side assert triggered"])) == "cuda_error"


def test_a_name_built_on_vllm_is_no_engine(tmp_path: Path) -> None:
    # a pod named after the engine failing to mount a volume is the pod's failure, not the engine's death
    mount = both(tmp_path, ["3m2s  Warning  FailedMount  pod/vllm-llama3-70b-0  Unable to attach or mount volumes: "
                            "unmounted volumes=[weights], unattached volumes=[], failed to process volumes=[]: timed out waiting for the condition"])
    assert primary(mount) != "engine_dead"
    cache = both(tmp_path, ["(APIServer pid=9) ERROR 01-02 10:00:00 [utils.py:12] Error writing /root/.cache/vllm/modelinfos/x.json"])
    assert primary(cache) != "engine_dead"
    # the engine by name still is one
    assert primary(both(tmp_path, ["RuntimeError: vLLM engine failed to respond: worker 2 crashed"])) == "engine_dead"


def test_a_path_component_is_no_ray_subject(tmp_path: Path) -> None:
    # `actor` / `worker` / `node` as a directory of a checkpoint or a bucket key names no Ray actor, worker or node
    save = both(tmp_path, ["[2026-01-02 10:00:00,001] [ERROR] [engine.py:12:_save] Failed saving model checkpoint to /ckpt/run7/actor with tag step9"])
    assert primary(save) != "ray_actor_died"
    up = both(tmp_path, ["urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='minio', port=9000): Max retries exceeded with url: /ckpt/worker/step_9 "
                         "(Caused by ResponseError('too many 503 error responses'))"])
    assert primary(up) != "ray_worker_died"
    # the actor as the subject still is one
    assert primary(both(tmp_path, ["ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task."])) == "ray_actor_died"


def test_cuda_by_name_not_a_setting_or_directory_built_on_it(tmp_path: Path) -> None:
    # a setting named CUDA_* or a path through /usr/local/cuda is no CUDA failure
    assert primary(both(tmp_path, ['Exception: Error setting CUDA_VISIBLE_DEVICES: local range: [0, 16) base value: "0,1,2,3"'])) != "cuda_error"
    assert primary(both(tmp_path, ["RuntimeError: Error: cannot find the compiler in cuda_home='/usr/local/cuda'"])) != "cuda_error"
    # the kernel's own assert, file and line first, is the device-side assert even with its block / thread cut
    assert primary(both(tmp_path, ["/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): "
                                   "Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed."])) == "cuda_error"
    assert primary(both(tmp_path, ["RuntimeError: CUDA error: an illegal memory access was encountered"])) == "cuda_error"


def test_a_resume_that_finds_no_checkpoint(tmp_path: Path) -> None:
    # a dotted setting's key names the checkpoint; an adjective before "checkpoint" keeps it one
    assert primary(both(tmp_path, ["[rank0]: FileNotFoundError: --checkpoint.load_step=200 not found at /ckpt/run7/checkpoint/step-200"])) == "checkpoint_corrupt"
    assert primary(both(tmp_path, ["ValueError: No resumable checkpoint was found in /ckpt/run7"])) == "checkpoint_corrupt"
    # a weight format's "checkpoint" is the model's weights, not a training checkpoint
    assert primary(both(tmp_path, ["FileNotFoundError: No safetensors checkpoint found in /models/m"])) != "checkpoint_corrupt"


def test_a_message_that_says_warning_is_printed_at_warning_level(tmp_path: Path) -> None:
    # print()'s "Warning: ..." under an actor prefix: a Hub 401 while saving a side file is no death
    report = both(tmp_path, ["(PolicyWorker pid=7, ip=10.0.0.2) Warning: Could not save generation config for 'org/m'. "
                             "Error: 401 Client Error. (Request ID: Root=1-0)"])
    assert report["verdict"] != "KILL"


def test_an_aiohttp_status_whose_reason_is_the_servers_own_text_is_no_file_fetch(tmp_path: Path) -> None:
    # aiohttp's message= is the response's reason: an HTTP reason phrase, or an application's exception text
    assert primary(both(tmp_path, ["ClientResponseError: 500, message=\"'NoneType' object has no attribute 'engine'\""])) == "python_crash"
    assert primary(both(tmp_path, ["aiohttp.client_exceptions.ClientResponseError: 503, message='Service Unavailable'"])) == "hf_http_error"


def test_an_actor_that_never_came_to_exist_is_no_actor_death(tmp_path: Path) -> None:
    # Ray could not schedule it: a placement failure; its class failed to import on the worker: the program's own error
    sched = both(tmp_path, ["2026-01-02 10:00:00,001\tERROR job_manager.py:290 -- Failed to schedule job raysubmit_x because the "
                            "supervisor actor could not be scheduled: The actor is not schedulable: no node has 8 GPU."])
    assert primary(sched) == "pg_unplaceable"
    imp = both(tmp_path, ["RuntimeError: The actor with name RewardWorker failed to import on the worker. This may be because needed "
                          "library dependencies are not installed in the worker environment"])
    assert primary(imp) == "python_crash"
    # an actor that died still did
    assert primary(both(tmp_path, ["ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task."])) == "ray_actor_died"
