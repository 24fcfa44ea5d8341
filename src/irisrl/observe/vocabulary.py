"""The family vocabulary: what a failure line no specific rule names is about, from its words.

Two grammars, both for lines the cause catalogue (observe/causes.py) and the exception classes
(observe/exceptions.py) did not name:

1. `error_shaped(text, prefixed)`: the safety net's wider grammar. A line that carries error
   VOCABULARY (failed, cannot, unable to, refused, denied, died, killed, aborted, timed out, not
   found, no such, invalid, corrupt, exceeded, exhausted, fatal, panic, crash, unexpected(ly),
   lost, unavailable, evicted, preempted, OOM, SIGKILL, ...) AND a STRUCTURAL cue that it is a log record rather than prose (a level
   word or a glog / Ray C++ level letter, a `file.py:N` / `[file.cc:N]` source location, a
   `key: value` or `key=value` status, a leading component prefix such as `[rank3]:`, `(raylet)`,
   `scalellm | ` or a Ray actor prefix the cleaner removed, kubectl's space-aligned columns, a
   leading timestamp) is error-shaped. A line printed at INFO / DEBUG level is kept (or named) as
   a warning: a notice is never what a process died of.
2. `kind(text)`: one table, kinds x cue sets, read top to bottom: the first row whose every cue
   set matches names the kind. Rows are ordered by specificity (a CUDA OOM inside NCCL is the
   OOM; an actor that died because its node died is the node's death; a Hub 403 is gated before
   it is an HTTP error), so a tie goes to the most specific kind (issue-15 contract). A kind
   named this way is a name, not proof of death (observe/causes.py: fatal only once the process
   ended, like the catch-all python_crash).

The cue words were read from the libraries' own message sites, not from the corpus lines:
torch/csrc/distributed/c10d (TCPStore / socket.cpp "Socket Timeout", "wait timeout", store based
barrier; ProcessGroupNCCL.cpp watchdog / WorkNCCL timeouts) and torch/distributed/elastic
(rendezvous, `Signal N (SIGx) received by PID`); NCCL src/include/alloc.h ("Failed to CUDA calloc
%ld bytes": cudaMalloc failing = device memory), src/transport/net_ib.cc, src/misc/ibvwrap.cc;
ray 2.60.0 wheel (gcs_server strings: "The actor died because its node has died. Node Id:",
"The actor is dead because its worker process has died.", raylet "Workers (tasks / actors) killed
due to memory pressure (OOM)", python/ray/exceptions.py); vllm/v1/engine (core.py, core_client.py:
EngineCore start / death); huggingface_hub/errors.py and utils/_http.py (401 / 403 gated, 404
repo vs entry, 429 / 5xx); omegaconf 2.3 errors.py / dictconfig.py ("Key '%s' is not in struct")
and Hydra's config loader; kubelet / kubectl (ErrImagePull, Evicted, OOMKilled, exit 137).
Imports only observe/exceptions.py (stdlib only)."""

from __future__ import annotations

import re
from typing import NamedTuple

from irisrl.observe import exceptions as E

# ---- 1. the wider safety net ------------------------------------------------------------------
ERROR_VOCAB = re.compile(
    r"(?i)\b(?:fail(?:s|ed|ure|ures|ing)?|cannot|can(?:'|no)t|could(?: not|n't)|unable to|refused|denied|died|dead|"
    r"killed|abort(?:s|ed|ing)?|timed? ?out|time-?outs?|not found|no such|invalid|corrupt(?:ed|ion)?|exceeded|exhausted|"
    r"fatal|panic(?:ked)?|crash(?:ed|es|ing)?|unexpected(?:ly)?|lost|unavailable|unreachable|terminated|segfault|"
    r"oom\w*|kill(?:ed|ing)|evict(?:ed|ing|ion)?|preempt(?:ed|ing|ion)?|sig(?:kill|segv|abrt|bus)|insufficient|unhealthy|unschedulable|exited on signal|"
    r"out of memory|forbidden|unauthori[sz]ed|not (?:allowed|authori[sz]ed|permitted)|"
    # an exception stated in words ("Exception occurred while running EnvWorker's function interact"), a
    # node rebooted under its pods, a memory cgroup's failure count at its limit, a failed C++ allocation
    r"exception (?:occurred|raised|was raised|was thrown|thrown)|(?:unhandled|uncaught) exception|rebooted|failcnt|bad_alloc)\b|"
    # Kubernetes event reasons in CamelCase (FailedScheduling, FailedMount, FailedCreatePodSandBox) and the
    # container / Job failure reasons that carry no failure word of their own
    r"\bFailed[A-Z]\w+|\b(?:[A-Z][a-z]+)+(?:Eviction|Exceeded|Timeout)\b|\b(?:BackoffLimitExceeded|DeadlineExceeded|ContainerCannotRun|RunContainerError|"
    r"CreateContainer(?:Config)?Error|P(?:re|ost)StartHookError)\b")
# A log record, not prose. Level words (any case for the bracketed / key forms), glog / Ray C++
# level letters, a source location, a `key: value` / `key=value` status, a leading component
# prefix, kubectl's columns (two gaps of 2+ spaces), a leading timestamp.
STRUCTURE = re.compile(
    r"\b(?:INFO|WARN(?:ING)?|ERROR|CRITICAL|FATAL|DEBUG|NOTICE|SEVERE)\b|(?i:\[(?:info|warn(?:ing)?|error|fatal|debug)\]|"
    r"\blevel=\w)|(?:^|[\[\s:>|])[IWEFD]" + E.GLOG_DATE + r"|,\d{3} [IWEFC] \d+ \d+\]|"
    r"[\w./-]+\.(?:py|pyx|cc|cpp|cxx|c|h|hpp|cu|cuh|go|rs|java|sh):\d+|"
    r"^\s*[A-Za-z][\w .()/-]{0,40}?\s?:\s+\S|\b\w+=\S|"
    r"^\s*[\[(][^\])]{1,80}[\])]|^\s*[\w.-]+\s+\|\s|"
    r"\S {2,}\S.*\S {2,}\S|"
    r"^\s*\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|^\s*\[?\d\d:\d\d:\d\d|"
    # an OS error as Python renders it (`[Errno 111] Connection refused`), quoted in a client's retry report
    # (huggingface_hub utils/_http.py http_backoff: "'{err}' thrown while requesting {method} {url}", current set 60)
    r"\[Errno -?\d+\] |"
    # a sentence whose first words are the failure: a tool's or daemon's diagnostic printed with no level (nvidia-smi's
    # "Failed to parse --display/-d flags", "Invalid p2p capability index specified at the command-line", current set 62;
    # Megatron's "Unable to load optimizer from checkpoint ...")
    r"^\s*(?:Failed|Unable|Cannot|Can't|Could not|Couldn't|Invalid)\b|"
    # syslog / journald (`Aug 10 22:40:59 host kernel: NVRM: ...`): the kernel's own records
    r"^\s*[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d")
# A resource shortfall stated in words: not enough of a device / node kind, or fewer than requested
SHORTFALL = (r"(?i:\b(?:not|no) enough (?:\w+ )?(?:GPU|CPU|NPU|node|device|accelerator)s?\b(?! memory)|"
             # kube-scheduler's older fit predicate ("fit failure on node (n): Node didn't have enough resource:
             # CPU, requested: 1000, used: 1420, capacity: 2000"), kai-scheduler's "node(s) didn't have enough resources"
             r"\bnodes?(?:\(s\))? did(?:n't| not) have enough resources?\b|quota (?:is )?insufficient|"
             # (and the same stated as no node found: kai-scheduler "no nodes with enough resources were found")
             r"\bno (?:\w+ )?nodes? (?:with|having|that ha(?:s|ve)) (?:enough|sufficient)\b|"
             r"\brequested \d+ (?:GPU|CPU|NPU|node|device)s?\b[^\n]{0,30}\bonly \d+)")
# NVIDIA's Xid 154 reporting the recovery action back to none: the fault it followed is over
# (and Xid 63, a memory row recorded for remapping at the next reset: NVIDIA's Xid catalogue, docs.nvidia.com/deploy/
# xid-errors, lists it as a recording event, the GPU goes on; Xid 64, a remapping that failed, is the fault)
XID_RECOVERED = r"recovery action changed from [^\n]{0,60}\bto 0x0 \(None\)|\bXid \(PCI:[^)]*\): 63, "
# Failure texts that carry no error word, each read twice: as a failure statement (CATALOGUE /
# STATEMENT, so the net keeps the line) and by the row that names it (TABLE).
# Ray's autoscaler v2 (event_logger.py "No available node types can fulfill placement group requests", v1
# "... resource request"; instance_manager/reconciler.py "Instance ... is stuck in QUEUED for N seconds")
AUTOSCALER_REFUSED = r"No available node types can fulfill"
AUTOSCALER_STUCK = r"\bis stuck in (?:QUEUED|REQUESTED|ALLOCATED)\b"
# the kernel's records around an OOM kill (mm/oom_kill.c oom_reap_task_mm "oom_reaper: reaped process",
# mm/memcontrol.c mem_cgroup_print_oom_meminfo: usage at the cgroup's limit)
KERNEL_OOM = r"oom_reaper: reaped process|\bmemory: usage \d+kB, limit \d+kB, failcnt \d+"
# the kubelet's eviction for disk (pkg/kubelet/eviction/helpers.go "Pod ephemeral local storage usage exceeds
# the total limit of containers 30Gi.")
DISK_EVICTION = r"ephemeral local storage usage exceeds"
# Ray's job CLI verdict (dashboard/modules/job/cli.py "Job 'raysubmit_x' failed")
RAY_JOB_FAILED = r"^\s*Job '[^'\s]+' failed\b"
# a platform's verdicts on a workload in words (the Hub Spaces runtime: "Workload evicted, storage limit
# exceeded (50G)", "Memory limit exceeded (16.0G)")
# (and a hosted app's unit: a Hub Space "Space evicted, storage limit exceeded (50G)", a replica, an instance, a sandbox)
WORKLOAD_EVICTED = r"(?i:\b(?:pod|workload|container|job|task|space|replica|instance|sandbox)s? (?:was |has been )?evicted\b)"
MEMORY_LIMIT = r"(?i:\bmemory limit exceeded\b)"
# A failure STATEMENT is one with or without a log record around it: an access denial (a subject
# that must be authenticated / is not allowed / is gated: huggingface_hub's "Repo model <id> is
# gated. You must be authenticated to access it.", "Access to model <id> is restricted", HTTP 401/403
# reasons) or a failure with its reason ("Task failed because the node it was running on is dead",
# Ray's exception texts: "... died because ...", "... was killed due to ..."); read whole.
# Retries that ran out (urllib3 "Max retries exceeded", boto3 RetriesExceededError, fsspec / s3fs
# "out of retries on exception", NCCL's socket connect "retrying (34/34)": the counter at its bound).
# (and a retry notice whose bracketed counter, later on the line, is at its bound: datasets' streaming read "Got
# disconnected from remote data host. Retrying in 1sec [N/N]", printed just before it raises ConnectionError("Server
# Disconnected"), datasets utils/file_utils.py _add_retries_to_file_obj_read_method; current set 71)
RETRIES_EXHAUSTED = (r"(?i:\b(?:retr\w*|attempts?|tries)\W{1,3}\(?(?P<tries>\d+) ?(?:/|of) ?(?P=tries)\b|out of retries|"
                     r"\bretr\w*\b[^\n]{0,60}?\[(?P<bound>\d+) ?/ ?(?P=bound)\]|"
                     r"retries (?:exhausted|exceeded)|exhausted (?:all )?(?:\d+ )?(?:retries|attempts)|max(?:imum)? retries exceeded)")
# A process told to stop from outside, in its own words (SkyRL's _sigterm_handler "Received SIGTERM on head
# node", "SIGTERM received, shutting down"): the sender's "Sending ... SIGTERM" is not one (torch elastic's
# "Signal 15 (SIGTERM) received by PID" is a worker's death: observe/causes.py's python_crash).
# (and the same by number, "Received signal 15; terminating training driver": SIGHUP 1, SIGINT 2, SIGQUIT 3, SIGTERM 15)
STOP_SIGNAL_RECEIVED = (r"(?i:\b(?:received|got|caught) (?:signal )?SIG(?:TERM|INT|HUP|QUIT|USR1)\b|\bSIG(?:TERM|INT|HUP|QUIT) received|"
                        r"\b(?:received|got|caught) signal (?:1|2|3|15)\b)")
# A container's or pod's state reason as `kubectl describe` / the pod's YAML print it (kubernetes pkg/kubelet/container
# and kuberuntime reasons "Error", "StartError", "ContainerCannotRun"; the PodScheduled condition's "Unschedulable",
# pkg/apis/core/types.go PodReasonUnschedulable): the field alone says how the container or pod ended
STATE_REASON = r"^\s*[Rr]eason:\s+(?:Error|StartError|ContainerCannotRun)\s*$"
UNSCHEDULABLE_REASON = r"^\s*[Rr]eason:\s+Unschedulable\s*$"
# `kubectl get pods` rows STUCK rather than dead (kubectl pkg/printers/internalversion printPod: the STATUS column is the
# phase "Pending" while no container has a reason, i.e. nothing bound the pod; `Init:N/M` while init containers run, the
# RESTARTS column counting their failures; AGE in duration.HumanDuration: `9m12s`, `14h`, `4h37m`, `2d`): a pod Pending
# for 5 minutes or more is one no node took; an init container restarted (RESTARTS > 0) failed and is being retried
KUBECTL_PENDING_LONG = E.KUBECTL_POD_ROW + r"Pending\s+\d+\s+(?:\(\S+ ago\)\s+)?(?:[5-9]m|[1-9]\d+m|\d+[hdy])[\dsmhdy]*(?:\s|$)"
KUBECTL_INIT_RESTARTED = E.KUBECTL_POD_ROW + r"Init:\d+/\d+\s+[1-9]\d*\b"
# The body of a failed gRPC call's repr under its `_InactiveRpcError` / `_MultiThreadedRendezvous` / `AioRpcError` head
# (grpc/_channel.py and aio/_call.py _NON_OK_*_REPR_FORMAT: "\tstatus = {}", '\tdetails = "{}"', '\tdebug_error_string
# = "{}"'; a successful call's repr says `StatusCode.OK` and has no debug string): each line is that RPC's failure
GRPC_FAILED_CALL = r'^\s*(?:status = StatusCode\.(?!OK\b)[A-Z_]+|details = ".*"|debug_error_string = ".*")\s*$'
# A state dict and its checkpoint that do not share their keys, at the head of the message: torch's load_state_dict
# (torch/nn/modules/module.py: "Missing key(s) in state_dict: ...", "Unexpected key(s) in state_dict: ...") and
# megatron-core's strict load (dist_checkpointing/validation.py: "Missing keys (for all ranks): {...}"): the model does
# not fit the checkpoint, python_crash (transformers' prose notice "There were missing keys in ..." is no head)
STATE_DICT_MISMATCH = r"(?:^|\t)\s*(?:Missing|Unexpected) keys?(?:\(s\))?(?: in state_dict| \([^)\n]{0,60}\))?: "
# A node whose disk is (nearly) full in its own reporters' words: the kubelet's node condition (kubernetes
# pkg/kubelet/nodestatus/setters.go DiskPressureCondition: message "kubelet has disk pressure", event
# "NodeHasDiskPressure"; cleared, "kubelet has no disk pressure" / "NodeHasNoDiskPressure", is not this) and Ray's
# autoscaler ("Node is experiencing disk pressure - current disk utilization: 95.07%", public set 80)
DISK_PRESSURE = r"\b(?:has|is experiencing|under) disk pressure\b|\bNodeHasDiskPressure\b"
# what CPython prints after a fatal error's traceback (Python/pylifecycle.c _Py_DumpExtensionModules "Extension
# modules: ... (total: N)"): the process is aborting
FATAL_DUMP = r"^Extension modules: \w"
# An extension module built against another ABI of the library it imports, in that library's words: numpy 2's banner
# (numpy/_core/_multiarray_umath.py: "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.x as it may
# crash."), numpy 1's C-API check ("module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000",
# numpy/core/code_generators/generate_numpy_api.py): the image's packages do not fit together (current set 61), a
# python_crash, error-shaped with no record around it.
ABI_MISMATCH = (r"\bcompiled (?:using|against) [\w. -]{1,30}? cannot be run in\b|"
                r"\bcompiled against (?:ABI|API) version \w+ but this version of\b")
STATEMENT = re.compile(
    r"(?i)\b(?:failed|died|crashed|was killed|exited|terminated|aborted) (?:because|due to)\b|\b(?:permission|access) denied\b|"
    # an HTTP failure status with its reason phrase (RFC 9110: "403 Forbidden", "503 Service Unavailable") and
    # Ray's job CLI's verdict (dashboard/modules/job/cli.py "Job 'raysubmit_x' failed"), whatever surrounds them
    r"\b(?:40[13]|404|429|50[0234]) (?:Forbidden|Unauthorized|Not Found|Too Many Requests|Internal Server Error|Bad Gateway|"
    r"Service Unavailable|Gateway Time-?out)\b|" + RAY_JOB_FAILED + "|" + WORKLOAD_EVICTED + "|" + MEMORY_LIMIT + "|"
    # (and the Hub Spaces runtime's "Scheduling failure: unable to schedule space")
    r"\bunable to schedule\b|"
    # Python's import failure in its own words (ModuleNotFoundError's message), logged without its class
    # (surfaced, not named: most such lines in the corpora are optional imports that fall back: benign), and
    # libstdc++'s terminate handler's `what():` line, CPython's list of extension modules after a fatal error
    r"\bNo module named '|" + ABI_MISMATCH + "|" + E.TERMINATE_WHAT + "|" + FATAL_DUMP + "|" + STATE_REASON + "|" + UNSCHEDULABLE_REASON + "|" +
    # (the seventeenth round's statements: a stuck pod row, a node's disk pressure, a failed gRPC call's repr body, a
    # state dict that does not fit its checkpoint)
    KUBECTL_PENDING_LONG + "|" + KUBECTL_INIT_RESTARTED + "|" + DISK_PRESSURE + "|" + GRPC_FAILED_CALL + "|" + STATE_DICT_MISMATCH + "|" +
    SHORTFALL + "|"
    r"(?i:\b(?:you|user|token|request|access|repo\w*|model|dataset|space|it|this|caller|client|account)\b[^.\n]{0,60}?"
    r"\b(?:must be (?:authenticated|logged in|authori[sz]ed)|(?:is|are) not (?:allowed|authori[sz]ed|permitted)|"
    r"(?:is|are) (?:forbidden|gated|restricted)\b|(?:does|do) not have (?:access|permission)|(?:cannot|can't|can not) access))" + "|" + RETRIES_EXHAUSTED + "|" + STOP_SIGNAL_RECEIVED)
# A Kubernetes event of type Warning as `kubectl get events` / `describe` print it (the type column, then
# the reason's: "Warning   Rebooted   node/n-12   ..."): Kubernetes has two event types, and every Warning
# event in the corpora is a failure, whatever words its message uses (kueue's "couldn't assign flavors")
K8S_WARNING_EVENT = re.compile(r"(?:^|\s)Warning(?: {2,}|\t+)[A-Z]\w+(?: {2,}|\t+)")
# Printed at warning level: exceptions.WARNING_LEVEL (the one grammar of it: Python logging's WARNING, glog's W, a
# `Warning:` label such as `libibverbs: Warning: couldn't load driver ...`), and here also a bare WARN word (Rust's
# tracing `  WARN target:`, NCCL's WARN channel: for the family rows a WARN record is not loud).
WARN_WORD = re.compile(r"(?<![\w-])WARN(?:ING)?(?![\w-])")
# Printed below the warning level: kept, but as a warning (observe/unrecognized.py).
NOTICE_LEVEL = re.compile(r"(?:^|[\s\]:|])(?:INFO|DEBUG)(?::|\s)|\[(?:INFO|DEBUG)\]|(?:^|[\[\s])[ID]" + E.GLOG_DATE + r"|,\d{3} [ID] \d+ \d+\]|"
                          r"\| (?:INFO|DEBUG)\s*\|")
# Not a failure report, whole line: NCCL's INFO channel (it never reports the failure: its WARN
# does, observe/exceptions.py) and a Python warnings.warn line (`x.py:N: UserWarning: ...`).
# (and a library saying so itself: TensorFlow's BFC allocator "ran out of memory trying to allocate
# 2.0GiB. The caller indicates that this is not a failure, but may mean ... performance gains")
# (and Ray's process watcher on a clean stop: "Raylet is terminated. Termination is graceful.")
GRACEFUL_STOP = r"Termination is graceful"
NOT_A_FAILURE = re.compile(r"NCCL INFO|\w+Warning: |indicates that this is not a failure|" + GRACEFUL_STOP)
# Phrases whose failure words assert nothing, removed before the vocabulary is read: counters and
# settings (`0 failed`, `failures: 0`, `timeout=30`, `--fail-fast`), hedges ("may result in
# unexpected behaviour"), and a library's list of POSSIBLE causes, from its opening words to the end
# of the line (Ray's "Possible reasons include: (1) SIGKILL by the user or system OOM killer",
# "This can happen when a (1) raylet crashes unexpectedly (OOM, etc.)", "There are some potential
# root causes": a worker's death is not an OOM because the message lists one).
# A failure named only as what the line guards against ("refusing X to avoid OOM/ENOSPC", sglang 0.5.23
# mem_cache/storage/file/lru_file_evictor.py): a precaution, not a report of it.
PRECAUTION = r"\b(?:to (?:avoid|prevent)|avoid(?:s|ing)?|prevent(?:s|ing)?)\b[^.;\n]{0,40}"
# (a zero that numbers a thing is no counter: "task 0 launch failed", "rank 0 failed")
NOT_AN_INDEX = "".join(f"(?<!{noun} )" for noun in ("task", "rank", "node", "gpu", "worker", "device", "process", "engine",
                                                     "replica", "actor", "shard", "pod", "job", "step", "instance"))
# A failed check's condition is code, not what failed: TVM / tvm-ffi's ICHECK (FlashInfer, MLC)
# writes "Check failed: (<condition>) is false: <message>" (apache/tvm include/tvm/runtime/logging.h
# @ eed8dfac210723e7149fcfa39c9acc3505cdb520), and `(e == cudaSuccess || e == cudaErrorCudartUnloading)`
# names an error that did not happen; the message after it does. (The catalogue reads the line without
# it too: observe/causes.classify.)
CHECK_CONDITION = r"(?<=Check failed: )\((?:[^()]|\([^()]*\))*\) is false: "
CHECK_CONDITION_RX = re.compile(CHECK_CONDITION)
# the menu of names a refusal lists after its own words ("Unexpected optimization option x, known options are ['debug',
# ..., 'collective_benchmark_timeout', ...]", torch 2.11 _inductor/config; "Valid fields are {...}", "choose from [...]"):
# its items are names, not failures, and the rest of the line with them (its head words stay: "valid keys are" says the
# refusal is a config schema's)
MENU_RX = re.compile(r"(?i)(\b(?:(?:known|valid|available|supported|allowed|accepted|registered) (?:\w+ ){0,2}(?:are|is|includes?)|"
                     r"choose from|(?:must|should) be one of))\s*:?\s*[\[{(].*")
NOT_ASSERTED = re.compile(
    r"(?i)" + PRECAUTION + r"|" + CHECK_CONDITION + r"|(?<![\w./])" + NOT_AN_INDEX + r"(?:no|0|zero) (?:\w+ )?(?:fail(?:ed|ures?)?|errors?|timeouts?)\b|\b(?:fail(?:ed|ures?)|timeouts?|lost|dead|killed)"
    r"\s*[=:]\s*0\b|\btime-?out_?s?['\"]?\s*[=:]\s*['\"]?\d[\d.]*|--\w*timeout|--\w*fail\S*|fail_?fast|"
    r"without (?:a )?(?:fail|error)\w*|dead ?lock ?detect\w*|deadline=\S*|"
    r"\b(?:may|might|could|would)\b[^.]{0,30}\b(?:unexpected|fail|crash|be lost|time ?out)\w*|"
    r"(?:possible|potential|some common) (?:root )?(?:causes?|reasons?)\b.*|this (?:can|could|may|might) (?:happen|be (?:caused|due|because)|because)\b.*|"
    # (Ray Train's hint "assuming that the error is not caused by your own application logic, but rather an error such as OOM")
    r"assuming (?:that )?the error is\b[^)]*")


LAST_RETRY = re.compile(RETRIES_EXHAUSTED)


def asserted(text: str) -> str:
    """The line without the phrases whose failure words assert nothing (NOT_ASSERTED)."""
    return NOT_ASSERTED.sub(" ", text)


def says_no_failure(text: str) -> bool:
    """NCCL's INFO channel, a Python warning, an NCCL WARN notice: no failure report, but where NCCL's INFO channel says
    its connect retries ran out (LAST_RETRY) or traces a failed call's return (NCCL_BACKTRACE)."""
    return bool(NOT_A_FAILURE.search(text) or E.NCCL_WARN_HINT.search(text)) and \
        not (LAST_RETRY.search(text) or NCCL_BACKTRACE_RX.search(text))


def error_shaped(text: str, prefixed: bool = False) -> bool:
    """A failure STATEMENT, or a line that states a failure in words (ERROR_VOCAB) and is shaped
    like a log record (STRUCTURE, or a component prefix the cleaner already removed: `prefixed`) or
    that a family of the table names."""
    if says_no_failure(text):
        return False
    said = asserted(text)
    if STATEMENT.search(said) or CATALOGUE.search(said) or K8S_WARNING_EVENT.search(text):
        return True
    # error words in a log record, or in a line a family of the table names (its own cues: "CUDA driver
    # version is insufficient" needs no log record around it to be about CUDA)
    return bool(ERROR_VOCAB.search(said)) and (prefixed or bool(STRUCTURE.search(text)) or kind(text) is not None)


def below_error(text: str) -> bool:
    """The record is printed at WARNING level or below (a traceback under it is no failure of its own:
    import_utils' warnings print one)."""
    head = text[:160]
    return bool(E.WARNING_LEVEL.search(head) or WARN_WORD.search(head)) or notice_level(text)


def notice_level(text: str) -> bool:
    """The line is printed at INFO / DEBUG level (a notice, never a death on its own)."""
    return bool(NOTICE_LEVEL.search(text[:160]))


# ---- 2. the family table ----------------------------------------------------------------------
class Row(NamedTuple):
    kind: str
    cues: tuple[re.Pattern[str], ...]   # every one must match
    unless: re.Pattern[str] | None      # a line matching this is not this kind (read on)
    loud: bool = False                  # only a record printed above warning level (below_error) is this kind


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _subject(word: str) -> str:
    """`word` (any case, or its plural) as what the line is about, not a component of a path (`/ckpt/actor`, `C:\\runs\\worker`)."""
    return rf"(?i:(?<![/\\])\b{word}s?\b(?![/\\]))"


# Shared cue sets.
_OOM = r"(?i:out of memory|\boom\b|OUT_OF_MEMORY|MemoryAllocation|(?:failed|unable|cannot|can't) (?:to )?allocate|(?<!device )(?<!GPU )allocation failed|tried to allocate)|CUDA calloc|CUDA malloc"
# (and torch_memory_saver, the device-memory pool RL trainers pause and resume: "TorchMemorySaver::malloc return OOM")
# (and an accelerator's memory by its own name: "device memory", an allocator's DRAM buffer (Tenstorrent tt-metal's "Out of
# Memory: Not enough space to allocate N B DRAM buffer across 12 banks", public set 70))
_GPU = (r"CUDA|\bcuda\w*|\bGPU|\bgpu\b|cudaMalloc|NCCL|cuBLAS|CUBLAS|cuDNN|CUDNN|VRAM|HBM|torch\.cuda|\bdevice \d|TorchMemorySaver|torch_memory_saver|"
        r"(?i:\b(?:device|accelerator) memory\b)|\bDRAM buffer\b")
_HOST_MEMORY = (r"memory monitor|memory usage threshold|Ray killed|RAY_memory|OOMKilled|oom[-_]kill|Killed process|"
                r"(?i:host memory|cpu memory|system memory|\bRAM\b|cgroup|container|\bpod\b|node (?:was |is )?running low|slurmstepd|\bsrun\b)")
_TIMEOUT_WORDS = r"timed? ?out|time-?out|deadline exceeded|took too long|timer expired"   # (ETIME's strerror)
_TIMEOUT = f"(?i:{_TIMEOUT_WORDS})"
# a message saying its wait ran out of time (the analyzer's reading of a torchrun rank's own timeout; "future did not
# complete within 0:01:00")
TIMED_OUT = re.compile(_TIMEOUT + r"|\bdid not complete within\b")
# the Hub by name, client or API, or by its request id / error classes (exceptions.HUB_HOST)
# (hf_transfer and hf-xet, the Hub's Rust download clients, report through reqwest: huggingface/
# hf_transfer src/lib.rs "Error while downloading: {err}", huggingface/xet-core)
_HUB = (r"(?i:hugging ?face|hf\.co\b|\bhub\b|\bHF API\b|HF_TOKEN|hf_hub|HfApi|HfHub|from_pretrained|snapshot_download|hf_hub_download|"
        r"reqwest|hf_transfer|hf[-_]xet|xethub|"
        # hf_xet's own error texts (xet-core: "CAS service error : ...", "CAS Client Error: ...")
        r"CAS (?:service|client) error|"
        # ModelScope's hub client (modelscope_hub.errors: "[E3020] [404] Model does not exist."), the Hub's
        # LFS upload API (huggingface_hub lfs.py "LFS batch API returned errors")
        r"modelscope|LFS batch)|"
        r"GatedRepo|RepositoryNotFound|RevisionNotFound|EntryNotFound|" + E.HUB_HOST.pattern)
# a URL of a model / weight / archive file (a model host or mirror: `.../models/x.zip`, `/resolve/`)
_MODEL_FILE_URL = r"(?i:" + E.FILE_URL + r"(?:/models?/|/resolve/|" + E.MODEL_FILE_SUFFIX + "))"
# An object store by its clients' exception modules and loggers, its URLs, or botocore's ClientError grammar (`An error
# occurred (NoSuchBucket) when calling the PutObject operation`): the storage family's rows below
STORE = (r"\b(?:google\.(?:api_core|cloud\.storage|auth|resumable_media)|azure\.(?:core|storage)|obstore|s3transfer|"
         r"(?:aio)?botocore|boto3|s3fs|gcsfs|adlfs|smart_open)\.|storage\.googleapis\.com|\.blob\.core\.windows\.net|"
         r"\.amazonaws\.com\b|\b(?:s3a?|gs|gcs|az|abfss?)://|\bGeneric (?:S3|GCS|Azure\w*) error\b|\bwhen calling the \w+ operation\b|"
         # the AWS SDK for C++ under pyarrow.fs.S3FileSystem: `When reading information for key 'k' in bucket 'b': AWS Error
         # ACCESS_DENIED during HeadObject operation: ...` (apache/arrow cpp/src/arrow/filesystem/s3_internal.h ErrorToStatus)
         r"\bAWS Error (?:[A-Z_]+ |\[code \d+\])|\bin bucket '|"
         # botocore's transport errors name the store's endpoint (exceptions.py EndpointConnectionError "Could not connect to the
         # endpoint URL: %s", ConnectionClosedError "Connection was closed before we received a valid response from endpoint URL",
         # Read / ConnectTimeoutError "... on endpoint URL"); the stores by name (not `GCS`: Ray's Global Control Service)
         r"\bendpoint URL: |\bS3\b|Google Cloud Storage|Azure Blob|"
         # a bucket named as such (pyarrow 26 s3fs.cc: "Bucket 'b' not found. To create buckets, enable the allow_bucket_creation option.")
         r"\b[Bb]ucket '[^'\s]+'|"
         # botocore's own connection classes in urllib3's errors (botocore/awsrequest.py AWSHTTPConnectionPool)
         r"\bAWSHTTPS?Connection|"
         # the frameworks' own words for the store (pyarrow's filesystems in Ray's "Path not found: (<pyarrow._s3fs.S3FileSystem
         # object at ...>, b/k)"; KServe's storage initializer "S3 resource 'b' not found.", "Invalid AWS credentials."; NVIDIA's
         # multi-storage-client "... when GET object(s) at b/k"; the Run:ai streamer's "Object storage returned ...")
         r"\b(?:S3|Gcs|GCS|Azure)FileSystem\b|\b(?:GCS|S3|Azure) (?:resource|bucket|object)s?\b|\bAWS credentials\b|(?i:\bobject storage\b)|"
         r"\bobject\(s\) at\b|\bmultistorageclient\.")
# an HTTP status as the stores' clients print it (`403 GET https://...`, `(403) when calling`, `status code: 403`)
_STORE_STATUS = r"(?:^|(?<=[\s(\[:]))(?:{0})(?: (?:GET|PUT|POST|HEAD|DELETE|PATCH)\b|\))|\b(?:HTTP )?status(?: code)?[ :=]+(?:{0})\b"
# The store family's readings, in the rows' order (class and code names case-sensitive, the services' words not):
# a body cut short or failing its checksum; a refusal of the caller's credentials or access (a skewed clock is
# refused as a signature is: S3 answers it 403, s3fs errors.py raises PermissionError); a missing bucket / container;
# a missing object; the transient rest (the AWS SDK for C++'s own codes and curl's transport failures under it).
_STORE_CUT = (r"DataCorruption|Checksum|DownloadFailed|S3ValidationError|[Pp]artial file|bytes missing|" + E.CUT_SHORT + "|"
              r"(?i:md5 mismatch|crc32c|digest mismatch|hash mismatch|unexpected number of bytes)")
_STORE_REFUSED = (_STORE_STATUS.format("40[13]") + r"|Forbidden|Unauthori[sz]ed|PermissionDenied|Unauthenticated|Authentication|"
                  r"Credential|RefreshError|RequestTimeTooSkewed|MetadataRetrieval|TokenRetrieval|"
                  r"(?i:invalid (?:\w+ )?credentials|permission denied|access[ _]?denied|invalid_?access_?key_?id|"
                  r"signature_?does_?not_?match|expired_?token|invalid_?token|not authorized|failed to authenticate|"
                  r"authentication failed|lacked (?:the necessary privileges|valid authentication)|credentials were not found|"
                  r"unable to locate credentials|error performing token request)")
_STORE_NO_BUCKET = (r"NoSuchBucket|\b404 GET \S*/b/[^/\s?]+(?:/o)?(?:\?|\s|$)|"
                    r"(?i:\b(?:bucket|container)\b[^.]{0,60}?\b(?:does not exist|not found))")
_STORE_NO_OBJECT = _STORE_STATUS.format("404") + r"|NotFound|NoSuchKey|(?i:not found|does not exist)"
_STORE_TRANSIENT = (_STORE_STATUS.format(r"400|408|429|5\d\d") + r"|TooManyRequests|InternalServerError|InternalError|BadGateway|"
                    r"GatewayTimeout|DeadlineExceeded|RetriesExceeded|RetryError|Service(?:Request|Response)\w*Error|UploadFailed|"
                    r"SlowDown|Throttl|RequestTimeout|RequestLimitExceeded|"
                    r"NETWORK_CONNECTION|INTERNAL_FAILURE|SERVICE_UNAVAILABLE|SLOW_DOWN|THROTTLING|REQUEST_TIMEOUT|"
                    r"curlCode: (?:6|7|28|35|52|56)\b|"
                    r"(?i:unavailable|too many requests?|retryable|server is busy|within the specified time|"
                    r"request or response body error|error sending request|retry attempts failed|"
                    r"failed\b[^.]{0,40}? after \d+ (?:attempts|retries)|could not connect to the endpoint|"
                    r"error performing (?:GET|PUT|POST|HEAD|DELETE)|max retries|" + _TIMEOUT_WORDS + r"|"
                    r"connection (?:refused|reset|aborted|was closed)|failed to resolve|name resolution)")
# (not a format's signature missing from a file that is there: pyarrow's "Parquet magic bytes not found in footer", a
# "magic number not found": the file's bytes are wrong, it is not absent)
_NOT_THERE = r"(?i:\b404\b|(?<!magic bytes )(?<!magic number )not found|does ?n[o']t exist|no such|(?:cannot|can't|could not|couldn't|unable to) find)"
# vLLM by name, not its documentation site (`docs.vllm.ai` in an install hint names no engine) nor a name built on it
# (a pod / container `vllm-qwen3-0`, `spec.containers{vllm}`, a cache path `~/.cache/vllm/...`: the engine is not what the line is about);
# v0's client reports `Engine process (pid N) died.` (vllm/engine/multiprocessing/client.py); v1's
# executor runs the model in `WorkerProc` processes (v1/executor/multiproc_executor.py: "WorkerProc
# initialization failed due to an exception in a background process")
# Other inference engines by their own process / logger names: Hugging Face TGI (text-generation-
# inference launcher/src/main.rs tracing targets `text_generation_launcher`, `shard-manager`; server
# package text_generation_server), SGLang (sglang.srt), lmdeploy (its TurboMind backend), TensorRT-LLM
# (`[TRT-LLM]` logger prefix, tensorrt_llm package), Aphrodite (aphrodite-engine, its Ray workers
# RayWorkerAphrodite).
_ENGINE = (r"EngineCore|[Ee]ngine core|LLMEngine|AsyncLLM|MQEngine|[Ee]ngine loop|[Ee]ngine proc(?:ess)?\b|\bWorkerProc\b|(?i:(?<!docs\.)(?<![/{-])\bvllm\b(?!\.ai|\._C|\._\w*C\b|-\w|/|\}))|"
           r"text_generation_(?:launcher|server|router)|shard-manager|\bsglang\b|\blmdeploy\b|TurboMind|turbomind|"
           r"tensorrt_llm|TensorRT-LLM|\[TRT-LLM\]|\btrtllm\b|[Aa]phrodite|"
           # other serving frameworks' own names (xorbitsai/inference `xinference.core.worker`, mudler/LocalAI's
           # `localai` / gRPC backends, ollama, llama.cpp's llama-server, NVIDIA Triton's tritonserver)
           r"\bxinference\b|\b[Ll]ocal ?AI\b|\blocalai\b|\bollama\b|llama-server|tritonserver|"
           # an RL trainer's word for its rollout engines (SkyRL inference_engine_client.py "Inference engine 0
           # died", "All inference engines have died"), vLLM-named classes (SkyRL's VLLMRouter / VLLMServerActor)
           # and vLLM v1's data-parallel coordinator process (v1/engine/coordinator.py "DP Coordinator process")
           r"\b[Ii]nference engines?\b|\b(?:[Rr]ollout|[Gg]eneration) engines?\b|\bV[Ll][Ll]M[A-Z]\w*|\bvLLM[A-Z]\w*|\bDP ?Coordinator\b|"
           # a serving framework's own server (kserve model_server: "Failed to start model server: ..."); Ray Serve
           # LLM's replica class that hosts the vLLM engine (ray-project/ray python/ray/llm/_internal/serve/
           # deployments/llm/llm_server.py LLMServer @ 57dd69c502fbe6e76ce1b457afb7b4263f143c7a)
           r"\b(?:[Mm]odel|[Ii]nference) server\b|\bLLMServer\b|"
           # an inference engine by its class or source file in any framework's words (Huawei MindIE's
           # `LLMInferEngine failed to init LLMInferModels`, `infer_engine_inner.cc:257] Engine init ...`: public set 61)
           r"[A-Z]\w*InferEngine\b|\binfer(?:ence)?_engine\w*")
# an engine as the subject of a death ("Inference engine 0 died (RayActorError)", "All inference engines have
# died"), not an engine named elsewhere on a line about an actor (a `repr=<...vllm_engine...>` field)
ENGINE_DIED = re.compile(rf"(?:{_ENGINE})[\w ]{{0,20}}?\b(?:has |have )?died\b")
_RAY = r"\bRay\b|\bray\b|(?i:raylet)|\bGCS\b|\bgcs\b|Node ?I[DdP]\b|(?i:\bnode ID\b)|node_id|RayTask|Worker ID|heartbeats?\b|marked dead"

# Message catalogues read from the libraries' own strings, so a phrasing no corpus line showed is
# still named. CUDA: what cudaGetErrorString returns (`strings libcudart.so.12`, PyPI wheel
# nvidia-cuda-runtime-cu12 12.9.79). The DISTINCT texts name CUDA by themselves; the GENERIC ones
# ("unknown error", "invalid argument") only inside a CUDA error report: `CUDA error: <text>`,
# `cudaError...`, `CUDA_ERROR_...`, or the CUDA samples' `(error code <text>)!` (vectorAdd.cu:
# "Failed to allocate device vector A (error code %s)!", cudaGetErrorString(err)).
CUDA_DISTINCT = (
    r"an illegal (?:memory access|instruction) was encountered|misaligned address|unspecified launch failure|"
    r"device-side assert triggered|hardware stack error|invalid program counter|too many resources requested for launch|"
    r"the launch timed out and was terminated|invalid device ordinal|invalid device function|invalid configuration argument|"
    r"no CUDA-capable device is detected|CUDA-capable devices? (?:\(s\) )?(?:is/are|is|are) busy or unavailable|"
    r"no kernel image is available for execution on the device|device kernel image is invalid|"
    # torch's own capability check before the first kernel (torch 2.11 torch/cuda/__init__.py _check_capability: "%s with
    # CUDA capability sm_%d%d is not compatible with the current PyTorch installation."): no kernel will run on that GPU
    r"with CUDA capability sm_\d+ is not compatible with the current PyTorch installation|"
    r"uncorrectable ECC error encountered|uncorrectable NVLink error|CUDA driver version is insufficient for CUDA runtime|"
    r"unsupported display driver / cuda driver combination|forward compatibility was attempted on non supported HW|"
    r"CUDA driver is a stub library|PTX JIT compil\w+ (?:failed|library not found|was disabled)|"
    r"PTX was compiled with an unsupported toolchain|named symbol not found|"
    # (torch's caching allocator frees an unknown pointer: c10/cuda/CUDACachingAllocator.cpp "invalid device pointer: %p")
    r"invalid device pointer|Invalid access of peer GPU memory over nvlink|startup failure in cuda runtime|"
    # cuBLAS / cuDNN status names and cublasGetStatusString's texts (libcublasLt.so.12 of the wheel
    # nvidia-cublas-cu12 12.9.3.13, libcudnn_graph.so.9 of nvidia-cudnn-cu12 9.28.0.42)
    r"CUBLAS_STATUS_(?!SUCCESS\b)[A-Z_]+|CUDNN_STATUS_(?!SUCCESS\b)[A-Z_]+|the function failed to launch on the GPU|"
    # the other CUDA math libraries' status enums (curand.h curandStatus, cufft.h cufftResult, cusolver_common.h,
    # cusparse.h): CURAND_STATUS_LAUNCH_FAILURE, CUFFT_EXEC_FAILED, CUSOLVER_STATUS_INTERNAL_ERROR ...
    r"CU(?:RAND|SOLVER|SPARSE)_STATUS_(?!SUCCESS\b)[A-Z_]+|CUFFT_(?!SUCCESS\b)[A-Z]+_[A-Z_]+|"
    # glog's CHECK on a cudaError_t (Caffe / TF / MXNet CUDA_CHECK: "Check failed: error == cudaSuccess (29 vs. 0)
    # driver shutting down"): the runtime's status number and text
    r"== cudaSuccess \(\d+ vs\. 0\)|"
    r"an access to GPU memory space failed|"
    # torch's own words for a driver it cannot use (torch/cuda/__init__.py _check_driver, c10/cuda
    # CUDAFunctions.cpp "CUDA initialization: Unexpected error from cudaGetDeviceCount()")
    r"NVIDIA driver on your system is too old|Found no NVIDIA driver on your system|Unexpected error from cudaGetDeviceCount|"
    # the driver's GPU core dump on an exception (CUDA_ENABLE_COREDUMP_ON_EXCEPTION: "coredump: Detected an exception of
    # type CUDBG_EXCEPTION_WARP_ILLEGAL_ADDRESS (14)", the exception names of cudadebugger.h)
    r"\bCUDBG_EXCEPTION_(?!NONE\b)[A-Z_]+")
CUDA_GENERIC = (
    r"unknown error|initialization error|invalid argument|invalid value|invalid resource handle|"
    r"invalid device context|context is destroyed|operation not (?:supported|permitted)|driver shutting down|"
    r"system not yet initialized|OS call failed|the operation cannot be performed in the present state|wait operation timed out|"
    r"launch failure|not initialized|peer access \w+")
CUDA_REPORT = (r"(?i:\bcuda (?:runtime |driver )?error\b[^\n]{0,40}?|\bcuda failure\b[^\n]{0,20}?|cudaError\w*[^\n]{0,20}?|CUDA_ERROR_\w+[^\n]{0,20}?)|\(error code |"
               # a runtime call's own report: `cudaMalloc failed: <text>`, `cudaMemcpy() returned <text>`
               r"\bcuda[A-Z]\w*(?:\([^)]*\))?:? (?:failed|returned|error)\b[^\n]{0,20}?")
# NCCL's back trace of a failed call on its INFO channel: NCCLCHECK and its kin print `<file>:<line> -> <ncclResult_t>` at each
# frame the failure returns through (NVIDIA/nccl src/include/checks.h NCCLCHECK: INFO(NCCL_ALL,"%s:%d -> %d", __FILE__, __LINE__,
# RES); newer debug prefixes put the function in brackets, `transport/net.cc:1620 (recvProxyProgress) -> 6`). The result is never
# ncclSuccess (0) or ncclInProgress (7): NCCL's failure, read as a notice (its INFO level), never a death alone.
NCCL_BACKTRACE = r"\bNCCL INFO [\w/.-]+\.(?:cc|cu|cpp|h):\d+(?: \(\w+\))? -> [1-6]\s*$"
NCCL_BACKTRACE_RX = re.compile(NCCL_BACKTRACE)
# NCCL: what ncclGetErrorString returns (`strings libnccl.so.2`, PyPI wheel nvidia-nccl-cu12 2.32.3:
# "unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "unhandled system error ...",
# "internal error - please report this issue to the NCCL developers", "invalid usage (run with
# NCCL_DEBUG=WARN for details)", "remote process exited or there was a network error"); the ones
# that do not say NCCL are named here.
NCCL_RESULTS = (r"remote process exited or there was a network error|internal error - please report this issue to the NCCL|"
                r"unhandled (?:cuda|system) error \(run with NCCL_DEBUG|invalid usage \(run with NCCL_DEBUG|"
                # NCCL's set-up WARNs that say no error word, as torch's exception repeats them without the
                # `NCCL WARN` head ("Last error: ..."; libnccl 2.28 strings, corpus/current/format_strings.txt):
                # init.cc "Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx", bootstrap.cc
                # "Bootstrap : no socket interface found", net_socket.cc "NET/Socket : no interface found"
                r"Duplicate GPU detected : rank \d+ and rank \d+|\brank \d+ and rank \d+ both on CUDA device\b|Bootstrap ?: no socket interface found|NET/Socket ?: no interface found")
# Container registries' refusals (the OCI distribution spec's error codes as registries print them:
# TOOMANYREQUESTS "toomanyrequests" / Docker Hub's "You have reached your pull rate limit",
# MANIFEST_UNKNOWN, NAME_UNKNOWN "repository name not known to registry", BLOB_UNKNOWN, UNAUTHORIZED
# "authentication required" (docker prints `unauthorized: authentication required`), DENIED
# "requested access to the resource is denied", docker's "repository does not exist or may require
# 'docker login'"): the image was never pulled.
REGISTRY_REFUSAL = (r"toomanyrequests|pull rate limit|unauthorized: authentication required|repository name not known to registry|blob unknown to registry|"
                    r"requested access to the resource is denied|repository does not exist or may require .docker login|"
                    r"(?i:manifest unknown|MANIFEST_UNKNOWN|NAME_UNKNOWN)|"
                    # kubelet's other pull reasons (kubernetes pkg/kubelet/images/types.go: ErrImageNeverPull,
                    # InvalidImageName, ImageInspectError, RegistryUnavailable) and containerd's
                    # remotes/docker authorizer ("failed to authorize: failed to fetch anonymous token")
                    r"InvalidImageName|ImageInspectError|RegistryUnavailable|failed to fetch (?:anonymous|oauth) token|"
                    # BuildKit fetching a base image ("failed to resolve source metadata for docker.io/...")
                    r"failed to resolve source metadata|"
                    # containers/image (podman / skopeo / buildah: "Error initializing image from source
                    # docker://x: ...", "initializing source docker://x: reading manifest ...") and podman's
                    # "Error: image x:tag not found"
                    r"(?i:initializing (?:image from )?source docker://)|\bimage \S+ not found\b|"
                    # the daemon's answer on the registry API itself (`Error response from daemon: Head
                    # "https://registry-1.docker.io/v2/...": unauthorized: ...`): the OCI distribution /v2/ path
                    r"(?i:error response from daemon)[^\n]*https?://[^\s\"]*/v2/|"
                    r"https?://[^\s\"]*(?:registry|docker\.io|ghcr\.io|nvcr\.io|gcr\.io|quay\.io|\.ecr\.|azurecr\.io)[^\s\"]*/v2/")
# A container that never started (runc / containerd / Docker: "OCI runtime create failed: runc create
# failed: unable to start container process", "failed to create shim task", "exec format error"): a
# process that ended with no other kind (corpus README, labelling decisions). Likewise a process out of
# file descriptors (EMFILE, errno 24: "[Errno 24] Too many open files", gRPC's "Too many open files"):
# a limit of the process, not a node's death nor a network failure.
CONTAINER_START = (r"OCI runtime (?:create|exec|start) failed|runc (?:create|run|exec) failed|failed to create (?:containerd |shim )task|"
                   r"unable to start container process|exec format error|could not select device driver|"
                   # kubelet's container start reasons (kubernetes pkg/kubelet/container/sync_result.go:
                   # RunContainerError, CreateContainerError, CreateContainerConfigError, Pre/PostStartHookError),
                   # CRI-O's "container create failed", the Job controller giving up (pkg/controller/job:
                   # BackoffLimitExceeded "Job has reached the specified backoff limit")
                   r"RunContainerError|CreateContainer(?:Config)?Error|ContainerCannotRun|P(?:re|ost)StartHookError|container create failed|"
                   # Slurm's container plugin (NVIDIA/pyxis: "pyxis: container start failed with error code: N"; v0.24.0
                   # pyxis_slurmstepd.c "pyxis: failed to create container filesystem", "pyxis: container exited too soon")
                   # and Apptainer's starter (apptainer/apptainer v1.5.3 internal/app/starter: "container creation failed")
                   r"container start failed|pyxis: (?:failed to create container|container exited too soon)|container creation failed|"
                   # the kubelet's pod sandbox that could not be made (pkg/kubelet/kuberuntime "Failed to create pod sandbox: %v",
                   # event reason FailedCreatePodSandBox; e.g. no "nvidia" runtime configured in containerd)
                   r"Failed to create pod sandbox|"
                   r"BackoffLimitExceeded|reached the specified backoff limit|(?i:error response from daemon:[^\n]{0,40}failed to (?:create|start))|"
                   # Docker's API answering a create / start (moby client: "Error response from daemon: <msg>"),
                   # and an agent's wrapper of it ("error creating container: ..."): a pull refusal is read
                   # first (image_pull's rows above this one), any other refusal is a container that never ran
                   r"(?i:error creating container|error response from daemon)")
# A process that could not start or ended in a runtime's own panic: POSIX shells' "command not found"
# (dash: `sh: 1: X: not found`, bash: `bash: X: command not found`, `bash: line 1: X: command not found`)
# and Rust's panic handler (std `thread 'main' panicked at src/x.rs:1:2:`; hyperactor's
# panic_handler.rs `panic at <file>:<line>:<col>`)
# zsh says `zsh: command not found: X`; env(1) `/usr/bin/env: 'python': No such file or directory`; Go's
# os/exec (docker / containerd / runc) `exec: "x": executable file not found in $PATH`, runc's
# `exec user process caused: no such file or directory`
# (a script's own path in place of the shell's name: bash "<script>: line N: <cmd>: command not found", dash
# "<script>: N: <cmd>: not found"; Slurm's step daemon exec'ing a program that is not there, slurmstepd
# "execve(): <program>: No such file or directory")
SHELL_NOT_FOUND = (r"^\s*(?:/bin/|/usr/bin/)?(?:ba|da|z|k)?sh: (?:(?:line )?\d+: )?[^:\n]{1,200}: (?:command )?not found\b|"
                   # (bash's report of a path it could not exec: execute_cmd.c "%s: No such file or directory", as
                   # `/bin/bash: line 1: /usr/sbin/sshd: No such file or directory`)
                   r"^\s*(?:/bin/|/usr/bin/)?(?:ba|da|z|k)?sh: (?:(?:line )?\d+: )?/[^:\n]{1,200}: No such file or directory\s*$|"
                   r"^\s*\S+: (?:line )?\d+: [^:\n]{1,200}: (?:command )?not found\b|\bexecve\(\): [^:\n]{1,200}: (?:No such file or directory|Permission denied)|"
                   r"^\s*zsh: command not found: |/usr/bin/env: '?[^:\s]+'?: No such file or directory|"
                   r"executable file not found in \$PATH|exec user process caused: no such file")
# Rust's panic handler (Go's runtime `panic: ...` ends its process: exceptions.FATAL_RECORD, a cause rule)
# (and Rust std's default alloc error handler, library/std/src/alloc.rs: "memory allocation of %d bytes failed",
# then abort: a Rust extension such as tokenizers out of address space)
RUST_PANIC = r"\bpanicked at \S+:\d+|\bpanic at \S+\.rs:\d+|^thread '[^']*' panicked at|^\s*memory allocation of \d+ bytes failed\b"
# Downloads by wget and curl (GNU wget src/http.c: "%s ERROR %d: %s." with the status and its reason;
# curl's CURLE_HTTP_RETURNED_ERROR (22): "The requested URL returned error: %d"): 404 is a file to
# fetch that is missing, 429 / 5xx a transient refusal of the host, 401 / 403 a refused credential
def _fetch_status(codes: str) -> str:
    # wget's `ERROR 404: Not Found.`, curl's exit 22, and a client's own "<METHOD> failed (<status>)"
    # (llama.cpp common/arg.cpp's Hub calls: "get_repo_files: error: GET failed (429)")
    return (rf"\bERROR (?:{codes}): [A-Z]|curl: \(22\) The requested URL returned error: (?:{codes})\b|"
            rf"\b(?:GET|HEAD) (?:request )?failed \((?:{codes})\)")


# (wget's own status line before its ERROR: "HTTP request sent, awaiting response... 404 Not Found")
FETCH_MISSING = _fetch_status("404") + r"|awaiting response\.\.\. 404\b"
# curl's transport exits (curl lib/strerror.c: CURLE_COULDNT_RESOLVE_HOST 6, OPERATION_TIMEDOUT 28,
# SSL_CONNECT_ERROR 35, GOT_NOTHING 52, RECV_ERROR 56): the host did not serve the file (not 7, a refused
# connection: scripts poll a local server's health with curl until it answers); PARTIAL_FILE 18
# ("transfer closed with N bytes remaining to read") is a download cut short
FETCH_TRANSIENT = _fetch_status(r"429|5\d\d") + r"|awaiting response\.\.\. (?:429|5\d\d)\b|^\s*curl: \((?:6|28|35|52|56)\) "
FETCH_CUT_SHORT = r"^\s*curl: \(18\) "
FETCH_REFUSED = _fetch_status("40[13]")
# Cloud capacity refusals (a node that could not be provisioned: AWS EC2 InsufficientInstanceCapacity,
# the Hub Spaces scheduler's "Scheduling failure: not enough hardware capacity",
# GCE ZONE_RESOURCE_POOL_EXHAUSTED, SkyPilot / dstack "All provisioning attempts failed", providers'
# "not enough / insufficient / out of capacity") and kube-scheduler's FitError ("0/N nodes are available:
# ..." whatever its reasons: taints the pod did not tolerate, affinity, Insufficient X): nowhere to run
# Azure's allocation failures (AllocationFailed, ZonalAllocationFailed, OverconstrainedAllocationRequest),
# GCE's GCE_STOCKOUT, the cluster autoscaler's NotTriggerScaleUp event ("pod didn't trigger scale-up")
CAPACITY = (r"[Nn]ot enough (?:\w+ )?capacity|[Ii]nsufficient (?:\w+ )?capacity|InsufficientInstanceCapacity|ZONE_RESOURCE_POOL_EXHAUSTED|"
            # (Volcano's scheduler says it the other way round, pkg/scheduler/api/unschedule_info.go "0/%d nodes are unavailable: ...")
            r"[Oo]ut of capacity|All provisioning attempts failed|\b\d+/\d+ nodes are (?:un)?available: |"
            r"\b(?:Zonal)?AllocationFailed\b|OverconstrainedAllocationRequest|GCE_STOCKOUT|NotTriggerScaleUp|didn't trigger scale-up|"
            # SkyPilot's provisioner (sky/backends/cloud_vm_ray_backend.py: "Failed to provision all possible launchable
            # resources. Relax the task's resource requirements", "Failed to acquire resources in all zones in <region>")
            r"Failed to provision all possible launchable resources|Failed to acquire resources in (?:all zones|\S+ for)|"
            # the cluster autoscaler's failed scale-up (event FailedScaleUp: "Node scale up in zones %s associated with
            # this pod failed: %s. Pod is at risk of not being scheduled.", kubernetes/autoscaler cluster-autoscaler)
            r"\bFailedScaleUp\b|[Ss]cale[- ]?up in zones [^\n]{0,120}\bfailed\b|at risk of not being scheduled")
# The dynamic loader's failures (glibc elf/dl-load.c "cannot open shared object file", elf/dl-lookup.c
# "undefined symbol: ", elf/dl-version.c "version `%s' not found (required by %s)", "wrong ELF class",
# "invalid ELF header"), however the loading program words around them ("Could not load bitsandbytes
# native library: <dlerror>"): a library the program needs is missing or does not fit, a python_crash.
DLOPEN_FAILED = (r"\.so(?:\.[\w.]+)?: (?:cannot open shared object file|undefined symbol: |wrong ELF class|invalid ELF header)|"
                 r"\bversion `[\w.]+' not found \(required by ")
EMFILE = r"Too many open files|\[Errno 24\]|\bEMFILE\b"
BUILD_FAILED = (r"^\S+:\d+:\d+: (?:fatal )?error: |^\S+\(\d+\): (?:catastrophic )?error: |"
                r"^ninja: build stopped: |Error building extension '")
# SGLang's engine processes (sgl-project/sglang python/sglang/srt: entrypoints/http_server.py health
# handler "Health check failed. Server couldn't get a response from detokenizer for last N seconds",
# entrypoints/engine.py _launch_subprocesses "Rank {i} scheduler is dead. Please check if there are
# relevant logs."). The "hit an exception" and sigquit lines are in observe/causes.py's engine_dead
# family, the warmup's "Initialization failed. warmup error" in its engine_init_failed family.
# engine.py's sigchld handler: "Child process unexpectedly failed with an exit code %d. pid=%d" (0.4),
# "Child process unexpectedly failed with {exitcode=}. {pid=}" (later).
SGLANG_DEAD = (r"couldn't get a response from (?:the )?(?:detokenizer|scheduler|tokenizer)|Rank \d+ scheduler is dead|"
               # (sglang 0.4.6-0.5.23 tokenizer_manager.py: the server's SIGTERM while its health check fails, "Signal SIGTERM
               # received while health check failed. Exiting..." / "Force exiting.", and its crash dump "Dumping requests
               # before crash")
               r"\bSIG[A-Z]+ received while health check failed\b|\bDumping requests before crash\b|"
               # sglang-router 0.1.4 / 0.1.5 (src/router.rs, pd_router.rs): a worker it gave up on ("Removing failed worker:
               # %s", the last of its retries "... failed (attempt 3/3)"), a P/D server answering 5xx
               r"\bRemoving failed worker\b|\brequest to http\S+ failed \(attempt (\d+)/\1\)|"
               r"\b(?:prefill|decode) server http\S+ returned status 5\d\d\b|"
               # (router 0.2.1 routers/http/pd_router.rs: "Prefill server failed (CRITICAL)", "Decode server returned error status",
               # "Failed to select PD pair error=No available prefill workers")
               r"(?i:\b(?:prefill|decode) server (?:failed|returned error status)\b|\bNo available (?:prefill|decode) workers?\b)|"
               # P/D disaggregation losing its peer instance (sglang 0.5.2 / 0.5.8 disaggregation/mooncake/conn.py "Losing connection
               # with prefill instance (bootstrap_addr: %s)", nixl/conn.py "Lost connection with prefill instance", "Let room %s be
               # failed due to prefill down", "Transfer for room %s failed due to node failure"): the peer engine is gone
               r"\b(?:Losing|Lost) connection with (?:prefill|decode) instance\b|\bfailed due to (?:(?:prefill|decode) down|node failure)\b|"
               # the gRPC front's health of its scheduler (0.5.8 grpc/health_servicer.py "Service health check: Scheduler not responsive",
               # grpc_request_manager.py "Received SIGQUIT from scheduler process. Scheduler failed")
               r"\bScheduler not responsive\b|\bReceived SIGQUIT from scheduler process\b|"
               r"Child process unexpectedly failed with (?:an exit code|exitcode=)")
# megatron-core's rerun state machine (0.10.0-0.20 megatron/core/rerun_state_machine.py) on a result it does not trust (a
# NaN / Inf loss or grad norm): "Unexpected result ...", "Possible transient error!", "Possible persistent error!", "unexpected
# result is not reproducible", "Got rescheduled on the same GPU", then "Exiting now. ..." (its sys.exit): the job ends
RERUN_MACHINE = (r"rerun_state_machine\b[^\n]{0,120}?(?:(?i:exiting now)\b|Unexpected result\b|Possible (?:transient|persistent) error\b|"
                 r"[^\n]*\bnot reproducible\b|Got rescheduled on the same GPU)")
# pydantic's ValidationError detail line (pydantic-core 2.x: "  Value error, %s [type=value_error, input_value=..., input_type=...]"):
# a config the model class refused (vLLM 0.12-0.22's config dataclasses, any pydantic settings): the caller's, python_crash
PYDANTIC_DETAIL = r"^\s*Value error, [^\n]*\[type=value_error, input_value="
# Ray's own words for a raylet that went away (ray 2.60.0 wheel, strings of _raylet.so / raylet /
# gcs_server: "Exiting because the Raylet IPC connection failed and the local Raylet is dead",
# "Failed to notify Raylet. The raylet may have already shut down", "the raylet may have died",
# "Disconnecting raylet client because its node is dead", "Node is dead because the health check
# failed.", "GCS consider this node to be dead", LOCAL_RAYLET_DIED; older core_worker.cc: "Raylet
# failed. Shutting down.").
RAYLET_GONE = (r"Raylet failed\. Shutting down|local Raylet is dead|raylet may have (?:already )?(?:died|shut down)|"
               # (ray 2.44.1 core_worker.cc: "Disconnect core worker client since its node is dead")
               r"Disconnect(?:ing)? (?:raylet|core worker) client (?:because|since) its node is dead|Node is dead because the health check failed|"
               r"GCS consider this node to be dead|LOCAL_RAYLET_DIED|"
               # python/ray: dashboard/agents "Raylet is dead! Exiting ...", "Raylet is considered dead N X",
               # "...'s local raylet died."
               r"Raylet is (?:considered )?dead|Every raylet is dead|local raylet died|"
               # a Slurm step that hosts a Ray node dying (NVIDIA-NeMo/RL ray.sub's watcher: "Background
               # srun 'ray-worker-N' died"): the node went with it
               r"\bsrun\b[^\n]{0,20}\bray-(?:worker|head)[\w-]*'? died|"
               # `ray start --block`'s watch over its node's processes (python/ray/scripts/scripts.py:
               # "Some Ray subprocesses exited unexpectedly:"): the node is going down with them
               r"(?:Some )?Ray (?:sub)?processes (?:exited|died) unexpectedly")

# Inference engines failing to come up in their own words (the engine_init_failed row at the top of
# TABLE; error-shaped by themselves: CATALOGUE): vLLM 0.34 entrypoints/launchers/launcher.py "port %s is
# used by process %s", v1/executor/ray_executor_v2.py "Ray workers have not started successfully";
# sglang 0.5.23 entrypoints/engine.py "Rank N scheduler died during initialization (exit code: N)" (read
# before its OOM-killer hint is taken for the kill), "engine_info_bootstrap_port N is already in use",
# distributed/bootstrap.py "The memory capacity is unbalanced".
ENGINE_START_FAILED = (r"\bport \d+ is used by process\b|Ray workers have not started successfully|"
                       # Ray Serve's controller on a deployment (an LLM server) that never came up ("The deployment
                       # failed to start 3 times in a row. This may be due to a problem with its constructor")
                       r"The deployment failed to start \d+ times in a row|"
                       r"\bscheduler died during initiali[sz]ation\b|memory capacity is unbalanced|port \d+ is already in use|"
                       # a router in front of the engines giving up on their start (sglang-router 0.1.4 / 0.1.5 src/router.rs:
                       # "Timeout %ds waiting for workers %s", "Timeout %ds waiting for worker %s to become healthy"; vllm-router 0.1.17,
                       # its fork: "Timeout %ds waiting for hosts %s to become healthy", current set 35)
                       r"\bTimeout \d+s waiting for (?:workers?|hosts?)\b|"
                       # (router 0.2.1 core/worker_manager.rs: "Workers failed to become healthy after %ds")
                       r"\bWorkers failed to become healthy after\b|"
                       # vLLM's API-server processes that never reported their addresses (0.22.1 v1/utils.py: "Timed out after
                       # %ss waiting for API server(s) to report bound ZMQ addresses", "API server process %s exited (code=%s)
                       # before reporting its bound ZMQ addresses", "API server %s closed its address pipe without reporting")
                       r"\bwaiting for API server\(s\) to report\b|\bAPI server (?:process )?\S+ (?:exited|closed)\b[^\n]{0,60}?\breporting its bound\b")

# (and an endpoint waited on the same way: SGLang 0.5.23's wait_for_server helper, "Endpoint <url> did not become ready
# within timeout period" as current set 41 printed it)
ENGINE_NOT_READY = (r"(?i:\b(?:server|engine|endpoint)s?\b[^\n]{0,60}?\b(?:did not|didn't|never|failed to) become (?:ready|healthy)\b|"
                    r"\b(?:server|engine)\b[^\n]{0,40}?\bis not ready after \d+|\bfailed to start (?:the )?(?:[\w-]+ ){0,2}server\b|"
                    # (a hosted inference endpoint, Hugging Face Inference Endpoints' "Endpoint failed to start.")
                    r"\b(?:inference )?endpoint failed to (?:start|initiali[sz]e)\b|"
                    # (and slime's / verl's launcher of an SGLang server process that ended before it served, slime
                    # backends/sglang_utils/sglang_engine.py "Server process terminated unexpectedly.")
                    r"\bterminated unexpectedly during start-?up\b|\bServer process terminated unexpectedly\b|\bbefore its \w+ endpoint was ready\b|"
                    r"\b(?:vLLM|SGLang|inference|LLM) server\b[^\n]{0,20}? can't be reached at \S+ after [\d.]+ seconds|"
                    # (trl experimental/async_grpo/vllm_client.py "Timed out after %ds waiting for vLLM server at %s")
                    r"\btimed out after [\d.]+ ?s(?:econds)? waiting for (?:the )?(?:vLLM|SGLang|inference|LLM) server)")

# A library's own failure text is a failure statement whatever surrounds it ("an illegal instruction
# was encountered", "toomanyrequests" carry no error word of the vocabulary): the catalogues' texts
# that say no such word, as literals (error_shaped reads every candidate line: no case-insensitive
# or unanchored sub-patterns here, they cost the scan).
# A loader asking whether the name it could not resolve is right (unsloth "No config file found - are you sure
# the `model_name` is correct?"): the repo id does not resolve, said without an error word
MODEL_ID_DOUBTED = r"[Aa]re you sure (?:that )?(?:the |your )?`?(?:model|repo)\w*`? (?:is )?(?:correct|right|valid)"
# CPython's faulthandler watchdog (Python/faulthandler.c, dump_traceback_later: "Timeout (%lu:%02lu:%02lu%s)!"
# before every thread's stack; with exit=True the process then exits)
FAULTHANDLER_TIMEOUT = r"^Timeout \(\d+:\d\d:\d\d(?:\.\d+)?\)!"
# Slurm's words for its own end of a job (SchedMD/slurm @ f56e676b, slurm-25-11-7-1: slurmstepd req.c, slurmctld
# job_mgr.c, salloc.c, srun allocate.c / launch.c, sbatch.c; the vocabulary rows below cite each site)
_SLURM_BANNER = r"\*\*\* (?:JOB|STEP) \S+ ON \S+ CANCELLED AT \S+"
SLURM_TAKEN_BACK = (_SLURM_BANNER + r" (?:DUE (?i:to) (?:TIME LIMIT|PREEMPTION|JOB REQUEUE|SIGNAL\b)|\*\*\*)|"
                    r"\bTime limit exhausted for JobId=|has exceeded its time limit and its allocation has been revoked")
SLURM_ENDED = (_SLURM_BANNER + r" DUE TO (?:NODE|TASK) FAILURE|\*\*\* (?:JOB|STEP) \S+ (?:ON \S+ FAILED|STEPD TERMINATED)\b|"
               # srun's report of a task a signal ended ("srun: error: %s: task %s: %s", the signal's strsignal(); an
               # exit code is exceptions.EXIT_REPORT's, an OOM the pod_oomkilled row's), a node lost under the step
               # ("srun: error: Node failure on %s", "srun: Job step aborted: Waiting up to %d seconds for job step to
               # finish."), slurmctld's kill on a failed node and its prolog failures
               r"\bsrun: error: \S+: tasks? [\d,-]+: (?!Exited\b|Out Of Memory)[A-Z]|\bsrun: error: Node failure on\b|"
               r"\bsrun: Job step aborted\b|\bKilling JobId=\S+ on failed node\b|\bNodes? \S+ not responding, setting DOWN\b|"
               r"\bprolog failed status=|Prolog or job env setup failure")
SLURM_REFUSED = (r"\b(?:srun|salloc|sbatch): error: (?:Unable to allocate resources|Batch job submission failed|"
                 r"Unable to create step for job|Job submit/allocate failed)\b")
MPI_ENDED = (r"\bMPI_ABORT was invoked on rank\b|\*\*\* (?:An error occurred in MPI_\w+|MPI_ERR_\w+:)|\bMPI_INIT has failed\b|"
             r"\bMPI communication peer process has unexpectedly disconnected\b|"
             r"\b(?:prterun|mpirun|prte|orterun) (?:noticed that (?:process rank|the job aborted)|has exited due to process rank|"
             r"detected that one or more processes exited with non-zero status)|\bsrun returned non-zero exit status\b")
# PRRTE's mapper finding too few slots (openpmix/prrte v3.0.13 src/mca/rmaps/base/rmaps_base_support_fns.c "There are
# not enough slots available in the system to satisfy the %d slots that were requested"): the job cannot be placed
MPI_NO_SLOTS = r"(?i:not enough slots available in the system)"


# vLLM's serving-time fault vocabulary (the engine_dead row that cites it)
VLLM_SERVING_FAULT = (r"\[FT\] (?:Busy loop raised|No recovery within|Recovery failed|Engine \d+ status -> UNHEALTHY)|"
                      r"\bEngine unhealthy\b|\bfound \d+ exited DP Servers?\b|Error getting async model runner output|"
                      r"Worker failed with KV connector output")


# Ray Data's resource manager finding no room for an operator's tasks (ray 2.60.0 data/_internal/execution/resource_manager.py:
# "Cluster resources are not enough to run any task from %s. The job may hang forever unless the cluster scales up."): no
# error word of its own
# (ray 2.49.2 data/_internal/execution/resource_manager.py spells it "not engough")
RAY_DATA_NO_ROOM = r"(?i:cluster resources are not en\w{2,4}gh to run any task|may hang forever unless the cluster scales up)"


# The NVIDIA DRIVER's user-space libraries (libcuda, libnvidia-ml, libnvidia-cfg ...: the host's driver install, which the
# container toolkit mounts into the container) that cannot be loaded, or lack a symbol the caller needs: the node's GPU
# stack is unusable, whoever asked. The loader's words (glibc dlerror "%s: cannot open shared object file", "wrong ELF
# class", "undefined symbol"), triton 3.6 backends/nvidia/driver.py libcuda_dirs ("libcuda.so cannot found!"),
# nvidia-persistenced 595.71.05 ("Failed to open libnvidia-cfg.so.1: ..."), a caller's "Failed to retrieve <sym> from
# libcuda.so.1". The toolkit's libraries (libcublas, libcudnn, libcudart) ship with the program: not this family.
_DRIVER_LIB = r"\blib(?:cuda|nvidia-[a-z-]+)\.so(?:\.[\d.]+)?\b"
DRIVER_LIB_UNLOADABLE = (r"(?i:(?:fail(?:ed|s)? to (?:open|load|find|locate|dlopen)|(?:cannot|can't|could not|unable to) (?:open|find|load|locate)|"
                         r"retriev\w* \w+ from)\b[^\n]{0,60}?" + _DRIVER_LIB + r"|" + _DRIVER_LIB +
                         r":? (?:cannot (?:open|be (?:found|loaded|opened)|found)|not found|wrong ELF class|undefined symbol))")


# The GPU node tools' own words for GPUs that cannot be used (the cuda_error row that cites each site)
GPU_NODE_UNUSABLE = (r"nvidia-persistenced\[\d+\]: (?:device \S+ - (?:failed|Could not)|Failed to query NVIDIA devices|Unable to find any NVIDIA)|"
                     r"^No devices were found$|Detected a FAILURE in health system \w+|\bdriver is not ready\b|"
                     r"error validating (?:the )?(?:driver|toolkit|plugin|cuda)\b|GPU resources are not discovered by the node|"
                     r"Driver/library version mismatch|\b0 active drivers\b|"
                     r"(?i:cuda driver (?:can't|cannot|could not) be loaded)|" + DRIVER_LIB_UNLOADABLE)
# pip's and uv's own reports that an install failed (pypa/pip 26.3 src/pip/_internal: "Could not find a version that satisfies
# the requirement", "No matching distribution found for", "ResolutionImpossible", "Cannot install %s because these package
# versions have conflicting dependencies", "requires a different Python", "is not a supported wheel on this platform", "Failed
# building wheel for", "subprocess-exited-with-error", "THESE PACKAGES DO NOT MATCH THE HASHES"; astral-sh/uv @ 26a9dd4b:
# "No solution found when resolving dependencies", "Failed to build `", "Failed to create virtual environment", "No
# interpreter found for Python", "Distribution not found at"): the container's set-up ended, not pip's resolver notice
PIP_FAILED = (r"(?:Could not find a version that satisfies|No matching distribution found|"
              r"ResolutionImpossible|Cannot install .+ because these package versions have conflicting|Package '[^']+' requires a different Python|"
              r"\S+\.whl is not a supported wheel|Failed building wheel|subprocess-exited-with-error|THESE PACKAGES DO NOT MATCH THE HASHES|"
              r"Could not (?:build wheels|install packages)|No solution found when resolving|Failed to build `|"
              r"Failed to create virtual environment|No interpreter found for Python|Distribution not found at)")
# (the phrases are the installers' own; the level word in front of them is read away before the table is)


# argparse's usage error line (the python_crash row that cites it): no error word the net reads. Its prog is the basename
# of argv[0], a script's `train.py` or a console script's `vllm` / `torchrun`; for the latter, argparse's own messages
# (CPython 3.12.1 Lib/argparse.py: "unrecognized arguments: %s", "the following arguments are required: %s", "argument
# %(argument_name)s: %(message)s", "one of the arguments %s is required", "ambiguous option: %(option)s could match ..."),
# so that an engine's name in front of them is not read as the engine's death (a subcommand's parser writes its prog as
# "<parent prog> <command>": `vllm serve: error: argument --tensor-parallel-size/-tp: invalid int value: 'two'`, current set 37)
ARGPARSE_ERROR = (r"^[\w.-]+\.py: error: \S|^[\w.-]+(?: [\w.-]+){0,2}: error: (?:unrecognized arguments: |the following arguments are required: |"
                  r"argument -{1,2}[\w-]+(?:/-{1,2}[\w-]+)*: |one of the arguments \S.* is required|ambiguous option: )")


# torch elastic's agent finding a worker gone (torch 2.1.2 / 2.4.1 / 2.11 distributed/elastic/agent/server/
# local_elastic_agent.py "worker pids do not match process_context pids"); not its teardown ("Unable to shutdown process %s
# via %s, forcefully exiting via %s", "Sending process %s closing signal SIGTERM"), which a public set labels benign
TORCH_ELASTIC_WORKER_GONE = r"worker pids do not match process_context pids"
# Ray's core worker on an actor whose creation task raised (the ray_actor_died row that cites it): no error word of its own
RAY_ACTOR_CREATION_FAILED = r"\bActor creation task finished with errors\b"


# The daemon's own fatal signal, its logging.cc failure handler ("(raylet) [...] logging.cc:441: *** SIGSEGV (@0x8)
# received by PID N ..."): the raylet is the node
RAY_DAEMON_SIGNAL = r"\((?:raylet|gcs_server)\)[^\n]{0,80}\*\*\* SIG(?:SEGV|ABRT|BUS|ILL|FPE)\b"
# Iris's scheduler / autoscaler on a task no worker can take (marin-iris 0.2.20 cluster/controller/scheduling/scheduler.py,
# autoscaler/routing.py _diagnose_no_capacity): a failure statement without an error word
IRIS_UNPLACEABLE = r"\bNo worker (?:matches constraints and )?has sufficient resources\b|\bUnmet demand: reason=no_capacity\b"
# Iris's pending reasons as `iris job list` and a job's status print them (marin-iris 0.2.20 controller: the scheduler's
# "Scheduler: Insufficient CPU (need 40 cores, available 8 cores)", "Scheduler: No healthy workers available", "Scheduler: No
# workers match constraints: [...]", the autoscaler's "Unsatisfied autoscaler demand: insufficient_resources: gpu: need 16,
# available 8"; current sets 52, 53): the gang waits unplaced, and the autoscaler may still scale up (causes.py: a wait)
IRIS_PENDING = (r"\bScheduler: (?:Insufficient \w+|No healthy workers available|No workers match constraints)\b|"
                r"\bUnsatisfied autoscaler demand\b")
# and its refusal at submission of a job no scaling group can ever hold ("Job /root/x is unschedulable: no groups in region
# mars-central1 (constraints: ...)", "... no scaling group matches constraints"; current set 53)
IRIS_REFUSED = r"\bJob \S+ is unschedulable: "
CATALOGUE = re.compile(r"\bhipError[A-Z]\w+|" f"{CUDA_DISTINCT}|{MODEL_ID_DOUBTED}|{FAULTHANDLER_TIMEOUT}|\\(error code (?:{CUDA_GENERIC})|{NCCL_RESULTS}|{NCCL_BACKTRACE}|{SGLANG_DEAD}|{RERUN_MACHINE}|{PYDANTIC_DETAIL}|"
                       r"toomanyrequests|pull rate limit|repository name not known to registry|blob unknown to registry|"
                       r"manifest unknown|MANIFEST_UNKNOWN|NAME_UNKNOWN|"
                       # the NVIDIA driver's Xid and the NVSwitch driver's SXid error records (`NVRM: Xid (PCI:...): 79`,
                       # `nvidia-nvswitch1: SXid (PCI:...): 12028, ...`: NVIDIA's Xid catalogue, docs.nvidia.com/deploy/xid-errors)
                       r"\bS?Xid \(PCI|" + CAPACITY + "|" +
                       # curl's own exit report (`curl: (18) transfer closed with N bytes remaining to read`)
                       r"^\s*curl: \(\d+\) |"
                       # torch elastic's agent ending on a signal (a python_crash row below)
                       r"Received (?:\d+|Signals\.SIG[A-Z]+) death signal|" + TORCH_ELASTIC_WORKER_GONE + "|" + ENGINE_START_FAILED + "|"
                       # Ray Train's NCCL watch (train/v2/_internal/callbacks/nccl_ras.py, an nccl_timeout row)
                       r"made no progress for \d+ seconds|"
                       # glibc / libstdc++ aborts (exceptions.LIBC_ABORT), the kernel's OOM records (pod_oomkilled rows)
                       + E.LIBC_ABORT + "|" + KERNEL_OOM + "|" + AUTOSCALER_REFUSED + "|" + AUTOSCALER_STUCK + "|" + DISK_EVICTION + "|"
                       # MPI's own ends and its mapper's refusal (MPI_ENDED, MPI_NO_SLOTS: no error word of their own)
                       + MPI_ENDED + "|" + MPI_NO_SLOTS + "|" + VLLM_SERVING_FAULT + "|" + RAY_DATA_NO_ROOM + "|" + GPU_NODE_UNUSABLE + "|"
                       + ARGPARSE_ERROR + "|" + RAY_ACTOR_CREATION_FAILED + "|" + RAY_DAEMON_SIGNAL + "|" + IRIS_UNPLACEABLE)


# Ray's C++ fatal level (RAY_CHECK / RAY_LOG(FATAL): `[... C pid tid]`, src/ray/util/logging.cc) in the raylet
# or the GCS itself, named by its prefix or its source file (ray-project/ray src/ray/raylet/*.cc: node_manager,
# dependency_manager, local_{task,lease,object,resource}_manager, cluster_{task,lease,resource}_*, worker_pool,
# placement_group_resource_manager, raylet, agent_manager; src/ray/gcs/gcs_*.cc): that process aborts and its
# node's Ray goes with it (causes.py's ray_node_dead reads it with "Check failed", this table without)
RAY_DAEMON_FATAL = (r"\d C \d+ \d+\]\s*\((?:raylet|gcs_server)\)|\((?:raylet|gcs_server)\)[^\n]{0,40}\d C \d+ \d+\]|"
                    # Ray < 2's prefix for its daemons' own output ("(pid=raylet, ip=...) F0803 ... Check failed: ...")
                    r"\(pid=(?:raylet|gcs_server)\b[^)]{0,40}\)\s*F\d{4} |"
                    r"\d C \d+ \d+\]\s*(?:(?:lease_)?dependency_manager|node_manager|local_(?:task|lease|object|resource)_manager|"
                    r"cluster_(?:task|lease|resource)_\w+|worker_pool|placement_group_resource_manager|raylet|agent_manager|"
                    r"gcs_\w+)\.cc:\d+|" + RAY_DAEMON_SIGNAL)


# The messages CPython's own exceptions print (cpython v3.12.7: Objects/abstract.c "object of type '%.200s' has
# no len()", "'%.200s' object is not subscriptable", "unsupported operand type(s) for"; Objects/object.c "'%.100s'
# object has no attribute '%U'", "unhashable type"; Objects/call.c / Python/getargs.c "takes %d positional
# argument%s but %zd %s given", "got an unexpected keyword argument", "missing %d required positional argument";
# Python/ceval.c "name '%.200s' is not defined", "cannot access local variable", "not enough values to unpack", "too many values to unpack";
# Objects/listobject.c "list index out of range"; Objects/longobject.c "division by zero", "invalid literal for
# int() with base"; Objects/floatobject.c "could not convert string to float"; Objects/dictobject.c "dictionary
# changed size during iteration"; Python/ceval.c "maximum recursion depth exceeded"; Modules/_pickle.c "cannot
# pickle '%.200s' object", "Can't get attribute"). Each is a bug in the program, whatever layer quotes it. (Not
# an import's failure, "No module named": in words, without its class, it is mostly an optional import that fell
# back; vocabulary.STATEMENT surfaces it.)
BUILTIN_MESSAGES = (r"\bobject of type '[\w.]+' has no len\(\)|'[\w.]+' object (?:is not (?:subscriptable|callable|iterable|an iterator)|"
                    r"has no attribute '\w+'|does not support item (?:assignment|deletion)|cannot be interpreted as an integer)|"
                    r"\bmodule '[\w.]+' has no attribute '\w+'|\bunsupported operand type\(s\) for\b|"
                    r"\w\(\) (?:takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+ (?:was|were) given|"
                    r"got an unexpected keyword argument|missing \d+ required (?:positional|keyword-only) arguments?|"
                    r"got multiple values for argument)|"
                    r"\bname '\w+' is not defined\b|\bcannot access local variable '\w+'|\blocal variable '\w+' referenced before assignment|"
                    r"\b(?:not enough|too many) values to unpack \(expected \d+|\bcannot unpack non-iterable \w+ object|"
                    r"\b(?:list|tuple|string) index out of range\b|\b(?:integer |float )?(?:division|modulo) by zero\b|"
                    r"\binvalid literal for int\(\) with base \d+|\bcould not convert string to float\b|\bunhashable type: '\w+'|"
                    r"\bdictionary changed size during iteration|\bmaximum recursion depth exceeded|"
                    r"\bcan only concatenate \w+ \(not \"\w+\"\) to \w+|\b[Cc]an(?:no|')t pickle '?[\w.<]|\bCan't get attribute '\w+' on <module")
# The messages torch's core prints for a program's shape / device / dtype / autograd mistakes (pytorch v2.11.0:
# aten/src/ATen/ExpandUtils.cpp "The size of tensor a (", c10/core "Expected all tensors to be on the same
# device", aten/src/ATen/native/LinearAlgebra.cpp "mat1 and mat2 shapes cannot be multiplied", "expected mat1 and
# mat2 to have the same dtype", aten/src/ATen/InferSize.h "shape '%s' is invalid for input of size",
# aten/src/ATen/native/TensorShape.cpp "Sizes of tensors must match except in dimension", "view size is not
# compatible with input tensor's size and stride"; torch/csrc/autograd/{engine,python_engine,VariableTypeUtils}
# "Trying to backward through the graph a second time", "element %d of tensors does not require grad", "modified
# by an inplace operation", "Function '%s' returned nan values in its %dth output", "a leaf Variable that requires
# grad is being used in an in-place operation"; torch/autograd/__init__.py "grad can be implicitly created only for
# scalar outputs"; aten/src/ATen/native/Convolution.cpp "Input type (%s) and weight type (%s) should be the same";
# torch/nn/utils/clip_grad.py "for gradients from `parameters` is non-finite"; aten "expected scalar type %s but
# found %s", IndexSelect / Embedding "index out of range in self").
TORCH_MESSAGES = (r"\bThe size of tensor a \(\d+\) must match the size of tensor b|\bExpected all tensors to be on the same device|"
                  r"\bmat1 and mat2 (?:shapes cannot be multiplied|to have the same dtype)|\bshape '\[[-\d, ]*\]' is invalid for input of size|"
                  r"\bSizes of tensors must match except in dimension|\bview size is not compatible with input tensor's size and stride|"
                  r"\bTrying to backward through the graph a second time|\belement \d+ of tensors does not require grad|"
                  r"\bneeded for gradient computation has been modified by an inplace operation|\breturned nan values in its \d+\w* output|"
                  r"\ba leaf Variable that requires grad is being used in an in-place operation|"
                  r"\bgrad can be implicitly created only for scalar outputs|\bInput type \([^)\n]{1,80}\) and weight type \([^)\n]{1,80}\) should be the same|"
                  r"\bfor gradients from `parameters` is non-finite|\bexpected scalar type \w+ but found \w+|\bindex out of range in self\b")

TABLE: tuple[Row, ...] = (
    # SGLang's CUDA-graph capture at engine start (srt/model_executor/cuda_graph_runner.py: "Capture cuda graph
    # failed: %s"): the engine did not start, whatever failed inside the capture (a CUDA error, an OOM, an assert)
    Row("engine_init_failed", (_rx(r"Capture cuda graph failed"),), None),
    # inference engines failing to come up in their own words (ENGINE_START_FAILED)
    Row("engine_init_failed", (_rx(ENGINE_START_FAILED),), None),
    # an engine's warm-up failing (sglang 0.5.2 / 0.5.15 entrypoints/http_server.py "Prefill disaggregation mode warm Up Failed,
    # status code: %s", "Disaggregation warmup failed (mode=%s)", 0.5.8 grpc_server.py "gRPC warmup request returned error";
    # vLLM 0.34 warmup/kernel_warmup.py "JIT kernel warmup failed after %ss"): not at warning level, where a layer's optional
    # kernel warm-up that fell back is a notice (vLLM 0.22 mamba_mixer2.py "... kernel warmup failed for layer ...")
    Row("engine_init_failed", (_rx(r"(?i:\bwarm ?up (?:request )?(?:failed|returned error)\b)"),), None, loud=True),
    # a Python program's own usage error (CPython Lib/argparse.py ArgumentParser.error: "%(prog)s: error: %(message)s", then
    # exit 2; prog is the script's name): the program ended before it ran
    Row("python_crash", (_rx(ARGPARSE_ERROR),), None),
    # an installer that failed while the container set itself up (PIP_FAILED)
    Row("python_crash", (_rx(PIP_FAILED),), None),
    # a shell's own grammar for a program it could not run: the process never started
    Row("python_crash", (_rx(SHELL_NOT_FOUND),), None),
    # a supervisor's report of a child ended by a signal: billiard / celery's pool ("Process %r pid:%r
    # exited with %r", the code formatted 'signal 9 (SIGKILL)'), torch elastic's agent ending on a signal
    # (torch/distributed/elastic/agent/server/api.py "Received %s death signal, shutting down workers")
    # and any supervisor's WTERMSIG report, "<process> exited on signal %d" (Open MPI's "mpirun noticed that
    # process rank N with PID N on node X exited on signal 9 (Killed).", nginx unit, daemons' waitpid loops)
    Row("python_crash", (_rx(r"exited with '?signal \d+|Received (?:\d+|Signals\.SIG[A-Z]+) death signal|\bexited on signal \d+"),), None),
    # Ray Tune's report of a trial whose task failed (ray 2.9-2.40 tune/execution/tune_controller.py "Trial task failed for trial %s")
    # and Ray's core worker on an actor whose creation task raised (2.9.3 direct_actor_transport.cc "Actor creation task finished
    # with errors"): the trial's process / the actor is gone
    Row("python_crash", (_rx(r"\bTrial task failed for trial\b"),), None),
    Row("python_crash", (_rx(RERUN_MACHINE + "|" + PYDANTIC_DETAIL),), None),
    # Ray Train v2's controller giving up on the run (ray 2.44.1 train/v2 failure_handling/default.py "Deciding to TERMINATE,
    # since the total failure count (%d) exceeded the maximum allowed failures", controller.py "Terminating training worker group
    # after encountering failure(s) on %d worker(s)"; 2.49.2 "[FailurePolicy] Decision: FailureDecision.RAISE"): the run ends
    Row("python_crash", (_rx(r"\bDeciding to TERMINATE, since\b|\bFailureDecision\.RAISE\b|"
                             r"\bTerminating training worker group after encountering failure"),), None),
    # torch's DataLoader worker signal handler (torch/csrc/DataLoader.cpp, 2.1-2.14: "ERROR: Unexpected segmentation fault /
    # floating-point exception encountered in worker."; its bus error is the shm's, disk_full, read before): the worker died
    Row("python_crash", (_rx(r"\bUnexpected [\w-]+(?: [\w-]+)? encountered in worker\b"),), None),
    # the device plugin withdrawing a GPU (NVIDIA/k8s-device-plugin v0.13-v0.15 internal/rm/health.go: "Marking device
    # %s as unhealthy: %v", "Marking all devices as unhealthy"): the device failed its health check
    Row("cuda_error", (_rx(r"(?i:\bmarking (?:device \S+|all devices) as unhealthy\b)"),), None),
    # KubeRay's reconciler finding the Ray head's pod ended (ray-project/kuberay v1.0.0-v1.2.2 raycluster_controller.go
    # shouldDeletePod: "The head Pod %s status is Failed which is a terminal state"; feeaf72f's DeletedHeadPod event "Deleted
    # head Pod %s; Pod status: %s; ..."): the GCS is gone
    Row("ray_node_dead", (_rx(r"\b(?:The|Deleted) head Pod \S+(?: status is|; Pod status:) (?:Failed|Succeeded)\b"),), None),
    # a Kubernetes container state printed whole (k8s.io/api core/v1 ContainerStateTerminated's %v: "&ContainerStateTerminated
    # {ExitCode:1,Signal:0,Reason:Error,..."): a container that exited non-zero (137 and OOMKilled are read before)
    Row("python_crash", (_rx(r"ContainerStateTerminated\{ExitCode:[1-9]"),), None),
    Row("ray_actor_died", (_rx(RAY_ACTOR_CREATION_FAILED),), None),
    # torch elastic's agent finding a worker gone (TORCH_ELASTIC_WORKER_GONE)
    Row("python_crash", (_rx(TORCH_ELASTIC_WORKER_GONE),), None),
    # Open MPI's runtime giving up on its daemons (ompi v4.1.x orte/mca/errmgr/default_hnp/help-errmgr-default-hnp.txt
    # "ORTE has lost communication with a remote daemon.", "An ORTE daemon has unexpectedly failed after launch",
    # orte/mca/plm/base/help-plm-base.txt "ORTE was unable to reliably start one or more daemons."; v5's PRRTE says
    # "PRTE"): the MPI job ends, whatever killed the daemon
    Row("python_crash", (_rx(r"\b(?:ORTE|PRTE|PRRTE)(?: daemon)? (?:has lost communication|was unable to|does not know how to route|"
                             r"has unexpectedly failed)"),), None),
    # a body cut short, whatever client says it (urllib3 response.py "Connection broken:
    # IncompleteRead(...)", "Response ended prematurely"; httpx "incomplete chunked read")
    Row("hf_incomplete_download", (_rx(E.CUT_SHORT),), None),
    # Ollama's model pull giving up on a body that ended early (server/download.go: errMaxRetriesExceeded
    # wrapping Go's io.EOF / io.ErrUnexpectedEOF, "max retries exceeded: unexpected EOF")
    Row("hf_incomplete_download", (_rx(r"max retries exceeded: (?:unexpected )?EOF\b"),), None),
    # huggingface_hub's wrapper around a failed hf_transfer download (file_download.py http_get: "An error
    # occurred while downloading using `hf_transfer`. Consider disabling HF_HUB_ENABLE_HF_TRANSFER ..."):
    # the Rust client's transfer broke off mid-file
    Row("hf_incomplete_download", (_rx(r"error occurred while downloading using `?hf_transfer"),), None),
    # a weight file that is not on disk (any wording: the errno's text on a shard or safetensors file;
    # mlx / loaders' "No safetensors found in <dir>")
    Row("hf_weights_missing", (_rx(E.ERRNO_MISSING.pattern + r"|FileNotFoundError"), _rx(E.WEIGHT_FILE.pattern)),
        # a checkpoint stated missing: the checkpoint row below; a repo / revision stated missing (HfFileSystem's
        # "<repo>/*.safetensors (repository not found)"): hf_repo_not_found's row
        _rx(r"(?i:checkpoint(?: file| dir(?:ectory)?| path)? not found|no checkpoint (?:was )?found|(?:repository|revision) not found)")),
    # a loader that could not open a weight file it names (llama.cpp gguf.cpp gguf_init_from_file "failed to
    # open GGUF file '%s'", any loader's "cannot open <file>.safetensors"): not on disk where it looked
    Row("hf_weights_missing", (_rx(r"(?i:(?:failed to|cannot|can't|could not|couldn't|unable to) (?:open|find|locate)\b)"),
                               _rx(E.WEIGHT_FILE.pattern + r"|(?i:\.gguf\b|\bgguf file)")), None),
    Row("hf_weights_missing", (_rx(r"(?i:no (?:\.?safetensors|weights?|checkpoint|model) (?:files? )?(?:found|exist))"),), None),
    # accelerate finding nothing to load where it was pointed: utils/modeling.py load_checkpoint_in_model ("`checkpoint`
    # should be the path to a file containing a whole state dict, or the index of a sharded checkpoint, or a folder
    # containing a sharded checkpoint or the whole state dict, but got <path>") and utils/fsdp_utils.py merge_fsdp_weights
    # ("Tried to load from <dir> but couldn't find a valid metadata file."): two source files and current set 83 label it so
    Row("hf_weights_missing", (_rx(r"\bshould be the path to a file containing a whole state dict\b|"
                                   r"\bTried to load from \S+ but couldn't find a valid metadata file\b"),), None),
    # safetensors' "File does not contain tensor {name}" (safetensors 0.4-0.8 _safetensors_rust): the file reads fine and
    # lacks a tensor the model asks for, the model and the checkpoint disagree: the corpus README's state-dict-mismatch
    # rule, python_crash (three sets label it so, one device set hf_weights_missing)
    Row("python_crash", (_rx(r"does not contain tensor"),), None),
    # a model registry's own pull failing in transit (ollama server/images.go "pull model manifest: %w" around Go's
    # net/http error; server/download.go "%s part %d attempt %d failed: %v, retrying"): a model host, not an image
    Row("hf_http_error", (_rx(r"\bpull model manifest: "), _rx(r"(?i:\bEOF\b|timed? ?out|connection|dial tcp|reset|refused|\b5\d\d\b|\b429\b)")), None),
    Row("hf_incomplete_download", (_rx(r"\bpart \d+ attempt \d+ failed: (?:unexpected )?EOF\b"),), None),
    # TensorRT's builder / runtime out of device memory (NVIDIA TensorRT NvInferRuntimeBase.h ErrorCode, the builder's
    # "Error Code %d: OutOfMemory", a plugin that "requires %ld bytes of scratch space"): cuda_oom
    Row("cuda_oom", (_rx(r"\bError Code \d+: OutOfMemory\b|\brequires \d+ bytes of scratch space\b"),), None),
    # transformers' failed process-group set-up on a user's behalf (transformers 5.17 distributed/utils.py "We tried to
    # initialize torch.distributed for you, but it failed."): the rendezvous family
    Row("dist_timeout", (_rx(r"(?i:initiali[sz]e torch\.distributed\b[^\n]{0,40}\bfailed)"),), None),
    # the rendezvous port another process holds (accelerate 0.25.0 utils/launch.py "Tried to launch distributed
    # communication on port `%s`, but another process is utilizing it"): the group cannot form, like EADDRINUSE
    Row("dist_timeout", (_rx(r"(?i:\bport\b[^\n]{0,40}\banother process is (?:using|utili[sz]ing) it)"),), None),
    # transformers' remote-code import check (dynamic_module_utils.py check_imports / get_imports: "Encountered exception
    # while importing %s: %s", then ImportError): the model's code cannot run
    Row("python_crash", (_rx(r"Encountered exception while importing \S+: No module named"),), None),
    # an image the registry cannot give (oc / skopeo "unable to retrieve source image ... manifest", "failed
    # to get image", "error fetching image")
    Row("image_pull", (_rx(r"(?i:(?:unable to|failed to|cannot|could not|error) (?:retrieve|fetch|get|inspect|resolve|import|pull|download)(?:ing)? "
                           # (Slurm's pyxis / enroot: "pyxis: failed to import docker image")
                           r"(?:the )?(?:source |remote )?(?:docker |container |oci |squashfs )?image)"),), None),
    # the Docker Engine API's pull endpoint failing (POST /images/create?fromImage=..., docker-py 7.2.0 api/image.py
    # pull: "500 Server Error ... for url: http+docker://localhost/v1.43/images/create?tag=..."): the image was never pulled
    Row("image_pull", (_rx(r"http\+docker://\S*/images/create\?"), _rx(r"(?i:\b[45]\d\d\b|error)")), None),
    # the weights' index (`weight_map` of model.safetensors.index.json) or an adapter's files not there
    # (transformers integrations/peft.py "adapter model file not found in %s")
    Row("hf_weights_missing", (_rx(r"(?i:(?:error|fail\w*|unable to|cannot|can't|could not)\b[^\n]{0,30}\bweight[ _]map\b|"
                                   r"adapter (?:model |config |weights? )?files? not found)"),), None),
    Row("hf_weights_missing", (_rx(FETCH_MISSING),), None),
    Row("hf_http_error", (_rx(FETCH_TRANSIENT),), None),
    Row("hf_incomplete_download", (_rx(FETCH_CUT_SHORT),), None),
    Row("hf_gated", (_rx(FETCH_REFUSED),), None),
    Row("pg_unplaceable", (_rx(CAPACITY),), None),
    # Ray's autoscaler refusing a request, or an instance it launched that never left the queue
    Row("pg_unplaceable", (_rx(AUTOSCALER_REFUSED),), None),
    Row("pg_timeout", (_rx(AUTOSCALER_STUCK),), None),
    # Kueue cannot admit the workload (pkg/scheduler/flavorassigner: "couldn't assign flavors to pod set %s:
    # insufficient quota for nvidia.com/gpu", "insufficient unused quota"), the kubelet's device admission
    # (pkg/kubelet/cm/admission: UnexpectedAdmissionError "Allocate failed due to requested number of devices
    # unavailable for nvidia.com/gpu"), a framework's shortfall in words ("Not enough GPUs available.
    # Requested 16 GPUs, but only 8 are available in the cluster.")
    # (and a quota refusal in other words: Volcano's "queue resource quota insufficient", the ResourceQuota
    # admission's "is forbidden: exceeded quota: gpu-quota, requested: nvidia.com/gpu=8")
    Row("pg_unplaceable", (_rx(r"couldn't assign flavors|(?i:insufficient (?:unused )?quota\b|exceeded quota\b|unavailable in ClusterQueue|requested number of devices unavailable)|"
                               r"UnexpectedAdmissionError|" + SHORTFALL),), None),
    # a framework's own check that the cluster has the GPUs its layout asks for (verl single_controller
    # ResourcePoolManager: "Total available GPUs 8.0 is less than total desired GPUs 16")
    Row("pg_unplaceable", (_rx(r"(?i:\b(?:available|total|free) (?:GPU|NPU|device)s?\b[^\n]{0,40}\b(?:less|fewer|smaller) than\b[^\n]{0,40}"
                               r"\b(?:desired|required|requested|needed|expected)\b)"),), None),
    # the strongest words of a family first: a line that names two families is named by these
    # a download whose checksum does not match (gcsfs checkers.py "MD5 checksum failed", botocore httpchecksum.py
    # "Expected checksum %s did not match calculated checksum", tiktoken load.py "Hash mismatch for data downloaded
    # from"): the body was damaged or cut
    Row("hf_incomplete_download", (_rx(r"(?i:checksum (?:failed|mismatch|did not match)|did not match calculated checksum|hash mismatch for data downloaded|"
                                       # torch.hub download_url_to_file: 'invalid hash value (expected "%s", got "%s")'
                                       r"invalid hash value \(expected|"
                                       r"\bChecksumError\b)"),), _rx(r"(?i:checkpoint|ckpt)")),   # a checkpoint's own checksum: corrupt
    # a git-lfs pointer where the file should be (the download fetched the pointer, not the object: tiktoken
    # "Error parsing line b'version https://git-lfs.github.com/spec/v1'", torch.load's "invalid load key, 'v'")
    Row("checkpoint_corrupt", (_rx(r"git-lfs\.github\.com/spec/v1"),), None),
    Row("hf_incomplete_download", (_rx(r"(?i:consistency check failed|file should be of size|download (?:was )?(?:interrupted|incomplete)|"
                                       # HTTP 416's reason (RFC 9110 15.5.17): only a ranged request gets it, and
                                       # downloaders send one to resume a partial file (huggingface_hub
                                       # file_download.py http_get's `Range: bytes=N-`)
                                       r"range not satisfiable)"),), None),
    # a download whose body ended early, as the Rust clients say it (reqwest / hyper: "IncompleteBody",
    # "UnexpectedEof" inside "Error while downloading: reqwest::Error { kind: Body, ... }")
    Row("hf_incomplete_download", (_rx(r"(?i:download|reqwest|hyper::Error)"),
                                   _rx(r"IncompleteBody|UnexpectedEof|(?i:incomplete (?:body|read)|unexpected eof|error decoding response body|"
                                       r"(?:connection|stream) (?:closed|reset) before)")), None),
    # (any case: huggingface_hub's HfFileSystem says "<repo>/<file> (repository not found)")
    # huggingface_hub 2.4's `hf` CLI (cli/_errors.py: "Error: Model 'x' not found.", "Error: Revision not found
    # in model 'x'.", "Error: File not found in model 'x'.", "Error: Access denied. Model 'x' requires
    # approval.", "Error: Not logged in. Run 'hf auth login' first."; huggingface_hub 2.4's cli/auth.py quotes it in
    # backticks, "Not logged in. Run `hf auth login` first.", current set 82)
    Row("hf_weights_missing", (_rx(r"\bFile not found in (?:model|dataset|space|repo(?:sitory)?) '"),), None),
    Row("hf_repo_not_found", (_rx(r"\b(?:Model|Dataset|Space|Repo(?:sitory)?) '[^'\s]+' not found\b"),), None),
    Row("hf_gated", (_rx(r"\brequires approval\b|Not logged in\. Run [`']?(?:hf|huggingface-cli) (?:auth )?login\b"),), None),
    Row("hf_repo_not_found", (_rx(r"Repository Not Found|RepositoryNotFound|RevisionNotFound|(?i:repository not found|revision not found|not a valid model identifier|"
                                  r"is not a local folder|repo id must (?:be in the form|use))"),), None),
    # huggingface_hub's gated messages ("Access to model <id> is restricted", "Cannot access gated repo",
    # the older "Repo model <id> is gated. You must be authenticated to access it.")
    Row("hf_gated", (_rx(r"GatedRepo|(?i:gated repo|access to model \S+ is restricted|repo (?:model|dataset|space) \S+ is gated|"
                         r"must be authenticated to access)"),), None),
    # (and the memory monitor's own reason line under Ray's OutOfMemoryError, "OOM kill reason: Memory usage NB exceeded
    # threshold of MB (P% of LB limit)", Ray 2.60 as current set 43 printed it)
    Row("ray_oom_kill", (_rx(r"memory monitor|memory usage threshold|NODE_OUT_OF_MEMORY|(?i:node (?:was )?running low on memory|"
                             r"killed due to memory pressure)|\bMemory usage \d+ ?B exceeded threshold of \d+ ?B\b"),), None),
    # Ray's worker pool failing to start a worker process (src/ray/raylet/worker_pool.cc "Some workers of the worker process(%d)
    # have not registered within the timeout", the driver's RaySystemError "Failed to startup worker after retrying %d times"):
    # the worker never came up
    # (and vLLM's Ray executor losing one of its worker actors, v1/executor/ray_executor_v2.py "RayWorkerProc rank=%s died
    # unexpectedly, shutting down executor" (public set 67): a Ray worker, where the multiproc executor's "Worker proc
    # VllmWorker-N died unexpectedly" is the engine's own process)
    Row("ray_worker_died", (_rx(r"\bRay\w*Worker\w*\b[^\n]{0,30}?\bdied unexpectedly\b"),), None),
    Row("ray_worker_died", (_rx(r"\bSome workers of the worker process\(\d+\) have not registered within the timeout|"
                                r"\bFailed to startup worker after retrying \d+ times"),), None),
    # CUDA's allocation status in any report (cudaErrorMemoryAllocation = 2, "out of memory": c10/cuda
    # CUDAFunctions.cpp formats "Error %d: %s" when cudaGetDeviceCount fails, e.g. under RLIMIT_AS)
    # (and a CUDA check macro's report of it: torch < 1.0's `THCudaCheck FAIL file=... error=2 : out of memory`,
    # the samples' checkCudaErrors, CUDA_CHECK / cudaCheck wrappers)
    Row("cuda_oom", (_rx(r"\bError 2: out of memory\b|cudaErrorMemoryAllocation|== cudaSuccess \(2 vs\. 0\)|"
                         r"\b(?:THCudaCheck|CUDA_?CHECK|cudaCheck|checkCudaErrors)\b.*\bout of memory\b|"
                         r"CU(?:BLAS|RAND|SOLVER|SPARSE)_STATUS_ALLOC(?:ATION)?_FAILED|CUFFT_ALLOC_FAILED|"
                         # (cublasGetStatusString's text for CUBLAS_STATUS_ALLOC_FAILED, in any wrapper's report)
                         r"\bthe resource allocation failed\b"),), None),
    # an accelerator's device memory exhausted in XLA's / TensorFlow's words (the status RESOURCE_EXHAUSTED with an
    # allocation, XLA:TPU's "Ran out of memory in memory space hbm", stream_executor's "failed to allocate <size>
    # (<n> bytes) from device", the BFC allocator's "OOM when allocating tensor"): jax / torch_xla / TF on a GPU or a
    # TPU (openxla/xla xla/stream_executor/cuda/cuda_driver.cc, xla/tsl/framework/bfc_allocator.cc; the contract has
    # no TPU kinds: device memory is cuda_oom)
    Row("cuda_oom", (_rx(r"\bRESOURCE_EXHAUSTED\b[^\n]{0,40}(?i:out of memory|allocat)|Ran out of memory in memory space \w+|"
                         r"failed to allocate [\d.]+ ?\w?i?B \(\d+ bytes\) from device|OOM when allocating tensor"),), None),
    # HIP's (ROCm's CUDA) error names and its allocator's OOM (ROCm/HIP hip_runtime_api.h hipError_t: hipErrorNoBinaryForGpu,
    # hipErrorIllegalAddress ...; torch's "HIP out of memory"): the same kinds as CUDA's
    Row("cuda_oom", (_rx(r"\bHIP out of memory\b|hipErrorOutOfMemory|hipErrorMemoryAllocation"),), None),
    # Ascend NPUs under torch_npu / CANN, read as CUDA's kinds (the contract has no NPU kinds; HCCL is NCCL's row): the
    # device's memory (`NPU out of memory`) and its runtime's faults in torch_npu's and CANN's words ("NPU function error:",
    # "NPU error, error code is N", "PTA call acl api failed", "CANN execute error", the runtime's "kernel task happen error"
    # and aicpu / aicore timeouts, the EZ9999 / EE9999 inner-error codes), as public sets 54, 61 and 66 paste them
    Row("cuda_oom", (_rx(r"\bNPU out of memory\b"),), None),
    Row("cuda_error", (_rx(r"\bNPU (?:function )?error\b|\bcall acl api failed\b|\bCANN execute error\b|\bkernel task happen error\b|"
                           r"\bai(?:cpu|core) (?:timeout|exception|error)\b|\bE[EZ]9999\b"),), None),
    # Intel Gaudi under the Habana torch bridge, read the same way (SynapseAI's synStatus enum in its reports,
    # "synStatus 26 [Generic failure]", "failed with synapse error: 20"; the bridge's "FATAL ERROR :: MODULE:<name>"
    # whose PT_DEVMEM "Allocation failed" is the device's memory), as public set 67 pastes them (before HCCL's
    # collective row: a device the demo could not acquire is the device's fault)
    Row("cuda_oom", (_rx(r"\bMODULE:PT_DEVMEM\b[^\n]{0,40}?\bAllocation failed\b"),), None),
    Row("cuda_error", (_rx(r"\bsynStatus (?!0\b)\d+\b|\bsynapse error\b|:: MODULE:[A-Z][A-Z_]+\b"),), None),
    Row("cuda_error", (_rx(r"\bhipError(?!OutOfMemory|MemoryAllocation)[A-Z]\w+|\bHIP error: "),), _rx(r"(?i:\bnon-?fatal\b)")),
    # a CUDA status formatted into a failure message (`Check failed: (status == cudaSuccess) is false: Failed to plan
    # prefill with error: out of memory`, flashinfer-python 0.7.4 csrc via tvm-ffi: cudaGetErrorString's text): the
    # device is out of memory
    # (and TensorFlow's status report of the same, tensorflow/core/kernels: "Non-OK-status: GpuLaunchKernel(...) status: Internal:
    # out of memory")
    Row("cuda_oom", (_rx(r"\bwith error:? ['\"]?out of memory\b|\bstatus: \w+: out of memory\b"),), None),
    # the CUDA driver API's status as a number (cuda.h enum CUresult: CUDA_ERROR_OUT_OF_MEMORY = 2), as a wrapper
    # reports it: torch_memory_saver's check macro, "CUresult error result=%d file=%s func=%s line=%d" (as pasted
    # in fzyzcjy/torch_memory_saver#4, public set 65), "cuMemCreate failed with CUresult 2"; any other non-zero status is a CUDA error
    Row("cuda_oom", (_rx(r"\bCUresult\b\D{0,30}(?<![\w.])2\b(?!\.\d)"),), None),
    Row("cuda_error", (_rx(r"\bCUresult\b\D{0,30}(?<![\w.])(?!0\b)\d+\b"),), None),
    # a CUDA driver API call that returned an error (`cuIpcOpenMemHandle() failed: invalid argument`, UCX v1.22.0
    # src/uct/cuda/cuda_ipc/cuda_ipc_cache.c; `cuGetProcAddress(cuMemcpyBatchAsync) failed: 500`, vllm 0.34.0
    # v1/simple_kv_offload/cuda_mem_ops.py), a CUDA math library's own failure (bitsandbytes 0.50.2
    # backends/cuda/ops.py "cublasLt ran into an error!") and CUTLASS's status report (flash-attention hopper/
    # flash_bwd_launch_template.h @ 0251105a "CUTLASS error (%s:%d): %s"): a CUDA error
    Row("cuda_error", (_rx(r"\bcu[A-Z][A-Za-z0-9]+\([^)]*\) failed\b|\bcublas(?:Lt)? ran into an error\b|\bCUTLASS error\b"),), None),
    # a CUDA error stated as such is the cause, also inside NCCL's CUDACHECK or the watchdog's report
    Row("cuda_error", (_rx(r"(?i:cuda error: (?!out of memory|the resource allocation failed))|cudaError(?!MemoryAllocation)[A-Z]\w+|CUDA_ERROR_(?!OUT_OF_MEMORY)[A-Z_]+|"
                           r"Cuda failure (?:\d+ )?'(?!out of memory)|device-side assert|illegal memory access|illegal address|"
                           r"misaligned address|unspecified launch failure|NVRM: Xid|\bS?Xid \(PCI|"
                           # torch's "no usable CUDA" statements (torch/cuda/__init__.py _lazy_init "No CUDA GPUs are
                           # available", "Found no NVIDIA driver on your system"; torch/serialization.py
                           # "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False",
                           # validate_cuda_device's other branch: "... on CUDA device N but torch.cuda.device_count() is M")
                           # (and the same in other libraries' words: transformers 5.25 modeling_utils "... with a model not
                           # initialized on GPU and with no GPU available", torchtitan 0.3.0 "The device cuda:5 is not available
                           # on this machine."; torch 2.11 cuda/__init__.py get_device_properties "Invalid device id" for an
                           # index past the GPUs there are, current set 45; c10 Device.cpp / CUDACachingAllocator's "Device index value 7
                           # is out of index range [0, 1)", current set 56; CUDA's cudaErrorInvalidDevice text alone)
                           r"\bInvalid device id\b|\b[Dd]evice index (?:value )?-?\d+ is out of (?:index )?range\b|\binvalid device ordinal\b|"
                           r"(?i:(?<!node has )\bno (?:cuda )?gpus? (?:is |are )?available)|\bcuda:\d+ is not available\b|Found no NVIDIA driver|cuda\.is_available\(\) is False|"
                           r"Attempting to deserialize object on (?:a )?CUDA device"),), _rx(r"(?i:\bnon-?fatal\b)|" + XID_RECOVERED)),
    # a container that cannot have its GPUs (libnvidia-container src/cli: "nvidia-container-cli: initialization
    # error: nvml error: driver not loaded"; nvidia-container-toolkit internal/modifier/cdi: "failed to inject
    # CDI devices: unresolvable CDI devices nvidia.com/gpu=all") and the device plugin marking GPUs unusable
    # (k8s-device-plugin v0.20 internal/rm/health.go "XidCriticalError: Xid=79 on Device=...", internal/plugin/
    # server.go "'nvidia.com/gpu' device marked unhealthy", "Marking all devices as unhealthy")
    # (DCGM spells it XID: "Found devastating XID 74 (NVLink Critical Error)", "XID error 79 detected.", NVIDIA/DCGM @ 72fa3fea
    # modules/health/DcgmHealthWatch.cpp)
    Row("cuda_error", (_rx(r"nvidia-container-cli: [\w ]*error|(?:inject|unresolvable) CDI devices?\b[^\n]*nvidia\.com/gpu|\bXid[=: ]+\d+|"
                           r"\bXID (?:error )?\d+\b|"
                           r"(?i:\b(?:devices?|gpus?)\b[^\n]{0,20}\b(?:marked|marking|as) unhealthy)"),), _rx(XID_RECOVERED)),
    # cudaGetErrorString's texts (CUDA_DISTINCT alone, CUDA_GENERIC in a CUDA error report); the
    # runtime's OOM text in the samples' report is the OOM
    Row("cuda_oom", (_rx(r"\(error code out of memory\)"),), None),
    Row("cuda_error", (_rx(f"(?:{CUDA_DISTINCT})|(?:{CUDA_REPORT})(?:{CUDA_GENERIC})"),), _rx(r"(?i:\bnon-?fatal\b)|NCCL WARN")),
    # the kernel driver out of memory for the GPU (NVRM's "Check failed: Out of memory [NV_ERR_NO_MEMORY]",
    # open-gpu-kernel-modules nvstatuscodes.h NV_ERR_NO_MEMORY "Out of memory")
    Row("cuda_oom", (_rx(r"\bNVRM:"), _rx(r"NV_ERR_NO_MEMORY|(?i:out of memory)")), _rx(r"(?i:\bnon-?fatal\b)")),
    # the NVIDIA kernel driver's own records (`NVRM: ...`: GSP RPC failures "_issueRpcAndWait:
    # rpcSendMessage failed", "GPU has fallen off the bus", timeouts), not its notices
    # (and its GSP / adapter / link states, open-gpu-kernel-modules 595.45.04: "RmInitAdapter: Cannot initialize GSP firmware
    # RM", "GSP core unresponsive", "cannot proceed with booting GSP", "PMU has halted", "Unable to reset link(s)",
    # "No NVIDIA GPU found.")
    Row("cuda_error", (_rx(r"\bNVRM:"), _rx(r"(?i:fail|error|timed? ?out|fallen off|\blost\b|\bhung\b|not responding|cannot|unable to|"
                                            r"unresponsive|halted|no nvidia gpu found)")),
        _rx(r"(?i:\bnon-?fatal\b)|" + XID_RECOVERED)),
    Row("disk_full", (_rx(DISK_PRESSURE),), None),
    Row("disk_full", (_rx(r"(?i:no space left|\benospc\b|\bedquot\b|disk (?:is )?full|out of disk|disk quota|storage (?:is )?full|"
                          r"insufficient (?:disk|storage)|not enough (?:disk|storage|free space))|"
                          # kubelet pkg/kubelet/images/image_gc_manager.go (event FreeDiskSpaceFailed)
                          r"FreeDiskSpaceFailed|(?i:failed to garbage collect required amount of images)"),),
        _rx(r"inotify")),   # inotify_add_watch's ENOSPC is the watch limit, not a disk
    Row("disk_full", (_rx(r"write\(\): fd \d+ failed|is over \d+(?:\.\d+)?% full|"
                          # numpy's tofile / save on a short write (numpy/_core/src/multiarray/convert.c
                          # "%d requested and %d written"): the file system took fewer bytes than asked
                          r"\d+ requested and \d+ written"),), None),
    Row("disk_full", (_rx(r"(?i:failed writing|write failed|(?:cannot|can't|unable to|failed to) write|write\(\)[^\n]{0,20}failed)"),
                      _rx(r"(?i:\bfile\b|file ?system|disk|checkpoint|ckpt|\.pt\b|\bsave|volume|/dev/shm|\bshm\b)")), _rx(r"(?i:socket|connection|pipe)")),
    # pickle's own unpickler errors (cpython Modules/_pickle.c: "unpickling stack underflow", "could not
    # find MARK", "pickle data was truncated", "invalid load key, '%c'."): the bytes are not a pickle
    Row("checkpoint_corrupt", (_rx(r"unpickling stack (?:underflow|overflow)|could not find MARK|pickle data was truncated|"
                                   r"invalid load key"),), None),
    # a file shorter than the mapping its reader asks for (CPython Modules/mmapmodule.c "mmap length is greater than file
    # size", numpy's memmap / np.load(mmap_mode=...) through it; torch 2.15 c10 MapAllocator "file <%s> size <%d> is smaller
    # than the required mapping size <%d>", torch.from_file / storage mapping): its writer was cut short, as current set 46
    # prints it
    # (and torch.load's legacy tar reader missing one of its members, torch/serialization.py _legacy_load: tarfile's
    # getmember "filename 'storages' not found" for a file that is neither a zip nor a tar checkpoint: current set 47)
    Row("checkpoint_corrupt", (_rx(r"\bmmap length is greater than file size\b|\bis smaller than the required mapping size\b|"
                                   r"\bfilename '(?:storages|tensors|pickle|sys_info)' not found\b"),), None),
    Row("checkpoint_corrupt", (_rx(r"(?i:corrupt|truncated|unexpected (?:eof|end of (?:file|data|stream))|invalid (?:magic|header|load key)|checksum (?:mismatch|failed|did not match)|"
                                   r"bad magic|header ?(?:too|is|size)|error while deserializ|weights only load failed|pytorchstreamreader|incomplete metadata|metadataincomplete|"
                                   r"(?:failed|unable|cannot|can't|could not) (?:to )?(?:read|deserializ|unpickl|decode|parse|load weights from)|unpickl(?!able)|"
                                   r"(?:could not|couldn't|failed to|unable to) (?:re)?load (?:from )?(?:the )?(?:checkpoint|ckpt|state_dict)|"
                                   # (and a resume that could not read it: transformers' and OpenRLHF's DeepSpeed resume, "[deepspeed]
                                   # failed to resume from checkpoint %s")
                                   r"(?:could not|couldn't|failed to|unable to) resume from (?:the )?(?:checkpoint|ckpt))"),
                               _rx(r"(?i:checkpoint|ckpt|safetensors|state_dict|state dictionary|\.pth?\b|\.bin\b|weights|torch\.load|pickle|\bshard|zip archive|archive|"
                                   # a tokenizer's model file (sentencepiece "could not parse ModelProto from .../tokenizer.model")
                                   r"ModelProto|tokenizer\.model\b|"
                                   # llama.cpp's weight format (ggml-org/llama.cpp ggml/src/gguf.cpp gguf_init_from_file: "invalid magic
                                   # characters", "invalid magic number")
                                   r"\bgguf|\bggml|"
                                   r"\bfile\b|expected \d+ more bytes)")),
        # a socket / pipe / RPC that ends early is a connection, not a file ("Failed to read data from
        # the socket: End of file": Ray's raylet connection)
        # nor Ray's own serialization of an exception it relays ("Failed to unpickle serialized exception")
        # nor a save that could not serialize an object (pickle's "Can't pickle local object"): the caller's
        # (nor a read its client retried and gave up on: smart_open's "failed to read N bytes after 5 attempts" is the
        # transport's, a corrupt file is not retried)
        # (nor a launcher's own config file it could not parse, `Failed to read config file rollout.yaml: while parsing a
        # flow sequence`, SGLang 0.5.23's --config, current set 41: a YAML / TOML / INI settings file is no checkpoint)
        # (nor a DATA file: a parquet / arrow / jsonl / csv shard that does not read is the data's, python_crash as the
        # labelling decisions and current sets 9, 29 and 71 read pyarrow's "Parquet magic bytes not found in footer. Either
        # the file is corrupted or this is not a parquet file.")
        _rx(r"(?i:socket|connection|raylet|\bpipe\b|\brpc\b|serialized exception|can'?t pickle|cannot pickle|PicklingError|"
            r"\bafter \d+ (?:attempts|retries|tries)\b|\bconfig file\b|\.(?:ya?ml|toml|ini)\b|"
            r"\bparquet\b|\.arrow\b|\.jsonl?\b|\.csv\b|\.tfrecords?\b)")),
    Row("cuda_oom", (_rx(_OOM), _rx(_GPU)), _rx(_HOST_MEMORY)),
    Row("ray_oom_kill", (_rx(r"(?i:memory monitor|memory usage threshold|memory pressure|low on memory|out of memory|\boom\b)"),
                         _rx(r"\bRay\b|raylet|memory monitor|memory usage threshold|RAY_memory")), _rx(r"OOMKilled|(?i:container|\bpod\b|cgroup)")),
    # (userspace OOM killers too: systemd-oomd "Killed /user.slice/... due to memory pressure", earlyoom)
    Row("pod_oomkilled", (_rx(r"OOMKilled|(?i:oom[-_ ]?kill|killed by (?:the )?(?:kernel|oom)|out of memory: kill|container killed due to memory)|"
                              r"systemd-oomd\[\d+\]: Killed\b|\bearlyoom\b[^\n]{0,60}\b(?:kill|sending SIG)|"
                              + KERNEL_OOM + "|"
                              r"(?i:exit(?:ed with)? (?:code|status):? ?137)\b|(?i:(?:exit|code|status|container)\b[^\n]{0,40}\b137)\b"),), None),
    # a SIGKILL is the orchestrator's OOM kill only when the orchestrator (container, pod, kubelet,
    # task status) reports it; a worker SIGKILLed inside a running container, reported by torch
    # elastic or torch.multiprocessing, is a process's death (python_crash, issue-15 contract)
    Row("pod_oomkilled", (_rx(r"\bSIGKILL\b|[Ss]ignal 9\b|signal: killed"), _rx(r"(?i:container|\bpod\b|kubelet|cgroup|exit_code=)")), None),
    # the orchestrator's memory kill in words: a container / pod / cgroup, or Slurm's step (slurmstepd's
    # cgroup "oom_kill event", srun's "task N: Out Of Memory"), ended for memory
    Row("pod_oomkilled", (_rx(r"(?i:\boom\b|out of memory)"), _rx(r"(?i:container|\bpod\b|kubelet|cgroup|slurmstepd|\bsrun\b)|\bJobId=\S+ OOM failure")), None),
    Row("image_pull", (_rx(r"PullImage|(?i:image ?service)|(?i:\bpull(?:ing|ed)?\b.{0,60}\bimage\b|\bimage\b.{0,60}\bpull|ErrImage|ImagePull|manifest (?:unknown|for|not found)|failed to (?:pull|resolve reference)|pull access denied)"),), None),
    Row("image_pull", (_rx(REGISTRY_REFUSAL),), None),
    # a sandbox runtime that checks the image before it starts it (openhands-ai 0.59.0 runtime/impl/remote/remote_runtime.py
    # "Container image %s does not exist"): no image to pull
    Row("image_pull", (_rx(r"(?i:\bcontainer image \S+ does not exist\b)"),), None),
    # a Daytona sandbox's image (its "snapshot") missing or not usable when the sandbox is created (daytona apps/api
    # sandbox.service.ts: "Snapshot ${name} not found. Did you add it through the Daytona Dashboard?", "Snapshot ${name}
    # is ${state}" for a build_failed / error / pending one; current set 84): the image cannot be had, as a failed pull
    Row("image_pull", (_rx(r"Snapshot \S+ not found\. Did you add it through the Daytona Dashboard|"
                           r"Failed to create sandbox: Snapshot \S+ (?:not found|is [a-z_]+)\b"),), None),
    # enroot's registry client (enroot src/docker.sh: "[ERROR] URL %s returned error code: %s") on a registry's
    # API or token endpoint (`/v2/.../manifests/...`, `/proxy_auth`, a `/token` service)
    Row("image_pull", (_rx(r"URL \S*(?:/v2/|/proxy_auth|/token\b|/manifests/|/blobs/)\S* returned error code: \d"),), None),
    # an image reference the kubelet cannot parse (pkg/kubelet/images/image_manager.go: event InspectFailed
    # "Failed to apply default image tag ...: couldn't parse image reference", reason InvalidImageName; pyxis /
    # enroot and containers/image: "Invalid image reference")
    Row("image_pull", (_rx(r"InspectFailed|InvalidImageName|(?i:couldn't parse image reference|invalid image reference|failed to apply default image tag)"),), None),
    # SGLang's KV pool exhausted on the GPU (sglang 0.5.23 srt/mem_cache/allocation.py "Prefill out of memory.
    # Try to lower your batch size.", "Decode out of memory. ...")
    # (and 0.5.8 managers/schedule_batch.py's "Out of memory even after retracting all other requests in the decode batch.")
    Row("cuda_oom", (_rx(r"\b(?:Prefill|Decode) out of memory\b|\bOut of memory even after retracting\b"),), None),
    # accelerate 1.16 utils/memory.py find_executable_batch_size halving the batch on each CUDA OOM until
    # none is left ("No executable batch size found, reached zero.")
    Row("cuda_oom", (_rx(r"No executable batch size found"),), None),
    # accelerate 1.16 utils/modeling.py load_state_dict: a .safetensors file without its header metadata
    # ("The safetensors archive passed at %s does not contain the valid metadata")
    Row("checkpoint_corrupt", (_rx(r"does not contain the valid metadata"),), None),
    # torch.load's own checks of what it reads (torch/serialization.py: "Unknown endianness type", "Invalid
    # magic number; corrupt file?", "Invalid protocol version", "Unknown saved id type", "Expected input to be a
    # checkpoint returned by torch.save"; libtorch_python "record size (%d bytes) does not match expected size";
    # caffe2/serialize/inline_container.cc "CRC-32 check failed", "No files found in zip archive"; torch 2.14 wheel)
    Row("checkpoint_corrupt", (_rx(r"Unknown endianness type|Invalid protocol version: \d|Unknown saved id type|"
                                   # inline_container.cc's version check, torch 2.14 wording
                                   r"Attempted to read a PyTorch file with version \d+|"
                                   r"Expected input to be a checkpoint returned by torch\.save|record size \(\d+ bytes\) does not match expected size|"
                                   r"CRC-32 check failed|No files found in zip archive|(?:Data|Header) segment of unexpected size"),), None),
    # a checkpoint to resume / load that is not there (megatron-core dist_checkpointing "Checkpoint directory
    # %s does not exist"; SkyRL fsdp_strategy.py "Model checkpoint not found: %s", trainer.py "Trainer state
    # file not found"; like transformers Trainer's "Can't find a valid checkpoint at", observe/causes.py): the
    # checkpoint cannot be read. A weight file of a model (.safetensors / .bin) is hf_weights_missing's; a
    # notice that the run starts fresh is none; a checkpoint's name inside a path is not the subject (torch.save's
    # "Parent directory /ckpt/global_step_300 does not exist.": a save that had nowhere to go)
    # (a dotted setting's key is one word, not a sentence's end: torchtitan 0.3.0 components/checkpoint.py
    # "--checkpoint.load_step=%d not found at %s")
    Row("checkpoint_corrupt", (_rx(r"(?i:(?<![/\w])(?:checkpoint|ckpt|trainer[ _]state)\b(?:[^.\n]|\.(?=\w)){0,40}?\b(?:not found|does ?n[o']t exist|is missing)|"
                                   # the checkpoint's path named, however long (verl megatron_checkpoint_manager.py
                                   # "Checkpoint path %s does not exist.")
                                   r"(?<![/\w])(?:checkpoint|ckpt)(?: (?:path|dir(?:ectory)?|folder|file))?:? \S+ (?:not found|does ?n[o']t exist|is missing)|"
                                   # transformers Trainer's resume_from_checkpoint=True on a directory without one;
                                   # Megatron-LM training/checkpointing.py "No checkpoint found in load directory or
                                   # pretrained directory", "no checkpoint was found under load directory"
                                   # (torchtune 0.6.1 training/checkpointing/_checkpointer.py "No intermediate checkpoint was found";
                                   # a weight format's "checkpoint" is the model's weights: slime's "No safetensors checkpoint found")
                                   r"no (?:(?!safetensors|hf|huggingface|pytorch|model)\w+ )?checkpoints? (?:was |were )?found|"
                                   # a checkpoint the resume logic will not use (NeMo 2.1 / 2.3 lightning/resume.py "Last checkpoint
                                   # is unfinished and cannot be used to resume", io/pl.py "Distributed checkpoints should be a
                                   # directory. Found: %s")
                                   r"\bcheckpoint is unfinished\b|\bcheckpoints? should be a directory\b|"
                                   # a checkpoint whose format the loader does not know (Megatron-LM checkpointing.py
                                   # "unknown checkpoint format in %s"; TransformerEngine module/base.py "Unsupported
                                   # checkpoint format.")
                                   r"\b(?:unknown|unsupported|unrecognized|invalid) checkpoint format\b|"
                                   # a lookup of a checkpoint path that is not there (accelerate load_state: "Tried to
                                   # find <dir>/checkpoints/checkpoint_7 but folder does not exist"): the path is the subject
                                   r"\b(?:tried to (?:find|load)|looking for|resum\w* from)\s+\S*(?:checkpoint|ckpt)\S*[^.\n]{0,40}?"
                                   r"\b(?:not found|does ?n[o']t exist|is missing)|"
                                   # a path the loader says is no checkpoint of its kind (lightning 2.4.0 strategies/fsdp.py "The
                                   # path %r does not point to a valid checkpoint"; deepspeed 0.14.4 utils/zero_to_fp32.py "%s is
                                   # not a zero checkpoint", runtime/state_dict_factory.py "checkpoint contains neither 'model'
                                   # or 'module' keys")
                                   r"\b(?:does not point to|is not) an? (?:valid |\w+ )?checkpoint\b|\bcheckpoint (?:contains|has) (?:neither|no)\b|"
                                   # a checkpoint's parts it cannot find or count (zero_to_fp32.py "can't find *_optim_states.pt
                                   # files in directory %r", "Expected %d of '*_optim_states.pt' under %r but found %d files",
                                   # "Unable to find 'latest' file at %s": DeepSpeed's tag file)
                                   r"\b(?:can't|cannot|unable to|could not|failed to) find\b[^\n]{0,60}?(?:_states\.pt\b|'latest' file)|"
                                   r"\bexpected \d+ of \S+ under \S+ but found \d+ files\b)"),),
        # (nor a save's destination: megatron-core 0.8 dist_checkpointing/serialization.py "Checkpoint destination directory does
        # not exist: %s", a save with nowhere to go)
        _rx(r"(?i:\.safetensors|\.bin\b|from scratch|start(?:ing)? (?:fresh|from)|skipp|will (?:be )?(?:creat|sav|writ)|\bdestination\b|\bbucket\b)")),
    # no usable accelerator in the serving engines' and launchers' words (vLLM 0.34 config/device.py "Failed
    # to infer device type"; sglang 0.5.23 srt/utils/common.py "nvidia-smi not found"; deepspeed 0.19.8
    # launcher/runner.py "Unable to proceed, no GPU resources available")
    # (and DeepSpeed 0.19.8 runtime/zero/stage_1_and_2.py "Accelerator is not detected, cannot perform low precision training")
    # (transformers trainer_utils.py "No available GPU device found!")
    Row("cuda_error", (_rx(r"Failed to infer device type|nvidia-smi not found|no GPU resources available|Accelerator is not detected|"
                           r"(?i:\bno (?:available |usable |visible )?(?:GPU|CUDA|accelerator) devices? (?:was |were )?(?:found|available|detected)\b)|"
                           # (transformers 5.17 quantizers: quantizer_finegrained_fp8.py "No GPU or XPU found. A GPU or XPU is
                           # needed for FP8 quantization.", quantizer_gptq.py "GPU is required to quantize or run quantize model.")
                           r"\bNo GPU (?:or \w+ )?found\b|\bGPU is required to\b|"
                           # (the launchers' refusals: lightning 2.4.0 accelerator_connector.py "No supported gpu backend found!",
                           # fabric/accelerators/cuda.py "You requested to find %d devices but only %d are currently available";
                           # accelerate 0.25.0 accelerator.py "fp16 mixed precision requires a GPU"; deepspeed 0.14.4
                           # runtime/zero/stage3.py "Cannot use fp16 without accelerator.")
                           r"(?i:\bno supported (?:gpu|cuda|accelerator) backend\b|\brequested to find \d+ devices but only \d+\b|"
                           r"\brequires an? (?:GPU|CUDA device|accelerator)\s*[.!]?\s*$|\b(?:cannot|can't|unable to) use \S+ without (?:an? )?(?:GPU|accelerator)\b|"
                           # (sglang 0.5.8 srt/utils/common.py: "No accelerator (CUDA, XPU, HPU, NPU) is available.")
                           r"\bNo accelerator (?:\([^)]*\) )?is available\b|"
                           # a precision mode the host's device cannot run (accelerate 1.5.2 accelerator.py "fp16 mixed precision
                           # requires a GPU (not 'cpu').", "bf16 mixed precision requires PyTorch >= 1.10 and a supported device.";
                           # transformers 4.40-4.46 training_args.py "FP16 Mixed precision training ... can only be used on CUDA",
                           # "Your setup doesn't support bf16/gpu.", trainer.py "Tried to use `fp16` but it is not supported on cpu";
                           # deepspeed 0.19.8 engine.py "Type bf16 is not supported on your device.")
                           r"\b(?:fp16|bf16|fp8|half[- ]precision|mixed[- ]precision)\b[^\n]{0,120}?(?:\brequires (?:an? )?(?:GPU|CUDA device|accelerator)\b(?! \w)|"
                           r"\brequires PyTorch >= [\d.]+ and a supported device\b|\bnot supported on (?:cpu|your device)\b|\bcan only be used on CUDA\b)|"
                           r"\bdoesn't support bf16/gpu\b)"),), None),
    # the node's GPU daemons and validators saying the GPUs are not usable: nvidia-persistenced (595.71.05 nvidia-persistenced.c:
    # "Failed to query NVIDIA devices", "Unable to find any NVIDIA devices", "device %s - failed to open.", "Could not Enable
    # UVM Persistence mode"), nvidia-smi's "No devices were found", DCGM's health watch ("Detected a FAILURE in health system
    # NVLink", NVIDIA/DCGM @ 72fa3fea modules/health), the GPU operator's validator (NVIDIA/gpu-operator @ a22dbf67 validator/
    # main.go: "driver is not ready", "error validating driver installation", "GPU resources are not discovered by the
    # node"), NVML's "Driver/library version mismatch" (nvml.h NVML_ERROR_LIB_RM_VERSION_MISMATCH's text), triton's driver probe
    # (triton 3.6 runtime/driver.py "0 active drivers"), a 32-bit libcuda: a GPU failure, not the program's
    Row("cuda_error", (_rx(GPU_NODE_UNUSABLE),), None),
    # shared memory is a filesystem (/dev/shm, tmpfs): vLLM 0.34 distributed/device_communicators/
    # shm_broadcast.py "Insufficient space in /dev/shm for shared-memory allocation: N MiB required"
    Row("disk_full", (_rx(r"(?i:insufficient (?:disk |free )?space|not enough (?:disk|free) space|no free space)"),
                      _rx(r"(?i:/dev/shm|disk|filesystem|file system|volume|\bspace in /)")), None),
    # nowhere to place the workers a serving engine asked for (vLLM 0.34 v1/engine/utils.py "Not enough
    # resources to allocate N DP ranks on DP master node X")
    # (and Ray's check of an actor or task against its placement group, ray 2.60 python/ray/util/scheduling_strategies /
    # _private/utils.py: "Cannot schedule X with the placement group because the resource request {...} cannot fit into
    # any bundles for the placement group"): no bundle can ever hold it
    # (and a gang dispatcher in front of the jobs saying it in its words: CodeFlare MCAD's AppWrapper condition "Insufficient
    # resources to dispatch AppWrapper.", public set 71)
    Row("pg_unplaceable", (_rx(r"(?i:(?:not enough|insufficient) resources to (?:allocate|place|schedule|fit|dispatch|admit)|"
                               r"cannot fit into any bundles?\b)"),), None),
    # Iris's scheduler and autoscaler on a task no worker can take (marin-iris 0.2.20 cluster/controller/scheduling/
    # scheduler.py "No worker has sufficient resources (need cpu=..., memory=...)", "No worker matches constraints and has
    # sufficient resources"; autoscaler/routing.py _diagnose_no_capacity "Unmet demand: reason=no_capacity: <group>=<status>"),
    # and a launcher's count of nodes that fit short of the gang ("need 4 Ready ... nodes, but only 3 of 6 ... fit"):
    # nowhere to run (not the scheduler's "Waiting for build slots ... but have sufficient resources": a wait)
    Row("pg_unplaceable", (_rx(IRIS_UNPLACEABLE + r"|(?i:\bneeds? \d+ [^\n]{0,60}?\bnodes?\b[^\n]{0,40}?\bbut only \d+\b)"),), None),
    # a repo id the Hub client or a loader rejects as such (vLLM 0.34 transformers_utils/config.py "Invalid
    # repository ID or local directory specified")
    Row("hf_repo_not_found", (_rx(r"(?i:invalid repo(?:sitory)? id\b)"),), None),
    Row("hf_repo_not_found", (_rx(MODEL_ID_DOUBTED),), None),
    # a loader that found the checkpoint without the weights it needs (vLLM 0.34 model_loader/
    # default_loader.py "Following weights were not initialized from checkpoint"; sglang 0.5.23
    # model_loader/loader.py "Cannot find any model weights with `path`")
    Row("hf_weights_missing", (_rx(r"(?i:weights (?:were )?not initiali[sz]ed from (?:the )?checkpoint|"
                                   r"(?:cannot|can't|could not|unable to) find any (?:\w+ )?(?:model )?weights)"),), None),
    # huggingface_hub offline / cache-only lookups that found nothing (file_download.py "Cannot find the
    # requested files in the disk cache and outgoing traffic has been disabled", _snapshot_download.py
    # "Cannot find an appropriate cached snapshot folder ... outgoing traffic has been disabled"): the
    # Hub could not be asked (hf_http_error, Labelling decisions: offline mode)
    Row("hf_http_error", (_rx(r"outgoing traffic has been disabled|(?i:offline mode is enabled)"),), None),
    # the Hub's own 429 text (its rate-limit buckets: "you have reached your 'resolvers' rate limit", 'api', 'pages')
    Row("hf_http_error", (_rx(r"you have reached your '\w+' rate limit"),), None),
    # hf_xet reconstructing a file whose term lengths disagree ("result term data length N did not match expected
    # value M"): the bytes fetched were cut or damaged
    Row("hf_incomplete_download", (_rx(r"(?i:did not match expected value)"), _rx(_HUB + r"|(?i:download)")), None),
    # an upload the Hub did not take (huggingface_hub _commit_api.py "Error while uploading '%s' to the Hub.",
    # lfs.py "LFS batch API returned errors"): a transfer failure, like a download's
    Row("hf_http_error", (_rx(r"Error while uploading '[^']+' to the Hub|LFS batch API returned errors"),), None),
    # Ray's core worker (src/ray/core_worker/task_manager.cc "Task failed: <status>: Type=ACTOR_TASK ...") on
    # an RPC status (IOError: gRPC UNAVAILABLE "Socket closed"): the actor's process went away under the call
    Row("ray_actor_died", (_rx(r"Task failed: IOError\b[^\n]*Type=ACTOR_TASK"),), None),
    # glibc's own fatal messages end in ": ABORT" (elf/dl-tls.c "cannot allocate memory for thread-local
    # data: ABORT"): the process aborted
    Row("python_crash", (_rx(r"\S: ABORT\s*$"),), None),
    Row("python_crash", (_rx(FAULTHANDLER_TIMEOUT),), None),
    # glibc's heap and stack checks (malloc/malloc.c malloc_printerr, debug/fortify_fail.c), libstdc++'s
    # verbose terminate handler's `what():` of a failed host allocation: the process aborts
    Row("python_crash", (_rx(E.LIBC_ABORT),), None),
    # Slurm failing to launch the step (src/srun: "srun: error: Application launch failed: ...", "Task launch for
    # StepId=N.0 failed on node X", "task 0 launch failed: Plugin initialization failed"; src/common/spank.c: a
    # required SPANK plugin failing, "spank: required plugin %s: %s() failed with rc=%d", aborts the step;
    # torchrun's own failure table is observe/causes.py's)
    Row("python_crash", (_rx(r"\b(?:srun|slurmstepd): error: (?:[^\n]{0,40}\blaunch (?:for \S+ )?failed|"
                             r"Task launch for \S+ failed|spank: required plugin)"),), None),
    # Slurm's own end of a job / step (SchedMD/slurm @ f56e676b, slurm-25-11-7-1: slurmstepd req.c's banner
    # "*** JOB|STEP <id> ON <node> CANCELLED AT <time> DUE TO <reason> ***", "DUE to SIGNAL <name>", a plain
    # "CANCELLED AT <time> ***"; slurmctld job_mgr.c "Time limit exhausted for JobId=%u"; salloc.c "Job %u has
    # exceeded its time limit and its allocation has been revoked."): the scheduler took the allocation back
    # (time limit, preemption, requeue, a cancel signal) = evicted; the same banner for a node or task failure,
    # "FAILED (non-zero exit code ...)" and "STEPD TERMINATED" is the job's own end (SLURM_BANNER_CRASH, below)
    Row("evicted", (_rx(SLURM_TAKEN_BACK),), None),
    Row("python_crash", (_rx(SLURM_ENDED),), None),
    # the scheduler refusing the allocation itself (src/srun/allocate.c / salloc "Unable to allocate resources: %m",
    # src/sbatch/sbatch.c "Batch job submission failed: %m", src/srun/launch.c "Unable to create step for job %u: %m"):
    # no node takes the job as asked
    Row("pg_unplaceable", (_rx(SLURM_REFUSED),), None),
    # MPI's own ends (open-mpi/ompi v5.0.10 ompi/mpi/c/abort.c "MPI_ABORT was invoked on rank %d", errhandler_predefined.c
    # "*** An error occurred in MPI_X" / "*** MPI_ERR_X: ...", instance.c "MPI_INIT has failed", btl_tcp "An MPI
    # communication peer process has unexpectedly disconnected"; openpmix/prrte v3.0.13 prte_quit.c "prterun noticed
    # that process rank N ... exited on", "has exited due to process rank", "detected that one or more processes
    # exited with non-zero status", plm_slurm "srun returned non-zero exit status"): the job's ranks ended
    Row("python_crash", (_rx(MPI_ENDED),), None),
    # PRRTE's mapper finding too few slots (MPI_NO_SLOTS)
    Row("pg_unplaceable", (_rx(MPI_NO_SLOTS),), None),
    # Ray's runtime environment that could not be built for a job / task (dashboard job_manager.py "Failed to set
    # up runtime_env for job", RuntimeEnvSetupError): the process never ran
    Row("python_crash", (_rx(r"(?i:failed to (?:set ?up|create|build) (?:the )?runtime[_ ]env)|RuntimeEnvSetupError"),), None),
    Row("python_crash", (_rx(CONTAINER_START),), None),
    # a JobSet / Job that gave up (jobset pkg/controllers/failure_policy.go "applying FailJobSet failure policy
    # action", "jobset failed due to reaching max number of restarts"): the run's end, of no other kind
    # (and the Kubeflow training operator's job condition, kubeflow/trainer pkg/controller.v1/common
    # "%s %s has failed because %d %s replica(s) failed.": "TFJob myjob has failed because 1 Worker replica(s) failed.")
    # (and Iris's own terminal reasons for a gang, marin lib/iris cluster/controller/transitions.py: "Coscheduled sibling
    # <task> failed", "Job exceeded max_task_failures"; an init container's failed state in a pod listing, `Init:Error`)
    Row("python_crash", (_rx(r"FailJobSet|(?i:reach(?:ed|ing) (?:the )?max(?:imum)? number of restarts)|"
                             r"\b[A-Z]\w*Job \S+ (?:has |is )?failed because \d+ \w+ replica|"
                             r"\bCoscheduled sibling \S+ failed|\bexceeded max_task_failures\b|\bInit:(?:Error|CrashLoopBackOff)\b"),), None),
    # Kueue's waitForPodsReady (pkg/controller/core/workload_controller.go: "Exceeded the PodsReady timeout",
    # reason PodsReadyTimeout; "deactivated due to exceeding the maximum number of re-queuing retries"): the
    # gang's pods never all became ready in time (the event that says Evicted stays the eviction: corpus set 13)
    Row("pg_timeout", (_rx(r"PodsReady ?[Tt]imeout|RequeuingLimitExceeded|(?i:maximum number of re-?queu)"),), _rx(r"\bEvicted")),
    # a sandbox (or job) that waited in its scheduler's queue for a runner and was given up (daytona 0.226
    # common/errors.py DaytonaQueueTimeoutError: "Sandbox X was destroyed after waiting for a runner (queue timed out
    # at T)"): nowhere to run within the deadline
    Row("pg_timeout", (_rx(r"(?i:\bqueue ?timed? ?out\b|QueueTimeout|waiting for an? (?:runner|slot|free node)\b[^\n]{0,40}\btimed? ?out)"),), None),
    # Kueue's execution-time limit (v0.9.4 workload_controller.go: event MaximumExecutionTimeExceeded, "The maximum
    # execution time (%ds) exceeded"): the scheduler ended the workload at its time limit, like Slurm's
    Row("evicted", (_rx(r"MaximumExecutionTimeExceeded|\bmaximum execution time \(\d+s\) exceeded"),), None),
    # the kubelet's eviction manager choosing its victims (pkg/kubelet/eviction/eviction_manager.go "Eviction manager:
    # pods ranked for eviction", "Eviction manager: must evict pod(s) to reclaim"), graceful node shutdown's pod reason
    # in `kubectl get pods` (pkg/kubelet/nodeshutdown: reason "Terminated"; older "Shutdown")
    Row("evicted", (_rx(r"Eviction manager: (?:pods ranked for eviction|must evict pod)|" + E.KUBECTL_POD_ROW + r"(?:Terminated|Shutdown|NodeShutdown)\s+\d+"),), None),
    # the taint manager deleting a pod on a tainted node (pkg/controller/tainteviction "Marking for deletion
    # Pod", event TaintManagerEviction) and a node that rebooted under its pods (kubelet nodestatus "Node %s
    # has been rebooted, boot id: %s")
    Row("evicted", (_rx(r"TaintManagerEviction|Marking for deletion Pod|(?i:node \S+ has been rebooted)|"
                        # the kubelet's graceful node shutdown (pkg/kubelet/nodeshutdown: "Shutdown manager killing pod with gracePeriod")
                        r"Shutdown manager killing pod"),), None),
    # (the kubelet's eviction messages: "The node was low on resource", DISK_EVICTION; a platform's WORKLOAD_EVICTED)
    Row("evicted", (_rx(r"(?i:low on resource|had condition: \[\w+Pressure\])|\bEvicted\b|" + DISK_EVICTION + "|" + WORKLOAD_EVICTED),), None),
    # a container's memory limit hit (MEMORY_LIMIT): the orchestrator's kill
    # (not a platform's quota refusing a new workload, "Total memory limit exceeded. Maximum allowed: 10GiB": nothing
    # ran out of memory, the create was refused, as its CPU quota's twin is; current set 84)
    Row("pod_oomkilled", (_rx(MEMORY_LIMIT),), _rx(r"(?i:object store|plasma|\bkv\b|maximum allowed)")),
    Row("pg_unplaceable", (_rx(r"(?i:\bunable to schedule (?:the |this )?(?:space|pod|workload|job|task|gang)\b)"),), None),
    Row("python_crash", (_rx(RAY_JOB_FAILED),), None),
    # (a `preemptible` attribute or constraint names a kind of capacity, not a preemption: Iris's "constraints: [Constraint(key=
    # 'preemptible', ...)]", current set 53)
    Row("evicted", (_rx(r"(?i:evict|preempt(?!ible))"), _rx(r"(?i:\bpod\b|\bnodes?\b|node_ids?\b|\btask\b|container|\bvm\b|instance|\bspot\b|\bjob\b)")),
        # nor kube-scheduler's FailedScheduling message's preemption clause (pkg/scheduler/framework/preemption:
        # "preemption: 0/N nodes are available: N No preemption victims found for incoming pod."): unplaceable
        _rx(r"PreemptionMode|(?i:sequence group|requests? (?:were|was|are|is) preempted|preempted requests)|"
            r"No preemption victims|preemption: \d+/\d+ nodes")),
    # PMIx's collectives are the launcher's rendezvous, not NCCL's (SchedMD/slurm @ f56e676b src/plugins/mpi/pmix/
    # pmixp_coll_ring.c "%p: collective timeout seq=%d"): the peers never met
    Row("dist_timeout", (_rx(r"(?i:\bpmix)"), _rx(_TIMEOUT)), None),
    # ProcessGroupNCCL's flight-recorder dump, which a collective timeout on some rank signals to all (torch 2.4.1 / 2.6.0
    # ProcessGroupNCCL.cpp: "First PG on this rank detecting the dump signal through tcpstore.", "Received a global dump signal
    # from rank %d, and will start to dump the debug info"): the ranks' timeout cascade
    Row("nccl_timeout", (_rx(r"detecting the dump signal|Received a (?:global )?dump signal\b"), _rx(r"ProcessGroupNCCL|\bPG \d+|\brank \d+")), None),
    Row("nccl_timeout", (_rx(_TIMEOUT + r"|[Ww]atchdog"), _rx(r"NCCL|\bnccl|collective|WorkNCCL|ProcessGroupNCCL")), None),
    # communicators that stopped advancing (ray 2.60.0 train/v2/_internal/callbacks/nccl_ras.py: "N of M
    # communicators have a collective mismatch and made no progress for S seconds"): a hung collective
    Row("nccl_timeout", (_rx(r"(?i:made no progress for \d+)"), _rx(r"(?i:communicator|collective)")), None),
    # (and torch elastic's etcd rendezvous backend, torch 2.11 distributed/elastic/rendezvous/etcd_rendezvous.py / etcd_server.py:
    # "timed out waiting for all %d members to join", "Timed out waiting for etcd server to be ready!")
    Row("dist_timeout", (_rx(_TIMEOUT), _rx(r"(?i:\bstore\b|rendezvous|\bbarrier|tcpstore|\bgloo\b|\bc10d\b|init_process_group|members to join|\betcd\b|"
                                             r"master_addr|master_port|torch\.distributed|\belastic\b|torchrun|process group|connect\(\)|"
                                             # a store's get / wait for a key (c10d FileStore / HashStore "Timeout
                                             # waiting for key: K after N ms", TCPStore "wait timeout after Nms, keys:")
                                             r"waiting for (?:the )?keys?\b)|"
                                             r"Socket Timeout|Wait timeout")), None),
    # c10d's store sockets failing without a timeout (torch/csrc/distributed/c10d/socket.cpp: "The server
    # socket has failed to listen", "The client socket has failed to connect"): the same kind, the store
    # gloo's full-mesh connection setup (torch ProcessGroupGloo.cpp "Gloo connectFullMesh failed with",
    # gloo/transport/tcp/pair.cc "connect ... Connection refused") is the same rendezvous family
    # torch elastic's store barriers (agent/server/api.py _exit_barrier "Error waiting on exit barrier",
    # distributed_c10d.py _store_based_barrier): peers that never reached the store
    Row("dist_timeout", (_rx(r"(?i:exit barrier|store[ _]based[ _]barrier|monitored_?barrier)"), _rx(r"(?i:error|fail|waiting)")), None),
    # peers that never met at a rendezvous store, in words (ray.util.collective nccl_collective_group.py "Unable
    # to meet other processes at the rendezvous store", "Unable to get the NCCLUniqueID from the store within 180
    # seconds"; torch_gloo_collective_group.py "Missing rendezvous metadata for group")
    Row("dist_timeout", (_rx(r"(?i:\bstore\b|rendezvous)"), _rx(r"(?i:unable to (?:meet|get)\b|missing rendezvous|within \d+(?:\.\d+)? ?(?:s|sec|seconds)\b)")),
        _rx(r"(?i:kv[ _-]?cache|object store)")),
    # any other barrier over a store or socket failing (vLLM 0.34 distributed/utils.py stateless barrier:
    # "Failed to broadcast barrier_id", "Failed to signal barrier arrival"): the peers never met; an NCCL
    # barrier's failure is NCCL's (the rows below)
    Row("dist_timeout", (_rx(r"(?i:\bbarrier(?:_id)?\b)"), _rx(r"(?i:\bfail|error\b)")), _rx(r"(?i:nccl)")),
    # TensorFlow's distributed runtime (tensorflow/core/distributed_runtime: master.cc "Master init: Unavailable",
    # a remote function on /job:worker/replica:N/task:M failing with UnavailableError): a peer it cannot reach,
    # gRPC's "failed to connect to all addresses" / "Connection reset by peer"
    Row("dist_timeout", (_rx(r"distributed_runtime|/job:\w+/replica:\d+/task:\d+"),
                         _rx(r"(?i:unavailable|failed to connect|connection (?:refused|reset)|deadline exceeded|timed? ?out)")), None),
    Row("dist_timeout", (_rx(r"(?i:tcpstore|\bc10d\b|rendezvous|(?:server|client) socket|init_process_group|master_addr)|"
                             r"connectFullMesh|\bgloo\b[^\n]*\]\s*connect\b"),
                         _rx(r"(?i:fail|refused|reset by peer|eaddrinuse|address already in use|unreachable|no route to host)")), None),
    # Ray's scheduler ("The actor or task with ID ... cannot be scheduled right now"; ray 2.60's raylet
    # node_manager.cc WarnAndGCStuckActors: "The lease with ID ... cannot be scheduled right now"), Ray Train's
    # worker group ("The worker group startup timed out after N seconds waiting for M workers"), vLLM's
    # Ray executor ("Cannot provide a placement group ... within N seconds", vllm ray_utils.py)
    # (and Ray Data's actor pool, ray 2.60.0 data/_internal/execution/operators/actor_pool_map_operator.py: "Timed out while
    # starting actors. This may mean that the cluster does not have enough resources for the requested actor pool.")
    Row("pg_timeout", (_rx(r"(?i:placement group|resource request|pending tasks|actor or task with ID|lease with ID|worker group|"
                           r"starting actors|actor pool)"),
                       _rx(_TIMEOUT + r"|(?i:waiting|gave up|not ready|right now|\d+\+ pending|within \d+(?:\.\d+)? seconds)")), None),
    Row("pg_unplaceable", (_rx(r"(?i:placement group|\bbundles?\b|resource request)|FailedScheduling|nodes are available"),
                           _rx(r"(?i:infeasible|cannot be scheduled|can't be scheduled|no (?:available )?nodes?|not enough|insufficient|"
                               r"unschedulable|fulfill|exceeds|failed to (?:schedule|create)|could not find a node)")),
        # (not a name another group holds: Ray's GCS "Failed to create placement group '%s' because name '%s' already
        # exists.", current set 55, is the caller's naming; nor Iris's code bundle, "Bundle size 30.0MB exceeds maximum
        # 25MB", current set 53: an upload's size)
        _rx(r"\bbecause name '[^']*' already exists\b|(?i:\bbundle size [\d.]+ ?[KMG]i?B)")),
    # Ray Data's resource manager finding no room for an operator's tasks (RAY_DATA_NO_ROOM): nothing can be placed
    Row("pg_unplaceable", (_rx(RAY_DATA_NO_ROOM),), None),
    # a framework's own check of the Ray cluster against the resource pools it will ask for (verl 0.3-0.5 trainer/ppo/ray_trainer.py
    # "Resource pool %s: %d*%d cannot be satisfied in this ray cluster"): no room for the group
    Row("pg_unplaceable", (_rx(r"(?i:cannot be satisfied in (?:this|the) (?:ray )?cluster\b)"),), None),
    # Karpenter's provisioner finding no node pool for the pod (aws/karpenter-provider-aws v1 pkg/controllers/provisioning:
    # "Failed to schedule pod, incompatible with nodepool %q, ..."): nowhere to run
    Row("pg_unplaceable", (_rx(r"Failed to schedule pod, incompatible with (?:all )?nodepools?|incompatible with nodepool \S+, daemonset overhead"),), None),
    # kube-scheduler's event reason and its "0/N nodes are available: <count> <reason>" whatever the reason
    # (affinity, taints, ports): no node for the pod
    Row("pg_unplaceable", (_rx(r"\bFailedScheduling\b|\b\d+/\d+ nodes are available: \d+ "),), None),
    # a pod / gang no node can take, in other schedulers' words: the PodScheduled condition's reason
    # `Unschedulable` (kubectl's event column), Volcano's "N/M tasks in gang unschedulable", KAI /
    # Kueue / kube-scheduler plugins' "No nodes with enough resources", "node(s) didn't have enough
    # resources" (a node cordoned "unschedulable" alone is not a pod that cannot place)
    Row("pg_unplaceable", (_rx(r"\s\sUnschedulable\s\s|(?i:\b(?:gang|pods?|tasks?|pod ?groups?|jobs?|workloads?)\b[^\n]{0,60}\bunschedulable\b|"
                               r"\bno nodes? (?:with|has|have) enough resources\b|\bnode\(s\) (?:didn't|did not) have enough resources\b)"),), None),
    Row("hf_gated", (_rx(r"(?i:\b40[13]\b|\bgated\b|unauthori[sz]ed|forbidden|access to (?:model|repo)|restricted|"
                         r"(?:invalid|expired|missing|wrong) (?:user |access |hf )?token|authenticat)"), _rx(_HUB)),
        E.INFERENCE_API),     # (the Hub's inference services refusing an application's call: no download)
    # a 404 on the repo as a whole (its API path or first config file: exceptions.REPO_URL)
    Row("hf_repo_not_found", (_rx(_NOT_THERE), _rx(E.REPO_URL.pattern)), None),
    # huggingface_hub file_download.py / _snapshot_download.py: the Hub could not be reached and the cache has
    # nothing ("An error happened while trying to locate the file(s) on the Hub and we cannot find the
    # requested files / appropriate snapshot folder ... in the local cache / on the local disk"): a network
    # failure (LocalEntryNotFoundError), whatever tool prints it (torchtune's `tune download`)
    # (huggingface_hub 2.x says it in three words, LocalEntryNotFoundError's "Local entry not found." before its cause, as
    # its `hf download` CLI prints it: `Error: Local entry not found. [Errno 111] Connection refused`)
    Row("hf_http_error", (_rx(r"(?i:error happened while trying to locate the files? on the Hub|\bLocal entry not found\b)"),), None),
    # transformers' older offline message (file_utils.py get_from_cache: "Connection error, and we cannot find
    # the requested files in the cached path."): the Hub could not be reached and the cache had nothing
    Row("hf_http_error", (_rx(r"(?i:connection error, and we cannot find the requested files in the cached path)"),), None),
    Row("hf_weights_missing", (_rx(_NOT_THERE + r"|(?i:no file named|missing|does not appear to have)"),
                               _rx(r"(?i:\.safetensors|\.bin\b|\.pt\b|weights?\b|\bshards?\b|\bentry\b|EntryNotFound|index\.json|\bfiles?\b)"),
                               _rx(_HUB + r"|does not appear to have|no file named")),
        _rx(r"LocalEntryNotFound|(?i:in the (?:local )?cache|offline|check your connection)")),
    # transformers' "Can't load tokenizer / config for '<id>'" (tokenization_utils_base.py,
    # configuration_utils.py): the id names nothing the Hub or the disk has
    Row("hf_repo_not_found", (_rx(_NOT_THERE + r"|(?i:can(?:'|no)t load (?:the )?(?:tokenizer|config|model)\b)"), _rx(_HUB), _rx(r"(?i:\brepo|repository|model id|model_id|revision|identifier|\bmodels?\b|correct path)")), None),
    Row("hf_http_error", (_rx(r"(?i:\b429\b|\b5\d\d\b|" + _TIMEOUT_WORDS + r"|connect|rate.?limit|too many requests|temporarily|"
                              r"unreachable|reset by peer|ssl|proxy|max retries|temporar|name resolution|thrown while requesting|"
                              # reqwest's own error texts (reqwest 0.12 src/error.rs Display), which the Hub's Rust
                              # clients (hf_xet 1.8, hf_transfer) pass up: the request or its body failed in transit
                              r"error sending request|request or response body error|"
                              r"failed after \d+ retries)"), _rx(_HUB)),
        E.INFERENCE_API),     # the Hub's inference services answer an application's call, not a download
    # the same refusals from a mirror or model host, read from the URL of a model file (corpus README,
    # labelling decisions: fetching model / tokenizer / dataset files is hf_http_error wherever they are)
    Row("hf_http_error", (_rx(r"(?i:\b429\b|\b5\d\d\b|too many requests|rate.?limit|timed? ?out|max retries|"
                              r"connection (?:refused|reset|aborted))"), _rx(_MODEL_FILE_URL)), E.INFERENCE_API),
    # An object store: the bucket a run stages its model and data from and writes checkpoints to, read as the Hub is
    # read (corpus README, Labelling decisions; source sets hub_data_stack and cloud_storage_clients): a refused read or
    # missing credentials -> hf_gated, a missing bucket / container -> hf_repo_not_found, a missing object ->
    # hf_weights_missing, 408 / 429 / 5xx / timeouts / exhausted retries -> hf_http_error, a body cut short or failing
    # its checksum -> hf_incomplete_download; a refusal that is no fetch failure (412, AlreadyExists: an overwrite
    # guard) stays the catch-all's. The store by its clients' modules and its URLs (STORE); the reading by the HTTP
    # status (google-api-core 2.44.0 api_core/exceptions.py `403 GET https://...`, botocore 1.44.8's ClientError
    # `(403) when calling the GetObject operation`) or by the clients' own class and code names: botocore's error
    # codes (data/_retry.json: SlowDown, Throttling, RequestTimeout ...; AccessDenied, ExpiredToken ...) and
    # credential classes (NoCredentialsError, MetadataRetrievalError), google-api-core's per-status classes
    # (Forbidden, NotFound, TooManyRequests, ServiceUnavailable, DeadlineExceeded, RetryError), google-auth 2.63.0's
    # DefaultCredentialsError / RefreshError, google-cloud-storage 3.17.1's DataCorruption, azure-core 1.41.0's
    # ClientAuthenticationError / ResourceNotFoundError / Service{Request,Response}Error and the storage service's
    # messages, obstore 0.12.1's PermissionDeniedError / UnauthenticatedError / NotFoundError / GenericError,
    # s3transfer 0.19.3's S3UploadFailedError / S3DownloadFailedError / S3ValidationError, smart_open 9.0.4 s3.py
    Row("hf_incomplete_download", (_rx(STORE), _rx(_STORE_CUT)), None),
    Row("hf_gated", (_rx(STORE), _rx(_STORE_REFUSED)), None),
    Row("hf_repo_not_found", (_rx(STORE), _rx(_STORE_NO_BUCKET)), None),
    Row("hf_weights_missing", (_rx(STORE), _rx(_STORE_NO_OBJECT)), None),
    Row("hf_http_error", (_rx(STORE), _rx(_STORE_TRANSIENT)),
        # (a rendezvous that polls a bucket timed out on its peers, not on the store)
        E.DIST_CONTEXT),
    # a downloaded file whose size is not the one its listing promised (MarinSkyRL cloud/iris/hf_model_cache.py @ 55e9f45c:
    # "Hugging Face size mismatch for %s: expected %d, found %d"): the download was cut short
    Row("hf_incomplete_download", (_rx(r"(?i:\bsize mismatch for \S+: expected \d+)"), _rx(_HUB)), None),
    # s3fs re-raises the store's throttling and 5xx as OSErrors whose errno is EBUSY or EREMOTEIO and whose text is the
    # service's message, not the errno's own strerror (s3fs errors.py ERROR_CODE_TO_EXCEPTION: SlowDown,
    # ServiceUnavailable -> EBUSY, 500 InternalError -> EREMOTEIO): `OSError: [Errno 16] Please reduce your request rate.`
    Row("hf_http_error", (_rx(r"\[Errno (?:16|121)\] (?!Device or resource busy|Remote I/O error)"),), None),
    # ... and a missing object or a refused access as the builtin classes with no errno, their message the object's
    # bucket-relative path (s3fs / gcsfs / fsspec raise FileNotFoundError(path); an OS error always carries `[Errno 2]`)
    # or the service's own refusal (s3fs: 403, AccessDenied, ExpiredToken ... -> PermissionError(message))
    Row("hf_weights_missing", (_rx(r"\bFileNotFoundError: (?![a-z][\w+.-]*://)[\w@-][\w.@=-]*/[\w./@=-]*\s*$"),), None),
    Row("hf_gated", (_rx(r"\bPermissionError: (?!\[Errno)(?i:[^:]*\b(?:access denied|forbidden|token|credentials?|not authori[sz]ed|signature)\b)"),),
        None),
    # NCCL's socket connect / accept giving up (v2.18-v2.30 src/misc/socket.cc "socketPollConnect: exceeded retries (%d)";
    # v2.25-v2.27 "socketPollConnect: connect returned %s, exceeded error retry count (%d)", "socketTryAccept: exceeded error
    # retry count after %d attempts, %s")
    Row("nccl_error", (_rx(r"\bsocket(?:\w*Connect|TryAccept): [^\n]{0,60}?exceeded (?:error )?retr(?:ies|y count)\b"),), None),
    # (HCCL is the same collective library for Ascend NPUs under torch_npu: `[ERROR] HCCL(pid,proc):<time>
    # [hccl_socket_manager.cc:813] ...wait socket establish timeout`, Huawei's HCCL guide, public set 61)
    # (not torch's own argument check before any NCCL call, ProcessGroupNCCL.cpp "Input tensor data type is not
    # supported for NCCL process group": the caller's bug, python_crash)
    Row("nccl_error", (_rx(NCCL_RESULTS + r"|(?<!ProcessGroup)[NH]CCL(?![A-Z][a-z])|(?<![A-Za-z])[nh]ccl\w*|\bibv_\w+|\bNET/(?:IB|Socket|OFI|Plugin|GDR\w*)\b|(?i:\brdma\b|mlx5|infiniband)"),),
        # (nor UCX's own records, `UCX  ERROR <IB status>` with no NCCL in view (openucx/ucx @ 8a6b06fb, v1.22.0 src/uct/ib/mlx5/ib_mlx5_log.c):
        # the same fabric under MPI or NIXL, no NCCL in view)
        # (nor an argument check that names a backend as a value: vLLM 0.22.1 weight_transfer/ipc_engine.py "ValueError: send_mode
        # must be 'ray', 'http', or a callable, got 'nccl'", eplb_communicator.py "Elastic EP requires 'torch_nccl' or 'pynccl'",
        # torch's "TypeError: Input tensor data type is not supported for NCCL process group": the caller's, python_crash)
        _rx(r"not supported for NCCL|^(?!.*NCCL).*\bUCX\b|(?:^|[\s:])[\w.]*(?:ValueError|TypeError|AssertionError|NotImplementedError|KeyError): ")),
    Row("python_crash", (_rx(EMFILE),), None),
    # (not at warning level: an optional import that fell back, vLLM's "WARNING ... Failed to import from vllm._C
    # with ImportError(...)", libibverbs' start-up notice "libibverbs: Warning: couldn't load driver 'x.so'")
    Row("python_crash", (_rx(DLOPEN_FAILED),), None, loud=True),
    Row("python_crash", (_rx(ABI_MISMATCH),), None),
    Row("python_crash", (_rx(FATAL_DUMP),), None),
    Row("pg_unplaceable", (_rx(UNSCHEDULABLE_REASON + "|" + KUBECTL_PENDING_LONG),), None),
    Row("python_crash", (_rx(STATE_REASON + "|" + KUBECTL_INIT_RESTARTED + "|" + GRPC_FAILED_CALL + "|" + STATE_DICT_MISMATCH),), None),
    # a Rust panic (after the CUDA / NCCL rows: a panic message that states one of those is that)
    Row("python_crash", (_rx(RUST_PANIC),), None),
    # a build that failed (a JIT extension, a kernel compiled at start-up): its paths name cuda (`kernel.cu`,
    # /usr/local/cuda/bin/nvcc) but no CUDA call failed. A compiler's diagnostic (gcc / clang
    # `file:line:col: error:`, nvcc's EDG front end `file(line): error:`), ninja's end (ninja-build/ninja
    # src/ninja.cc @ c0dde0ff7911780152dbe86d5782ebdecfeb37f2: "build stopped: %s.") and torch's JIT
    # extension builder (pytorch/pytorch torch/utils/cpp_extension.py @ 26e792905bbc588fde825ef283503389673ecae1
    # _run_ninja_build: "Error building extension '<name>'"). A disk that filled mid-build is disk_full's rule.
    Row("python_crash", (_rx(BUILD_FAILED),), None),
    # an invariant of torch's CUDA caching allocator or its settings parser that failed (TORCH_INTERNAL_ASSERT in
    # c10/cuda/CUDACachingAllocator.cpp, CUDAAllocatorConfig.cpp: a MemPool released twice, a malformed PYTORCH_ALLOC_CONF):
    # torch's bookkeeping, not a device fault; unless the condition is a device query's (`NVML_SUCCESS == r`)
    Row("python_crash", (_rx(r"INTERNAL ASSERT FAILED at \"[^\"]*c10/cuda/CUDA\w*Allocator\w*\.(?:cpp|h)\""),), _rx(r"NVML|nvml")),
    # no usable GPU in any framework's words: a device registry that found none (SGLang 0.5.23 "No accelerator (CUDA, XPU,
    # HPU, NPU, MUSA, MPS) or platform plugin is available.", current set 41) and the driver's own tool missing from the
    # container (`nvidia-smi` not on disk: no driver mounted; the shell's "command not found" is its own row)
    Row("cuda_error", (_rx(r"\bNo accelerator\b[^.\n]{0,80}\b(?:is|are) available\b|No such file or directory: '(?:[^']*/)?nvidia-smi'"),), None),
    # (CUDA by name, not a setting's or a directory's name built on it: CUDA_VISIBLE_DEVICES, cuda_home, /usr/local/cuda)
    Row("cuda_error", (_rx(r"CUDA(?!_(?!ERROR)\w)|(?<![/\\])\bcuda\b(?![/\\_])|cuBLAS|CUBLAS|cuDNN|CUDNN|NVML|nvml|\bXid\b|\bECC\b|NVIDIA driver|"
                           r"\bGPU\b.{0,40}(?i:\blost\b|fallen off|unavailable|not available|not detected|uncorrectable|\bhung\b|reset)"),
                       _rx(r"(?i:(?<![a-z])error|fail|assert(?!ion)|illegal|fault|fallen off|\blost\b|unavailable|not available|no .{0,20}device|"
                           r"unknown error|launch|unspecified|uncorrectable|not detected|driver version is insufficient)")),
        # (a tensor type named in an argument check, `torch.cuda.FloatTensor`, or in autograd's in-place refusal,
        # `[CUDABFloat16Type [4, 8]]` (current set 59), is no CUDA failure; nor a rule of CUDA graphs the
        # program broke, torch's "CUDA graphs must be captured on a non-default stream", its cudagraph trees' "accessing tensor
        # output of CUDAGraphs that has been overwritten by a subsequent run": the caller's use, as the corpus labels them;
        # unless a device query failed in it, NVML's)
        _rx(r"(?i:same device|expected .{0,40}device|to be on|non-?fatal|\bcuda:\d)|\bcuda\.\w*Tensor\b|\bCUDA\w+Type\b|"
            r"(?:(?i:\bcuda ?graphs?\b)|CUDAGraph)(?!.*NVML)")),
    # vLLM's KV-cache sizing at engine start (vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory:
    # "No available memory for the cache blocks", "To serve at least one request with the model's max seq
    # len (%d), (%.2f GiB KV cache is needed, which is larger than the available KV cache memory";
    # "... larger than the maximum number of tokens that can be stored in KV cache"; vllm 0.8 .. 0.33): the
    # engine never started, whether or not the line names vLLM
    # ... and its start-up memory budget (v1/worker/utils.py, gpu_worker.py: "Free memory on device cuda:0
    # (12.87/79.19 GiB) on startup is less than desired GPU memory utilization (0.9, 71.27 GiB)", "Externally
    # held weights on device ... exceed the desired GPU memory utilization"; vllm 0.6 .. 0.34)
    Row("engine_init_failed", (_rx(r"(?i:kv[ _-]?cache|max seq len|max_model_len|cache blocks|gpu[ _-]memory[ _-]utili[sz]ation|"
                                   r"memory on device\b.{0,40}\bon startup)"),
                               _rx(r"(?i:larger than|is needed|not enough|insufficient|no available|exceeds?\b|too small|to serve at least one request|"
                                   r"less than)")), None),
    Row("engine_dead", (_rx(SGLANG_DEAD),), None),
    # vLLM's own words for an engine that faulted while serving (vllm 0.34.0 wheel: v1/fault_tolerance/engine_core_sentinel.py
    # "[FT] Busy loop raised %s. Waiting for recovery.", "[FT] No recovery within %ss timeout.", "[FT] Engine %d status ->
    # UNHEALTHY"; entrypoints/serve/fault_tolerance/api_router.py "[FT] Recovery failed for request"; v1/engine/async_llm.py
    # "Engine unhealthy - rejecting request"; entrypoints/launchers/dp_supervisor.py "DPSupervisor found %d exited DP
    # Servers."; v1/executor/multiproc_executor.py "Error getting async model runner output", "Worker failed with KV
    # connector output"): each exists only once the engine serves (a model runner's output, a request), so the phase is said
    Row("engine_dead", (_rx(VLLM_SERVING_FAULT),), None),
    # vLLM 0.6-0.10's own words for engines that never came up or stopped (v1/engine/core_client.py / utils.py "Timed out waiting for
    # engines to send initial message on input socket."; executor/multiproc_gpu_executor.py "Worker processes are not running";
    # engine/async_llm_engine.py "The engine background task should never finish without an exception.")
    Row("engine_init_failed", (_rx(r"Timed out waiting for (?:new )?engines to send ?initial message"),), None),
    Row("engine_dead", (_rx(r"\bWorker processes are not running\b|[Ee]ngine background task should never finish"),), None),
    # vLLM's Ray executor finding no GPU where its placement put a worker (vllm 0.6-0.10 executor/ray_gpu_executor.py /
    # ray_distributed_executor.py "Ray does not allocate any GPUs on the driver node", ray_utils.py "Current node has no GPU
    # available"): the placement, not the engine
    Row("pg_unplaceable", (_rx(r"does not allocate any GPUs on the driver node|Current node has no GPU available"),), None),
    # vLLM's loader finding no weight file in a model directory (vllm 0.6-0.10 model_executor/model_loader/loader.py "Cannot find any
    # model weights with `%s`", weight_utils "No model weights found in: `%s`")
    Row("hf_weights_missing", (_rx(r"\bNo model weights found\b|Cannot find any model weights with\b"),), None),
    # an engine declared dead outright by whoever fronts it (ray 2.60.0 llm/_internal/serve: "Suppressed %d fatal engine
    # error(s) in the last %ds. Engine is dead, awaiting replica restart.")
    Row("engine_dead", (_rx(r"\b[Ee]ngine (?:is|was) (?:already )?dead\b"),), None),
    # a torch.distributed.checkpoint directory without its `.metadata` file (torch 2.11 distributed/checkpoint/filesystem.py
    # `_metadata_fn = ".metadata"`, read first by FileSystemReader.read_metadata): the checkpoint cannot be read
    # (and any other checkpoint state file the savers write, exceptions.CHECKPOINT_STATE_FILE, also in a
    # FileNotFoundError that states no errno)
    Row("checkpoint_corrupt", (_rx(E.ERRNO_MISSING.pattern + r"|FileNotFoundError"), E.CHECKPOINT_STATE_FILE), None),
    # an engine reported dead outright is dead, whatever phase its message mentions ("MQLLMEngine is
    # already dead, terminating server process", "Engine process (pid N) died.")
    # (after the families a start-up failure may state: "Failed to start model server: NVML_SUCCESS == r INTERNAL
    # ASSERT FAILED" is the CUDA error)
    # an RL trainer waiting for its inference server to come up and giving up (verl rollout/sglang_rollout/
    # http_server_engine.py "Server failed to become healthy within timeout period", "Server process terminated
    # unexpectedly during startup"; verl rollout/utils.py "Failed to start HTTP server after N retries"; AReaL
    # launcher/sglang_server.py "Server did not become ready within timeout period"; prime-rl utils/client.py
    # "Inference server is not ready after 1800 (>1800) seconds"; NeMo RL dynamo_worker.py "... exited with code 1
    # before its system endpoint was ready"; trl generation/vllm_client.py "The vLLM server can't be reached at %s
    # after %s seconds"): the engine never served
    Row("engine_init_failed", (_rx(ENGINE_NOT_READY),), None),
    # (not one that died while it came up: Ray Data's actor pool "MapBatches(vLLMEngineStageUDF): actors died during
    # initialization", the engine_init_failed rows below)
    Row("engine_dead", (_rx(_ENGINE), _rx(r"(?i:already dead|\bis dead\b|has died|\bdied\b(?! during initiali)|exited unexpectedly)")), None),
    # a remote inference engine's HTTP API refusing or failing a generation request (vLLM / SGLang
    # servers: `/generate`, OpenAI-compatible `/v1/completions`, `/v1/chat/completions`): the engine
    # behind it is down (a refused or dropped connection), not the Hub. A 5xx is the engine answering: vLLM's
    # own error response to one request (vllm entrypoints/openai ErrorResponse, launcher.py's 500 for an
    # unhandled exception), or a proxy's; the corpus's labels read it as the application's error (8 of 9 lines)
    Row("engine_dead", (_rx(r"/generate\b|/v1/(?:chat/)?completions\b"),
                        _rx(r"(?i:connection refused|connect(?:ion)? error|server disconnected|reset by peer|"
                            r"remote ?protocol ?error|connection (?:closed|aborted))")), E.INFERENCE_API),
    # a router or gateway in front of the engines with none left to send to (SkyRL's router / vllm-project/router "No
    # available workers (all circuits open or unhealthy)", AIBrix gateway_req_body.go "no ready pod available", Envoy's
    # "no healthy upstream", Dynamo's "no instances found for endpoint", production-stack's "No prefill / decode endpoints
    # found"): every engine behind it is gone (a model it does not serve is the request's error, not this)
    Row("engine_dead", (_rx(r"(?i:\bno (?:healthy|available|ready|live) (?:upstreams?|workers?|backends?|endpoints?|instances?|pods?|replicas?)\b|"
                            r"\bno (?:prefill|decode) (?:endpoints?|instances?|workers?|servers?)\b|\bno instances found for endpoint\b)"),),
        # (nor an experiment tracker's API behind its own proxy: mlflow 3.18 system_metrics "... 503 ... 'no healthy upstream'")
        _rx(r"(?i:\bfor model\b|\bmodel \S+ not\b|mlflow|wandb|tensorboard|\bmetrics\b)")),
    # the same refusal through an agent's LLM client that names the engine by its provider (LiteLLM 1.110's
    # self-hosted vLLM provider, llms/hosted_vllm: `Hosted_vllmException - [Errno 111] Connection refused`,
    # `... - Cannot connect to host A:P`); its other errors are the server's answers (the application's)
    Row("engine_dead", (_rx(r"(?i:hosted_vllm)"), _rx(r"(?i:connection refused|cannot connect to host|connect call failed)")), None),
    # a router that could not send a request to its engine at all (reqwest's "error sending request for url": the worker's
    # port refused or dropped the connection; sglang-router / vllm-router src/routers/http/router.rs "Failed to send typed
    # request worker_url=... error=error sending request for url (...)"): the engine is gone, as a refused connection is
    Row("engine_dead", (_rx(r"\berror sending request for url\b"), _rx(r"\bworker_url=|/generate\b|/v1/(?:chat/)?completions\b|\bworkers?\b")), None),
    # an inference engine's Ray actor failing in its start-up method (`ray::VLLMServerActor.start()`,
    # `ray::LLMEngineActor.__init__()`: Ray's task name is the actor's method)
    Row("engine_init_failed", (_rx(r"ray::\w*(?:VLLM|Vllm|vLLM|LLM|Engine|SGLang|Sglang)\w*\.(?:__init__|start\w*|init\w*|load\w*)\b"),), None),
    # (a readiness wait that gave up is a start that failed: SkyRL vllm_router.py "VLLMRouter failed to become
    # healthy within 600s")
    Row("engine_init_failed", (_rx(_ENGINE), _rx(r"(?i:\bstart|\binit|initializ|startup|\blaunch(?!er\.py)|profil|kv cache|cache blocks|load(?:ing)? model|"
                                                r"become (?:healthy|ready))")), None),
    # EADDRINUSE itself, stated as the error (CPython's OSError "[Errno 98] Address already in use", a bare
    # RuntimeError of it, torch elastic's utils/distributed.py "port: %s already in use" once its retries ran out): the
    # rendezvous / store port is taken, the group cannot form. A launcher that moves on to another port says so; a Go
    # server's own listener (net's "listen tcp :9400: bind: address already in use", dcgm-exporter's metrics port) is
    # that server's start-up. (After the engine rows: an engine's start-up that hit it is the engine's.)
    Row("dist_timeout", (_rx(r"(?i:address already in use|\beaddrinuse\b|\[errno 98\]|\bport:? \d+ (?:is )?already in use)"),),
        _rx(r"(?i:\btrying (?:port|another)|\battempt:? \[?\d+/|\bmaybe\b|restarting|\bengine\b|\blisten (?:tcp|udp)\w*\b)|"
            # (another transport's own socket: ZeroMQ's ZMQError, gRPC core's server port, src/core/server/add_port.cc
            # "Failed to add port to server": the process that bound it fails as any other, python_crash)
            r"\bZMQError\b|\bzmq\.error\b|\badd_port\.cc\b|\bFailed to add port to server\b")),
    # (a traceback's head that names an engine: observe/analyzer.py reads the head with its "Traceback")
    # (the failure word must be the message's: an exception's class ("AssertionError: OpenRLHF only supports vllm >= 0.7.0",
    # "ValueError: vLLM's model runner requires Triton.") is no statement that the engine failed; a check that
    # names an engine is judged as any other exception, python_crash)
    Row("engine_dead", (_rx(_ENGINE), _rx(r"(?i:\bfailed\b|\bexception|\berror|traceback|died|dead|crash|terminated|shut ?down|not running|stopped|unresponsive|unhealthy|"
                                          r"not responding|\blost\b)")), None),
    # Ray: a node's death named outright first (an actor that died with its node is the node's
    # death), then an actor, then a worker, then any other node loss
    Row("ray_node_dead", (_rx(RAY_DAEMON_FATAL),), None),
    # Ray's node that never came up or cannot be reached (python/ray/_private/services.py "Could not find any
    # running Ray instance", "Timed out after N seconds while waiting for node to startup"; node.py "The
    # current node timed out during startup"; utils.py "Could not read 'session_name' from GCS. Did GCS start
    # successfully?"; ray 2.60)
    # (a driver that finds no cluster to attach to, "Could not find any running Ray instance", did not join the gang's Ray:
    # ray_local_instance, as a public set and ray_older label it; source/ray_python labels the 2.60 wording ray_node_dead)
    # (and one that finds several and cannot tell which is the gang's, ray 2.60 _private/services.py find_gcs_addresses:
    # ConnectionError "Found multiple active Ray instances: {...}. Please specify the one to connect to by setting
    # `--address`"; older releases warned and connected to the latest: not it)
    Row("ray_local_instance", (_rx(r"Could not find any running Ray instance|Found multiple active Ray instances"),),
        _rx(r"Connecting to latest")),
    Row("ray_node_dead", (_rx(r"Did GCS start successfully|node timed out during startup|"
                              r"waiting for (?:the )?node to start ?up|raylet failed to start ?up"),), None),
    # (and a worker killed for its owner's node: ray 2.49.2 raylet node_manager.cc "The leased worker is killed because the owner
    # node died.")
    Row("ray_node_dead", (_rx(RAYLET_GONE + r"|(?i:its node has died|\bowner node died\b|node (?:was )?terminated|raylet is terminated|missed too many heartbeats|"
                              r"raylet (?:has )?(?:exited|died|crashed)|"
                              r"node\b.{0,80}\bmarked (?:as )?dead)"),), None),
    # an actor that never came to exist is no death: one Ray could not schedule (ray 2.60 exceptions.py
    # ActorUnschedulableError "The actor is not schedulable: %s"; dashboard/modules/job/job_manager.py "the supervisor
    # actor could not be scheduled") cannot be placed; one whose class failed to import on the worker
    # (_private/function_manager.py "The actor with name %s failed to import on the worker") is python_crash's
    Row("pg_unplaceable", (_rx(r"(?i:\bactor\b[^\n]{0,60}?\b(?:is not schedulable|could not be scheduled)\b)"),), None),
    # (the actor / worker / node as the line's subject, _subject: "Failed saving model checkpoint to /mnt/ckpt/actor" names no actor)
    # (nor a named actor the caller cannot find, ray 2.60 worker.py get_actor: "Failed to look up actor with name 'X'. This
    # could because 1. ... 2. The named actor died. ...": the lookup failed, whatever it lists)
    Row("ray_actor_died", (_rx(_subject("actor")), _rx(r"(?i:died|\bdead\b|killed|crash|terminated|unavailable|exited|\bfailed\b)")),
        _rx(r"(?i:failed to import on the worker|failed to (?:look ?up|get|find) (?:the )?(?:named )?actor\b)")),
    # core_worker_process.cc "Failed to register worker to Raylet": the worker never joined
    Row("ray_worker_died", (_rx(_subject("worker")), _rx(r"(?i:died|killed|crash|exit(?:ed|s)? unexpectedly|SYSTEM_ERROR|"
                                                          r"failed to register)"), _rx(_RAY)), None),
    Row("ray_node_dead", (_rx(_subject("node") + r"|(?i:raylet|\bgcs\b|ray cluster)"), _rx(r"(?i:died|\bdead\b|\blost\b|terminated|unreachable|heartbeat|disconnect|"
                                                                     r"(?:unable|failed) to connect)"),
                          _rx(_RAY)), None),
    Row("hydra_error", (_rx(r"(?i:\bhydra\b|HYDRA_FULL_ERROR|primary config|config search path|omegaconf|not in struct|ConfigKeyError|ConfigAttributeError|MissingMandatoryValue|"
                            r"structured config|could not override)"),), None),
    # last: an exception stated in words ("Exception occurred while running EnvWorker's function interact:
    # exception is ray::EnvWorker.interact()"), a logger's error record whose message ends "... failed:" or
    # "Error while <doing>:" (the traceback follows it: `logger.exception("Explorer or Trainer failed:")`),
    # libstdc++'s verbose terminate handler's second line, `  what():  <message>`, of a type no rule names
    # (gcc libstdc++-v3/libsupc++/vterminate.cc): an uncaught exception of no other kind
    Row("python_crash", (_rx(r"(?i:exception (?:occurred|was raised|was thrown)|(?:unhandled|uncaught|unexpected) exception)\b|"
                             r"\bfailed:\s*$|(?i:\b(?:error|exception)\b[^:\n]{0,80}):\s*$|" + E.TERMINATE_WHAT),), None),
    # a programming error quoted by whatever wrapped it ("Failed to update parameter online: The size of tensor
    # a (3584) must match ..."): the interpreter's and torch's own messages, without their class
    Row("python_crash", (_rx(f"{BUILTIN_MESSAGES}|{TORCH_MESSAGES}"),), None),
    # a Kubernetes Warning event whose reason says a failure and no row above names it (FailedMount "Unable to attach
    # or mount volumes", Failed "Error: couldn't find key HF_TOKEN in Secret", FailedPostStartHook,
    # FailedCreatePodSandBox, jobset's FailedJobs, node-problem-detector's KernelOops / TaskHung): the orchestrator
    # reporting a failure of no other kind (not every Warning: InvalidDiskCapacity, a failure policy's restart)
    Row("python_crash", (_rx(r"(?:^|\s)Warning(?: {2,}|\t+)(?:Failed\w*|\w+Error|KernelOops|TaskHung)(?: {2,}|\t+)"),), None),
)


# a log record's level word as its header prints it (upper case, standing alone; not wget's status report
# "ERROR 404: Not Found.", whose word is the message)
LEVEL_WORD = re.compile(r"(?<![\w-])(?:ERROR|CRITICAL|FATAL|WARNING|WARN|INFO|DEBUG|NOTICE)(?![\w-])(?! \d{3}:)")


def kind(text: str) -> str | None:
    """The kind the first matching row names (rows ordered by specificity); None when no row
    matches: the line stays python_crash (an exception) or unrecognized (any other line). A
    notice on NCCL's INFO channel, a Python warning or an NCCL WARN notice is never named this way
    (says_no_failure); the phrases that assert nothing (NOT_ASSERTED: a list of possible causes) are not read."""
    if says_no_failure(text) or E.BUILD_CONFIG.search(text):
        return None      # a build statement ("doesn't have NCCL built in") names no runtime family
    # the cues read the message, not the record's level word: `... - ERROR - RuntimeError: called a
    # synchronizing CUDA operation` is no more a CUDA error than the bare line
    said = LEVEL_WORD.sub(" ", asserted(text))
    for row in TABLE:
        if all(c.search(said) for c in row.cues) and not (row.unless and row.unless.search(said)) and \
                not (row.loud and below_error(text)):
            return row.kind
    return None


def table_markdown() -> str:
    """The table as docs/REFERENCE.md shows it (kinds in order of specificity, cue sets)."""
    lines = ["| order | kind | every one of these cue sets | not when |", "|---:|---|---|---|"]
    for i, row in enumerate(TABLE, 1):
        cues = " AND ".join(f"`{c.pattern[:70]}{'...' if len(c.pattern) > 70 else ''}`" for c in row.cues)
        unless = f"`{row.unless.pattern[:50]}...`" if row.unless else ""
        lines.append(f"| {i} | `{row.kind}` | {cues.replace('|', '&#124;')} | {unless.replace('|', '&#124;')} |")
    return "\n".join(lines)
