"""Pass 50 on issue 15 (seventh round). Structural first: a multiplexer's source column (docker compose,
kubectl --prefix, Open MPI, srun, pdsh, syslog / journald, a quote, an exception group's margin) does not
change how a line reads; then the messages programming errors print whatever wraps them, libstdc++'s
terminate handler, the dynamic loader, Open MPI's runtime, asyncio's reports. Our own reconstructed
lines, through both readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, named, primary  # noqa: E402

from irisrl.observe.patterns import clean

COLUMNS = ["trainer-1  | ", "[pod/grpo-trainer-0/main] ", "[1,3]<stderr>:", "  7: ", "worker-3: ", "10.0.4.17: ",
           "> ", "Mar  4 05:06:07 gpu-node-3 python3[4242]: ", "2026-03-04T05:06:07+0000 gpu-node-3 python3[4242]: ",
           "trainer-1  | 2026-03-04T05:06:07.5Z "]
# lines whose grammar is anchored at the line's start (a shell's report, a build, the terminate handler)
ANCHORED = [("python_crash", "Terminated"), ("python_crash", "ninja: build stopped: subcommand failed."),
            ("python_crash", "  what():  [enforce fail at pair.cc:12] op.len <= op.nbytes. 8 vs 4"),
            ("cuda_oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                         "capacity of 79.10 GiB of which 10.2 MiB is free.")]


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize(("kind", "line"), ANCHORED)
def test_a_source_column_does_not_change_the_reading(tmp_path: Path, column: str, kind: str, line: str) -> None:
    bare, behind = both(tmp_path, [line]), both(tmp_path, [column + line])
    assert primary(behind) == primary(bare) == kind and behind["verdict"] == bare["verdict"]


def test_a_column_is_kept_and_what_is_not_a_column_stays_text() -> None:
    assert clean(b"trainer-1  | boom").column == "trainer-1  | " and clean(b"boom").column is None
    assert clean(b"ERROR    | fastembed:download:12 - boom").text.startswith("ERROR")   # a logger's level column
    assert clean(b"404: Not Found").text == "404: Not Found"                          # an HTTP status, not a label
    assert clean(b"mlx5: got completion with error").text.startswith("mlx5:")           # a driver, not a host
    assert clean(b"nvidia-container-cli: mount error").text.startswith("nvidia-container-cli")
    # a CI runner's stamp before an exception: the class is no syslog identifier
    assert clean(b"Oct 16 02:07:00 RuntimeError: test_c10d failed!").text == "Oct 16 02:07:00 RuntimeError: test_c10d failed!"
    assert clean(b"Oct 16 02:07:00 node-3 kernel: NVRM: Xid 79").text == "NVRM: Xid 79"
    # Open MPI's tag, then NCCL's own host:pid:tid prefix: only the tag goes
    assert clean(b"[1,2]<stdout>:gpu-3:2988:3039 [0] init.cc:49 NCCL WARN x").text.startswith("gpu-3:2988")


def test_a_columns_program_name_still_says_what_the_line_does_not(tmp_path: Path) -> None:
    """`localai  | ... Model not responding`: the service names the engine the line leaves unnamed."""
    report = both(tmp_path, ["localai     | 8:15PM WRN GRPC Model not responding: rpc error: code = Unavailable"])
    assert primary(report) == "engine_dead"
    # a warning is not a failure for its program's name
    notice = both(tmp_path, ["vllm-1  | WARNING 12-04 01:02:03 [utils.py:9] Module deep_gemm not found"])
    assert primary(notice) is None and notice["verdict"] == "NO-KILL"


NAMED50 = [
    # CPython's and torch's own messages, quoted by whatever caught them
    ("python_crash", "An unexpected error occurred in the rollout worker: 'NoneType' object is not subscriptable"),
    ("python_crash", "ERROR 12-04 03:21:55 [weights.py:88] Failed to load shard: object of type 'NoneType' has no len()"),
    ("python_crash", "[2026-12-04 03:22:14 TP1] update failed: The size of tensor a (3584) must match the size of tensor b "
                     "(4096) at non-singleton dimension 1"),
    ("python_crash", "reward fn error: Expected all tensors to be on the same device, but found at least two devices"),
    ("python_crash", "step 12 aborted: The total norm of order 2.0 for gradients from `parameters` is non-finite"),
    ("python_crash", "E1204 01:37:02.893000 469 torch/_guards.py:368] [0/0] Error while building the guard:"),
    # the dynamic loader's failure, wrapped (not at warning level: below)
    ("python_crash", "Could not load the fused kernels: /opt/ext/libfused.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"),
    ("python_crash", "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by x)"),
    # a registry's UNAUTHORIZED code as docker prints it
    ("image_pull", "docker: unauthorized: authentication required."),
    # Open MPI's runtime, a script's not-found command, Slurm's exec, a scheduler's shortfall, a job's condition
    ("python_crash", "ORTE has lost communication with a remote daemon."),
    ("python_crash", "PRTE was unable to reliably start one or more daemons."),
    ("python_crash", "/opt/launch/run.sh: line 14: torchrun: command not found"),
    ("python_crash", "slurmstepd: error: execve(): train_grpo: No such file or directory"),
    ("pg_unplaceable", "scheduler : no nodes with enough resources were found for task default/trainer-0"),
    ("python_crash", "  Message:  PyTorchJob grpo-run has failed because 2 Worker replica(s) failed."),
    # a process's end reported with nothing else: the catch-all, named by its end
    ("python_crash", "srun: error: gpu-node-07: task 3: Exited with exit code 1"),
    ("python_crash", "trial 4 failed: container failed with non-zero exit code: 2"),
    # asyncio's and an exception group's reports; the allocator's own OOM wording
    ("python_crash", "Task exception was never retrieved"),
    ("python_crash", "Exception in callback Rollout._done(<Future finished exception=KeyError('reward')>)"),
    ("python_crash", "  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)"),
    ("cuda_oom", "GPU 3 has a total capacity of 139.81 GiB of which 20.5 MiB is free. Process 4242 has 139.7 GiB memory in use."),
]




def test_the_terminate_handlers_message_ends_its_process_and_is_shown(tmp_path: Path) -> None:
    """`  what():  <message>` is libstdc++'s second line before abort(): a death, surfaced even with no error
    word; Ray's own one-line handler ("Unhandled exception: X. what(): ...") is not that line."""
    report = both(tmp_path, ["  what():  boom"])
    assert primary(report) == "python_crash" and report["verdict"] == "KILL"
    ray = both(tmp_path, ["[2025-03-04 19:28:30,014 E 27497 27497] logging.cc:113: Unhandled exception: "
                          "N5boost10wrapexceptINS_6system12system_errorEEE. what(): shutdown: Bad file descriptor"])
    assert ray["verdict"] == "NO-KILL"


def test_a_warning_about_an_optional_library_is_not_a_crash(tmp_path: Path) -> None:
    """An optional import that fell back (a WARNING record, libibverbs' "Warning:" label) is shown, not named."""
    for line in ["WARNING 12-04 01:02:03 [_custom_ops.py:20] Failed to import from vllm._C with "
                 "ImportError(\"libcudart.so.12: cannot open shared object file: No such file or directory\")",
                 "libibverbs: Warning: couldn't load driver 'libmlx4-rdmav34.so': libmlx4-rdmav34.so: cannot open shared "
                 "object file: No such file or directory",
                 "WARNING: flash_attn not used: No module named 'flash_attn'"]:
        report = both(tmp_path, [line])
        assert primary(report) is None and report["verdict"] == "NO-KILL", line


def test_an_opener_is_one_event_with_its_final_line(tmp_path: Path) -> None:
    """asyncio's "Task exception was never retrieved" heads a traceback: the final line names the kind."""
    report = both(tmp_path, ["Task exception was never retrieved", "future: <Task finished name='Task-7' coro=<roll()>>",
                             "Traceback (most recent call last):", '  File "/app/r.py", line 9, in roll',
                             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB"])
    assert primary(report) == "cuda_oom" and [c["kind"] for c in report["causes"]] == ["cuda_oom"]


# pass 51, from fresh sets 43-44 and the iris_stack / python_runtime source sets' misses
NAMED51 = [
    ("ray_local_instance", "2026-12-04 01:02:03,123\tWARNING services.py:217 -- Some processes that the driver needs to "
                           "connect to have not registered with GCS, so retrying. Have you run 'ray start' on this node?"),
    ("evicted", "DisruptionTarget: EvictionByEvictionAPI: Eviction API: evicting"),
    ("evicted", "TerminationByKubelet: Pod was terminated in response to imminent node shutdown."),
    ("evicted", "GCP preempt signal received from metadata server"),
    ("pg_timeout", "iris.client.client.JobFailedError: Job /alice/grpo-32b JOB_STATE_UNSCHEDULABLE: Scheduling timeout exceeded"),
    ("pg_timeout", "TimeoutError: Only 2/4 Ray nodes joined within 900s."),
    ("python_crash", "Coscheduled sibling /alice/grpo-32b/3 failed"),
    ("python_crash", "Job exceeded max_task_failures"),
    ("python_crash", "Exit code: 1"),
    ("hydra_error", "Exit code: 1. stderr: Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."),
    ("python_crash", "ERROR:asyncio:Task exception was never retrieved"),
    ("python_crash", "2026-12-04 01:02:03,123 - asyncio - ERROR - Future exception was never retrieved"),
    ("python_crash", "Current thread 0x00007f4b2a7fe640 (most recent call first):"),
    ("python_crash", "Extension modules: numpy._core._multiarray_umath, torch._C, msgpack._cmsgpack (total: 3)"),
    ("python_crash", "socket.gaierror: [Errno -3] Temporary failure in name resolution"),
    ("python_crash", "http.client.RemoteDisconnected: Remote end closed connection without response"),
    ("python_crash", "asyncio.exceptions.IncompleteReadError: 0 bytes read on a total of 8 expected bytes"),
    ("hf_incomplete_download", "botocore.exceptions.IncompleteReadError: 3221225472 read, but total bytes expected is 4932501504."),
    ("python_crash", "grpc._channel._MultiThreadedRendezvous: <_MultiThreadedRendezvous of RPC that terminated with:"),
]


def test_an_exit_reports_code_is_not_read_as_a_family(tmp_path: Path) -> None:
    """A launcher's -9 is its child's SIGKILL (python_crash), not an orchestrator's OOM kill; only what the
    report quotes after its code names a family. A zero count ("0 failed") asserts nothing, a path's "/0" does."""
    assert primary(both(tmp_path, ["ERROR 12-04 01:02:03 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 42 "
                                   "died, exit code: -9"])) == "python_crash"
    assert primary(both(tmp_path, ["Tests: 12 passed, 0 failed"])) is None


# passes 52-53, from the rl_frameworks, gpu_status_strings and k8s_workloads source sets' misses
NAMED52 = [
    ("engine_init_failed", "(WorkerDict pid=31337, ip=10.0.3.18) TimeoutError: Server failed to become healthy within 600s"),
    ("engine_init_failed", "04:12:55   ERROR Inference server is not ready after 1800 (>1800) seconds. Aborting..."),
    ("engine_init_failed", "[rank0]: ConnectionError: The vLLM server can't be reached at http://10.0.0.5:8000 after 240.0 seconds."),
    ("checkpoint_corrupt", "AssertionError: Checkpoint path /mnt/ckpt/grpo-32b/global_step_400/actor does not exist."),
    ("hf_gated", "PermissionError: Hugging Face authentication failed. Verify your token is valid."),
    ("cuda_oom", "[rank2]: RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED"),
    ("cuda_oom", "RuntimeError: OOM trying to allocate workspace for cublaslt"),
    ("nccl_timeout", "torch.distributed.DistBackendError: NCCL timeout in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:131"),
    ("cuda_error", "pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded"),
    ("python_crash", "  Exit Code:    139"),
    ("python_crash", "      reason: StartError"),
    ("pg_unplaceable", "    reason: Unschedulable"),
    ("evicted", "  message: 'Usage of EmptyDir volume \"dshm\" exceeds the limit \"64Gi\". '"),
    ("evicted", "trainer-0-3-p9d4s   1/1     Unknown   0          5h41m"),
    ("python_crash", "  Warning  FailedMount  2m (x3 over 6m)  kubelet  Unable to attach or mount volumes: unmounted volumes=[ckpt]"),
    ("python_crash", "  Warning  TaskHung    3m    kernel-monitor  task python3:918273 blocked for more than 120 seconds."),
]


def test_notices_stay_notices(tmp_path: Path) -> None:
    """What NCCL reports on its INFO channel it clears and goes on after; Xid 63 records a row for remapping;
    a start-up failure that states its cause is that cause; a Warning event that reports no failure is not one."""
    for line in ["trainer-3:48211:48211 [5] NCCL INFO Cuda failure 1 'invalid argument'",
                 "NVRM: Xid (PCI:0000:4c:00): 63, Row Remapper: New row marked for remapping, reset gpu to activate.",
                 "9m48s   Warning   InvalidDiskCapacity   node/gpu-7   invalid capacity 0 on image filesystem"]:
        report = both(tmp_path, [line])
        assert report["verdict"] == "NO-KILL" and named(report) in (None, "cuda_error"), line
    stated = both(tmp_path, ['Failed to start model server: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "CUDACachingAllocator.cpp":844'])
    assert primary(stated) == "cuda_error"


@pytest.mark.parametrize(("kind", "line"), NAMED50 + NAMED51 + NAMED52)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_a_checkpoint_file_or_format_is_the_checkpoints(tmp_path: Path) -> None:
    """A checkpoint file named missing, or a format the loader does not know, is the checkpoint's kind (deepspeed_megatron
    source set); a device that is not there is a CUDA failure."""
    assert primary(both(tmp_path, ["FileNotFoundError: Expert checkpoint file not found: /ckpt/global_step300/"
                                   "layer_5_expert_42_mp_rank_00_model_states.pt"])) == "checkpoint_corrupt"
    assert primary(both(tmp_path, ["NotImplementedError: unknown checkpoint format in /ckpt/iter_0004000"])) == "checkpoint_corrupt"
    assert primary(both(tmp_path, ["SystemError: Accelerator is not detected, cannot perform low precision training"])) == "cuda_error"


def test_ray_cores_own_records(tmp_path: Path) -> None:
    """Ray 2.60's C++ core (ray_core_cpp source set): the GCS's worker exit types, the worker pool's dead start, the
    raylet's infeasible request, the spill directory with no capacity (a death only once its process ended), and the
    fatal level C, which aborts its process."""
    gcs = "[2026-12-04 04:27:13,845 W 604 604] (gcs_server) gcs_actor_manager.cc:1233: Worker ab12 on node cd34 exits, type="
    assert primary(both(tmp_path, [gcs + "NODE_OUT_OF_MEMORY, has creation_task_exception = 0"])) == "ray_oom_kill"
    assert primary(both(tmp_path, [gcs + "SYSTEM_ERROR, has creation_task_exception = 0"])) == "ray_worker_died"
    assert primary(both(tmp_path, ["(raylet) worker_pool.cc:660: Some workers of the worker process(51873) have not registered "
                                   "within the timeout. The process is dead, probably it crashed during start."])) == "ray_worker_died"
    assert primary(both(tmp_path, ["(raylet) cluster_lease_manager.cc:133: Tasks or actors with resource shapes {CPU: 1, GPU: 8} "
                                   "failed to schedule because there are not enough resources for the tasks or actors on the "
                                   "whole cluster."])) == "pg_unplaceable"
    spill = both(tmp_path, ["(raylet) file_system_monitor.cc:116: /raid/ray_spill has no capacity, object creation will fail "
                            "if spilling is required."])
    assert primary(spill) == "disk_full" and spill["verdict"] == "NO-KILL"
    fatal = both(tmp_path, ["[2026-12-04 06:11:27,901 C 6120 6120] core_worker.cc:1774: An application is trying to access a "
                            "Ray object whose owner is unknown"])
    assert fatal["verdict"] == "KILL"


def test_the_last_rounds_families(tmp_path: Path) -> None:
    """Pass 56 (hf_training_runtime, sglang_runtime, nccl_transport source sets): a device that is not there, a trainer
    timing out on its inference server, a line that says it falls back (a notice), NCCL's RAS and named IB statuses."""
    assert primary(both(tmp_path, ["ValueError: No available GPU device found!"])) == "cuda_error"
    assert primary(both(tmp_path, ["TimeoutError: Timed out after 600s waiting for vLLM server at http://10.0.1.7:8000."])) == \
        "engine_init_failed"
    fallback = both(tmp_path, ["nvidia-smi failed (exit code 4: Failed to initialize NVML: Insufficient Permissions). "
                               "Falling back to torch.cuda.mem_get_info()."])
    assert fallback["verdict"] == "NO-KILL"
    assert primary(both(tmp_path, ["gpu-node-3:718:719 [0] NCCL INFO RAS declaring peer 10.20.4.12<43895> as DEAD"])) == "nccl_error"
    assert primary(both(tmp_path, ["gpu-node-3:718:719 [0] NCCL INFO RAS keep-alive timeout error (21s) on socket connection "
                                   "with 10.20.4.12<43895>"])) == "nccl_timeout"
    assert primary(both(tmp_path, ["[rank3]: NET/IB: Got completion from peer 10.20.4.18<41873> with "
                                   "status=IBV_WC_REM_ACCESS_ERR(10) opcode=IBV_WC_RDMA_WRITE(1) vendor err 136"])) == "nccl_error"
