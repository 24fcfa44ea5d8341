"""Passes 48 and after on issue 15 (sixth round). Structural first: the node's own container log
files (the CRI format: stamp, stream, full / partial tag) read like `kubectl logs`. Our own
reconstructed lines, through both readers (tests/support/one_line.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, named, primary  # noqa: E402

from irisrl.observe.patterns import clean


def test_a_cri_log_line_reads_like_kubectl_logs(tmp_path: Path) -> None:
    """/var/log/pods/... holds `<RFC3339Nano> <stream> <F|P> <line>`: the stamp is the line's time and
    the stream / tag go, so a grammar anchored at the line's start reads it."""
    line = clean(b"2026-12-04T01:02:03.123456789Z stderr F Traceback (most recent call last):")
    assert line.text == "Traceback (most recent call last):" and line.stamp == 1796346123.0
    assert clean(b"2026-12-04T01:02:03Z stdout P partial text").text == "partial text"
    assert clean(b"2026-12-04T01:02:03Z stdoutish F text").text == "stdoutish F text"   # no stream word: kept
    shown = both(tmp_path, ["2026-12-04T01:02:03.5Z stderr F FATA[0001] Error watching fields: Feature not supported"])
    assert primary(shown) == "python_crash" and shown["verdict"] == "KILL"


def test_a_json_records_nested_fields_are_read() -> None:
    """An error object inside the record (`"error": {"reason", "message"}`) says what happened: its
    fields read as `error.reason: ...`; bookkeeping inside it is still skipped."""
    record = {"level": "error", "ts": 1796342523.5, "logger": "controller", "msg": "Reconciler error",
              "error": {"reason": "Evicted", "message": "The node was low on resource: memory.", "caller": "x.go:1"}}
    assert clean(json.dumps(record).encode()).text == (
        "ERROR controller: Reconciler error error.reason: Evicted error.message: The node was low on resource: memory.")


def test_a_disk_threshold_warned_of_is_named_and_a_death_only_once_its_process_ended(tmp_path: Path) -> None:
    """Ray's file system monitor says object creation WILL fail if spilling is needed, and the job goes
    on (ray-project/ray#19834): disk_full, shown, not a KILL on its own; with the process's end after it,
    the cause of death."""
    monitor = ("(raylet) [2026-12-04 01:02:03,004 E 4242 4250] file_system_monitor.cc:116: /tmp/ray/session_x is over "
               "95% full, available space: 1.2 GB; capacity: 400 GB. Object creation will fail if spilling is required.")
    alone = both(tmp_path, [monitor])
    assert primary(alone) == "disk_full" and alone["verdict"] == "NO-KILL"
    ended = both(tmp_path, [monitor, "ray.exceptions.ObjectStoreFullError: Failed to put object", "trainer exited with code 1"])
    assert ended["verdict"] == "KILL" and primary(ended) == "disk_full"


def test_ray_prefixes_name_serve_replicas_and_data_operators() -> None:
    """A Serve replica's actor name holds app and deployment (colons), a Ray Data task its operator
    and function (a parenthesis): the prefix is still the process's, not the line's text."""
    line = clean(b"(ServeReplica:app:LLMServer pid=4288, ip=10.0.1.7) torch.OutOfMemoryError: CUDA out of memory.")
    assert line.text.startswith("torch.OutOfMemoryError") and line.actor == "ServeReplica:app:LLMServer pid=4288@10.0.1.7"
    assert clean(b"(MapBatches(tokenize) pid=12) ValueError: bad row").text == "ValueError: bad row"


def test_multiprocessings_child_header_opens_a_traceback(tmp_path: Path) -> None:
    """`Process <name>:` is what multiprocessing writes before a child's traceback: held like a
    Traceback head (the uncaught exception it announces, python_crash guessed, if its final line never
    comes: pass 50; one event when it does); naming vLLM's engine core, it is the engine failing by the
    serving-state rule."""
    alone = both(tmp_path, ["Process SpawnProcess-3:"])
    assert primary(alone) == "python_crash" and not alone["unrecognized"] and alone["verdict"] == "NO-KILL"
    whole = both(tmp_path, ["Process SpawnProcess-3:", "Traceback (most recent call last):",
                            "  File \"/app/worker.py\", line 9, in run", "ValueError: bad shard index 12"])
    assert primary(whole) == "python_crash" and not whole["unrecognized"]
    engine = both(tmp_path, ["(ServeReplica:app:LLMServer pid=4288, ip=10.0.1.7) Process EngineCore_0:"])
    assert primary(engine) == "engine_init_failed"
    assert not both(tmp_path, ["Processed prompts: 100%|##########| 64/64 [00:03<00:00, 19.2it/s]"])["unrecognized"]


# pass 48, from fresh sets 35-37's misses: families read from the libraries' own sources
NAMED48 = [
    # a TVM / tvm-ffi ICHECK's condition names no error; its message does
    ("cuda_oom", "tvm/src/runtime/cuda/cuda_device_api.cc:140: InternalError: Check failed: (e == cudaSuccess || "
                 "e == cudaErrorCudartUnloading) is false: CUDA: out of memory"),
    ("cuda_error", "flashinfer/csrc/x.cu:88: InternalError: Check failed: (e == cudaSuccess || e == cudaErrorCudartUnloading) "
                   "is false: CUDA: an illegal memory access was encountered"),
    # the Go runtime's own end, and apimachinery's recovered panic
    ("python_crash", "panic: assignment to entry in nil map"),
    ("python_crash", "fatal error: all goroutines are asleep - deadlock!"),
    ("python_crash", 'E1204 01:02:03.004000       1 runtime.go:79] Observed a panic: "invalid memory address or nil pointer dereference"'),
    # Ray Tune's end with failed trials; Ray Serve LLM's engine host failing to initialize
    ("python_crash", "2026-12-04 01:02:03,004\tERROR tune.py:1035 -- Trials did not complete: [TorchTrainer_1a2b3_00001]"),
    ("engine_init_failed", "ray.exceptions.RayTaskError(ValueError): ray::ServeReplica:rl:LLMServer:qwen3-8b.start() "
                           "(pid=77, ip=10.0.0.9, actor_id=ab12)"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED48)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_go_ends_its_process_on_a_panic_and_a_compiler_error_is_no_go_runtime(tmp_path: Path) -> None:
    """An unrecovered panic / runtime.throw ends the Go process (exit 2): KILL on its own; a compiler's
    `file:line: fatal error:` is not the runtime's and stays an error shown."""
    assert both(tmp_path, ["fatal error: concurrent map writes"])["verdict"] == "KILL"
    built = both(tmp_path, ["csrc/flash_api.cpp:7:10: fatal error: cuda_runtime.h: No such file or directory"])
    assert built["verdict"] == "NO-KILL" and primary(built) == "python_crash"   # a build failure (vocabulary BUILD_FAILED)


def test_a_threads_header_opens_its_traceback(tmp_path: Path) -> None:
    """threading's `Exception in thread X:` is one event with the traceback it heads; alone, the uncaught
    exception it announces (python_crash, guessed: pass 50)."""
    whole = both(tmp_path, ["Exception in thread Thread-3 (_loop):", "Traceback (most recent call last):",
                            '  File "/app/x.py", line 3, in _loop', "ValueError: bad"])
    assert primary(whole) == "python_crash" and not whole["unrecognized"]
    alone = both(tmp_path, ["Exception in thread Thread-3 (_loop):"])
    assert primary(alone) == "python_crash" and alone["verdict"] == "NO-KILL"


def test_a_failed_checks_condition_names_nothing_on_either_reader(tmp_path: Path) -> None:
    """The condition is code on the catalogue's pass and on the family vocabulary's alike: a check with
    a message no rule names is shown, not guessed a CUDA error from `cudaErrorCudartUnloading`."""
    shown = both(tmp_path, ["[12:00:01] src/runtime/pool.cc:88: Check failed: (e == cudaSuccess || "
                            "e == cudaErrorCudartUnloading) is false: the pool was released twice"])
    assert named(shown) is None and shown["unrecognized"]
