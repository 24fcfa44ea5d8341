"""Free-port choice for local mode, where several Ray nodes share one host and Iris's
IRIS_PORT_* numbers are not unique across jobs (two jobs can get the same number).

Ports are drawn at random between Ray's default ports and Linux's ephemeral range (32768-60999):
a port picked by binding to 0 lies IN that range, and any outbound connection on the host
may take it between our check and Ray's bind. Below it, only listeners compete."""

from __future__ import annotations

import random
import socket

# Below the ephemeral range, and above Ray's own defaults (client server 10001, default worker
# ports 10002-19999), which a Ray started with default settings on the same host may take.
LOW, HIGH = 20000, 32000
WORKER_RANGE = 64           # ports per node for Ray worker processes (tests and rehearsals need few)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Bindable on loopback and on the wildcard address (Ray's GCS binds 0.0.0.0)."""
    for addr in (host, ""):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((addr, port))
            except OSError:
                return False
    return True


def free_port(taken: set[int] | None = None, tries: int = 500) -> int:
    taken = taken or set()
    for _ in range(tries):
        port = random.randrange(LOW, HIGH)
        if port not in taken and port_is_free(port):
            return port
    raise RuntimeError(f"no free port found between {LOW} and {HIGH} after {tries} tries")


def usable_port(preferred: int | None) -> int:
    """The preferred port (Iris's IRIS_PORT_RAY) when it is free here, else any free port."""
    if preferred and port_is_free(preferred):
        return preferred
    return free_port()


def free_range(size: int = WORKER_RANGE, taken: set[int] | None = None, tries: int = 200) -> tuple[int, int]:
    """A block of `size` consecutive free ports (Ray refuses overlapping worker ranges)."""
    taken = taken or set()
    for _ in range(tries):
        start = random.randrange(LOW, HIGH - size)
        block = range(start, start + size)
        if not taken.intersection(block) and all(port_is_free(p) for p in block):
            return start, start + size - 1
    raise RuntimeError(f"no {size} consecutive free ports found between {LOW} and {HIGH}")


def local_ray_ports(head: bool, taken: set[int] | None = None) -> dict[str, int]:
    """Every port a Ray node opens, chosen free and clear of `taken` (the head's GCS port,
    chosen before), so nodes on one host never collide and Ray never refuses an overlap."""
    names = ["node-manager-port", "object-manager-port", "metrics-export-port",
             "dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port"]
    if head:
        names += ["ray-client-server-port", "dashboard-port"]
    ports: dict[str, int] = {}
    for name in names:
        ports[name] = free_port(set(ports.values()) | set(taken or ()))
    low, high = free_range(taken=set(ports.values()) | set(taken or ()))
    ports["min-worker-port"], ports["max-worker-port"] = low, high
    return ports
