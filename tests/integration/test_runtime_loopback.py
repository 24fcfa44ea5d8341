"""Local mode keeps Ray on loopback: a real 2-node gang on one host, with an actor on each
node, and no process of that gang (GCS, raylets, agents, core workers, CMD) listens on an
address other than 127.0.0.1 (checked with `ss -ltnp`, or /proc/net when ss is absent)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # importlib mode: no sibling imports
from runtime_fixtures import PY, kill_group, spawn_rank

pytestmark = pytest.mark.slow

ARGS = ["--local", "--gpus-per-node", "2", "--poll-interval", "0.3", "--park-interval", "0.5", "--beat-interval", "0.5",
        "--head-timeout", "20", "--worker-exit-timeout", "30", "--ray-start-timeout", "120",
        "--rendezvous-timeout", "150", "--exit-linger", "0"]

# one actor per node (2 fake GPUs each), so core workers on both nodes hold their ports open
CMD = """
import os, sys, time, ray
ray.init(log_to_driver=False)
@ray.remote(num_gpus=2)
class Where:
    def ip(self): return ray.util.get_node_ip_address()
actors = [Where.remote() for _ in range(2)]
print("ACTORS_UP", ray.get([a.ip.remote() for a in actors], timeout=90), flush=True)
deadline = time.monotonic() + 120
while time.monotonic() < deadline and not os.path.exists(sys.argv[1]):
    time.sleep(0.2)
"""


def listeners() -> list[tuple[str, int]]:
    """(local address, pid) of every listening TCP socket on the host."""
    if shutil.which("ss"):
        out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, timeout=30).stdout
        found = []
        for line in out.splitlines():
            cols = line.split()
            for chunk in line.split("pid=")[1:]:
                found.append((cols[3], int(chunk.split(",", 1)[0])))
        return found
    return _proc_listeners()


def _proc_listeners() -> list[tuple[str, int]]:
    inodes: dict[str, str] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as fh:
            for row in fh.readlines()[1:]:
                cols = row.split()
                if cols[3] == "0A":                                   # LISTEN
                    inodes[cols[9]] = _hex_addr(cols[1])
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            continue
        found += [(inodes[ln[8:-1]], int(pid)) for ln in links if ln.startswith("socket:[") and ln[8:-1] in inodes]
    return found


def _hex_addr(text: str) -> str:
    host, port = text.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return f"{'.'.join(str(b) for b in raw[::-1])}:{int(port, 16)}"
    words = [raw[i:i + 4][::-1] for i in range(0, 16, 4)]
    v6 = b"".join(words)
    tail = ".".join(str(b) for b in v6[12:]) if v6[:12] == b"\0" * 10 + b"\xff\xff" else v6.hex()
    return f"[{tail}]:{int(port, 16)}"


def is_loopback(address: str) -> bool:
    host = address.rsplit(":", 1)[0].strip("[]")
    return host.startswith(("127.", "::ffff:127.")) or host in ("::1", "localhost")


def test_is_loopback_reads_ss_and_proc_spellings() -> None:
    assert is_loopback("127.0.0.1:6379") and is_loopback("[::ffff:127.0.0.1]:6379") and is_loopback("[::1]:1")
    assert not is_loopback("0.0.0.0:6379") and not is_loopback("*:6379") and not is_loopback("192.0.2.2:1")
    assert not is_loopback("[::]:6379")
    assert _hex_addr("0100007F:18EB") == "127.0.0.1:6379"


def test_local_gang_ray_listens_on_loopback_only(tmp_path: Path) -> None:
    from irisrl.runtime.ray_node import descendants

    stop = tmp_path / "stop"
    args = ["--rendezvous-dir", f"file://{tmp_path / 'rdv'}", *ARGS]
    worker = spawn_rank(tmp_path, 1, 2, args)
    head = spawn_rank(tmp_path, 0, 2, args, [PY, "-c", CMD, str(stop)])
    try:
        head.wait_for_line("ACTORS_UP [", 240)   # printed, not the echoed CMD
        ours = set(descendants(head.proc.pid)) | set(descendants(worker.proc.pid))
        mine = [(addr, pid) for addr, pid in listeners() if pid in ours]
        assert len({pid for _, pid in mine}) >= 4, f"expected GCS, raylets and workers listening: {mine}"
        wide = [(addr, _cmd(pid)) for addr, pid in mine if not is_loopback(addr)]
        assert wide == [], f"Ray processes of this gang listen beyond loopback: {wide}"
        assert "ACTORS_UP ['127.0.0.1', '127.0.0.1']" in head.text()       # both nodes advertise loopback
    except BaseException:
        for rank in (head, worker):
            kill_group(rank.proc)
        raise
    finally:
        stop.write_text("")
    assert head.wait(120) == 0, head.text()
    assert worker.wait(60) == 0, worker.text()


def _cmd(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")[:120]
    except OSError:
        return "?"

