"""The milestone ladder (runbook section 8) and the KILL / NO-KILL verdict.

`evaluate(state, plan, config, now=)` is pure: it reads what the analyzer learned and decides.
Pending rungs are never failures (a 30B arm takes about an hour to its first rollout).

The clock: `now` is the wall clock for a live job (health JOB, the watchdog) and `health
--now` for files, else the newest dated line. Silence counts against it: an engine that
stops reporting while requests are queued (vLLM V1 logs idle intervals only at DEBUG, so
a stalled engine just goes quiet), no output from any task, a step that takes far longer
than the run's median step (a fully-async buffer that never fills after step 1:
NovaSky-AI/SkyRL#1173), a weight sync that starts and never finishes (rung 9)."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from irisrl.observe import causes as C
from irisrl.observe import exceptions as E
from irisrl.observe import patterns as P
from irisrl.observe import unrecognized as U
from irisrl.observe.task_status import STATUS_TAG
from irisrl.observe.planinfo import PlanInfo
from irisrl.observe.state import EngineState, State
from irisrl.observe.trials import StepCounts, TrialOutcome, per_step

PASS, FAIL, PENDING, NA = "pass", "fail", "pending", "n/a"
KILL_RUNGS = (2, 4, 5, 6, 8, 9)   # rung 8 fails when infrastructure failures dominate a step (or a fatal cause)
ZERO_TRIALS = "rollouts executing, 0 trials completed yet"

RUNG_NAMES = {
    1: "skyrl-ref checkout took",
    2: "every rank staged its data",
    3: "Ray nodes alive N/N",
    4: "weights loaded",
    5: "vLLM actually generating",
    6: "DCP+R3 guard engaged",
    7: "trainer + rollout coordinator up",
    8: "trials completing, step advancing",
    9: "output, steps, weight sync moving",
}


@dataclass(frozen=True)
class LadderConfig:
    """Thresholds, stated and configurable. The wedge: Waiting >= wedge_ratio x max(Running, 1)
    with throughput not rising more than flat_tolerance over >= wedge_window_s of consecutive
    reports of one engine."""
    wedge_ratio: float = 4.0
    wedge_window_s: float = 60.0
    flat_tolerance: float = 0.10
    flat_abs_tokens: float = 1.0
    zero_window_s: float = 60.0         # 0 tokens/s with requests queued for this long: stalled
    recent_s: float = 120.0             # an engine's report counts if this close to the newest line
    coordinator_grace_s: float = 1200.0 # trainer up, no rollout coordinator after this: fail
    never_serving_s: float = 1800.0     # coordinator up, no token generated after this: fail
    engine_silence_s: float = 600.0     # an engine's last report had requests waiting, then nothing for this long
    # Generous on purpose: a long colocated policy update can print no dated line for many
    # minutes, and agentic steps have long tails.
    silence_s: float = 1800.0           # no dated line from any task for this long while running: fail
    stall_factor: float = 4.0           # the current step has run > this x the median step time ...
    stall_min_s: float = 1200.0         # ... and at least this long: stalled
    sync_timeout_s: float = 1200.0      # `Started: 'sync_weights'` with no `Finished:` for this long
    # A rank whose liveness samples show no progress this long is hung (observe/liveness.py): six
    # 30 s samples, so a weight sync or checkpoint in flight shows its bytes or CPU first, and a
    # hang is named within 180 s + two sample intervals of its onset (<= 5 minutes).
    hang_after_s: float = 180.0

    def to_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LadderConfig":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: float(v) for k, v in data.items() if k in names})


@dataclass
class RungResult:
    rung: int
    name: str
    status: str
    evidence: str

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class HealthReport:
    verdict: str
    phase: str
    rungs: list[RungResult]
    reasons: list[str]
    throughput: dict[str, Any]
    trials_completed: int | None
    global_step: int | None
    log_time_end: float | None = field(default=None, compare=False)  # not in the JSON contract
    trial_steps: list[StepCounts] | None = None   # reward-0 attribution per step (with trial outcomes)
    causes: list[dict[str, Any]] = field(default_factory=list)      # observe/causes.py findings, log order
    cause_of_death: dict[str, Any] | None = None
    # error lines no cause names (observe/unrecognized.py), most frequent first
    unrecognized: list[dict[str, Any]] = field(default_factory=list)

    @property
    def kill(self) -> bool:
        return self.verdict == "KILL"

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "phase": self.phase,
                "rungs": [r.to_dict() for r in self.rungs], "reasons": list(self.reasons),
                "throughput": dict(self.throughput), "trials_completed": self.trials_completed,
                "global_step": self.global_step, "causes": [dict(c) for c in self.causes],
                "cause_of_death": dict(self.cause_of_death) if self.cause_of_death else None,
                "unrecognized": [dict(u) for u in self.unrecognized],
                **({"trial_steps": [c.to_dict() for c in self.trial_steps]} if self.trial_steps is not None else {})}


def _clock(t: float | None) -> str:
    return time.strftime("%m-%d %H:%M:%S", time.gmtime(t)) if t is not None else "?"


def _engine_name(key: str) -> str:
    from irisrl.observe.patterns import clean

    source, prefix, engine = key.split("|", 2) if key.count("|") >= 2 else (key, "", "")
    head = clean(prefix.encode("latin-1", "replace") + b"x")
    rank, actor, node = head.rank, head.actor, head.node
    parts = [p for p in (f"rank {rank}" if rank else "", f"node {node}" if node else "", actor,
                         f"engine {engine}" if engine else "") if p]
    return ", ".join(parts) or source.rsplit("/", 1)[-1]


class _Ctx:
    """Inputs shared by the rung functions."""

    def __init__(self, st: State, plan: PlanInfo, cfg: LadderConfig, now: float | None,
                 outcomes: list[TrialOutcome] | None = None) -> None:
        self.st, self.plan, self.cfg = st, plan, cfg
        self.steps = per_step(outcomes, st.step_t) if outcomes is not None else None
        ends = [t for t in (st.max_t, st.last_line_t) if t is not None]
        self.log_end = max(ends) if ends else None     # newest dated line: what "recent" means
        self.now = now if now is not None else self.log_end
        self.crashed = st.crash is not None and st.crash.later_than(st.last_progress)
        self.n = plan.num_nodes or st.staged_n or (st.ray_alive[1] if st.ray_alive else None)
        self.recent = {k: e for k, e in st.engines.items() if self._is_recent(e)}

    def _is_recent(self, e: EngineState) -> bool:
        end = self.log_end
        return end is None or e.last_t is None or end - e.last_t <= self.cfg.recent_s

    def hidden(self, e: EngineState) -> int:
        """Engines folded into `e`'s line by Ray's dedup, counted while that line is recent."""
        end = self.log_end
        recent = e.hidden_t is not None and (end is None or end - e.hidden_t <= self.cfg.recent_s)
        return e.hidden if recent else 0

    def age(self, t: float | None) -> float:
        return (self.now - t) if (self.now is not None and t is not None) else 0.0

    @property
    def later_milestone(self) -> bool:
        st = self.st
        return bool(st.trainer_up or st.coordinator or st.first_generating or
                    (st.ray_alive and st.ray_alive[0] >= st.ray_alive[1]))


def _rung1(c: _Ctx) -> tuple[str, str]:
    st, ref = c.st, c.plan.skyrl_ref
    if st.skyrl_at is not None:
        sha = st.skyrl_at.evidence.rsplit("now at", 1)[-1].strip().split()[0] if "now at" in st.skyrl_at.evidence else ""
        if ref and all(ch in "0123456789abcdef" for ch in ref.lower()) and sha and \
                not (sha.lower().startswith(ref.lower()) or ref.lower().startswith(sha.lower())):
            return FAIL, f"checked out {sha}, the plan asked for {ref}: {st.skyrl_at.evidence}"
        return PASS, st.skyrl_at.evidence
    if not c.plan.known:
        return NA, "no plan given: cannot tell whether --skyrl-ref was used (no 'MarinSkyRL now at' line)"
    if not ref:
        return NA, "the plan has no --skyrl-ref"
    if c.later_milestone:
        return FAIL, f"--skyrl-ref {ref} was asked for but 'MarinSkyRL now at <sha>' never appeared: stale baked code"
    return PENDING, f"waiting for 'MarinSkyRL now at {ref}'"


def _expected_ranks(c: _Ctx, seen: set[int]) -> set[int] | None:
    if not c.n:
        return None
    one_based = c.n in seen and 0 not in seen and all(1 <= r <= c.n for r in seen)
    return set(range(1, c.n + 1)) if one_based else set(range(c.n))


def _rung2(c: _Ctx) -> tuple[str, str]:
    seen = {int(r) for r in c.st.staged}
    if not seen and c.plan.stages_data is False:
        return NA, "the plan stages no train_data (no --train_data)"
    expected = _expected_ranks(c, seen)
    if expected is None:
        return (PASS, f"ranks {sorted(seen)} staged (N unknown)") if seen else (PENDING, "no staging line yet")
    missing = sorted(expected - seen)
    if not missing:
        return PASS, f"all {c.n} ranks staged ({min(expected)}..{max(expected)})"
    msg = f"{len(seen)}/{c.n} ranks staged; missing rank(s) {', '.join(map(str, missing))}"
    if c.later_milestone:
        return FAIL, msg + ": node-local data starvation (those ranks score reward 0)"
    return PENDING, msg


def _rung3(c: _Ctx) -> tuple[str, str]:
    alive = c.st.ray_alive
    if not alive:
        return PENDING, "no 'Ray nodes alive' line yet"
    k, n, evidence = alive
    if k >= n and (c.n is None or n >= c.n):
        return PASS, evidence
    return PENDING, f"latest {k}/{c.plan.num_nodes or n}: {evidence}"


def _rung4(c: _Ctx) -> tuple[str, str]:
    st = c.st
    if st.norm_topk:
        return FAIL, f"stale-image MoE crash: {st.norm_topk.evidence}"
    missing = st.missing_weights
    if missing is not None and (st.retry is None or missing.later_than(st.retry)):     # not retried
        if c.crashed:
            return FAIL, f"missing safetensors with no retry, then a crash (stale image): {missing.evidence}"
        return PENDING, f"missing safetensors seen, no retry after it yet: {missing.evidence}"
    if st.missing_weights and st.retry:
        return PASS, f"benign: the retry wrapper caught {st.missing_count} missing-safetensors error(s): {st.retry.evidence}"
    if st.retry:
        return PASS, f"benign HF retry: {st.retry.evidence}"
    if st.trainer_up or st.first_generating or st.coordinator:
        return PASS, "no weight-load error; later milestones reached"
    return PENDING, "weights not loaded yet"


class _Streak(NamedTuple):
    """An engine whose suspicious streak has lasted `span` seconds (log time) since `since`."""
    key: str
    engine: EngineState
    since: float
    span: float


def _streaks(c: _Ctx, start: Callable[[EngineState], float | None], window_s: float) -> list[_Streak]:
    """Recent engines whose streak (starting at `start(engine)`) has lasted at least window_s."""
    out = []
    for k, e in c.recent.items():
        since = start(e)
        if since is not None and e.last_t is not None and e.last_t - since >= window_s:
            out.append(_Streak(k, e, since, e.last_t - since))
    return out


def _wedged(c: _Ctx) -> list[_Streak]:
    return _streaks(c, lambda e: e.streak_t, c.cfg.wedge_window_s)


def _stalled(c: _Ctx) -> list[_Streak]:
    return _streaks(c, lambda e: e.zero_t, c.cfg.zero_window_s)


def _silent_engines(c: _Ctx) -> list[tuple[str, EngineState]]:
    """Engines whose last report had requests waiting and that said nothing since. Waiting,
    not running: vLLM V1's last report of a generation phase that simply ended can still show
    requests running (idle intervals are logged only at DEBUG), but its queue has drained."""
    if c.crashed or c.st.finished:
        return []
    return [(k, e) for k, e in c.st.engines.items()
            if e.last_t is not None and e.waiting > 0 and c.age(e.last_t) >= c.cfg.engine_silence_s]


def _rung5(c: _Ctx) -> tuple[str, str]:
    wedged, stalled = _wedged(c), _stalled(c)
    if wedged:
        key, e, since, span = wedged[0]
        return FAIL, (f"throughput-starvation wedge on {len(wedged)} engine(s); {_engine_name(key)}: Waiting {e.waiting} "
                      f">= {c.cfg.wedge_ratio:g} x max(Running {e.running}, 1) with flat/falling throughput "
                      f"({e.streak_first:g} -> {e.tput:g} tok/s) for {span:.0f}s since {_clock(since)}")
    if stalled:
        key, e, since, span = stalled[0]
        return FAIL, (f"vLLM not generating on {len(stalled)} engine(s); {_engine_name(key)}: 0 tokens/s with "
                      f"{e.running} running / {e.waiting} waiting for {span:.0f}s since {_clock(since)}")
    st = c.st
    if st.first_generating is None and st.coordinator and c.age(st.coordinator.t) >= c.cfg.never_serving_s:
        return FAIL, f"vLLM never generated in {c.age(st.coordinator.t):.0f}s since the rollout coordinator started"
    if silent := _silent_engines(c):
        key, e = silent[0]
        return FAIL, (f"{len(silent)} engine(s) stopped reporting with requests queued; {_engine_name(key)}: last report "
                      f"{_clock(e.last_t)} ({e.running} running / {e.waiting} waiting), silent {c.age(e.last_t):.0f}s "
                      f">= {c.cfg.engine_silence_s:g}s")
    live = [e for e in c.recent.values() if e.tput > 0]
    if live:
        tput = sum(e.tput * (1 + c.hidden(e)) for e in live)
        waiting = sum(e.waiting for e in c.recent.values())
        hidden = sum(c.hidden(e) for e in live)
        folded = f" ({hidden} of them only through Ray's log dedup, at the shown line's rate)" if hidden else ""
        return PASS, f"{len(live) + hidden} engine(s) generating {tput:.1f} tok/s{folded}, Waiting {waiting} in total"
    if st.engines:
        return PENDING, "engines report but are idle (0 tokens/s, nothing queued)"
    return PENDING, "no vLLM stats line yet"


def _rung6(c: _Ctx) -> tuple[str, str]:
    st = c.st
    applies = c.plan.dcp_with_r3 if c.plan.dcp_with_r3 is not None else bool(st.dcp_engaged or st.dcp_rejected)
    if not applies:
        return NA, "the plan has no DCP > 1 with R3 router capture" if c.plan.known else "no DCP+R3 line in the logs"
    if st.dcp_rejected and (st.dcp_engaged is None or st.dcp_rejected.later_than(st.dcp_engaged)):
        return FAIL, f"guard rejected (set VLLM_ALLOW_ROUTED_EXPERTS_DCP=1 in extra_env): {st.dcp_rejected.evidence}"
    if st.dcp_engaged:
        return PASS, st.dcp_engaged.evidence
    return PENDING, "waiting for 'VLLM_ALLOW_ROUTED_EXPERTS_DCP=1: allowing ...'"


def _rung7(c: _Ctx) -> tuple[str, str]:
    st = c.st
    if st.trainer_up and st.coordinator:
        k = f"; concurrent trials per coordinator: {st.concurrent_trials}" if st.concurrent_trials is not None else ""
        return PASS, f"{st.trainer_up.evidence}{k}"
    if st.trainer_up:
        waited = c.age(st.trainer_up.t)
        if waited >= c.cfg.coordinator_grace_s or c.crashed or st.finished:
            return FAIL, f"trainer up {waited:.0f}s ago but no rollout coordinator / generator ever appeared"
        return PENDING, f"trainer up ({st.trainer_up.evidence}); waiting for the rollout coordinator"
    if st.coordinator:
        return PENDING, f"generator up ({st.coordinator.evidence}); trainer not started yet"
    return PENDING, "trainer not started yet"


def _advancing(st: State) -> bool:
    return st.global_step is not None and st.global_step >= max((st.start_step or 0) + 1, 1)


def _sandbox_note(st: State) -> str:
    n = sum(st.sandbox_failures.values())
    return f"; {n} sandbox failure line(s) logged (latest: {st.sandbox_failed.evidence})" if n and st.sandbox_failed else ""


def _rung8(c: _Ctx, trials: int | None) -> tuple[str, str]:
    status, evidence = _rung8_progress(c, trials)
    if escalated := [s for s in c.steps or [] if s.escalates]:
        return FAIL, ("infrastructure failures dominate the rewards (reward 0 from the sandbox, not the model): "
                      + "; ".join(s.evidence() for s in escalated[-2:]) + _sandbox_note(c.st))
    return status, evidence + _sandbox_note(c.st)


def _rung8_progress(c: _Ctx, trials: int | None) -> tuple[str, str]:
    st = c.st
    step = f"global step {st.global_step}" if st.global_step is not None else "no step yet"
    if (trials or 0) > 0:
        return PASS, f"{trials} trial(s) completed; {step}"
    if _advancing(st):
        return PASS, f"{step} (from {st.start_step or 0})" + ("" if trials is None else f"; {trials} result.json found")
    if st.coordinator or st.first_generating:
        return PENDING, ZERO_TRIALS
    return PENDING, "no rollouts yet"


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _step_stall(c: _Ctx) -> str | None:
    """The current step has run more than stall_factor x the median step time (the first
    step's time counts from the trainer's start line)."""
    st = c.st
    times = sorted((int(k), t) for k, t in st.step_t.items())
    if not times:
        return None
    marks = ([st.trainer_up.t] if st.trainer_up and st.trainer_up.t is not None and st.trainer_up.t <= times[0][1] else [])
    marks += [t for _, t in times]
    spans = [b - a for a, b in zip(marks, marks[1:]) if b >= a]
    if not spans:
        return None
    median, step, since = _median(spans), times[-1][0], times[-1][1]
    waited = c.age(since)
    limit = max(c.cfg.stall_factor * median, c.cfg.stall_min_s)
    if waited < limit:
        return None
    return (f"step {step + 1} has not arrived {waited:.0f}s after step {step} ({_clock(since)}): > "
            f"{c.cfg.stall_factor:g} x the median step time {median:.0f}s (floor {c.cfg.stall_min_s:g}s); "
            "a stall after the first steps (e.g. a fully-async buffer that never fills, SkyRL#1173)")


def _rung9(c: _Ctx) -> tuple[str, str]:
    st, cfg = c.st, c.cfg
    if c.crashed or (st.finished and st.finished.later_than(st.crash)):
        return NA, "the run has ended"
    if c.log_end is None:
        return PENDING, "no dated line yet"
    if not (st.trainer_up or st.coordinator or st.first_generating):
        # Bring-up can print nothing dated for a long time (progress bars of weight loads).
        return PENDING, "silence is judged once the trainer is up"
    quiet = c.age(c.log_end)
    if quiet >= cfg.silence_s:
        return FAIL, f"no output from any task for {quiet:.0f}s (last dated line {_clock(c.log_end)}; limit {cfg.silence_s:g}s)"
    sync = st.sync_started
    if sync is not None and sync.later_than(st.sync_finished) and c.age(sync.t) >= cfg.sync_timeout_s:
        return FAIL, f"weight sync started {c.age(sync.t):.0f}s ago and has not finished (limit {cfg.sync_timeout_s:g}s): {sync.evidence}"
    if stall := _step_stall(c):
        return FAIL, stall
    return PASS, f"last output {quiet:.0f}s before now" + (f"; global step {st.global_step}" if st.global_step is not None else "")


def _rungs(c: _Ctx, trials: int | None) -> list[RungResult]:
    funcs = {1: _rung1, 2: _rung2, 3: _rung3, 4: _rung4, 5: _rung5, 6: _rung6, 7: _rung7, 9: _rung9}
    out = []
    for n in range(1, len(RUNG_NAMES) + 1):
        if c.plan.role == "rehearsal" and 4 <= n <= 8:
            status, evidence = NA, "placement rehearsal: no trainer"
        else:
            status, evidence = _rung8(c, trials) if n == 8 else funcs[n](c)
        out.append(RungResult(n, RUNG_NAMES[n], status, evidence))
    return out


def _phase(c: _Ctx) -> str:
    st = c.st
    if c.crashed:
        return "crashed"
    if st.finished and st.finished.later_than(st.crash):
        return "finished"
    if _advancing(st) or (st.global_step or 0) >= 1:
        return "training"
    if st.first_generating or st.coordinator:
        return "serving"
    return "bring-up"


def _throughput(c: _Ctx) -> dict[str, Any]:
    recent = list(c.recent.values())
    if not recent:
        return {"gen_tokens_per_s": None, "running": None, "waiting": None, "engines_reporting": 0}
    # Engines Ray's dedup folded into a line count with that line's values (an estimate).
    return {"gen_tokens_per_s": round(sum(e.tput * (1 + c.hidden(e)) for e in recent), 1),
            "running": sum(e.running * (1 + c.hidden(e)) for e in recent),
            "waiting": sum(e.waiting * (1 + c.hidden(e)) for e in recent),
            "engines_reporting": sum(1 + c.hidden(e) for e in recent)}


def _reasons(c: _Ctx, rungs: list[RungResult], phase: str, kill: bool, trials: int | None) -> list[str]:
    reasons = [f"rung {r.rung} ({r.name}) failed: {r.evidence}" for r in rungs if r.status == FAIL]
    if c.crashed and c.st.crash:
        reasons.append(f"the log ends in a crash: {c.st.crash.evidence}")
    if kill:
        return reasons
    pending = [str(r.rung) for r in rungs if r.status == PENDING]
    completed = (trials or 0) > 0 or _advancing(c.st)
    if phase == "finished" and c.plan.role == "rehearsal":
        reasons.append("placement rehearsal finished")
    elif phase == "finished":
        reasons.append("finished" + ("" if completed else f", but 0 trials completed and no step advanced"))
    elif phase in ("serving", "training") and not completed:
        reasons.append(ZERO_TRIALS)
    elif phase == "training":
        reasons.append(f"training: global step {c.st.global_step}")
    elif phase == "bring-up":
        reasons.append("bring-up in progress (a 30B arm can take about an hour to its first rollout)")
    if pending:
        reasons.append(f"pending (not failures): rung(s) {', '.join(pending)}")
    return reasons


def _fail_cause_rungs(rungs: list[RungResult], findings: list[C.Finding], death: C.Finding | None) -> None:
    """A fatal cause fails the rung it breaks (causes.Cause.rung), so the table agrees with the
    KILL: a CUDA OOM after step 3 must not leave every rung at pass. The cause of death names
    its rung first; a rung that already failed keeps its own evidence; n/a rungs stay n/a. The
    evidence names the cause, not its line: the closing cause-of-death lines quote that once."""
    fatal = [f for f in findings if f.status == "fatal"]
    for f in ([death] if death else []) + fatal:
        rung = rungs[f.cause.rung - 1]
        if rung.status not in (FAIL, NA):
            where = ", ".join(p for p in (f"rank {f.event.rank}" if f.event.rank is not None else "",
                                          C.iso_time(f.event.t) or "") if p)
            rung.status, rung.evidence = FAIL, f"{f.cause.kind} ({f.cause.title})" + (f" at {where}" if where else "")


def evaluate(st: State, plan: PlanInfo, cfg: LadderConfig, trials: int | None = None,
             now: float | None = None, outcomes: list[TrialOutcome] | None = None) -> HealthReport:
    c = _Ctx(st, plan, cfg, now, outcomes)
    rungs = _rungs(c, trials)
    failed = {r.rung for r in rungs if r.status == FAIL}
    no_coordinator = rungs[6].status == FAIL
    findings = C.assess(st.causes + _orphan_openers(st), st.retry, st.crash, multinode=(c.n or 0) > 1, finished=st.finished,
                        ended=st.ended) + _hangs(st, cfg, now)
    death = C.cause_of_death(findings)
    net = _net_rows(st)
    unknown = [U.to_dict(u, status) for u, status in net]
    crashed_on = None if death is not None else next((u for u in unknown if u["status"] == "fatal"), None)
    # the net's error-level entries are also the catch-all's findings (after every named one): an error no rule
    # names is python_crash, fatal where its process ended on it; the entry stays in `unrecognized`
    unnamed = [_unnamed(u, status) for u, status in net if status != U.TEARDOWN and not u.warn]
    if death is None and crashed_on is None and c.crashed and st.crash is not None:
        # a process that ended with no error line of its own ("worker exited with exit code 136"):
        # the catch-all, named by its end, or by the family its report quotes (Iris's "Exit code: 1. stderr:
        # Set the environment variable HYDRA_FULL_ERROR=1 ...")
        said = _quoted_family(st.crash.evidence) or C.BY_KIND["python_crash"]
        death = C.Finding(said, C.CauseEvent(said.kind, None, st.crash.evidence, st.crash.t, st.seq, guessed=said.guessed), "fatal")
        findings.append(death)
    kill = bool(failed & set(KILL_RUNGS)) or no_coordinator or c.crashed or death is not None or crashed_on is not None
    phase = ("hung" if death is not None and death.cause.kind == "hang" else "crashed"
             if death is not None or crashed_on is not None else _phase(c))
    reasons = _reasons(c, rungs, phase, kill, trials)
    if death is not None:
        reasons.insert(0, f"cause of death: {C.describe(death)}")
    elif crashed_on is not None:
        reasons.insert(0, f"{UNRECOGNIZED_REASON}{crashed_on['first']['line']}")
        death = next((f for f in unnamed if f.status == "fatal"), None)
    reasons += [f"seen, not fatal on its own here: {C.describe(f)}" for f in findings if f.status == "warning"][:2]
    _fail_cause_rungs(rungs, findings, death)
    return HealthReport("KILL" if kill else "NO-KILL", phase, rungs, reasons, _throughput(c), trials,
                        st.global_step, st.max_t, trial_steps=c.steps,
                        causes=[f.to_dict() for f in findings + unnamed], cause_of_death=death.to_dict() if death else None,
                        unrecognized=unknown)


def _hangs(st: State, cfg: LadderConfig, now: float | None) -> list[C.Finding]:
    """The liveness judgement as `hang` findings: the culprit ranks fatal, the peers that wait on
    them warnings (their hang is the culprit's). Judged at `now` (the wall clock of a live job,
    --now), else at the newest sample; none once the run finished after the rank went quiet."""
    at = now if now is not None else st.liveness.newest()
    hangs = [h for h in st.liveness.judge(cfg.hang_after_s, at)
             if st.finished is None or (st.finished.t is not None and st.finished.t < h.since)]
    culprits = ", ".join(str(h.rank) for h in hangs if h.culprit)
    out = []
    for h in hangs:
        quiet = f"{(at or h.since) - h.since:.0f}s"
        role = ("stuck while the rest of the gang progresses" if not h.gang else
                "nothing in the gang progresses" if len(hangs) == 1 else
                "nothing in the gang progresses; the other ranks wait on it" if h.culprit else
                f"nothing in the gang progresses; it waits on rank {culprits}")
        text = f"rank {h.rank} made no progress since {C.iso_time(h.since)} ({quiet}; {role}): {h.evidence}"
        ev = C.CauseEvent("hang", str(h.rank), text, h.since, st.seq, 1, h.since, st.seq)
        out.append(C.Finding(C.BY_KIND["hang"], ev, "fatal" if h.culprit else "warning"))
    return out


UNRECOGNIZED_REASON = "crashed: unrecognized error: "


def _quoted_family(report: str) -> C.Cause | None:
    """The family an exit report quotes after its code (Iris's "Exit code: 1. stderr: <the last line>"), if any:
    not the code itself (a -9 a launcher reports is no orchestrator's OOM kill)."""
    m = P.EXITED.search(report)
    tail = report[m.end():] if m is not None else ""
    return C.guess(tail) if tail.strip(" .;,") else None


def _orphan_openers(st: State) -> list[C.CauseEvent]:
    """A process's / thread's / asyncio task's announcement of its uncaught exception whose final
    line never came (exceptions.TRACEBACK_OPENER): that exception, of no kind the log says, the
    catch-all python_crash, guessed (fatal once its process ended)."""
    return [C.CauseEvent("python_crash", rank, evidence, t, seq, guessed="vocabulary")
            for evidence, rank, t, seq in st.tracebacks.values() if E.TRACEBACK_OPENER.search(evidence)]


UNNAMED = "the safety net"   # CauseEvent.guessed of a catch-all finding made from a net entry


def _unnamed(u: U.Unrecognized, status: str) -> C.Finding:
    """A net entry as the catch-all's finding (the same line, where, when and how often)."""
    ev = C.CauseEvent("python_crash", u.rank, u.line, u.t, u.seq, u.count, u.last_t, u.last_seq, guessed=UNNAMED)
    return C.Finding(C.BY_KIND["python_crash"], ev, status)


def _net_rows(st: State) -> list[tuple[U.Unrecognized, str]]:
    """The safety net's entries with their status, as the report lists them: fatal ones (the process ended on them)
    first in log order, then the rest by count; a Traceback that never got its final line counts
    as one entry of its own."""
    entries = [dataclasses.replace(u) for u in st.unrecognized]   # counting below must not touch the state
    for evidence, rank, t, seq in st.tracebacks.values():
        if not E.TRACEBACK_OPENER.search(evidence):     # (an opener is named: _orphan_openers)
            U.record(entries, evidence, rank, t, seq, evidence)
    rows = [(u, U.status(u, st.ended, st.crash, st.finished)) for u in entries]
    # the error a process ended on is its LAST one before the end: the latest fatal entry first;
    # a failed task status is the end itself, named only when no error line came before it
    fatal = sorted((r for r in rows if r[1] == "fatal"),
                   key=lambda r: (STATUS_TAG not in r[0].line, r[0].last_t is not None, r[0].last_t or 0.0,
                                  max(r[0].seq, r[0].last_seq)), reverse=True)
    rest = sorted((r for r in rows if r[1] != "fatal"), key=lambda r: (-r[0].count, r[0].seq))
    return fatal + rest
