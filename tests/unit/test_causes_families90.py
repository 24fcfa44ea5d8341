"""Passes 90 and after on issue 15 (eleventh round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import both, primary  # noqa: E402

FT = "[rank1]:[titan] 2026-01-02 10:00:00,001 - torchft.manager - ERROR - [ft_group_2:0c1d/1 - step 812] "


def test_an_error_a_fault_tolerance_manager_took_in_is_no_death(tmp_path: Path) -> None:
    # torchft's Manager logs each error it is handed, then discards the step and carries on (report_error)
    for said in ("got exception in all reduce -- skipping remaining: NCCL Error 6: remote process exited",
                 "got exception in recovery: Connection reset by peer",
                 "got exception waiting for work Timed out after 30 seconds"):
        assert both(tmp_path, [FT + said])["verdict"] == "NO-KILL", said
    # so does any line that says it skips the rest of the work at hand
    assert both(tmp_path, ["2026-01-02 10:00:00 ERROR collector: shard 3 unreadable (OSError: [Errno 5] Input/output error), "
                           "skipping the rest of the shard"])["verdict"] == "NO-KILL"
    # its give-up is the replica's end, and the same error outside the manager's report is what it is
    gave_up = both(tmp_path, [FT + "should_commit failed 4 times consecutively, exceeding max_retries=3",
                              "RuntimeError: should_commit failed 4 times consecutively, exceeding max_retries=3",
                              "Command exited with code 1"])
    assert gave_up["verdict"] == "KILL" and primary(gave_up) == "python_crash"
    assert both(tmp_path, ["[rank1]: torch.distributed.DistBackendError: NCCL Error 6: remote process exited",
                           "Command exited with code 1"])["verdict"] == "KILL"


def test_a_taken_port_stated_as_the_error_is_the_rendezvous_family(tmp_path: Path) -> None:
    for line in ("OSError: [Errno 98] Address already in use",
                 "[rank0]: RuntimeError: on trainer-0.svc.cluster.local, port: 29500 already in use"):
        assert primary(both(tmp_path, [line])) == "dist_timeout", line
    # a launcher that moves on to another port, and an engine's own start-up, are not it
    assert primary(both(tmp_path, ["2026-01-02 10:00:00 ERROR Port 29500 is already in use, trying port 29501"])) != "dist_timeout"
    assert primary(both(tmp_path, ["2026-01-02 10:00:00 ERROR engine start-up still hit EADDRINUSE after 5 attempts"])) != "dist_timeout"


def test_no_gpu_for_the_process_in_other_libraries_words_is_a_cuda_error(tmp_path: Path) -> None:
    for line in ("ValueError: You are attempting to use Flash Attention 2 with a model not initialized on GPU and with no GPU available.",
                 "[rank3]: RuntimeError: The device cuda:3 is not available on this machine."):
        assert primary(both(tmp_path, [line])) == "cuda_error", line
    # a Ray node without GPUs is a placement matter, not the device's
    assert primary(both(tmp_path, ["ValueError: Current node has no GPU available. current_node_resource={'CPU': 64.0}"])) != "cuda_error"


def test_an_object_store_read_refused_is_the_gated_refusal(tmp_path: Path) -> None:
    for code in ("403", "AccessDenied", "ExpiredToken"):
        line = f"botocore.exceptions.ClientError: An error occurred ({code}) when calling the GetObject operation: Access Denied"
        assert primary(both(tmp_path, [line])) == "hf_gated", code
    # (a refused write is the same refusal since pass 106: test_causes_families105.py)


def test_a_process_prefix_inside_a_ray_actors_prefix_reads_as_the_inner_process(tmp_path: Path) -> None:
    # a Ray actor relays its child's own prefixed output (SkyRL's engine actor around vLLM's engine core)
    inner = "(EngineCore_DP0 pid=4242) RuntimeError: Could not find nvcc and default cuda_home='/usr/local/cuda' doesn't exist"
    bare = both(tmp_path, [inner])
    nested = both(tmp_path, ["(AsyncVLLMInferenceEngine pid=4201, ip=10.0.3.11) " + inner])
    assert (primary(nested), nested["verdict"]) == (primary(bare), bare["verdict"]) == ("engine_init_failed", "KILL")
    relayed = "(TaskRunner pid=12, ip=10.0.3.2) (AgentWorker pid=58144, ip=10.0.4.41) docker.errors.NotFound: 404 Client Error for http+docker://localhost/v1.45/containers/x"
    assert primary(both(tmp_path, [relayed])) == "python_crash"


def test_an_inference_servers_answer_is_no_engine_death_its_silence_is(tmp_path: Path) -> None:
    # a 5xx is the engine (or a proxy before it) answering one request: the application's error
    for line in ("httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://10.0.3.21:8000/v1/chat/completions'",
                 "aiohttp.client_exceptions.ClientResponseError: 500, message='Internal Server Error', url='http://10.0.3.12:8001/generate'"):
        assert primary(both(tmp_path, [line])) == "python_crash", line
    # a refused connection is the engine gone, also through an agent's client that names it by its provider
    for line in ("requests.exceptions.ConnectionError: HTTPConnectionPool(host='10.0.3.21', port=8000): Max retries exceeded with url: "
                 "/v1/chat/completions (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))",
                 "litellm.exceptions.InternalServerError: litellm.InternalServerError: InternalServerError: Hosted_vllmException - "
                 "[Errno 111] Connection refused"):
        assert primary(both(tmp_path, [line])) == "engine_dead", line
    assert primary(both(tmp_path, ["litellm.exceptions.RateLimitError: litellm.RateLimitError: Hosted_vllmException - "
                                   '{"error": {"message": "Too many requests"}}'])) == "python_crash"


def test_ray_families_read_from_set_28(tmp_path: Path) -> None:
    # an actor pool whose actors died coming up is an actor death, an engine's pool is the engine's start
    pool = "2026-01-02 10:00:00,001\tERROR actor_pool_map_operator.py:414 -- MapBatches({}): actors died during initialization 2 consecutive time(s)"
    assert primary(both(tmp_path, [pool.format("Scorer")])) == "ray_actor_died"
    assert primary(both(tmp_path, [pool.format("vLLMEngineStageUDF")])) == "engine_init_failed"
    # no bundle can hold the request; a compiled graph's channel wait timed out; the queue module's exceptions
    assert primary(both(tmp_path, ["ValueError: Cannot schedule Ref with the placement group because the resource request "
                                   "{'GPU': 2} cannot fit into any bundles for the placement group, [{'GPU': 1.0}]."])) == "pg_unplaceable"
    assert primary(both(tmp_path, ["ray.exceptions.RayChannelTimeoutError: System error: Cannot read all channels within 30.0 seconds"])) == "dist_timeout"
    for line in ("_queue.Empty", "ray.util.queue.Full"):
        assert primary(both(tmp_path, [line])) == "python_crash", line
    assert primary(both(tmp_path, ["the queue.Empty case is handled by a retry"])) is None


def test_a_driver_that_cannot_tell_its_ray_and_a_lookup_that_failed(tmp_path: Path) -> None:
    several = ("ConnectionError: Found multiple active Ray instances: {'10.0.0.2:6379', '10.0.0.2:6380'}. Please specify the one to "
               "connect to by setting `--address` flag or `RAY_ADDRESS` environment variable.")
    assert primary(both(tmp_path, [several])) == "ray_local_instance"
    assert both(tmp_path, ["2026-01-02 10:00:00,001\tWARNING services.py:407 -- Found multiple active Ray instances: "
                           "{'10.0.0.2:6379', '10.0.0.2:6380'}. Connecting to latest cluster at 10.0.0.2:6380."])["verdict"] == "NO-KILL"
    lookup = ("ValueError: Failed to look up actor with name 'policy'. This could because 1. You are trying to look up a named actor "
              "you didn't create. 2. The named actor died. 3. You did not use a namespace matching the namespace of the actor.")
    assert primary(both(tmp_path, [lookup])) == "python_crash"


def test_a_sandbox_given_up_in_its_schedulers_queue_is_a_placement_timeout(tmp_path: Path) -> None:
    line = ("daytona.common.errors.DaytonaQueueTimeoutError: Failed to create sandbox: Sandbox 7c1e was destroyed after waiting "
            "for a runner (queue timed out at 2026-01-02T10:00:00Z)")
    assert primary(both(tmp_path, [line])) == "pg_timeout"
    assert primary(both(tmp_path, ["RuntimeError: waiting for a runner failed: runner pool is misconfigured"])) != "pg_timeout"


def test_agentic_stack_families_read_from_set_56(tmp_path: Path) -> None:
    # the driver's GPU core dump names the exception; an RL launcher's server that ended before it served;
    # the Docker Engine API's pull endpoint failing
    assert primary(both(tmp_path, ["(Engine pid=7) coredump: Detected an exception of type CUDBG_EXCEPTION_DEVICE_ILLEGAL_ADDRESS (13)"])) == "cuda_error"
    assert primary(both(tmp_path, ["(SGLangEngine pid=9, ip=10.0.0.3) Exception: Server process terminated unexpectedly."])) == "engine_init_failed"
    assert primary(both(tmp_path, ["docker.errors.APIError: 500 Server Error for http+docker://localhost/v1.45/images/create?tag=v1&fromImage=org%2Fenv"])) == "image_pull"


def test_an_error_level_glog_record_is_never_dropped(tmp_path: Path) -> None:
    # torch's C++ logger writes the month unpadded ([E915 ...]): the prefilter of both readers brings it
    unpadded = both(tmp_path, ["[E915 03:58:12.774410127 TCPStore.cpp:301] [c10d] The libuv TCPStore backend does not support "
                               "initialization with an listen fd."])
    assert unpadded["unrecognized"] and primary(unpadded) == "python_crash"
    # "no error file" is a missing file, not a count of no errors: torch elastic's report of a failed child
    report = both(tmp_path, ["E1205 00:34:28.885000 2583 torch/distributed/elastic/multiprocessing/errors/error_handler.py:145] "
                             "no error file defined for parent, to copy child error file (/tmp/t/error.json)"])
    assert report["unrecognized"]
    assert not both(tmp_path, ["2026-01-02 10:00:00 INFO validation finished: no errors found"])["unrecognized"]


def test_a_router_with_no_engine_left_to_send_to(tmp_path: Path) -> None:
    for line in ("aiohttp.client_exceptions.ClientResponseError: 503, message='No available workers (all circuits open or unhealthy)', "
                 "url='http://10.0.3.12:8080/v1/completions'",
                 'E1205 04:02:07.218804       1 gateway_req_body.go:252] "no ready pod available" model="qwen3-8b"'):
        assert primary(both(tmp_path, [line])) == "engine_dead", line
    # a model the router does not serve is the request's error; a tracker's own proxy is no engine
    assert primary(both(tmp_path, ["ERROR No backend available for model qwen3-8b-typo"])) != "engine_dead"
    assert primary(both(tmp_path, ["2026/01/02 10:00:00 WARNING mlflow.system_metrics: API request failed with error code 503: "
                                   "'no healthy upstream'"])) != "engine_dead"


def test_a_failure_the_line_says_may_be_none_is_a_notice(tmp_path: Path) -> None:
    hedge = both(tmp_path, ["[memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. the allocator will free "
                            "cache and retry)"])
    assert hedge["verdict"] == "NO-KILL" and primary(hedge) == "cuda_oom"
    assert both(tmp_path, ["[memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY"])["verdict"] == "KILL"


def test_huggingface_hub_2x_local_entry_not_found_is_the_hub_unreachable(tmp_path: Path) -> None:
    for line in ("Error: Local entry not found. [Errno 111] Connection refused",
                 "huggingface_hub.errors.LocalEntryNotFoundError: Local entry not found. (Request ID: Root=1-6)"):
        assert primary(both(tmp_path, [line])) == "hf_http_error", line


def test_iris_and_the_raylet_in_their_own_words(tmp_path: Path) -> None:
    # Iris's scheduler / autoscaler on a task no worker can take
    for line in ("No worker has sufficient resources (need cpu=8 cores, memory=68719476736)",
                 "2026-01-02 10:00:00,001 [WARNING] iris.cluster.controller.autoscaler: Unmet demand: reason=no_capacity: h200x8-a=backoff"):
        assert primary(both(tmp_path, [line])) == "pg_unplaceable", line
    assert primary(both(tmp_path, ["Waiting for build slots: 2 worker(s) at building limit (max 4 concurrent builds per worker), "
                                   "but have sufficient resources for this task"])) != "pg_unplaceable"
    # the raylet's own fatal signal is the node's death; a class built on NCCL's name is no NCCL failure
    assert primary(both(tmp_path, ["(raylet) [2026-01-02 10:00:00,001 E 17 17] logging.cc:441: *** SIGSEGV (@0x8) received by PID 17 "
                                   "(TID 0x7f) from PID 8; stack trace: ***"])) == "ray_node_dead"
    assert primary(both(tmp_path, ["RuntimeError: NCCLWeightTransferEngine does not support fetch_weights"])) == "python_crash"
