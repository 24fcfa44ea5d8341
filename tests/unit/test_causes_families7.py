"""Seventh pass on issue 15: wrapper lines whose real exception is on another line (Ray's
unhandled-error relay, SGLang's scheduler, vLLM's fatal-signal handler), the Hub's answer to a
gated repo's access request, and framework sentences (an inference-server launcher, torch's
legacy storage-size check, DeepSpeed's launcher, a cluster too small for the placement, a pod
no node can hold). Every line is our own reconstruction of a family (other hosts, pids, sizes,
wordings of the same site), not a corpus line; each is read alone through `health --log FILE
--json` (grep's prefilter) and through the Analyzer fed in memory (bytes.find): both agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both  # noqa: E402


NAMED = [
    # Ray's relay of a failed task nobody read (the task's own exception is on later lines)
    ("python_crash", "(TaskRunner pid=4411) Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): "
                     "ray::RolloutWorker.generate() (pid=4502, ip=10.1.2.3, actor_id=abc123)"),
    ("python_crash", "2026-01-02 03:04:05,678\tERROR worker.py:409 -- Unhandled error (suppress with "
                     "'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::train_step() (pid=91, ip=172.16.0.5)"),
    # SGLang's scheduler loop died (any TP / DP rank, with and without a Ray actor prefix)
    ("engine_dead", "[2026-02-03 11:12:13 TP0] Scheduler hit an exception: Traceback (most recent call last):"),
    ("engine_dead", "(SGLangEngine pid=77) [2026-02-03 11:12:13 DP1 TP5] Scheduler hit an exception: Traceback"),
    ("engine_dead", "[2026-02-03 11:12:14] DetokenizerManager hit an exception: Traceback (most recent call last):"),
    ("engine_dead", "[2026-02-03 11:12:14 DP0] DataParallelController hit an exception: Traceback"),
    ("engine_dead", "[2026-02-03 11:12:15] Received sigquit from a child process. It usually means the child failed."),
    # vLLM's SIGUSR1 handlers, in the client and in the executor
    ("engine_dead", "CRITICAL 05-06 07:08:09 [core_client.py:412] Got fatal signal from worker processes, shutting "
                    "down. See stack trace above for root cause issue."),
    ("engine_dead", "(EngineCore_0 pid=812) CRITICAL 05-06 07:08:09 [multiproc_executor.py:52] MulitprocExecutor got "
                    "fatal signal from worker processes, shutting down."),
    # the Hub's answers to an access request
    ("hf_gated", "Your request to access this repo has been rejected by the repo's authors."),
    ("hf_gated", "403 Forbidden: Your request to access model acme/llm-70b has been rejected by the repo's authors."),
    ("hf_gated", "Your request to access model acme/llm-8b is awaiting a review from the repo authors."),
    # an RL framework's inference-server launcher that never saw /health
    ("engine_init_failed", "RuntimeError: server launch failed"),
    ("engine_init_failed", "[rank2]: RuntimeError: server launch failed"),
    # torch's legacy deserializer on a cut file
    ("checkpoint_corrupt", "RuntimeError: storage has wrong size: expected -4611686018427387904 got 2048"),
    # DeepSpeed's launcher reaping a rank, whatever the cmd list looks like
    ("python_crash", "[2026-03-04 05:06:07,890] [ERROR] [launch.py:341:sigkill_handler] ['/usr/bin/python3', '-u', "
                     "'train.py', '--local_rank=3'] exits with return code = -9"),
    ("python_crash", "[ERROR] [launch.py:322:sigkill_handler [cmd] exits with return code = 1"),
    # not enough nodes / GPUs for the placement
    ("pg_unplaceable", "AssertionError: The Ray clusters(ray_num_nodes: 2) cannot meet the required number of nodes (`num_nodes`4)."),
    ("pg_unplaceable", "0/8 nodes are available: 3 Insufficient nvidia.com/gpu, 5 node(s) had untolerated taint "
                       "{pool: cpu}. preemption: 0/8 nodes are available: 8 No preemption victims found for incoming pod."),
    ("pg_unplaceable", "Warning  FailedScheduling  12s  default-scheduler  0/2 nodes are available: 2 Insufficient memory."),
]


@pytest.mark.parametrize(("kind", "line"), NAMED)
def test_a_family_line_alone_is_named(tmp_path: Path, kind: str, line: str) -> None:
    assert_named(tmp_path, kind, line)


BENIGN = [
    # DeepSpeed's launcher on a rank that exited cleanly says nothing at error level
    "[2026-03-04 05:06:07,890] [INFO] [launch.py:351:main] Process 4242 exits successfully.",
    # a scheduler message that reports capacity, not a failure
    "0/8 nodes are available for preemption",
]


@pytest.mark.parametrize("line", BENIGN)
def test_a_look_alike_is_not_a_kill(tmp_path: Path, line: str) -> None:
    assert both(tmp_path, [line])["verdict"] != "KILL"
