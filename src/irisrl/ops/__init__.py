"""The engine under the CLI, and irisrl's Python API (README "Python API"): every command is
parse -> one call here -> render, and these are those calls:

- `validate(config, ...) -> Validation`: the config rules and the GPU budget (ops/validation.py);
- `plan_launch(PlanInputs, Target, dry_run=) -> Planned`: the plan `launch` submits and
  `launch --dry-run` prints (ops/planning.py);
- `fit(plan | PlanInputs, Target, ...) -> FitReport`: fits now / would queue / never
  (ops/fit_check.py; on a backend you hold: `fit_on(backend, request)`);
- `cluster_up / cluster_status / cluster_down`: the persistent local cluster (ops/cluster_admin.py);
- `port(src, out, ...)`, `smoke(src, out, ...) -> Rewritten`: config rewrites (ops/rewrite.py);
- `launch(plan, settings) -> Launched`: live rules, temporary local cluster, fit gate,
  submit, ledger, follow, rehearsal summary (ops/launcher.py);
- `watch(job, ...) -> exit code`: follow a job with check-ins / the watchdog (ops/watching.py);
- `health(job, ...) -> HealthCheck`: the health ladder's verdict on a live job's logs so far
  (or on log files), the very call `irisrl health` makes (ops/health_check.py);
- `kill(job, yes=..., ...) -> Killed`: terminate one job (only with `yes`), confirm it ended
  (ops/jobs.py);
- `fleet` and `cost`: irisrl.ops.fleet.fleet(FleetOptions), irisrl.ops.cost.cost(job, ...);
- `Target`, `PlanInputs`: where a command runs and what a launch runs (ops/types.py names
  every type the functions here take and return);
- `JobWatcher`: the one poll loop both use, yielding events (ops/watcher.py);
- `output`: where what ops/ reports goes (ops/output.py).

Light to import: the names above load on first use (PEP 562), so the CLI can install its
output sinks (`irisrl.ops.output`) without loading the engine, and each function imports the
backend, Iris and Ray only when called."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from irisrl.ops.cluster_admin import cluster_down, cluster_status, cluster_up
    from irisrl.ops.fit_check import fit
    from irisrl.ops.launcher import LaunchSettings, Launched, launch
    from irisrl.ops.planning import Planned, plan_launch
    from irisrl.ops.rewrite import port, smoke
    from irisrl.ops.types import PlanInputs, Target
    from irisrl.ops.validation import Validation, validate
    from irisrl.ops.watcher import JobWatcher
    from irisrl.ops.health_check import HealthCheck, health, log_mask
    from irisrl.ops.jobs import Killed, kill
    from irisrl.ops.watching import watch

_HOME = {"LaunchSettings": "launcher", "Launched": "launcher", "launch": "launcher",
         "JobWatcher": "watcher", "HealthCheck": "health_check", "health": "health_check", "log_mask": "health_check", "Killed": "jobs",
         "kill": "jobs", "watch": "watching", "validate": "validation", "Validation": "validation",
         "plan_launch": "planning", "Planned": "planning", "fit": "fit_check", "cluster_up": "cluster_admin",
         "cluster_status": "cluster_admin", "cluster_down": "cluster_admin", "port": "rewrite", "smoke": "rewrite",
         "PlanInputs": "types", "Target": "types"}

__all__ = ["HealthCheck", "JobWatcher", "Killed", "LaunchSettings", "Launched", "PlanInputs", "Planned", "Target",
           "Validation", "cluster_down", "cluster_status", "cluster_up", "fit", "health", "kill", "launch", "log_mask",
           "plan_launch", "port", "smoke", "validate", "watch"]


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module 'irisrl.ops' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"irisrl.ops.{_HOME[name]}"), name)
    globals()[name] = value
    return value
