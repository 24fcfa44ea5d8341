"""Benchmark: phase timings of `irisrl launch --local` (the README's main command) for a
2-node and a 4-node gang, next to the bare pieces it is made of, measured in the same run:

- irisrl: the README command as a subprocess on a clean HOME/IRISRL_HOME (a temporary local
  cluster per run, as a user gets it); the phases come from the run's summary.json.
- Iris alone: a fresh local controller (irisrl's local_cluster.spawn_controller, as launch
  uses it), then `iris --controller-url URL job run --replicas N ... -- true` (the Iris CLI,
  blocking until the job ends, its own interpreter start included).
- Ray alone: a bare two-node (and N-node) `ray start` on this host with the same flags the
  runtime uses (runtime/ray_node.py's RealRayNode: fake GPUs, free ports, --block): the head,
  then the other N-1 in parallel, timed from the first `ray start` until a driver sees N
  alive nodes; then the process trees are killed (never a host-wide `ray stop`).

irisrl's own overhead = launch total - (local controller start + Iris `job run` wall time)
- Ray N-node bring-up. Medians of --rounds runs. Also per run: the sum of the phases that are
irisrl's alone (validate, submit, rehearsal, logs + health), the time from the summary to the
command's exit (the temporary cluster's stop and the process reap), and the launcher
process's own CPU seconds (the Iris CLI's, for `iris job run`), steadier than wall time on a
shared machine.

    .venv/bin/python bench/bench_local_launch.py [--rounds 3] [--nodes 2 4]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# The phases that are irisrl's alone (no Iris scheduling, no `ray start`, no gang inside).
OWN_PHASES = ("validate", "submit", "rehearsal", "logs + health")
FOUR_NODE_OVERRIDES = ["++trainer.placement.policy_num_nodes={n}", "++trainer.placement.ref_num_nodes={n}",
                       "++trainer.train_batch_size={b}", "++trainer.policy_mini_batch_size={b}",
                       "++trainer.eval_batch_size={b}"]


# `irisrl` run as `python -c SELF_CPU_WRAPPER launch ...`: the same entry point, plus one stderr
# line with the launcher process's own CPU (user, sys) at exit -- its children (the local
# controller, tasks, Ray) are not in it.
SELF_CPU_WRAPPER = ("import atexit, resource, sys\n"
                    "atexit.register(lambda: print('IRISRL_SELF_CPU %.3f %.3f' % "
                    "resource.getrusage(resource.RUSAGE_SELF)[:2], file=sys.stderr))\n"
                    "sys.argv = ['irisrl'] + sys.argv[1:]\n"
                    "from irisrl.cli.main import main\nmain()\n")


def launch_argv(nodes: int) -> list[str]:
    argv = [sys.executable, "-c", SELF_CPU_WRAPPER, "launch", "--local", "--rl_config", "examples/configs/smoke_colocated.yaml",
            "--workspace", "examples/workspace", "--num-nodes", str(nodes), "--max-retries", "0"]
    if nodes != 2:   # the smoke example is 2 nodes; scale its placement and batch to N nodes
        for o in FOUR_NODE_OVERRIDES:
            argv += ["--skyrl_override", o.format(n=nodes, b=8 * nodes)]
    return argv


def clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("IRISRL_", "AWS_", "R2_"))}
    env.update(HOME=str(tmp / "home"), IRISRL_HOME=str(tmp / "irisrl-home"), IRISRL_USER="bench",
               RAY_USAGE_STATS_ENABLED="0", COLUMNS="160")
    return env


def irisrl_run(nodes: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-launch-") as tmp_s:
        tmp = Path(tmp_s)
        shutil.copytree(REPO / "examples", tmp / "examples")
        t0 = time.perf_counter()
        proc = subprocess.run(launch_argv(nodes), cwd=tmp, env=clean_env(tmp), capture_output=True, text=True,
                              timeout=600)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"irisrl launch ({nodes} nodes) exited {proc.returncode}:\n{proc.stdout[-3000:]}")
        summary = json.loads(next((tmp / "traces").glob("*/summary.json")).read_text())
    phases = {p["name"]: p["seconds"] for p in summary["phases"]}
    missed = [p["name"] for p in summary["phases"] if p["seconds"] is None]
    cpu = next((sum(map(float, ln.split()[1:3])) for ln in proc.stderr.splitlines()
                if ln.startswith("IRISRL_SELF_CPU ")), None)
    own = sum(phases.get(k) or 0.0 for k in OWN_PHASES)
    return {"wall_s": wall, "total_s": summary["total_s"], **phases, "own_phases_s": own,
            "after_summary_s": wall - summary["total_s"], "launcher_cpu_s": cpu,
            **({"missed": missed} if missed else {})}


def iris_run(nodes: int) -> dict:
    from irisrl.backends import local_cluster

    with tempfile.TemporaryDirectory(prefix="bench-iris-") as tmp_s:
        tmp = Path(tmp_s)
        t0 = time.perf_counter()
        state = local_cluster.spawn_controller(tmp / "cluster", max(2, nodes), 8, "H100", tie_to_parent=True)
        up = time.perf_counter() - t0
        try:
            ws = tmp / "ws"
            ws.mkdir()
            (ws / "f.txt").write_text("x")
            t1 = time.perf_counter()
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run([str(BIN / "iris"), "--controller-url", state.url, "job", "run", "--replicas",
                                   str(nodes), "--gpu", "H100x8", "--enable-extra-resources", "--cpu", "48",
                                   "--memory", "512GB", "--disk", "512GB", "--job-name", f"bare-{uuid.uuid4().hex[:6]}",
                                   "--user", "bench", "--", "true"],
                                  cwd=ws, env=clean_env(tmp), capture_output=True, text=True, timeout=300)
            run = time.perf_counter() - t1
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cli_cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
            if proc.returncode != 0:
                raise SystemExit(f"iris job run exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        finally:
            local_cluster.stop_process_group(state.pid)
    return {"controller_up_s": up, "job_run_s": run, "total_s": up + run, "iris_cli_cpu_s": cli_cpu}


def ray_run(nodes: int) -> dict:
    """ray_once, run again once when Ray refused its randomly chosen ports (it can pick one
    that another of its components already has; seen once in 20 runs)."""
    from irisrl.runtime.ray_node import RayNodeError

    try:
        return ray_once(nodes)
    except RayNodeError as exc:
        if "port number" not in str(exc):
            raise
        print(f"# bare ray start: port clash, run again ({str(exc)[:120]})", file=sys.stderr)
        return ray_once(nodes)


def ray_once(nodes: int) -> dict:
    """N `ray start` nodes (head first, then the other N-1 at once, as a gang's ranks join)
    until a driver sees N alive nodes."""
    import ray

    from irisrl.runtime.ray_node import RealRayNode

    ray_bin = str(BIN / "ray")
    started: list[RealRayNode] = []
    with tempfile.TemporaryDirectory(prefix="br-") as tmp, contextlib.redirect_stdout(io.StringIO()):
        try:
            t0 = time.perf_counter()
            head = RealRayNode(0, "n0", 8, True, os.path.join(tmp, "r0"), 180.0, ray_bin)
            started.append(head)
            address = head.start_head("127.0.0.1", None)
            head_s = time.perf_counter() - t0
            others = [RealRayNode(r, f"n{r}", 8, True, os.path.join(tmp, f"r{r}"), 180.0, ray_bin) for r in range(1, nodes)]
            started.extend(others)
            with ThreadPoolExecutor(max(1, len(others))) as pool:   # the ranks of a gang join at once
                list(pool.map(lambda node: node.join(address), others))
            joined_s = time.perf_counter() - t0
            ray.init(address=address, log_to_driver=False, logging_level="WARNING")
            while sum(1 for n in ray.nodes() if n.get("Alive")) < nodes:
                if time.perf_counter() - t0 > 300:
                    raise SystemExit("Ray nodes did not all join within 300 s")
                time.sleep(0.1)
            alive_s = time.perf_counter() - t0
        finally:
            ray.shutdown()
            for node in reversed(started):
                node.stop()
    return {"head_s": head_s, "all_started_s": joined_s, "total_s": alive_s}


def rounded(row: dict) -> dict:
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()}


def median_of(rows: list[dict]) -> dict:
    """Per key, the median over the runs that measured it (a phase a run did not observe is None)."""
    keys = dict.fromkeys(k for r in rows for k in r)
    return {k: round(statistics.median(vals), 2) for k in keys
            if (vals := [r[k] for r in rows if isinstance(r.get(k), (int, float))])}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nodes", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    result: dict = {"bench": "local_launch", "rounds": args.rounds, "cpus": os.cpu_count(), "by_nodes": {}}
    for nodes in args.nodes:
        runs: dict[str, list[dict]] = {"irisrl": [], "iris": [], "ray": []}
        for i in range(args.rounds):
            order = [("irisrl", irisrl_run), ("iris", iris_run), ("ray", ray_run)]
            for name, fn in order[i % 3:] + order[:i % 3]:   # rotate who goes first
                runs[name].append(fn(nodes))
                print(f"# {nodes} nodes round {i + 1} {name}: {json.dumps(rounded(runs[name][-1]))}", file=sys.stderr)
        med = {name: median_of(rows) for name, rows in runs.items()}
        bare = med["iris"]["total_s"] + med["ray"]["total_s"]
        result["by_nodes"][str(nodes)] = {
            "median": med,
            "runs": {name: [rounded(r) for r in rows] for name, rows in runs.items()},
            "irisrl_total_s": med["irisrl"]["total_s"], "bare_iris_plus_ray_s": round(bare, 2),
            "irisrl_overhead_s": round(med["irisrl"]["total_s"] - bare, 2),
            "ratio_irisrl_to_bare": round(med["irisrl"]["total_s"] / bare, 2),
        }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
