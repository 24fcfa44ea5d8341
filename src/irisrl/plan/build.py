"""Build the LaunchPlan: what runs (PlanInputs: config, model, data, layout, overrides,
series...) on a target (core/target.Target: local, controller URL, cluster config), plus the
config and the cluster profile, resolved into one frozen object. `launch --dry-run` renders it
and `launch` submits it, so what a dry run shows is what runs. How the result is shown (JSON,
no-wait) is the CLI's business and never reaches here.

build_plan(inputs, target, dry_run=) -> (plan | None, findings, budget): None when a rule
found an error. `dry_run`: a missing secret is a warning, not an error (LCH-SECRETS).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, cast

from irisrl.config.budget import Budget
from irisrl.config.extra_env import build_pod_env, coerce_extra_env
from irisrl.config.hydra_args import HydraInputs, build_hydra_args, job_paths, trainer_command, uses_terminal_bench
from irisrl.config.masking import mask_findings
from irisrl.config.models import is_hf_id
from irisrl.config.placement import placement_groups
from irisrl.config.profile import DEFAULT_PROFILE, ClusterProfile, load_profile
from irisrl.config.secrets import allowlist, collect_secrets
from irisrl.config.storage_root import resolve_storage_root
from irisrl.plan.model import Device, LaunchPlan, Mode, Resources, Role
from irisrl.core.findings import Finding, has_errors, sort_findings
from irisrl.core.series import series_of
from irisrl.core.target import Target
from irisrl.rules.launch import LaunchFacts, parse_train_data, sanitize_job_name
from irisrl.runtime import contract
from irisrl.util.errors import UsageError
from irisrl.util.identity import job_user
from irisrl.util.sizes import parse_size
from irisrl.util.paths import irisrl_home

if TYPE_CHECKING:
    from datetime import datetime

    from irisrl.rules.context import RuleContext

PRIORITIES = ("production", "interactive", "batch")
ROLES = ("trainer", "rehearsal")
KIND = "agentic-rl"
RDZV_SUBDIR = "rl-rdzv"
DEFAULT_RDZV_TIMEOUT_S = 1800
LOCAL_RDZV_TIMEOUT_S = 120   # a local gang forms in seconds: a broken one fails fast
LOCAL_PG_TIMEOUT_S = 30      # fake GPUs place at once; SkyRL's 180 s only delays the verdict
LOCAL_PARK_INTERVAL_S = 1    # workers notice the done marker within a second (one local GET each)
# Iris's local workers advertise 1000 GiB of RAM (iris/cluster/backends/gcp/fake.py HardwareProbe),
# so the profile's 1700GB never schedules there; locally resources are scheduling-only.
LOCAL_MEMORY = "512GB"
LOOPBACK = "127.0.0.1"
REHEARSAL_MODULE = "irisrl.runtime.rehearsal"
CONTROLLER_MODULE = "irisrl.runtime.controller"
# Per-run keys left out of the hyperparameter fingerprint (names, paths, model, data).
_FINGERPRINT_SKIP = frozenset({"run_name", "project_name", "ckpt_path", "export_path", "hf_hub_repo_id",
                               "hf_hub_revision", "path", "trials_dir", "trace_dir", "logger"})

# The in-container boot: cd to the task's workdir (/app in the image; the local cluster's task
# dir locally), put the shipped runtime and the workspace first on PYTHONPATH, exec the controller.
def boot_script(module: str) -> str:
    """`bash -c` text that runs one of the shipped runtime modules (the bundle's lib on the path)."""
    return ('cd "${IRIS_WORKDIR:-%s}" && export PYTHONPATH="$PWD/%s:$PWD${PYTHONPATH:+:$PYTHONPATH}" '
            '&& exec "${IRIS_PYTHON:-python}" -m %s "$@"') % (contract.WORKDIR_DEFAULT, contract.BUNDLE_LIB, module)


BOOT = boot_script(CONTROLLER_MODULE)
BOOT_NAME = "irisrl-boot"


@dataclass(frozen=True)
class PlanInputs:
    """What runs: the `irisrl launch` flags that shape the plan (cli/launch_options.py maps
    them; the target flags are a Target, --dry-run/--json/--no-wait stay in the CLI)."""
    rl_config: str | None                       # None only with --resume (ops/resume.py fills it in)
    num_nodes: int | None = None
    gpus_per_node: int | None = None            # default: the profile's
    skyrl_overrides: tuple[str, ...] = ()
    model_path: str | None = None
    train_data: str | None = None               # JSON list as typed
    job_name: str | None = None
    max_retries: int = 1
    rendezvous_dir: str | None = None
    rendezvous_timeout: int | None = None       # default: 1800 s (--local: 120 s)
    skyrl_ref: str | None = None
    skyrl_checkout: str | None = None
    profile: str | None = None                  # default: DEFAULT_PROFILE
    cpu: float | None = None                    # default: the profile's cpu cap
    memory: str | None = None
    disk: str | None = None
    priority: str = "interactive"
    secrets_env: str | None = None
    secret_names: tuple[str, ...] = ()          # added to the allowlist
    workspace: str | None = None
    role: str | None = None                     # trainer | rehearsal (default: trainer; --local: rehearsal)
    rehearse: bool = False
    series: str | None = None
    fetch_model_config: bool = False
    resume: str | None = None                   # launch --resume JOB (ops/resume.py builds that plan)
    allow_layout_change: bool = False
    now: datetime | None = None                 # tests pin the clock
    environ: Mapping[str, str] | None = None    # tests pin the environment

    @property
    def config(self) -> str:
        """The RL config path; a plan cannot be built without one."""
        if not self.rl_config:
            raise UsageError("no RL config to build the plan from",
                             "pass --rl_config YAML (or --resume JOB to take JOB's recorded one)")
        return self.rl_config

    def effective_role(self, local: bool) -> Role:
        """--rehearse, else --role, else rehearsal on the local cluster and trainer elsewhere."""
        if self.rehearse:
            return "rehearsal"
        return cast(Role, self.role or ("rehearsal" if local else "trainer"))   # --role is a click.Choice


def _mode(target: Target) -> Mode:
    return "local" if target.local else "remote"


@dataclass(frozen=True)
class Resolved:
    """Launch facts derived before the rules run."""
    job_name: str
    user: str
    stamp: str
    rendezvous_dir: str | None
    artifacts_root: str
    train_data: tuple[str, ...] | None            # as typed: what every node stages
    task_root: str | None = None                  # where HF task datasets are extracted on each node
    export_path: str | None = None
    environ: Mapping[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)

    @property
    def trainer_train_data(self) -> tuple[str, ...] | None:
        """What data.train_data says in the container: an HF task dataset becomes its node-local
        task dir (the launcher's resolve_rl_train_data), anything else passes as typed."""
        if self.train_data is None or not self.task_root:
            return self.train_data
        return tuple(contract.task_dir(self.task_root, item) if contract.is_hf_dataset_id(item) else item
                     for item in self.train_data)


def build_plan(options: PlanInputs, target: Target = Target(), dry_run: bool = False
               ) -> tuple[LaunchPlan | None, list[Finding], Budget]:
    """Resolve everything; run the config and launch rules; build the plan when no errors."""
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import build_context

    target.check()
    _check_choices(options)
    environ = os.environ if options.environ is None else options.environ
    profile = load_profile(options.profile or DEFAULT_PROFILE)
    storage = resolve_storage_root(profile, target.cluster_config, environ, target.local)   # cluster, else profile
    profile = replace(profile, storage_root=storage.uri)
    gpn = options.gpus_per_node or profile.gpus_per_node
    ctx = build_context(options.config, num_nodes=options.num_nodes, gpus_per_node=gpn,
                        model_path=options.model_path, workspace=options.workspace,
                        overrides=options.skyrl_overrides, profile=profile,
                        fetch_model_config=options.fetch_model_config)
    resolved = resolve(options, target.local, profile, environ, ctx.budget.num_nodes)
    ctx.launch = replace(_launch_facts(options, target, dry_run, profile, ctx, resolved), storage_root=storage.uri,
                         storage_root_source=storage.source, storage_root_note=storage.note)
    findings = mask_findings(run_rules(ctx, scopes=("config", "launch")), resolved.secrets.values())
    if has_errors(findings):
        return None, findings, ctx.budget
    plan = _assemble(options, target.local, profile, ctx, resolved, findings)
    return plan, list(plan.findings), ctx.budget


def _check_choices(options: PlanInputs) -> None:
    if options.priority not in PRIORITIES:
        raise UsageError(f"--priority {options.priority!r} is not one of {', '.join(PRIORITIES)}")
    if options.role is not None and options.role not in ROLES:
        raise UsageError(f"--role {options.role!r} is not one of {', '.join(ROLES)}")
    if options.num_nodes is not None and options.num_nodes < 1:
        raise UsageError(f"--num-nodes {options.num_nodes} must be at least 1")
    if options.gpus_per_node is not None and options.gpus_per_node < 1:
        raise UsageError(f"--gpus_per_node {options.gpus_per_node} must be at least 1")
    if options.cpu is not None and not (math.isfinite(options.cpu) and options.cpu > 0):
        raise UsageError(f"--cpu {options.cpu} is not a positive number of CPUs", "e.g. --cpu 48")
    for flag_name, size in (("--memory", options.memory), ("--disk", options.disk)):
        if size is not None:
            _check_size(flag_name, size)


def _check_size(flag_name: str, size: str) -> None:
    """A size Iris can read and that is more than nothing (issue 16, D14: `lots`, `-5Gi`)."""
    try:
        ok = parse_size(size) > 0
    except ValueError:
        ok = False
    if not ok:
        raise UsageError(f"{flag_name} {size!r} is not a positive size",
                         f"e.g. {flag_name} 512GB (units k, M, G, T, P, binary as Iris reads them; Gi/GB/g alike)")


# ---------------------------------------------------------------- resolution


def resolve(options: PlanInputs, local: bool, profile: ClusterProfile, environ: Mapping[str, str],
            required_nodes: int | None) -> Resolved:
    # time.gmtime, not datetime: a dry run imports as little as it can
    stamp = options.now.strftime("%Y%m%d-%H%M%S") if options.now else time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    job_name = options.job_name or default_job_name(options.config, stamp)
    names = allowlist(options.secret_names, environ)
    secrets = collect_secrets(names, options.secrets_env, environ)
    train_data = parse_train_data(options.train_data) if options.train_data is not None else None
    root = artifacts_root(local, profile, job_name)
    return Resolved(
        job_name=job_name,
        user=job_user(environ),
        stamp=stamp,
        rendezvous_dir=rendezvous_dir(options, local, profile, job_name, stamp),
        artifacts_root=root,
        train_data=train_data,
        task_root=task_root(local, profile, root, train_data),
        export_path=export_path(local, profile, job_name, root),
        environ=environ,
        secrets=dict(secrets.values),
    )


def default_job_name(config_path: str, stamp: str) -> str:
    """`<config stem>-<UTC yyyymmdd-HHMMSS>`, made a valid DNS label."""
    stem = sanitize_job_name(Path(config_path).stem) or "rl"
    return f"{stem[:63 - len(stamp) - 1].strip('-')}-{stamp}"


def rendezvous_dir(options: PlanInputs, local: bool, profile: ClusterProfile, job_name: str, stamp: str) -> str | None:
    """Explicit, else fresh per launch: `<storage_root>/rl-rdzv/<job>/<stamp>-<uuid>` remote,
    `$IRISRL_HOME/rdzv/<job>/<stamp>-<uuid>` (a local directory) with --local."""
    if options.rendezvous_dir:
        return options.rendezvous_dir
    fresh = f"{stamp}-{os.urandom(4).hex()}"  # fresh even for two launches in one second
    if local:
        return str(irisrl_home() / "rdzv" / job_name / fresh)
    if not profile.storage_root:
        return None
    return f"{profile.storage_root.rstrip('/')}/{RDZV_SUBDIR}/{job_name}/{fresh}"


def artifacts_root(local: bool, profile: ClusterProfile, job_name: str) -> str:
    """Where null checkpoint/export paths go: `<storage_root>/<job>` (local: $IRISRL_HOME/runs/<job>)."""
    if local or not profile.storage_root:
        return str(irisrl_home() / "runs" / job_name)
    return f"{profile.storage_root.rstrip('/')}/{job_name}"


def task_root(local: bool, profile: ClusterProfile, root: str,
              train_data: tuple[str, ...] | None) -> str | None:
    """The node-local task dir root when some train data is an HF task dataset: the profile's
    (the gpu-rl image's $DCFT/tasks) remote, `<run dir>/tasks` with --local (one host, no /opt).
    A local path that exists is used in place (local mode), like the runtime does."""
    if not train_data or not any(contract.is_hf_dataset_id(i) and not (local and os.path.exists(i))
                                 for i in train_data):
        return None
    return f"{root}/tasks" if local else profile.task_root


def export_path(local: bool, profile: ClusterProfile, job_name: str, root: str) -> str:
    """rl_config_translation's `<experiments_dir>/<job>/exports` (pod-local /app/experiments
    remote, as the launcher leaves it); under the run dir with --local."""
    if local or not profile.experiments_dir:
        return job_paths(root)["export_path"]
    return f"{profile.experiments_dir.rstrip('/')}/{job_name}/exports"


def _launch_facts(options: PlanInputs, target: Target, dry_run: bool, profile: ClusterProfile, ctx: RuleContext,
                  resolved: Resolved) -> LaunchFacts:
    trainer, data = (v if isinstance(v := ctx.raw.get(k), Mapping) else {} for k in ("trainer", "data"))
    return LaunchFacts(
        mode=_mode(target), dry_run=dry_run, job_name=resolved.job_name,
        num_nodes=options.num_nodes or ctx.budget.num_nodes, rendezvous_dir=resolved.rendezvous_dir,
        image=profile.image, cpu=_cpu(options, profile), max_retries=options.max_retries,
        skyrl_ref=options.skyrl_ref, skyrl_checkout=options.skyrl_checkout,
        train_data_text=options.train_data, yaml_train_data=data.get("train_data"),
        model_path=ctx.model_path, secrets_present=frozenset(k for k, v in resolved.secrets.items() if v),
        workspace=options.workspace or ".", controller_url=target.controller_url,
        ckpt_paths=tuple(v for k in ("ckpt_path", "export_path") if isinstance(v := trainer.get(k), str)),
    )


def _memory(options: PlanInputs, local: bool, profile: ClusterProfile) -> str:
    return options.memory or (LOCAL_MEMORY if local else profile.memory)


def _cpu(options: PlanInputs, profile: ClusterProfile) -> float:
    return float(options.cpu) if options.cpu is not None else float(profile.cpu_cap)


# ---------------------------------------------------------------- assembly


def _assemble(options: PlanInputs, local: bool, profile: ClusterProfile, ctx: RuleContext, resolved: Resolved,
              findings: list[Finding]) -> LaunchPlan:
    budget: Budget = ctx.budget
    num_nodes = options.num_nodes or budget.num_nodes or 1
    gpn = ctx.gpus_per_node
    engines = budget.num_inference_engines
    hydra = build_hydra_args(ctx.raw_unmodified or ctx.raw, HydraInputs(
        job_name=resolved.job_name, artifacts_root=resolved.artifacts_root, gpus_per_node=gpn,
        model_path=options.model_path, train_data=resolved.trainer_train_data, overrides=options.skyrl_overrides,
        derived_num_inference_engines=engines if budget.engines_source == "derived" else None,
        num_nodes=num_nodes, export_path=resolved.export_path))
    role = options.effective_role(local)
    series = series_of(resolved.job_name, options.series) or ""   # job names are checked: never empty here
    sandbox = "daytona" if ctx.view.uses_harbor else "none"
    job_id = f"/{resolved.user}/{resolved.job_name}"
    # the secrets file wins over the shell, as the launcher's load_secrets_env_into_os_environ does
    launcher_env = _launcher_env(local, profile, job_id, series, sandbox, {**resolved.environ, **resolved.secrets})
    # NCCL flight-recorder dumps: always a node-local path of this job (the runtime copies them to the store)
    launcher_env.update(contract.fr_env(coerce_extra_env(ctx.raw.get("extra_env")), resolved.job_name))
    engines = engines if engines is not None else hydra.num_inference_engines  # overrides applied
    pod = build_pod_env(ctx.raw.get("extra_env"), resolved.secrets, launcher_env, engines)
    runtime_argv = _runtime_argv(options, local, profile, resolved, gpn, ctx.model_path)
    command = _command(role, ctx.raw_unmodified or ctx.raw, hydra.args)
    if role == "rehearsal" and local:
        command += ("--timeout", str(LOCAL_PG_TIMEOUT_S))
    all_findings = sort_findings(list(findings) + [f for f in pod.findings if f not in findings])
    return LaunchPlan(
        job_name=resolved.job_name, user=resolved.user, cluster=profile.name, image=profile.image,
        num_nodes=num_nodes, gpus_per_node=gpn, total_gpus=num_nodes * gpn,
        coscheduling={"group_by": "leafgroup"} if num_nodes > 1 else None,
        resources=Resources(cpu=_cpu(options, profile), memory=_memory(options, local, profile),
                            disk=options.disk or profile.disk,
                            device=Device("gpu", profile.gpu_variant, gpn)),
        priority=options.priority, max_retries=options.max_retries,
        rendezvous_dir=resolved.rendezvous_dir, skyrl_ref=options.skyrl_ref,
        entrypoint=("bash", "-c", BOOT, BOOT_NAME, *runtime_argv, "--", *command),
        runtime_argv=runtime_argv, command=command, hydra_args=hydra.args,
        env={**pod.env, **ray_auth_env()},
        secret_env_keys=tuple(sorted({*pod.secret_keys, contract.ENV_RAY_AUTH_TOKEN})), ports=contract.RUNTIME_PORTS,
        placement_groups=placement_groups(ctx.view, ctx.raw, gpn, engines),
        budget=budget.to_dict(), findings=tuple(all_findings), mode="local" if local else "remote", role=role,
        workspace=options.workspace or ".", config_path=options.config, config_sha256=ctx.config_sha256,
        series=series, hparams_fingerprint=hparams_fingerprint(ctx.raw),
        model_path=ctx.model_path, train_data=resolved.train_data or (),
        trials_dir=_trials_dir(ctx.raw, hydra.sections), tags={"kind": KIND, "sandbox": sandbox, "series": series},
        launch_flags=launch_flags(options),
    )


def launch_flags(options: PlanInputs) -> dict[str, Any]:
    """The flags as given that `launch --resume` repeats when not given again: those that
    change the hyperparameters, the layout or the code that runs (the node count the plan
    holds resolved). As given: a model the config names is not a --model_path flag (that one
    also sets served_model_name). Paths are absolute: a resume may start in another directory."""
    profile = options.profile or DEFAULT_PROFILE
    return {"rl_config": os.path.abspath(options.config), "skyrl_override": list(options.skyrl_overrides),
            "gpus_per_node": options.gpus_per_node,
            "profile": os.path.abspath(profile) if os.path.isfile(profile) else profile,
            "workspace": os.path.abspath(options.workspace or "."), "skyrl_ref": options.skyrl_ref,
            "model_path": options.model_path, "train_data": options.train_data}


def ray_auth_env() -> dict[str, str]:
    """This gang's own Ray token (fresh per plan, so per launch): Ray's token authentication
    on, for every Ray process and driver of the job and nothing else (contract.ENV_RAY_AUTH_*).
    Overrides any RAY_AUTH_* from extra_env: one gang's Ray is never open to another's."""
    return {contract.ENV_RAY_AUTH_MODE: "token", contract.ENV_RAY_AUTH_TOKEN: secrets.token_hex(32)}


def _launcher_env(local: bool, profile: ClusterProfile, job_id: str, series: str,
                  sandbox: str, environ: Mapping[str, str]) -> dict[str, str]:
    env = {
        "PYTHONPATH": f"{profile.skyrl_root.rstrip('/')}/skyrl-train",
        # what the launcher's bash wrapper exports on every node (launch_rl_iris.py build_task_command)
        "SKYRL_HOME": profile.skyrl_root,
        "VLLM_USE_V1": "1",
        contract.ENV_KIND: KIND,
        contract.ENV_SANDBOX: sandbox,
        contract.ENV_SERIES: series,
        contract.ENV_JOB_ID: job_id,
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    env.update(wandb_routing(profile, environ))
    if local:
        env["IRIS_ADVERTISE_HOST"] = LOOPBACK
        env["IRIS_BIND_HOST"] = LOOPBACK
    return env


def wandb_routing(profile: ClusterProfile, environ: Mapping[str, str]) -> dict[str, str]:
    """WANDB_ENTITY / WANDB_PROJECT: the launch host's, else the profile's (the launcher's
    os.environ.setdefault in launch_rl_iris.py main(): SkyRL passes no entity to wandb.init)."""
    routing = {"WANDB_ENTITY": profile.wandb_entity, "WANDB_PROJECT": profile.wandb_project}
    return {k: environ.get(k) or v for k, v in routing.items() if environ.get(k) or v}


def _runtime_argv(options: PlanInputs, local: bool, profile: ClusterProfile, resolved: Resolved, gpn: int,
                  model_path: str | None) -> tuple[str, ...]:
    argv: list[str] = []
    if resolved.rendezvous_dir:
        argv += ["--rendezvous-dir", resolved.rendezvous_dir]
    default_timeout = LOCAL_RDZV_TIMEOUT_S if local else DEFAULT_RDZV_TIMEOUT_S
    argv += ["--rendezvous-timeout", str(options.rendezvous_timeout or default_timeout)]
    argv += ["--gpus-per-node", str(gpn)]
    if local:
        argv += ["--local"]  # several nodes on one host: free ports, fake GPUs
        argv += ["--park-interval", str(LOCAL_PARK_INTERVAL_S)]
    if options.effective_role(local) == "rehearsal":
        argv += ["--node-checks"]  # GPUs visible, train data present, before Ray
        if model_path:  # config.json only, never weights; locally the task's cwd is its own dir
            local_dir = local and not is_hf_id(model_path) and "://" not in model_path   # a URL is no dir
            argv += ["--check-model-config", os.path.abspath(os.path.expanduser(model_path)) if local_dir else model_path]
    if resolved.train_data:
        argv += ["--train-data", json.dumps(list(resolved.train_data))]
        if resolved.task_root:
            argv += ["--task-root", resolved.task_root]
    if options.skyrl_ref:
        argv += ["--skyrl-ref", options.skyrl_ref, "--skyrl-root", profile.skyrl_root]
    if model_path and is_hf_id(model_path) and options.effective_role(local) == "trainer":
        argv += ["--prestage-model", model_path]
    return tuple(argv)


def _command(role: str, raw: Mapping[str, Any], hydra_args: tuple[str, ...]) -> tuple[str, ...]:
    if role == "rehearsal":
        return ("python", "-m", REHEARSAL_MODULE, "--plan", contract.BUNDLE_PLAN)
    return trainer_command(raw, hydra_args)


def hparams_fingerprint(raw: Mapping[str, Any]) -> str:
    """sha256 of the canonical trainer/generator settings, without per-run names, paths,
    model and data (POL-SERIES-DRIFT compares these across a series)."""
    canon = {k: _strip_run_keys(raw.get(k)) for k in ("trainer", "generator")}
    text = json.dumps(canon, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _strip_run_keys(node: Any) -> Any:
    if isinstance(node, Mapping):
        kept = {str(k): _strip_run_keys(v) for k, v in node.items()
                if str(k) not in _FINGERPRINT_SKIP and not str(k).endswith(("_path", "_dir"))}
        return {k: v for k, v in kept.items() if v != {}}  # a block that held only run facts
    if isinstance(node, list):
        return [_strip_run_keys(v) for v in node]
    return node


def _trials_dir(raw: Mapping[str, Any], sections: Mapping[str, Any]) -> str | None:
    """The per-job trials dir the plan writes for a terminal_bench config, else the YAML's."""
    tb = sections.get("terminal_bench_config")
    if uses_terminal_bench(raw) and isinstance(tb, Mapping) and isinstance(tb.get("trials_dir"), str):
        return str(tb["trials_dir"])
    return trials_dir(raw)


def trials_dir(raw: Mapping[str, Any]) -> str | None:
    """The first trials/trace directory key in the forwarded sections, if any."""
    for section in ("terminal_bench", "trainer", "generator", "environment"):
        found = _find_key(raw.get(section), ("trials_dir", "trace_dir", "traces_dir", "trace_jobs_dir"))
        if found:
            return found
    return None


def _find_key(node: Any, names: tuple[str, ...]) -> str | None:
    if not isinstance(node, Mapping):
        return None
    for key, value in node.items():
        if key in names and isinstance(value, str) and value:
            return value
        found = _find_key(value, names)
        if found:
            return found
    return None
