"""Liveness sampler: what a process tree is doing, one compact line per sample.

    python -m irisrl.runtime.liveness --pid PID [--interval S] [--quiet-samples N] [--no-stacks]

Every interval the tree under a root pid is re-walked from /proc and each process is read:
its main thread's state and wait channel (/proc/PID/wchan), the CPU time of the whole process
(utime+stime of /proc/PID/stat) and of its main thread (/proc/PID/schedstat: run time in ns and
the times it was scheduled, i.e. its wakeups), and the bytes it moved (rchar+wchar of
/proc/PID/io, all threads, and of /proc/PID/task/PID/io, the main thread alone: a Ray worker's
gRPC threads chat while its main thread may be stuck). rchar/wchar count read()/write() only:
bytes sent with send()/recv() on a socket are not in them (measured), so a socket transfer
shows as the wakeups of the thread that moves it (and as CPU when it is fast). Per-thread
readings stop at the main thread: a Ray or vLLM process has dozens of threads, and reading
them all every sample would cost more than the 1%-of-a-core budget. Node context (network
bytes from /proc/net/dev, InfiniBand port counters, GPU utilisation and memory through
`nvidia-smi --query-gpu`) rides along; it is node-wide, so context, never the verdict.

After --quiet-samples samples in which a Python main thread used no CPU, moved no byte and
kept its wait channel, its Python stack is read once with `py-spy dump` (bounded; again every
STACK_EVERY quiet samples) when py-spy is on PATH and ptrace is allowed; otherwise the line says
so in `st` and the /proc signals stand alone.

Output, flushed line by line (observe/liveness.py parses it; keys are short on purpose):
  irisrl-liveness: {"v":1,"t":EPOCH,"i":INTERVAL,"seq":N,"root":PID,"st":"py-spy"|"off: why",
    "net":[RX,TX],"ib":[RX,TX],"gpu":[[IDX,UTIL%,USED_MIB,TOTAL_MIB],...] or "off: why",
    "ps":[{"p":PID,"pp":PPID,"n":NAME,"s":STATE,"w":WCHAN,"th":THREADS,
           "c":CPU_MS,"mc":MAIN_CPU_MS,"io":BYTES,"mio":MAIN_BYTES,"mw":MAIN_WAKEUPS,"k":STACK}, ...]}
Deltas (c, mc, io, mio, mw, net, ib) cover the time since the previous sample; a process seen
for the first time has none (it is new). `k` appears only in a sample that read a stack.
Stdlib only: it ships with the runtime onto a stock image.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, TextIO

from irisrl.runtime.contract import LIVENESS_TAG, LIVENESS_VERSION

DEFAULT_INTERVAL_S = 30.0
QUIET_SAMPLES = 3          # quiet samples before a stack is read
STACK_EVERY = 10           # ... and again every this many quiet samples (py-spy costs ~0.1-0.3 s)
MAX_STACKS = 4             # stacks read per sample at most
STACK_TIMEOUT_S = 5.0
GPU_TIMEOUT_S = 5.0
GPU_MAX_FAILURES = 3       # nvidia-smi failing this many times in a row: stop asking
NAME_CHARS = 40
TICK_MS = 1000.0 / os.sysconf("SC_CLK_TCK")


@dataclass
class Reading:
    """One process at one sample (cumulative counters; the line carries their deltas)."""
    pid: int
    ppid: int
    start: str          # starttime: tells a reused pid from the process seen before
    state: str
    threads: int
    cpu_ticks: int      # utime + stime, all threads
    main_ns: int | None  # main thread's run time (schedstat)
    main_runs: int | None  # times the main thread was scheduled (schedstat): its wakeups
    wchan: str
    io: int | None      # rchar + wchar, all threads (None: unreadable)
    main_io: int | None
    name: str
    quiet: int = 0      # consecutive samples with an idle main thread (stack trigger)


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            return fh.read().decode(errors="replace")
    except OSError:
        return None


def _stat_fields(text: str) -> list[str]:
    """/proc/PID/stat after `(comm)` (comm may hold spaces and parentheses)."""
    return text.rsplit(")", 1)[1].split()


def _io_bytes(path: str) -> int | None:
    text = _read(path)
    if not text:
        return None
    values = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    try:
        return int(values["rchar"]) + int(values["wchar"])
    except (KeyError, ValueError):
        return None


def process_name(pid: int) -> str:
    """Short readable name: `x.py`, `-m pkg.mod`, `ray::Actor.method`, `raylet`, `ray start`, and
    `ray/<path>` for a script inside the ray package (its daemons: log_monitor, dashboard agent,
    runtime-env agent, reaper, autoscaler monitor; ray==2.60.0 ray/_private/services.py starts
    them as `python [-u] <RAY_PATH>/...py`), so observe/liveness.py can set them apart."""
    raw = _read(f"/proc/{pid}/cmdline") or ""
    argv = [a for a in raw.split("\0") if a] or [(_read(f"/proc/{pid}/comm") or "?").strip()]
    if len(argv) == 1 and " " in argv[0]:   # setproctitle (Ray) writes one space-joined string
        argv = argv[0].split()
    head = os.path.basename(argv[0])
    if not head.startswith("python") or len(argv) == 1:
        return " ".join([head, *argv[1:2]])[:NAME_CHARS]
    rest = argv[1:]
    while rest and rest[0].startswith("-") and rest[0] not in ("-m", "-c"):
        rest = rest[2:] if rest[0] in ("-X", "-W") else rest[1:]   # interpreter flags (-u, -X opt)
    if not rest:
        return head
    if rest[0] == "-c":
        return "python -c"
    if rest[0] == "-m":
        return " ".join(rest[:2])[:NAME_CHARS]
    script = rest[0]
    if os.path.basename(script) == "ray":             # the ray CLI: `ray start --block`
        return " ".join(["ray", *rest[1:2]])
    if "/ray/" in script:
        return ("ray/" + script.rsplit("/ray/", 1)[1])[:NAME_CHARS]
    return os.path.basename(script)[:NAME_CHARS]


def tree(root: int, exclude: frozenset[int] = frozenset()) -> dict[int, list[str]]:
    """pid -> stat fields for root and every descendant (re-walked from /proc each call)."""
    stats: dict[int, list[str]] = {}
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        text = _read(f"/proc/{entry}/stat")
        if not text:
            continue
        fields = _stat_fields(text)
        pid = int(entry)
        stats[pid] = fields
        children.setdefault(int(fields[1]), []).append(pid)
    found: dict[int, list[str]] = {}
    todo = [root] if root in stats else []
    while todo:
        pid = todo.pop()
        if pid not in exclude:
            found[pid] = stats[pid]
        todo.extend(children.get(pid, []))
    return found


def read_process(pid: int, fields: list[str]) -> Reading:
    sched = (_read(f"/proc/{pid}/schedstat") or "").split()
    return Reading(
        pid=pid, ppid=int(fields[1]), start=fields[19], state=fields[0], threads=int(fields[17]),
        cpu_ticks=int(fields[11]) + int(fields[12]),
        main_ns=int(sched[0]) if sched and sched[0].isdigit() else None,
        main_runs=int(sched[2]) if len(sched) > 2 and sched[2].isdigit() else None,
        wchan=_wchan(pid, fields[0]),
        io=_io_bytes(f"/proc/{pid}/io"), main_io=_io_bytes(f"/proc/{pid}/task/{pid}/io"),
        name=process_name(pid))   # read each time: exec and Ray's setproctitle rename a process


def _wchan(pid: int, state: str) -> str:
    """The main thread's wait channel: "-" while running, "?" when unknown (a kernel that
    hides it prints "0" for a sleeping thread too)."""
    text = (_read(f"/proc/{pid}/wchan") or "").strip()
    if text in ("", "0"):
        return "-" if state == "R" else "?"
    return text


def _delta(now: int | None, before: int | None) -> int | None:
    return None if now is None or before is None else max(0, now - before)


def entry(r: Reading, prev: Reading | None) -> dict[str, Any]:
    """The line's record of one process; deltas only when seen before (same process)."""
    e: dict[str, Any] = {"p": r.pid, "pp": r.ppid, "n": r.name, "s": r.state, "w": r.wchan, "th": r.threads}
    if prev is not None:
        e["c"] = round((r.cpu_ticks - prev.cpu_ticks) * TICK_MS)
        main = _delta(r.main_ns, prev.main_ns)
        e["mc"] = None if main is None else round(main / 1e6, 1)
        e["io"] = _delta(r.io, prev.io)
        e["mio"] = _delta(r.main_io, prev.main_io)
        e["mw"] = _delta(r.main_runs, prev.main_runs)
    return e


def main_idle(r: Reading, prev: Reading | None) -> bool:
    """The stack trigger (cheap, deliberately strict; the verdict is observe/liveness.py's):
    the main thread ran < 1 ms, moved no byte and sits in the same wait channel."""
    if prev is None or r.main_ns is None or prev.main_ns is None:
        return False
    return (r.main_ns - prev.main_ns < 1_000_000 and _delta(r.main_io, prev.main_io) in (0, None)
            and r.wchan == prev.wchan and r.state != "R")


def net_bytes() -> tuple[int, int] | None:
    """(rx, tx) bytes over every interface but loopback, from /proc/net/dev."""
    text = _read("/proc/net/dev")
    if text is None:
        return None
    rx = tx = 0
    for line in text.splitlines()[2:]:
        name, _, rest = line.partition(":")
        cols = rest.split()
        if name.strip() != "lo" and len(cols) >= 9:
            rx, tx = rx + int(cols[0]), tx + int(cols[8])
    return rx, tx


def ib_bytes(sysfs: str = "/sys/class/infiniband") -> tuple[int, int] | None:
    """(rx, tx) bytes over every InfiniBand port; the counters count 4-byte words (IBA spec,
    PortXmitData / PortRcvData "divided by 4"); None without InfiniBand."""
    ports = glob.glob(f"{sysfs}/*/ports/*/counters")
    if not ports:
        return None
    rx = tx = 0
    for counters in ports:
        rx += int((_read(f"{counters}/port_rcv_data") or "0").strip() or 0) * 4
        tx += int((_read(f"{counters}/port_xmit_data") or "0").strip() or 0) * 4
    return rx, tx


class Gpu:
    """nvidia-smi --query-gpu, bounded; its absence is learned once, repeated failures stop it."""

    QUERY = ["--query-gpu=index,utilization.gpu,memory.used,memory.total", "--format=csv,noheader,nounits"]

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary if binary is not None else shutil.which("nvidia-smi")
        self.failures = 0
        self.off = "" if self.binary else "off: no nvidia-smi"

    def read(self) -> list[list[int | None]] | str | None:
        if self.off:
            return None if self.off == "off: no nvidia-smi" else self.off
        try:
            out = subprocess.run([self.binary or "nvidia-smi", *self.QUERY], capture_output=True, text=True,
                                 timeout=GPU_TIMEOUT_S, check=True).stdout
            rows = [[_int_or_none(v) for v in line.split(",")] for line in out.splitlines() if line.strip()]
            self.failures = 0
            return rows
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            self.failures += 1
            if self.failures >= GPU_MAX_FAILURES:
                self.off = f"off: nvidia-smi failed {self.failures}x ({type(exc).__name__})"
            return f"err: {type(exc).__name__}"


def _int_or_none(text: str) -> int | None:
    """A CSV field of nvidia-smi; "[N/A]" (e.g. utilisation under MIG) -> None."""
    try:
        return int(float(text))
    except ValueError:
        return None


def parse_pyspy_main(dump: str) -> str | None:
    """The MainThread's frames from `py-spy dump` output, innermost first, as
    `func (file:line) < caller (file:line)` (at most 4 frames, file names without folders)."""
    frames: list[str] = []
    inside = False
    for line in dump.splitlines():
        if line.startswith("Thread "):
            if inside:
                break
            inside = '"MainThread"' in line
        elif inside and line.startswith(" ") and line.strip():
            func, _, where = line.strip().partition(" (")
            frames.append(f"{func} ({os.path.basename(where.rstrip(')'))})" if where else func)
    return " < ".join(frames[:4]) if frames else None


class Stacks:
    """py-spy dump of a quiet Python main thread, when py-spy exists and may attach."""

    def __init__(self, enabled: bool = True, binary: str | None = None) -> None:
        self.binary = binary if binary is not None else shutil.which("py-spy")
        self.mode = "py-spy" if self.binary else "off: py-spy not on PATH"
        if not enabled:
            self.mode = "off: disabled"

    def dump(self, pid: int) -> str | None:
        if self.mode != "py-spy":
            return None
        try:
            proc = subprocess.run([self.binary or "py-spy", "dump", "--nonblocking", "--pid", str(pid)],
                                  capture_output=True, text=True, timeout=STACK_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            self.mode = f"off: py-spy {type(exc).__name__}"
            return None
        if proc.returncode != 0:
            err = proc.stderr.lower()
            if "permission" in err or "ptrace" in err or "operation not permitted" in err:
                self.mode = "off: ptrace not allowed"   # once denied, always denied in this pod
            return None
        return parse_pyspy_main(proc.stdout)


def _is_python(name: str, pid: int) -> bool:
    exe = os.path.basename(os.path.realpath(f"/proc/{pid}/exe")) if os.path.exists(f"/proc/{pid}/exe") else ""
    return exe.startswith("python") or name.startswith("ray::")


class Sampler:
    """Samples one process tree; `line()` returns the next tagged line (no trailing newline)."""

    def __init__(self, root: int, interval: float = DEFAULT_INTERVAL_S, exclude: frozenset[int] = frozenset(),
                 quiet_samples: int = QUIET_SAMPLES, stacks: Stacks | None = None, gpu: Gpu | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.root, self.interval, self.exclude = root, interval, exclude
        self.quiet_samples = quiet_samples
        self.stacks = stacks if stacks is not None else Stacks()
        self.gpu = gpu if gpu is not None else Gpu()
        self.clock = clock
        self.known: dict[int, Reading] = {}
        self.seq = 0
        self.net = net_bytes()
        self.ib = ib_bytes()

    def sample(self) -> dict[str, Any]:
        self.seq += 1
        record: dict[str, Any] = {"v": LIVENESS_VERSION, "t": round(self.clock(), 1), "i": self.interval,
                                  "seq": self.seq, "root": self.root}
        procs, budget = [], MAX_STACKS
        readings: dict[int, Reading] = {}
        for pid, fields in sorted(tree(self.root, self.exclude).items()):
            prev = self.known.get(pid)
            prev = prev if prev is not None and prev.start == fields[19] else None
            r = read_process(pid, fields)
            e = entry(r, prev)
            r.quiet = prev.quiet + 1 if main_idle(r, prev) and prev is not None else 0
            if budget and self._stack_due(r):
                stack = self.stacks.dump(pid)
                budget -= 1
                if stack:
                    e["k"] = stack
            readings[pid] = r
            procs.append(e)
        self.known = readings
        record["st"] = self.stacks.mode
        self._node(record)
        record["ps"] = procs
        return record

    def _stack_due(self, r: Reading) -> bool:
        n = r.quiet - self.quiet_samples
        return (self.stacks.mode == "py-spy" and n >= 0 and n % STACK_EVERY == 0
                and _is_python(r.name, r.pid))

    def _node(self, record: dict[str, Any]) -> None:
        for key, now, attr in (("net", net_bytes(), "net"), ("ib", ib_bytes(), "ib")):
            before = getattr(self, attr)
            if now is not None and before is not None:
                record[key] = [max(0, now[0] - before[0]), max(0, now[1] - before[1])]
            setattr(self, attr, now)
        gpu = self.gpu.read()
        if gpu is not None:
            record["gpu"] = gpu

    def line(self) -> str:
        return f"{LIVENESS_TAG} {json.dumps(self.sample(), separators=(',', ':'))}"


def emit(line: str, out: TextIO) -> None:
    out.write(line + "\n")
    out.flush()


class LivenessThread:
    """The controller's sampler: a daemon thread printing into the task log until stop()."""

    def __init__(self, sampler: Sampler, out: TextIO | None = None) -> None:
        self.sampler, self.out = sampler, out
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="liveness", daemon=True)

    def start(self) -> "LivenessThread":
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                emit(self.sampler.line(), self.out or sys.stdout)
            except Exception as exc:  # noqa: BLE001 - a sampler never takes the task down
                emit(f"{LIVENESS_TAG} {json.dumps({'v': LIVENESS_VERSION, 'err': repr(exc)[:200]})}",
                     self.out or sys.stdout)
            self._stop.wait(self.sampler.interval)

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m irisrl.runtime.liveness",
                                description="Sample a process tree (PID and its descendants) every interval and "
                                            f"print one `{LIVENESS_TAG} {{json}}` line per sample until killed.")
    p.add_argument("--pid", type=int, required=True, help="root of the process tree to sample")
    p.add_argument("--interval", type=float, default=DEFAULT_INTERVAL_S, help="seconds between samples (default 30)")
    p.add_argument("--quiet-samples", type=int, default=QUIET_SAMPLES,
                   help="quiet samples before a Python main thread's stack is read (py-spy, if on PATH)")
    p.add_argument("--no-stacks", action="store_true", help="never run py-spy")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.interval <= 0 or args.quiet_samples < 1:
        print("error: --interval must be > 0 and --quiet-samples >= 1", file=sys.stderr)
        return 2
    if not os.path.exists(f"/proc/{args.pid}/stat"):
        print(f"error: no process {args.pid} (or no /proc: Linux only); give a running pid with --pid",
              file=sys.stderr)
        return 2
    stop = threading.Event()

    def _stop(signum: int, frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    sampler = Sampler(args.pid, args.interval, exclude=frozenset({os.getpid()}),
                      quiet_samples=args.quiet_samples, stacks=Stacks(enabled=not args.no_stacks))
    while not stop.is_set():
        emit(sampler.line(), sys.stdout)
        stop.wait(args.interval)
    return 0


if __name__ == "__main__":
    sys.exit(main())
