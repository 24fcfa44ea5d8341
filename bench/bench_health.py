"""Health benchmark (docs/BENCHMARKS.md, "Health").

    .venv/bin/python bench/bench_health.py [--size-mb 1024] [--path /tmp/irisrl-bench/health.log]

1. Generates (once, deterministic seed) a realistic combined log of a 7-node / 48-engine run:
   bring-up, vLLM stats from every engine every 10 s, agent/NCCL/HTTP chatter, per-step metric
   lines, a throughput-starvation wedge in the last hour.
2. Times `irisrl health --log FILE --json` against `LC_ALL=C grep -cE <the ladder's needles>`
   over the same file in the same run (page cache warm for both), with peak RSS of each.
3. Appends 10 MB more log and times the re-evaluation from the saved `--state` against the
   full pass; then truncates the file back so the next run reuses it.
4. The watchdog's cost per poll (`Analyzer.feed` on the bytes one poll pulls, then `verdict`,
   in process, the path `watch --watchdog` takes): as it runs (grep on a pipe for large
   blocks), forced onto the bytes.find passes with the scan needles (ladder + the cause
   catalogue, observe/causes.py), and with the ladder's needles alone, side by side.
5. The paths without grep on the file: the same log gzipped, and IRISRL_HEALTH_NO_GREP=1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))   # synthetic logs: test code
from synth import LogBuilder, bring_up, serving, trainer_up  # noqa: E402

# The yardstick (issue 15 item 5): the ladder's needles AS THEY WERE before the safety net
# (main 77c317b, patterns.GREP_PATTERN then), pinned as a literal so that widening the prefilter
# (observe/patterns.py NET_NEEDLES, GLOG_B) cannot move the baseline it is measured against.
YARDSTICK_PATTERN = (
    'generation\\ throughput|MarinSkyRL\\ now\\ at|Staging\\ train_data|Ray\\ nodes\\ alive|'
    'transient\\ HF\\ weight|load_pretrained_with_retry|ROUTED_EXPERTS|routed\\-experts|'
    'training\\ from|Concurrent\\ trials|RolloutCoordinator|WANDB_MIRROR|Step\\ |Training\\ failed|'
    'Error\\ executing\\ job|exited\\ with\\ code|PLACEMENT_FAILED|ERROR\\ rank|'
    "Failed\\ to\\ create\\ sandbox|resource\\ limit\\ reached|ed:\\ '|Training\\ complete|"
    'Training\\ finished|Finished\\ training|norm_topk_prob|R3\\ router\\ capture|'
    'Could\\ not\\ override|is\\ not\\ in\\ struct|Error\\ merging\\ override|'
    'Could\\ not\\ append\\ to\\ config|Consistency\\ check\\ failed|does\\ not\\ appear\\ to\\ have|'
    'Error\\ no\\ file\\ named|Server\\ Error|Too\\ Many\\ Requests|Max\\ retries\\ exceeded|'
    'out\\ of\\ memory|low\\ on\\ memory|memory\\ usage\\ threshold|'
    'killed\\ due\\ to\\ memory\\ pressure|System\\ memory\\ low|'
    'Engine\\ core\\ initialization\\ failed|EngineCore\\ failed\\ to\\ start|'
    'memory\\ for\\ the\\ cache\\ blocks|stored\\ in\\ KV\\ cache|'
    'No\\ available\\ node\\ types\\ can\\ fulfill|PLACEMENT_FAILED\\ |'
    'Failed\\ to\\ create\\ placement\\ group|Started\\ a\\ local\\ Ray\\ instance|NCCL\\ error|nccl|'
    'EngineDeadError|Background\\ loop|is\\ already\\ dead|marked\\ dead\\ because|'
    'mistakenly\\ been\\ marked|worker\\ died\\ or\\ was\\ killed|ActorDiedError|RayActorError|'
    'The\\ actor\\ died\\ unexpectedly|The\\ actor\\ is\\ dead\\ because|'
    'collective\\ operation\\ timeout|NCCL\\ communicator\\ was\\ aborted|Timeout\\ at\\ NCCL\\ work'
)
SEED = 20261202
ROOT = Path(__file__).resolve().parents[1]
IRISRL = [sys.executable, "-m", "irisrl"]


CHATTER_PER_10S = 2000   # agent/sandbox/HTTP/NCCL lines per 10 s across the run (200 lines/s)


def _minute(b: LogBuilder, wedged: bool) -> None:
    """One minute of a 48-engine run: every engine's stats line every 10 s, plus chatter."""
    if wedged:
        serving(b, 48, 60, tput=260.0, running=4, waiting=60, interval=10, chatter=CHATTER_PER_10S)
    else:
        serving(b, 48, 60, tput=1700.0, running=16, waiting=0, interval=10, chatter=CHATTER_PER_10S)


def generate(path: Path, size: int, seed: int = SEED) -> None:
    """Write `size` bytes (at least) of log, streaming: memory stays one block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    b = LogBuilder(seed=seed)
    bring_up(b, 7, sha=None)
    trainer_up(b, 48)
    written, minute = 0, 0
    tmp = path.with_suffix(".partial")
    with open(tmp, "w") as fh:
        while written < size:
            _minute(b, wedged=written > size * 0.97)
            minute += 1
            if minute % 30 == 0:
                b.step_metrics(minute // 30, 0.1 + 0.001 * minute)
            text = b.text()
            b.lines.clear()
            fh.write(text)
            written += len(text)
    os.replace(tmp, path)


def _last_time(path: Path) -> float:
    """Log time of the last stats line: the appended minutes continue from there."""
    import calendar
    import re

    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - (1 << 20)))
        tail = fh.read()
    mon, day, hh, mm, ss = map(int, re.findall(rb"(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) \[loggers", tail)[-1])
    return float(calendar.timegm((2026, mon, day, hh, mm, ss, 0, 0, 0))) + 10


def append_more(path: Path, size: int, seed: int = SEED + 1) -> None:
    """`size` more bytes of the same run, continuing its clock, with the queue wedged."""
    b = LogBuilder(seed=seed, t=_last_time(path), nodes=7)
    with open(path, "a") as fh:
        written = 0
        while written < size:
            _minute(b, wedged=True)
            text = b.text()
            b.lines.clear()
            fh.write(text)
            written += len(text)


def timed(argv: list[str], env: dict | None = None) -> tuple[float, int, int, str, float]:
    """(wall seconds, peak RSS MB, exit code, stdout, CPU seconds incl. its children) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read().decode() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss // 1024, proc.returncode, out, usage.ru_utime + usage.ru_stime


def in_process_incremental(path: Path, base: int) -> dict[str, float]:
    """The watchdog's cost (no interpreter start): full pass + save, then load + the new
    10 MB + verdict + save, in this process (CPU seconds)."""
    from irisrl.observe.analyzer import Analyzer, feed_file

    state = path.with_suffix(".inproc.state")
    try:
        c0, t0 = _children_cpu(), time.process_time()
        a = Analyzer({"num_nodes": 7})
        feed_file(a, path)
        a.verdict()
        a.save(state)
        full = time.process_time() - t0 + _children_cpu() - c0
        append_more(path, 10 << 20)
        c0, t0 = _children_cpu(), time.process_time()
        b = Analyzer.load(state, {"num_nodes": 7})
        feed_file(b, path)
        report = b.verdict()
        b.save(state)
        incr = time.process_time() - t0 + _children_cpu() - c0
    finally:
        os.truncate(path, base)
        state.unlink(missing_ok=True)
    return {"inproc_full_cpu_s": round(full, 2), "inproc_incremental_cpu_s": round(incr, 3),
            "inproc_incremental_pct": round(100 * incr / full, 2), "inproc_incremental_verdict": report.verdict}


POLL_BYTES = (64 << 10, 1_500_000, 10 << 20)   # a quiet poll; ~one 30 s poll of this 7-node run; a burst


def watchdog_poll_cost(path: Path, repeat: int = 5) -> dict[str, float]:
    """Wall and CPU ms (children included: grep) of one watchdog poll over the log's last
    bytes, feed + verdict, best of `repeat`: `auto` is what the watchdog does (grep on a pipe
    for blocks >= GREP_MIN_BYTES, bytes.find passes below), `find` forces the find passes with
    the scan needles (patterns.SCAN_NEEDLES), `ladder` with the ladder's needles alone (before the cause catalogue)."""
    from irisrl.observe import analyzer as A
    from irisrl.observe import patterns as P

    size = path.stat().st_size
    out: dict[str, float] = {}
    modes = {"auto": (A.GREP_MIN_BYTES, P.SCAN_NEEDLES), "find": (1 << 62, P.SCAN_NEEDLES),
             "ladder": (1 << 62, P.LADDER_NEEDLES)}
    try:
        for n in POLL_BYTES:
            with open(path, "rb") as fh:
                fh.seek(max(0, size - n))
                block = fh.read()
            for label, (grep_min, needles) in modes.items():
                A.GREP_MIN_BYTES, A.hit_spans.__defaults__ = grep_min, (needles, None)
                wall = cpu = float("inf")
                for _ in range(repeat):
                    c0, p0, w0 = _children_cpu(), time.process_time(), time.perf_counter()
                    a = A.Analyzer({"num_nodes": 7})
                    a.feed("task-0.attempt-0", block)
                    a.verdict()
                    wall = min(wall, time.perf_counter() - w0)
                    cpu = min(cpu, time.process_time() - p0 + _children_cpu() - c0)
                out[f"poll_{n >> 10}KiB_{label}_ms"] = round(1000 * wall, 1)
                out[f"poll_{n >> 10}KiB_{label}_cpu_ms"] = round(1000 * cpu, 1)
    finally:
        A.GREP_MIN_BYTES, A.hit_spans.__defaults__ = modes["auto"][0], (modes["auto"][1], None)
    out["needles_all"], out["needles_scan"], out["needles_ladder"] = len(P.NEEDLES), len(P.SCAN_NEEDLES), len(P.LADDER_NEEDLES)
    return out


def pure_python_paths(path: Path) -> dict[str, float]:
    """The paths without grep over a file: .gz input (decompressed in Python, fed blocks go
    through grep on a pipe) and IRISRL_HEALTH_NO_GREP=1 (bytes.find passes), same run."""
    gz = path.with_suffix(".log.gz")
    if not gz.exists() or gz.stat().st_mtime < path.stat().st_mtime:
        with open(gz, "wb") as fh:
            subprocess.run(["gzip", "-1", "-c", str(path)], stdout=fh, check=True)
    out: dict[str, float] = {}
    for label, argv, env in (("gz", IRISRL + ["health", "--log", str(gz), "--json"], None),
                             ("no_grep", IRISRL + ["health", "--log", str(path), "--json"],
                              dict(os.environ, IRISRL_HEALTH_NO_GREP="1"))):
        wall, rss, _, report, cpu = timed(argv, env)
        out[f"health_{label}_s"], out[f"health_{label}_cpu_s"], out[f"health_{label}_rss_mb"] = \
            round(wall, 2), round(cpu, 2), rss
        out[f"health_{label}_verdict"] = json.loads(report)["verdict"]
    return out


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--path", default="/tmp/irisrl-bench/health.log")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    path = Path(args.path)
    size = args.size_mb << 20
    if not path.exists() or path.stat().st_size < size:
        t0 = time.perf_counter()
        generate(path, size)
        print(f"generated {path} ({path.stat().st_size / 2**20:.0f} MiB) in {time.perf_counter() - t0:.0f}s")
    base = path.stat().st_size
    subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)   # warm the page cache
    grep_env = dict(os.environ, LC_ALL="C")
    results: dict[str, list] = {"grep": [], "health": []}
    for _ in range(args.repeat):
        results["grep"].append(timed(["grep", "-cE", YARDSTICK_PATTERN, str(path)], grep_env))
        results["health"].append(timed(IRISRL + ["health", "--log", str(path), "--json"]))
    state = path.with_suffix(".state")
    state.unlink(missing_ok=True)
    try:
        full = timed(IRISRL + ["health", "--log", str(path), "--json", "--state", str(state)])
        append_more(path, 10 << 20)
        added = path.stat().st_size - base
        incr = timed(IRISRL + ["health", "--log", str(path), "--json", "--state", str(state)])
    finally:
        os.truncate(path, base)
        state.unlink(missing_ok=True)
    inproc = in_process_incremental(path, base)
    poll = watchdog_poll_cost(path)
    pure = pure_python_paths(path)
    verdict = json.loads(results["health"][-1][3])
    grep_s = min(r[0] for r in results["grep"])
    health_s = min(r[0] for r in results["health"])
    summary = {
        "file_mib": round(base / 2**20), "lines_matched_by_grep": int(results["grep"][-1][3].strip() or 0),
        "grep_s": [round(r[0], 2) for r in results["grep"]], "grep_rss_mb": max(r[1] for r in results["grep"]),
        "health_s": [round(r[0], 2) for r in results["health"]], "health_rss_mb": max(r[1] for r in results["health"]),
        "grep_cpu_s": [round(r[4], 2) for r in results["grep"]], "health_cpu_s": [round(r[4], 2) for r in results["health"]],
        "ratio_best": round(health_s / grep_s, 2),
        "ratio_cpu_best": round(min(r[4] for r in results["health"]) / min(r[4] for r in results["grep"]), 2),
        "verdict": verdict["verdict"], "phase": verdict["phase"],
        "state_full_s": round(full[0], 2), "added_mib": round(added / 2**20, 1),
        "incremental_s": round(incr[0], 2), "incremental_pct_of_full": round(100 * incr[0] / full[0], 1),
        "incremental_cpu_pct_of_full": round(100 * incr[4] / full[4], 1), "incremental_verdict": json.loads(incr[3])["verdict"],
        "incremental_rss_mb": incr[1], **inproc, **pure, **poll, "cpus": os.cpu_count(),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
