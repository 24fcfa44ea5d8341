"""Reading a JSON document a user hands us (a plan file, stdin): every way it can be bad is a
ValueError with a message, never a traceback (issue 16, D13: non-UTF-8 bytes gave
UnicodeDecodeError, 100,000 nested brackets RecursionError)."""

from __future__ import annotations

import json
from typing import Any


def loads_document(data: str | bytes) -> Any:
    """json.loads, with non-UTF-8 bytes and absurd nesting as ValueError (JSONDecodeError and
    UnicodeDecodeError already are one)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
