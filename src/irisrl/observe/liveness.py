"""Hang judgement from the runtime's liveness lines (runtime/liveness.py writes them).

Feed raw log lines with their rank to a LivenessLog (the tag may sit anywhere in a prefixed
line), then `judge(hang_after_s, now)`; or call `judge(samples_by_rank, ...)` directly. The
log keeps a running judgement per rank (RankTrack), so feeding it for days costs constant memory.
Stdlib only, a leaf (it imports only the tag from runtime/contract.py).

Progress, per sample, of a rank's work processes (Ray's own daemons and idle pool workers,
INFRA, never count: they tick on their own while the work is stuck; nor do zombies):
  - a process appeared or ended;
  - a process used >= BUSY_CPU of one core over the interval (all threads), or its main thread
    >= MAIN_BUSY_CPU (a time.sleep poll or ray.get's 1 s signal check stays far below both);
  - its main thread moved any byte (rchar/wchar), or the process moved >= BUSY_IO_RATE, or its
    main thread woke >= BUSY_WAKEUPS times a second (a socket stream: send/recv bytes are not
    in rchar/wchar);
  - its main thread's wait channel or its Python stack changed.
A rank is quiet since its last progress. Rules (each one tested in tests/unit/test_liveness.py):
  - the gang is hung when every judged rank has been quiet for hang_after_s: each rank is
    named (gang=True); the culprits are the ranks with the strongest evidence (stuck >
    blocked > waiting, then the earliest to go quiet): the rank its peers wait on;
  - while some rank progresses, a quiet rank is hung only on positive evidence that it is
    stuck (a main thread in D or T state, or a Python stack in a lock acquire): a waiter
    (socket, poll, sleep, a futex of ray.get or an idle engine's queue) is not hung then.
Wait classes of a quiet main thread: `waiting` (socket/poll/sleep/child wait channels, or a
stack innermost in recv/select/get/wait/sleep...), `stuck` (D/T state, a stack in acquire),
`blocked` (anything else, e.g. a futex seen without a stack: a lock or a condition, /proc
cannot tell which).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from irisrl.runtime.contract import LIVENESS_TAG

HANG_AFTER_S = 180.0
BUSY_CPU = 0.05               # of one core, whole process
MAIN_BUSY_CPU = 0.01          # of one core, main thread
BUSY_IO_RATE = 64 * 1024      # bytes/s, whole process (a transfer; Ray's background chatter is less)
BUSY_WAKEUPS = 5.0            # per s, main thread: a socket stream (send/recv is not in rchar/wchar);
                              # ray.get's signal check and a time.sleep(1) poll wake it ~1/s
STALE_INTERVALS = 3           # a rank silent for this many intervals is not judged (log rules own it)
KEEP_SAMPLES = 720            # per rank (6 h at 30 s)

# Ray's own processes, as runtime/liveness.py:process_name names them (`ray/...` is any script
# inside the ray package: log monitor, dashboard, reaper, autoscaler monitor, a worker before it
# names itself; its agents retitle themselves ray::DashboardAgent / ray::RuntimeEnvAgent, seen
# under ray 2.60), and our own probes: name prefixes.
INFRA = ("raylet", "gcs_server", "ray::IDLE", "ray/", "-m ray.", "ray start", "ray::DashboardAgent",
         "ray::RuntimeEnvAgent", "ray::JobSupervisor", "ray::_StatsActor", "py-spy", "nvidia-smi")
# kernel wait channels (prefixes) of a thread waiting for time, a socket, a pipe or a child
WAIT_WCHANS = ("hrtimer_nanosleep", "do_nanosleep", "clock_nanosleep", "common_nsleep", "wait_woken",
               "sk_wait_data", "inet_csk_accept", "unix_stream", "do_sys_poll", "do_select", "core_sys_select",
               "poll_schedule_timeout", "ep_poll", "do_epoll_wait", "pipe_read", "pipe_wait", "do_wait",
               "sigsuspend", "sigtimedwait", "tcp_", "skb_wait")
WAIT_FRAMES = ("recv", "accept", "select", "poll", "sleep", "get", "wait", "read", "barrier", "all_reduce",
               "broadcast", "all_gather", "reduce_scatter", "_recv", "join")
STUCK_FRAMES = ("acquire",)
CLASS_RANK = {"waiting": 0, "blocked": 1, "stuck": 2}


@dataclass(frozen=True)
class Proc:
    pid: int
    name: str
    state: str
    wchan: str
    cpu_ms: float | None = None    # None: first seen in this sample
    main_ms: float | None = None
    io: int | None = None
    main_io: int | None = None
    main_wakeups: int | None = None
    stack: str | None = None

    @property
    def infra(self) -> bool:
        return self.name.startswith(INFRA)


@dataclass(frozen=True)
class Sample:
    rank: int
    t: float
    interval: float
    procs: tuple[Proc, ...]


@dataclass(frozen=True)
class Hang:
    rank: int
    since: float          # epoch seconds: the rank's last progress
    evidence: str         # the stack, else the wait channel, of its most telling process
    culprit: bool         # its peers wait on it (or it is stuck on its own)
    gang: bool            # nothing in the gang progresses

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_line(text: str) -> dict[str, Any] | None:
    """The JSON record of a liveness line, or None for any other line (or a broken one)."""
    at = text.find(LIVENESS_TAG)
    if at < 0:
        return None
    try:
        record = json.loads(text[at + len(LIVENESS_TAG):].strip())
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("ps"), list) else None


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def _proc(e: Mapping[str, Any]) -> Proc:
    io, main_io = _num(e.get("io")), _num(e.get("mio"))
    return Proc(pid=int(e["p"]), name=str(e.get("n", "?")), state=str(e.get("s", "?")), wchan=str(e.get("w", "?")),
                cpu_ms=_num(e.get("c")), main_ms=_num(e.get("mc")),
                io=None if io is None else int(io), main_io=None if main_io is None else int(main_io),
                main_wakeups=int(e["mw"]) if isinstance(e.get("mw"), int) else None,
                stack=e.get("k") if isinstance(e.get("k"), str) else None)


def to_sample(record: Mapping[str, Any], rank: int, t: float | None = None) -> Sample | None:
    """A parsed record as a Sample; `t` (the log's own time) wins over the record's clock."""
    try:
        procs = tuple(_proc(e) for e in record["ps"] if isinstance(e, dict))
        return Sample(rank, float(t if t is not None else record["t"]), float(record.get("i", 30.0)), procs)
    except (KeyError, TypeError, ValueError):
        return None


class LivenessLog:
    """Accumulates samples from log lines, per rank: a running judgement (RankTrack, constant
    memory per rank, so a watchdog can feed it for days) plus the last `keep` samples."""

    def __init__(self, keep: int = KEEP_SAMPLES) -> None:
        self.keep = keep
        self.samples_by_rank: dict[int, list[Sample]] = {}
        self.tracks: dict[int, RankTrack] = {}

    def feed(self, text: str, rank: int, t: float | None = None) -> bool:
        """One cleaned log line of `rank` (at time `t` if known); True when it was a sample."""
        record = parse_line(text)
        sample = to_sample(record, rank, t) if record is not None else None
        if sample is None:
            return False
        self.tracks.setdefault(rank, RankTrack()).add(sample)
        if self.keep > 0:          # keep=0: the running judgement only (the analyzer's state)
            samples = self.samples_by_rank.setdefault(rank, [])
            samples.append(sample)
            del samples[:-self.keep]
        return True

    def feed_all(self, lines: Iterable[tuple[str, int, float | None]]) -> int:
        return sum(self.feed(text, rank, t) for text, rank, t in lines)

    def judge(self, hang_after_s: float = HANG_AFTER_S, now: float | None = None) -> list[Hang]:
        return judge_tracks(self.tracks, hang_after_s, now)

    def newest(self) -> float | None:
        """The newest sample's time (the clock judge() uses when given none)."""
        return max((t.last.t for t in self.tracks.values() if t.last is not None), default=None)

    def to_dict(self) -> dict[str, Any]:
        """The running judgement as JSON (the kept samples are for inspection, not saved)."""
        return {str(rank): track.to_dict() for rank, track in self.tracks.items()}

    def map_text(self, fn: Callable[[str], str]) -> "LivenessLog":
        """A copy of the running judgement with every name, wait channel and stack passed through
        `fn` (the analyzer's redaction: a process name carries its first argument)."""
        out = LivenessLog(self.keep)
        out.tracks = {rank: track.map_text(fn) for rank, track in self.tracks.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], keep: int = 0) -> "LivenessLog":
        log = cls(keep)
        log.tracks = {int(rank): RankTrack.from_dict(t) for rank, t in data.items()}
        return log


def _work(sample: Sample) -> dict[int, Proc]:
    """The processes that can make the rank's progress: not Ray's own, not zombies (exited
    children not yet reaped, e.g. under `ray start`)."""
    return {p.pid: p for p in sample.procs if not p.infra and not p.state.startswith(("Z", "X"))}


def progressed(sample: Sample, prev: Sample | None, stacks: Mapping[int, str]) -> bool:
    """Did the rank's work move between prev and sample? (`stacks`: last stack seen per pid)"""
    now = _work(sample)
    if prev is None:
        return bool(now)
    before = _work(prev)
    if set(before) - set(now):
        return True
    span = max(sample.t - prev.t, 1e-3)
    for pid, p in now.items():
        old = before.get(pid)
        if p.cpu_ms is None or old is None:
            return True
        if (p.cpu_ms >= BUSY_CPU * span * 1000 or (p.main_ms or 0.0) >= MAIN_BUSY_CPU * span * 1000
                or (p.main_io or 0) > 0 or (p.io or 0) >= BUSY_IO_RATE * span
                or (p.main_wakeups or 0) >= BUSY_WAKEUPS * span or p.wchan != old.wchan):
            return True
        if p.stack and stacks.get(pid) not in (None, p.stack):
            return True
    return False


def wait_class(p: Proc, stack: str | None) -> str:
    if p.state[:1] in ("D", "T", "t"):
        return "stuck"
    if stack:
        inner = stack.split(" < ", 1)[0].split(" (", 1)[0].lower()
        if any(mark in inner for mark in STUCK_FRAMES):
            return "stuck"
        if any(mark in inner for mark in WAIT_FRAMES):
            return "waiting"
    return "waiting" if p.wchan.startswith(WAIT_WCHANS) else "blocked"


@dataclass
class _Rank:
    rank: int
    since: float
    last: Sample
    klass: str
    evidence: str


class RankTrack:
    """One rank's samples folded in time order: when it last progressed, its last sample and
    the last stack seen per live pid (a sample older than the last one is ignored)."""

    def __init__(self) -> None:
        self.last: Sample | None = None
        self.since: float | None = None
        self.stacks: dict[int, str] = {}

    def add(self, s: Sample) -> None:
        if self.last is not None and s.t < self.last.t:
            return
        if progressed(s, self.last, self.stacks) or self.since is None:
            self.since = s.t
        live = {p.pid for p in s.procs}
        self.stacks = {pid: k for pid, k in self.stacks.items() if pid in live}
        self.stacks.update({p.pid: p.stack for p in s.procs if p.stack})
        self.last = s

    def to_dict(self) -> dict[str, Any]:
        last = self.last
        return {"since": self.since, "stacks": {str(pid): k for pid, k in self.stacks.items()},
                "last": None if last is None else {"rank": last.rank, "t": last.t, "interval": last.interval,
                                                   "procs": [asdict(p) for p in last.procs]}}

    def map_text(self, fn: Callable[[str], str]) -> "RankTrack":
        out = RankTrack()
        out.since, out.stacks = self.since, {pid: fn(k) for pid, k in self.stacks.items()}
        if self.last is not None:
            out.last = replace(self.last, procs=tuple(
                replace(p, name=fn(p.name), wchan=fn(p.wchan), stack=fn(p.stack) if p.stack else None)
                for p in self.last.procs))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RankTrack":
        track = cls()
        track.since = data.get("since")
        track.stacks = {int(pid): str(k) for pid, k in (data.get("stacks") or {}).items()}
        last = data.get("last")
        if last:
            track.last = Sample(int(last["rank"]), float(last["t"]), float(last["interval"]),
                                tuple(Proc(**p) for p in last["procs"]))
        return track

    def state(self) -> _Rank | None:
        """Quiet-since and the most telling work process; None before any work was seen."""
        if self.last is None or self.since is None:
            return None
        work = list(_work(self.last).values())
        if not work:
            return None
        # the most telling process: strongest class, then a main thread that did not even wake
        # (a deadlocked actor, not the driver's ray.get that checks signals every second), a stack
        scored = [(CLASS_RANK[wait_class(p, self.stacks.get(p.pid))], not p.main_wakeups, p.pid in self.stacks,
                   -p.pid, p) for p in work]
        klass_rank, *_, top = max(scored, key=lambda x: x[:4])
        klass = next(k for k, v in CLASS_RANK.items() if v == klass_rank)
        return _Rank(self.last.rank, self.since, self.last, klass, _evidence(top, self.stacks.get(top.pid), klass))


def _evidence(p: Proc, stack: str | None, klass: str) -> str:
    where = f"main thread {p.state} in {p.wchan}" + (f"; stack: {stack}" if stack else "")
    return f"{p.name} (pid {p.pid}, {klass}): {where}"


def judge(samples_by_rank: Mapping[int, Sequence[Sample]], hang_after_s: float = HANG_AFTER_S,
          now: float | None = None) -> list[Hang]:
    """Hung ranks (culprits first), judged across the gang; [] when the gang progresses."""
    tracks: dict[int, RankTrack] = {}
    for rank, samples in samples_by_rank.items():
        track = tracks.setdefault(rank, RankTrack())
        for sample in sorted(samples, key=lambda x: x.t):
            track.add(sample)
    return judge_tracks(tracks, hang_after_s, now)


def judge_tracks(tracks: Mapping[int, RankTrack], hang_after_s: float = HANG_AFTER_S,
                 now: float | None = None) -> list[Hang]:
    """judge() on running tracks; `now` defaults to the newest sample's time."""
    latest = [t.last.t for t in tracks.values() if t.last is not None]
    if not latest:
        return []
    now = max(latest) if now is None else now
    ranks = [r for r in (t.state() for t in tracks.values()) if r]
    ranks = [r for r in ranks if r.last.t >= now - STALE_INTERVALS * r.last.interval]
    quiet = [r for r in ranks if now - r.since >= hang_after_s]
    if not quiet:
        return []
    if len(quiet) == len(ranks):
        top = max(CLASS_RANK[r.klass] for r in ranks)
        strongest = [r for r in ranks if CLASS_RANK[r.klass] == top]
        first = min(r.since for r in strongest)
        culprits = {r.rank for r in strongest if r.since <= first + r.last.interval}
        hangs = [Hang(r.rank, r.since, r.evidence, r.rank in culprits, True) for r in ranks]
    else:
        hangs = [Hang(r.rank, r.since, r.evidence, True, False) for r in quiet if r.klass == "stuck"]
    return sorted(hangs, key=lambda h: (not h.culprit, h.since, h.rank))
