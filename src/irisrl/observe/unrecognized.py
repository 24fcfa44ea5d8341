"""The safety net: no error line is dropped. Every error-level line that no cause names
(observe/exceptions.py is_error_line) is kept under its signature (numbers, hex ids, paths and
addresses masked: one error on 48 engines is one entry), with its count and first occurrence.

A process that ENDED on such an error is a crash ("crashed: unrecognized error: <line>");
"ended" means evidence (an exit / terminate line, a non-zero exit code, a failed task status,
a crash line) on the same rank at or after the error, never that the line happens to be the
last one in the file. An error the run went past (or one after the run finished) is a warning.
A `Traceback (most recent call last):` header is held per stream until its final exception line
arrives (the traceback is one event, classified by that line); one that never gets its final
line is kept like any other unrecognized error. Stdlib only (plus exceptions.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from irisrl.observe import exceptions as E

MAX_SIGNATURES = 64        # distinct entries kept; later new signatures are only counted
TEARDOWN = "teardown"      # status of a line at or after the run's own end line (not shown as a warning)
TRACEBACK_HEAD = "Traceback (most recent call last)"


@dataclass(slots=True, repr=False)
class Unrecognized:
    """One signature: its first line (evidence), where and when, and how often it was seen."""
    signature: str
    line: str
    rank: str | None
    t: float | None
    seq: int
    count: int = 1
    last_t: float | None = None     # the latest occurrence: a process ends on its last error
    last_seq: int = 0
    warn: bool = False              # printed at warning level (read from the raw line)


class _Pos(Protocol):
    @property
    def t(self) -> float | None: ...
    @property
    def seq(self) -> int: ...


def record(entries: list[Unrecognized], text: str, rank: str | None, t: float | None, seq: int,
           evidence: str, quiet: bool = False) -> bool:
    """Count `text` under its signature; False when the list is full and it is a new one.
    `quiet`: printed below the warning level (a notice): kept as a warning like a WARNING line."""
    sig = E.signature(text)
    for u in entries:
        if u.signature == sig:
            u.count += 1
            u.last_t, u.last_seq = t, seq
            return True
    if len(entries) >= MAX_SIGNATURES:
        return False
    entries.append(Unrecognized(sig, evidence, rank, t, seq, 1, t, seq, quiet or E.is_warning_level(text)))
    return True


def rank_key(rank: str | None) -> str:
    return rank or ""


def _at_or_after(t: float | None, seq: int, ref_t: float | None, ref_seq: int) -> bool:
    """(t, seq) is at or after (ref_t, ref_seq): log time first, arrival order on ties/unknown."""
    if t is not None and ref_t is not None and t != ref_t:
        return t > ref_t
    return seq >= ref_seq


def ended_after(ended: dict[str, list[Any]], rank: str | None, t: float | None, seq: int,
                crash: _Pos | None = None) -> bool:
    """Evidence that the process of `rank` ended at or after (t, seq): its own end line / status,
    or the run's crash line."""
    end = ended.get(rank_key(rank))
    if end is not None and _at_or_after(end[0], end[1], t, seq):
        return True
    return crash is not None and _at_or_after(crash.t, crash.seq, t, seq)


def status(u: Unrecognized, ended: dict[str, list[Any]], crash: _Pos | None, finished: _Pos | None) -> str:
    """'fatal' when the process ended on it, else 'warning' (always for a line printed at warning
    level: a retry is not what a process died of); 'teardown' at or after the run's own end line
    (Ray's shutdown after a clean run: RpcError "Cancelling all calls", "Failed to mark the local node
    as draining"): neither a death nor a warning."""
    if finished is not None and _at_or_after(u.t, u.seq, finished.t, finished.seq):
        return TEARDOWN
    if u.warn:
        return "warning"
    return "fatal" if ended_after(ended, u.rank, u.last_t, max(u.seq, u.last_seq), crash) else "warning"


def to_dict(u: Unrecognized, state: str) -> dict[str, Any]:
    import time

    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(u.t)) if u.t is not None else None
    return {"signature": u.signature, "count": u.count, "status": state,
            "first": {"line": u.line, "rank": u.rank, "time": when}}
