"""Where a command runs (which Iris controller), apart from what runs (plan/build.PlanInputs)
and how the result is shown (the CLI's --dry-run/--json/--no-wait). The target flags every
JOB command, `launch` and `fit` share: --local, --controller-url, --cluster-config, at most
one. backends/resolve.py turns a Target into a connected backend; plan/build.py reads it for
the plan's mode and storage root."""

from __future__ import annotations

from dataclasses import dataclass

from irisrl.util.errors import UsageError


@dataclass(frozen=True)
class Target:
    local: bool = False
    controller_url: str | None = None
    cluster_config: str | None = None

    @property
    def explicit(self) -> bool:
        return bool(self.local or self.controller_url or self.cluster_config)

    def check(self) -> "Target":
        given = [n for n, v in (("--local", self.local), ("--controller-url", self.controller_url),
                                ("--cluster-config", self.cluster_config)) if v]
        if len(given) > 1:
            raise UsageError(f"{' and '.join(given)} are mutually exclusive", "pass one target flag")
        return self
