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
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from irisrl.ops.checkpoints import Checkpoint, list_checkpoints, run_ckpt_path
from irisrl.util.errors import IrisrlError

if TYPE_CHECKING:
    from irisrl.config.budget import Budget
    from irisrl.core.findings import Finding
    from irisrl.ledger.store import Ledger
    from irisrl.core.target import Target
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
    """The launch options with the original's model, data and node count where not given,
    the resume settings, and a job name of its own (`<original>-s<step>-<HHMMSS>`)."""
    plan = src.plan
    train_data = plan.get("train_data")
    name = options.job_name or _resumed_name(str(plan.get("job_name") or src.job_id.rsplit("/", 1)[-1]),
                                             src.checkpoint.step)
    model = plan.get("model_path")
    nodes = plan.get("num_nodes")
    return dataclasses.replace(
        options, job_name=name,
        model_path=options.model_path or (model if isinstance(model, str) else None),
        train_data=options.train_data if options.train_data is not None else (
            json.dumps(train_data) if isinstance(train_data, list) and train_data else None),
        num_nodes=options.num_nodes or (nodes if isinstance(nodes, int) else None),
        skyrl_overrides=(*options.skyrl_overrides, *resume_overrides(src)))


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
    if old_hp != new_hp:
        raise IrisrlError(f"cannot resume {src.job_id}: the hyperparameters differ from the original run's "
                          f"(fingerprint {fingerprint(old_hp)} -> {fingerprint(new_hp)}):\n  "
                          + "\n  ".join(diff(old_hp, new_hp)),
                          "launch with the original's config and --skyrl_override flags (trainer.max_steps may change)")
    notes = []
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


# ---------------------------------------------------------------- the launch's one call


def build_resumed_plan(options: "PlanInputs", target: "Target", dry_run: bool = False,
                       ledger: "Ledger | None" = None, env: Mapping[str, str] | None = None
                       ) -> "tuple[LaunchPlan | None, list[Finding], Budget]":
    """build_plan for `launch --resume JOB`: the checked source, the resume settings, the
    comparison; the plan's tags name what it resumes (`resume_of`, `resume_step`)."""
    from irisrl.ledger.store import Ledger
    from irisrl.plan.build import build_plan

    if not options.resume:
        return build_plan(options, target, dry_run)
    src = resume_source(options.resume, ledger or Ledger(), env)
    plan, findings, budget = build_plan(resumed_options(options, src), target, dry_run)
    if plan is None:
        return plan, findings, budget
    notes = check_resumed(plan.to_dict(), src, options.allow_layout_change)
    tags = {**plan.tags, "resume_of": src.job_id, "resume_step": str(src.checkpoint.step),
            **({"resume_note": notes[0]} if notes else {})}
    return dataclasses.replace(plan, tags=tags), findings, budget
