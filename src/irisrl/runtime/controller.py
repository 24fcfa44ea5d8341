"""python -m irisrl.runtime.controller [options] -- CMD...

Runs inside every gang task (one per node). On every node: identity from IRIS_*, optional
--skyrl-ref checkout, train data (and model) staged node-locally, optional node checks.
Then rank 0 starts the Ray head, publishes it through the rendezvous store, waits until
Ray sees all N nodes, runs CMD with RAY_ADDRESS set and exits with CMD's code; the other
ranks join and park until the head's done marker, then exit 0. Exit codes: CMD's own on
rank 0; 0 on a worker after the done marker; 1 failure; 2 bad identity or arguments;
143 after SIGTERM (never 0).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from irisrl.runtime import flight_recorder
from irisrl.runtime.identity import Identity, IdentityError, identity_from_env
from irisrl.runtime.liveness import LivenessThread, Sampler
from irisrl.runtime.log import line_buffered, say
from irisrl.runtime.node_checks import NodeCheckError, run_node_checks
from irisrl.runtime.ray_node import RayNode, RayNodeError, RealRayNode, loopback_env, wrap_pdeathsig
from irisrl.runtime.rendezvous import HeadRendezvous, RendezvousError, WorkerRendezvous
from irisrl.runtime.skyrl_ref import SkyrlRefError, checkout
from irisrl.runtime.staging import StagingError, parse_train_data, prestage_model, stage_train_data
from irisrl.runtime.store import Store, StoreError

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_SIGTERM = 0, 1, 2, 143


class Terminated(BaseException):
    """Raised in the main thread by the SIGTERM handler (BaseException: no handler eats it)."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m irisrl.runtime.controller", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Per-node runtime of an irisrl gang task (identity from IRIS_TASK_ID, IRIS_NUM_TASKS, "
                    "IRIS_ADVERTISE_HOST).",
        epilog="examples:\n"
               "  python -m irisrl.runtime.controller --rendezvous-dir s3://bucket/iris/rl-x/run1 --gpus-per-node 8 \\\n"
               "      --train-data '[\"org/tasks\"]' -- python -m skyrl_train.entrypoints.main_base ...\n"
               "  python -m irisrl.runtime.controller --local --gpus-per-node 4 --rendezvous-dir file:///tmp/rdv \\\n"
               "      -- python -m irisrl.runtime.rehearsal --plan .irisrl/plan.json\n"
               "exit codes: rank 0 = CMD's; workers 0 after the done marker; 1 failure; 2 bad identity or "
               "arguments; 143 SIGTERM")
    p.add_argument("--rendezvous-dir", help="shared store for the Ray rendezvous: path, file://, s3://, gs://")
    p.add_argument("--ray-port", type=int, help="Ray head (GCS) port; default IRIS_PORT_RAY, else 6379")
    p.add_argument("--rendezvous-timeout", type=float, default=1800.0, help="seconds to form the gang")
    p.add_argument("--train-data", help="JSON list of HF dataset ids, paths or URIs to stage on every node")
    p.add_argument("--stage-dir", help="node-local folder for staged data (default $IRIS_WORKDIR/.irisrl/data)")
    p.add_argument("--stage-timeout", type=float, default=1800.0)
    p.add_argument("--task-root", help="extract HF task datasets (org/name) into TASK_ROOT/<name> on this node")
    p.add_argument("--prestage-model", help="HF model id (or path) to download into this node's HF cache")
    p.add_argument("--prestage-attempts", type=int, default=4)
    p.add_argument("--prestage-timeout", type=float, default=1800.0)
    p.add_argument("--gpus-per-node", type=int, help="GPUs per node (fake Ray GPUs in --local mode; checked by --node-checks)")
    p.add_argument("--skyrl-ref", help="git ref to check out in the SkyRL clone before running")
    p.add_argument("--skyrl-root", default="/opt/skyrl", help="the image's SkyRL clone (default /opt/skyrl)")
    p.add_argument("--local", action="store_true",
                   help="several nodes on one host: free ports, fake GPUs, Ray temp dir under the task dir")
    p.add_argument("--node-checks", action="store_true", help="check GPUs visible, train data present, model config")
    p.add_argument("--check-model-config", metavar="ID_OR_PATH",
                   help="node check: the model's config.json resolves (local dir, HF cache, else HF hub; "
                        "no weights; skipped for an uncached HF id in --local mode)")
    p.add_argument("--model-config-timeout", type=float, default=120.0, help="deadline of the config.json download")
    p.add_argument("--poll-interval", type=float, default=1.0, help="store poll interval (bounded; +-10%% jitter)")
    p.add_argument("--park-interval", type=float, default=5.0,
                   help="store poll interval of a joined worker waiting for the done marker")
    p.add_argument("--beat-interval", type=float, default=5.0, help="head heartbeat period")
    p.add_argument("--head-timeout", type=float, default=120.0, help="a worker presumes the head dead after this")
    p.add_argument("--store-timeout", type=float, default=60.0, help="deadline of every store call")
    p.add_argument("--ray-start-timeout", type=float, default=180.0, help="deadline of every `ray start`")
    p.add_argument("--worker-exit-timeout", type=float, default=60.0, help="head waits this long for workers to leave")
    p.add_argument("--exit-linger", type=float, default=10.0,
                   help="head stays this long after the workers left, so Iris records their success "
                        "before the head's exit (its worker polls tasks every 5 s)")
    p.add_argument("--term-grace", type=float, default=10.0, help="SIGTERM to CMD's group, SIGKILL after this")
    p.add_argument("--liveness-interval", type=float, default=30.0,
                   help="sample this node's process tree (CMD, Ray) every S seconds into the log as "
                        "`irisrl-liveness: {json}` lines (runtime/liveness.py); 0 disables")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD... (run on rank 0)")
    return p


@dataclass
class Context:
    args: argparse.Namespace
    me: Identity
    command: list[str]
    workdir: str
    last_alive: int | None = None


def _on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)   # the cleanup that follows is not interrupted
    raise Terminated()


def make_node(ctx: Context, nonce: str) -> RayNode:
    temp = os.path.join(ctx.workdir, ".irisrl", f"ray-{ctx.me.rank}") if ctx.args.local else None
    ray_bin = os.path.join(os.path.dirname(sys.executable), "ray")
    return RealRayNode(ctx.me.rank, nonce, ctx.args.gpus_per_node, ctx.args.local, temp,
                       ctx.args.ray_start_timeout, ray_bin if os.path.exists(ray_bin) else "ray")


def prepare_node(ctx: Context) -> None:
    """Every node, before Ray: SkyRL checkout, data and model staging, node checks."""
    a, me = ctx.args, ctx.me
    if a.skyrl_ref:
        checkout(a.skyrl_root, a.skyrl_ref)
    landed: dict[str, str] = {}
    if a.train_data:
        stage_dir = a.stage_dir or os.path.join(ctx.workdir, ".irisrl", "data")
        landed = stage_train_data(parse_train_data(a.train_data), stage_dir, me.rank, me.num_tasks, a.stage_timeout,
                                  task_root=a.task_root)
    model_path = None
    if a.prestage_model:
        model_path = prestage_model(a.prestage_model, a.prestage_attempts, a.prestage_timeout)
    if a.node_checks or a.check_model_config:
        run_node_checks(me, a.gpus_per_node, a.local, landed, model_path,
                        a.check_model_config, a.model_config_timeout)


def _alive_line(ctx: Context, alive: dict[int, str]) -> None:
    """`Ray nodes alive: k/N` on every change (the ladder's rendezvous rung)."""
    if len(alive) != ctx.last_alive:
        say(f"Ray nodes alive: {len(alive)}/{ctx.me.num_tasks}")
        ctx.last_alive = len(alive)


class HeadBeat:
    """Bumps the head's beat counter every interval in a thread, so workers know it lives."""

    def __init__(self, rdv: HeadRendezvous, interval: float, lock: threading.Lock) -> None:
        self.rdv, self.interval, self.lock = rdv, interval, lock
        self.watch: Callable[[], None] | None = None     # set while CMD runs: report node losses
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="head-beat", daemon=True)

    def start(self) -> "HeadBeat":
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                with self.lock:
                    self.rdv.heartbeat()
                    self.rdv.poll()   # a worker restarted mid-run (preemption) gets its ack too
            except StoreError as exc:
                say(f"heartbeat write failed (will retry): {exc}")
            if self.watch:
                try:
                    self.watch()
                except Exception as exc:  # noqa: BLE001 - a report, never fatal to the run
                    say(f"could not read Ray's node list: {exc}")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(self.interval + self.rdv.store.timeout)


def wait_for_nodes(ctx: Context, rdv: HeadRendezvous | None, node: RayNode, lock: threading.Lock) -> list[int]:
    """Poll until Ray sees N alive nodes; returns the missing ranks ([] on success)."""
    n, a = ctx.me.num_tasks, ctx.args
    deadline = time.monotonic() + a.rendezvous_timeout
    while True:
        if rdv:
            with lock:
                rdv.poll()
        alive = node.alive()
        _alive_line(ctx, alive)
        if len(alive) >= n:
            return []
        if time.monotonic() >= deadline:
            return sorted(set(range(n)) - set(alive))
        time.sleep(a.poll_interval)


def wait_workers_leave(ctx: Context, rdv: HeadRendezvous | None, node: RayNode, workers: dict[int, str]) -> None:
    """After the done marker: give the workers a bounded time to stop Ray and say bye, so
    the gang does not end with siblings killed mid-shutdown."""
    if not workers:
        return
    deadline = time.monotonic() + ctx.args.worker_exit_timeout
    pending = set(workers.values())
    while pending and time.monotonic() < deadline:
        try:
            if rdv:
                pending -= rdv.departed(pending)
            alive = node.alive()
            _alive_line(ctx, alive)
            pending &= set(alive.values())   # a node gone from Ray has left too
        except Exception as exc:  # noqa: BLE001 - leaving is best effort
            say(f"while waiting for workers to leave: {exc}")
            break
        if pending:
            time.sleep(ctx.args.poll_interval)
    if pending:
        say(f"{len(pending)} worker(s) had not left {ctx.args.worker_exit_timeout:g} s after the done marker")


def run_command(ctx: Context, address: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, RAY_ADDRESS=address)
    say(f"Running on rank 0 with RAY_ADDRESS={address}: {' '.join(ctx.command)}")
    # own session: SIGTERM reaches its whole process group; PDEATHSIG: dies with us on SIGKILL
    return subprocess.Popen(wrap_pdeathsig(ctx.command), env=env, start_new_session=True)


def wait_interruptibly(proc: subprocess.Popen[bytes]) -> int:
    """proc.wait() that still lets SIGTERM in: the kernel may deliver the signal to a helper
    thread (the heartbeat), and then a main thread blocked in waitpid() never runs the handler."""
    while True:
        try:
            return proc.wait(0.5)
        except subprocess.TimeoutExpired:
            continue


def stop_command(proc: subprocess.Popen[bytes] | None, grace: float) -> None:
    if proc is None or proc.poll() is not None:
        _killpg(proc, signal.SIGKILL)   # leftovers of its group, if any
        return
    _killpg(proc, signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        pass
    _killpg(proc, signal.SIGKILL)
    proc.wait(5)


def _killpg(proc: subprocess.Popen[bytes] | None, sig: int) -> None:
    if proc is None:
        return
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def exit_code_of(returncode: int) -> int:
    return 128 - returncode if returncode < 0 else returncode   # killed by signal s -> 128+s


def run_head(ctx: Context) -> int:
    a, me = ctx.args, ctx.me
    store = Store(a.rendezvous_dir, a.store_timeout) if a.rendezvous_dir else None
    rdv = HeadRendezvous(store, me.num_tasks) if store else None
    lock = threading.Lock()
    node = make_node(ctx, rdv.head_id if rdv else "head")
    beat: HeadBeat | None = None
    proc: subprocess.Popen[bytes] | None = None
    try:
        address = node.start_head(me.host, a.ray_port or _iris_ray_port())
        if rdv:
            with lock:
                rdv.publish(address)
            say(f"Ray head at {address}; published to {rdv.store.uri}/head.json (head id {rdv.head_id[:8]})")
            beat = HeadBeat(rdv, a.beat_interval, lock).start()
        missing = wait_for_nodes(ctx, rdv, node, lock)
        if missing:
            alive = me.num_tasks - len(missing)
            why = (f"Only {alive}/{me.num_tasks} Ray nodes joined within {a.rendezvous_timeout:g} s; "
                   f"missing ranks {', '.join(map(str, missing))}")
            say(why)
            return _finish(ctx, rdv, beat, lock, node, "rendezvous_failed", EXIT_FAIL, why)
        workers = {r: n for r, n in node.alive().items() if r != 0}
        if beat:
            beat.watch = lambda: _alive_line(ctx, node.alive())   # `Ray nodes alive: 6/7` if one dies
        proc = run_command(ctx, address)
        rc = exit_code_of(wait_interruptibly(proc))
        say(f"Command exited with code {rc}")
        stop_command(proc, a.term_grace)   # leftovers of its process group, if any
        return _finish(ctx, rdv, beat, lock, node, "ok" if rc == 0 else "failed", rc, "", workers)
    except Terminated:
        say("SIGTERM: stopping the command's process group, marking the run terminated, stopping Ray")
        stop_command(proc, a.term_grace)
        return _finish(ctx, rdv, beat, lock, node, "terminated", EXIT_SIGTERM, "SIGTERM on the head", wait=False)
    except Exception as exc:  # noqa: BLE001 - store, Ray or rendezvous: clean up, say why, exit 1
        say(f"ERROR rank 0: {_describe(exc)}")
        stop_command(proc, a.term_grace)
        return _finish(ctx, rdv, beat, lock, node, "failed", EXIT_FAIL, str(exc), wait=False)


def _finish(ctx: Context, rdv: HeadRendezvous | None, beat: HeadBeat | None, lock: threading.Lock,
            node: RayNode, status: str, code: int, detail: str,
            workers: dict[int, str] | None = None, wait: bool = True) -> int:
    """Done marker, then (bounded) wait for the workers to leave, then stop our Ray."""
    if beat:
        beat.stop()
    if rdv and rdv.address:
        try:
            with lock:
                rdv.finish(status, code, detail)
            say(f"Done marker written: {status} (exit {code})")
        except StoreError as exc:
            say(f"could not write the done marker: {exc}")
    try:
        if wait:
            current = workers if workers is not None else {r: n for r, n in node.alive().items() if r != 0}
            wait_workers_leave(ctx, rdv, node, current)
            if current and code != 0 and ctx.args.exit_linger > 0:
                # Iris notices a task's exit on its next status poll; leaving first would let it
                # see the head's failure first and mark the finished siblings cosched_failed
                # (a head that succeeded cannot fail its siblings: no linger then)
                time.sleep(ctx.args.exit_linger)
    except Exception as exc:  # noqa: BLE001 - shutting down regardless
        say(f"while waiting for workers: {exc}")
    node.stop()
    return code


def _iris_ray_port() -> int | None:
    value = os.environ.get("IRIS_PORT_RAY", "")
    return int(value) if value.isdigit() else None


def run_worker(ctx: Context) -> int:
    a, me = ctx.args, ctx.me
    store = Store(a.rendezvous_dir, a.store_timeout)
    rdv = WorkerRendezvous(store, me.rank, me.host, a.poll_interval)
    node = make_node(ctx, rdv.nonce)
    try:
        rdv.hello()
        say(f"Rank {me.rank}/{me.num_tasks} announced at {store.uri} (nonce {rdv.nonce[:8]}); waiting for the head")
        state = rdv.wait_for_head(a.rendezvous_timeout)
        if state.done is not None:
            say(f"Head already finished ({state.done.get('status')}); nothing to join")
            return EXIT_OK
        say(f"Joining Ray head {state.address} (head id {state.head_id[:8]})")
        node.join(state.address, me.host)
        say(f"Rank {me.rank}/{me.num_tasks} joined; parked until the head's done marker")
        rdv.poll_interval = max(a.poll_interval, a.park_interval)   # parked for hours: poll gently
        done = rdv.park(state.head_id, a.head_timeout, node.problem)
        node.stop()
        _bye(rdv)
        say(f"Head done: {done.get('status')} (exit {done.get('exit_code')}); Ray stopped; exiting 0")
        return EXIT_OK
    except Terminated:
        say(f"SIGTERM: stopping this node's Ray (rank {me.rank})")
        node.stop()
        return EXIT_SIGTERM
    except Exception as exc:  # noqa: BLE001 - store, Ray or rendezvous: clean up, say why, exit 1
        say(f"ERROR rank {me.rank}: {_describe(exc)}")
        node.stop()
        return EXIT_FAIL


def _describe(exc: BaseException) -> str:
    """Our own errors already read as sentences; anything else gets its type name too."""
    if isinstance(exc, (StoreError, RayNodeError, RendezvousError)):
        return str(exc)
    return f"unexpected {type(exc).__name__}: {exc}"


def _bye(rdv: WorkerRendezvous) -> None:
    try:
        rdv.bye()
    except StoreError as exc:
        say(f"could not write bye (head will time out waiting): {exc}")


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    try:
        me = identity_from_env()
    except IdentityError as exc:
        say(f"ERROR identity: {exc}")
        return EXIT_USAGE
    if me.num_tasks > 1 and not args.rendezvous_dir:
        say(f"ERROR: --rendezvous-dir is required when IRIS_NUM_TASKS={me.num_tasks} > 1 "
            "(use a fresh sub-path per run, e.g. s3://bucket/iris/rl-<slug>/<run>)")
        return EXIT_USAGE
    if me.is_head and not command:
        say("ERROR: rank 0 needs a command after `--` (the trainer or the rehearsal)")
        return EXIT_USAGE
    if args.local:
        loopback_env()   # Ray servers, ray.init and CMD stay on 127.0.0.1 (ray_node.py says why)
    ctx = Context(args, me, command, os.environ.get("IRIS_WORKDIR") or os.getcwd())
    say(f"Runtime controller rank {me.rank}/{me.num_tasks} on {me.host} (task {me.task_id})")
    fr_prefix = flight_recorder.dump_prefix()
    try:
        flight_recorder.ensure_dump_dir(fr_prefix)
        return _prepare_and_run(ctx)
    finally:   # also on failure and SIGTERM: the dumps are the evidence of a failed run
        _copy_fr_dumps(ctx, fr_prefix)


def _prepare_and_run(ctx: Context) -> int:
    me = ctx.me
    try:
        prepare_node(ctx)
    except (SkyrlRefError, StagingError, NodeCheckError) as exc:
        say(f"ERROR rank {me.rank}: {exc}")
        return EXIT_FAIL
    sampler = start_liveness(ctx.args.liveness_interval)
    try:
        return run_head(ctx) if me.is_head else run_worker(ctx)
    finally:
        if sampler:
            sampler.stop()


def _copy_fr_dumps(ctx: Context, prefix: str | None) -> None:
    """The NCCL flight-recorder dumps on this node, to the rendezvous store (irisrl finish
    downloads them); nothing without a store or a dump."""
    if not ctx.args.rendezvous_dir or not flight_recorder.dump_files(prefix):
        return
    try:
        store = Store(ctx.args.rendezvous_dir, ctx.args.store_timeout)
    except Exception as exc:  # noqa: BLE001 - the exit code stands
        say(f"could not open the store to copy the NCCL flight-recorder dumps: {exc}")
        return
    flight_recorder.upload_dumps(store, ctx.me.rank, ctx.me.attempt, prefix)


def start_liveness(interval: float) -> LivenessThread | None:
    """Sample everything below this controller (CMD, `ray start` and Ray's workers), not the
    controller itself: its own threads (heartbeat, store polls) are not the run's progress."""
    if interval <= 0:
        return None
    me = os.getpid()
    return LivenessThread(Sampler(me, interval, exclude=frozenset({me}))).start()


def main(argv: list[str] | None = None) -> int:
    line_buffered()
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except Terminated:
        say("SIGTERM before the rendezvous: exiting 143")
        return EXIT_SIGTERM


if __name__ == "__main__":
    sys.exit(main())
