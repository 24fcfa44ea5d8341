"""Python exception lines read by structure, not by enumerated sentences.

A traceback ends in `<dotted.Class>: <message>`; the class name (whatever its module path or
version: torch.OutOfMemoryError and torch.cuda.OutOfMemoryError, huggingface_hub.errors.X and
huggingface_hub.utils._errors.X) says what failed. Wrappers are unwrapped to the class inside
them: Ray's `RayTaskError(Inner): ray::Actor.method() ...`, `ActorDiedError`, torch's
`ProcessRaisedException: -- Process N terminated with the following error:`, a line that logs a
caught exception (`Training failed: RuntimeError: ...`). Hub errors carry an HTTP status that
decides the kind (401/403 gated, 404 missing, 429/5xx transient).

Sources of the class names (read for names and shapes):
- huggingface_hub 2.4.0 wheel, huggingface_hub/errors.py (GatedRepoError(RepositoryNotFoundError),
  RevisionNotFoundError, RemoteEntryNotFoundError(HfHubHTTPError, EntryNotFoundError),
  LocalEntryNotFoundError, DisabledRepoError, HFValidationError) and utils/_http.py
  hf_raise_for_status (`{status} Client Error.` then `Repository Not Found for url:` /
  `Entry Not Found for url:` / `Revision Not Found for url:` / `Cannot access gated repo for url`);
  the 0.x releases raised the same classes from huggingface_hub.utils._errors.
- safetensors 0.8.0 wheel (`strings` on _safetensors_rust): SafetensorError with
  `header too large`, `header too small`, `invalid header length`, `incomplete metadata, file
  not fully covered`; 0.4 said `HeaderTooLarge` / `InvalidHeaderDeserialization`.
- torch: torch.OutOfMemoryError / torch.cuda.OutOfMemoryError, torch.AcceleratorError (2.8+),
  torch.distributed.DistStoreError / DistNetworkError / DistBackendError (c10d/exception.h),
  _pickle.UnpicklingError from torch.load(weights_only=True) (torch/serialization.py).
- Ray: ray.exceptions (RayTaskError(Cause), ActorDiedError, RayActorError, WorkerCrashedError,
  NodeDiedError, OutOfMemoryError, OutOfDiskError).
- vLLM v1: vllm/v1/engine/exceptions.py EngineDeadError; v0 AsyncEngineDeadError.
This module is a leaf (stdlib only)."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import NamedTuple

# `<dotted.Class>(Inner)?: <message>` (or the class alone at the end of the line). The class must
# look like an exception (…Error, …Exception, …Exit, …Interrupt, …Failure) or be a known name; the
# character before it must not be a word or path character (a URL's `/FooError:` is not one).
# Python's own base `Exception` (`raise Exception("...")`: `Exception: message`) is one too, where
# a traceback prints it: at the start of the line (indented or not) or after a wrapper's `: `; not
# a word in a sentence ("Caught Exception: retrying"); or where a log record's header ends and its
# message starts (vLLM's `ERROR ... [core.py:N] Exception: ...`, loguru's `| `, logging's ` - `). A bare `Error: message` opening the line is
# how Go / Node / shell tools (docker, containerd, kubectl) report the error they exit on. A
# private class keeps its underscore (grpcio 1.85.3 grpc/_channel.py `_InactiveRpcError`).
# Where a log record's header ends and its message starts: after `: `, `] `, `| ` or ` - `.
HEADER_ENDS = (": ", "] ", "| ", " - ")
AFTER_HEADER = "|".join(f"(?<={re.escape(end)})" for end in HEADER_ENDS)
# glog's month-day and time after its level letter (`E1203 16:00`; torch's C++ logger leaves the month unpadded,
# `[E915 03:58`): every level grammar below and in vocabulary.py reads the letter before it
# (and Iris's / marin's Python logger, which prints the whole date: `W20261205 16:06:15 <thread> iris.rpc.interceptors ...`)
GLOG_DATE = r"(?:[01]\d{3}|[1-9]\d\d|20\d\d[01]\d[0-3]\d) \d\d:\d\d"
# the queue modules' two exceptions (queue / multiprocessing.queues / asyncio's QueueEmpty aside, ray.util.queue
# re-raises them: `ray.util.queue.Empty`), by their module: the bare words are no class
QUEUE_CLASS = r"_?queue\.(?:Empty|Full)"
# (and Python 3.11's exception groups, `ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)`, the builtin
# iteration ends, `StopIteration: ...` (named for no failure: KEPT_QUIETLY), and the socket module's lower-case classes,
# `socket.gaierror: [Errno -3] Temporary failure in name resolution`)
# How an exception class's name ends (causes._EXC_HINT's cheap check reads the same), and the builtin iteration ends
CLASS_SUFFIX = r"(?:Error|Exception|Exit|Interrupt|Failure|Fault|Abort)"
ITERATION_END = r"Stop(?:Async)?Iteration"
_CLASS = (r"(?:[A-Za-z_]\w*\.)*(?:_?[A-Z]\w*" + CLASS_SUFFIX + r"|OutOfResources|CudaError|"
          r"(?:Base)?ExceptionGroup|" + ITERATION_END + r"|socket\.(?:gaierror|herror)|(?:[A-Za-z_]\w*\.)*" + QUEUE_CLASS + ")|"
          # a dotted class whose own name starts lower-case (pybind11 bindings: `nixl._bindings.nixlNotFoundError`)
          r"(?:[A-Za-z_]\w*\.)+[a-z]\w*[a-z](?:Error|Exception)|"
          # a dotted class named for a timeout (httpx / httpcore `PoolTimeout`, `ReadTimeout`, requests' `ConnectTimeout`),
          # also printed with no message (`httpx.PoolTimeout` alone, as current set 48 prints it)
          r"(?:[A-Za-z_]\w*\.)+[A-Z]\w*(?:Timeout|TimedOut)|"
          # a dotted class in a module named for its exceptions, whatever the class is called (msgpack's
          # `msgpack.exceptions.BufferFull` / `OutOfData`, printed with no message: current set 73)
          r"(?:[A-Za-z_]\w*\.)*(?:exceptions?|errors?|exc)\.[A-Z]\w*|"
          rf"(?:^|(?<=\s\s)|{AFTER_HEADER})Exception|^Error(?=: \w)")
EXC = re.compile(rf"(?<![\w./-])({_CLASS})(?:\((\w+)\))?(?::\s(.*)|:?\s*$)")
# Any other class is exception-shaped by its grammar alone: a dotted CamelCase name at the start of
# the line followed by `: ` (`requests.exceptions.ReadTimeout: ...`, `urllib3.exceptions.ProtocolError`
# is caught above), or an undotted one whose name ends like a timeout (`ReadTimeout: ...`): the
# final line of a traceback whatever the class is called.
# Whatever prefix a reporter indents it with: pytest's failure report `E   <Class>: msg` (pytest
# _pytest/_code/code.py ReprEntry: each exconly line prefixed "E   "), a `>` / `|` quote or a tab;
# after pytest's `E` any CamelCase class is the exception (dask's distributed.scheduler.KilledWorker).
# Or where a log record's header ends and its message starts (`... - ERROR - `, `] `, `| `, `: `),
# as for `Exception` above: a logger that prints the exception it caught.
AT_MESSAGE = rf"(?:^\s*(?:[>|]\s*)*|{AFTER_HEADER})"
DOTTED_EXC = re.compile(AT_MESSAGE + r"((?:[a-z_]\w*\.)+_?[A-Z][A-Za-z0-9_]*|[A-Z]\w*(?:Timeout|TimedOut)): (.*)|"
                        r"^E {2,}((?:[a-z_]\w*\.)*[A-Z][a-z0-9]+[A-Z][A-Za-z0-9_]*): (.*)")
RAY_TASK_ERROR = re.compile(r"RayTaskError\((\w+)\)")
# A class in brackets inside a message: a wrapper that names the exception it caught by its class
# (SkyPilot's job status "Unexpected error occurred: [AssertionError] ...", loguru / structlog
# `[ValueError] msg` renderings): the exception is that class, its message what follows.
BRACKETED_EXC = re.compile(r"\[((?:[A-Za-z_]\w*\.)*_?[A-Z]\w*(?:Error|Exception))\]:?\s+(\S.*)")


# torch's re-raise of an exception a DataLoader worker, a DataParallel replica or the pin-memory thread raised
# (torch/_utils.py ExceptionWrapper.reraise: "Caught {exc_type.__name__} {where}.", re-raised as that class, or as
# RuntimeError when the class cannot be built from a message, e.g. huggingface_hub's HfHubHTTPError): the class it
# names is the exception (current set 71)
CAUGHT = re.compile(r"Caught ((?:[A-Za-z_]\w*\.)*_?[A-Z]\w*) (?:in|on) ")


class Exc(NamedTuple):
    """One exception line: the class (innermost when wrapped), its dotted name, the message."""
    name: str        # short class name, e.g. GatedRepoError
    dotted: str      # as printed, e.g. huggingface_hub.errors.GatedRepoError
    message: str


def _short(dotted: str) -> str:
    return dotted.rsplit(".", 1)[-1]


def _alone(before: str) -> bool:
    """Nothing but a log record's header (or nothing) before a class printed with no message."""
    return not before.strip() or before.endswith(HEADER_ENDS)


def _opens(m: re.Match[str]) -> bool:
    """A message-less class that ends its line with a colon opens the exception it names (its
    message on the lines below): "Training failed at step 12 with WorkerCrashedError:" (SkyRL
    tracking.py log_exception)."""
    return m.group(0).rstrip().endswith(":")


def parse(text: str) -> Exc | None:
    """The exception a cleaned line states, innermost class first; None if it states none.
    `Training failed: RuntimeError: x` and `ERROR ... ValueError: x` are read past their head;
    from the first class with a message, inward while the message starts with another class
    (chained re-raises print `Outer: Inner: message`); a Ray wrapper names its cause in
    parentheses. A class with no message counts only alone on its line (`KeyboardInterrupt`)
    or after a log record's header, not a name mentioned at the end of a sentence ("will retry
    on ReadTimeoutError"), unless a colon ends the line: the message follows below (`_opens`)."""
    found = None
    m = next((c for c in EXC.finditer(text) if c.group(3) is not None or _alone(text[:c.start()]) or _opens(c)), None)
    while m is not None:
        found = m
        if m.group(2) or m.group(3) is None:   # RayTaskError(Inner) names its cause; no message
            break
        m = EXC.match(text, m.start(3))        # the message starts with another class: go inside
    if found is None:
        d = DOTTED_EXC.search(text)
        if d is None:
            b = BRACKETED_EXC.search(text)
            return Exc(_short(b.group(1)), b.group(1), b.group(2).strip()) if b is not None else None
        dotted, message = (d.group(1), d.group(2)) if d.group(1) else (d.group(3), d.group(4))
        return Exc(_short(dotted), dotted, message.strip())
    dotted, inner, message = found.group(1), found.group(2), (found.group(3) or "").strip()
    if not inner and (caught := CAUGHT.match(message)) is not None:
        inner = caught.group(1)    # torch's re-raise names the class a worker / replica raised
        return Exc(_short(inner), f"{dotted}({inner})", message)
    if inner:
        # Ray's message repeats the inner exception's line after the ray::Actor frame header.
        tail = EXC.search(message)
        if tail is not None and _short(tail.group(1)) == inner and tail.group(3):
            message = tail.group(3).strip()
        return Exc(inner, f"{dotted}({inner})", message)
    return Exc(_short(dotted), dotted, message)


# Class name -> kind (the kind names of the cause catalogue, observe/causes.py). A class that
# needs its message to decide (OSError, RuntimeError, HTTPError, ...) is not here: the
# catalogue's message families and `hub_status_kind` read those.
CLASS_KINDS: dict[str, str] = {
    "GatedRepoError": "hf_gated",
    "RepositoryNotFoundError": "hf_repo_not_found", "RevisionNotFoundError": "hf_repo_not_found",
    "DisabledRepoError": "hf_repo_not_found", "HFValidationError": "hf_repo_not_found",
    "EntryNotFoundError": "hf_weights_missing", "RemoteEntryNotFoundError": "hf_weights_missing",
    "LocalEntryNotFoundError": "hf_http_error", "OfflineModeIsEnabled": "hf_http_error",
    # huggingface_hub >= 2 (errors.py @ 2.4.0): a revision that cannot be resolved because the Hub could not be
    # reached and the cache has no ref for it (hf_api.py resolve_revision), a cache-only tree listing that is not
    # there (_snapshot_download.py): the offline reading, like LocalEntryNotFoundError; a Storage Bucket's 404
    "RevisionResolutionError": "hf_http_error", "CachedRepoTreeNotFoundError": "hf_http_error",
    "BucketNotFoundError": "hf_repo_not_found",
    "SafetensorError": "checkpoint_corrupt", "SafetensorsParsingError": "checkpoint_corrupt", "BadZipFile": "checkpoint_corrupt",
    # TensorFlow errors_impl.DataLossError ("unrecoverable data loss or corruption": a checkpoint's
    # checksum, a truncated record); ModelScope hub errors.FileIntegrityError (a download's sha256
    # differs: the body was cut or damaged, like huggingface_hub's "Consistency check failed")
    "DataLossError": "checkpoint_corrupt", "FileIntegrityError": "hf_incomplete_download",
    "UnpicklingError": "checkpoint_corrupt",
    "OutOfMemoryError": "cuda_oom",            # torch; Ray's is caught by its message first
    "AcceleratorError": "cuda_error", "CudaError": "cuda_error", "CUDAError": "cuda_error",
    # pynvml's classes for an NVML status that says the GPU or its driver is broken (nvidia-ml-py 13.615.71
    # pynvml.py _extractNVMLErrorsAsClasses: NVMLError_<CamelName>); not a query the device does not support
    "NVMLError_DriverNotLoaded": "cuda_error", "NVMLError_LibRmVersionMismatch": "cuda_error",
    "NVMLError_ResetRequired": "cuda_error", "NVMLError_LibraryNotFound": "cuda_error",
    "NVMLError_CorruptedInforom": "cuda_error", "NVMLError_GpuIsLost": "cuda_error", "NVMLError_Uninitialized": "cuda_error",
    # and DCGM's Python bindings' classes for the same states (NVIDIA/DCGM @ 72fa3fea testing/python3/dcgm_structs.py
    # _extractDCGMErrorsAsClasses: DCGMError_<CamelName> of DCGM_ST_GPU_IS_LOST, DCGM_ST_RESET_REQUIRED, DCGM_ST_GPU_IN_BAD_STATE)
    "DCGMError_GpuIsLost": "cuda_error", "DCGMError_ResetRequired": "cuda_error", "DCGMError_GpuInBadState": "cuda_error",
    "DistStoreError": "dist_timeout", "DistNetworkError": "dist_timeout",
    "RendezvousTimeoutError": "dist_timeout", "RendezvousConnectionError": "dist_timeout",
    # torch/distributed/elastic/rendezvous/api.py: the rendezvous was closed (another agent gave up or
    # the job is ending) or its shared state could not be read: the gang never formed
    "RendezvousClosedError": "dist_timeout", "RendezvousStateError": "dist_timeout",
    # ... and their base, raised as itself by the etcd / c10d backends ("Unexpected state of
    # EtcdRendezvousHandler, worker needs to die."): a rendezvous that failed
    "RendezvousError": "dist_timeout",
    "DistBackendError": "nccl_error", "NcclError": "nccl_error",
    # A Hub HTTP error whose status is on the next line of its message (hf_raise_for_status puts
    # "403 Forbidden" / "429 Too Many Requests" after the request id): the status decides when
    # it is on the line (hub_status_kind runs first), else the transient reading.
    "HfHubHTTPError": "hf_http_error",
    # huggingface_hub errors.py FileMetadataError: the file's HEAD answer lacks the metadata a download needs
    # ("Distant resource does not have an ETag": a proxy or mirror in the way)
    "FileMetadataError": "hf_http_error",
    "ActorDiedError": "ray_actor_died", "RayActorError": "ray_actor_died", "ActorUnavailableError": "ray_actor_died",
    "WorkerCrashedError": "ray_worker_died", "NodeDiedError": "ray_node_dead",
    # ray.exceptions: the task's raylet died under it; no node can ever hold the task / actor
    # (TaskUnschedulableError / ActorUnschedulableError); Ray 1.x's memory monitor
    "LocalRayletDiedError": "ray_node_dead",
    "TaskUnschedulableError": "pg_unplaceable", "ActorUnschedulableError": "pg_unplaceable",
    "RayOutOfMemoryError": "ray_oom_kill",
    "OutOfDiskError": "disk_full",
    "EngineDeadError": "engine_dead", "AsyncEngineDeadError": "engine_dead",
    "ConfigCompositionException": "hydra_error", "OverrideParseException": "hydra_error",
    # omegaconf 2.3.1 errors.py (what Hydra raises for a key or value the config rejects) and
    # hydra-core 1.3.2 errors.py; omegaconf's ValidationError by its dotted name (DOTTED_KINDS)
    "ConfigKeyError": "hydra_error", "ConfigAttributeError": "hydra_error", "ConfigTypeError": "hydra_error",
    "ConfigValueError": "hydra_error", "ConfigIndexError": "hydra_error", "MissingMandatoryValue": "hydra_error",
    "KeyValidationError": "hydra_error", "InterpolationResolutionError": "hydra_error",
    "InterpolationKeyError": "hydra_error", "UnsupportedInterpolationType": "hydra_error",
    "InterpolationToMissingValueError": "hydra_error", "ReadonlyConfigError": "hydra_error",
    "GrammarParseError": "hydra_error", "MissingConfigException": "hydra_error",
    # ---- pass 8: classes read from the libraries' own exception modules ----------------------
    # huggingface_hub 2.4.0 wheel, errors.py: no token where one is required (`token=True`), the
    # gated reading; a cached snapshot missing files while the Hub cannot be reached
    # (IncompleteSnapshotError(LocalEntryNotFoundError)) is the transient "cannot reach" reading
    # like its parent; a Xet storage download that failed; a DDUF archive that cannot be read.
    "LocalTokenNotFoundError": "hf_gated", "IncompleteSnapshotError": "hf_http_error",
    "XetDownloadError": "hf_http_error", "DDUFCorruptedFileError": "checkpoint_corrupt",
    # datasets 5.2.0 wheel, datasets/exceptions.py: DatasetNotFoundError ("Dataset '%s' doesn't exist
    # on the Hub or cannot be accessed") is the repo reading; a downloaded file whose checksum or
    # count does not match what was expected is a download cut short (NonMatchingChecksumError,
    # ExpectedMoreDownloadedFilesError).
    "DatasetNotFoundError": "hf_repo_not_found",
    "NonMatchingChecksumError": "hf_incomplete_download", "ExpectedMoreDownloadedFilesError": "hf_incomplete_download",
    # datasets 5.2 utils/info_utils.py: the split sizes of what was downloaded differ from the recorded ones
    "NonMatchingSplitsSizesError": "hf_incomplete_download",
    # A download cut short (corpus README, Labelling decisions): urllib3 2.8.0 exceptions.py
    # IncompleteRead ("IncompleteRead(%i bytes read, %i more expected)") and InvalidChunkLength;
    # requests 2.34.2 exceptions.py ChunkedEncodingError ("The server declared chunked encoding but
    # sent an invalid chunk") and ContentDecodingError (a gzip body that ended early); aiohttp
    # 3.14.5 client_exceptions.py ClientPayloadError ("Response payload is not completed"); Python's
    # http.client.IncompleteRead. ProtocolError / RemoteProtocolError: by message (CLASS_MEANING).
    "IncompleteRead": "hf_incomplete_download", "InvalidChunkLength": "hf_incomplete_download",
    "ChunkedEncodingError": "hf_incomplete_download", "ContentDecodingError": "hf_incomplete_download",
    "ClientPayloadError": "hf_incomplete_download",
    # (and its parser's own ContentLengthError, http_exceptions.py: "Not enough data to satisfy content length header")
    "ContentLengthError": "hf_incomplete_download",
    "ProtocolError": "hf_incomplete_download", "RemoteProtocolError": "hf_incomplete_download",
    # SkyPilot (sky/exceptions.py ResourcesUnavailableError: no cloud / zone / catalogue entry can hold the
    # task's resources): nowhere to run
    "ResourcesUnavailableError": "pg_unplaceable",
    # ray 2.60.0 wheel, python/ray/exceptions.py: the object's owner worker died (OwnerDiedError
    # "... because its owner has died"); every copy lost "due to node failure"
    # (ObjectLostError / ObjectReconstructionFailedError: by message, CLASS_MEANING); the actor's
    # placement could not be made (ActorPlacementGroupRemoved / TaskPlacementGroupRemoved: "The
    # placement group corresponding to this task has been removed" is not a capacity verdict: not
    # here). Deliberately absent (python_crash by is_crash_class, the catch-all): RaySystemError,
    # RuntimeEnvSetupError, GetTimeoutError, ObjectStoreFullError, ObjectFetchTimedOutError,
    # AuthenticationError, PendingCallsLimitExceeded, RayChannelError.
    # Also python_crash by the catch-all, read and left out on purpose: torch's DistError (c10d
    # exception.h's base), torch.distributed.elastic ChildFailedError, torch._dynamo / _inductor
    # errors (Unsupported, BackendCompilerFailed, InductorError), triton's OutOfResources /
    # CompilationError (a kernel that does not fit or compile, not a runtime CUDA failure),
    # botocore 1.44.8 NoCredentialsError / ClientError (an S3 call, not a model download), grpcio
    # 1.85.3 _InactiveRpcError / AioRpcError.
    "OwnerDiedError": "ray_worker_died",
    # Ray Compiled Graphs' channel read / write that timed out (ray 2.60 exceptions.py RayChannelTimeoutError, a
    # RayChannelError and TimeoutError: "Timed out waiting for object available to read", "Cannot read all channels
    # within N seconds"): a distributed wait between actors, the rendezvous family; its other channel errors stay the catch-all
    "RayChannelTimeoutError": "dist_timeout",
    # Ray Train v2 (ray 2.60.0 wheel, python/ray/train/v2/_internal/exceptions.py): the cluster can never
    # hold the worker group (InsufficientClusterResourcesError); the group never got its workers in time
    # (WorkerGroupStartupTimeoutError: "a node goes down and only 3 GPUs are available"); a worker that
    # stopped answering its health check is marked dead (WorkerHealthCheckTimeoutError /
    # WorkerHealthCheckFailedError); the controller's own collective (broadcast_from_rank_zero, over
    # Ray actors, not NCCL) timed out waiting for ranks (CollectiveTimeoutError and its
    # BroadcastCollectiveTimeoutError subclass)
    "InsufficientClusterResourcesError": "pg_unplaceable", "WorkerGroupStartupTimeoutError": "pg_timeout",
    # ... its worker actors failing to start (WorkerGroupStartupFailedError "At least one of the worker actors
    # failed to initialize"), its checkpoint manager unable to restore (CheckpointManagerInitializationError)
    "WorkerGroupStartupFailedError": "ray_actor_died", "CheckpointManagerInitializationError": "checkpoint_corrupt",
    "WorkerHealthCheckTimeoutError": "ray_worker_died", "WorkerHealthCheckFailedError": "ray_worker_died",
    "CollectiveTimeoutError": "dist_timeout", "BroadcastCollectiveTimeoutError": "dist_timeout",
    # megatron-core 0.16.1 dist_checkpointing/core.py CheckpointingException: what its loader raises for a
    # checkpoint it cannot use ("... is not a distributed checkpoint", "Common file ... does not exist")
    "CheckpointingException": "checkpoint_corrupt",
    # docker-py 7.2.0 errors.py ImageNotFound: the daemon has no such image and could not pull it (a 404 on
    # /images/... or on containers/create)
    "ImageNotFound": "image_pull",
    "ObjectLostError": "ray_node_dead", "ObjectReconstructionFailedError": "ray_node_dead",
}
# Generic Hub HTTP errors: the status on the line decides before the class.
STATUS_DECIDES = frozenset({"HfHubHTTPError"})
# Ray's own OutOfMemoryError is the memory monitor's kill, not a GPU OOM.
DOTTED_KINDS: dict[str, str] = {"ray.exceptions.OutOfMemoryError": "ray_oom_kill", "omegaconf.errors.ValidationError": "hydra_error"}
# Classes that say nothing by themselves: a line whose only exception is one of these (and no
# message family names it) is not a crash of its own (a warning-level report of a retry etc.).
NOT_A_CRASH = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit", "SystemExit"})
# ... of which these two are still an exception the program did not catch when they end its traceback (a generator's
# StopIteration escaping a loop, an anyio cancel scope's GeneratorExit in an exception group): kept by the safety net as
# a warning, never a death (a SystemExit says its own status).
KEPT_QUIETLY = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit"})
# A validator refusing its input (pydantic's ValidationError, vLLM's VLLMValidationError for a request's sampling
# parameters, huggingface_hub's StrictDataclass*ValidationError): the caller's bad value, a python_crash whatever the
# message mentions, unless its class is mapped (CLASS_KINDS: HFValidationError is a repo id the Hub cannot have).
# Not a client's check of what a server sent back (s3transfer 0.19.3 download.py "S3ValidationError: Response range
# start ... does not match requested start ...": the transfer's family reads it).
VALIDATED_RESPONSE = re.compile(r"(?i)\bresponse\b")
# (and a parser refusing an environment variable's value, whatever library the variable is named for: torch 2.11 c10d's
# "RuntimeError: Invalid value for environment variable: TORCH_NCCL_HIGH_PRIORITY", current set 45, is the setting's
# value, not NCCL)
REFUSED_SETTING = re.compile(r"(?i)\b(?:invalid|bad|unrecognized|unknown|unsupported|illegal) value (?:\S+ )?(?:for|of) "
                             r"(?:the )?env(?:ironment)?(?: variable)?\b")


def refused_input(exc: Exc) -> bool:
    """The exception is a validator refusing the caller's value: a `*ValidationError` that checked no response, or a
    refused environment variable."""
    return (exc.name.endswith("ValidationError") and not VALIDATED_RESPONSE.search(exc.message)) \
        or bool(REFUSED_SETTING.search(exc.message))


# The Hub's request id ("(Request ID: Root=1-...)", hf_raise_for_status) marks a Hub error pasted
# without its URL.
# A Hub URL on any endpoint (HF_ENDPOINT may be a mirror or a loopback server): its path shapes
# (huggingface_hub hf_api.py: /api/{repo_type}s/{id}/..., /api/repos/create|delete|move; the `kernels` library's
# kernel repos, /api/kernels/{id}/revision/{rev}: kernels 0.19.1, current set 42). (And vLLM's report of a failed repo
# file listing, which names no URL.)
VLLM_FILE_LIST = "Error retrieving file list"   # vLLM 0.34 transformers_utils/repo_utils.py list_repo_files
# (and the Hub's git LFS API, where an upload's large files go: huggingface_hub 2.4 lfs.py posts to
# `{endpoint}/{repo_id}.git/info/lfs/objects/batch`, current set 60)
HUB_HOST = re.compile(r"(?:huggingface\.co|hf\.co)\b|HfHubHTTPError|huggingface_hub|\(Request ID: Root=|" + VLLM_FILE_LIST + "|"
                      r"/resolve/[^/\s]+/|/api/(?:models|datasets|spaces|kernels|repos)/|/api/whoami(?:-v2)?\b|\.git/info/lfs/")
# requests' "401 Client Error: Unauthorized", httpx's "Client error '401 Unauthorized'", the
# Hub's backoff warning "HTTP Error 503 thrown".
# Case-insensitive: issues paste lower-cased errors (`hfhubhttperror: 500 server error: ...`). A
# non-Python client (Rust hf-hub, ureq) prints `Status(403, Response[status: 403, ...])`; aiohttp
# 3.14.5 client_exceptions.py ClientResponseError prints `{status}, message={reason!r}, url={url!r}`.
HTTP_STATUS = re.compile(r"(?i)\b([45]\d\d)(?: Client Error| Server Error| thrown|, message=|:? (?:Unauthorized|Forbidden|Not Found|"
                         r"Too Many Requests|Bad Gateway|Service Unavailable|Gateway Time-?out|Internal Server Error|"
                         r"Unavailable For Legal Reasons|(?:Requested )?Range Not Satisfiable|"
                         # the other 4xx reason phrases of RFC 9110 (an upload or a repo operation the Hub refused)
                         r"Bad Request|Payment Required|Method Not Allowed|Not Acceptable|Request Time-?out|Conflict|Gone|"
                         r"Length Required|Precondition Failed|(?:Request Entity|Payload|Content) Too Large|URI Too Long|"
                         r"Unsupported Media Type|Expectation Failed|Misdirected Request|Unprocessable (?:Entity|Content)|Locked|"
                         r"Failed Dependency|Too Early|Upgrade Required|Precondition Required|Request Header Fields Too Large))|"
                         r"\bStatus\(([45]\d\d),")
# A 404 on the repo as a whole, not on one named file: the repo API (`/api/models/org/name`, at a
# revision or its whole tree: `/revision/main`, `/tree/main?recursive=True`), or the file every load
# reads first (config / tokenizer_config at the repo's root): the repo id or revision is what is
# wrong. A 404 on a path inside the repo (`/tree/main/<folder>`, model.safetensors, a shard) is
# hf_weights_missing. (Named REPO_URL for its paths; snapshot_download's own sentence counts too.)
REPO_URL = re.compile(r"/api/(?:models|datasets|spaces)/[^/\s?]+/[^/\s'\"?]+?(?:/(?:revision|tree)/[^/\s'\"?]+?)?/?(?:[?'\"\s]|\.(?:\s|$)|$)|"
                      r"/[^/\s]+/[^/\s]+/resolve/[^/\s]+/(?:config|tokenizer_config|adapter_config)\.json\b|"
                      r"(?:huggingface\.co|hf\.co)/[^/\s]+/resolve/[^/\s]+/(?:config|tokenizer_config)\.json\b|"
                      # snapshot_download's own words when its first call, the repo API, failed (huggingface_hub
                      # _snapshot_download.py: "... as remote repo cannot be accessed in `snapshot_download` (%s)")
                      r"remote repo cannot be accessed in .snapshot_download|"
                      # ModelScope's hub API (modelscope/modelscope hub/api.py list_model_revisions / get_model:
                      # `/api/v1/models/<owner>/<name>/revisions`): the model id itself
                      r"/api/v1/models/(?:[^/\s?]+/)?[^/\s'\"?]+/revisions\b")


# A 404 whose message says the repo id itself is wrong, not a file in it (hf_raise_for_status's
# "Repository Not Found for url", the Hub's "Invalid model identifier" / "not a valid model identifier").
# (vLLM 0.34 transformers_utils/repo_utils.py list_repo_files: "Error retrieving file list: 404 ...":
# listing the repo's files answers for the repo as a whole)
REPO_WORDS = re.compile(r"(?i)repository not found|(?:invalid|not a valid) model identifier|" + VLLM_FILE_LIST)


def hub_status_kind(text: str) -> str | None:
    """The kind an HTTP status from the HF Hub decides (hf_raise_for_status and requests'
    `{status} Client Error: {reason} for url: {url}`): 401/403 gated, 404 on the repo itself
    (`/api/models/org/name`) repo_not_found, other 404s a missing file, 429/5xx transient, any
    other 4xx the Hub refusing the request (hf_http_error).
    From another model host or mirror (DOWNLOAD_URL): 404 a missing file, 429/5xx transient."""
    if not is_download(text):     # the Hub's inference services included: an application's API
        return None
    hub = bool(HUB_HOST.search(text))
    m = HTTP_STATUS.search(text)
    if m is None:
        return None
    status = int(m.group(1) or m.group(2))
    if not hub:   # another model host or mirror (DOWNLOAD_URL): its file is missing, or transient
        if status == 404:     # (a model hub's repo API path names the model itself: ModelScope's, REPO_URL)
            return "hf_repo_not_found" if REPO_URL.search(text) else "hf_weights_missing"
        if status in (401, 403) and WEIGHT_FILE.search(text):
            return "hf_gated"     # a weight file's CDN refusing it (the Hub's LFS redirect target, current set 51)
        return "hf_http_error" if status == 429 or status >= 500 else None
    if status in (401, 403, 451):     # 451: refused for legal reasons, an access refusal like 403
        return "hf_gated"
    if status == 416:       # a resumed (ranged) download asked past the file's end: it was cut short
        return "hf_incomplete_download"
    if status == 404:
        return "hf_repo_not_found" if REPO_URL.search(text) or REPO_WORDS.search(text) else "hf_weights_missing"
    # 429 / 5xx transient; any other refusal of the Hub's API (409 Conflict, 412, 413 on an upload, 400)
    return "hf_http_error"


# hf_raise_for_status's continuation line ("\n\n{status} Forbidden: {server message}"): the
# status of an HfHubHTTPError whose first line carried only its request id (huggingface_hub 1.x
# utils/_http.py; seen in the device run, huggingface_hub 1.33).
HUB_CONTINUATION = re.compile(r"^\s*(40[134]|429|5\d\d) (?:Forbidden|Unauthorized|Not Found|Too Many Requests|"
                              r"Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b")
HUB_CONTINUATION_LINES = 4      # hit lines a Hub error waits for its status line


def hub_continuation_kind(text: str) -> str | None:
    """The kind the status on a Hub error's continuation line decides (403 -> hf_gated ...)."""
    m = HUB_CONTINUATION.match(text)
    if m is None:
        return None
    status = int(m.group(1))
    return ("hf_gated" if status in (401, 403) else "hf_weights_missing" if status == 404 else "hf_http_error")


# A build / configuration statement: the library lacks a backend it was asked for. Not the runtime
# family its words name: torch/distributed/distributed_c10d.py ("Distributed package doesn't have
# NCCL built in", "... MPI built in"), torch/csrc/distributed/c10d/TCPStore.cpp ("use_libuv was
# requested but PyTorch was built without libuv support", a DistStoreError), torch/cuda/__init__.py
# ("Torch not compiled with CUDA enabled"). The process ends on it: python_crash by its class.
BUILD_CONFIG = re.compile(r"(?i)\bbuilt without\b|(?:doesn't|does not|don't) have \w+ built in|"
                          r"not (?:built|compiled) with|compiled without|is not available in this build")
# A class that names a family only when its message carries that family's meaning (the precedence
# rule: the class is the wrapper, the message is the event). torch's c10d DistStoreError
# (torch/csrc/distributed/c10d/exception.h; raised by TCPStore.cpp and torch/distributed/rendezvous.py)
# means a store / rendezvous that timed out or lost its peer. (Its DistNetworkError is raised only by
# the store's sockets, socket.cpp / TCPStoreLibUvBackend.cpp: the class alone names the family, even
# when a renderer cut its message short, as rich's handler does at 80 columns: current set 77.)
DIST_MEANING = (r"(?i:time[ds]? ?out|timeout|clients? joined|connect|refused|reset by peer|broken pipe|socket|closed|"
                r"unreachable|no route|address already in use|eaddrinuse|\bwait|barrier|rendezvous|\bpeer\b|\brecv|\bsend|"
                r"network|hostname|resolve|bytes|ping failed)")
# urllib3 2.8.0 response.py raises ProtocolError("Connection broken: IncompleteRead(...)") and
# ProtocolError("Response ended prematurely") for a body cut short, but also for a connection
# that never answered ("Connection aborted.", RemoteDisconnected): only the first are cut short.
# httpx 0.29.0 (h11) RemoteProtocolError "peer closed connection without sending complete message
# body (incomplete chunked read)" is the same; its "Server disconnected without sending a
# response." is the transport reading (timeout_kind).
# (not asyncio's stream protocol error, asyncio.exceptions.IncompleteReadError: a peer's short message, no download)
CUT_SHORT = r"(?i:connection broken|ended prematurely|(?<!asyncio\.exceptions\.)(?<!asyncio\.)IncompleteRead|InvalidChunkLength|without sending complete message body|incomplete chunked)"
# ray 2.60.0 exceptions.py ObjectLostError: "All copies of X have been lost due to node failure".
NODE_LOST = r"(?i:node failure|node (?:\S+ )?(?:died|is dead|was dead))"
# A SafetensorError that is no unreadable file: a tensor missing from a file that reads, or an argument the reader refused
# (safetensors 0.8 "device gpu:0 is invalid", as current set 50 prints it for load_file(device="gpu:0"); a slice past a
# tensor's end, "Error during slicing [8:12] with shape [4]: index 8 out of bounds ...", current set 66)
SAFETENSORS_NOT_FILE = r"does not contain tensor|\b(?:device|framework) \S+ is invalid\b|\bError during slicing\b"
CLASS_MEANING: dict[str, re.Pattern[str]] = {"DistStoreError": re.compile(DIST_MEANING),
                                             # a missing tensor is missing weights, not a corrupt file (nor a refused argument)
                                             "SafetensorError": re.compile(rf"^(?!.*(?:{SAFETENSORS_NOT_FILE}))"),
                                             "ProtocolError": re.compile(CUT_SHORT), "RemoteProtocolError": re.compile(CUT_SHORT),
                                             "ObjectLostError": re.compile(NODE_LOST),
                                             # megatron-core's CheckpointingException is raised for a checkpoint it cannot
                                             # read (0.8-0.20 dist_checkpointing: "... is not a distributed checkpoint", "Object
                                             # shard %s not found", "Checkpoint directory %s does not exist") and for a state
                                             # dict that does not fit the checkpoint or a save with nowhere to go ("Global
                                             # shape mismatch", "Duplicate ShardedObject keys", "Checkpoint destination
                                             # directory (%s) is not empty"): only the first is the checkpoint's
                                             # (and a checkpoint whose metadata names a backend / version this loader has no
                                             # strategy for, strategies/base.py get_default_strategy "Cannot find a default
                                             # strategy for: ('load_sharded', 'zarr', 1)", current set 80; not a save's, not its
                                             # strict-load report of keys the model and the checkpoint do not share,
                                             # validation.py "Unexpected keys (not found in the checkpoint) ...": a mismatch)
                                             "CheckpointingException": re.compile(r"^(?!.*\bdestination\b)(?!.*\b(?:Unexpected|Missing) keys\b)(?=.*(?:\bnot found\b|\bdoes not exist\b|"
                                                                                  r"\bis not an? (?:\w+ )?checkpoint\b|corrupt|truncated|"
                                                                                  r"Cannot find a default strategy for: \('load))"),
                                             "ObjectReconstructionFailedError": re.compile(NODE_LOST),
                                             # AWS ECS's stop reason reuses the name ("OutOfMemoryError: Container
                                             # killed due to memory usage"): the container's memory, not the GPU's
                                             "OutOfMemoryError": re.compile(r"^(?!.*(?i:container killed))")}


def class_kind(exc: Exc) -> str | None:
    """The kind the class name alone decides, whatever its module path; None when it does not
    (a class whose message must carry its family's meaning and does not, a build statement).
    A class that decides nothing by itself is read by the errno it wraps (errno_kind) or, for
    an HTTP status error with no URL on the line, by its status (status_class_kind)."""
    if exc.dotted in DOTTED_KINDS:
        return DOTTED_KINDS[exc.dotted]
    kind = CLASS_KINDS.get(exc.name)
    if kind is None:
        return errno_kind(exc.message) or status_class_kind(exc)
    if BUILD_CONFIG.search(exc.message):
        return None
    meaning = CLASS_MEANING.get(exc.name)
    return kind if meaning is None or meaning.search(exc.message) else None


# A timeout class (ReadTimeout, ConnectTimeout, TimeoutError, socket.timeout's TimedOut...) is
# the timeout family of the library it talks to: the Hub (its host or client) -> hf_http_error;
# torch.distributed's store / rendezvous / gloo / a c10d connect -> dist_timeout.
TIMEOUT_CLASS = re.compile(r"Time(?:out|dOut)|TimeoutError")
# The HTTP clients' transport failures (a connection refused / reset / dropped, a name that does
# not resolve, retries exhausted): requests 2.34.2 exceptions.py (ConnectionError, ProxyError,
# SSLError, RetryError), urllib3 2.8.0 (MaxRetryError, NewConnectionError, NameResolutionError),
# httpx 0.29.0 _exceptions.py (ConnectError, ReadError, NetworkError, TransportError), aiohttp 3.14.5
# client_exceptions.py (ClientConnectorError, ClientConnectionError, ServerDisconnectedError,
# ClientOSError), http.client.RemoteDisconnected, urllib.error.URLError (`<urlopen error [Errno
# 111] Connection refused>`), socket.gaierror, the builtin Connection*Error.
# On a download (the Hub, a mirror, a model file URL) they are hf_http_error (corpus README,
# Labelling decisions); from an application's own API, python_crash (None here).
TRANSPORT_CLASS = re.compile(r"^(?:Connection\w*Error|ProxyError|SSLError|RetryError|MaxRetryError|NewConnectionError|NameResolutionError|"
                             r"ConnectError|ReadError|NetworkError|TransportError|Client(?:Connector|Connection|OS)\w*Error|"
                             r"ServerDisconnectedError|RemoteDisconnected|gaierror|ProtocolError|RemoteProtocolError|URLError|"
                             # httpx / requests giving up on a redirect loop (a proxy or mirror misrouting the download)
                             r"TooManyRedirects)$")
# (a path component named `rendezvous/` is a key or a folder, not a rendezvous: MarinSkyRL's bucket keys `.../rendezvous/run-N/...`)
DIST_CONTEXT = re.compile(r"(?i)c10d|gloo|TCPStore|\brendezvous\b(?![\w.-]*/)|process group|store based barrier|monitored_?barrier|key-value store|"
                          r"connect\(\) timed out|MASTER_ADDR|torch\.distributed")
# The Hub's inference services (serverless Inference API, Inference Providers' router, Inference
# Endpoints: huggingface_hub inference/_client.py and constants.py INFERENCE_PROXY_TEMPLATE): an
# application's own API calls (corpus README, Labelling decisions), not file downloads.
INFERENCE_API = re.compile(r"api-inference\.huggingface\.co|router\.huggingface\.co|\.endpoints\.huggingface\.cloud")
# huggingface_hub >= 1.0 fetches through httpx (its utils/_http.py): an httpx / httpcore transport
# failure with no other URL on the line is the Hub's (an application's API names its own URL). Pasted
# without its module, a class only httpx / httpcore define among the clients above says the same.
HUB_CLIENT = re.compile(r"^(?:httpx|httpcore)\.|^(?:ConnectError|RemoteProtocolError|LocalProtocolError|PoolTimeout|WriteTimeout)$")
# A download that is not the Hub's: a mirror or model host by name, or a URL that names a model /
# tokenizer / data file (what a loader fetches); used for the transport and HTTP status readings
# (not a URL into an application's own API, `.../api/2.0/mlflow-artifacts/artifacts/.../global_step_300.pt`, mlflow's
# artifact proxy (current set 58): the Hub's API paths are HUB_HOST's). FILE_URL and MODEL_FILE_SUFFIX are the
# vocabulary's reading of a model file's URL too.
FILE_URL = r"https?://(?![^\s]*?/api/)\S*?"
MODEL_FILE_SUFFIX = r"\.(?:safetensors|bin|pt|pth|ckpt|onnx|gguf|zip|tar|tgz|tar\.gz|h5|msgpack|model|npz|parquet|arrow)\b"
DOWNLOAD_URL = re.compile(r"(?i)hf-mirror\.com|modelscope|download\.pytorch\.org|/releases/download/|" + FILE_URL + MODEL_FILE_SUFFIX)


def is_download(text: str) -> bool:
    """The line is about fetching model / tokenizer / data files (the Hub or another host)."""
    return not INFERENCE_API.search(text) and bool(HUB_HOST.search(text) or DOWNLOAD_URL.search(text))


def timeout_kind(exc: Exc, text: str) -> str | None:
    """The family of a timeout or transport exception, by the library it names; None when it
    names none (an application's own API: the catch-all)."""
    timeout = bool(TIMEOUT_CLASS.search(exc.name))
    if not timeout and not TRANSPORT_CLASS.match(exc.name):
        return None
    if is_download(text) or (HUB_CLIENT.match(exc.dotted) and not URL.search(text)):
        return "hf_http_error"
    if timeout and DIST_CONTEXT.search(text):
        return "dist_timeout"
    return None


# ---- the OSError family by errno (Python 3.11 os.strerror: the text inside `[Errno N] ...`) ----
# Any class may carry it (OSError, IOError, PermissionError, a RuntimeError wrapping one).
# ENOSPC 28 "No space left on device", EDQUOT 122 "Disk quota exceeded", EFBIG 27 "File too large"; ENOENT 2 "No such file or
# directory" on a weight shard / index (the Labelling decisions); the network errnos (ECONNRESET
# 104, ECONNREFUSED 111, ETIMEDOUT 110, ENETUNREACH 101, EHOSTUNREACH 113, ECONNABORTED 103, and
# getaddrinfo's EAI_NONAME -2 / EAI_AGAIN -3) on a download.
ERRNO_DISK_FULL = re.compile(r"\[Errno (?:2[78]|122)\]|(?i:No space left on device|Disk quota exceeded)|File too large \(os error 27\)")
ERRNO_MISSING = re.compile(r"\[Errno 2\]|(?i:No such file or directory)")
# The files a Hub checkpoint's weights live in (transformers utils/__init__.py names): the
# safetensors files, any `-00001-of-00004` shard and the shards' `.index.json`. A lone
# `pytorch_model.bin` missing from a training run's own output folder is that run's bug, not a
# missing download (public/heldout.jsonl LengSicong/Tell2Design#13 is labelled python_crash).
# (a shard of a weight format: `train-00000-of-00004.parquet` is a dataset's shard, not weights)
WEIGHT_FILE = re.compile(r"(?i)\.safetensors\b|\.(?:safetensors|bin)\.index\.json\b|-\d{5}-of-\d{5}\.(?:safetensors|bin|pt|pth|ckpt|gguf|h5|msgpack)\b|"
                         # a per-rank shard of a sharded checkpoint (verl's FSDP checkpoint manager
                         # `model_world_size_8_rank_3.pt`, DeepSpeed's `mp_rank_00_model_states.pt`)
                         # (not verl's optimizer / extra-state shards beside it, `optim_world_size_8_rank_3.pt`: CHECKPOINT_STATE_FILE)
                         r"(?:(?<!\w)|(?<=model_)|(?<=mp_))(?:world_size_\d+_)?rank_?\d+(?:_model_states)?\.(?:pt|pth|bin|safetensors)\b")
# The files a training checkpoint keeps its STATE in beside the weights, by the savers' own names: transformers' Trainer
# (trainer_utils / trainer.py: optimizer.pt, scheduler.pt, scaler.pt, trainer_state.json, rng_state[_N].pth), accelerate's
# save_state (utils/constants.py: optimizer.bin, scheduler.bin, sampler.bin, random_states_N.pkl, custom_checkpoint_N.pkl),
# Megatron (common.pt, model_optim_rng.pt, latest_checkpointed_iteration.txt), DeepSpeed (`*_optim_states.pt`), verl's FSDP
# checkpoint manager (optim_ / extra_state_world_size_N_rank_M.pt), SkyRL (trainer_state.pt), torch.distributed.checkpoint's
# `.metadata`, per-rank `__N.metadata` and data files: one missing is a checkpoint that cannot be resumed (the corpus labels it
# checkpoint_corrupt), not a missing download
CHECKPOINT_STATE_FILE = re.compile(
    # (not in os.rename's error, which names both paths, "[Errno 2] ...: 'a/tmp-checkpoint-81' -> 'a/checkpoint-81'" (public
    # set 12): a save that could not move its staging directory, not a checkpoint missing on load)
    r"^(?!.*' -> ').*?(?:"
    r"(?<![\w.-])(?:optimizer|scheduler|scaler|sampler)\.(?:pt|bin|safetensors)\b|(?<![\w.-])rng_state(?:_\d+)?\.pth\b|"
    r"\brandom_states_\d+\.pkl\b|\bcustom_checkpoint_\d+\.pkl\b|(?<![\w.-])trainer_state\.(?:json|pt)\b|(?<![\w.-])common\.pt\b|"
    r"\bmodel_optim_rng\.pt\b|\blatest_checkpointed_iteration\.txt\b|\b(?:optim|extra_state)_world_size_\d+_rank_\d+\.pt\b|"
    r"_optim_states\.pt\b|/(?:__\d+)?\.metadata\b|(?<![\w.])__\d+\.metadata\b|"
    # (and its data files, FileSystemWriter's `__0_0.distcp`: a DCP checkpoint is a training run's own, never a download;
    # current sets 16, 69 and 70)
    r"\.distcp\b|"
    # (and a step's whole directory, the path ending at it: DeepSpeed's `global_stepN` (zero_to_fp32 "Directory '%s' doesn't
    # exist", current set 47), Megatron's `iter_NNNNNNN`, the Trainer's `checkpoint-N`)
    r"/(?:global_step_?\d+|iter_\d{7}|checkpoint-\d+)/?(?=['\"]|\s|$))")
ERRNO_NETWORK = re.compile(r"\[Errno (?:104|111|110|101|113|103|-[23])\]|(?i:Connection reset by peer|Connection refused|"
                           r"Connection timed out|Network is unreachable|No route to host|Name or service not known|"
                           r"Temporary failure in name resolution)")


def errno_kind(text: str) -> str | None:
    """The kind the errno an exception's message states decides; None when it decides none."""
    if ERRNO_DISK_FULL.search(text):
        return "disk_full"
    if ERRNO_MISSING.search(text):
        if WEIGHT_FILE.search(text):
            return "hf_weights_missing"
        if CHECKPOINT_STATE_FILE.search(text):
            return "checkpoint_corrupt"
    if ERRNO_NETWORK.search(text) and is_download(text):
        return "hf_http_error"
    return None


# The HTTP status errors (requests HTTPError "{status} Client Error: {reason} for url: {url}",
# httpx HTTPStatusError "Client error '{status} {reason}' for url '{url}'", aiohttp
# ClientResponseError "{status}, message='{reason}', url='{url}'"). With its URL on the line the
# URL decides (hub_status_kind: the Hub or a model file -> the HF kinds; an application's API ->
# python_crash); a line cut before its URL is read as a file fetch: 429 / 5xx -> hf_http_error.
STATUS_CLASSES = frozenset({"HTTPError", "HTTPStatusError", "ClientResponseError"})
URL = re.compile(r"https?://|\bfor url\b")


# aiohttp's `message=` is the response's reason; a reason that is no HTTP reason phrase is the server's own text
# (a framework that returns its exception as the reason: "500, message=\"'State' object has no attribute 'server'\""):
# an application's API answering, not a file fetch cut before its URL.
AIOHTTP_REASON = re.compile(r"""message=(['"])(.*?)\1""")
REASON_PHRASES = frozenset(s.phrase for s in HTTPStatus)


def status_class_kind(exc: Exc) -> str | None:
    """The kind an HTTP status error with no URL on its line has by its status (429/5xx)."""
    if exc.name not in STATUS_CLASSES or URL.search(exc.message):
        return None
    reason = AIOHTTP_REASON.search(exc.message) if exc.name == "ClientResponseError" else None
    if reason is not None and reason.group(2) not in REASON_PHRASES:
        return None
    m = HTTP_STATUS.search(exc.message)
    status = int(m.group(1) or m.group(2)) if m else 0
    return ("hf_http_error" if status == 429 or status >= 500 else
            "hf_incomplete_download" if status == 416 else None)


def is_crash_class(exc: Exc) -> bool:
    """An exception that ends a process when uncaught: not a warning, not StopIteration /
    GeneratorExit, not a SystemExit with status 0 (sys.exit("msg") exits 1: non-zero)."""
    if exc.name.endswith("Warning"):
        return False
    if exc.name == "SystemExit":
        return exc.message not in ("", "0", "None")
    if exc.name == "Error" and NOT_ERROR.search(exc.message):   # a tool's `Error: no errors found`
        return False
    return exc.name not in NOT_A_CRASH


# ---- levels and process-end grammars shared by the catalogue and the net -----------------------
# NCCL has no ERROR level: its WARN macro (src/include/debug.h) is the error channel, and nearly
# every WARN in NCCL's source (NVIDIA/nccl 5067397c, `git grep 'WARN("' src`: ~600 stems) precedes
# returning an error code. A few are notices NCCL carries on after (a fallback, a value it
# corrects or ignores, a capability it does without): NCCL_WARN_HINT, read from those stems
# ("Cannot initialize CollNet, using point-to-point network instead", "... defaulting to ALL",
# "... is being ignored", "... setting to %d", "..., not using it", "... - skipping", "Got non-fatal
# async event", "GID table changed", "Ignoring SHM locality", "... Unsetting", "Could not find real
# path of", "P2P is disabled between NVLINK connected GPUs", "Warning: remote FLID ...", "GIN is
# disabled.", "... has been set to", "not supported prior to CUDA"), plus older releases' notices
# (`NET/IB : No device found.`, the iommu hint, plugin lookups, "Could not enable P2P").
# NCCL src/misc/ibvwrap.cc buildIbvSymbols: `dlopen("libibverbs.so[.1]")` failing is a probe; the IB
# transport's init then fails and NCCL uses its socket transport (later releases log the same
# sentence at INFO: NVIDIA/nccl ibvwrap.cc `INFO(NCCL_INIT, "Failed to open libibverbs.so[.1]")`);
# the mlx5dv / rdmacm wrappers probe the same way. "Could not find real path of" is two sites: the IB
# transport's ncclIbGetPciPath (`of %s (%s)`, devName and its /sys/class/infiniband path: it
# carries on, returns ncclSuccess) is a notice; graph/xml.cc getPciPath (`of /sys/class/pci_bus/...`:
# `return ncclSystemError`) is a failure (NVIDIA/nccl 081eafaf src/transport/net_ib.cc, src/graph/xml.cc).
NCCL_WARN_HINT = re.compile(
    r"NCCL WARN .*(?:Failed to open lib(?:ibverbs|mlx5|rdmacm)\.so|\busing\b[^.]*\binstead\b|defaulting|being ignored|setting (?:to|NCCL_)|not using it|[Ss]kipping|non-fatal|"
    r"GID table changed|Ignoring|Unsetting|Could not find real path of (?!/sys/class/pci_bus)|P2P is disabled|Could not enable P2P|Warning:|"
    r"is disabled\.|has been set to|not supported prior to|No device found|iommu|[Pp]lugin\b.*(?:not found|No plugin)|"
    r"No plugin found|NVLS multicast support is not available)")
# Every other WARN is error-level (the net surfaces it); these name the failure outright, so the
# line alone is `nccl_error` (a failed call, a non-zero result or retcode, a lost / reset / closed
# connection, a timeout or abort, a truncated message, a version or size mismatch, no transport,
# a socket in the wrong state, an invalid argument or config, an async fatal event).
NCCL_WARN_ANY = re.compile(r"NCCL WARN ")
NCCL_WARN_FAILURE = re.compile(
    r"NCCL WARN (?=.*(?:\b[Ff]ail|\b[Ee]rror\b|[Ee]rror encountered|\bres=[1-9]|retcode [1-9]|-> ?[1-9]\b|"
    r"[Cc]onnection (?:closed|reset|refused)|no socket interface|no interface found|[Tt]imeout|[Aa]bort|"
    r"Could not (?:receive|connect)|wrong (?:type|socket state)|[Cc]losed by|[Mm]essage truncated|[Mm]ismatch|"
    r"does(?:n't| not) match|[Nn]o transport|has no transport|is not ready|[Ii]nvalid|async fatal event|"
    r"out of (?:bounds|range)|[Uu]nable to|is too old|not backwards compatible|was revoked|"
    r"Could not find real path of /sys/class/pci_bus))")




# A `kubectl get pods` row up to its STATUS column (NAME, READY N/M; `-A` / `--all-namespaces` puts NAMESPACE first):
# each family reads the status it names.
KUBECTL_POD_ROW = r"^\s*(?:[a-z0-9][-a-z0-9.]*\s+)?[a-z0-9][-a-z0-9.]*\s+\d+/\d+\s+"
# Kubernetes' `kubectl get pods` row: NAME READY STATUS RESTARTS AGE, the STATUS column read
# (kubectl/pkg/printers; `Init:` prefix for init containers). The kinds: Error / CrashLoopBackOff
# a crashed container, OOMKilled, Evicted / ContainerStatusUnknown (the kubelet lost the container
# of a pod it evicted or whose node went away), ErrImagePull / ImagePullBackOff.
KUBECTL_ROW = re.compile(KUBECTL_POD_ROW + r"(?:Init:)?(Error|CrashLoopBackOff|OOMKilled|Evicted|"
                         r"ContainerStatusUnknown|ErrImagePull|ImagePullBackOff)\s+\d+")
# The kubelet restarting a crashed container: event `Warning  BackOff ... Back-off restarting failed
# container`, `kubectl describe pod` "Reason: CrashLoopBackOff".
# The kubelet's message also carries the back-off delay, lower-cased in its event / container
# waiting message (kubelet pkg/kubelet/kuberuntime: "back-off %s restarting failed container=%s pod=%s").
KUBELET_CRASHLOOP = re.compile(r"[Bb]ack-off (?:\d+[a-z]\d*[a-z]? )?restarting failed container|Reason:\s+CrashLoopBackOff\b")
# A shell reporting the signal that ended its child, alone on its line (bash's job status: the
# signal's strsignal() text, for every signal whose default action ends the process; bash reports
# neither SIGINT nor SIGPIPE; bminor/glibc sysdeps/generic/siglist.h @ 6d7e8eda9b85b08f207a6dc6f187e94e4817270f),
# or in its `line N:  PID Words  cmd` form. bash translates them (gettext, po/zh_CN.po: Killed "已杀死",
# Segmentation fault "段错误", core dumped "核心已转储").
SIGNAL_TEXTS = ("Hangup", "Quit", "Illegal instruction", "Trace/breakpoint trap", "Aborted", "Floating point exception",
                "Killed", "Bus error", "Bad system call", "Segmentation fault", "Alarm clock", "Terminated",
                "CPU time limit exceeded", "File size limit exceeded", "Virtual timer expired", "Profiling timer expired",
                "User defined signal 1", "User defined signal 2", "Stack fault", "Power failure")
SIGNAL_WORDS = "|".join(map(re.escape, SIGNAL_TEXTS))
# bash's signal words under a zh_CN locale (glibc's po/zh_CN.po strsignal: Killed 已杀死, Segmentation fault 段错误, Aborted 已放弃,
# Bus error 总线错误, Illegal instruction 非法指令, Floating point exception 浮点数例外, Terminated 已终止)
ZH_SIGNAL_WORDS = "已杀死|段错误|已放弃|总线错误|非法指令|浮点数例外|已终止"
# bash's job report without a script line (jobs.c pretty_print_job: `[1]+  Killed    cmd`, a non-interactive shell's
# `71885 Killed    cmd`): the job or pid, then the status word padded before the command
JOB_REPORT_HEAD = r"^\s*(?:\[\d+\][+-]?\s+|\d+ )"
# bash's `Killed` glued to its child's last output: written after a line that had no newline of its own (a
# progress bar's `trainable%: 0.0000 Killed`), or over a `\r`-rewritten one (`Killedng 9 files:   0%|`). Not a
# field's value (`task 17: Killed` is srun's report) nor a sentence's verb (`was Killed`).
GLUED_KILLED = r"^Killed(?=[a-z]{2})|(?<=[^\s:])(?<! was)(?<! been)(?<! be)(?<! is)(?<! are)(?<! were)(?<! got)[ \t]+Killed\s*$"
# (in the `line N:  PID Words  cmd` form bash pads the words to a fixed width and writes no separator after them, jobs.c
# print_pipeline: a text longer than the width runs into the command, `File size limit exceededhead -c 8M ...`, current
# set 65)
SHELL_SIGNAL = re.compile(rf"^(?:{SIGNAL_WORDS}|{ZH_SIGNAL_WORDS})"
                          rf"(?: \((?:core dumped|核心已转储)\))?\s*$|line \d+:\s+\d+ (?:{SIGNAL_WORDS})|"
                          rf"{JOB_REPORT_HEAD}(?:{SIGNAL_WORDS})(?: \(core dumped\))?\s{{2,}}\S|{GLUED_KILLED}")
# An exit code that means the process failed: not 0, nor 130 (128 + SIGINT: an operator's Ctrl-C, e.g.
# kubectl exec's "command terminated with exit code 130"). Every exit-code reading below uses it.
FAILED_CODE = r"-?(?!130\b)[1-9]\d*"
# torch elastic's failure report (torch/distributed/elastic/multiprocessing/errors/__init__.py ChildFailedError:
# the `Failures:` / `Root Cause (first observed failure):` table under `<entrypoint> FAILED` (the script's file name, or a
# module's or function's name: `rollout_worker FAILED`, current set 49), one
# `exitcode  : N (pid: N)` row per failed worker, `traceback : To enable traceback see: ...elastic/errors.html`;
# its record() "local_rank N FAILED with no error file") and its agent's "[default] Worker group failed"
# (elastic/agent/server/api.py): a worker ended badly.
ELASTIC_FAILED = re.compile(r"^\s*exitcode\s*:\s*" + FAILED_CODE + r" \(pid: \d+\)|\] Worker group failed\b|"
                            r"Root Cause \(first observed failure\)|^\s*[\w./-]+ FAILED\s*$|FAILED with\s+(?:no error\s+)?file\b|"
                            r"To enable traceback see: https://pytorch\.org/docs/stable/elastic/errors\.html")
# Warning level (never fatal on its own, observe/causes.py): Python logging `WARNING` as the level
# field (`WARNING 12-03 ...`, `WARNING:name:`, `... WARNING file.py:N --`, loguru `| WARNING |`),
# glog `W1203 hh:mm` (torch's `[W1203 ...]`, `[rank0]:[W1203 ...]`; torch prints a one-digit month unpadded: `[W318 10:00:41 ...]`), torch's older `[W file.cpp:N]`,
# Ray's C++ `[2026-12-03 16:00:00,123 W 12 34]`. NCCL's WARN is its error channel, not a level here;
# Kubernetes' `Warning` event type carries real failures (Failed to pull image) and is not one either.
# A Python warning as warnings.formatwarning prints it (`file.py:N: SomeWarning: message`) is a
# warning too: the program carries on after it.
# (TensorFlow / absl's C++ log, tsl/platform/default/logging.cc: `2018-05-10 09:14:16.535628: W tensorflow/x.cc:12] ...`)
# NCCL's INFO channel is below its WARN (the error channel): NCCL reports there what it clears and carries on after
# (NVIDIA/nccl src/include/cudawrap.h CUCHECKIGNORE / checks.h CUDACHECKIGNORE "Cuda failure %d '%s'" at INFO_LOC,
# v2.30.7-1 @ 5067397c): a failure named there is never a death on its own.
# (and a message that says so itself, print()'s `Warning: <msg>` at the line's or a prefix's head: skyrl-train
# 0.1.0 distributed/strategy.py "Warning: Could not save generation config for '{name}'. Error: {e}")
WARNING_LEVEL = re.compile(r"\.py:\d+: [A-Z]\w*Warning: |(?:^\s*|[)\]:]\s+)Warning: |\bNCCL INFO\b|(?:^|[\s\]:|])WARNING(?::|\s)|(?:^|[\[\s:>|])W" + GLOG_DATE + r"|\[W [\w.]+:\d+\]|,\d{3} W \d+ \d+\]|"
                           r"\.\d{6}: W [\w/.-]+:\d+\] |"
                           # Rust's tracing and Go's logrus at their warning level: the bare word after the record's time
                           # (tracing-subscriber's fmt `2026-12-05T10:04:50Z  WARN crate::module: msg`, as sglang-router /
                           # vllm-router print it), logrus' TTY `WARN[0001] msg`; never NCCL's WARN channel, which follows its
                           # `host:pid:tid [dev]` head, not a time
                           # (the cleaner strips an RFC 3339 time at the line's start as a container's: then a Rust path follows)
                           r"\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\]?\s+WARN\s|^\s*WARN\s+[a-z_]\w*::|^WARN\[\d+\]")


# Ray's driver relays the errors the GCS publishes (a node marked dead, a worker killed, the
# memory monitor's kill) through logger.warning in python/ray/_private/worker.py
# listen_error_messages: `WARNING worker.py:N -- <error>` is Ray's error channel, not a retry.
RAY_ERROR_RELAY = re.compile(r"WARNING worker\.py:\d+ -- ")


# A failure the line says the program went past by another way ("nvidia-smi failed (exit code 4: Failed to initialize
# NVML: ...). Falling back to torch.cuda.mem_get_info()", sglang srt/utils/common.py), or by dropping the rest of the
# work at hand ("got exception in future -- skipping remaining: ..."), or one a fault-tolerance manager took in:
# torchft's Manager logs each error it is handed as `[<replica>/<rank> - step N] got exception in <what>: <e>` (or
# `got exception waiting for work`) and then report_error()s it, which discards that step and reconfigures the
# replica group at the next quorum (torchft 0.2.0 torchft/manager.py: the five report_error sites, _ManagerLogger.prefix).
# Its give-up ("should_commit failed N times consecutively, exceeding max_retries") is no such line. A notice,
# whatever its level.
# (and a line that says the failure may be none, because the caller recovers and retries: torch_memory_saver's
# "cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch allocator will free cache and retry)")
# (and a cache the program could not write, or a step it leaves out, which it goes on without: matplotlib's font_manager "Could not save
# font_manager cache %s" and its config / cache dir probe "mkdir -p failed for path %s: %s", after which it makes a temporary
# one (matplotlib 3.x lib/matplotlib/__init__.py _get_config_or_cache_dir; current set 44, printed on a full disk))
GOES_PAST = re.compile(r"\b[Ff]all(?:ing|s)? ?back (?:to|on)\b|\b[Ss]kipping (?:the )?(?:remaining|rest)\b|"
                        r"(?i:\b(?:could not|couldn't|failed to|unable to) (?:save|write|update) (?:the )?[\w. -]{0,30}\bcache\b)|"
                        r"\bmkdir -p failed for path\b|"
                        # (a step the program says it leaves out and goes on without: SGLang 0.5.23's tokenizer fix-up
                        # "..., v5 component fix will not be applied: <error>", current set 41)
                        r"\bwill (?:not be (?:applied|used|loaded)|be (?:skipped|ignored|disabled))\b|"
                        r"\[[^\]\s]+/\d+ - step \d+\] got exception (?:in|waiting)\b|"
                        r"(?i:\b(?:may|might) not be an? (?:issue|problem|error)\b)")


def is_warning_level(text: str) -> bool:
    """The line is printed at warning level (a wait or a retry, never a death on its own), or says the program goes
    past the failure (GOES_PAST)."""
    head = text[:160]
    return bool(WARNING_LEVEL.search(head)) and not RAY_ERROR_RELAY.search(head) or bool(GOES_PAST.search(text))


# A record at a level whose logger ends the process after writing it: Go's logrus (`level=fatal msg=...`,
# the TTY form `FATA[0001] ...`, `level=panic` / `PANI[...]`: Fatal calls os.Exit(1), Panic panics), loggers that
# bracket it (`<FATAL>:`, juicedata/juicefs pkg/utils/logger.go; `[FATAL tini (6)]`, krallin/tini src/tini.c
# PRINT_FATAL), and a JSON record at zap's fatal or panic level
# (observe/patterns.unwrap_json writes both `FATAL ...`), and the Go runtime's own end: an unrecovered
# `panic: <value>` and runtime.throw's `fatal error: <reason>` (golang/go src/runtime/panic.go
# @ fbf452a89fe95b3a26069c6c5a43240798db2408: printpanics / throw, then exit 2), at the line's start.
# Python's CRITICAL is no such level: the program goes on.
# (and Ray's C++ fatal level, `[2026-12-04 06:11:27,901 C 6120 6120] core_worker.cc:1774: ...`: RAY_LOG(FATAL) aborts
# the process after writing it, ray src/ray/util/logging.cc; Apptainer / Singularity's `FATAL:   <msg>`, sylog.Fatalf
# then os.Exit(255), apptainer/apptainer v1.5.3 pkg/sylog/sylog.go; a Slurm daemon's fatal(), `slurmd: fatal: <msg>` then exit,
# SchedMD/slurm src/common/log.c: only with the daemon's name, since git's die() prints a bare `fatal: ` that setuptools-scm's
# version probe leaves in many healthy installs)
FATAL_RECORD = re.compile(r"\d C \d+ \d+\] |\blevel=(?:fatal|panic)\b|\b(?:FATA|PANI)\[\d+\]|<FATAL>|\[FATAL[\] ]|^FATAL:? |^panic: |^fatal error: |^slurm\w*: fatal: ")


# ---- the safety net: what an error-level line looks like -----------------------------------
# glog's levels are I W E F; Ray's C++ logger adds C (RAY_LOG(FATAL) / RAY_CHECK, `[... C 31945 31971]
# pb_util.h:202: Check failed: ...`, ray-project/ray src/ray/util/logging.cc). Level prefixes, whatever precedes them (a pull / actor / process / mpirun prefix): Python logging /
# vLLM / loguru `ERROR`, `CRITICAL`, `FATAL`; glog `E1203 ...` / `F1203 ...` (torch's
# `[rank0]:[E1203 ...]`, mpirun's `[1,0]<stderr>:E1203 ...`), Ray's C++ `[2026-12-03 16:00:00,123 E 12 34]`;
# plus the shapes of a process dying (Traceback, terminate called, Fatal Python error, signals).
ERROR_SHAPE = re.compile(
    r"\b(?:ERROR|CRITICAL|FATAL)\b|\| (?:ERROR|CRITICAL)\s*\||(?:^|[\[\s:>|])[EFC]" + GLOG_DATE + r"|\[[EFC] \w+\.\w+:\d+\]|"
    r"\.\d{6}: [EF] [\w/.-]+:\d+\] |"
    r"\d [EFC] \d+ \d+\]|Traceback \(most recent call last\)|terminate called|Fatal Python error|"
    r"Segmentation fault|[Ss]egfault|core dumped|\bSIG(?:SEGV|ABRT|BUS|ILL)\b|(?i:\berror\b)|NCCL WARN .*\b(?i:fail)|"
    r"[a-z](?:Error|Exception)(?:Group)?\b|Check failed:|"
    # Python's report of an exception it caught at a boundary: threading "Exception in thread X:", asyncio
    # "Exception in callback ...", a server loop's own "Exception in run_tp_server:" (SGLang)
    r"\bException in [\w.<>()-]+|"
    # a tool's own diagnostics with no level word: CPython exiting on a missing `-m` module or script (Modules/main.c,
    # `<exe>: No module named x`, `<exe>: can't open file '...'`), the error bullet pip's and uv's reports draw (`  × <message>`:
    # pip 26.3 _internal/exceptions.py DiagnosticPipError, uv 0.13's miette reports) and the chain under an error (`  Caused by: `,
    # uv's `  cause: `; current set 32)
    r"python[\d.]*: (?:No module named|can't open file)\b|^\s*× |^\s+(?:Caused by|cause): |"
    # MarinSkyRL's task runtime ending the run (cloud/iris/task_runtime.py @ 006eddce: the `=== TERMINATION ARTIFACT task=...
    # reason=... ===` banner, and its driver watchdog's "driver stalled after Ns without stdout/stderr progress")
    r"=== TERMINATION ARTIFACT |\bdriver stalled after \d+s\b|"
    # level words spelled in lower case by other runtimes (`fatal: ...`, Go's `panic: ...`, Rust's
    # `panicked at`), a process aborting, a timeout stated as the outcome
    r"(?<![-\w])(?i:fatal)\b|\bpanic(?:ked at|:)|\b(?i:abort(?:ed|ing)?)\b|(?i:\btimed out\b)|"
    # a pasted class lower-cased (`hfhubhttperror: 500 server error`), a dotted class at the start
    r"(?i:^\s*[\w.]*(?:error|exception|timeout|interrupt|failure|abort):\s)")
# The library grammars above that are error-level without an error word (a pod row,
# the shell's signal word, torch elastic's failure report).
# NCCL's WARN bodies name the failing function first (`ncclSocketInit: connecting to address %s with
# family %d is neither AF_INET(%d) nor AF_INET6(%d)`, `ncclSocketRecv: socket state (%d) is not ready`:
# `strings` on libnccl 2.28, tests/fixtures/corpus/current/format_strings.txt); pasted without the
# `NCCL WARN` header they are still NCCL's error channel. Its INFO lines never take this shape.
NCCL_WARN_STEM = re.compile(r"(?:^|[\s:\]])nccl[A-Z]\w* ?: (?!.*NCCL INFO)")
ERROR_GRAMMARS = (KUBECTL_ROW, SHELL_SIGNAL, ELASTIC_FAILED, KUBELET_CRASHLOOP, NCCL_WARN_STEM)
# Chatter that has the word but is not an error report (e.g. `0 errors`, a metric name).
# (a count of none, not a missing thing: torch elastic's `no error file defined for parent` is its failure report)
NOT_ERROR = re.compile(r"(?i)\b(?:no|0|zero) errors?\b(?! file\b)|\berror[_ ]?(?:rate|count)\b|errors?=0\b")


def is_error_line(text: str, exc: Exc | None) -> bool:
    """Whether a line no cause names is error-level (the safety net keeps it)."""
    if exc is not None and is_crash_class(exc):
        return True
    if NCCL_WARN_ANY.search(text):
        return not NCCL_WARN_HINT.search(text)    # a notice NCCL carries on after is not an error
    if any(rx.search(text) for rx in ERROR_GRAMMARS):
        return True
    return bool(ERROR_SHAPE.search(text)) and not NOT_ERROR.search(text)


# Signature: one error on 48 engines is one entry. Masked in this order: addresses and hex ids,
# IPs (with port), paths, then every remaining number.
_MASKS = (
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<addr>"),
    (re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"), "<id>"),
    (re.compile(r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b"), "<id>"),
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b|\[[0-9a-fA-F:]+\](?::\d+)?"), "<ip>"),
    (re.compile(r"(?:[A-Za-z]:)?(?:[\w.~-]*/)+[\w.-]+|https?://\S+"), "<path>"),
    (re.compile(r"\d+"), "#"),
)
SIGNATURE_MAX = 200


def signature(text: str) -> str:
    """The line with numbers, hex ids, IPs, paths and addresses masked (bounded)."""
    out = text.strip()
    for rx, repl in _MASKS:
        out = rx.sub(repl, out)
    return out[:SIGNATURE_MAX]


# A process's exit as its supervisor reports it, up to the code: our runtime's `Command exited with
# code N`, docker compose's `x exited with code 1`, runpod / Go runners' `worker exited with exit code
# 136`, `exited with status 2`, vLLM's `Process ApiServer_2 (PID: 731) died with exit code 1` (v0's
# multiproc_worker_utils.py: `Worker VllmWorkerProcess pid N died, exit code: -15`), Ray job's
# `Job entrypoint command failed with exit code 1`, srun's `srun: error: host-01: task 1: Exited with exit code 2`
# (src/srun/step_launch / launch.c "%s: task %s: Exited with exit code %d"), Determined's "container failed with
# non-zero exit code: 1", inductor's "compile worker sidecar (pid N) exited unexpectedly with code -9"
# (torch/_inductor/compile_worker/subproc_pool.py), Iris's task error "Exit code: 1. stderr: <its last line>" (marin lib/iris
# cluster/worker/task_attempt.py _format_exit_error), a terminated container's state as `kubectl describe` /
# the pod's YAML print it ("Exit Code:    139", "exitCode: 1": kubectl pkg/describe/describe.go) (patterns.EXITED
# reads the code).
EXIT_REPORT = r"(?:(?:[Ee]xited|died)(?: unexpectedly)?(?: with|,) (?:exit |return )?(?:code|status)|failed with (?:a )?(?:non-?zero )?(?:exit|return) code|\bExit [Cc]ode|\bexitCode)[ :=]*"
# A status table's row of a task that SUCCEEDED (`iris job summary`: task index, state, exit code, duration, ..., the
# ERROR column, which keeps an earlier attempt's reason: "0  succeeded  0  11.18 seconds  -  -  Exit code: 1", current
# set 52): the task's end was a success, whatever the error column remembers (no cause, no exit report)
SUCCEEDED_ROW = re.compile(r"^\s*\d+\s+(?:succeeded|SUCCEEDED)\s{2,}-?\d+\s")
# glibc's heap / stack checks (malloc/malloc.c malloc_printerr: "double free or corruption (out)",
# "malloc(): corrupted top size", "free(): invalid pointer", "munmap_chunk(): invalid pointer", "free(): double free
# detected in tcache 2";
# debug/fortify_fail.c "*** stack smashing detected ***: terminated") and libstdc++'s verbose terminate
# handler's `what():  std::bad_alloc`: each aborts the process
LIBC_ABORT = (r"double free or corruption|corrupted size vs\. prev_size|\b(?:malloc|free|realloc|munmap_chunk|malloc_consolidate|"
              r"_int_free|_int_malloc|tcache_thread_shutdown)\(\): (?:invalid|corrupted|unaligned|unsorted|smallbin|largebin|memory corruption|"
              r"double free detected)|"
              r"\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*|\bwhat\(\):\s+std::bad_alloc")
# The line a dying child process or thread writes before its traceback. multiprocessing's
# BaseProcess._bootstrap writes `Process <name>:` and the child exits with code 1 (python/cpython
# Lib/multiprocessing/process.py @ 069b8d20be8018fbd49ed5aaf64c4caba311e48f; the same stem in every
# release since 2.6): `Process SpawnProcess-1:`, vLLM's `Process EngineCore_DP0:`. threading's
# excepthook writes `Exception in thread <name>:` (Lib/threading.py excepthook; the thread ends, the
# process may go on). asyncio's default exception handler logs a task's or callback's uncaught exception as
# "Task exception was never retrieved" / "Future exception was never retrieved" / "Exception in callback
# <handle>", its traceback after (Lib/asyncio/base_events.py default_exception_handler, futures.py / tasks.py
# __del__; also after a logging header, "ERROR:asyncio:Task exception ..."). faulthandler's dump after a fatal
# signal heads each thread's frames with "Current thread 0x... (most recent call first):" (Python/traceback.c
# write_thread_id; frames follow, no exception line). A traceback's head (held until its final line), not end
# evidence: the end comes after the exception it precedes; alone (the final line never came) it is the uncaught
# exception it announces, the catch-all python_crash (observe/ladder.py). Group 1: the process's name. Search,
# not match: the asyncio heads may follow a header.
TRACEBACK_OPENER = re.compile(r"^(?:Process ([\w.:-]+)|Exception in thread .+):$|"
                              r"(?:^|(?<=:)|(?<=[|\]-] ))(?:(?:Task|Future) exception was never retrieved|Exception in callback .+)$|"
                              r"^Current thread 0x[0-9a-f]+ \(most recent call first\):$")
# libstdc++'s verbose terminate handler writes `terminate called after throwing an instance of 'T'`, then
# `  what():  <message>` at the start of its own line, then aborts (gcc libstdc++-v3/libsupc++/vterminate.cc).
# Not Ray's own handler's "Unhandled exception: T. what(): ..." (one line, mid-line: ray src/ray/util/logging.cc).
TERMINATE_WHAT = r"^\s*what\(\):\s"
# Evidence that a process ended (not: the line happens to be the last in the file); a fatal record
# (FATAL_RECORD: a failed RAY_CHECK is Ray's level C) is read by ends_process.
ENDED = re.compile(
    EXIT_REPORT + FAILED_CODE + r"|[Ee]xit [Cc]ode:?\s*" + FAILED_CODE + r"|exit status " + FAILED_CODE + r"|returned non-zero exit status|"
    r"terminate called|Fatal Python error|Segmentation fault|Segfault encountered|core dumped|\bSIG(?:SEGV|ABRT|BUS|ILL)\b|"
    r"Process \d+ terminated with|process \d+ terminated with (?:exit code|signal)|"
    r"PID \d+ terminated with code " + FAILED_CODE + r"|exitcode\s*:\s*" + FAILED_CODE + "|"
    r"ChildFailedError|died unexpectedly|\bSystemExit: -?[1-9]|^Killed$|\d+ (?:Killed|Aborted)\s|Aborted \(core dumped\)|"
    r"Training failed:|Error executing job with overrides|" + LIBC_ABORT + "|" + TERMINATE_WHAT)


def failed_exit(code: str) -> bool:
    """An exit code (as a report prints it) that means the process failed (FAILED_CODE)."""
    return re.fullmatch(FAILED_CODE, code) is not None


def ends_process(text: str) -> bool:
    """Evidence that a process ended: an exit / terminate line, a shell's signal word, torch
    elastic's failure report, a pod row in a failed state, a fatal-level record (its logger exits)."""
    return bool(ENDED.search(text) or SHELL_SIGNAL.search(text) or ELASTIC_FAILED.search(text) or KUBELET_CRASHLOOP.search(text)
                or FATAL_RECORD.search(text)
                or ((m := KUBECTL_ROW.search(text)) is not None and m.group(1) != "ImagePullBackOff"))


# libstdc++'s `terminate called after throwing an instance of '<type>'`: the C++ type names the
# family (c10::CUDAError -> cuda_error, c10::DistBackendError -> nccl_error, c10::OutOfMemoryError ...).
# c10::DistBackendError is not here: ProcessGroupNCCL's watchdog throws it after a timeout as well
# as after an NCCL error, and the line before it says which (device run, torch 2.11: the watchdog's
# abort is python_crash on its own; corpus/current).
TERMINATE_TYPE = re.compile(r"terminate called after throwing an instance of '(?:\w+::)*(\w+)'")
TERMINATE_KINDS = {"CUDAError": "cuda_error", "AcceleratorError": "cuda_error", "OutOfMemoryError": "cuda_oom"}


def terminate_kind(text: str) -> str | None:
    """The kind the thrown C++ type of a terminate line names; None for a generic one."""
    m = TERMINATE_TYPE.search(text)
    return TERMINATE_KINDS.get(m.group(1)) if m else None
