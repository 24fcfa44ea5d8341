"""Building the plan a launch submits: `plan_launch(inputs, target, dry_run=) -> Planned`,
what `launch` (then submitting Planned.plan with ops.launch) and `launch --dry-run` (then
printing it) and `fit` (its gang) start from. The plan is plan/build.py's; this adds what
every caller wants around it: the findings sorted, whether the config loaded at all, and the
dry run's two renderings (plan/render.py: secrets scrubbed)."""

from __future__ import annotations

from dataclasses import dataclass

from irisrl.config.budget import Budget
from irisrl.core.findings import Finding, has_errors, sort_findings
from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs
from irisrl.plan.model import LaunchPlan
from irisrl.plan.render import Bundle


@dataclass(frozen=True)
class Planned:
    """`plan` is None when a rule found an error (`findings` says which, sorted by severity).
    `budget` is None when the config did not even load (no GPU arithmetic to show)."""
    plan: LaunchPlan | None
    findings: tuple[Finding, ...]
    budget: Budget | None

    @property
    def ok(self) -> bool:
        return self.plan is not None and not has_errors(self.findings)

    def to_json(self) -> str:
        """`launch --dry-run --json`: the plan plus the exact request submit sends and the
        workspace bundle's files, or {"ok": false, "findings", "budget"} when no plan was built."""
        from irisrl.plan.render import render_error_json, render_json

        if self.plan is None:
            return render_error_json(self.findings, self.budget.to_dict() if self.budget is not None else None)
        return render_json(self.plan, _bundle(self.plan))

    def to_text(self, width: int | None = None) -> str:
        """`launch --dry-run`'s plan for people; its last line says "not submitting"."""
        from irisrl.plan.render import render_text

        if self.plan is None:
            raise ValueError("no plan was built: render the findings instead")
        return render_text(self.plan, width, _bundle(self.plan))


def _bundle(plan: LaunchPlan) -> "Bundle":
    """What the submission's dry run (ops/submission.py: Backend.dryrun's listing, without the
    Iris SDK) says the workspace bundle will hold, and the profile's cap."""
    from irisrl.ops.submission import bundle_cap, dry_run

    cap = bundle_cap(plan)
    return tuple((f.path, f.size) for f in dry_run(plan, bundle_cap=cap).bundle), cap


def plan_launch(inputs: PlanInputs, target: Target = Target(), dry_run: bool = False) -> Planned:
    """The plan `launch` submits to `target` (and `launch --dry-run` prints), after the config
    and launch rules (with `inputs.resume`: the resumed run's, ops/resume.py). `dry_run`: a missing secret warns instead of refusing (LCH-SECRETS)."""
    from irisrl.ops.resume import resumed_inputs, resumed_plan
    from irisrl.plan.build import build_plan

    inputs, src = resumed_inputs(inputs)   # as given unless --resume
    plan, findings, budget = build_plan(inputs, target, dry_run)
    if plan is not None and src is not None:
        plan = resumed_plan(plan, src, inputs.allow_layout_change)
    unloaded = any(f.rule == "CFG-YAML" and f.severity == "error" and f.path == str(inputs.rl_config)
                   for f in findings)
    return Planned(plan, tuple(sort_findings(findings)), None if unloaded else budget)
