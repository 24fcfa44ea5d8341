"""`validate(config, ...) -> Validation`: the config-scope rule catalogue on one RL config
and its GPU budget, what `irisrl validate` prints. Credentials a finding quotes are masked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from irisrl.config.budget import Budget
from irisrl.config.profile import DEFAULT_PROFILE
from irisrl.core.findings import Finding, has_errors, sort_findings


class ValidationJSON(TypedDict):
    """`validate --json`: budget holds requested_nodes; null when the config did not load."""
    config: str
    ok: bool
    budget: dict[str, object] | None
    findings: list[dict[str, str]]


@dataclass(frozen=True)
class Validation:
    config: str
    findings: tuple[Finding, ...]     # sorted: errors, warnings, info; by rule, then path
    budget: Budget | None             # None when the config did not load

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def to_dict(self) -> ValidationJSON:
        return {"config": self.config, "ok": self.ok,
                "budget": self.budget.to_dict() if self.budget is not None else None,
                "findings": [f.to_dict() for f in self.findings]}


def validate(config: str, *, num_nodes: int | None = None, gpus_per_node: int | None = None,
             model_path: str | None = None, workspace: str | None = None, overrides: tuple[str, ...] = (),
             profile: str = DEFAULT_PROFILE, fetch_model_config: bool = False) -> Validation:
    """Check `config` as `irisrl validate` does (without num_nodes the node count is not
    checked; the budget still says how many nodes it needs)."""
    from irisrl.config.masking import mask_findings
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import build_context

    ctx = build_context(config, num_nodes=num_nodes, gpus_per_node=gpus_per_node, model_path=model_path,
                        workspace=workspace, overrides=overrides, profile=profile,
                        fetch_model_config=fetch_model_config)
    findings = mask_findings(run_rules(ctx, scopes=("config",)))   # URL credentials a finding quotes
    return Validation(config, tuple(sort_findings(findings)), ctx.budget if ctx.loaded else None)
