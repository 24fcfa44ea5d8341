"""Second pass on issue 15: the families the first held-out measurement showed too narrow,
generalized by grammar (what precedes a level, NCCL's WARN channel, the shell's signal words,
kubectl's pod rows, torch elastic's failure report) and by the libraries' own stems (vLLM's
AsyncLLM output handler, ProcessGroupNCCL's WorkNCCL timeouts, Ray's placement-group waits and
actor-death core lines, torch's shared memory and write() failures). Every line here is our own
reconstruction of a family (other hosts, pids, ranks, fields), not a corpus line. Each line is
read alone through `health --log FILE --json` (grep's prefilter path) and through the Analyzer
fed in memory (the bytes.find path): both must agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irisrl.observe import causes as C
from irisrl.observe import exceptions as E

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402


# ---- 1. the net: error level whatever precedes it -------------------------------------------
SURFACED_ANYWHERE = [
    "(ApiServer_3 pid=9121) ERROR 11-02 04:10:11 [router.py:77] the shard map lost entry 12",
    "(Worker_TP1 pid=88) CRITICAL 11-02 04:10:11 [loop.py:9] the step counter went backwards",
    "[rank5]:[E1107 09:12:44.118201934 Utils.hpp:121] the queue drained with 3 items in flight",
    "[1,3]<stderr>:E1107 09:12:44.118201 4411 shard.cc:55] a shard checksum did not match",
    "ERROR:torch.distributed.elastic.rendezvous.api:[default] the round closed with 2 members",
    "node-7:4410:4477 [2] bootstrap.cc:93 NCCL WARN Bootstrap : unexpected state 3, res=4",
    "2026-11-07T09:12:44.123456789Z ERROR [planner] the plan cache could not be rebuilt",
    "[2026-11-07 09:12:44,118 E 4410 4477] task_manager.cc:301: the lineage for a task was lost",
    "Bus error (core dumped)",
    "Illegal instruction",
    "gpu-d:9:9 [2] graph/paths.cc:300 NCCL WARN Could not find any local path from gpu 2 to net.",
]


@pytest.mark.parametrize("line", SURFACED_ANYWHERE)
def test_an_error_level_line_is_surfaced_whatever_precedes_its_level(tmp_path: Path, line: str) -> None:
    report = both(tmp_path, [line])
    assert report.get("unrecognized") or report.get("causes"), line


def test_glog_error_after_any_prefix_is_error_shaped_and_warning_level_is_not_fatal() -> None:
    assert E.is_error_line("[rank12]:[E0311 01:02:03.4 x.cpp:1] something", None)
    assert E.is_error_line("host-3: E0311 01:02:03.400000 12 x.cc:1] something", None)
    for warn in ("[rank2]:[W0311 01:02:03.4 TCPStore.cpp:9] [c10d] retrying", "[W socket.cpp:412] retry",
                 "2026-03-11 01:02:03,400 WARNING scheduler.py:7 -- a request waits",
                 "[2026-03-11 01:02:03,400 W 12 34] core.cc:1: slow", "WARNING 03-11 01:02:03 [x.py:1] slow"):
        assert E.is_warning_level(warn), warn
    # Ray's driver relays the GCS's errors at WARNING (worker.py listen_error_messages): not a retry
    assert not E.is_warning_level("2025-01-02 03:04:05,006\tWARNING worker.py:2101 -- The node with node id: ab12 "
                                  "and address: 10.1.1.1 has been marked dead because the detector has missed too many heartbeats")
    for not_warn in ("host:1:2 [0] proxy.cc:1 NCCL WARN Proxy Call to rank 3 failed (Init)",
                     "Warning  Failed     12s   kubelet  Failed to pull image \"x\"", "ERROR 03-11 01:02:03 [x.py:1] boom"):
        assert not E.is_warning_level(not_warn), not_warn


# ---- 2. a warning-level line is never fatal on its own --------------------------------------
def test_a_warning_level_connect_retry_is_named_but_never_a_kill(tmp_path: Path) -> None:
    line = ("[W0412 07:01:02.000000001 TCPStore.cpp:347] [c10d] TCP client failed to connect/validate to host "
            "10.2.3.4:29500 - retrying (try=3, timeout=900000ms, delay=1500ms): The client socket has timed out "
            "after 900000ms while trying to connect to (10.2.3.4, 29500).")
    report = both(tmp_path, [line])
    assert primary(report) == "dist_timeout" and report["verdict"] != "KILL"
    # the same family at error level stays a death
    err = "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined."
    assert both(tmp_path, [err])["verdict"] == "KILL"


@pytest.mark.parametrize("head", ["[W0412 07:01:02.000000001 Module.cpp:12]", "WARNING 04-12 07:01:02 [cache.py:12]",
                                  "2026-04-12 07:01:02.000 | WARNING  | skyrl_train.cache:load:12 -"])
def test_a_warning_level_unrecognized_line_stays_a_warning_even_when_the_process_ended(tmp_path: Path, head: str) -> None:
    report = both(tmp_path, [f"{head} an odd error in a cache", "Killed"])
    entry = next(u for u in report["unrecognized"] if "odd error" in u["first"]["line"])
    assert entry["status"] == "warning"


def test_a_cause_at_warning_level_is_a_wait_whatever_the_logger_header(tmp_path: Path) -> None:
    # the reported evidence loses vLLM's / loguru's level header: the level is read from the raw line
    for head in ("WARNING 04-12 07:01:02 [store.py:40]", "2026-04-12 07:01:02.000 | WARNING  | trainer:init:40 -"):
        line = f"{head} torch.distributed.DistNetworkError: The client socket has timed out after 60000ms"
        report = both(tmp_path, [line])
        assert primary(report) == "dist_timeout" and report["verdict"] != "KILL", line
        assert both(tmp_path, [line.replace("WARNING", "ERROR")])["verdict"] == "KILL"


# ---- 3. library families --------------------------------------------------------------------
NAMED = [
    # vLLM v1 async_llm.py output_handler, any process prefix and any line number
    ("engine_dead", "(ApiServer_2 pid=3310) ERROR 05-21 11:00:03 [async_llm.py:689] AsyncLLM output_handler failed."),
    ("engine_dead", "ERROR 05-21 11:00:03 [v1/engine/async_llm.py:501] AsyncLLM output_handler failed."),
    ("engine_dead", "(EngineCore_DP1 pid=702) ERROR 05-21 11:00:04 [multiproc_executor.py:240] Worker proc VllmWorker-3 "
                    "died unexpectedly, shutting down executor."),
    # (alone, before any stats line: the engine never served, pass 20's phase rule; after one, engine_dead:
    # test_causes_families15.test_a_worker_proc_exception_after_serving_is_the_engines_death)
    ("engine_init_failed", "(Worker_TP2 pid=7110) ERROR 05-21 11:00:04 [v1/executor/multiproc_executor.py:702] WorkerProc hit an exception."),
    # ProcessGroupNCCL: the blocking wait and the watchdog, other ops and fields
    ("nccl_timeout", "[rank3]:[E0521 11:00:03.120000000 ProcessGroupNCCL.cpp:688] [Rank 3] Work WorkNCCL("
                     "SeqNum=77, OpType=BROADCAST, NumelIn=4096, NumelOut=4096, Timeout(ms)=1800000) timed out in "
                     "blocking wait."),
    ("nccl_timeout", "[E ProcessGroupNCCL.cpp:475] [Rank 0] WorkNCCL(SeqNum=12, OpType=_ALLGATHER_BASE, "
                     "Timeout(ms)=600000) ran for 600123 milliseconds before timing out."),
    # NCCL WARN failures from proxy / bootstrap / transport / socket
    ("nccl_error", "gpu-a:801:902 [5] proxy.cc:911 NCCL WARN Proxy Call to rank 9 failed (Setup)"),
    ("nccl_error", "gpu-a:801:903 [5] proxy.cc:1402 NCCL WARN [Service thread] Error encountered progressing "
                   "operation=Setup, res=3, closing connection"),
    ("nccl_error", "[2026-05-21 11:00:03] gpu-b:17:17 [1] bootstrap.cc:102 NCCL WARN Bootstrap : no socket interface found"),
    ("nccl_error", "gpu-c:55:60 [0] transport/p2p.cc:210 NCCL WARN transport/p2p.cc:210 -> 3 [Proxy thread error]"),
    ("nccl_error", "gpu-c:55:61 [0] proxy.cc:1020 NCCL WARN Socket recv failed while polling for opId=0x7f00aa00"),
    ("nccl_error", "gpu-c:55:62 [0] socket.cc:700 NCCL WARN Message truncated : received 2048 bytes instead of 8192"),
    # Ray placement-group scheduling (waits) and actor death from core
    ("pg_unplaceable", "[2024-04-01 08:00:00,001 I 77 88] gcs_placement_group_scheduler.cc:188: Failed to schedule "
                       "placement group trainer_pg, id: 0a1b2c3d4e5f60718293a4b5c6d7e8f9, because no nodes are available."),
    ("pg_unplaceable", "[2024-04-01 08:00:00,002 I 77 77] gcs_placement_group_manager.cc:230: Failed to create "
                       "placement group pg_rollout, id: ffee0011223344556677889900aabbcc, try again."),
    ("pg_unplaceable", "2024-04-01 08:00:00,003 WARNING resource_demand_scheduler.py:812 -- The autoscaler could not "
                       "find a node type to satisfy the request: [{'GPU': 8.0, 'CPU': 96.0}]."),
    ("pg_unplaceable", " {'GPU': 8.0} * 2 (STRICT_SPREAD): 3+ pending placement groups"),
    ("ray_actor_died", "[2024-04-01 08:00:01,000 I 90 91] direct_actor_transport.cc:240: Failing pending tasks for actor "
                       "0011aabbccddeeff00112233 because the actor is already dead."),
    ("ray_actor_died", "[2024-04-01 08:00:01,001 I 90 92] actor_manager.cc:150: received notification on actor, state: "
                       "DEAD, actor_id: 0011aabbccddeeff00112233, ip address: 10.0.0.9, port: 40001, num_restarts: 1"),
    ("ray_actor_died", "The actor died because of an error raised in its creation task, ray::RolloutWorker.__init__() "
                       "(pid=3131, ip=10.9.8.7, actor_id=ffaa00, repr=<RolloutWorker object at 0x7f0>)"),
    ("ray_worker_died", "Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection "
                        "error code 2. End of file. There are some potential root causes."),
    ("disk_full", "RuntimeError: DataLoader worker (pid 5150) is killed by signal: Bus error. It is possible that "
                  "dataloader's workers are out of shared memory. Please try to raise your shared memory limit."),
    # ENOSPC disguises: /dev/shm (torch's MapAllocator) and torch.save's write()
    ("disk_full", "RuntimeError: unable to write to file </torch_991_271828182_0>: No space left on device (28)"),
    ("disk_full", "RuntimeError: unable to write to file </torch_17_314159265>"),
    ("disk_full", "RuntimeError: write(): fd 41 failed with No space left on device"),
    ("disk_full", "RuntimeError: write(): fd 7 failed with Input/output error"),
    ("disk_full", "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm)."),
    # the shell's signal words, torch elastic's report, kubectl rows
    ("python_crash", "Aborted (core dumped)"),
    ("python_crash", "Segmentation fault"),
    ("python_crash", "    exitcode  : -6 (pid: 4242)"),
    ("python_crash", "ERROR:torch.distributed.elastic.agent.server.api:[trainer] Worker group failed"),
    ("python_crash", "rl-trainer-0-7f9c8d-abcde   0/1     CrashLoopBackOff   6 (2m ago)   14m"),
    ("python_crash", "rl-trainer-0-7f9c8d-abcde   0/1     Error              0            3m"),
    ("pod_oomkilled", "rl-rollout-3-55d4-zzxyv    0/1     OOMKilled          1 (30s ago)  9m"),
    ("python_crash", "  Warning  BackOff    2m (x14 over 9m)  kubelet  Back-off restarting failed container trainer in pod "
                     "rl-trainer-0_ns(0a1b)"),
    ("python_crash", "      Reason:       CrashLoopBackOff"),
    ("evicted", "rl-rollout-3-55d4-zzxyv    0/2     ContainerStatusUnknown   1 (4h ago)   6h"),
    ("image_pull", "rl-rollout-3-55d4-zzxyv    0/1     Init:ImagePullBackOff    0            2m"),
    # Iris's local runtime: Python's -9 where Kubernetes says 137
    ("pod_oomkilled", '[2/0] irisrl-task-status: state=FAILED exit_code=-9 error="Exit code: -9" pending=""'),
    # transformers' / pickle's hidden causes
    ("hf_weights_missing", "ValueError: Unrecognized model in /models/ckpt-7. Should have a `model_type` key in its "
                           "config.json, or contain one of the following strings in its name: llama"),
    ("checkpoint_corrupt", "EOFError: Ran out of input"),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


BENIGN = [
    # NCCL's capability hints are WARNs that NCCL works around
    "gpu-a:801:801 [0] transport/net_ib.cc:1100 NCCL WARN NET/IB : No device found.",
    "gpu-a:801:801 [0] init.cc:300 NCCL WARN Missing \"iommu=pt\" from kernel command line which can lead to system instablity or hang!",
    "gpu-a:801:801 [0] init.cc:700 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
    # Ray's waits alone are not a death
    "[2024-04-01 08:00:00,001 I 77 88] gcs_placement_group_scheduler.cc:188: Failed to schedule placement group "
    "trainer_pg, id: 0a1b2c3d4e5f60718293a4b5c6d7e8f9, because no nodes are available.",
    " {'CPU': 4.0} * 1 (PACK): 1+ pending placement groups",
    "[2024-04-01 08:00:00,002 I 77 77] gcs_placement_group_manager.cc:230: Failed to create placement group "
    "pg_rollout_with_a_long_name, id: ffee0011223344556677889900aabbcc, try again.",
    # a completed / running pod row, a clean exit report
    "rl-trainer-0-7f9c8d-abcde   0/1     Completed   0            3m",
    "rl-trainer-0-7f9c8d-abcde   1/1     Running     2 (1h ago)   5h",
    '[2/0] irisrl-task-status: state=SUCCEEDED exit_code=0 error="" pending=""',
]


@pytest.mark.parametrize("line", BENIGN)
def test_look_alikes_of_the_new_families_are_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL", line


def test_nccl_warn_grammar_splits_failures_notices_and_the_rest() -> None:
    # through the paths the analyzer takes: the catalogue (named) and the safety net (error-level)
    def failure(line: str) -> bool:
        cause = C.match(line)
        return cause is not None and cause.kind == "nccl_error"

    def error(line: str) -> bool:
        return E.is_error_line(line, E.parse(line))
    assert failure("h:1:2 [0] enqueue.cc:9 NCCL WARN Cuda launch failed: unspecified")
    assert failure("h:1:2 [0] socket.cc:9 NCCL WARN socketPoll: Connection reset by peer")
    assert failure("h:1:2 [0] net_socket.cc:9 NCCL WARN NET/Socket : peer 10.0.0.2<4000> message truncated : "
                   "receiving 4096 bytes instead of 1024.")
    assert failure("h:1:2 [0] init.cc:9 NCCL WARN Mismatched NCCL version detected : rank 3 version 22809 rank 0 version 22307")
    # a notice NCCL carries on after: neither named nor error-level
    for notice in ("h:1:2 [0] graph/xml.cc:9 NCCL WARN Could not find real path of /sys/class/net/eth0",
                   "h:1:2 [0] net.cc:9 NCCL WARN NET/Plugin: No plugin found (libnccl-net.so), using internal implementation",
                   "h:1:2 [0] init.cc:9 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
                   "h:1:2 [0] net_ib.cc:9 NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port error(10)"):
        assert not failure(notice) and not error(notice), notice
    # any other WARN is error-level: surfaced, a KILL only once the process ended
    other = "h:1:2 [0] graph/topo.cc:9 NCCL WARN Could not find gpu rank 7"
    assert error(other) and not failure(other) and C.match(other) is None
    cause = C.match("h:1:2 [0] proxy.cc:1 NCCL WARN [Proxy Service 4] Failed to execute operation Init from rank 4, retcode 3")
    assert cause is not None and cause.kind == "nccl_error"


# ---- a traceback is one event: the Hub's status on a continuation line ------------------------
HUB_403 = [
    "Traceback (most recent call last):",
    '  File "/venv/huggingface_hub/utils/_http.py", line 901, in hf_raise_for_status',
    "huggingface_hub.errors.HfHubHTTPError: (Request ID: Root=1-12345678-0123456789abcdef01234567)",
    "",
    "403 Forbidden: You are not in the allow list.",
    "Cannot access content at: https://hub.example/api/models/acme/tiny/revision/main.",
]


def test_a_hub_error_whose_status_is_on_the_continuation_line_is_read_by_that_status(tmp_path: Path) -> None:
    report = both(tmp_path, HUB_403)
    assert primary(report) == "hf_gated" and report["verdict"] == "KILL"
    assert [c["kind"] for c in report["causes"]] == ["hf_gated"] and not report.get("unrecognized")
    # a 429 on the continuation line stays transient, and the error alone keeps the transient reading
    assert primary(both(tmp_path, HUB_403[:4] + ["429 Too Many Requests: slow down."])) == "hf_http_error"
    assert primary(both(tmp_path, HUB_403[:3])) == "hf_http_error"
