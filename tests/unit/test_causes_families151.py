"""Passes 151 and after on issue 15 (seventeenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, assert_says_nothing, both  # noqa: E402

NAMED = [
    # ---- pass 151 (public set 80): `kubectl get pods` rows stuck rather than dead, read from their STATUS and AGE columns
    ("grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Pending   0          22m", "pg_unplaceable"),
    ("rl-jobs   grpo-rollout-1-4tq9z   0/8   Pending   0   3h12m   <none>   <none>   <none>   <none>", "pg_unplaceable"),
    ("grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Pending   0          2d", "pg_unplaceable"),
    ("grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Init:1/3   7 (2m10s ago)   31m", "python_crash"),
    # a node's disk pressure in the kubelet's condition words and an autoscaler's
    ("  DiskPressure     True    Thu, 03 Dec 2026 02:10:44 +0000   KubeletHasDiskPressure   kubelet has disk pressure",
     "disk_full"),
    ("  Normal   NodeHasDiskPressure   4m   kubelet   Node gpu-node-7 status is now: NodeHasDiskPressure", "disk_full"),
    ("(autoscaler +12m3s) [worker-2] Node is experiencing disk pressure - current disk utilization: 97.4% (301GiB/310GiB).",
     "disk_full"),
    # ---- pass 152 (current set 73): the body of a failed gRPC call's repr, each line that call's failure
    ("\tstatus = StatusCode.UNAVAILABLE", "python_crash"),
    ('\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.3.7:6379: Connection refused"',
     "python_crash"),
    ('    debug_error_string = "UNKNOWN:Error received from peer  {grpc_status:4, grpc_message:\"Deadline Exceeded\"}"',
     "python_crash"),
    # a dotted class in a module named for its exceptions, printed with no message
    ("msgpack.exceptions.ExtraData", "python_crash"),
    ("[rank2]: tensordict.errors.ShapeMismatch", "python_crash"),
    # another transport's socket in use is that process's failure, not a rendezvous's
    ("zmq.error.ZMQError: Address already in use (addr='ipc:///tmp/engine_core_0')", "python_crash"),
    ("E1204 02:10:44.183697    1498 add_port.cc:83] Failed to add port to server: No address added out of total 1 "
     "resolved for '0.0.0.0:50051' (Error in bind for address '[::]:50051': Address already in use)", "python_crash"),
    # (the rendezvous's own stays the rendezvous's)
    ("OSError: [Errno 98] Address already in use", "dist_timeout"),
    # ---- pass 153 (current set 77): c10d's network error names its family by its class, even with its message cut short
    ("                    DistNetworkError: The client", "dist_timeout"),
    ("[rank3]: torch.distributed.DistNetworkError: failed to recv, got 0 bytes", "dist_timeout"),
    # ---- pass 154 (current set 79): vLLM's EngineDeadError message wherever a client quotes it
    ("aiohttp.client_exceptions.ClientResponseError: 500, message='EngineCore encountered an issue. See stack trace "
     "(above) for the root cause.', url='http://10.0.3.7:8000/v1/chat/completions'", "engine_dead"),
    ("openai.InternalServerError: Error code: 500 - {'error': {'message': 'EngineCore encountered an issue. See stack "
     "trace (above) for the root cause.', 'type': 'InternalServerError', 'code': 500}}", "engine_dead"),
    # ---- pass 155 (current set 80): a state dict and its checkpoint that do not share their keys is the model's misfit
    ("[rank1]: Missing keys (for all ranks): {'decoder.final_layernorm.weight'}.", "python_crash"),
    ('\tMissing key(s) in state_dict: "value_head.weight", "value_head.bias".', "python_crash"),
    ("megatron.core.dist_checkpointing.core.CheckpointingException: Unexpected keys (not found in the checkpoint) "
     "encountered in the provided sharded state dict.", "python_crash"),
    # a checkpoint whose metadata names a format this loader cannot read is the checkpoint's
    ("[rank0]: megatron.core.dist_checkpointing.core.CheckpointingException: Cannot find a default strategy for: "
     "('load_sharded', 'torch_dist', 9)", "checkpoint_corrupt"),
    ("megatron.core.dist_checkpointing.core.CheckpointingException: Cannot find a default strategy for: "
     "('save_sharded', 'zarr', 1)", "python_crash"),
    # ---- pass 156 (current set 82): the hf CLI's own refusal without a token, in either quoting
    ("Error: Not logged in. Run `hf auth login` first.", "hf_gated"),
    ("\x1b[1m\x1b[31mError: Not logged in. Run 'hf auth login' first.\x1b[0m", "hf_gated"),
    # ---- pass 157 (current set 84): a Daytona sandbox's image missing or unusable at create is the image's
    ("daytona.common.errors.DaytonaBadRequestError: Failed to create sandbox: Snapshot acme/swe-env:1.2 not found. Did you "
     "add it through the Daytona Dashboard?", "image_pull"),
    ("DaytonaError: Failed to create sandbox: Snapshot acme/swe-env:1.2 is error", "image_pull"),
    # and a platform's memory quota refusing a create is no OOM kill
    ("daytona.common.errors.DaytonaForbiddenError: Failed to create sandbox: Total memory limit exceeded. Maximum allowed: "
     "64GiB.", "python_crash"),
    ("Memory limit exceeded (31.5G)", "pod_oomkilled"),
    # ---- pass 158 (current set 83): accelerate finding nothing to load where it was pointed
    ("ValueError: Tried to load from /ck/run-7/pytorch_model_fsdp_0 but couldn't find a valid metadata file.",
     "hf_weights_missing"),
    ("[rank0]: ValueError: `checkpoint` should be the path to a file containing a whole state dict, or the index of a "
     "sharded checkpoint, or a folder containing a sharded checkpoint or the whole state dict, but got /ck/run-7/export.",
     "hf_weights_missing"),
]


@pytest.mark.parametrize(("line", "kind"), NAMED)
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


@pytest.mark.parametrize("line", [
    # a pod waits a moment for its node, an init container runs without a failure yet, the pressure cleared
    "grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Pending   0          40s",
    "grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Pending   0          4m59s",
    "grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Init:0/2   0          6m",
    "  DiskPressure     False   Thu, 03 Dec 2026 02:10:44 +0000   KubeletHasNoDiskPressure   kubelet has no disk pressure",
    "  Normal   NodeHasNoDiskPressure   4m   kubelet   Node gpu-node-7 status is now: NodeHasNoDiskPressure",
    # a successful call's repr, a module imported
    "\tstatus = StatusCode.OK",
    "from msgpack.exceptions import ExtraData",
    "[transformers] There were missing keys in the checkpoint model loaded: ['value_head.weight'].",
])
def test_a_row_or_condition_that_is_fine_says_nothing(tmp_path: Path, line: str) -> None:
    assert_says_nothing(tmp_path, line)


def test_a_stuck_row_alone_is_no_death(tmp_path: Path) -> None:
    # a named stuck pod is a warning until something says the run ended
    report = both(tmp_path, ["grpo-qwen3-8b-trainer-0-0-x7k2p   0/1     Pending   0          22m"])
    assert report["verdict"] != "KILL"
