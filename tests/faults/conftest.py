"""Fault tests (issue 16): hostile input, corrupt or full state, signals at each launch phase.
`cli` runs `irisrl` in-process with the exit-code table of cli/main.py."""

from __future__ import annotations

from typing import Callable

import pytest

from irisrl.cli.main import main

CliResult = tuple[int, str, str]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """cli("validate", "x.yaml") -> (exit code, stdout, stderr)."""

    def run(*argv: str) -> CliResult:
        with pytest.raises(SystemExit) as exc:
            main(list(argv))
        out, err = capsys.readouterr()
        return int(exc.value.code or 0), out, err

    return run

