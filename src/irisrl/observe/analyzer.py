"""Incremental log analyzer (the watchdog's core). Feed it bytes per source as they
arrive; ask for a verdict at any time; save and resume from the byte offsets.

Speed: only lines containing one of `patterns.NEEDLES` are decoded and parsed. Files are
prefiltered by `grep -abE` when grep exists; bytes fed directly (.gz files, large watchdog
polls) go through the same grep on a pipe once a block is GREP_MIN_BYTES or more, smaller
blocks (and every block without grep) through one bytes.find pass per needle: grep does
~300 MB/s where 60+ find passes do ~45 MB/s, but a grep process costs ~3 ms to start
(docs/BENCHMARKS.md). All paths give the same result. vLLM stats lines (most
of the hits) are read straight from bytes. Memory: one chunk plus a bounded partial line per
source, whatever the log size."""

from __future__ import annotations

import calendar
import copy
import datetime as dt
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Iterable, Iterator

from irisrl.observe import causes as C
from irisrl.observe import exceptions as E
from irisrl.observe import patterns as P
from irisrl.observe import task_status as TS
from irisrl.observe import unrecognized as U
from irisrl.observe import vocabulary as V
from irisrl.observe.exceptions import Exc
from irisrl.observe.task_status import parse_status
from irisrl.observe.ladder import HealthReport, LadderConfig, evaluate
from irisrl.observe.planinfo import plan_info
from irisrl.observe.state import EngineState, Event, SourceState, State
from irisrl.runtime.contract import LIVENESS_TAG

CHUNK = 8 << 20            # read size; large binary chunks keep bytes.find fast
MAX_PARTIAL = 1 << 20      # a "line" longer than this without a newline is cut
ASSUMED_REPORT_S = 5.0     # spacing assumed for an undated vLLM stats line
EVIDENCE_RAW = 400         # evidence kept per event before cleaning
TAIL_BYTES = 16 << 10      # a chunk's tail searched for its newest dated line (silence)
MAX_STEP_TIMES = 512       # step -> first-seen time kept for the stall check
GREP_MIN_BYTES = 256 << 10 # fed blocks this large go through grep (below it, its start-up dominates)
LIVENESS_B = LIVENESS_TAG.encode()


def hit_spans(buf: bytes, needles: Iterable[bytes] = P.SCAN_NEEDLES, glog: bool | None = None) -> list[tuple[int, int]]:
    """(start, end) of every line of `buf` (complete lines) that contains a needle or, with
    the health needles (`glog` None), a glog E/F level prefix (patterns.GLOG_B, as in grep's
    pattern), in order."""
    glog = needles is P.SCAN_NEEDLES if glog is None else glog
    spans: dict[int, int] = {}
    find, rfind = buf.find, buf.rfind
    for needle in needles:
        i = find(needle)
        while i != -1:
            start = rfind(b"\n", 0, i) + 1
            end = find(b"\n", i)
            if end == -1:
                end = len(buf)
            spans[start] = end
            i = find(needle, end)
    if glog:
        search = P.GLOG_B.search
        for needle in P.GLOG_FIND:
            i = find(needle)
            while i != -1:
                if search(buf, max(0, i - 4), i + 20):
                    start = rfind(b"\n", 0, i) + 1
                    end = find(b"\n", i)
                    spans[start] = end = len(buf) if end == -1 else end
                i = find(needle, i + 1)
    return sorted(spans.items())


class Analyzer:
    """Feed log bytes per source (file or task); `verdict()` evaluates the ladder."""

    def __init__(self, plan: dict[str, Any] | None = None, config: LadderConfig | None = None,
                 state: State | None = None) -> None:
        self.plan = plan
        self.config = config or LadderConfig()
        self.state = state or State(year=dt.datetime.now(dt.timezone.utc).year)
        self._tcache: dict[bytes, float] = {}
        self._stamps: list[int] = []                  # where stats lines had their time
        # line prefix -> (engine, task stream)
        self._ecache: dict[tuple[str, bytes, bytes], tuple[EngineState, str]] = {}
        self._scache: dict[bytes, str] = {}          # rank prefix bytes -> stream name
        self._dated_line = False                     # the line being classified had its own time
        self._guessed_steps: set[str] = set()        # step times taken from an earlier line
        self._hub_open: dict[str, int] = {}          # stream -> seq of a Hub error whose status follows

    # ---- input -------------------------------------------------------------------------
    def offset(self, source: str) -> int:
        src = self.state.sources.get(source)
        return src.offset if src else 0

    def feed(self, source: str, data: bytes) -> None:
        """Add the next bytes of `source`; a trailing partial line waits for its newline."""
        src = self.state.sources.setdefault(source, SourceState())
        src.offset += len(data)
        buf = src.rem.encode("latin-1") + data if src.rem else data
        cut = buf.rfind(b"\n") + 1
        rem = buf[cut:]
        src.rem = rem[:MAX_PARTIAL].decode("latin-1")
        if cut:
            self._scan(source, src, buf, cut)

    def _scan(self, name: str, src: SourceState, buf: bytes, cut: int) -> None:
        body = buf if cut == len(buf) else buf[:cut]
        self.tail_time(body)
        if len(body) >= GREP_MIN_BYTES and (grep := _grep()) and self._grep_block(grep, name, src, body):
            return
        for start, end in hit_spans(body):
            raw = body[start:end]
            if b"generation throughput" not in raw or not self._stats_fast(name, src, raw):
                self._line(name, src, raw)

    def tail_time(self, body: bytes) -> None:
        """The newest dated line among the last lines of `body`, matched or not: silence is
        measured from it (a run that prints only chatter is not silent)."""
        lines = body[-TAIL_BYTES:].split(b"\n")
        if len(body) > TAIL_BYTES:
            lines = lines[1:]                       # the first piece may be a cut line
        st = self.state
        for raw in reversed(lines):
            if not raw.strip() or LIVENESS_B in raw:    # the sampler's lines are not the run's output
                continue
            line = P.clean(raw)
            t = line.stamp if line.stamp is not None else P.log_time(line.text, st.year)
            if t is not None:
                if st.last_line_t is None or t > st.last_line_t:
                    st.last_line_t = t
                return

    # ---- one line ----------------------------------------------------------------------
    def _dated(self, src: SourceState, stream: str, t: float) -> None:
        st = self.state
        src.last_t = t
        src.stream_t[stream] = t
        if st.max_t is None or t > st.max_t:
            st.max_t = t

    def _line(self, name: str, src: SourceState, raw: bytes) -> None:
        """The one per-line dispatch of the general path: clean, date, classify."""
        st = self.state
        line = P.clean(raw)
        text = line.text
        if LIVENESS_TAG in text:
            self._liveness(name, line)
            return
        t = line.stamp if line.stamp is not None else P.log_time(text, st.year)
        self._dated_line = t is not None
        if t is not None:
            if text[:4].isdigit() and text[4:5] == "-":
                st.year = int(text[:4])
            self._dated(src, line.stream, t)
        else:
            t = src.stream_t.get(line.stream)   # never a time from another task's line
        st.seq += 1
        st.hit_lines += 1
        cause, exc = C.classify(text)
        if cause is not None and cause.kind == "python_crash" and _rank_timeout(line, exc):
            cause = C.BY_KIND["dist_timeout"]    # a torchrun rank's own timeout: its process group's
        if cause is None and _engine_process(line) and (U.TRACEBACK_HEAD in text or E.TRACEBACK_OPENER.search(text)):
            cause = C.BY_KIND["python_crash"]    # an engine core's traceback: one event, kind by serving state
        joined = self._hub_continuation(name, line, cause, exc)
        if cause is not None and joined is None:
            self._cause(name, line, cause, t)
        self._net(name, line, cause or joined, exc, t)
        if "generation throughput" in text:
            self._stats(name, line, t)
        else:
            self._milestone(text, t)

    def _liveness(self, name: str, line: P.Line) -> None:
        """A runtime liveness sample (observe/liveness.py): into the running hang judgement of its
        rank (the line's prefix, else the per-task source name, else the SkyPilot node; 0 for a
        lone file), at the log's own time when the collector stamped the line, else the
        sampler's clock. It touches nothing else: no clock, no cause, no silence (the sampler's
        output is not the run's)."""
        rank = line.rank or P.source_rank(name) or line.node
        if self.state.liveness.feed(line.text, int(rank) if rank and rank.isdigit() else 0, line.stamp):
            self.state.hit_lines += 1

    def _cause(self, name: str, line: P.Line, cause: C.Cause, t: float | None, quiet: bool = False) -> None:
        """A failure line (observe/causes.py): kept per (kind, rank); the rank comes from the
        combined file's prefix or the per-task source name, so both layouts agree."""
        st, text = self.state, line.text
        rank = line.rank if line.rank is not None else P.source_rank(name)
        phase = "engine_init_failed" if st.first_generating is None else "engine_dead"
        guessed_engine = bool(cause.guessed) and cause.kind in ("engine_init_failed", "engine_dead") and \
            not C.engine_phase_said(text)
        if ((cause.kind == "python_crash" or guessed_engine) and _engine_process(line)) or \
                C.engine_phase_by_state(text):
            # vLLM's engine core process (`(EngineCore_DP0 pid=N) ` prefix): its traceback is the
            # engine failing to start before the first stats line, the engine dying after it (also
            # the engine deaths whose line does not say which: causes.ENGINE_PHASE_BY_STATE).
            cause = C.BY_KIND[phase]
        elif guessed_engine and U.TRACEBACK_HEAD in text:
            # a traceback whose head names an engine, whatever prefix hid the process's own: the same
            # phase rule, still a guess (fatal once its process ended)
            cause = C.GUESSED[phase]
        C.record(st.causes, cause.kind, rank, text[:EVIDENCE_RAW], t, st.seq, cause.guessed, quiet)
        if cause.kind == "hf_weights_missing":       # rung 4 reads it as well
            st.missing_count += 1
            st.missing_weights = self._event(text, t)   # latest

    def _hub_continuation(self, name: str, line: P.Line, cause: C.Cause | None, exc: Exc | None) -> C.Cause | None:
        """A traceback is one event: huggingface_hub's hf_raise_for_status puts the status of a 403
        (and a 429) on a continuation line ("HfHubHTTPError: (Request ID: ...)", a blank line, then
        "403 Forbidden: ..."). An HfHubHTTPError line with no status stays open on its stream for a
        few lines; a status line there re-reads that event by the status (observe/exceptions.py
        hub_status_kind). Returns the cause the continuation line joined, else None. Kept on the
        analyzer, not in the saved state: a resume that cuts between the two lines keeps the
        transient reading."""
        if cause is not None:
            if cause.kind == "hf_http_error" and exc is not None and exc.name in E.STATUS_DECIDES \
                    and E.hub_status_kind(line.text) is None:
                self._hub_open[f"{name}|{line.stream}|{line.actor or ''}"] = self.state.seq
            return None
        if not self._hub_open:           # the common case: no Hub error waits for its status
            return None
        key = f"{name}|{line.stream}|{line.actor or ''}"
        seq = self.state.seq
        opened = self._hub_open.get(key)
        if opened is None:
            return None
        if seq - opened > E.HUB_CONTINUATION_LINES:
            del self._hub_open[key]
            return None
        kind = E.hub_continuation_kind(line.text)
        if kind is None:
            return None
        del self._hub_open[key]
        rank = line.rank if line.rank is not None else P.source_rank(name)
        for ev in self.state.causes:
            if ev.kind == "hf_http_error" and ev.seq == opened and ev.rank == rank and ev.count == 1:
                ev.kind = kind
                ev.evidence = f"{ev.evidence} {line.text.strip()}"[:EVIDENCE_RAW]
                return C.BY_KIND[kind]
        return None

    def _net(self, name: str, line: P.Line, cause: C.Cause | None, exc: Exc | None, t: float | None) -> None:
        """The safety net (observe/unrecognized.py): end-of-process evidence per rank, a
        Traceback held until its final line, and every error-level line no cause names."""
        st, text = self.state, line.text
        rank = line.rank if line.rank is not None else P.source_rank(name)
        status = parse_status(text) if TS.STATUS_TAG in text else None
        if (status is not None and status.ended_badly) or E.ends_process(text):
            st.ended[U.rank_key(rank)] = [t, st.seq]
        stream = f"{name}|{line.stream}|{line.actor or ''}"
        if exc is not None or cause is not None:
            st.tracebacks.pop(stream, None)       # the traceback's final line: one event
        if cause is not None or (status is not None and not status.ended_badly) or P.EXITED.search(text):
            return      # (a supervisor's exit report is the end itself: the ladder names it when no error came before)
        if E.TRACEBACK_OPENER.search(text):
            self._hold_traceback(stream, text, rank, t)   # a child process's / thread's header: its traceback follows
            return
        if U.TRACEBACK_HEAD in text:
            # a head that states what failed before it ("Executor worker initialization error:
            # Traceback ..."): the family vocabulary names that statement; the final line, when it
            # comes, is its own event (a rule's name for it is the more specific cause of death)
            head = text.split(U.TRACEBACK_HEAD, 1)[0]
            if (said := C.guess(head if V.below_error(head) else head + "Traceback")) is not None:
                self._cause(name, line, said, t)
                return
            self._hold_traceback(stream, text, rank, t)
            return
        level = status is not None or E.is_error_line(text, exc)
        kept_quietly = not level and exc is not None and exc.name in E.KEPT_QUIETLY
        if not level and not kept_quietly and \
                not V.error_shaped(text, line.actor is not None or line.node is not None or line.teed or line.column is not None):
            return
        # a line the level grammar did not take (error words in a log record) printed at INFO /
        # DEBUG level is a notice: named or kept, as a warning
        quiet = kept_quietly or (not level and V.notice_level(text))
        # (a source column names the program when the line does not: `localai  | ... Model not responding`;
        # not for a warning: a program's name does not make its notice a failure)
        column = line.column if line.column is not None and not V.below_error(text) else None
        if status is None and (guessed := C.guess(text) or (C.guess(column + text) if column else None)) is not None:
            self._cause(name, line, guessed, t, quiet)     # the family vocabulary names it
            return
        if not U.record(st.unrecognized, text, rank, t, st.seq, text[:EVIDENCE_RAW], quiet):
            st.unrecognized_dropped += 1

    def _hold_traceback(self, stream: str, text: str, rank: str | None, t: float | None) -> None:
        """A traceback's head, held on its stream until its final line (one event); kept as an
        unrecognized error if that line never comes."""
        st = self.state
        if stream not in st.tracebacks and len(st.tracebacks) < U.MAX_SIGNATURES:
            st.tracebacks[stream] = [text[:EVIDENCE_RAW], rank, t, st.seq]

    def _event(self, text: str, t: float | None) -> Event:
        # Raw and bounded here; evidence is cleaned and redacted when reported or saved.
        return Event(text[:EVIDENCE_RAW], t, self.state.seq)

    def _progress(self, text: str, t: float | None) -> None:
        # Only dated lines order against a crash: files of different tasks arrive in any order,
        # so the marker keeps the newest time, not the last line read.
        lp = self.state.last_progress
        if t is not None and (lp is None or lp.t is None or t >= lp.t):
            self.state.last_progress = Event("", t, self.state.seq)

    def _stats(self, name: str, line: P.Line, t: float | None) -> None:
        """A stats line in a shape the fast path does not take (no time, other field order)."""
        text = line.text
        m = P.GEN_TPUT.search(text)
        if not m:
            return
        tput = float(m.group(1)) if m.group(1).replace(".", "", 1).isdigit() else 0.0
        run = P.RUNNING.search(text)
        wait = P.WAITING.search(text)
        agg = P.AGGREGATED.search(text)
        eng = P.ENGINE_ID.search(text)
        key = f"{name}|{engine_prefix(line)}|{'aggregated' if agg else (eng.group(1) if eng else '')}"
        e = self.state.engines.setdefault(key, EngineState())
        if t is None:
            t = (e.last_t or 0.0) + ASSUMED_REPORT_S
        self._update_engine(e, t, tput, int(run.group(1)) if run else 0, int(wait.group(1)) if wait else 0)
        if line.repeated > 1:
            # Ray folded N similar reports into this line (the shown one included): the
            # other N - 1 come from engines we never see by name.
            e.hidden, e.hidden_t = line.repeated - 1, t
        if tput > 0:
            if self.state.first_generating is None:
                self.state.first_generating = self._event(text, t)
            self._progress(text, t)

    def _step_time(self, step: str, t: float | None) -> None:
        """When a step was first seen; a dated line's time replaces one borrowed from an earlier
        line of the stream (MarinSkyRL's undated WANDB_MIRROR line comes before the dated one)."""
        st = self.state
        if t is None or (step in st.step_t and step not in self._guessed_steps):
            return
        st.step_t[step] = t
        if self._dated_line:
            self._guessed_steps.discard(step)
        else:
            self._guessed_steps.add(step)
        if len(st.step_t) > MAX_STEP_TIMES:
            st.step_t.pop(min(st.step_t, key=int))

    def _grep_block(self, grep: str, name: str, src: SourceState, body: bytes) -> bool:
        """The hit lines of `body` (complete lines) through grep on a pipe; False when grep
        failed (the caller scans in Python: the bytes are in memory, nothing is lost)."""
        proc = subprocess.run(_grep_argv(grep), input=body, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env=_grep_env())
        if proc.returncode not in (0, 1):    # 1 = no line matched
            return False
        self._grep_lines(name, src, proc.stdout, len(body))
        return True

    def _grep_lines(self, name: str, src: SourceState, block: bytes, limit: int) -> bool:
        """Lines `offset:text` from grep -b; False once past `limit` (the last newline)."""
        lines = block.split(b"\n")[:-1]
        if not lines:
            return True
        check = int(lines[-1].partition(b":")[0]) >= limit   # only the final block can cross it
        stats, general = self._stats_fast, self._line
        for line in lines:
            off, _, raw = line.partition(b":")
            if check and int(off) >= limit:
                return False
            if not stats(name, src, raw):   # most hits are stats lines: try them first
                general(name, src, raw)
        return True

    def _time(self, raw: bytes, pos: int) -> float | None:
        """Log time of the `MM-DD HH:MM:SS` at `pos` (with the year before it when present),
        cached: many lines share a second."""
        if pos >= 5 and raw[pos - 1] == 45 and raw[pos - 5:pos - 1].isdigit():   # "YYYY-"
            key = raw[pos - 5:pos + 14]
        else:
            key = raw[pos:pos + 14]
        t = self._tcache.get(key)
        if t is None:
            y = int(key[:4]) if len(key) == 19 else self.state.year
            d = key[-14:]
            try:
                t = float(calendar.timegm((y, int(d[0:2]), int(d[3:5]), int(d[6:8]), int(d[9:11]), int(d[12:14]),
                                           0, 0, 0)))
            except (ValueError, OverflowError):
                return None
            if len(self._tcache) > 4096:
                self._tcache.clear()
            self._tcache[key] = t
        return t

    def _stamp_pos(self, raw: bytes, end: int) -> int:
        """Where `MM-DD HH:MM:SS` starts before `end`: the positions seen before are tried
        first (one engine's lines share their shape), then the regex; -1 if none."""
        for p in self._stamps:
            if p + 14 <= end and raw[p + 2] == 45 and raw[p + 8] == 58 and raw[p + 11] == 58 \
                    and raw[p:p + 2].isdigit() and raw[p + 12:p + 14].isdigit():
                return p
        stamp = P.STAMP_B.search(raw, 0, end)
        if stamp is None:
            return -1
        if len(self._stamps) < 16:
            self._stamps.append(stamp.start())
        return stamp.start()

    def _stats_fast(self, name: str, src: SourceState, raw: bytes) -> bool:
        """A vLLM stats line read straight from bytes; False: leave it to the general path."""
        m = P.STATS_B.search(raw)
        if m is None:
            return False
        end = m.start()
        pos = self._stamp_pos(raw, end)
        if pos < 0 or raw[pos + 5] == 84 or (raw[-1] in (41, 93) and b"across cluster]" in raw):
            return False    # container timestamp ('T') or Ray dedup: the general path reads them
        if (t := self._time(raw, pos)) is None:
            return False
        i = raw.find(b"Engine", pos + 14, end)
        ident = (name, raw[:pos], raw[i:i + 12] if i >= 0 else b"")
        hit = self._ecache.get(ident)
        if hit is None:
            if b", rank=" in ident[1]:
                return False    # SkyPilot node prefix: the general path strips it
            hit = self._ecache[ident] = (self._engine(name, raw, pos, end), self._stream(raw))
        e, stream = hit
        st = self.state
        src.last_t = t
        src.stream_t[stream] = t
        if st.max_t is None or t > st.max_t:
            st.max_t = t
        st.seq += 1
        st.hit_lines += 1
        tput_b, run_b, wait_b = m.groups()
        tput = float(tput_b) if tput_b.count(b".") <= 1 else 0.0
        run, wait = int(run_b), int(wait_b)
        if wait == 0 and tput > 0 and e.streak_t is None and e.zero_t is None:
            e.last_t, e.tput, e.running, e.waiting = t, tput, run, 0   # the common, healthy report
            e.reports += 1
        else:
            self._update_engine(e, t, tput, run, wait)
        if tput > 0:
            if st.first_generating is None:
                st.first_generating = self._event(raw.decode("utf-8", "replace"), t)
            lp = st.last_progress
            if lp is not None and lp.t == t and not lp.evidence:
                lp.seq = st.seq          # same second: move the marker instead of a new object
            elif lp is None or lp.t is None or t > lp.t:
                st.last_progress = Event("", t, st.seq)
        return True

    def _stream(self, raw: bytes) -> str:
        """The task stream of a line the fast path reads (its pull rank prefix), cached."""
        if raw[:1] != b"[" and raw[:4] != b"rank":
            return "/"
        j = raw.find(b"]" if raw[:1] == b"[" else b"|", 0, 24)
        key = raw[:j + 1]
        stream = self._scache.get(key)
        if stream is None:
            stream = self._scache[key] = P.clean(key + b" x").stream
        return stream

    def _engine(self, name: str, raw: bytes, pos: int, end: int) -> EngineState:
        """The engine a stats line belongs to: its source, the prefixes before the time
        (pull rank, Ray actor pid/ip) and the engine index (or the aggregated logger)."""
        head = raw[pos + 14:end]
        i = head.find(b"Engine")
        engine = "" if i < 0 else ("aggregated" if head.startswith(b"Engines Aggregated", i)
                                   else head[i + 7:].split(b":", 1)[0].decode("latin-1"))
        key = f"{name}|{raw[:pos].decode('latin-1')}|{engine}"
        e = self.state.engines.get(key)
        if e is None:
            e = self.state.engines[key] = EngineState()
        return e

    def _update_engine(self, e: EngineState, t: float, tput: float, run: int, wait: int) -> None:
        cfg = self.config
        e.last_t, e.tput, e.running, e.waiting = t, tput, run, wait
        e.reports += 1
        if wait > 0 and wait >= cfg.wedge_ratio * max(run, 1):
            # Rising = above every report of the streak by more than the tolerance: it restarts
            # the window. Comparing with the streak's maximum keeps report-to-report noise out.
            rising = tput > e.streak_tput * (1 + cfg.flat_tolerance) + cfg.flat_abs_tokens
            if e.streak_t is None or rising:
                e.streak_t, e.streak_tput, e.streak_first = t, tput, tput
            else:
                e.streak_tput = max(e.streak_tput, tput)
        else:
            e.streak_t = None
        if tput == 0 and (run > 0 or wait > 0):
            e.zero_t = t if e.zero_t is None else e.zero_t
        else:
            e.zero_t = None

    def _milestone(self, text: str, t: float | None) -> None:  # noqa: C901 - one flat dispatch
        st = self.state
        if P.CRASH.search(text):
            st.crash = self._event(text, t)
            if "norm_topk_prob" in text:
                st.norm_topk = st.norm_topk or st.crash
            if "R3 router capture" in text:
                st.dcp_rejected = st.dcp_rejected or st.crash
        elif "MarinSkyRL now at" in text and (m := P.SKYRL_AT.search(text)):
            st.skyrl_at = self._event(text, t)
            self._progress(text, t)
        elif "Staging train_data" in text and (m := P.STAGING.search(text)):
            st.staged[m.group(1)] = text[:EVIDENCE_RAW]
            st.staged_n = int(m.group(2))
            self._progress(text, t)
        elif "Ray nodes alive" in text and (m := P.RAY_ALIVE.search(text)):
            k, n = int(m.group(1)), int(m.group(2))
            if st.ray_alive is None or k >= st.ray_alive[0]:
                st.ray_alive = [k, n, text[:EVIDENCE_RAW]]
            self._progress(text, t)
        elif "retry" in text and P.HF_RETRY.search(text):
            st.retry = self._event(text, t)                 # latest: it must follow the error
        elif "norm_topk_prob" in text and P.NORM_TOPK.search(text):
            st.norm_topk = st.norm_topk or self._event(text, t)
            st.crash = self._event(text, t)
        elif ("ROUTED_EXPERTS" in text or "router capture" in text) and P.DCP_REJECTED.search(text):
            st.dcp_rejected = self._event(text, t)
        elif ("ROUTED_EXPERTS" in text or "routed-experts" in text) and P.DCP_ENGAGED.search(text):
            st.dcp_engaged = st.dcp_engaged or self._event(text, t)
        elif ("sandbox" in text or "limit reached" in text) and P.SANDBOX_FAILED.search(text):
            step = str((st.global_step or 0) + 1)
            st.sandbox_failures[step] = st.sandbox_failures.get(step, 0) + 1
            st.sandbox_failed = self._event(text, t)
        elif "sync_weights'" in text and (m := P.WEIGHT_SYNC.search(text)):
            if m.group(1) == "Started":
                st.sync_started = self._event(text, t)
            else:
                st.sync_finished = self._event(text, t)
                self._progress(text, t)
        else:
            self._trainer(text, t)

    def _trainer(self, text: str, t: float | None) -> None:
        st = self.state
        if (m := P.RESUMED.search(text)) or P.SCRATCH.search(text):
            st.trainer_up = self._event(text, t)
            st.start_step = int(m.group(1)) if m else 0
            self._progress(text, t)
        elif (trials := _concurrent_trials(text)) is not None:
            st.coordinator = st.coordinator or self._event(text, t)
            st.concurrent_trials = trials
            self._progress(text, t)
        elif (m := P.WANDB_STEP.search(text)) or (m := P.CONSOLE_STEP.search(text)) or \
                (m := P.CONSOLE_STEP_OPEN.search(text)):
            step = int(m.group(1))
            st.global_step = step if st.global_step is None else max(st.global_step, step)
            self._step_time(str(step), t)
            self._progress(text, t)
        elif "Finished: 'step'" in text and P.STEP_DONE.search(text):
            # Upstream SkyRL without a console logger prints no step number: its Timer("step")
            # closes each step, counted from the resumed step.
            st.timer_steps += 1
            step = (st.start_step or 0) + st.timer_steps
            st.global_step = step if st.global_step is None else max(st.global_step, step)
            self._step_time(str(step), t)
            self._progress(text, t)
        elif (m := P.EXITED.search(text)) and not E.SUCCEEDED_ROW.match(text):
            if E.failed_exit(m.group(1)):
                st.crash = self._event(text, t)
            elif m.group(1) == "0" and m.group(0).startswith("exited with code"):
                # our runtime's `Command exited with code 0` ends the run; another process's clean
                # exit (a pool worker, a rollout subprocess) does not
                st.finished = self._event(text, t)
        elif P.FINISHED.search(text):
            st.finished = self._event(text, t)

    # ---- output ------------------------------------------------------------------------
    def verdict(self, now_log_time: float | None = None, trials_completed: int | None = None,
                trial_outcomes: list[Any] | None = None) -> HealthReport:
        """The ladder over everything fed so far; partial last lines count as lines here.
        `now_log_time` is the clock silence is measured against (seconds since the epoch, UTC):
        the wall clock for a live job, `health --now` for files; None: the newest dated line.
        `trial_outcomes`: `trials.read_trials()`'s outcomes, for the reward-0 attribution."""
        state = self.state
        if any(src.rem for src in state.sources.values()):
            probe = Analyzer(self.plan, self.config, copy.deepcopy(state))
            for name, src in probe.state.sources.items():
                if src.rem:
                    tail = src.rem.encode("latin-1") + b"\n"
                    src.rem = ""
                    probe._scan(name, src, tail, len(tail))
            state = probe.state
        return evaluate(state.map_text(P.snippet), plan_info(self.plan), self.config, trials_completed, now_log_time,
                        trial_outcomes)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state (offsets, partial lines, what was learned) atomically."""
        data = {"config": self.config.to_dict(), "state": self.state.map_text(P.redact).to_dict()}
        tmp = Path(f"{path}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], plan: dict[str, Any] | None = None,
             config: LadderConfig | None = None) -> "Analyzer":
        """Resume from `save()`; raises ValueError on a file that is not a saved state."""
        try:
            data = json.loads(Path(path).read_text())
            state = State.from_dict(data["state"])
            saved = LadderConfig.from_dict(data.get("config") or {})
        except (OSError, KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            raise ValueError(f"not an irisrl health state file: {exc}") from exc
        return cls(plan, config or saved, state)


# ---- files -------------------------------------------------------------------------------
class TruncatedLog(EOFError):
    """A .gz that ends early: everything before the cut was fed (`read` bytes)."""

    def __init__(self, path: str, read: int) -> None:
        super().__init__(f"{path}: compressed stream ends early after {read} bytes")
        self.read = read


def is_gzip(path: str | os.PathLike[str]) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def _concurrent_trials(text: str) -> int | None:
    """The trial concurrency a trainer line states: SkyRL's startup count, or the rollout
    coordinator's rescale (its new value); None when the line states neither."""
    if m := P.CONCURRENT.search(text):
        return int(m.group(1))
    if m := P.COORDINATOR.search(text):
        return int(m.group(2))
    return None


# What a rank may wait on besides its peers, named in a timeout's message: a URL / endpoint / server it calls, a
# subprocess or job it runs, a lock, a DataLoader's workers, a Ray task (`ray::Actor.method()`)
OTHER_WAIT = re.compile(r"(?i)https?://|\b(?:endpoint|url|http\w*|host|server|sandbox|lock|dataloader|command|request|response|api|job)\b|ray::")


def _rank_timeout(line: P.Line, exc: E.Exc | None) -> bool:
    """An exception that says it timed out, in a torchrun rank's own output (`[rank0]: RuntimeError: Operation timed out!`,
    gloo's Work.wait as current set 48 prints it): a rank of a process group waits on its peers, so a timeout no family
    names is the group's wait (a Hub or engine timeout is named by its family before this). Only a builtin or torch
    class: another library's timeout (httpx, litellm, subprocess, filelock, multiprocessing) is its own wait, and so is
    one whose message names what else it waited on (OTHER_WAIT), or a refused setting named for a timeout
    (`Invalid value for environment variable: TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC`)."""
    if not line.teed or exc is None or OTHER_WAIT.search(exc.message) or E.refused_input(exc):
        return False
    own = "." not in exc.dotted or exc.dotted.startswith(("torch.", "builtins."))
    return own and bool(E.TIMEOUT_CLASS.search(exc.name) or V.TIMED_OUT.search(exc.message))


def _engine_process(line: P.Line) -> bool:
    """The line is vLLM's engine core process's own: its prefix names it (`(EngineCore_DP0 pid=N)`),
    or multiprocessing's header does (`Process EngineCore_0:`, behind a Serve replica's prefix)."""
    m = E.TRACEBACK_OPENER.search(line.text)
    return (line.actor or "").startswith("EngineCore") or (m is not None and (m.group(1) or "").startswith("EngineCore"))


def engine_prefix(line: P.Line) -> str:
    """Where an engine's stats line came from, as a prefix `patterns.clean` reads back: the pull
    rank, the SkyPilot node and the Ray actor (pid@ip), so two actors never share an engine."""
    node = "" if line.node is None else ("(head, rank=0) " if line.node == "0" else f"(worker{line.node}, rank={line.node}) ")
    actor = ""
    if line.actor:
        who, _, ip = line.actor.partition("@")
        actor = f"({who}, ip={ip}) " if ip and ip != "?" else f"({who}) "
    return (line.column or "") + (f"[{line.rank}] " if line.rank else "") + node + actor


def _grep() -> str | None:
    """The grep binary on PATH (shutil.which without importing shutil: start-up counts)."""
    if os.environ.get("IRISRL_HEALTH_NO_GREP"):
        return None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or ".", "grep")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _grep_argv(grep: str) -> list[str]:
    return [grep, "-a", "-b", "-E", P.GREP_PATTERN]   # -E beats -F with many -e here (measured)


def _grep_env() -> dict[str, str]:
    return dict(os.environ, LC_ALL="C")             # bytes, not the locale's characters


def feed_file(analyzer: Analyzer, path: str | os.PathLike[str], source: str | None = None) -> int:
    """Feed the bytes of `path` not yet fed (from the saved offset); returns bytes read.
    A file now shorter than its offset was replaced: it is read again from the start.
    Plain files go through grep as a prefilter when it exists (same result, ~5x faster)."""
    source = source or str(Path(path).resolve())
    offset = analyzer.offset(source)
    gz = is_gzip(path)
    if not gz and offset and os.stat(path).st_size < offset:
        analyzer.state.sources.pop(source, None)
        offset = 0
    grep = None if gz else _grep()
    if grep:
        return _feed_grep(analyzer, grep, path, source, offset)
    read = 0
    import gzip

    with (gzip.open if gz else open)(path, "rb") as fh:
        fh.seek(offset)   # gzip: decompresses up to the offset
        try:
            for chunk in read_chunks(fh, gz):
                analyzer.feed(source, chunk)
                read += len(chunk)
        except EOFError:
            raise TruncatedLog(str(path), read) from None
    return read


def read_chunks(fh: Any, gz: bool) -> Iterator[bytes]:
    """CHUNK-sized reads. A .gz cut short raises EOFError only after yielding what was
    decompressed before the cut: gzip's read(CHUNK) would drop up to CHUNK bytes with it
    (a truncated .gz smaller than CHUNK read as empty), so it is read with read1."""
    if not gz:
        while chunk := fh.read(CHUNK):
            yield chunk
        return
    buf = bytearray()
    try:
        while part := fh.read1(CHUNK):
            buf += part
            if len(buf) >= CHUNK:
                yield bytes(buf)
                buf.clear()
    except EOFError:
        if buf:
            yield bytes(buf)
        raise
    if buf:
        yield bytes(buf)


def _feed_grep(analyzer: Analyzer, grep: str, path: str | os.PathLike[str], source: str, offset: int) -> int:
    """Only the lines with a needle reach Python: `grep -abF` over the new bytes. Bytes after
    the last newline stay pending (as with feed()), so the result is the same."""
    src = analyzer.state.sources.setdefault(source, SourceState())
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        fh.seek(offset)
        if src.rem:                      # complete the pending partial line first
            head = fh.readline(MAX_PARTIAL)
            analyzer.feed(source, head)
            offset += len(head)
            if not head.endswith(b"\n"):
                return len(head)
        start = offset
        tail_len = min(MAX_PARTIAL, size - start)
        fh.seek(size - tail_len)
        tail = fh.read(tail_len)
        nl = tail.rfind(b"\n")
        cut = (size - tail_len + nl + 1) if nl >= 0 else start   # absolute end of complete lines
        fh.seek(start)
        if cut > start:
            analyzer.tail_time(tail[:nl + 1])
            _grep_scan(analyzer, grep, fh, source, src, cut - start)
        src.offset = size
        src.rem = (tail[nl + 1:] if nl >= 0 else tail)[:MAX_PARTIAL].decode("latin-1")
    return size - start


def _widen_pipe(stream: Any) -> None:
    """Let grep run ahead of Python: a 1 MiB pipe (Linux's default cap for unprivileged users)
    instead of 64 KiB. Best effort: elsewhere the default pipe stays."""
    try:
        import fcntl
        fcntl.fcntl(stream.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass


def _grep_scan(analyzer: Analyzer, grep: str, fh: Any, name: str, src: SourceState, limit: int) -> None:
    # unbuffered: each read is one read(2) of what grep has written so far, not a full CHUNK (a
    # buffered read(CHUNK) left grep stalled on a full pipe while Python waited for 8 MB: the two
    # ran in turns, not together; 1 GiB benchmark 2.75 s -> 2.0 s)
    with subprocess.Popen(_grep_argv(grep), stdin=fh, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=_grep_env(), bufsize=0) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        pending, stopped = b"", False
        _widen_pipe(proc.stdout)
        while block := proc.stdout.read(CHUNK):
            block = pending + block
            cut = block.rfind(b"\n") + 1
            pending = block[cut:]
            if not analyzer._grep_lines(name, src, block[:cut], limit):
                stopped = True
                break
        if stopped:
            proc.kill()   # bytes appended after we started are for the next pass
        rc = proc.wait()
        err = proc.stderr.read().decode("utf-8", "replace").strip()
    if not stopped and rc not in (0, 1):   # 1 = no line matched; anything else: grep failed
        raise OSError(f"grep failed on {name} (exit {rc}): {err or 'no message'}")


def analyze_files(paths: Iterable[str | os.PathLike[str]], plan: dict[str, Any] | None = None,
                  config: LadderConfig | None = None, trials_completed: int | None = None) -> HealthReport:
    """One full pass over log files (plain or .gz, any order): the health report."""
    analyzer = Analyzer(plan, config)
    for path in paths:
        feed_file(analyzer, path)
    return analyzer.verdict(trials_completed=trials_completed)
