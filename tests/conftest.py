"""Suite-wide isolation: every test gets its own HOME and IRISRL_HOME (Iris writes a token
DB under $HOME/.iris; irisrl keeps its ledger and local-cluster state under IRISRL_HOME)."""

from __future__ import annotations

import signal
from pathlib import Path
from types import FrameType
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


def pytest_configure(config: pytest.Config) -> None:
    """A SIGTERM (a CI timeout, `kill`) stops the run the way Ctrl-C does, so session fixtures
    still tear down: the Iris local cluster and Ray nodes a test started do not outlive pytest."""
    def _interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, _interrupt)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("IRISRL_HOME", str(home / "irisrl-state"))
    monkeypatch.setenv("IRISRL_USER", "tester")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    for key in ("DC_AGENT_SECRET_ENV", "HF_TOKEN", "WANDB_API_KEY", "DAYTONA_API_KEY", "MARIN_ROOT"):
        monkeypatch.delenv(key, raising=False)
    return home


@pytest.fixture
def ops_on_terminal() -> Iterator[None]:
    """ops/ logs by default (it is a library); tests that read what it prints, as the CLI
    shows it, route it to the terminal the way cli/main.py does."""
    from irisrl.ops import output

    with output.using(output.to_terminal):
        yield
