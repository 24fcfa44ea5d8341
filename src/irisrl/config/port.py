"""Port a Jupiter config (Apptainer SIF, 4-GPU GH200 nodes) to the Iris/Docker form
(runbook section 4). Works on a plain mapping; every edit is recorded as a Change carrying
the catalogue rule ID it answers, so `irisrl port` can say what it did and why.

Decisions (documented in `irisrl port --help`):
- `container.extra_env` merges into top-level `extra_env`; on a collision the top-level
  value wins (it is what the Iris path already reads) and the collision is reported.
- `APPTAINERENV_X` / `SINGULARITYENV_X` are dropped when `X` is also set, else renamed to
  `X` (that is how `X` reached the SIF), then `X` passes through the other env rules.
- `$CONDA_PREFIX` becomes the image's RL prefix; any other `$VAR` is removed (Kubernetes
  does not expand it): from a `:`-list only the segment, otherwise the whole variable.
- AWS_* / R2_* are dropped: they would clobber the pod's injected store credentials.
- Env values are never printed (they may be secrets); only the key names and the values
  this module builds itself.
- `backend: {kind: apptainer}` (or singularity/slurm/sif) is dropped (CFG-BACKEND).
- Nothing is invented: a placement key the Jupiter config does not have stays absent (MarinSkyRL's
  launcher fills null node counts from --num-nodes and per-node GPUs from --gpus_per_node,
  rl_config_translation.py @ f2e41858f1fb72ab8023db6ff51c85d5a467e38b), no critic appears, and
  enable_db_registration is only turned off where it was on.
- Host paths of the old cluster (/e/data1, /e/fscratch, ...) have no Iris equivalent irisrl
  could know: they are left for the written file's validation to report (CFG-HOST-PATH, with
  the fix), so the port exits 1 until they are replaced. Except the NCCL flight-recorder dump
  path (TORCH_NCCL_DEBUG_INFO_TEMP_FILE / TORCH_FR_DUMP_TEMP_FILE): torch writes a local file
  there, so it becomes the node-local `/tmp/fr_dumps/<slug>/<file>` (slug: the output's file
  name) that launch re-scopes to the job (runtime/contract.py fr_dump_path).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from irisrl.config.edits import Change, get, has, positive_int, put, section, show, truthy
from irisrl.config.hydra_args import foreign_backend
from irisrl.config.profile import ClusterProfile
from irisrl.runtime.contract import FR_ENV_VARS, fr_dump_path
from irisrl.util.errors import IrisrlError

# Top-level blocks that only mean something to the Apptainer/SIF launcher (CFG-CONTAINER).
CONTAINER_BLOCKS = ("container", "sif", "sif_path", "apptainer", "singularity", "conda",
                    "conda_env", "conda_prefix", "binds", "bind_mounts", "pydeps")
SIF_ENV_PREFIXES = ("APPTAINERENV_", "SINGULARITYENV_")       # forwarded into the SIF: rename
SIF_LAUNCHER_PREFIXES = ("APPTAINER_", "SINGULARITY_")        # settings of apptainer itself: drop
SIF_ONLY_ENV = ("TRITON_LIBCUDA_PATH",)
SIF_PATH_MARKERS = ("/.singularity.d", "/.singularity-d")
OFFLINE_ENV = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE")
NCCL_CRIPPLE_ENV = ("NCCL_P2P_DISABLE", "NCCL_NVLS_ENABLE", "NCCL_COLLNET_ENABLE")
CLOUD_CRED_PREFIXES = ("AWS_", "R2_")
ENV_VAR_REF = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
PLACEMENT = "trainer.placement"


@dataclass(frozen=True)
class PortResult:
    config: dict[str, Any]
    changes: tuple[Change, ...]


def port_config(cfg: dict[str, Any], profile: ClusterProfile, from_gpus_per_node: int = 4,
                from_num_nodes: int | None = None, slug: str = "job") -> PortResult:
    """Rewrite `cfg` (mutated in place and returned) for `profile`. Raises IrisrlError
    (exit 1) when the port cannot be done exactly, e.g. a node count that is not whole."""
    changes: list[Change] = []
    jupiter_trainer_gpus = _trainer_gpus(cfg, from_gpus_per_node)  # before nodes are converted
    env = _merge_extra_env(cfg, changes)
    _drop_container_blocks(cfg, changes)
    _drop_foreign_backend(cfg, changes)
    if env is not None:
        _translate_env(env, profile, changes)
        _scope_flight_recorder(env, slug, changes)
        cfg["extra_env"] = env
    _ensure_ld_library_path(cfg, profile, changes)
    _pin_engines(cfg, from_gpus_per_node, from_num_nodes, jupiter_trainer_gpus, changes)
    _convert_nodes(cfg, from_gpus_per_node, profile.gpus_per_node, changes)
    _force_gpus_per_node(cfg, profile.gpus_per_node, changes)
    _disable_db_registration(cfg, changes)
    return PortResult(cfg, tuple(changes))


# --- container blocks and env -------------------------------------------------------------

def _merge_extra_env(cfg: dict[str, Any], changes: list[Change]) -> dict[str, Any] | None:
    """Every `<section>.extra_env` (container.extra_env above all) merged into top-level
    extra_env, which wins collisions: it is what the Iris path already reads."""
    top = section(cfg, "extra_env")
    merged: dict[str, Any] = {}
    found = False
    for name in _nested_env_owners(cfg):
        inner = cfg[name].pop("extra_env")
        found = True
        rule = "CFG-CONTAINER" if str(name).lower() in CONTAINER_BLOCKS else "ENV-MISPLACED"
        changes.append(Change(rule, f"{name}.extra_env",
                              f"moved {len(inner)} variable(s) into top-level extra_env (the Iris path reads only that)"))
        for key, value in inner.items():
            merged.setdefault(key, value)
    if not found:
        return top
    for key, value in (top or {}).items():
        if key in merged and merged[key] != value:
            changes.append(Change("CFG-CONTAINER", f"extra_env.{key}",
                                  "set both in a nested extra_env and in top-level extra_env: kept the top-level value"))
        merged[key] = value
    return merged


def _nested_env_owners(cfg: dict[str, Any]) -> list[str]:
    owners = [k for k, v in cfg.items() if k != "extra_env" and isinstance(v, dict) and isinstance(v.get("extra_env"), dict)]
    return sorted(owners, key=lambda k: str(k).lower() != "container")  # container first: its values win


def _drop_container_blocks(cfg: dict[str, Any], changes: list[Change]) -> None:
    for key in list(cfg):
        if str(key).lower() in CONTAINER_BLOCKS:
            del cfg[key]
            changes.append(Change("CFG-CONTAINER", str(key),
                                  f"dropped the {key}: block (the gpu-rl Docker image is the container)"))


def _drop_foreign_backend(cfg: dict[str, Any], changes: list[Change]) -> None:
    kind = foreign_backend(cfg)
    if kind:
        del cfg["backend"]
        changes.append(Change("CFG-BACKEND", "backend", f"dropped backend.kind {kind} (Iris runs the gpu-rl Docker image)"))


def _translate_env(env: dict[str, Any], profile: ClusterProfile, changes: list[Change]) -> None:
    _unprefix_sif_env(env, changes)
    for key in list(env):
        name = str(key)
        reason = _drop_reason(name)
        if reason:
            del env[key]
            changes.append(Change(reason[0], f"extra_env.{name}", reason[1]))
            continue
        if isinstance(env[key], str) and any(m in env[key] for m in SIF_PATH_MARKERS):
            _drop_sif_paths(env, key, changes)
        if key in env and isinstance(env[key], str) and "$" in env[key]:
            _expand_or_drop(env, key, profile, changes)


def _scope_flight_recorder(env: dict[str, Any], slug: str, changes: list[Change]) -> None:
    """A dump path naming another cluster's filesystem (or another job) becomes node-local."""
    for key in FR_ENV_VARS:
        value = env.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        scoped = fr_dump_path(value, slug)
        if scoped != value:
            env[key] = scoped
            changes.append(Change("CFG-HOST-PATH", f"extra_env.{key}",
                                  f"-> {scoped}: torch writes the dump as a local file (launch puts it under "
                                  f"the job's name; the runtime copies it to the store)"))


def _unprefix_sif_env(env: dict[str, Any], changes: list[Change]) -> None:
    for key in list(env):
        name = str(key)
        prefix = next((p for p in SIF_ENV_PREFIXES if name.startswith(p)), None)
        if prefix is None:
            continue
        value = env.pop(key)
        bare = name[len(prefix):]
        if bare in env or not bare:
            changes.append(Change("ENV-SIF", f"extra_env.{name}", f"dropped: duplicate of {bare or 'nothing'} (SIF-only)"))
        else:
            env[bare] = value
            changes.append(Change("ENV-SIF", f"extra_env.{name}", f"renamed to {bare} (Docker needs no {prefix} prefix)"))


def _drop_reason(name: str) -> tuple[str, str] | None:
    if name in SIF_ONLY_ENV or name.startswith(SIF_LAUNCHER_PREFIXES):
        return "ENV-SIF", "dropped: a SIF/Apptainer-only setting the image does not need"
    if name in OFFLINE_ENV:
        return "ENV-OFFLINE", "dropped: the cluster has egress, models load from the Hub online"
    if name in NCCL_CRIPPLE_ENV:
        return "ENV-NCCL-CRIPPLE", "dropped: GH200/SIF NCCL disable; on H100+IB it cripples NVLink all-reduce"
    if name.startswith(CLOUD_CRED_PREFIXES):
        return "ENV-CLOUD-CREDS", "dropped: would clobber the pod's injected object-store credentials"
    return None


def _drop_sif_paths(env: dict[str, Any], key: Any, changes: list[Change]) -> None:
    """Paths into the SIF (/.singularity.d/libs) do not exist in the image."""
    segments = env[key].split(":")
    kept = [s for s in segments if not any(m in s for m in SIF_PATH_MARKERS)]
    if kept:
        env[key] = ":".join(kept)
        changes.append(Change("ENV-SIF", f"extra_env.{key}", "removed the /.singularity.d path segment(s)"))
    else:
        del env[key]
        changes.append(Change("ENV-SIF", f"extra_env.{key}", "dropped: points into the SIF's /.singularity.d"))


def _expand_or_drop(env: dict[str, Any], key: Any, profile: ClusterProfile, changes: list[Change]) -> None:
    """$CONDA_PREFIX -> the RL prefix; other $VARs cannot work in a pod, so they go."""
    name = str(key)
    value = _substitute_conda_prefix(env[key], profile.rl_prefix)
    conda = f"$CONDA_PREFIX -> {profile.rl_prefix}" if value != env[key] else ""
    segments = value.split(":")
    kept = [s for s in segments if not ENV_VAR_REF.search(s)]
    gone = sorted({m for s in segments for m in ENV_VAR_REF.findall(s)})
    if not gone:
        env[key] = value
        changes.append(Change("ENV-UNEXPANDED", f"extra_env.{name}", conda))
    elif kept and len(segments) > 1:
        env[key] = ":".join(dict.fromkeys(kept))
        changes.append(Change("ENV-UNEXPANDED", f"extra_env.{name}", (f"{conda}; " if conda else "") +
                              f"removed the segment(s) using ${', $'.join(gone)}: Kubernetes does not expand them"))
    else:
        del env[key]
        changes.append(Change("ENV-UNEXPANDED", f"extra_env.{name}",
                              f"dropped: its value uses ${', $'.join(gone)}, which Kubernetes does not expand; "
                              "set a literal value if the run needs it"))


def _substitute_conda_prefix(value: str, rl_prefix: str) -> str:
    return re.sub(r"\$\{?CONDA_PREFIX\}?(?![A-Za-z0-9_])", rl_prefix, value)


def _ensure_ld_library_path(cfg: dict[str, Any], profile: ClusterProfile, changes: list[Change]) -> None:
    """A config's LD_LIBRARY_PATH hard-coded to start with the RL prefix lib (no SIF paths).
    An absent one stays absent: the image needs none (rules/env.py ENV-LD-LIBRARY-PATH)."""
    env = section(cfg, "extra_env", create=True)
    assert env is not None
    current = env.get("LD_LIBRARY_PATH")
    if current is None:
        return
    parts = [p for p in str(current).split(":") if p and ".singularity" not in p] if current else []
    wanted = [profile.rl_lib] + [p for p in parts if p != profile.rl_lib]
    value = ":".join(wanted)
    if current != value:
        env["LD_LIBRARY_PATH"] = value
        changes.append(Change("ENV-LD-LIBRARY-PATH", "extra_env.LD_LIBRARY_PATH",
                              f"set to {value} (the image's RL prefix lib, literal)"))


# --- topology ------------------------------------------------------------------------------

def _kl_in_use(cfg: dict[str, Any]) -> bool:
    # Same defaults as config/view.py, so the pinned engine count agrees with the budget.
    return truthy(get(cfg, "trainer.algorithm.use_kl_loss", False)) or \
        truthy(get(cfg, "trainer.algorithm.use_kl_in_reward", False))


def _active_roles(cfg: dict[str, Any]) -> dict[str, bool]:
    critic_path = get(cfg, "trainer.critic.model.path") if isinstance(get(cfg, "trainer.critic"), dict) else None
    return {"policy": True, "ref": _kl_in_use(cfg), "critic": critic_path is not None}


def _colocated(cfg: dict[str, Any], key: str) -> bool:
    return truthy(get(cfg, f"{PLACEMENT}.{key}", True))


def _trainer_gpus(cfg: dict[str, Any], gpus_per_node: int) -> int:
    """Trainer GPUs as the Jupiter launch used them: policy, plus ref when it has its own
    (the GPU budget's rule, config/budget.py; a critic is not counted there either)."""
    total = _role_nodes(cfg, "policy") * gpus_per_node
    if _kl_in_use(cfg) and not _colocated(cfg, "colocate_policy_ref") and not _colocated(cfg, "colocate_all"):
        total += _role_nodes(cfg, "ref") * gpus_per_node
    return total


def _role_nodes(cfg: dict[str, Any], role: str) -> int:
    path = f"{PLACEMENT}.{role}_num_nodes"
    return positive_int(get(cfg, path, 1), path)


def _convert_nodes(cfg: dict[str, Any], from_gpus: int, to_gpus: int, changes: list[Change]) -> None:
    roles = _active_roles(cfg)
    policy_nodes = _convert_role(cfg, "policy", from_gpus, to_gpus, changes)
    for role in ("ref", "critic"):
        if has(cfg, f"{PLACEMENT}.{role}_num_nodes"):
            _convert_role(cfg, role, from_gpus, to_gpus, changes, inactive_fallback=None if roles[role] else policy_nodes)


def _convert_role(cfg: dict[str, Any], role: str, from_gpus: int, to_gpus: int, changes: list[Change],
                  inactive_fallback: int | None = None) -> int | None:
    """The converted node count; an absent or null count stays so (the launcher fills it from
    --num-nodes)."""
    path = f"{PLACEMENT}.{role}_num_nodes"
    old = get(cfg, path)
    if old is None:
        return None
    if inactive_fallback is not None and (isinstance(old, bool) or not isinstance(old, int) or old < 1
                                          or (old * from_gpus) % to_gpus):
        put(cfg, path, inactive_fallback)
        changes.append(Change("TOPO-NODES", path, f"{show(old)} -> {inactive_fallback} (the {role} model is not used; "
                                                  "mirrors the policy so the shapes agree)"))
        return inactive_fallback
    old = positive_int(old, path)
    gpus = old * from_gpus
    if gpus % to_gpus:
        raise IrisrlError(
            f"{path}: {old} node(s) x {from_gpus} GPUs = {gpus} GPUs is not a whole number of {to_gpus}-GPU nodes",
            f"change {path} in the Jupiter config so that nodes x {from_gpus} is a multiple of {to_gpus}, "
            "or pass the right --from-gpus-per-node")
    new = gpus // to_gpus
    if new != old:
        put(cfg, path, new)
        changes.append(Change("TOPO-NODES", path,
                              f"{old} -> {new} ({old} x {from_gpus} GPUs = {gpus} GPUs = {new} node(s) of {to_gpus})"))
    return new


def _force_gpus_per_node(cfg: dict[str, Any], gpus: int, changes: list[Change]) -> None:
    """Node counts were converted to whole nodes, so a per-node count that is set must match;
    an absent or null one stays (the launcher fills it with --gpus_per_node)."""
    for role in ("policy", "ref", "critic"):
        path = f"{PLACEMENT}.{role}_num_gpus_per_node"
        old = get(cfg, path)
        if old is not None and (old != gpus or isinstance(old, bool)):
            put(cfg, path, gpus)
            changes.append(Change("TOPO-GPUS-PER-NODE-FORCED", path,
                                  f"{show(old)} -> {gpus} (node counts were converted to whole {gpus}-GPU nodes)"))


def _engine_gpus_each(cfg: dict[str, Any]) -> int:
    each = 1
    for name in ("tensor", "pipeline", "data"):
        each *= _engine_parallel(cfg, name)
    return each


def _engine_parallel(cfg: dict[str, Any], name: str) -> int:
    path = f"generator.inference_engine_{name}_parallel_size"
    value = get(cfg, path)
    return 1 if value is None else positive_int(value, path)


def _pin_engines(cfg: dict[str, Any], from_gpus: int, from_nodes: int | None, trainer_gpus: int,
                 changes: list[Change]) -> None:
    """Disaggregated with num_inference_engines null: pin it from the Jupiter node count."""
    path = "generator.num_inference_engines"
    if _colocated(cfg, "colocate_all"):
        return
    if get(cfg, path) is not None:
        _check_pinned(cfg, path, from_gpus, from_nodes, trainer_gpus, changes)
        return
    if from_nodes is None:
        raise IrisrlError(
            f"{path} is null on a disaggregated config (colocate_all: false); the launcher's derivation "
            "(total GPUs // TP) would count the policy GPUs too",
            "pass --from-num-nodes N (the node count of the Jupiter launch) so irisrl can pin it, "
            f"or set {path} in the Jupiter config")
    each = _engine_gpus_each(cfg)
    total = from_nodes * from_gpus
    spare = total - trainer_gpus
    if spare <= 0 or spare % each:
        raise IrisrlError(
            f"--from-num-nodes {from_nodes}: {from_nodes} x {from_gpus} = {total} GPUs minus {trainer_gpus} trainer "
            f"GPUs = {spare} engine GPUs, which is not a positive multiple of {each} GPUs per engine (tp x pp x dp)",
            "check --from-num-nodes against the Jupiter launch, or set generator.num_inference_engines explicitly")
    engines = spare // each
    tp = _engine_parallel(cfg, "tensor")
    put(cfg, path, engines)
    changes.append(Change("ENG-EXPLICIT", path,
                          f"null -> {engines} (({from_nodes} x {from_gpus} - {trainer_gpus} trainer GPUs) / {each} "
                          f"GPUs per engine); the launcher's derivation would give {total} // TP {tp} = {total // tp}"))


def _check_pinned(cfg: dict[str, Any], path: str, from_gpus: int, from_nodes: int | None, trainer_gpus: int,
                  changes: list[Change]) -> None:
    """A pinned engine count is kept; say so when --from-num-nodes implies another one."""
    pinned = get(cfg, path)
    if from_nodes is None or isinstance(pinned, bool) or not isinstance(pinned, int):
        return
    implied = (from_nodes * from_gpus - trainer_gpus) / _engine_gpus_each(cfg)
    if implied != pinned:
        changes.append(Change("ENG-EXPLICIT", path, f"kept the pinned {pinned}; note --from-num-nodes {from_nodes} "
                                                    f"implies {implied:g} ({from_nodes} x {from_gpus} - {trainer_gpus} "
                                                    "trainer GPUs, per engine tp x pp x dp)"))


def _disable_db_registration(cfg: dict[str, Any], changes: list[Change]) -> None:
    path = "trainer.enable_db_registration"
    if "enable_db_registration" in cfg and cfg["enable_db_registration"] is not False:
        cfg["enable_db_registration"] = False
        changes.append(Change("CFG-DB-REGISTRATION", "enable_db_registration", "-> false (a manual cleanup step)"))
    old = get(cfg, path, None)
    if old is not None and old is not False:
        put(cfg, path, False)
        changes.append(Change("CFG-DB-REGISTRATION", path, f"{show(old)} -> false (DB registration is a manual cleanup step)"))
