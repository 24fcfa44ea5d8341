"""Passes 45 and after on issue 15 (fifth round). Structural first: a JSON log record (Go operators'
zap / logr, Python json formatters) is read as the plain line its fields spell, level and time
included; retries that ran out and a stop signal received are failure statements without an error
word. Our own reconstructed lines, through both readers (tests/support/one_line.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402

from irisrl.observe.patterns import clean

NAMED45 = [
    ("cuda_oom", json.dumps({"levelname": "ERROR", "asctime": "2026-12-04 01:02:03,004", "name": "trainer",
                             "message": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."})),
    ("image_pull", json.dumps({"level": "error", "ts": 1796342523.5, "logger": "kubelet", "msg": "Error syncing pod",
                               "err": "failed to \"StartContainer\" with ImagePullBackOff: \"Back-off pulling image \\\"registry.local/rl:v9\\\"\""})),
]
# pass 46, from fresh sets 30-32's misses (cluster layer, fine-tuning frameworks, families)
NAMED46 = [
    ("python_crash", "FATA[0003] Error starting metrics server: listen tcp :9400: bind: address already in use"),
    ("python_crash", 'time="2026-12-04T01:02:03Z" level=fatal msg="invalid collectors configuration: unknown field DCGM_FI_DEV_X"'),
    ("python_crash", "2026/12/04 01:02:03.004 mountd[4242] <FATAL>: mount /mnt/ckpt: the metadata engine is not reachable"),
    ("disk_full", json.dumps({"level": "fatal", "ts": 1796342523.5, "logger": "setup", "msg": "unable to write lease",
                              "error": "write /var/lib/op/lease: no space left on device"})),
    ("python_crash", "srun: error: task 3 launch failed: Slurmd could not execve job"),
    ("python_crash", "slurmstepd: error: spank: required plugin spank_enroot.so: task_init() failed with rc=-1"),
    ("image_pull", "pyxis: [ERROR] Invalid image reference: docker://registry.local#rl/trainer::v7"),
    ("pg_unplaceable", "Node scale up in zones europe-west4-a associated with this pod failed: Quota 'NVIDIA_H100_GPUS' exceeded. Pod is at risk of not being scheduled."),
    ("image_pull", "ctr: failed to extract layer sha256:0a1b2c3d4e5f: write /var/lib/containerd/tmpmounts/m-1/usr/lib/x: input/output error"),
    ("ray_node_dead", "ray.exceptions.RpcError: Timed out while waiting for GCS to become ready."),
    ("cuda_error", "Error named symbol not found at line 88 in file csrc/kernels.cu"),
    ("nccl_error", "gpu-3:4242:4250 [0] create_nccl_ofi_component:512 NET/OFI Couldn't open a fabric access domain. RC: -2, ERROR: No such file or directory"),
    ("hf_repo_not_found", "Loader: No tokenizer found - are you sure the model_id is correct?"),
    ("pg_unplaceable", "ValueError: The number of required GPUs exceeds the total number of available GPUs in the cluster."),
    ("pg_unplaceable", "ValueError: Placement group bundle cannot have more than 1 GPU."),
    ("hf_incomplete_download", "RuntimeError: An error occurred while downloading using `hf_transfer`. Consider disabling HF_HUB_ENABLE_HF_TRANSFER for better error handling."),
]


# pass 47, from fresh sets current17, current18, 33 and 34's misses
NAMED47 = [
    ("python_crash", "[FATAL tini (7)] exec /entrypoint.sh failed: Permission denied"),
    ("cuda_error", "RuntimeError: invalid device pointer: 0x7f0012340000"),
    ("python_crash", "Timeout (0:15:00)!"),
    ("disk_full", "OSError: [Errno 27] File too large: '/ckpt/global_step_40/model.pt'"),
    ("disk_full", "safetensors_rust.SafetensorError: Error while serializing: I/O error: File too large (os error 27)"),
    ("checkpoint_corrupt", "ValueError: Tried to find /runs/a/checkpoints/checkpoint_12 but folder does not exist"),
    ("cuda_oom", "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY] (0x00000051) returned from _memdescAllocInternal"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED45 + NAMED46 + NAMED47)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_json_record_reads_as_the_line_its_fields_spell() -> None:
    """zap's record: level word, logger, message, then the scalar fields that say what happened (logr
    puts the failure there), not the bookkeeping ones; `ts` is the line's time."""
    record = {"level": "info", "ts": "2026-12-04T01:02:03.5Z", "logger": "controllers.RayCluster", "msg": "reconcilePods",
              "reconcileID": "5d2b8f1e", "RayCluster": {"name": "rc"}, "Pod status reason": "Evicted", "caller": "x.go:12"}
    line = clean(json.dumps(record).encode())
    assert line.text == "INFO controllers.RayCluster: reconcilePods Pod status reason: Evicted"
    assert line.stamp == 1796346123.0
    assert clean(b"{'loss': 1.2, 'step': 3}").text == "{'loss': 1.2, 'step': 3}"   # a dict repr is no record


def test_a_failure_in_a_json_records_fields_is_read_at_its_level(tmp_path: Path) -> None:
    """KubeRay logs a RayJob's failure at info level: shown, and named by its Reason field, never a death
    on its own."""
    record = {"level": "info", "ts": "2026-12-04T01:02:03Z", "logger": "controllers.RayJob",
              "msg": "The submitter Kubernetes Job has failed. Attempting to transition the status to `Failed`."}
    shown = both(tmp_path, [json.dumps(record)])
    assert shown["unrecognized"] and shown["verdict"] == "NO-KILL"
    named = both(tmp_path, [json.dumps(record | {"Reason": "BackoffLimitExceeded"})])
    assert primary(named) == "python_crash" and named["verdict"] == "NO-KILL"


def test_retries_that_ran_out_are_shown_and_a_retry_on_the_way_is_not(tmp_path: Path) -> None:
    """NCCL's INFO channel is no failure report, except its connect retries' last: the counter at its bound (named
    nccl_error since pass 141, a notice: never a death alone)."""
    line = "gpu-3:4242:4250 [0] NCCL INFO socketPollConnect: connect returned Connection refused, retrying ({n}/34) after sleep for 3400 msec"
    last = both(tmp_path, [line.format(n=34)])
    assert (primary(last), last["verdict"]) == ("nccl_error", "NO-KILL")
    assert not both(tmp_path, [line.format(n=3)])["unrecognized"]
    assert both(tmp_path, ["fetch shard-00003: out of retries on exception: Service Unavailable, 503"])["unrecognized"]


def test_a_stop_signal_received_is_shown_and_one_sent_is_not(tmp_path: Path) -> None:
    received = both(tmp_path, ["2026-12-04 01:02:03.004 | WARNING  | trainer:_on_signal:88 - Received SIGTERM, shutting down Ray..."])
    assert received["unrecognized"] and received["verdict"] == "NO-KILL" and primary(received) is None
    sent = "W1204 01:02:03.004000 4242 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 4251 closing signal SIGTERM"
    assert not both(tmp_path, [sent])["unrecognized"]


def test_a_fatal_record_ends_its_process_and_a_critical_one_does_not(tmp_path: Path) -> None:
    """logrus' Fatal exits after writing its record (KILL on its own); Python's CRITICAL goes on."""
    fatal = both(tmp_path, ["FATA[0001] Error watching fields: Feature not supported"])
    assert primary(fatal) == "python_crash" and fatal["verdict"] == "KILL"
    critical = both(tmp_path, ["2026-12-04 01:02:03,004 - trainer - CRITICAL - Error watching fields: Feature not supported"])
    assert critical["verdict"] == "NO-KILL"


def test_a_zero_that_numbers_a_thing_is_no_counter(tmp_path: Path) -> None:
    """"0 failed" counts nothing; "task 0 launch failed" is task 0 failing."""
    assert primary(both(tmp_path, ["srun: error: task 0 launch failed: Slurmd could not execve job"])) == "python_crash"
    assert not both(tmp_path, ["Summary: 12 passed, 0 failed"])["unrecognized"]


def test_a_device_allocation_is_no_memory_allocation(tmp_path: Path) -> None:
    line = 'E1204 01:02:03.004 1 plugin.go:127] "handling request failed" err="MIG device allocation failed: Insufficient Resources"'
    assert primary(both(tmp_path, [line])) != "cuda_oom"


def test_a_save_with_nowhere_to_go_is_no_missing_checkpoint(tmp_path: Path) -> None:
    """A lookup of a checkpoint path that is not there is a missing checkpoint; torch.save's parent directory is not."""
    assert primary(both(tmp_path, ["RuntimeError: Parent directory /tmp/x/ckpt/global_step_300 does not exist."])) == "python_crash"
