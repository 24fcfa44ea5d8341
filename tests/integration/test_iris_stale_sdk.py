"""A real Iris controller that refuses this SDK as too old (its own FRESHNESS_WINDOW knob,
the one irisrl widens for the controllers it starts, set the other way): the submit fails
with one clear error, exit 6 and the upgrade command, and nothing is submitted."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import trivial_plan  # noqa: E402

from irisrl.backends import local_cluster  # noqa: E402
from irisrl.util.errors import IrisrlError  # noqa: E402
from irisrl.util.exitcodes import Exit  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture
def refusing_controller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An in-process Iris local controller whose client-age window is negative: every root
    submission is refused exactly as a real controller refuses a stale build."""
    import importlib

    from iris.cluster.backends.local.cluster import LocalCluster
    from iris.cluster.config import load_config, make_local_config

    monkeypatch.setenv("HOME", str(tmp_path / "home"))   # the SDK writes a token DB under ~/.iris
    service = importlib.import_module(local_cluster.CLIENT_AGE_MODULE)
    monkeypatch.setattr(service, local_cluster.CLIENT_AGE_ATTR, datetime.timedelta(days=-1))
    config = tmp_path / "local.yaml"
    config.write_text(local_cluster.local_cluster_yaml(1))
    cluster = LocalCluster(make_local_config(load_config(config)))
    url = cluster.start()
    try:
        yield url
    finally:
        cluster.close()


def test_stale_sdk_refusal_is_one_clear_error_with_the_upgrade_command(refusing_controller: str,
                                                                       tmp_path: Path) -> None:
    from irisrl.backends.iris_client import IrisBackend

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "hello.txt").write_text("hello\n")
    plan = trivial_plan("stale-sdk", ["true"], ws)
    with IrisBackend(refusing_controller) as backend:
        with pytest.raises(IrisrlError) as refused:
            backend.submit(plan)
        assert backend.list_jobs() == [], "a refused submission must leave no job behind"
    err = refused.value
    assert err.exit_code == Exit.SDK_TOO_OLD == 6
    assert "too old" in err.message and "marin-iris" in err.message and "nothing was submitted" in err.message
    assert "accepts builds from" in err.message        # the controller's minimum date, read from its message
    assert "-m pip install --upgrade --pre marin-iris" in err.fix
    assert "Traceback" not in err.message and "ConnectError" not in err.message
