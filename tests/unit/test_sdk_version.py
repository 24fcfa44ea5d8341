"""The Iris SDK's version and build date (`irisrl --version`), and recognising the
controller's "client is too old" refusal from the controller's own check."""

from __future__ import annotations

import datetime

import pytest

from irisrl.backends.sdk_version import (FRESHNESS_DAYS, SdkInfo, is_stale_client_refusal, sdk_info,
                                         stale_client_error)
from irisrl.cli.main import main
from irisrl.util.exitcodes import Exit


def controller_refusal() -> BaseException:
    """The exception the controller raises for a stale client (its own function, so a change
    of its code or words in a newer marin-iris fails here)."""
    from iris.cluster.controller import service

    with pytest.raises(Exception) as refused:
        service._check_client_freshness("2000-01-01", datetime.date(2026, 12, 3))
    return refused.value


def test_the_controllers_refusal_is_recognised_and_nothing_else() -> None:
    from connectrpc.code import Code
    from connectrpc.errors import ConnectError

    assert is_stale_client_refusal(controller_refusal())
    assert not is_stale_client_refusal(ConnectError(Code.FAILED_PRECONDITION, "max band: interactive"))
    assert not is_stale_client_refusal(ConnectError(Code.UNAVAILABLE, "client is too old"))
    assert not is_stale_client_refusal(ValueError("client is too old"))


def test_the_error_names_the_sdk_the_minimum_and_the_upgrade_command() -> None:
    err = stale_client_error("http://ctl:10000", controller_refusal())
    assert err.exit_code == Exit.SDK_TOO_OLD
    assert f"marin-iris {sdk_info().version}" in err.message and "accepts builds from 2026-11-19 on" in err.message
    assert err.fix.endswith("(then `irisrl --version` shows the new build)")
    assert "pip install --upgrade --pre marin-iris" in err.fix


def test_the_controller_window_is_the_one_irisrl_states() -> None:
    from iris.cluster.controller import service

    assert service.FRESHNESS_WINDOW == datetime.timedelta(days=FRESHNESS_DAYS)


@pytest.mark.parametrize("built, expect", [
    ("2026-06-18", "168 days ago; older than the 14 days a remote Iris controller accepts"),
    ("2026-11-30", "3 days ago; a remote Iris controller accepts builds up to 14 days old"),
])
def test_describe_says_how_old_the_build_is(built: str, expect: str) -> None:
    line = SdkInfo("0.2.20.dev1", built).describe(today=datetime.date(2026, 12, 3))
    assert line.startswith(f"marin-iris 0.2.20.dev1, built {built} (") and expect in line


def test_describe_without_the_sdk_or_a_stamp() -> None:
    assert "not installed" in SdkInfo(None, None).describe() and "pip install --pre marin-iris" in SdkInfo(None, None).describe()
    assert SdkInfo("1.0", None).describe() == "marin-iris 1.0 (build date unknown)"


def test_version_shows_irisrl_and_the_sdk_build(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from iris._build_info import BUILD_DATE

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    out = capsys.readouterr().out.splitlines()
    assert done.value.code == 0
    assert out[0] == f"irisrl {version('irisrl')}"
    assert out[1].startswith(f"marin-iris {version('marin-iris')}, built {BUILD_DATE} (")
