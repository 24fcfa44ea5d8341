"""The family vocabulary and the wider safety net (issue 15, fourth pass: generalize).

Every line below is our own reconstruction from the libraries' message sites (cited in
observe/vocabulary.py and observe/causes.py), worded so that NO specific rule of the catalogue
names it: what names it is the vocabulary table (kinds x cue sets, most specific first) or, for a
line no row fits, the safety net's grammar (error words in a log record). Each line goes through
both readers: a file through `irisrl health --log FILE --json` (grep's prefilter) and bytes fed
in memory (the bytes.find scan)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from irisrl.observe import causes as C
from irisrl.observe import vocabulary as V
from irisrl.observe.analyzer import Analyzer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import health_file, ruled  # noqa: E402
from prefilter import assert_grep_and_scan_agree  # noqa: E402

SURFACED = "surfaced"   # no row fits: an `unrecognized` entry is enough
NOTICE = "notice"       # never a cause, never an unrecognized entry, never a KILL

CASES: list[tuple[str, str]] = [
    # named by the table (no specific rule matches these words)
    ("RuntimeError: [c10d] TCPStore client timed out after 1800 s waiting for key 'rank_7'", "dist_timeout"),
    ("[rank2]:[E1203 16:00:00.000000 ProcessGroupGloo.cpp:144] [c10d] barrier timed out after 300000 ms on rank 2",
     "dist_timeout"),
    ("ValueError: NCCL collective ALLREDUCE timed out on rank 3 after 600 s", "nccl_timeout"),
    ("RuntimeError: NCCL transport failed: ibv_post_send returned 12 on mlx5_0", "nccl_error"),
    ("OSError: failed to save checkpoint shard 3: disk full on /mnt/ckpt", "disk_full"),
    ("RuntimeError: checkpoint /ckpt/global_step_40/model.pt is corrupted (truncated archive)", "checkpoint_corrupt"),
    ("RuntimeError: GPU 3 ran out of memory while allocating the KV cache (requested 2.1 GiB)", "cuda_oom"),
    ("2026-12-03 16:00:00,123 ERROR worker.py:88 -- Task killed by the Ray memory monitor: node memory at 0.97",
     "ray_oom_kill"),
    ("Warning  OOMKilling  node/gpu-7  Memory cgroup out of memory: Kill process 4242 (python) score 1999", "pod_oomkilled"),
    ("Warning  Evicting  node/gpu-3  The node had memory pressure; evicting pod default/trainer-3", "evicted"),
    ('E1203 16:00:00.000 kubelet.go:88] Failed to pull "registry.example.com/irisrl/trainer:v7": failed to resolve reference',
     "image_pull"),
    ("(raylet) node 10.0.0.7 lost: heartbeats stopped, removing it from the cluster", "ray_node_dead"),
    ("ray.exceptions.RaySystemError: System error: the actor handle for PolicyWorker is unavailable", "ray_actor_died"),
    ("ERROR 12-03 16:00:00 [core_client.py:400] EngineCore process crashed; shutting down the API server", "engine_dead"),
    ("ERROR 12-03 16:00:00 [core.py:700] EngineCore failed during initialization: not enough KV cache blocks", "engine_init_failed"),
    ("OSError: access to this model requires an authenticated token; log in to the Hub with HF_TOKEN", "hf_gated"),
    ("ValueError: revision 'v2.1' does not exist on the Hub for repo org/model", "hf_repo_not_found"),
    ("FileNotFoundError: shard model-00003-of-00004.safetensors not found in the Hub snapshot for org/model",
     "hf_weights_missing"),
    ("OSError: the Hub answered 502 Bad Gateway while resolving org/model, giving up after 5 tries", "hf_http_error"),
    ("RuntimeError: cuBLAS handle creation failed on GPU 1", "cuda_error"),
    ("hydra.errors.InstantiationException: Error in call to target 'skyrl_train.Trainer': missing argument", "hydra_error"),
    ("Error: placement group pg-7 creation timed out after 600 s (bundles: 8 x {GPU: 8})", "pg_timeout"),
    ("RuntimeError: resource request {'GPU': 16} is infeasible: no node in the cluster has 16 GPUs", "pg_unplaceable"),
    # the label decisions (observe/causes.py families): a worker SIGKILLed inside its container, as torch
    # elastic reports it, is a process's death (python_crash: pass 5, the lead's reading of the
    # contract); only the orchestrator's report is pod_oomkilled; a cudaMalloc
    # NCCL could not get is the GPU's memory; an actor that died with its node is the node's death;
    # omegaconf's struct error without Hydra's prefix, in any case
    ("[rank0]: Signal 9 (SIGKILL) received by PID 4242", "python_crash"),
    ("  exitcode  : -9 (pid: 4242)", "python_crash"),
    ("  traceback : Signal 11 (SIGSEGV) received by PID 4242", "python_crash"),
    ("ray.exceptions.ActorDiedError: The actor died because its node has died. Node Id: 1f2e3d", "ray_node_dead"),
    ("h:1:2 [0] include/alloc.h:103 NCCL WARN Failed to CUDA calloc 10485760 bytes", "cuda_oom"),
    ("key 'trainer.epochz' is not in struct", "hydra_error"),
    ("omegaconf.errors.ConfigKeyError: Key 'epochz' not in 'TrainerConfig'", "hydra_error"),
    # the wider net: error words in a log record, no family: surfaced
    ("[rank3]: socket closed unexpectedly while reading the reward", SURFACED),
    ("(RewardActor pid=42) reward server refused the connection", SURFACED),
    ("trainer  | cannot open shard index /data/train.idx", SURFACED),
    ("scheduler.py:88: lease for task 7 exhausted after 3 renewals", SURFACED),
    ("state=lost worker=7", SURFACED),
    # notices: NCCL's INFO channel, a Python warning, counters and settings, a hedge
    ("vm:1:1 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so", NOTICE),
    ("/usr/lib/python3/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python extension", NOTICE),
    ("INFO 12-03 16:00:00 [config.py:100] reward client: timeout=30 s", NOTICE),
    ("[transformers] this tokenizer may result in unexpected behaviour", NOTICE),
    ("h:1:2 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]", NOTICE),
]
# Pass 5: grammars, not lines (our own reconstructions of the shapes; sources in observe/).
CASES_PASS5: list[tuple[str, str]] = [
    # an exception line whatever its reporter indents it with: pytest's `E`, a `>` quote
    ("E       mylib.pool.WorkerLost: worker 4 vanished while running shard 12", "python_crash"),
    ("    > rpc.errors.RemoteCallFailed: peer 10.0.0.3 hung up", "python_crash"),
    ("E   PeerUnavailable: the reward server is unavailable", "python_crash"),
    # an access denial needs no error word and no log-record cue
    ("Repo dataset acme/private-set is gated. You must be authenticated to access it.", "hf_gated"),
    ("Access to this bucket is not allowed for the current credentials", SURFACED),
    # NCCL's WARN body by its function stem, without the `NCCL WARN` header
    ("node3:99:120 [1] ncclSocketRecv: socket state (2) is not ready", "nccl_error"),
    # the kernel driver's own records in syslog form; its notices stay notices
    ("Dec  3 16:00:00 gpu-node-4 kernel: NVRM: GPU at PCI:0000:3b:00: rpc to GSP timed out for fn 76", "cuda_error"),
    ("Dec  3 16:00:00 gpu-node-4 kernel: NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15", NOTICE),
    # a worker SIGKILLed inside its container, as torch reports it: python_crash; the orchestrator's
    # report (Iris's status exit -9, a container's OOM reason) and bash's translated `Killed`: pod_oomkilled
    ("torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGKILL", "python_crash"),
    ("[3/0] 2026-12-03T16:00:00Z irisrl-task-status: state=FAILED exit_code=-9 error=\"\" pending=\"\"", "pod_oomkilled"),
    ("    reason: OOM Killed", "pod_oomkilled"),
    ("已杀死", "pod_oomkilled"),
    ("Warning  BackOff  pod/trainer-0  back-off 2m40s restarting failed container=trainer pod=trainer-0_default", "python_crash"),
    # gloo's connection setup is the rendezvous family; a read error mid-collective is not
    ("RuntimeError: [/src/third_party/gloo/gloo/transport/tcp/pair.cc:500] connect [10.1.2.3]:29500: No route to host",
     "dist_timeout"),
    ("[rank1]:[E1203 16:00:00.000 ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with [pair.cc:144] Connection refused",
     "dist_timeout"),
    ("RuntimeError: [/src/third_party/gloo/gloo/transport/tcp/pair.cc:598] Read error [10.1.2.3]:4242: Connection reset by peer",
     "python_crash"),
    # the Hub's Rust clients (reqwest / hyper)
    ("Reqwest Error: HTTP status server error (502 Bad Gateway)", "hf_http_error"),
    ("Error while downloading: reqwest::Error { kind: Body, source: hyper::Error(Body, Error { kind: Io(Kind(UnexpectedEof)) }) }",
     "hf_incomplete_download"),
    # pickle's unpickler; a socket that ends early is a connection, not a file
    ("Failed to restore optimizer state: could not find MARK", "checkpoint_corrupt"),
    ("ray.exceptions.RaySystemError: System error: Failed to unpickle serialized exception", "python_crash"),
    ("OSError: Can't load tokenizer for 'acme/m'. If you were trying to load it from 'https://huggingface.co/models', make sure",
     "hf_repo_not_found"),
    ("[2026-12-03 16:00:00,123 E 42 42] core_worker_process.cc:200: Failed to register worker 7f to Raylet: IOError: "
     "Failed to read data from the socket: End of file", "ray_worker_died"),
    # an engine reported dead is dead; vLLM's docs URL names no engine
    ("CRITICAL 12-03 16:00:00 [launcher.py:99] AsyncLLM is already dead, terminating server process", "engine_dead"),
    ("RuntimeError: jemalloc is missing; see https://docs.vllm.ai/en/latest/getting_started/installation.html", "python_crash"),
    # (a 5xx is the server answering one request: the application's error, as 8 of the corpus's 9 such lines read)
    ("aiohttp.client_exceptions.ClientResponseError: 502, message='Bad Gateway', url='http://10.0.0.5:30000/generate'", "python_crash"),
    ("httpx.ConnectError: [Errno 111] Connection refused while POSTing http://10.0.0.5:8000/v1/chat/completions", "engine_dead"),
    # Ray's scheduling waits: Ray Train's worker group, the scheduler's "cannot be scheduled right now"
    ("The worker group startup timed out after 60.0 seconds waiting for 16 workers.", "pg_timeout"),
    ("2026-12-03 16:00:00,123\tWARNING worker.py:2000 -- The actor or task with ID 4f3e cannot be scheduled right now. "
     "It requires {GPU: 8.0} for placement", "pg_timeout"),
    ("(raylet) [2026-12-03 16:00:00,123 E 42 43] (raylet) main.cc:300: The raylet exited because its agent failed.", "ray_node_dead"),
    # a list of what MIGHT have happened is not an eviction
    ("Task failed because its node died. Node ID: 9a9a. This can happen if the node was preempted.", "ray_node_dead"),
    # the class name's `Error` is not a CUDA error; a 404 inside a repo (a dot in its name) is a missing file
    ("ValueError: Unknown option 'max_split_size' in the CUDA allocator settings", "python_crash"),
    ("httpx.HTTPStatusError: Client error '404 Not Found' for url "
     "'https://huggingface.co/api/models/acme/tiny-1.5B/tree/main/extras?recursive=false'", "hf_weights_missing"),
    # a line a family of the table names needs no log record around it; the orchestrator's memory
    # kill in words (a container, Slurm's step)
    ("CUDA driver version is insufficient for CUDA runtime version", "cuda_error"),
    ("Connection to the Ray cluster was lost", "ray_node_dead"),
    ("srun: error: gpu-12: task 3: Out Of Memory", "pod_oomkilled"),
    ("Permission denied (publickey).", SURFACED),
    # a Python warning is a warning: named, never a KILL
    ("/opt/venv/lib/python3.12/site-packages/huggingface_hub/file_download.py:700: UserWarning: Not enough free disk space "
     "to download the file. The expected file size is: 5000.00 MB. The target location /data/hf only has 12.00 MB free disk space.",
     "disk_full"),
]
CASES = CASES + CASES_PASS5


def _primary(report: dict[str, Any]) -> str | None:
    if report.get("cause_of_death"):
        return str(report["cause_of_death"]["kind"])
    return str(report["causes"][0]["kind"]) if report["causes"] else None


def _check(line: str, expected: str, report: dict[str, Any]) -> None:
    assert report["verdict"] == "NO-KILL" or expected not in (SURFACED, NOTICE), (line, report["reasons"])
    if expected == NOTICE:
        assert not report["causes"] and not report["unrecognized"], (line, report["causes"], report["unrecognized"])
    elif expected == SURFACED:
        # kept by the safety net (and read as the catch-all, python_crash), named by no rule
        assert not ruled(report) and report["unrecognized"], (line, report["causes"])
    else:
        assert _primary(report) == expected, (line, _primary(report), report["unrecognized"])


def _in_memory(lines: list[str]) -> dict[str, Any]:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0.log", "".join(line + "\n" for line in lines).encode())
    return analyzer.verdict().to_dict()


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[f"{i}-{k}" for i, (_, k) in enumerate(CASES)])
def test_vocabulary_in_memory(line: str, expected: str) -> None:
    _check(line, expected, _in_memory([line]))


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[f"{i}-{k}" for i, (_, k) in enumerate(CASES)])
def test_vocabulary_through_the_file_path(line: str, expected: str, tmp_path: Path) -> None:
    _check(line, expected, health_file(tmp_path, [line]))


@pytest.mark.skipif(shutil.which("grep") is None, reason="no grep on PATH")
def test_vocabulary_grep_and_the_python_scan_let_the_same_lines_through(tmp_path: Path) -> None:
    assert_grep_and_scan_agree([line for line, kind in CASES if kind != NOTICE], tmp_path, "healthy chatter")


def test_a_named_line_is_named_by_a_specific_rule_not_by_the_table() -> None:
    """The table is a fallback: every named case above is one no catalogue family names."""
    for line, kind in CASES[:23]:
        assert C._by_pattern(line) is None, line
        assert V.kind(line) == kind, line


def test_a_guessed_kind_is_fatal_only_once_its_process_ended() -> None:
    line = "RuntimeError: [c10d] TCPStore client timed out after 1800 s waiting for key 'rank_7'"
    alone = _in_memory([line])
    assert alone["verdict"] == "NO-KILL" and alone["causes"][0]["status"] == "warning"
    assert alone["causes"][0]["guessed"] == "vocabulary"          # a guess says so, in JSON and text
    ended = _in_memory([line, "[irisrl] Command exited with code 1"])
    assert ended["verdict"] == "KILL" and ended["cause_of_death"]["kind"] == "dist_timeout"
    assert any("guessed by vocabulary" in r for r in ended["reasons"]), ended["reasons"]


def test_a_specific_cause_is_the_death_before_a_guessed_one() -> None:
    """Ties go to the most specific: a catalogue family before a vocabulary guess (same tier)."""
    report = _in_memory(["OSError: failed to save checkpoint shard 3: disk full on /mnt/ckpt",
                         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79 GiB total)",
                         "[irisrl] Command exited with code 1"])
    assert report["cause_of_death"]["kind"] == "cuda_oom"
    assert {c["kind"] for c in report["causes"]} == {"cuda_oom", "disk_full"}


def test_an_info_level_failure_word_is_a_warning_never_a_kill() -> None:
    """torch elastic restarting its workers logs FAILED at INFO: kept, as a warning, even when the
    rank then exits non-zero (a notice is not what a process died of: the exit itself is named)."""
    line = ("I1203 16:00:00.000000 4242 torch/distributed/elastic/agent/server/api.py:889] [default] "
            "Worker group FAILED. 3/3 attempts left; will restart worker group")
    report = _in_memory([line, "[irisrl] Command exited with code 1"])
    assert [u["status"] for u in report["unrecognized"]] == ["warning"]
    assert [(c["kind"], c["line"]) for c in report["causes"]] == [("python_crash", "[irisrl] Command exited with code 1")]


def test_the_table_reads_as_markdown() -> None:
    table = V.table_markdown()
    assert table.count("\n") == len(V.TABLE) + 1 and "`dist_timeout`" in table


def test_a_list_of_possible_causes_asserts_none_of_them() -> None:
    """Ray lists what MIGHT have killed a worker; the worker's death is what the line states."""
    line = ("(raylet) worker 7 died unexpectedly while running a task. Possible reasons include: (1) SIGKILL by "
            "the user or system OOM killer, (2) a segfault")
    assert V.kind(line) == "ray_worker_died"
    assert "OOM" not in V.asserted(line) and "SIGKILL" in line


def test_an_info_level_line_is_named_but_only_as_a_warning() -> None:
    """Ray's C++ logs an actor's death at INFO: named, and like a warning-level line never fatal on
    its own (fatal only once the run crashed after it)."""
    line = "[2026-12-03 16:00:00,123 I 4242 4243] actor_manager.cc:139: actor 5c1d is dead: its owner exited"
    report = _in_memory([line])
    assert report["verdict"] == "NO-KILL"
    assert [(c["kind"], c["status"]) for c in report["causes"]] == [("ray_actor_died", "warning")]


def test_a_python_warning_is_named_as_a_warning_never_a_kill() -> None:
    """warnings.formatwarning's `file.py:N: SomeWarning: msg` is printed by a program that carries on:
    the Hub's low-disk warning is named (disk_full) with status warning, like any warning-level line
    fatal only once the run crashed after it (pass 5)."""
    line = CASES_PASS5[-1][0]
    report = _in_memory([line])
    assert [(c["kind"], c["status"]) for c in report["causes"]] == [("disk_full", "warning")]
    assert report["verdict"] == "NO-KILL" and report["cause_of_death"] is None


def test_torch_sigkill_report_is_a_crash_not_the_orchestrators_oom_kill() -> None:
    """torch elastic's report of a SIGKILLed worker ends that process (python_crash, fatal with its
    exit); Iris's own task status exit -9 stays pod_oomkilled."""
    ended = _in_memory(["[E1203 16:00:00.000000 42 torch/distributed/elastic/multiprocessing/api.py:869] failed "
                        "(exitcode: -9) local_rank: 1 (pid: 4242) of binary: /usr/bin/python3"])
    assert ended["verdict"] == "KILL" and ended["cause_of_death"]["kind"] == "python_crash"
    assert "OOM killer" in ended["cause_of_death"]["fix"]


def test_the_text_says_a_cause_of_death_was_guessed(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from irisrl.cli.main import cli

    log = tmp_path / "g.log"
    log.write_text("2026-01-01 10:00:00 ERROR worker.py:1 -- gloo barrier timed out after 300 s on rank 3\n"
                   "[irisrl] Command exited with code 1\n")
    out = CliRunner().invoke(cli, ["health", "--log", str(log)], terminal_width=200).stdout
    assert "cause of death: dist_timeout" in out and "guessed by vocabulary" in out, out
