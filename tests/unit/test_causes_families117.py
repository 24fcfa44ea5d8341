"""Passes 117 and after on issue 15 (thirteenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402


@pytest.mark.parametrize(("line", "kind"), [
    # ---- the CUDA driver API's status as a number (cuda.h CUresult: 2 is CUDA_ERROR_OUT_OF_MEMORY)
    ("[saver.cpp] CUresult error result=2 file=csrc/saver.cpp func=cu_mem_create line=88", "cuda_oom"),
    ("cuMemMap failed with CUresult 2", "cuda_oom"),
    ("[saver.cpp] CUresult error result=719 file=csrc/saver.cpp func=cu_mem_unmap line=91", "cuda_error"),
    # ---- the override grammar's syntax errors (Hydra / OmegaConf parse with ANTLR 4 and raise its message)
    ("no viable alternative at input '[a,b'", "hydra_error"),
    ("mismatched input '}' expecting <EOF>", "hydra_error"),
    ("extraneous input ',' expecting {<EOF>, ']'}", "hydra_error"),
    ("token recognition error at: '@'", "hydra_error"),
    # ---- a dataclass config layer refusing an override key (SkyRL >= 0.3 replaced Hydra with one)
    ("ValueError: Invalid fields {'lr_sched'} for OptimizerConfig. Valid fields are {'lr', 'weight_decay'}", "hydra_error"),
    ("ValueError: The '+' prefix for adding new config fields is not supported: '+trainer.extra=1'.", "hydra_error"),
    ("KeyError: unknown config keys ['epochz']; valid keys are ['epochs', 'seed']", "hydra_error"),
    # ---- a checkpoint's state file missing (the savers' own names): the checkpoint cannot be resumed
    ("[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '/ck/iter_0000200/common.pt'", "checkpoint_corrupt"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/ck/checkpoint-40/rng_state_3.pth'", "checkpoint_corrupt"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/ck/step_9/__2.metadata'", "checkpoint_corrupt"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/ck/global_step_9/actor/optim_world_size_4_rank_1.pt'",
     "checkpoint_corrupt"),
    ("FileNotFoundError: Missing checkpoint shard: /ck/checkpoint-9/actor/optim_world_size_2_rank_0.pt", "checkpoint_corrupt"),
    # (a weight shard beside them is still the weights')
    ("FileNotFoundError: [Errno 2] No such file or directory: '/ck/global_step_9/actor/model_world_size_4_rank_1.pt'",
     "hf_weights_missing"),
    # ---- the Hub by its API paths on any host, the kernels library's kernel repos too
    ("httpx.HTTPStatusError: Client error '403 Forbidden' for url 'http://127.0.0.1:9/api/kernels/acme/attn/revision/main'", "hf_gated"),
    # ---- torch's caching allocator's own invariant: torch's bookkeeping, not the device (unless NVML's query failed)
    ('RuntimeError: ok INTERNAL ASSERT FAILED at "/pytorch/c10/cuda/CUDACachingAllocator.cpp":12, please report a bug to PyTorch.',
     "python_crash"),
    # ---- no usable GPU in a framework's words, and an endpoint that never became ready
    ("RuntimeError: No accelerator (CUDA, XPU) or platform plugin is available.", "cuda_error"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'", "cuda_error"),
    ("TimeoutError: Endpoint http://10.0.0.5:30000/health did not become ready within timeout period", "engine_init_failed"),
    # ---- Ascend NPUs (torch_npu / CANN) read as CUDA's kinds
    ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 3; 60.96 GiB total capacity)", "cuda_oom"),
    ("[ERROR] 2026-01-02-10:00:00 (PID:9, Device:3, RankID:3) ERR00100 PTA call acl api failed", "cuda_error"),
    ("RuntimeError: NPU function error: aclrtSynchronizeStream, error code is 507018", "cuda_error"),
    # ---- Ray's memory monitor's reason line, and its worker pool failing to start a worker
    ("OOM kill reason: Memory usage 9000000000B exceeded threshold of 8000000000B (95.0% of 8421000000B limit)", "ray_oom_kill"),
    ("(raylet) worker_pool.cc:660: Some workers of the worker process(4242) have not registered within the timeout.",
     "ray_worker_died"),
    ("ray.exceptions.RaySystemError: System error: Failed to startup worker after retrying 3 times.", "ray_worker_died"),
    # ---- a program's usage error, also from a subcommand's parser (prog "<parent> <command>")
    ("vllm serve: error: argument --max-model-len: invalid int value: 'lots'", "python_crash"),
    # ---- a validator refusing the caller's value: the caller's bug, whatever module raised it
    ("vllm.exceptions.VLLMValidationError: top_k must be -1 (disable) or at least 1, got 0.", "python_crash"),
    # ---- one refusal line of a pydantic ValidationError report
    ("  Input should be greater than 0 [type=greater_than, input_value=-2, input_type=int]", "python_crash"),
])
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_successful_curesult_is_no_failure(tmp_path: Path) -> None:
    assert primary(both(tmp_path, ["cuMemCreate returned CUresult 0 for a 2 MiB chunk"])) is None


def test_an_unknown_key_outside_a_run_config_is_no_override_error(tmp_path: Path) -> None:
    # the allocator's own settings string is no training config: the caller's bug
    line = "ValueError: Unrecognized key 'max_split' in CUDA allocator config."
    assert primary(both(tmp_path, [line])) == "python_crash"


def test_a_clients_check_of_a_servers_answer_is_no_refused_input(tmp_path: Path) -> None:
    # a ranged GET answered with the wrong range: the transfer's failure, not the caller's value
    line = "s3transfer.exceptions.S3ValidationError: Response range start `0` does not match requested start `4096`"
    assert primary(both(tmp_path, [line])) == "hf_incomplete_download"


def test_vllms_hub_retry_wrapper_is_named_but_no_death_on_its_own(tmp_path: Path) -> None:
    # vLLM logs the Hub error before re-raising it, and one caller returns [] and goes on: fatal once the run crashed
    line = ("ERROR 01-02 10:00:00 [repo_utils.py:126] Error retrieving file list: Repo id must be in the form "
            "'repo_name' or 'namespace/repo_name': '/models/none'.")
    report = both(tmp_path, [line])
    assert primary(report) == "hf_repo_not_found"
    assert report["verdict"] != "KILL"


def test_a_settings_file_that_does_not_parse_is_no_checkpoint(tmp_path: Path) -> None:
    line = "[2026-01-02 10:00:00] Failed to read config file /etc/rl/rollout.yaml: while parsing a block mapping"
    assert primary(both(tmp_path, [line])) != "checkpoint_corrupt"


def test_a_cache_the_program_could_not_write_is_no_death(tmp_path: Path) -> None:
    # the program goes on without its cache (matplotlib's font cache, its config dir probe that falls back to a temp dir)
    for line in ("Could not save font_manager cache [Errno 28] No space left on device",
                 "mkdir -p failed for path /home/u/.config/matplotlib: [Errno 28] No space left on device: '/home/u/.config/matplotlib'"):
        report = both(tmp_path, [line])
        assert primary(report) == "disk_full"
        assert report["verdict"] != "KILL"


def test_a_step_the_program_leaves_out_is_no_death(tmp_path: Path) -> None:
    line = ("[2026-01-02 10:00:00] fix_tokenizer: unexpected error loading tokenizer.json for /m/tiny, the fix will not be "
            "applied: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/m/tiny'.")
    assert both(tmp_path, [line])["verdict"] != "KILL"
