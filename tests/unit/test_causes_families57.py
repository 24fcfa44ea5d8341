"""Passes 57-67 on issue 15 (eighth round): the families the eighth round's sets showed missing, each keyed on
the library's own source (Slurm, Open MPI / PRRTE, Hydra's composition refusals, XLA / TF and HIP, CUDA driver
calls, vLLM 0.34's serving-time fault words, TensorRT, ollama's registry, GGUF, botocore, Ray Data, torch
elastic's etcd rendezvous). Our own reconstructed lines, not the corpus's, through both readers
(tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402

NAMED57 = [
    # Slurm's own ends, by the reason its banner states
    ("evicted", "slurmstepd: error: *** JOB 912 ON dgx-03 CANCELLED AT 2026-11-02T10:00:01 DUE TO TIME LIMIT ***"),
    ("evicted", "slurmstepd: error: *** STEP 912.1 ON dgx-03 CANCELLED AT 2026-11-02T10:00:01 DUE TO PREEMPTION ***"),
    ("evicted", "slurmstepd: error: *** STEP 913.0 ON dgx-04 CANCELLED AT 2026-11-02T10:00:01 DUE to SIGNAL Killed ***"),
    ("evicted", "salloc: Job 77 has exceeded its time limit and its allocation has been revoked."),
    ("python_crash", "slurmstepd: error: *** JOB 914 ON dgx-09 CANCELLED AT 2026-11-02T11:12:13 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"),
    ("python_crash", "srun: error: dgx-11: tasks 8-15: Segmentation fault"),
    ("python_crash", "srun: error: Node failure on dgx-12"),
    ("pg_unplaceable", "srun: error: Unable to allocate resources: Requested node configuration is not available"),
    ("pg_unplaceable", "sbatch: error: Batch job submission failed: Requested GRES option unsupported by configured SelectType plugin"),
    ("pod_oomkilled", "[2026-11-02T12:00:00.001] _job_complete: JobId=5150 OOM failure"),
    # MPI's and PRRTE's own ends; the PMIx collective is the launcher's rendezvous
    ("python_crash", "MPI_ABORT was invoked on rank 7 in communicator MPI_COMM_WORLD"),
    ("python_crash", "[dgx-03:1201] *** An error occurred in MPI_Bcast"),
    ("python_crash", "mpirun noticed that process rank 2 with PID 0 on node dgx-05 exited on"),
    ("pg_unplaceable", "There are not enough slots available in the system to satisfy the 16"),
    ("dist_timeout", "slurmstepd: error:  mpi/pmix_v4: pmixp_coll_ring_reset_if_to: dgx-2 [0]: pmixp_coll_ring.c:742: 0x15: collective timeout seq=3"),
    # Apptainer's fatal record, pyxis's container failures
    ("python_crash", "FATAL:   container creation failed: mount /scratch->/scratch error: no such file or directory"),
    ("python_crash", "slurmstepd: error: pyxis: container exited too soon"),
    # Hydra's bare composition refusals (HYDRA_FULL_ERROR unset)
    ("hydra_error", "Sweep parameters 'optim.lr=1e-5,3e-5' requires --multirun"),
    ("hydra_error", "You must specify 'generator', e.g, generator=<OPTION>"),
    ("hydra_error", "Multiple values for trainer. To override a value use 'override trainer: fsdp2'"),
    ("hydra_error", "In 'grpo_base': ConfigKeyError raised while composing config:"),
    # accelerators other than CUDA and CUDA's other libraries
    ("cuda_oom", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1.50GiB."),
    ("cuda_oom", "Ran out of memory in memory space hbm. Used 17.2G of 16.00G hbm."),
    ("cuda_oom", "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB."),
    ("cuda_error", "RuntimeError: hipErrorIllegalAddress: an illegal memory access was encountered"),
    ("cuda_error", "RuntimeError: cuStreamWaitValue32(stream, addr, 1) failed: 700"),
    ("cuda_error", "CUTLASS error (/src/gemm.h:88): Error Internal"),
    ("cuda_oom", "RuntimeError: Failed to run the decode plan with error: out of memory"),
    # vLLM's serving-time fault words, never read as start-up
    ("engine_dead", "(EngineCore_DP1 pid=77) ERROR 11-02 10:00:00 [engine_core_sentinel.py:530] [FT] No recovery within 60s timeout."),
    ("engine_dead", "(APIServer pid=1) INFO 11-02 10:00:00 [async_llm.py:359] Engine unhealthy - rejecting request cmpl-1."),
    # pass 58: TensorRT, ollama's registry, GGUF, transformers' set-up checks
    ("cuda_oom", "[TRT] [E] 2: [allocator.cpp::allocate::20] Error Code 2: OutOfMemory (no further information)"),
    ("hf_http_error", "Error: pull model manifest: Get \"https://registry.ollama.ai/v2/library/mistral/manifests/7b\": dial tcp: i/o timeout"),
    ("checkpoint_corrupt", "gguf_init_from_file: invalid magic characters 'lmth'"),
    ("cuda_error", "RuntimeError: No GPU found. A GPU is needed for quantization."),
    ("dist_timeout", "OSError: We tried to initialize torch.distributed for you, but it failed."),
    # pass 59: an object store's read of model files, Ray Data, torch elastic's etcd backend, a DCP directory
    ("hf_http_error", "botocore.exceptions.ClientError: An error occurred (ServiceUnavailable) when calling the GetObject operation: Please retry"),
    ("hf_weights_missing", "botocore.errorfactory.NoSuchKey: An error occurred (NoSuchKey) when calling the GetObject operation: missing"),
    ("pg_timeout", "ray.exceptions.GetTimeoutError: Timed out while starting actors. This may mean that the cluster does not have enough resources for the requested actor pool."),
    ("pg_unplaceable", "WARNING resource_manager.py:818 -- Cluster resources are not enough to run any task from TaskPoolMapOperator[ReadParquet]."),
    ("dist_timeout", "torch.distributed.elastic.rendezvous.api.RendezvousError: timed out waiting for all 2 members to join"),
    ("checkpoint_corrupt", "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_10/.metadata'"),
    ("engine_dead", "ERROR -- Engine is dead, awaiting replica restart."),
    # pass 60: torch's capability check (the warning's own line, as pasted without its UserWarning head)
    ("cuda_error", "NVIDIA B300 with CUDA capability sm_103 is not compatible with the current PyTorch installation."),
    # pass 61: the GPU node's daemons and validators, DCGM's classes, installers that failed at set-up
    ("cuda_error", "Nov 02 10:00:00 gpu-7 kernel: NVRM: RmInitAdapter: Cannot initialize GSP firmware RM"),
    ("cuda_error", "Nov 02 10:00:00 gpu-7 nvidia-persistenced[812]: Unable to find any NVIDIA devices"),
    ("cuda_error", "No devices were found"),
    ("cuda_error", "2026-11-02 10:00:00.1 ERROR [1:2] Found devastating XID 79 (GPU has fallen off the bus) for GPU 2"),
    ("cuda_error", "dcgm_structs.DCGMError_GpuIsLost: GPU is unreachable"),
    ("cuda_error", "time=2026-11-02T10:00:00Z level=error msg=\"driver is not ready: exit status 1\""),
    ("cuda_error", "Failed to initialize NVML: Driver/library version mismatch"),
    ("python_crash", "ERROR: No matching distribution found for vllm==9.9.9"),
    ("python_crash", "error: No solution found when resolving dependencies:"),
    # pass 62: argparse's usage error
    ("python_crash", "train_grpo.py: error: the following arguments are required: --config"),
    # pass 63: ProcessGroupNCCL's timeout dump cascade, torch elastic's agent finding a worker gone or its own death signal
    ("nccl_timeout", "[rank5]:[E1102 10:00:00.1 ProcessGroupNCCL.cpp:1413] [PG 0 (default_pg) Rank 5] Received a global dump signal from rank 1, and will start to dump the debug info"),
    ("python_crash", "[2024-05-01 10:00:00,1] torch.distributed.elastic.agent.server.api: [WARNING] Received Signals.SIGHUP death signal, shutting down workers"),
    ("python_crash", "E1102 10:00:00.1 7 torch/distributed/elastic/agent/server/local_elastic_agent.py:427] [default] worker pids do not match process_context pids. Expected: {8}, actual: set()"),
    # pass 64: vLLM 0.6-0.10's own words
    ("engine_init_failed", "(VllmWorkerProcess pid=9) ERROR 01-02 10:00:00 multiproc_worker_utils.py:236] Exception in worker VllmWorkerProcess while processing method load_model."),
    ("engine_dead", "(VllmWorkerProcess pid=9) ERROR 01-02 10:00:00 multiproc_worker_utils.py:236] Exception in worker VllmWorkerProcess while processing method execute_model."),
    ("engine_dead", "CRITICAL 01-02 10:00:00 launcher.py:99] AsyncLLMEngine has failed, terminating server process"),
    ("engine_init_failed", "TimeoutError: Timed out waiting for engines to send initial message on input socket."),
    ("hf_weights_missing", "RuntimeError: No model weights found in: `/models/qwen`"),
    ("pg_unplaceable", "ValueError: Current node has no GPU available. current_node_resource={'CPU': 8.0}"),
    # pass 65: zh_CN shells, ModelScope's repo API, NCCL's /dev/shm and socket give-ups
    ("python_crash", "已放弃 (核心已转储)"),
    ("hf_repo_not_found", "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://www.modelscope.cn/api/v1/models/acme/nope/revisions"),
    ("disk_full", "node-1:9:9 [0] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-x to 1048576 bytes"),
    ("nccl_error", "node-1:9:9 [0] misc/socket.cc:484 NCCL WARN socketPollConnect: exceeded retries (20000)"),
    # pass 67: Ray 2.9-2.40's words for a node's own raylet gone, Tune's failed trial, an actor's failed creation task
    ("ray_node_dead", "2024-01-02 10:00:00,1\tERROR worker.py:405 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): The task's local raylet died. Check raylet.out for more information."),
    ("ray_node_dead", "[2024-01-02 10:00:00,1 C 7 7] raylet_client.cc:60: Could not connect to socket /tmp/ray/session_x/sockets/raylet"),
    ("ray_node_dead", "[2024-01-02 10:00:00,1 W 6 6] (gcs_server) gcs_health_check_manager.cc:63: Node 0a1b is dead because the health check failed."),
    ("python_crash", "2024-01-02 10:00:00,1\tERROR tune_controller.py:1374 -- Trial task failed for trial TorchTrainer_0a1b_00000"),
    ("ray_actor_died", "[2024-01-02 10:00:00,1 W 8 8] direct_actor_transport.cc:179: Actor creation task finished with errors, task_id: 0a"),
    # pass 68 (from heldout49): TensorFlow's status text, Karpenter's provisioner, the kubelet's sandbox, bash's exec
    ("cuda_oom", "Non-OK-status: GpuLaunchKernel(RandomKernel, blocks, threads, 0, d.stream()) status: Internal: out of memory"),
    ("pg_unplaceable", 'Failed to schedule pod, incompatible with nodepool "gpu-a100", daemonset overhead={"cpu":"100m"}'),
    ("python_crash", 'Failed to create pod sandbox: rpc error: code = Unknown desc = no runtime for "nvidia" is configured'),
    ("python_crash", "/bin/bash: line 3: /opt/venv/bin/trainer: No such file or directory"),
    # pass 69 (from launchers_older): a loader's "not a checkpoint" and missing-part words, launchers refusing a run
    # without the GPU it needs, a rendezvous port another process holds
    ("checkpoint_corrupt", "ValueError: The path '/ckpt/run7/last.ckpt' does not point to a valid checkpoint. Check the path."),
    ("checkpoint_corrupt", "ValueError: /ckpt/run7/global_step20/mp_rank_00_model_states.pt is not a zero checkpoint"),
    ("checkpoint_corrupt", "FileNotFoundError: can't find *_optim_states.pt files in directory '/ckpt/run7/global_step20'"),
    ("checkpoint_corrupt", "ValueError: Unable to find 'latest' file at /ckpt/run7/latest"),
    ("checkpoint_corrupt", "ValueError: Expected 8 of '*_optim_states.pt' under '/ckpt/g40' but found 6 files. Possibly an overwrite"),
    ("cuda_error", "lightning.fabric.utilities.exceptions.MisconfigurationException: No supported gpu backend found!"),
    ("cuda_error", "RuntimeError: You requested to find 4 devices but only 2 are currently available. The devices [0, 1] are occupied"),
    ("cuda_error", "ValueError: bf16 mixed precision requires a GPU"),
    ("cuda_error", "SystemError: Cannot use bf16 without accelerator."),
    ("dist_timeout", "ConnectionError: Tried to launch distributed communication on port `29511`, but another process is utilizing it."),
    # pass 70 (from k8s_older): Kueue's inadmissible reasons, time limit and requeue limit; the kubelet's admission and
    # node-shutdown pod reasons in `kubectl get pods`; its eviction manager; containerd's OOM event; the device plugin's
    # unhealthy GPU; KubeRay's failed head pod; a container state printed whole
    ("pg_unplaceable", "5s    Normal   Pending   workload/job-ppo-7b-1a2b3   ClusterQueue team-a-cq is inactive"),
    ("pg_unplaceable", "2s    Normal   Pending   workload/job-ppo-7b-1a2b3   Workload namespace doesn't match ClusterQueue selector"),
    ("pg_unplaceable", "ppo-7b-worker-2-x1y2z   0/1     OutOfcpu   0          40s"),
    ("evicted", "9s    Warning   MaximumExecutionTimeExceeded   workload/job-ppo-7b-9z8y   The maximum execution time (3600s) exceeded"),
    ("evicted", "ppo-7b-worker-1-q8w7e   0/1     Terminated   0          2h"),
    ("evicted", 'I1102 10:00:00.1    900 eviction_manager.go:360] "Eviction manager: pods ranked for eviction" pods=[ns/ppo-7b-0]'),
    ("pg_timeout", '0s    Normal   InactiveWorkload   workload/job-ppo-7b-1a2b3   Deactivated Workload "ns/job-ppo-7b-1a2b3" by reached re-queue backoffLimitCount'),
    ("pod_oomkilled", 'time="2026-11-02T10:00:00Z" level=info msg="TaskOOM event &TaskOOM{ContainerID:4f5e6d,XXX_unrecognized:[],}"'),
    ("cuda_error", "I1102 10:00:00.1       1 health.go:130] Marking device GPU-0a1b2c3d-0000-1111-2222-333344445555 as unhealthy: 15"),
    ("ray_node_dead", '"reason": "The head Pod ppo-raycluster-head-4r5t status is Failed which is a terminal state."'),
    ("python_crash", "Ray container terminated status is &ContainerStateTerminated{ExitCode:2,Signal:0,Reason:Error,Message:,}"),
    # pass 71 (from sglang_older and heldout50): SGLang 0.4's overlap worker, its SIGTERM under a failing health check and
    # crash dump; sglang-router's workers that never came up or that it removed; a sandbox platform's disk limit
    ("engine_dead", "[2025-01-02 10:00:00 TP1] TpModelWorkerClient hit an exception: Traceback (most recent call last):"),
    ("engine_dead", "[2025-01-02 10:00:00] Signal SIGTERM received while health check failed. Exiting... remaining number of requests: 3"),
    ("engine_dead", "[2025-01-02 10:00:00] Dumping requests before crash. self.crash_dump_folder='/tmp/dump'"),
    ("engine_dead", "[Router (Rust)] 2025-01-02 10:00:00 - WARN - Removing failed worker: http://10.1.0.7:30000"),
    ("engine_dead", "2025-01-02 10:00:00  WARN sglang_router_rs::router: src/router.rs:600: Generate request to http://10.1.0.7:30000 failed (attempt 5/5)"),
    ("engine_init_failed", "[Router (Rust)] 2025-01-02 10:00:00 - ERROR - Timeout 120s waiting for workers [\"http://10.1.0.7:30000\"]"),
    ("disk_full", "Sandbox creation failed: Total disk limit exceeded. Maximum allowed: 50GiB"),
    # pass 72 (from megatron_older, sandbox_sdks, heldout51): megatron-core's CheckpointingException read by its message,
    # the rerun state machine's exits, NeMo's resume refusals and preemption callback, a sandbox never scheduled, a
    # runtime's missing image, docker-py's ImageNotFound
    ("checkpoint_corrupt", "megatron.core.dist_checkpointing.core.CheckpointingException: Object shard /ck/iter_7/rng/shard_1_8.pt not found"),
    ("python_crash", "megatron.core.dist_checkpointing.core.CheckpointingException: Global shape mismatch for loaded (torch.Size([8, 4])) and expected ((8, 2))"),
    ("python_crash", "megatron.core.dist_checkpointing.core.CheckpointingException: Checkpoint destination directory does not exist: /ck/iter_9"),
    ("python_crash", "WARNING:megatron.core.rerun_state_machine:Exiting now. A checkpoint at the last iteration is being saved"),
    ("python_crash", "ERROR:megatron.core.rerun_state_machine:Rank 3, node n-2, device 3, iteration #70: Possible persistent error!"),
    ("checkpoint_corrupt", "nemo.utils.exp_manager.NotFoundError: There were no checkpoints found in checkpoint_dir :/ck/run3"),
    ("checkpoint_corrupt", "ValueError: Distributed checkpoints should be a directory. Found: /ck/run3/last.ckpt."),
    ("evicted", "[NeMo I 2025-01-02 10:00:00 nemo_logging:393] Preemption detected, saving checkpoint and exiting"),
    ("pg_timeout", "modal.exception.TimeoutError: Sandbox was not scheduled within the timeout."),
    ("image_pull", "openhands.core.exceptions.AgentRuntimeError: Container image ghcr.io/x/runtime:abc does not exist"),
    ("image_pull", "docker.errors.ImageNotFound: 404 Client Error for http+docker://localhost/v1.45/images/create: Not Found"),
    # pass 73 (from vllm_mid): an argument check naming a backend is no NCCL error; pydantic's refusal of a config;
    # vLLM's API servers that never reported their addresses
    ("python_crash", "ValueError: transport must be 'tcp' or 'ucx', got 'pynccl'"),
    ("python_crash", "  Value error, pipeline size (3) must divide 8. [type=value_error, input_value=ArgsKwargs((), {'a': 1}), input_type=ArgsKwargs]"),
    ("engine_init_failed", "RuntimeError: Timed out after 120.0s waiting for API server(s) to report bound ZMQ addresses: ['ApiServer_1']"),
    ("engine_init_failed", "RuntimeError: API server process ApiServer_2 exited (code=1) before reporting its bound ZMQ addresses"),
    # pass 74 (from torch_core_older): c10's third help line under a CUDA error; the DataLoader worker's signal handler
    ("cuda_error", "[rank2]: Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."),
    ("python_crash", "ERROR: Unexpected floating-point exception encountered in worker."),
    # pass 75 (from nccl_mid): NCCL 2.25-2.27's socket connect / accept giving up
    ("nccl_error", "[rank1]: socketPollConnect: connect returned No route to host, exceeded error retry count (20)"),
    ("nccl_error", "[rank3]: socketTryAccept: exceeded error retry count after 20 attempts, Connection timed out"),
    # pass 76 (from ray_mid): Ray Train v2's controller giving up; Ray Data's typo; the autoscaler's cancel; the core
    # worker and raylet on a node that died
    ("python_crash", "(TrainController pid=1) Deciding to TERMINATE, since the total failure count (4) exceeded the maximum allowed failures"),
    ("python_crash", "(TrainController pid=1) [FailurePolicy] Decision: FailureDecision.RAISE, Error source: worker group"),
    ("pg_unplaceable", "2025-01-02 10:00:00,1\tWARNING resource_manager.py:551 -- Cluster resources are not engough to run any task from X"),
    ("pg_unplaceable", "[2025-01-02 10:00:00,1 W 7 7] (gcs_server) gcs_autoscaler_state_manager.cc:541: Canceling infeasible requests on node ab12"),
    ("ray_node_dead", "(Actor pid=3, ip=10.0.0.2) [2025-01-02 10:00:00,1 I 3 9] core_worker.cc:552: Disconnect core worker client since its node is dead"),
    ("ray_node_dead", "[2025-01-02 10:00:00,1 I 2 2] (raylet) node_manager.cc:846: The leased worker is killed because the owner node died."),
    # pass 77 (from heldout53): argparse's usage error under a console script's name, whatever the program
    ("python_crash", "vllm: error: unrecognized arguments: --tensor-parallel 8"),
    ("python_crash", "torchrun: error: the following arguments are required: training_script"),
    ("python_crash", "sglang: error: argument --tp/--tp-size: invalid int value: 'eight'"),
    # pass 78 (from rl_frameworks_older): a framework's check of the cluster against its resource pools; a resume that
    # could not read its checkpoint
    ("pg_unplaceable", "ValueError: Resource pool actor_pool: 8*4 cannot be satisfied in this ray cluster"),
    ("checkpoint_corrupt", "Exception: [deepspeed] failed to resume from checkpoint /ck/run9/_actor"),
    # pass 79 (from sglang_mid): SGLang's P/D peer lost, its gRPC front's scheduler, the router's P/D servers and workers
    # never healthy, warm-up failures, no accelerator, the decode batch's KV OOM
    ("engine_dead", "[2025-01-02 10:00:00 TP1] Losing connection with prefill instance (bootstrap_addr: 10.1.0.7:8998), 4 requests affected"),
    ("engine_dead", "[2025-01-02 10:00:00 TP1] Transfer for room 1234 failed due to node failure"),
    ("engine_dead", "[2025-01-02 10:00:00] Service health check: Scheduler not responsive (30.0s since last receive, 2 pending requests)"),
    ("engine_dead", "[2025-01-02 10:00:00] GrpcRequestManager hit an exception: Traceback (most recent call last):"),
    ("engine_dead", "2025-01-02 10:00:00 ERROR sglang_router_rs::routers::http::pd_router: Prefill server failed (CRITICAL) prefill_url=http://10.1.0.7:30000"),
    ("engine_init_failed", "2025-01-02 10:00:00 ERROR sglang_router_rs::core::worker_manager: Workers failed to become healthy after 600s."),
    ("engine_init_failed", "[2025-01-02 10:00:00] Disaggregation warmup failed (mode=decode), status code: 500"),
    ("cuda_error", "RuntimeError: No accelerator (CUDA, XPU) is available."),
    ("cuda_oom", "[2025-01-02 10:00:00 TP0] ValueError: Out of memory even after retracting all other requests in the decode batch."),
    # pass 80 (from hf_trainer_older): a precision mode the host's device cannot run; a state dictionary that is corrupted
    ("cuda_error", "ValueError: bf16 mixed precision requires a GPU (not 'cpu')."),
    ("cuda_error", "[rank1]: ValueError: Tried to use `bf16` but it is not supported on cpu"),
    ("cuda_error", "ValueError: Type fp16 is not supported on your device."),
    ("checkpoint_corrupt", "ValueError: The state dictionary of the model you are trying to load is corrupted. Are you sure it was saved?"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED57)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


def test_what_the_families_do_not_take(tmp_path: Path) -> None:
    # UCX's own record names no NCCL: shown, not an NCCL error
    ucx = both(tmp_path, ["[1730000000.1] [dgx-1:42:0]  ib_mlx5_log.c:179  UCX  ERROR Transport retry count exceeded on mlx5_1:1/IB"])
    assert primary(ucx) != "nccl_error" and ucx["unrecognized"]
    # TensorFlow / XLA's driver probe on a host without a usable GPU goes on: no KILL
    probe = both(tmp_path, ["2026-11-02 10:00:00.1: E external/xla/xla/stream_executor/cuda/cuda_driver.cc:152] "
                            "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"])
    assert probe["verdict"] == "NO-KILL"
    # a launcher's -9 is a signal it reports, not the orchestrator's OOM kill (that is 137)
    assert primary(both(tmp_path, ["RuntimeError: Loader process is dead. Exit code: -9"])) == "python_crash"
    # (an object store's refused write reads as its refused read since pass 106: four labelled sets say so, 14 to 1;
    # test_causes_families105.py)
    # a Slurm banner with no reason is the scheduler's cancel: evicted; a plain Hydra job failure is not a Hydra refusal
    assert primary(both(tmp_path, ["slurmstepd: error: *** JOB 915 ON dgx-1 CANCELLED AT 2026-11-02T10:00:01 ***"])) == "evicted"
    # a Slurm daemon's fatal() ends it; git's bare `fatal:` (a version probe in a healthy install) ends nothing
    assert both(tmp_path, ["slurmd: fatal: gres.conf duplicate records for gpu"])["verdict"] == "KILL"
    # a retry that is not the last is no dead worker; a platform that evicts for storage has evicted
    assert primary(both(tmp_path, ["2025-01-02 10:00:00  WARN sglang_router_rs::router: Generate request to http://10.1.0.7:30000 failed (attempt 1/5)"])) != "engine_dead"
    assert primary(both(tmp_path, ["Workload evicted, storage limit exceeded (20G)"])) == "evicted"
    # a library a precision mode needs is no missing GPU; a fallback to another precision is no failure
    assert primary(both(tmp_path, ["ImportError: Loading an FP8 model on CUDA requires fbgemm-gpu library"])) != "cuda_error"
    assert primary(both(tmp_path, ["WARNING - accelerate.state - FP8 mixed precision training requires a GPU Hopper or higher. Will use FP16 instead."])) != "cuda_error"
    # an optional kernel's warm-up that fell back, at warning level, is no failed start-up
    assert primary(both(tmp_path, ["(Worker pid=1) WARNING 01-02 10:00:00 [mixer.py:60] Kernel warmup failed for layer 4. First call may be slow."])) is None
    # a container that ended well is no crash; a row in another status is no node shutdown
    assert both(tmp_path, ["state &ContainerStateTerminated{ExitCode:0,Signal:0,Reason:Completed,Message:,}"])["verdict"] == "NO-KILL"
    assert primary(both(tmp_path, ["ppo-7b-worker-1-q8w7e   1/1     Running   0          2h"])) is None
    # a Ray node with no GPU for an engine is a placement failure, not a device error
    assert primary(both(tmp_path, ["ValueError: Current node has no GPU available. vLLM engine cannot start without GPU."])) != "cuda_error"
    # a resume that finds no checkpoint and starts fresh is no corrupt checkpoint
    fresh = both(tmp_path, ["INFO: Unable to find 'latest' file at /ckpt/run7/latest, starting from scratch"])
    assert primary(fresh) != "checkpoint_corrupt" and fresh["verdict"] == "NO-KILL"
    git = both(tmp_path, ["fatal: not a git repository (or any of the parent directories): .git"])
    assert git["verdict"] == "NO-KILL" and git["unrecognized"]


def test_a_serving_fault_is_not_read_as_start_up_even_before_the_first_stats_line(tmp_path: Path) -> None:
    report = both(tmp_path, ["(EngineCore_DP0 pid=9) WARNING 11-02 10:00:00 [engine_core_sentinel.py:144] [FT] Busy loop raised "
                             "RuntimeError. Waiting for recovery."])
    assert primary(report) == "engine_dead" and report["verdict"] == "NO-KILL"   # a warning: recovery may follow
