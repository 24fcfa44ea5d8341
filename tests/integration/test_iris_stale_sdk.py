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
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("IRISRL_USER", "tester")
    service = importlib.import_module(local_cluster.CLIENT_AGE_MODULE)
    monkeypatch.setattr(service, local_cluster.CLIENT_AGE_ATTR, datetime.timedelta(days=-1))
    config = tmp_path / "local.yaml"
    config.write_text(local_cluster.local_cluster_yaml(2))
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


def test_launch_refused_as_too_old_exits_6_with_the_fix_and_records_nothing(
        refusing_controller: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole command: `irisrl launch --controller-url` (the fit gate would refuse the fake
    nodes' memory, so --allow-queue) prints one error and its fix, exits 6, and the ledger
    stays empty."""
    from irisrl.cli.main import main

    monkeypatch.setenv("HF_TOKEN", "hf_dummy-token")
    repo = Path(__file__).resolve().parents[2]
    with pytest.raises(SystemExit) as done:
        main(["launch", "--rl_config", str(repo / "examples/configs/smoke_colocated.yaml"), "--workspace",
              str(repo / "examples/workspace"), "--num-nodes", "2", "--controller-url", refusing_controller,
              "--no-wait", "--allow-queue", "--job-name", "stale-e2e", "--train_data", '["DCAgent/tasks"]'])
    err = capsys.readouterr().err
    assert done.value.code == 6, err
    assert f"error: the Iris controller at {refusing_controller} refused the submission" in err
    assert "fix:   upgrade the SDK and retry:" in err and "pip install --upgrade --pre marin-iris" in err
    assert "Traceback" not in err and "ConnectError" not in err
    with pytest.raises(SystemExit) as runs:
        main(["runs", "--json"])
    assert runs.value.code == 0 and "stale-e2e" not in capsys.readouterr().out
