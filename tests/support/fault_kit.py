"""What the fault suites (tests/faults/) share: the smoke config and workspace they launch, the
in-process `cli` result type, and the "no traceback" assertion every repro ends with."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
SMOKE = str(REPO / "examples" / "configs" / "smoke_colocated.yaml")
WORKSPACE = str(REPO / "examples" / "workspace")
Cli = Callable[..., tuple[int, str, str]]


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text
