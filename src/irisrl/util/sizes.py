"""Memory and disk sizes as Iris reads them (one parser for the plan's flags and `fit`)."""

from __future__ import annotations

import re

_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)


def parse_size(text: str | int | float) -> int:
    """Bytes from "512GB" / "1TiB" / "16g" / 123. Binary units, as Iris parses memory and disk
    (iris.cluster.types.parse_memory_string: humanfriendly.parse_size(binary=True)).
    ValueError for anything else (a sign, a word, nan)."""
    if isinstance(text, (int, float)):
        return int(text)
    match = _SIZE.match(str(text))
    if not match:
        raise ValueError(f"{text!r} is not a size (e.g. 512GB, 1TiB, 64g)")
    number, unit = float(match.group(1)), match.group(2).lower()
    return int(number * 1024 ** " kmgtp".index(unit or " "))


def format_bytes(n: int) -> str:
    """A size for people, in binary units: "512 GiB", "2.9 MiB", "840 B" (one formatter for
    fit's tables, checkpoint listings and the dry run's bundle listing)."""
    for unit, scale in (("TiB", 1024**4), ("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if abs(n) >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"
