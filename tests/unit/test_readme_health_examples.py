"""docs/TOUR.md's `health` / `progress` examples (tour section 6) are what the commands print now:
each block's lines, between its `...` cuts, appear in that order in the command's output at
the tour's width (110 columns), and a block not cut at its end shows the output's end. The
examples drifted once (the closing cause-of-death line)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from irisrl.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```\n\$ irisrl ((?:health|progress) --log [^\n]+)\n(.*?)```", re.S)


def _examples() -> list[tuple[str, str]]:
    return BLOCK.findall((REPO / "docs" / "TOUR.md").read_text())


def _segments(body: str) -> list[list[str]]:
    """The block's runs of lines between cuts (a line starting with `...`)."""
    out: list[list[str]] = [[]]
    for line in body.splitlines():
        if line.strip().startswith("..."):
            out.append([])
        else:
            out[-1].append(line.rstrip())
    return [seg for seg in out if seg]


def test_readme_has_the_health_and_progress_examples() -> None:
    assert len(_examples()) >= 5


def _name(command: str) -> str:
    log = Path(command.split()[2])
    return f"{command.split()[0]}-{(log.parent.parent if log.parent.name == 'combined' else log.parent).name}"


@pytest.mark.parametrize("command, body", _examples(), ids=[_name(c) for c, _ in _examples()])
def test_readme_health_example_is_what_the_command_prints(command: str, body: str) -> None:
    result = CliRunner().invoke(cli, shlex.split(command), env={"COLUMNS": "110"}, catch_exceptions=False)
    printed = [line.rstrip() for line in result.output.splitlines()]
    at = 0
    for seg in _segments(body):
        for start in range(at, len(printed) - len(seg) + 1):
            if printed[start:start + len(seg)] == seg:
                at = start + len(seg)
                break
        else:
            pytest.fail(f"docs/TOUR.md block for `{command}` has lines the command does not print:\n" + "\n".join(seg)
                        + "\n--- printed ---\n" + "\n".join(printed))
    if not body.splitlines()[-1].strip().startswith("..."):      # no cut at the end: the output ends there
        assert [line for line in printed[at:] if line.strip()] == [], f"docs/TOUR.md block for `{command}` stops early"
