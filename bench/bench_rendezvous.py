"""Rendezvous benchmark: N simulated nodes (threads in a few processes, running only the
rendezvous protocol, no Ray) against a loopback S3 server (moto) and a file store.

Measures, for N = 8, 32, 64: the time from the head's publication to the moment the last
worker knows the head's address, and the store requests each worker made while waiting.
Compared with today's design (workers poll one head file every 5 s) measured the same way.
Workers start spread over 5 s (pods never start in lock step), say hello (irisrl), poll for
--delay seconds, then the head publishes.

    .venv/bin/python bench/bench_rendezvous.py [--sizes 8,32,64] [--delay 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "integration"))

OLD_POLL = 5.0        # today's launcher: head file polled every 5 s
OLD_KEY = "ray_head.json"


def _worker_thread(uri: str, rank: int, design: str, poll: float, q: "mp.Queue") -> None:
    from irisrl.runtime.rendezvous import WorkerRendezvous
    from irisrl.runtime.store import Store

    time.sleep(random.uniform(0, OLD_POLL))      # nodes come up spread out, not in lock step
    store = Store(uri, 30)
    if design == "irisrl":
        w = WorkerRendezvous(store, rank, "127.0.0.1", poll)
        w.hello()
        q.put(("ready", rank))
        w.wait_for_head(300)
    else:
        found = store.read(OLD_KEY) is not None     # first poll before "ready": both designs warm
        q.put(("ready", rank))
        while not found:
            time.sleep(OLD_POLL)
            found = store.read(OLD_KEY) is not None
    q.put(("known", rank, time.time(), store.requests))


def _worker_process(uri: str, ranks: list[int], design: str, poll: float, env: dict, q: "mp.Queue") -> None:
    os.environ.update(env)
    threads = [threading.Thread(target=_worker_thread, args=(uri, r, design, poll, q)) for r in ranks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def run_once(uri: str, n: int, design: str, poll: float, delay: float, env: dict) -> dict:
    from irisrl.runtime.rendezvous import HeadRendezvous
    from irisrl.runtime.store import Store

    os.environ.update(env)
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    nproc = min(n, 8)
    ranks = list(range(1, n + 1))
    procs = [ctx.Process(target=_worker_process, args=(uri, ranks[i::nproc], design, poll, env, q)) for i in range(nproc)]
    for p in procs:
        p.start()
    deadline = time.monotonic() + 300
    ready = 0
    while ready < n:
        msg = q.get(timeout=max(1, deadline - time.monotonic()))
        ready += msg[0] == "ready"
    time.sleep(delay)                               # workers are now in their steady poll loop
    store = Store(uri, 30)
    head = HeadRendezvous(store, n + 1)
    if design == "irisrl":
        head.publish("127.0.0.1:6379")
    else:
        store.write(OLD_KEY, json.dumps({"head_ip": "127.0.0.1", "port": 6379}).encode())
    published = time.time()
    known: dict[int, tuple[float, int]] = {}
    while len(known) < n:
        try:
            msg = q.get(timeout=0.5)
        except Exception:  # noqa: BLE001 - queue.Empty: let the head ack late hellos
            if design == "irisrl":
                head.poll()
            continue
        if msg[0] == "known":
            known[msg[1]] = (msg[2] - published, msg[3])
        if time.monotonic() > deadline:
            raise SystemExit(f"{design} N={n}: only {len(known)} workers learned the address")
    for p in procs:
        p.join(30)
    lat = sorted(v[0] for v in known.values())
    reqs = [v[1] for v in known.values()]
    return {"design": design, "n": n, "last_s": round(lat[-1], 3), "median_s": round(statistics.median(lat), 3),
            "req_per_worker_max": max(reqs), "req_per_worker_mean": round(statistics.mean(reqs), 1),
            "wait_before_publish_s": delay, "poll_s": poll if design == "irisrl" else OLD_POLL}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8,32,64")
    ap.add_argument("--delay", type=float, default=3.0, help="seconds workers poll before the head publishes")
    ap.add_argument("--poll", type=float, default=1.0, help="irisrl worker poll interval")
    ap.add_argument("--stores", default="s3,file")
    ap.add_argument("--designs", default="irisrl,old")
    ap.add_argument("--json", help="write results here")
    args = ap.parse_args()
    results = []
    s3 = None
    if "s3" in args.stores:
        from runtime_fixtures import S3Server

        s3 = S3Server()
    try:
        for store_kind in args.stores.split(","):
            for n in map(int, args.sizes.split(",")):
                for design in args.designs.split(","):
                    if store_kind == "s3":
                        uri, env = s3.fresh_uri(), s3.env()
                    else:
                        uri, env = tempfile.mkdtemp(prefix="rdv-bench-"), {}
                    r = run_once(uri, n, design, args.poll, args.delay, env)
                    r["store"] = store_kind
                    results.append(r)
                    print(json.dumps(r), flush=True)
    finally:
        if s3:
            s3.stop()
    print("\n| store | N | design | last worker knows (s after publish) | median (s) | requests/worker (mean, max) |")
    print("|---|---|---|---|---|---|")
    for r in results:
        name = f"irisrl ack+poll {r['poll_s']:g} s" if r["design"] == "irisrl" else "today: 5 s head-file poll"
        print(f"| {r['store']} | {r['n']} | {name} | {r['last_s']:.2f} | {r['median_s']:.2f} | "
              f"{r['req_per_worker_mean']:g}, {r['req_per_worker_max']} |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
