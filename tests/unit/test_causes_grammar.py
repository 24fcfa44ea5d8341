"""The grammar of failure lines (issue 15, third pass): lines are named by their SHAPE (level word,
exception class, library family, URL path), not by one pasted sentence each. Every line below is
our own reconstruction from the libraries' format strings (cited in observe/exceptions.py and
observe/causes.py), none is a corpus line; each goes through both readers: a file through
`irisrl health --log FILE --json` (grep's prefilter) and bytes fed in memory (the bytes.find scan)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from irisrl.observe.analyzer import Analyzer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import health_file, ruled  # noqa: E402
from prefilter import assert_grep_and_scan_agree  # noqa: E402

SURFACED = "surfaced"       # no kind required: an `unrecognized` entry (or any cause) is enough
BENIGN = "benign"           # no cause, no unrecognized entry, never a KILL

CASES: list[tuple[str, str]] = [
    # level grammar: every error level reaches the net whatever the runtime spells it
    ("[2026-12-03 16:00:00,123] [ERROR] [runner.py:45:main] shard 3 could not be staged", SURFACED),
    ("CRITICAL:root:the reward server went away", SURFACED),
    ("FATAL 2026-12-03T16:00:00 lease table lost", SURFACED),
    ("[2026-12-03 16:00:00,123 C 4242 4243] gcs_table.cc:88: lease table inconsistent", SURFACED),
    ("[2026-12-03 16:00:00,123 C 4242 4243] object_manager.cc:88:  Check failed: chunk_index < num_chunks", "python_crash"),
    ("fatal: could not read the shard manifest", SURFACED),
    ("panic: runtime error: index out of range [3] with length 3", SURFACED),
    ("datasetgenerationerror: an error occurred while generating the dataset", SURFACED),
    ("!!!!!!! Segfault encountered !!!!!!!", "python_crash"),
    ("[2026-12-03 16:00:00,123] [ERROR] [launch.py:321:sigkill_handler] ['python', 'train.py'] exits with return code = -11",
     "python_crash"),
    # exception grammar: a dotted class at line start, whatever its name ends in
    ("requests.exceptions.ReadTimeout: the reward server did not answer in 30 s", "python_crash"),
    ("sched.tasks.TaskInterrupt: the rollout task was interrupted", "python_crash"),
    ("mylib.jobs.JobAbort: job 7 stopped by its scheduler", "python_crash"),
    ("SystemExit: 2", "python_crash"),
    ("torch.distributed.elastic.rendezvous.api.RendezvousTimeout: rendezvous 'job7' did not complete in 900s", "dist_timeout"),
    ("httpcore.PoolTimeout: no connection to https://huggingface.co within 10s", "hf_http_error"),
    ("hfhubhttperror: 503 server error: service unavailable for url: https://huggingface.co/api/models/org/m", "hf_http_error"),
    # distributed init: dist_timeout whatever the wrapper
    ("RuntimeError: connect() timed out. Original timeout was 1800000 ms.", "dist_timeout"),
    ("RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Wait timeout", "dist_timeout"),
    ("timed out initializing process group in store based barrier on rank: 3, for key: store_based_barrier_key:1 "
     "(world_size=8, worker_count=4, timeout=0:30:00)", "dist_timeout"),
    # the Hub: a 404 on the repo as a whole vs on one file, a non-Python client's status
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
     "https://huggingface.co/api/models/org/typo-model/revision/main", "hf_repo_not_found"),
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
     "https://huggingface.co/api/models/org/typo-model/tree/main?recursive=True", "hf_repo_not_found"),
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
     "https://huggingface.co/org/typo-model/resolve/main/config.json", "hf_repo_not_found"),
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
     "https://huggingface.co/org/m/resolve/main/model-00002-of-00004.safetensors", "hf_weights_missing"),
    ("httpx.HTTPStatusError: Client error '404 Not Found' for url 'https://huggingface.co/api/models/org/m/tree/main/extra'",
     "hf_weights_missing"),
    ('Error: request failed: Status(401, Response[status: 401, status_text: Unauthorized, '
     'url: "https://huggingface.co/org/m/resolve/main/tokenizer.json"])', "hf_gated"),
    # ibverbs completion errors whoever prints them
    ("(RayWorkerWrapper pid=7, ip=10.0.0.4) mlx5: node12: got completion with error:", "nccl_error"),
    ("NET/IB: Got completion from peer 10.1.2.3<51234> with status=5 opcode=0 len=0 vendor err 249 (Recv)", "nccl_error"),
    ("h:1:2 [0] graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:3b/../../0000:3b:00.0",
     "nccl_error"),
    # Ray: resource demands, the raylet, the GCS
    ("(autoscaler +1m2s) Error: No available node types can fulfill resource request {'node:10.0.0.4': 0.001, 'GPU': 8.0}. "
     "Add suitable node types to this cluster to resolve this issue.", "pg_unplaceable"),
    (" {'GPU': 8.0, 'CPU': 64.0}: 2+ pending tasks/actors", "pg_timeout"),
    ("ValueError: The number of required GPUs exceeds the total number of available GPUs in the placement group.",
     "pg_unplaceable"),
    ("2026-12-03 16:00:00,123 WARNING worker.py:2100 -- Raylet is terminated: ip=10.0.0.4, id=ab12. "
     "Termination is unexpected.", "ray_node_dead"),
    ("2026-12-03 16:00:00,123 WARNING utils.py:1500 -- Unable to connect to GCS at 10.0.0.1:6379. Check that the head is up",
     "ray_node_dead"),
    ("ray.exceptions.LocalRayletDiedError: The task's local raylet died. Check raylet.out for more information.",
     "ray_node_dead"),
    ("ray.exceptions.TaskUnschedulableError: The task is not schedulable: no node has 16 GPUs", "pg_unplaceable"),
    ("2026-12-03 16:00:00,123 ERROR utils.py:88 -- Failed to connect to GCS at 10.0.0.1:6379", "ray_node_dead"),
    ("remote: Invalid username or password.", "hf_gated"),
    # vLLM v0's engine loop
    ("ERROR 12-03 16:00:00 async_llm_engine.py:60] Engine iteration timed out. This should never happen!", "engine_dead"),
    ("ERROR 12-03 16:00:00 async_llm_engine.py:64] Engine background task failed", "engine_dead"),
    # CUDA: any case / prefix; a terminate line named by its thrown type
    ("(LLMRayActor pid=9) cuda error: out of memory at csrc/allocator.cpp:62", "cuda_oom"),
    ("RuntimeError: CUDA driver error: out of memory", "cuda_oom"),
    ("runtimeerror: cuda out of memory. tried to allocate 2.00 gib", "cuda_oom"),
    ("RuntimeError: CUDA driver error: invalid device ordinal", "cuda_error"),
    ("terminate called after throwing an instance of 'c10::CUDAError'", "cuda_error"),
    ("terminate called after throwing an instance of 'c10::OutOfMemoryError'", "cuda_oom"),
    ("terminate called after throwing an instance of 'std::runtime_error'", "python_crash"),
    # Kubernetes container status as YAML / JSON
    ("        exitCode: 137", "pod_oomkilled"),
    ('                "exitCode": 137,', "pod_oomkilled"),
    # NCCL notices it carries on after: never a cause, never surfaced
    ("h:1:2 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]", BENIGN),
    ("h:1:2 [0] transport/net_ib.cc:9 NCCL WARN Could not find real path of mlx5_2 (/sys/class/infiniband/mlx5_2/device)",
     BENIGN),
    ("SystemExit: 0", BENIGN),
]


def _primary(report: dict[str, Any]) -> str | None:
    if report.get("cause_of_death"):
        return str(report["cause_of_death"]["kind"])
    return str(report["causes"][0]["kind"]) if report["causes"] else None


def _check(line: str, expected: str, report: dict[str, Any]) -> None:
    if expected == BENIGN:
        assert report["verdict"] == "NO-KILL" and not report["causes"] and not report["unrecognized"], (line, report)
    elif expected == SURFACED:
        assert report["causes"] or report["unrecognized"], line
    else:
        assert _primary(report) == expected, (line, _primary(report), report["unrecognized"])


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[f"{i}-{k}" for i, (_, k) in enumerate(CASES)])
def test_grammar_in_memory(line: str, expected: str) -> None:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", (line + "\n").encode())
    _check(line, expected, analyzer.verdict().to_dict())


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[f"{i}-{k}" for i, (_, k) in enumerate(CASES)])
def test_grammar_through_the_file_path(line: str, expected: str, tmp_path: Path) -> None:
    _check(line, expected, health_file(tmp_path, [line]))


@pytest.mark.skipif(shutil.which("grep") is None, reason="no grep on PATH")
def test_grammar_grep_and_the_python_scan_let_the_same_lines_through(tmp_path: Path) -> None:
    lines = [line for line, kind in CASES if kind != BENIGN or "NCCL WARN" in line]
    assert_grep_and_scan_agree(lines, tmp_path, "healthy chatter")


def test_grammar_widened_net_never_kills_a_healthy_run() -> None:
    """The level grammar surfaces more lines (timeouts, aborts, lower-case fatal); in a run that
    went on and finished they are warnings, never a KILL, and NCCL's IB probe is not even listed."""
    step = "2026-12-03 16:00:30.000 | INFO     | skyrl_train.trainer:train:300 - Step 3: {'loss': 0.1}"
    done = "2026-12-03 16:00:40.000 | INFO     | skyrl_train.trainer:train:400 - Training complete"
    lines = ["h:1:2 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
             "WARNING 12-03 16:00:01 [client.py:9] request to the reward server timed out, retrying (1/3)",
             "sandbox command timed out after 30s (trial 12)",
             "aborting trial 7: the agent exceeded its turn budget",
             step, done]
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", "".join(line + "\n" for line in lines).encode())
    report = analyzer.verdict().to_dict()
    assert report["verdict"] == "NO-KILL" and not ruled(report) and all(c["status"] == "warning" for c in report["causes"])
    assert report["unrecognized"] and all(u["status"] == "warning" for u in report["unrecognized"])
    assert not any("libibverbs" in u["first"]["line"] for u in report["unrecognized"])


@pytest.mark.parametrize("line", [
    "NVRM: Xid (PCI:0000:9a:00): 149, NVLink: fatal error detected on link 5 (0x00000004 0x0 0x0 0x0 0x0 0x0)",
    "[Tue Dec  1 10:00:00 2026] NVRM: Xid (PCI:0000:1c:00): 79, pid=1234, GPU has fallen off the bus.",
])
def test_a_fatal_xid_is_a_cuda_error(line: str) -> None:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", (line + "\n").encode())
    assert _primary(analyzer.verdict().to_dict()) == "cuda_error", line


def test_an_xid_the_driver_calls_nonfatal_is_no_kill() -> None:
    """NVLink Xids carry the driver's own grade: a corrected (Nonfatal) event is no dead GPU."""
    line = "NVRM: Xid (PCI:0000:9a:00): 145, RLW_SRC Nonfatal XC1 i3 Link 7 (0x00000002 0x00000000 0x0 0x0 0x0 0x0)"
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", (line + "\n").encode())
    report = analyzer.verdict().to_dict()
    assert report["verdict"] == "NO-KILL" and not any(c["kind"] == "cuda_error" for c in report["causes"]), report
