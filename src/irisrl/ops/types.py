"""The types ops/ functions take and return, named in one place for the CLI (which imports
nothing from irisrl but ops/, cli/ and util/) and for Python callers. Only types: the logic
that makes and reads them is in the ops module named beside each."""

from __future__ import annotations

from irisrl.backends.fit import FitReport                 # ops.fit.fit
from irisrl.config.budget import Budget                   # ops.validation / ops.planning
from irisrl.config.edits import Change                    # ops.rewrite: port, smoke-config
from irisrl.core.findings import Finding                  # every check
from irisrl.core.target import Target                     # where a command runs
from irisrl.observe.cost import CostReport, FleetReport   # ops.cost.cost, ops.fleet.fleet
from irisrl.plan.build import PlanInputs                  # what runs: ops.planning.plan_launch
from irisrl.plan.model import LaunchPlan                  # ops.planning.Planned.plan

__all__ = ["Budget", "Change", "CostReport", "Finding", "FitReport", "FleetReport", "LaunchPlan", "PlanInputs",
           "Target"]
