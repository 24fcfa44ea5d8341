"""The cause-of-death catalogue: what a failure line in a run's logs means, which ladder rung
it breaks, whether it is fatal on its own, and what to do about it. Shaped like the rule
catalogue (rules/): each `Cause` is data; `match(text)` classifies one cleaned log line and
`assess(events, retry, crash, multinode, finished)` turns what was seen into findings for the
verdict.

The formats are the real ones people pasted in public issues (tests/fixtures/README.md lists
every line with its source, tests/fixtures/real_lines/lines.jsonl holds them). Speed: the
analyzer only decodes lines that contain one of `NEEDLES` (plain substrings, fed to grep's
alternation and to bytes.find; long specific needles scan faster than short generic ones), and
`match` runs ONE combined alternation of the needles before any cause's full patterns, so a
line that names no failure costs one regex search.

Verdict semantics:
- `fatal` causes make the verdict KILL on their own (no `Training failed:` needed).
- `cleared_by_retry` causes (transient HF Hub errors) are benign when the retry wrapper's line
  (MarinSkyRL 0b2b05b, runbook section 8 rung 4) follows them, and fatal only once the run has
  also crashed without a retry after them.
- `multinode_only`: a driver that started its own Ray is fatal only when the gang has > 1 node.
- The cause of death is the fatal finding of the lowest `tier` (1 = root cause such as an OOM,
  2 = a consequence such as an NCCL timeout on the ranks that waited for it), earliest first.
- A kind named only by the family vocabulary (observe/vocabulary.py: an error-shaped line no
  specific rule names) is a name, not proof of death: fatal like python_crash, once the process
  ended on it (or the run crashed after it), else a warning.
This module imports only observe/exceptions.py, observe/unrecognized.py and observe/vocabulary.py
(stdlib only): patterns.py and ladder.py import it."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Protocol

from irisrl.observe import exceptions as E
from irisrl.observe import unrecognized as U
from irisrl.observe import vocabulary as V

ROOT, CONSEQUENCE = 1, 2
HF_RETRY_PATTERN = (r"transient HF weight-index/safetensors fetch error .*retrying|"
                    r"load_pretrained_with_retry.*retrying")
RETRY_EXCLUDE = r"(?i)retrying in \d|\[Retry \d+/\d+\]"   # a retry line is not the failure itself
MAX_CAUSE_KEYS = 256          # (kind, rank) pairs remembered; the first line of each is kept
STALE_IMAGE_FILE = "model.safetensors"   # the runbook's stale-image symptom names this file
# snapshot_download answered by a local dir it already has (huggingface_hub _snapshot_download.py logs
# "Returning existing local_dir `%s` as remote repo cannot be accessed ..." at WARNING and goes on): the
# repo's status is named, and is fatal only once the run crashed
# (and vLLM's Hub retry wrapper, transformers_utils/repo_utils.py with_retry @ 01775b5e: logger.error("%s: %s[, retrying
# %d of %d]", "Error retrieving file list", e) before it re-raises, where list_filtered_repo_files logs once more and returns
# [] for the caller to go on: current set 37's run went past it)
HUB_FALLBACK = r"Returning existing local_dir|\b" + E.VLLM_FILE_LIST + ": "


@dataclass(frozen=True)
class Cause:
    kind: str
    title: str
    needles: tuple[str, ...]        # plain substrings; a line is only tried when it has one
    patterns: tuple[str, ...]       # every real format variant found (regex, searched)
    rung: int                       # the ladder rung the failure breaks (ladder.RUNG_NAMES)
    tier: int                       # ROOT or CONSEQUENCE: which one is the cause of death
    fix: str
    fatal: bool = True
    cleared_by_retry: bool = False
    multinode_only: bool = False
    exclude: str | None = None      # a line matching this is not the cause (a benign look-alike)
    derived: bool = False           # assessed from other findings, no line pattern of its own
    marker: bool = False            # not a failure: a line that clears others (never reported)
    # Library-family stems read from the libraries' own raise / log sites (cited next to each
    # cause; tests/unit/test_causes_families.py), searched like `patterns`.
    families: tuple[str, ...] = ()
    soft: str | None = None         # a line matching this is a wait, not a failure: fatal only once the run crashed
    until_ended: str | None = None  # a line matching this is fatal only once its process ended (a retry may follow)
    # "" = named by a rule; "vocabulary" (GUESSED): a guess by the family vocabulary, fatal once the process ended
    guessed: str = ""

    @property
    def verdict(self) -> str:
        return "KILL" if self.fatal else "NO-KILL"


# NCCL's allocator sites (NVIDIA/nccl src/include/alloc.h, src/allocator.cc: ncclMemAlloc) reporting
# a CUDA status that is not a sticky fault of an earlier kernel.
NCCL_ALLOC_CUDA = (r"(?:alloc\.h:\d+|allocator\.cc:\d+|\(nccl(?:Cu)?Mem\w*\))[^\n]*NCCL WARN Cu(?:da)? failure (?:\d+ )?'"
                   r"(?!out of memory|an illegal|illegal|misaligned|unspecified launch|device-side|uncorrectable)|"
                   # ... and a CUDA API NCCL's set-up calls anywhere that the driver does not offer (cudaErrorNotSupported
                   # / NotPermitted: "init.cc:416 NCCL WARN Cuda failure 'operation not supported'"): never a kernel fault
                   r"NCCL WARN Cu(?:da)? failure (?:\d+ )?'operation not (?:supported|permitted)")

# The worker methods a vLLM (v0) / Aphrodite executor calls before the engine serves
# (vllm/executor/*_executor.py _init_workers_ray / _initialize_kv_caches: init_device, load_model,
# determine_num_available_blocks, initialize_cache; v1 worker: profile_run, determine_available_memory,
# initialize_from_config, compile_or_warm_up_model, get_kv_cache_spec).
ENGINE_START_METHODS = (r"(?:init_worker|init_device|load_model|determine_num_available_blocks|determine_available_memory|"
                        r"profile_run|initialize_cache|initialize_from_config|compile_or_warm_up_model|get_kv_cache_spec)")
# An engine process ended, at start-up or while serving by the line alone: the analyzer names it
# engine_init_failed before the first stats line, engine_dead after (vLLM 0.7's "EngineCore hit an
# exception", TGI's shard manager and router).
ENGINE_PHASE_BY_STATE = (r"EngineCore hit an exception|Shard process was signaled to shutdown with signal|\bWebserver Crashed\b|"
                         # vLLM v1's worker processes (v1/executor/multiproc_executor.py worker_busy_loop / init:
                         # "WorkerProc hit an exception.", "WorkerProc failed to start.")
                         r"WorkerProc hit an exception|WorkerProc failed to start|"
                         # TGI launcher's exit (main.rs LauncherError, printed by main's `Error: {:?}`)
                         r"\bError: (?:ShardFailed|ShardDisconnected|WebserverFailed)\b")
_PHASE_BY_STATE = re.compile(ENGINE_PHASE_BY_STATE)
_PHASE_SAID = re.compile(V.VLLM_SERVING_FAULT)


def engine_phase_by_state(text: str) -> bool:
    """The line reports an engine's end without saying whether it had served (analyzer decides)."""
    return bool(_PHASE_BY_STATE.search(text))


def engine_phase_said(text: str) -> bool:
    """The line's own words say the engine faulted while serving: no phase rule re-reads it."""
    return bool(_PHASE_SAID.search(text))


CATALOGUE: tuple[Cause, ...] = (
    # Order matters for a line that matches several causes: the more specific cause first
    # (a Ray OOM kill is also reported as an actor death on the same line).
    Cause("norm_topk_prob", "stale-image MoE crash (config has no norm_topk_prob)",
          ("norm_topk_prob",), (r"AttributeError: .*norm_topk_prob",), 4, ROOT,
          "the image's MarinSkyRL/transformers predates the MoE config attribute: pass --skyrl-ref "
          "with the fix or bump the image digest (runbook section 8, rung 4)"),
    Cause("dcp_guard_rejected", "DCP + R3 guard rejected",
          ("R3 router capture",), (r"not compatible with R3 router capture",), 6, ROOT,
          "set VLLM_ALLOW_ROUTED_EXPERTS_DCP=1 in the config's extra_env (runbook section 4)"),
    # The runtime's own node checks (runtime/node_checks.py NodeCheckError: "node checks failed on
    # rank R/N: <problem>; ..."), before Ray: GPUs visible, train data present, model config.json.
    Cause("node_check_failed", "a node check failed before Ray (GPUs, train data or model config on that node)",
          ("node checks failed on rank",), (r"node checks failed on rank \d+/\d+: .+",), 2, ROOT,
          "the line names the check and the node: a --model_path directory must exist (with config.json) on "
          "every node (or pass an HF id), train data must stage, and the node must see its GPUs"),
    Cause("hydra_error", "Hydra rejected the config or an override",
          ("Could not override", "is not in struct", "Error merging", "Could not append to config", "' not in '", "Cannot find primary config",
           "Key not found: '", "Missing mandatory value", "Could not delete", "defaults list", "Ambiguous value for argument",
           "requires --multirun", "config group", "raised while composing", "Multiple values for", "=<OPTION>", "Duplicate _self_",
           "LexerNoViableAlt", "viable alternative at input", "mismatched input", "extraneous input", "token recognition error",
           "alid fields", "alid keys", "new config fields"),
          (r"Could not override '[^']+'", r"(?i:Key '[^']+' is not in struct)", r"Error merging override \S",
           r"Could not append to config\. An item is already at"),
          7, ROOT,
          "a key SkyRL's config does not have needs `+key=value` (add) or `++key=value` (force); check the "
          "spelling against skyrl_train/config; `irisrl launch --dry-run` shows every Hydra argument irisrl passes",
          # omegaconf 2.3.1 dictconfig.py ("Key '%s' is not in struct", "Key '%s' not in '%s'" for a
          # structured config, "Key not found: '$KEY'"), base.py ("Missing mandatory value: $FULL_KEY");
          # hydra-core 1.3.2 _internal/config_loader_impl.py ("Could not delete from config",
          # "Error merging '%s' with schema") and defaults_list.py ("No match in the defaults list").
          families=(r"Key '[^']+' not in '\w+'|Key not found: '|Missing mandatory value: \S|Could not delete from config|"
                    r"Could not delete '[^']+'\. No match in the defaults list|No match in the defaults list|Error merging '[^']+' with schema",
                    # hydra-core 1.3.2 MissingConfigException sites: _internal/config_loader_impl.py
                    # ("Cannot find primary config '%s'. Check that it's in your config search path."),
                    # _internal/utils.py / core/config_search_path ("Primary config module '%s' not found.",
                    # "Primary config directory not found."; no needle of its own: the family vocabulary's
                    # hydra row names it, observe/vocabulary.py)
                    r"Cannot find primary config '|Primary config (?:module|directory) (?:'[^']*' )?not found",
                    # the rest of Hydra's composition refusals, which it prints as the bare message when HYDRA_FULL_ERROR is
                    # unset (hydra-core 1.3.8 _internal/config_loader_impl.py: "Ambiguous value for argument '%s'", "Sweep
                    # parameters '%s' requires --multirun", "Override %s looks like a config group override, but config
                    # group '%s' does not exist.", "In '%s': <Class> raised while composing config:", "force-add of config
                    # groups is not supported"; _internal/defaults_list.py: "Multiple values for %s. To override a value use
                    # 'override %s: %s'", "You must specify '%s', e.g, %s=<OPTION>", "%s appears more than once in the final
                    # defaults list", "Duplicate _self_ defined in"; core/override_parser/overrides_parser.py: an override
                    # the grammar rejects, "LexerNoViableAltException: <override>")
                    r"Ambiguous value for argument '|Sweep parameters '[^']*' requires --multirun|"
                    r"looks like a config group override, but config group '|In '[^']*': \w+ raised while composing config|"
                    r"force-add of config groups is not supported|Multiple values for \S+\. To override a value use 'override |"
                    r"You must specify '[^']*', e\.g, \S+=<OPTION>|appears more than once in the final defaults list|"
                    r"Duplicate _self_ defined in|\bLexerNoViableAltException: \S+=",
                    # the override / interpolation grammars' syntax errors: Hydra's and OmegaConf's parsers are ANTLR 4
                    # parsers whose error listener raises ANTLR's own message (antlr4 runtime DefaultErrorStrategy: "no viable
                    # alternative at input %s", "mismatched input %s expecting %s", "extraneous input %s expecting %s"; Lexer:
                    # "token recognition error at: %s"), printed bare above Hydra's footer
                    r"^\s*(?:no viable alternative at input |(?:mismatched|extraneous) input .+ expecting |token recognition error at: )",
                    # a dataclass config layer's own override refusals, where it replaced Hydra: SkyRL >= 0.3
                    # skyrl/train/config/config.py from_cli_overrides ("The '+' prefix for adding new config fields is not
                    # supported: '%s'") and its strict key check ("Invalid fields {...} for TrainerConfig. Valid fields are
                    # {...}"); any config schema's unknown-key refusal that names the config class or lists the valid keys
                    r"prefix for adding new config fields is not supported|"
                    r"\b(?:[Ii]nvalid|[Uu]nknown|[Uu]nexpected|[Uu]nrecognized|[Ee]xtra) (?:config )?(?:fields?|keys?)\b.{0,160}?"
                    r"(?:\bfor \w*Config\b|[Vv]alid (?:fields|keys) are\b)")),
    # ENOSPC in any wrapper (OSError [Errno 28], RayTaskError(OSError), a failed torch.save):
    # torch caffe2/serialize/inline_container.cc (PytorchStreamWriter "failed writing file",
    # "file write failed", "unexpected pos N vs M"), Ray src/ray/common/file_system_monitor.cc
    # ("{path} is over {N}% full ... Object creation will fail if spilling is required") and
    # ray.exceptions.OutOfDiskError ("Local disk is full").
    Cause("disk_full", "a disk or /dev/shm is full, or a write to it failed (ENOSPC / quota / EIO)",
          ("No space left", "no space left", "Errno 28", "ENOSPC", "Disk quota exceeded", "disk quota exceeded", "StorageFull", "Errno 122", "PytorchStreamWriter failed",
           "file write failed", "unexpected pos", "iostream error", "% full", "OutOfDiskError", "disk is full",
           "unable to write to file", "insufficient shared memory", "failed with", "out of shared memory", "free disk space",
           "has no capacity",
           "shared memory limit", "Errno 27", "File too large", "EFBIG", "os error 27", "failed to extend /dev/shm/",
           "disk limit"),
          (), 8, ROOT,
          "a node's disk (checkpoint dir, HF cache, /tmp/ray spill dir) is full: free space or point "
          "trainer.ckpt_path / HF_HOME / the Ray temp dir at a larger volume; keep fewer checkpoints (max_ckpts_to_keep); "
          "torch's `unable to write to file </torch_...>` is /dev/shm: give the container a larger shm",
          # the errno family (exceptions.ERRNO_DISK_FULL: ENOSPC, EDQUOT, and EFBIG "File too large", a write past
          # the size the storage allows: the volume refused it, as a full one does) and the errno names
          # (and NCCL's shared-memory segment that /dev/shm cannot hold, NVIDIA/nccl v2.18-v2.21 src/misc/shmutils.cc "Error:
          # failed to extend %s to %ld bytes": the ftruncate / fallocate of /dev/shm/nccl-*, before its NCCL WARN is an NCCL error)
          families=(E.ERRNO_DISK_FULL.pattern + r"|\b(?:ENOSPC|EDQUOT|EFBIG)\b|failed to extend /dev/shm/|"
                    # huggingface_hub file_download.py _check_disk_space warns before a download that
                    # cannot fit (a UserWarning: named, as a warning; the write fails with ENOSPC later)
                    r"Not enough free disk space to download the file|"
                    r"kind: StorageFull",
                    r"PytorchStreamWriter failed writing file|file write failed|unexpected pos \d+ vs \d+|"
                    # torch.save's C++ stream on a full disk (device run, torch 2.11: corpus/current)
                    r"basic_ios::clear: iostream error",
                    r"is over \d+(?:\.\d+)?% full|has no capacity, object creation will fail|OutOfDiskError|Local disk is full",
                    # torch's shared memory: aten/src/ATen/MapAllocator.cpp "unable to write to file
                    # <" name ">" for a /torch_* segment in /dev/shm (a DataLoader / tensor share
                    # filling the container's small shm), the DataLoader's own "insufficient shared
                    # memory (shm)"; torch/csrc/serialization.cpp doWrite "write(): fd N failed with
                    # <strerror>" (a checkpoint write the volume refused: ENOSPC, EDQUOT or EIO from a
                    # network / FUSE volume that is full or failing: the same fix, the storage)
                    r"unable to write to file </torch_|insufficient shared memory \(shm\)|write\(\): fd \d+ failed with|"
                    # torch/utils/data/dataloader.py: a worker SIGBUSed on a full /dev/shm
                    r"workers are out of shared memory|raise your shared memory limit",
                    # a sandbox or workspace platform's own disk quota, in its words (a Daytona organisation's "Total disk limit
                    # exceeded. Maximum allowed: 30GiB"): the storage refused more, as EDQUOT does (a platform that evicts
                    # for its "storage limit" has evicted: the evicted cause's)
                    r"(?i:\b(?:total )?disk limit (?:exceeded|reached)\b)"),
          # inotify_add_watch's ENOSPC is the kernel's watch limit (fs.inotify.max_user_watches), not a disk
          exclude=r"inotify",
          # a threshold warned of, no write refused yet: Ray's monitor says object creation WILL fail if
          # spilling is needed and runs on (ray-project/ray#19834's job went on past it), the hub checks
          # before a download: named, a death only once the process ended
          until_ended=r"is over \d+(?:\.\d+)?% full|Not enough free disk space to download the file|"
                      # (and the monitor's other reading, ray 2.60 src/ray/common/file_system_monitor.cc: "%s has no
                      # capacity, object creation will fail if spilling is required.")
                      r"has no capacity, object creation will fail"),
    # huggingface_hub 2.4.0 utils/_http.py hf_raise_for_status ("Cannot access gated repo for url",
    # GatedRepoError) and transformers utils/hub.py cached_files ("You are trying to access a gated
    # repo."); the Hub's own text "Access to model X is restricted". A 401/403 from the Hub on any
    # other HTTPError is decided by its status (observe/exceptions.py hub_status_kind).
    Cause("hf_gated", "HF Hub or the object store refused access (gated repo, bad or missing token / credentials)",
          ("gated repo", "is a gated", "is restricted", "GatedRepoError", "Invalid user token", "Invalid credentials in Authorization",
           "Invalid token passed", "specific connection error", "awaiting a review", "Invalid username or password",
           "Cannot access content at", "Your request to access"),
          (), 4, ROOT,
          "the model is gated or private: accept its licence on huggingface.co with the account whose token the "
          "job uses, and pass HF_TOKEN to every node (irisrl secrets); or prestage the model (--prestage-model); "
          "from a bucket: give every node credentials that can read (and, for checkpoints, write) it",
          families=(r"Cannot access gated repo|You are trying to access a gated repo|Access to model \S+ is restricted",
                    # (datasets 5.2 load.py: "Dataset 'x' is a gated dataset on the Hub. You must be authenticated")
                    r"GatedRepoError|is a gated (?:repository|repo|dataset|model|space)\b|awaiting a review from the repo authors",
                    # the Hub's 401 body for a bad token on git / HTTP basic auth
                    r"Invalid user token|Invalid credentials in Authorization header|Invalid token passed|Invalid username or password",
                    # transformers 5.25 utils/hub.py: an HfHubHTTPError that is not a missing entry nor a
                    # retried 429/5xx (those end in "We couldn't connect"): a refused token in practice
                    r"There was a specific connection error when trying to load",
                    # huggingface_hub utils/_http.py hf_raise_for_status, the 403 branch's continuation
                    # line ("Cannot access content at: {url}." then "Make sure your token has the
                    # correct permissions."): a line of the same 403 event
                    r"Cannot access content at: \S",
                    # the Hub's answers to a gated repo's access request, relayed by huggingface_hub as the
                    # 403 body ("Your request to access model X is awaiting a review from the repo
                    # authors." above; "Your request to access this repo has been rejected by the repo's
                    # authors."): pending or refused, no download until the authors grant it
                    r"Your request to access (?:this repo|model|dataset|space|\S+)[^.]{0,80}?(?:has been rejected|is awaiting)"),
          soft=HUB_FALLBACK),
    # huggingface_hub errors.py RepositoryNotFoundError / RevisionNotFoundError (hf_raise_for_status:
    # "Repository Not Found for url", "Revision Not Found for url"), HFValidationError ("Repo id must
    # be in the form"), transformers' "is not a local folder and is not a valid model identifier".
    Cause("hf_repo_not_found", "model repo / revision / local path / bucket not found",
          ("Not Found for url", "RepositoryNotFoundError", "RevisionNotFoundError", "not a valid model identifier",
           "Repo id must", "Invalid rev id", "is not a valid git identifier", "Incorrect path_or_model_id"),
          (), 4, ROOT,
          "the model path names no repo (typo, private repo without a token, wrong revision) nor a local "
          "directory on that node: fix the model path / revision, or prestage the model on every node",
          families=(r"Repository Not Found for url|Revision Not Found for url|RepositoryNotFoundError|RevisionNotFoundError",
                    r"is not a local folder and is not a valid model identifier|Repo id must (?:be in the form|use alphanumeric)",
                    r"Invalid rev id|is not a valid git identifier",
                    # transformers 5.x: a path that is neither a directory nor a repo id
                    r"Incorrect path_or_model_id"),
          soft=HUB_FALLBACK),
    Cause("hf_incomplete_download", "HF or object-store download cut short (consistency / checksum check failed)",
          ("Consistency check failed", "thrown while requesting"),
          (r"Consistency check failed: file should be of size \d+ but has size \d+",),
          4, ROOT,
          "a weight file arrived truncated: remove the partial blob from the HF cache and download again "
          "(force_download); durable: prestage the model on every node (--prestage-model) and load offline",
          cleared_by_retry=True, exclude=RETRY_EXCLUDE,
          # huggingface_hub's http_backoff quoting the error it retries on ("'{err}' thrown while requesting {method}
          # {url}", utils/_http.py) when that error is a body cut short (exceptions.CUT_SHORT: h11's "peer closed
          # connection without sending complete message body", urllib3's IncompleteRead): the download's, before the
          # hf_http_error row reads any quoted error as a failed request (current set 71)
          families=(r"'[^'\n]*" + E.CUT_SHORT + r"[^'\n]*' thrown while requesting",)),
    # safetensors 0.8.0 (_safetensors_rust strings: "header too large", "header too small",
    # "invalid header length", "incomplete metadata, file not fully covered"; 0.4: HeaderTooLarge,
    # InvalidHeaderDeserialization, MetadataIncompleteBuffer), torch/serialization.py
    # ("Weights only load failed", "PytorchStreamReader failed reading zip archive: failed finding
    # central directory", "unexpected EOF, expected N more bytes. The file might be corrupted.").
    Cause("checkpoint_corrupt", "a weight / checkpoint file cannot be read (corrupt or truncated)",
          ("eader too", "HeaderTooLarge", "InvalidHeader", "invalid header length", "incomplete metadata",
           "MetadataIncomplete", "deserializing header", "Weights only load failed", "PytorchStreamReader failed",
           "unexpected EOF", "might be corrupted", "invalid load key", "SafetensorError", "Unable to load weights from",
           "BadZipFile", "not a zip file", "EOFError: Ran out of input", "Error: storage has wrong size", "enforce fail", "hasRecord", "SupportedFileFormatVersion",
           "mmap can only be used",
           "Checksum does not match", "Can't find a valid checkpoint"),
          (), 4, ROOT,
          "a checkpoint or weight file is corrupt or truncated (a partial download or a save cut short): delete it "
          "(HF cache blob or checkpoint dir) and download / resume from the previous checkpoint",
          # safetensors' "File does not contain tensor {name}": the file reads, a tensor is missing (exceptions.SAFETENSORS_NOT_FILE:
          # nor an argument the reader refused)
          exclude=E.SAFETENSORS_NOT_FILE,
          families=(r"(?i:header too (?:large|small))|HeaderTooLarge|InvalidHeader(?:Deserialization)?|invalid header length",
                    r"incomplete metadata|MetadataIncompleteBuffer|Error while deserializing header|SafetensorError",
                    r"Weights only load failed|PytorchStreamReader failed|unexpected EOF, expected \d+ more bytes|"
                    r"file might be corrupted|invalid load key",
                    # transformers modeling_utils.py load_state_dict; zipfile on a truncated torch zip
                    r"Unable to load weights from pytorch checkpoint file|BadZipFile|File is not a zip file",
                    # pickle (torch.load's legacy / weights_only unpickler) on an empty or cut file
                    r"EOFError: Ran out of input",
                    # torch's zip reader (caffe2/serialize/inline_container.cc PyTorchStreamReader::init: "Attempted
                    # to read a PyTorch file with version %d, but the maximum supported version for reading is %d"):
                    # a file this torch cannot read, whatever wrote it
                    r"Attempted to read a PyTorch file with version \d+|"
                    # (older releases fail the same check as an internal assert: "version_ <=
                    # kMaxSupportedFileFormatVersion INTERNAL ASSERT FAILED")
                    r"version_ [<>]= kM(?:ax|in)SupportedFileFormatVersion|"
                    # the same reader on a zip that is no torch checkpoint (PyTorchStreamReader::init: the
                    # archive has no `version` record: "Expected hasRecord(\"version\") to be true, but got false.")
                    r"Expected hasRecord\(\"version\"\) to be true|"
                    # torch/serialization.py load(mmap=True) on a legacy (pre-zip) file: "mmap can only be used
                    # with files saved with `torch.save(_use_new_zipfile_serialization=True)`": the reader refuses it
                    r"mmap can only be used with files saved with",
                    # transformers Trainer._load_from_checkpoint: the resume dir holds no weights file it knows
                    # ("Can't find a valid checkpoint at %s"): a checkpoint that is partial or not one
                    r"Can't find a valid checkpoint at ",
                    # TensorFlow's checkpoint reader (tensorflow/core/util/tensor_bundle/tensor_bundle.cc:
                    # "Checksum does not match: stored %u vs. calculated on the restored bytes %u", a DataLossError)
                    r"Checksum does not match: stored \d+ vs\. calculated",
                    # torch's legacy (pre-zip) deserializer, torch/csrc/generic/serialization.cpp
                    # THPStorage_(readFileRaw): the stored storage size disagrees with the bytes read
                    # ("storage has wrong size: expected %ld got %ld"): a truncated or overwritten file
                    r"Error: storage has wrong size: expected -?\d+ got \d+")),
    Cause("hf_weights_missing", "model weights / data not found (HF hub, a bucket or a local dir)",
          ("does not appear to have", "Error no file named", "Entry Not Found", "EntryNotFoundError", "Error: Unrecognized model in",
           "Can't find '", "Can't find weights for", "No files matched"),
          (r"does not appear to have (?:a file|files) named", r"Error no file named \S+"), 4, ROOT,
          "transient at scale when many ranks resolve sharded weights online: keep the retry wrapper "
          "(MarinSkyRL 0b2b05b) and --max-retries 1, or prestage the model on every node (--prestage-model); "
          "if the repo or directory really lacks these files, fix the model path",
          cleared_by_retry=True, exclude=RETRY_EXCLUDE,
          # huggingface_hub hf_raise_for_status ("Entry Not Found for url"), errors.py
          # EntryNotFoundError / RemoteEntryNotFoundError (utils._errors in 0.x).
          families=(r"Entry Not Found for url|(?<!Local)EntryNotFoundError",
                    # transformers models/auto/configuration_auto.py: AutoConfig found no usable
                    # config.json (the repo / directory lacks it: its 404 is hidden behind this)
                    r"Unrecognized model in \S+\. Should have a `model_type` key in its config\.json",
                    # peft (huggingface/peft src/peft/config.py from_pretrained: "Can't find '{CONFIG_NAME}' at
                    # '{path}'"; utils/save_and_load.py load_peft_weights: "Can't find weights for {model_id}
                    # in {model_id} or in the Hugging Face Hub."): the adapter's files are not there
                    r"Can't find '[\w.-]+\.(?:json|safetensors|bin|pt|pth|model)'|Can't find weights for \S+ in ",
                    # huggingface_hub 2.4 snapshot_download / `hf download --include` when the patterns select no file of
                    # the repo ("No files matched allow_patterns=['*.gguf'].", current set 51): nothing is downloaded
                    r"\bNo files matched (?:allow|ignore)_patterns\b")),
    Cause("stale_image_crash", "missing model.safetensors with no retry, then a crash (stale image)",
          (), (), 4, ROOT,
          "the image predates the HF retry wrapper (MarinSkyRL 0b2b05b): pass --skyrl-ref with the fix or "
          "bump the image digest, and launch with --max-retries 1 (runbook section 8, rung 4)",
          derived=True),
    Cause("hf_http_error", "HF Hub or object-store HTTP error (5xx, 429, connection cut)",
          ("Server Error", "Too Many Requests", "Max retries exceeded", "couldn't connect to", "LocalEntryNotFoundError",
           "OfflineModeIsEnabled", "huggingface.co", "thrown while requesting"),
          (r"\b5\d\d Server Error: [^\n]*(?i:for url): \S*(?:huggingface\.co|hf\.co)",
           r"\b429 Client Error: Too Many Requests (?i:for url): \S*(?:huggingface\.co|hf\.co)",
           r"host='(?:huggingface\.co|hf\.co|cdn-lfs[\w.-]*)', port=\d+\): Max retries exceeded"),
          4, ROOT,
          "the HF Hub (or the bucket) failed a request: transient; keep the retry wrapper and --max-retries 1; durable: "
          "prestage the model on every node (--prestage-model) with HF_HUB_OFFLINE=1, or raise HF_HUB_DOWNLOAD_TIMEOUT",
          # the Hub's inference services are an application's API, not a download (exceptions.INFERENCE_API)
          cleared_by_retry=True, exclude=RETRY_EXCLUDE + "|" + E.INFERENCE_API.pattern,
          # transformers utils/hub.py ("We couldn't connect to 'https://huggingface.co' to load"),
          # huggingface_hub LocalEntryNotFoundError / OfflineModeIsEnabled, urllib3/httpx timeouts to the Hub.
          # huggingface_hub 2.4.0 utils/_http.py http_backoff ("HTTP Error {status} thrown while requesting
          # {method} {url}", "'{err}' thrown while requesting ..."): the retries of 429/5xx/connection
          # errors; transformers 5.25 utils/hub.py "We couldn't connect to '{ENDPOINT}'" (any endpoint:
          # HF_ENDPOINT may be a mirror).
          families=(r"couldn't connect to '[^']+' to load|LocalEntryNotFoundError|OfflineModeIsEnabled|"
                    r"HTTP Error (?:429|5\d\d) thrown while requesting|' thrown while requesting (?:HEAD|GET|POST)|"
                    r"(?:ReadTimeout|ConnectTimeout|ConnectError|ConnectionError|Read timed out|timed out)[^\n]*"
                    r"(?:huggingface\.co|hf\.co)",)),
    Cause("cuda_oom", "CUDA out of memory",
          ("out of memory", "CUDA_ERROR_OUT_OF_MEMORY", "cudaErrorMemoryAllocation", "CUBLAS_STATUS_ALLOC_FAILED",
           "Tried to allocate", "CUDA calloc", "CUDA malloc", "OOM when allocating", "total capacity", "but unallocated",
           "DEVICE_ALLOCATION_FAILED", "OOM trying", "resource allocation failed"),
          (r"CUDA out of memory\. Tried to allocate", r"OutOfMemoryError: CUDA out of memory"), 8, ROOT,
          "a GPU ran out of memory: lower the micro batch sizes or max_model_len, or generator.gpu_memory_utilization "
          "when vLLM shares the GPUs (colocate_all); gradient checkpointing / FSDP cpu_offload free more; "
          "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True only helps fragmentation",
          # c10/cuda/CUDAException.h C10_CUDA_CHECK ("CUDA error: out of memory"), the driver API's
          # CUDA_ERROR_OUT_OF_MEMORY, NCCL's CUDACHECK WARN ("Cuda failure 2 'out of memory'"), cuBLAS.
          # any case and any wrapper word: "CUDA Error: out of memory", "CUDA driver error: out of memory"
          families=(r"(?i:\bCUDA(?: driver| runtime)? error:? out of memory)|CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation|"
                    r"Cuda failure (?:\d+ )?'out of memory'|CUBLAS_STATUS_ALLOC_FAILED|(?i:CUDA out of memory)|"
                    # (cublasGetStatusString's text for CUBLAS_STATUS_ALLOC_FAILED, "CUDA error: the resource
                    # allocation failed" as ollama's runner reports cublasCreate failing, public set 67)
                    r"\bthe resource allocation failed\b",
                    # NCCL src/include/alloc.h ncclCudaCalloc / ncclCudaMalloc: "Failed to CUDA calloc %ld
                    # bytes" is cudaMalloc refusing device memory inside NCCL: the GPU's memory, so the OOM
                    # (the most specific kind), not a generic NCCL error
                    r"Failed to CUDA (?:calloc|malloc)",
                    # the allocator's detail line (c10/cuda/CUDACachingAllocator.cpp), pasted alone; torch >= 2.1's
                    # wording of its parts (the same file @ v2.11.0: "GPU %d has a total capacity of %s of which %s
                    # is free.", "... is reserved by PyTorch but unallocated. If reserved but unallocated memory is
                    # large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
                    r"Tried to allocate [\d.]+ [KMGT]?i?B \(GPU \d+;|has a total capacity of [\d.]+ [KMGT]?i?B of which|"
                    r"reserved by PyTorch but unallocated\. If reserved but unallocated memory is large",
                    # cuDNN 9's device allocation failure (cudnnStatus_t CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED),
                    # torch's cuBLASLt workspace (aten/src/ATen/cuda/CUDABlas.cpp "OOM trying to allocate workspace for cublaslt")
                    r"CUDNN_STATUS_\w*DEVICE_ALLOCATION_FAILED|\bOOM trying to allocate\b",
                    # TensorFlow's allocator (tensorflow/core/framework/op_kernel.cc, bfc_allocator.cc:
                    # "OOM when allocating tensor with shape[...] and type float on /job:.../device:GPU:0 by
                    # allocator GPU_0_bfc", raised as ResourceExhaustedError)
                    r"OOM when allocating tensor")),
    # c10/cuda/CUDAException.h / c10/util/Exception.h ("CUDA error: <cudaGetErrorString>", e.g.
    # "device-side assert triggered", "an illegal memory access was encountered", "misaligned
    # address"), torch.AcceleratorError (torch >= 2.8), cuBLAS/cuDNN status codes, the kernel's
    # NVRM Xid lines and ECC errors, "no CUDA-capable device is detected".
    Cause("cuda_error", "CUDA error (device-side assert, illegal memory access, ECC / Xid)",
          ("CUDA error", "CUDA Error", "CUDA driver error", "CUDA runtime error", "CUDA_ERROR_", "cudaError", "device-side assert", "illegal memory access", "illegal address",
           "misaligned address", "CUBLAS_STATUS_", "CUDNN_STATUS_", "cuDNN error", "Xid", "ECC error",
           "CUDA-capable device", "fallen off the bus", "AcceleratorError", "Assertion `", "Cuda failure",
           "DeferredCudaCallError", "NVIDIA driver", "No CUDA GPUs", "CUDA driver initialization", "device handle for GPU",
           "CUDA initialization: ", "asynchronously reported", "CUDA_LAUNCH_BLOCKING=1", "device may be out of range", "explicitly omitted",
           "TORCH_USE_CUDA_DSA"),
          (), 8, ROOT,
          "a GPU kernel failed: a device-side assert is usually an index out of range (token ids >= vocab size, "
          "labels); an illegal memory access a kernel/driver bug (rerun with CUDA_LAUNCH_BLOCKING=1); Xid / ECC "
          "lines mean a bad GPU: drain that node",
          families=(r"(?i:CUDA(?: driver| runtime)? error: (?!out of memory|the resource allocation failed)\w)|CUDA_ERROR_(?!OUT_OF_MEMORY)[A-Z_]+|cudaError(?!MemoryAllocation)[A-Z]\w+",
                    r"device-side assert triggered|illegal memory access|illegal address|misaligned address|"
                    r"illegal instruction was encountered|unspecified launch failure",
                    r"CUBLAS_STATUS_(?!ALLOC_FAILED)[A-Z_]+|CUDNN_STATUS_[A-Z_]+|cuDNN error",
                    r"NVRM: Xid|\bXid \(?PCI|(?i:uncorrectable ECC error)|ECC error (?:encountered|detected)|fallen off the bus|"
                    r"no CUDA-capable device is detected|AcceleratorError|DeferredCudaCallError|Found no NVIDIA driver|"
                    r"No CUDA GPUs are available|CUDA driver initialization failed|Unable to determine the device handle for GPU|"
                    # torch/cuda/__init__.py's warning when CUDA cannot start ("UserWarning: CUDA initialization: CUDA
                    # unknown error - this may be due to an incorrectly set up environment", "... Unexpected error from
                    # cudaGetDeviceCount()"); c10/cuda's help lines printed only under a CUDA error report
                    # (CUDAMiscFunctions.cpp: "CUDA kernel errors might be asynchronously reported at some other API
                    # call", "For debugging consider passing CUDA_LAUNCH_BLOCKING=1", "GPU device may be out of range,
                    # do you have enough GPUs?"; CUDAException.cpp "Device-side assertions were explicitly omitted", torch 2.1-2.14
                    # "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.")
                    r"CUDA initialization: |CUDA kernel errors might be asynchronously reported|consider passing CUDA_LAUNCH_BLOCKING=1|"
                    r"GPU device may be out of range|Device-side assertions were explicitly omitted|Compile with .TORCH_USE_CUDA_DSA. to enable",
                    # a device-side assert as the kernel's __assert_fail prints it (`<file>.cu:<line>: <kernel>: block: [..],
                    # thread: [..] Assertion `<cond>` failed.`), also when a paste cut the block / thread part
                    r"block: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion `|\.cuh?:\d+: [^\n]{0,300}?\bAssertion `[^`]*` failed",
                    # NCCL's CUDACHECK (src/include/checks.h): "Cuda failure '<cudaGetErrorString>'"
                    r"Cuda failure (?:\d+ )?'(?!out of memory)"),
          # the driver grades NVLink Xids (144-150) itself: a line it calls Nonfatal is a
          # corrected event (NVIDIA's Xid catalogue), not a dead GPU
          # NCCL's own buffer allocator (src/include/alloc.h ncclCudaCalloc / ncclCuMemAlloc, src/allocator.cc
          # ncclMemAlloc: cuMem* map / export / set-access calls inside CUDACHECK / CUCHECK) failing with a
          # CUDA status that is not a sticky kernel fault ('invalid argument', 'mapping of buffer object
          # failed' = CUDA_ERROR_MAP_FAILED 205): NCCL could not set up its buffers, nccl_error. A sticky
          # fault ('an illegal memory access') surfacing there is still the kernel's: cuda_error.
          # and Xid 154 putting the recovery action back to none (vocabulary.XID_RECOVERED) is the fault's end
          # and pinned host memory that could not be had (ggml_cuda_host_malloc "failed to allocate 2.00 MiB of
          # pinned memory: no CUDA-capable device is detected"): the runtime falls back to pageable memory
          # (nor TensorFlow / XLA's driver probe, stream_executor/cuda/cuda_driver.cc "failed call to cuInit: %s", logged
          # at E when the host has no usable GPU: the program goes on without CUDA, on a CPU or a TPU)
          exclude=r"(?i)\bnon-?fatal\b|of pinned memory|failed call to cuInit: |" + NCCL_ALLOC_CUDA + "|" + V.XID_RECOVERED),
    Cause("ray_oom_kill", "Ray's memory monitor killed a worker (host RAM)",
          ("low on memory", "memory usage threshold", "killed due to memory pressure", "System memory low", "ray-oom-prevention",
           "type=NODE_OUT_OF_MEMORY"),
          (r"Task was killed due to the node running low on memory",
           r"exceeds the memory usage threshold of [0-9.]+\. Ray killed this worker",
           r"System memory low at node with IP \S+\. Used memory",
           r"killed due to memory pressure \(OOM\)"), 4, ROOT,
          "the node's host memory ran out (FSDP weight load of a 30B model was OOM-killed at 512GB): request "
          "more memory per node, lower concurrent trials / data workers; RAY_memory_usage_threshold only moves the line",
          # the memory monitor's kill message ends by pointing at its own documentation page (ray-project/ray
          # src/ray/raylet/node_manager.cc, the OOM kill message's suggestions: "Refer to the documentation on
          # how to address the out of memory issue: https://docs.ray.io/.../ray-oom-prevention.html"),
          # a line of its own when the message wraps
          families=(r"address the out of memory issue: \S*ray-oom-prevention",
                    # the GCS recording a worker's exit by its type (ray 2.60 src/ray/gcs/actor/gcs_actor_manager.cc:
                    # "Worker %s on node %s exits, type=%s, has creation_task_exception = %d"; rpc::WorkerExitType
                    # NODE_OUT_OF_MEMORY: the memory monitor's kill)
                    r"\bexits, type=NODE_OUT_OF_MEMORY\b",)),
    Cause("engine_init_failed", "a vLLM engine failed to start",
          ("Engine core initialization failed", "EngineCore failed to start", "memory for the cache blocks", "while processing method",
           "stored in KV cache", "available KV cache memory", "Engine process failed", "EngineCore hit",
           "desired GPU memory utilization", "WorkerProc failed", "server launch failed", "warmup error",
           "Error executing method", "RPC call to", "failed to start", "encountered an error", "Not enough memory to handle",
           "signaled to shutdown", "Webserver Crashed", "Error: Shard", "Error: Webserver", "Error when initializing model",
           "Initialization failed", "Not enough memory."),
          (r"Engine core initialization failed\. See root cause above", r"EngineCore failed to start",
           r"No available memory for the cache blocks",
           r"larger than the maximum number of tokens that can be stored in KV cache"), 5, ROOT,
          "vLLM could not build an engine, usually KV-cache memory: raise generator.gpu_memory_utilization or lower "
          "max_model_len / max_num_seqs (with colocate_all the policy shares the GPU); the EngineCore traceback "
          "above names the root cause",
          # vLLM v1 core.py / kv_cache_utils.py ("... is needed, which is larger than the available KV
          # cache memory"), v0 ("Engine process failed to start").
          families=(r"larger than the available KV cache memory|Engine process failed to start",
                    # vLLM 0.7 core.py run_engine_core logs "EngineCore hit an exception: <traceback>"
                    # for a failure at start and while serving: the analyzer picks by serving state.
                    r"EngineCore hit an exception|is less than desired GPU memory utilization|WorkerProc failed to start",
                    # an RL framework's launcher for its inference server that never answered /health
                    # within its setup timeout (inclusionAI/AReaL areal/engine/sglang_remote.py and
                    # vllm_remote.py _wait_for_server: RuntimeError("server launch failed"))
                    r"\bserver launch failed\b",
                    # SGLang's warmup request at launch failed (sgl-project/sglang python/sglang/srt/
                    # entrypoints/http_server.py _wait_and_warmup: "Initialization failed. warmup error:
                    # {traceback}", then kill_process_tree): the engine never served
                    r"Initialization failed\. warmup error",
                    # a Ray / multiproc worker's start-up method failing: vLLM v0 vllm/worker/worker_base.py
                    # execute_method (logger.exception "Error executing method %r. This might cause deadlock
                    # in distributed execution.") and Aphrodite's copy (its RayWorkerAphrodite prints the name
                    # unquoted); the methods the executor calls before serving (init_device, load_model, the
                    # KV-cache profile and allocation) mean the engine never started; any other: engine_dead
                    # (and vLLM 0.6-0.8's multiproc worker, executor/multiproc_worker_utils.py: "Exception in worker %s while
                    # processing method %s.")
                    r"Error executing method '?" + ENGINE_START_METHODS + r"\b|RPC call to " + ENGINE_START_METHODS + r" timed out|"
                    r"Exception in worker \S+ while processing method " + ENGINE_START_METHODS + r"\b",
                    # Hugging Face TGI (huggingface/text-generation-inference @d957e32: launcher/src/main.rs
                    # "Shard {rank} failed to start"; server/text_generation_server/interceptor.py
                    # logger.exception("Method {method} encountered an error.") for the Warmup RPC;
                    # models/flash_causal_lm.py warmup "Not enough memory to handle {N} prefill tokens")
                    r"\bShard \d+ failed to start|Method Warmup encountered an error|Not enough memory to handle \d+ prefill tokens",
                    # the launcher's exit when a shard / the router never came up (main.rs LauncherError
                    # ShardCannotStart / WebserverCannotStart, `Error: {:?}`); the shard's own model
                    # construction (server/text_generation_server/server.py "Error when initializing model")
                    r"\bError: (?:ShardCannotStart|WebserverCannotStart)\b|Error when initializing model",
                    # SGLang's start-up (sgl-project/sglang python/sglang/srt/entrypoints/engine.py
                    # _launch_subprocesses: a scheduler that did not report ready, "Initialization failed.
                    # Please see the error messages above."; model_executor/model_runner.py init_memory_pool:
                    # no room for the KV pool, "Not enough memory. Please try to increase --mem-fraction-static.")
                    r"Initialization failed\. Please see the error messages above|"
                    r"Not enough memory\. Please try to increase --mem-fraction-static",
                    # TGI's shard manager when the shard process exits on a signal (launcher/src/main.rs
                    # "Shard process was signaled to shutdown with signal {signal}") and the router exiting
                    # ("Webserver Crashed"): at start-up or while serving, so the analyzer picks by serving
                    # state (ENGINE_PHASE_BY_STATE)
                    ENGINE_PHASE_BY_STATE)),
    Cause("pg_unplaceable", "a placement group no node can hold",
          ("No available node types can fulfill", "PLACEMENT_FAILED ", "Failed to schedule placement group",
           "Failed to create placement group", "could not find a node type", "pending placement groups",
           "placement group", "cannot meet the required number", "Insufficient", "required GPUs", "undle cannot have",
           "No healthy workers", "Unsatisfied autoscaler", "No workers match", "is unschedulable: ",
           "not enough resources for the tasks", "infeasible",   # (subsumes the group needles above: one prefilter pass for all)
           "ClusterQueue", "  OutOf", "LocalQueue", "Pod was rejected", "AdmissionError", "TopologyAffinityError", "AdmissionCheck"),
          (r"No available node types can fulfill resource request", r"PLACEMENT_FAILED \S"), 3, ROOT,
          "the layout asks for more GPUs/CPUs in one bundle or group than a node has: run `irisrl validate` "
          "(TOPO-PLACEMENT names the first group that does not place) and fix the placement or node count",
          # a request for a node's affinity resource ALONE is for a node that left (ray#18979); one
          # that also asks for GPUs / CPUs on it (vllm-project/vllm#13388) is a bundle no node holds
          exclude=r"request \{'node:[^']*': [\d.]+\}",
          # (the raylet on a request no node of the cluster can hold, ray 2.60 src/ray/raylet/scheduling/
          # cluster_lease_manager.cc: "Tasks or actors with resource shapes %s failed to schedule because there are not
          # enough resources for the tasks or actors on the whole cluster.", "Cancelling infeasible tasks ...")
          # Ray's placement-group scheduling while it waits: src/ray/gcs/gcs_server/
          # gcs_placement_group_scheduler.cc ("Failed to schedule placement group %s, id: %s, because
          # no nodes are available"), gcs_placement_group_manager.cc ("Failed to create placement group
          # %s, id: %s, try again."), python/ray/autoscaler/_private/resource_demand_scheduler.py ("The
          # autoscaler could not find a node type to satisfy the request"), `ray status` demands ("N+
          # pending placement groups"). Ray retries them all: waits, fatal only once the run crashed.
          families=(r"failed to schedule because there are not enough resources for the tasks or actors on the whole cluster|"
                    # (ray 2.44.1 gcs_autoscaler_state_manager.cc: "Canceling infeasible requests on node %s")
                    r"\bCancell?ing infeasible (?:tasks?|requests?)\b|"
                    r"Failed to schedule placement group \S+, id: |Failed to create placement group \S+, id: \S+,? try again|"
                    r"could not find a node type to satisfy the request|\d+\+? pending placement groups",
                    # vLLM executor/ray_utils.py initialize_ray_cluster: the placement group (older releases:
                    # the cluster) has fewer GPUs than the engine's world size (a ValueError follows); a bundle
                    # asking more of one kind than a placement allows ("Placement group bundle cannot have more
                    # than 1 GPU")
                    r"exceeds the total number of available GPUs in the (?:placement group|cluster)|"
                    r"[Bb]undle cannot have more than \d+ (?:GPU|CPU|accelerator)",
                    # alibaba/ROLL's check of the Ray cluster before it places its workers (AssertionError
                    # "The Ray clusters(ray_num_nodes: N) cannot meet the required number of nodes")
                    r"cannot meet the required number of (?:nodes|GPUs|gpus|devices)",
                    # kube-scheduler's FitError for a pod no node can hold (kubernetes pkg/scheduler/
                    # framework/types.go "0/%v nodes are available: %v.", plugins/noderesources/fit.go
                    # "Insufficient %v"): the pod waits Pending, it was never running (not evicted)
                    r"\d+/\d+ nodes are available: .{0,200}?\bInsufficient \S+",
                    # Iris's pending reasons and its refusal at submission (vocabulary.IRIS_PENDING, IRIS_REFUSED)
                    V.IRIS_PENDING + "|" + V.IRIS_REFUSED,
                    # Kueue's reasons a workload is inadmissible whatever the quota, in a Normal Pending event (kubernetes-sigs/
                    # kueue v0.5.3-v0.9.4 pkg/scheduler/scheduler.go: "Workload namespace doesn't match ClusterQueue selector",
                    # "ClusterQueue %s is inactive", "ClusterQueue %s doesn't exist"; pkg/queue "LocalQueue %s doesn't exist")
                    r"\bnamespace doesn't match ClusterQueue selector\b|\b(?:ClusterQueue|LocalQueue) \S+ (?:is inactive|is stopped|doesn't exist)\b",
                    # ... and a workload its admission checks turned down (Kueue 0.20 pkg/controller/core/workload_controller.go:
                    # the AdmissionCheckRejected event, "EvictedDueToAdmissionCheck", "The workload is deactivated due to
                    # AdmissionCheck"; a ProvisioningRequest the cluster autoscaler could not satisfy): it held no node
                    r"\bAdmissionCheckRejected\b|\bEvictedDueToAdmissionCheck\b|\bdeactivated due to AdmissionCheck\b",
                    # the kubelet refusing a pod at admission (pkg/kubelet/lifecycle "Pod was rejected: %s"; the reasons
                    # UnexpectedAdmissionError (a device plugin's Allocate failed) and TopologyAffinityError (the topology
                    # manager could not align the devices)): the pod never ran on that node
                    r"\bPod was rejected: |\b(?:UnexpectedAdmissionError|TopologyAffinityError)\b",
                    # the kubelet's admission refusal as `kubectl get pods` shows it (pod.status.reason "OutOf<resource>",
                    # kubernetes pkg/kubelet/lifecycle/predicate.go): the pod failed on a node without the resource
                    E.KUBECTL_POD_ROW + r"OutOf[\w./-]+\s+\d+"),
          # (matched on the reported evidence, cut to 160 characters: stems near the start)
          # (and Iris's pending reasons: the autoscaler may still scale up, so the job is waiting, not dead)
          soft=r"Failed to (?:schedule|create) placement group \S+, id: |could not find a node type|pending placement groups|"
               + V.IRIS_PENDING),
    # SkyRL's own message: NovaSky-AI/SkyRL skyrl-train/skyrl_train/utils/utils.py
    # @aa690edfccfb2103b0b1fa08b7c41effb7e0ddb1 (get_ray_pg_ready_with_timeout's RuntimeError).
    Cause("pg_timeout", "a placement group never placed (SkyRL gave up)",
          ("Failed to create placement group", "Waiting for creating a placement group", "cannot be scheduled right now",
           "pending tasks/actors", "to be scheduled", "placement group", "Scheduling timeout", "UNSCHEDULABLE", "nodes joined",
           "backoffLimitCount", "not scheduled within"),
          (r"Failed to create placement group with \d+ bundles",), 3, ROOT,
          "SkyRL waited SKYRL_RAY_PG_TIMEOUT_IN_S (180 s) for its GPUs: a node never joined or the layout does "
          "not fit; check 'Ray nodes alive N/N' before it and `irisrl validate` (TOPO-PLACEMENT); a "
          "'Started a local Ray instance' line before it means the driver did not join the cluster",
          # Ray's own wait warning (python/ray/util/placement_group.py callers, e.g. Ray Train's
          # backend executor): "Waiting for creating a placement group of specs for N seconds".
          families=(r"Waiting for creating a placement group of specs for \d+ seconds|"
                    # the orchestrator gave up placing the gang (marin lib/iris controller/transitions.py: "Scheduling
                    # timeout exceeded", the job state JOB_STATE_UNSCHEDULABLE), MarinSkyRL's runtime waiting for the
                    # gang's Ray nodes (cloud/iris/task_runtime.py @ 390f581b: "Only 3/4 Ray nodes joined within 1800s.")
                    r"Scheduling timeout exceeded|\bJOB_STATE_UNSCHEDULABLE\b|\bOnly \d+/\d+ (?:Ray )?nodes joined\b|"
                    r"resource request cannot be scheduled right now",
                    # `ray status` Demands: resource requests Ray could not place yet
                    # (python/ray/autoscaler/_private/util.py: "{shape}: {N}+ pending tasks/actors")
                    r"\}: \d+\+ pending tasks/actors",
                    # Ray Serve's controller while a replica's resources are not there (python/ray/serve/
                    # _private/deployment_state.py, ray 2.x: "Deployment 'X' in application 'Y' [has] N
                    # replicas that have taken more than 30s to be scheduled. This may be due to waiting
                    # for the cluster to auto-scale ..."); "... to initialize" is a slow constructor, not this
                    r"replicas? that (?:have|has) taken more than [\d.]+ ?s to be scheduled|"
                    # a framework's own wait on its group (allenai/open-instruct "Waiting for placement group to
                    # be scheduled", Ray's pg.ready() callers)
                    r"[Ww]aiting for (?:the )?placement groups? to be (?:scheduled|ready|created)",
                    # Kueue deactivating a workload whose pods never all became ready, requeue after requeue (kubernetes-sigs/
                    # kueue v0.9.4 pkg/controller/core/workload_controller.go: "Deactivated Workload %q by reached re-queue
                    # backoffLimitCount"; the newer words are vocabulary.py's pg_timeout row)
                    r"\bby reached re-queue backoffLimitCount\b",
                    # a sandbox service that could not place a sandbox in time (modal 1.6.4 sandbox/_common.py "Sandbox was
                    # not scheduled within the timeout.")
                    r"\bnot scheduled within (?:the )?timeout\b"),
          soft=r"Waiting for creating a placement group|cannot be scheduled right now|pending tasks/actors|to be (?:scheduled|ready|created)"),
    Cause("ray_local_instance", "a multi-node driver started its own Ray",
          ("Started a local Ray instance", "ray start"), (r"Started a local Ray instance",), 3, ROOT,
          "the trainer did not join the gang's Ray cluster (RAY_ADDRESS unset or ray.init() without an "
          "address): run it through irisrl's runtime controller, which exports RAY_ADDRESS after 'Ray nodes alive N/N'",
          multinode_only=True,
          # a driver on a node with no Ray of its own to attach to (src/ray/gcs/gcs_client/global_state_accessor.cc,
          # ray < 2's python/ray/services.py: "Some processes that the driver needs to connect to have not
          # registered with GCS|Redis, so retrying. Have you run 'ray start' on this node?"; ray 2.60
          # python/ray/_private/services.py: "Can't find a `node_ip_address.json` file from ... Have you started Ray
          # instance using `ray start` or `ray.init`?")
          families=(r"Have you run 'ray start' on this node|Have you started Ray instance using `?ray start",)),
    # torch c10d: TCPStore ("Timed out after N seconds waiting for clients. X/Y clients joined",
    # "wait timeout after Nms, keys:", "Socket Timeout", "The client socket has timed out after"),
    # DistStoreError / DistNetworkError (c10d/exception.h), store-based barrier, torchrun's
    # RendezvousTimeoutError, gloo's tcp pair ("Timed out waiting Nms for recv operation to complete").
    Cause("dist_timeout", "torch.distributed store / rendezvous / gloo timed out",
          ("clients joined", "wait timeout after", "Socket Timeout", "socket has timed out", "DistStoreError",
           "DistNetworkError", "store based barrier", "RendezvousTimeoutError", "Rendezvous", "imed out waiting",
           "failed to connect to", "connect() timed out", "Wait timeout", "imed out", "Error waiting on", "elastic/timer/",
           "xpired timers", "set timeout"),
          (), 3, ROOT,
          "a rank never reached the rendezvous (node missing, MASTER_ADDR/port unreachable, a rank crashed "
          "before init): check that every task is up and the first rank's address; raise the timeout only "
          "after ruling those out",
          families=(r"Timed out after \d+ seconds waiting for clients\. \d+/\d+ clients joined|wait timeout after \d+ms",
                    r"Socket Timeout|The (?:client|server) socket has timed out",
                    # c10d's store errors by class only when the message is a store's failure (observe/
                    # exceptions.py CLASS_MEANING): "use_libuv was requested but PyTorch was built
                    # without libuv support" (TCPStore.cpp) is a build statement, python_crash
                    r"(?:DistStoreError|DistNetworkError)(?=[^\n]*" + E.DIST_MEANING + ")",
                    # torch/distributed/elastic/agent/server/api.py _exit_barrier: the agent's store barrier
                    # after its workers finished (logger.exception "Error waiting on exit barrier. Elapsed:
                    # %s seconds"; torch 1.9 .. 2.11): its peers never arrived at the store
                    r"Error waiting on exit barrier",
                    r"Timed out initializing process group in store based barrier|RendezvousTimeoutError|"
                    r"Timed out waiting for (?:the )?rendezvous",
                    r"gloo.*Timed out waiting \d+ms for (?:recv|send) operation|Timed out waiting \d+ms for (?:recv|send)",
                    r"The client socket has failed to connect to",
                    # whatever the wrapper (RuntimeError, DistStoreError): c10d's TCPStore connect
                    # ("connect() timed out. Original timeout was N ms", torch/csrc/distributed/c10d/
                    # socket.cpp), gloo's pair / store wait ("Wait timeout", gloo/transport/tcp),
                    # the store based barrier (torch/distributed/distributed_c10d.py, any case)
                    r"connect\(\) timed out|^(?:\w+Error: )?Wait timeout\b|gloo.*Wait timeout|"
                    r"(?i:timed out initializing process group in store based barrier)",
                    # torch elastic's watchdog timers (torch/distributed/elastic/timer/file_based_local_timer.py,
                    # local_timer.py, debug_info_logging.py: "Timers expired for run:[%s]", "Reaping worker_pid=[%s].
                    # Expired timers: %s", "Successfully reaped worker=[%s] with signal=%s", "Terminating the server
                    # process=[%s] because of expired timers"), torch 2.13 as current set 48 prints them: a scope that ran
                    # past its deadline, its worker killed for it
                    r"\belastic/timer/\w+\.py:\d+\][^\n]*(?i:expired|\breap)|\b(?:Timers expired for run|Expired timers:)",
                    # torch.distributed.rpc's call deadline (torch/csrc/distributed/rpc: "RPC ran for more than set timeout
                    # (%d ms) and will now be marked with an error")
                    r"\bRPC ran for more than (?:the )?set timeout\b"),
          # torch's c10d client retries its connect while the master comes up, with a [W ...] line
          # per attempt: a wait, fatal only once the run crashed
          soft=r"\[W[^\]]*\].*The client socket has failed to connect to",
          exclude=E.BUILD_CONFIG.pattern),
    Cause("nccl_error", "NCCL error",
          ("NCCL error", "nccl", "NCCL WARN", "NCCL Error", "Got completion", "completion with error", "RAS declaring"),        # `nccl` (lower case): the ncclXxxError names, rare elsewhere
          (r"NCCL error in: \S+", r"NCCL error: (?:unhandled|internal|remote|invalid)",
           r"\bnccl(?:System|Internal|UnhandledCuda|Remote|InvalidUsage)Error\b"), 8, ROOT,
          "NCCL could not reach a peer: check the network between nodes (NCCL_SOCKET_IFNAME, IB devices) and "
          "do not set NCCL_P2P_DISABLE / NCCL_NVLS_ENABLE / NCCL_COLLNET_ENABLE on H100+IB (runbook); rerun "
          "with NCCL_DEBUG=INFO for the failing call",
          # NCCL src/transport/net_ib.cc ("NET/IB : Got completion from peer %s with error %d" before
          # 2.19, "NET/IB: Got completion from peer %s with status=%s(%d)" in 2.28, "Got async event"
          # fatal ones), src/misc/socket.cc ("Connection closed by remote peer", "Call to recv ...
          # failed : Connection reset by peer"), ibvwrap ("Call to ibv_... failed"), the CUDACHECK
          # WARN ("Cuda failure"), and ProcessGroupNCCL's DistBackendError. Benign WARNs (plugin not
          # found, no IB device, iommu hints) match none of these.
          families=(r"NCCL WARN NET/\w+(?:/\w+)? ?: ?Got completion from peer",
                    # ibverbs completion errors whoever prints them: NCCL's net_ib.cc without the WARN
                    # head (`NET/IBP:Got completion from peer ... status=12`), the mlx5 provider
                    # (rdma-core providers/mlx5/cq.c "got completion with error")
                    # (NCCL 2.30 names the status: "status=IBV_WC_REM_ACCESS_ERR(10)")
                    r"NET/IB\w*\s*:\s*Got completion from peer .*(?:status=(?:[1-9]|IBV_WC_\w+\((?!0\))\d+\))|with error [1-9])|"
                    r"mlx5: [\w.-]+: got completion with error",
                    r"NCCL WARN .*(?:Connection (?:closed|reset) by (?:remote )?peer|Call to \w+ failed|"
                    r"async fatal event|unhandled (?:system|cuda) error|remote process exited|Net : Connection closed)",
                    # src/proxy.cc and src/misc/socket.cc: the proxy / service thread losing its peer
                    r"NCCL WARN .*(?:Failed to execute operation|Could not receive|Could not connect|"
                    r"wrong type \d+ != \d+|socketFinalizeAccept|socketStartConnect|Connect to \S+ failed)",
                    r"ncclRemoteError|ncclSystemError|ncclInternalError|ncclUnhandledCudaError|NCCL Error \d+: ",
                    # NCCL's RAS subsystem giving a peer up (src/ras/peers.cc "RAS declaring peer %s as DEAD", v2.30.7-1):
                    # the INFO channel, so a notice unless its process ended (exceptions.WARNING_LEVEL), named all the same
                    r"\bRAS declaring peer \S+ as DEAD\b",
                    # any other WARN that states a failure (observe/exceptions.py NCCL_WARN_FAILURE,
                    # read from NCCL's WARN stems); its notices (NCCL_WARN_HINT) are excluded
                    E.NCCL_WARN_FAILURE.pattern),
          exclude=E.NCCL_WARN_HINT.pattern,
          # NCCL's WARN precedes the error code it returns, which its caller may retry (socket.cc's
          # connect: "socketPollConnect poll() failed ... Connection timed out" then "retrying (1/34)",
          # NVIDIA/nccl PR 1618): a WARN is the death once its process ended, not before
          until_ended=r"NCCL WARN "),
    Cause("engine_dead", "a vLLM engine died while serving",
          ("EngineDeadError", "Background loop", "is already dead", "died unexpectedly", "EngineCore encountered",
           "output_handler failed", "hit an exception", "Engine iteration timed out",
           "Engine background task failed", "fatal signal from worker", "child failed", "Error executing method",
           "crashed", "RPC call to", "watchdog timeout", "Watchdog timeout", "DataParallelController", "sigquit from a child",
           "while processing method", "Dumping "),
          # (EngineDeadError's message, vllm/v1/engine/exceptions.py ENGINE_DEAD_MESSAGE, wherever it is quoted: the API
          # server's 500 body as a client's exception renders it, aiohttp's `ClientResponseError: 500, message='EngineCore
          # encountered an issue. ...'`, current set 79)
          (r"EngineCore encountered an issue\b",
           r"AsyncEngineDeadError: Background loop (?:has errored already|is not running|is stopped)",
           r"AsyncLLMEngine is already dead"), 5, CONSEQUENCE,
          "a vLLM engine core died: its own traceback (EngineCore_* lines above) names why (CUDA OOM, NCCL, a "
          "model bug); check the engine's memory settings and the vLLM build in the image",
          # vLLM v1 vllm/v1/engine/core_client.py (monitor: "Engine core proc %s died unexpectedly,
          # shutting down client.") and core.py ("EngineCore encountered a fatal error.", older
          # "EngineCore hit an exception").
          # vllm/v1/engine/async_llm.py output_handler: logger.exception("AsyncLLM output_handler
          # failed.") when the core client raised EngineDeadError (any process prefix: APIServer,
          # ApiServer_N with api-server-count > 1).
          # vllm/v1/executor/multiproc_executor.py: the worker monitor ("Worker proc %s died
          # unexpectedly, shutting down executor.") and worker_busy_loop (logger.exception("WorkerProc hit an
          # exception.")): its traceback's final line follows and names the root cause when it is one.
          # (not ray_executor_v2's "RayWorkerProc rank=%s died unexpectedly": a Ray worker actor, as public sets
          # label it; vocabulary's ray_worker_died row)
          families=(r"Engine core proc \S+ died unexpectedly|EngineCore encountered a fatal error|"
                    r"AsyncLLM output_handler failed|\bWorker proc \S+ died unexpectedly(?: \(exit code: [^)\n]{1,12}\))?, shutting down executor|WorkerProc hit an exception|"
                    # (vLLM 0.6-0.8's multiproc worker failing in a serving method: executor/multiproc_worker_utils.py
                    # "Exception in worker %s while processing method %s." for execute_model / start_worker_execution_loop)
                    r"Exception in worker \S+ while processing method",
                    # vLLM v0 engine/async_llm_engine.py: the engine loop's timeout and its background
                    # task dying ("Engine iteration timed out. This should never happen!",
                    # "Engine background task failed")
                    r"Engine iteration timed out|Engine background task failed",
                    # vllm/v1/engine/core_client.py and v1/executor/multiproc_executor.py sigusr1_handler:
                    # a worker process sent SIGUSR1 on an unrecoverable error ("Got fatal signal from
                    # worker processes, shutting down. See stack trace above for root cause issue.",
                    # "MulitprocExecutor got fatal signal ..."); the engine is killed with it
                    r"(?i:got fatal signal from worker processes)",
                    # sglang python/sglang/srt/managers/scheduler.py run_scheduler_process: the scheduler
                    # loop's exception ("Scheduler hit an exception: {traceback}"), then SIGQUIT to the
                    # server's parent process: SGLang's engine died. Its other engine processes do the same
                    # (detokenizer_manager.py "DetokenizerManager hit an exception", tokenizer_manager.py,
                    # data_parallel_controller.py "DataParallelController hit an exception"), and the
                    # server's sigquit handler (entrypoints/http_server.py / engine.py) says "Received
                    # sigquit from a child process. It usually means the child failed."
                    # (0.4's overlap-thread worker: managers/tp_worker_overlap_thread.py "TpModelWorkerClient hit an exception")
                    # (0.5.8's gRPC front: grpc/grpc_request_manager.py "GrpcRequestManager hit an exception")
                    r"(?:Scheduler|[Tt]okenizerManager|DataParallelController|TpModelWorker\w*|GrpcRequestManager) hit an exception|"
                    # (older releases print "a child proces." with the typo)
                    r"Received sigquit from a child proc\w*|"
                    # (sglang 0.5.23 managers/tokenizer_manager.py's handler: "SIGQUIT received. signum=3, frame=...
                    # It usually means the child failed.")
                    r"SIGQUIT received\.[^\n]*child failed",
                    # vLLM v0 / Aphrodite worker_base.py execute_method failing on a serving method (the
                    # start-up ones are engine_init_failed's, read first); TGI's launcher when a shard
                    # exits while serving (launcher/src/main.rs "Shard {rank} crashed")
                    r"Error executing method '?\w+'?\. This might cause deadlock|\bShard \d+ crashed\b",
                    # vLLM 0.34 v1/executor/multiproc_executor.py collective_rpc: the workers did not answer a
                    # serving call ("RPC call to execute_model timed out."; the start-up methods are
                    # engine_init_failed's, read first)
                    r"RPC call to \w+ timed out",
                    # vLLM's dump of the batch an engine step failed on (vllm/logging_utils/dump_input.py
                    # dump_engine_exception @ 02e16736: "Dumping input data", "Dumping scheduler output for model
                    # execution:", V0's "Dumping model input for execution:"; newer releases "Dumping input data for V1
                    # LLM engine (v%s, reason=%s)"), called by v1/engine/core.py log_error_detail around execute_model,
                    # which re-raises: the engine core dies on that exception (its traceback follows). Not a dump for
                    # another reason (a slow stage's is a diagnostic the engine goes on after)
                    r"\bDumping (?:input data\b(?!.*\breason=(?!exception\b))|scheduler output for model execution|model input for execution)",
                    # sglang 0.5.23 srt/utils/watchdog.py (a scheduler loop that stopped advancing: "Scheduler
                    # watchdog timeout (...)"; a child that died: "Subprocess X (pid=N) crashed with exit code
                    # -11. Triggering SIGQUIT for cleanup") and entrypoints/engine.py ("Scheduler or
                    # DataParallelController N terminated with -11")
                    r"\b(?:Scheduler|Detokenizer\w*|TokenizerManager|DataParallelController) watchdog timeout|"
                    # (older releases: the scheduler's f-string "Watchdog timeout (self.watchdog_timeout=300)")
                    r"Watchdog timeout \(self\.watchdog_timeout=|"
                    r"crashed with exit code -?\d+\. Triggering SIGQUIT|Scheduler or DataParallelController \d+ terminated with -?[1-9]")),
    Cause("ray_node_dead", "a Ray node died (missed heartbeats)",
          ("marked dead because", "mistakenly been marked", "Failed to connect to GCS", "NodeDiedError",
           "Raylet is terminated", "Unable to connect to GCS", "its node has died", "node was terminated", "Check failed",
           "for GCS to become", "local raylet died", "local raylet failed", "sockets/raylet", "config from Raylet",
           "because the health check failed"),
          (r"has been marked dead because the (?:detector|monitor) has missed too many heartbeats",
           r"Exiting because this node manager has mistakenly been marked (?:as )?dead"), 3, CONSEQUENCE,
          "a node's raylet stopped (pod OOM-killed, preempted, network): check that task's state and memory "
          "(`irisrl status JOB`); with --max-retries >= 1 the gang is brought up again",
          # Ray src/ray/gcs/gcs_client/gcs_rpc_client.h ("Failed to connect to GCS within N seconds"),
          # ray.exceptions.NodeDiedError.
          # python/ray/_private/worker.py: the driver's raylet went away ("Raylet is terminated:
          # ip=..., id=... Termination is unexpected"), the GCS client never reaching the head
          # (python/ray/_private/utils.py "Unable to connect to GCS at {addr}").
          families=(r"Failed to connect to GCS within \d+ seconds|NodeDiedError|Raylet is terminated|Unable to connect to GCS at|"
                    r"Failed to connect to (?:the )?GCS (?:at|server)\b|"
                    # (python/ray/_raylet.pyx / gcs_utils: "Timed out while waiting for GCS to become available.")
                    r"waiting for GCS to become (?:available|ready)",
                    # ray 2.60.0 gcs_server (gcs_actor_manager): an actor that died with its node says so
                    # ("The actor died because its node has died. Node Id: %s", "\tthe actor's node was
                    # terminated (un)expectedly: %s"): the node's death is the most specific kind
                    # (older releases: "The actor is dead because its node has died")
                    r"actor (?:died|is dead) because its node has died|the actor's node was terminated",
                    # a worker's / driver's own raylet gone, in Ray 2.9-2.40's words (ray 2.9.3 python/ray/exceptions.py
                    # LocalRayletDiedError "The task's local raylet died."; core_worker.cc "Shutting down the core worker
                    # because the local raylet failed", raylet_client.cc "Could not connect to socket .../sockets/raylet",
                    # core_worker_process.cc "Failed to get the system config from Raylet"; gcs_health_check_manager.cc
                    # "Node %s is dead because the health check failed"): whatever line carries it (an unhandled task error's
                    # report included), the node's death
                    r"\blocal raylet (?:died|failed)\b|Could not connect to socket \S*/sockets/raylet\b|"
                    r"Failed to get the system config from Raylet|\bis dead because the health check failed",
                    # a RAY_CHECK failing in the raylet or the GCS (vocabulary.RAY_DAEMON_FATAL; the same check in a
                    # worker's core_worker.cc is the worker's: python_crash); a RAY_LOG(FATAL) there with no
                    # "Check failed" is the vocabulary's row of the same text
                    V.RAY_DAEMON_FATAL),
          # (python/ray/_private/process_watcher.py: "Raylet is terminated. Termination is graceful." at INFO on
          # a clean shutdown is no death; the vocabulary reads it as no failure either)
          exclude=V.GRACEFUL_STOP),
    Cause("ray_worker_died", "a Ray worker process died",
          ("worker died or was killed", "Worker unexpectedly exits", "exit type: SYSTEM_ERROR", "worker died unexpectedly while",
           "type=SYSTEM_ERROR", "have not registered within"),
          (r"A worker died or was killed while executing a task by an unexpected system error",), 8, CONSEQUENCE,
          "a worker process was killed (OOM killer, SIGSEGV, ray stop): its 'Worker exit detail' and the "
          "node's memory say which; look for the worker's own last lines (its pid) above",
          # Ray's worker exit detail (src/ray/raylet/node_manager.cc, core_worker): the worker's
          # connection to the raylet ended without an exit message (killed, crashed)
          families=(r"Worker unexpectedly exits with a connection error code \d+|Worker exit type: SYSTEM_ERROR|"
                    # ray 2.60: the GCS's record of the exit (gcs_actor_manager.cc "... exits, type=SYSTEM_ERROR"), the
                    # raylet's worker pool on a worker process that never registered (worker_pool.cc "Some workers of the
                    # worker process(%d) have not registered within the timeout. The process is dead, probably it crashed
                    # during start.")
                    r"\bexits, type=SYSTEM_ERROR\b|have not registered within the timeout\. The process is dead",
                    # the raylet's push to the driver, any release (ray src/ray/raylet/node_manager.cc
                    # type "worker_died": Ray 0.8 "A worker died or was killed while executing task %s.",
                    # 1.x+ "... while executing a task by an unexpected system error"), relayed by
                    # python/ray/_private/worker.py at WARNING ("WARNING worker.py:N -- ..."); ray.exceptions
                    # WorkerCrashedError "The worker died unexpectedly while executing this task"
                    r"A worker died or was killed while executing (?:a )?task\b|The worker died unexpectedly while executing this task"),
          exclude=r"The actor is dead|ActorDiedError|RayActorError"),   # an actor's worker: ray_actor_died says which
    Cause("ray_actor_died", "a Ray actor died",
          ("ActorDiedError", "RayActorError", "The actor died unexpectedly", "The actor is dead because",
           "the actor is already dead", "state: DEAD", "The actor died because"),
          (r"(?:ActorDiedError|RayActorError)\b", r"The actor died unexpectedly before finishing this task",
           r"The actor is dead because"), 8, CONSEQUENCE,
          "a policy worker or vLLM engine actor died (class_name says which): find its own error above "
          "(CUDA OOM, NCCL, engine); 'connection error code 2. End of file' means it was killed, often by host OOM",
          # Ray core: src/ray/core_worker/transport/direct_actor_transport.cc ("Failing pending tasks for
          # actor %s because the actor is already dead"), gcs/gcs_server/gcs_actor_manager.cc and the
          # core worker's actor_manager.cc ("received notification on actor, state: DEAD").
          # python/ray/exceptions.py ActorDiedError's message, also pasted as its own line
          families=(r"because the actor is already dead|notification on actor, state: DEAD\b|"
                    r"The actor died because of an error raised in its creation task",)),
    Cause("nccl_timeout", "NCCL collective timed out",
          ("collective operation timeout", "NCCL communicator was aborted", "Timeout at NCCL work",
           "detected by watchdog", "watchdog got stuck", "Heartbeat monitor timed out", "NCCL operations have failed",
           "collective timeout", "taking the entire process down", "preparing to dump debug info",
           "Stack trace of the failed collective", "to signal dumping", "timed out in", "Timeout(ms)=",
           "flight recorder dump signal", "Could not acquire GIL", "NCCL timeout in", "RAS keep-alive timeout"),
          (r"Watchdog caught collective operation timeout", r"NCCL communicator was aborted on rank \d+",
           r"Timeout at NCCL work: \d+"), 8, CONSEQUENCE,
          "a collective waited past its timeout because another rank stalled or died first: look for that "
          "rank's own error above (OOM, engine death, node loss); raise SKYRL_WORKER_NCCL_TIMEOUT_IN_S only "
          "after ruling out a hang; keep NCCL defaults on H100+IB (runbook)",
          # torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp watchdog / heartbeat monitor phrasings
          # (2.2 .. 2.11): "failure detected by watchdog at work sequence id", "Exception (either an
          # error or timeout) detected by watchdog at work", "ProcessGroupNCCL's watchdog got stuck",
          # "Heartbeat monitor timed out", "Some NCCL operations have failed or timed out",
          # "Received a dump signal due to a collective timeout".
          families=(# torch's C10D_CHECK_TIMEOUT (torch/csrc/distributed/c10d/NCCLUtils.hpp @ v2.14.1: "NCCL timeout in: "
                    # __FILE__ ":" __LINE__, a DistBackendError): a non-blocking communicator's call timed out
                    r"NCCL timeout in: \S+:\d+",
                    # NCCL's RAS losing a peer's keep-alive (src/ras/rasnet.cc "RAS keep-alive timeout error (%ds) on
                    # socket connection with %s", v2.30.7-1)
                    r"RAS keep-alive timeout error",
                    r"detected by watchdog at work|watchdog got stuck for \d+ seconds|Heartbeat monitor timed out|"
                    r"Some NCCL operations have failed or timed out|dump signal due to a collective timeout|"
                    r"Watchdog caught collective operation timeout|To avoid data inconsistency, we are taking the entire process down|"
                    r"ProcessGroupNCCL preparing to dump debug info|Stack trace of the failed collective|"
                    r"First PG on this rank to signal dumping|"
                    # torch 2.14 ProcessGroupNCCL.cpp HeartbeatMonitor::runLoop: the other ranks' side of a dump
                    # ("Observed flight recorder dump signal from another rank via TCPStore") and its exit on a
                    # watchdog it could not reach ("Could not acquire GIL within N ms on exit, possible GIL
                    # induced hang")
                    r"Observed flight recorder dump signal from another rank|Could not acquire GIL within \d+ ms on exit",
                    # ProcessGroupNCCL.cpp WorkNCCL::checkTimeout ("Watchdog caught collective operation
                    # timeout: WorkNCCL(...) ran for N milliseconds before timing out.") and the blocking
                    # wait ("Work WorkNCCL(...) timed out in blocking wait"), any field list
                    r"WorkNCCL\([^)]*\)[^\n]*?(?:timed out in|ran for \d+ milliseconds before timing out)")),
    # Kubernetes (kubectl describe pod: "Reason: OOMKilled", "Last State: Terminated ... Exit Code:
    # 137"), the kernel's OOM killer ("Memory cgroup out of memory: Killed process N"), and Iris's
    # task status line (observe/task_status.py: exit_code=137 or error "OOMKilled").
    Cause("pod_oomkilled", "the container was OOM-killed (exit 137)",
          ("OOMKilled", "Exit Code:", "Exit code", "exit_code=137", "return code", "returncode", "] Error 137", "exit_code=-9", "exit code 137", "out of memory: Killed process",
           "Out of memory: Killed", "exited with code 137", "oom-kill", "已杀死", "non-zero exit code", "Killed", "Exited (137)", "OOM killed", "OOM-killed",
           "exitCode", "SIGKILL", "exitcode", "TaskOOM"),
          (), 4, ROOT,
          "the container hit its memory limit (host RAM, not GPU): request more memory per task or lower host "
          "memory use (dataloader workers, FSDP cpu_offload, concurrent trials); exit 137 (-9 from Iris's process "
          "runtime) = SIGKILL: the OOM killer's signal, but also a manual kill -9 or the end of a preemption's grace period",
          # Iris's local process runtime reports Python's negative signal code (-9 = SIGKILL) where
          # Kubernetes says 137: the same kill in a task status line.
          # (the code's report in any case and separator: kubectl's `Exit Code:    137`, Iris's task error `Exit code 137: ...`,
          # a Hub Space's `Space failed. Exit code: 137`, the status line's `exit_code=137`; a platform's job log saying return
          # code, Huawei ModelArts' "[Modelarts Service Log]Training end with return code: 137", subprocess's `returncode=137`)
          families=(r"\bOOMKilled\b|(?i:\b(?:exit(?:ed with)?|return)[ _]?code[:=]?\s*137)\b|exit_code=-9\b",
                    # a container status in the pod's YAML / JSON (`kubectl get pod -o yaml|json`)
                    r"\"?exitCode\"?:\s*137\b",
                    # (make's report of a recipe that ended 137, "make: *** [Makefile:4: train] Error 137")
                    r"\*\*\* \[[^\]\n]*\] Error 137\b",
                    r"non-zero exit code\b.*\b137$",
                    # a shell reporting its child SIGKILLed (the OOM killer): "line 28:  7 Killed  cmd"
                    # (and its job report without the script line, `[1]+  Killed   cmd` / `71885 Killed   cmd`: exceptions.SHELL_SIGNAL)
                    r"line \d+:\s+\d+ Killed\b|^(?:Killed|已杀死)$|" + E.JOB_REPORT_HEAD + r"Killed\s{2,}\S|" + E.GLUED_KILLED,
                    r"(?i:out of memory): Killed process \d+|oom-kill:|Killed process \d+ \(.*\) total-vm|Exited \(137\)|"
                    r"\bOOM[- ]killed\b",
                    # Not torch elastic's / torch.multiprocessing's report of a worker SIGKILLed
                    # inside a running container ("Signal 9 (SIGKILL) received by PID", `exitcode: -9`,
                    # "process N terminated with signal SIGKILL"): that is a process's death the
                    # orchestrator did not report (python_crash; its fix says SIGKILL is usually the
                    # host's OOM killer). Kubernetes' "OOM Killed" reason (k8s <= 1.0 spelled it so).
                    r"\bOOM[- ]Killed\b",
                    # containerd's CRI plugin seeing the kernel's memcg OOM kill of a container (containerd v1.6.24 / v1.7.13
                    # pkg/cri/server/events.go: "TaskOOM event %+v"), logged at info level
                    r"\bTaskOOM event\b")),
    # Kubernetes image pull failures (kubelet events "Failed to pull image", "Back-off pulling image",
    # reasons ErrImagePull / ImagePullBackOff; registry "manifest unknown", "pull access denied").
    Cause("image_pull", "the container image could not be pulled",
          ("ErrImagePull", "ImagePullBackOff", "Back-off pulling image", "Failed to pull image", "manifest unknown",
           "pull access denied", "InvalidImageName", "ErrImageNeverPull", "failed to pull and unpack", "image service failed",
           "failed to extract layer", "failed to unpack", "ImageInspectError", "SignatureValidationFailed", "RegistryUnavailable"),
          (), 1, ROOT,
          "the image reference is wrong or not readable from the cluster: check the image name and digest "
          "(`irisrl validate`), the registry credentials (imagePullSecrets) and that the tag was pushed",
          # (and the kubelet's other image reasons, pkg/kubelet/images/types.go: ImageInspectError, SignatureValidationFailed,
          # RegistryUnavailable)
          families=(r"ErrImagePull|ImagePullBackOff|ErrImageNeverPull|InvalidImageName|ImageInspectError|SignatureValidationFailed|"
                    r"RegistryUnavailable|Back-off pulling image|"
                    r"Failed to pull image|manifest unknown|pull access denied|failed to pull and unpack image|"
                    # containerd's unpacker (core/unpack, ctr): a layer that cannot be extracted onto the snapshot
                    r"failed to (?:extract|unpack) (?:layer|image)\b",
                    # the kubelet's CRI client (kubernetes pkg/kubelet/cri/remote/remote_image.go: klog
                    # "PullImage from image service failed"; before 1.20 glog "PullImage %q from image
                    # service failed: %v"): the runtime refused the pull, whatever its reason
                    r"PullImage\b[^\n]{0,300}?from image service failed")),
    # Kubernetes eviction ("The node was low on resource: memory", reason Evicted) and preemption;
    # Iris task states PREEMPTED / EVICTED (observe/task_status.py).
    Cause("evicted", "the pod was evicted or preempted",
          ("low on resource", "Evicted", "evicted", "reempt", "EVICTED", "PREEMPTED", "had condition", "nterruption",
           "ContainerStatusUnknown", "imminent node shutdown", "EvictionByEvictionAPI", "DeletionByTaintManager",
           "Unknown  ",   # (a kubectl row's padded status column, not every "Unknown")
           "exceeds the limit", "ephemeral storage limit", "DisruptionTarget",
           "TerminationByKubelet", "WORKER_FAILED", "reconcile failure"),
          (), 3, ROOT,
          "the node reclaimed the pod (resource pressure or a higher-priority job): with --max-retries >= 1 the "
          "gang is brought up again; request resources that leave the node headroom (ephemeral storage, memory)",
          # Not vLLM's scheduler preempting a sequence ("Sequence group N is preempted by
          # PreemptionMode.RECOMPUTE"): only a pod / task / node being evicted or preempted.
          # Nor a library's list of what MIGHT have happened ("This can happen if the node was
          # preempted", Ray's NodeDiedError text): the line reports something else.
          exclude=r"(?i:can happen (?:if|when|because)|possible (?:root )?(?:causes?|reasons?))[^.]*\b(?:preempted|evicted)",
          # (Iris's count and its controller's pass: the orchestrator retries a preempted task, so they are a death only
          # once the run crashed)
          soft=r"\bpreemptions=\d|\bPreemption pass: ",
          families=(r"The node was low on resource|\bEvicted\b|state=(?:PREEMPTED|EVICTED)\b|[Pp]reempted by (?!PreemptionMode)|"
                    r"\b(?:[Pp]od|[Tt]ask|[Cc]ontainer|[Nn]ode|VM|[Ii]nstance)s?\b[^.]{0,60}\b(?:was |been )?(?:evicted|preempted)\b|"
                    # (Iris's controller and status in their words, marin-iris 0.2.20: "Preemption pass: 1 tasks preempted",
                    # a job's "preemptions=1" count, current set 52)
                    r"\bpreemptions=[1-9]\d*\b|"
                    r"The node had condition: \[\w+Pressure\]|(?i:spot (?:instance )?interruption)|"
                    # kubelet's graceful node shutdown (pkg/kubelet/nodeshutdown: "Pod was terminated in
                    # response to imminent node shutdown.")
                    r"terminated in response to imminent node shutdown|"
                    # the pod's DisruptionTarget condition reasons (kubernetes pkg/apis/core/types.go @ v1.31:
                    # PodReasonPreemptionByScheduler, EvictionByEvictionAPI, DeletionByTaintManager,
                    # TerminationByKubelet) and a cloud's preemption notice to the VM (GCE metadata server's
                    # `instance/preempted`, Iris's worker "GCP preempt signal received from metadata server")
                    r"\b(?:PreemptionByScheduler|EvictionByEvictionAPI|DeletionByTaintManager|TerminationByKubelet)\b|"
                    r"(?i:\bpreempt(?:ion)? (?:signal|notice) received)|"
                    # a trainer's own preemption callback (NeMo 2.3 lightning/pytorch/callbacks/preemption.py "Preemption detected,
                    # saving checkpoint and exiting")
                    r"\bPreemption detected\b",
                    # Iris's own word for a task whose worker (the node or pod beneath it) failed: the job state in its
                    # client's JobFailedError ("JOB_STATE_WORKER_FAILED: Evicted", "...: Pod not found") and our status
                    # line's state, and the controller giving up on a worker it cannot reconcile (marin lib/iris
                    # cluster/controller/controller.py "worker reconcile failure threshold exceeded"; source sets
                    # iris_stack, iris_newest)
                    r"\b(?:JOB|TASK)_STATE_WORKER_FAILED\b|\bstate=WORKER_FAILED\b|\bworker reconcile failure threshold exceeded\b",
                    # a `kubectl get pods` row whose container the kubelet lost (evicted, node gone)
                    r"\d+/\d+\s+(?:ContainerStatus)?Unknown\s+\d|"
                    # the kubelet's eviction messages (kubernetes pkg/kubelet/eviction/helpers.go @ 008b3652: "Usage of
                    # EmptyDir volume %q exceeds the limit %q. ", "Container %s exceeded its local ephemeral storage limit
                    # %q. "), a Job's pod failure policy matching a disruption (pkg/controller/job/pod_failure_policy.go:
                    # "Pod %s has condition DisruptionTarget matching FailJob rule at index %d")
                    r"Usage of EmptyDir volume \S+ exceeds the limit|exceeded its local ephemeral storage limit|"
                    r"has condition DisruptionTarget\b")),
    # The catch-all for a process that died on something no cause above names: the interpreter's
    # own ("Fatal Python error"), libstdc++'s "terminate called after throwing", a signal; and
    # any uncaught exception by its class (observe/exceptions.py), which is fatal once that
    # process ended (an exit / terminate line, a non-zero exit code, a failed task status).
    Cause("python_crash", "a process died on an uncaught exception or signal",
          ("Fatal Python error", "terminate called", "Segmentation fault", "segmentation fault", "core dumped", "SIGSEGV", "SIGABRT",
           "(exitcode:", "terminated with the following error", "Aborted", "Bus error", "Illegal instruction",
           "Floating point exception", "exitcode", "Worker group failed", "Root Cause", " FAILED", "enable traceback",
           "CrashLoopBackOff", "Error ",
           "Back-off restarting", "Segfault", "Check failed", "ERROR", "received by PID", "terminated with signal",
           "back-off", "terminated with code", "Unhandled error", "level=fatal", "level=panic", "FATA[", "PANI[", "FATAL",
           "panic: ", "fatal error: ", "Observed a panic", "Trials did not complete", "input_type=", "SIGKILL(", "SIGTERM(", "RPC agent for", "On WorkerInfo(", "iris.rpc.interceptors",
           # a shell's job report of the signal that ended its child (and its zh_CN words)
           *E.SIGNAL_TEXTS, *E.ZH_SIGNAL_WORDS.split("|")),
          (), 8, ROOT,
          "the line names the exception and where: fix that error (the traceback above it), or report it upstream "
          "with the versions in the image; a worker ended by SIGKILL (signal 9, exitcode -9) inside a running "
          "container was usually killed by the host's OOM killer (check dmesg / host RAM), else by a kill -9",
          families=(r"Fatal Python error|terminate called (?:after throwing|without an active exception|recursively)|"
                    r"(?i:segmentation fault)|Segfault encountered|core dumped|\bSIG(?:SEGV|ABRT|BUS|ILL)\b",
                    # one refusal of a pydantic ValidationError, on its own indented line under "N validation errors for
                    # <Model>" (pydantic-core's display: "  {msg} [type={type}, input_value={input}, input_type={type}]"):
                    # a config or argument value the model refused (vLLM's EngineArgs / ModelConfig, any pydantic config)
                    r"\[type=[a-z_]+, input_value=.*, input_type=\w+\]\s*$",
                    # glog / Ray C++ fatal checks (`F0213 ...` / Ray's `C` level): "Check failed: <cond>"
                    r"(?:\d [CF] \d+ \d+\]|[CF][01]\d{3} \d\d:\d\d:\d\d)[^\n]*Check failed",
                    # DeepSpeed's launcher killing the group after a rank failed
                    # (deepspeed/launcher/launch.py sigkill_handler, `[ERROR] [launch.py:N:sigkill_handler]`)
                    r"sigkill_handler\]",
                    # the same handler's report of the child it reaped (`logger.error(f"{cmd} exits with
                    # return code = {returncode}")`, -9 for a SIGKILLed rank), whatever the cmd list looks like
                    r"\bexits with return code = " + E.FAILED_CODE,
                    # Ray python/ray/_private/worker.py: a failed task / actor call whose ObjectRef nobody
                    # read ("Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::X.m() ...");
                    # the task's own exception follows on later lines
                    r"Unhandled error \(suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'\)",
                    # torch/distributed/elastic/multiprocessing/api.py: a child of torchrun failed
                    r"failed \(exitcode: " + E.FAILED_CODE + r"\) local_rank: \d+",
                    # torch elastic's ProcessFailure for a negative exit code ("Signal %d (%s) received by
                    # PID %d", torch/distributed/elastic/multiprocessing/errors/__init__.py) and
                    # torch.multiprocessing's ProcessExitedException ("process %d terminated with signal
                    # %s", torch/multiprocessing/spawn.py): a worker killed by a signal
                    r"(?i:signal) \d+ \(SIG[A-Z]+\d?\) received by PID|process \d+ terminated with signal SIG[A-Z]+\d?",
                    # (joblib's loky TerminatedWorkerError detail "The exit codes of the workers are {SIGKILL(-9)}": a
                    # signal by name with its negative code, as Python's multiprocessing reports it)
                    r"\bSIG[A-Z]+\d?\(-\d+\)",
                    # torch.distributed.rpc: the TensorPipe agent losing its peer mid-call (torch/csrc/distributed/rpc/
                    # tensorpipe_agent.cpp "RPC agent for %s encountered error when reading incoming response from %s: %s")
                    # and a remote exception's header ("On WorkerInfo(id=1, name=rollout):", then the callee's traceback),
                    # as current set 49 prints them
                    r"\bRPC agent for \S+ encountered error when (?:reading|writing|sending)\b|^On WorkerInfo\(id=\d+, name=[^)]*\):\s*$",
                    # Iris's RPC layer logging a call the controller refused, with the controller's reason (marin-iris 0.2.20
                    # iris.rpc.interceptors "RPC %s failed after %dms: %s": "Job /root/x already exists and is still
                    # running", "client is too old", "cannot submit production jobs"; current set 53): the caller's request
                    r"\biris\.rpc\.interceptors RPC \w+ failed after \d+ms: ",
                    # torch/multiprocessing/spawn.py ProcessRaisedException's header; a shell reporting
                    # its child's SIGABRT ("line 1:  493 Aborted  cmd")
                    r"-- Process \d+ terminated with the following error|line \d+:\s+\d+ Aborted\b|Aborted \(core dumped\)",
                    # a launcher reporting its child's non-zero exit (Lightning fabric
                    # strategies/launchers/subprocess_script.py _ChildProcessObserver: "Child process with
                    # PID %d terminated with code %d. Forcefully terminating all other processes to avoid
                    # zombies", logged at INFO; Lightning 2.0 .. 2.5)
                    r"\bPID \d+ terminated with code -?[1-9]",
                    # the shell's signal word alone, torch elastic's failure report and agent, a pod
                    # row whose container crashed (observe/exceptions.py grammars)
                    E.SHELL_SIGNAL.pattern, E.ELASTIC_FAILED.pattern,
                    E.KUBECTL_POD_ROW + r"(?:Init:)?(?:Error|CrashLoopBackOff)\s+\d",
                    # the kubelet restarting a container that keeps crashing (event reason BackOff,
                    # `kubectl describe pod` "Reason: CrashLoopBackOff")
                    E.KUBELET_CRASHLOOP.pattern,
                    # a fatal-level record: its logger ends the process after it (exceptions.FATAL_RECORD)
                    E.FATAL_RECORD.pattern,
                    # a Go component's recovered panic, logged by k8s.io/apimachinery's HandleCrash ("Observed a
                    # panic", then it panics again unless ReallyCrash is off; kubernetes/kubernetes
                    # staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go @ 1892e4deb967a2b39cfc2fea87a8bd49274449ef)
                    r"\bObserved a panic\b|"
                    # Ray Tune's end with failed trials: TuneError("Trials did not complete", trials), or the
                    # same words at ERROR when raise_on_failed_trial is off (ray-project/ray
                    # python/ray/tune/tune.py @ 49d8e05dcb78ea21b0aa24f949e1be7b6ac168fc)
                    r"\bTrials did not complete\b")),
    # The retry wrapper's line (MarinSkyRL 0b2b05b, load_pretrained_with_retry's warning): it clears
    # the HF causes before it on the same rank (ordered by the per-stream clock: see _retried).
    Cause("hf_retry", "the HF retry wrapper caught an error", ("transient HF weight", "load_pretrained_with_retry"),
          (HF_RETRY_PATTERN,), 4, ROOT, "nothing: benign", fatal=False, marker=True),
    # Judged from the runtime's liveness samples (observe/liveness.py), not from a line: a rank
    # whose work processes made no progress for --hang-after. A consequence: a root cause line
    # (an OOM on the rank its peers wait on) names the death before it. Flight recorder variables:
    # pytorch docs torch_nccl_environment_variables (TORCH_NCCL_DUMP_ON_TIMEOUT needs a trace buffer
    # > 0); TORCH_FR_BUFFER_SIZE is its newer name (pytorch/torchtitan 7b98a3645f8f, distributed/utils.py).
    Cause("hang", "a rank made no progress (no CPU, bytes, wakeups; same wait channel and stack) for --hang-after",
          (), (), 9, CONSEQUENCE,
          "look where it sits: the evidence names its wait channel and Python stack (py-spy dump --pid PID on the "
          "node for all threads, --native for C frames); a rank in a collective waits on the culprit rank named "
          "first: read that rank's stack; NCCL: run with the flight recorder on (TORCH_FR_BUFFER_SIZE, older torch "
          "TORCH_NCCL_TRACE_BUFFER_SIZE, > 0 and TORCH_NCCL_DUMP_ON_TIMEOUT=1) to see which collective each rank entered",
          derived=True),
)

BY_KIND: dict[str, Cause] = {c.kind: c for c in CATALOGUE}
# The same causes named by the family vocabulary alone: same kind, title and fix; `guessed` says how.
GUESSED: dict[str, Cause] = {row.kind: dataclasses.replace(BY_KIND[row.kind], guessed="vocabulary") for row in V.TABLE}
NEEDLES: tuple[str, ...] = tuple(dict.fromkeys(n for c in CATALOGUE for n in c.needles))
_KEYS = re.compile("|".join(re.escape(n) for n in NEEDLES))
_COMPILED: tuple[tuple[Cause, Any, Any], ...] = tuple(
    (c, re.compile("|".join(f"(?:{p})" for p in c.patterns + c.families)), re.compile(c.exclude) if c.exclude else None)
    for c in CATALOGUE if c.patterns or c.families)
# An exception-shaped line: only such lines are read by class (a cheap test before the parse).
_EXC_HINT = re.compile(r"(?:" + E.CLASS_SUFFIX + r"|OutOfResources|Timeout|TimedOut|ExceptionGroup|" + E.ITERATION_END + "|" + E.QUEUE_CLASS + r")\b|"
                       r"\bsocket\.(?:gai|h)?error\b|\b(?:exceptions?|errors?|exc)\.[A-Z]|" + E.AT_MESSAGE + r"(?:[a-z_]\w*\.)+_?[A-Z]\w*: |^E {2,}[\w.]*[A-Z]\w*: ")
# A class name whose "message" is a bare count, ending the line: a tally of errors by type (an
# end-of-run summary's "Errors by type" table), not an exception. Only inside a record printed at
# INFO / DEBUG level (V.notice_level): a notice never states a death, and an uncaught `KeyError: 2`
# (the key 2) prints no level at all.
_TALLY = re.compile(r"(?:^|[\s\]|])[\w.]*[A-Z]\w*(?:Error|Exception|Interrupt|Exit): \d+\s*$")


# A failure named only as what the line guards against (vocabulary.PRECAUTION): not a report of it.
AVOIDED = re.compile(r"(?i)" + V.PRECAUTION + "$")


def _reported(rx: re.Pattern[str], text: str) -> bool:
    """Some match of `rx` in `text` reports the failure (is not a precaution against it)."""
    return any(not AVOIDED.search(text, 0, m.start()) for m in rx.finditer(text))


def _by_pattern(text: str) -> Cause | None:
    found = _KEYS.search(text)
    if found is None:
        return None
    for cause, rx, exclude in _COMPILED:
        if any(n in text for n in cause.needles) and rx.search(text) and not (exclude and exclude.search(text)) \
                and _reported(rx, text):
            return cause
    return None


def classify(text: str) -> tuple[Cause | None, E.Exc | None]:
    """The cause a cleaned log line reports (the most specific one) and the exception it states.
    Order: a library family's message stem (the most specific), then the exception's class
    whatever its module path (wrappers unwrapped), then the HTTP status of a Hub error, then any
    other uncaught exception as python_crash."""
    if ") is false: " in text:
        text = V.CHECK_CONDITION_RX.sub("", text)   # a failed check's condition asserts nothing
    text = V.MENU_RX.sub(r"\1", text)               # nor the menu of names a refusal lists
    if text.rstrip()[-1:].isdigit() and _TALLY.search(text) and V.notice_level(text):
        return None, None
    if E.SUCCEEDED_ROW.match(text):
        return None, None
    cause = _by_pattern(text)
    exc = E.parse(text) if _EXC_HINT.search(text) else None
    if cause is not None and cause.kind == "python_crash" and (thrown := E.terminate_kind(text)):
        return BY_KIND[thrown], exc       # terminate called on a c10::CUDAError: the type names it
    if cause is not None and cause.kind == "python_crash" and E.FATAL_RECORD.search(text):
        return guess(text) or cause, exc   # a fatal record says what it died of as an exception's message does
    if cause is not None and cause.kind == "python_crash" and (said := V.CATALOGUE.search(text)):
        # a process's end (an exit code, a signal) stated with a library's own failure text: "Rank 0
        # scheduler is dead. Exit code: -6 (SIGABRT)" is SGLang's engine dying, named by that text
        # alone (not the signal's words; nor a command line's, a script named *_nccl_timeout)
        return guess(said.group(0)) or cause, exc
    if cause is not None:
        return _actor_or_engine(cause, text), exc
    kind = (E.class_kind(exc) or E.timeout_kind(exc, text)) if exc is not None else None
    status = E.hub_status_kind(text)
    if kind is not None and not (status is not None and exc is not None and exc.name in E.STATUS_DECIDES):
        return _actor_or_engine(BY_KIND[kind], text), exc
    if status is not None or kind is not None:
        return BY_KIND[status or kind or ""], exc
    if exc is not None and E.is_crash_class(exc):
        # (a validator's refusal is the caller's value, not the family its module or message names: vllm.exceptions'
        # "VLLMValidationError: n must be at least 1" is no engine's death)
        return (None if E.refused_input(exc) else guess(text)) or BY_KIND["python_crash"], exc
    return None, exc


def _actor_or_engine(cause: Cause, text: str) -> Cause:
    """A Ray actor's death that the line says was an inference engine's ("Inference engine 0 died
    (RayActorError)": SkyRL's engines are Ray actors) is the engine's death, the more specific kind."""
    if cause.kind == "ray_actor_died" and V.ENGINE_DIED.search(text):
        return BY_KIND["engine_dead"]
    return cause


def guess(text: str) -> Cause | None:
    """The family vocabulary's kind for an error-shaped line no specific rule names
    (observe/vocabulary.py), as a guessed cause (fatal only once its process ended)."""
    kind = V.kind(text)
    return GUESSED[kind] if kind is not None else None


def match(text: str) -> Cause | None:
    """The cause a cleaned log line reports, or None (one regex search for most lines)."""
    return classify(text)[0]


@dataclass(slots=True, repr=False)
class CauseEvent:
    """The first line of one cause on one rank, and when it was last seen (for retries)."""
    kind: str
    rank: str | None
    evidence: str
    t: float | None
    seq: int
    count: int = 1
    last_t: float | None = None
    last_seq: int = 0
    # every line of it was printed at warning level (read from the raw line: reported evidence
    # loses the logger's level header)
    warn: bool = False
    # every line of it was guessed (how: Cause.guessed), else ""
    guessed: str = ""


def record(events: list[CauseEvent], kind: str, rank: str | None, evidence: str, t: float | None, seq: int,
           guessed: str = "", quiet: bool = False) -> None:
    """Remember a cause line: the first per (kind, rank) with its text, later ones as count/last.
    A python_crash keeps the LATEST line instead: a process ends on its last uncaught exception,
    and an earlier one it went past (an agent's tool error, a caught-and-logged exception) is not
    what killed it."""
    warn = quiet or E.is_warning_level(evidence)     # quiet: printed at INFO / DEBUG level
    for ev in events:
        if ev.kind == kind and ev.rank == rank:
            ev.count += 1
            ev.last_t, ev.last_seq = t, seq
            ev.warn = ev.warn and warn
            ev.guessed = ev.guessed if ev.guessed and guessed else ""
            if kind == "python_crash":
                ev.evidence, ev.t, ev.seq = evidence, t, seq
            return
    if len(events) < MAX_CAUSE_KEYS:
        events.append(CauseEvent(kind, rank, evidence, t, seq, 1, t, seq, warn, guessed))


class LogPosition(Protocol):
    """Where a line sits in the log: its log time (None when undated) and its arrival order.
    state.Event and _Seen both are one."""
    @property
    def t(self) -> float | None: ...
    @property
    def seq(self) -> int: ...


def _later(t: float | None, seq: int, other: LogPosition | None) -> bool:
    """Same ordering as state.Event.later_than: log time first, arrival order on ties/unknown."""
    if other is None:
        return True
    if t is not None and other.t is not None and t != other.t:
        return t > other.t
    return seq > other.seq


@dataclass(frozen=True)
class Finding:
    """One cause as the verdict sees it."""
    cause: Cause
    event: CauseEvent
    # "fatal" | "cleared" (retried) | "warning" (not fatal on its own here) | "teardown" (after the run's end)
    status: str

    def to_dict(self) -> dict[str, Any]:
        ev = self.event
        return {"kind": self.cause.kind, "rank": ev.rank, "time": iso_time(ev.t), "line": ev.evidence,
                "fix": self.cause.fix, "rung": self.cause.rung, "status": self.status, "count": ev.count,
                **({"guessed": ev.guessed} if ev.guessed else {})}


def iso_time(t: float | None) -> str | None:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)) if t is not None else None


class _Seen(NamedTuple):
    """A (time, arrival) position in the log."""
    t: float | None
    seq: int


def _retried(ev: CauseEvent, retries: dict[str | None, CauseEvent], retry: LogPosition | None) -> bool:
    """A retry line after the error's last line, on the same rank when that rank retried, else
    anywhere. One ordering for both layouts: an undated line takes its time only from its own
    task stream (analyzer), so log time orders a rank's lines and arrival order breaks ties."""
    same = retries.get(ev.rank) if ev.rank is not None else None
    after: LogPosition | None = _Seen(same.last_t, same.last_seq) if same is not None else retry
    return after is not None and _later(after.t, after.seq, _Seen(ev.last_t, ev.last_seq))


def _status(cause: Cause, ev: CauseEvent, retries: dict[str | None, CauseEvent], retry: LogPosition | None,
            crash: LogPosition | None, multinode: bool | None, finished: LogPosition | None,
            ended: dict[str, list[Any]] | None = None) -> str:
    if finished is not None and _later(ev.t, ev.seq, finished) and (
            cause.tier == CONSEQUENCE or ev.warn or cause.kind == "python_crash" or ev.guessed):
        # after the run's own end line: workers and actors going away, Ray's shutdown RPCs (RpcError
        # "Cancelling all calls", "Failed to mark the local node as draining"), gloo's "Connection
        # closed by peer": teardown, neither a death nor a warning. A root cause stated outright
        # (an OOM) is still what it is.
        return U.TEARDOWN
    if (cause.soft and re.search(cause.soft, ev.evidence)) or ev.warn:
        # A wait (the cause's soft stems) or any line printed at warning level (a retry such as
        # c10d's "client failed to connect ... retrying"): named, never a death on its own.
        return "fatal" if crash is not None and _later(crash.t, crash.seq, _Seen(ev.t, ev.seq)) else "warning"
    if cause.kind == "python_crash" or (ev.guessed and not cause.cleared_by_retry) or (
            cause.until_ended and re.search(cause.until_ended, ev.evidence)):
        # An exception is a crash once its process ended (observe/unrecognized.py's evidence).
        return "fatal" if U.ended_after(ended or {}, ev.rank, ev.t, ev.seq, crash) else "warning"
    if cause.cleared_by_retry:
        if _retried(ev, retries, retry):
            return "cleared"
        return "fatal" if crash is not None else "warning"
    if cause.multinode_only and not multinode:
        return "warning"
    return "fatal" if cause.fatal else "warning"


def assess(events: Iterable[CauseEvent], retry: LogPosition | None = None, crash: LogPosition | None = None,
           multinode: bool | None = None, finished: LogPosition | None = None,
           ended: dict[str, list[Any]] | None = None) -> list[Finding]:
    """Findings in log order. `retry`/`crash`/`finished`: the analyzer's latest HF-retry, crash
    and run-finished events (objects with .t and .seq); `multinode`: whether the gang has more
    than one node; `ended`: rank -> [t, seq] of the latest evidence that its process ended."""
    events = list(events)
    retries = {ev.rank: ev for ev in events if ev.kind == "hf_retry"}
    out = []
    for ev in events:
        cause = BY_KIND.get(ev.kind)
        if cause is None or cause.marker:
            continue
        status = _status(cause, ev, retries, retry, crash, multinode, finished, ended)
        if status == "fatal" and ev.kind == "hf_weights_missing" and STALE_IMAGE_FILE in ev.evidence:
            cause = BY_KIND["stale_image_crash"]
        out.append(Finding(cause, ev, status))
    return sorted(out, key=lambda f: (f.event.t is None, f.event.t or 0.0, f.event.seq))


def cause_of_death(findings: Iterable[Finding]) -> Finding | None:
    """The fatal finding of the lowest tier (root causes before their consequences), a named
    cause before one the family vocabulary guessed, both before the catch-all python_crash,
    earliest first."""
    fatal = [f for f in findings if f.status == "fatal"]
    if not fatal:
        return None
    return min(fatal, key=lambda f: (f.cause.tier, 2 if f.cause.kind == "python_crash" else int(bool(f.event.guessed)), f.event.t is None,
                                     f.event.t or 0.0, f.event.seq))


def describe(finding: Finding) -> str:
    """One line for reasons and the watchdog: kind, where, when, the line."""
    ev = finding.event
    where = ", ".join(p for p in (f"rank {ev.rank}" if ev.rank is not None else "", iso_time(ev.t) or "",
                                  f"{ev.count}x" if ev.count > 1 else "", f"guessed by {ev.guessed}" if ev.guessed else "") if p)
    return f"{finding.cause.kind}" + (f" ({where})" if where else "") + f": {ev.evidence}"


def vocabulary_table() -> str:
    """docs/REFERENCE.md's cause vocabulary (Markdown), from the catalogue: `python -m irisrl.observe.causes`."""
    rows = ["| kind | what the line says | rung | KILL on its own | fix |", "|---|---|---:|---|---|"]
    for c in CATALOGUE:
        if c.marker:
            continue
        kill = ("once the run crashed with no retry after it" if c.cleared_by_retry else
                "when the gang has more than one node" if c.multinode_only else
                "derived: no liveness progress for --hang-after (180 s), the rank its peers wait on" if c.kind == "hang" else
                "derived: missing model.safetensors, no retry, then a crash" if c.derived else "yes")
        rows.append(f"| `{c.kind}` | {c.title} | {c.rung} | {kill} | {c.fix} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(vocabulary_table())
