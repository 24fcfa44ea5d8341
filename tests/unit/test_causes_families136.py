"""Passes 136 and after on issue 15 (fifteenth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py). Pass 136 came from a metamorphic check, not from corpus misses: each named corpus
line re-read under the prefixes real logs put around it (a Ray actor's, a torchrun rank's, a container runtime's
time, mpirun's, docker compose's column, ANSI colour) must keep its kind."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_kept_no_death, assert_named, assert_says_nothing, both, primary  # noqa: E402


@pytest.mark.parametrize("line", [
    # another library's timeout in a rank's output is that library's wait, not the process group's
    "[rank3]: httpx.ReadTimeout: timed out",
    "[rank3]: litellm.exceptions.Timeout: litellm.Timeout: Read timed out. Timeout passed=2.0, time taken=2.036 seconds",
    "[rank3]: subprocess.TimeoutExpired: Command '['python', 'eval.py']' timed out after 30 seconds",
    "[rank3]: multiprocessing.context.TimeoutError",
    "[rank3]: filelock._core._errors.Timeout: The file lock '/ck/global_step_10.lock' could not be acquired.",
    # a builtin timeout whose message names what else it waited on (a URL, an endpoint, a Ray task)
    "[rank3]: TimeoutError: judge endpoint did not answer in 0.1 s",
    "[rank3]: RuntimeError: DataLoader timed out after 3 seconds",
    # a refused setting named for a timeout is the setting's
    "[rank3]: RuntimeError: Invalid value for environment variable: TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC",
])
def test_a_ranks_wait_on_something_else_is_not_its_groups(tmp_path: Path, line: str) -> None:
    assert primary(both(tmp_path, [line])) != "dist_timeout"


def test_a_ranks_own_timeout_stays_its_groups(tmp_path: Path) -> None:
    # (the pass-131 lines: a builtin or torch class, nothing else named as waited on)
    assert_named(tmp_path, "dist_timeout", "[rank3]: RuntimeError: Operation timed out!")
    assert_named(tmp_path, "dist_timeout", "[rank6]: TimeoutError: pipe.recv() timed out after 60.0 seconds")


NAMED = [
    # ---- pass 137 (public sets 69 / 70): a platform's job log saying "return code", as kubectl says "exit code"
    ("[Modelarts Service Log]Training end with return code: 137", "pod_oomkilled"),
    ("CompletedProcess(args=['python', 'train.py'], returncode=137)", "pod_oomkilled"),
    ("slurmstepd: error: pyxis: hook exited with return code 137 after 3 tries", "pod_oomkilled"),
    # vLLM's worker monitor with any exit code it reports, None when the process had none yet
    ("[2026-01-02 10:00:00.1][UC][E] Worker proc VllmWorker-3 died unexpectedly (exit code: None), shutting down executor.",
     "engine_dead"),
    # an accelerator's memory by its own name
    ("Out of Memory: Not enough space to allocate 4718592 B DRAM buffer across 8 banks, where each bank needs 589824 B",
     "cuda_oom"),
    ("RuntimeError: out of memory allocating 2147483648 bytes of device memory", "cuda_oom"),
    # ---- pass 138 (current sets 56-58, public 71): an index past the devices there are, in c10's words
    ("RuntimeError: Device index value 7 is out of index range [0, 1)", "cuda_error"),
    ("RuntimeError: invalid device ordinal", "cuda_error"),
    # a gang dispatcher that cannot fit the job, in its words
    ("    Message:                     Insufficient resources to dispatch AppWrapper.", "pg_unplaceable"),
    # a file URL into an application's API is no download (mlflow's artifact proxy failing a checkpoint's upload) ...
    ("mlflow.exceptions.MlflowException: API request to http://10.0.0.5:5000/api/2.0/mlflow-artifacts/artifacts/1/ab/"
     "artifacts/checkpoints/global_step_300.pt failed with exception HTTPConnectionPool(host='10.0.0.5', port=5000): "
     "Max retries exceeded with url: /api/2.0/mlflow-artifacts/artifacts/1/ab/artifacts/checkpoints/global_step_300.pt "
     "(Caused by ResponseError('too many 503 error responses'))", "python_crash"),
    # ... a model host's URL still is one
    ("requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: "
     "https://cdn.example.com/models/llama/model-00001-of-00004.safetensors", "hf_http_error"),
    # ---- pass 139 (current sets 59-61): the Hub's git LFS API is the Hub's (an upload's large files)
    ("httpx2.HTTPStatusError: Client error '401 Unauthorized' for url 'http://10.0.0.9:8080/acme/ckpt.git/info/lfs/objects/batch'",
     "hf_gated"),
    ("httpx2.HTTPStatusError: Server error '502 Bad Gateway' for url 'http://10.0.0.9:8080/acme/ckpt.git/info/lfs/objects/batch'",
     "hf_http_error"),
    # an extension module built against another ABI, in numpy's words (banner and C-API check), and pkg_resources' refusal
    ("A module that was compiled using NumPy 1.x cannot be run in", "python_crash"),
    ("ImportError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000", "python_crash"),
    ("pkg_resources.VersionConflict: (numpy 2.1.0 (/usr/lib/python3/site-packages), Requirement.parse('numpy<2'))",
     "python_crash"),
    # a CUDA tensor's type named in autograd's refusal is no CUDA failure
    ("RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: "
     "[CUDAFloatType [8, 16]], which is output 0 of ReluBackward0, is at version 2; expected version 1 instead. Hint: enable "
     "anomaly detection to find the operation that failed to compute its gradient", "python_crash"),
]


@pytest.mark.parametrize(("line", "kind"), NAMED)
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


def test_another_return_code_is_no_oom_kill(tmp_path: Path) -> None:
    assert primary(both(tmp_path, ["[Modelarts Service Log]Training end with return code: 1"])) != "pod_oomkilled"


# Lines the safety net keeps (named or in `unrecognized`), none of them a death alone.
KEPT = [
    # ---- pass 138: asyncio's report of a task that ended on a BaseExceptionGroup (anyio's task group, a child's sys.exit(3))
    "task: <Task finished name='Task-1' coro=<main() done, defined at /app/r.py:9> "
    "exception=BaseExceptionGroup('unhandled errors in a TaskGroup', [SystemExit(3)])>",
    # ---- pass 139: huggingface_hub's http_backoff quoting the OS error it retries on (an OS error's rendering is a record)
    "'[Errno 111] Connection refused' thrown while requesting PUT http://10.0.0.9:9000/lfs-put/ab12",
    # ---- pass 142: a runtime saying it received SIGTERM by its number (MarinSkyRL's task runtime, "Received signal 15")
    "[task-runtime] Received signal 15; terminating training driver and stopping Ray...",
    # ---- pass 143: a sentence whose first words are the failure, printed with no level (a tool's diagnostic)
    "Failed to parse --display/-d flags",
    "Invalid p2p capability index specified at the command-line",
    "Unable to load optimizer from checkpoint /ck/iter_0004000. Specify --no-load-optim or --finetune to prevent it, exiting ...",
]
# ... and lines it does not: neither named nor kept
SAYS_NOTHING = [
    "SystemExit: 0",
    "waiting for the signal 15 minutes",
    "Evaluating the failed rollouts of step 12 against the reference policy",
    # NCCL's INFO channel when it traces no failure (pass 141): a channel's route, a call that returned ncclSuccess, a retry
    # on its way
    "node-3:4101:4177 [5] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [receive] via NET/IB/0",
    "node-3:4101:4177 [5] NCCL INFO init.cc:1234 -> 0",
    "node-3:4101:4177 [5] NCCL INFO socketPollConnect: connect returned Connection refused, retrying (3/35) after sleep for 300 msec",
]


@pytest.mark.parametrize("line", KEPT)
def test_each_line_is_kept_and_no_death_alone(tmp_path: Path, line: str) -> None:
    assert_kept_no_death(tmp_path, line)


@pytest.mark.parametrize("line", SAYS_NOTHING)
def test_each_line_says_no_failure(tmp_path: Path, line: str) -> None:
    assert_says_nothing(tmp_path, line)


@pytest.mark.parametrize("line", ["StopIteration: No more results to get", "StopAsyncIteration", "    | GeneratorExit"])
def test_an_iteration_end_is_kept_as_a_warning(tmp_path: Path, line: str) -> None:
    # ---- pass 140: a class that says nothing alone is no death (exceptions.NOT_A_CRASH), but an uncaught one is never dropped
    report = both(tmp_path, [line])
    assert report["verdict"] == "NO-KILL" and primary(report) is None
    assert [u["status"] for u in report["unrecognized"]] == ["warning"]


@pytest.mark.parametrize("line", [
    # ---- pass 141: NCCL's back trace of a failed call on its INFO channel (NCCLCHECK's `<file>:<line> -> <result>`)
    "node-3:4101:4177 [5] NCCL INFO transport/net.cc:1134 -> 6",
    "node-3:4101:4177 [5] NCCL INFO transport/net_ib/connect.cc:442 (ncclIbConnect) -> 2",
    # and its connect retries run out, said on the same channel
    "node-3:4101:4177 [5] NCCL INFO socketPollConnect: connect returned Connection refused, retrying (35/35) after sleep for 3500 msec",
])
def test_ncclS_info_channel_failure_trace_is_named_as_a_warning(tmp_path: Path, line: str) -> None:
    report = both(tmp_path, [line])
    assert (primary(report), report["verdict"]) == ("nccl_error", "NO-KILL")
