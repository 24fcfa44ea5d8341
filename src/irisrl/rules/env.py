"""extra_env rules. The Iris path forwards only the top-level `extra_env:` mapping into the
pod (values coerced to strings, launcher values win); Kubernetes does not shell-expand it.
Values of secret-looking keys are never printed."""

from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

from irisrl.config.extra_env_keys import (coerce_env_value, is_cloud_cred_key, is_launcher_key,
                                          looks_secret)
from irisrl.config.models import is_hf_id
from irisrl.config.placement import get_path
from irisrl.core.findings import Finding
from irisrl.rules.catalogue import rule
from irisrl.rules.context import RuleContext

SIF_KEYS = ("TRITON_LIBCUDA_PATH",)
SIF_PREFIXES = ("APPTAINERENV_", "SINGULARITYENV_", "APPTAINER_", "SINGULARITY_")
SIF_MARKERS = ("/.singularity.d", "/.singularity-d")
OFFLINE_KEYS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE")
NCCL_CRIPPLE_KEYS = ("NCCL_P2P_DISABLE", "NCCL_NVLS_ENABLE", "NCCL_COLLNET_ENABLE")
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def _misplaced(ctx: RuleContext) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(section, mapping) for every `<section>.extra_env` mapping (e.g. container.extra_env)."""
    for section, block in ctx.raw.items():
        if section != "extra_env" and isinstance(block, Mapping) and isinstance(block.get("extra_env"), Mapping):
            yield str(section), block["extra_env"]


def _items(ctx: RuleContext, everywhere: bool = False) -> Iterator[tuple[str, Any, str]]:
    """(key, value, path) of the top-level extra_env; with `everywhere`, also of misplaced
    extra_env blocks, so a port learns what would still be wrong after moving them."""
    for key, value in ctx.view.extra_env.items():
        yield key, value, f"extra_env.{key}"
    if everywhere:
        for section, env in _misplaced(ctx):
            for key, value in env.items():
                yield str(key), value, f"{section}.extra_env.{key}"


def _shown(key: str, value: str) -> str:
    return "(value hidden)" if looks_secret(key) else repr(value)


@rule("ENV-MISPLACED", "error", "An extra_env mapping outside the top level (the Iris path ignores it)")
def env_misplaced(ctx: RuleContext) -> Iterator[Finding]:
    for section, env in _misplaced(ctx):
        yield env_misplaced.finding(f"{section}.extra_env", f"`{section}.extra_env` is never forwarded into the pod "
                                    f"({len(env)} key(s) would be lost)",
                                    "move these keys to the top-level `extra_env:` mapping")


@rule("ENV-SIF", "error", "SIF/Apptainer-only env (APPTAINERENV_*, TRITON_LIBCUDA_PATH, /.singularity.d paths)")
def env_sif(ctx: RuleContext) -> Iterator[Finding]:
    for key, value, path in _items(ctx, everywhere=True):
        text = coerce_env_value(value)
        if key in SIF_KEYS or key.startswith(SIF_PREFIXES) or any(m in text for m in SIF_MARKERS):
            yield env_sif.finding(path, f"{key} is a SIF/Apptainer-only setting; the gpu-rl image does not have it",
                                  f"delete {key} from extra_env")


HUB_MODEL_KEYS = ("trainer.ref.model.path", "trainer.critic.model.path", "trainer.policy.model.tokenizer_path")


def _offline_keys(ctx: RuleContext) -> list[tuple[str, str, str]]:
    """(key, value, path) of the offline switches that are on."""
    on = []
    for key, value, path in _items(ctx, everywhere=True):
        text = coerce_env_value(value).strip().lower()
        if key in OFFLINE_KEYS and text not in ("0", "false", "no", "off", ""):
            on.append((key, text, path))
    return on


def _unstaged_hub_models(ctx: RuleContext) -> list[tuple[str, str]]:
    """(key path, HF id) of Hub models SkyRL loads that the per-node prestage does not fetch:
    irisrl prestages only the policy model (--model_path or trainer.policy.model.path)."""
    out = []
    for path in HUB_MODEL_KEYS:
        value = get_path(ctx.raw, path)
        if isinstance(value, str) and is_hf_id(value) and value != ctx.model_path:
            out.append((path, value))
    return out


@rule("ENV-OFFLINE", "error", "HF offline mode with a Hub model the per-node prestage does not fetch")
def env_offline(ctx: RuleContext) -> Iterator[Finding]:
    """HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE are fine once the model is on every node: the
    launcher prestages the policy model per node in a child process without the offline
    switches, then the ranks run offline (marin-community/MarinSkyRL cloud/iris/hf_model_cache.py
    _download_snapshot @ 08bd3afd8535c94cd27f0a9b1704d7d63c2d26d1; configs/128GPU_80B_A3B_next_cp1.yaml
    @ 03b8394b28039d6a403ef55e170fb76e579d1a01 sets both). irisrl's trainer prestages the policy
    model the same way (runtime/staging.py), so offline breaks only a model that is not prestaged:
    none at all, or a ref/critic/tokenizer repo other than the policy model."""
    on = _offline_keys(ctx)
    if not on or not ctx.profile.egress:
        return
    key, text, path = on[0]
    if not ctx.model_path:
        yield env_offline.finding(path, f"{key}={text!r} but no policy model is named, so nothing is prestaged on the "
                                  "nodes and every rank fails to resolve the model offline",
                                  "set trainer.policy.model.path (or --model_path), or delete the offline switches")
        return
    for where, repo in _unstaged_hub_models(ctx):
        yield env_offline.finding(where, f"{key}={text!r}: `{where}` is the Hub model {repo}, but only the policy "
                                  f"model {ctx.model_path} is prestaged on each node; loading {repo} offline fails",
                                  f"point `{where}` at the policy model (or a local path), or delete {key}")


@rule("ENV-NCCL-CRIPPLE", "error", "NCCL_P2P_DISABLE/NCCL_NVLS_ENABLE/NCCL_COLLNET_ENABLE (cripple NVLink all-reduce)")
def env_nccl_cripple(ctx: RuleContext) -> Iterator[Finding]:
    for key, value, path in _items(ctx, everywhere=True):
        if key in NCCL_CRIPPLE_KEYS:
            yield env_nccl_cripple.finding(
                path, f"{key}={coerce_env_value(value)!r} is a GH200/SIF workaround; on H100 + IB it cripples the "
                "intra-node NVLink all-reduce TP engines depend on", f"delete {key} (use NCCL defaults)")


@rule("ENV-UNEXPANDED", "error", "$VAR / ${VAR} in an extra_env value (Kubernetes does not expand it)")
def env_unexpanded(ctx: RuleContext) -> Iterator[Finding]:
    for key, value, path in _items(ctx, everywhere=True):
        names = sorted(set(_VAR.findall(coerce_env_value(value))))
        if names:
            hint = f" (for LD_LIBRARY_PATH: {ctx.profile.rl_lib})" if key == "LD_LIBRARY_PATH" else ""
            yield env_unexpanded.finding(path, f"{key} refers to ${', $'.join(names)}, which reaches the pod literally "
                                         "(no shell expands env values there)",
                                         f"write the literal value{hint}")


def _loose_entries(value: str) -> list[str]:
    """LD_LIBRARY_PATH entries the dynamic loader reads as the process's working directory or
    relative to it: empty ones (`a::b`, a leading/trailing colon) and relative paths."""
    return [entry or "(empty)" for entry in re.split(r"[:;]", value) if not entry.startswith("/")]


@rule("ENV-LD-LIBRARY-PATH", "warning", "LD_LIBRARY_PATH in extra_env with an empty or relative entry")
def env_ld_library_path(ctx: RuleContext) -> Iterator[Finding]:
    """Only a value that is set can be wrong: absent is how production runs. Both RL images
    build /opt/openthoughts/envs/rl as a uv venv (no shared libraries in lib/; "the RL conda
    prefix" in the notes is a misnomer) and set no LD_LIBRARY_PATH; the CUDA/NCCL libraries come
    from the nvidia-* wheels (MarinSkyRL docker/Dockerfile.gpu-rl @ 10bccbcd8264b8b06decf598be088116adeee9e5,
    open-thoughts/OpenThoughts-Agent docker/Dockerfile.gpu-rl @ 62dbcf4327f7f422f2a0847be984e6fa46e9ada3,
    whose image the launcher pins), and the fork's runtime
    carries the task's own LD_LIBRARY_PATH to its Ray workers (cloud/iris/env_vars.py
    EnvVarManager.from_config @ 03bd2d53c1533827ff3ced7adc5c9a2f4f394cb9). Nine of the ten
    agentic configs in cloud/iris/configs ran without it (tests/fixtures/production_agentic/).
    The launcher notes' rule -- a literal path, not `$CONDA_PREFIX/lib` -- is ENV-UNEXPANDED's,
    and SIF paths are ENV-SIF's; this rule adds what neither sees: entries that make the loader
    search the working directory."""
    value = ctx.view.extra_env.get("LD_LIBRARY_PATH")
    if value is None:
        return
    text = coerce_env_value(value)
    if _VAR.search(text):
        return  # ENV-UNEXPANDED reports it (and says which literal to write)
    loose = _loose_entries(text)
    if loose:
        yield env_ld_library_path.finding(
            "extra_env.LD_LIBRARY_PATH", f"LD_LIBRARY_PATH {text!r} has {', '.join(map(repr, loose))}: the loader "
            "reads an empty or relative entry against the task's working directory",
            "use absolute directories only, or delete LD_LIBRARY_PATH (the image needs none)")


@rule("ENV-CLOUD-CREDS", "error", "AWS_*/R2_* in extra_env (they clobber the pod's injected credentials)")
def env_cloud_creds(ctx: RuleContext) -> Iterator[Finding]:
    for key, _value, path in _items(ctx, everywhere=True):
        if is_cloud_cred_key(key):
            yield env_cloud_creds.finding(path, f"{key} would replace the object-store credentials the cluster injects "
                                          "into every pod (and silently target real AWS S3); irisrl never forwards it",
                                          f"delete {key} from extra_env")


@rule("ENV-COERCED", "info", "A non-string extra_env value, coerced to a string")
def env_coerced(ctx: RuleContext) -> Iterator[Finding]:
    for key, value, path in _items(ctx):
        if not isinstance(value, str):
            text = coerce_env_value(value)
            yield env_coerced.finding(path, f"{key} is a {type(value).__name__}; the pod gets the string "
                                      f"{_shown(key, text)}", f'quote it in the YAML (`{key}: "..."`) to say so')


@rule("ENV-COLLISION", "warning", "An extra_env key the launcher sets (the launcher wins)")
def env_collision(ctx: RuleContext) -> Iterator[Finding]:
    for key, _value, path in _items(ctx):
        if is_launcher_key(key):
            yield env_collision.finding(path, f"{key} is set by the launcher; the config's value is ignored",
                                        f"delete {key} from extra_env")
