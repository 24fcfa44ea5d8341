"""Head/worker rendezvous through the store, with no clocks shared between nodes.

Layout under the rendezvous dir:
  hello/<rank>-<nonce>   a worker announces itself; nonce is fresh per worker process
  head.json              written only by the head: {"head_id", "address", "num_tasks",
                         "acks": [nonces it has seen], "beat": n, "done": null | {...}}
  bye/<rank>-<nonce>     a worker left (Ray stopped) after the done marker
  done.json              copy of the final marker, for people and tools

Why stale state is never used: a worker accepts head.json only when its own nonce is in
"acks". The nonce was drawn after the worker started, so only a head that is alive now can
have listed it; a head.json left by an earlier attempt never can, whatever the clocks say.
Liveness is a counter: the head bumps "beat" every beat interval and a worker measures, on
its own monotonic clock, how long the counter has stood still.

Costs: a waiting worker makes one GET per poll; the head one LIST per poll plus a PUT when
something changed or a beat is due.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from irisrl.runtime.contract import RDV_BYE_DIR as BYE_DIR
from irisrl.runtime.contract import RDV_DONE as DONE_KEY
from irisrl.runtime.contract import RDV_HEAD as HEAD_KEY
from irisrl.runtime.contract import RDV_HELLO_DIR as HELLO_DIR
from irisrl.runtime.store import Store, StoreError


class RendezvousError(RuntimeError):
    """The protocol could not complete (timeout, dead head, newer head); message says why."""


@dataclass(frozen=True)
class HeadState:
    head_id: str
    address: str
    num_tasks: int
    acks: frozenset[str]
    beat: int
    done: dict[str, Any] | None

    @classmethod
    def parse(cls, raw: bytes) -> "HeadState | None":
        try:
            doc = json.loads(raw)
            return cls(head_id=str(doc["head_id"]), address=str(doc["address"]),
                       num_tasks=int(doc["num_tasks"]), acks=frozenset(doc.get("acks", [])),
                       beat=int(doc.get("beat", 0)), done=doc.get("done"))
        except (ValueError, KeyError, TypeError):
            return None  # a foreign or half-understood file is ignored, never trusted


def new_nonce() -> str:
    return uuid.uuid4().hex


class TolerantReader:
    """Reads one key; store errors are tolerated until they have lasted `grace` seconds
    in a row (a blip does not kill the gang, a dead store ends in an error naming it)."""

    def __init__(self, store: Store, key: str, grace: float, clock: Callable[[], float] = time.monotonic):
        self.store, self.key, self.grace, self.clock = store, key, grace, clock
        self._failing_since: float | None = None

    def read(self) -> bytes | None:
        try:
            raw = self.store.read(self.key)
        except StoreError:
            now = self.clock()
            self._failing_since = self._failing_since or now
            if now - self._failing_since >= self.grace:
                raise
            return None
        self._failing_since = None
        return raw


class HeadRendezvous:
    def __init__(self, store: Store, num_tasks: int, head_id: str | None = None) -> None:
        self.store = store
        self.num_tasks = num_tasks
        self.head_id = head_id or new_nonce()
        self.address = ""
        self.acks: set[str] = set()
        self.beat = 0
        self.done: dict[str, Any] | None = None

    def _doc(self) -> dict[str, Any]:
        return {"v": 1, "head_id": self.head_id, "address": self.address, "num_tasks": self.num_tasks,
                "acks": sorted(self.acks), "beat": self.beat, "done": self.done}

    def _write(self) -> None:
        self.store.write(HEAD_KEY, json.dumps(self._doc()).encode())

    def publish(self, address: str) -> None:
        """Publish the head's address, acknowledging every worker that has said hello."""
        self.address = address
        self.acks |= self._hello_nonces()
        self._write()

    def _hello_nonces(self) -> set[str]:
        return {name.split("-", 1)[1] for name in self.store.list(HELLO_DIR) if "-" in name}

    def poll(self) -> bool:
        """One LIST; republish when new workers said hello. True when it wrote."""
        fresh = self._hello_nonces() - self.acks
        if fresh:
            self.acks |= fresh
            self._write()
        return bool(fresh)

    def heartbeat(self) -> None:
        self.beat += 1
        self._write()

    def finish(self, status: str, exit_code: int, detail: str = "") -> None:
        """The done marker: workers exit when they see it; done.json keeps a readable copy."""
        self.done = {"status": status, "exit_code": exit_code, "detail": detail}
        self.beat += 1
        self._write()
        self.store.write(DONE_KEY, json.dumps({"head_id": self.head_id, **self.done}).encode())

    def departed(self, nonces: set[str]) -> set[str]:
        """Which of these worker nonces have written their bye."""
        names = self.store.list(BYE_DIR)
        return {n.split("-", 1)[1] for n in names if "-" in n} & nonces


class WorkerRendezvous:
    def __init__(self, store: Store, rank: int, host: str, poll_interval: float = 1.0,
                 nonce: str | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.store, self.rank, self.host = store, rank, host
        self.poll_interval = poll_interval
        self.nonce = nonce or new_nonce()
        self.clock, self.sleep = clock, sleep
        self.reader = TolerantReader(store, HEAD_KEY, grace=store.timeout, clock=clock)

    def hello(self) -> None:
        body = json.dumps({"rank": self.rank, "nonce": self.nonce, "host": self.host}).encode()
        self.store.write(f"{HELLO_DIR}/{self.rank}-{self.nonce}", body)

    def bye(self) -> None:
        self.store.write(f"{BYE_DIR}/{self.rank}-{self.nonce}", b"{}")

    def _pause(self) -> None:
        # +-10% jitter so many workers started together do not poll in lock step
        self.sleep(self.poll_interval * random.uniform(0.9, 1.1))

    def _read_state(self) -> HeadState | None:
        raw = self.reader.read()
        return HeadState.parse(raw) if raw else None

    def wait_for_head(self, timeout: float) -> HeadState:
        """Block until a head that acknowledged THIS worker publishes; stale heads never match."""
        deadline = self.clock() + timeout
        while True:
            state = self._read_state()
            if state and self.nonce in state.acks and state.address:
                return state
            if self.clock() >= deadline:
                seen = "a head.json from an earlier attempt" if state else "no head.json"
                raise RendezvousError(
                    f"no head acknowledged rank {self.rank} at {self.store.uri} within {timeout:g} s "
                    f"(saw {seen}); did rank 0 start, and does it use the same --rendezvous-dir?")
            self._pause()

    def park(self, head_id: str, head_timeout: float, still_ok: Callable[[], str | None] = lambda: None) -> dict[str, Any]:
        """Wait for the head's done marker. Raise when the head stops beating for head_timeout
        seconds (it died without a marker), a newer head takes over, or still_ok() names a
        local failure (e.g. this node's Ray died)."""
        last_beat, last_change = -1, self.clock()
        while True:
            state = self._read_state()
            now = self.clock()
            if state and state.head_id != head_id:
                raise RendezvousError(f"a newer head ({state.head_id[:8]}) replaced ours ({head_id[:8]}) "
                                      f"at {self.store.uri}: this worker belongs to an earlier attempt")
            if state and state.done is not None:
                return state.done
            if state and state.beat != last_beat:
                last_beat, last_change = state.beat, now
            if now - last_change >= head_timeout:
                raise RendezvousError(f"head stopped beating at {self.store.uri} for {head_timeout:g} s "
                                      "without a done marker: presumed dead")
            problem = still_ok()
            if problem:
                raise RendezvousError(problem)
            self._pause()
