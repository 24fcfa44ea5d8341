"""`irisrl launch --resume JOB`: a new launch that continues JOB from its latest complete
checkpoint (ops/checkpoints.py says which one).

Refused unless: JOB is in the ledger (its row holds the plan it launched with), it has a
latest complete checkpoint, the hyperparameters match the original's, and the layout matches
(or `--allow-layout-change`); each refusal shows the difference.

The trainer's resume settings, as SkyRL names them (marin-community/MarinSkyRL
skyrl-train/skyrl_train/trainer.py @ a559688ccdfe, load_checkpoints; utils/trainer_utils.py
ResumeMode none|latest|from_path): `trainer.resume_mode=from_path` with
`trainer.resume_path=<ckpt_path>/global_step_N` (the exact dir irisrl checked, rather than
`latest`, which re-reads the marker and refuses when a newer unfinished dir is more than
ckpt_interval ahead), and `trainer.ckpt_path=<the original's>` so the resumed run's saves
continue in the same place (and a second resume finds them). SkyRL then sets global_step = N
and increments before the first step: the first step the resumed run logs is N + 1.

Compared (both sides from the masked plan JSON, so old ledger rows work too):
- layout: nodes, GPUs per node, and the Hydra arguments that place or shard the model
  (trainer.placement.*, num_inference_engines, every *parallel_size, fsdp_size);
- hparams: every other Hydra argument except per-run names and paths (the keys
  plan/build.hparams_fingerprint skips), the resume settings themselves and
  trainer.max_steps (a resume may extend a run), plus the model and the train data.
A fresh rendezvous: the resumed plan's rendezvous dir is new (plan/build makes one per
launch); the original's, passed back with --rendezvous-dir, is refused."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from irisrl.config.masking import MASK
from irisrl.ops.checkpoints import Checkpoint, list_checkpoints, run_ckpt_path
from irisrl.util.errors import IrisrlError, UsageError

if TYPE_CHECKING:
    from irisrl.ledger.store import Ledger
    from irisrl.plan.build import PlanInputs
    from irisrl.plan.model import LaunchPlan

PlanJson = Mapping[str, object]

_RUN_KEYS = frozenset({"run_name", "project_name", "ckpt_path", "export_path", "hf_hub_repo_id", "hf_hub_revision",
                       "path", "trials_dir", "trace_dir", "logger", "resume_mode", "resume_path", "max_steps",
                       "train_data"})   # train_data: compared as typed (locally its task dirs are per job)
_LAYOUT = re.compile(r"^trainer\.placement\.|(^|\.)(num_inference_engines|fsdp_size|[a-z_]*parallel_size)$")
_ARG = re.compile(r"^[+~]*([A-Za-z0-9_.@/-]+)=(.*)$")
MAX_DIFF_LINES = 12


@dataclass(frozen=True)
class ResumeSource:
    job_id: str
    plan: PlanJson              # the original launch's masked plan (the ledger's row)
    ckpt_path: str
    checkpoint: Checkpoint      # its latest complete checkpoint


def resume_source(job: str, ledger: "Ledger", env: Mapping[str, str] | None = None) -> ResumeSource:
    """The original run and its latest complete checkpoint, or a refusal saying why not."""
    job_id, ckpt_path = run_ckpt_path(job, ledger)
    plan = ledger.plan_for(job_id) or {}
    listing = list_checkpoints(ckpt_path, job_id, env, sizes=False)
    latest = listing.latest_complete
    if latest is None:
        why = "; ".join(listing.notes) or "no global_step_N dir"
        raise IrisrlError(f"cannot resume {job_id}: no complete checkpoint under {ckpt_path} ({why})",
                          f"list what is there: irisrl checkpoints {job_id}")
    return ResumeSource(job_id, plan, ckpt_path, latest)


def resume_overrides(src: ResumeSource) -> tuple[str, ...]:
    """The trainer's resume settings, appended last (Hydra: the last assignment wins)."""
    return ("++trainer.resume_mode=from_path", f"++trainer.resume_path={src.checkpoint.path}",
            f"++trainer.ckpt_path={src.ckpt_path}")


def resumed_options(options: "PlanInputs", src: ResumeSource) -> "PlanInputs":
    """The launch options with the original's flags where not given (plan/build.launch_flags:
    its config, overrides, model, data, profile, workspace, SkyRL ref, GPUs per node; its
    --skyrl_override flags first, the given ones after them, so a given one wins), its node
    count and role, the resume settings last, and a job name of its own (`<original>-s<step>-<HHMMSS>`)."""
    plan = src.plan
    flags = recorded_flags(options, src)
    name = options.job_name or _resumed_name(str(plan.get("job_name") or src.job_id.rsplit("/", 1)[-1]),
                                             src.checkpoint.step)
    recorded = [o for o in _list(flags.get("skyrl_override")) if o not in options.skyrl_overrides and MASK not in o]
    return dataclasses.replace(
        options, job_name=name, rl_config=options.rl_config or _recorded_config(flags, src),
        gpus_per_node=options.gpus_per_node or _int(flags.get("gpus_per_node")),
        profile=options.profile or _str(flags.get("profile")),
        workspace=options.workspace or _str(flags.get("workspace")),
        skyrl_ref=options.skyrl_ref or _str(flags.get("skyrl_ref")),
        model_path=options.model_path or _str(flags.get("model_path")),
        train_data=options.train_data if options.train_data is not None else _str(flags.get("train_data")),
        num_nodes=options.num_nodes or _int(plan.get("num_nodes")),
        role=options.role or _str(plan.get("role")),   # a trainer run resumes as one, --local too
        skyrl_overrides=(*recorded, *options.skyrl_overrides, *resume_overrides(src)))


def recorded_flags(options: "PlanInputs", src: ResumeSource) -> dict[str, object]:
    """The launch flags JOB's ledger row recorded (plan/build.launch_flags); {} for a row from
    before irisrl recorded them, which resumes only with the flags given again."""
    flags = src.plan.get("launch_flags")
    if isinstance(flags, dict):
        _check_no_masked(flags, options, src)
        return dict(flags)
    if options.rl_config is None:
        raise UsageError(f"cannot resume {src.job_id} without --rl_config: its ledger row is from before irisrl "
                         "recorded launch flags, so which ones it was launched with is not known",
                         f"repeat them: irisrl launch --resume {src.job_id} {_flags_to_repeat(src.plan)} and each "
                         "--skyrl_override the original had (a missing one is refused as an hparams change "
                         "that names it)")
    return {}


def _check_no_masked(flags: Mapping[str, object], options: "PlanInputs", src: ResumeSource) -> None:
    """A recorded override that held a secret value was masked (plan.to_dict): it must be
    given again, or it would be passed on as the mask."""
    given = {m.group(1) for o in options.skyrl_overrides if (m := _ARG.match(o))}
    for override in _list(flags.get("skyrl_override")):
        m = _ARG.match(override)
        if MASK in override and (m is None or m.group(1) not in given):
            raise UsageError(f"cannot resume {src.job_id} from its recorded flags: its --skyrl_override "
                             f"{override} held a secret value, which the ledger never keeps",
                             "pass that --skyrl_override again with --resume (the other recorded flags are "
                             "repeated for you)")


def _flags_to_repeat(plan: PlanJson) -> str:
    """The original's flags as far as its plan shows them (the overrides are not told apart
    from the config's own values there)."""
    parts = [f"--rl_config {plan.get('config_path') or 'CONFIG.yaml'}"]
    if plan.get("workspace") not in (None, "."):
        parts.append(f"--workspace {plan.get('workspace')}")
    if plan.get("skyrl_ref"):
        parts.append(f"--skyrl-ref {plan.get('skyrl_ref')}")
    return " ".join(parts)


def _recorded_config(flags: Mapping[str, object], src: ResumeSource) -> str:
    """The recorded config path, which must still be there (its content is compared through
    the resolved arguments: check_resumed)."""
    path = _str(flags.get("rl_config")) or ""
    if not os.path.isfile(path):
        raise UsageError(f"cannot resume {src.job_id}: its recorded config {path or '(none)'} no longer exists",
                         f"pass --rl_config with the original's config (sha256 "
                         f"{str(src.plan.get('config_sha256') or '?')[:12]}) or a copy of it")
    return path


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _list(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _resumed_name(original: str, step: int) -> str:
    suffix = f"-s{step}-{time.strftime('%H%M%S', time.gmtime())}"
    return original[:63 - len(suffix)].rstrip("-") + suffix


# ---------------------------------------------------------------- what must match


def split_args(plan: PlanJson) -> tuple[dict[str, str], dict[str, str]]:
    """(layout, hparams) of a plan JSON: key -> value, per the module doc."""
    layout = {"num_nodes": str(plan.get("num_nodes")), "gpus_per_node": str(plan.get("gpus_per_node"))}
    hparams = {"model": str(plan.get("model_path")), "train_data": json.dumps(plan.get("train_data") or [])}
    args = plan.get("hydra_args")
    for arg in args if isinstance(args, list) else []:
        m = _ARG.match(str(arg))
        if m is None:
            hparams[str(arg)] = ""          # a bare config-group arg: compared as itself
            continue
        key, value = m.group(1), canonical(m.group(2))
        if _LAYOUT.search(key):
            layout[key] = value
        elif key.rsplit(".", 1)[-1] not in _RUN_KEYS and not key.endswith(("_path", "_dir")):
            hparams[key] = value
    return layout, hparams


def canonical(value: str) -> str:
    """One spelling per value: quotes dropped, numbers as Python writes them (1e-6 and
    1e-06 alike), true/false/null lower case; anything else as given."""
    text = value.strip().strip("'\"")
    for parse in (int, float):
        try:
            return repr(parse(text))
        except ValueError:
            pass
    return text.lower() if text.lower() in ("true", "false", "null", "none") else text


def fingerprint(values: Mapping[str, str]) -> str:
    return hashlib.sha256(json.dumps(dict(values), sort_keys=True).encode()).hexdigest()[:16]


def diff(old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    """`key: old -> new` lines (absent shown as -), at most MAX_DIFF_LINES and a count."""
    keys = sorted(k for k in {*old, *new} if old.get(k) != new.get(k))
    lines = [f"{k}: {old.get(k, '-')} -> {new.get(k, '-')}" for k in keys[:MAX_DIFF_LINES]]
    return lines + ([f"... and {len(keys) - MAX_DIFF_LINES} more"] if len(keys) > MAX_DIFF_LINES else [])


def check_resumed(plan: PlanJson, src: ResumeSource, allow_layout_change: bool = False) -> list[str]:
    """Refuse a resumed plan that does not match the original; returns notes (an allowed
    layout change) for the dry run and the ledger."""
    old_layout, old_hp = split_args(src.plan)
    new_layout, new_hp = split_args(plan)
    changed_config = _config_change(plan, src)
    if old_hp != new_hp:
        raise IrisrlError(f"cannot resume {src.job_id}: the hyperparameters differ from the original run's "
                          f"(fingerprint {fingerprint(old_hp)} -> {fingerprint(new_hp)}"
                          f"{'; ' + changed_config if changed_config else ''}):\n  "
                          + "\n  ".join(diff(old_hp, new_hp)),
                          "launch with the original's config and --skyrl_override flags (trainer.max_steps may "
                          "change)" + _keep_originals(src.plan, old_hp, new_hp))
    notes = [changed_config + ": its resolved hyperparameters match"] if changed_config else []
    if old_layout != new_layout:
        lines = diff(old_layout, new_layout)
        if not allow_layout_change:
            raise IrisrlError(f"cannot resume {src.job_id}: the layout differs from the original run's:\n  "
                              + "\n  ".join(lines),
                              "keep the original layout, or pass --allow-layout-change when the checkpoint can be "
                              "resharded (Megatron dist_checkpointing can; an FSDP world-size change may not load)")
        notes.append("layout changed (--allow-layout-change): " + "; ".join(lines))
    rdzv = plan.get("rendezvous_dir")
    if rdzv and str(rdzv).rstrip("/") == str(src.plan.get("rendezvous_dir") or "").rstrip("/"):
        raise IrisrlError(f"cannot resume {src.job_id} on its own rendezvous dir {rdzv}: its head and member "
                          "files would be read as this gang's", "leave out --rendezvous-dir: a fresh one is made")
    return notes


def _config_change(plan: PlanJson, src: ResumeSource) -> str:
    """Says so when the config's content is not the original's (the ledger's sha256): not a
    refusal of its own, as only the resolved arguments that differ are (a comment or a run
    name may change), but shown with the resume."""
    old, new = src.plan.get("config_sha256"), plan.get("config_sha256")
    if not old or old == new:
        return ""
    return f"config {plan.get('config_path')} changed since {src.job_id} was launched " \
           f"(sha256 {str(old)[:12]} -> {str(new)[:12]})"


def _keep_originals(plan: PlanJson, old: Mapping[str, str], new: Mapping[str, str]) -> str:
    """`; to keep the original's values: --model_path M --skyrl_override '<arg>' ...` from the
    original's plan, for each differing key it had."""
    keys = {k for k in old if old.get(k) != new.get(k)}
    flags = [f"--model_path {plan.get('model_path')}"] if "model" in keys and plan.get("model_path") else []
    flags += [f"--train_data '{old['train_data']}'"] if "train_data" in keys else []
    args = plan.get("hydra_args")
    found = {m.group(1): str(a) for a in (args if isinstance(args, list) else [])
             if (m := _ARG.match(str(a))) and m.group(1) in keys}
    flags += [f"--skyrl_override '{found[k]}'" for k in sorted(found)]
    return "; to keep the original's values: " + " ".join(flags[:MAX_DIFF_LINES]) if flags else ""


# ---------------------------------------------------------------- the launch's calls


def resumed_inputs(options: "PlanInputs", ledger: "Ledger | None" = None, env: Mapping[str, str] | None = None
                   ) -> "tuple[PlanInputs, ResumeSource | None]":
    """With `options.resume`: the checked source and the options its plan is built from
    (resumed_options); otherwise the options as given and no source."""
    from irisrl.ledger.store import Ledger

    if not options.resume:
        return options, None
    src = resume_source(options.resume, ledger or Ledger(), env)
    return resumed_options(options, src), src


def resumed_plan(plan: "LaunchPlan", src: ResumeSource, allow_layout_change: bool = False) -> "LaunchPlan":
    """The resumed plan, compared (check_resumed); its tags name what it resumes (`resume_of`,
    `resume_step`, any `resume_note`), and its recorded flags leave out the resume settings
    (the next resume sets its own)."""
    notes = check_resumed(plan.to_dict(), src, allow_layout_change)
    tags = {**plan.tags, "resume_of": src.job_id, "resume_step": str(src.checkpoint.step),
            **({"resume_note": "; ".join(notes)} if notes else {})}
    settings = resume_overrides(src)
    flags = {**plan.launch_flags,
             "skyrl_override": [o for o in plan.launch_flags.get("skyrl_override", []) if o not in settings]}
    return dataclasses.replace(plan, tags=tags, launch_flags=flags)
