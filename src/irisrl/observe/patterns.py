"""What the health ladder looks for in the logs: cheap byte needles (prefilter) and the
compiled regexes that read a matching line. Formats: the real lines in tests/fixtures/real_lines/
(sources in tests/fixtures/README.md) and the sources cited below.

A line is first cleaned and then classified. Cleaning removes, in the order collectors add
them: ANSI colours, the pull's rank prefix (`[3/0] `, Iris's `rank3| `), a container
runtime timestamp (`kubectl logs --timestamps` / `docker logs --timestamps`: RFC3339Nano,
e.g. `2026-12-02T10:11:12.123456789Z `; it becomes the line's time), SkyPilot's node prefix
(`(head, rank=0, pid=N) `, `(worker1, rank=1, pid=N, ip=A) `; skypilot-org/skypilot
sky/skylet log_lib prefix, and the Go sky-exec order `ip=` before `pid=`), Ray's actor
prefix (`(Class pid=N, ip=A) `), vLLM's multiproc worker prefix (`(VllmWorker rank=N pid=N) `,
not an actor: the Ray actor stays the line's identity) and Ray's dedup suffix `[repeated Nx across cluster]`
(ray-project/ray python/ray/tests/test_logging.py::test_dedup_logs: 10 prints give the
first line plus ONE line `[repeated 9x across cluster]`, which shows the LAST occurrence's
actor prefix and values: N occurrences, the shown one included)."""

from __future__ import annotations

import calendar
import json
import re
from typing import NamedTuple

from irisrl.observe import causes as C
from irisrl.observe import exceptions as E
from irisrl.runtime.contract import LIVENESS_TAG

# Byte needles: a line is only parsed when it contains one of these (bytes.find is ~GB/s,
# regexes are not). Every regex below is reachable only through one of them.
LADDER_NEEDLES: tuple[bytes, ...] = (
    b"generation throughput",      # vLLM stats, v0 and v1
    b"MarinSkyRL now at",          # rung 1
    b"Staging train_data",         # rung 2
    b"Ray nodes alive",            # rung 3
    b"transient HF weight",        # rung 4: the HF retry line (missing weights: a cause needle)
    b"load_pretrained_with_retry", # rung 4: retry wrapper
    b"ROUTED_EXPERTS",             # rung 6: guard engaged / rejected
    b"routed-experts",             # rung 6: vLLM-fork side of the guard
    b"training from",              # rung 7: resumed / from scratch
    b"Resuming from global_step",  # rung 7: the synchronous trainer's resume line
    b"Concurrent trials",          # rung 7: TerminalBenchGenerator initialized
    b"RolloutCoordinator",         # rung 7
    b"WANDB_MIRROR",               # rung 8 / progress
    b"Step ",                      # console logger `Step N: {...}`
    b"Training failed",            # crash (main_base)
    b"Error executing job",        # crash (Hydra)
    b"exited with",                # runtime `Command exited with code N`; any supervisor's child exit
    b"PLACEMENT_FAILED",           # rehearsal: a placement group did not place
    b"ERROR rank",                 # runtime: a rank's controller failed
    b"Failed to create sandbox",   # rung 8: Daytona (kortix-ai/suna#92)
    b"resource limit reached",     # rung 8: Daytona (daytonaio/daytona#5134)
    b"ed: '",                      # SkyRL Timer `Started: '...'` / `Finished: '...'` (one needle, not
                                   # two: every needle is a pass over the bytes): weight sync, steps
    b"Training complete",          # finished
    b"Training finished",
    b"Finished training",
    LIVENESS_TAG.encode(),         # runtime liveness samples (observe/liveness.py: the hang cause)
)
# The safety net's needles (observe/unrecognized.py): every error-level line must reach the
# classifier, so the prefilter is generic words rather than one needle per known sentence:
# `rror` covers Error / error / *Error:, `xception` Exception / exception, then level words,
# the shapes of a dying process and the stems the new kinds share (observe/causes.py). A cause
# needle that contains one of these needs no pass of its own (SCAN_NEEDLES below). Short needles
# that are frequent bytes (` E `, `[E`) cost grep the most (docs/BENCHMARKS.md): the level
# prefixes of glog and Ray's C++ logs are matched by GLOG_B / the grep pattern instead.
NET_NEEDLES: tuple[bytes, ...] = (
    b"rror", b"xception", b"ERROR", b"FATAL", b"Fatal", b"fatal", b"CRITICAL", b"Traceback", b"fail", b"Fail", b"FAIL",
    b"panic", b"bort", b"egfault", b"xit code", b"nterrupt", b"Exit:",
    b"imed out", b"imeout", b"Killed", b"killed", b"dead", b"died", b"full", b"memory", b"enied", b"unknown",
    b"Not Found", b"not found", b"EVICTED", b"vict", b"reempt", b"PREEMPTED", b"SIGSEGV", b"SIGABRT", b"SIGBUS",
    b"core dumped", b"Segmentation", b"terminate called", b"nccl", b"NCCL WARN", b"NCCL error", b"ProcessGroupNCCL",
    b"Xid", b"orrupt", b"eader", b"Errno", b"ENOSPC", b"gated", b"restricted", b"nvalid", b"assert", b"illegal",
    b"misaligned", b"BackOff", b"ack-off", b"ImagePull", b"low on", b"CUDA", b"Cuda", b"huggingface.co",
    b"irisrl-task-status:", b"Exit Code", b"exit_code=", b"exitcode", b"exit status", b"Rendezvous",
    b"Engine", b"quota", b"clients joined", b"nexpected",
    b"Forbidden:",   # a Hub error's status on its continuation line (analyzer._hub_continuation)
    b"death signal",   # torch elastic's agent ending on a signal (observe/vocabulary.py, a python_crash row)
    # the family vocabulary's error words (observe/vocabulary.py ERROR_VOCAB) that no needle above
    # covers: stems, so one needle takes both cases (`annot`: cannot / Cannot)
    b"annot", b"an't", b"nable to", b"nsufficient", b"nhealthy", b"ould not", b"ouldn't", b"efused", b"o such", b"xceeded", b"xhausted",
    b"rash", b"lost", b"Lost", b"navailable", b"nreachable", b"erminated", b"SIGKILL", b"ignal 9", b"OOM",
    # access denials stated without an error word (observe/vocabulary.py DENIAL), bash's translated
    # signal words (observe/exceptions.py SHELL_SIGNAL)
    b"uthenticat", b"uthori", b"ermission", b"not allowed", "已杀死".encode(), "段错误".encode(),
    # nowhere to run, stated without an error word (observe/vocabulary.py CAPACITY): kube-scheduler's
    # "0/N nodes are available: ... didn't tolerate", clouds' capacity refusals
    b"nodes are available", b"RESOURCE_POOL_EXHAUSTED", b" capacity", b"trigger scale-up",
    b"curl: (",      # curl's exit report: a download cut short says no error word (vocabulary.FETCH_CUT_SHORT)
    # a pod or gang no node can take in other schedulers' words (vocabulary.py's pg_unplaceable rows)
    b"nschedulable", b"enough resource",
    b"on signal",    # a supervisor's "<process> exited on signal N" (vocabulary.py, a python_crash row)
    # NCCL's set-up failures without an error word, repeated by torch without their WARN head (vocabulary.NCCL_RESULTS)
    b"Duplicate GPU", b"interface found",
    # inference engines failing to come up without an error word (vocabulary.ENGINE_START_FAILED)
    b"used by process", b"not started", b"already in use",
    b"no progress",  # Ray Train's hung-communicator report (vocabulary.CATALOGUE)
    # the fourth round's families stated without any needle above or in the cause catalogue (passes 32-44:
    # a shortfall, a checkpoint that does not exist, torch.load's own checks, ETIME's text, the kernel's OOM
    # records, glibc / libstdc++ aborts, a rebooted node, the kubelet's words, the Hub's rate limit ...)
    b"ot enough", b"o enough", b"but only", b"not exist", b"ndianness", b"expected size", b"zip archive", b"imer expired",
    b"oom_reaper", b"bad_alloc", b"rebooted", b"alloc(): ", b"free(): ",
    b"can fulfill", b"is stuck in",   # Ray autoscaler v2 (vocabulary.py pg rows)
    b"out of range", b"Shutdown manager", b"ephemeral local storage", b"to schedule", b"rate limit", b"did not match",
    b".exc.",   # a dotted exception class whose module is `exc` (torch._dynamo.exc.Unsupported: no other needle)
    b"Conflict",   # pkg_resources' VersionConflict / ContextualVersionConflict (no other needle in their repr messages), HTTP 409
    # NCCL's back trace of a failed call (vocabulary.NCCL_BACKTRACE) by its source file: not by its ` -> N`, which every NCCL
    # INFO channel line prints (`Channel 42/0 : 2 -> 1 via P2P/CUMEM/read`: 3.3 M lines of the bench's 1 GiB log)
    b".cc:", b".cu:",
    b"StopIteration", b"StopAsyncIteration", b"GeneratorExit",   # kept as warnings when they end a traceback (exceptions.KEPT_QUIETLY)
    b"compiled against", b"compiled using",   # an extension module built for another ABI (vocabulary.ABI_MISMATCH)
    b"Warning  ", b"Warning\t",   # a Kubernetes Warning event's type column (vocabulary.K8S_WARNING_EVENT)
    # retries that ran out and a stop signal received, stated without an error word (vocabulary.RETRIES_EXHAUSTED,
    # STOP_SIGNAL_RECEIVED); a JSON record's words are the record's own, so no needle of its own
    b"etries", b"etrying", b"ttempt", b"SIGTERM", b"SIGINT", b"SIGHUP", b"SIGQUIT", b"eceived signal",
    b"re you sure",   # a loader doubting the model name it could not resolve (vocabulary.MODEL_ID_DOUBTED)
    b"Process ",      # multiprocessing's `Process <name>:` before a child's traceback (exceptions.TRACEBACK_OPENER)
    b"what():",       # libstdc++'s terminate handler's message line (exceptions.TERMINATE_WHAT)
    b"undefined symbol",   # the dynamic loader's failure without an error word (vocabulary.DLOPEN_FAILED)
    # http.client's own failures (RemoteDisconnected "Remote end closed connection without response", IncompleteRead)
    # and faulthandler's / pylifecycle's dump after a fatal error (exceptions.TRACEBACK_OPENER, vocabulary.FATAL_DUMP)
    b"Remote end closed", b"IncompleteRead", b"most recent call first", b"Extension modules: ",
    # MPI's own ends stated without an error word (vocabulary.MPI_ENDED: "MPI_ABORT was invoked on rank N", PRRTE's
    # "prterun noticed that process rank N ... exited on")
    b"MPI_ABORT", b"rocess rank",
    b"devices were found",   # nvidia-smi's "No devices were found" (vocabulary.GPU_NODE_UNUSABLE)
    b"rerun_state_machine",   # megatron-core's rerun state machine exiting on a result it does not trust (vocabulary.RERUN_MACHINE)
    b"to run any task",   # Ray Data's resource manager, whatever its spelling of "enough" (vocabulary.RAY_DATA_NO_ROOM)
    b"Losing connection", b"not responsive",   # SGLang's P/D peer and its gRPC front's scheduler, no error word (vocabulary.SGLANG_DEAD)
    b"queue.Empty", b"queue.Full",   # the queue modules' exceptions, no error word in their names (exceptions._CLASS)
    b"sufficient resources", b"Unmet demand",   # Iris's scheduler / autoscaler on a task no worker can take (vocabulary.py)
    # CPython's exit on a missing `-m` module and the chain under a tool's error (`  Caused by: `, uv's `  cause: `), no
    # error word of their own (exceptions.ERROR_SHAPE)
    b"No module named", b"cause: ", b"aused by: ",
    b"TERMINATION ARTIFACT", b"stalled after",   # MarinSkyRL's task runtime ending the run (exceptions.ERROR_SHAPE)
    # a failure named for what ran out of time or validity, with no error word: an exception class (pebble's
    # `pebble.common.types.ProcessExpired: Abnormal termination`, current set 65; a token's `ExpiredToken`) or a message
    # ("certificate has expired", torch elastic's "Timers expired"); what reaches the classifier is named or kept there
    b"xpired",
    # a stuck `kubectl get pods` row (vocabulary.KUBECTL_PENDING_LONG / KUBECTL_INIT_RESTARTED: the STATUS column padded by
    # kubectl's tabwriter, three spaces at least) and a node's disk pressure (vocabulary.DISK_PRESSURE)
    b"Pending   ", b"Init:", b"isk pressure", b"HasDiskPressure",
    b"StatusCode.", b'details = "',   # a failed gRPC call's repr body (vocabulary.GRPC_FAILED_CALL)
    b"issing key",   # a state dict and its checkpoint that do not share their keys (vocabulary.STATE_DICT_MISMATCH)
)
# Every needle the classifier relies on: the ladder's, the cause catalogue's (observe/causes.py:
# failure lines, rung 4's missing weights, norm_topk_prob, the DCP guard's rejection among
# them) and the safety net's.
NEEDLES: tuple[bytes, ...] = tuple(dict.fromkeys(LADDER_NEEDLES + tuple(n.encode() for n in C.NEEDLES) + NET_NEEDLES))
# What the scan looks for: NEEDLES less those that contain another needle (a line with the longer
# one has the shorter one too), so each pass (grep alternative, bytes.find) earns its cost.
SCAN_NEEDLES: tuple[bytes, ...] = tuple(n for n in NEEDLES if not any(m != n and m in n for m in NEEDLES))
# Level prefixes that are patterns, not needles: glog `E0213 12:07:20.086 ...` (torch's C++ and
# elastic logs, also after torch's `[rank0]:[`), torch's older `[E ProcessGroupNCCL.cpp:494]`,
# Ray's C++ `[2026-12-03 16:00:00,123 E 123 456]` and its fatal level C (RAY_CHECK: `[... C 31945
# 31971] pb_util.h:202: Check failed`, ray-project/ray src/ray/util/logging.cc).
# (torch's C++ logger writes the month unpadded, `[E915 03:58:12...]`: a three-digit month-day, as exceptions.ERROR_SHAPE reads it)
GLOG_B = re.compile(rb"[EF](?:[01]\d{3}|[1-9]\d\d) \d\d:\d\d:\d\d|\[[EF] [A-Za-z]|,\d{3} [EFC] \d")
# The pure-Python scan finds these (bytes.find is ~30x faster than a regex pass over a buffer)
# and checks GLOG_B in a small window around each hit: the months 01-12 start with 0 or 1 (`[E` also finds torch's
# unpadded `[E915 ...`).
GLOG_FIND: tuple[bytes, ...] = (b"E0", b"E1", b"F0", b"F1", b"[E", b"[F", b" E ", b" F ", b" C ")
# The scan as one extended regex (grep's prefilter). The benchmark's yardstick is the pattern as
# it was before the safety net, pinned in bench/bench_health.py.
GREP_PATTERN = ("|".join(re.escape(n.decode()) for n in SCAN_NEEDLES) +
                "|[EF]([01][0-9]{3}|[1-9][0-9]{2}) [0-9]{2}:[0-9]{2}:[0-9]{2}|\\[[EF] [A-Za-z]|,[0-9]{3} [EFC] [0-9]")

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# Prefixes our `logs` pull writes into the combined file (`[3] `, `[3/1] `) and Iris's `rank3| `.
RANK_PREFIX = re.compile(r"^(?:\[(\d+)(?:[/:.]a?\d+)?\]|rank(\d+)\s*\|)\s?")
# The name is the actor's or task's: Serve replicas name app and deployment with colons
# (`(ServeReplica:app:LLMServer pid=N, ip=A)`), Ray Data tasks their operator with its function
# (`(MapBatches(tokenize) pid=N)`).
RAY_PREFIX = re.compile(r"^\(([\w.:-]+(?:\([\w.:-]*\))?) pid=(\d+)(?:, ip=([0-9a-fA-F.:]+))?\)\s*")
# The first dedup line of a session also carries Ray's hint "(Ray deduplicates logs by default. ...)".
REPEATED = re.compile(r"\s*\[repeated (\d+)x across cluster\](?: \(Ray deduplicates logs[^)]*\)+)?\s*$")
# A multiplexer's source column before the line: `docker compose logs` (`trainer-1  | `; not a logger's level
# column, `ERROR    | `), `kubectl logs --prefix` (`[pod/<name>/<container>] `), Open MPI's --tag-output
# (`[1,3]<stderr>:`), srun --label (` 3: `; not an HTTP status, `404: `), pdsh / clush and DeepSpeed's multi-node
# runner (`<host>: `, a host name whose last dash part has a digit, or an IPv4 address: `worker-1: `,
# `10.0.87.143: `), a markdown quote (`> `), a syslog / journald header (`Mar  4 05:06:07 node-3 python3[42]: `,
# `kernel: `: an identifier without its pid is lower-case, so a CI stamp before an exception's class, `Oct 16
# 02:07:00 RuntimeError: `, is none; after the stamp journalctl -o short-iso writes, `node-3 python3[42]: `), and the
# margin Python's traceback module draws around an exception group's members (`  | ExceptionGroup: ...`: cpython
# Lib/traceback.py, 3.11+). Stripped (they may stack, before and after a container stamp) so a line reads the same
# behind them; kept whole in Line.column, so two sources' engines stay apart.
MUX_COLUMN = re.compile(
    r"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d (?:[\w.-]+ )?(?:[a-z][\w./-]*|[\w./-]+\[\d+\]): |[\w.-]+ [\w./-]+\[\d+\]: |"
    r"(?!(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|WARN|ERROR|CRITICAL|FATAL)\s)[A-Za-z0-9][\w.-]*\s+\|\s|"
    r"\[pod/[^\]\s]+\]\s|\[\d+,\d+\]<std(?:out|err)>:|\s*(?![45]\d\d:)\d{1,5}: |"
    r"(?:(?:\d{1,3}\.){3}\d{1,3}|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z]*\d[a-z0-9]*): |> |\s*\| (?=\S))+")
# The container runtime's stamp; on the node's own files (/var/log/pods, the CRI format) it is followed by
# the stream and a full / partial tag: "<RFC3339Nano> stdout F <line>" (kubernetes/kubernetes
# pkg/kubelet/kuberuntime/logs/logs.go parseCRILog @ 81b7503c1424d3c463cc212f2dfef3aad6822db6).
CONTAINER_TS = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d+)?(Z|[+-]\d\d:?\d\d)\s(?:std(?:out|err) [FP] )?")
SKYPILOT_PREFIX = re.compile(r"^\((?:head|worker\d+), rank=(\d+)(?:, (?:pid|ip)=[^,)\s]+)*\)\s?")
# vLLM's multiproc executor prefixes each worker process's output with `(VllmWorker rank=N pid=N) `
# (inside a Ray actor it follows the actor prefix); as pasted in vLLM issues ("[Bug][V1]: TP is
# broken when torch compile cache is used"):
# `(VllmWorker rank=2 pid=2307184) ERROR 02-17 14:48:01 multiproc_executor.py:374] ...`.
VLLM_WORKER_PREFIX = re.compile(r"^\(VllmWorker(?:Process)? rank=\d+ pid=\d+\)\s*")
# torchrun's per-rank tee (torch/distributed/elastic/multiprocessing/api.py: `[rank3]:`, before 2.2
# `[default3]:`), stripped so a line reads the same whether or not torchrun prefixed it; it may
# follow the Ray actor prefix.
TORCHRUN_PREFIX = re.compile(r"^\[(?:rank|default)\d+\]:\s?")
SOURCE_RANK = re.compile(r"task-(\d+)\.attempt-\d+")   # pull.py's per-task file / feed names
RUNTIME_PREFIX = r"(?:\[(?:irisrl|rl-iris|task-runtime|start_rl_iris_controller)\]\s*)?"

# Timestamps: loguru `2026-12-02 10:11:12.345`, vLLM `12-02 10:11:12`, ISO `2026-12-02T10:11:12`.
STAMP = re.compile(r"(?:(\d{4})-)?(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)")

# Hot path (most hit lines are stats): one bytes regex with a literal prefix, no decoding.
STATS_B = re.compile(rb"Avg generation throughput: ([0-9.]+) tokens/s, Running: (\d+) reqs, "
                     rb"(?:Swapped: \d+ reqs, Pending|Waiting): (\d+)")
STAMP_B = re.compile(rb"(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)")   # a year may precede: YYYY-
GEN_TPUT = re.compile(r"Avg generation throughput: ([0-9.]+)")
RUNNING = re.compile(r"Running: (\d+)")
WAITING = re.compile(r"(?:Waiting|Pending): (\d+)")  # v0 said Pending
ENGINE_ID = re.compile(r"Engine (\d+):")
AGGREGATED = re.compile(r"(\d+) Engines Aggregated:")

SKYRL_AT = re.compile(RUNTIME_PREFIX + r"MarinSkyRL now at ([0-9a-fA-F]{6,40})")
STAGING = re.compile(r"Staging train_data on this node \(rank (\d+)\s*/\s*(\d+)\)")
RAY_ALIVE = re.compile(r"Ray nodes alive: (\d+)\s*/\s*(\d+)")
HF_RETRY = re.compile(C.HF_RETRY_PATTERN)
NORM_TOPK = re.compile(C.BY_KIND["norm_topk_prob"].patterns[0])
DCP_ENGAGED = re.compile(r"VLLM_ALLOW_ROUTED_EXPERTS_DCP=1: allowing|allowing --enable-return-routed-experts with decode_context_parallel_size")
DCP_REJECTED = re.compile(C.BY_KIND["dcp_guard_rejected"].patterns[0])
# The resumed step: fully_async_trainer.py's `Resumed training from global_step N`, and
# trainer.py's load_checkpoints `Resuming from global_step: N` (the synchronous trainer logs
# no other; marin-community/MarinSkyRL skyrl-train/skyrl_train @ a559688ccdfe, NovaSky-AI/SkyRL
# trainer.py @ 00d10c03f83c).
RESUMED = re.compile(r"(?:Resumed training from global_step |Resuming from global_step: )(\d+)")
SCRATCH = re.compile(r"No checkpoint found, starting training from scratch")
CONCURRENT = re.compile(r"Concurrent trials: (\d+)")
COORDINATOR = re.compile(r"\[RolloutCoordinator\] scaled n_concurrent_trials (\d+) -> (\d+)")
WANDB_STEP = re.compile(r"WANDB_MIRROR kind=train step=(\d+) metrics=(\{.*\})")
CONSOLE_STEP = re.compile(r"\bStep (\d+): (\{.*\})")
# SkyRL's ConsoleLogger: `logger.info(f"Step {step}: \\n{pprint.pformat(data)}")`, so the
# header line ends after the colon and the dict (floats as strings) follows on its own lines
# (NovaSky-AI/SkyRL skyrl-train/skyrl_train/utils/tracking.py@08bbcca7, ConsoleLogger.log).
CONSOLE_STEP_OPEN = re.compile(r"\bStep (\d+):\s*$")
# SkyRL's Timer logs `Started: '{msg}'` and `Finished: '{msg}', time cost: {s:.2f}s`, and the
# trainers wrap the weight broadcast in Timer("sync_weights") (NovaSky-AI/SkyRL
# skyrl-train/skyrl_train/utils/utils.py@0022ee8a, class Timer).
SANDBOX_FAILED = re.compile(r"Failed to create sandbox|Sandbox resource limit reached")
WEIGHT_SYNC = re.compile(r"\b(Started|Finished): '[^']*sync_weights[^']*'")
STEP_DONE = re.compile(r"\bFinished: 'step', time cost")
CRASH = re.compile(r"Training failed:|Error executing job with overrides|PLACEMENT_FAILED |ERROR rank \d+:")
EXITED = re.compile(E.EXIT_REPORT + r"(-?\d+)")   # a supervisor's exit report and its code
FINISHED = re.compile(r"Training (?:complete|completed|finished)|Finished training")


class Line(NamedTuple):
    """One cleaned log line: its text and where it came from."""
    text: str
    rank: str | None      # from the pull's prefix, when present
    actor: str | None     # Ray actor identity "Class pid@ip", when present
    node: str | None = None        # SkyPilot node rank, when present
    stamp: float | None = None     # container runtime timestamp (seconds since the epoch)
    repeated: int = 0              # Ray dedup: this line stands for N occurrences (0: plain line)
    teed: bool = False             # torchrun's per-rank prefix was removed (a process's own line)
    column: str | None = None      # a multiplexer's source column, as printed (MUX_COLUMN)

    @property
    def stream(self) -> str:
        """The task stream the line belongs to within its file: undated lines take their
        time only from an earlier line of the same stream."""
        return f"{self.rank or ''}/{self.node or ''}"


def _container_time(m: re.Match[str]) -> float | None:
    try:
        whole = calendar.timegm((int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)),
                                 int(m.group(5)), int(m.group(6)), 0, 0, 0))
    except (ValueError, OverflowError):
        return None
    zone = m.group(7)
    if zone != "Z":   # +HH:MM east of UTC: subtract to get UTC
        sign = 1 if zone[0] == "+" else -1
        whole -= sign * (int(zone[1:3]) * 3600 + int(zone[-2:]) * 60)
    return float(whole)   # whole seconds: the same resolution as every other stamp we read


# Structured (JSON) logs: Go operators log through zap / logr (KubeRay, Kueue, JobSet, the GPU
# operator: {"level","ts","logger","msg","error",...}; go.uber.org/zap zapcore/json_encoder.go) and
# Python services through json formatters / structlog ({"levelname","message","exc_text"} /
# {"event","level","timestamp"}; Ray's RAY_LOGGING_CONFIG JSON encoding). The record is read as the
# plain line its fields spell, so every later rule applies to it unchanged.
JSON_LEVEL = ("level", "levelname", "severity", "lvl")
JSON_MESSAGE = ("msg", "message", "event", "textPayload")
JSON_TIME = ("ts", "time", "timestamp", "asctime")
JSON_LOGGER = ("logger", "name")
# Fields that are bookkeeping, not what happened (zap's caller / stacktrace frames, logr's reconcile id).
JSON_BOOKKEEPING = frozenset(("caller", "stacktrace", "reconcileID"))
JSON_OBJECT_REF = frozenset(("name", "namespace", "kind", "apiVersion", "uid"))   # logr's {"RayCluster": {"name", "namespace"}}
JSON_SKIP = JSON_BOOKKEEPING | frozenset(JSON_LEVEL + JSON_MESSAGE + JSON_TIME + JSON_LOGGER)
JSON_LEVELS = {"warn": "WARNING", "dpanic": "CRITICAL", "panic": "FATAL", "fatal": "FATAL"}   # zap: Panic panics, DPanic only in development


def _json_time(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value) if value < 1e11 else value / 1000.0   # zap: seconds; some encoders: ms
    if isinstance(value, str) and (m := CONTAINER_TS.match(value.replace(" ", "T", 1) + " ")):
        return _container_time(m)
    return None


def _first(record: dict[str, object], keys: tuple[str, ...]) -> object:
    return next((record[k] for k in keys if record.get(k) not in (None, "")), None)


def unwrap_json(text: str) -> tuple[str, float | None] | None:
    """A JSON log record as `LEVEL logger: message key: value ...` (its other scalar fields: logr
    puts the failure in them, "Pod status reason": "Evicted") and its time; None when the text is
    not one."""
    try:
        record = json.loads(text)
    except ValueError:
        return None
    message = _first(record, JSON_MESSAGE) if isinstance(record, dict) else None
    if not isinstance(message, str):
        return None
    level = str(_first(record, JSON_LEVEL) or "").strip()
    logger = _first(record, JSON_LOGGER)
    # `LEVEL logger: message` / `LEVEL: message`: a record header the exception grammar reads past
    head = " ".join(p for p in (JSON_LEVELS.get(level.lower(), level.upper()), logger if isinstance(logger, str) else "") if p)
    parts = [f"{head}: {message}" if head else message]
    parts += _json_fields(record, JSON_SKIP)
    return " ".join(parts), _json_time(_first(record, JSON_TIME))


def _json_fields(record: dict[str, object], skip: frozenset[str], prefix: str = "", depth: int = 2) -> list[str]:
    """The record's scalar fields as `key: value`; a nested object's as `key.sub: value` (an error
    object {"reason", "message"}, GCP's labels), two levels deep; `skip`'s keys left out (the
    header's at the top, bookkeeping everywhere); an object reference (name / namespace) says
    which object, not what happened."""
    out: list[str] = []
    for k, v in record.items():
        if k in skip:
            continue
        if isinstance(v, dict) and depth > 1 and not v.keys() <= JSON_OBJECT_REF:
            out += _json_fields(v, JSON_BOOKKEEPING, f"{prefix}{k}.", depth - 1)
        elif isinstance(v, (str, int, float)) and v != "":
            out.append(f"{prefix}{k}: {v}")
    return out


def _column(column: str | None, text: str) -> tuple[str | None, str]:
    """A multiplexer's source column at the text's start (MUX_COLUMN) moved onto `column`."""
    m = MUX_COLUMN.match(text)
    return (column, text) if m is None else ((column or "") + m.group(0), text[m.end():])


def clean(raw: bytes) -> Line:
    """Decode (invalid UTF-8 replaced), strip colours and the prefixes/suffixes collectors add."""
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    if "\x1b" in text:
        text = ANSI.sub("", text)
    rank = actor = node = None
    stamp: float | None = None
    repeated = 0
    m = RANK_PREFIX.match(text)
    if m:
        rank = m.group(1) or m.group(2)
        text = text[m.end():]
    column, text = _column(None, text)
    if text[:1].isdigit() and (m := CONTAINER_TS.match(text)):
        stamp = _container_time(m)
        column, text = _column(column, text[m.end():])
    if text.startswith("{") and text.endswith("}") and (record := unwrap_json(text)):
        text, stamp = record[0], stamp if stamp is not None else record[1]
    if text.startswith(("(head", "(worker")) and (m := SKYPILOT_PREFIX.match(text)):
        node = m.group(1)
        text = text[m.end():]
    ip = None
    while m := RAY_PREFIX.match(text):
        # nested: a Ray actor relays its child process's own prefixed output (SkyRL's
        # `(AsyncVLLMInferenceEngine pid=N, ip=A) (EngineCore_DP0 pid=M) ...`): the innermost process
        # printed the line, on the outer actor's node
        ip = m.group(3) or ip
        actor = f"{m.group(1)} pid={m.group(2)}@{ip or '?'}"
        text = text[m.end():]
    if text.startswith("(VllmWorker") and (m := VLLM_WORKER_PREFIX.match(text)):
        text = text[m.end():]
    teed = False
    if text.startswith(("[rank", "[default")) and (m := TORCHRUN_PREFIX.match(text)):
        text, teed = text[m.end():], True
    if "across cluster]" in text and (m := REPEATED.search(text)):
        repeated = int(m.group(1))
        text = text[:m.start()]
    return Line(text.strip("\r"), rank, actor, node, stamp, repeated, teed, column)


def source_rank(source: str) -> str | None:
    """The task index in a per-task source name (`task-3.attempt-0.log`), else None."""
    m = SOURCE_RANK.search(source.rsplit("/", 1)[-1])
    return m.group(1) if m else None


SECRETISH = re.compile(r"(?i)\b(hf_[A-Za-z0-9]{8,}|(?:sk|dtn)[-_][A-Za-z0-9]{8,})|"
                       r"((?:token|secret|password|api_key|access_key)[\w-]*\s*[=:]\s*)\S+")


def redact(text: str) -> str:
    """Mask values that look like credentials: evidence must never carry a secret."""
    return SECRETISH.sub(lambda m: "***" if m.group(1) else m.group(2) + "***", text)


def log_time(text: str, year: int) -> float | None:
    """Seconds since the epoch for the line's leading timestamp (vLLM omits the year)."""
    m = STAMP.search(text, 0, 48)
    if not m:
        return None
    y = int(m.group(1)) if m.group(1) else year
    try:
        return float(calendar.timegm((y, int(m.group(2)), int(m.group(3)), int(m.group(4)),
                                      int(m.group(5)), int(m.group(6)), 0, 0, 0)))
    except (ValueError, OverflowError):
        return None


LOGURU_HEAD = re.compile(r"^\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d)(?:\.\d+)? \| \w+\s*\| \S+ - ")
VLLM_HEAD = re.compile(r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d (\d\d:\d\d:\d\d)(?:\.\d+)? \[?[\w./-]+:\d+\] ")


def snippet(text: str, limit: int = 160) -> str:
    """Evidence text: one line, bounded, credentials masked; logger headers cut to the time."""
    text = text.strip()
    m = LOGURU_HEAD.match(text) or VLLM_HEAD.match(text)
    if m:
        text = f"{m.group(1)} {text[m.end():]}"
    text = redact(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
