"""The engine under the CLI, and irisrl's Python API (README "Python API"):

- `launch(plan, settings) -> Launched`: live rules, temporary local cluster, fit gate,
  submit, ledger, follow, rehearsal summary (ops/launcher.py);
- `watch(job, ...) -> exit code`: follow a job with check-ins / the watchdog (ops/watching.py);
- `health(job, ...) -> HealthCheck`: the health ladder's verdict on a live job's logs so far
  (or on log files), the very call `irisrl health` makes (ops/health_check.py);
- `kill(job, yes=..., ...) -> Killed`: terminate one job (only with `yes`), confirm it ended
  (ops/jobs.py);
- `JobWatcher`: the one poll loop both use, yielding events (ops/watcher.py);
- `output`: where what ops/ reports goes (ops/output.py).

Light to import: the names above load on first use (PEP 562), so the CLI can install its
output sinks (`irisrl.ops.output`) without loading the engine, and each function imports the
backend, Iris and Ray only when called."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from irisrl.ops.launcher import LaunchSettings, Launched, launch
    from irisrl.ops.watcher import JobWatcher
    from irisrl.ops.health_check import HealthCheck, health
    from irisrl.ops.jobs import Killed, kill
    from irisrl.ops.watching import watch

_HOME = {"LaunchSettings": "launcher", "Launched": "launcher", "launch": "launcher",
         "JobWatcher": "watcher", "HealthCheck": "health_check", "health": "health_check", "Killed": "jobs", "kill": "jobs", "watch": "watching"}

__all__ = ["HealthCheck", "JobWatcher", "Killed", "LaunchSettings", "Launched", "health", "kill", "launch", "watch"]


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module 'irisrl.ops' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"irisrl.ops.{_HOME[name]}"), name)
    globals()[name] = value
    return value
