"""The types ops/ functions take and return, named in one place for the CLI (which imports
nothing from irisrl but ops/, cli/ and util/) and for Python callers. Only types: the logic
that makes and reads them is in the ops module named beside each. Each loads on first use
(PEP 562), so `validate` and `launch --dry-run` load no fleet or fit code for a name."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from irisrl.backends.fit import FitReport                 # ops.fit_check.fit
    from irisrl.config.budget import Budget                   # ops.validation / ops.planning
    from irisrl.config.edits import Change                    # ops.rewrite: port, smoke-config
    from irisrl.core.findings import Finding                  # every check
    from irisrl.core.target import Target                     # where a command runs
    from irisrl.observe.cost import CostReport, FleetReport   # ops.cost.cost, ops.fleet.fleet
    from irisrl.plan.build import PlanInputs                  # what runs: ops.planning.plan_launch
    from irisrl.plan.model import LaunchPlan                  # ops.planning.Planned.plan

_HOME = {"FitReport": "irisrl.backends.fit", "Budget": "irisrl.config.budget", "Change": "irisrl.config.edits",
         "Finding": "irisrl.core.findings", "Target": "irisrl.core.target", "CostReport": "irisrl.observe.cost",
         "FleetReport": "irisrl.observe.cost", "PlanInputs": "irisrl.plan.build", "LaunchPlan": "irisrl.plan.model"}

__all__ = ["Budget", "Change", "CostReport", "Finding", "FitReport", "FleetReport", "LaunchPlan", "PlanInputs",
           "Target"]


def __getattr__(name: str) -> type:
    if name not in _HOME:
        raise AttributeError(f"module 'irisrl.ops.types' has no attribute {name!r}")
    value: type = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value
