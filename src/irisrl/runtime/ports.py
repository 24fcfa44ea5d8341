"""Free-port choice for local mode, where several Ray nodes share one host and Iris's
IRIS_PORT_* numbers are not unique across jobs (two jobs can get the same number)."""

from __future__ import annotations

import random
import socket

WORKER_RANGE = 64          # ports per node for Ray worker processes (tests and rehearsals need few)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    # also the wildcard address: Ray's GCS binds 0.0.0.0
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def usable_port(preferred: int | None) -> int:
    """The preferred port (Iris's IRIS_PORT_RAY) when it is free here, else any free port."""
    if preferred and port_is_free(preferred):
        return preferred
    return free_port()


def free_range(size: int = WORKER_RANGE, low: int = 20000, high: int = 60000, tries: int = 200) -> tuple[int, int]:
    """A block of `size` consecutive free ports (Ray refuses overlapping worker ranges)."""
    for _ in range(tries):
        start = random.randrange(low, high - size)
        if all(port_is_free(p) for p in range(start, start + size)):
            return start, start + size - 1
    raise RuntimeError(f"no {size} consecutive free ports found between {low} and {high}")


def local_ray_ports(head: bool) -> dict[str, int]:
    """Every port a Ray node opens, chosen free, so nodes on one host never collide."""
    names = ["node-manager-port", "object-manager-port", "metrics-export-port",
             "dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port"]
    if head:
        names += ["ray-client-server-port", "dashboard-port"]
    ports: dict[str, int] = {}
    while len(ports) < len(names):
        port = free_port()
        if port not in ports.values():
            ports[names[len(ports)]] = port
    low, high = free_range()
    ports["min-worker-port"], ports["max-worker-port"] = low, high
    return ports
