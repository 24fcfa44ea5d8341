"""`irisrl export JOB`: the final (or `--step N`) policy of a finished run exported to the
Hugging Face Hub as its own job on Iris (the saved policy's GPU gang), followed to the end, then the Hub repo
checked for the files a portable HF model needs.

irisrl does not convert checkpoints: the job runs the image's own export entrypoint, as
MarinSkyRL's launcher does (marin-community/MarinSkyRL cloud/iris/export_hf_checkpoint.py and
terminal_policy.py @ 0f25366d / 05cb3a64: `skyrl_train.entrypoints.checkpoint_export` with
`++checkpoint_export.{step,checkpoint_path,export_root,hf_hub_repo_id,hf_hub_private,
hf_hub_revision,hf_upload_mode}`; the job is named `<job>-export-<step>` and never retried).
The entrypoint publishes with huggingface_hub (skyrl_train/hf_publisher.py: create_repo, then
upload_folder at the repo root; `hf_upload_mode: all` also under `checkpoints/step_<N>`).
The files checked afterwards are MarinSkyRL's minimum HF export contract
(cloud/iris/export_contract.py @ 0cbe68fa `validate_hf_export`): config.json, a weight shard
(*.safetensors / *.bin), a tokenizer file (tokenizer* / *.model).

The job's resources follow the source (`export_geometry`): the saved policy's GPUs on whole
nodes, for every strategy. MarinSkyRL's exporter creates one policy worker per saved policy rank
(trainer.placement.policy_num_nodes x policy_num_gpus_per_node, one GPU each, in a STRICT_SPREAD
placement group; fsdp/fsdp2/deepspeed/megatron alike: skyrl-train/skyrl_train/checkpoint_exporter.py
@ 292a86b0 policy_export_workers; terminal_policy.py @ 0f25366d policy_export_geometry), and
the export job asks for those nodes with the training allocation's GPUs per node (never fewer
than the policy's), its GPU variant and per-node cpu/memory/disk (export_hf_checkpoint.py after
05cb3a64: ExportJobSpec.allocated_gpus_per_node, export_terminal_policy; its tests
test_checkpoint_export_config.py @ 362ba384, test_export_hf_checkpoint.py @ 04a82f3b). A gang of
more than one node is coscheduled and runs through irisrl's runtime controller (one Ray cluster
over the gang, the command on rank 0), as a launch does. `--cpu-only` is irisrl's own escape
hatch (no source exports on CPU: use it with an --export-entrypoint that converts there, e.g. on
the local cluster in tests). Where irisrl still differs: the checkpoint is found by the trainer's
own marker, not by an hf_export_request.json (`checkpoint_dir` below)."""

from __future__ import annotations

import shlex
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, TypedDict, cast

from irisrl.config.hydra_args import last_override
from irisrl.core.states import ACTIVE
from irisrl.util.errors import IrisrlError, UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from irisrl.backends.base import Backend, JobSnapshot
    from irisrl.plan.model import LaunchPlan
    from irisrl.plan.request import IrisRequest

EXPORT_MODULE = "skyrl_train.entrypoints.checkpoint_export"   # cloud/iris/runtime_environment.py
DEFAULT_ENTRYPOINT = ("python", "-m", EXPORT_MODULE)
SKYRL_REF_MODULE = "irisrl.runtime.skyrl_ref"   # checks out the run's --skyrl-ref, then runs the command
DEFAULT_TIMEOUT_S = 7200.0     # skyrl_train/hf_export_schema.py DEFAULT_HF_EXPORT_TIMEOUT
DEFAULT_REVISION = "main"      # DEFAULT_HF_HUB_REVISION
UPLOAD_MODES = ("latest", "all")
PRIORITIES = ("production", "interactive", "batch")   # Iris priority bands (plan/request.py)
TOKEN = "HF_TOKEN"
# the operator's Hub is the job's Hub: a mirror or a test server named here reaches the job too
HUB_ENV_PASSED = ("HF_ENDPOINT", "HF_HUB_DISABLE_XET")
POLL_S = 1.0
HUB_DEADLINE_S = 120.0
CPU_ONLY = (8.0, "64GB", "256GB")   # --cpu-only's cpu, memory, disk unless given
DEFAULT_STRATEGY = "megatron"      # config/view.py: absent trainer.strategy is Megatron
SOURCE_CITE = ("MarinSkyRL skyrl_train/checkpoint_exporter.py @ 292a86b0, "
               "cloud/iris/export_hf_checkpoint.py export_terminal_policy (after 05cb3a64)")


class CheckpointJSON(TypedDict):
    root: str
    step: int
    path: str
    latest_complete: int


class GeometryJSON(TypedDict):
    nodes: int
    gpus_per_node: int
    gpu_variant: str
    cpu: float
    memory: str
    disk: str
    policy_nodes: int
    policy_gpus_per_node: int
    strategy: str
    layout: str
    why: str


class ExportJSON(TypedDict, total=False):
    source_job: str
    export_job: str
    repo: str
    revision: str
    checkpoint: CheckpointJSON
    expected_files: list[str]
    resources: GeometryJSON
    request: dict[str, object]   # plan/request.py IrisRequest.to_dict(): secret values masked
    state: str
    exit_code: int | None
    error: str
    log_tail: list[str]
    files: list[str]
    missing: list[str]
    ok: bool


@dataclass(frozen=True)
class Checkpoint:
    root: str
    step: int
    path: str
    latest_complete: int

    def to_dict(self) -> CheckpointJSON:
        return {"root": self.root, "step": self.step, "path": self.path, "latest_complete": self.latest_complete}


@dataclass(frozen=True)
class ExportSettings:
    """What `irisrl export` was asked (flags); None means "from the run"."""
    repo: str | None = None                       # --export-hf; else the config's hf_hub_repo_id
    step: int | None = None                       # --step; else the latest complete checkpoint
    entrypoint: tuple[str, ...] = DEFAULT_ENTRYPOINT
    workspace: str | None = None                  # files the job needs (none for the image's entrypoint)
    revision: str = DEFAULT_REVISION
    private: bool = False
    upload_mode: str = "latest"
    cpu: float | None = None       # per node; None: the run's (GPU export), else CPU_ONLY's
    memory: str | None = None
    disk: str | None = None
    cpu_only: bool = False         # --cpu-only: no GPU (irisrl's own; no source exports on CPU)
    gpus: int | None = None        # --gpus per node; None: the run's node GPUs
    nodes: int | None = None       # --nodes; None: the saved policy's nodes
    timeout_s: float = DEFAULT_TIMEOUT_S
    secrets_env: str | None = None
    priority: str = "batch"   # export_hf_checkpoint.py's --priority default: an export is not urgent
    allow_queue: bool = False     # --allow-queue: submit a gang that can never fit the cluster now


@dataclass(frozen=True)
class ExportGeometry:
    """What the export job asks for, and why (shown by the dry run)."""
    nodes: int
    gpus_per_node: int             # 0: CPU only
    gpu_variant: str
    cpu: float
    memory: str
    disk: str
    policy_nodes: int
    policy_gpus_per_node: int
    strategy: str
    layout: str                    # "TP=8 PP=2" (megatron), "" otherwise
    why: str

    def to_dict(self) -> GeometryJSON:
        return cast(GeometryJSON, asdict(self))   # the same fields, by construction


@dataclass(frozen=True)
class ExportPlan:
    """The export job, resolved: `plan` is what backend.submit sends (plan/request.py)."""
    source_job: str
    checkpoint: Checkpoint
    repo: str
    revision: str
    upload_mode: str
    plan: LaunchPlan
    timeout_s: float
    geometry: ExportGeometry

    @property
    def job_id(self) -> str:
        return self.plan.job_id

    def request(self) -> IrisRequest:
        """The exact request backend.submit sends (secret values unmasked: render to_dict())."""
        from irisrl.plan.request import build_request

        return build_request(self.plan)

    def to_dict(self) -> ExportJSON:
        return {"source_job": self.source_job, "export_job": self.job_id, "repo": self.repo,
                "revision": self.revision, "checkpoint": self.checkpoint.to_dict(),
                "expected_files": list(expected_files(self.upload_mode, self.checkpoint.step)),
                "resources": self.geometry.to_dict(), "request": self.request().to_dict()}


@dataclass(frozen=True)
class ExportResult:
    export: ExportPlan
    state: str
    exit_code: int | None
    error: str = ""
    log_tail: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    missing: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.state == "succeeded" and not self.missing

    def to_dict(self) -> ExportJSON:
        data = self.export.to_dict()
        data.update({"state": self.state, "exit_code": self.exit_code, "error": self.error,
                     "log_tail": list(self.log_tail), "files": list(self.files), "missing": list(self.missing),
                     "ok": self.ok})
        return data


# ------------------------------------------------------------------------------ the run's facts
def _text(plan: Mapping[str, object], key: str, default: str = "") -> str:
    value = plan.get(key)
    return value if isinstance(value, str) else default


def _count(value: object) -> int:
    """A positive int from a plan value or a Hydra string; 0 when absent or not one."""
    text = str(value).strip() if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
    return int(text) if text.isdigit() else 0


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _layout(hydra: object, strategy: str) -> str:
    """The policy's model-parallel layout, for the dry run's "why" (megatron only)."""
    if strategy != "megatron":
        return ""
    mc = "trainer.policy.megatron_config"
    sizes = {"TP": _count(last_override(hydra, f"{mc}.tensor_model_parallel_size")) or 1,
             "PP": _count(last_override(hydra, f"{mc}.pipeline_model_parallel_size")) or 1,
             "CP": _count(last_override(hydra, f"{mc}.context_parallel_size")) or 1,
             "EP": _count(last_override(hydra, f"{mc}.expert_model_parallel_size")) or 1}
    return " ".join(f"{k}={v}" for k, v in sizes.items() if v > 1 or k in ("TP", "PP"))


def export_geometry(source: Mapping[str, object], settings: ExportSettings) -> ExportGeometry:
    """The export job's nodes, GPUs and per-node resources, from the run's recorded plan (its
    policy placement, strategy and allocation), as the source sizes it (module doc); --gpus /
    --nodes / --cpu / --memory / --disk override, --cpu-only asks for no GPU."""
    hydra = source.get("hydra_args")
    strategy = last_override(hydra, "trainer.strategy") or DEFAULT_STRATEGY
    layout = _layout(hydra, strategy)
    run_gpn = _count(source.get("gpus_per_node"))
    policy_nodes = _count(last_override(hydra, "trainer.placement.policy_num_nodes")) or \
        _count(source.get("num_nodes")) or 1
    policy_gpn = _count(last_override(hydra, "trainer.placement.policy_num_gpus_per_node")) or run_gpn
    if settings.cpu_only:
        if settings.gpus:
            raise UsageError("--cpu-only and --gpus ask for different things", "pass one of them")
        cpu, memory, disk = CPU_ONLY
        why = (f"CPU only (--cpu-only), not the source's way: MarinSkyRL converts on the saved policy's GPUs "
               f"({policy_nodes} x {policy_gpn} here) for every strategy ({SOURCE_CITE}); the image's "
               f"entrypoint waits for those GPUs, so use --cpu-only with an --export-entrypoint that converts on CPU")
        return ExportGeometry(settings.nodes or 1, 0, "", settings.cpu or cpu, settings.memory or memory,
                              settings.disk or disk, policy_nodes, policy_gpn, strategy, layout, why)
    resources = _mapping(source.get("resources"))
    variant = str(_mapping(resources.get("device")).get("variant") or "")
    gpus = settings.gpus if settings.gpus is not None else max(run_gpn, policy_gpn)
    nodes = settings.nodes or policy_nodes
    if gpus == 0:
        raise (UsageError("--gpus 0 asks for no GPU", "pass --cpu-only for a CPU-only export job")
               if settings.gpus == 0 else
               IrisrlError("the run's plan records no GPUs per node: the export job cannot be sized like it",
                           "pass --gpus N (per node) and --nodes M, or --cpu-only"))
    if gpus < policy_gpn or nodes < policy_nodes:
        raise IrisrlError(f"{nodes} node(s) x {gpus} GPUs cannot hold the saved policy's {policy_nodes} x "
                          f"{policy_gpn} ranks: the export loads one policy worker per saved rank ({SOURCE_CITE})",
                          f"ask for at least --nodes {policy_nodes} --gpus {policy_gpn}, or leave both out")
    cpu = settings.cpu or _float(resources.get("cpu"))
    memory = settings.memory or str(resources.get("memory") or "")
    disk = settings.disk or str(resources.get("disk") or "")
    if not (cpu and memory and disk):
        raise IrisrlError("the run's plan records no per-node cpu/memory/disk to size the export job like it",
                          "pass --cpu, --memory and --disk")
    told = " (--gpus/--nodes)" if settings.gpus is not None or settings.nodes else ""
    why = (f"{gpus} x {variant or 'GPU'} on each of {nodes} node(s){told}: the saved policy's placement "
           f"{policy_nodes} x {policy_gpn} GPUs (trainer.placement.policy_num_nodes / policy_num_gpus_per_node), "
           f"{' '.join(filter(None, (strategy, layout)))}; whole nodes of the run's allocation, as the source "
           f"exports for every strategy ({SOURCE_CITE})")
    return ExportGeometry(nodes, gpus, variant, cpu, memory, disk, policy_nodes, policy_gpn, strategy, layout, why)


def _float(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def gang_entrypoint(source: Mapping[str, object], job_name: str, gpus: int,
                    command: tuple[str, ...]) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    """(rendezvous dir, runtime argv, entrypoint) for a gang of more than one node: the command
    runs under irisrl's runtime controller (one Ray cluster over the gang, the command on rank
    0), as a launch's does, on a fresh rendezvous dir beside the run's (never the run's own)."""
    import os

    from irisrl.plan.build import BOOT, BOOT_NAME

    rdzv = _text(source, "rendezvous_dir")
    if not rdzv:
        raise IrisrlError("the run's plan has no rendezvous dir: a multi-node export job cannot form its Ray cluster",
                          "pass --nodes 1 if the saved policy fits one node, or relaunch with a storage root")
    fresh = f"{rdzv.rstrip('/').rsplit('/', 2)[0]}/{job_name}/{time.strftime('%Y%m%d-%H%M%S')}-{os.urandom(4).hex()}"
    kept = [x for flag, value in kept_runtime_flags(source).items() for x in (flag, value) if x is not None]
    runtime = ("--rendezvous-dir", fresh, "--gpus-per-node", str(gpus), *kept)
    return fresh, runtime, ("bash", "-c", BOOT, BOOT_NAME, *runtime, "--", *command)


def single_entrypoint(source: Mapping[str, object], command: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """(SkyRL ref, entrypoint) for a one-node export: the command itself, on the SkyRL commit
    the run moved to with --skyrl-ref where it did (runtime/skyrl_ref.py checks it out first:
    the image's baked checkout may predate what the run saved)."""
    from irisrl.plan.build import BOOT_NAME, boot_script

    kept = kept_runtime_flags(source)
    ref, root = kept.get("--skyrl-ref"), kept.get("--skyrl-root")
    if not (ref and root):
        return None, command
    return ref, ("bash", "-c", boot_script(SKYRL_REF_MODULE), BOOT_NAME, "--skyrl-ref", ref, "--skyrl-root", root,
                 "--", *command)


def kept_runtime_flags(source: Mapping[str, object]) -> dict[str, str | None]:
    """The run's runtime flags an export job keeps: its rendezvous timeout, local mode and
    SkyRL checkout (flag -> value; None for a bare flag)."""
    run_argv = source.get("runtime_argv")
    args = [str(a) for a in run_argv] if isinstance(run_argv, list) else []
    kept: dict[str, str | None] = {}
    for i, arg in enumerate(args):
        if arg in ("--rendezvous-timeout", "--park-interval", "--skyrl-ref", "--skyrl-root") and i + 1 < len(args):
            kept[arg] = args[i + 1]
        elif arg == "--local":
            kept[arg] = None
    return kept


# ------------------------------------------------------------------------------ the checkpoint
def checkpoint_dir(ckpt_root: str, step: int | None) -> Checkpoint:
    """The step dir to export under the run's checkpoint root: `step`, else the latest complete
    one, as `irisrl checkpoints` classifies them (ops/checkpoints.list_checkpoints: the trainer's
    `latest_ckpt_global_step.txt`, and a step dir with its trainer_state.pt at or below it)."""
    from irisrl.ops.checkpoints import STEP_PREFIX, list_checkpoints

    listing = list_checkpoints(ckpt_root, sizes=False)
    latest = listing.latest_complete
    if latest is None:
        raise IrisrlError(f"no complete checkpoint under {ckpt_root} ({'; '.join(listing.notes) or 'no step dirs'})",
                          "the trainer writes its marker after a checkpoint completes (trainer.ckpt_interval > 0); "
                          "nothing to export until one exists")
    chosen = latest.step if step is None else step
    found = next((c for c in listing.checkpoints if c.step == chosen and c.status in ("latest", "complete")), None)
    if found is None:
        raise IrisrlError(f"checkpoint {ckpt_root.rstrip('/')}/{STEP_PREFIX}{chosen} is not a complete checkpoint "
                          f"(latest complete: step {latest.step})",
                          f"export the latest (drop --step) or a complete step listed by `irisrl checkpoints`")
    return Checkpoint(ckpt_root.rstrip("/"), chosen, found.path, latest.step)


# --------------------------------------------------------------------------------- the request
def expected_files(upload_mode: str, step: int) -> tuple[str, ...]:
    """What the repo must hold afterwards, as patterns (checked by `missing_files`)."""
    root = ("config.json", "*.safetensors|*.bin", "tokenizer*|*.model")
    if upload_mode == "all":   # hf_publisher.py also archives the model under checkpoints/step_<N>
        return root + tuple(f"checkpoints/step_{step}/{p}" for p in root)
    return root


def missing_files(files: tuple[str, ...], upload_mode: str, step: int) -> tuple[str, ...]:
    """The expected patterns no file matches (at the repo root, or under the step archive)."""
    import fnmatch

    def has(pattern: str) -> bool:
        prefix, _, leaf = pattern.rpartition("/")
        names = [f[len(prefix) + 1:] for f in files if f.startswith(prefix + "/")] if prefix else \
            [f for f in files if "/" not in f]
        return any(fnmatch.fnmatch(n, alt) for n in names for alt in leaf.split("|"))

    return tuple(p for p in expected_files(upload_mode, step) if not has(p))


def export_args(ckpt: Checkpoint, repo: str, settings: ExportSettings, export_root: str) -> tuple[str, ...]:
    """The `++checkpoint_export.*` Hydra args MarinSkyRL's launcher sets (export_hf_checkpoint.py
    @ 05cb3a64 build_command)."""
    return (f"++checkpoint_export.step={ckpt.step}", f"++checkpoint_export.checkpoint_path={ckpt.path}",
            f"++checkpoint_export.export_root={export_root}", f"++checkpoint_export.hf_hub_repo_id={repo}",
            f"++checkpoint_export.hf_hub_private={str(settings.private).lower()}",
            f"++checkpoint_export.hf_hub_revision={settings.revision}",
            f"++checkpoint_export.hf_upload_mode={settings.upload_mode}")


def job_env(source: Mapping[str, object], token: str, environ: Mapping[str, str]) -> dict[str, str]:
    """The run's non-secret env (the image's library paths etc.), the HF token, and the Hub the
    operator points at. Secrets come only from the operator (the ledger keeps them masked); the
    store credentials are the pod's own (plan/request.py refuses AWS_*/R2_* in a pod env)."""
    from irisrl.config.masking import MASK

    env_raw = source.get("env")
    secret_raw = source.get("secret_env_keys")
    secret = {str(k) for k in secret_raw} if isinstance(secret_raw, list) else set()
    env = {str(k): str(v) for k, v in (env_raw.items() if isinstance(env_raw, dict) else ())
           if k not in secret and v != MASK and not str(k).startswith("IRISRL_")}
    env.update({k: environ[k] for k in HUB_ENV_PASSED if environ.get(k)})
    env[TOKEN] = token
    return env


def build_export(source_job: str, source: Mapping[str, object], settings: ExportSettings, token: str,
                 environ: Mapping[str, str]) -> ExportPlan:
    """Refuses (IrisrlError) what cannot be exported: no repo id, no checkpoint root, no
    complete checkpoint, resources that cannot hold the saved policy (`export_geometry`).
    `token` is checked by the caller (`hf_token`)."""
    from irisrl.plan.model import Device, LaunchPlan, Mode, Resources

    hydra = source.get("hydra_args")
    repo = settings.repo or last_override(hydra, "trainer.hf_hub_repo_id")
    if not repo:
        raise UsageError(f"no Hub repo for {source_job}: its config has no trainer.hf_hub_repo_id",
                         "pass --export-hf ORG/NAME")
    if settings.priority not in PRIORITIES:
        raise UsageError(f"--priority {settings.priority!r} is not one of {', '.join(PRIORITIES)}")
    if settings.upload_mode not in UPLOAD_MODES:
        raise UsageError(f"--upload-mode {settings.upload_mode!r} is not one of {', '.join(UPLOAD_MODES)}")
    ckpt_root = last_override(hydra, "trainer.ckpt_path")
    if not ckpt_root:
        raise IrisrlError(f"{source_job}'s plan has no trainer.ckpt_path: it wrote no checkpoints irisrl knows of",
                          "export only runs launched by irisrl with checkpoints on")
    ckpt = checkpoint_dir(ckpt_root, settings.step)
    # the source's default: <ckpt_path parent>/exports (export_hf_checkpoint.py manual_spec)
    export_root = last_override(hydra, "trainer.export_path") or f"{ckpt_root.rstrip('/').rsplit('/', 1)[0]}/exports"
    job_name = f"{_text(source, 'job_name', source_job.rsplit('/', 1)[-1])}-export-{ckpt.step}"
    entry = tuple(settings.entrypoint) or DEFAULT_ENTRYPOINT
    run_args = tuple(str(a) for a in hydra) if isinstance(hydra, list) else ()
    command = entry + run_args + export_args(ckpt, repo, settings, export_root)
    geo = export_geometry(source, settings)
    skyrl_ref: str | None = None
    if geo.nodes > 1:
        rdzv, runtime, entrypoint = gang_entrypoint(source, job_name, geo.gpus_per_node, command)
    else:
        rdzv, runtime = None, ()
        skyrl_ref, entrypoint = single_entrypoint(source, command)
    device = Device("gpu", geo.gpu_variant, geo.gpus_per_node) if geo.gpus_per_node else Device("cpu", "", 0)
    env = job_env(source, token, environ)
    secret_keys: tuple[str, ...] = (TOKEN,)
    ports: tuple[str, ...] = ()
    if geo.nodes > 1:   # the runtime's Ray: its ports and this gang's own Ray token, as a launch's
        from irisrl.plan.build import ray_auth_env
        from irisrl.runtime import contract

        env.update(ray_auth_env())
        secret_keys, ports = (TOKEN, contract.ENV_RAY_AUTH_TOKEN), contract.RUNTIME_PORTS
    mode: Mode = "local" if _text(source, "mode") == "local" else "remote"
    plan = LaunchPlan(
        job_name=job_name, user=_text(source, "user", source_job.strip("/").split("/")[0]),
        cluster=_text(source, "cluster"), image=_text(source, "image"), num_nodes=geo.nodes,
        gpus_per_node=geo.gpus_per_node, total_gpus=geo.nodes * geo.gpus_per_node,
        coscheduling={"group_by": "leafgroup"} if geo.nodes > 1 else None,   # as plan/build.py's gang
        resources=Resources(cpu=geo.cpu, memory=geo.memory, disk=geo.disk, device=device),
        priority=settings.priority, max_retries=0,   # never retried into a second export
        rendezvous_dir=rdzv, skyrl_ref=skyrl_ref, entrypoint=entrypoint, runtime_argv=runtime, command=command,
        hydra_args=(), env=env, secret_env_keys=secret_keys, ports=ports,
        placement_groups=(), budget={}, findings=(), mode=mode, role="export",
        workspace=settings.workspace or "", config_path=_text(source, "config_path"),
        config_sha256=_text(source, "config_sha256"), hparams_fingerprint=_text(source, "hparams_fingerprint"),
        model_path=_text(source, "model_path") or None, tags={"kind": "hf-export", "source": source_job})
    return ExportPlan(source_job, ckpt, repo, settings.revision, settings.upload_mode, plan, settings.timeout_s, geo)


def hf_token(secrets_env: str | None, environ: Mapping[str, str] | None = None) -> str:
    """HF_TOKEN from the secrets irisrl forwards (config/secrets.py: environment, then the
    secrets file); refused when absent. Never printed."""
    from irisrl.config.secrets import allowlist, collect_secrets

    found = collect_secrets(allowlist(), secrets_env, environ).values.get(TOKEN, "")
    if not found:
        raise IrisrlError(f"{TOKEN} is not set: the export job uploads to the Hub with it",
                          f"export {TOKEN}=... or put it in the file given by --secrets-env / $DC_AGENT_SECRET_ENV")
    return found


# ------------------------------------------------------------------------- running, checking
def run_export(backend: Backend, export: ExportPlan, token: str, poll_s: float = POLL_S,
               clock: Callable[[], float] = time.monotonic, allow_queue: bool = False) -> ExportResult:
    """Check the export job fits the cluster as launch does (ops/fit_gate.py: a gang that can
    never fit is refused, nothing submitted, unless `allow_queue`), submit it, follow it to the
    end (terminated past `export.timeout_s`), then check the Hub repo when it succeeded."""
    from irisrl.config.masking import mask_text
    from irisrl.ops import output
    from irisrl.ops.fit_gate import fit_gate

    fit_gate(export.plan, backend, allow_queue)   # raises FitRefused
    submitted_ms = int(time.time() * 1000) - 1000   # the tail of THIS job: a rerun reuses the name
    with _workspace(export.plan.workspace) as workspace:
        job_id = backend.submit(export.plan, workspace)
    output.emit(f"submitted {job_id}: export of {export.checkpoint.path} to {export.repo}", err=True)
    snap = _follow(backend, job_id, export.timeout_s, poll_s, clock)
    if snap.state != "succeeded":
        hidden = list(export.plan.secret_values())   # the token, the store keys, the gang's Ray token
        return ExportResult(export, snap.state, snap.exit_code, mask_text(snap.error or _task_error(snap), hidden),
                            tuple(mask_text(line, hidden) for line in _log_tail(backend, job_id, submitted_ms)))
    files = hub_files(export.repo, export.revision, token)
    return ExportResult(export, snap.state, snap.exit_code, files=files,
                        missing=missing_files(files, export.upload_mode, export.checkpoint.step))


def _follow(backend: Backend, job_id: str, timeout_s: float, poll_s: float,
            clock: Callable[[], float]) -> JobSnapshot:
    from irisrl.ops import output

    deadline = clock() + timeout_s
    while True:
        snap = backend.snapshot(job_id)
        if snap.absent or snap.state not in ACTIVE:
            return snap
        if clock() >= deadline:
            backend.terminate(job_id)
            raise IrisrlError(f"export job {job_id} did not finish within {timeout_s:.0f}s; it was terminated",
                              "raise --timeout, or look at its logs: irisrl logs " + job_id)
        output.waiting(f"{job_id} {snap.state}")
        time.sleep(poll_s)


def _task_error(snap: JobSnapshot) -> str:
    return next((t.error for t in snap.tasks if t.error), "")


def _log_tail(backend: Backend, job_id: str, since_ms: int, lines: int = 20, max_pages: int = 50) -> tuple[str, ...]:
    """The last `lines` lines since `since_ms` (the export job is short: a bounded page walk)."""
    from collections import deque

    from irisrl.backends.base import LogCursor

    tail: deque[str] = deque(maxlen=lines)
    cursor = LogCursor(since_ms)
    try:
        for _ in range(max_pages):
            page = backend.logs(job_id, cursor)
            tail.extend(line.data.rstrip("\n") for line in page.lines)
            cursor = page.cursor
            if not page.more:
                break
    except IrisrlError:
        pass
    return tuple(tail)


def hub_files(repo: str, revision: str, token: str, deadline_s: float = HUB_DEADLINE_S) -> tuple[str, ...]:
    """Every file of the repo at `revision` (huggingface_hub list_repo_files, which honours
    HF_ENDPOINT); () when the repo or revision does not exist. Bounded by `deadline_s`."""
    from irisrl.core.deadline import call_with_deadline

    _require_hub_client()
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError, RevisionNotFoundError

    def timed_out() -> UndeterminedError:
        return UndeterminedError(f"the Hub did not list {repo}@{revision} within {deadline_s:.0f}s",
                                 "check the Hub's reachability (HF_ENDPOINT), then run the export again")

    try:
        files = call_with_deadline(lambda: HfApi(token=token).list_repo_files(repo, revision=revision),
                                   deadline_s, timed_out, name="irisrl-hub-list")
    except (RepositoryNotFoundError, RevisionNotFoundError):
        return ()
    except HfHubHTTPError as exc:
        raise UndeterminedError(f"the Hub did not list {repo}@{revision}: {exc}".replace(token, "***"),
                                "check HF_TOKEN's access to the repo and the Hub's reachability") from None
    return tuple(sorted(files))


def _require_hub_client() -> None:
    """A clear error when huggingface_hub is not installed (checked before submit)."""
    try:
        import huggingface_hub  # noqa: F401
    except ImportError:
        raise UndeterminedError("huggingface_hub is not installed: the Hub repo cannot be checked",
                                "install irisrl's observe extra (scripts/setup.sh does)") from None


def _workspace(path: str) -> AbstractContextManager[str]:
    """The given workspace, or an empty temp dir (the image's entrypoint needs no files)."""
    import contextlib
    import tempfile

    @contextlib.contextmanager
    def empty() -> Iterator[str]:
        with tempfile.TemporaryDirectory(prefix="irisrl-export-") as tmp:
            yield tmp

    return contextlib.nullcontext(path) if path else empty()


# ----------------------------------------------------------------------------- the command
def parse_entrypoint(text: str | None) -> tuple[str, ...]:
    """--export-entrypoint as one shell-quoted string; default the image's export module."""
    if not text:
        return DEFAULT_ENTRYPOINT
    try:
        parts = tuple(shlex.split(text))
    except ValueError as exc:
        raise UsageError(f"--export-entrypoint {text!r}: {exc}", "quote it as a shell command line") from None
    if not parts:
        raise UsageError("--export-entrypoint is empty")
    return parts


def export(job: str, settings: ExportSettings, *, dry_run: bool = False, local: bool = False,
           controller_url: str | None = None, cluster_config: str | None = None,
           environ: Mapping[str, str] | None = None) -> ExportPlan | ExportResult:
    """`irisrl export JOB`: resolve the run from the ledger, refuse what cannot be exported,
    then (unless `dry_run`) run the export job on the run's cluster (or the target given)."""
    import os

    from irisrl.backends.resolve import Target, normalize_job_id, open_backend
    from irisrl.ledger.store import Ledger

    environ = os.environ if environ is None else environ
    ledger = Ledger()
    job_id = normalize_job_id(job, ledger)
    source = ledger.plan_for(job_id)
    if source is None:
        raise IrisrlError(f"{job_id} is not in irisrl's ledger: its checkpoints and config are unknown",
                          "export a run launched by irisrl (irisrl runs lists them)", Exit.ABSENT)
    token = hf_token(settings.secrets_env, environ)
    plan = build_export(job_id, source, settings, token, environ)
    if dry_run:
        return plan
    _require_hub_client()   # the repo check needs it: refuse before a job is spent, not after
    with open_backend(Target(local, controller_url, cluster_config).check(), job_id, ledger) as backend:
        return run_export(backend, plan, token, allow_queue=settings.allow_queue)
