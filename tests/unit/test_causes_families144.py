"""Passes 144 and after on issue 15 (sixteenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_kept_no_death, assert_named, assert_says_nothing, both, primary  # noqa: E402

NAMED = [
    # ---- pass 144 (public set 73): SGLang's running-phase SIGQUIT handler in its current words ("one child failed")
    ("[2026-11-30 08:12:44] SIGQUIT received. signum=None, frame=None. It usually means one child failed.", "engine_dead"),
    # vLLM's dump of the batch an engine step failed on, old and new wordings, with and without the logger's head
    ("(EngineCore_DP0 pid=4410) ERROR 11-30 08:12:44 [dump_input.py:72] Dumping input data", "engine_dead"),
    ("(EngineCore pid=311) ERROR 11-30 08:12:44 [dump_input.py:79] Dumping scheduler output for model execution: "
     "SchedulerOutput(scheduled_new_reqs=[], num_scheduled_tokens={r-1: 1}, total_num_scheduled_tokens=1)", "engine_dead"),
    ("[dump_input.py:76] Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[])", "engine_dead"),
    ("(EngineCore pid=311) ERROR 11-30 08:12:44 [dump_input.py:90] Dumping input data for V1 LLM engine "
     "(v0.30.1, reason=exception) with config: model='Qwen/Qwen3-8B', ", "engine_dead"),
    # ---- pass 145 (current set 65): bash's signal report whose padded words run into the command
    ("sandbox.sh: line 7:  4410 File size limit exceededdd if=/dev/zero of=big.bin bs=1M count=64", "python_crash"),
    ("sandbox.sh: line 7:  4410 CPU time limit exceededpython3 solution.py", "python_crash"),
    # a dotted exception class named for what expired, with no error word (the prefilter's `xpired`)
    ("pebble.common.types.ProcessExpired: Abnormal termination", "python_crash"),
    # ---- pass 146 (current sets 69, 70): a DCP checkpoint's data file missing is the checkpoint's, as its .metadata is
    ("[rank1]: FileNotFoundError: [Errno 2] No such file or directory: '/ck/run-3/global_step_80/policy/__1_0.distcp'",
     "checkpoint_corrupt"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/ck/run-3/global_step_80/.metadata'", "checkpoint_corrupt"),
    # ---- pass 147 (current set 71): torch's re-raise names the class a worker or replica raised
    ("RuntimeError: Caught HfHubHTTPError in DataLoader worker process 3.", "hf_http_error"),
    ("RuntimeError: Caught OutOfMemoryError in replica 1 on device 1.", "cuda_oom"),
    ("KeyError: Caught KeyError in pin memory thread for device 0.", "python_crash"),
    # the Hub client's retry notice quoting a body cut short is the download's, not a failed request's
    ("'peer closed connection without sending complete message body (received 1024 bytes, expected 4096)' thrown while "
     "requesting GET https://huggingface.co/datasets/acme/prompts/resolve/main/data/train-00001-of-00004.parquet",
     "hf_incomplete_download"),
    ("'Connection broken: IncompleteRead(1024 bytes read, 3072 more expected)' thrown while requesting GET "
     "https://huggingface.co/acme/policy/resolve/main/model-00001-of-00002.safetensors", "hf_incomplete_download"),
    ("'[Errno 104] Connection reset by peer' thrown while requesting GET https://huggingface.co/acme/policy/resolve/main/"
     "config.json", "hf_http_error"),
    # ---- pass 148 (current set 71; sets 9, 29 and a source file agree): a data file that does not read is the data's
    ("pyarrow.lib.ArrowInvalid: Could not open Parquet input source '/data/rollouts/step_12.parquet': Parquet magic bytes "
     "not found in footer. Either the file is corrupted or this is not a parquet file.", "python_crash"),
    ("Failed to read file '/root/.cache/huggingface/hub/datasets--acme--prompts/snapshots/ab12/data/train-00001-of-00004."
     "parquet' with error ArrowInvalid: Parquet magic bytes not found in footer. Either the file is corrupted or this is "
     "not a parquet file.", "python_crash"),
    # (a checkpoint that does not read stays the checkpoint's)
    ("RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory in "
     "/ck/global_step_80/model.pt", "checkpoint_corrupt"),
    # ---- pass 149 (current set 66): safetensors refusing a slice past a tensor's end is the caller's, not the file's
    ("safetensors_rust.SafetensorError: Error during slicing [0:4096] with shape [1024, 64]: index 4096 out of bounds for "
     "tensor dimension #0 of size 1024", "python_crash"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", "checkpoint_corrupt"),
]


@pytest.mark.parametrize(("line", "kind"), NAMED)
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_dump_for_another_reason_is_no_engine_death(tmp_path: Path) -> None:
    # (a slow stage's diagnostic: the engine goes on after it)
    line = ("(EngineCore pid=311) ERROR 11-30 08:12:44 [dump_input.py:90] Dumping input data for V1 LLM engine "
            "(v0.30.1, reason=timeout) with config: model='Qwen/Qwen3-8B', ")
    assert primary(both(tmp_path, [line])) != "engine_dead"


@pytest.mark.parametrize("line", ["the lease expired, renewing it", "INFO cache entry expired for key rollout/12"])
def test_an_expiry_in_passing_says_no_failure(tmp_path: Path, line: str) -> None:
    assert_says_nothing(tmp_path, line)


def test_a_retry_notice_at_its_bound_is_kept_and_one_on_its_way_is_not(tmp_path: Path) -> None:
    # ---- pass 150 (current set 71): datasets prints its retry notice at [N/N] just before it raises
    assert_kept_no_death(tmp_path, "Got disconnected from remote data host. Retrying in 5sec [20/20]")
    assert_says_nothing(tmp_path, "Got disconnected from remote data host. Retrying in 5sec [3/20]")
