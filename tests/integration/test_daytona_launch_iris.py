"""The Daytona snapshot purge inside a real launch (issue 19): a remote-mode, Daytona-backed
plan submitted to the real local Iris cluster (`--controller-url`) purges the stale Harbor
snapshot of the loopback Daytona API (the real SDK, DAYTONA_API_URL) after the fit gate and
before the submit; a plan without Daytona, and a --local launch, leave Daytona alone."""

from __future__ import annotations

import datetime
import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode
from daytona_server import DaytonaServer, FakeSnapshot  # noqa: E402
from iris_plans import trivial_plan  # noqa: E402

from irisrl.ops import LaunchSettings, Target, launch, output  # noqa: E402

KEY = "dtn_rl_launch_0123456789"
NOW = datetime.datetime.now(datetime.timezone.utc)
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("daytona") is None,
                                 reason="the daytona SDK is not installed here (extra `iris`: scripts/setup.sh)")]


@pytest.fixture
def api(on_iris_cluster: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> Iterator[DaytonaServer]:
    for name in ("DAYTONA_API_KEY", "DC_AGENT_SECRET_ENV"):
        monkeypatch.delenv(name, raising=False)
    with DaytonaServer(KEY) as server:
        monkeypatch.setenv("DAYTONA_RL_API_KEY", KEY)
        monkeypatch.setenv("DAYTONA_API_URL", server.url)
        server.snapshots += [
            FakeSnapshot("id-stale", "harbor__stale", NOW - datetime.timedelta(hours=9), NOW - datetime.timedelta(hours=3)),
            FakeSnapshot("id-fresh", "harbor__fresh", NOW - datetime.timedelta(hours=9), NOW)]
        yield server


def _launch(plan: object, settings: LaunchSettings) -> tuple[int, list[str]]:
    lines: list[str] = []
    with output.using(lambda text="", err=False: lines.append(text)):
        code = launch(plan, settings).exit_code
    return code, lines


def test_a_remote_daytona_launch_purges_before_submitting(api: DaytonaServer,
                                                          on_iris_cluster: SimpleNamespace) -> None:
    tags = {"kind": "agentic-rl", "sandbox": "daytona", "series": "dtpurge"}
    plan = trivial_plan("dtpurge-1", ["true"], on_iris_cluster.ws, mode="remote", tags=tags)
    code, lines = _launch(plan, LaunchSettings(Target(controller_url=on_iris_cluster.url), no_wait=True))
    assert code == 0, lines
    assert api.deleted == ["id-stale"] and api.names() == ["harbor__fresh"]
    purge = lines.index("daytona snapshots: total=2 harbor=2 purged=1 kept=1 (quota 40)")
    submitted = next(i for i, line in enumerate(lines) if line.startswith("submitted /tester/dtpurge-1"))
    assert purge < submitted
    assert not any(KEY in line for line in lines)


def test_no_purge_without_daytona_or_on_a_local_launch(api: DaytonaServer, on_iris_cluster: SimpleNamespace) -> None:
    plain = trivial_plan("dtplain-1", ["true"], on_iris_cluster.ws, mode="remote")   # sandbox "none"
    code, lines = _launch(plain, LaunchSettings(Target(controller_url=on_iris_cluster.url), no_wait=True))
    assert code == 0, lines
    local = replace(trivial_plan("dtlocal-1", ["true"], on_iris_cluster.ws),
                    tags={"kind": "agentic-rl", "sandbox": "daytona", "series": "dtlocal"})
    code, lines = _launch(local, LaunchSettings(Target(local=True), no_wait=True))
    assert code == 0, lines
    assert api.requests == [] and len(api.snapshots) == 2
