"""The daytona SDK and ray[default] 2.60 in one environment (issue 19), as scripts/setup.sh
installs them (extra `iris` + `runtime`, constraints.txt).

Installed on top of Ray as-is, daytona moved OpenTelemetry to 1.45.1 but left Ray's
opentelemetry-exporter-prometheus 0.66b2, which imports CardinalityLimits (sdk >= 1.45.2):
Ray's dashboard and its per-node agent failed to import, and `ray start --head` timed out
("The current node timed out during startup"). constraints.txt pins the matching family.
This test runs in CI after setup (it does not skip): it imports daytona, checks that the
installed OpenTelemetry packages satisfy each other, and starts a real Ray head WITH its
dashboard on 127.0.0.1 (own temp dir and ports, the runtime's RealRayNode, stopped by the
process tree it started; never `ray stop`), then asks the dashboard's HTTP API for Ray's version."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from importlib.metadata import distributions, version
from pathlib import Path

import pytest

from irisrl.runtime.ports import usable_port
from irisrl.runtime.ray_node import RealRayNode

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Ray node on Linux")]
DASHBOARD_DEADLINE_S = 90.0


def test_daytona_imports_with_ray_2_60() -> None:
    import daytona  # noqa: F401 - must import: the snapshot hygiene uses it (ops/daytona.py)
    from daytona import Daytona, DaytonaConfig  # noqa: F401

    assert version("ray") == "2.60.0"
    # what Ray's dashboard imports at start (the import that failed)
    import ray.dashboard.modules.reporter.reporter_agent  # noqa: F401


def test_opentelemetry_packages_satisfy_each_other() -> None:
    from packaging.requirements import Requirement

    installed = {d.metadata["Name"].lower().replace("_", "-"): d for d in distributions()}
    broken = []
    for name, dist in installed.items():
        if not (name.startswith("opentelemetry-") or name in ("daytona", "ray")):
            continue
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate({"extra": "default"}):
                continue
            dep = installed.get(req.name.lower().replace("_", "-"))
            if req.name.lower().startswith("opentelemetry") and dep is not None \
                    and not req.specifier.contains(dep.version, prereleases=True):
                broken.append(f"{name} {dist.version} needs {req}, has {dep.version}")
    assert broken == [], broken


class DashboardHead(RealRayNode):
    """The runtime's Ray node with the dashboard on (it runs with --include-dashboard=false)."""
    dashboard_port = 0

    def _argv(self, head: bool, taken: set[int] | None = None) -> list[str]:
        argv = [a for a in super()._argv(head, taken) if a != "--include-dashboard=false"]
        self.dashboard_port = usable_port(None)
        return argv + ["--include-dashboard=true", "--dashboard-host=127.0.0.1",
                       f"--dashboard-port={self.dashboard_port}"]


def test_a_ray_head_with_its_dashboard_starts_here(tmp_path: Path) -> None:
    ray_bin = str(Path(sys.executable).parent / "ray")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    head = DashboardHead(0, "n0", 1, True, str(tmp_path / "n0"), 120, ray_bin)
    try:
        head.start_head("127.0.0.1", None)   # raises RayNodeError on exit or timeout, with Ray's last lines
        answer = _dashboard_version(head.dashboard_port)
        assert answer["ray_version"] == "2.60.0", answer
        assert head.problem() is None
    finally:
        head.stop()


def _dashboard_version(port: int) -> dict[str, str]:
    deadline = time.monotonic() + DASHBOARD_DEADLINE_S
    last = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/version", timeout=5) as response:
                data: dict[str, str] = json.loads(response.read())
                return data
        except OSError as exc:
            last = str(exc)
            time.sleep(1)
    raise AssertionError(f"Ray's dashboard did not answer on 127.0.0.1:{port} within {DASHBOARD_DEADLINE_S:g} s: {last}")
