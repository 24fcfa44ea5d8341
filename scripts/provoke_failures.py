#!/usr/bin/env python3
"""Provoke real failures with the installed ML libraries and record what they print.

Issue 15 item 4: the cause catalogue must know the formats of current releases (torch, CUDA,
NCCL, huggingface_hub, transformers, safetensors, triton). This script makes those libraries
fail for real on a GPU machine and keeps their output verbatim, so the corpus holds printed
lines, not recollections. Three steps:

  run    (on the GPU machine)  every case in its own subprocess (a CUDA fault poisons the
         process), under `bash -c` so the shell's own "Segmentation fault (core dumped)" lines are
         there too; writes OUT/raw.jsonl (case, rc, seconds, output) and OUT/versions.json.
           PYTHONUNBUFFERED=1 python3 scripts/provoke_failures.py run --out OUT [--only a,b]
  strings (on the GPU machine) the NCCL / ProcessGroupNCCL format strings that need two GPUs to
         print (`strings` on libnccl*.so and libtorch_cuda.so): OUT/format_strings_raw.txt.
  build  (anywhere, stdlib only) picks the lines a log would show (final exception lines,
         warnings, process-ended lines, NCCL WARN/INFO) out of raw.jsonl, labels each with the
         case's kind, and splits cases ~50/50 by sha1(case) parity into the corpus files:
           python3 scripts/provoke_failures.py build tests/fixtures/corpus/current RAWDIR [RAWDIR...]

The device has no network: the Hub cases talk to a loopback HTTP server started inside the
case's process (HF_ENDPOINT=http://127.0.0.1:PORT) that answers like the Hub does (status
codes and the X-Error-Code / X-Error-Message headers that huggingface_hub's
`hf_raise_for_status` reads, huggingface_hub utils/_http.py @ v1.33.0). The library code that
turns those answers into exceptions, and every line it prints, is the real one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve()

# ----------------------------------------------------------------------------- helpers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dist_env(world: int, rank: int, port: int) -> None:
    os.environ.update(
        MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE=str(world), RANK=str(rank)
    )


def tiny_gpt2_dir(path: Path, weights: str) -> Path:
    """A real (tiny) transformers model saved to `path`: config.json + weights in `weights` form."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=32, n_positions=16)
    model = GPT2LMHeadModel(cfg)
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    if weights == "bin":  # the pre-safetensors layout: pytorch_model.bin
        from safetensors.torch import load_file

        st = path / "model.safetensors"
        torch.save(load_file(str(st)), path / "pytorch_model.bin")
        st.unlink()
    return path


# ----------------------------------------------------------------------------- CUDA cases


def case_cuda_oom_single() -> None:
    import torch

    torch.empty(200 * 2**30, dtype=torch.uint8, device="cuda")  # more than the 141 GiB card


def case_cuda_oom_fill() -> None:
    import torch

    held = []
    while True:  # a training loop that keeps activations until the allocator gives up
        held.append(torch.empty(8 * 2**30, dtype=torch.uint8, device="cuda"))


def case_cuda_assert_gather() -> None:
    import torch

    x = torch.zeros(16, device="cuda")
    idx = torch.tensor([99], device="cuda")
    print(x[idx])
    torch.cuda.synchronize()


def case_cuda_assert_embedding() -> None:
    import torch

    emb = torch.nn.Embedding(32, 8).cuda()
    ids = torch.tensor([[1, 2, 40]], device="cuda")  # token id past the vocabulary
    out = emb(ids)
    print(out.sum().item())


def case_cuda_assert_nll_loss() -> None:
    import torch

    logits = torch.randn(4, 10, device="cuda")
    labels = torch.tensor([1, 2, 3, 12], device="cuda")  # label past the class count
    loss = torch.nn.functional.cross_entropy(logits, labels)
    print(loss.item())


def _triton_kernels() -> tuple[Any, Any]:
    import triton
    import triton.language as tl

    @triton.jit
    def store_far(ptr, off):  # type: ignore[no-untyped-def]
        tl.store(ptr + off, 1.0)

    @triton.jit
    def store_misaligned(ptr):  # type: ignore[no-untyped-def]
        p = (ptr + 1).to(tl.pointer_type(tl.int64))
        tl.store(p, 1)

    return store_far, store_misaligned


def case_cuda_illegal_address_triton() -> None:
    import torch

    store_far, _ = _triton_kernels()
    x = torch.zeros(4, device="cuda")
    store_far[(1,)](x, 1 << 40)  # 4 TiB past the buffer: nothing mapped there
    torch.cuda.synchronize()


def case_cuda_misaligned_triton() -> None:
    import torch

    _, store_misaligned = _triton_kernels()
    x = torch.zeros(64, dtype=torch.int8, device="cuda")
    store_misaligned[(1,)](x)
    torch.cuda.synchronize()


_CUPY_SRC = r"""
extern "C" __global__ void misaligned(char* p) { *(long long*)(p + 1) = 1; }
extern "C" __global__ void far_store(float* p) { p[1ll << 40] = 1.0f; }
"""


def case_cuda_misaligned_cupy() -> None:
    import cupy as cp
    import torch

    torch.zeros(1, device="cuda")  # torch owns the (primary) context first
    a = cp.zeros(64, dtype=cp.uint8)
    cp.RawKernel(_CUPY_SRC, "misaligned")((1,), (1,), (a,))
    torch.cuda.synchronize()  # torch reports the sticky error


def case_cuda_illegal_address_cupy() -> None:
    import cupy as cp

    a = cp.zeros(4, dtype=cp.float32)
    cp.RawKernel(_CUPY_SRC, "far_store")((1,), (1,), (a,))
    cp.cuda.Device().synchronize()


def case_cuda_invalid_device() -> None:
    import torch

    torch.zeros(1, device="cuda:3")  # one GPU on the machine: ordinal 3 does not exist


def case_cuda_no_device() -> None:
    os.environ["CUDA_VISIBLE_DEVICES"] = ""  # a task scheduled without its GPU
    import torch

    torch.zeros(1, device="cuda")


def case_nccl_watchdog_timeout() -> None:
    """World of one on one GPU: a 30 s spin kernel ahead of an all_reduce with a 5 s timeout,
    so ProcessGroupNCCL's watchdog times the collective out for real."""
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group(
        "nccl", timeout=timedelta(seconds=5), device_id=torch.device("cuda:0")
    )
    x = torch.ones(1024, device="cuda")
    torch.cuda._sleep(int(60e9))  # ~30 s of spinning on the current stream
    dist.all_reduce(x)
    print("all_reduce enqueued; waiting for the watchdog", flush=True)
    time.sleep(60)


def case_nccl_bad_ifname() -> None:
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    os.environ.update(NCCL_SOCKET_IFNAME="doesnotexist", NCCL_DEBUG="INFO")
    dist_env(1, 0, free_port())
    dist.init_process_group(
        "nccl", timeout=timedelta(seconds=20), device_id=torch.device("cuda:0")
    )
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()


def _dup_gpu_worker(rank: int, port: int) -> None:
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(2, rank, port)
    torch.cuda.set_device(0)  # both ranks on the one GPU
    dist.init_process_group("nccl", timeout=timedelta(seconds=20))
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()


def case_nccl_duplicate_gpu() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_dup_gpu_worker, args=(free_port(),), nprocs=2)


def case_nccl_ok_info() -> None:
    """Benign: a healthy NCCL init + all_reduce with NCCL_DEBUG=INFO, no destroy_process_group."""
    import torch
    import torch.distributed as dist

    os.environ["NCCL_DEBUG"] = "INFO"
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print("all_reduce ok", x.sum().item())


# ----------------------------------------------------------------------------- distributed (CPU)


def case_dist_store_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()  # rank 1 never comes
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=2,
        timeout=timedelta(seconds=5),
    )


def case_dist_store_connect_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()  # nobody listens: rank 1 waits for rank 0's store
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=1, world_size=2,
        timeout=timedelta(seconds=5),
    )


def _gloo_worker(rank: int, port: int) -> None:
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(2, rank, port)
    dist.init_process_group("gloo", timeout=timedelta(seconds=5))
    if rank == 1:
        time.sleep(20)  # never enters the collective
        return
    x = torch.ones(8)
    dist.all_reduce(x)


def case_gloo_collective_timeout() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_gloo_worker, args=(free_port(),), nprocs=2)


def case_torchrun_rendezvous_timeout() -> None:
    """torchrun with --nnodes=2 where the second node never joins (c10d rendezvous)."""
    port = free_port()
    cmd = [
        sys.executable, "-m", "torch.distributed.run", "--nnodes=2", "--nproc-per-node=1",
        "--rdzv-backend=c10d", f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=irisrl",
        "--rdzv-conf=join_timeout=10", str(SCRIPT), "noop",
    ]
    sys.exit(subprocess.call(cmd))


# ----------------------------------------------------------------------------- disk full


def _small_fs() -> Path | None:
    """A 256 KiB tmpfs (root on the device machine); None where mounting is refused."""
    mnt = Path(tempfile.mkdtemp(prefix="tinyfs"))
    rc = subprocess.call(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    print(f"PROVOKE-NOTE tmpfs mount rc={rc}", flush=True)
    return mnt if rc == 0 else None


def case_disk_full_torch_save_tmpfs() -> None:
    import torch

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    torch.save({"w": torch.zeros(1 << 20)}, mnt / "ckpt.pt")


def case_disk_full_torch_save_devfull() -> None:
    import torch

    torch.save({"w": torch.zeros(1 << 20)}, "/dev/full")


def case_disk_full_torch_save_big() -> None:
    import torch

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    torch.save({f"layer{i}": torch.zeros(1 << 22) for i in range(8)}, mnt / "ckpt.pt")


def case_disk_full_dcp_save() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    dcp.save({"model": {"w": torch.zeros(1 << 20)}}, checkpoint_id=str(mnt / "step_100"))


def case_disk_full_python_write() -> None:
    mnt = _small_fs()
    target = (mnt / "log.bin") if mnt is not None else Path("/dev/full")
    with open(target, "wb") as f:
        f.write(os.urandom(1 << 20))


def case_disk_full_safetensors_save() -> None:
    import torch
    from safetensors.torch import save_file

    mnt = _small_fs()
    target = (mnt / "model.safetensors") if mnt is not None else Path("/dev/full")
    save_file({"w": torch.zeros(1 << 20)}, str(target))


def case_disk_full_save_pretrained() -> None:
    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = GPT2Config(n_layer=2, n_embd=256, n_head=4, vocab_size=1024, n_positions=64)
    GPT2LMHeadModel(cfg).save_pretrained(mnt / "ckpt")


# ----------------------------------------------------------------------------- corrupt checkpoints


def _st_file(body: bytes) -> str:
    fd, name = tempfile.mkstemp(suffix=".safetensors")
    os.write(fd, body)
    os.close(fd)
    return name


def case_safetensors_header_too_large() -> None:
    from safetensors import safe_open

    name = _st_file((1 << 40).to_bytes(8, "little") + b"{}")
    with safe_open(name, framework="pt") as f:
        print(list(f.keys()))


def case_safetensors_header_too_small() -> None:
    from safetensors.torch import load_file

    load_file(_st_file(b"\x01\x02\x03"))


def case_safetensors_invalid_header() -> None:
    from safetensors.torch import load_file

    body = b"<html>502 Bad Gateway</html>"  # a proxy page saved as the weights
    load_file(_st_file(len(body).to_bytes(8, "little") + body))


def case_safetensors_truncated() -> None:
    import torch
    from safetensors.torch import load_file, save_file

    name = _st_file(b"")
    save_file({"w": torch.zeros(4096)}, name)
    with open(name, "r+b") as f:
        f.truncate(os.path.getsize(name) // 2)  # an interrupted download / copy
    load_file(name)


def case_transformers_truncated_safetensors() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    st = d / "model.safetensors"
    with open(st, "r+b") as f:
        f.truncate(os.path.getsize(st) // 2)
    AutoModelForCausalLM.from_pretrained(d)


def case_transformers_garbage_bin() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "bin")
    (d / "pytorch_model.bin").write_bytes(os.urandom(4096))
    AutoModelForCausalLM.from_pretrained(d)


def _torch_ckpt() -> Path:
    import torch

    p = Path(tempfile.mkdtemp()) / "ckpt.pt"
    torch.save({"model": {"w": torch.randn(256, 256)}, "step": 100}, p)
    return p


def case_torch_load_truncated() -> None:
    import torch

    p = _torch_ckpt()
    with open(p, "r+b") as f:
        f.truncate(os.path.getsize(p) // 2)
    torch.load(p)


def case_torch_load_garbage() -> None:
    import torch

    p = _torch_ckpt()
    p.write_bytes(os.urandom(4096))
    torch.load(p)


def case_torch_load_empty() -> None:
    import torch

    p = _torch_ckpt()
    p.write_bytes(b"")
    torch.load(p)


def case_torch_load_zeroed_tail() -> None:
    import torch

    p = _torch_ckpt()
    data = bytearray(p.read_bytes())
    data[len(data) // 3 :] = bytes(len(data) - len(data) // 3)  # a torn write: zeros at the end
    p.write_bytes(bytes(data))
    torch.load(p)


# ----------------------------------------------------------------------------- crashes


def case_py_segfault() -> None:
    import ctypes
    import faulthandler

    faulthandler.enable()
    ctypes.string_at(0)


def case_py_abort() -> None:
    import faulthandler

    faulthandler.enable()
    os.abort()


def case_py_uncaught_torch() -> None:
    import torch

    a, b = torch.randn(2, 3), torch.randn(4, 5)
    print(a @ b)


def _spawn_worker(rank: int) -> None:
    if rank == 1:
        raise ValueError(f"rank {rank}: reward function returned NaN for 3 of 64 samples")
    time.sleep(5)


def case_spawn_child_exception() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_spawn_worker, nprocs=2)


def case_cpp_terminate() -> None:
    """libstdc++'s own `terminate called after throwing` from a C++ program built here."""
    src = Path(tempfile.mkdtemp()) / "t.cpp"
    src.write_text(
        "#include <stdexcept>\n"
        'int main() { throw std::runtime_error("provoke_failures: uncaught C++ exception"); }\n'
    )
    exe = src.with_suffix("")
    for cxx in ("g++", "c++", "clang++"):
        if subprocess.call([cxx, str(src), "-o", str(exe)], stderr=subprocess.DEVNULL) == 0:
            break
    else:
        print("PROVOKE-NOTE no C++ compiler", flush=True)
        sys.exit(3)
    os.execv(str(exe), [str(exe)])


# ----------------------------------------------------------------------------- benign


def case_benign_warnings() -> None:
    import warnings

    import torch

    warnings.simplefilter("always")
    steps: list[Callable[[], object]] = [
        lambda: torch.tensor(torch.ones(2)),  # UserWarning: To copy construct from a tensor
        lambda: torch.cuda.amp.GradScaler(),  # FutureWarning: deprecated
        lambda: torch.cuda.amp.autocast().__enter__(),  # FutureWarning: deprecated
        lambda: torch.load(_torch_ckpt(), weights_only=False),
    ]
    for step in steps:
        try:
            step()
        except Exception as e:  # an API gone in this release is worth a note, not a stop
            print(f"PROVOKE-NOTE step failed: {type(e).__name__}: {e}", flush=True)
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    AutoModelForCausalLM.from_pretrained(d, torch_dtype=torch.float32)  # torch_dtype deprecated
    print("benign warnings done")


def case_noop() -> None:
    print("noop")


# ----------------------------------------------------------------------------- loopback Hub

COMMIT = "0123456789abcdef0123456789abcdef01234567"

# Messages the real Hub puts in X-Error-Message (quoted in public pastes, e.g.
# huggingface/transformers#24995 "Access to model meta-llama/Llama-2-7b-hf is restricted...").
HUB_ERRORS: dict[str, tuple[int, str | None, str | None]] = {
    "gated401": (401, "GatedRepo", "Access to model {repo} is restricted. You must have access "
                 "to it and be authenticated to access it. Please log in."),
    "gated403": (403, "GatedRepo", "Access to model {repo} is restricted and you are not in the "
                 "authorized list. Visit https://huggingface.co/{repo} to ask for access."),
    "missing401": (401, "RepoNotFound", "Invalid username or password."),
    "missing404": (404, "RepoNotFound", "Repository not found"),
    "entry404": (404, "EntryNotFound", "Entry not found"),
    "revision404": (404, "RevisionNotFound", "Invalid rev id: v9.9"),
    "badtoken401": (401, None, "Invalid credentials in Authorization header"),
    "forbidden403": (403, None, "Authorization error."),
    "status429": (429, None, None),
    "status500": (500, None, "Internal Error - We're working hard to fix this as soon as possible!"),
    "status502": (502, None, None),
    "status503": (503, None, None),
}


def _as_model_path(path: str) -> tuple[str, str]:
    """The Hub serves datasets under /datasets/<repo> (files) and /api/datasets/<repo> (API): the
    loopback Hubs answer those like model repos (the sixth set's datasets cases). Returns the
    model-repo path and the repo type."""
    if path.startswith("/api/datasets/"):
        return "/api/models/" + path[len("/api/datasets/"):], "dataset"
    if path.startswith("/datasets/"):
        return path[len("/datasets"):], "dataset"
    return path, "model"


def start_hub(files: dict[str, dict[str, bytes]],
              errors: dict[str, tuple[int, str | None, str | None]] | None = None) -> str:
    """Serve repos `irisrl/<name>` on 127.0.0.1; names in `errors` (HUB_ERRORS by default) answer
    with that error, names in `files` serve those files (404 EntryNotFound for others); the write
    paths too (POST /api/repos/create names its repo in the JSON body; DELETE). Returns the
    endpoint URL."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    answers = HUB_ERRORS if errors is None else errors

    class Hub(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet: not library output
            pass

        def _send(self, code: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(code)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _route(self, body: bytes = b"") -> None:
            path, repo_type = _as_model_path(self.path.split("?")[0])
            if path == "/api/repos/create":   # the tenth set's create_repo: the repo is in the body
                try:
                    path = f"/api/models/irisrl/{json.loads(body or b'{}').get('name', '')}"
                except ValueError:
                    path = "/api/models/irisrl/"
            m = re.match(r"^/(?:api/models/)?irisrl/([\w.-]+)(/.*)?$", path)
            name = m.group(1) if m else ""
            rest = (m.group(2) or "") if m else ""
            repo = f"irisrl/{name}"
            common = {"X-Request-Id": f"Root=1-{os.urandom(4).hex()}-{os.urandom(12).hex()}"}
            if path.startswith("/api/whoami"):  # the seventh set's whoami: a revoked token
                name = "badtoken401"
            if name in answers:
                code, err_code, msg = answers[name]
                h = dict(common, **{"Content-Type": "application/json"})
                if msg:  # "Access to dataset X is restricted" where a dataset was asked for
                    msg = msg.replace("Access to model", f"Access to {repo_type}")
                if err_code:
                    h["X-Error-Code"] = err_code
                if msg:
                    h["X-Error-Message"] = msg.format(repo=repo)
                body = json.dumps({"error": msg.format(repo=repo)} if msg else {}).encode()
                if code >= 500 and not msg:
                    h["Content-Type"] = "text/html"
                    body = b"<html><body><h1>%d</h1></body></html>" % code
                self._send(code, body, h)
                return
            repo_files = files.get(name)
            if repo_files is None:
                self._send(404, b'{"error":"Repository not found"}', dict(common, **{
                    "X-Error-Code": "RepoNotFound", "X-Error-Message": "Repository not found",
                    "Content-Type": "application/json"}))
                return
            if "/tree/" in rest:  # list_repo_tree (snapshot_download)
                tree = [{"type": "file", "path": f, "size": len(b),
                         "oid": hashlib.sha1(b).hexdigest()} for f, b in sorted(repo_files.items())]
                self._send(200, json.dumps(tree).encode(), dict(common, **{
                    "Content-Type": "application/json"}))
                return
            if path.startswith("/api/models/"):
                info = {
                    "id": repo, "modelId": repo, "sha": COMMIT, "private": False,
                    "siblings": [{"rfilename": f} for f in sorted(repo_files)],
                }
                self._send(200, json.dumps(info).encode(), dict(common, **{
                    "Content-Type": "application/json"}))
                return
            fm = re.match(r"^/resolve/[^/]+/(.+)$", rest)
            fname = fm.group(1) if fm else ""
            if fname not in repo_files:
                self._send(404, b'{"error":"Entry not found"}', dict(common, **{
                    "X-Error-Code": "EntryNotFound", "X-Error-Message": "Entry not found",
                    "Content-Type": "application/json", "X-Repo-Commit": COMMIT}))
                return
            body = repo_files[fname]
            etag = hashlib.sha256(body).hexdigest()
            self._send(200, body, dict(common, **{
                "ETag": f'"{etag}"', "X-Repo-Commit": COMMIT,
                "Content-Type": "application/octet-stream"}))

        def do_HEAD(self) -> None:
            self._route()

        def do_GET(self) -> None:
            self._route()

        def do_POST(self) -> None:
            # read the body first: left unread on a kept-alive connection, it is parsed as the
            # next request line (seen as a bogus 501 on the sixth set's retried upload)
            self._route(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

        def do_DELETE(self) -> None:
            self._route(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

        do_PUT = do_DELETE  # the thirteenth set's update_repo_settings
        do_PATCH = do_DELETE  # the thirteenth set's change_discussion_status

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


def _hub_env(endpoint: str) -> None:
    os.environ["HF_ENDPOINT"] = endpoint
    os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="hfhome")
    os.environ.setdefault("HF_HUB_ETAG_TIMEOUT", "3")
    os.environ.setdefault("HF_HUB_DOWNLOAD_TIMEOUT", "3")
    os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"


def hub_case(variant: str, api: str) -> None:
    files: dict[str, dict[str, bytes]] = {
        "nofiles": {"README.md": b"# empty\n"},
    }
    if variant == "conn_refused":
        endpoint = f"http://127.0.0.1:{free_port()}"  # nobody listens there
    else:
        endpoint = start_hub(files)
    _hub_env(endpoint)  # before huggingface_hub is imported: it reads HF_ENDPOINT once
    if api in ("model", "model_bin_fallback"):
        d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "bin")
        files["okbin"] = {p.name: p.read_bytes() for p in d.iterdir()}
        files["noweights"] = {"config.json": (d / "config.json").read_bytes()}
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # a malformed / revoked token
    repo = {
        "conn_refused": "irisrl/okbin", "entry404": "irisrl/nofiles",
    }.get(variant, f"irisrl/{variant}")
    revision = "v9.9" if variant == "revision404" else None
    print(f"PROVOKE-NOTE endpoint={endpoint} repo={repo} api={api}", flush=True)
    if api == "download":
        from huggingface_hub import hf_hub_download

        hf_hub_download(repo, "config.json", revision=revision)
    elif api == "snapshot":
        from huggingface_hub import snapshot_download

        snapshot_download(repo, revision=revision)
    elif api == "config":
        from transformers import AutoConfig

        AutoConfig.from_pretrained(repo, revision=revision)
    elif api == "model":
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained(repo, revision=revision)
    elif api == "model_bin_fallback":  # benign: model.safetensors 404 then pytorch_model.bin
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained("irisrl/okbin")
        print("loaded irisrl/okbin from pytorch_model.bin")


def case_hub_dns_model() -> None:
    """The real Hub, unreachable (the device machine is offline): DNS fails, retries, gives up."""
    os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="hfhome")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B-Instruct")


def case_transformers_local_path_missing() -> None:
    _hub_env(start_hub({}))  # before transformers: huggingface_hub reads HF_ENDPOINT on import
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("/checkpoints/run-7/global_step_100/policy")


def case_transformers_relative_path_missing() -> None:
    _hub_env(start_hub({}))
    from transformers import AutoConfig

    AutoConfig.from_pretrained("checkpoints/global_step_100")



# ----------------------------------------------------------------------------- second set
# Cases added for current/heldout2.jsonl (a fresh held-out set; none repeats a v1 case).


def case_triton_compile_error() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def bad_arange(ptr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, 48)  # tl.arange needs a power-of-two range
        tl.store(ptr + offs, 1.0)

    x = torch.zeros(64, device="cuda")
    bad_arange[(1,)](x)
    torch.cuda.synchronize()


def case_triton_out_of_resources() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def big_block(ptr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        a = tl.load(ptr + offs[:, None] * BLOCK + offs[None, :])
        tl.store(ptr + offs[:, None] * BLOCK + offs[None, :], tl.dot(a, a))

    x = torch.zeros(1024 * 1024, device="cuda", dtype=torch.float16)
    big_block[(1,)](x, BLOCK=1024)  # a 1024x1024 fp16 tile: far past shared memory
    torch.cuda.synchronize()


def case_compile_fullgraph_break() -> None:
    import torch

    @torch.compile(fullgraph=True)
    def step(x):  # type: ignore[no-untyped-def]
        if x.sum().item() > 0:  # data-dependent branch: a graph break under fullgraph
            return x * 2
        return x

    step(torch.ones(4))


def case_compile_inductor_error() -> None:
    import torch

    def bad_backend(gm, example_inputs):  # type: ignore[no-untyped-def]
        raise RuntimeError("provoke_failures: backend failed to lower the graph")

    @torch.compile(backend=bad_backend)
    def f(x):  # type: ignore[no-untyped-def]
        return torch.sin(x) + 1

    f(torch.ones(4))


def case_compile_recompile_limit() -> None:
    """Benign: dynamo's recompile-limit warning; the function then runs eagerly."""
    import torch
    import torch._dynamo

    torch._dynamo.config.recompile_limit = 1

    @torch.compile(dynamic=False)
    def f(x):  # type: ignore[no-untyped-def]
        return x * 2

    for dt in (torch.float32, torch.float64, torch.int32, torch.int64):
        f(torch.ones(4, dtype=dt))
    print("recompile-limit case done")


def case_cuda_visible_missing_gpu() -> None:
    os.environ["CUDA_VISIBLE_DEVICES"] = "5"  # the job was told GPU 5; the node has one GPU
    import torch

    torch.zeros(1, device="cuda")


def case_cuda_oom_memory_fraction() -> None:
    import torch

    torch.cuda.set_per_process_memory_fraction(0.01)  # a 1% cap, as a colocated actor sets
    torch.empty(8 * 2**30, dtype=torch.uint8, device="cuda")


def case_alloc_conf_invalid() -> None:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segment:True"  # a typo in the key
    import torch

    torch.zeros(1, device="cuda")


def case_fsdp2_no_process_group() -> None:
    import torch
    from torch.distributed.fsdp import fully_shard

    fully_shard(torch.nn.Linear(8, 8))


def case_dist_rank_out_of_range() -> None:
    import torch.distributed as dist

    dist_env(2, 5, free_port())  # RANK=5 in a world of 2: a templated launcher bug
    dist.init_process_group("gloo")


def case_dist_world_mismatch() -> None:
    """Two processes that disagree on the world size; the store waits for a third."""
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()
    pid = os.fork()
    world = 2 if pid == 0 else 3
    rank = 1 if pid == 0 else 0
    dist_env(world, rank, port)
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    dist.barrier()


def _sigkill_worker(rank: int) -> None:
    if rank == 1:
        time.sleep(1)
        os.kill(os.getpid(), 9)  # the kernel OOM killer's signal
    time.sleep(10)


def case_spawn_child_sigkill() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_sigkill_worker, nprocs=2)


def case_state_dict_size_mismatch() -> None:
    import torch

    big = torch.nn.Linear(16, 32)
    small = torch.nn.Linear(16, 8)
    small.load_state_dict(big.state_dict())


def case_safetensors_shape_mismatch_model() -> None:
    """A checkpoint saved for one config loaded under another (hidden size 8 vs 16)."""
    import json as _json

    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    cfg = _json.loads((d / "config.json").read_text())
    cfg["n_embd"] = 16
    (d / "config.json").write_text(_json.dumps(cfg))
    AutoModelForCausalLM.from_pretrained(d)


def case_weights_only_unsupported_global() -> None:
    import torch

    class RunState:  # a trainer's own object saved next to the weights
        step = 3

    path = Path(tempfile.mkdtemp()) / "state.pt"
    globals()["RunState"] = RunState
    RunState.__module__ = "__main__"
    RunState.__qualname__ = "RunState"
    import __main__

    __main__.RunState = RunState  # type: ignore[attr-defined]
    torch.save({"w": torch.ones(2), "state": RunState()}, path)
    torch.load(path)  # weights_only=True is the default since torch 2.6


def case_transformers_config_invalid_json() -> None:
    from transformers import AutoConfig

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    (d / "config.json").write_text('{"model_type": "gpt2", "n_embd": 8,')  # cut mid-write
    AutoConfig.from_pretrained(d)


def case_transformers_unknown_model_type() -> None:
    import json as _json

    from transformers import AutoConfig

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    cfg = _json.loads((d / "config.json").read_text())
    cfg["model_type"] = "qwen9_moe"  # a model newer than the installed transformers
    (d / "config.json").write_text(_json.dumps(cfg))
    AutoConfig.from_pretrained(d)


def case_tokenizer_missing_files() -> None:
    from transformers import AutoTokenizer

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")  # no tokenizer files
    AutoTokenizer.from_pretrained(d)


def case_nccl_bad_proto_env() -> None:
    import torch
    import torch.distributed as dist

    os.environ.update(NCCL_PROTO="Bogus", NCCL_ALGO="Spiral", NCCL_DEBUG="WARN")
    dist_env(1, 0, free_port())
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    t = torch.ones(4, device="cuda")
    dist.all_reduce(t)
    torch.cuda.synchronize()
    print("all_reduce done", t.sum().item())
    dist.destroy_process_group()


# ----------------------------------------------------------------------------- third set
# Cases added for current/heldout3.jsonl (a third held-out set; none repeats an earlier case).

def _loopback_hub_base() -> type:
    """The handler base the loopback Hubs here share: quiet (its access log is not library
    output), a request id like the Hub's, and the Hub's 404 for a file a repo lacks."""
    from http.server import BaseHTTPRequestHandler

    class LoopbackHub(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _head(self, code: int, headers: dict[str, str], length: int) -> None:
            self.send_response(code)
            self.send_header("X-Request-Id", f"Root=1-{os.urandom(4).hex()}-{os.urandom(12).hex()}")
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(length))
            self.end_headers()

        def _entry_not_found(self) -> None:
            body = b'{"error":"Entry not found"}'
            self._head(404, {"X-Error-Code": "EntryNotFound", "X-Error-Message": "Entry not found",
                             "X-Repo-Commit": COMMIT, "Content-Type": "application/json"}, len(body))
            if self.command != "HEAD":
                self.wfile.write(body)

    return LoopbackHub


def _serve_loopback(handler: type) -> str:
    """Serve `handler` on 127.0.0.1 (an ephemeral port) in a daemon thread; its base URL."""
    from http.server import ThreadingHTTPServer

    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


_HUB3_LOCK = threading.Lock()
_HUB3_SEEN: dict[str, int] = {}


def start_hub3(repos: dict[str, dict[str, bytes]], behaviour: dict[str, str]) -> str:
    """A loopback Hub whose answers go wrong the way a real network does: `behaviour` maps a repo
    name to cutshort (Content-Length larger than the body, then close), stall (no answer for
    20 s), stall_head, flaky (the first GET cut short, a ranged retry answered), bigger_head
    (HEAD announces twice the size GET sends), disabled (403 "Access to this resource is
    disabled."), status410 / status416 / status451."""
    class Hub(_loopback_hub_base()):  # type: ignore[misc]

        def _route(self) -> None:
            path = _as_model_path(self.path.split("?")[0])[0]
            m = re.match(r"^/(?:api/models/)?irisrl/([\w.-]+)(/.*)?$", path)
            name, rest = (m.group(1), m.group(2) or "") if m else ("", "")
            how = behaviour.get(name, "")
            files = repos.get(name, {})
            head = self.command == "HEAD"
            if how.startswith("status") or how == "disabled":
                code = 403 if how == "disabled" else int(how[6:])
                h = {"Content-Type": "application/json"}
                if how == "disabled":
                    h["X-Error-Message"] = "Access to this resource is disabled."
                body = json.dumps({"error": h.get("X-Error-Message", f"HTTP {code}")}).encode()
                self._head(code, h, len(body))
                if not head:
                    self.wfile.write(body)
                return
            if how == "stall_get" and not head and "/resolve/" in rest:
                time.sleep(300)  # HEAD answered, the download never starts
                return
            if how == "stall" or (how == "stall_head" and head):
                time.sleep(20)
                self.close_connection = True
                return
            if path.startswith("/api/models/"):
                if "/tree/" in rest:
                    out: Any = [{"type": "file", "path": f, "size": len(b),
                                 "oid": hashlib.sha1(b).hexdigest()} for f, b in sorted(files.items())]
                else:
                    out = {"id": f"irisrl/{name}", "sha": COMMIT, "private": False,
                           "siblings": [{"rfilename": f} for f in sorted(files)]}
                body = json.dumps(out).encode()
                self._head(200, {"Content-Type": "application/json"}, len(body))
                if not head:
                    self.wfile.write(body)
                return
            fm = re.match(r"^/resolve/[^/]+/(.+)$", rest)
            fname = fm.group(1) if fm else ""
            if fname not in files:
                self._entry_not_found()
                return
            body = files[fname]
            h = {"ETag": f'"{hashlib.sha256(body).hexdigest()}"', "X-Repo-Commit": COMMIT,
                 "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"}
            if head:
                self._head(200, h, 2 * len(body) if how == "bigger_head" else len(body))
                return
            with _HUB3_LOCK:
                n = _HUB3_SEEN[fname] = _HUB3_SEEN.get(fname, 0) + 1
            rng = re.match(r"bytes=(\d+)-", self.headers.get("Range", ""))
            if how == "flaky" and rng:
                start = int(rng.group(1))
                h["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
                self._head(206, h, len(body) - start)
                self.wfile.write(body[start:])
                return
            if how == "cutshort" or (how == "flaky" and n == 1):
                self._head(200, h, len(body))
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self._head(200, h, len(body))
            self.wfile.write(body)

        def do_HEAD(self) -> None:
            self._route()

        def do_GET(self) -> None:
            self._route()

    return _serve_loopback(Hub)


def _big_file() -> bytes:
    return json.dumps({"model_type": "gpt2", "pad": "x" * 400_000}).encode()


def hub3_case(how: str, api: str) -> None:
    repos: dict[str, dict[str, bytes]] = {how: {"config.json": _big_file()}}
    endpoint = start_hub3(repos, {how: how})  # the server reads `repos` as it is filled below
    _hub_env(endpoint)  # before huggingface_hub / transformers are imported
    os.environ["HF_HUB_ETAG_TIMEOUT"] = "3"
    os.environ["HF_HUB_DOWNLOAD_TIMEOUT"] = "3"
    if api == "shards":
        d = Path(tempfile.mkdtemp()) / "sharded"
        from transformers import GPT2Config, GPT2LMHeadModel

        GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=256,
                                   n_positions=32)).save_pretrained(d, max_shard_size="100KB")
        shards = sorted(d.glob("model-*.safetensors"))
        repos[how] = {p.name: p.read_bytes() for p in d.iterdir() if p != shards[-1]}
    repo = f"irisrl/{how}"
    print(f"PROVOKE-NOTE endpoint={endpoint} repo={repo} api={api}", flush=True)
    if api == "download":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "config.json"))
    elif api == "snapshot":
        from huggingface_hub import snapshot_download

        print(snapshot_download(repo))
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        AutoTokenizer.from_pretrained(repo)
    elif api == "shards":
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained(repo)


def case_hub_offline_empty_cache() -> None:
    os.environ.update(HF_HOME=tempfile.mkdtemp(prefix="hfhome"), HF_HUB_OFFLINE="1")
    from huggingface_hub import hf_hub_download

    hf_hub_download("Qwen/Qwen2.5-7B-Instruct", "config.json")


def case_hub_offline_transformers() -> None:
    os.environ.update(HF_HOME=tempfile.mkdtemp(prefix="hfhome"), HF_HUB_OFFLINE="1")
    from transformers import AutoTokenizer

    AutoTokenizer.from_pretrained("Qwen/Qwen2.5-7B-Instruct")


def case_hub_download_full_cache() -> None:
    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    endpoint = start_hub3({"big": {"model.safetensors": os.urandom(2 << 20)}}, {})
    _hub_env(endpoint)
    os.environ["HF_HOME"] = str(mnt / "hf")
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/big", "model.safetensors")


def case_transformers_remote_code_required() -> None:
    d = Path(tempfile.mkdtemp()) / "custom"
    d.mkdir()
    (d / "config.json").write_text(json.dumps({
        "model_type": "irisrl_policy", "auto_map": {
            "AutoConfig": "configuration_policy.PolicyConfig",
            "AutoModelForCausalLM": "modeling_policy.PolicyForCausalLM"}}))
    (d / "configuration_policy.py").write_text(
        "from transformers import PretrainedConfig\n"
        "class PolicyConfig(PretrainedConfig):\n    model_type = 'irisrl_policy'\n")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d)


def case_transformers_local_missing_shard() -> None:
    from transformers import AutoModelForCausalLM, GPT2Config, GPT2LMHeadModel

    d = Path(tempfile.mkdtemp()) / "sharded"
    GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=256,
                               n_positions=32)).save_pretrained(d, max_shard_size="100KB")
    sorted(d.glob("model-*.safetensors"))[-1].unlink()  # one shard never finished uploading
    AutoModelForCausalLM.from_pretrained(d)


def _worker_pair(fn: Callable[[int], None]) -> None:
    pid = os.fork()
    rank = 1 if pid == 0 else 0
    try:
        fn(rank)
    finally:
        if pid == 0:
            os._exit(0)
    os.waitpid(pid, 0)


def case_dist_master_addr_unresolvable() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    os.environ.update(MASTER_ADDR="trainer-0.irisrl-headless.svc.cluster.local",
                      MASTER_PORT="29511", WORLD_SIZE="2", RANK="1")
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))


def case_dist_port_in_use() -> None:
    import torch.distributed as dist

    s = socket.socket()
    s.bind(("0.0.0.0", 0))
    s.listen()
    port = s.getsockname()[1]  # a previous run's rendezvous still holds the port
    dist_env(1, 0, port)
    dist.init_process_group("gloo")


def case_gloo_monitored_barrier_timeout() -> None:
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=30))
        if rank == 1:
            time.sleep(15)  # a rank stuck in its rollout
            return
        dist.monitored_barrier(timeout=timedelta(seconds=4))

    _worker_pair(body)


def case_torchrun_child_raises() -> None:
    sys.exit(subprocess.call([
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
        str(SCRIPT), "child", "raise"]))


def case_torchrun_child_sigkill() -> None:
    sys.exit(subprocess.call([
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
        str(SCRIPT), "child", "sigkill"]))


def child_main(mode: str) -> int:
    """What torchrun starts in the torchrun_child_* cases."""
    rank = int(os.environ.get("RANK", "0"))
    if mode in ("ok", "raise_single", "nccl_dup", "accel"):  # the eighth set's launches
        return _child8(mode, rank)
    if rank == 1:
        time.sleep(1)
        if mode == "xcpu":
            _limit_fault(mode)
        if mode == "raise":
            raise KeyError("advantages")  # a trainer bug: a batch without the advantage column
        if mode == "sigkill":
            os.kill(os.getpid(), 9)
        if mode == "sigterm":
            os.kill(os.getpid(), 15)
        if mode in ("segv", "bus", "abort"):  # the sixth set: real faults, not kill(2)
            _real_fault(mode)
        if mode in ("sigill", "sigfpe"):  # the eleventh set: the faults' signals by kill(2)
            import signal

            os.kill(os.getpid(), getattr(signal, mode.upper()))
    if mode == "sleep":  # the launcher is the one stopped (torchrun_agent_sigterm)
        time.sleep(60)
    time.sleep(8)
    return 0


def _child8(mode: str, rank: int) -> int:
    """The eighth set's launched children: a healthy one, one that raises, NCCL on the device
    LOCAL_RANK names (two ranks on one GPU), an Accelerator's all-reduce."""
    import torch

    if mode == "raise_single":
        raise KeyError("advantages")
    if mode == "nccl_dup":
        import torch.distributed as dist

        dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
        t = torch.ones(4, device="cuda")
        dist.all_reduce(t)
        torch.cuda.synchronize()
    if mode == "accel":
        from accelerate import Accelerator

        acc = Accelerator()
        print(acc.reduce(torch.ones(4, device=acc.device)))
    print(f"rank {rank} done", flush=True)
    return 0


def _nccl_env_case(**env: str) -> None:
    import torch
    import torch.distributed as dist

    os.environ.update({"NCCL_DEBUG": "WARN", **env})  # env may set NCCL_DEBUG itself
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    t = torch.ones(4, device="cuda")
    dist.all_reduce(t)
    torch.cuda.synchronize()
    print("all_reduce done", t.sum().item())
    dist.destroy_process_group()


def case_nccl_net_ib_forced() -> None:
    _nccl_env_case(NCCL_NET="IB")


def case_nccl_ib_hca_missing() -> None:
    _nccl_env_case(NCCL_NET="IB", NCCL_IB_HCA="=mlx5_99:1")


def case_nccl_net_plugin_missing() -> None:
    _nccl_env_case(NCCL_NET_PLUGIN="aws-ofi-irisrl", NCCL_NET="AWS Libfabric")


def case_nccl_socket_family_bad() -> None:
    _nccl_env_case(NCCL_SOCKET_FAMILY="AF_INET6", NCCL_SOCKET_IFNAME="lo")


_CUPY3_SRC = r"""
extern "C" __global__ void heavy(float* p) {
  float r[64];
  #pragma unroll
  for (int i = 0; i < 64; i++) r[i] = p[threadIdx.x + i] * (i + 1);
  float s = 0;
  #pragma unroll
  for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) s += r[i] * r[j] + r[(i * j) % 64];
  p[threadIdx.x] = s;
}
extern "C" __global__ void trap_kernel(float* p) { __trap(); }
extern "C" __global__ void noop(float* p) { }
"""


def case_cuda_launch_out_of_resources() -> None:
    import cupy as cp

    a = cp.zeros(4096, dtype=cp.float32)
    k = cp.RawKernel(_CUPY3_SRC, "heavy", options=("-maxrregcount=255",))
    print("registers per thread:", k.attributes["num_regs"], flush=True)
    k((1,), (1024,), (a,))
    cp.cuda.Device().synchronize()


def case_cuda_invalid_config_cupy() -> None:
    import cupy as cp

    a = cp.zeros(4, dtype=cp.float32)
    cp.RawKernel(_CUPY3_SRC, "noop")((1,), (2048,), (a,))  # more than 1024 threads a block
    cp.cuda.Device().synchronize()


def case_cuda_trap_cupy() -> None:
    import cupy as cp
    import torch

    torch.zeros(1, device="cuda")
    a = cp.zeros(4, dtype=cp.float32)
    cp.RawKernel(_CUPY3_SRC, "trap_kernel")((1,), (1,), (a,))
    torch.cuda.synchronize()


def case_triton_grid_too_large() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def fill(ptr):  # type: ignore[no-untyped-def]
        tl.store(ptr + tl.program_id(1) * 0, 1.0)

    x = torch.zeros(4, device="cuda")
    fill[(1, 100_000)](x)  # grid y past 65535
    torch.cuda.synchronize()


def case_triton_too_many_warps() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def fill(ptr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        tl.store(ptr + offs, 1.0)

    x = torch.zeros(4096, device="cuda")
    fill[(1,)](x, BLOCK=4096, num_warps=64)  # 2048 threads
    torch.cuda.synchronize()


def _fill_gpu(leave: int) -> list[Any]:
    """Hold all but about `leave` bytes of the GPU through torch (1 GiB, then 2 MiB chunks)."""
    import torch

    held: list[Any] = []
    for chunk in (1 << 30, 2 << 20):
        while torch.cuda.mem_get_info()[0] > leave + chunk:
            try:
                held.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
            except torch.OutOfMemoryError:
                break
    print("free after fill:", torch.cuda.mem_get_info()[0], flush=True)
    return held


def case_cublas_alloc_failed() -> None:
    import torch

    a = torch.randn(64, 64, device="cuda")
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":0:0"
    held = _fill_gpu(2 << 20)
    print(len(held), (a @ a).sum().item())


def case_cudnn_no_memory() -> None:
    import torch

    x = torch.randn(8, 64, 64, 64, device="cuda")
    conv = torch.nn.Conv2d(64, 64, 3).cuda()
    held = _fill_gpu(1 << 20)
    print(len(held), conv(x).sum().item())


def case_multinomial_nan_cuda() -> None:
    import torch

    probs = torch.softmax(torch.tensor([[1.0, float("nan"), 2.0]], device="cuda"), -1)
    print(torch.multinomial(probs, 1).item())  # a policy whose logits went NaN


def case_multinomial_nan_cpu() -> None:
    import torch

    probs = torch.tensor([[0.5, float("inf"), 0.2]])
    print(torch.multinomial(probs, 1).item())


def case_host_oom_rlimit() -> None:
    import resource

    import torch

    resource.setrlimit(resource.RLIMIT_AS, (16 << 30, 16 << 30))
    buf = torch.empty(32 << 30, dtype=torch.uint8)  # a CPU-offloaded optimizer state
    print(buf.shape)


def case_host_oom_python() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    rows = [bytearray(256 << 20) for _ in range(64)]  # a dataset read into memory
    print(len(rows))


def case_host_bad_alloc() -> None:
    import resource

    import numpy as np
    import torch

    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
    t = torch.from_numpy(np.zeros(1 << 20, dtype=np.float32))
    print(t.repeat(4096, 4).sum())  # 64 GiB from a C++ op


def case_pinned_memory_too_large() -> None:
    import torch

    buf = torch.empty(400 << 30, dtype=torch.uint8, pin_memory=True)  # more than host RAM
    print(buf.shape)


def case_sigbus_truncated_mmap() -> None:
    import torch
    from safetensors import safe_open
    from safetensors.torch import save_file

    path = Path(tempfile.mkdtemp()) / "model.safetensors"
    save_file({"w": torch.ones(1 << 22)}, str(path))
    with safe_open(str(path), framework="np") as f:
        os.truncate(path, 4096)  # another process rewrites the checkpoint under the reader
        print(f.get_tensor("w").sum())


def case_numpy_memmap_truncated() -> None:
    import faulthandler
    import mmap

    faulthandler.enable()
    path = Path(tempfile.mkdtemp()) / "shard.bin"
    path.write_bytes(b"\0" * (8 << 20))
    with open(path, "r+b") as fh:
        m = mmap.mmap(fh.fileno(), 0)
        os.truncate(path, 4096)
        print(sum(m[i] for i in range(0, 8 << 20, 4096)))


def case_disk_full_sqlite() -> None:
    import sqlite3

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    db = sqlite3.connect(str(mnt / "metrics.db"))
    db.execute("CREATE TABLE m (step INTEGER, blob BLOB)")
    for i in range(1000):
        db.execute("INSERT INTO m VALUES (?, ?)", (i, os.urandom(8192)))
        db.commit()


def case_disk_full_shutil_copy() -> None:
    import shutil

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    src = Path(tempfile.mkdtemp()) / "model.safetensors"
    src.write_bytes(os.urandom(1 << 20))
    shutil.copy(src, mnt / "model.safetensors")


def case_disk_full_numpy_save() -> None:
    import numpy as np

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    np.save(mnt / "rollouts.npy", np.zeros(1 << 20))


def case_disk_full_file_size_limit() -> None:
    import resource

    import torch

    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
    torch.save({"w": torch.zeros(1 << 22)}, Path(tempfile.mkdtemp()) / "ckpt.pt")


def case_state_dict_missing_keys() -> None:
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    sd = model.state_dict()
    del sd["2.bias"]
    sd["2.lora_A"] = torch.zeros(2)
    model.load_state_dict(sd)


def case_torch_load_bad_crc() -> None:
    import torch

    path = Path(tempfile.mkdtemp()) / "ckpt.pt"
    torch.save({"w": torch.arange(4096, dtype=torch.float32)}, path)
    data = bytearray(path.read_bytes())
    import struct

    i = data.find(struct.pack("<f", 1000.0))  # element 1000 of the tensor's own bytes
    assert i > 0
    data[i + 3] ^= 0x40  # a bit flipped inside the tensor record: its CRC no longer matches
    path.write_bytes(bytes(data))
    print(torch.load(path)["w"].sum())


def case_torch_load_corrupt_pickle() -> None:
    import torch

    path = Path(tempfile.mkdtemp()) / "ckpt.pt"
    torch.save({"w": torch.ones(8)}, path)
    data = bytearray(path.read_bytes())
    i = data.find(b"data.pkl") + len(b"data.pkl")
    i = data.find(b"\x80", i)  # the pickle's PROTO opcode: its first bytes overwritten
    data[i:i + 16] = b"\x00" * 16
    path.write_bytes(bytes(data))
    torch.load(path)


def case_torch_load_numpy_global() -> None:
    import numpy as np
    import torch

    path = Path(tempfile.mkdtemp()) / "rng_state.pt"
    torch.save({"np_rng": np.random.get_state(), "step": 100}, path)
    torch.load(path)


def case_torch_load_cuda_no_gpu() -> None:
    import torch

    path = Path(tempfile.mkdtemp()) / "ckpt.pt"
    torch.save({"w": torch.ones(4, device="cuda")}, path)
    code = f"import torch; torch.load({str(path)!r})"
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    sys.exit(subprocess.call([sys.executable, "-c", code], env=env))


def case_gloo_peer_gone_midrun() -> None:
    """Rank 1 dies after step 1; rank 0's next all_reduce finds the connection closed."""
    port = free_port()

    def body(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo")
        x = torch.ones(4)
        dist.all_reduce(x)
        if rank == 1:
            os._exit(1)
        time.sleep(1)
        dist.all_reduce(x)

    _worker_pair(body)


def case_dist_not_initialized() -> None:
    import torch
    import torch.distributed as dist

    dist.all_reduce(torch.ones(4))  # a trainer run without its launcher


def case_benign_gloo_peer_gone_teardown() -> None:
    """Benign: the last step done, rank 1 exits at once; rank 0 tears down and exits 0."""
    port = free_port()

    def body(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo")
        x = torch.ones(4)
        dist.all_reduce(x)
        if rank == 1:
            os._exit(0)
        time.sleep(2)
        dist.destroy_process_group()
        print("training done", x.sum().item())

    _worker_pair(body)


def case_benign_newly_initialized() -> None:
    import torch
    from transformers import AutoModelForSequenceClassification

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    m = AutoModelForSequenceClassification.from_pretrained(d, num_labels=1)  # a reward model head
    print(type(m).__name__, sum(p.numel() for p in m.parameters()), torch.__version__)


def case_benign_generate_warnings() -> None:
    import torch
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    m = AutoModelForCausalLM.from_pretrained(d)
    out = m.generate(torch.tensor([[1, 2, 3]]), max_new_tokens=4, do_sample=True,
                     temperature=0.7, top_k=0)
    print(out.tolist())


# ----------------------------------------------------------------------------- the fourth set


def case_compile_item_graph_break() -> None:
    import torch

    @torch.compile(fullgraph=True)
    def step(x: Any) -> Any:
        scale = x.abs().max().item()  # a Python number out of the graph: a break under fullgraph
        return x / scale

    step(torch.randn(16))


def case_compile_dynamic_constraint() -> None:
    import torch

    @torch.compile
    def pad_to_eight(x: Any) -> Any:
        if x.shape[0] == 8:  # specializes the dim that was marked dynamic
            return x
        return torch.nn.functional.pad(x, (0, 0, 0, 8 - x.shape[0]))

    x = torch.randn(8, 4)
    torch._dynamo.mark_dynamic(x, 0)
    pad_to_eight(x)


def case_compile_error_on_recompile() -> None:
    import torch

    torch._dynamo.config.error_on_recompile = True

    @torch.compile
    def loss(x: Any, n: int) -> Any:
        return (x * n).sum()

    loss(torch.randn(4), 1)
    loss(torch.randn(4), 2)  # a new constant: a guard fails, a recompile is an error


def case_compile_no_cxx() -> None:
    import torch
    import torch._inductor.config as icfg

    icfg.cpp.cxx = ("/opt/toolchain/bin/g++-missing",)  # an image without a C++ compiler

    @torch.compile
    def f(x: Any) -> Any:
        return torch.sin(x) * 2 + 1

    f(torch.randn(64))


def case_compile_autotune_gpu_full() -> None:
    import torch

    keep = _fill_gpu(256 << 20)
    f = torch.compile(lambda a, b: torch.relu(a @ b), mode="max-autotune-no-cudagraphs")
    a = torch.randn(2048, 2048, device="cuda")
    print(f(a, a).sum().item(), len(keep))


def case_cuda_graph_capture_sync() -> None:
    import torch

    x = torch.ones(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x * 2
        if y.sum().item() > 0:  # a host sync inside capture
            y = y + 1


def case_cuda_graph_default_stream() -> None:
    import torch

    x = torch.ones(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    g.capture_begin()  # on the default stream, without torch.cuda.graph's side stream
    x.mul_(2)
    g.capture_end()


def case_anomaly_nan_backward() -> None:
    import torch

    torch.autograd.set_detect_anomaly(True)
    w = torch.tensor([-1.0, 4.0], requires_grad=True)
    torch.sqrt(w).sum().backward()


def case_assert_async_cuda() -> None:
    import torch

    loss = torch.tensor(float("nan"), device="cuda")
    torch._assert_async(torch.isfinite(loss))
    torch.cuda.synchronize()


def case_assert_async_cpu() -> None:
    import torch

    torch._assert_async(torch.isfinite(torch.tensor(float("inf"))))


def case_clip_grad_nonfinite() -> None:
    import torch

    m = torch.nn.Linear(4, 1)
    m(torch.full((2, 4), float("inf"))).sum().backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)


def case_spawn_pickle_lambda() -> None:
    import multiprocessing as mp

    p = mp.get_context("spawn").Process(target=lambda: print("rollout"))
    p.start()
    p.join()


def _sigterm_worker(rank: int) -> None:
    if rank == 1:
        time.sleep(1)
        os.kill(os.getpid(), 15)  # preemption: the node agent's SIGTERM
    time.sleep(10)


def case_spawn_child_sigterm() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_sigterm_worker, nprocs=2)


def _exit3_worker(rank: int) -> None:
    if rank == 0:
        sys.exit(3)
    time.sleep(10)


def case_spawn_child_exit_code() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_exit3_worker, nprocs=2)


def case_torchrun_child_sigterm() -> None:
    sys.exit(subprocess.call([
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
        str(SCRIPT), "child", "sigterm"]))


def case_torchrun_agent_sigterm() -> None:
    """The launcher itself is told to stop (a preempted node): torchrun gets SIGTERM."""
    p = subprocess.Popen([
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
        str(SCRIPT), "child", "sleep"])
    time.sleep(8)
    p.send_signal(15)
    sys.exit(p.wait(timeout=60))


class _KillingDataset:
    """Item 5 kills its own worker (the kernel's OOM killer, as a DataLoader sees it)."""

    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> Any:
        import torch

        if i == 5:
            os.kill(os.getpid(), 9)
        time.sleep(0.05)
        return torch.zeros(4)


class _RaisingDataset:
    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> Any:
        import torch

        row = {"prompt": torch.zeros(4)}
        return row["prompt"] + row["reward"]  # a sample without its reward column


class _SlowDataset:
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> Any:
        import torch

        time.sleep(30)
        return torch.zeros(4)


class _BigDataset:
    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> Any:
        import torch

        return torch.ones(4 << 20)  # 16 MiB a sample: through /dev/shm to the main process


def _iterate(ds: Any, **kw: Any) -> None:
    from torch.utils.data import DataLoader

    n = 0
    for batch in DataLoader(ds, batch_size=4, **kw):
        n += int(batch.shape[0])
    print("samples", n)


def case_dataloader_worker_killed() -> None:
    _iterate(_KillingDataset(), num_workers=2)


def case_dataloader_worker_raises() -> None:
    _iterate(_RaisingDataset(), num_workers=2)


def case_dataloader_timeout() -> None:
    _iterate(_SlowDataset(), num_workers=1, timeout=3)


def case_dataloader_small_shm() -> None:
    """/dev/shm of 2 MiB (a container's default is 64 MiB), in a mount namespace of its own."""
    if os.environ.get("PROVOKE_IN_NS") != "1":
        cmd = ("mount -t tmpfs -o size=2m tmpfs /dev/shm && "
               f'PROVOKE_IN_NS=1 exec "{sys.executable}" "{SCRIPT}" case dataloader_small_shm')
        # (the re-exec runs this same function: the sharing strategy travels in the env)
        rc = subprocess.call(["unshare", "--mount", "--propagation", "private", "bash", "-c", cmd])
        print(f"PROVOKE-NOTE unshare rc={rc}", flush=True)
        sys.exit(rc)
    if os.environ.get("PROVOKE_SHARING") == "file_system":
        import torch.multiprocessing as tmp

        tmp.set_sharing_strategy("file_system")
    _iterate(_BigDataset(), num_workers=2)


def case_dataloader_small_shm_fs() -> None:
    """As dataloader_small_shm, with torch's `file_system` sharing strategy."""
    os.environ["PROVOKE_SHARING"] = "file_system"
    case_dataloader_small_shm()


def case_dataloader_emfile() -> None:
    import resource

    import torch.multiprocessing as tmp

    tmp.set_sharing_strategy("file_descriptor")
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    from torch.utils.data import DataLoader, Dataset

    class Many(Dataset):  # type: ignore[misc,type-arg,unused-ignore]
        def __len__(self) -> int:
            return 4096

        def __getitem__(self, i: int) -> Any:
            import torch

            return [torch.zeros(2) for _ in range(8)]

    kept = [b for b in DataLoader(Many(), batch_size=4, num_workers=2)]  # a trainer keeps batches
    print(len(kept))


def _dcp_save(d: Path, sd: dict[str, Any]) -> None:
    import torch.distributed.checkpoint as dcp

    dcp.save(sd, checkpoint_id=str(d))


def case_dcp_load_missing_key() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    d = Path(tempfile.mkdtemp()) / "step_100"
    _dcp_save(d, {"model.w": torch.zeros(4)})
    sd = {"model.w": torch.empty(4), "optim.exp_avg": torch.empty(4)}  # a newer trainer's keys
    dcp.load(sd, checkpoint_id=str(d))


def case_dcp_load_shape_mismatch() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    d = Path(tempfile.mkdtemp()) / "step_100"
    _dcp_save(d, {"model.w": torch.zeros(4, 8)})
    dcp.load({"model.w": torch.empty(8, 8)}, checkpoint_id=str(d))


def case_dcp_metadata_truncated() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    d = Path(tempfile.mkdtemp()) / "step_100"
    _dcp_save(d, {"model.w": torch.zeros(64)})
    meta = d / ".metadata"
    meta.write_bytes(meta.read_bytes()[:40])  # the writer died mid-file
    dcp.load({"model.w": torch.empty(64)}, checkpoint_id=str(d))


def case_dtensor_mixed_tensor() -> None:
    import torch
    import torch.distributed as dist
    from torch.distributed.tensor import Shard, distribute_tensor, init_device_mesh

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    mesh = init_device_mesh("cpu", (1,))
    w = distribute_tensor(torch.randn(8, 4), mesh, [Shard(0)])
    print(w + torch.randn(8, 4))  # a plain tensor into a DTensor op


def case_dtensor_bad_shard_dim() -> None:
    import torch
    import torch.distributed as dist
    from torch.distributed.tensor import Shard, distribute_tensor, init_device_mesh

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    mesh = init_device_mesh("cpu", (1,))
    distribute_tensor(torch.randn(8), mesh, [Shard(2)])  # a 1-d tensor sharded on dim 2


def case_nccl_cpu_tensor() -> None:
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    torch.cuda.set_device(0)
    dist.init_process_group("nccl")
    dist.all_reduce(torch.ones(4))  # a metric left on the CPU, reduced over NCCL only


def _tiny_tokenizer_dir(path: Path, pad: bool) -> Path:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {w: i for i, w in enumerate(["<unk>", "<eos>", "hello", "world", "the", "a"])}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<eos>",
                                   **({"pad_token": "<eos>"} if pad else {}))
    fast.save_pretrained(path)
    return path


def case_chat_template_missing() -> None:
    from transformers import AutoTokenizer

    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    tok = AutoTokenizer.from_pretrained(d)
    tok.apply_chat_template([{"role": "user", "content": "hello world"}], tokenize=False)


def case_tokenizer_no_pad_token() -> None:
    from transformers import AutoTokenizer

    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=False)
    tok = AutoTokenizer.from_pretrained(d)
    tok(["hello world", "the"], padding=True, return_tensors="pt")


def case_generate_past_max_positions() -> None:
    import torch
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")  # n_positions=16
    m = AutoModelForCausalLM.from_pretrained(d)
    m.generate(torch.tensor([[1, 2, 3, 4]]), max_new_tokens=40, do_sample=False)


def case_adapter_config_missing() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    adapter = Path(tempfile.mkdtemp()) / "lora-step-200"
    adapter.mkdir()
    (adapter / "adapter_model.safetensors").write_bytes(b"")  # the config never uploaded
    m = AutoModelForCausalLM.from_pretrained(d)
    m.load_adapter(str(adapter))


def _st_lie(header: dict[str, Any], data: bytes) -> str:
    h = json.dumps(header).encode()
    return _st_file(len(h).to_bytes(8, "little") + h + data)


def case_safetensors_dtype_unknown() -> None:
    from safetensors.torch import load_file

    load_file(_st_lie({"w": {"dtype": "F33", "shape": [4], "data_offsets": [0, 16]}}, bytes(16)))


def case_safetensors_shape_lie() -> None:
    from safetensors.torch import load_file

    # shape says 8 floats (32 bytes), the offsets hold 16 bytes
    load_file(_st_lie({"w": {"dtype": "F32", "shape": [8], "data_offsets": [0, 16]}}, bytes(16)))


def case_safetensors_offsets_past_end() -> None:
    from safetensors.torch import load_file

    load_file(_st_lie({"w": {"dtype": "F32", "shape": [64], "data_offsets": [0, 256]}},
                      bytes(64)))


def case_hf_transfer_missing() -> None:
    """HF_HUB_ENABLE_HF_TRANSFER=1 where hf_transfer is not installed (a copied launch env)."""
    os.environ["HF_HUB_ENABLE_HF_TRANSFER"] = "1"
    endpoint = start_hub({"okbin": {"config.json": b"{}"}})
    _hub_env(endpoint)
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/okbin", "config.json"))


def case_cuda_fork_reinit() -> None:
    import torch

    torch.zeros(1, device="cuda")  # the parent touched CUDA first
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            torch.zeros(1, device="cuda")  # a forked rollout worker
        except Exception:
            import traceback

            traceback.print_exc()
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))


def case_safetensors_shared_tensors() -> None:
    import torch
    from safetensors.torch import save_file

    emb = torch.zeros(32, 8)
    save_file({"wte.weight": emb, "lm_head.weight": emb}, tempfile.mktemp(suffix=".safetensors"))


def case_benign_anomaly_enabled() -> None:
    import torch

    with torch.autograd.detect_anomaly():
        w = torch.ones(2, requires_grad=True)
        (w * 2).sum().backward()
    print(w.grad)


# ----------------------------------------------------------------------------- registry

# case -> (function, kind of its failure lines, needs the GPU)
Case = tuple[Callable[[], None], str, bool]
CASES: dict[str, Case] = {
    "cuda_oom_single": (case_cuda_oom_single, "cuda_oom", True),
    "cuda_oom_fill": (case_cuda_oom_fill, "cuda_oom", True),
    "cuda_assert_gather": (case_cuda_assert_gather, "cuda_error", True),
    "cuda_assert_embedding": (case_cuda_assert_embedding, "cuda_error", True),
    "cuda_assert_nll_loss": (case_cuda_assert_nll_loss, "cuda_error", True),
    "cuda_illegal_address_triton": (case_cuda_illegal_address_triton, "cuda_error", True),
    "cuda_misaligned_triton": (case_cuda_misaligned_triton, "cuda_error", True),
    "cuda_misaligned_cupy": (case_cuda_misaligned_cupy, "cuda_error", True),
    "cuda_illegal_address_cupy": (case_cuda_illegal_address_cupy, "cuda_error", True),
    "cuda_invalid_device": (case_cuda_invalid_device, "cuda_error", True),
    "cuda_no_device": (case_cuda_no_device, "cuda_error", False),
    "nccl_watchdog_timeout": (case_nccl_watchdog_timeout, "nccl_timeout", True),
    "nccl_bad_ifname": (case_nccl_bad_ifname, "nccl_error", True),
    "nccl_duplicate_gpu": (case_nccl_duplicate_gpu, "nccl_error", True),
    "nccl_ok_info": (case_nccl_ok_info, "benign", True),
    "dist_store_timeout": (case_dist_store_timeout, "dist_timeout", False),
    "dist_store_connect_timeout": (case_dist_store_connect_timeout, "dist_timeout", False),
    "gloo_collective_timeout": (case_gloo_collective_timeout, "dist_timeout", False),
    "torchrun_rendezvous_timeout": (case_torchrun_rendezvous_timeout, "dist_timeout", False),
    "disk_full_torch_save_tmpfs": (case_disk_full_torch_save_tmpfs, "disk_full", False),
    "disk_full_torch_save_big": (case_disk_full_torch_save_big, "disk_full", False),
    "hub_dns_model": (case_hub_dns_model, "hf_http_error", False),
    "disk_full_torch_save_devfull": (case_disk_full_torch_save_devfull, "disk_full", False),
    "disk_full_python_write": (case_disk_full_python_write, "disk_full", False),
    "disk_full_dcp_save": (case_disk_full_dcp_save, "disk_full", False),
    "disk_full_safetensors_save": (case_disk_full_safetensors_save, "disk_full", False),
    "disk_full_save_pretrained": (case_disk_full_save_pretrained, "disk_full", False),
    "safetensors_header_too_large": (case_safetensors_header_too_large, "checkpoint_corrupt", False),
    "safetensors_header_too_small": (case_safetensors_header_too_small, "checkpoint_corrupt", False),
    "safetensors_invalid_header": (case_safetensors_invalid_header, "checkpoint_corrupt", False),
    "safetensors_truncated": (case_safetensors_truncated, "checkpoint_corrupt", False),
    "transformers_truncated_safetensors": (
        case_transformers_truncated_safetensors, "checkpoint_corrupt", False),
    "transformers_garbage_bin": (case_transformers_garbage_bin, "checkpoint_corrupt", False),
    "torch_load_truncated": (case_torch_load_truncated, "checkpoint_corrupt", False),
    "torch_load_garbage": (case_torch_load_garbage, "checkpoint_corrupt", False),
    "torch_load_empty": (case_torch_load_empty, "checkpoint_corrupt", False),
    "torch_load_zeroed_tail": (case_torch_load_zeroed_tail, "checkpoint_corrupt", False),
    "py_segfault": (case_py_segfault, "python_crash", False),
    "py_abort": (case_py_abort, "python_crash", False),
    "py_uncaught_torch": (case_py_uncaught_torch, "python_crash", False),
    "spawn_child_exception": (case_spawn_child_exception, "python_crash", False),
    "cpp_terminate": (case_cpp_terminate, "python_crash", False),
    "benign_warnings": (case_benign_warnings, "benign", True),
    "transformers_local_path_missing": (
        case_transformers_local_path_missing, "hf_repo_not_found", False),
    "transformers_relative_path_missing": (
        case_transformers_relative_path_missing, "hf_repo_not_found", False),
}

HUB_KIND = {
    "gated401": "hf_gated", "gated403": "hf_gated", "badtoken401": "hf_gated",
    "forbidden403": "hf_gated", "missing401": "hf_repo_not_found",
    "missing404": "hf_repo_not_found", "revision404": "hf_repo_not_found",
    "entry404": "hf_weights_missing", "status429": "hf_http_error",
    "status500": "hf_http_error", "status502": "hf_http_error", "status503": "hf_http_error",
    "conn_refused": "hf_http_error",
}
for _v, _k in HUB_KIND.items():
    for _api in ("download", "snapshot", "config"):
        if (_v, _api) == ("entry404", "snapshot"):  # snapshot fetches only listed files
            continue
        CASES[f"hub_{_v}_{_api}"] = (partial(hub_case, _v, _api), _k, False)
for _v in ("gated403", "missing404", "revision404", "status503"):
    CASES[f"hub_{_v}_model"] = (partial(hub_case, _v, "model"), HUB_KIND[_v], False)
CASES["hub_noweights_model"] = (
    partial(hub_case, "noweights", "model"), "hf_weights_missing", False)
CASES["hub_bin_fallback_model"] = (
    partial(hub_case, "okbin", "model_bin_fallback"), "benign", False)
CASES["noop"] = (case_noop, "benign", False)

# The second set (current/heldout2.jsonl only; never split into dev / heldout).
CASES2: dict[str, Case] = {
    "triton_compile_error": (case_triton_compile_error, "python_crash", True),
    "triton_out_of_resources": (case_triton_out_of_resources, "python_crash", True),
    "compile_fullgraph_break": (case_compile_fullgraph_break, "python_crash", False),
    "compile_backend_error": (case_compile_inductor_error, "python_crash", False),
    "compile_recompile_limit": (case_compile_recompile_limit, "benign", False),
    "cuda_visible_missing_gpu": (case_cuda_visible_missing_gpu, "cuda_error", False),
    "cuda_oom_memory_fraction": (case_cuda_oom_memory_fraction, "cuda_oom", True),
    "alloc_conf_invalid": (case_alloc_conf_invalid, "python_crash", True),
    "fsdp2_no_process_group": (case_fsdp2_no_process_group, "python_crash", False),
    "dist_rank_out_of_range": (case_dist_rank_out_of_range, "python_crash", False),
    "dist_world_mismatch": (case_dist_world_mismatch, "dist_timeout", False),
    "spawn_child_sigkill": (case_spawn_child_sigkill, "python_crash", False),
    "state_dict_size_mismatch": (case_state_dict_size_mismatch, "python_crash", False),
    "safetensors_shape_mismatch_model": (
        case_safetensors_shape_mismatch_model, "python_crash", False),
    "weights_only_unsupported_global": (
        case_weights_only_unsupported_global, "checkpoint_corrupt", False),
    "transformers_config_invalid_json": (
        case_transformers_config_invalid_json, "python_crash", False),
    "transformers_unknown_model_type": (
        case_transformers_unknown_model_type, "python_crash", False),
    "tokenizer_missing_files": (case_tokenizer_missing_files, "python_crash", False),
    "nccl_bad_proto_env": (case_nccl_bad_proto_env, "nccl_error", True),
}
CASES.update(CASES2)

# The third set (current/heldout3.jsonl only).
CASES3: dict[str, Case] = {
    "hub_cutshort_download": (partial(hub3_case, "cutshort", "download"),
                              "hf_incomplete_download", False),
    "hub_flaky_download": (partial(hub3_case, "flaky", "download"), "benign", False),
    "hub_bigger_head_download": (partial(hub3_case, "bigger_head", "download"),
                                 "hf_incomplete_download", False),
    "hub_stall_download": (partial(hub3_case, "stall", "download"), "hf_http_error", False),
    "hub_stall_head_snapshot": (partial(hub3_case, "stall_head", "snapshot"),
                                "hf_http_error", False),
    "hub_disabled_download": (partial(hub3_case, "disabled", "download"),
                              "hf_repo_not_found", False),
    "hub_stall_get_download": (partial(hub3_case, "stall_get", "download"),
                               "hf_http_error", False),
    "hub_status416_download": (partial(hub3_case, "status416", "download"),
                               "hf_http_error", False),
    "hub_status451_snapshot": (partial(hub3_case, "status451", "snapshot"),
                               "hf_gated", False),
    "hub_missing_shard_model": (partial(hub3_case, "missingshard", "shards"),
                                "hf_weights_missing", False),
    "hub_tokenizer_config_only": (partial(hub3_case, "configonly", "tokenizer"),
                                  "hf_weights_missing", False),
    "hub_offline_empty_cache": (case_hub_offline_empty_cache, "hf_http_error", False),
    "hub_offline_transformers": (case_hub_offline_transformers, "hf_http_error", False),
    "hub_download_full_cache": (case_hub_download_full_cache, "disk_full", False),
    "transformers_remote_code_required": (
        case_transformers_remote_code_required, "python_crash", False),
    "transformers_local_missing_shard": (
        case_transformers_local_missing_shard, "hf_weights_missing", False),
    "dist_master_addr_unresolvable": (case_dist_master_addr_unresolvable, "dist_timeout", False),
    "dist_port_in_use": (case_dist_port_in_use, "python_crash", False),
    "gloo_monitored_barrier_timeout": (case_gloo_monitored_barrier_timeout, "dist_timeout", False),
    "gloo_peer_gone_midrun": (case_gloo_peer_gone_midrun, "python_crash", False),
    "dist_not_initialized": (case_dist_not_initialized, "python_crash", False),
    "torchrun_child_raises": (case_torchrun_child_raises, "python_crash", False),
    "torchrun_child_sigkill": (case_torchrun_child_sigkill, "python_crash", False),
    "nccl_net_ib_forced": (case_nccl_net_ib_forced, "nccl_error", True),
    "nccl_ib_hca_missing": (case_nccl_ib_hca_missing, "nccl_error", True),
    "nccl_net_plugin_missing": (case_nccl_net_plugin_missing, "nccl_error", True),
    "nccl_socket_family_bad": (case_nccl_socket_family_bad, "nccl_error", True),
    "cuda_launch_out_of_resources": (case_cuda_launch_out_of_resources, "cuda_error", True),
    "cuda_invalid_config_cupy": (case_cuda_invalid_config_cupy, "cuda_error", True),
    "cuda_trap_cupy": (case_cuda_trap_cupy, "cuda_error", True),
    "triton_grid_too_large": (case_triton_grid_too_large, "cuda_error", True),
    "triton_too_many_warps": (case_triton_too_many_warps, "python_crash", True),
    "cublas_alloc_failed": (case_cublas_alloc_failed, "cuda_oom", True),
    "cudnn_no_memory": (case_cudnn_no_memory, "cuda_oom", True),
    "multinomial_nan_cuda": (case_multinomial_nan_cuda, "cuda_error", True),
    "multinomial_nan_cpu": (case_multinomial_nan_cpu, "python_crash", False),
    "host_oom_rlimit": (case_host_oom_rlimit, "python_crash", False),
    "host_oom_python": (case_host_oom_python, "python_crash", False),
    "host_bad_alloc": (case_host_bad_alloc, "python_crash", False),
    "pinned_memory_too_large": (case_pinned_memory_too_large, "cuda_oom", True),
    "sigbus_truncated_mmap": (case_sigbus_truncated_mmap, "python_crash", False),
    "mmap_truncated": (case_numpy_memmap_truncated, "python_crash", False),
    "disk_full_sqlite": (case_disk_full_sqlite, "disk_full", False),
    "disk_full_shutil_copy": (case_disk_full_shutil_copy, "disk_full", False),
    "disk_full_numpy_save": (case_disk_full_numpy_save, "disk_full", False),
    "file_size_limit_torch_save": (case_disk_full_file_size_limit, "python_crash", False),
    "state_dict_missing_keys": (case_state_dict_missing_keys, "python_crash", False),
    "torch_load_bad_crc": (case_torch_load_bad_crc, "checkpoint_corrupt", False),
    "torch_load_corrupt_pickle": (case_torch_load_corrupt_pickle, "checkpoint_corrupt", False),
    "torch_load_numpy_global": (case_torch_load_numpy_global, "checkpoint_corrupt", False),
    "torch_load_cuda_no_gpu": (case_torch_load_cuda_no_gpu, "cuda_error", True),
    "benign_gloo_peer_gone_teardown": (case_benign_gloo_peer_gone_teardown, "benign", False),
    "benign_newly_initialized": (case_benign_newly_initialized, "benign", False),
    "benign_generate_warnings": (case_benign_generate_warnings, "benign", False),
}
CASES.update(CASES3)

# The fourth set (current/heldout4.jsonl only).
CASES4: dict[str, Case] = {
    "compile_item_graph_break": (case_compile_item_graph_break, "python_crash", False),
    "compile_dynamic_constraint": (case_compile_dynamic_constraint, "python_crash", False),
    "compile_error_on_recompile": (case_compile_error_on_recompile, "python_crash", False),
    "compile_no_cxx": (case_compile_no_cxx, "python_crash", False),
    "compile_autotune_gpu_full": (case_compile_autotune_gpu_full, "cuda_oom", True),
    "cuda_graph_capture_sync": (case_cuda_graph_capture_sync, "cuda_error", True),
    "cuda_graph_default_stream": (case_cuda_graph_default_stream, "python_crash", True),
    "anomaly_nan_backward": (case_anomaly_nan_backward, "python_crash", False),
    "assert_async_cuda": (case_assert_async_cuda, "cuda_error", True),
    "assert_async_cpu": (case_assert_async_cpu, "python_crash", False),
    "clip_grad_nonfinite": (case_clip_grad_nonfinite, "python_crash", False),
    "spawn_pickle_lambda": (case_spawn_pickle_lambda, "python_crash", False),
    "spawn_child_sigterm": (case_spawn_child_sigterm, "python_crash", False),
    "spawn_child_exit_code": (case_spawn_child_exit_code, "python_crash", False),
    "torchrun_child_sigterm": (case_torchrun_child_sigterm, "python_crash", False),
    "torchrun_agent_sigterm": (case_torchrun_agent_sigterm, "python_crash", False),
    "dataloader_worker_killed": (case_dataloader_worker_killed, "python_crash", False),
    "dataloader_worker_raises": (case_dataloader_worker_raises, "python_crash", False),
    "dataloader_timeout": (case_dataloader_timeout, "python_crash", False),
    "dataloader_small_shm": (case_dataloader_small_shm, "python_crash", False),
    "dataloader_small_shm_fs": (case_dataloader_small_shm_fs, "python_crash", False),
    "dataloader_emfile": (case_dataloader_emfile, "python_crash", False),
    "dcp_load_missing_key": (case_dcp_load_missing_key, "python_crash", False),
    "dcp_load_shape_mismatch": (case_dcp_load_shape_mismatch, "python_crash", False),
    "dcp_metadata_truncated": (case_dcp_metadata_truncated, "python_crash", False),
    "dtensor_mixed_tensor": (case_dtensor_mixed_tensor, "python_crash", False),
    "dtensor_bad_shard_dim": (case_dtensor_bad_shard_dim, "python_crash", False),
    "nccl_cpu_tensor": (case_nccl_cpu_tensor, "python_crash", True),
    "cuda_fork_reinit": (case_cuda_fork_reinit, "python_crash", True),
    "safetensors_shared_tensors": (case_safetensors_shared_tensors, "python_crash", False),
    "chat_template_missing": (case_chat_template_missing, "python_crash", False),
    "tokenizer_no_pad_token": (case_tokenizer_no_pad_token, "python_crash", False),
    "generate_past_max_positions": (case_generate_past_max_positions, "python_crash", False),
    "adapter_config_missing": (case_adapter_config_missing, "python_crash", False),
    "safetensors_dtype_unknown": (case_safetensors_dtype_unknown, "checkpoint_corrupt", False),
    "safetensors_shape_lie": (case_safetensors_shape_lie, "checkpoint_corrupt", False),
    "safetensors_offsets_past_end": (
        case_safetensors_offsets_past_end, "checkpoint_corrupt", False),
    "hf_transfer_missing": (case_hf_transfer_missing, "benign", False),
    "benign_anomaly_enabled": (case_benign_anomaly_enabled, "benign", False),
}
CASES.update(CASES4)


# ----------------------------------------------------------------------------- fifth set
# New call paths into kinds more specific than python_crash: the Hub through API calls other
# than downloads (model_info, list_repo_files, HfFileSystem, file metadata, tokenizer,
# GenerationConfig, subfolder), checkpoints through other readers (legacy torch.save format,
# mmap, TorchScript, DCP data files, a missing tensor), full disks under other writers
# (tokenizers' Rust writer, inductor / triton caches, the legacy serializer), other CUDA
# kernels' asserts, cupy's runtime API and allocator, the CUDA allocator backends, NCCL out of
# memory and NCCL env checks, c10d stores and gloo send timing out, benign deprecation notes.


def hub5_case(variant: str, api: str) -> None:
    files = {"okrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode()}}
    _hub_env(start_hub(files))  # before huggingface_hub / transformers are imported
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    repo = "irisrl/okrepo" if variant == "entry404" else f"irisrl/{variant}"
    revision = "v9.9" if variant == "revision404" else None
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    if api == "info":
        from huggingface_hub import HfApi

        HfApi().model_info(repo, revision=revision)
    elif api == "files":
        from huggingface_hub import HfApi

        print(HfApi().list_repo_files(repo, revision=revision))
    elif api == "fs":
        from huggingface_hub import HfFileSystem

        rev = f"@{revision}" if revision else ""
        print(HfFileSystem().read_text(f"{repo}{rev}/config.json"))
    elif api == "metadata":
        from huggingface_hub import get_hf_file_metadata, hf_hub_url

        name = "generation_config.json" if variant == "entry404" else "config.json"
        print(get_hf_file_metadata(hf_hub_url(repo, name, revision=revision)))
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        AutoTokenizer.from_pretrained(repo, revision=revision)
    elif api == "genconfig":
        from transformers import GenerationConfig

        GenerationConfig.from_pretrained(repo, revision=revision)
    elif api == "subfolder":
        from transformers import AutoConfig

        AutoConfig.from_pretrained(repo, subfolder="policy")


def case_transformers_local_no_weights() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "global_step_40", "safetensors")
    (d / "model.safetensors").unlink()  # the weights were never copied
    AutoModelForCausalLM.from_pretrained(d)


def case_safetensors_missing_tensor() -> None:
    import torch
    from safetensors import safe_open
    from safetensors.torch import save_file

    p = Path(tempfile.mkdtemp()) / "model.safetensors"
    save_file({"model.embed_tokens.weight": torch.zeros(4, 4)}, str(p))
    with safe_open(str(p), framework="pt") as f:
        f.get_tensor("lm_head.weight")


def _truncate(p: Path, frac: float = 0.5) -> None:
    b = p.read_bytes()
    p.write_bytes(b[: int(len(b) * frac)])


def case_torch_load_legacy_truncated() -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / "optim.pt"
    torch.save({"w": torch.arange(1 << 16, dtype=torch.float32)}, p,
               _use_new_zipfile_serialization=False)
    _truncate(p, 0.6)
    torch.load(p, weights_only=False)


def case_torch_load_mmap_truncated() -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / "model.pt"
    torch.save({"w": torch.arange(1 << 16, dtype=torch.float32)}, p)
    _truncate(p)
    torch.load(p, mmap=True)


def case_torch_jit_load_garbage() -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / "reward_model.ts"
    p.write_bytes(os.urandom(4096))
    torch.jit.load(str(p))


def _dcp_dir() -> Path:
    import torch

    d = Path(tempfile.mkdtemp()) / "step_300"
    _dcp_save(d, {"model.w": torch.arange(4096, dtype=torch.float32)})
    return d


def case_dcp_missing_data_file() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    d = _dcp_dir()
    for f in d.glob("*.distcp"):
        f.unlink()  # the upload of the data files never finished
    dcp.load({"model.w": torch.empty(4096)}, checkpoint_id=str(d))


def case_dcp_data_file_truncated() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    d = _dcp_dir()
    for f in d.glob("*.distcp"):
        _truncate(f, 0.3)
    dcp.load({"model.w": torch.empty(4096)}, checkpoint_id=str(d))


def _full_fs() -> Path:
    """A 256 KiB tmpfs filled to the last byte (exit 3 where mounting is refused)."""
    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    try:
        with open(mnt / "filler", "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
    except OSError:
        pass
    return mnt


def case_disk_full_tokenizer_save() -> None:
    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(d)
    mnt = _full_fs()
    tok.backend_tokenizer.save(str(mnt / "tokenizer.json"))


def case_disk_full_tokenizer_save_pretrained() -> None:
    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(d)
    mnt = _full_fs()
    tok.save_pretrained(mnt / "policy")


def case_disk_full_inductor_cache() -> None:
    mnt = _full_fs()
    os.environ.update(TORCHINDUCTOR_CACHE_DIR=str(mnt / "inductor"),
                      TRITON_CACHE_DIR=str(mnt / "triton"))
    import torch

    f = torch.compile(lambda x: (x.sin() + x.cos()) * 2)
    print(f(torch.randn(1024, device="cuda")).sum().item())


def case_disk_full_torch_save_legacy() -> None:
    import torch

    mnt = _full_fs()
    torch.save({"w": torch.zeros(1 << 16)}, mnt / "ckpt.pt", _use_new_zipfile_serialization=False)


def _cuda_assert(fn: Callable[[Any], Any]) -> None:
    import torch

    fn(torch)
    torch.cuda.synchronize()


def case_cuda_assert_scatter() -> None:
    _cuda_assert(lambda t: t.zeros(10, device="cuda").scatter_add_(
        0, t.tensor([3, 20], device="cuda"), t.ones(2, device="cuda")))


def case_cuda_assert_index_put() -> None:
    def f(t: Any) -> None:
        x = t.zeros(10, device="cuda")
        x.index_put_((t.tensor([50], device="cuda"),), t.ones(1, device="cuda"), accumulate=True)
    _cuda_assert(f)


def case_cuda_assert_index_select() -> None:
    _cuda_assert(lambda t: t.randn(10, 4, device="cuda").index_select(
        0, t.tensor([2, 99], device="cuda")))


def case_cuda_assert_embedding_bag() -> None:
    def f(t: Any) -> None:
        w = t.randn(32, 8, device="cuda")
        t.nn.functional.embedding_bag(t.tensor([1, 40], device="cuda"), w,
                                      t.tensor([0], device="cuda"))
    _cuda_assert(f)


def case_cupy_memcpy_bad_pointer() -> None:
    import cupy

    buf = cupy.zeros(16, dtype=cupy.uint8)
    cupy.cuda.runtime.memcpy(0xDEAD0000, buf.data.ptr, 16, cupy.cuda.runtime.memcpyDefault)
    cupy.cuda.runtime.deviceSynchronize()


def case_cupy_oom() -> None:
    import cupy

    cupy.empty(1 << 40, dtype=cupy.uint8)  # 1 TiB on a 141 GB GPU


def case_cuda_oom_malloc_async() -> None:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"
    import torch

    torch.empty(1 << 38, dtype=torch.uint8, device="cuda")  # 256 GiB


def case_cuda_oom_expandable() -> None:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    import torch

    held = _fill_gpu(256 << 20)
    print(len(held))
    torch.empty(1 << 30, dtype=torch.uint8, device="cuda")


def case_cublas_huge_k() -> None:
    import torch

    k = (1 << 31) + 64  # past int32: cuBLAS takes 32-bit dimensions
    a = torch.ones(1, k, dtype=torch.float16, device="cuda")
    b = torch.ones(k, 1, dtype=torch.float16, device="cuda")
    print((a @ b).item())
    torch.cuda.synchronize()


def case_nccl_gpu_full() -> None:
    held = _fill_gpu(64 << 20)
    print(len(held))
    _nccl_env_case()


def case_nccl_algo_bad() -> None:
    _nccl_env_case(NCCL_ALGO="Bogus")


def case_nccl_comm_id_bad() -> None:
    _nccl_env_case(NCCL_COMM_ID="rendezvous.invalid:29999")


def case_store_get_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.TCPStore("127.0.0.1", free_port(), 1, True, timedelta(seconds=3))
    store.get("rollout/weights_version")  # the trainer never publishes it


def case_store_client_wait_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()
    master = dist.TCPStore("127.0.0.1", port, 2, True, timedelta(seconds=30),
                           wait_for_workers=False)
    client = dist.TCPStore("127.0.0.1", port, 2, False, timedelta(seconds=3))
    print(master.num_keys())
    client.wait(["rank0/ready"])


def case_filestore_rendezvous_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    f = Path(tempfile.mkdtemp()) / "rdzv"
    dist.init_process_group("gloo", init_method=f"file://{f}", world_size=2, rank=0,
                            timeout=timedelta(seconds=5))


def case_gloo_send_timeout() -> None:
    from datetime import timedelta

    import torch

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=4))
        if rank == 1:
            time.sleep(12)  # never posts the matching recv
            return
        dist.send(torch.ones(1 << 20), dst=1)

    _worker_pair(body)


def case_torchrun_rdzv_store_unreachable() -> None:
    """torchrun on a worker node whose c10d rendezvous endpoint (another host) never answers."""
    cmd = [
        sys.executable, "-m", "torch.distributed.run", "--nnodes=2", "--nproc-per-node=1",
        "--rdzv-backend=c10d", f"--rdzv-endpoint=10.255.255.1:{free_port()}",
        "--rdzv-id=irisrl", "--rdzv-conf=join_timeout=10,read_timeout=10", str(SCRIPT), "noop",
    ]
    sys.exit(subprocess.call(cmd))


def case_benign_tf32_deprecated() -> None:
    import torch

    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    print((torch.randn(8, 8, device="cuda") @ torch.randn(8, 8, device="cuda")).sum().item())


def case_benign_torch_dtype_deprecated() -> None:
    import torch
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    AutoModelForCausalLM.from_pretrained(d, torch_dtype=torch.float32)
    print("loaded")


def case_benign_nccl_env_deprecated() -> None:
    _nccl_env_case(NCCL_ASYNC_ERROR_HANDLING="1", NCCL_BLOCKING_WAIT="0")


CASES5: dict[str, Case] = {
    "transformers_local_no_weights": (case_transformers_local_no_weights, "hf_weights_missing",
                                      False),
    "safetensors_missing_tensor": (case_safetensors_missing_tensor, "hf_weights_missing", False),
    "torch_load_legacy_truncated": (case_torch_load_legacy_truncated, "checkpoint_corrupt",
                                    False),
    "torch_load_mmap_truncated": (case_torch_load_mmap_truncated, "checkpoint_corrupt", False),
    "torch_jit_load_garbage": (case_torch_jit_load_garbage, "checkpoint_corrupt", False),
    "dcp_missing_data_file": (case_dcp_missing_data_file, "hf_weights_missing", False),
    "dcp_data_file_truncated": (case_dcp_data_file_truncated, "checkpoint_corrupt", False),
    "disk_full_tokenizer_save": (case_disk_full_tokenizer_save, "disk_full", False),
    "disk_full_tokenizer_save_pretrained": (case_disk_full_tokenizer_save_pretrained,
                                            "disk_full", False),
    "disk_full_inductor_cache": (case_disk_full_inductor_cache, "disk_full", True),
    "disk_full_torch_save_legacy": (case_disk_full_torch_save_legacy, "disk_full", False),
    "cuda_assert_scatter": (case_cuda_assert_scatter, "cuda_error", True),
    "cuda_assert_index_put": (case_cuda_assert_index_put, "cuda_error", True),
    "cuda_assert_index_select": (case_cuda_assert_index_select, "cuda_error", True),
    "cuda_assert_embedding_bag": (case_cuda_assert_embedding_bag, "cuda_error", True),
    "cupy_memcpy_bad_pointer": (case_cupy_memcpy_bad_pointer, "cuda_error", True),
    "cupy_oom": (case_cupy_oom, "cuda_oom", True),
    "cuda_oom_malloc_async": (case_cuda_oom_malloc_async, "cuda_oom", True),
    "cuda_oom_expandable": (case_cuda_oom_expandable, "cuda_oom", True),
    "cublas_huge_k": (case_cublas_huge_k, "cuda_error", True),
    "nccl_gpu_full": (case_nccl_gpu_full, "cuda_oom", True),
    "nccl_algo_bad": (case_nccl_algo_bad, "nccl_error", True),
    "nccl_comm_id_bad": (case_nccl_comm_id_bad, "nccl_error", True),
    "store_get_timeout": (case_store_get_timeout, "dist_timeout", False),
    "store_client_wait_timeout": (case_store_client_wait_timeout, "dist_timeout", False),
    "filestore_rendezvous_timeout": (case_filestore_rendezvous_timeout, "dist_timeout", False),
    "gloo_send_timeout": (case_gloo_send_timeout, "dist_timeout", False),
    "torchrun_rdzv_store_unreachable": (case_torchrun_rdzv_store_unreachable, "dist_timeout",
                                        False),
    "benign_tf32_deprecated": (case_benign_tf32_deprecated, "benign", True),
    "benign_torch_dtype_deprecated": (case_benign_torch_dtype_deprecated, "benign", False),
    "benign_nccl_env_deprecated": (case_benign_nccl_env_deprecated, "benign", True),
}
for _v, _api in [("gated401", "info"), ("gated403", "files"), ("missing404", "info"),
                 ("missing404", "fs"), ("gated401", "fs"), ("revision404", "info"),
                 ("revision404", "files"), ("entry404", "metadata"), ("status429", "metadata"),
                 ("status500", "info"), ("status503", "files"), ("badtoken401", "metadata"),
                 ("gated403", "tokenizer"), ("missing404", "genconfig"),
                 ("gated401", "genconfig"), ("entry404", "subfolder"),
                 ("status502", "tokenizer"), ("missing401", "info")]:
    CASES5[f"hub5_{_v}_{_api}"] = (partial(hub5_case, _v, _api), HUB_KIND[_v], False)
for _how in ("cutshort", "status416", "status451", "disabled"):  # start_hub3's answers
    CASES5[f"hub5_{_how}_tokenizer"] = (partial(hub3_case, _how, "tokenizer"), {
        "cutshort": "hf_incomplete_download", "status416": "hf_incomplete_download",
        "status451": "hf_gated", "disabled": "hf_repo_not_found"}[_how], False)
CASES5["hub5_cutshort_snapshot"] = (
    partial(hub3_case, "cutshort", "snapshot"), "hf_incomplete_download", False)
CASES.update(CASES5)


# ----------------------------------------------------------------------------- sixth set
# Other call paths into the specific kinds: the Hub's upload / refs / paths-info / file_exists /
# HfFileSystem.ls APIs and dataset repos, transformers pipelines and processors, torch's zip
# reader on a damaged archive, DCP's async save and a snapshot into local_dir on a full disk, a
# read-only filesystem, torch.cuda events, cuBLAS workspace settings, CUDA init under RLIMIT_AS,
# cupy's pool limit, pinned allocator and an illegal instruction, a triton device_assert, c10d
# stores other than the libuv TCPStore, new_group, a gloo barrier, torchrun restarts, workers
# dying by real SIGSEGV / SIGBUS / SIGABRT under torchrun and torch.multiprocessing, NCCL's
# blocking wait and
# flight recorder, NCCL tuning variables out of range, numpy under RLIMIT_AS.


def _real_fault(mode: str) -> None:
    """Die by a real fault: a NULL read (SIGSEGV), a read of an mmapped page whose file was
    truncated under it (SIGBUS), abort(3) (SIGABRT, as a failed C assert does)."""
    if mode == "segv":
        import ctypes

        ctypes.string_at(0)
    elif mode == "bus":
        import mmap

        path = Path(tempfile.mkdtemp()) / "shard.bin"
        path.write_bytes(b"\0" * 8192)
        with open(path, "r+b") as f:
            m = mmap.mmap(f.fileno(), 8192)
            os.truncate(path, 0)  # another process rewrote the shard under the reader
            print(m[4096])
    elif mode == "abort":
        os.abort()


def hub6_case(variant: str, api: str) -> None:
    """The loopback Hub (start_hub's status answers) through APIs the earlier sets did not use
    (the `datasets` library is not installed on the device: dataset repos are reached through
    huggingface_hub only)."""
    cfg = json.dumps({"model_type": "gpt2"}).encode()
    _hub_env(start_hub({"okrepo": {"config.json": cfg}}))  # before huggingface_hub is imported
    if variant == "badtoken401" or api == "upload":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # uploads need a token; this one is revoked
    repo = "irisrl/okrepo" if variant in ("entry404", "okrepo") else f"irisrl/{variant}"
    revision = "v9.9" if variant == "revision404" else None
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    if api == "upload":
        from huggingface_hub import HfApi

        HfApi().upload_file(path_or_fileobj=cfg, path_in_repo="config.json", repo_id=repo,
                            commit_message="checkpoint step 300")
    elif api == "refs":
        from huggingface_hub import HfApi

        print(HfApi().list_repo_refs(repo))
    elif api == "paths":
        from huggingface_hub import HfApi

        print(HfApi().get_paths_info(repo, ["config.json"], revision=revision))
    elif api == "exists":
        from huggingface_hub import HfApi

        print(HfApi().file_exists(repo, "config.json"))
    elif api == "pipeline":
        from transformers import pipeline

        pipeline("text-generation", model=repo)
    elif api == "processor":
        from transformers import AutoProcessor

        print(AutoProcessor.from_pretrained(repo))
    elif api == "fsls":
        from huggingface_hub import HfFileSystem

        print(HfFileSystem().ls(f"datasets/{repo}/data"))
    elif api == "dataset_file":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "data/train.parquet", repo_type="dataset"))


def case_ckpt_zip_missing_record() -> None:
    import zipfile

    import torch

    p = Path(tempfile.mkdtemp()) / "optimizer.pt"
    torch.save({"exp_avg": torch.arange(4096, dtype=torch.float32)}, p)
    q = p.with_name("optimizer_repacked.pt")  # a copy tool that skipped a member
    with zipfile.ZipFile(p) as src, zipfile.ZipFile(q, "w") as dst:
        for info in src.infolist():
            if not info.filename.endswith("/data/0"):
                dst.writestr(info, src.read(info.filename))
    torch.load(q)


def case_ckpt_zip_newer_version() -> None:
    import zipfile

    import torch

    p = Path(tempfile.mkdtemp()) / "model.pt"
    torch.save({"w": torch.ones(8)}, p)
    q = p.with_name("model_v99.pt")  # as a future torch would write it
    with zipfile.ZipFile(p) as src, zipfile.ZipFile(q, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            dst.writestr(info, b"99\n" if info.filename.endswith("/version") else data)
    torch.load(q)


def case_ckpt_load_cuda_ordinal() -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / "rank5_optim.pt"
    torch.save({"w": torch.ones(8, device="cuda")}, p)
    torch.load(p, map_location={"cuda:0": "cuda:5"})  # saved on an 8-GPU node's GPU 5


def case_ckpt_transformers_st_no_format() -> None:
    from safetensors.torch import load_file, save_file
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "hf_export", "safetensors")
    st = d / "model.safetensors"
    save_file(load_file(str(st)), str(st))  # re-saved by a converter: no {"format": "pt"}
    AutoModelForCausalLM.from_pretrained(d)
    print("loaded")


def case_disk_full_dcp_async_save() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    mnt = _full_fs()
    fut = dcp.async_save({"w": torch.arange(1 << 16, dtype=torch.float32)},
                         checkpoint_id=str(mnt / "step_500"))
    fut.result()


def case_disk_full_snapshot_local_dir() -> None:
    endpoint = start_hub({"bigrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode(),
                                      "model.safetensors": os.urandom(600_000)}})
    _hub_env(endpoint)
    mnt = _full_fs()
    from huggingface_hub import snapshot_download

    snapshot_download("irisrl/bigrepo", local_dir=str(mnt / "policy"))


def case_readonly_fs_torch_save() -> None:
    import torch

    mnt = Path(tempfile.mkdtemp(prefix="rofs"))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mnt)])
    print(f"PROVOKE-NOTE ro tmpfs mount rc={rc}", flush=True)
    torch.save({"w": torch.ones(8)}, mnt / "global_step_10.pt")


def case_cuda_event_no_timing() -> None:
    import torch

    start, end = torch.cuda.Event(), torch.cuda.Event()  # enable_timing forgotten
    start.record()
    torch.ones(1 << 20, device="cuda").sum()
    end.record()
    torch.cuda.synchronize()
    print(start.elapsed_time(end))


def case_cuda_event_unrecorded() -> None:
    import torch

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.cuda.synchronize()
    print(start.elapsed_time(end))  # `end` never recorded (an early return skipped it)


def case_triton_device_assert() -> None:
    os.environ["TRITON_DEBUG"] = "1"
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def check_ids(ids_ptr, vocab):  # type: ignore[no-untyped-def]
        i = tl.program_id(0)
        tok = tl.load(ids_ptr + i)
        tl.device_assert(tok < vocab, "token id out of vocabulary")

    ids = torch.tensor([1, 2, 70000, 3], device="cuda", dtype=torch.int32)
    check_ids[(4,)](ids, 50257)
    torch.cuda.synchronize()


_CUPY6_SRC = r"""
extern "C" __global__ void brkpt(float* p) { __brkpt(); p[0] = 1.0f; }
"""


def case_cupy_illegal_instruction() -> None:
    import cupy as cp

    a = cp.zeros(4, dtype=cp.float32)
    cp.RawKernel(_CUPY6_SRC, "brkpt")((1,), (1,), (a,))
    cp.cuda.Device().synchronize()


def case_cupy_pool_limit() -> None:
    import cupy as cp

    cp.get_default_memory_pool().set_limit(size=256 << 20)  # a share of the GPU for the reward
    cp.zeros(512 << 20, dtype=cp.uint8)


def case_cupy_pinned_oom() -> None:
    import cupy as cp

    cp.cuda.alloc_pinned_memory(1 << 46)  # 64 TiB of pinned host memory


def case_cuda_oom_other_process() -> None:
    import torch

    holder = subprocess.Popen([sys.executable, "-c", (
        "import time, torch\n"
        "x = torch.empty(120 << 30, dtype=torch.uint8, device='cuda')\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        print(holder.stdout.readline().strip(), flush=True)  # a vLLM engine holds the GPU
        torch.empty(40 << 30, dtype=torch.uint8, device="cuda")
    finally:
        holder.kill()


def case_cublas_workspace_huge() -> None:
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:100000000"  # a typo: 400 GB of workspace
    import torch

    a = torch.ones(64, 64, device="cuda")
    print((a @ a).sum().item())


def case_cuda_init_rlimit_as() -> None:
    import resource

    import torch

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # a container's address-space cap
    print(torch.zeros(1, device="cuda"))


def case_filestore_get_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.FileStore(str(Path(tempfile.mkdtemp()) / "store"), 1)
    store.set_timeout(timedelta(seconds=3))
    store.get("policy/weights_version")


def case_store_nolibuv_get_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()
    master = dist.TCPStore("127.0.0.1", port, 2, True, timedelta(seconds=30),
                           wait_for_workers=False, use_libuv=False)
    client = dist.TCPStore("127.0.0.1", port, 2, False, timedelta(seconds=3), use_libuv=False)
    print(master.num_keys())
    client.get("rollout/ready")


def case_new_group_timeout() -> None:
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=30))
        if rank == 1:
            time.sleep(15)  # never creates the sub-group
            return
        g = dist.new_group([0, 1], timeout=timedelta(seconds=4))
        dist.all_reduce(torch.ones(4), group=g)

    _worker_pair(body)


def case_new_group_bad_rank() -> None:
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    dist.new_group([0, 3])  # ranks of a node that was never started


def case_gloo_barrier_timeout() -> None:
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=4))
        if rank == 1:
            time.sleep(12)
            return
        dist.barrier()

    _worker_pair(body)


def _torchrun(mode: str, *extra: str) -> None:
    sys.exit(subprocess.call([
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
        *extra, str(SCRIPT), "child", mode]))


def _fault_worker(mode: str, rank: int) -> None:
    if rank == 1:
        time.sleep(1)
        _real_fault(mode)
    time.sleep(10)


def case_spawn_child_segv() -> None:
    import torch.multiprocessing as mp

    mp.spawn(partial(_fault_worker, "segv"), nprocs=2)


def case_spawn_child_bus() -> None:
    import torch.multiprocessing as mp

    mp.spawn(partial(_fault_worker, "bus"), nprocs=2)


def case_spawn_child_abort() -> None:
    import torch.multiprocessing as mp

    mp.spawn(partial(_fault_worker, "abort"), nprocs=2)


def _nccl_timeout_case(**env: str) -> None:
    """As nccl_watchdog_timeout (world of one, a spin kernel ahead of an all_reduce with a 4 s
    timeout), under other ProcessGroupNCCL settings."""
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    os.environ.update(env)
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", timeout=timedelta(seconds=4),
                            device_id=torch.device("cuda:0"))
    x = torch.ones(1024, device="cuda")
    torch.cuda._sleep(int(24e9))  # ~12 s of spinning on the current stream
    work = dist.all_reduce(x, async_op=True)
    assert work is not None
    work.wait()
    print("all_reduce finished", flush=True)
    time.sleep(20)


def case_nccl_blocking_wait_timeout() -> None:
    _nccl_timeout_case(TORCH_NCCL_BLOCKING_WAIT="1")


def case_nccl_flight_recorder_timeout() -> None:
    _nccl_timeout_case(TORCH_NCCL_TRACE_BUFFER_SIZE="2000", TORCH_NCCL_DUMP_ON_TIMEOUT="1",
                       TORCH_FR_DUMP_TEMP_FILE=tempfile.mkdtemp() + "/nccl_trace_rank_")


def case_numpy_rlimit_as() -> None:
    import resource

    import numpy as np

    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
    adv = np.zeros((4096, 1 << 20), dtype=np.float32)  # advantages for a 4096-sample batch
    print(adv.sum())


def case_benign_checkpoint_reentrant() -> None:
    import torch
    from torch.utils.checkpoint import checkpoint

    lin = torch.nn.Linear(8, 8)
    x = torch.ones(2, 8, requires_grad=True)
    checkpoint(lin, x).sum().backward()  # use_reentrant not passed
    print("ok")


def case_benign_use_cache_grad_ckpt() -> None:
    import torch
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    m = AutoModelForCausalLM.from_pretrained(d)
    m.gradient_checkpointing_enable()
    m.train()
    m(torch.ones(1, 8, dtype=torch.long), use_cache=True).logits.sum().backward()
    print("step ok")


CASES6: dict[str, Case] = {
    "ckpt_zip_missing_record": (case_ckpt_zip_missing_record, "checkpoint_corrupt", False),
    "ckpt_zip_newer_version": (case_ckpt_zip_newer_version, "checkpoint_corrupt", False),
    "ckpt_load_cuda_ordinal": (case_ckpt_load_cuda_ordinal, "cuda_error", True),
    "ckpt_transformers_st_no_format": (case_ckpt_transformers_st_no_format, "checkpoint_corrupt",
                                       False),
    "disk_full_dcp_async_save": (case_disk_full_dcp_async_save, "disk_full", False),
    "disk_full_snapshot_local_dir": (case_disk_full_snapshot_local_dir, "disk_full", False),
    "readonly_fs_torch_save": (case_readonly_fs_torch_save, "python_crash", False),
    "cuda_event_no_timing": (case_cuda_event_no_timing, "python_crash", True),
    "cuda_event_unrecorded": (case_cuda_event_unrecorded, "python_crash", True),
    "triton_device_assert": (case_triton_device_assert, "cuda_error", True),
    "cupy_illegal_instruction": (case_cupy_illegal_instruction, "cuda_error", True),
    "cupy_pool_limit": (case_cupy_pool_limit, "cuda_oom", True),
    "cupy_pinned_oom": (case_cupy_pinned_oom, "cuda_oom", True),
    "cuda_oom_other_process": (case_cuda_oom_other_process, "cuda_oom", True),
    "cublas_workspace_huge": (case_cublas_workspace_huge, "cuda_oom", True),
    "cuda_init_rlimit_as": (case_cuda_init_rlimit_as, "cuda_oom", True),
    "filestore_get_timeout": (case_filestore_get_timeout, "dist_timeout", False),
    "store_nolibuv_get_timeout": (case_store_nolibuv_get_timeout, "dist_timeout", False),
    "new_group_timeout": (case_new_group_timeout, "dist_timeout", False),
    "new_group_bad_rank": (case_new_group_bad_rank, "python_crash", False),
    "gloo_barrier_timeout": (case_gloo_barrier_timeout, "dist_timeout", False),
    "torchrun_max_restarts": (partial(_torchrun, "raise", "--max-restarts=1"), "python_crash",
                              False),
    "torchrun_child_segv": (partial(_torchrun, "segv"), "python_crash", False),
    "torchrun_child_bus": (partial(_torchrun, "bus"), "python_crash", False),
    "torchrun_child_abort": (partial(_torchrun, "abort"), "python_crash", False),
    "spawn_child_segv": (case_spawn_child_segv, "python_crash", False),
    "spawn_child_bus": (case_spawn_child_bus, "python_crash", False),
    "spawn_child_abort": (case_spawn_child_abort, "python_crash", False),
    "nccl_blocking_wait_timeout": (case_nccl_blocking_wait_timeout, "nccl_timeout", True),
    "nccl_flight_recorder_timeout": (case_nccl_flight_recorder_timeout, "nccl_timeout", True),
    "nccl_nthreads_bad": (partial(_nccl_env_case, NCCL_NTHREADS="7"), "nccl_error", True),
    "nccl_p2p_level_bad": (partial(_nccl_env_case, NCCL_P2P_LEVEL="WARP"), "nccl_error", True),
    "nccl_cta_bounds": (partial(_nccl_env_case, NCCL_MIN_CTAS="64", NCCL_MAX_CTAS="2"),
                        "nccl_error", True),
    "benign_nccl_info_env": (partial(_nccl_env_case, NCCL_DEBUG="INFO",
                                     NCCL_DEBUG_SUBSYS="INIT,ENV", NCCL_SOCKET_IFNAME="lo"),
                             "benign", True),
    "numpy_rlimit_as": (case_numpy_rlimit_as, "python_crash", False),
    "benign_checkpoint_reentrant": (case_benign_checkpoint_reentrant, "benign", False),
    "benign_use_cache_grad_ckpt": (case_benign_use_cache_grad_ckpt, "benign", False),
}
for _v, _api in [("forbidden403", "upload"), ("missing404", "upload"), ("status500", "upload"),
                 ("badtoken401", "upload"), ("gated401", "refs"), ("status503", "refs"),
                 ("missing404", "paths"), ("gated401", "exists"), ("status500", "exists"),
                 ("gated401", "pipeline"), ("missing404", "pipeline"), ("status503", "pipeline"),
                 ("entry404", "dataset_file"), ("status429", "dataset_file"),
                 ("gated401", "dataset_file"), ("status503", "dataset_file"),
                 ("gated403", "fsls"), ("status500", "fsls")]:
    CASES6[f"hub6_{_v}_{_api}"] = (partial(hub6_case, _v, _api), HUB_KIND[_v], False)
CASES6["hub6_okrepo_processor"] = (partial(hub6_case, "okrepo", "processor"), "python_crash",
                                   False)
CASES.update(CASES6)


# ----------------------------------------------------------------------------- seventh set
# Yet other call paths into the specific kinds: the loopback Hub through GenerationConfig,
# list_repo_commits / list_repo_tree, get_safetensors_metadata and whoami; files a download left
# behind that are not what they say (a git-lfs pointer, a saved HTML error page, a tokenizer.json
# or generation_config.json that is not JSON, a cache symlink to a blob that is gone, a DCP
# directory without its .metadata); transformers' Trainer resuming from a partial or damaged
# checkpoint and saving onto a full disk; shutil.copytree and GenerationConfig.save_pretrained onto
# a full disk; an inductor kernel's index assert; an OOM with the caching allocator off; triton's
# numel limit; torch.distributed.rpc's rendezvous and a gloo recv that times out; a process pool
# whose worker is killed; benign: a cudagraph skip note, generation flags that are ignored,
# (the tokenizers fork warning was tried and never printed: not kept).

_LFS_POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
                b"oid sha256:4d7a2146f3c5b8e5bb2b7a1c2f6a9d3e6c8a1f0b9e2d7c4a5b6e8f9a0b1c2d3e\n"
                b"size 4942300368\n")
_HTML_PAGE = (b"<!DOCTYPE html>\n<html class=\"\" lang=\"en\">\n<head><title>Hugging Face - The AI "
              b"community building the future.</title></head><body>Sign in</body></html>\n")


def hub7_case(variant: str, api: str) -> None:
    """The loopback Hub (start_hub's status answers) through APIs no earlier set used."""
    _hub_env(start_hub({"okrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode()}}))
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # a revoked token
    repo = f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    if api == "genconfig":
        from transformers import GenerationConfig

        print(GenerationConfig.from_pretrained(repo))
    elif api == "commits":
        from huggingface_hub import HfApi

        print(HfApi().list_repo_commits(repo))
    elif api == "tree":
        from huggingface_hub import HfApi

        print(list(HfApi().list_repo_tree(repo, recursive=True)))
    elif api == "st_meta":
        from huggingface_hub import HfApi

        print(HfApi().get_safetensors_metadata(repo))
    elif api == "whoami":
        from huggingface_hub import HfApi

        print(HfApi().whoami())


def case_lfs_pointer_torch_load() -> None:
    """A clone without git-lfs: the weight file is the pointer text."""
    import torch

    p = Path(tempfile.mkdtemp()) / "pytorch_model.bin"
    p.write_bytes(_LFS_POINTER)
    torch.load(p)


def case_lfs_pointer_from_pretrained() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "clone", "safetensors")
    (d / "model.safetensors").write_bytes(_LFS_POINTER)
    AutoModelForCausalLM.from_pretrained(d)


def case_html_page_torch_load() -> None:
    """A download that saved the site's HTML page under the checkpoint's name."""
    import torch

    p = Path(tempfile.mkdtemp()) / "optimizer.pt"
    p.write_bytes(_HTML_PAGE)
    torch.load(p, weights_only=False)


def case_tokenizer_json_not_json() -> None:
    from transformers import AutoTokenizer

    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    (d / "tokenizer.json").write_bytes(_HTML_PAGE)
    AutoTokenizer.from_pretrained(d)


def case_generation_config_not_json() -> None:
    from transformers import GenerationConfig

    d = Path(tempfile.mkdtemp())
    (d / "generation_config.json").write_bytes(_HTML_PAGE)
    GenerationConfig.from_pretrained(d)


def case_cache_broken_symlink_offline() -> None:
    """A hub cache whose model.safetensors symlink points at a blob that was deleted (a cache
    cleaner, a killed download), loaded offline."""
    home = Path(tempfile.mkdtemp(prefix="hfhome"))
    os.environ.update(HF_HOME=str(home), HF_HUB_OFFLINE="1")  # before transformers is imported
    src = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    repo = home / "hub" / "models--irisrl--tiny"
    snap = repo / "snapshots" / COMMIT
    (repo / "blobs").mkdir(parents=True)
    snap.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    for f in src.iterdir():
        blob = repo / "blobs" / hashlib.sha256(f.read_bytes()).hexdigest()
        blob.write_bytes(f.read_bytes())
        (snap / f.name).symlink_to(os.path.relpath(blob, snap))
        if f.name == "model.safetensors":
            blob.unlink()
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/tiny")


def case_dcp_metadata_missing() -> None:
    """A DCP save killed before it wrote .metadata (the data files are there)."""
    import torch
    import torch.distributed.checkpoint as dcp

    d = Path(tempfile.mkdtemp()) / "step_300"
    _dcp_save(d, {"w": torch.ones(4, 4)})
    (d / ".metadata").unlink()
    dcp.load({"w": torch.zeros(4, 4)}, checkpoint_id=str(d))


class _TinyDs:
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> dict[str, Any]:
        import torch

        ids = torch.arange(8) % 32
        return {"input_ids": ids, "labels": ids}


def _trainer(out: Path, **kw: Any) -> Any:
    from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

    model = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=32,
                                       n_positions=16))
    args = TrainingArguments(output_dir=str(out), per_device_train_batch_size=2, report_to=[],
                             use_cpu=True, logging_steps=1, **kw)
    return Trainer(model=model, args=args, train_dataset=_TinyDs())


def case_trainer_resume_partial_ckpt() -> None:
    """resume_from_checkpoint naming a checkpoint dir that holds only trainer_state.json (the
    save was killed before the weights were written)."""
    out = Path(tempfile.mkdtemp()) / "run"
    ck = out / "checkpoint-300"
    ck.mkdir(parents=True)
    (ck / "trainer_state.json").write_text(json.dumps({"global_step": 300}))
    _trainer(out, max_steps=2).train(resume_from_checkpoint=str(ck))


def case_trainer_resume_truncated_weights() -> None:
    """A checkpoint dir whose model.safetensors was cut short."""
    out = Path(tempfile.mkdtemp()) / "run"
    t = _trainer(out, max_steps=1, save_steps=1)
    t.train()
    ck = out / "checkpoint-1"
    _truncate(ck / "model.safetensors")
    _trainer(out, max_steps=2, save_steps=1).train(resume_from_checkpoint=str(ck))


def case_trainer_save_full_disk() -> None:
    _trainer(_full_fs() / "run", max_steps=1, save_steps=1).train()


def case_disk_full_copytree() -> None:
    """Copying a checkpoint dir to a full volume: shutil.copytree gathers the errors."""
    import shutil

    src = Path(tempfile.mkdtemp()) / "checkpoint-300"
    src.mkdir()
    (src / "model.safetensors").write_bytes(b"\0" * (1 << 20))
    (src / "optimizer.pt").write_bytes(b"\0" * (1 << 20))
    shutil.copytree(src, _full_fs() / "checkpoint-300")


def case_disk_full_genconfig_save() -> None:
    from transformers import GenerationConfig

    GenerationConfig(max_new_tokens=64).save_pretrained(_full_fs() / "export")


def case_compile_index_oob_cuda() -> None:
    """An index past the end inside an inductor-generated triton kernel."""
    import torch

    @torch.compile
    def gather(x, idx):  # type: ignore[no-untyped-def]
        return x[idx] * 2

    x = torch.ones(32, device="cuda")
    print(gather(x, torch.tensor([3, 40], device="cuda")).cpu())


def case_cuda_oom_no_caching() -> None:
    """PYTORCH_NO_CUDA_MEMORY_CACHING=1 (a debugging setting): OOM with the cache off."""
    os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
    import torch

    torch.empty(400 << 30, dtype=torch.uint8, device="cuda")


def case_triton_numel_too_large() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def copy(x_ptr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)

    x = torch.zeros(1 << 21, device="cuda")
    copy[(1,)](x, BLOCK=1 << 21)
    torch.cuda.synchronize()


def case_gloo_recv_timeout() -> None:
    from datetime import timedelta

    import torch

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=4))
        if rank == 1:
            time.sleep(12)  # never sends
            return
        dist.recv(torch.empty(16), src=1)

    _worker_pair(body)


def _trainer_ckpt() -> tuple[Path, Path]:
    """A run dir with checkpoint-1 saved by a real one-step Trainer run."""
    out = Path(tempfile.mkdtemp()) / "run"
    _trainer(out, max_steps=1, save_steps=1).train()
    return out, out / "checkpoint-1"


def case_trainer_resume_optimizer_html() -> None:
    """optimizer.pt replaced by an HTML page (a copy through a web proxy)."""
    out, ck = _trainer_ckpt()
    (ck / "optimizer.pt").write_bytes(_HTML_PAGE)
    _trainer(out, max_steps=2, save_steps=1).train(resume_from_checkpoint=str(ck))


def case_trainer_resume_rng_lfs_pointer() -> None:
    """rng_state.pth is a git-lfs pointer (the checkpoint was pushed to a repo and cloned)."""
    out, ck = _trainer_ckpt()
    (ck / "rng_state.pth").write_bytes(_LFS_POINTER)
    _trainer(out, max_steps=2, save_steps=1).train(resume_from_checkpoint=str(ck))


def case_gloo_allreduce_size_mismatch() -> None:
    """Two ranks all_reduce tensors of different sizes (a desynced step)."""
    from datetime import timedelta

    import torch

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=6))
        dist.all_reduce(torch.ones(16 if rank == 0 else 32))

    _worker_pair(body)


def case_disk_full_inodes_trainer() -> None:
    """A volume out of inodes (bytes left): the Trainer cannot make its checkpoint dir."""
    mnt = Path(tempfile.mkdtemp(prefix="inodefs"))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o", "size=64m,nr_inodes=16", "tmpfs",
                          str(mnt)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"PROVOKE-NOTE tmpfs mount rc={rc}", flush=True)
    if rc:
        sys.exit(3)
    (mnt / "run").mkdir()
    try:
        for i in range(64):
            (mnt / "run" / f"events.{i}").write_bytes(b"")
    except OSError:
        pass
    _trainer(mnt / "run", max_steps=1, save_steps=1).train()


def _pool_victim(i: int) -> int:
    if i == 2:
        os.kill(os.getpid(), 9)  # as the host's OOM killer would
    time.sleep(0.5)
    return i


def case_process_pool_worker_killed() -> None:
    """A reward-scoring process pool whose worker is SIGKILLed mid-task."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=2) as pool:
        print(list(pool.map(_pool_victim, range(4))))


def case_benign_cudagraph_skip() -> None:
    """torch.compile(mode='reduce-overhead') on a function that mutates its input: inductor
    notes that it skips CUDA graphs (TORCH_LOGS=perf_hints), and the run goes on."""
    os.environ["TORCH_LOGS"] = "perf_hints"
    import torch

    @torch.compile(mode="reduce-overhead")
    def step(x):  # type: ignore[no-untyped-def]
        x.add_(1)
        return x * 2

    x = torch.ones(8, device="cuda")
    for _ in range(3):
        step(x)
    torch.cuda.synchronize()
    print("steps ok")


def case_genconfig_flags_save_strict() -> None:
    """Sampling flags with do_sample=False: transformers warns they are ignored, and
    save_pretrained refuses the config."""
    from transformers import GenerationConfig

    d = Path(tempfile.mkdtemp())
    GenerationConfig(do_sample=False, temperature=0.7, top_p=0.9).save_pretrained(d)
    print(GenerationConfig.from_pretrained(d).temperature)


CASES7: dict[str, Case] = {
    "lfs_pointer_torch_load": (case_lfs_pointer_torch_load, "checkpoint_corrupt", False),
    "lfs_pointer_from_pretrained": (case_lfs_pointer_from_pretrained, "checkpoint_corrupt",
                                    False),
    "html_page_torch_load": (case_html_page_torch_load, "checkpoint_corrupt", False),
    "tokenizer_json_not_json": (case_tokenizer_json_not_json, "python_crash", False),
    "generation_config_not_json": (case_generation_config_not_json, "python_crash", False),
    "cache_broken_symlink_offline": (case_cache_broken_symlink_offline, "hf_weights_missing",
                                     False),
    "dcp_metadata_missing": (case_dcp_metadata_missing, "checkpoint_corrupt", False),
    "trainer_resume_partial_ckpt": (case_trainer_resume_partial_ckpt, "checkpoint_corrupt",
                                    False),
    "trainer_resume_truncated_weights": (case_trainer_resume_truncated_weights,
                                         "checkpoint_corrupt", False),
    "trainer_save_full_disk": (case_trainer_save_full_disk, "disk_full", False),
    "disk_full_copytree": (case_disk_full_copytree, "disk_full", False),
    "disk_full_genconfig_save": (case_disk_full_genconfig_save, "disk_full", False),
    "compile_index_oob_cuda": (case_compile_index_oob_cuda, "cuda_error", True),
    "cuda_oom_no_caching": (case_cuda_oom_no_caching, "cuda_oom", True),
    "triton_numel_too_large": (case_triton_numel_too_large, "python_crash", True),
    "gloo_recv_timeout": (case_gloo_recv_timeout, "dist_timeout", False),
    "process_pool_worker_killed": (case_process_pool_worker_killed, "python_crash", False),
    "benign_cudagraph_skip": (case_benign_cudagraph_skip, "benign", True),
    "genconfig_flags_save_strict": (case_genconfig_flags_save_strict, "python_crash", False),
    "trainer_resume_optimizer_html": (case_trainer_resume_optimizer_html, "checkpoint_corrupt",
                                      False),
    "trainer_resume_rng_lfs_pointer": (case_trainer_resume_rng_lfs_pointer,
                                       "checkpoint_corrupt", False),
    "gloo_allreduce_size_mismatch": (case_gloo_allreduce_size_mismatch, "python_crash", False),
    "disk_full_inodes_trainer": (case_disk_full_inodes_trainer, "disk_full", False),
}
for _v, _api in [("gated401", "genconfig"), ("status503", "genconfig"),
                 ("missing404", "genconfig"), ("status500", "commits"), ("gated403", "commits"),
                 ("missing404", "commits"), ("status429", "tree"), ("gated401", "tree"),
                 ("status502", "st_meta"), ("gated403", "st_meta"), ("badtoken401", "whoami"),
                 ("status429", "genconfig"), ("status502", "genconfig"),
                 ("gated403", "genconfig"), ("forbidden403", "commits"),
                 ("badtoken401", "tree"), ("status503", "tree"), ("status500", "st_meta")]:
    CASES7[f"hub7_{_v}_{_api}"] = (partial(hub7_case, _v, _api), HUB_KIND[_v], False)
CASES7["hub7_okrepo_st_meta"] = (partial(hub7_case, "okrepo", "st_meta"), "hf_weights_missing",
                                 False)
CASES.update(CASES7)


# ----------------------------------------------------------------------------- eighth set
# Other call paths again, NCCL and launchers first: NCCL env settings pointing at nothing
# (interfaces excluded, topology / debug files missing), ProcessGroupNCCL's own argument checks on
# one GPU (complex MAX, uint32, mismatched reduce_scatter / all_gather sizes and dtypes), torchrun
# misconfigured (etcd rendezvous, an unresolvable c10d endpoint, a busy master port, a bad
# --nnodes, --nproc-per-node=gpu without CUDA, two ranks on one GPU), accelerate launch and
# Accelerator misconfigured (DeepSpeed absent, fp16 on CPU, fp8 without a backend, more processes
# than GPUs, a child that raises, save_state onto a full disk), the caching allocator's settings,
# children killed by SIGXFSZ / SIGXCPU (file-size and CPU limits), the loopback Hub through
# auth_check / get_hf_file_metadata / AutoFeatureExtractor and an offline, partial cache;
# benign: accelerate launch's note on defaults.


def _nccl_api_case(op: str) -> None:
    """World of one on the GPU: ProcessGroupNCCL's own checks of a collective's arguments."""
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    if op == "complex_max":
        dist.all_reduce(torch.ones(4, dtype=torch.complex64, device="cuda"),
                        op=dist.ReduceOp.MAX)
    elif op == "uint32":
        dist.all_reduce(torch.ones(4, dtype=torch.uint32, device="cuda"))
    elif op == "reduce_scatter_size":
        dist.reduce_scatter_tensor(torch.empty(4, device="cuda"), torch.ones(6, device="cuda"))
    elif op == "all_gather_dtype":
        dist.all_gather_into_tensor(torch.empty(4, device="cuda"),
                                    torch.ones(4, dtype=torch.float16, device="cuda"))
    torch.cuda.synchronize()
    print("collective done", flush=True)


def case_nccl_ifname_exclude_all() -> None:
    _nccl_env_case(NCCL_SOCKET_IFNAME="^lo,eth,en,ib,docker,bond,veth")


def case_nccl_ifname_exact_missing() -> None:
    _nccl_env_case(NCCL_SOCKET_IFNAME="=ens99f0np0")


def case_nccl_topo_file_missing() -> None:
    _nccl_env_case(NCCL_TOPO_FILE="/etc/nccl/topo-irisrl.xml", NCCL_DEBUG="INFO",
                   NCCL_DEBUG_SUBSYS="INIT,GRAPH")


def case_nccl_debug_file_bad() -> None:
    _nccl_env_case(NCCL_DEBUG="INFO", NCCL_DEBUG_FILE="/nonexistent/irisrl/nccl.%h.%p.log")


def case_alloc_conf_gc_threshold() -> None:
    import torch

    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "garbage_collection_threshold:1.5"
    print(torch.empty(4, device="cuda").sum().item())


def case_alloc_conf_roundup_bad() -> None:
    import torch

    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "roundup_power2_divisions:3"
    print(torch.empty(4, device="cuda").sum().item())


def case_memory_fraction_invalid() -> None:
    import torch

    torch.cuda.set_per_process_memory_fraction(1.5)


def _torchrun8(*argv: str) -> None:
    sys.exit(subprocess.call([sys.executable, "-m", "torch.distributed.run", *argv]))


def case_torchrun_rdzv_etcd_absent() -> None:
    _torchrun8("--nnodes=1", "--nproc-per-node=1", "--rdzv-backend=etcd",
               "--rdzv-endpoint=127.0.0.1:2379", "--rdzv-id=irisrl", str(SCRIPT), "child", "ok")


def case_torchrun_rdzv_endpoint_dns() -> None:
    _torchrun8("--nnodes=1", "--nproc-per-node=1", "--rdzv-backend=c10d",
               "--rdzv-endpoint=trainer-0.irisrl-rdzv.invalid:29400", "--rdzv-id=irisrl",
               str(SCRIPT), "child", "ok")


def case_torchrun_master_port_busy() -> None:
    s = socket.socket()
    s.bind(("0.0.0.0", 0))
    s.listen()
    _torchrun8("--nnodes=1", "--nproc-per-node=1", "--node-rank=0", "--master-addr=127.0.0.1",
               f"--master-port={s.getsockname()[1]}", str(SCRIPT), "child", "ok")


def case_torchrun_nnodes_bad() -> None:
    _torchrun8("--nnodes=2:1", "--nproc-per-node=1", "--rdzv-backend=c10d",
               f"--rdzv-endpoint=127.0.0.1:{free_port()}", str(SCRIPT), "child", "ok")


def case_torchrun_nproc_gpu_no_cuda() -> None:
    _torchrun8("--standalone", "--nproc-per-node=gpu", str(SCRIPT), "child", "ok")


def case_torchrun_nccl_two_ranks_one_gpu() -> None:
    _torchrun8("--standalone", "--nproc-per-node=2", str(SCRIPT), "child", "nccl_dup")


def case_torchrun_child_xcpu() -> None:
    _torchrun8("--standalone", "--nproc-per-node=2", str(SCRIPT), "child", "xcpu")


def _xfsz_worker(rank: int) -> None:
    if rank == 1:
        time.sleep(1)
        _limit_fault("xfsz")
    time.sleep(10)


def case_spawn_child_xfsz() -> None:
    import torch.multiprocessing as mp

    mp.spawn(_xfsz_worker, nprocs=2)


def _limit_fault(mode: str) -> None:
    """Die by a resource limit's signal: SIGXFSZ (a checkpoint written past RLIMIT_FSIZE, the
    signal not ignored) or SIGXCPU (a busy loop past RLIMIT_CPU)."""
    import resource
    import signal

    if mode == "xfsz":
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        with open(Path(tempfile.mkdtemp()) / "ckpt.pt", "wb") as f:
            f.write(b"\0" * (4 << 20))
    elif mode == "xcpu":
        resource.setrlimit(resource.RLIMIT_CPU, (1, 2))
        while True:
            pass


def _accelerate(*argv: str) -> None:
    os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="hfhome")  # no default_config.yaml
    import shutil

    cli = shutil.which("accelerate")  # the console script; else its module
    cmd = [cli] if cli else [sys.executable, "-m", "accelerate.commands.accelerate_cli"]
    sys.exit(subprocess.call([*cmd, "launch", *argv]))


def case_accelerate_deepspeed_absent() -> None:
    _accelerate("--use_deepspeed", "--num_processes=1", str(SCRIPT), "child", "ok")


def case_accelerate_child_raises() -> None:
    _accelerate("--cpu", "--num_processes=1", str(SCRIPT), "child", "raise_single")


def case_accelerate_more_procs_than_gpus() -> None:
    cfg = Path(tempfile.mkdtemp()) / "accelerate.yaml"
    cfg.write_text("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\n"
                   "gpu_ids: all\nmachine_rank: 0\nmain_training_function: main\n"
                   "mixed_precision: bf16\nnum_machines: 1\nnum_processes: 4\n"
                   "rdzv_backend: static\nsame_network: true\nuse_cpu: false\n")
    _accelerate("--config_file", str(cfg), str(SCRIPT), "child", "accel")


def case_accelerate_fp16_cpu() -> None:
    from accelerate import Accelerator

    Accelerator(mixed_precision="fp16", cpu=True)


def case_accelerate_fp8_no_backend() -> None:
    from accelerate import Accelerator

    acc = Accelerator(mixed_precision="fp8")
    print(acc.device)


def case_disk_full_accelerate_save_state() -> None:
    import torch
    from accelerate import Accelerator

    mnt = _full_fs()
    acc = Accelerator(cpu=True)
    model = acc.prepare(torch.nn.Linear(64, 64))
    acc.save_state(str(mnt / "checkpoint_100"))
    print(model)


def case_benign_accelerate_defaults() -> None:
    _accelerate("--cpu", "--num_processes=1", str(SCRIPT), "child", "ok")


def hub8_case(variant: str, api: str) -> None:
    """The loopback Hub (start_hub's status answers) through APIs no earlier set used."""
    _hub_env(start_hub({"okrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode()}}))
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # a revoked token
    repo = f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    if api == "auth_check":
        from huggingface_hub import HfApi

        HfApi().auth_check(repo)
        print("auth_check passed")
    elif api == "file_meta":
        from huggingface_hub import get_hf_file_metadata, hf_hub_url

        print(get_hf_file_metadata(hf_hub_url(repo, "model.safetensors")))
    elif api == "feature":
        from transformers import AutoFeatureExtractor

        print(AutoFeatureExtractor.from_pretrained(repo))


def hub8_offline_case(api: str) -> None:
    """A cache that holds only config.json (an earlier job fetched the config), then
    HF_HUB_OFFLINE=1 (set before the libraries are imported: they read it once)."""
    _hub_env(start_hub({"okrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode()}}))
    subprocess.check_call([sys.executable, "-c", "from huggingface_hub import hf_hub_download; "
                           "hf_hub_download('irisrl/okrepo', 'config.json')"])
    os.environ["HF_HUB_OFFLINE"] = "1"
    if api == "model":
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained("irisrl/okrepo")
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        AutoTokenizer.from_pretrained("irisrl/okrepo")
    elif api == "snapshot_rev":
        from huggingface_hub import snapshot_download

        snapshot_download("irisrl/okrepo", revision="release-v2")


def _nccl_watchdog_op(op: str) -> None:
    """World of one: a spin kernel ahead of a collective other than all_reduce, a 3 s timeout:
    the watchdog names the op it caught (OpType=...). Only broadcast was captured: the second
    call's time ran out before the other ops' cases (the watchdog's abort took ~70 s)."""
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", timeout=timedelta(seconds=3),
                            device_id=torch.device("cuda:0"))
    x = torch.ones(1024, device="cuda")
    torch.cuda._sleep(int(20e9))  # ~10 s of spinning on the current stream
    if op == "broadcast":
        dist.broadcast(x, src=0)
    elif op == "all_gather":
        dist.all_gather_into_tensor(torch.empty(1024, device="cuda"), x)
    elif op == "reduce_scatter":
        dist.reduce_scatter_tensor(torch.empty(1024, device="cuda"), x)
    print(f"{op} enqueued; waiting for the watchdog", flush=True)
    time.sleep(30)


def case_dist_tcp_init_refused() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{free_port()}", world_size=2,
                            rank=1, timeout=timedelta(seconds=6))


CASES8: dict[str, Case] = {
    "nccl_ifname_exclude_all": (case_nccl_ifname_exclude_all, "nccl_error", True),
    "nccl_ifname_exact_missing": (case_nccl_ifname_exact_missing, "nccl_error", True),
    "nccl_topo_file_missing": (case_nccl_topo_file_missing, "nccl_error", True),
    "nccl_debug_file_bad": (case_nccl_debug_file_bad, "nccl_error", True),
    "nccl_complex_max": (partial(_nccl_api_case, "complex_max"), "python_crash", True),
    "nccl_uint32_allreduce": (partial(_nccl_api_case, "uint32"), "python_crash", True),
    "nccl_reduce_scatter_size": (partial(_nccl_api_case, "reduce_scatter_size"),
                                 "python_crash", True),
    "nccl_all_gather_dtype": (partial(_nccl_api_case, "all_gather_dtype"), "python_crash",
                              True),
    "alloc_conf_gc_threshold": (case_alloc_conf_gc_threshold, "python_crash", True),
    "alloc_conf_roundup_bad": (case_alloc_conf_roundup_bad, "python_crash", True),
    "memory_fraction_invalid": (case_memory_fraction_invalid, "python_crash", True),
    "torchrun_rdzv_etcd_absent": (case_torchrun_rdzv_etcd_absent, "python_crash", False),
    "torchrun_rdzv_endpoint_dns": (case_torchrun_rdzv_endpoint_dns, "dist_timeout", False),
    "torchrun_master_port_busy": (case_torchrun_master_port_busy, "dist_timeout", False),
    "torchrun_nnodes_bad": (case_torchrun_nnodes_bad, "python_crash", False),
    "torchrun_nproc_gpu_no_cuda": (case_torchrun_nproc_gpu_no_cuda, "python_crash", False),
    "torchrun_nccl_two_ranks_one_gpu": (case_torchrun_nccl_two_ranks_one_gpu, "nccl_error",
                                        True),
    "torchrun_child_xcpu": (case_torchrun_child_xcpu, "python_crash", False),
    "spawn_child_xfsz": (case_spawn_child_xfsz, "python_crash", False),
    "accelerate_deepspeed_absent": (case_accelerate_deepspeed_absent, "python_crash", False),
    "accelerate_child_raises": (case_accelerate_child_raises, "python_crash", False),
    "accelerate_more_procs_than_gpus": (case_accelerate_more_procs_than_gpus, "nccl_error",
                                        True),
    "accelerate_fp16_cpu": (case_accelerate_fp16_cpu, "python_crash", False),
    "accelerate_fp8_no_backend": (case_accelerate_fp8_no_backend, "python_crash", True),
    "disk_full_accelerate_save_state": (case_disk_full_accelerate_save_state, "disk_full",
                                        False),
    "benign_accelerate_defaults": (case_benign_accelerate_defaults, "benign", False),
    "hub8_offline_model": (partial(hub8_offline_case, "model"), "hf_weights_missing", False),
    "hub8_offline_tokenizer": (partial(hub8_offline_case, "tokenizer"), "hf_weights_missing",
                               False),
    "hub8_offline_snapshot_rev": (partial(hub8_offline_case, "snapshot_rev"),
                                  "hf_weights_missing", False),
    # the second call
    "nccl_watchdog_broadcast": (partial(_nccl_watchdog_op, "broadcast"), "nccl_timeout", True),
    "dist_tcp_init_refused": (case_dist_tcp_init_refused, "dist_timeout", False),
}
for _v, _api in [("gated401", "auth_check"), ("gated403", "auth_check"),
                 ("missing404", "auth_check"), ("status500", "auth_check"),
                 ("badtoken401", "auth_check"), ("gated403", "file_meta"),
                 ("status503", "file_meta"), ("missing404", "file_meta"),
                 ("okrepo", "file_meta"), ("gated401", "feature"), ("status502", "feature"),
                 ("revision404", "feature"), ("missing401", "file_meta"),
                 # the second call
                 ("status429", "auth_check"), ("forbidden403", "auth_check"),
                 ("status429", "file_meta"), ("badtoken401", "file_meta"),
                 ("status503", "feature"), ("missing404", "feature"),
                 ("forbidden403", "feature")]:
    CASES8[f"hub8_{_v}_{_api}"] = (partial(hub8_case, _v, _api),
                                   HUB_KIND.get(_v, "hf_weights_missing"), False)
CASES.update(CASES8)


# ----------------------------------------------------------------------------- the ninth set
# CUDA device-side asserts through ops no earlier set used (take, put_, index_add_, binary
# cross-entropy, the 2-D nll_loss), cuFFT / cuSOLVER handles on a full GPU, triton's cache on a
# full disk; checkpoints damaged in new ways (a safetensors header that is not UTF-8 / not a
# JSON object / cut inside the header through transformers / cut mid-tensor; torch.load of a
# directory, a symlink loop, a zip that is no checkpoint); Rust allocators under RLIMIT_AS
# (tokenizers, safetensors); DataLoader workers dying by SIGSEGV / SIGBUS / SIGABRT; pyarrow's
# parquet cut short and written to a full disk; env:// with MASTER_PORT unset; the loopback Hub
# through dataset_info / HfFileSystem.open / snapshot_download(repo_type="dataset") /
# hf_hub_download(subfolder=..., revision=...) / from_pretrained (gated, bad token, 429, an
# index naming a missing shard); benign: deprecation / worker-count warnings.


def case_cuda_assert_take() -> None:
    _cuda_assert(lambda t: t.take(t.randn(10, device="cuda"),
                                  t.tensor([100], device="cuda")))


def case_cuda_assert_put() -> None:
    _cuda_assert(lambda t: t.zeros(4, device="cuda").put_(
        t.tensor([9], device="cuda"), t.ones(1, device="cuda")))


def case_cuda_assert_index_add() -> None:
    _cuda_assert(lambda t: t.zeros(4, device="cuda").index_add_(
        0, t.tensor([9], device="cuda"), t.ones(1, device="cuda")))


def case_cuda_assert_bce() -> None:
    """binary_cross_entropy of a probability of 2.0 (a sigmoid forgotten)."""
    import torch.nn.functional as F

    _cuda_assert(lambda t: F.binary_cross_entropy(t.full((4,), 2.0, device="cuda"),
                                                  t.ones(4, device="cuda")))


def case_cuda_assert_nll_loss2d() -> None:
    """A per-pixel cross-entropy whose target holds a class past the logits' channels."""
    import torch.nn.functional as F

    _cuda_assert(lambda t: F.cross_entropy(t.randn(2, 3, 4, 4, device="cuda"),
                                           t.full((2, 4, 4), 7, device="cuda")))


def case_cufft_gpu_full() -> None:
    import torch

    x = torch.randn(1 << 22, device="cuda")
    held = _fill_gpu(2 << 20)
    print(len(held), torch.fft.rfft(x).abs().sum().item())


def case_cusolver_gpu_full() -> None:
    import torch

    a = torch.randn(512, 512, device="cuda")
    a = a @ a.T
    held = _fill_gpu(2 << 20)
    print(len(held), torch.linalg.eigh(a)[0].sum().item())


def case_disk_full_triton_cache() -> None:
    os.environ["TRITON_CACHE_DIR"] = str(_full_fs())
    import torch

    store, _ = _triton_kernels()
    x = torch.zeros(1024, device="cuda")
    store[(1,)](x, 0)  # in bounds: the compile's cache write is what fails
    torch.cuda.synchronize()
    print(x.sum().item())


def case_torch_load_directory() -> None:
    import torch

    d = Path(tempfile.mkdtemp()) / "global_step300" / "model.pt"
    d.mkdir(parents=True)  # a sharded checkpoint's folder where a file was expected
    torch.load(d)


def case_torch_load_symlink_loop() -> None:
    import torch

    d = Path(tempfile.mkdtemp())
    (d / "latest.pt").symlink_to(d / "best.pt")
    (d / "best.pt").symlink_to(d / "latest.pt")
    torch.load(d / "latest.pt")


def case_torch_load_plain_zip() -> None:
    """A zip that is no torch checkpoint (an exported logs archive renamed .pt)."""
    import zipfile

    import torch

    p = Path(tempfile.mkdtemp()) / "policy_step300.pt"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("logs/train.log", "step 300 loss 0.1\n")
    torch.load(p)


def _st_raw(header: bytes, data: bytes = b"") -> str:
    return _st_file(len(header).to_bytes(8, "little") + header + data)


def case_st_header_not_utf8() -> None:
    from safetensors import safe_open

    with safe_open(_st_raw(b'{"w":\xff\xfe}'), framework="pt") as f:
        print(list(f.keys()))


def case_st_header_json_list() -> None:
    from safetensors import safe_open

    with safe_open(_st_raw(b"[1, 2, 3]   "), framework="pt") as f:
        print(list(f.keys()))


def case_st_cut_in_header_transformers() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    st = d / "model.safetensors"
    hlen = int.from_bytes(st.read_bytes()[:8], "little")
    os.truncate(st, 8 + hlen // 2)  # the copy stopped inside the JSON header
    AutoModelForCausalLM.from_pretrained(d)


def case_st_cut_mid_tensor_load_file() -> None:
    import torch
    from safetensors.torch import load_file, save_file

    p = Path(tempfile.mkdtemp()) / "model-00001-of-00002.safetensors"
    save_file({"lm_head.weight": torch.randn(256, 256)}, str(p))
    os.truncate(p, p.stat().st_size - 70000)
    print(load_file(str(p)))


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def case_tokenizers_rlimit_as() -> None:
    import resource

    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel({"a": 0, "[UNK]": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    text = "a " * 40_000_000
    lim = _vm_size() + (256 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    print(len(tok.encode(text).ids))


def case_st_load_rlimit_as() -> None:
    import resource

    import torch
    from safetensors.torch import load_file, save_file

    p = Path(tempfile.mkdtemp()) / "model.safetensors"
    save_file({"embed.weight": torch.zeros(64 << 20, dtype=torch.uint8)}, str(p))
    lim = _vm_size() + (32 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    print(load_file(str(p)))


class _FaultDataset:
    def __init__(self, mode: str) -> None:
        self.mode = mode

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> Any:
        import torch

        if i == 5:
            _real_fault(self.mode)
        return torch.zeros(4)


def _dataloader_fault(mode: str) -> None:
    _iterate(_FaultDataset(mode), num_workers=2)


def case_pyarrow_parquet_cut() -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = Path(tempfile.mkdtemp()) / "train-00000-of-00004.parquet"
    pq.write_table(pa.table({"prompt": [f"q{i}" for i in range(5000)]}), p)
    os.truncate(p, p.stat().st_size // 2)
    print(pq.read_table(p).num_rows)


def case_disk_full_pyarrow_write() -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"rollout": [os.urandom(64).hex() for _ in range(20000)]}),
                   _full_fs() / "rollouts-step300.parquet")


def case_dist_env_port_unset() -> None:
    import torch.distributed as dist

    os.environ.update(MASTER_ADDR="127.0.0.1", WORLD_SIZE="2", RANK="0")
    os.environ.pop("MASTER_PORT", None)
    dist.init_process_group("gloo")


def _shard_repo() -> dict[str, bytes]:
    """A sharded GPT-2 whose index names two shards; the Hub holds only the first."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    from safetensors.torch import load_file

    keys = sorted(load_file(str(d / "model.safetensors")))
    names = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    index = {"metadata": {"total_size": 1},
             "weight_map": {k: names[i % 2] for i, k in enumerate(keys)}}
    return {"config.json": (d / "config.json").read_bytes(), names[0]:
            (d / "model.safetensors").read_bytes(),
            "model.safetensors.index.json": json.dumps(index).encode()}


def hub9_case(variant: str, api: str) -> None:
    """The loopback Hub (start_hub's status answers) through APIs and arguments no earlier set
    used (`datasets` is not installed: dataset repos through huggingface_hub only)."""
    repos = {"okrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode()}}
    _hub_env(start_hub(repos))  # before transformers is imported: it reads HF_ENDPOINT once
    if variant == "shards":  # served from the same dict: the Hub looks repos up per request
        repos["shards"] = _shard_repo()
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # a revoked token
    repo = "irisrl/okrepo" if variant == "entry404" else f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    if api == "dataset_info":
        from huggingface_hub import HfApi

        print(HfApi().dataset_info(repo))
    elif api == "fsopen":
        from huggingface_hub import HfFileSystem

        with HfFileSystem().open(f"{repo}/tokenizer.json", "rb") as f:
            print(len(f.read()))
    elif api == "snapshot_dataset":
        from huggingface_hub import snapshot_download

        print(snapshot_download(repo, repo_type="dataset", allow_patterns=["data/*.parquet"]))
    elif api == "download_rev":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "config.json", revision="refs/pr/7"))
    elif api == "download_sub":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "config.json", subfolder="text_encoder"))
    elif api == "model":
        from transformers import AutoModelForCausalLM

        print(AutoModelForCausalLM.from_pretrained(repo))


def case_cuda_assert_index_copy() -> None:
    _cuda_assert(lambda t: t.zeros(4, 2, device="cuda").index_copy_(
        0, t.tensor([9], device="cuda"), t.ones(1, 2, device="cuda")))


def case_cuda_assert_index_fill() -> None:
    _cuda_assert(lambda t: t.zeros(4, 2, device="cuda").index_fill_(
        0, t.tensor([9], device="cuda"), 1.0))


def case_cuda_assert_multi_margin() -> None:
    import torch.nn.functional as F

    _cuda_assert(lambda t: F.multi_margin_loss(t.randn(4, 3, device="cuda"),
                                               t.tensor([0, 1, 2, 7], device="cuda")))


def case_cuda_assert_max_unpool() -> None:
    import torch.nn.functional as F

    _cuda_assert(lambda t: F.max_unpool2d(t.ones(1, 1, 2, 2, device="cuda"),
                                          t.full((1, 1, 2, 2), 99, device="cuda"), 2))


def case_torch_load_safetensors_file() -> None:
    """torch.load of a .safetensors file (a loader that picks the wrong reader)."""
    import torch
    from safetensors.torch import save_file

    p = Path(tempfile.mkdtemp()) / "model.safetensors"
    save_file({"w": torch.ones(4)}, str(p))
    torch.load(p)


def case_torch_load_gzip() -> None:
    """torch.load of a gzipped checkpoint (an archive step compressed it in place)."""
    import gzip
    import io

    import torch

    buf = io.BytesIO()
    torch.save({"w": torch.ones(4)}, buf)
    p = Path(tempfile.mkdtemp()) / "optimizer.pt"
    p.write_bytes(gzip.compress(buf.getvalue()))
    torch.load(p)


def case_benign_gradscaler_deprecated() -> None:
    import torch

    print(torch.cuda.amp.GradScaler().is_enabled())


def case_benign_sdp_kernel_deprecated() -> None:
    import torch

    with torch.backends.cuda.sdp_kernel(enable_flash=False):
        print("sdp kernel context entered")


def case_benign_dataloader_many_workers() -> None:
    _iterate(list(range(4)), num_workers=40)


CASES9: dict[str, Case] = {
    "cuda_assert_take": (case_cuda_assert_take, "cuda_error", True),
    "cuda_assert_put": (case_cuda_assert_put, "cuda_error", True),
    "cuda_assert_index_add": (case_cuda_assert_index_add, "cuda_error", True),
    "cuda_assert_bce": (case_cuda_assert_bce, "cuda_error", True),
    "cuda_assert_nll_loss2d": (case_cuda_assert_nll_loss2d, "cuda_error", True),
    "cufft_gpu_full": (case_cufft_gpu_full, "cuda_oom", True),
    "cusolver_gpu_full": (case_cusolver_gpu_full, "cuda_oom", True),
    "disk_full_triton_cache": (case_disk_full_triton_cache, "disk_full", True),
    "torch_load_directory": (case_torch_load_directory, "python_crash", False),
    "torch_load_symlink_loop": (case_torch_load_symlink_loop, "python_crash", False),
    "torch_load_plain_zip": (case_torch_load_plain_zip, "checkpoint_corrupt", False),
    "st_header_not_utf8": (case_st_header_not_utf8, "checkpoint_corrupt", False),
    "st_header_json_list": (case_st_header_json_list, "checkpoint_corrupt", False),
    "st_cut_in_header_transformers": (case_st_cut_in_header_transformers,
                                      "checkpoint_corrupt", False),
    "st_cut_mid_tensor_load_file": (case_st_cut_mid_tensor_load_file, "checkpoint_corrupt",
                                    False),
    "tokenizers_rlimit_as": (case_tokenizers_rlimit_as, "python_crash", False),
    "st_load_rlimit_as": (case_st_load_rlimit_as, "python_crash", False),
    "dataloader_worker_segv": (partial(_dataloader_fault, "segv"), "python_crash", False),
    "dataloader_worker_bus": (partial(_dataloader_fault, "bus"), "python_crash", False),
    "dataloader_worker_abort": (partial(_dataloader_fault, "abort"), "python_crash", False),
    "pyarrow_parquet_cut": (case_pyarrow_parquet_cut, "python_crash", False),
    "disk_full_pyarrow_write": (case_disk_full_pyarrow_write, "disk_full", False),
    "dist_env_port_unset": (case_dist_env_port_unset, "python_crash", False),
    "benign_gradscaler_deprecated": (case_benign_gradscaler_deprecated, "benign", False),
    "benign_sdp_kernel_deprecated": (case_benign_sdp_kernel_deprecated, "benign", False),
    "benign_dataloader_many_workers": (case_benign_dataloader_many_workers, "benign", False),
    "hub9_shards_model": (partial(hub9_case, "shards", "model"), "hf_weights_missing", False),
    # the second call
    "cuda_assert_index_copy": (case_cuda_assert_index_copy, "cuda_error", True),
    "cuda_assert_index_fill": (case_cuda_assert_index_fill, "cuda_error", True),
    "cuda_assert_multi_margin": (case_cuda_assert_multi_margin, "cuda_error", True),
    "cuda_assert_max_unpool": (case_cuda_assert_max_unpool, "cuda_error", True),
    "torch_load_safetensors_file": (case_torch_load_safetensors_file, "checkpoint_corrupt",
                                    False),
    "torch_load_gzip": (case_torch_load_gzip, "checkpoint_corrupt", False),
}
for _v, _api in [("gated401", "dataset_info"), ("status503", "dataset_info"),
                 ("missing404", "dataset_info"), ("gated403", "fsopen"),
                 ("status502", "fsopen"), ("entry404", "fsopen"),
                 ("gated401", "snapshot_dataset"), ("status429", "snapshot_dataset"),
                 ("revision404", "download_rev"), ("status500", "download_sub"),
                 ("entry404", "download_sub"), ("gated403", "download_sub"),
                 ("gated401", "model"), ("badtoken401", "model"), ("forbidden403", "model"),
                 ("status429", "model")]:
    CASES9[f"hub9_{_v}_{_api}"] = (partial(hub9_case, _v, _api), HUB_KIND[_v], False)
CASES.update(CASES9)


# ----------------------------------------------------------------------------- tenth set
# New call paths only (no case of an earlier set repeated): device asserts in other kernels,
# SDPA / cudagraph / sync-debug checks, CUDA IPC between processes, NCCL after an abort and at a
# first collective on a full GPU, a c10d store whose server died, gloo / DeviceMesh / DCP
# misuse, transformers loads that need a package the machine lacks, torch.load with
# weights_only=False of damaged files, safetensors misuse, and the Hub's write paths (create_repo,
# create_branch, upload, create_commit, delete_file, push_to_hub) with statuses no earlier set
# answered (409, 412, 413, 504).


def case_cuda_assert_masked_scatter() -> None:
    _cuda_assert(lambda t: t.zeros(8, device="cuda").masked_scatter_(
        t.ones(8, dtype=t.bool, device="cuda"), t.ones(3, device="cuda")))


def case_cuda_assert_index_reduce() -> None:
    _cuda_assert(lambda t: t.zeros(4, 2, device="cuda").index_reduce_(
        0, t.tensor([9], device="cuda"), t.ones(1, 2, device="cuda"), "amax"))


def case_cuda_assert_nll_no_reduce() -> None:
    import torch.nn.functional as F

    _cuda_assert(lambda t: F.nll_loss(t.randn(4, 3, device="cuda").log_softmax(1),
                                      t.tensor([0, 1, 2, 7], device="cuda"), reduction="none"))


def case_cuda_assert_bernoulli() -> None:
    _cuda_assert(lambda t: t.bernoulli(t.full((4,), 1.5, device="cuda")))


def case_cuda_assert_searchsorted_sorter() -> None:
    _cuda_assert(lambda t: t.searchsorted(t.arange(8.0, device="cuda"),
                                          t.tensor([3.5], device="cuda"),
                                          sorter=t.full((8,), 99, device="cuda")))


def case_sdpa_flash_fp32() -> None:
    """SDPA pinned to the flash backend with float32 inputs (flash needs fp16 / bf16)."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    q = torch.randn(1, 4, 128, 64, device="cuda")
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        F.scaled_dot_product_attention(q, q, q, is_causal=True)


def case_cudagraph_output_overwritten() -> None:
    """torch.compile(mode='reduce-overhead'): an output kept from an earlier replay is read after
    the next replay overwrote it (a rollout buffer holding a compiled step's output)."""
    import torch

    @torch.compile(mode="reduce-overhead")
    def step(x: Any) -> Any:
        return x * 2 + 1

    x = torch.ones(16, device="cuda")
    for _ in range(4):  # warm-up, record, replays; each a training step
        torch.compiler.cudagraph_mark_step_begin()
        kept = step(x)
    torch.compiler.cudagraph_mark_step_begin()
    step(x)
    print((kept + 1).sum().item())


def _sync_debug(mode: str) -> None:
    import torch

    torch.cuda.set_sync_debug_mode(mode)
    x = torch.ones(16, device="cuda")
    print("loss", x.sum().item())


def case_st_load_file_bad_device() -> None:
    """safetensors load_file onto cuda:5 on a one-GPU node (a device map written for 8 GPUs)."""
    import torch
    from safetensors.torch import load_file, save_file

    p = Path(tempfile.mkdtemp()) / "model.safetensors"
    save_file({"w": torch.ones(4)}, str(p))
    load_file(str(p), device="cuda:5")


def _tiny_model_config_patch(patch: dict[str, Any]) -> Path:
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    cfg = json.loads((d / "config.json").read_text())
    cfg.update(patch)
    (d / "config.json").write_text(json.dumps(cfg))
    return d


def case_quant_bnb_absent() -> None:
    """A checkpoint whose config.json asks for bitsandbytes 4-bit, on a machine without it."""
    d = _tiny_model_config_patch({"quantization_config": {
        "quant_method": "bitsandbytes", "load_in_4bit": True,
        "bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_quant_type": "nf4"}})
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d)


def case_flash_attn2_absent() -> None:
    import torch

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d, attn_implementation="flash_attention_2",
                                         dtype=torch.bfloat16, device_map="cuda")


def _ipc_producer(q: Any, done: Any, wait: bool) -> None:
    import torch

    q.put(torch.ones(1 << 20, device="cuda"))
    if wait:
        done.wait(30)


def _cuda_ipc(wait: bool) -> None:
    """A CUDA tensor handed to another process through torch.multiprocessing (weight sync between
    a trainer and a rollout worker)."""
    import torch
    import torch.multiprocessing as mp

    ctx = mp.get_context("spawn")
    q, done = ctx.Queue(), ctx.Event()
    p = ctx.Process(target=_ipc_producer, args=(q, done, wait))
    p.start()
    t = q.get(timeout=60)
    if not wait:
        p.join()  # the producer is gone while this process still holds its tensor
    print("sum", t.sum().item())
    done.set()
    p.join()


def case_nccl_oom_first_collective() -> None:
    """NCCL initialised eagerly (device_id), then the GPU filled, then the first collective."""
    import torch
    import torch.distributed as dist

    os.environ["NCCL_DEBUG"] = "WARN"
    dist_env(1, 0, free_port())
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    x = torch.ones(1 << 20, device="cuda")
    held = _fill_gpu(4 << 20)
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print("all_reduce done", len(held))


def case_nccl_after_abort() -> None:
    """A collective on a process group that was aborted (what the step after a watchdog abort, or
    an elastic restart that reuses the group, meets)."""
    import torch
    import torch.distributed as dist

    os.environ["NCCL_DEBUG"] = "WARN"
    dist_env(1, 0, free_port())
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()
    pg = dist.distributed_c10d._get_default_group()
    pg._get_backend(torch.device("cuda")).abort()  # the communicator aborted, the group kept
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print("all_reduce after abort returned")


def case_cupy_invalid_device() -> None:
    import cupy

    with cupy.cuda.Device(5):
        cupy.ones(4)


def case_cuda_assert_multilabel_margin() -> None:
    import torch.nn.functional as F

    _cuda_assert(lambda t: F.multilabel_margin_loss(t.randn(2, 4, device="cuda"),
                                                    t.tensor([[0, 9, -1, 0], [1, -1, 0, 0]],
                                                             device="cuda")))


def case_store_port_other_service() -> None:
    """MASTER_PORT taken by another service (it answers like an HTTP server, then closes)."""
    from datetime import timedelta

    from torch.distributed import TCPStore

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    port = srv.getsockname()[1]

    def serve() -> None:
        while True:
            conn, _ = srv.accept()
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    store = TCPStore("127.0.0.1", port, 2, is_master=False, timeout=timedelta(seconds=5))
    store.get("rank0_ready")


def case_torch_load_bad_magic() -> None:
    """A legacy-format checkpoint whose leading magic number is damaged (weights_only=False)."""
    import pickle

    import torch

    p = Path(tempfile.mkdtemp()) / "critic.pt"
    torch.save({"w": torch.ones(64)}, p, _use_new_zipfile_serialization=False)
    raw = p.read_bytes()
    magic = pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2)[2:-1]
    assert magic in raw[:32]
    p.write_bytes(raw.replace(magic, pickle.dumps(0x1950A86A20F9469CFC6D, protocol=2)[2:-1], 1))
    torch.load(p, weights_only=False)


def case_nccl_init_no_gpu() -> None:
    """init_process_group('nccl') in a process that sees no GPU (a CPU-only pod of the job)."""
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl")
    import torch

    dist.all_reduce(torch.ones(1))


def case_device_mesh_too_big() -> None:
    """init_device_mesh for dp=2 x tp=2 in a world of one (a launch with too few processes)."""
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))


def case_dcp_load_torch_save_file() -> None:
    """torch.distributed.checkpoint.load pointed at a torch.save file (the wrong loader)."""
    import torch
    import torch.distributed.checkpoint as dcp

    p = Path(tempfile.mkdtemp()) / "global_step_20" / "model.pt"
    p.parent.mkdir()
    sd = {"w": torch.ones(4)}
    torch.save(sd, p)
    dcp.load(sd, checkpoint_id=str(p))


def case_gloo_reduce_scatter_tensor() -> None:
    """reduce_scatter_tensor (FSDP's gradient reduce) on the gloo backend."""
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    out = torch.zeros(4)
    dist.reduce_scatter_tensor(out, torch.ones(4))
    print("reduce_scatter_tensor done", out)


def case_gloo_ifname_missing() -> None:
    import torch.distributed as dist

    os.environ["GLOO_SOCKET_IFNAME"] = "ens99f0np0"
    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")


def _store_server_dies(op: str) -> None:
    """The c10d store's host (rank 0) dies; rank 1 still talks to the store."""
    from datetime import timedelta

    from torch.distributed import TCPStore

    port = free_port()
    pid = os.fork()
    if pid == 0:
        store = TCPStore("127.0.0.1", port, 2, is_master=True, timeout=timedelta(seconds=10))
        store.set("ready", "1")
        time.sleep(3 if op == "wait" else 1.5)
        os._exit(0)  # the master process ends: its store goes with it
    time.sleep(0.5)
    client = TCPStore("127.0.0.1", port, 2, is_master=False, timeout=timedelta(seconds=10))
    client.get("ready")
    if op == "wait":
        client.wait(["step_1_done"])
    else:
        time.sleep(3)
        client.get("ready")
    os.waitpid(pid, 0)


def case_dtype_mismatch_linear() -> None:
    """A bf16 batch through a float32 layer (autocast forgotten on one path)."""
    import torch

    torch.nn.Linear(8, 8)(torch.ones(2, 8, dtype=torch.bfloat16))


def case_optimizer_group_mismatch() -> None:
    """Resuming an optimizer from a checkpoint of another model (a head added since)."""
    import torch

    old = torch.nn.Linear(4, 4)
    new = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 2))
    sd = torch.optim.AdamW(old.parameters()).state_dict()
    torch.optim.AdamW(new.parameters()).load_state_dict(sd)


def _ckpt_bytes() -> bytes:
    import io

    import torch

    buf = io.BytesIO()
    torch.save({"step": 100, "w": torch.ones(64)}, buf)
    return buf.getvalue()


def case_torch_load_unsafe_garbage() -> None:
    """torch.load(weights_only=False) (an optimizer / RNG state) of random bytes."""
    import torch

    p = Path(tempfile.mkdtemp()) / "optimizer.pt"
    p.write_bytes(bytes([0x8f, 0x21, 0x6c, 0x03]) + os.urandom(4092))
    torch.load(p, weights_only=False)


def case_torch_load_unsafe_empty() -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / "rng_state.pth"
    p.write_bytes(b"")
    torch.load(p, weights_only=False)


def case_torch_load_unsafe_pickle_cut() -> None:
    """A zip whose data.pkl member is cut short (the zip itself sound: repacked)."""
    import io
    import zipfile

    import torch

    src = zipfile.ZipFile(io.BytesIO(_ckpt_bytes()))
    p = Path(tempfile.mkdtemp()) / "trainer_state.pt"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("data.pkl"):
                data = data[: len(data) // 2]
            dst.writestr(info, data)
    torch.load(p, weights_only=False)


def case_torch_load_mmap_legacy() -> None:
    """torch.load(mmap=True) of a checkpoint written with the legacy (non-zip) serializer."""
    import torch

    p = Path(tempfile.mkdtemp()) / "actor.pt"
    torch.save({"w": torch.ones(64)}, p, _use_new_zipfile_serialization=False)
    torch.load(p, mmap=True)


def case_st_safe_open_directory() -> None:
    from safetensors import safe_open

    d = Path(tempfile.mkdtemp()) / "model.safetensors"  # a folder named like the file
    d.mkdir()
    safe_open(str(d), framework="pt")


def case_st_save_non_contiguous() -> None:
    import torch
    from safetensors.torch import save_file

    save_file({"lm_head.weight": torch.ones(8, 4).t()},
              str(Path(tempfile.mkdtemp()) / "model.safetensors"))


def case_st_header_metadata_not_str() -> None:
    """A safetensors file whose __metadata__ holds a number (a hand-written exporter)."""
    from safetensors import safe_open

    p = _st_lie({"__metadata__": {"format": "pt", "step": 300},
                 "w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, b"\0" * 8)
    with safe_open(p, framework="pt") as f:
        print(f.metadata())


def case_transformers_use_safetensors_missing() -> None:
    """from_pretrained(use_safetensors=True) of a folder that holds only pytorch_model.bin."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "sft_ckpt", "bin")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d, use_safetensors=True)


def case_remote_code_missing_package() -> None:
    d = Path(tempfile.mkdtemp()) / "custom_policy"
    d.mkdir()
    (d / "config.json").write_text(json.dumps({
        "model_type": "irisrl_policy", "auto_map": {
            "AutoConfig": "configuration_policy.PolicyConfig",
            "AutoModelForCausalLM": "modeling_policy.PolicyForCausalLM"}}))
    (d / "configuration_policy.py").write_text(
        "from transformers import PretrainedConfig\n"
        "class PolicyConfig(PretrainedConfig):\n    model_type = 'irisrl_policy'\n")
    (d / "modeling_policy.py").write_text(
        "import flash_attn\nfrom transformers import PreTrainedModel\n"
        "from .configuration_policy import PolicyConfig\n"
        "class PolicyForCausalLM(PreTrainedModel):\n    config_class = PolicyConfig\n")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d, trust_remote_code=True)


def case_tokenizer_class_unknown() -> None:
    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    cfg = json.loads((d / "tokenizer_config.json").read_text())
    cfg["tokenizer_class"] = "PolicyTokenizerFast"
    (d / "tokenizer_config.json").write_text(json.dumps(cfg))
    from transformers import AutoTokenizer

    print(AutoTokenizer.from_pretrained(d))


HUB_ERRORS10: dict[str, tuple[int, str | None, str | None]] = {
    "conflict409": (409, None, "You already created this model repo"),
    "precond412": (412, None, "A commit has happened since. Please refresh and try again."),
    "toolarge413": (413, None, None),
    "status504": (504, None, None),
}


def hub10_case(variant: str, api: str) -> None:
    """The Hub's write paths (a trainer pushing checkpoints) and a download, answered with statuses
    no earlier set used, or with start_hub's 401 / 403."""
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}'}}, dict(HUB_ERRORS, **HUB_ERRORS10)))
    os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # writes need a token; the Hub judges it
    repo = f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    from huggingface_hub import CommitOperationAdd, HfApi

    api_ = HfApi()
    if api == "create_repo":
        print(api_.create_repo(repo, private=True))
    elif api == "create_branch":
        api_.create_branch(repo, branch="global_step_300")
    elif api == "upload":
        api_.upload_file(path_or_fileobj=b"\0" * 4096, path_in_repo="global_step_300/model.safetensors",
                         repo_id=repo, commit_message="global_step_300")
    elif api == "commit":
        api_.create_commit(repo, [CommitOperationAdd("trainer_state.json", b'{"step": 300}')],
                           commit_message="global_step_300", parent_commit=COMMIT)
    elif api == "delete_file":
        api_.delete_file("global_step_100/model.safetensors", repo, commit_message="rotate")
    elif api == "upload_folder":
        d = Path(tempfile.mkdtemp()) / "global_step_300"
        d.mkdir()
        (d / "trainer_state.json").write_text('{"step": 300}')
        api_.upload_folder(folder_path=d, repo_id=repo, path_in_repo="global_step_300")
    elif api == "download":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "config.json"))
    elif api == "push":
        d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained(d).push_to_hub(repo, commit_message="step 300")


def case_benign_target_size_broadcast() -> None:
    import torch
    import torch.nn.functional as F

    print(F.mse_loss(torch.ones(4, 1), torch.zeros(4)).item())


def case_benign_numpy_not_writable() -> None:
    import numpy as np
    import torch

    a = np.frombuffer(b"\0" * 32, dtype=np.float32)
    print(torch.from_numpy(a).sum().item())


def case_benign_lr_scheduler_order() -> None:
    import torch

    m = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1)
    sched.step()
    opt.step()
    print("lr", sched.get_last_lr())


def case_benign_tokenizer_too_long() -> None:
    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    cfg = json.loads((d / "tokenizer_config.json").read_text())
    cfg["model_max_length"] = 8
    (d / "tokenizer_config.json").write_text(json.dumps(cfg))
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(d)
    print(len(tok("hello world " * 20)["input_ids"]))


def hub_grid(cases: dict[str, Case], prefix: str, run: Callable[..., Any], grid: list[tuple[str, str, str]]) -> None:
    """One Hub case per (variant, api, kind) of `grid`: `<prefix>_<variant>_<api>` runs run(variant, api)."""
    for variant, api, kind in grid:
        cases[f"{prefix}_{variant}_{api}"] = (partial(run, variant, api), kind, False)


CASES10: dict[str, Case] = {
    "cuda_assert_masked_scatter": (case_cuda_assert_masked_scatter, "cuda_error", True),
    "cuda_assert_index_reduce": (case_cuda_assert_index_reduce, "cuda_error", True),
    "cuda_assert_nll_no_reduce": (case_cuda_assert_nll_no_reduce, "cuda_error", True),
    "cuda_assert_bernoulli": (case_cuda_assert_bernoulli, "cuda_error", True),
    "cuda_assert_searchsorted_sorter": (case_cuda_assert_searchsorted_sorter, "cuda_error", True),
    "sdpa_flash_fp32": (case_sdpa_flash_fp32, "python_crash", True),
    "cudagraph_output_overwritten": (case_cudagraph_output_overwritten, "python_crash", True),
    "sync_debug_error": (partial(_sync_debug, "error"), "python_crash", True),
    "benign_sync_debug_warn": (partial(_sync_debug, "warn"), "benign", True),
    "st_load_file_bad_device": (case_st_load_file_bad_device, "cuda_error", True),
    "quant_bnb_absent": (case_quant_bnb_absent, "python_crash", True),
    "flash_attn2_absent": (case_flash_attn2_absent, "python_crash", True),
    "cuda_ipc_producer_exit": (partial(_cuda_ipc, False), "cuda_error", True),
    "cuda_ipc_producer_alive": (partial(_cuda_ipc, True), "cuda_error", True),
    "nccl_oom_first_collective": (case_nccl_oom_first_collective, "cuda_oom", True),
    "nccl_after_abort": (case_nccl_after_abort, "nccl_error", True),
    "cupy_invalid_device": (case_cupy_invalid_device, "cuda_error", True),
    "nccl_init_no_gpu": (case_nccl_init_no_gpu, "python_crash", False),
    # the second call
    "cuda_assert_multilabel_margin": (case_cuda_assert_multilabel_margin, "cuda_error", True),
    "store_port_other_service": (case_store_port_other_service, "dist_timeout", False),
    "torch_load_bad_magic": (case_torch_load_bad_magic, "checkpoint_corrupt", False),
    "device_mesh_too_big": (case_device_mesh_too_big, "python_crash", False),
    "dcp_load_torch_save_file": (case_dcp_load_torch_save_file, "python_crash", False),
    "gloo_reduce_scatter_tensor": (case_gloo_reduce_scatter_tensor, "python_crash", False),
    "gloo_ifname_missing": (case_gloo_ifname_missing, "python_crash", False),
    "store_server_died_get": (partial(_store_server_dies, "get"), "dist_timeout", False),
    "store_server_died_wait": (partial(_store_server_dies, "wait"), "dist_timeout", False),
    "dtype_mismatch_linear": (case_dtype_mismatch_linear, "python_crash", False),
    "optimizer_group_mismatch": (case_optimizer_group_mismatch, "python_crash", False),
    "torch_load_unsafe_garbage": (case_torch_load_unsafe_garbage, "checkpoint_corrupt", False),
    "torch_load_unsafe_empty": (case_torch_load_unsafe_empty, "checkpoint_corrupt", False),
    "torch_load_unsafe_pickle_cut": (case_torch_load_unsafe_pickle_cut, "checkpoint_corrupt",
                                     False),
    "torch_load_mmap_legacy": (case_torch_load_mmap_legacy, "checkpoint_corrupt", False),
    "st_safe_open_directory": (case_st_safe_open_directory, "python_crash", False),
    "st_save_non_contiguous": (case_st_save_non_contiguous, "python_crash", False),
    "st_header_metadata_not_str": (case_st_header_metadata_not_str, "checkpoint_corrupt", False),
    "transformers_use_safetensors_missing": (case_transformers_use_safetensors_missing,
                                             "hf_weights_missing", False),
    "remote_code_missing_package": (case_remote_code_missing_package, "python_crash", False),
    "tokenizer_class_unknown": (case_tokenizer_class_unknown, "python_crash", False),
    "benign_target_size_broadcast": (case_benign_target_size_broadcast, "benign", False),
    "benign_numpy_not_writable": (case_benign_numpy_not_writable, "benign", False),
    "benign_lr_scheduler_order": (case_benign_lr_scheduler_order, "benign", False),
    "benign_tokenizer_too_long": (case_benign_tokenizer_too_long, "benign", False),
}
hub_grid(CASES10, "hub10", hub10_case, [("conflict409", "create_repo", "hf_http_error"),
                                        ("conflict409", "create_branch", "hf_http_error"),
                                        ("toolarge413", "upload", "hf_http_error"),
                                        ("precond412", "commit", "hf_http_error"),
                                        ("status504", "download", "hf_http_error"),
                                        ("status504", "upload_folder", "hf_http_error"),
                                        ("badtoken401", "push", "hf_gated"),
                                        ("forbidden403", "delete_file", "hf_gated"),
                                        ("gated403", "create_branch", "hf_gated")])
CASES.update(CASES10)


# ----------------------------------------------------------------------------- the eleventh set
# Call paths no earlier set took: children ended by SIGILL / SIGFPE (spawn and torchrun), a
# DataLoader worker that exits with a code, DDP's reducer checks, c10d PrefixStore / HashStore
# waits, autograd's version counter and non-reentrant checkpoint checks, torch.load of a zip whose
# storage or byteorder record is damaged, overlapping safetensors offsets, a safetensors file
# tagged for another framework, deterministic mode against cuBLAS, triton's shared-memory limit and
# a CPU tensor handed to a triton kernel, CUDA / cupy IPC handles that open nothing, a device
# stack overflow, OOM under cudaMallocAsync with a memory fraction and inside a MemPool, NVML on a
# missing index, NCCL env settings no earlier set tried, accelerate's device_map offload without
# an offload folder, and the Hub's tag / branch / squash / revision endpoints.


def _signal_worker(signame: str, rank: int) -> None:
    import signal

    if rank == 1:
        time.sleep(1)
        os.kill(os.getpid(), getattr(signal, signame))  # kill(2): the fault's signal, not a fault
    time.sleep(10)


def case_spawn_child_sigill() -> None:
    import torch.multiprocessing as mp

    mp.spawn(partial(_signal_worker, "SIGILL"), nprocs=2)


def case_spawn_child_sigfpe() -> None:
    import torch.multiprocessing as mp

    mp.spawn(partial(_signal_worker, "SIGFPE"), nprocs=2)


class _ExitingDataset:
    """A dataset whose worker process ends with exit code 1 (a C extension calling exit(1))."""

    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> Any:
        import torch

        if i == 5:
            os._exit(1)
        return torch.ones(4)


def case_dataloader_worker_exit_code() -> None:
    _iterate(_ExitingDataset(), num_workers=2)


def case_dist_backend_mpi() -> None:
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("mpi")


def _ddp_world_of_one() -> Any:
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")


def case_ddp_unused_params() -> None:
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    _ddp_world_of_one()

    class Policy(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = torch.nn.Linear(8, 8)
            self.value_head = torch.nn.Linear(8, 1)  # not used by the actor loss

        def forward(self, x: Any) -> Any:
            return self.body(x)

    m = DDP(Policy())
    for _ in range(2):
        m(torch.ones(2, 8)).sum().backward()
    print("two steps")


def case_benign_ddp_find_unused_none() -> None:
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    _ddp_world_of_one()
    m = DDP(torch.nn.Linear(8, 8), find_unused_parameters=True)
    for _ in range(2):
        m(torch.ones(2, 8)).sum().backward()
    print("two steps")


def case_prefix_store_get_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.TCPStore("127.0.0.1", free_port(), 1, True, timedelta(seconds=3))
    dist.PrefixStore("vllm_engine_2", store).get("kv_cache_ready")


def case_hash_store_wait_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.HashStore()
    store.set_timeout(timedelta(seconds=2))
    store.wait(["policy_version"])


def case_autograd_inplace_modified() -> None:
    import torch

    logits = torch.randn(4, 8, requires_grad=True)
    probs = torch.sigmoid(logits)
    probs.mul_(0.5)  # an in-place edit of a tensor sigmoid saved for backward
    probs.sum().backward()


def case_checkpoint_recompute_mismatch() -> None:
    import torch
    from torch.utils.checkpoint import checkpoint

    calls = {"n": 0}

    def block(x: Any) -> Any:
        calls["n"] += 1
        k = 8 if calls["n"] == 1 else 6  # a shape that depends on state (dropout of tokens)
        return (x[:, :k] ** 2).sum(dim=1)  # pow saves its input for backward

    x = torch.ones(2, 8, requires_grad=True)
    checkpoint(block, x, use_reentrant=False).sum().backward()


def _zip_member_edit(name_end: str, edit: Callable[[bytes], bytes]) -> Path:
    import io
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(_ckpt_bytes()))
    p = Path(tempfile.mkdtemp()) / "actor_step300.pt"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(name_end):
                data = edit(data)
            dst.writestr(info, data)
    return p


def case_torch_load_short_storage() -> None:
    """A zip checkpoint whose data/0 member holds half the tensor's bytes (repacked sound)."""
    import torch

    p = _zip_member_edit("/data/0", lambda b: b[: len(b) // 2])
    print(torch.load(p))


def case_torch_load_bad_byteorder() -> None:
    import torch

    p = _zip_member_edit("/byteorder", lambda b: b"middle")
    print(torch.load(p))


def case_st_overlapping_offsets() -> None:
    from safetensors.torch import load_file

    p = _st_lie({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
                 "b": {"dtype": "F32", "shape": [4], "data_offsets": [8, 24]}}, b"\0" * 24)
    print(load_file(p))


def case_transformers_st_format_jax() -> None:
    """A model.safetensors whose metadata says it was written for JAX (a Flax export)."""
    import torch
    from safetensors.torch import load_file, save_file

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    sd = load_file(str(d / "model.safetensors"))
    save_file({k: v.contiguous() for k, v in sd.items()}, str(d / "model.safetensors"),
              metadata={"format": "jax"})
    from transformers import AutoModelForCausalLM

    print(type(AutoModelForCausalLM.from_pretrained(d, dtype=torch.float32)))


def case_transformers_safetensors_off() -> None:
    """from_pretrained(use_safetensors=False) of a folder that holds only model.safetensors."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d, use_safetensors=False)


def case_torch_save_parent_missing() -> None:
    import torch

    torch.save({"w": torch.ones(4)}, Path(tempfile.mkdtemp()) / "ckpt" / "global_step_300" / "actor.pt")


def case_benign_typed_storage() -> None:
    import torch

    print(torch.ones(4).storage().size())


def case_benign_weight_norm() -> None:
    import torch

    print(torch.nn.utils.weight_norm(torch.nn.Linear(4, 4)))


def case_benign_set_default_tensor_type() -> None:
    import torch

    torch.set_default_tensor_type(torch.DoubleTensor)
    print(torch.ones(1).dtype)


def case_benign_generate_greedy_temperature() -> None:
    import torch

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(d)
    out = m.generate(torch.tensor([[1, 2, 3]]), do_sample=False, temperature=0.7, top_p=0.9,
                     max_new_tokens=4, pad_token_id=0)
    print(out.shape)


def case_deterministic_cublas() -> None:
    os.environ.pop("CUBLAS_WORKSPACE_CONFIG", None)
    import torch

    torch.use_deterministic_algorithms(True)
    a = torch.ones(64, 64, device="cuda")
    print((a @ a).sum().item())


def case_deterministic_histc() -> None:
    import torch

    torch.use_deterministic_algorithms(True)  # a reproducibility flag set for the whole run
    print(torch.histc(torch.rand(1024, device="cuda"), bins=16))


def case_device_mismatch_matmul() -> None:
    import torch

    w = torch.nn.Linear(8, 8).cuda()
    print(w(torch.ones(2, 8)))  # the batch left on the host


def case_triton_smem_oor() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def tile_dot(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,  # type: ignore[no-untyped-def]
                 ):
        rm = tl.arange(0, BM)
        rn = tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
        tl.store(c_ptr + rm[:, None] * BN + rn[None, :], tl.dot(a, b))

    a = torch.ones(256 * 256, device="cuda", dtype=torch.float32)
    b = torch.ones(256 * 256, device="cuda", dtype=torch.float32)
    c = torch.empty(256 * 256, device="cuda", dtype=torch.float32)
    tile_dot[(1,)](a, b, c, BM=256, BN=256, BK=256, num_stages=3)
    torch.cuda.synchronize()


def case_triton_cpu_tensor() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def scale(x_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)

    x = torch.ones(64)  # .cuda() forgotten
    scale[(1,)](x, 64, BLOCK=64)


def case_cuda_event_ipc_bogus() -> None:
    import torch

    torch.cuda.init()
    ev = torch.cuda.Event.from_ipc_handle(0, b"\0" * 64)  # a handle that names no event
    ev.synchronize()


def case_cupy_ipc_mem_bogus() -> None:
    import cupy as cp

    cp.cuda.runtime.ipcOpenMemHandle(b"\0" * 64)


_CUPY11_SRC = r"""
__device__ int deep(int n) {
    volatile int pad[256];
    pad[n & 255] = n;
    return n == 0 ? pad[0] : deep(n - 1) + pad[(n * 7) & 255];
}
extern "C" __global__ void recurse(int* out, int n) { out[0] = deep(n); }
"""


def case_cupy_stack_overflow() -> None:
    import cupy as cp

    out = cp.zeros(1, dtype=cp.int32)
    cp.RawKernel(_CUPY11_SRC, "recurse")((1,), (1,), (out, cp.int32(1 << 20)))
    cp.cuda.Device().synchronize()
    print(int(out[0]))


def case_cuda_oom_async_fraction() -> None:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"
    import torch

    torch.cuda.set_per_process_memory_fraction(0.05)  # the trainer's share next to vLLM
    torch.empty(16 << 30, dtype=torch.uint8, device="cuda")


def case_cuda_oom_mempool() -> None:
    import torch

    pool = torch.cuda.MemPool()
    with torch.cuda.use_mem_pool(pool):
        torch.empty(1 << 38, dtype=torch.uint8, device="cuda")  # 256 GiB


def case_nvml_bad_index() -> None:
    import pynvml

    pynvml.nvmlInit()
    print(pynvml.nvmlDeviceGetCount())
    pynvml.nvmlDeviceGetHandleByIndex(7)


def case_benign_autocast_fp32() -> None:
    import torch

    with torch.autocast("cuda", dtype=torch.float32):
        print(torch.ones(2, 2, device="cuda").sum().item())


def case_benign_nccl_no_device_id() -> None:
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl")  # no device_id, no set_device
    dist.barrier()
    print("barrier done", torch.cuda.current_device())  # destroy_process_group never called


def case_nccl_graph_file_missing() -> None:
    _nccl_env_case(NCCL_GRAPH_FILE="/etc/nccl/graph-irisrl.xml")


def case_nccl_buffsize_tiny() -> None:
    _nccl_env_case(NCCL_BUFFSIZE="1")


def case_nccl_work_fifo_bad() -> None:
    _nccl_env_case(NCCL_WORK_FIFO_BYTES="1000")


def case_nccl_ras_addr_bad() -> None:
    _nccl_env_case(NCCL_RAS_ADDR="999.1.1.1:28028")


def case_nccl_broadcast_bad_src() -> None:
    import torch
    import torch.distributed as dist

    os.environ["NCCL_DEBUG"] = "WARN"
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    t = torch.ones(4, device="cuda")
    dist.broadcast(t, src=1)
    torch.cuda.synchronize()


def case_device_map_offload_missing() -> None:
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d, device_map="auto",
                                         max_memory={0: "1KiB", "cpu": "1KiB"})


def case_cupy_runtime_malloc_oom() -> None:
    import cupy as cp

    cp.cuda.runtime.malloc(1 << 48)  # a raw cudaMalloc past the GPU (a kernel's scratch buffer)


def case_cupy_ipc_event_bogus() -> None:
    import cupy as cp

    cp.cuda.runtime.ipcOpenEventHandle(b"\0" * 64)


def case_cuda_external_stream_bogus() -> None:
    import torch

    torch.cuda.init()
    with torch.cuda.stream(torch.cuda.ExternalStream(0xDEAD0000)):
        x = torch.ones(4, device="cuda") * 2
    torch.cuda.synchronize()
    print(x)


def case_cuda_graph_unjoined_stream() -> None:
    import torch

    x = torch.ones(4, device="cuda")
    side = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with torch.cuda.graph(g):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # work forked to a side stream, never joined back
            y = x * 2
    print(y)


def _quota_write(code: str) -> None:
    """A 16 MiB tmpfs with a 256 KiB per-user block quota (kernel >= 6.6 tmpfs quotas), written by
    an unprivileged user (root passes quotas)."""
    mnt = Path(tempfile.mkdtemp(prefix="quotafs"))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o",
                          "size=16m,usrquota,usrquota_block_hardlimit=256k", "tmpfs", str(mnt)])
    if rc != 0:
        print(f"PROVOKE-NOTE mount rc={rc}", flush=True)
        return
    os.chmod(mnt, 0o777)
    try:
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            sys.executable, "-c", code], cwd=str(mnt), env=dict(
                                os.environ, HOME=str(mnt)))
        sys.exit(p.returncode)
    finally:
        subprocess.call(["umount", "-l", str(mnt)])


def case_disk_quota_python_write() -> None:
    _quota_write("open('rollouts.jsonl', 'w').write('x' * (1 << 20))")


def case_disk_quota_safetensors_save() -> None:
    _quota_write("import torch\nfrom safetensors.torch import save_file\n"
                 "save_file({'w': torch.ones(1 << 18)}, 'model.safetensors')")


def case_st_shape_overflow() -> None:
    from safetensors.torch import load_file

    p = _st_lie({"w": {"dtype": "F32", "shape": [1 << 40, 1 << 40], "data_offsets": [0, 16]}},
                b"\0" * 16)
    print(load_file(p))


def case_torch_load_format_version_garbage() -> None:
    import torch

    p = _zip_member_edit("/.format_version", lambda b: b"x")
    print(torch.load(p))


def case_benign_pin_memory_no_gpu() -> None:
    import torch
    from torch.utils.data import DataLoader

    for batch in DataLoader(list(range(4)), batch_size=2, pin_memory=True):
        print(batch)


def case_benign_softmax_implicit_dim() -> None:
    import torch
    import torch.nn.functional as F

    print(F.softmax(torch.ones(2, 3)).sum().item())


def hub11_bigger_head(api: str) -> None:
    """start_hub3's bigger_head (HEAD announces twice the size GET sends) for the weights and the
    tokenizer files a trainer pulls (set 3 asked for config.json only)."""
    fname = "model.safetensors" if api == "weights" else "tokenizer.json"
    endpoint = start_hub3({"bigger_head": {fname: _big_file()}}, {"bigger_head": "bigger_head"})
    _hub_env(endpoint)
    print(f"PROVOKE-NOTE endpoint={endpoint} api={api}", flush=True)
    if api == "weights":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download("irisrl/bigger_head", fname))
    else:
        from huggingface_hub import snapshot_download

        print(snapshot_download("irisrl/bigger_head", allow_patterns=["*.json"]))


HUB11_ERRORS: dict[str, tuple[int, str | None, str | None]] = {}


def hub11_case(variant: str, api: str) -> None:
    """The Hub's tag / branch / squash / revision endpoints (a trainer tagging and pruning its
    checkpoint branches), answered by start_hub's errors."""
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}'}}))
    os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    repo = f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    from huggingface_hub import HfApi

    api_ = HfApi()
    if api == "create_tag":
        api_.create_tag(repo, tag="step-300", revision="global_step_300")
    elif api == "delete_branch":
        api_.delete_branch(repo, branch="global_step_100")
    elif api == "squash":
        api_.super_squash_history(repo, branch="main")
    elif api == "revision_exists":
        print(api_.revision_exists(repo, "global_step_300"))


CASES11: dict[str, Case] = {
    "spawn_child_sigill": (case_spawn_child_sigill, "python_crash", False),
    "spawn_child_sigfpe": (case_spawn_child_sigfpe, "python_crash", False),
    "torchrun_child_sigill": (partial(_torchrun, "sigill"), "python_crash", False),
    "dataloader_worker_exit_code": (case_dataloader_worker_exit_code, "python_crash", False),
    "dist_backend_mpi": (case_dist_backend_mpi, "python_crash", False),
    "ddp_unused_params": (case_ddp_unused_params, "python_crash", False),
    "benign_ddp_find_unused_none": (case_benign_ddp_find_unused_none, "benign", False),
    "prefix_store_get_timeout": (case_prefix_store_get_timeout, "dist_timeout", False),
    "hash_store_wait_timeout": (case_hash_store_wait_timeout, "dist_timeout", False),
    "autograd_inplace_modified": (case_autograd_inplace_modified, "python_crash", False),
    "checkpoint_recompute_mismatch": (case_checkpoint_recompute_mismatch, "python_crash", False),
    "torch_load_short_storage": (case_torch_load_short_storage, "checkpoint_corrupt", False),
    "torch_load_bad_byteorder": (case_torch_load_bad_byteorder, "checkpoint_corrupt", False),
    "st_overlapping_offsets": (case_st_overlapping_offsets, "checkpoint_corrupt", False),
    "transformers_st_format_jax": (case_transformers_st_format_jax, "checkpoint_corrupt", False),
    "transformers_safetensors_off": (case_transformers_safetensors_off, "hf_weights_missing",
                                     False),
    "torch_save_parent_missing": (case_torch_save_parent_missing, "python_crash", False),
    "benign_typed_storage": (case_benign_typed_storage, "benign", False),
    "benign_weight_norm": (case_benign_weight_norm, "benign", False),
    "benign_set_default_tensor_type": (case_benign_set_default_tensor_type, "benign", False),
    "benign_generate_greedy_temperature": (case_benign_generate_greedy_temperature, "benign",
                                           False),
    "deterministic_cublas": (case_deterministic_cublas, "python_crash", True),
    "device_mismatch_matmul": (case_device_mismatch_matmul, "python_crash", True),
    "triton_smem_oor": (case_triton_smem_oor, "python_crash", True),
    "triton_cpu_tensor": (case_triton_cpu_tensor, "python_crash", True),
    "cuda_event_ipc_bogus": (case_cuda_event_ipc_bogus, "cuda_error", True),
    "cupy_ipc_mem_bogus": (case_cupy_ipc_mem_bogus, "cuda_error", True),
    "cupy_stack_overflow": (case_cupy_stack_overflow, "cuda_error", True),
    "cuda_oom_async_fraction": (case_cuda_oom_async_fraction, "cuda_oom", True),
    "cuda_oom_mempool": (case_cuda_oom_mempool, "cuda_oom", True),
    "nvml_bad_index": (case_nvml_bad_index, "python_crash", True),
    "benign_autocast_fp32": (case_benign_autocast_fp32, "benign", True),
    "benign_nccl_no_device_id": (case_benign_nccl_no_device_id, "benign", True),
    "nccl_graph_file_missing": (case_nccl_graph_file_missing, "nccl_error", True),
    "nccl_buffsize_tiny": (case_nccl_buffsize_tiny, "benign", True),
    "nccl_work_fifo_bad": (case_nccl_work_fifo_bad, "benign", True),
    "nccl_ras_addr_bad": (case_nccl_ras_addr_bad, "benign", True),
    "nccl_broadcast_bad_src": (case_nccl_broadcast_bad_src, "nccl_error", True),
    "device_map_offload_missing": (case_device_map_offload_missing, "python_crash", True),
    # the second call
    "deterministic_histc": (case_deterministic_histc, "python_crash", True),
    "cupy_runtime_malloc_oom": (case_cupy_runtime_malloc_oom, "cuda_oom", True),
    "cupy_ipc_event_bogus": (case_cupy_ipc_event_bogus, "cuda_error", True),
    "cuda_external_stream_bogus": (case_cuda_external_stream_bogus, "cuda_error", True),
    "cuda_graph_unjoined_stream": (case_cuda_graph_unjoined_stream, "cuda_error", True),
    "disk_quota_python_write": (case_disk_quota_python_write, "disk_full", False),
    "disk_quota_safetensors_save": (case_disk_quota_safetensors_save, "disk_full", False),
    "st_shape_overflow": (case_st_shape_overflow, "checkpoint_corrupt", False),
    "torch_load_format_version_garbage": (case_torch_load_format_version_garbage,
                                          "checkpoint_corrupt", False),
    "benign_pin_memory_no_gpu": (case_benign_pin_memory_no_gpu, "benign", False),
    "benign_softmax_implicit_dim": (case_benign_softmax_implicit_dim, "benign", False),
    "hub11_bigger_head_weights": (partial(hub11_bigger_head, "weights"), "hf_incomplete_download",
                                  False),
    "hub11_bigger_head_snapshot": (partial(hub11_bigger_head, "snapshot"),
                                   "hf_incomplete_download", False),
}
hub_grid(CASES11, "hub11", hub11_case, [("gated403", "create_tag", "hf_gated"),
                                        ("badtoken401", "create_tag", "hf_gated"),
                                        ("status500", "create_tag", "hf_http_error"),
                                        ("forbidden403", "delete_branch", "hf_gated"),
                                        ("status502", "delete_branch", "hf_http_error"),
                                        ("badtoken401", "delete_branch", "hf_gated"),
                                        ("gated401", "squash", "hf_gated"),
                                        ("status429", "squash", "hf_http_error"),
                                        ("status500", "squash", "hf_http_error"),
                                        ("status503", "revision_exists", "hf_http_error")])
CASES.update(CASES11)


# ----------------------------------------------------------------------------- the twelfth set


def _ckpt_model_dir_sharded(index: dict[str, Any]) -> Path:
    """A tiny GPT-2 folder saved sharded, its model.safetensors.index.json replaced by `index`."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy_step_300", "safetensors")
    st = d / "model.safetensors"
    shard = d / "model-00001-of-00001.safetensors"
    st.rename(shard)
    (d / "model.safetensors.index.json").write_text(json.dumps(index))
    return d


def case_trainer_resume_true_no_ckpt() -> None:
    """Trainer.train(resume_from_checkpoint=True) in an output_dir that holds no checkpoint-*
    (the job restarted on a node whose volume was not mounted)."""
    out = Path(tempfile.mkdtemp()) / "run"
    out.mkdir()
    _trainer(out, max_steps=2).train(resume_from_checkpoint=True)


def case_trainer_grad_ckpt_unsupported() -> None:
    """TrainingArguments(gradient_checkpointing=True) for a model class that does not support it."""
    import torch
    from transformers import PretrainedConfig, PreTrainedModel, Trainer, TrainingArguments

    class ValueHeadConfig(PretrainedConfig):
        model_type = "irisrl_value_head"

    class ValueHead(PreTrainedModel):
        config_class = ValueHeadConfig
        supports_gradient_checkpointing = False

        def __init__(self, config: Any) -> None:
            super().__init__(config)
            self.emb = torch.nn.Embedding(32, 8)
            self.head = torch.nn.Linear(8, 32)
            self.post_init()

        def forward(self, input_ids: Any = None, labels: Any = None, **kw: Any) -> Any:
            logits = self.head(self.emb(input_ids))
            loss = torch.nn.functional.cross_entropy(logits.view(-1, 32), labels.view(-1))
            return {"loss": loss, "logits": logits}

    out = Path(tempfile.mkdtemp()) / "run"
    args = TrainingArguments(output_dir=str(out), per_device_train_batch_size=2, report_to=[],
                             use_cpu=True, max_steps=1, gradient_checkpointing=True)
    Trainer(model=ValueHead(ValueHeadConfig()), args=args, train_dataset=_TinyDs()).train()


def case_trainer_save_readonly() -> None:
    """Trainer saving its first checkpoint into an output_dir on a read-only mount."""
    mnt = Path(tempfile.mkdtemp(prefix="rofs"))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mnt)])
    print(f"PROVOKE-NOTE ro tmpfs mount rc={rc}", flush=True)
    _trainer(mnt / "run", max_steps=1, save_steps=1).train()


def case_trainer_resume_scheduler_cut() -> None:
    """scheduler.pt cut to its first 100 bytes (a copy killed mid-way), then a resume."""
    out, ck = _trainer_ckpt()
    sp = ck / "scheduler.pt"
    sp.write_bytes(sp.read_bytes()[:100])
    _trainer(out, max_steps=2, save_steps=1).train(resume_from_checkpoint=str(ck))


def case_st_index_no_weight_map() -> None:
    """A sharded checkpoint whose model.safetensors.index.json lacks its weight_map."""
    d = _ckpt_model_dir_sharded({"metadata": {"total_size": 1234}})
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d)


def case_st_header_missing_dtype() -> None:
    from safetensors.torch import load_file

    load_file(_st_lie({"w": {"shape": [4], "data_offsets": [0, 16]}}, bytes(16)))


def case_st_header_negative_shape() -> None:
    from safetensors.torch import load_file

    load_file(_st_lie({"w": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}}, bytes(16)))


def case_st_header_gap() -> None:
    """Tensors whose byte ranges leave a gap (an exporter that padded without saying)."""
    from safetensors.torch import load_file

    load_file(_st_lie({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                       "b": {"dtype": "F32", "shape": [2], "data_offsets": [16, 24]}}, bytes(24)))


def case_st_slice_out_of_range() -> None:
    from safetensors import safe_open

    p = _st_lie({"w": {"dtype": "F32", "shape": [4, 4], "data_offsets": [0, 64]}}, bytes(64))
    with safe_open(p, framework="pt") as f:
        print(f.get_slice("w")[:, 2:9:-1])


def case_dcp_data_file_garbage() -> None:
    """A DCP checkpoint whose data file was overwritten with random bytes of the same length."""
    import torch
    import torch.distributed.checkpoint as dcp

    d = Path(tempfile.mkdtemp()) / "step_300"
    _dcp_save(d, {"w": torch.arange(4096, dtype=torch.float32)})
    for f in d.glob("*.distcp"):
        f.write_bytes(os.urandom(f.stat().st_size))
    sd = {"w": torch.zeros(4096)}
    dcp.load(sd, checkpoint_id=str(d))
    print("loaded", sd["w"][:4].tolist())


def case_dcp_async_save_readonly() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    mnt = Path(tempfile.mkdtemp(prefix="rofs"))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mnt)])
    print(f"PROVOKE-NOTE ro tmpfs mount rc={rc}", flush=True)
    fut = dcp.async_save({"w": torch.ones(1024)}, checkpoint_id=str(mnt / "step_300"))
    fut.result()


def case_tcpstore_queue_pop_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.TCPStore("127.0.0.1", free_port(), 1, True, timedelta(seconds=3))
    store.queue_pop("rollouts/ready")  # no actor ever pushes


def case_tcpstore_multi_get_timeout() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.TCPStore("127.0.0.1", free_port(), 1, True, timedelta(seconds=3))
    store.set("weights/version", "300")
    store.multi_get(["weights/version", "weights/shard_7"])


def case_torchrun_log_dir_full() -> None:
    """torchrun --log-dir on a full volume (the agent writes the workers' logs there)."""
    mnt = _full_fs()
    _torchrun8("--standalone", "--nproc-per-node=2", f"--log-dir={mnt / 'torchrun_logs'}",
               "--redirects=3", "--tee=3", str(SCRIPT), "child", "ok")


def case_memory_snapshot_full_disk() -> None:
    """torch.cuda.memory._dump_snapshot onto a full volume (OOM debugging on a full /tmp)."""
    import torch

    torch.cuda.memory._record_memory_history(max_entries=10000)
    xs = [torch.empty(1 << 20, device="cuda") for _ in range(200)]
    mnt = _full_fs()
    torch.cuda.memory._dump_snapshot(str(mnt / "oom_snapshot.pickle"))
    print(len(xs))


def case_profiler_trace_full_disk() -> None:
    import torch
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(20):
            torch.ones(1 << 20, device="cuda").mul_(2).sum()
        torch.cuda.synchronize()
    mnt = _full_fs()
    prof.export_chrome_trace(str(mnt / "trace_step_300.json"))


def case_cuda_graph_pageable_copy() -> None:
    """A host-to-device copy from pageable memory inside a CUDA graph capture."""
    import torch

    host = torch.ones(1 << 16)
    dev = torch.empty(1 << 16, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dev.copy_(host, non_blocking=True)
        dev.mul_(2)
    g.replay()
    torch.cuda.synchronize()


def case_cuda_graph_replay_uncaptured() -> None:
    import torch

    g = torch.cuda.CUDAGraph()
    g.replay()


def case_cuda_oom_graph_capture() -> None:
    """An allocation past the GPU inside a CUDA graph capture (the graph's private pool)."""
    import torch

    x = torch.ones(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = torch.empty(200 * (1 << 30) // 4, device="cuda")
        y[:1024].copy_(x)


def case_cholesky_not_pd_cuda() -> None:
    import torch

    a = torch.tensor([[1.0, 2.0], [2.0, 1.0]], device="cuda")  # a Fisher estimate gone indefinite
    torch.linalg.cholesky(a)


def case_cupy_dynamic_smem_too_big() -> None:
    import cupy

    k = cupy.RawKernel(r'''extern "C" __global__ void f(float* x) {
        extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; x[threadIdx.x] = s[0]; }''', "f")
    x = cupy.ones(256, dtype=cupy.float32)
    k((1,), (256,), (x,), shared_mem=300 * 1024)
    cupy.cuda.Device().synchronize()


def case_triton_static_assert() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x, BLOCK: tl.constexpr) -> None:
        tl.static_assert(BLOCK % 128 == 0, "BLOCK must be a multiple of 128")
        i = tl.arange(0, BLOCK)
        tl.store(x + i, tl.load(x + i) * 2)

    x = torch.ones(64, device="cuda")
    k[(1,)](x, BLOCK=64)
    torch.cuda.synchronize()


def case_nccl_algo_nvls_one_gpu() -> None:
    _nccl_env_case(NCCL_ALGO="NVLS")


def case_nccl_proto_ll128_collnet() -> None:
    _nccl_env_case(NCCL_ALGO="CollnetDirect", NCCL_PROTO="LL128")


def case_benign_nccl_invalid_env_value() -> None:
    _nccl_env_case(NCCL_DEBUG="INFO", NCCL_DEBUG_SUBSYS="ENV", NCCL_BUFFSIZE="4MiB")


def case_benign_dcp_no_process_group() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    dcp.save({"w": torch.ones(8)}, checkpoint_id=str(Path(tempfile.mkdtemp()) / "step_1"))
    print("saved")


def case_benign_grad_non_leaf() -> None:
    import torch

    w = torch.ones(4, requires_grad=True)
    h = w * 2
    h.sum().backward()
    print(h.grad)


def case_benign_meshgrid_indexing() -> None:
    import torch

    a, b = torch.meshgrid(torch.arange(3), torch.arange(4))
    print(a.shape, b.shape)


def hub12_case(variant: str, api: str) -> None:
    """The Hub's discussions / pull-request / merge / likers / LFS-files endpoints (a trainer
    opening and merging a PR with its checkpoint, a script listing a repo's LFS files), answered
    by start_hub's errors."""
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}'}}))
    os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    repo = f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    from huggingface_hub import HfApi

    api_ = HfApi()
    if api == "create_pr":
        api_.create_pull_request(repo, title="global_step_300", description="eval 0.71")
    elif api == "create_discussion":
        api_.create_discussion(repo, title="reward collapse at step 300")
    elif api == "discussions":
        print(list(api_.get_repo_discussions(repo)))
    elif api == "lfs_files":
        print(list(api_.list_lfs_files(repo)))
    elif api == "likers":
        print(list(api_.list_repo_likers(repo)))
    elif api == "merge_pr":
        api_.merge_pull_request(repo, 3, comment="eval passed")


def start_hub_lfs(how: str) -> str:
    """A Hub that takes a commit whose file goes through LFS: preupload says "lfs"; the LFS batch
    endpoint answers with a per-object error (`how` == "batch_error") or hands out an upload URL
    whose PUT answers 500 (`how` == "put500")."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Hub(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, code: int, body: bytes, ctype: str = "application/json") -> None:
            self.send_response(code)
            self.send_header("X-Request-Id", f"Root=1-{os.urandom(4).hex()}-{os.urandom(12).hex()}")
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def do_GET(self) -> None:
            self._send(200, json.dumps({"id": "irisrl/lfsrepo", "sha": COMMIT, "siblings": []}).encode())

        do_HEAD = do_GET

        def do_POST(self) -> None:
            body = self._body()
            path = self.path.split("?")[0]
            if path.endswith("/preupload/main"):
                files = json.loads(body)["files"]
                ans = {"files": [{"path": f["path"], "uploadMode": "lfs", "shouldIgnore": False}
                                 for f in files]}
                self._send(200, json.dumps(ans).encode())
            elif path.endswith("/info/lfs/objects/batch"):
                objs = json.loads(body)["objects"]
                if how == "batch_error":
                    out = [{"oid": o["oid"], "size": o["size"], "error": {
                        "code": 422, "message": "Object size exceeds the repository's LFS quota"}}
                        for o in objs]
                else:
                    port = self.server.server_address[1]
                    out = [{"oid": o["oid"], "size": o["size"], "actions": {"upload": {
                        "href": f"http://127.0.0.1:{port}/lfs-store/{o['oid']}"}}} for o in objs]
                self._send(200, json.dumps({"transfer": "basic", "objects": out}).encode(),
                           "application/vnd.git-lfs+json")
            else:
                self._send(200, json.dumps({"commitUrl": "x", "commitOid": COMMIT}).encode())

        def do_PUT(self) -> None:
            self._body()
            self._send(500, b"<Error><Code>InternalError</Code><Message>We encountered an internal "
                       b"error. Please try again.</Message></Error>", "application/xml")

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


def hub12_lfs(how: str) -> None:
    _hub_env(start_hub_lfs(how))
    os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    os.environ["HF_HUB_DISABLE_XET"] = "1"
    from huggingface_hub import HfApi

    HfApi().upload_file(path_or_fileobj=os.urandom(1 << 20), repo_id="irisrl/lfsrepo",
                        path_in_repo="global_step_300/model.safetensors",
                        commit_message="global_step_300")


def case_hub12_incomplete_leftover() -> None:
    """hf_hub_download over a cache that holds a `.incomplete` blob longer than the file (left by
    a download of an earlier revision killed mid-way); the loopback Hub ignores Range."""
    body = _big_file()
    _hub_env(start_hub({"okrepo": {"model.safetensors": body}}))
    blobs = Path(os.environ["HF_HOME"]) / "hub" / "models--irisrl--okrepo" / "blobs"
    blobs.mkdir(parents=True)
    (blobs / (hashlib.sha256(body).hexdigest() + ".incomplete")).write_bytes(
        os.urandom(len(body) // 2))
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/okrepo", "model.safetensors"))


CASES12: dict[str, Case] = {
    "trainer_resume_true_no_ckpt": (case_trainer_resume_true_no_ckpt, "checkpoint_corrupt", False),
    "trainer_grad_ckpt_unsupported": (case_trainer_grad_ckpt_unsupported, "python_crash", False),
    "trainer_save_readonly": (case_trainer_save_readonly, "python_crash", False),
    "trainer_resume_scheduler_cut": (case_trainer_resume_scheduler_cut, "checkpoint_corrupt",
                                     False),
    "st_index_no_weight_map": (case_st_index_no_weight_map, "checkpoint_corrupt", False),
    "st_header_missing_dtype": (case_st_header_missing_dtype, "checkpoint_corrupt", False),
    "st_header_negative_shape": (case_st_header_negative_shape, "checkpoint_corrupt", False),
    "st_header_gap": (case_st_header_gap, "checkpoint_corrupt", False),
    "st_slice_out_of_range": (case_st_slice_out_of_range, "python_crash", False),
    "dcp_data_file_garbage": (case_dcp_data_file_garbage, "checkpoint_corrupt", False),
    "dcp_async_save_readonly": (case_dcp_async_save_readonly, "python_crash", False),
    "tcpstore_queue_pop_timeout": (case_tcpstore_queue_pop_timeout, "dist_timeout", False),
    "tcpstore_multi_get_timeout": (case_tcpstore_multi_get_timeout, "dist_timeout", False),
    "torchrun_log_dir_full": (case_torchrun_log_dir_full, "disk_full", False),
    "benign_dcp_no_process_group": (case_benign_dcp_no_process_group, "benign", False),
    "benign_grad_non_leaf": (case_benign_grad_non_leaf, "benign", False),
    "benign_meshgrid_indexing": (case_benign_meshgrid_indexing, "benign", False),
    "hub12_lfs_batch_error": (partial(hub12_lfs, "batch_error"), "hf_http_error", False),
    "hub12_lfs_put500": (partial(hub12_lfs, "put500"), "hf_http_error", False),
    "hub12_incomplete_leftover": (case_hub12_incomplete_leftover, "hf_incomplete_download", False),
    "memory_snapshot_full_disk": (case_memory_snapshot_full_disk, "disk_full", True),
    "profiler_trace_full_disk": (case_profiler_trace_full_disk, "disk_full", True),
    "cuda_graph_pageable_copy": (case_cuda_graph_pageable_copy, "cuda_error", True),
    "cuda_graph_replay_uncaptured": (case_cuda_graph_replay_uncaptured, "python_crash", True),
    "cuda_oom_graph_capture": (case_cuda_oom_graph_capture, "cuda_oom", True),
    "cholesky_not_pd_cuda": (case_cholesky_not_pd_cuda, "python_crash", True),
    "cupy_dynamic_smem_too_big": (case_cupy_dynamic_smem_too_big, "cuda_error", True),
    "triton_static_assert": (case_triton_static_assert, "python_crash", True),
    "nccl_algo_nvls_one_gpu": (case_nccl_algo_nvls_one_gpu, "nccl_error", True),
    "nccl_proto_ll128_collnet": (case_nccl_proto_ll128_collnet, "nccl_error", True),
    "benign_nccl_invalid_env_value": (case_benign_nccl_invalid_env_value, "benign", True),
}
hub_grid(CASES12, "hub12", hub12_case, [("gated403", "create_pr", "hf_gated"),
                                        ("missing404", "create_pr", "hf_repo_not_found"),
                                        ("status500", "create_pr", "hf_http_error"),
                                        ("badtoken401", "create_discussion", "hf_gated"),
                                        ("status429", "create_discussion", "hf_http_error"),
                                        ("status502", "discussions", "hf_http_error"),
                                        ("gated401", "discussions", "hf_gated"),
                                        ("status429", "lfs_files", "hf_http_error"),
                                        ("gated401", "lfs_files", "hf_gated"),
                                        ("status503", "likers", "hf_http_error"),
                                        ("missing404", "likers", "hf_repo_not_found")])
CASES.update(CASES12)


def case_cupy_launch_grid_zero() -> None:
    import cupy

    k = cupy.RawKernel(r'extern "C" __global__ void f(float* x) { x[threadIdx.x] *= 2.0f; }', "f")
    x = cupy.ones(256, dtype=cupy.float32)
    k((0,), (256,), (x,))  # an empty batch turned into a grid of 0 blocks
    cupy.cuda.Device().synchronize()


def case_cuda_graph_capture_d2h() -> None:
    """A device-to-host copy (`.cpu()`, e.g. for logging) inside a CUDA graph capture."""
    import torch

    x = torch.ones(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x * 2
        print(y[:4].cpu())


def case_nccl_mnnvl_forced() -> None:
    _nccl_env_case(NCCL_MNNVL_ENABLE="1")


def case_nccl_nvls_forced() -> None:
    _nccl_env_case(NCCL_NVLS_ENABLE="1", NCCL_ALGO="NVLS", NCCL_PROTO="Simple")


def case_st_header_nul_padding() -> None:
    """A safetensors header padded with NUL bytes instead of spaces (a hand-written exporter)."""
    from safetensors.torch import load_file

    h = json.dumps({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}).encode()
    h += b"\0" * (8 - len(h) % 8)
    load_file(_st_file(len(h).to_bytes(8, "little") + h + bytes(16)))


def case_st_header_three_offsets() -> None:
    from safetensors.torch import load_file

    load_file(_st_lie({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 8, 16]}}, bytes(16)))


def case_torch_load_jit_archive() -> None:
    """torch.load of a TorchScript archive (the policy exported for serving, loaded as weights)."""
    import torch

    p = Path(tempfile.mkdtemp()) / "policy.pt"
    torch.jit.save(torch.jit.script(torch.nn.Linear(4, 4)), str(p))
    torch.load(p)


def case_jit_load_torch_save_file() -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / "policy.pt"
    torch.save({"w": torch.ones(4)}, p)
    torch.jit.load(str(p))


def case_disk_full_inodes_hub_cache() -> None:
    """hf_hub_download into an HF cache on a volume out of inodes (bytes left)."""
    mnt = Path(tempfile.mkdtemp(prefix="inodefs"))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o", "size=64m,nr_inodes=6", "tmpfs", str(mnt)])
    print(f"PROVOKE-NOTE tmpfs mount rc={rc}", flush=True)
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}',
                                   "model.safetensors": os.urandom(4096)}}))
    os.environ["HF_HOME"] = str(mnt / "hf")
    from huggingface_hub import hf_hub_download

    for f in ("config.json", "model.safetensors"):
        print(hf_hub_download("irisrl/okrepo", f))


def case_transformers_variant_missing() -> None:
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy_step_300", "safetensors")
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d, variant="fp16")


def case_benign_tensor_copy_construct() -> None:
    import torch

    adv = torch.randn(8)
    print(torch.tensor(adv).mean().item())


CASES12.update({
    "cupy_launch_grid_zero": (case_cupy_launch_grid_zero, "cuda_error", True),
    "cuda_graph_capture_d2h": (case_cuda_graph_capture_d2h, "cuda_error", True),
    "nccl_mnnvl_forced": (case_nccl_mnnvl_forced, "nccl_error", True),
    "nccl_nvls_forced": (case_nccl_nvls_forced, "nccl_error", True),
    "st_header_nul_padding": (case_st_header_nul_padding, "checkpoint_corrupt", False),
    "st_header_three_offsets": (case_st_header_three_offsets, "checkpoint_corrupt", False),
    "torch_load_jit_archive": (case_torch_load_jit_archive, "checkpoint_corrupt", False),
    "jit_load_torch_save_file": (case_jit_load_torch_save_file, "checkpoint_corrupt", False),
    "disk_full_inodes_hub_cache": (case_disk_full_inodes_hub_cache, "disk_full", False),
    "transformers_variant_missing": (case_transformers_variant_missing, "hf_weights_missing",
                                     False),
    "benign_tensor_copy_construct": (case_benign_tensor_copy_construct, "benign", False),
})
hub_grid(CASES12, "hub12", hub12_case, [("status502", "merge_pr", "hf_http_error"),
                                        ("gated403", "merge_pr", "hf_gated")])
CASES.update(CASES12)


# ----------------------------------------------------------------------------- set 13


def _fork_ranks(n: int) -> tuple[int, list[int]]:
    """Forks ranks 1..n-1: this process's rank, and (in rank 0) the children's pids."""
    pids: list[int] = []
    for r in range(1, n):
        pid = os.fork()
        if pid == 0:
            return r, []
        pids.append(pid)
    return 0, pids


def _worker_n(n: int, fn: Callable[[int], None]) -> None:
    """`fn(rank)` in n forked processes (rank 0 is this one); waits for the others."""
    rank, pids = _fork_ranks(n)
    try:
        fn(rank)
    finally:
        if rank != 0:
            os._exit(0)
    for pid in pids:
        os.waitpid(pid, 0)


def case_oom13_backward() -> None:
    """An OOM inside backward (forward fits): set_per_process_memory_fraction caps the process."""
    import torch

    torch.cuda.set_per_process_memory_fraction(0.02)
    w = torch.randn(16384, 16384, device="cuda", requires_grad=True)
    loss = (w @ w).sum()
    print("forward done", flush=True)
    loss.backward()


def case_oom13_optimizer_step() -> None:
    """An OOM inside AdamW.step (its state is allocated on the first step), with the allocator's
    garbage_collection_threshold / max_split_size_mb set."""
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "garbage_collection_threshold:0.6,max_split_size_mb:512"
    import torch

    params = [torch.nn.Parameter(torch.zeros(6 << 30, dtype=torch.float32, device="cuda"))
              for _ in range(2)]  # 2 x 24 GiB + grads: the two Adam moments do not fit
    for p in params:
        p.grad = torch.zeros_like(p)
    print("params and grads held", torch.cuda.memory_allocated() >> 30, "GiB", flush=True)
    torch.optim.AdamW(params, lr=1e-5).step()


def case_oom13_compiled() -> None:
    """An OOM inside a torch.compile'd graph (inductor's buffers), under a memory fraction."""
    import torch

    torch.cuda.set_per_process_memory_fraction(0.015)

    @torch.compile
    def logprobs(h: Any, w: Any) -> Any:
        return torch.log_softmax(h @ w, dim=-1).amax(-1)

    h = torch.randn(8192, 4096, device="cuda")
    w = torch.randn(4096, 151936 // 2, device="cuda")
    print(logprobs(h, w).sum().item())


def case_oom13_async_expandable() -> None:
    """cudaMallocAsync with expandable_segments also set, then 300 GiB."""
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync,expandable_segments:True"
    import torch

    x = torch.ones(4, device="cuda")
    print(torch.cuda.get_allocator_backend(), x.sum().item(), flush=True)
    torch.empty(300 << 30, dtype=torch.uint8, device="cuda")


def case_oom13_nccl_mem_pool() -> None:
    """A MemPool on ProcessGroupNCCL's allocator (ncclMemAlloc, for NCCL buffer registration),
    asked for 300 GiB."""
    import torch
    import torch.distributed as dist

    os.environ["NCCL_DEBUG"] = "WARN"
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    backend = dist.group.WORLD._get_backend(torch.device("cuda"))
    pool = torch.cuda.MemPool(backend.mem_allocator)
    with torch.cuda.use_mem_pool(pool):
        small = torch.ones(1 << 20, device="cuda")
        print("pool tensor ok", small.sum().item(), flush=True)
        big = torch.empty(300 << 30, dtype=torch.uint8, device="cuda")
    print(big.numel())


def case_cusparse13_gpu_full() -> None:
    import torch

    idx = torch.randint(0, 4096, (2, 20000))
    a = torch.sparse_coo_tensor(idx, torch.randn(20000), (4096, 4096)).coalesce().to_sparse_csr()
    a = a.cuda()
    b = torch.randn(4096, 256, device="cuda")
    held = _fill_gpu(2 << 20)
    print(len(held), (a @ b).sum().item())


def case_cublaslt13_gpu_full() -> None:
    import torch

    x = torch.randn(256, 512, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(1024, 512, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(1024, device="cuda", dtype=torch.bfloat16)
    held = _fill_gpu(1 << 20)
    print(len(held), torch.nn.functional.linear(x, w, b).float().sum().item())


def case_sdpa13_cudnn_gpu_full() -> None:
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    q, k, v = (torch.randn(4, 16, 2048, 128, device="cuda", dtype=torch.bfloat16)
               for _ in range(3))
    held = _fill_gpu(2 << 20)
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    print(len(held), out.float().sum().item())


def case_alloc13_swap_initialized() -> None:
    """A custom allocator swapped in after CUDA memory was already allocated."""
    import torch

    x = torch.ones(4, device="cuda")
    alloc = torch.cuda.memory.CUDAPluggableAllocator("libc.so.6", "malloc", "free")
    print(x.sum().item(), flush=True)
    torch.cuda.memory.change_current_allocator(alloc)


def case_alloc13_split_too_small() -> None:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:8"
    import torch

    print(torch.ones(4, device="cuda").sum().item())


def case_alloc13_register_threads_bad() -> None:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = ("pinned_use_cuda_host_register:True,"
                                             "pinned_num_register_threads:3")
    import torch

    print(torch.ones(4, pin_memory=True).sum().item())


def case_nccl13_net_bogus() -> None:
    _nccl_env_case(NCCL_NET="Socketz")


def case_nccl13_launch_mode_bad() -> None:
    _nccl_env_case(NCCL_LAUNCH_MODE="BOGUS")


def case_nccl13_channels_conflict() -> None:
    _nccl_env_case(NCCL_MIN_NCHANNELS="32", NCCL_MAX_NCHANNELS="2", NCCL_MIN_CTAS="64",
                   NCCL_MAX_CTAS="4")


def case_nccl13_send_to_self() -> None:
    import torch
    import torch.distributed as dist

    os.environ["NCCL_DEBUG"] = "WARN"
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    dist.send(torch.ones(4, device="cuda"), dst=0)


def _cupy13_module(body: bytes, suffix: str) -> None:
    """cupy loading a kernel image shipped next to the code (cuModuleLoad of a file)."""
    import cupy

    p = Path(tempfile.mkdtemp()) / f"rollout_kernels{suffix}"
    p.write_bytes(body)
    mod = cupy.RawModule(path=str(p))
    print(mod.get_function("scale"))


def case_cupy13_ptx_too_new() -> None:
    """A PTX file emitted by a newer toolchain than the driver's JIT (PTX ISA 9.9)."""
    _cupy13_module(b".version 9.9\n.target sm_90\n.address_size 64\n\n"
                   b".visible .entry scale(.param .u64 x)\n{\n\tret;\n}\n", ".ptx")


def case_cupy13_cubin_garbage() -> None:
    """A .cubin that is not an ELF image (a download cut into an HTML page)."""
    _cupy13_module(b"<!DOCTYPE html>\n<html><body>504 Gateway Time-out</body></html>\n" * 8,
                   ".cubin")


def case_benign13_amp_autocast_cuda() -> None:
    import torch

    with torch.cuda.amp.autocast(dtype=torch.bfloat16):
        y = torch.randn(8, 8, device="cuda") @ torch.randn(8, 8, device="cuda")
    print(y.dtype)


def case_gloo13_collective_mismatch() -> None:
    """TORCH_DISTRIBUTED_DEBUG=DETAIL: rank 0 all_reduces while rank 1 broadcasts."""
    os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=10))
        t = torch.ones(8)
        if rank == 0:
            dist.all_reduce(t)
        else:
            dist.broadcast(t, src=1)
        print(f"rank {rank} done", flush=True)

    _worker_pair(body)


def _ddp13(models: Callable[[int], Any]) -> None:
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel as DDP

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=10))
        DDP(models(rank))
        print(f"rank {rank} wrapped", flush=True)

    _worker_pair(body)


def _policy13(rank: int, shape_differs: bool) -> Any:
    import torch

    body = torch.nn.Linear(16, 8 if rank == 0 or not shape_differs else 4)
    if rank == 0 and not shape_differs:  # rank 0 built with the value head, rank 1 without
        return torch.nn.Sequential(body, torch.nn.Linear(8, 1))
    return torch.nn.Sequential(body)


def case_ddp13_param_count_mismatch() -> None:
    _ddp13(lambda r: _policy13(r, False))


def case_ddp13_param_shape_mismatch() -> None:
    _ddp13(lambda r: _policy13(r, True))


def case_gloo13_monitored_barrier_all_ranks() -> None:
    """monitored_barrier(wait_all_ranks=True) on rank 0 of 3, ranks 1 and 2 stuck elsewhere."""
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch.distributed as dist

        dist_env(3, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=20))
        if rank:
            time.sleep(8)
            return
        dist.monitored_barrier(timeout=timedelta(seconds=3), wait_all_ranks=True)

    _worker_n(3, body)


def case_gloo13_peer_killed_4ranks() -> None:
    """4 gloo ranks in an all_reduce loop; rank 3 is SIGKILLed (the host's OOM killer) mid-run."""
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import signal

        import torch
        import torch.distributed as dist

        dist_env(4, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=15))
        t = torch.ones(1 << 18)
        for step in range(400):
            if rank == 3 and step == 20:
                os.kill(os.getpid(), signal.SIGKILL)
            dist.all_reduce(t)
            t.fill_(1.0)
        print(f"rank {rank} done", flush=True)

    _worker_n(4, body)


def case_dist13_all_to_all_gloo() -> None:
    from datetime import timedelta

    port = free_port()

    def body(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=10))
        out = [torch.empty(2) for _ in range(2)]
        dist.all_to_all(out, [torch.full((2,), float(rank)) for _ in range(2)])
        print(f"rank {rank}", out, flush=True)

    _worker_pair(body)


def case_store13_wait_for_workers() -> None:
    """The rendezvous master's TCPStore waiting for 4 workers (wait_for_workers), none come."""
    from datetime import timedelta

    import torch.distributed as dist

    dist.TCPStore("127.0.0.1", free_port(), world_size=4, is_master=True,
                  timeout=timedelta(seconds=3), wait_for_workers=True)


def case_st13_json_key_not_string() -> None:
    """from_pretrained of a model.safetensors with one bit flipped in its header's first quote."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy_step_300", "safetensors")
    st = d / "model.safetensors"
    data = bytearray(st.read_bytes())
    data[9] ^= 0x02  # '"' (0x22) -> ' ' (0x20): the first key loses its quote
    st.write_bytes(bytes(data))
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(d)


def case_st13_bitflip_header_digit() -> None:
    """safe_open of a file whose header length's second byte has a flipped bit."""
    from safetensors import safe_open
    from safetensors.torch import save_file
    import torch

    p = Path(tempfile.mkdtemp()) / "model.safetensors"
    save_file({"w": torch.ones(64)}, str(p))
    data = bytearray(p.read_bytes())
    data[1] ^= 0x01  # the header length grows by 256
    p.write_bytes(bytes(data))
    with safe_open(str(p), framework="pt") as f:
        print(f.keys())


def case_torch13_load_flipped_record_name() -> None:
    """torch.load of a checkpoint whose central-directory entry for data.pkl has one bit flipped."""
    import torch

    p = Path(tempfile.mkdtemp()) / "optimizer.pt"
    torch.save({"step": 300, "exp_avg": torch.ones(128)}, p)
    data = bytearray(p.read_bytes())
    at = data.rfind(b"data.pkl")
    data[at] ^= 0x01  # "data.pkl" -> "eata.pkl" in the central directory only
    p.write_bytes(bytes(data))
    torch.load(p)


def case_benign13_nested_prototype() -> None:
    import torch

    nt = torch.nested.nested_tensor([torch.ones(3), torch.ones(5)])
    print(nt.is_nested)


def case_benign13_sparse_csr_beta() -> None:
    import torch

    m = torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([0, 1]),
                                torch.tensor([1.0, 2.0]), size=(2, 2))
    print(m.to_dense().sum().item())


def case_benign13_lazy_modules() -> None:
    import torch

    head = torch.nn.LazyLinear(1)
    print(head(torch.ones(2, 8)).shape)


def case_benign13_clip_grad_norm_old() -> None:
    import torch

    lin = torch.nn.Linear(4, 4)
    lin(torch.ones(2, 4)).sum().backward()
    print(torch.nn.utils.clip_grad_norm(lin.parameters(), 1.0).item())


def case_benign13_right_padding() -> None:
    import torch

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(d)
    ids = torch.tensor([[1, 2, 3, 0], [4, 5, 6, 7]])
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1]])
    out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=3, do_sample=False,
                         pad_token_id=0)
    print(out.shape)


HUB13_ERRORS: dict[str, tuple[int, str | None, str | None]] = dict(
    HUB_ERRORS, status504=(504, None, None),
    gatedbody403=(403, None, HUB_ERRORS["gated403"][2]))


def hub13_case(variant: str, api: str) -> None:
    """start_hub's answers (plus a 504 and a 403 with the gated message but no GatedRepo code)
    through HfApi endpoints no earlier set called, and through the loaders."""
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}'}}, HUB13_ERRORS))
    os.environ["HF_HUB_DISABLE_XET"] = "1"
    os.environ.pop("HF_HUB_ENABLE_HF_TRANSFER", None)
    if api not in ("tokenizer", "download", "snapshot", "model") or variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    repo = f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    from huggingface_hub import HfApi

    a = HfApi()
    if api == "access_requests":
        print(list(a.list_accepted_access_requests(repo)))
    elif api == "grant_access":
        a.grant_access(repo, "rl-bot")
    elif api == "discussion_details":
        print(a.get_discussion_details(repo, 3))
    elif api == "comment":
        a.comment_discussion(repo, 3, "eval passed at global_step_300")
    elif api == "info_rev":
        print(a.model_info(repo, revision="global_step_300"))
    elif api == "delete_tag":
        a.delete_tag(repo, tag="v1")
    elif api == "settings":
        a.update_repo_settings(repo, gated="auto")
    elif api == "discussion_status":
        a.change_discussion_status(repo, 3, "closed")
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        AutoTokenizer.from_pretrained(repo)
    elif api == "download":
        from huggingface_hub import hf_hub_download

        hf_hub_download(repo, "model.safetensors")
    elif api == "snapshot":
        from huggingface_hub import snapshot_download

        snapshot_download(repo)
    elif api == "model":
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained(repo)


def start_hub_retry_after() -> str:
    """A Hub that answers every request 429 with `Retry-After: 2` (no body)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Hub(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(429)
            self.send_header("X-Request-Id", f"Root=1-{os.urandom(4).hex()}-{os.urandom(12).hex()}")
            self.send_header("Retry-After", "2")
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_HEAD = do_GET

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


def hub13_retry_after(api: str) -> None:
    _hub_env(start_hub_retry_after())
    os.environ["HF_HUB_DISABLE_XET"] = "1"
    if api == "download":
        from huggingface_hub import hf_hub_download

        hf_hub_download("irisrl/ratelimited", "model.safetensors")
    else:
        from huggingface_hub import snapshot_download

        snapshot_download("irisrl/ratelimited")


CASES13: dict[str, Case] = {
    "oom13_backward": (case_oom13_backward, "cuda_oom", True),
    "oom13_optimizer_step": (case_oom13_optimizer_step, "cuda_oom", True),
    "oom13_compiled": (case_oom13_compiled, "cuda_oom", True),
    "oom13_async_expandable": (case_oom13_async_expandable, "cuda_oom", True),
    "oom13_nccl_mem_pool": (case_oom13_nccl_mem_pool, "cuda_oom", True),
    "cusparse13_gpu_full": (case_cusparse13_gpu_full, "cuda_oom", True),
    "cublaslt13_gpu_full": (case_cublaslt13_gpu_full, "cuda_oom", True),
    "sdpa13_cudnn_gpu_full": (case_sdpa13_cudnn_gpu_full, "cuda_oom", True),
    "alloc13_swap_initialized": (case_alloc13_swap_initialized, "python_crash", True),
    "alloc13_split_too_small": (case_alloc13_split_too_small, "python_crash", True),
    "alloc13_register_threads_bad": (case_alloc13_register_threads_bad, "python_crash", True),
    "nccl13_net_bogus": (case_nccl13_net_bogus, "nccl_error", True),
    "nccl13_launch_mode_bad": (case_nccl13_launch_mode_bad, "nccl_error", True),
    "nccl13_channels_conflict": (case_nccl13_channels_conflict, "nccl_error", True),
    "nccl13_send_to_self": (case_nccl13_send_to_self, "python_crash", True),
    "benign13_amp_autocast_cuda": (case_benign13_amp_autocast_cuda, "benign", True),
    "cupy13_ptx_too_new": (case_cupy13_ptx_too_new, "cuda_error", True),
    "cupy13_cubin_garbage": (case_cupy13_cubin_garbage, "cuda_error", True),
    "gloo13_collective_mismatch": (case_gloo13_collective_mismatch, "python_crash", False),
    "ddp13_param_count_mismatch": (case_ddp13_param_count_mismatch, "python_crash", False),
    "ddp13_param_shape_mismatch": (case_ddp13_param_shape_mismatch, "python_crash", False),
    "gloo13_monitored_barrier_all_ranks": (case_gloo13_monitored_barrier_all_ranks,
                                           "dist_timeout", False),
    "gloo13_peer_killed_4ranks": (case_gloo13_peer_killed_4ranks, "python_crash", False),
    "dist13_all_to_all_gloo": (case_dist13_all_to_all_gloo, "python_crash", False),
    "store13_wait_for_workers": (case_store13_wait_for_workers, "dist_timeout", False),
    "st13_json_key_not_string": (case_st13_json_key_not_string, "checkpoint_corrupt", False),
    "st13_bitflip_header_digit": (case_st13_bitflip_header_digit, "checkpoint_corrupt", False),
    "torch13_load_flipped_record_name": (case_torch13_load_flipped_record_name,
                                         "checkpoint_corrupt", False),
    "benign13_nested_prototype": (case_benign13_nested_prototype, "benign", False),
    "benign13_sparse_csr_beta": (case_benign13_sparse_csr_beta, "benign", False),
    "benign13_lazy_modules": (case_benign13_lazy_modules, "benign", False),
    "benign13_clip_grad_norm_old": (case_benign13_clip_grad_norm_old, "benign", False),
    "benign13_right_padding": (case_benign13_right_padding, "benign", False),
    "hub13_retry_after_download": (partial(hub13_retry_after, "download"), "hf_http_error", False),
    "hub13_retry_after_snapshot": (partial(hub13_retry_after, "snapshot"), "hf_http_error", False),
}
hub_grid(CASES13, "hub13", hub13_case, [("gated401", "access_requests", "hf_gated"),
                                        ("status500", "access_requests", "hf_http_error"),
                                        ("forbidden403", "grant_access", "hf_gated"),
                                        ("status429", "grant_access", "hf_http_error"),
                                        ("missing404", "discussion_details", "hf_repo_not_found"),
                                        ("status504", "discussion_details", "hf_http_error"),
                                        ("badtoken401", "comment", "hf_gated"),
                                        ("status502", "comment", "hf_http_error"),
                                        ("gated403", "info_rev", "hf_gated"),
                                        ("status504", "info_rev", "hf_http_error"),
                                        ("gated401", "delete_tag", "hf_gated"),
                                        ("status503", "delete_tag", "hf_http_error"),
                                        ("forbidden403", "settings", "hf_gated"),
                                        ("status500", "settings", "hf_http_error"),
                                        ("badtoken401", "discussion_status", "hf_gated"),
                                        ("status429", "discussion_status", "hf_http_error"),
                                        ("gatedbody403", "download", "hf_gated"),
                                        ("gatedbody403", "tokenizer", "hf_gated"),
                                        ("gatedbody403", "snapshot", "hf_gated"),
                                        ("status504", "tokenizer", "hf_http_error"),
                                        ("status504", "snapshot", "hf_http_error"),
                                        ("status504", "model", "hf_http_error")])
CASES.update(CASES13)


# ----------------------------------------------------------------------------- the fourteenth set


def _oom14(alloc_conf: str, fraction: float, body: Callable[[Any], None]) -> None:
    """An OOM under PYTORCH_CUDA_ALLOC_CONF=`alloc_conf` (set before torch touches the GPU) and a
    per-process memory fraction."""
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = alloc_conf
    import torch

    torch.cuda.set_per_process_memory_fraction(fraction)
    body(torch)


def case_oom14_matmul_no_expandable() -> None:
    def body(torch: Any) -> None:
        a = torch.randn(16384, 16384, device="cuda")  # 1 GiB of the 1.4 GiB allowed
        print((a @ a).sum().item())

    _oom14("expandable_segments:False", 0.01, body)


def case_oom14_sdpa_math_expandable() -> None:
    def body(torch: Any) -> None:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        q = torch.randn(1, 32, 8192, 128, device="cuda", dtype=torch.bfloat16)
        with sdpa_kernel(SDPBackend.MATH):  # the math path builds the 32 x 8192 x 8192 scores
            out = torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)
        print(out.shape)

    _oom14("expandable_segments:True", 0.01, body)


def case_oom14_empty_expandable() -> None:
    def body(torch: Any) -> None:
        x = torch.empty(1 << 42, dtype=torch.bfloat16, device="cuda")  # 8 TiB
        print(x.shape)

    _oom14("expandable_segments:True", 1.0, body)


def case_oom14_to_cuda_big_cpu() -> None:
    def body(torch: Any) -> None:
        rollouts = torch.ones(3 << 28)  # 3 GiB of float32 on the host, the GPU allows 1.4 GiB
        print(rollouts.to("cuda").sum().item())

    _oom14("expandable_segments:False", 0.01, body)


def case_assert14_cross_entropy_smoothing() -> None:
    import torch

    logits = torch.randn(8, 32, device="cuda")
    target = torch.tensor([1, 2, 3, 40, 5, 6, 7, 8], device="cuda")  # 40 >= 32 classes
    loss = torch.nn.functional.cross_entropy(logits, target, label_smoothing=0.1)
    print(loss.item())


def case_assert14_multinomial_negative() -> None:
    import torch

    probs = torch.tensor([[0.5, -0.1, 0.6]], device="cuda")
    print(torch.multinomial(probs, 1).item())


def case_assert14_multinomial_zero_sum() -> None:
    import torch

    print(torch.multinomial(torch.zeros(2, 16, device="cuda"), 1).tolist())


def case_assert14_embedding_max_norm() -> None:
    import torch

    w = torch.randn(10, 4, device="cuda")
    idx = torch.tensor([1, 2, 99], device="cuda")
    print(torch.nn.functional.embedding(idx, w, max_norm=1.0).sum().item())


def case_assert14_take_along_dim() -> None:
    import torch

    x = torch.randn(4, 8, device="cuda")
    idx = torch.tensor([[0], [3], [9], [1]], device="cuda")
    print(torch.take_along_dim(x, idx, dim=1).sum().item())


def case_assert14_one_hot_cuda() -> None:
    import torch

    print(torch.nn.functional.one_hot(torch.tensor([0, 7], device="cuda"), num_classes=4))


def case_assert14_repeat_interleave_negative() -> None:
    import torch

    print(torch.repeat_interleave(torch.tensor([1, -2, 3], device="cuda")))


def case_assert14_sparse_coo_bad_index() -> None:
    import torch

    idx = torch.tensor([[0, 9], [1, 2]], device="cuda")
    s = torch.sparse_coo_tensor(idx, torch.ones(2, device="cuda"), (4, 4), check_invariants=False)
    print(s.to_dense().sum().item())


def case_assert14_bincount_negative() -> None:
    import torch

    print(torch.bincount(torch.tensor([1, -1, 2], device="cuda")))


def case_assert14_index_select_negative() -> None:
    import torch

    x = torch.randn(16, 4, device="cuda")
    print(x.index_select(0, torch.tensor([0, -3], device="cuda")).sum().item())


def case_triton14_bad_offset() -> None:
    """A triton kernel whose pointer offset is off by 2**40 elements (a bad stride)."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def copy(src, dst, n, off, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = i < n
        tl.store(dst + i, tl.load(src + off + i, mask=m), mask=m)

    x = torch.ones(1024, device="cuda")
    y = torch.empty_like(x)
    copy[(4,)](x, y, 1024, 1 << 40, BLOCK=256)
    torch.cuda.synchronize()
    print(y.sum().item())


def _gloo14(world: int, body: Callable[[int, Any, Any], None], timeout_s: int = 8) -> None:
    from datetime import timedelta

    port = free_port()

    def run(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(world, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=timeout_s))
        body(rank, torch, dist)
        print(f"rank {rank} done", flush=True)

    _worker_n(world, run)


def case_gloo14_all_gather_size_mismatch() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(8 if rank == 0 else 16)
        out = [torch.empty_like(t) for _ in range(2)]
        dist.all_gather(out, t)

    _gloo14(2, body)


def case_gloo14_op_mismatch() -> None:
    """rank 0 all_reduce, rank 1 reduce to rank 0 (TORCH_DISTRIBUTED_DEBUG unset)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(1024)
        if rank == 0:
            dist.all_reduce(t)
        else:
            dist.reduce(t, dst=0)
        dist.barrier()

    _gloo14(2, body)


def case_gloo14_send_recv_size_mismatch() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        if rank == 0:
            dist.send(torch.ones(16), dst=1)
        else:
            buf = torch.empty(8)
            dist.recv(buf, src=0)

    _gloo14(2, body)


def case_gloo14_dtype_mismatch() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(256, dtype=torch.float32 if rank == 0 else torch.float64)
        dist.all_reduce(t)

    _gloo14(2, body)


def case_gloo14_destroy_early() -> None:
    """rank 1 calls destroy_process_group and goes on (a finished rollout worker) while rank 0
    enters an all_reduce."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        if rank == 1:
            dist.destroy_process_group()
            time.sleep(12)
            return
        time.sleep(1)
        dist.all_reduce(torch.ones(64))

    _gloo14(2, body)


def case_gloo14_broadcast_src_mismatch() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.full((64,), float(rank))
        dist.broadcast(t, src=rank)  # each rank thinks it is the source

    _gloo14(2, body)


def case_gloo14_scatter_list_nonsrc() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        out = torch.empty(4)
        dist.scatter(out, [torch.ones(4), torch.ones(4)], src=0)  # every rank passes the list

    _gloo14b(body)


def case_dist14_init_twice() -> None:
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    dist.init_process_group("gloo")


def case_store14_master_restart() -> None:
    """The rendezvous master's TCPStore process dies and a new one comes up on the same port;
    a client that held a connection then asks for a key the old master had."""
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()

    def master(seconds: float) -> int:
        pid = os.fork()
        if pid == 0:
            s = dist.TCPStore("127.0.0.1", port, 2, True, timeout=timedelta(seconds=20))
            s.set("trainer_addr", "10.0.0.7:29500")
            time.sleep(seconds)
            os._exit(0)
        return pid

    first = master(30)
    time.sleep(2)
    client = dist.TCPStore("127.0.0.1", port, 2, False, timeout=timedelta(seconds=5))
    print("got", client.get("trainer_addr"), flush=True)
    os.kill(first, 9)
    os.waitpid(first, 0)
    second = master(15)
    time.sleep(2)
    try:
        print("got again", client.get("trainer_addr"), flush=True)
    finally:
        os.kill(second, 9)


def case_ckpt14_missing_module() -> None:
    """torch.load(weights_only=False) of a checkpoint that pickled an object of a module the
    loading side no longer has (the trainer's code moved)."""
    import torch

    src = Path(tempfile.mkdtemp())
    (src / "irisrl_policy_v1.py").write_text(
        "class ValueHeadState:\n    def __init__(self, step):\n        self.step = step\n")
    sys.path.insert(0, str(src))
    import irisrl_policy_v1  # type: ignore[import-not-found]

    p = Path(tempfile.mkdtemp()) / "trainer_state.pt"
    torch.save({"value_head": irisrl_policy_v1.ValueHeadState(300)}, p)
    sys.path.remove(str(src))
    del sys.modules["irisrl_policy_v1"]
    (src / "irisrl_policy_v1.py").unlink()
    torch.load(p, weights_only=False)


def case_ckpt14_compiled_prefix() -> None:
    """A state_dict saved from a torch.compile'd model (keys under _orig_mod.) loaded into the
    plain model."""
    import torch

    class PolicyValueNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = torch.nn.Linear(8, 8)
            self.value = torch.nn.Linear(8, 1)

    sd = torch.compile(PolicyValueNet()).state_dict()
    PolicyValueNet().load_state_dict(sd)


def case_disk14_jit_save_devfull() -> None:
    import torch

    torch.jit.save(torch.jit.script(torch.nn.Linear(256, 256)), "/dev/full")


def case_disk14_export_save_devfull() -> None:
    import torch

    ep = torch.export.export(torch.nn.Linear(64, 64), (torch.ones(2, 64),))
    torch.export.save(ep, "/dev/full")


def case_disk14_savez_tmpfs() -> None:
    import numpy as np

    mnt = _small_fs()
    dest = (mnt / "advantages.npz") if mnt else Path("/dev/full")
    np.savez_compressed(dest, adv=np.random.rand(1 << 18))


def case_disk14_tempfile_tmpfs() -> None:
    mnt = _small_fs()
    with tempfile.NamedTemporaryFile(dir=str(mnt) if mnt else None, suffix=".rollout") as f:
        for _ in range(64):
            f.write(os.urandom(1 << 16))
        f.flush()
        os.fsync(f.fileno())


def case_benign14_torch_range() -> None:
    import torch

    print(torch.range(0, 4).sum().item())


def case_benign14_init_normal() -> None:
    import torch

    w = torch.empty(4, 4)
    torch.nn.init.normal(w)
    print(w.shape)


def case_benign14_cpu_amp_autocast() -> None:
    import torch

    with torch.cpu.amp.autocast(dtype=torch.bfloat16):
        y = torch.ones(4, 4) @ torch.ones(4, 4)
    print(y.dtype)


def case_benign14_chain_matmul() -> None:
    import torch

    print(torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 4), torch.ones(4, 2)).sum().item())


def case_benign14_jit_script() -> None:
    import torch

    m = torch.jit.script(torch.nn.Linear(4, 4))
    print(m(torch.ones(1, 4)).shape)


def case_benign14_hf_transfer_env() -> None:
    """HF_HUB_ENABLE_HF_TRANSFER=1 (an old launcher's env) with huggingface_hub 1.x: a download
    that works."""
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}'}}))
    os.environ["HF_HUB_ENABLE_HF_TRANSFER"] = "1"
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/okrepo", "config.json"))


def case_benign14_vocab_resize() -> None:
    """resize_token_embeddings to a size that is not a multiple of 64 (a note, the run goes on)."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "policy", "safetensors")
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(d)
    print(model.resize_token_embeddings(37).weight.shape)


def hub14_case(variant: str, api: str) -> None:
    """start_hub's answers through loaders and HfApi / HfFileSystem calls no earlier set made."""
    _hub_env(start_hub({"okrepo": {"config.json": b'{"model_type": "gpt2"}'},
                        "nofiles": {"README.md": b"# empty\n"}}))
    os.environ["HF_HUB_DISABLE_XET"] = "1"
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    repo = "irisrl/nofiles" if variant == "entry404" else f"irisrl/{variant}"
    print(f"PROVOKE-NOTE repo={repo} api={api}", flush=True)
    if api == "processor":
        from transformers import AutoProcessor

        AutoProcessor.from_pretrained(repo)
    elif api == "image_processor":
        from transformers import AutoImageProcessor

        AutoImageProcessor.from_pretrained(repo)
    elif api == "automodel":
        from transformers import AutoModel

        AutoModel.from_pretrained(repo)
    elif api == "genconfig_rev":
        from transformers import GenerationConfig

        GenerationConfig.from_pretrained(repo, revision="global_step_300")
    elif api == "pipeline":
        from transformers import pipeline

        pipeline("text-generation", model=repo)
    elif api == "fs_glob":
        from huggingface_hub import HfFileSystem

        print(HfFileSystem().glob(f"{repo}/*.safetensors"))
    elif api == "fs_info":
        from huggingface_hub import HfFileSystem

        at = "@global_step_300" if variant == "revision404" else ""
        print(HfFileSystem().info(f"{repo}{at}/config.json"))
    elif api == "allow_patterns":
        from huggingface_hub import snapshot_download

        snapshot_download(repo, allow_patterns=["*.json", "*.safetensors"])
    elif api == "tree_recursive":
        from huggingface_hub import HfApi

        print(list(HfApi().list_repo_tree(repo, recursive=True)))
    elif api == "list_files":
        from huggingface_hub import HfApi

        print(HfApi().list_repo_files(repo))
    elif api == "fs_write":
        from huggingface_hub import HfFileSystem

        with HfFileSystem().open(f"{repo}/rollouts/step_300.jsonl", "w") as f:
            f.write('{"reward": 0.5}\n')


def hub14_offline_case(api: str) -> None:
    """A cache holding config.json and tokenizer_config.json only (an earlier job fetched them),
    then HF_HUB_OFFLINE=1 (set before the libraries are imported: they read it once)."""
    _hub_env(start_hub({"okrepo": {"config.json": json.dumps({"model_type": "gpt2"}).encode(),
                                   "tokenizer_config.json": b'{"model_max_length": 1024}'}}))
    subprocess.check_call([sys.executable, "-c", "from huggingface_hub import hf_hub_download; "
                           "[hf_hub_download('irisrl/okrepo', f) for f in "
                           "('config.json', 'tokenizer_config.json')]"])
    os.environ["HF_HUB_OFFLINE"] = "1"
    repo = "irisrl/okrepo"
    if api == "genconfig":
        from transformers import GenerationConfig

        GenerationConfig.from_pretrained(repo)
    elif api == "allow_patterns":
        from huggingface_hub import snapshot_download

        print(snapshot_download(repo, allow_patterns=["*.safetensors"]))
    elif api == "fs_ls":
        from huggingface_hub import HfFileSystem

        print(HfFileSystem().ls(repo))
    elif api == "automodel":
        from transformers import AutoModel

        AutoModel.from_pretrained(repo)
    elif api == "pipeline":
        from transformers import pipeline

        pipeline("text-generation", model=repo)
    elif api == "processor":
        from transformers import AutoProcessor

        AutoProcessor.from_pretrained(repo)
    elif api == "image_processor":
        from transformers import AutoImageProcessor

        AutoImageProcessor.from_pretrained(repo)


CASES14: dict[str, Case] = {
    "oom14_matmul_no_expandable": (case_oom14_matmul_no_expandable, "cuda_oom", True),
    "oom14_sdpa_math_expandable": (case_oom14_sdpa_math_expandable, "cuda_oom", True),
    "oom14_empty_expandable": (case_oom14_empty_expandable, "cuda_oom", True),
    "oom14_to_cuda_big_cpu": (case_oom14_to_cuda_big_cpu, "cuda_oom", True),
    "assert14_cross_entropy_smoothing": (case_assert14_cross_entropy_smoothing, "cuda_error", True),
    "assert14_multinomial_negative": (case_assert14_multinomial_negative, "cuda_error", True),
    "assert14_multinomial_zero_sum": (case_assert14_multinomial_zero_sum, "cuda_error", True),
    "assert14_embedding_max_norm": (case_assert14_embedding_max_norm, "cuda_error", True),
    "assert14_take_along_dim": (case_assert14_take_along_dim, "cuda_error", True),
    "assert14_one_hot_cuda": (case_assert14_one_hot_cuda, "cuda_error", True),
    "assert14_repeat_interleave_negative": (case_assert14_repeat_interleave_negative,
                                            "python_crash", True),
    "assert14_sparse_coo_bad_index": (case_assert14_sparse_coo_bad_index, "cuda_error", True),
    "assert14_bincount_negative": (case_assert14_bincount_negative, "python_crash", True),
    "assert14_index_select_negative": (case_assert14_index_select_negative, "cuda_error", True),
    "triton14_bad_offset": (case_triton14_bad_offset, "cuda_error", True),
    "gloo14_all_gather_size_mismatch": (case_gloo14_all_gather_size_mismatch, "python_crash",
                                        False),
    "gloo14_op_mismatch": (case_gloo14_op_mismatch, "dist_timeout", False),
    "gloo14_send_recv_size_mismatch": (case_gloo14_send_recv_size_mismatch, "python_crash", False),
    "gloo14_dtype_mismatch": (case_gloo14_dtype_mismatch, "python_crash", False),
    "gloo14_destroy_early": (case_gloo14_destroy_early, "python_crash", False),
    "gloo14_broadcast_src_mismatch": (case_gloo14_broadcast_src_mismatch, "dist_timeout", False),
    "gloo14_scatter_list_nonsrc": (case_gloo14_scatter_list_nonsrc, "python_crash", False),
    "dist14_init_twice": (case_dist14_init_twice, "python_crash", False),
    "store14_master_restart": (case_store14_master_restart, "dist_timeout", False),
    "ckpt14_missing_module": (case_ckpt14_missing_module, "python_crash", False),
    "ckpt14_compiled_prefix": (case_ckpt14_compiled_prefix, "python_crash", False),
    "disk14_jit_save_devfull": (case_disk14_jit_save_devfull, "disk_full", False),
    "disk14_export_save_devfull": (case_disk14_export_save_devfull, "disk_full", False),
    "disk14_savez_tmpfs": (case_disk14_savez_tmpfs, "disk_full", False),
    "disk14_tempfile_tmpfs": (case_disk14_tempfile_tmpfs, "disk_full", False),
    "benign14_torch_range": (case_benign14_torch_range, "benign", False),
    "benign14_init_normal": (case_benign14_init_normal, "benign", False),
    "benign14_cpu_amp_autocast": (case_benign14_cpu_amp_autocast, "benign", False),
    "benign14_chain_matmul": (case_benign14_chain_matmul, "benign", False),
    "benign14_jit_script": (case_benign14_jit_script, "benign", False),
    "benign14_hf_transfer_env": (case_benign14_hf_transfer_env, "benign", False),
    "benign14_vocab_resize": (case_benign14_vocab_resize, "benign", False),
}
for _v, _api in [("gated401", "processor"), ("missing404", "processor"),
                 ("status503", "processor"), ("gated403", "image_processor"),
                 ("revision404", "image_processor"), ("entry404", "image_processor"),
                 ("gated401", "automodel"), ("missing404", "automodel"),
                 ("status502", "automodel"), ("gated403", "genconfig_rev"),
                 ("status500", "genconfig_rev"), ("gated403", "pipeline"),
                 ("revision404", "pipeline"), ("forbidden403", "fs_glob"),
                 ("missing404", "fs_glob"), ("status500", "fs_info"), ("gated401", "fs_info"),
                 ("gated403", "allow_patterns"), ("status429", "allow_patterns"),
                 ("badtoken401", "tree_recursive"), ("missing404", "tree_recursive"),
                 ("status503", "list_files"), ("gated401", "list_files")]:
    CASES14[f"hub14_{_v}_{_api}"] = (partial(hub14_case, _v, _api), HUB_KIND[_v], False)
for _api in ("genconfig", "allow_patterns", "fs_ls", "automodel", "pipeline"):
    CASES14[f"hub14_offline_{_api}"] = (partial(hub14_offline_case, _api), "hf_weights_missing",
                                        False)
CASES.update(CASES14)


# the fourteenth set's second call


def _worker_n14(n: int, fn: Callable[[int], None]) -> None:
    """_worker_n, but a forked rank prints its own traceback before it exits (exit 1)."""
    import traceback

    rank, pids = _fork_ranks(n)
    if rank != 0:
        try:
            fn(rank)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
        os._exit(0)
    try:
        fn(0)
    finally:
        for pid in pids:
            os.waitpid(pid, 0)


def _gloo14b(body: Callable[[int, Any, Any], None], timeout_s: int = 8) -> None:
    from datetime import timedelta

    port = free_port()

    def run(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=timeout_s))
        body(rank, torch, dist)
        print(f"rank {rank} done", flush=True)

    _worker_n14(2, run)


def case_gloo14_gather_list_nonsrc() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.gather(torch.ones(4), [torch.empty(4), torch.empty(4)], dst=0)  # every rank passes it

    _gloo14b(body)


def case_gloo14_reduce_op_avg() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(8), op=dist.ReduceOp.AVG)

    _gloo14b(body)


def case_gloo14_all_gather_into_tensor_size() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_gather_into_tensor(torch.empty(6), torch.ones(4))

    _gloo14b(body)


def case_gloo14_object_unpicklable() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        objs = [(lambda r: r) if rank == 0 else None]
        dist.broadcast_object_list(objs, src=0)

    _gloo14b(body)


def case_gloo14_rank1_raises_midrun() -> None:
    """rank 1 raises between two all_reduces (its traceback printed); rank 0 waits in the second."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(64)
        dist.all_reduce(t)
        if rank == 1:
            raise ValueError("reward model returned 3 scores for 4 rollouts")
        dist.all_reduce(t)

    _gloo14b(body)


def case_dist14_categorical_nan_logits() -> None:
    import torch

    logits = torch.tensor([[0.1, float("nan"), 0.3]])
    print(torch.distributions.Categorical(logits=logits).sample())


def case_dist14_multinomial_no_replacement() -> None:
    import torch

    print(torch.multinomial(torch.ones(2, 4), 8, replacement=False))


def case_cuda14_topk_too_large() -> None:
    import torch

    print(torch.topk(torch.randn(4, 16, device="cuda"), 32, dim=-1).values.shape)


def case_cuda14_kthvalue_out_of_range() -> None:
    import torch

    print(torch.kthvalue(torch.randn(16, device="cuda"), 20))


def case_cuda14_jiterator_compile_error() -> None:
    import torch
    from torch.cuda.jiterator import _create_jit_fn

    fn = _create_jit_fn("template <typename T> T clip_adv(T x) { return x + ; }")
    print(fn(torch.ones(4, device="cuda")))


def case_cuda14_index_put_accumulate() -> None:
    import torch

    x = torch.zeros(8, device="cuda")
    x.index_put_((torch.tensor([1, 20], device="cuda"),), torch.ones(2, device="cuda"),
                 accumulate=True)
    print(x.sum().item())


def case_cuda14_ctc_loss_bad_target() -> None:
    import torch

    lp = torch.randn(20, 2, 6, device="cuda").log_softmax(2)
    targets = torch.tensor([[1, 9, 2], [3, 4, 1]], device="cuda")  # 9 >= 6 classes
    loss = torch.nn.functional.ctc_loss(lp, targets, torch.tensor([20, 20]), torch.tensor([3, 3]))
    print(loss.item())


def case_triton14_dot_block_too_small() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def mm(a, b, c, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        x = tl.load(a + i[:, None] * BLOCK + i[None, :])
        y = tl.load(b + i[:, None] * BLOCK + i[None, :])
        tl.store(c + i[:, None] * BLOCK + i[None, :], tl.dot(x, y))

    a = torch.ones(8, 8, device="cuda")
    c = torch.empty_like(a)
    mm[(1,)](a, a, c, BLOCK=8)
    print(c.sum().item())


def case_loss14_float_target() -> None:
    import torch

    print(torch.nn.functional.nll_loss(torch.randn(4, 8).log_softmax(-1), torch.ones(4)).item())


def case_benign14_custom_fwd() -> None:
    import torch

    @torch.cuda.amp.custom_fwd
    def f(x: Any) -> Any:
        return x * 2

    print(f(torch.ones(2)))


def case_benign14_non_full_backward_hook() -> None:
    import torch

    m = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
    m.register_backward_hook(lambda mod, gi, go: None)
    m(torch.ones(2, 4, requires_grad=True)).sum().backward()
    print("ok")


def case_benign14_pytree_register() -> None:
    import torch.utils._pytree as pytree

    class Rollout:
        pass

    pytree._register_pytree_node(Rollout, lambda r: ([], None), lambda c, x: Rollout())
    print("ok")


CASES14B: dict[str, Case] = {
    "gloo14_gather_list_nonsrc": (case_gloo14_gather_list_nonsrc, "python_crash", False),
    "gloo14_reduce_op_avg": (case_gloo14_reduce_op_avg, "python_crash", False),
    "gloo14_all_gather_into_tensor_size": (case_gloo14_all_gather_into_tensor_size,
                                           "python_crash", False),
    "gloo14_object_unpicklable": (case_gloo14_object_unpicklable, "python_crash", False),
    "gloo14_rank1_raises_midrun": (case_gloo14_rank1_raises_midrun, "python_crash", False),
    "dist14_categorical_nan_logits": (case_dist14_categorical_nan_logits, "python_crash", False),
    "dist14_multinomial_no_replacement": (case_dist14_multinomial_no_replacement,
                                          "python_crash", False),
    "cuda14_topk_too_large": (case_cuda14_topk_too_large, "python_crash", True),
    "cuda14_kthvalue_out_of_range": (case_cuda14_kthvalue_out_of_range, "python_crash", True),
    "cuda14_jiterator_compile_error": (case_cuda14_jiterator_compile_error, "python_crash", True),
    "cuda14_index_put_accumulate": (case_cuda14_index_put_accumulate, "cuda_error", True),
    "cuda14_ctc_loss_bad_target": (case_cuda14_ctc_loss_bad_target, "cuda_error", True),
    "triton14_dot_block_too_small": (case_triton14_dot_block_too_small, "python_crash", True),
    "loss14_float_target": (case_loss14_float_target, "python_crash", False),
    "benign14_custom_fwd": (case_benign14_custom_fwd, "benign", False),
    "benign14_non_full_backward_hook": (case_benign14_non_full_backward_hook, "benign", False),
    "benign14_pytree_register": (case_benign14_pytree_register, "benign", False),
}
for _v, _api in [("gated401", "fs_write"), ("badtoken401", "pipeline"),
                 ("status429", "fs_glob"), ("revision404", "fs_info")]:
    CASES14B[f"hub14_{_v}_{_api}"] = (partial(hub14_case, _v, _api), HUB_KIND[_v], False)
for _api in ("processor", "image_processor"):
    CASES14B[f"hub14_offline_{_api}"] = (partial(hub14_offline_case, _api), "hf_weights_missing",
                                         False)
CASES14.update(CASES14B)
CASES.update(CASES14)


# seconds a case may take (default 60): hub retries back off 1+2+4+8+8 s per file
TIMEOUT_S = {"hub_dns_model": 200, "hub_status503_model": 150,
             "transformers_relative_path_missing": 120,
             "nccl_watchdog_timeout": 120, "torchrun_rendezvous_timeout": 120,
             "gloo_collective_timeout": 90, "nccl_duplicate_gpu": 90, "cuda_oom_fill": 90,
             "dist_world_mismatch": 90, "triton_out_of_resources": 120,
             "compile_recompile_limit": 120, "compile_fullgraph_break": 120,
             "compile_backend_error": 120, "hub_stall_download": 200,
             "hub_stall_head_snapshot": 200, "hub_cutshort_download": 120,
             "hub_bigger_head_download": 120, "hub_offline_transformers": 90,
             "gloo_monitored_barrier_timeout": 90, "dist_master_addr_unresolvable": 90,
             "torchrun_child_raises": 90, "torchrun_child_sigkill": 90,
             "hub_stall_get_download": 150, "compile_autotune_gpu_full": 120,
             "torchrun_child_sigterm": 90, "torchrun_agent_sigterm": 90,
             "compile_item_graph_break": 120, "compile_dynamic_constraint": 120,
             "compile_error_on_recompile": 120, "compile_no_cxx": 120,
             "disk_full_inductor_cache": 120, "torchrun_rdzv_store_unreachable": 120,
             "gloo_send_timeout": 60, "hub5_status429_metadata": 150,
             "hub5_status500_info": 150, "hub5_status503_files": 150,
             "hub5_status502_tokenizer": 150, "nccl_gpu_full": 90,
             "hub5_cutshort_tokenizer": 150, "hub5_cutshort_snapshot": 150,
             "hub5_status416_tokenizer": 150, "hub5_status451_tokenizer": 150,
             "hub5_disabled_tokenizer": 150, "hub6_status503_refs": 150,
             "hub6_status503_pipeline": 150, "hub6_status500_exists": 150,
             "hub6_status503_dataset_file": 150, "hub6_status429_dataset_file": 150,
             "hub6_status500_upload": 150, "hub6_status500_fsls": 150,
             "nccl_blocking_wait_timeout": 75, "nccl_flight_recorder_timeout": 75,
             "new_group_timeout": 60, "torchrun_max_restarts": 90, "cuda_oom_other_process": 90,
             "benign_use_cache_grad_ckpt": 90, "hub7_status503_genconfig": 150,
             "hub7_status500_commits": 150, "hub7_status429_tree": 150,
             "hub7_status502_st_meta": 150, "trainer_resume_truncated_weights": 120,
             "trainer_resume_partial_ckpt": 90, "trainer_save_full_disk": 90,
             "compile_index_oob_cuda": 120, "benign_cudagraph_skip": 120,
             "triton_numel_too_large": 90, "hub7_status429_genconfig": 150,
             "hub7_status502_genconfig": 150, "trainer_resume_optimizer_html": 120,
             "trainer_resume_rng_lfs_pointer": 120, "disk_full_inodes_trainer": 90,
             "torchrun_rdzv_endpoint_dns": 120, "torchrun_master_port_busy": 90,
             "torchrun_nccl_two_ranks_one_gpu": 90, "torchrun_child_xcpu": 90,
             "accelerate_more_procs_than_gpus": 90, "hub8_status500_auth_check": 90,
             "hub8_status503_file_meta": 90, "hub8_status502_feature": 120,
             "torchrun_rdzv_etcd_absent": 90, "torchrun_nnodes_bad": 90,
             "hub8_status503_feature": 120, "hub8_status429_file_meta": 90,
             "hub8_status429_auth_check": 90, "nccl_watchdog_broadcast": 100}
TIMEOUT_S.update({n: 150 for n in CASES9 if re.search(r"status\d|shards", n)})
TIMEOUT_S.update({n: 150 for n in CASES10 if re.search(r"status5|push", n)})
TIMEOUT_S.update({"cudagraph_output_overwritten": 120, "flash_attn2_absent": 120,
                  "quant_bnb_absent": 90, "cuda_ipc_producer_exit": 90,
                  "cuda_ipc_producer_alive": 90, "nccl_oom_first_collective": 90,
                  "nccl_after_abort": 90, "remote_code_missing_package": 90})
TIMEOUT_S.update({n: 150 for n in CASES11 if n.startswith("hub11_")})
TIMEOUT_S.update({"torchrun_child_sigill": 90, "triton_smem_oor": 90, "cupy_stack_overflow": 60,
                  "benign_nccl_no_device_id": 60, "device_map_offload_missing": 90})
TIMEOUT_S.update({n: 90 for n in CASES12 if n.startswith(("hub12_", "trainer_", "torchrun_"))})
TIMEOUT_S.update({n: 150 for n in CASES13 if n.startswith("hub13_")})
TIMEOUT_S.update({"oom13_compiled": 150, "oom13_nccl_mem_pool": 90, "sdpa13_cudnn_gpu_full": 90,
                  "gloo13_peer_killed_4ranks": 60, "benign13_right_padding": 90})
TIMEOUT_S.update({n: 150 for n in CASES14 if n.startswith("hub14_")})
TIMEOUT_S.update({"store14_master_restart": 60, "gloo14_destroy_early": 60,
                  "benign14_vocab_resize": 90, "disk14_export_save_devfull": 90,
                  "oom14_sdpa_math_expandable": 90, "cuda14_jiterator_compile_error": 90,
                  "triton14_dot_block_too_small": 90})


# ----------------------------------------------------------------------------- the fifteenth set


def start_hub15(repos: dict[str, dict[str, bytes]], behaviour: dict[str, str]) -> str:
    """A loopback Hub for the fifteenth set: `behaviour` maps a repo name to html500 (500 with a
    whole HTML error page, no X-Error-Code), redirectloop (every answer a 302 to itself),
    cutshort (GET sends half of Content-Length, then closes), noetag / nocommit (200 without
    ETag / X-Repo-Commit), finegrained403 (403 with a fine-grained-token scope message),
    portal (200 text/html for everything: a proxy's login page), cdndown (HEAD answers, the
    file's redirect points at a port nobody listens on)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    dead_port = free_port()

    class Hub(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _answer(self, code: int, headers: dict[str, str], body: bytes,
                    length: int | None = None) -> None:
            self.send_response(code)
            self.send_header("X-Request-Id",
                             f"Root=1-{os.urandom(4).hex()}-{os.urandom(12).hex()}")
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body) if length is None else length))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _route(self) -> None:
            if self.command in ("POST", "PUT", "DELETE", "PATCH"):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = _as_model_path(self.path.split("?")[0])[0]
            m = re.match(r"^/(?:api/models/)?irisrl/([\w.-]+)(/.*)?$", path)
            name, rest = (m.group(1), m.group(2) or "") if m else ("", "")
            if path.startswith("/api/repos/") or path.startswith("/api/whoami"):
                name = next(iter(behaviour), "")
            how = behaviour.get(name, "")
            files = repos.get(name, {})
            host = f"http://127.0.0.1:{self.server.server_address[1]}"
            if how == "html500":
                body = (b"<!DOCTYPE html>\n<html>\n<head><title>500 Internal Server Error</title>"
                        b"</head>\n<body>\n<center><h1>500 Internal Server Error</h1></center>\n"
                        b"<hr><center>nginx</center>\n</body>\n</html>\n")
                self._answer(500, {"Content-Type": "text/html"}, body)
                return
            if how == "redirectloop":
                self._answer(302, {"Location": host + self.path}, b"")
                return
            if how == "portal":
                body = (b"<!DOCTYPE html><html><head><title>Sign in to the network</title></head>"
                        b"<body><form action=\"/login\">Proxy authentication required</form>"
                        b"</body></html>")
                self._answer(200, {"Content-Type": "text/html; charset=utf-8"}, body)
                return
            if how == "finegrained403":
                msg = (f"The fine-grained token you are using does not have access to {path.split('/resolve')[0]}:"
                       f" its permissions do not include \"Read access to contents of all "
                       f"public gated repos you can access\".")
                if self.command in ("POST", "PUT"):
                    msg = ("This fine-grained token does not have the permission "
                           "\"repo.content.write\" on irisrl/finegrained403.")
                body = json.dumps({"error": msg}).encode()
                self._answer(403, {"Content-Type": "application/json", "X-Error-Message": msg},
                             body)
                return
            if path.startswith("/api/models/"):
                if "/tree/" in rest:
                    out: Any = [{"type": "file", "path": f, "size": len(b),
                                 "oid": hashlib.sha1(b).hexdigest()}
                                for f, b in sorted(files.items())]
                else:
                    out = {"id": f"irisrl/{name}", "modelId": f"irisrl/{name}", "sha": COMMIT,
                           "private": False, "siblings": [{"rfilename": f} for f in sorted(files)]}
                self._answer(200, {"Content-Type": "application/json"}, json.dumps(out).encode())
                return
            if rest.startswith("/cdn/"):  # never reached: the cdndown redirect goes elsewhere
                self._answer(404, {}, b"")
                return
            fm = re.match(r"^/resolve/[^/]+/(.+)$", rest)
            fname = fm.group(1) if fm else ""
            if fname not in files:
                body = b'{"error":"Entry not found"}'
                self._answer(404, {"X-Error-Code": "EntryNotFound", "X-Error-Message":
                                   "Entry not found", "X-Repo-Commit": COMMIT,
                                   "Content-Type": "application/json"}, body)
                return
            body = files[fname]
            h = {"Content-Type": "application/octet-stream"}
            if how != "noetag":
                h["ETag"] = f'"{hashlib.sha256(body).hexdigest()}"'
            if how != "nocommit":
                h["X-Repo-Commit"] = COMMIT
            if how == "cdndown":
                h["Location"] = f"http://127.0.0.1:{dead_port}/cdn/{name}/{fname}"
                self._answer(302, h, b"")
                return
            if how == "cutshort" and self.command == "GET":
                self._answer(200, h, body[: len(body) // 2], length=len(body))
                self.wfile.flush()
                self.close_connection = True
                return
            self._answer(200, h, body)

        do_HEAD = _route
        do_GET = _route
        do_POST = _route
        do_PUT = _route
        do_DELETE = _route
        do_PATCH = _route

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


def hub15_case(how: str, api: str) -> None:
    repos: dict[str, dict[str, bytes]] = {}
    endpoint = start_hub15(repos, {how: how})
    _hub_env(endpoint)  # before huggingface_hub / transformers are imported
    os.environ["HF_TOKEN"] = "hf_" + "Fg" * 17  # a fine-grained token, as RL jobs mount one
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    repos[how] = {p.name: p.read_bytes() for p in d.iterdir()}
    repos[how]["tokenizer.json"] = json.dumps({"version": "1.0", "model": {"type": "WordLevel",
                                                "vocab": {"a": 0, "<unk>": 1},
                                                "unk_token": "<unk>"}}).encode()
    repos[how]["tokenizer_config.json"] = b'{"tokenizer_class": "PreTrainedTokenizerFast"}'
    repo = f"irisrl/{how}"
    print(f"PROVOKE-NOTE endpoint={endpoint} repo={repo} api={api}", flush=True)
    if api == "download":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "config.json"))
    elif api == "local_dir":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "model.safetensors", local_dir=tempfile.mkdtemp()))
    elif api == "fs_read":
        from huggingface_hub import HfFileSystem

        print(len(HfFileSystem().read_bytes(f"{repo}/model.safetensors")))
    elif api == "snapshot":
        from huggingface_hub import snapshot_download

        print(snapshot_download(repo))
    elif api == "info":
        from huggingface_hub import HfApi

        print(HfApi().model_info(repo))
    elif api == "upload":
        from huggingface_hub import HfApi

        HfApi().upload_file(path_or_fileobj=b"step 300\n", path_in_repo="trainer_state.txt",
                            repo_id=repo)
    elif api == "config":
        from transformers import AutoConfig

        print(AutoConfig.from_pretrained(repo))
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        print(AutoTokenizer.from_pretrained(repo))
    elif api == "model":
        from transformers import AutoModelForCausalLM

        print(type(AutoModelForCausalLM.from_pretrained(repo)))


def case_disk15_hub_cache_tmpfs() -> None:
    """hf_hub_download of a 2 MiB file into a cache on a 256 KiB tmpfs."""
    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    repos: dict[str, dict[str, bytes]] = {"big": {"model.safetensors": os.urandom(2 << 20)}}
    _hub_env(start_hub15(repos, {"big": ""}))
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/big", "model.safetensors", cache_dir=str(mnt / "hub")))


def _sharded15() -> Path:
    from transformers import GPT2Config, GPT2LMHeadModel

    d = Path(tempfile.mkdtemp()) / "policy" / "global_step_300"
    GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=256,
                               n_positions=32)).save_pretrained(d, max_shard_size="100KB")
    return d


def _load15(d: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(d, device_map="cuda", dtype=torch.bfloat16)
    print("loaded", next(m.parameters()).dtype, next(m.parameters()).device)


def case_st15_index_missing_shard_cuda() -> None:
    d = _sharded15()
    sorted(d.glob("model-*.safetensors"))[1].unlink()
    _load15(d)


def case_st15_shard_truncated_cuda() -> None:
    d = _sharded15()
    shard = sorted(d.glob("model-*.safetensors"))[0]
    data = shard.read_bytes()
    shard.write_bytes(data[: len(data) * 2 // 3])  # cut mid-tensor (a killed upload)
    _load15(d)


def case_st15_shard_wrong_dtype_cuda() -> None:
    """One shard rewritten with its tensors as int8 (a quantizer's output in the policy dir)."""
    import torch
    from safetensors.torch import load_file, save_file

    d = _sharded15()
    shard = sorted(d.glob("model-*.safetensors"))[0]
    save_file({k: (v * 100).to(torch.int8) for k, v in load_file(str(shard)).items()}, str(shard),
              metadata={"format": "pt"})
    _load15(d)


def case_st15_shard_wrong_shape_cuda() -> None:
    """One tensor of a shard saved transposed (an export script's bug)."""
    from safetensors.torch import load_file, save_file

    d = _sharded15()
    for shard in sorted(d.glob("model-*.safetensors")):
        t = load_file(str(shard))
        keys = [k for k, v in t.items() if v.dim() == 2 and v.shape[0] != v.shape[1]]
        if keys:
            t[keys[0]] = t[keys[0]].t().contiguous()
            save_file(t, str(shard), metadata={"format": "pt"})
            break
    _load15(d)


def case_st15_index_json_truncated_cuda() -> None:
    d = _sharded15()
    idx = d / "model.safetensors.index.json"
    text = idx.read_bytes()
    idx.write_bytes(text[: len(text) // 2])
    _load15(d)


def case_st15_index_wrong_shard_cuda() -> None:
    """The index maps every key to the first shard (an index written before re-sharding)."""
    d = _sharded15()
    idx = d / "model.safetensors.index.json"
    index = json.loads(idx.read_text())
    first = sorted(d.glob("model-*.safetensors"))[0].name
    index["weight_map"] = {k: first for k in index["weight_map"]}
    idx.write_text(json.dumps(index))
    _load15(d)


def case_st15_shard_html_cuda() -> None:
    """A shard that is the mirror proxy's 502 page, saved under the shard's name."""
    d = _sharded15()
    sorted(d.glob("model-*.safetensors"))[-1].write_bytes(
        b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 "
        b"Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n")
    _load15(d)


def _oom15_env(conf: str) -> Any:
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = conf
    import torch

    return torch


def case_oom15_generate_huge() -> None:
    """generate() of a batch of 512 prompts with max_new_tokens=8192 under a 0.01 fraction."""
    torch = _oom15_env("expandable_segments:True")
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.cuda.set_per_process_memory_fraction(0.01)
    m = GPT2LMHeadModel(GPT2Config(n_layer=4, n_embd=512, n_head=8, vocab_size=32000,
                                   n_positions=16384)).cuda().to(torch.bfloat16)
    ids = torch.randint(0, 32000, (512, 256), device="cuda")
    out = m.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=8192,
                     do_sample=True, pad_token_id=0)
    print(out.shape)


def case_oom15_kv_prealloc_expandable() -> None:
    """A KV-cache-like preallocation after most of the GPU is held (expandable_segments)."""
    torch = _oom15_env("expandable_segments:True")
    free, total = torch.cuda.mem_get_info()
    held = torch.empty(free - (6 << 30), dtype=torch.uint8, device="cuda")
    kv = torch.empty((2, 32, 4096, 8, 128, 8), dtype=torch.bfloat16, device="cuda")  # 4 GiB x 4
    print(held.numel(), kv.shape)


def case_benign15_recompile_guard() -> None:
    """Benign: dynamo's recompile-limit warning on a guard over a Python attribute."""
    import torch
    import torch._dynamo

    torch._dynamo.config.recompile_limit = 2

    class Sampler:
        temperature = 1.0

    s = Sampler()

    @torch.compile(backend="eager")
    def scale(x):  # type: ignore[no-untyped-def]
        return x / s.temperature

    for t in (1.0, 0.9, 0.8, 0.7, 0.6):
        s.temperature = t
        scale(torch.ones(4))
    print("recompile case done")


def case_compile15_nonzero_fullgraph() -> None:
    import torch

    @torch.compile(backend="eager", fullgraph=True)
    def mask_rewards(r):  # type: ignore[no-untyped-def]
        return r[torch.nonzero(r > 0).squeeze(-1)].sum()

    print(mask_rewards(torch.randn(16)))


def case_compile15_inductor_no_fallback() -> None:
    import torch
    import torch._inductor.config as icfg

    icfg.implicit_fallbacks = False

    @torch.compile
    def whiten(x):  # type: ignore[no-untyped-def]
        return torch.linalg.svdvals(x).sum() + torch.special.i1e(x).sum()

    print(whiten(torch.randn(8, 8)))


def case_disk15_dcp_save_threads_tmpfs() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    sd = {"model": {f"layers.{i}.w": torch.randn(256, 256) for i in range(8)}}
    writer = dcp.FileSystemWriter(str(mnt / "global_step_300"), thread_count=4,
                                  single_file_per_rank=False)
    dcp.save(sd, storage_writer=writer)


def case_benign15_dcp_save_state_dict() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    dcp.save_state_dict({"w": torch.ones(4)},
                        storage_writer=dcp.FileSystemWriter(tempfile.mkdtemp()), no_dist=True)
    print("saved")


def _gloo15(body: Callable[[int, Any, Any], None], timeout_s: int = 8) -> None:
    _gloo14b(body, timeout_s)


def case_gloo15_all_gather_object_lock() -> None:
    """rank 1's stats dict holds a threading.Lock; rank 0 waits in all_gather_object."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        stats: dict[str, Any] = {"reward": 0.5}
        if rank == 1:
            stats["lock"] = threading.Lock()
        out: list[Any] = [None, None]
        dist.all_gather_object(out, stats)
        print(out)

    _gloo15(body)


def case_gloo15_gather_object_dst_mismatch() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        out: list[Any] | None = [None, None]
        dist.gather_object({"rank": rank}, out, dst=rank)

    _gloo15(body)


def case_gloo15_scatter_object_short_list() -> None:
    def body(rank: int, torch: Any, dist: Any) -> None:
        out: list[Any] = [None]
        dist.scatter_object_list(out, [{"prompts": 1}] if rank == 0 else None, src=0)

    _gloo15(body)


def case_nccl15_destroy_while_waiting() -> None:
    """World of one: a thread destroys the process group while the main thread waits on an
    all_reduce queued behind a 10 s spin kernel."""
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", timeout=timedelta(seconds=30),
                            device_id=torch.device("cuda:0"))
    x = torch.ones(1024, device="cuda")
    torch.cuda._sleep(int(20e9))
    work = dist.all_reduce(x, async_op=True)

    def destroy() -> None:
        time.sleep(2)
        print("destroying the process group", flush=True)
        dist.destroy_process_group()

    threading.Thread(target=destroy, daemon=True).start()
    work.wait()
    torch.cuda.synchronize()
    print("wait returned", x[0].item(), flush=True)
    dist.all_reduce(x)


def case_grad15_backward_twice() -> None:
    """A PPO epoch loop that reuses the rollout's logprobs graph."""
    import torch

    w = torch.randn(8, 4, requires_grad=True)
    logp = torch.log_softmax(torch.randn(16, 8) @ w, -1)
    for _ in range(2):
        (-logp.mean()).backward()


def case_grad15_no_grad_loss() -> None:
    """The policy loss computed from logprobs taken under torch.no_grad()."""
    import torch

    lin = torch.nn.Linear(8, 4)
    with torch.no_grad():
        logp = torch.log_softmax(lin(torch.randn(16, 8)), -1)
    (-(logp * torch.randn(16, 4)).mean()).backward()


def case_benign15_reset_max_memory() -> None:
    import torch

    torch.ones(1, device="cuda")
    torch.cuda.reset_max_memory_allocated()
    print("peak", torch.cuda.max_memory_allocated())


def case_benign15_impl_abstract() -> None:
    import torch

    torch.library.define("irisrl15::clip", "(Tensor x) -> Tensor")

    @torch.library.impl_abstract("irisrl15::clip")
    def _(x):  # type: ignore[no-untyped-def]
        return torch.empty_like(x)

    print("registered")


def case_benign15_all_reduce_coalesced() -> None:
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    dist.all_reduce_coalesced([torch.ones(4), torch.ones(2)])
    dist.destroy_process_group()
    print("done")


def case_benign15_generate_max_length() -> None:
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    m = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=32, n_positions=64))
    ids = torch.randint(0, 32, (2, 4))
    print(m.generate(ids, attention_mask=torch.ones_like(ids), max_length=12,
                     max_new_tokens=6, pad_token_id=0).shape)


CASES15: dict[str, Case] = {
    "st15_index_missing_shard_cuda": (case_st15_index_missing_shard_cuda, "hf_weights_missing",
                                      True),
    "st15_shard_truncated_cuda": (case_st15_shard_truncated_cuda, "checkpoint_corrupt", True),
    "st15_shard_wrong_dtype_cuda": (case_st15_shard_wrong_dtype_cuda, "checkpoint_corrupt", True),
    "st15_shard_wrong_shape_cuda": (case_st15_shard_wrong_shape_cuda, "python_crash", True),
    "st15_index_json_truncated_cuda": (case_st15_index_json_truncated_cuda,
                                       "checkpoint_corrupt", True),
    "st15_index_wrong_shard_cuda": (case_st15_index_wrong_shard_cuda, "checkpoint_corrupt",
                                    True),
    "st15_shard_html_cuda": (case_st15_shard_html_cuda, "checkpoint_corrupt", True),
    "oom15_generate_huge": (case_oom15_generate_huge, "cuda_oom", True),
    "oom15_kv_prealloc_expandable": (case_oom15_kv_prealloc_expandable, "cuda_oom", True),
    "nccl15_destroy_while_waiting": (case_nccl15_destroy_while_waiting, "nccl_error", True),
    "benign15_reset_max_memory": (case_benign15_reset_max_memory, "benign", True),
    "benign15_recompile_guard": (case_benign15_recompile_guard, "benign", False),
    "compile15_nonzero_fullgraph": (case_compile15_nonzero_fullgraph, "python_crash", False),
    "compile15_inductor_no_fallback": (case_compile15_inductor_no_fallback, "python_crash",
                                       False),
    "disk15_dcp_save_threads_tmpfs": (case_disk15_dcp_save_threads_tmpfs, "disk_full", False),
    "disk15_hub_cache_tmpfs": (case_disk15_hub_cache_tmpfs, "disk_full", False),
    "benign15_dcp_save_state_dict": (case_benign15_dcp_save_state_dict, "benign", False),
    "gloo15_all_gather_object_lock": (case_gloo15_all_gather_object_lock, "python_crash", False),
    "gloo15_gather_object_dst_mismatch": (case_gloo15_gather_object_dst_mismatch,
                                          "dist_timeout", False),
    "gloo15_scatter_object_short_list": (case_gloo15_scatter_object_short_list,
                                         "python_crash", False),
    "grad15_backward_twice": (case_grad15_backward_twice, "python_crash", False),
    "grad15_no_grad_loss": (case_grad15_no_grad_loss, "python_crash", False),
    "benign15_impl_abstract": (case_benign15_impl_abstract, "benign", False),
    "benign15_all_reduce_coalesced": (case_benign15_all_reduce_coalesced, "benign", False),
    "benign15_generate_max_length": (case_benign15_generate_max_length, "benign", False),
}
for _how, _api, _kind in [
        ("html500", "download", "hf_http_error"), ("html500", "config", "hf_http_error"),
        ("html500", "snapshot", "hf_http_error"), ("redirectloop", "download", "hf_http_error"),
        ("redirectloop", "config", "hf_http_error"), ("redirectloop", "snapshot", "hf_http_error"),
        ("cutshort", "local_dir", "hf_incomplete_download"),
        ("cutshort", "fs_read", "hf_incomplete_download"),
        ("cutshort", "model", "hf_incomplete_download"),
        ("noetag", "download", "hf_http_error"), ("noetag", "tokenizer", "hf_http_error"),
        ("nocommit", "download", "hf_http_error"),
        ("finegrained403", "download", "hf_gated"), ("finegrained403", "upload", "hf_gated"),
        ("finegrained403", "tokenizer", "hf_gated"), ("finegrained403", "snapshot", "hf_gated"),
        ("portal", "info", "hf_http_error"), ("cdndown", "download", "hf_http_error")]:
    CASES15[f"hub15_{_how}_{_api}"] = (partial(hub15_case, _how, _api), _kind, False)
CASES.update(CASES15)
# the fifteenth set's second call

def case_compile15_graph_break_fullgraph() -> None:
    import torch
    import torch._dynamo

    @torch.compile(backend="eager", fullgraph=True)
    def advantage(r):  # type: ignore[no-untyped-def]
        a = r - r.mean()
        torch._dynamo.graph_break()
        return a / (a.std() + 1e-6)

    print(advantage(torch.randn(16)))


def case_chat15_roles_alternate() -> None:
    """A rollout prompt with two user turns in a row under a template that forbids it."""
    from transformers import AutoTokenizer

    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    tok = AutoTokenizer.from_pretrained(d)
    tok.chat_template = (
        "{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0)"
        " %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/"
        "...') }}{% endif %}{{ message['role'] + ': ' + message['content'] + '\\n' }}{% endfor %}")
    tok.apply_chat_template([{"role": "user", "content": "solve 2+2"},
                             {"role": "user", "content": "show your work"}], tokenize=False)


def case_gen15_temperature_zero() -> None:
    """Greedy evaluation asked for the vLLM way (temperature=0) through HF generate()."""
    import torch
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p",
                                                           "safetensors"))
    print(m.generate(torch.tensor([[1, 2, 3]]), do_sample=True, temperature=0.0,
                     max_new_tokens=4, pad_token_id=0))


def case_benign15_transpose_3d() -> None:
    import torch

    print(torch.randn(2, 3, 4).T.shape)


def case_oom15_kv_prealloc_16g() -> None:
    """A KV-cache-like preallocation of 16 GiB after all but 6 GiB is held (expandable_segments)."""
    torch = _oom15_env("expandable_segments:True")
    free, total = torch.cuda.mem_get_info()
    held = torch.empty(free - (6 << 30), dtype=torch.uint8, device="cuda")
    kv = torch.empty((2, 32, 16384, 8, 128, 8), dtype=torch.bfloat16, device="cuda")
    print(held.numel(), kv.shape)


CASES15B: dict[str, Case] = {
    "compile15_graph_break_fullgraph": (case_compile15_graph_break_fullgraph, "python_crash",
                                        False),
    "chat15_roles_alternate": (case_chat15_roles_alternate, "python_crash", False),
    "gen15_temperature_zero": (case_gen15_temperature_zero, "python_crash", False),
    "benign15_transpose_3d": (case_benign15_transpose_3d, "benign", False),
    "oom15_kv_prealloc_16g": (case_oom15_kv_prealloc_16g, "cuda_oom", True),
}
CASES15.update(CASES15B)
CASES.update(CASES15)
TIMEOUT_S.update({n: 100 for n in CASES15 if n.startswith("hub15_")})
TIMEOUT_S.update({"nccl15_destroy_while_waiting": 60, "oom15_generate_huge": 90,
                  "compile15_inductor_no_fallback": 90})


# ----------------------------------------------------------------------------- the sixteenth set


def hub16_case(variant: str, api: str) -> None:
    """The first set's loopback Hub (HUB_ERRORS) reached through entry points no set used:
    transformers 5's loaders with revision= / subfolder=, HfApi.file_exists, dataset-typed
    downloads and snapshots, peft's config loader."""
    files: dict[str, dict[str, bytes]] = {"nofiles": {"README.md": b"# empty\n"}}
    endpoint = start_hub(files)
    _hub_env(endpoint)  # before huggingface_hub / transformers are imported
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    files["okrepo"] = {p.name: p.read_bytes() for p in d.iterdir()}
    repo = {"entry404": "irisrl/okrepo"}.get(variant, f"irisrl/{variant}")
    print(f"PROVOKE-NOTE endpoint={endpoint} repo={repo} api={api}", flush=True)
    if api == "tokenizer_rev":
        from transformers import AutoTokenizer

        print(AutoTokenizer.from_pretrained(repo, revision="global_step_300"))
    elif api == "tokenizer_subfolder":
        from transformers import AutoTokenizer

        print(AutoTokenizer.from_pretrained(repo, subfolder="tokenizer"))
    elif api == "model_subfolder":
        from transformers import AutoModelForCausalLM

        print(type(AutoModelForCausalLM.from_pretrained(repo, subfolder="actor")))
    elif api == "model_rev_bf16":
        import torch
        from transformers import AutoModelForCausalLM

        print(type(AutoModelForCausalLM.from_pretrained(repo, revision="global_step_300",
                                                        dtype=torch.bfloat16)))
    elif api == "file_exists":
        from huggingface_hub import HfApi

        print("exists", HfApi().file_exists(repo, "model.safetensors"))
    elif api == "dataset_file":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "data/train-00000-of-00001.parquet", repo_type="dataset"))
    elif api == "dataset_snapshot_rev":
        from huggingface_hub import snapshot_download

        print(snapshot_download(repo, repo_type="dataset", revision="v2"))
    elif api == "peft_config":
        from peft import PeftConfig

        print(PeftConfig.from_pretrained(repo))


def case_disk16_save_model_tmpfs() -> None:
    import torch
    from safetensors.torch import save_model

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    save_model(torch.nn.Linear(512, 512), str(mnt / "actor.safetensors"))


def case_disk16_torch_save_legacy_tmpfs() -> None:
    """torch.save of a state dict through the legacy (non-zip) writer onto a full tmpfs."""
    import torch

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    torch.save(torch.nn.Linear(512, 512).state_dict(), mnt / "critic.pt",
               _use_new_zipfile_serialization=False)


def case_disk16_shutil_copy_shard_tmpfs() -> None:
    import shutil

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    src = Path(tempfile.mkdtemp()) / "model-00001-of-00002.safetensors"
    src.write_bytes(os.urandom(1 << 20))
    shutil.copy(src, mnt / src.name)


def case_disk16_snapshot_cache_tmpfs() -> None:
    """Meant as snapshot_download into HF_HUB_CACHE on a 256 KiB tmpfs; as written, the tiny model
    is built (transformers imported, so huggingface_hub read its endpoint) before the loopback Hub's
    HF_ENDPOINT is set, so the download went to huggingface.co on a box without DNS: its lines are a
    name-resolution failure, labelled hf_http_error (the second call's `_fixed` case is the
    full-disk one)."""
    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    files = {"big": {p.name: p.read_bytes() for p in d.iterdir()}}
    files["big"]["model-extra.safetensors"] = os.urandom(1 << 20)
    _hub_env(start_hub(files, {}))
    os.environ["HF_HUB_CACHE"] = str(mnt / "hub")
    from huggingface_hub import snapshot_download

    print(snapshot_download("irisrl/big"))


def case_oom16_model_to_cuda() -> None:
    """model.to('cuda') of a 4 GiB (fp32) model after all but 2 GiB of the GPU is held."""
    import torch

    free, _ = torch.cuda.mem_get_info()
    held = torch.empty(free - (2 << 30), dtype=torch.uint8, device="cuda")
    model = torch.nn.Sequential(*[torch.nn.Linear(8192, 8192, bias=False) for _ in range(16)])
    model.to("cuda")
    print(held.numel())


def case_oom16_after_empty_cache_expandable() -> None:
    """With expandable_segments: free a 100 GiB buffer, empty_cache(), then ask for 150 GiB."""
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    import torch

    x = torch.empty(100 << 30, dtype=torch.uint8, device="cuda")
    del x
    torch.cuda.empty_cache()
    y = torch.empty((150 << 30) // 2, dtype=torch.bfloat16, device="cuda")
    print(y.shape)


def case_oom16_pinned_host_huge() -> None:
    """A 4 TiB pinned host buffer (a rollout buffer with pin_memory=True sized in error)."""
    import torch

    buf = torch.empty(4 << 40, dtype=torch.uint8, pin_memory=True)
    print(buf.numel())


def case_oom16_max_split_size() -> None:
    """max_split_size_mb:128 with a fragmented cache, then a large block."""
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128,garbage_collection_threshold:0.6"
    import torch

    torch.cuda.set_per_process_memory_fraction(0.05)
    keep = [torch.empty(96 << 20, dtype=torch.uint8, device="cuda") for _ in range(60)]
    del keep[::2]
    z = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    print(z.numel())


def case_assert16_embedding_padding_backward() -> None:
    """nn.Embedding(padding_idx=0) with a token id past the vocab (a tokenizer / model mismatch
    after adding special tokens), forward and backward on CUDA."""
    import torch

    emb = torch.nn.Embedding(1000, 64, padding_idx=0).cuda()
    ids = torch.tensor([[0, 5, 1003, 7]], device="cuda")
    emb(ids).sum().backward()
    torch.cuda.synchronize()


def case_assert16_cross_entropy_label_smoothing() -> None:
    """cross_entropy(label_smoothing=0.1, ignore_index=-100) with a target id past the vocab."""
    import torch
    import torch.nn.functional as F

    logits = torch.randn(8, 32000, device="cuda")
    target = torch.tensor([1, 2, -100, 32007, 4, 5, 6, 7], device="cuda")
    print(F.cross_entropy(logits, target, label_smoothing=0.1).item())


def case_assert16_index_add_oob() -> None:
    """index_add_ with an index past the rows (per-sequence reward accumulation)."""
    import torch

    acc = torch.zeros(4, device="cuda")
    acc.index_add_(0, torch.tensor([0, 1, 9], device="cuda"), torch.ones(3, device="cuda"))
    print(acc.sum().item())


def case_cuda16_safetensors_load_cuda7() -> None:
    """safetensors load_file(device='cuda:7') on a one-GPU machine (a rank's device map)."""
    import torch
    from safetensors.torch import load_file, save_file

    p = str(Path(tempfile.mkdtemp()) / "w.safetensors")
    save_file({"w": torch.ones(4)}, p)
    print(load_file(p, device="cuda:7"))


def case_ckpt16_weights_only_namespace() -> None:
    """torch.load of a checkpoint holding an argparse.Namespace (old trainers saved their args)."""
    import argparse as ap

    import torch

    p = Path(tempfile.mkdtemp()) / "global_step_300.pt"
    torch.save({"model": {"w": torch.ones(2)}, "args": ap.Namespace(lr=1e-6, kl_coef=0.05)}, p)
    torch.load(p)


def case_ckpt16_weights_only_dataclass() -> None:
    """torch.load of a checkpoint holding a custom class instance (the trainer's RL state)."""
    import torch

    sys.path.insert(0, tempfile.mkdtemp())
    mod_dir = Path(sys.path[0])
    (mod_dir / "rlstate16.py").write_text(
        "import dataclasses\n@dataclasses.dataclass\nclass RLState:\n    step: int = 0\n"
        "    kl: float = 0.0\n")
    import rlstate16  # type: ignore[import-not-found]

    p = Path(tempfile.mkdtemp()) / "trainer_state.pt"
    torch.save({"state": rlstate16.RLState(300, 0.02)}, p)
    torch.load(p, weights_only=True)


def case_ckpt16_zip_entry_missing() -> None:
    """A torch.save zip with its data/0 record removed (a partial copy rebuilt by a tool)."""
    import zipfile

    import torch

    d = Path(tempfile.mkdtemp())
    src, dst = d / "a.pt", d / "optim.pt"
    torch.save({"exp_avg": torch.randn(64)}, src)
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            if not info.filename.endswith("/data/0"):
                zout.writestr(info, zin.read(info.filename))
    torch.load(dst)


def _st_raw(header: dict[str, Any], data: bytes) -> str:
    h = json.dumps(header).encode()
    p = Path(tempfile.mkdtemp()) / "model.safetensors"
    p.write_bytes(len(h).to_bytes(8, "little") + h + data)
    return str(p)


def case_st16_safe_open_unknown_dtype() -> None:
    from safetensors import safe_open

    p = _st_raw({"w": {"dtype": "Q4_K", "shape": [2], "data_offsets": [0, 2]}}, b"\0\0")
    with safe_open(p, framework="pt") as f:
        print(f.get_tensor("w"))


def case_st16_safe_open_metadata_not_str() -> None:
    from safetensors import safe_open

    p = _st_raw({"__metadata__": {"step": 300}, "w": {"dtype": "F32", "shape": [1],
                                                      "data_offsets": [0, 4]}}, b"\0" * 4)
    with safe_open(p, framework="pt") as f:
        print(f.metadata())


def case_st16_load_file_overlap() -> None:
    from safetensors.torch import load_file

    p = _st_raw({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                 "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, b"\0" * 12)
    print(load_file(p))


def case_st16_safe_open_get_slice_oob() -> None:
    from safetensors import safe_open
    from safetensors.torch import save_file

    import torch

    p = str(Path(tempfile.mkdtemp()) / "m.safetensors")
    save_file({"lm_head.weight": torch.ones(8, 4)}, p)
    with safe_open(p, framework="pt") as f:
        print(f.get_slice("lm_head.weight")[0:8, 0:4, 0:1])


def case_store16_wait_for_workers_3() -> None:
    """TCPStore(is_master=True, world_size=4, wait_for_workers=True, timeout=4 s), one client."""
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()

    def client() -> None:
        time.sleep(0.5)
        dist.TCPStore("127.0.0.1", port, 4, False, timeout=timedelta(seconds=10))

    threading.Thread(target=client, daemon=True).start()
    dist.TCPStore("127.0.0.1", port, 4, True, timeout=timedelta(seconds=4),
                  wait_for_workers=True)


def case_store16_compare_set_wait() -> None:
    """store.wait on two keys one of which nobody sets (the trainer's weight-sync barrier)."""
    from datetime import timedelta

    import torch.distributed as dist

    s = dist.TCPStore("127.0.0.1", free_port(), 1, True, timeout=timedelta(seconds=3))
    s.set("actor/step", "300")
    s.wait(["actor/step", "rollout/engine_0/synced"], timedelta(seconds=2))


def case_store16_hash_store_get() -> None:
    from datetime import timedelta

    import torch.distributed as dist

    s = dist.HashStore()
    s.set_timeout(timedelta(seconds=2))
    s.get("critic/ready")


def case_benign16_nested_tensor() -> None:
    import torch

    layer = torch.nn.TransformerEncoderLayer(32, 4, batch_first=False)
    torch.nn.TransformerEncoder(layer, 2)
    print("built")


def case_benign16_tf32_legacy_flag() -> None:
    import torch

    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    print(torch.backends.cuda.matmul.allow_tf32)


def case_benign16_clip_grad_nonfinite_off() -> None:
    import torch

    lin = torch.nn.Linear(4, 4)
    lin(torch.ones(1, 4)).sum().backward()
    print(torch.nn.utils.clip_grad_norm(lin.parameters(), 1.0))


def case_benign16_file_exists_false() -> None:
    """HfApi.file_exists on a file the repo lacks: False (a probe before a fallback)."""
    _hub_env(start_hub({"okrepo": {"config.json": b"{}"}}, {}))
    from huggingface_hub import HfApi, hf_hub_download

    api = HfApi()
    if not api.file_exists("irisrl/okrepo", "generation_config.json"):
        print("generation_config.json not found, using defaults")
    print(hf_hub_download("irisrl/okrepo", "config.json"))


def case_benign16_meshgrid_indexing() -> None:
    import torch

    print(torch.meshgrid(torch.arange(3), torch.arange(2))[0].shape)


def case_benign16_weight_norm() -> None:
    import torch

    print(torch.nn.utils.weight_norm(torch.nn.Linear(4, 4)))


CASES16: dict[str, Case] = {
    "disk16_save_model_tmpfs": (case_disk16_save_model_tmpfs, "disk_full", False),
    "disk16_torch_save_legacy_tmpfs": (case_disk16_torch_save_legacy_tmpfs, "disk_full", False),
    "disk16_shutil_copy_shard_tmpfs": (case_disk16_shutil_copy_shard_tmpfs, "disk_full", False),
    "disk16_snapshot_cache_tmpfs": (case_disk16_snapshot_cache_tmpfs, "hf_http_error",
                                    False),
    "oom16_model_to_cuda": (case_oom16_model_to_cuda, "cuda_oom", True),
    "oom16_after_empty_cache_expandable": (case_oom16_after_empty_cache_expandable, "cuda_oom",
                                           True),
    "oom16_pinned_host_huge": (case_oom16_pinned_host_huge, "cuda_oom", True),
    "oom16_max_split_size": (case_oom16_max_split_size, "cuda_oom", True),
    "assert16_embedding_padding_backward": (case_assert16_embedding_padding_backward,
                                            "cuda_error", True),
    "assert16_cross_entropy_label_smoothing": (case_assert16_cross_entropy_label_smoothing,
                                               "cuda_error", True),
    "assert16_index_add_oob": (case_assert16_index_add_oob, "cuda_error", True),
    "cuda16_safetensors_load_cuda7": (case_cuda16_safetensors_load_cuda7, "cuda_error", True),
    "ckpt16_weights_only_namespace": (case_ckpt16_weights_only_namespace, "checkpoint_corrupt",
                                      False),
    "ckpt16_weights_only_dataclass": (case_ckpt16_weights_only_dataclass, "checkpoint_corrupt",
                                      False),
    "ckpt16_zip_entry_missing": (case_ckpt16_zip_entry_missing, "checkpoint_corrupt", False),
    "st16_safe_open_unknown_dtype": (case_st16_safe_open_unknown_dtype, "checkpoint_corrupt",
                                     False),
    "st16_safe_open_metadata_not_str": (case_st16_safe_open_metadata_not_str,
                                        "checkpoint_corrupt", False),
    "st16_load_file_overlap": (case_st16_load_file_overlap, "checkpoint_corrupt", False),
    "st16_safe_open_get_slice_oob": (case_st16_safe_open_get_slice_oob, "python_crash", False),
    "store16_wait_for_workers_3": (case_store16_wait_for_workers_3, "dist_timeout", False),
    "store16_compare_set_wait": (case_store16_compare_set_wait, "dist_timeout", False),
    "store16_hash_store_get": (case_store16_hash_store_get, "dist_timeout", False),
    "benign16_nested_tensor": (case_benign16_nested_tensor, "benign", False),
    "benign16_tf32_legacy_flag": (case_benign16_tf32_legacy_flag, "benign", False),
    "benign16_clip_grad_nonfinite_off": (case_benign16_clip_grad_nonfinite_off, "benign", False),
    "benign16_file_exists_false": (case_benign16_file_exists_false, "benign", False),
    "benign16_meshgrid_indexing": (case_benign16_meshgrid_indexing, "benign", False),
    "benign16_weight_norm": (case_benign16_weight_norm, "benign", False),
}
for _variant, _api, _kind in [
        ("gated401", "tokenizer_rev", "hf_gated"), ("gated403", "model_subfolder", "hf_gated"),
        ("missing404", "tokenizer_rev", "hf_repo_not_found"),
        ("revision404", "tokenizer_rev", "hf_repo_not_found"),
        ("revision404", "model_rev_bf16", "hf_repo_not_found"),
        ("entry404", "model_subfolder", "hf_weights_missing"),
        ("entry404", "tokenizer_subfolder", "hf_weights_missing"),
        ("gated401", "file_exists", "hf_gated"), ("missing401", "file_exists", "hf_repo_not_found"),
        ("gated403", "dataset_file", "hf_gated"), ("missing404", "dataset_file", "hf_repo_not_found"),
        ("revision404", "dataset_snapshot_rev", "hf_repo_not_found"),
        ("gated401", "peft_config", "hf_gated"), ("missing404", "peft_config", "hf_repo_not_found"),
        ("badtoken401", "tokenizer_subfolder", "hf_gated"),
        ("status500", "file_exists", "hf_http_error")]:
    CASES16[f"hub16_{_variant}_{_api}"] = (partial(hub16_case, _variant, _api), _kind, False)
CASES.update(CASES16)
TIMEOUT_S.update({n: 100 for n in CASES16 if n.startswith("hub16_")})
TIMEOUT_S.update({"oom16_model_to_cuda": 90, "store16_wait_for_workers_3": 40,
                  "disk16_snapshot_cache_tmpfs": 90})
# the sixteenth set's second call


def case_disk16_snapshot_cache_tmpfs_fixed() -> None:
    """snapshot_download of a tiny model plus a 1 MiB shard into HF_HUB_CACHE on a 256 KiB tmpfs
    (the loopback Hub set up before transformers is imported: the first call's case built the
    model first, and its download went to huggingface.co)."""
    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    files: dict[str, dict[str, bytes]] = {}
    _hub_env(start_hub(files, {}))
    os.environ["HF_HUB_CACHE"] = str(mnt / "hub")
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "tiny", "safetensors")
    files["big"] = {p.name: p.read_bytes() for p in d.iterdir()}
    files["big"]["model-extra.safetensors"] = os.urandom(1 << 20)
    from huggingface_hub import snapshot_download

    print(snapshot_download("irisrl/big"))


def _dcp16() -> Path:
    import torch
    import torch.distributed.checkpoint as dcp

    d = Path(tempfile.mkdtemp()) / "global_step_300"
    dcp.save({"model": {f"layers.{i}.w": torch.randn(64, 64) for i in range(4)}},
             storage_writer=dcp.FileSystemWriter(str(d)), no_dist=True)
    return d


def _dcp16_load(d: Path) -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    sd = {"model": {f"layers.{i}.w": torch.empty(64, 64) for i in range(4)}}
    dcp.load(sd, storage_reader=dcp.FileSystemReader(str(d)), no_dist=True)
    print("loaded")


def case_ckpt16_dcp_metadata_truncated() -> None:
    d = _dcp16()
    meta = d / ".metadata"
    meta.write_bytes(meta.read_bytes()[:40])
    _dcp16_load(d)


def case_ckpt16_dcp_shard_deleted() -> None:
    d = _dcp16()
    for f in d.glob("*.distcp"):
        f.unlink()
    _dcp16_load(d)


def case_store16_client_to_http_port() -> None:
    """A TCPStore client pointed at an HTTP server's port (MASTER_PORT set to a service's)."""
    from datetime import timedelta

    import torch.distributed as dist

    endpoint = start_hub({}, {})
    port = int(endpoint.rsplit(":", 1)[1])
    s = dist.TCPStore("127.0.0.1", port, 2, False, timeout=timedelta(seconds=5))
    s.get("rank0/ready")


def case_dist16_normal_scale_zero() -> None:
    """A Gaussian policy head whose std collapsed to 0 (validate_args on)."""
    import torch

    mu, std = torch.zeros(4, 2), torch.tensor([[0.1, 0.0]] * 4)
    print(torch.distributions.Normal(mu, std).sample())


def case_dist16_categorical_nan_probs() -> None:
    """A Categorical over probs with a NaN row (the policy's softmax after a NaN)."""
    import torch

    p = torch.softmax(torch.tensor([[1.0, 2.0], [float("nan"), 0.0]]), -1)
    print(torch.distributions.Categorical(probs=p).sample())


def case_benign16_dcp_load_state_dict() -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    d = tempfile.mkdtemp()
    dcp.save({"w": torch.ones(4)}, storage_writer=dcp.FileSystemWriter(d), no_dist=True)
    sd = {"w": torch.empty(4)}
    dcp.load_state_dict(sd, storage_reader=dcp.FileSystemReader(d), no_dist=True)
    print("loaded", sd["w"].sum().item())


def case_benign16_assert_allclose() -> None:
    import torch

    torch.testing.assert_allclose(torch.ones(2), torch.ones(2))
    print("equal")


def case_benign16_hub_resume_download() -> None:
    _hub_env(start_hub({"okrepo": {"config.json": b"{}"}}, {}))
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/okrepo", "config.json", resume_download=True))


def case_benign16_hub_local_dir_symlinks() -> None:
    _hub_env(start_hub({"okrepo": {"config.json": b"{}"}}, {}))
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/okrepo", "config.json", local_dir=tempfile.mkdtemp(),
                          local_dir_use_symlinks=False))


def case_oom16_fraction_fragmented() -> None:
    """max_split_size_mb:128 under a 0.05 fraction (7 GiB), a fragmented cache, then 10 GiB."""
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128,garbage_collection_threshold:0.6"
    import torch

    torch.cuda.set_per_process_memory_fraction(0.05)
    keep = [torch.empty(96 << 20, dtype=torch.uint8, device="cuda") for _ in range(40)]
    del keep[::2]
    z = torch.empty(10 << 30, dtype=torch.uint8, device="cuda")
    print(z.numel())


def case_assert16_nll_loss_token_level_bf16() -> None:
    """A token-level loss over bf16 logits laid out (B, V, T) with a target id past the vocab."""
    import torch
    import torch.nn.functional as F

    logits = torch.randn(2, 1000, 16, device="cuda", dtype=torch.bfloat16)
    target = torch.randint(0, 1000, (2, 16), device="cuda")
    target[1, 3] = 1500
    print(F.cross_entropy(logits, target, reduction="none").sum().item())


CASES16B: dict[str, Case] = {
    "disk16_snapshot_cache_tmpfs_fixed": (case_disk16_snapshot_cache_tmpfs_fixed, "disk_full",
                                          False),
    "ckpt16_dcp_metadata_truncated": (case_ckpt16_dcp_metadata_truncated, "checkpoint_corrupt",
                                      False),
    "ckpt16_dcp_shard_deleted": (case_ckpt16_dcp_shard_deleted, "checkpoint_corrupt", False),
    "store16_client_to_http_port": (case_store16_client_to_http_port, "dist_timeout", False),
    "dist16_normal_scale_zero": (case_dist16_normal_scale_zero, "python_crash", False),
    "dist16_categorical_nan_probs": (case_dist16_categorical_nan_probs, "python_crash", False),
    "benign16_dcp_load_state_dict": (case_benign16_dcp_load_state_dict, "benign", False),
    "benign16_assert_allclose": (case_benign16_assert_allclose, "benign", False),
    "benign16_hub_resume_download": (case_benign16_hub_resume_download, "benign", False),
    "benign16_hub_local_dir_symlinks": (case_benign16_hub_local_dir_symlinks, "benign", False),
    "oom16_fraction_fragmented": (case_oom16_fraction_fragmented, "cuda_oom", True),
    "assert16_nll_loss_token_level_bf16": (case_assert16_nll_loss_token_level_bf16,
                                           "cuda_error", True),
}
CASES16.update(CASES16B)
CASES.update(CASES16)
TIMEOUT_S.update({"disk16_snapshot_cache_tmpfs_fixed": 90, "store16_client_to_http_port": 40})


# ----------------------------------------------------------------------------- the seventeenth set
# Training-side entry points no earlier set used: DCP through the Hugging Face storage reader /
# writer and format_utils, DCP metadata and data files overwritten, FSDP2 (fully_shard) and FSDP1
# misuse, tensor parallel plans, ProcessGroupNCCL options NCCL refuses, AMP's GradScaler, fp8
# _scaled_mm, CUDA graph capture and the caching allocator, triton's autotuner, dynamo's fake
# tensors and torch.export, failures printed after init_process_group (the "[rank0]: " prefix),
# Python's own fatal lines in a training loop, benign look-alikes.


def _pg17(backend: str = "gloo", opts: Any = None) -> None:
    """A world-1 default process group (the run's own: uncaught exceptions print `[rank0]: `)."""
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    if backend == "nccl":
        dist.init_process_group("nccl", device_id=torch.device("cuda:0"), pg_options=opts)
    else:
        dist.init_process_group("gloo")


def _nccl17_opts(**cfg: int) -> None:
    import torch
    import torch.distributed as dist
    from torch.distributed import ProcessGroupNCCL

    os.environ["NCCL_DEBUG"] = "WARN"
    opts = ProcessGroupNCCL.Options()
    for k, v in cfg.items():
        setattr(opts.config, k, v)
    _pg17("nccl", opts)
    x = torch.ones(1024, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print("all_reduce", x[0].item())


def case_nccl17_cga_cluster_bad() -> None:
    """ProcessGroupNCCL.Options with cga_cluster_size=100 (NCCL allows 0-8)."""
    _nccl17_opts(cga_cluster_size=100)


def case_nccl17_ctas_minmax_bad() -> None:
    """ProcessGroupNCCL.Options with min_ctas above max_ctas."""
    _nccl17_opts(min_ctas=64, max_ctas=2)


def case_nccl17_all_to_all_bad_splits() -> None:
    """all_to_all_single with split sizes that do not add up to the tensor (an MoE dispatch bug)."""
    import torch
    import torch.distributed as dist

    _pg17("nccl")
    out = torch.empty(4, device="cuda")
    dist.all_to_all_single(out, torch.ones(4, device="cuda"), output_split_sizes=[3],
                           input_split_sizes=[5])
    torch.cuda.synchronize()


def case_cuda17_allocator_delete_bogus() -> None:
    """torch.cuda.caching_allocator_delete of a pointer the allocator never gave out."""
    import torch

    torch.cuda.init()
    torch.cuda.caching_allocator_delete(0x7F3A5C000000)


def case_cuda17_scaled_mm_row_major() -> None:
    """fp8 torch._scaled_mm with a row-major second operand."""
    import torch

    a = torch.randn(32, 64, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(64, 32, device="cuda").to(torch.float8_e4m3fn)
    s = torch.tensor(1.0, device="cuda")
    print(torch._scaled_mm(a, b, scale_a=s, scale_b=s, out_dtype=torch.bfloat16).shape)


def _amp17() -> tuple[Any, Any, Any, Any]:
    import torch

    m = torch.nn.Linear(8, 8).cuda()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    return torch, m, opt, scaler


def case_amp17_unscale_fp16() -> None:
    """GradScaler over a model cast to fp16 (.half()): fp16 master gradients."""
    torch, m, opt, scaler = _amp17()
    m.half()
    loss = m(torch.randn(2, 8, device="cuda", dtype=torch.float16)).float().sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()


def case_amp17_unscale_twice() -> None:
    """scaler.unscale_(opt) called twice before update() (a clip-grad helper that unscales too)."""
    torch, m, opt, scaler = _amp17()
    with torch.autocast("cuda", dtype=torch.float16):
        loss = m(torch.randn(2, 8, device="cuda")).float().sum()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    scaler.unscale_(opt)
    scaler.step(opt)


def case_fsdp17_mixed_dtype() -> None:
    """fully_shard of a model with fp32 and bf16 parameters and no MixedPrecisionPolicy."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _pg17("nccl")
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8).to(torch.bfloat16)).cuda()
    fully_shard(m)
    print(m(torch.randn(2, 8, device="cuda")).sum())


def case_fsdp17_modulelist() -> None:
    """fully_shard of a ModuleList of layers (a container without forward)."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _pg17("nccl")
    layers = torch.nn.ModuleList([torch.nn.Linear(8, 8) for _ in range(2)]).cuda()
    fully_shard(layers)
    print("sharded")


def case_fsdp17_meta_no_to_empty() -> None:
    """A model built on the meta device, fully_shard, then forward without to_empty / init."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _pg17("nccl")
    with torch.device("meta"):
        m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    for layer in m:
        fully_shard(layer)
    fully_shard(m)
    print(m(torch.randn(2, 8, device="cuda")).sum().item())


def case_fsdp17_reshard_int_bad() -> None:
    """fully_shard(reshard_after_forward=3) on a one-rank mesh."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _pg17("nccl")
    m = torch.nn.Linear(8, 8).cuda()
    fully_shard(m, reshard_after_forward=3)
    print(m(torch.randn(2, 8, device="cuda")).sum().item())


def case_fsdp1_17_uniform_requires_grad() -> None:
    """FSDP1 (use_orig_params=False) over a block whose first layer is frozen (a LoRA-style freeze)."""
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    _pg17("nccl")
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)).cuda()
    m[0].weight.requires_grad_(False)
    m = FSDP(m, use_orig_params=False)
    print(m(torch.randn(2, 8, device="cuda")).sum().item())


def case_fsdp1_17_sync_states_cpu() -> None:
    """FSDP1(sync_module_states=True) of a model left on the CPU, no device_id."""
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    _pg17("nccl")
    m = FSDP(torch.nn.Linear(8, 8), sync_module_states=True)
    print(m)


def case_tp17_colwise_layernorm() -> None:
    """parallelize_module with ColwiseParallel on a LayerNorm."""
    import torch
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module

    _pg17("nccl")
    mesh = init_device_mesh("cuda", (1,))
    parallelize_module(torch.nn.LayerNorm(8).cuda(), mesh, ColwiseParallel())


def case_benign17_tp_plan_unresolved() -> None:
    """A tensor-parallel plan naming a submodule the model does not have (the rest applies)."""
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module

    _pg17("nccl")
    mesh = init_device_mesh("cuda", (1,))
    m = torch.nn.Sequential(torch.nn.Linear(8, 8)).cuda()
    parallelize_module(m, mesh, {"0": ColwiseParallel(), "lm_head": ColwiseParallel()})
    print(m(torch.randn(2, 8, device="cuda")).shape)
    dist.destroy_process_group()


def case_triton17_autotune_conflict() -> None:
    """An autotuned triton kernel called with the tuned meta-parameter passed explicitly."""
    import torch
    import triton
    import triton.language as tl

    @triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})],
                     key=["n"])
    @triton.jit
    def fill(ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        tl.store(ptr + offs, 1.0, mask=offs < n)

    x = torch.zeros(128, device="cuda")
    fill[(1,)](x, 128, BLOCK=128)
    torch.cuda.synchronize()


def case_cudagraph17_manual_seed_capture() -> None:
    """torch.cuda.manual_seed inside a CUDA graph capture (a per-step reseed in the captured step)."""
    import torch

    x = torch.zeros(8, device="cuda")
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x.add_(1)
    torch.cuda.synchronize()
    with torch.cuda.graph(g):
        torch.cuda.manual_seed(1234)
        x.add_(torch.rand(8, device="cuda"))
    g.replay()


def case_rank17_fsdp2_oom() -> None:
    """OOM in a fully_shard model's forward after init_process_group (NCCL, one rank)."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _pg17("nccl")
    m = torch.nn.Linear(8192, 8192).cuda()
    fully_shard(m)
    print(m(torch.randn(1 << 23, 8192, device="cuda", dtype=torch.float32)).sum())


def case_rank17_nccl_device_assert() -> None:
    """A token id past the vocab into an embedding after init_process_group (NCCL, one rank)."""
    import torch
    import torch.distributed as dist

    _pg17("nccl")
    emb = torch.nn.Embedding(32000, 64).cuda()
    ids = torch.randint(0, 32000, (4, 128), device="cuda")
    ids[2, 7] = 32011
    out = emb(ids).sum()
    dist.all_reduce(out)
    print(out.item())


# CPU: DCP through the Hugging Face storage reader / writer, overwritten DCP files


def _st17(d: Path) -> Path:
    import torch
    from safetensors.torch import save_file

    d.mkdir(parents=True, exist_ok=True)
    f = d / "model-00001-of-00001.safetensors"
    save_file({"embed.weight": torch.randn(256, 64), "head.weight": torch.randn(64, 256)}, str(f))
    return f


def _hf_reader17_load(d: Path) -> None:
    import torch
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import HuggingFaceStorageReader

    sd = {"embed.weight": torch.empty(256, 64), "head.weight": torch.empty(64, 256)}
    dcp.load(sd, storage_reader=HuggingFaceStorageReader(str(d)))
    print("loaded", sum(v.numel() for v in sd.values()))


def case_ckpt17_hf_reader_truncated() -> None:
    """dcp.load through HuggingFaceStorageReader of a safetensors shard cut in half."""
    f = _st17(Path(tempfile.mkdtemp()) / "hf")
    data = f.read_bytes()
    f.write_bytes(data[: len(data) // 2])
    _hf_reader17_load(f.parent)


def case_ckpt17_hf_reader_header_garbage() -> None:
    """dcp.load through HuggingFaceStorageReader of a shard whose header bytes were overwritten."""
    f = _st17(Path(tempfile.mkdtemp()) / "hf")
    data = bytearray(f.read_bytes())
    data[8:40] = b"\x00\xff" * 16
    f.write_bytes(bytes(data))
    _hf_reader17_load(f.parent)


def case_ckpt17_hf_reader_empty_dir() -> None:
    """dcp.load through HuggingFaceStorageReader of a directory without safetensors files."""
    d = Path(tempfile.mkdtemp()) / "hf"
    d.mkdir()
    (d / "config.json").write_text("{}")
    _hf_reader17_load(d)


def case_ckpt17_hf_reader_missing_key() -> None:
    """dcp.load through HuggingFaceStorageReader of a shard that lacks a key the model has."""
    import torch
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import HuggingFaceStorageReader

    f = _st17(Path(tempfile.mkdtemp()) / "hf")
    sd = {"embed.weight": torch.empty(256, 64), "lm_head.weight": torch.empty(64, 256)}
    dcp.load(sd, storage_reader=HuggingFaceStorageReader(str(f.parent)))


def _dcp17(d: Path) -> Path:
    import torch
    import torch.distributed.checkpoint as dcp

    dcp.save({"w": torch.randn(128, 128), "step": torch.tensor(300)}, checkpoint_id=str(d))
    return d


def _dcp17_load(d: Path) -> None:
    import torch
    import torch.distributed.checkpoint as dcp

    sd = {"w": torch.empty(128, 128), "step": torch.tensor(0)}
    dcp.load(sd, checkpoint_id=str(d))
    print("loaded step", sd["step"].item())


def case_ckpt17_dcp_metadata_garbage() -> None:
    """dcp.load after .metadata was overwritten with random bytes (same size)."""
    d = _dcp17(Path(tempfile.mkdtemp()) / "ckpt")
    meta = d / ".metadata"
    meta.write_bytes(os.urandom(meta.stat().st_size))
    _dcp17_load(d)


def case_ckpt17_dcp_metadata_zeroed() -> None:
    """dcp.load after .metadata was zero-filled (a torn write)."""
    d = _dcp17(Path(tempfile.mkdtemp()) / "ckpt")
    meta = d / ".metadata"
    meta.write_bytes(b"\x00" * meta.stat().st_size)
    _dcp17_load(d)


def case_ckpt17_dcp_distcp_zeroed() -> None:
    """dcp.load after the .distcp data file was zero-filled."""
    d = _dcp17(Path(tempfile.mkdtemp()) / "ckpt")
    for f in d.glob("*.distcp"):
        f.write_bytes(b"\x00" * f.stat().st_size)
    _dcp17_load(d)


def case_ckpt17_dcp_to_torch_save_truncated() -> None:
    """format_utils.dcp_to_torch_save of a checkpoint whose .distcp file was cut short."""
    from torch.distributed.checkpoint.format_utils import dcp_to_torch_save

    d = _dcp17(Path(tempfile.mkdtemp()) / "ckpt")
    for f in d.glob("*.distcp"):
        data = f.read_bytes()
        f.write_bytes(data[: len(data) // 3])
    dcp_to_torch_save(str(d), str(d.parent / "full.pt"))


def case_disk17_dcp_hf_writer_tmpfs() -> None:
    """dcp.save through HuggingFaceStorageWriter onto a 256 KiB tmpfs."""
    import torch
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import HuggingFaceStorageWriter

    mnt = _small_fs()
    assert mnt is not None
    sd = {"embed.weight": torch.randn(512, 256), "head.weight": torch.randn(256, 512)}
    dcp.save(sd, storage_writer=HuggingFaceStorageWriter(str(mnt / "hf")))


def case_benign17_dcp_hf_roundtrip() -> None:
    """A healthy dcp.save / dcp.load through the Hugging Face storage writer and reader."""
    import torch
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import HuggingFaceStorageReader, HuggingFaceStorageWriter

    d = Path(tempfile.mkdtemp()) / "hf"
    sd = {"embed.weight": torch.randn(16, 8)}
    dcp.save(sd, storage_writer=HuggingFaceStorageWriter(str(d)))
    out = {"embed.weight": torch.empty(16, 8)}
    dcp.load(out, storage_reader=HuggingFaceStorageReader(str(d)))
    print("roundtrip", torch.equal(sd["embed.weight"], out["embed.weight"]))


# CPU: failures printed after init_process_group (gloo, one rank): the `[rank0]: ` prefix


def case_rank17_dcp_save_tmpfs() -> None:
    """dcp.save onto a 256 KiB tmpfs after init_process_group (gloo)."""
    import torch
    import torch.distributed.checkpoint as dcp

    _pg17()
    mnt = _small_fs()
    assert mnt is not None
    dcp.save({"w": torch.randn(512, 512)}, checkpoint_id=str(mnt / "step_300"))


def case_rank17_write_enospc() -> None:
    """A metrics / rollout jsonl written onto a 256 KiB tmpfs after init_process_group (gloo)."""
    _pg17()
    mnt = _small_fs()
    assert mnt is not None
    with open(mnt / "rollouts.jsonl", "w") as f:
        for i in range(100000):
            f.write(json.dumps({"step": i, "reward": 0.5, "text": "x" * 64}) + "\n")


def case_rank17_torch_load_truncated() -> None:
    """torch.load of a checkpoint cut short, after init_process_group (gloo)."""
    import torch

    _pg17()
    p = Path(tempfile.mkdtemp()) / "optimizer.pt"
    torch.save({"state": {0: torch.randn(256, 256)}}, p)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    torch.load(p)


def case_rank17_safetensors_truncated() -> None:
    """safetensors load_file of a shard cut short, after init_process_group (gloo)."""
    from safetensors.torch import load_file

    _pg17()
    f = _st17(Path(tempfile.mkdtemp()) / "hf")
    data = f.read_bytes()
    f.write_bytes(data[: len(data) // 2])
    load_file(str(f))


def _rank17_hub(variant: str) -> None:
    _hub_env(start_hub({}))
    from huggingface_hub import hf_hub_download

    _pg17()
    hf_hub_download(f"irisrl/{variant}", "config.json")


def case_rank17_hub_gated() -> None:
    """hf_hub_download of a gated repo (loopback Hub, 401 GatedRepo) after init_process_group."""
    _rank17_hub("gated401")


def case_rank17_hub_missing() -> None:
    """hf_hub_download of a repo the Hub lacks (loopback Hub, 404) after init_process_group."""
    _rank17_hub("missing404")


def case_dist17_tcp_unroutable() -> None:
    """init_process_group(tcp://) at an address nothing answers on (a stale MASTER_ADDR)."""
    from datetime import timedelta

    import torch.distributed as dist

    dist.init_process_group("gloo", init_method="tcp://10.255.255.1:29500", rank=1, world_size=2,
                            timeout=timedelta(seconds=6))


# CPU: dynamo, export, Python's own fatal lines


def case_compile17_fake_shape_mismatch() -> None:
    """A compiled loss whose matmul shapes do not agree (caught while tracing with fake tensors)."""
    import torch

    @torch.compile
    def logits(h, w):  # type: ignore[no-untyped-def]
        return h @ w

    print(logits(torch.randn(4, 16), torch.randn(32, 8)))


def case_export17_data_dependent() -> None:
    """torch.export of a module that branches on a tensor's value."""
    import torch

    class Gate(torch.nn.Module):
        def forward(self, x):  # type: ignore[no-untyped-def]
            if x.sum() > 0:
                return x * 2
            return x

    torch.export.export(Gate(), (torch.randn(4),))


def case_py17_recursion_in_loop() -> None:
    """A recursive reward parser fed a deeply nested structure inside a training loop."""
    def depth(node):  # type: ignore[no-untyped-def]
        return 1 + max((depth(c) for c in node), default=0)

    tree: list[Any] = []
    cur = tree
    for _ in range(5000):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    for step in range(3):
        print("step", step, "depth", depth(tree))


def case_py17_faulthandler_timeout() -> None:
    """faulthandler.dump_traceback_later(exit=True) as a step watchdog, then a hung step."""
    import faulthandler

    faulthandler.dump_traceback_later(3, exit=True)
    threading.Event().wait(30)


def case_py17_stdout_lock_shutdown() -> None:
    """A daemon logging thread blocked writing stdout (nobody reads the pipe) at interpreter exit."""
    r, w = os.pipe()
    os.dup2(w, 1)  # stdout into a pipe nobody drains; stderr is still the log

    def spam() -> None:
        while True:
            sys.stdout.buffer.write(b"x" * 65536)

    threading.Thread(target=spam, daemon=True).start()
    time.sleep(1)
    sys.exit(0)


# CPU: benign look-alikes


def case_benign17_get_lr() -> None:
    """scheduler.get_lr() read for logging (not get_last_lr())."""
    import torch

    opt = torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 10)
    opt.step()
    sched.step()
    print("lr", sched.get_lr())


def case_benign17_checkpoint_no_grad_inputs() -> None:
    """Reentrant activation checkpointing over inputs that need no grad (a frozen embedding)."""
    import torch
    from torch.utils.checkpoint import checkpoint

    lin = torch.nn.Linear(4, 4)
    out = checkpoint(lin, torch.randn(2, 4), use_reentrant=True)
    print(out.sum())


def case_benign17_tracer_warning() -> None:
    """torch.jit.trace of a module with a Python branch on a tensor."""
    import torch

    class M(torch.nn.Module):
        def forward(self, x):  # type: ignore[no-untyped-def]
            return x * 2 if x.sum() > 0 else x

    print(torch.jit.trace(M(), torch.ones(3)))


def case_benign17_state_dict_positional() -> None:
    """Module.state_dict called with positional arguments (an old checkpoint helper)."""
    import torch
    from collections import OrderedDict

    print(list(torch.nn.Linear(2, 2).state_dict(OrderedDict(), "model.")))


def case_benign17_out_resized() -> None:
    """torch.add(..., out=buf) into a preallocated buffer of the wrong shape."""
    import torch

    buf = torch.empty(3)
    torch.add(torch.ones(2, 2), 1, out=buf)
    print(buf.shape)


CASES17: dict[str, Case] = {
    "nccl17_cga_cluster_bad": (case_nccl17_cga_cluster_bad, "nccl_error", True),
    "nccl17_ctas_minmax_bad": (case_nccl17_ctas_minmax_bad, "nccl_error", True),
    "nccl17_all_to_all_bad_splits": (case_nccl17_all_to_all_bad_splits, "python_crash", True),
    "cuda17_allocator_delete_bogus": (case_cuda17_allocator_delete_bogus, "cuda_error", True),
    "cuda17_scaled_mm_row_major": (case_cuda17_scaled_mm_row_major, "python_crash", True),
    "amp17_unscale_fp16": (case_amp17_unscale_fp16, "python_crash", True),
    "amp17_unscale_twice": (case_amp17_unscale_twice, "python_crash", True),
    "fsdp17_mixed_dtype": (case_fsdp17_mixed_dtype, "python_crash", True),
    "fsdp17_modulelist": (case_fsdp17_modulelist, "python_crash", True),
    "fsdp17_meta_no_to_empty": (case_fsdp17_meta_no_to_empty, "python_crash", True),
    "fsdp17_reshard_int_bad": (case_fsdp17_reshard_int_bad, "python_crash", True),
    "fsdp1_17_uniform_requires_grad": (case_fsdp1_17_uniform_requires_grad, "python_crash", True),
    "fsdp1_17_sync_states_cpu": (case_fsdp1_17_sync_states_cpu, "python_crash", True),
    "tp17_colwise_layernorm": (case_tp17_colwise_layernorm, "python_crash", True),
    "benign17_tp_plan_unresolved": (case_benign17_tp_plan_unresolved, "benign", True),
    "triton17_autotune_conflict": (case_triton17_autotune_conflict, "python_crash", True),
    "cudagraph17_manual_seed_capture": (case_cudagraph17_manual_seed_capture, "python_crash",
                                        True),
    "rank17_fsdp2_oom": (case_rank17_fsdp2_oom, "cuda_oom", True),
    "rank17_nccl_device_assert": (case_rank17_nccl_device_assert, "cuda_error", True),
    "ckpt17_hf_reader_truncated": (case_ckpt17_hf_reader_truncated, "checkpoint_corrupt", False),
    "ckpt17_hf_reader_header_garbage": (case_ckpt17_hf_reader_header_garbage,
                                        "checkpoint_corrupt", False),
    "ckpt17_hf_reader_empty_dir": (case_ckpt17_hf_reader_empty_dir, "python_crash", False),
    "ckpt17_hf_reader_missing_key": (case_ckpt17_hf_reader_missing_key, "python_crash", False),
    "ckpt17_dcp_metadata_garbage": (case_ckpt17_dcp_metadata_garbage, "checkpoint_corrupt",
                                    False),
    "ckpt17_dcp_metadata_zeroed": (case_ckpt17_dcp_metadata_zeroed, "checkpoint_corrupt", False),
    "ckpt17_dcp_distcp_zeroed": (case_ckpt17_dcp_distcp_zeroed, "checkpoint_corrupt", False),
    "ckpt17_dcp_to_torch_save_truncated": (case_ckpt17_dcp_to_torch_save_truncated,
                                           "checkpoint_corrupt", False),
    "disk17_dcp_hf_writer_tmpfs": (case_disk17_dcp_hf_writer_tmpfs, "disk_full", False),
    "benign17_dcp_hf_roundtrip": (case_benign17_dcp_hf_roundtrip, "benign", False),
    "rank17_dcp_save_tmpfs": (case_rank17_dcp_save_tmpfs, "disk_full", False),
    "rank17_write_enospc": (case_rank17_write_enospc, "disk_full", False),
    "rank17_torch_load_truncated": (case_rank17_torch_load_truncated, "checkpoint_corrupt", False),
    "rank17_safetensors_truncated": (case_rank17_safetensors_truncated, "checkpoint_corrupt",
                                     False),
    "rank17_hub_gated": (case_rank17_hub_gated, "hf_gated", False),
    "rank17_hub_missing": (case_rank17_hub_missing, "hf_repo_not_found", False),
    "dist17_tcp_unroutable": (case_dist17_tcp_unroutable, "dist_timeout", False),
    "compile17_fake_shape_mismatch": (case_compile17_fake_shape_mismatch, "python_crash", False),
    "export17_data_dependent": (case_export17_data_dependent, "python_crash", False),
    "py17_recursion_in_loop": (case_py17_recursion_in_loop, "python_crash", False),
    "py17_faulthandler_timeout": (case_py17_faulthandler_timeout, "python_crash", False),
    "py17_stdout_lock_shutdown": (case_py17_stdout_lock_shutdown, "python_crash", False),
    "benign17_get_lr": (case_benign17_get_lr, "benign", False),
    "benign17_checkpoint_no_grad_inputs": (case_benign17_checkpoint_no_grad_inputs, "benign",
                                           False),
    "benign17_tracer_warning": (case_benign17_tracer_warning, "benign", False),
    "benign17_state_dict_positional": (case_benign17_state_dict_positional, "benign", False),
    "benign17_out_resized": (case_benign17_out_resized, "benign", False),
}
CASES.update(CASES17)
TIMEOUT_S.update({"dist17_tcp_unroutable": 40, "py17_faulthandler_timeout": 40,
                  "py17_stdout_lock_shutdown": 30})


# the seventeenth set's second call: more failures printed after init_process_group, NCCL's
# `blocking` config attribute


def case_nccl17_blocking_bad() -> None:
    """ProcessGroupNCCL.Options with config.blocking=5 (NCCL allows 0 or 1)."""
    _nccl17_opts(blocking=5)


def case_rank17_triton_illegal_address() -> None:
    """A triton kernel storing far past its buffer, after init_process_group (NCCL, one rank)."""
    import torch
    import torch.distributed as dist

    _pg17("nccl")
    store_far, _ = _triton_kernels()
    x = torch.zeros(4, device="cuda")
    store_far[(1,)](x, 1 << 40)
    dist.all_reduce(x)
    torch.cuda.synchronize()


def case_rank17_hub_revision() -> None:
    """hf_hub_download at a revision the repo lacks (loopback Hub) after init_process_group."""
    _hub_env(start_hub({}))
    from huggingface_hub import hf_hub_download

    _pg17()
    hf_hub_download("irisrl/revision404", "config.json", revision="v9.9")


def case_rank17_hub_entry404() -> None:
    """hf_hub_download of a file the repo lacks (loopback Hub) after init_process_group."""
    _hub_env(start_hub({"nofiles": {"README.md": b"# empty\n"}}))
    from huggingface_hub import hf_hub_download

    _pg17()
    hf_hub_download("irisrl/nofiles", "model.safetensors")


def case_rank17_hub_conn_refused() -> None:
    """hf_hub_download with HF_ENDPOINT at a port nobody listens on, after init_process_group."""
    _hub_env(f"http://127.0.0.1:{free_port()}")
    from huggingface_hub import hf_hub_download

    _pg17()
    hf_hub_download("irisrl/okrepo", "config.json")


def case_rank17_dcp_metadata_garbage() -> None:
    """dcp.load after .metadata was overwritten with random bytes, after init_process_group."""
    _pg17()
    d = _dcp17(Path(tempfile.mkdtemp()) / "ckpt")
    meta = d / ".metadata"
    meta.write_bytes(os.urandom(meta.stat().st_size))
    _dcp17_load(d)


def case_rank17_dcp_distcp_zeroed() -> None:
    """dcp.load after the .distcp data file was zero-filled, after init_process_group."""
    _pg17()
    d = _dcp17(Path(tempfile.mkdtemp()) / "ckpt")
    for f in d.glob("*.distcp"):
        f.write_bytes(b"\x00" * f.stat().st_size)
    _dcp17_load(d)


CASES17B: dict[str, Case] = {
    "nccl17_blocking_bad": (case_nccl17_blocking_bad, "nccl_error", True),
    "rank17_triton_illegal_address": (case_rank17_triton_illegal_address, "cuda_error", True),
    "rank17_hub_revision": (case_rank17_hub_revision, "hf_repo_not_found", False),
    "rank17_hub_entry404": (case_rank17_hub_entry404, "hf_weights_missing", False),
    "rank17_hub_conn_refused": (case_rank17_hub_conn_refused, "hf_http_error", False),
    "rank17_dcp_metadata_garbage": (case_rank17_dcp_metadata_garbage, "checkpoint_corrupt",
                                    False),
    "rank17_dcp_distcp_zeroed": (case_rank17_dcp_distcp_zeroed, "checkpoint_corrupt", False),
}
CASES17.update(CASES17B)
CASES.update(CASES17)
TIMEOUT_S.update({"rank17_hub_conn_refused": 90})


# ----------------------------------------------------------------------------- the eighteenth set
# The data / model side: tokenizer files (tokenizers' own readers and transformers' loaders over
# them), chat templates, config.json / auto_map remote code, peft adapters, accelerate's meta
# init and device maps, DataLoader collate / worker / option errors, a file-size limit (EFBIG),
# generate() argument checks; benign look-alikes from the same libraries.


def _tok18_json(path: Path, mutate: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """A small BPE tokenizer.json (tokenizers' own format) in `path`, changed by `mutate`."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"<unk>": 0, "<eos>": 1, "h": 2, "e": 3, "l": 4, "o": 5, "he": 6, "ll": 7, "hell": 8}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[("h", "e"), ("l", "l"), ("he", "ll")],
                               unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    path.mkdir(parents=True, exist_ok=True)
    data = json.loads(tok.to_str())
    if mutate:
        mutate(data)
    (path / "tokenizer.json").write_text(json.dumps(data))
    (path / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "eos_token": "<eos>", "unk_token": "<unk>"}))
    return path


def case_tok18_bpe_merge_oov() -> None:
    """A tokenizer.json whose merges name a token its vocab lost (a hand-edited vocab), through
    AutoTokenizer."""
    from transformers import AutoTokenizer

    def drop_ll(d: dict[str, Any]) -> None:
        del d["model"]["vocab"]["ll"]

    AutoTokenizer.from_pretrained(_tok18_json(Path(tempfile.mkdtemp()) / "tok", drop_ll))


def case_tok18_model_type_unknown() -> None:
    """A tokenizer.json whose model type tokenizers does not know, through Tokenizer.from_file."""
    from tokenizers import Tokenizer

    def bad_type(d: dict[str, Any]) -> None:
        d["model"]["type"] = "SentencePieceBPE"

    d = _tok18_json(Path(tempfile.mkdtemp()) / "tok", bad_type)
    Tokenizer.from_file(str(d / "tokenizer.json"))


def case_tok18_json_cut_from_file() -> None:
    """A tokenizer.json cut in half (an interrupted copy), through Tokenizer.from_file."""
    from tokenizers import Tokenizer

    d = _tok18_json(Path(tempfile.mkdtemp()) / "tok")
    p = d / "tokenizer.json"
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    Tokenizer.from_file(str(p))


def case_tok18_from_file_missing() -> None:
    from tokenizers import Tokenizer

    Tokenizer.from_file(str(Path(tempfile.mkdtemp()) / "ckpt" / "tokenizer.json"))


def case_tok18_gpt2_vocab_only() -> None:
    """A GPT2 tokenizer directory holding vocab.json but no merges.txt (and no tokenizer.json)."""
    from transformers import AutoTokenizer

    d = Path(tempfile.mkdtemp()) / "tok"
    d.mkdir()
    (d / "vocab.json").write_text(json.dumps({"h": 0, "e": 1, "he": 2, "<|endoftext|>": 3}))
    (d / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "GPT2Tokenizer"}))
    tok = AutoTokenizer.from_pretrained(d)
    print(tok("he he"))


def case_tok18_sentencepiece_garbage() -> None:
    """A Llama tokenizer directory whose tokenizer.model is not a sentencepiece model."""
    from transformers import AutoTokenizer

    d = Path(tempfile.mkdtemp()) / "tok"
    d.mkdir()
    (d / "tokenizer.model").write_bytes(b"version https://git-lfs.github.com/spec/v1\n" * 3)
    (d / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "LlamaTokenizer"}))
    tok = AutoTokenizer.from_pretrained(d)
    print(tok("hello"))


def case_tok18_decode_negative_id() -> None:
    """decode() of a rollout holding -100 (the label mask id) through a fast tokenizer."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(_tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok",
                                                            pad=True))
    print(tok.decode([2, 3, -100, -100]))


def case_tok18_batch_decode_float() -> None:
    """batch_decode of sampled ids left as floats."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(_tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok",
                                                            pad=True))
    print(tok.batch_decode([[2.0, 3.0]]))


def _chat18_tok() -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(_tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok",
                                                             pad=True))


def case_chat18_template_syntax_error() -> None:
    tok = _chat18_tok()
    tok.chat_template = "{% for m in messages %}{{ m['content'] }{% endfor %}"
    tok.apply_chat_template([{"role": "user", "content": "hello"}], tokenize=False)


def case_chat18_template_unknown_filter() -> None:
    tok = _chat18_tok()
    tok.chat_template = "{% for m in messages %}{{ m['content'] | to_think_tags }}{% endfor %}"
    tok.apply_chat_template([{"role": "user", "content": "hello"}], tokenize=False)


def case_chat18_continue_and_generation_prompt() -> None:
    tok = _chat18_tok()
    tok.chat_template = ("{% for m in messages %}{{ m['role'] + ': ' + m['content'] + '\\n' }}"
                         "{% endfor %}{% if add_generation_prompt %}assistant: {% endif %}")
    tok.apply_chat_template([{"role": "user", "content": "hi"},
                             {"role": "assistant", "content": "the"}], tokenize=False,
                            add_generation_prompt=True, continue_final_message=True)


def case_chat18_message_missing_content() -> None:
    tok = _chat18_tok()
    tok.chat_template = "{% for m in messages %}{{ m['role'] + ': ' + m.content }}{% endfor %}"
    tok.apply_chat_template([{"role": "user", "text": "hi"}], tokenize=False)


def _cfg18_dir(cfg: dict[str, Any], files: dict[str, str] | None = None,
               name: str = "policy") -> Path:
    d = Path(tempfile.mkdtemp()) / name
    d.mkdir()
    (d / "config.json").write_text(json.dumps(cfg))
    for fname, text in (files or {}).items():
        (d / fname).write_text(text)
    return d


def case_cfg18_no_model_type() -> None:
    """A config.json without model_type, in a directory whose name names no architecture."""
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_cfg18_dir({"hidden_size": 8, "num_layers": 1},
                                                    name="step_300"))


_CFG18_REMOTE = {"model_type": "irisrl_policy18", "auto_map": {
    "AutoConfig": "configuration_policy.PolicyConfig",
    "AutoModelForCausalLM": "modeling_policy.PolicyForCausalLM"}}
_CFG18_CONF_PY = ("from transformers import PretrainedConfig\n"
                  "class PolicyConfig(PretrainedConfig):\n    model_type = 'irisrl_policy18'\n")


def case_cfg18_auto_map_module_missing() -> None:
    """trust_remote_code=True, the auto_map's modeling file never copied into the checkpoint."""
    from transformers import AutoModelForCausalLM

    d = _cfg18_dir(_CFG18_REMOTE, {"configuration_policy.py": _CFG18_CONF_PY})
    AutoModelForCausalLM.from_pretrained(d, trust_remote_code=True)


def case_cfg18_auto_map_class_missing() -> None:
    """trust_remote_code=True, the modeling file there but without the class auto_map names."""
    from transformers import AutoModelForCausalLM

    d = _cfg18_dir(_CFG18_REMOTE, {"configuration_policy.py": _CFG18_CONF_PY,
                                   "modeling_policy.py": "import torch\nclass Other:\n    pass\n"})
    AutoModelForCausalLM.from_pretrained(d, trust_remote_code=True)


def case_cfg18_auto_map_syntax_error() -> None:
    """trust_remote_code=True, a modeling file cut mid-definition."""
    from transformers import AutoModelForCausalLM

    d = _cfg18_dir(_CFG18_REMOTE, {"configuration_policy.py": _CFG18_CONF_PY,
                                   "modeling_policy.py": "import torch\nclass PolicyForCausalLM(\n"})
    AutoModelForCausalLM.from_pretrained(d, trust_remote_code=True)


def case_cfg18_config_class_for_causal_lm() -> None:
    """AutoModelForCausalLM over an encoder-only checkpoint's config (a reward model's)."""
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_cfg18_dir({
        "model_type": "distilbert", "dim": 8, "n_layers": 1, "n_heads": 2, "hidden_dim": 16,
        "vocab_size": 32}, name="reward"))


def case_cfg18_heads_indivisible() -> None:
    """A config.json whose hidden size is not a multiple of the head count (an edited config)."""
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_cfg18_dir({
        "model_type": "llama", "hidden_size": 10, "num_attention_heads": 3,
        "num_key_value_heads": 3, "intermediate_size": 16, "num_hidden_layers": 1,
        "vocab_size": 32}))


def case_cfg18_dtype_unknown() -> None:
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p", "safetensors")
    AutoModelForCausalLM.from_pretrained(d, dtype="bfloat32")


def case_gen18_num_return_sequences_greedy() -> None:
    import torch
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p",
                                                           "safetensors"))
    print(m.generate(torch.tensor([[1, 2, 3]]), do_sample=False, num_return_sequences=4,
                     max_new_tokens=4, pad_token_id=0))


def case_gen18_input_ids_cpu_model_cuda() -> None:
    """generate() with the prompt left on the CPU and the policy on the GPU."""
    import torch
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p",
                                                           "safetensors")).to("cuda")
    print(m.generate(torch.tensor([[1, 2, 3]]), max_new_tokens=4, pad_token_id=0))


def case_gen18_stop_strings_no_tokenizer() -> None:
    import torch
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p",
                                                           "safetensors"))
    print(m.generate(torch.tensor([[1, 2, 3]]), max_new_tokens=4, pad_token_id=0,
                     stop_strings=["</answer>"]))


def _peft18_base() -> Any:
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p",
                                                              "safetensors"))


def case_peft18_target_modules_missing() -> None:
    """A Llama-style LoRA target list on a GPT-2 policy."""
    from peft import LoraConfig, get_peft_model

    get_peft_model(_peft18_base(), LoraConfig(r=4, target_modules=["q_proj", "v_proj"]))


def case_peft18_adapter_rank_mismatch() -> None:
    """An r=8 adapter loaded into a PeftModel built with r=4 (set_peft_model_state_dict)."""
    from peft import LoraConfig, get_peft_model, set_peft_model_state_dict
    from peft.utils import get_peft_model_state_dict

    big = get_peft_model(_peft18_base(), LoraConfig(r=8, target_modules=["c_attn"],
                                                    fan_in_fan_out=True))
    sd = get_peft_model_state_dict(big)
    small = get_peft_model(_peft18_base(), LoraConfig(r=4, target_modules=["c_attn"],
                                                      fan_in_fan_out=True))
    set_peft_model_state_dict(small, sd)


def case_peft18_adapter_base_mismatch() -> None:
    """A saved LoRA adapter (n_embd=8) loaded onto a wider base (n_embd=16): PeftModel.from_pretrained."""
    from peft import LoraConfig, PeftModel, get_peft_model
    from transformers import GPT2Config, GPT2LMHeadModel

    d = Path(tempfile.mkdtemp()) / "adapter"
    get_peft_model(_peft18_base(), LoraConfig(r=4, target_modules=["c_attn"],
                                              fan_in_fan_out=True)).save_pretrained(d)
    wide = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=16, n_head=2, vocab_size=32,
                                      n_positions=16))
    PeftModel.from_pretrained(wide, d)


def case_benign18_peft_conv1d_fan_in() -> None:
    """LoRA on GPT-2's Conv1D without fan_in_fan_out: peft warns and sets it (exit 0)."""
    from peft import LoraConfig, get_peft_model

    m = get_peft_model(_peft18_base(), LoraConfig(r=4, target_modules=["c_attn"]))
    m.print_trainable_parameters()


def case_accel18_meta_to_cpu() -> None:
    """A model built under accelerate's init_empty_weights moved with .to() instead of loaded."""
    from accelerate import init_empty_weights
    from transformers import GPT2Config, GPT2LMHeadModel

    with init_empty_weights():
        m = GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=32,
                                       n_positions=16))
    m.to("cpu")


def case_accel18_device_map_incomplete() -> None:
    """from_pretrained with a hand-written device_map that leaves modules out."""
    from transformers import AutoModelForCausalLM

    d = tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p", "safetensors")
    AutoModelForCausalLM.from_pretrained(d, device_map={"transformer.wte": 0, "transformer.h": 0})


def case_accel18_load_state_missing() -> None:
    """Accelerator.load_state of a checkpoint folder that was never written."""
    import torch
    from accelerate import Accelerator

    acc = Accelerator(cpu=True)
    model = acc.prepare(torch.nn.Linear(4, 4))
    print(model)
    acc.load_state(str(Path(tempfile.mkdtemp()) / "checkpoints" / "checkpoint_7"))


def case_accel18_load_state_weights_cut() -> None:
    """Accelerator.load_state after the saved model.safetensors was cut short."""
    import torch
    from accelerate import Accelerator

    acc = Accelerator(cpu=True)
    model, opt = acc.prepare(torch.nn.Linear(64, 64), torch.optim.AdamW(
        torch.nn.Linear(64, 64).parameters()))
    d = Path(tempfile.mkdtemp()) / "ckpt"
    acc.save_state(str(d))
    w = next(d.glob("model*.safetensors"))
    w.write_bytes(w.read_bytes()[:200])
    acc.load_state(str(d))


def _dl18_collect(loader: Any) -> None:
    for batch in loader:
        print(type(batch).__name__)


def case_dl18_collate_ragged() -> None:
    """Rollouts of different lengths through the default collate in a worker."""
    import torch
    from torch.utils.data import DataLoader

    ds = [torch.arange(3 + i) for i in range(8)]
    _dl18_collect(DataLoader(ds, batch_size=4, num_workers=2))


def case_dl18_collate_none_field() -> None:
    """A sample with a None reward through the default collate in a worker."""
    from torch.utils.data import DataLoader

    ds = [{"ids": [1, 2], "reward": None if i == 2 else 1.0} for i in range(8)]
    _dl18_collect(DataLoader(ds, batch_size=4, num_workers=2))


def case_dl18_spawn_lambda_collate() -> None:
    """A lambda collate_fn under the spawn start method."""
    from torch.utils.data import DataLoader

    _dl18_collect(DataLoader(list(range(8)), batch_size=2, num_workers=2,
                             multiprocessing_context="spawn", collate_fn=lambda b: b))


def case_dl18_persistent_no_workers() -> None:
    from torch.utils.data import DataLoader

    _dl18_collect(DataLoader(list(range(8)), batch_size=2, num_workers=0, persistent_workers=True))


def case_dl18_worker_file_missing() -> None:
    """A worker opening a data shard the manifest names but the disk lacks."""
    from torch.utils.data import DataLoader

    root = Path(tempfile.mkdtemp())

    class DS:
        def __len__(self) -> int:
            return 4

        def __getitem__(self, i: int) -> Any:
            return (root / f"rollouts-{i:05d}.parquet").read_bytes()

    _dl18_collect(DataLoader(DS(), batch_size=1, num_workers=2))


def case_dl18_sampler_index_past_end() -> None:
    """A sampler yielding indices past the dataset (a stale sampler after a filter)."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.arange(6))
    _dl18_collect(DataLoader(ds, batch_size=2, sampler=list(range(10)), num_workers=1))


def case_disk18_efbig_safetensors() -> None:
    """safetensors save_file under a 64 KiB RLIMIT_FSIZE (SIGXFSZ ignored: EFBIG, not a kill)."""
    import resource
    import signal

    import torch
    from safetensors.torch import save_file

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))
    save_file({"w": torch.zeros(512, 512)}, str(Path(tempfile.mkdtemp()) / "actor.safetensors"))


def case_disk18_efbig_python_write() -> None:
    """A rollout log appended past a 64 KiB RLIMIT_FSIZE (SIGXFSZ ignored)."""
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))
    with open(Path(tempfile.mkdtemp()) / "rollouts.jsonl", "w") as f:
        for i in range(10000):
            f.write(json.dumps({"step": i, "text": "x" * 100}) + "\n")


def case_disk18_tokenizer_json_tmpfs() -> None:
    """tokenizers' Tokenizer.save of a 40k-token vocab onto a 256 KiB tmpfs."""
    from tokenizers import Tokenizer, models

    mnt = _small_fs()
    if mnt is None:
        sys.exit(3)
    vocab = {f"tok{i:06d}": i for i in range(40000)}
    Tokenizer(models.WordLevel(vocab=vocab, unk_token="tok000000")).save(str(mnt / "tokenizer.json"))


def _benign18_tok_worker(i: int) -> int:
    return i


def case_benign18_tokenizers_fork() -> None:
    """A fast tokenizer used in the parent, then DataLoader workers forked (exit 0)."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from torch.utils.data import DataLoader

    tok = Tokenizer(models.WordLevel(vocab={"<unk>": 0, "a": 1, "b": 2}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    print(len(tok.encode_batch(["a b a"] * 64)))

    class DS:
        def __len__(self) -> int:
            return 4

        def __getitem__(self, i: int) -> Any:
            return len(tok.encode_batch(["a b"] * 8))

    _dl18_collect(DataLoader(DS(), batch_size=2, num_workers=2))


def case_benign18_truncation_max_length() -> None:
    """max_length without truncation=True (exit 0)."""
    tok = _chat18_tok()
    print(tok("hello world the a", max_length=2)["input_ids"])


def case_benign18_iterable_len_mismatch() -> None:
    """An IterableDataset whose __len__ under-reports (exit 0)."""
    from torch.utils.data import DataLoader, IterableDataset

    class DS(IterableDataset):
        def __iter__(self) -> Any:
            return iter(range(10))

        def __len__(self) -> int:
            return 4

    dl = DataLoader(DS(), batch_size=1)
    print(len(dl), sum(1 for _ in dl))


def case_benign18_generate_attention_mask() -> None:
    """generate() on a padded batch without an attention mask (exit 0)."""
    import torch
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(tiny_gpt2_dir(Path(tempfile.mkdtemp()) / "p",
                                                           "safetensors"))
    print(m.generate(torch.tensor([[0, 0, 1, 2], [3, 4, 5, 6]]), max_new_tokens=2,
                     pad_token_id=0).shape)


def case_benign18_accel_cpu_fp16() -> None:
    """accelerate's Accelerator(cpu=True) in a process where it finds no GPU (exit 0)."""
    import torch
    from accelerate import Accelerator

    acc = Accelerator(cpu=True, mixed_precision="no")
    print(acc.prepare(torch.nn.Linear(2, 2)))
    acc.end_training()


def case_benign18_lora_dropout_zero_merge() -> None:
    """peft merge_and_unload on a LoRA with fan_in_fan_out set (exit 0)."""
    from peft import LoraConfig, get_peft_model

    m = get_peft_model(_peft18_base(), LoraConfig(r=4, target_modules=["c_attn"],
                                                  fan_in_fan_out=True))
    print(type(m.merge_and_unload()).__name__)


CASES18: dict[str, Case] = {
    "tok18_bpe_merge_oov": (case_tok18_bpe_merge_oov, "checkpoint_corrupt", False),
    "tok18_model_type_unknown": (case_tok18_model_type_unknown, "checkpoint_corrupt", False),
    "tok18_json_cut_from_file": (case_tok18_json_cut_from_file, "checkpoint_corrupt", False),
    "tok18_from_file_missing": (case_tok18_from_file_missing, "python_crash", False),
    "tok18_gpt2_vocab_only": (case_tok18_gpt2_vocab_only, "hf_weights_missing", False),
    "tok18_sentencepiece_garbage": (case_tok18_sentencepiece_garbage, "checkpoint_corrupt",
                                    False),
    "tok18_decode_negative_id": (case_tok18_decode_negative_id, "python_crash", False),
    "tok18_batch_decode_float": (case_tok18_batch_decode_float, "python_crash", False),
    "chat18_template_syntax_error": (case_chat18_template_syntax_error, "python_crash", False),
    "chat18_template_unknown_filter": (case_chat18_template_unknown_filter, "python_crash",
                                       False),
    "chat18_continue_and_generation_prompt": (case_chat18_continue_and_generation_prompt,
                                              "python_crash", False),
    "chat18_message_missing_content": (case_chat18_message_missing_content, "python_crash",
                                       False),
    "cfg18_no_model_type": (case_cfg18_no_model_type, "python_crash", False),
    "cfg18_auto_map_module_missing": (case_cfg18_auto_map_module_missing, "hf_weights_missing",
                                      False),
    "cfg18_auto_map_class_missing": (case_cfg18_auto_map_class_missing, "python_crash", False),
    "cfg18_auto_map_syntax_error": (case_cfg18_auto_map_syntax_error, "python_crash", False),
    "cfg18_config_class_for_causal_lm": (case_cfg18_config_class_for_causal_lm, "python_crash",
                                         False),
    "cfg18_heads_indivisible": (case_cfg18_heads_indivisible, "python_crash", False),
    "cfg18_dtype_unknown": (case_cfg18_dtype_unknown, "python_crash", False),
    "gen18_num_return_sequences_greedy": (case_gen18_num_return_sequences_greedy,
                                          "python_crash", False),
    "gen18_input_ids_cpu_model_cuda": (case_gen18_input_ids_cpu_model_cuda, "benign",
                                       True),
    "gen18_stop_strings_no_tokenizer": (case_gen18_stop_strings_no_tokenizer, "python_crash",
                                        False),
    "peft18_target_modules_missing": (case_peft18_target_modules_missing, "python_crash", False),
    "peft18_adapter_rank_mismatch": (case_peft18_adapter_rank_mismatch, "checkpoint_corrupt",
                                     False),
    "peft18_adapter_base_mismatch": (case_peft18_adapter_base_mismatch, "checkpoint_corrupt",
                                     False),
    "accel18_meta_to_cpu": (case_accel18_meta_to_cpu, "python_crash", False),
    "accel18_device_map_incomplete": (case_accel18_device_map_incomplete, "python_crash", True),
    "accel18_load_state_missing": (case_accel18_load_state_missing, "checkpoint_corrupt", False),
    "accel18_load_state_weights_cut": (case_accel18_load_state_weights_cut,
                                       "checkpoint_corrupt", False),
    "dl18_collate_ragged": (case_dl18_collate_ragged, "python_crash", False),
    "dl18_collate_none_field": (case_dl18_collate_none_field, "python_crash", False),
    "dl18_spawn_lambda_collate": (case_dl18_spawn_lambda_collate, "python_crash", False),
    "dl18_persistent_no_workers": (case_dl18_persistent_no_workers, "python_crash", False),
    "dl18_worker_file_missing": (case_dl18_worker_file_missing, "python_crash", False),
    "dl18_sampler_index_past_end": (case_dl18_sampler_index_past_end, "python_crash", False),
    "disk18_efbig_safetensors": (case_disk18_efbig_safetensors, "disk_full", False),
    "disk18_efbig_python_write": (case_disk18_efbig_python_write, "disk_full", False),
    "disk18_tokenizer_json_tmpfs": (case_disk18_tokenizer_json_tmpfs, "disk_full", False),
    "benign18_tokenizers_fork": (case_benign18_tokenizers_fork, "benign", False),
    "benign18_truncation_max_length": (case_benign18_truncation_max_length, "benign", False),
    "benign18_iterable_len_mismatch": (case_benign18_iterable_len_mismatch, "benign", False),
    "benign18_generate_attention_mask": (case_benign18_generate_attention_mask, "benign", False),
    "benign18_accel_cpu_fp16": (case_benign18_accel_cpu_fp16, "benign", False),
    "benign18_peft_conv1d_fan_in": (case_benign18_peft_conv1d_fan_in, "benign", False),
    "benign18_lora_dropout_zero_merge": (case_benign18_lora_dropout_zero_merge, "benign", False),
}
CASES.update(CASES18)
TIMEOUT_S.update({"dl18_spawn_lambda_collate": 90, "benign18_tokenizers_fork": 90})
# the eighteenth set's second call


def case_benign18_tokenizers_fork_big_batch() -> None:
    """benign18_tokenizers_fork printed no fork note (64 texts): 20000 texts through
    encode_batch in the parent, then DataLoader workers forked (exit 0)."""
    os.environ.pop("TOKENIZERS_PARALLELISM", None)
    from tokenizers import Tokenizer, models, pre_tokenizers
    from torch.utils.data import DataLoader

    tok = Tokenizer(models.WordLevel(vocab={"<unk>": 0, "a": 1, "b": 2}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    print(len(tok.encode_batch(["a b a " * 50] * 20000)))
    _dl18_collect(DataLoader(list(range(4)), batch_size=2, num_workers=2))


def case_tok18_json_empty_auto() -> None:
    """A zero-byte tokenizer.json (a copy that never wrote), through AutoTokenizer."""
    from transformers import AutoTokenizer

    d = _tok18_json(Path(tempfile.mkdtemp()) / "tok")
    (d / "tokenizer.json").write_bytes(b"")
    AutoTokenizer.from_pretrained(d)


def case_tok18_json_lfs_pointer_auto() -> None:
    """tokenizer.json left as a git-lfs pointer (cloned without LFS), through AutoTokenizer."""
    from transformers import AutoTokenizer

    d = _tok18_json(Path(tempfile.mkdtemp()) / "tok")
    (d / "tokenizer.json").write_text(
        "version https://git-lfs.github.com/spec/v1\noid sha256:" + "ab" * 32 + "\nsize 7031673\n")
    AutoTokenizer.from_pretrained(d)


def case_benign18_peft_config_unknown_key() -> None:
    """An adapter_config.json written by a newer peft (an extra key): peft warns, loads (exit 0)."""
    from peft import LoraConfig, PeftConfig

    d = Path(tempfile.mkdtemp()) / "adapter"
    LoraConfig(r=4, target_modules=["c_attn"]).save_pretrained(d)
    cfg = json.loads((d / "adapter_config.json").read_text())
    cfg["lora_future_option"] = True
    (d / "adapter_config.json").write_text(json.dumps(cfg))
    print(PeftConfig.from_pretrained(d).r)


def case_peft18_adapter_type_unknown() -> None:
    """An adapter_config.json whose peft_type this peft does not know."""
    from peft import PeftConfig

    d = Path(tempfile.mkdtemp()) / "adapter"
    d.mkdir()
    (d / "adapter_config.json").write_text(json.dumps({"peft_type": "LORA_XS2", "r": 4}))
    print(PeftConfig.from_pretrained(d))


CASES18B: dict[str, Case] = {
    "benign18_tokenizers_fork_big_batch": (case_benign18_tokenizers_fork_big_batch, "benign",
                                           False),
    "tok18_json_empty_auto": (case_tok18_json_empty_auto, "checkpoint_corrupt", False),
    "tok18_json_lfs_pointer_auto": (case_tok18_json_lfs_pointer_auto, "checkpoint_corrupt",
                                    False),
    "benign18_peft_config_unknown_key": (case_benign18_peft_config_unknown_key, "benign", False),
    "peft18_adapter_type_unknown": (case_peft18_adapter_type_unknown, "python_crash", False),
}
CASES18.update(CASES18B)
CASES.update(CASES18)
TIMEOUT_S.update({"benign18_tokenizers_fork_big_batch": 90})


_HUB18_BUILD = (
    "import sys\n"
    "from transformers import GPT2Config, GPT2LMHeadModel\n"
    "GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=32, n_positions=16))"
    ".save_pretrained(sys.argv[1])\n")


def _hub18_okrepo() -> dict[str, bytes]:
    """The loopback Hub serving a tiny GPT-2 repo irisrl/okrepo, HF_ENDPOINT set before anything
    imports huggingface_hub here (the model is built in a child process)."""
    repo: dict[str, bytes] = {}
    _hub_env(start_hub({"okrepo": repo}, {}))
    d = Path(tempfile.mkdtemp()) / "okrepo"
    subprocess.run([sys.executable, "-c", _HUB18_BUILD, str(d)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for f in d.iterdir():
        repo[f.name] = f.read_bytes()
    return repo


def case_hub18_allow_patterns_local_dir() -> None:
    """snapshot_download(allow_patterns=["*.json"]) (configs only), then from_pretrained of the
    snapshot folder it returned."""
    _hub18_okrepo()
    from huggingface_hub import snapshot_download
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(snapshot_download("irisrl/okrepo",
                                                           allow_patterns=["*.json"]))


def case_hub18_partial_cache_local_files_only() -> None:
    """The configs-only snapshot in the cache, then from_pretrained(repo, local_files_only=True)."""
    _hub18_okrepo()
    from huggingface_hub import snapshot_download
    from transformers import AutoModelForCausalLM

    snapshot_download("irisrl/okrepo", allow_patterns=["*.json"])
    AutoModelForCausalLM.from_pretrained("irisrl/okrepo", local_files_only=True)


def case_hub18_partial_cache_offline() -> None:
    """The configs-only snapshot cached by another process, then HF_HUB_OFFLINE=1 and
    from_pretrained(repo)."""
    _hub18_okrepo()
    subprocess.run([sys.executable, "-c", "from huggingface_hub import snapshot_download; "
                    "snapshot_download('irisrl/okrepo', allow_patterns=['*.json'])"], check=True)
    os.environ["HF_HUB_OFFLINE"] = "1"
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/okrepo")


CASES18C: dict[str, Case] = {
    "hub18_allow_patterns_local_dir": (case_hub18_allow_patterns_local_dir, "hf_weights_missing",
                                       False),
    "hub18_partial_cache_local_files_only": (case_hub18_partial_cache_local_files_only,
                                             "hf_weights_missing", False),
    "hub18_partial_cache_offline": (case_hub18_partial_cache_offline, "hf_weights_missing",
                                    False),
}
CASES18.update(CASES18C)
CASES.update(CASES18)
TIMEOUT_S.update({n: 90 for n in CASES18C})


def case_tok18_decoder_type_unknown() -> None:
    """A tokenizer.json whose decoder type tokenizers does not know, through AutoTokenizer."""
    from transformers import AutoTokenizer

    def bad_decoder(d: dict[str, Any]) -> None:
        d["decoder"] = {"type": "ByteLevelV2", "add_prefix_space": False}

    AutoTokenizer.from_pretrained(_tok18_json(Path(tempfile.mkdtemp()) / "tok", bad_decoder))


CASES18["tok18_decoder_type_unknown"] = (case_tok18_decoder_type_unknown, "checkpoint_corrupt",
                                         False)
CASES.update(CASES18)


# ----------------------------------------------------------------------------- nineteenth set
# The process / OS boundary: file descriptors used up under a small RLIMIT_NOFILE (a container's
# `ulimit -n`), threads that cannot start (RLIMIT_AS; RLIMIT_NPROC as an unprivileged user: root
# passes it), signals delivered to children of torchrun / torch.multiprocessing /
# multiprocessing.Pool / subprocess and to the trainer itself (what the PARENT prints), file modes
# (root without CAP_DAC_OVERRIDE, so a mode is obeyed) and a read-only mount, shared libraries and
# build tools that are missing or broken (cpp_extension, ld.so, triton's toolchain, a stub
# libcuda), CUDA env misconfiguration, and benign look-alikes of the same boundary.


def _fd_exhaust19(spare: int = 0) -> list[Any]:
    """A soft RLIMIT_NOFILE of 256 and a run that keeps its data shards open until the next open
    fails (EMFILE); `spare` of them are closed again."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    soft = 256 if hard == resource.RLIM_INFINITY else min(256, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    d = Path(tempfile.mkdtemp(prefix="shards"))
    held: list[Any] = []
    try:
        while True:
            held.append(open(d / f"shard-{len(held):05d}.jsonl", "w"))  # noqa: SIM115
    except OSError:
        pass
    for _ in range(min(spare, len(held))):
        held.pop().close()
    print(f"PROVOKE-NOTE RLIMIT_NOFILE soft {soft}; {len(held)} shard files held open", flush=True)
    return held


def _as_tight19(extra_mib: int) -> None:
    """RLIMIT_AS just above what the process has mapped now (VmSize + extra_mib): a new thread's
    8 MiB stack no longer fits."""
    import resource

    with open("/proc/self/status") as f:
        vm_kib = next(int(x.split()[1]) for x in f if x.startswith("VmSize:"))
    lim = (vm_kib << 10) + (extra_mib << 20)
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    print(f"PROVOKE-NOTE RLIMIT_AS = VmSize {vm_kib >> 10} MiB + {extra_mib} MiB", flush=True)


def _reexec19(name: str, how: str, env: dict[str, str] | None = None) -> None:
    """Run case `name` again in a child (returns there) and exit with its status here. how:
    "nodac": root without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH / CAP_FOWNER (file modes hold);
    "nobody": uid/gid 65534 (RLIMIT_NPROC holds); "": only `env` changes."""
    if os.environ.get("PROVOKE19_INNER"):
        return
    e = dict(os.environ, PROVOKE19_INNER="1", **(env or {}))
    script = str(SCRIPT)
    pre: list[str] = []
    if how == "nodac":
        pre = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
    elif how == "nobody":
        import shutil

        home = tempfile.mkdtemp(prefix="home19")
        os.chmod(home, 0o777)
        script = shutil.copy(SCRIPT, Path(home) / SCRIPT.name)  # /work may be closed to others
        os.chmod(script, 0o755)
        e.update(HOME=home, TMPDIR=home)
        pre = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    sys.stdout.flush()
    p = subprocess.run([*pre, sys.executable, script, "case", name], env=e)
    sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)


def _who19() -> None:
    with open("/proc/self/status") as f:
        caps = next(x.split()[1] for x in f if x.startswith("CapEff:"))
    print(f"PROVOKE-NOTE uid {os.getuid()} CapEff {caps}", flush=True)


def _triton19_kernel() -> Any:
    import triton
    import triton.language as tl

    @triton.jit
    def scale_rewards(ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(ptr + offs, mask=mask)
        tl.store(ptr + offs, x * 0.5, mask=mask)

    return scale_rewards


def _launch_triton19(cache_dir: str | None = None, before: Callable[[], object] | None = None) -> None:
    """The set's triton kernel launched once on the GPU: a fresh cache dir unless one is given;
    `before` runs after the kernel is built and before its first launch (an rlimit, an fd squeeze)."""
    os.environ["TRITON_CACHE_DIR"] = cache_dir or tempfile.mkdtemp(prefix="tritoncache")
    import torch

    k = _triton19_kernel()
    x = torch.ones(1000, device="cuda")
    held = before() if before is not None else None
    k[(1,)](x, 1000, BLOCK=1024)
    torch.cuda.synchronize()
    print(x.sum().item(), *([len(held)] if isinstance(held, list) else []))


def _okrepo19() -> dict[str, dict[str, bytes]]:
    return {"okrepo": {"config.json": b'{"model_type": "gpt2"}', "README.md": b"# ok\n",
                       "tokenizer_config.json": b"{}"}}


# -- file descriptors used up (RLIMIT_NOFILE soft 256, the shards held open)


def case_nofile19_hub_download() -> None:
    """hf_hub_download from the loopback Hub after the run's open shards used up the fds (one
    download before, so the client's modules and session are warm)."""
    _hub_env(start_hub(_okrepo19()))
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/okrepo", "README.md")
    held = _fd_exhaust19()
    hf_hub_download("irisrl/okrepo", "config.json")
    print(len(held))


def case_nofile19_safe_open() -> None:
    """safetensors safe_open of a shard with no fd left."""
    import torch
    from safetensors import safe_open
    from safetensors.torch import save_file

    p = Path(tempfile.mkdtemp(prefix="policy")) / "model-00001-of-00002.safetensors"
    save_file({"lm_head.weight": torch.ones(4, 4)}, str(p))
    held = _fd_exhaust19()
    with safe_open(str(p), framework="pt") as f:
        print(f.keys(), len(held))


def case_nofile19_torch_save() -> None:
    """torch.save of a checkpoint with no fd left (a warm-up save to memory first)."""
    import io

    import torch

    sd = {"w": torch.ones(16)}
    torch.save(sd, io.BytesIO())
    d = Path(tempfile.mkdtemp(prefix="ckpt"))
    held = _fd_exhaust19()
    torch.save(sd, d / "global_step_300.pt")
    print(len(held))


def case_nofile19_tcpstore_master() -> None:
    """The rendezvous TCPStore's master (the trainer's rank 0) created with no fd left."""
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()
    held = _fd_exhaust19()
    dist.TCPStore("127.0.0.1", port, 1, True, timedelta(seconds=5))
    print(len(held))


def case_nofile19_gloo_new_group() -> None:
    """gloo, 2 forked ranks: init and an all_reduce work, then the shards use up each rank's fds
    and `new_group` has to open its pair sockets."""
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    port = free_port()

    def body(rank: int) -> None:
        dist_env(2, rank, port)
        dist.init_process_group("gloo", timeout=timedelta(seconds=10))
        t = torch.ones(4)
        dist.all_reduce(t)
        held = _fd_exhaust19()
        g = dist.new_group([0, 1])
        dist.all_reduce(t, group=g)
        print(rank, t.sum().item(), len(held), flush=True)

    _worker_n14(2, body)


def case_nofile19_nccl_first_collective() -> None:
    """NCCL (one rank): the group is made lazily, CUDA is up, then the fds are used up before the
    first all_reduce builds the communicator."""
    os.environ["NCCL_DEBUG"] = "WARN"
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl")
    torch.cuda.set_device(0)
    t = torch.ones(4, device="cuda")
    held = _fd_exhaust19()
    dist.all_reduce(t)
    torch.cuda.synchronize()
    print(t.sum().item(), len(held))


def case_nofile19_cuda_init() -> None:
    """The first CUDA call (driver init opens /dev/nvidia*) with no fd left."""
    import torch

    held = _fd_exhaust19()
    x = torch.zeros(1, device="cuda")
    print(x, len(held))


def case_nofile19_triton_first_launch() -> None:
    """A triton kernel's first launch (compile, cache writes, ptxas) with no fd left."""
    _launch_triton19(before=_fd_exhaust19)


def case_nofile19_dataloader_workers() -> None:
    """A DataLoader with 2 workers started with no fd left (its queues need pipes)."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.arange(64.0))
    held = _fd_exhaust19()
    for _ in DataLoader(ds, batch_size=8, num_workers=2):
        pass
    print(len(held))


def case_nofile19_inductor_second_graph() -> None:
    """torch.compile (inductor, CPU): a first graph compiles; then the fds are used up and a new
    input shape makes inductor compile again, in this process (TORCHINDUCTOR_COMPILE_THREADS=1:
    the first capture, with the compile worker pool, hung without a word until the 90 s limit)."""
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inductor")
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    import torch

    f = torch.compile(lambda x: torch.sin(x) * 2 + x.mean(), dynamic=False)
    print(f(torch.randn(64)).sum().item(), flush=True)
    held = _fd_exhaust19()
    print(f(torch.randn(8, 96)).sum().item(), len(held))


# -- threads that cannot start


def _hub_child19(repos: dict[str, dict[str, bytes]]) -> tuple[str, int]:
    """The loopback Hub in a forked child (its handler threads must not meet this process's
    RLIMIT_AS); returns the endpoint and the child's pid."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.write(w, start_hub(repos).encode())
        os.close(w)
        time.sleep(90)
        os._exit(0)
    os.close(w)
    endpoint = os.read(r, 200).decode()
    os.close(r)
    return endpoint, pid


def case_thread19_as_snapshot_download() -> None:
    """snapshot_download of a 4-shard repo under RLIMIT_AS = VmSize + 6 MiB (its download threads
    need 8 MiB stacks)."""
    repo = {f"model-0000{i}-of-00004.safetensors": os.urandom(4096) for i in range(1, 5)}
    repo["config.json"] = b'{"model_type": "gpt2"}'
    endpoint, pid = _hub_child19({"okrepo": repo})
    try:
        _hub_env(endpoint)
        from huggingface_hub import snapshot_download

        _as_tight19(6)
        print(snapshot_download("irisrl/okrepo"))
    finally:
        os.kill(pid, 9)


def case_thread19_as_omp_pool() -> None:
    """torch's OpenMP pool (8 threads) first used under RLIMIT_AS = VmSize + 4 MiB."""
    import torch

    torch.set_num_threads(8)
    x = torch.empty(1 << 22)
    out = torch.empty_like(x)
    _as_tight19(4)
    torch.sin(x, out=out)
    print(out.shape)


def case_thread19_as_tokenizers_pool() -> None:
    """tokenizers' encode_batch (rayon's global pool, first use) under RLIMIT_AS = VmSize + 4 MiB."""
    os.environ["TOKENIZERS_PARALLELISM"] = "true"
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "reward": 1, "model": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.encode("reward model")
    _as_tight19(4)
    print(len(tok.encode_batch(["reward model"] * 4096)))


def case_nproc19_dataloader_workers() -> None:
    """uid 65534 with RLIMIT_NPROC below its own thread count: a DataLoader's 2 workers cannot
    fork (the first capture set the limit at the thread count and the workers started)."""
    _reexec19("nproc19_dataloader_workers", "nobody")
    import resource

    import torch
    from torch.utils.data import DataLoader, TensorDataset

    _who19()
    ds = TensorDataset(torch.arange(64.0))
    n = max(1, len(os.listdir("/proc/self/task")) - 4)  # below what this user runs now
    resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
    print(f"PROVOKE-NOTE RLIMIT_NPROC {n}", flush=True)
    for _ in DataLoader(ds, batch_size=8, num_workers=2):
        pass


_CHILD19 = """import os, signal, sys, time
rank = int(os.environ.get("RANK", "0"))
mode = sys.argv[1]
if rank == 1 and mode != "ok":
    time.sleep(1)
    os.kill(os.getpid(), getattr(signal, mode))
time.sleep(6)
print(f"rank {rank} done", flush=True)
"""


def _child19_file() -> str:
    d = Path(tempfile.mkdtemp(prefix="child19"))
    os.chmod(d, 0o755)
    p = d / "train_policy.py"
    p.write_text(_CHILD19)
    os.chmod(p, 0o644)
    return str(p)


def case_nproc19_torchrun() -> None:
    """uid 65534, RLIMIT_NPROC 12: torchrun --nproc-per-node=2 of a healthy script."""
    _reexec19("nproc19_torchrun", "nobody")
    import resource

    _who19()
    child = _child19_file()
    resource.setrlimit(resource.RLIMIT_NPROC, (12, 12))
    os.execv(sys.executable, [sys.executable, "-m", "torch.distributed.run", "--standalone",
                              "--nproc-per-node=2", child, "ok"])


# -- signals: what the parent prints


def _torchrun19(mode: str) -> None:
    sys.exit(subprocess.call([sys.executable, "-m", "torch.distributed.run", "--standalone",
                              "--nproc-per-node=2", _child19_file(), mode]))


def case_sig19_torchrun_child_sigusr1() -> None:
    """A torchrun child ended by SIGUSR1 (Slurm's --signal=USR1@60 warning, no handler)."""
    _torchrun19("SIGUSR1")


def case_sig19_torchrun_child_sighup() -> None:
    """A torchrun child ended by SIGHUP (its terminal went away)."""
    _torchrun19("SIGHUP")


def case_sig19_torchrun_child_sigint() -> None:
    """A torchrun child sent SIGINT (KeyboardInterrupt in the child, then its exit by SIGINT)."""
    _torchrun19("SIGINT")


def _signalled_worker19(rank: int, signame: str) -> None:
    """Rank 1 sends itself `signame` a second in; rank 0 outlives it."""
    import signal

    if rank == 1:
        time.sleep(1)
        os.kill(os.getpid(), getattr(signal, signame))
    time.sleep(6)


def case_sig19_spawn_child_sigusr1() -> None:
    """A torch.multiprocessing.spawn child ended by SIGUSR1."""
    import torch.multiprocessing as mp

    mp.spawn(_signalled_worker19, args=("SIGUSR1",), nprocs=2)


_EVAL19 = ("import os, signal, sys, time\n"
           "if sys.argv[1] == 'kill':\n"
           "    os.kill(os.getpid(), signal.SIGKILL)  # the kernel's OOM killer\n"
           "time.sleep(30)\n")


def _eval19_file() -> str:
    p = Path(tempfile.mkdtemp(prefix="eval19")) / "eval_policy.py"
    p.write_text(_EVAL19)
    return str(p)


def case_sig19_subprocess_sigkill() -> None:
    """subprocess.run(check=True) of an eval script that is SIGKILLed."""
    subprocess.run([sys.executable, _eval19_file(), "kill"], check=True)


def case_sig19_subprocess_timeout() -> None:
    """subprocess.run(timeout=3) of an eval script that hangs."""
    subprocess.run([sys.executable, _eval19_file(), "hang"], timeout=3)


def _rollout19_lock(i: int) -> Any:
    return threading.Lock()  # a rollout result holding a lock: it cannot go back to the parent


def _rollout19_killed(i: int) -> int:
    if i == 1:
        os.kill(os.getpid(), 9)
    time.sleep(0.2)
    return i


def case_sig19_pool_unpicklable_result() -> None:
    """multiprocessing.Pool.map whose worker returns an object that cannot be pickled."""
    import multiprocessing as mp

    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(_rollout19_lock, range(4)))


def case_sig19_pool_worker_killed() -> None:
    """multiprocessing.Pool: a worker SIGKILLed mid-task; the parent's get(timeout=5) expires."""
    import multiprocessing as mp

    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map_async(_rollout19_killed, range(4)).get(timeout=5))


def case_sig19_stdout_pipe_closed() -> None:
    """A trainer's stdout piped into `head -n 2` (the reader went away)."""
    code = ("for step in range(1000000):\n"
            "    print(f'step {step} reward 0.25 kl 0.01')\n")
    sys.exit(subprocess.call(["bash", "-c", f'"{sys.executable}" -c "$1" | head -n 2', "bash",
                              code]))


def _die19(signame: str) -> None:
    import signal

    print("step 1 done", flush=True)
    os.kill(os.getpid(), getattr(signal, signame))
    time.sleep(5)


def case_sig19_sigterm_no_handler() -> None:
    """The trainer itself ended by SIGTERM (no handler installed): the shell's line."""
    _die19("SIGTERM")


def case_sig19_sigusr1_no_handler() -> None:
    """The trainer ended by SIGUSR1 (Slurm's pre-timeout signal, no handler): the shell's line."""
    _die19("SIGUSR1")


def case_sig19_sighup_no_handler() -> None:
    """The trainer ended by SIGHUP (ssh session closed, no nohup): the shell's line."""
    _die19("SIGHUP")


def case_sig19_alarm_no_handler() -> None:
    """signal.alarm(1) as a step timeout with no SIGALRM handler installed."""
    import signal

    signal.alarm(1)
    time.sleep(5)


def case_core19_segfault_core_dumped() -> None:
    """A segfault with RLIMIT_CORE unlimited (the shell says whether a core was dumped)."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    os.chdir(tempfile.mkdtemp(prefix="core19"))
    pattern = Path("/proc/sys/kernel/core_pattern").read_text().strip()
    print(f"PROVOKE-NOTE core_pattern {pattern}", flush=True)
    _real_fault("segv")


def case_sig19_dataloader_worker_sigterm() -> None:
    """A DataLoader worker ended by SIGTERM (no handler) mid-epoch."""
    import signal

    import torch
    from torch.utils.data import DataLoader, Dataset

    class Rollouts(Dataset):  # type: ignore[type-arg]
        def __len__(self) -> int:
            return 64

        def __getitem__(self, i: int) -> Any:
            if i == 9:
                os.kill(os.getpid(), signal.SIGTERM)
            return torch.tensor(float(i))

    for _ in DataLoader(Rollouts(), batch_size=4, num_workers=2):
        pass


def case_py19_sigint_mid_step() -> None:
    """SIGINT (Ctrl-C) to a training loop with 2 DataLoader workers."""
    import signal

    import torch
    from torch.utils.data import DataLoader, TensorDataset

    model = torch.nn.Linear(16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(4096, 16)), batch_size=8, num_workers=2)
    for step, (x,) in enumerate(loader):
        if step == 3:
            os.kill(os.getpid(), signal.SIGINT)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


# -- file modes (root without CAP_DAC_OVERRIDE) and a read-only mount


def _ro_dir19(prefix: str) -> Path:
    d = Path(tempfile.mkdtemp(prefix=prefix))
    os.chmod(d, 0o555)
    return d


def case_perm19_hf_home_readonly() -> None:
    """hf_hub_download with HF_HOME a directory of mode 0555."""
    _reexec19("perm19_hf_home_readonly", "nodac")
    _who19()
    _hub_env(start_hub(_okrepo19()))
    os.chmod(os.environ["HF_HOME"], 0o555)
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/okrepo", "config.json")


def case_perm19_torch_save_ckpt_dir() -> None:
    """torch.save into a checkpoint directory of mode 0555."""
    _reexec19("perm19_torch_save_ckpt_dir", "nodac")
    _who19()
    import torch

    torch.save({"w": torch.ones(4)}, _ro_dir19("ckpt") / "global_step_300.pt")


def case_perm19_safetensors_save() -> None:
    """safetensors save_file into a directory of mode 0555."""
    _reexec19("perm19_safetensors_save", "nodac")
    _who19()
    import torch
    from safetensors.torch import save_file

    save_file({"w": torch.ones(4)}, str(_ro_dir19("actor") / "model.safetensors"))


def case_perm19_inductor_cache() -> None:
    """torch.compile (inductor, CPU) with TORCHINDUCTOR_CACHE_DIR a directory of mode 0555."""
    _reexec19("perm19_inductor_cache", "nodac")
    _who19()
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(_ro_dir19("inductor"))
    import torch

    f = torch.compile(lambda x: torch.sin(x) * 2)
    print(f(torch.randn(64)).sum().item())


def case_perm19_triton_cache() -> None:
    """A triton kernel's first launch with TRITON_CACHE_DIR a directory of mode 0555."""
    _reexec19("perm19_triton_cache", "nodac")
    _who19()
    _launch_triton19(str(_ro_dir19("tritoncache")))


def case_perm19_dcp_save_dir() -> None:
    """torch.distributed.checkpoint.save under a directory of mode 0555."""
    _reexec19("perm19_dcp_save_dir", "nodac")
    _who19()
    import torch
    import torch.distributed.checkpoint as dcp

    dcp.save({"w": torch.ones(4)}, checkpoint_id=str(_ro_dir19("dcp") / "global_step_300"))


def case_erofs19_hf_cache_ro_mount() -> None:
    """hf_hub_download with HF_HOME on a read-only tmpfs mount."""
    _hub_env(start_hub(_okrepo19()))
    rc = subprocess.call(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs",
                          os.environ["HF_HOME"]], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    print(f"PROVOKE-NOTE read-only tmpfs mount rc={rc}", flush=True)
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/okrepo", "config.json")


# -- shared libraries and build tools


def _ext19_dir() -> None:
    os.environ["TORCH_EXTENSIONS_DIR"] = tempfile.mkdtemp(prefix="torch_extensions")
    os.environ.setdefault("MAX_JOBS", "4")


def case_lib19_cpp_ext_undefined_symbol() -> None:
    """torch.utils.cpp_extension.load_inline of an op declared but never defined: the shared
    object links, its import fails."""
    _ext19_dir()
    from torch.utils.cpp_extension import load_inline

    src = ("#include <torch/extension.h>\n"
           "torch::Tensor fused_gae(torch::Tensor rewards, torch::Tensor values, double gamma);\n")
    load_inline("rl_ops", cpp_sources=[src], functions=["fused_gae"])


def case_lib19_cpp_ext_compile_error() -> None:
    """load_inline of a C++ op with a syntax error."""
    _ext19_dir()
    from torch.utils.cpp_extension import load_inline

    src = ("#include <torch/extension.h>\n"
           "torch::Tensor whiten(torch::Tensor adv) { return (adv - adv.mean()) / adv.std() }\n")
    load_inline("advantage_ops", cpp_sources=[src], functions=["whiten"])


def case_lib19_cpp_ext_no_ninja() -> None:
    """load_inline with no ninja on PATH."""
    _ext19_dir()
    from torch.utils.cpp_extension import load_inline

    os.environ["PATH"] = "/nonexistent/bin"
    src = "#include <torch/extension.h>\ntorch::Tensor twice(torch::Tensor x) { return x * 2; }\n"
    load_inline("twice_ops", cpp_sources=[src], functions=["twice"])


def case_benign19_ld_preload_missing() -> None:
    """A child started with LD_PRELOAD naming a library that is not there (ld.so goes on)."""
    env = dict(os.environ, LD_PRELOAD="/opt/nccl-plugins/libnccl-tuner.so")
    sys.exit(subprocess.call([sys.executable, "-c", "print('step 1 loss 0.5')"], env=env))


def case_lib19_nccl_tuner_plugin_missing() -> None:
    """NCCL_TUNER_PLUGIN naming a library that is not there (NCCL_DEBUG=INFO, one rank)."""
    os.environ.update(NCCL_TUNER_PLUGIN="/opt/nccl-plugins/libnccl-tuner-irisrl.so",
                      NCCL_DEBUG="INFO", NCCL_DEBUG_SUBSYS="INIT,TUNING,ENV")
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    t = torch.ones(4, device="cuda")
    dist.all_reduce(t)
    torch.cuda.synchronize()
    print(t.sum().item())
    dist.destroy_process_group()


def _libcuda_stub19() -> str:
    """A directory holding a libcuda.so.1 that is the CUDA toolkit's stub (or, where none is
    installed, an empty shared object built here)."""
    import glob
    import shutil

    d = Path(tempfile.mkdtemp(prefix="cuda_stubs"))
    pats = ["/usr/local/cuda*/lib64/stubs/libcuda.so", "/usr/local/cuda*/targets/*/lib/stubs/libcuda.so",
            "/usr/lib/x86_64-linux-gnu/stubs/libcuda.so*",
            str(Path(sys.prefix) / "lib/python3*/site-packages/nvidia/**/stubs/libcuda.so*")]
    found = [p for pat in pats for p in sorted(glob.glob(pat, recursive=True))]
    if found:
        shutil.copy(found[0], d / "libcuda.so.1")
        print(f"PROVOKE-NOTE stub {found[0]}", flush=True)
    else:
        (d / "empty.c").write_text("int irisrl_no_driver = 1;\n")
        rc = subprocess.call(["gcc", "-shared", "-fPIC", "-o", str(d / "libcuda.so.1"),
                              str(d / "empty.c")])
        print(f"PROVOKE-NOTE no stub found; empty libcuda.so.1 built, gcc rc={rc}", flush=True)
    return str(d)


def case_lib19_libcuda_stub_first() -> None:
    """LD_LIBRARY_PATH puts a stub libcuda.so.1 ahead of the driver's (a container built against
    the toolkit's stubs), then the first CUDA call."""
    if not os.environ.get("PROVOKE19_INNER"):
        d = _libcuda_stub19()
        _reexec19("lib19_libcuda_stub_first", "", env={
            "LD_LIBRARY_PATH": d + ":" + os.environ.get("LD_LIBRARY_PATH", "")})
    import torch

    print("PROVOKE-NOTE is_available", torch.cuda.is_available(), flush=True)
    print(torch.zeros(1, device="cuda"))


def case_lib19_triton_libcuda_path() -> None:
    """TRITON_LIBCUDA_PATH naming a directory without libcuda (fresh triton cache)."""
    os.environ["TRITON_LIBCUDA_PATH"] = "/usr/lib/x86_64-linux-gnu/nvidia-560"
    _launch_triton19()


def case_lib19_triton_ptxas_missing() -> None:
    """TRITON_PTXAS_PATH naming a ptxas that is not there (fresh triton cache)."""
    os.environ["TRITON_PTXAS_PATH"] = "/usr/local/cuda-12.4/bin/ptxas"
    _launch_triton19()


def case_as19_triton_compile() -> None:
    """A triton kernel's first compile under RLIMIT_AS = VmSize + 8 MiB (CUDA already up; the
    first capture's 64 MiB compiled and ran)."""
    _launch_triton19(before=lambda: _as_tight19(8))


# -- CUDA env misconfiguration


def case_cuda19_visible_devices_duplicate() -> None:
    """CUDA_VISIBLE_DEVICES=0,0 (a launcher that gave two ranks' lists to one), then cuda:1."""
    os.environ["CUDA_VISIBLE_DEVICES"] = "0,0"
    import torch

    print("PROVOKE-NOTE device_count", torch.cuda.device_count(), flush=True)
    a = torch.ones(4, device="cuda:0")
    print(a.to("cuda:1").sum().item())


def case_cuda19_local_rank_device_id() -> None:
    """init_process_group("nccl", device_id=cuda:LOCAL_RANK) with LOCAL_RANK=1 on a one-GPU node."""
    import torch
    import torch.distributed as dist

    os.environ["LOCAL_RANK"] = "1"
    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda", int(os.environ["LOCAL_RANK"])))
    t = torch.ones(4, device="cuda")
    dist.all_reduce(t)
    print(t.sum().item())


# -- benign look-alikes


def case_benign19_resource_warnings() -> None:
    """A rollout log file and a socket never closed, with ResourceWarning shown (python -X dev
    style); the run ends fine."""
    import gc
    import warnings

    warnings.simplefilter("default", ResourceWarning)
    d = Path(tempfile.mkdtemp(prefix="rollouts"))

    def log_step(step: int) -> None:
        f = open(d / "rollouts.jsonl", "a")  # noqa: SIM115
        f.write(json.dumps({"step": step, "reward": 0.25}) + "\n")

    log_step(1)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    del s
    gc.collect()
    print("done")


def case_benign19_shared_memory_leak() -> None:
    """A rollout buffer in multiprocessing.shared_memory closed but never unlinked; the run ends
    fine and the resource tracker cleans up."""
    from multiprocessing import shared_memory

    shm = shared_memory.SharedMemory(create=True, size=1 << 20)
    shm.buf[:4] = b"roll"
    shm.close()
    print("done")


CASES19: dict[str, Case] = {
    "nofile19_hub_download": (case_nofile19_hub_download, "python_crash", False),
    "nofile19_safe_open": (case_nofile19_safe_open, "python_crash", False),
    "nofile19_torch_save": (case_nofile19_torch_save, "python_crash", False),
    "nofile19_tcpstore_master": (case_nofile19_tcpstore_master, "python_crash", False),
    "nofile19_gloo_new_group": (case_nofile19_gloo_new_group, "python_crash", False),
    "nofile19_nccl_first_collective": (case_nofile19_nccl_first_collective, "nccl_error", True),
    "nofile19_cuda_init": (case_nofile19_cuda_init, "cuda_error", True),
    "nofile19_triton_first_launch": (case_nofile19_triton_first_launch, "python_crash", True),
    "nofile19_dataloader_workers": (case_nofile19_dataloader_workers, "python_crash", False),
    "nofile19_inductor_second_graph": (case_nofile19_inductor_second_graph, "python_crash", False),
    "thread19_as_snapshot_download": (case_thread19_as_snapshot_download, "python_crash", False),
    "thread19_as_omp_pool": (case_thread19_as_omp_pool, "python_crash", False),
    "thread19_as_tokenizers_pool": (case_thread19_as_tokenizers_pool, "python_crash", False),
    "nproc19_dataloader_workers": (case_nproc19_dataloader_workers, "python_crash", False),
    "nproc19_torchrun": (case_nproc19_torchrun, "python_crash", False),
    "sig19_torchrun_child_sigusr1": (case_sig19_torchrun_child_sigusr1, "python_crash", False),
    "sig19_torchrun_child_sighup": (case_sig19_torchrun_child_sighup, "python_crash", False),
    "sig19_torchrun_child_sigint": (case_sig19_torchrun_child_sigint, "python_crash", False),
    "sig19_spawn_child_sigusr1": (case_sig19_spawn_child_sigusr1, "python_crash", False),
    "sig19_subprocess_sigkill": (case_sig19_subprocess_sigkill, "python_crash", False),
    "sig19_subprocess_timeout": (case_sig19_subprocess_timeout, "python_crash", False),
    "sig19_pool_unpicklable_result": (case_sig19_pool_unpicklable_result, "python_crash", False),
    "sig19_pool_worker_killed": (case_sig19_pool_worker_killed, "python_crash", False),
    "sig19_stdout_pipe_closed": (case_sig19_stdout_pipe_closed, "python_crash", False),
    "sig19_sigterm_no_handler": (case_sig19_sigterm_no_handler, "python_crash", False),
    "sig19_sigusr1_no_handler": (case_sig19_sigusr1_no_handler, "python_crash", False),
    "sig19_sighup_no_handler": (case_sig19_sighup_no_handler, "python_crash", False),
    "sig19_alarm_no_handler": (case_sig19_alarm_no_handler, "python_crash", False),
    "core19_segfault_core_dumped": (case_core19_segfault_core_dumped, "python_crash", False),
    "sig19_dataloader_worker_sigterm": (case_sig19_dataloader_worker_sigterm, "python_crash",
                                        False),
    "py19_sigint_mid_step": (case_py19_sigint_mid_step, "python_crash", False),
    "perm19_hf_home_readonly": (case_perm19_hf_home_readonly, "python_crash", False),
    "perm19_torch_save_ckpt_dir": (case_perm19_torch_save_ckpt_dir, "python_crash", False),
    "perm19_safetensors_save": (case_perm19_safetensors_save, "python_crash", False),
    "perm19_inductor_cache": (case_perm19_inductor_cache, "python_crash", False),
    "perm19_triton_cache": (case_perm19_triton_cache, "python_crash", True),
    "perm19_dcp_save_dir": (case_perm19_dcp_save_dir, "python_crash", False),
    "erofs19_hf_cache_ro_mount": (case_erofs19_hf_cache_ro_mount, "python_crash", False),
    "lib19_cpp_ext_undefined_symbol": (case_lib19_cpp_ext_undefined_symbol, "python_crash", False),
    "lib19_cpp_ext_compile_error": (case_lib19_cpp_ext_compile_error, "python_crash", False),
    "lib19_cpp_ext_no_ninja": (case_lib19_cpp_ext_no_ninja, "python_crash", False),
    "benign19_ld_preload_missing": (case_benign19_ld_preload_missing, "benign", False),
    "lib19_nccl_tuner_plugin_missing": (case_lib19_nccl_tuner_plugin_missing, "benign", True),
    "lib19_libcuda_stub_first": (case_lib19_libcuda_stub_first, "cuda_error", True),
    "lib19_triton_libcuda_path": (case_lib19_triton_libcuda_path, "python_crash", True),
    "lib19_triton_ptxas_missing": (case_lib19_triton_ptxas_missing, "python_crash", True),
    "as19_triton_compile": (case_as19_triton_compile, "python_crash", True),
    "cuda19_visible_devices_duplicate": (case_cuda19_visible_devices_duplicate, "cuda_error",
                                         True),
    "cuda19_local_rank_device_id": (case_cuda19_local_rank_device_id, "python_crash", True),
    "benign19_resource_warnings": (case_benign19_resource_warnings, "benign", False),
    "benign19_shared_memory_leak": (case_benign19_shared_memory_leak, "benign", False),
}
CASES.update(CASES19)
# the nineteenth set's second call


def case_nofile19_hub_download_token_env() -> None:
    """nofile19_hub_download with the token in HF_TOKEN (no token file to read): the request
    itself meets the fd limit."""
    os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # the loopback Hub does not check it
    case_nofile19_hub_download()


def case_sig19_spawn_child_sighup() -> None:
    """A torch.multiprocessing.spawn child ended by SIGHUP."""
    import torch.multiprocessing as mp

    mp.spawn(_signalled_worker19, args=("SIGHUP",), nprocs=2)


def case_perm19_torch_load_unreadable() -> None:
    """torch.load of a checkpoint of mode 0000 (written by another job's user)."""
    _reexec19("perm19_torch_load_unreadable", "nodac")
    _who19()
    import torch

    p = Path(tempfile.mkdtemp(prefix="ckpt")) / "global_step_300.pt"
    torch.save({"w": torch.ones(4)}, p)
    os.chmod(p, 0)
    torch.load(p)


def case_lib19_ops_load_library_missing() -> None:
    """torch.ops.load_library of a custom-op library that is not on this node."""
    import torch

    torch.ops.load_library("/opt/irisrl/lib/libfused_rl_ops.so")


def case_nofile19_tokenizer_from_file() -> None:
    """tokenizers' Tokenizer.from_file with no fd left."""
    from tokenizers import Tokenizer, models

    p = Path(tempfile.mkdtemp(prefix="tok")) / "tokenizer.json"
    Tokenizer(models.WordLevel({"[UNK]": 0, "reward": 1}, unk_token="[UNK]")).save(str(p))
    held = _fd_exhaust19()
    print(Tokenizer.from_file(str(p)), len(held))


CASES19B: dict[str, Case] = {
    "nofile19_hub_download_token_env": (case_nofile19_hub_download_token_env, "python_crash",
                                        False),
    "sig19_spawn_child_sighup": (case_sig19_spawn_child_sighup, "python_crash", False),
    "perm19_torch_load_unreadable": (case_perm19_torch_load_unreadable, "python_crash", False),
    "lib19_ops_load_library_missing": (case_lib19_ops_load_library_missing, "python_crash",
                                       False),
    "nofile19_tokenizer_from_file": (case_nofile19_tokenizer_from_file, "python_crash", False),
}
CASES19.update(CASES19B)
CASES.update(CASES19B)
TIMEOUT_S.update({"nofile19_hub_download_token_env": 90})
TIMEOUT_S.update({"nofile19_hub_download": 90, "thread19_as_snapshot_download": 90,
                  "lib19_cpp_ext_undefined_symbol": 240, "lib19_cpp_ext_compile_error": 240,
                  "nproc19_torchrun": 60, "sig19_torchrun_child_sigusr1": 60,
                  "sig19_torchrun_child_sighup": 60, "sig19_torchrun_child_sigint": 60,
                  "perm19_inductor_cache": 90, "nofile19_inductor_second_graph": 90,
                  "erofs19_hf_cache_ro_mount": 90, "perm19_hf_home_readonly": 90})
# ----------------------------------------------------------------------------- twentieth set
# The generation / kernel side without vLLM: transformers generate() on the GPU (static caches,
# assisted and hub-moved decoding strategies, length and penalty checks, streamers), attention
# backends (SDPA pinned to one kernel, flex attention, unknown implementations), quantization
# configs whose backend is absent, device_map strings and offload, triton compile-time checks
# (tl.dot dtypes, pointers, num_warps, Hopper tensor descriptors), torch.utils.cpp_extension
# builds, cuFFT / cuBLAS / linalg / 32-bit-index checks, autocast and GradScaler, benign
# look-alikes from the same paths.


def _llama20(**over: Any) -> Any:
    """A tiny random Llama (GQA: 4 query heads over 2 key/value heads), in memory."""
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
               num_key_value_heads=2, vocab_size=128, max_position_embeddings=256)
    cfg.update(over)
    return LlamaForCausalLM(LlamaConfig(**cfg)).eval()


def _llama20_dir(quant: dict[str, Any] | None = None, **over: Any) -> Path:
    """_llama20 saved as a checkpoint folder (`policy`), its config.json optionally given a
    quantization_config as a quantized checkpoint's would carry."""
    d = Path(tempfile.mkdtemp()) / "policy"
    _llama20(**over).save_pretrained(d)
    if quant is not None:
        cfg = json.loads((d / "config.json").read_text())
        cfg["quantization_config"] = quant
        (d / "config.json").write_text(json.dumps(cfg, indent=2))
    return d


def _prompt20(device: str = "cpu", batch: int = 1) -> Any:
    import torch

    return torch.arange(3, 9, device=device).repeat(batch, 1)


def case_gen20_static_cache_overflow_cuda() -> None:
    """generate() into a StaticCache of 8 slots with a 6-token prompt and 10 new tokens."""
    import torch
    from transformers import StaticCache

    m = _llama20().cuda()
    cache = StaticCache(config=m.config, max_cache_len=8)
    out = m.generate(_prompt20("cuda"), past_key_values=cache, max_new_tokens=10,
                     do_sample=False, pad_token_id=0, eos_token_id=None)
    torch.cuda.synchronize()
    print(out.tolist())


def case_compile20_generate_fullgraph() -> None:
    """torch.compile(model.generate, fullgraph=True): the whole decoding loop in one graph."""
    import torch

    m = _llama20().cuda()
    g = torch.compile(m.generate, fullgraph=True)
    print(g(_prompt20("cuda"), max_new_tokens=4, do_sample=False, pad_token_id=0))


def case_gen20_max_new_tokens_zero() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=0, pad_token_id=0))


def case_gen20_bad_words_ids_empty() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, bad_words_ids=[[]]))


def case_gen20_beam_groups_indivisible() -> None:
    """Diverse beam search: 4 beams in 3 groups (group beam search left transformers' core)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, num_beams=4,
                              num_beam_groups=3, diversity_penalty=0.5))


def case_gen20_contrastive_search_offline() -> None:
    """Contrastive search (penalty_alpha + top_k) on an air-gapped node (HF_HUB_OFFLINE=1)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, penalty_alpha=0.6,
                              top_k=4))


def case_gen20_cache_implementation_unknown() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              cache_implementation="paged_static"))


def case_gen20_assistant_vocab_mismatch() -> None:
    """Assisted generation with a draft model of another vocabulary and no tokenizers given."""
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              assistant_model=_llama20(vocab_size=96)))


def case_gen20_repetition_penalty_zero() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              repetition_penalty=0.0))


def case_gen20_top_p_zero() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, do_sample=True,
                              top_p=0.0))


def case_gen20_streamer_batch() -> None:
    """A TextStreamer (rollout logging) over a batch of 4 prompts."""
    from transformers import TextStreamer

    print(_llama20().generate(_prompt20(batch=4), max_new_tokens=4, pad_token_id=0,
                              streamer=TextStreamer(None)))


def case_benign20_eos_token_id_negative() -> None:
    """eos_token_id=-1 (a 'no stop token' sentinel): generate warns and runs to max length."""
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, eos_token_id=-1))


def case_benign20_min_new_tokens_unfeasible() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, min_new_tokens=16, pad_token_id=0))


def case_attn20_unknown_impl() -> None:
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir(), attn_implementation="flash_attn")


def case_attn20_flex_llama_cpu() -> None:
    """attn_implementation="flex_attention" on a CPU-only node, then generate()."""
    from transformers import AutoModelForCausalLM

    m = AutoModelForCausalLM.from_pretrained(_llama20_dir(), attn_implementation="flex_attention")
    print(m.generate(_prompt20(), max_new_tokens=4, pad_token_id=0))


def case_attn20_sdpa_flash_head_dim_512() -> None:
    """SDPA pinned to flash attention with bf16 heads of 512 (flash takes head dims <= 256)."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    q = torch.randn(1, 4, 128, 512, device="cuda", dtype=torch.bfloat16)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        F.scaled_dot_product_attention(q, q, q, is_causal=True)


def case_attn20_sdpa_gqa_indivisible() -> None:
    """SDPA with enable_gqa: 6 query heads over 4 key/value heads."""
    import torch
    import torch.nn.functional as F

    q = torch.randn(1, 6, 64, 64, device="cuda", dtype=torch.bfloat16)
    kv = torch.randn(1, 4, 64, 64, device="cuda", dtype=torch.bfloat16)
    F.scaled_dot_product_attention(q, kv, kv, is_causal=True, enable_gqa=True)
    torch.cuda.synchronize()


def case_attn20_flex_block_mask_wrong_len() -> None:
    """flex_attention with a causal BlockMask built for 128 tokens over 256-token queries."""
    import torch
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    def causal(b, h, q_idx, kv_idx):  # type: ignore[no-untyped-def]
        return q_idx >= kv_idx

    bm = create_block_mask(causal, None, None, 128, 128, device="cuda")
    q = torch.randn(1, 4, 256, 64, device="cuda", dtype=torch.bfloat16)
    flex_attention(q, q, q, block_mask=bm)
    torch.cuda.synchronize()


def case_benign20_flex_eager() -> None:
    """flex_attention called eagerly (no torch.compile): it warns and runs unfused."""
    import torch
    from torch.nn.attention.flex_attention import flex_attention

    q = torch.randn(1, 4, 128, 64, device="cuda", dtype=torch.bfloat16)
    print(flex_attention(q, q, q).shape)
    torch.cuda.synchronize()


def _quant20(quant: dict[str, Any]) -> None:
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir(quant))


def case_quant20_gptq_absent() -> None:
    _quant20({"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False,
              "sym": True})


def case_quant20_awq_absent() -> None:
    _quant20({"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True,
              "version": "gemm"})


def case_quant20_fp8_no_gpu() -> None:
    """A fine-grained FP8 checkpoint's config (block 128x128) loaded where no GPU is visible."""
    _quant20({"quant_method": "fp8", "activation_scheme": "dynamic",
              "weight_block_size": [128, 128]})


def case_quant20_unknown_method() -> None:
    _quant20({"quant_method": "exl9", "bits": 4})


def case_quant20_bnb_4bit_and_8bit() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_4bit=True, load_in_8bit=True)


def case_dmap20_device_map_missing_ordinal() -> None:
    """device_map={"": 3} (a rank's local GPU index) on a node with one GPU."""
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir(), device_map={"": 3})


def case_dmap20_device_map_bad_string() -> None:
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir(), device_map="balanced_low_1")


def case_benign20_device_map_disk_offload() -> None:
    """device_map="auto" with 1 MiB of GPU and host memory and an offload folder: layers go to
    disk, then generate() runs through the offloaded layers."""
    from transformers import AutoModelForCausalLM

    d = _llama20_dir(hidden_size=256, intermediate_size=512, num_hidden_layers=4,
                     vocab_size=2048)
    m = AutoModelForCausalLM.from_pretrained(d, device_map="auto",
                                             max_memory={0: "1MiB", "cpu": "1MiB"},
                                             offload_folder=str(d.parent / "offload"))
    print(m.generate(_prompt20("cuda"), max_new_tokens=2, pad_token_id=0))


def case_triton20_dot_dtype_mismatch() -> None:
    """tl.dot of a float32 tile with a float16 tile."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def mm(a_ptr, b_ptr, c_ptr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, 16)
        idx = offs[:, None] * 16 + offs[None, :]
        c = tl.dot(tl.load(a_ptr + idx), tl.load(b_ptr + idx))
        tl.store(c_ptr + idx, c)

    a = torch.randn(16, 16, device="cuda")
    b = torch.randn(16, 16, device="cuda", dtype=torch.float16)
    mm[(1,)](a, b, torch.empty_like(a))
    torch.cuda.synchronize()


def case_triton20_load_scalar_pointer() -> None:
    """tl.load of an integer argument (a length passed where the pointer belongs)."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(n, x_ptr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(n + offs))

    x = torch.ones(64, device="cuda")
    k[(1,)](64, x, BLOCK=64)
    torch.cuda.synchronize()


def case_triton20_num_warps_3() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)

    x = torch.ones(128, device="cuda")
    k[(1,)](x, BLOCK=128, num_warps=3)
    torch.cuda.synchronize()


def case_triton20_tma_misaligned() -> None:
    """A Hopper tensor descriptor (TMA) over a 10 x 10 float32 tensor (40-byte row stride)."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = torch.randn(10, 10, device="cuda")
    TensorDescriptor.from_tensor(x, block_shape=[8, 8])
    print("descriptor built")


def case_ext20_load_inline_cpp_syntax_error() -> None:
    """torch.utils.cpp_extension.load_inline of a C++ op with a syntax error."""
    from torch.utils.cpp_extension import load_inline

    build = Path(tempfile.mkdtemp()) / "build"
    build.mkdir()
    load_inline(name="reward_ext20", cpp_sources="int scale(int x) { return x * ; }",
                functions=["scale"], build_directory=str(build))


def case_ext20_load_inline_cuda_assert() -> None:
    """load_inline of a CUDA kernel that asserts on a bad token id."""
    import torch
    from torch.utils.cpp_extension import load_inline

    cuda = r"""
#include <cassert>
__global__ void check_ids(const long* ids, long n, long vocab) {
  long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(ids[i] < vocab);
}
void check(torch::Tensor ids, int64_t vocab) {
  check_ids<<<1, 64>>>(ids.data_ptr<long>(), ids.numel(), vocab);
}
"""
    build = Path(tempfile.mkdtemp()) / "build"
    build.mkdir()
    ext = load_inline(name="ids_ext20", cpp_sources="void check(torch::Tensor ids, int64_t vocab);",
                      cuda_sources=cuda, functions=["check"], build_directory=str(build))
    ext.check(torch.tensor([1, 2, 500], device="cuda"), 128)
    torch.cuda.synchronize()


def case_blas20_cufft_half_non_pow2() -> None:
    import torch

    print(torch.fft.rfft(torch.randn(4, 100, device="cuda", dtype=torch.half)).shape)


def case_blas20_matmul_fp8() -> None:
    """A plain matmul of float8_e4m3fn tensors (not torch._scaled_mm)."""
    import torch

    a = torch.randn(32, 32, device="cuda").to(torch.float8_e4m3fn)
    print((a @ a).shape)


def case_blas20_conv_depthwise_int32() -> None:
    """A depthwise bf16 conv over an input of more than 2**31 elements."""
    import torch

    x = torch.randn(1, 64, 6000, 6000, device="cuda", dtype=torch.bfloat16)
    conv = torch.nn.Conv2d(64, 64, 3, padding=1, groups=64, bias=False).cuda().bfloat16()
    print(conv(x).shape)
    torch.cuda.synchronize()


def case_blas20_interpolate_int32() -> None:
    """Nearest upsampling whose output has more than 2**31 elements."""
    import torch
    import torch.nn.functional as F

    x = torch.randn(1, 64, 4096, 4096, device="cuda", dtype=torch.bfloat16)
    print(F.interpolate(x, scale_factor=2, mode="nearest").shape)
    torch.cuda.synchronize()


def case_blas20_linalg_singular_cuda() -> None:
    import torch

    a = torch.zeros(4, 4, device="cuda")
    print(torch.linalg.solve(a, torch.ones(4, 1, device="cuda")))


def case_amp20_bce_autocast() -> None:
    """binary_cross_entropy on sigmoid outputs inside a bf16 autocast region."""
    import torch
    import torch.nn.functional as F

    x = torch.randn(8, device="cuda")
    y = torch.rand(8, device="cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        print(F.binary_cross_entropy(torch.sigmoid(x), y))


def case_amp20_gradscaler_no_inf_checks() -> None:
    """GradScaler.step on an optimizer whose parameters got no gradient this step."""
    import torch

    p = torch.nn.Parameter(torch.randn(4, device="cuda"))
    opt = torch.optim.SGD([p], lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    scaler.scale((torch.randn(4, device="cuda") * 2).sum())
    scaler.step(opt)


def case_benign20_autocast_float64_cuda() -> None:
    import torch

    with torch.autocast("cuda", dtype=torch.float64):
        print((torch.randn(4, 4, device="cuda") @ torch.randn(4, 4, device="cuda")).dtype)


def case_benign20_lstm_weights_noncontiguous() -> None:
    """A CUDA LSTM whose weight was replaced after .cuda() (out of cuDNN's flat buffer)."""
    import torch

    lstm = torch.nn.LSTM(16, 16).cuda()
    lstm.weight_ih_l0.data = lstm.weight_ih_l0.data.clone()
    print(lstm(torch.randn(5, 2, 16, device="cuda"))[0].shape)


CASES20: dict[str, Case] = {
    "gen20_static_cache_overflow_cuda": (case_gen20_static_cache_overflow_cuda, "cuda_error", True),
    "compile20_generate_fullgraph": (case_compile20_generate_fullgraph, "python_crash", True),
    "gen20_max_new_tokens_zero": (case_gen20_max_new_tokens_zero, "python_crash", False),
    "gen20_bad_words_ids_empty": (case_gen20_bad_words_ids_empty, "python_crash", False),
    "gen20_beam_groups_indivisible": (case_gen20_beam_groups_indivisible, "python_crash", False),
    "gen20_contrastive_search_offline": (case_gen20_contrastive_search_offline, "python_crash",
                                         False),
    "gen20_cache_implementation_unknown": (case_gen20_cache_implementation_unknown,
                                           "python_crash", False),
    "gen20_assistant_vocab_mismatch": (case_gen20_assistant_vocab_mismatch, "python_crash",
                                       False),
    "gen20_repetition_penalty_zero": (case_gen20_repetition_penalty_zero, "python_crash", False),
    "gen20_top_p_zero": (case_gen20_top_p_zero, "python_crash", False),
    "gen20_streamer_batch": (case_gen20_streamer_batch, "python_crash", False),
    "benign20_eos_token_id_negative": (case_benign20_eos_token_id_negative, "benign", False),
    "benign20_min_new_tokens_unfeasible": (case_benign20_min_new_tokens_unfeasible, "benign",
                                           False),
    "attn20_unknown_impl": (case_attn20_unknown_impl, "python_crash", False),
    "attn20_flex_llama_cpu": (case_attn20_flex_llama_cpu, "python_crash", False),
    "attn20_sdpa_flash_head_dim_512": (case_attn20_sdpa_flash_head_dim_512, "python_crash", True),
    "attn20_sdpa_gqa_indivisible": (case_attn20_sdpa_gqa_indivisible, "python_crash", True),
    "attn20_flex_block_mask_wrong_len": (case_attn20_flex_block_mask_wrong_len, "python_crash",
                                         True),
    "benign20_flex_eager": (case_benign20_flex_eager, "benign", True),
    "quant20_gptq_absent": (case_quant20_gptq_absent, "python_crash", False),
    "quant20_awq_absent": (case_quant20_awq_absent, "python_crash", False),
    "quant20_fp8_no_gpu": (case_quant20_fp8_no_gpu, "benign", False),  # loads (exit 0)
    "quant20_unknown_method": (case_quant20_unknown_method, "benign", False),  # loads (exit 0)
    "quant20_bnb_4bit_and_8bit": (case_quant20_bnb_4bit_and_8bit, "python_crash", False),
    "dmap20_device_map_missing_ordinal": (case_dmap20_device_map_missing_ordinal, "cuda_error",
                                          True),
    "dmap20_device_map_bad_string": (case_dmap20_device_map_bad_string, "python_crash", False),
    "benign20_device_map_disk_offload": (case_benign20_device_map_disk_offload, "benign", True),
    "triton20_dot_dtype_mismatch": (case_triton20_dot_dtype_mismatch, "python_crash", True),
    "triton20_load_scalar_pointer": (case_triton20_load_scalar_pointer, "python_crash", True),
    "triton20_num_warps_3": (case_triton20_num_warps_3, "python_crash", True),
    "triton20_tma_misaligned": (case_triton20_tma_misaligned, "python_crash", True),
    "ext20_load_inline_cpp_syntax_error": (case_ext20_load_inline_cpp_syntax_error,
                                           "python_crash", False),
    "ext20_load_inline_cuda_assert": (case_ext20_load_inline_cuda_assert, "cuda_error", True),
    "blas20_cufft_half_non_pow2": (case_blas20_cufft_half_non_pow2, "python_crash", True),
    "blas20_matmul_fp8": (case_blas20_matmul_fp8, "python_crash", True),
    "blas20_conv_depthwise_int32": (case_blas20_conv_depthwise_int32, "python_crash", True),
    "blas20_interpolate_int32": (case_blas20_interpolate_int32, "python_crash", True),
    "blas20_linalg_singular_cuda": (case_blas20_linalg_singular_cuda, "python_crash", True),
    "amp20_bce_autocast": (case_amp20_bce_autocast, "python_crash", True),
    "amp20_gradscaler_no_inf_checks": (case_amp20_gradscaler_no_inf_checks, "python_crash", True),
    "benign20_autocast_float64_cuda": (case_benign20_autocast_float64_cuda, "benign", True),
    "benign20_lstm_weights_noncontiguous": (case_benign20_lstm_weights_noncontiguous, "benign",
                                            True),
}
CASES.update(CASES20)
# GPU cases of the twentieth set that neither fault nor fill the GPU: `run` starts them in its
# worker pool (GPU visible) beside the CPU cases; the others still run one at a time.
GPU_SHARED20 = frozenset(n for n in CASES20 if CASES20[n][2] and n not in {
    "gen20_static_cache_overflow_cuda", "ext20_load_inline_cuda_assert",
    "blas20_conv_depthwise_int32", "blas20_interpolate_int32"})
TIMEOUT_S.update({"compile20_generate_fullgraph": 150, "ext20_load_inline_cpp_syntax_error": 150,
                  "ext20_load_inline_cuda_assert": 200, "attn20_flex_block_mask_wrong_len": 120,
                  "attn20_flex_llama_cpu": 120, "gen20_contrastive_search_offline": 90,
                  "gen20_beam_groups_indivisible": 90, "benign20_device_map_disk_offload": 90})


def case_gen20_dola_offline() -> None:
    """DoLa decoding (dola_layers="high") on an air-gapped node (HF_HUB_OFFLINE=1)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, dola_layers="high"))


def case_gen20_force_words_offline() -> None:
    """Constrained beam search (force_words_ids) on an air-gapped node."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, num_beams=2,
                              force_words_ids=[[5, 6]]))


def case_gen20_custom_generate_offline() -> None:
    """custom_generate from the Hub with trust_remote_code=True, HF_HUB_OFFLINE=1 and an empty
    cache (the fix the contrastive-search error suggests, on an air-gapped node)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_HOME"] = tempfile.mkdtemp()
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              custom_generate="transformers-community/contrastive-search",
                              trust_remote_code=True, penalty_alpha=0.6, top_k=4))


def case_gen20_return_sequences_over_beams() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, num_beams=2,
                              num_return_sequences=4))


def case_gen20_logits_processor_duplicate() -> None:
    """A custom TemperatureLogitsWarper passed next to temperature= (made by generate too)."""
    from transformers import LogitsProcessorList, TemperatureLogitsWarper

    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, do_sample=True,
                              temperature=0.7,
                              logits_processor=LogitsProcessorList([TemperatureLogitsWarper(0.7)])))


def case_gen20_prompt_lookup_batch() -> None:
    """Prompt-lookup decoding over a batch of 2 prompts."""
    print(_llama20().generate(_prompt20(batch=2), max_new_tokens=4, pad_token_id=0,
                              prompt_lookup_num_tokens=3))


def case_gen20_quantized_cache_absent() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              cache_implementation="quantized"))


def case_gen20_paged_cache_eager() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              cache_implementation="paged"))


def case_attn20_flash_attention_3() -> None:
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir(), attn_implementation="flash_attention_3")


def case_attn20_hub_kernel_offline() -> None:
    """attn_implementation naming a Hub kernel repo, on an air-gapped node."""
    from transformers import AutoModelForCausalLM

    os.environ["HF_HUB_OFFLINE"] = "1"
    AutoModelForCausalLM.from_pretrained(_llama20_dir(),
                                         attn_implementation="kernels-community/flash-attn")


def case_attn20_sdpa_dtype_mix() -> None:
    """SDPA with a bf16 query over fp16 keys / values (a cache kept in another dtype)."""
    import torch
    import torch.nn.functional as F

    q = torch.randn(1, 4, 64, 64, device="cuda", dtype=torch.bfloat16)
    kv = torch.randn(1, 4, 64, 64, device="cuda", dtype=torch.float16)
    F.scaled_dot_product_attention(q, kv, kv, is_causal=True)
    torch.cuda.synchronize()


def case_attn20_flex_score_mod_signature() -> None:
    """flex_attention with a score_mod taking three arguments instead of five."""
    import torch
    from torch.nn.attention.flex_attention import flex_attention

    def soft_cap(score, q_idx, kv_idx):  # type: ignore[no-untyped-def]
        return 30 * torch.tanh(score / 30)

    q = torch.randn(1, 4, 128, 64, device="cuda", dtype=torch.bfloat16)
    flex_attention(q, q, q, score_mod=soft_cap)
    torch.cuda.synchronize()


def case_quant20_compressed_tensors_absent() -> None:
    _quant20({"quant_method": "compressed-tensors", "format": "float-quantized",
              "config_groups": {"group_0": {"targets": ["Linear"], "weights": {
                  "num_bits": 8, "type": "float", "strategy": "channel"}}}})


def case_quant20_mxfp4_no_kernels() -> None:
    """An MXFP4 checkpoint's config (gpt-oss style) loaded onto the GPU."""
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir({"quant_method": "mxfp4"}),
                                         device_map="cuda")


def case_triton20_constexpr_missing() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)

    k[(1,)](torch.ones(64, device="cuda"))
    torch.cuda.synchronize()


def case_blas20_scaled_mm_not_div16() -> None:
    """fp8 torch._scaled_mm over a 16 x 20 operand (inner dimension not a multiple of 16)."""
    import torch

    a = torch.randn(16, 20, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(32, 20, device="cuda").to(torch.float8_e4m3fn).t()
    one = torch.tensor(1.0, device="cuda")
    print(torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16).shape)


def case_ext20_load_inline_cuda_syntax_error() -> None:
    """load_inline of a CUDA kernel that nvcc cannot compile."""
    from torch.utils.cpp_extension import load_inline

    cuda = r"""
__global__ void add_one(float* x, long n) {
  long i = blockIdx_x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}
void run(torch::Tensor x) { add_one<<<1, 64>>>(x.data_ptr<float>(), x.numel()); }
"""
    build = Path(tempfile.mkdtemp()) / "build"
    build.mkdir()
    load_inline(name="add_ext20", cpp_sources="void run(torch::Tensor x);", cuda_sources=cuda,
                functions=["run"], build_directory=str(build))


def case_ext20_build_dir_full() -> None:
    """load_inline with its build directory (and TMPDIR) on a 256 KiB tmpfs."""
    from torch.utils.cpp_extension import load_inline

    fs = _small_fs()
    if fs is None:
        return
    os.environ["TMPDIR"] = str(fs)
    load_inline(name="full_ext20", cpp_sources="int scale(int x) { return 2 * x; }",
                functions=["scale"], build_directory=str(fs))


def case_benign20_deterministic_warn_only() -> None:
    """use_deterministic_algorithms(True, warn_only=True), then index_add_ and a matmul on CUDA."""
    import torch

    torch.use_deterministic_algorithms(True, warn_only=True)
    x = torch.zeros(8, device="cuda")
    x.index_add_(0, torch.tensor([0, 0, 1], device="cuda"), torch.ones(3, device="cuda"))
    y = torch.randn(8, 8, device="cuda")
    print(x.sum().item(), (y @ y).sum().item())


CASES20B: dict[str, Case] = {
    "gen20_dola_offline": (case_gen20_dola_offline, "python_crash", False),
    "gen20_force_words_offline": (case_gen20_force_words_offline, "python_crash", False),
    "gen20_custom_generate_offline": (case_gen20_custom_generate_offline, "hf_weights_missing",
                                      False),
    "gen20_return_sequences_over_beams": (case_gen20_return_sequences_over_beams, "python_crash",
                                          False),
    "gen20_logits_processor_duplicate": (case_gen20_logits_processor_duplicate, "python_crash",
                                         False),
    "gen20_prompt_lookup_batch": (case_gen20_prompt_lookup_batch, "python_crash", False),
    "gen20_quantized_cache_absent": (case_gen20_quantized_cache_absent, "python_crash", False),
    "gen20_paged_cache_eager": (case_gen20_paged_cache_eager, "python_crash", False),
    "attn20_flash_attention_3": (case_attn20_flash_attention_3, "python_crash", False),
    "attn20_hub_kernel_offline": (case_attn20_hub_kernel_offline, "python_crash", False),
    "attn20_sdpa_dtype_mix": (case_attn20_sdpa_dtype_mix, "python_crash", True),
    "attn20_flex_score_mod_signature": (case_attn20_flex_score_mod_signature, "python_crash",
                                        True),
    "quant20_compressed_tensors_absent": (case_quant20_compressed_tensors_absent, "python_crash",
                                          False),
    "quant20_mxfp4_no_kernels": (case_quant20_mxfp4_no_kernels, "benign", True),  # exit 0
    "triton20_constexpr_missing": (case_triton20_constexpr_missing, "python_crash", True),
    "blas20_scaled_mm_not_div16": (case_blas20_scaled_mm_not_div16, "python_crash", True),
    "ext20_load_inline_cuda_syntax_error": (case_ext20_load_inline_cuda_syntax_error,
                                            "python_crash", True),
    "ext20_build_dir_full": (case_ext20_build_dir_full, "disk_full", False),
    "benign20_deterministic_warn_only": (case_benign20_deterministic_warn_only, "benign", True),
}
CASES20.update(CASES20B)
CASES.update(CASES20)
GPU_SHARED20 = GPU_SHARED20 | {n for n in CASES20B if CASES20B[n][2]}
TIMEOUT_S.update({"ext20_load_inline_cuda_syntax_error": 200, "ext20_build_dir_full": 150,
                  "gen20_custom_generate_offline": 90, "quant20_mxfp4_no_kernels": 90})


def case_gen20_max_length_below_prompt() -> None:
    print(_llama20().generate(_prompt20(), max_length=4, pad_token_id=0))


def case_gen20_early_stopping_bad() -> None:
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, num_beams=2,
                              early_stopping="sometimes"))


def case_gen20_float_input_ids() -> None:
    """Rollout token ids kept as a float tensor (gathered through a float buffer)."""
    print(_llama20().generate(_prompt20().float(), max_new_tokens=4, pad_token_id=0))


def case_quant20_fbgemm_fp8_absent() -> None:
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(_llama20_dir({"quant_method": "fbgemm_fp8",
                                                       "activation_scale_ub": 1200.0}),
                                         device_map="cuda")


def case_quant20_quanto_absent() -> None:
    _quant20({"quant_method": "quanto", "weights": "int8", "activations": None})


def case_attn20_sdpa_mask_dtype() -> None:
    """SDPA with a float16 additive mask over bf16 queries."""
    import torch
    import torch.nn.functional as F

    q = torch.randn(1, 4, 64, 64, device="cuda", dtype=torch.bfloat16)
    mask = torch.zeros(1, 1, 64, 64, device="cuda", dtype=torch.float16)
    F.scaled_dot_product_attention(q, q, q, attn_mask=mask)
    torch.cuda.synchronize()


def case_triton20_program_id_axis3() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x_ptr):  # type: ignore[no-untyped-def]
        tl.store(x_ptr + tl.program_id(3), 1.0)

    k[(1,)](torch.zeros(4, device="cuda"))
    torch.cuda.synchronize()


def case_triton20_reshape_numel() -> None:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x_ptr):  # type: ignore[no-untyped-def]
        offs = tl.arange(0, 64)
        v = tl.reshape(tl.load(x_ptr + offs), (16, 8))
        tl.store(x_ptr + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :], v)

    k[(1,)](torch.zeros(64, device="cuda"))
    torch.cuda.synchronize()


def case_compile20_item_fullgraph() -> None:
    """A reward-shaping step compiled with fullgraph=True that reads a scalar with .item()."""
    import torch

    @torch.compile(fullgraph=True)
    def shape_reward(r):  # type: ignore[no-untyped-def]
        if r.mean().item() > 0:
            return r - r.mean()
        return r

    print(shape_reward(torch.randn(16, device="cuda")))


def case_ext20_load_inline_undefined_symbol() -> None:
    """load_inline binding a function that is declared but defined nowhere."""
    from torch.utils.cpp_extension import load_inline

    build = Path(tempfile.mkdtemp()) / "build"
    build.mkdir()
    load_inline(name="sym_ext20", cpp_sources="int scale(int x);", functions=["scale"],
                build_directory=str(build))


def case_amp20_gradscaler_update_bad_scale() -> None:
    import torch

    p = torch.nn.Parameter(torch.randn(4, device="cuda"))
    opt = torch.optim.SGD([p], lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    scaler.scale((p * 2).sum()).backward()
    scaler.step(opt)
    scaler.update(torch.tensor([1024.0, 512.0], device="cuda"))


def case_blas20_eigh_nan_cuda() -> None:
    """linalg.eigh of a covariance matrix holding NaN (a diverged batch's statistics)."""
    import torch

    a = torch.randn(64, 64, device="cuda")
    a = a @ a.T
    a[3, 5] = float("nan")
    print(torch.linalg.eigh(a).eigenvalues[:3])


def case_blas20_bmm_batch_mismatch() -> None:
    import torch

    a = torch.randn(4, 8, 16, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(2, 16, 8, device="cuda", dtype=torch.bfloat16)
    print(torch.bmm(a, b).shape)


CASES20C: dict[str, Case] = {
    "gen20_max_length_below_prompt": (case_gen20_max_length_below_prompt, "python_crash", False),
    "gen20_early_stopping_bad": (case_gen20_early_stopping_bad, "python_crash", False),
    "gen20_float_input_ids": (case_gen20_float_input_ids, "python_crash", False),
    "quant20_fbgemm_fp8_absent": (case_quant20_fbgemm_fp8_absent, "python_crash", True),
    "quant20_quanto_absent": (case_quant20_quanto_absent, "python_crash", False),
    "attn20_sdpa_mask_dtype": (case_attn20_sdpa_mask_dtype, "python_crash", True),
    "triton20_program_id_axis3": (case_triton20_program_id_axis3, "python_crash", True),
    "triton20_reshape_numel": (case_triton20_reshape_numel, "python_crash", True),
    "compile20_item_fullgraph": (case_compile20_item_fullgraph, "python_crash", True),
    "ext20_load_inline_undefined_symbol": (case_ext20_load_inline_undefined_symbol,
                                           "python_crash", False),
    "amp20_gradscaler_update_bad_scale": (case_amp20_gradscaler_update_bad_scale, "python_crash",
                                          True),
    "blas20_eigh_nan_cuda": (case_blas20_eigh_nan_cuda, "python_crash", True),
    "blas20_bmm_batch_mismatch": (case_blas20_bmm_batch_mismatch, "python_crash", True),
}
CASES20.update(CASES20C)
CASES.update(CASES20)
GPU_SHARED20 = GPU_SHARED20 | {n for n in CASES20C if CASES20C[n][2]}
TIMEOUT_S.update({"ext20_load_inline_undefined_symbol": 150, "compile20_item_fullgraph": 120})


# ----------------------------------------------------------------------------- set 21: wrappers and numerics
# The twenty-first set: inner failures (CUDA OOM, a device-side assert, a corrupt or cut
# checkpoint, a Hub 401 / 404 / 500, ENOSPC, plain Python bugs) as the layers a trainer wraps them
# in print them (DataLoader workers, concurrent.futures pools, asyncio tasks / TaskGroups /
# callbacks, threads, logging formats: Hydra's, a JSON formatter, rich, RichHandler, loguru and
# structlog where the device has them), and the training loop's numerical and state checks
# (anomaly mode, custom autograd Functions, hooks, checkpoint recompute, LR schedulers and
# optimizers on resume, distributions' argument checks, GradScaler state, FSDP2 on one rank).

_HYDRA_FMT21 = "[%(asctime)s][%(name)s][%(levelname)s] - %(message)s"  # Hydra's job logging format


class _WorkerDs21:
    """A map-style dataset whose every item fails inside the DataLoader worker (`mode`)."""

    def __init__(self, mode: str, arg: str = "") -> None:
        self.mode, self.arg = mode, arg

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> Any:
        import torch

        if self.mode == "cuda_oom":  # a worker that builds its batch on the GPU
            return torch.empty(1 << 40, dtype=torch.uint8, device="cuda")
        if self.mode == "device_assert":  # a token id past the table, gathered on the GPU
            table = torch.arange(32, device="cuda")
            return table[torch.tensor([40 + i], device="cuda")].cpu()
        if self.mode == "safetensors":
            from safetensors.torch import load_file

            return load_file(self.arg)
        if self.mode == "torch_load":
            return torch.load(self.arg)
        if self.mode == "hub":
            from huggingface_hub import hf_hub_download

            return hf_hub_download(self.arg, "tokenizer.json")
        if self.mode == "import":  # a reward module written against a newer transformers
            from transformers import Qwen9RewardModel  # type: ignore[attr-defined]

            return Qwen9RewardModel
        if self.mode == "attribute":  # the tokenizer the worker was meant to get
            tokenizer = None
            return tokenizer.pad_token_id  # type: ignore[attr-defined]
        raise AssertionError(self.mode)


def _dl21(mode: str, arg: str = "", ctx: str | None = None) -> None:
    import torch

    loader = torch.utils.data.DataLoader(_WorkerDs21(mode, arg), batch_size=None, num_workers=1,
                                         multiprocessing_context=ctx)
    for batch in loader:
        print(type(batch))


def case_dl21_worker_cuda_oom() -> None:
    """A DataLoader worker (spawn) that allocates its batch on the GPU runs out of memory."""
    _dl21("cuda_oom", ctx="spawn")


def case_dl21_worker_device_assert() -> None:
    """A DataLoader worker (spawn) indexes a GPU table past its end: a device-side assert."""
    _dl21("device_assert", ctx="spawn")


def case_dl21_worker_safetensors_cut() -> None:
    """A DataLoader worker reads a safetensors shard cut in half."""
    import torch
    from safetensors.torch import save_file

    p = Path(tempfile.mkdtemp(prefix="shards")) / "rollouts-00003.safetensors"
    save_file({"tokens": torch.ones(64, 256, dtype=torch.int64)}, str(p))
    _truncate(p)
    _dl21("safetensors", str(p))


def case_dl21_worker_torch_load_garbage() -> None:
    """A DataLoader worker torch.load()s a replay-buffer file of random bytes."""
    p = Path(tempfile.mkdtemp(prefix="replay")) / "buffer_0007.pt"
    p.write_bytes(os.urandom(8192))
    _dl21("torch_load", str(p))


def case_dl21_worker_hub_gated() -> None:
    """A DataLoader worker downloads a tokenizer file from a gated repo (loopback Hub, 401)."""
    _hub_env(start_hub({}))
    _dl21("hub", "irisrl/gated401")


def case_dl21_worker_import_error() -> None:
    """A DataLoader worker imports a class its transformers does not have."""
    _dl21("import")


def case_dl21_worker_attribute_none() -> None:
    """A DataLoader worker reads an attribute of a tokenizer that was never set (None)."""
    _dl21("attribute")


def _pool_init_import21() -> None:
    from transformers import Qwen9RewardModel  # type: ignore[attr-defined]  # noqa: F401


def _square21(x: int) -> int:
    return x * x


def case_pool21_process_initializer_import() -> None:
    """A ProcessPoolExecutor (fork) whose initializer imports a class transformers lacks."""
    import multiprocessing

    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2, initializer=_pool_init_import21,
                             mp_context=multiprocessing.get_context("fork")) as ex:
        print(list(ex.map(_square21, range(4))))


def case_pool21_thread_initializer_gated() -> None:
    """A ThreadPoolExecutor whose initializer downloads a gated repo's config (401)."""
    from concurrent.futures import ThreadPoolExecutor

    _hub_env(start_hub({}))
    from huggingface_hub import hf_hub_download

    def fetch_reward_config() -> None:
        hf_hub_download("irisrl/gated401", "config.json")

    with ThreadPoolExecutor(2, initializer=fetch_reward_config) as ex:
        print(list(ex.map(str, range(4))))


def _never_retrieved21(make: Callable[[], Any]) -> None:
    """A task whose exception nobody awaits: asyncio reports it when the task is collected."""
    import asyncio
    import gc

    async def generate_batch() -> Any:
        return make()

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(generate_batch())
        await asyncio.sleep(0.2)
        del task
        gc.collect()
        await asyncio.sleep(0.05)

    asyncio.run(main())
    print("loop finished")


def case_aio21_task_never_retrieved_oom() -> None:
    """An asyncio task that allocates a batch on the GPU runs out of memory; never awaited."""
    import torch

    _never_retrieved21(lambda: torch.empty(1 << 40, dtype=torch.uint8, device="cuda"))


def case_aio21_task_never_retrieved_st_header() -> None:
    """An asyncio task opens a safetensors file whose header length is absurd; never awaited."""
    from safetensors import safe_open

    p = _st_file(b"\xff" * 8 + b"{}")
    _never_retrieved21(lambda: safe_open(p, framework="pt"))


def _taskgroup21(*calls: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
    """asyncio.TaskGroup of blocking calls (asyncio.to_thread): an ExceptionGroup on failure."""
    import asyncio

    async def main() -> None:
        async with asyncio.TaskGroup() as tg:
            for fn, args in calls:
                tg.create_task(asyncio.to_thread(fn, *args))

    asyncio.run(main())


def case_aio21_taskgroup_hub_gated() -> None:
    """asyncio.TaskGroup downloading two files of a gated repo (loopback Hub, 401)."""
    _hub_env(start_hub({}))
    from huggingface_hub import hf_hub_download

    _taskgroup21((hf_hub_download, ("irisrl/gated401", "config.json")))


def case_aio21_taskgroup_hub_500() -> None:
    """asyncio.TaskGroup asking model_info of a repo while the Hub answers 500."""
    _hub_env(start_hub({}))
    from huggingface_hub import HfApi

    _taskgroup21((HfApi().model_info, ("irisrl/status500",)))


def case_aio21_taskgroup_st_save_enospc() -> None:
    """asyncio.TaskGroup saving a safetensors shard (to_thread) onto a full 256 KiB tmpfs."""
    mnt = _full_fs()
    import torch
    from safetensors.torch import save_file

    _taskgroup21((save_file, ({"w": torch.ones(256, 1024)}, str(mnt / "model-00001.safetensors"))))


def case_aio21_callback_type_error() -> None:
    """A done-callback on a rollout future that reads its result wrongly (TypeError)."""
    import asyncio

    def on_rollout_done(fut: Any) -> None:
        print(float(fut.result()))

    async def main() -> None:
        fut = asyncio.get_running_loop().create_future()
        fut.add_done_callback(on_rollout_done)
        fut.set_result({"reward": 0.5})
        await asyncio.sleep(0.05)

    asyncio.run(main())
    print("loop finished")


def case_thr21_checkpoint_thread_enospc() -> None:
    """A background checkpoint thread torch.save()s onto a full 256 KiB tmpfs."""
    mnt = _full_fs()
    import torch

    def save_checkpoint(step: int) -> None:
        torch.save({"w": torch.ones(256, 1024)}, mnt / f"step_{step}.pt")

    t = threading.Thread(target=save_checkpoint, args=(300,))
    t.start()
    t.join()
    print("training continues")


def _json_logger21(name: str) -> Any:
    """A logger whose records are one JSON object a line (the shape log shippers want)."""
    import logging

    class JsonFormatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            out = {"ts": self.formatTime(record), "level": record.levelname,
                   "logger": record.name, "msg": record.getMessage()}
            if record.exc_info and record.exc_info[1] is not None:
                e = record.exc_info[1]
                out["error"] = f"{type(e).__module__}.{type(e).__qualname__}: {e}"
            return json.dumps(out)

    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger(name)
    log.addHandler(handler)
    log.propagate = False
    return log


def case_log21_hydra_oom() -> None:
    """A trainer logs a CUDA OOM in Hydra's log format, then re-raises it."""
    import logging

    import torch

    logging.basicConfig(format=_HYDRA_FMT21, level=logging.INFO)
    log = logging.getLogger("irisrl.trainer")
    try:
        torch.empty(1 << 40, dtype=torch.uint8, device="cuda")
    except torch.OutOfMemoryError as e:
        log.error(f"step 3 failed: {e}")
        raise


def case_log21_json_gated() -> None:
    """A rollout worker logs a gated-repo 401 (loopback Hub) as a JSON line, exits 1."""
    _hub_env(start_hub({}))
    from huggingface_hub import hf_hub_download

    log = _json_logger21("irisrl.rollout")
    try:
        hf_hub_download("irisrl/gated401", "config.json")
    except Exception:
        log.exception("reward model download failed")
        sys.exit(1)


def case_log21_json_device_assert() -> None:
    """A rollout worker logs a device-side assert as a JSON line, exits 1."""
    import torch

    log = _json_logger21("irisrl.rollout")
    table = torch.arange(32, device="cuda")
    try:
        print(table[torch.tensor([40], device="cuda")].sum().item())
    except Exception:
        log.exception("rollout step failed")
        sys.exit(1)


def case_log21_stdlib_enospc() -> None:
    """A checkpoint writer logs ENOSPC (a full 256 KiB tmpfs) with a plain logging format."""
    import logging

    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("irisrl.ckpt")
    mnt = _full_fs()
    try:
        with open(mnt / "optim.pt", "wb") as f:
            f.write(os.urandom(1 << 20))
    except OSError as e:
        log.error("checkpoint save failed: %s", e)
        sys.exit(1)


def case_log21_default_format_st_small() -> None:
    """logging.basicConfig()'s default format logging a resume from a safetensors file of 4
    bytes (an upload cut short), then exit 1."""
    import logging

    from safetensors.torch import load_file

    logging.basicConfig()
    log = logging.getLogger("irisrl.ckpt")
    p = _st_file(b"\x10\0\0\0")
    try:
        load_file(p)
    except Exception as e:
        log.error("resume from %s failed: %s", p, e)
        sys.exit(1)


def _rich_exit21(fn: Callable[[], Any]) -> None:
    """Run fn; print its exception as rich's traceback (a console that is not a tty), exit 1."""
    _need21("rich")
    from rich.console import Console

    try:
        fn()
    except Exception:
        Console(stderr=True).print_exception()
        sys.exit(1)


def case_log21_rich_traceback_oom() -> None:
    """rich's print_exception of a CUDA OOM (the trainer's console, no tty)."""
    import torch

    _rich_exit21(lambda: torch.empty(1 << 40, dtype=torch.uint8, device="cuda"))


def case_log21_rich_traceback_st_json() -> None:
    """rich's print_exception of safetensors reading a header that is not JSON."""
    from safetensors.torch import load_file

    body = b'{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]'
    p = _st_file(len(body).to_bytes(8, "little") + body + b"\0" * 8)
    _rich_exit21(lambda: load_file(p))


def case_log21_richhandler_weights_missing() -> None:
    """RichHandler logging transformers' error for a policy folder without weights."""
    import logging

    _need21("rich")
    from rich.logging import RichHandler

    logging.basicConfig(level="INFO", format="%(message)s", handlers=[RichHandler()])
    log = logging.getLogger("irisrl.trainer")
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp(prefix="ckpt")) / "policy_step_300", "safetensors")
    (d / "model.safetensors").unlink()
    from transformers import AutoModelForCausalLM

    try:
        AutoModelForCausalLM.from_pretrained(d)
    except OSError as e:
        log.error("%s", e)
        sys.exit(1)


def _need21(mod: str) -> None:
    """Exit 3 (the case is dropped) where the device lacks an optional logging library."""
    import importlib.util

    if importlib.util.find_spec(mod) is None:
        print(f"PROVOKE-NOTE {mod} is not installed", flush=True)
        sys.exit(3)


def case_log21_loguru_hub_500() -> None:
    """loguru's default format logging a Hub 500 on model_info (loopback Hub)."""
    _need21("loguru")
    _hub_env(start_hub({}))
    from huggingface_hub import HfApi
    from loguru import logger

    try:
        HfApi().model_info("irisrl/status500")
    except Exception as e:
        logger.error("model_info failed: {}", e)
        sys.exit(1)


def case_log21_structlog_oom() -> None:
    """structlog's JSON renderer with format_exc_info logging a CUDA OOM."""
    _need21("structlog")
    import structlog
    import torch

    structlog.configure(processors=[structlog.processors.add_log_level,
                                    structlog.processors.TimeStamper(fmt="iso"),
                                    structlog.processors.format_exc_info,
                                    structlog.processors.JSONRenderer()])
    log = structlog.get_logger("irisrl.trainer")
    try:
        torch.empty(1 << 40, dtype=torch.uint8, device="cuda")
    except torch.OutOfMemoryError:
        log.exception("train_step_failed", step=3)
        sys.exit(1)


# numerics and the training loop's state checks

def case_num21_anomaly_log_softmax() -> None:
    """Anomaly mode over a policy whose logits are all masked (-inf) for a row."""
    import torch

    torch.autograd.set_detect_anomaly(True)
    logits = torch.full((2, 4), float("-inf"), requires_grad=True)
    logp = torch.log_softmax(logits, -1)
    (-logp[:, 0].mean()).backward()


def case_num21_anomaly_custom_function() -> None:
    """Anomaly mode over a custom entropy Function whose backward meets p = 0 (0 * -inf)."""
    import torch

    class EntropyBonus(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, logits: Any) -> Any:
            ctx.save_for_backward(logits)
            logp = torch.log_softmax(logits, -1)
            return -(logp.exp() * logp).sum(-1)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (logits,) = ctx.saved_tensors
            p = torch.softmax(logits, -1)
            return g[:, None] * (-(torch.log(p) + 1) * p)

    torch.autograd.set_detect_anomaly(True)
    logits = torch.tensor([[0.0, -1e4, 1.0], [2.0, 0.0, -1e4]], requires_grad=True)
    EntropyBonus.apply(logits).sum().backward()


def case_num21_custom_fn_grad_count() -> None:
    """A custom clipped-ratio Function whose backward returns one gradient for three inputs."""
    import torch

    class ClippedRatio(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, ratio: Any, adv: Any, eps: float) -> Any:
            ctx.save_for_backward(adv)
            return torch.clamp(ratio, 1 - eps, 1 + eps) * adv

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (adv,) = ctx.saved_tensors
            return g * adv

    ratio = torch.rand(8, requires_grad=True)
    ClippedRatio.apply(ratio, torch.randn(8), 0.2).sum().backward()


def case_num21_custom_fn_grad_shape() -> None:
    """A custom Function whose backward returns a gradient of the wrong shape."""
    import torch

    class ValueHeadScale(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, h: Any) -> Any:
            return h * 0.5

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g.sum(0) * 0.5

    h = torch.randn(4, 8, requires_grad=True)
    ValueHeadScale.apply(h).sum().backward()


def case_num21_hook_changes_size() -> None:
    """A gradient hook on a parameter that returns a gradient of another size."""
    import torch

    w = torch.nn.Parameter(torch.randn(4, 8))

    def clip_grad_hook(g: Any) -> Any:
        return g[:, :4].clamp(-1, 1)

    w.register_hook(clip_grad_hook)
    (w @ torch.randn(8, 2)).sum().backward()


def case_num21_backward_nonscalar() -> None:
    """loss.backward() on a per-token loss that was never reduced."""
    import torch

    m = torch.nn.Linear(8, 1)
    per_token = (m(torch.randn(4, 8)).squeeze(-1) - torch.randn(4)).pow(2)
    per_token.backward()


def case_num21_inplace_leaf() -> None:
    """A manual weight update outside torch.no_grad() on a leaf that requires grad."""
    import torch

    w = torch.nn.Parameter(torch.randn(4))
    w.sub_(0.1 * torch.ones(4))


def case_num21_checkpoint_recompute_count() -> None:
    """Non-reentrant activation checkpointing whose block takes another branch on recompute."""
    import torch
    from torch.utils.checkpoint import checkpoint

    calls = {"n": 0}

    def block(x: Any) -> Any:
        calls["n"] += 1
        y = x.sin()
        if calls["n"] == 1:  # e.g. a flag flipped between the forward and the recompute
            y = y.cos().exp()
        return y

    x = torch.randn(4, requires_grad=True)
    checkpoint(block, x, use_reentrant=False).sum().backward()


def case_num21_checkpoint_reentrant_grad() -> None:
    """Reentrant activation checkpointing under torch.autograd.grad."""
    import torch
    from torch.utils.checkpoint import checkpoint

    lin = torch.nn.Linear(4, 4)
    x = torch.randn(2, 4, requires_grad=True)
    out = checkpoint(lin, x, use_reentrant=True).sum()
    print(torch.autograd.grad(out, x))


def case_num21_onecycle_past_total() -> None:
    """OneCycleLR stepped past its total_steps (a resumed run that trains longer)."""
    import torch

    m = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=10)
    for _ in range(12):
        opt.step()
        sched.step()


def case_num21_scheduler_resume_no_initial_lr() -> None:
    """A cosine schedule built with last_epoch set (resume) over a fresh optimizer."""
    import torch

    m = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=1000, last_epoch=299)


def case_num21_optimizer_groups_count() -> None:
    """An optimizer state with two param groups (decay / no decay) into one with one."""
    import torch

    m = torch.nn.Linear(4, 4)
    saved = torch.optim.AdamW([{"params": [m.weight]},
                               {"params": [m.bias], "weight_decay": 0.0}]).state_dict()
    torch.optim.AdamW(m.parameters()).load_state_dict(saved)


def case_num21_optimizer_empty_params() -> None:
    """An optimizer over the trainable parameters of a model that froze all of them."""
    import torch

    m = torch.nn.Linear(4, 4).requires_grad_(False)
    torch.optim.AdamW([p for p in m.parameters() if p.requires_grad], lr=1e-5)


def case_num21_dist_value_outside_support() -> None:
    """Categorical log_prob of an action id past the policy's action space."""
    import torch
    from torch.distributions import Categorical

    pi = Categorical(logits=torch.randn(4, 3))
    print(pi.log_prob(torch.tensor([0, 1, 2, 5])))


def case_num21_dist_normal_nan_loc() -> None:
    """A Gaussian policy whose mean went NaN."""
    import torch
    from torch.distributions import Normal

    mean = torch.tensor([0.1, float("nan"), -0.3, 0.2])
    print(Normal(mean, torch.ones(4)).sample())


def case_num21_gradscaler_step_twice() -> None:
    """GradScaler.step called twice before update() (a duplicated step in a loop)."""
    import torch

    m = torch.nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    scaler.scale(m(torch.randn(2, 4, device="cuda")).sum()).backward()
    scaler.step(opt)
    scaler.step(opt)


def case_num21_gradscaler_load_empty_state() -> None:
    """An fp16 run resuming a GradScaler from a bf16 run's checkpoint (an empty scaler state)."""
    import torch

    torch.amp.GradScaler("cuda").load_state_dict({})


def case_num21_fsdp2_resume_plain_optim() -> None:
    """FSDP2 (one rank, NCCL): an optimizer state saved before sharding loaded, then a step."""
    import copy

    import torch
    import torch.distributed as dist
    from torch.distributed.fsdp import fully_shard

    dist_env(1, 0, free_port())
    dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    plain = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)).cuda()
    model = copy.deepcopy(plain)
    x = torch.randn(2, 8, device="cuda")
    opt0 = torch.optim.AdamW(plain.parameters())
    plain(x).sum().backward()
    opt0.step()
    saved = opt0.state_dict()
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    opt = torch.optim.AdamW(model.parameters())
    opt.load_state_dict(saved)
    model(x).sum().backward()
    opt.step()
    dist.destroy_process_group()


def case_num21_device_mesh_names_len() -> None:
    """init_device_mesh with more dim names than mesh dimensions (gloo, one rank)."""
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh

    dist_env(1, 0, free_port())
    dist.init_process_group("gloo")
    init_device_mesh("cpu", (1,), mesh_dim_names=("dp", "tp"))


# benign look-alikes of the same layers

def case_benign21_scheduler_epoch_arg() -> None:
    """scheduler.step(epoch) (the deprecated argument); the schedule goes on."""
    import torch

    m = torch.nn.Linear(4, 4)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
    opt.step()
    sched.step(1)
    print(sched.get_last_lr())


def case_benign21_asyncio_slow_step() -> None:
    """asyncio debug mode reporting a coroutine that blocked the loop for 0.3 s."""
    import asyncio

    async def main() -> None:
        time.sleep(0.3)

    asyncio.run(main(), debug=True)
    print("done")


def case_benign21_task_destroyed_pending() -> None:
    """A heartbeat task left pending when the loop is closed (teardown)."""
    import asyncio
    import gc

    async def heartbeat() -> None:
        while True:
            await asyncio.sleep(1)

    loop = asyncio.new_event_loop()
    task = loop.create_task(heartbeat())
    loop.run_until_complete(asyncio.sleep(0.05))
    loop.close()
    del task
    gc.collect()
    print("done")


def case_benign21_hydra_oom_retry() -> None:
    """A trainer logs a CUDA OOM in Hydra's format and retries with a smaller batch (works)."""
    import logging

    import torch

    logging.basicConfig(format=_HYDRA_FMT21, level=logging.INFO)
    log = logging.getLogger("irisrl.trainer")
    for mb, nbytes in ((64, 1 << 40), (32, 1 << 20)):
        try:
            x = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
            break
        except torch.OutOfMemoryError as e:
            log.warning(f"micro_batch_size={mb} does not fit, retrying with {mb // 2}: {e}")
    print(x.numel())


class _ShardWriter21:
    def __init__(self, path: Path) -> None:
        self.f = open(path, "wb")

    def __del__(self) -> None:
        self.f.write(b"\n")  # the file was closed by close() already


def case_benign21_unraisable_del() -> None:
    """A writer whose __del__ writes to its file after close(): Python reports and goes on."""
    w = _ShardWriter21(Path(tempfile.mkdtemp(prefix="shards")) / "index.jsonl")
    w.f.close()
    del w
    print("done")


CASES21: dict[str, Case] = {
    "dl21_worker_cuda_oom": (case_dl21_worker_cuda_oom, "cuda_oom", True),
    "dl21_worker_device_assert": (case_dl21_worker_device_assert, "cuda_error", True),
    "dl21_worker_safetensors_cut": (case_dl21_worker_safetensors_cut, "checkpoint_corrupt", False),
    "dl21_worker_torch_load_garbage": (case_dl21_worker_torch_load_garbage, "checkpoint_corrupt",
                                       False),
    "dl21_worker_hub_gated": (case_dl21_worker_hub_gated, "hf_gated", False),
    "dl21_worker_import_error": (case_dl21_worker_import_error, "python_crash", False),
    "dl21_worker_attribute_none": (case_dl21_worker_attribute_none, "python_crash", False),
    "pool21_process_initializer_import": (case_pool21_process_initializer_import, "python_crash",
                                          False),
    "pool21_thread_initializer_gated": (case_pool21_thread_initializer_gated, "hf_gated", False),
    "aio21_task_never_retrieved_oom": (case_aio21_task_never_retrieved_oom, "cuda_oom", True),
    "aio21_task_never_retrieved_st_header": (case_aio21_task_never_retrieved_st_header,
                                             "checkpoint_corrupt", False),
    "aio21_taskgroup_hub_gated": (case_aio21_taskgroup_hub_gated, "hf_gated", False),
    "aio21_taskgroup_hub_500": (case_aio21_taskgroup_hub_500, "hf_http_error", False),
    "aio21_taskgroup_st_save_enospc": (case_aio21_taskgroup_st_save_enospc, "disk_full", False),
    "aio21_callback_type_error": (case_aio21_callback_type_error, "python_crash", False),
    "thr21_checkpoint_thread_enospc": (case_thr21_checkpoint_thread_enospc, "disk_full", False),
    "log21_hydra_oom": (case_log21_hydra_oom, "cuda_oom", True),
    "log21_json_gated": (case_log21_json_gated, "hf_gated", False),
    "log21_json_device_assert": (case_log21_json_device_assert, "cuda_error", True),
    "log21_stdlib_enospc": (case_log21_stdlib_enospc, "disk_full", False),
    "log21_default_format_st_small": (case_log21_default_format_st_small, "checkpoint_corrupt",
                                      False),
    "log21_rich_traceback_oom": (case_log21_rich_traceback_oom, "cuda_oom", True),
    "log21_rich_traceback_st_json": (case_log21_rich_traceback_st_json, "checkpoint_corrupt",
                                     False),
    "log21_richhandler_weights_missing": (case_log21_richhandler_weights_missing,
                                          "hf_weights_missing", False),
    "log21_loguru_hub_500": (case_log21_loguru_hub_500, "hf_http_error", False),
    "log21_structlog_oom": (case_log21_structlog_oom, "cuda_oom", True),
    "num21_anomaly_log_softmax": (case_num21_anomaly_log_softmax, "python_crash", False),
    "num21_anomaly_custom_function": (case_num21_anomaly_custom_function, "python_crash", False),
    "num21_custom_fn_grad_count": (case_num21_custom_fn_grad_count, "python_crash", False),
    "num21_custom_fn_grad_shape": (case_num21_custom_fn_grad_shape, "python_crash", False),
    "num21_hook_changes_size": (case_num21_hook_changes_size, "python_crash", False),
    "num21_backward_nonscalar": (case_num21_backward_nonscalar, "python_crash", False),
    "num21_inplace_leaf": (case_num21_inplace_leaf, "python_crash", False),
    "num21_checkpoint_recompute_count": (case_num21_checkpoint_recompute_count, "python_crash",
                                         False),
    "num21_checkpoint_reentrant_grad": (case_num21_checkpoint_reentrant_grad, "python_crash",
                                        False),
    "num21_onecycle_past_total": (case_num21_onecycle_past_total, "python_crash", False),
    "num21_scheduler_resume_no_initial_lr": (case_num21_scheduler_resume_no_initial_lr,
                                             "python_crash", False),
    "num21_optimizer_groups_count": (case_num21_optimizer_groups_count, "python_crash", False),
    "num21_optimizer_empty_params": (case_num21_optimizer_empty_params, "python_crash", False),
    "num21_dist_value_outside_support": (case_num21_dist_value_outside_support, "python_crash",
                                         False),
    "num21_dist_normal_nan_loc": (case_num21_dist_normal_nan_loc, "python_crash", False),
    "num21_gradscaler_step_twice": (case_num21_gradscaler_step_twice, "python_crash", True),
    "num21_gradscaler_load_empty_state": (case_num21_gradscaler_load_empty_state, "python_crash",
                                          True),
    "num21_fsdp2_resume_plain_optim": (case_num21_fsdp2_resume_plain_optim, "python_crash", True),
    "num21_device_mesh_names_len": (case_num21_device_mesh_names_len, "python_crash", False),
    "benign21_scheduler_epoch_arg": (case_benign21_scheduler_epoch_arg, "benign", False),
    "benign21_asyncio_slow_step": (case_benign21_asyncio_slow_step, "benign", False),
    "benign21_task_destroyed_pending": (case_benign21_task_destroyed_pending, "benign", False),
    "benign21_hydra_oom_retry": (case_benign21_hydra_oom_retry, "benign", True),
    "benign21_unraisable_del": (case_benign21_unraisable_del, "benign", False),
}
CASES.update(CASES21)
# GPU cases of this set that neither fault nor allocate past the GPU run in the worker pool (as
# set 20's GPU_SHARED20); the OOM and device-assert cases run one at a time.
GPU_SHARED21 = frozenset({"num21_gradscaler_step_twice", "num21_gradscaler_load_empty_state",
                          "num21_fsdp2_resume_plain_optim"})
TIMEOUT_S.update({n: 90 for n in CASES21 if n.startswith(("dl21_", "pool21_", "aio21_", "log21_"))})


# ----------------------------------------------------------------------------- Ray (set 22)
# Real Ray failures on a CPU machine: local clusters that end with the case's process (ray.init
# or ray.cluster_utils.Cluster, whose processes share the driver's fate), small object stores.

_RAY_TMP22 = "/tmp/c22r"  # short: Ray's socket paths must fit in 107 bytes


def _ray22(**kw: Any) -> Any:
    """ray.init of a one-CPU local cluster with an 80 MB object store."""
    import ray

    kw.setdefault("num_cpus", 1)
    kw.setdefault("object_store_memory", 80 * 2**20)
    kw.setdefault("include_dashboard", False)
    ray.init(_temp_dir=_RAY_TMP22, **kw)
    return ray


def case_ray22_actor_init_raises() -> None:
    """A policy actor whose constructor raises (weights folder without config.json)."""
    ray = _ray22()

    @ray.remote
    class PolicyWorker:
        def __init__(self, path: str) -> None:
            if not os.path.exists(os.path.join(path, "config.json")):
                raise ValueError(f"{path} has no config.json")

        def ping(self) -> int:
            return 1

    w = PolicyWorker.remote("/ckpt/global_step_300/policy")
    ray.get(w.ping.remote())


def case_ray22_actor_init_enospc() -> None:
    """A rollout actor whose constructor writes its cache onto a full 256 KiB tmpfs."""
    mnt = _full_fs()
    ray = _ray22()

    @ray.remote
    class RolloutCache:
        def __init__(self, d: str) -> None:
            with open(os.path.join(d, "prompts.bin"), "wb") as f:
                f.write(b"\1" * (1 << 20))

        def ping(self) -> int:
            return 1

    a = RolloutCache.remote(str(mnt))
    ray.get(a.ping.remote())


def case_ray22_actor_ray_kill() -> None:
    """A trainer actor ray.kill()ed (a controller's cleanup) and then called."""
    ray = _ray22()

    @ray.remote
    class FSDPTrainer:
        def step(self) -> int:
            return 1

    t = FSDPTrainer.remote()
    ray.get(t.step.remote())
    ray.kill(t)
    time.sleep(1)
    ray.get(t.step.remote())


def case_ray22_actor_os_exit() -> None:
    """An inference-engine actor whose process calls os._exit(1) mid-call."""
    ray = _ray22()

    @ray.remote
    class InferenceEngine:
        def generate(self) -> str:
            os._exit(1)

    e = InferenceEngine.remote()
    ray.get(e.generate.remote())


def case_ray22_actor_sigkill() -> None:
    """A reward-model actor's worker process SIGKILLed from outside (the kernel's OOM killer's
    signal), then called."""
    import signal

    ray = _ray22()

    @ray.remote
    class RewardModel:
        def pid(self) -> int:
            return os.getpid()

        def score(self) -> float:
            return 0.5

    rm = RewardModel.remote()
    os.kill(ray.get(rm.pid.remote()), signal.SIGKILL)
    time.sleep(1)
    ray.get(rm.score.remote())


def case_ray22_actor_segfault() -> None:
    """A generation actor whose native code reads address 0 (segfault in the worker)."""
    ray = _ray22()

    @ray.remote
    class Generator:
        def generate(self) -> bytes:
            import ctypes

            return ctypes.string_at(0)

    g = Generator.remote()
    ray.get(g.generate.remote())


def case_ray22_actor_exit_actor() -> None:
    """An actor that ends itself with ray.actor.exit_actor(); the driver calls it again."""
    ray = _ray22()

    @ray.remote
    class EnvWorker:
        def close(self) -> None:
            ray.actor.exit_actor()

        def step(self) -> int:
            return 1

    w = EnvWorker.remote()
    ray.get(w.close.remote())
    ray.get(w.step.remote())


def case_ray22_actor_method_raises() -> None:
    """A critic actor's train step raises (a shape bug): RayTaskError in the driver."""
    ray = _ray22()

    @ray.remote
    class Critic:
        def train_step(self, batch: list[int]) -> float:
            if len(batch) % 4:
                raise RuntimeError(f"micro batch {len(batch)} not divisible by 4 ranks")
            return 0.0

    c = Critic.remote()
    ray.get(c.train_step.remote([1, 2, 3]))


def case_ray22_actor_call_after_restarts() -> None:
    """An actor with max_restarts=1 whose process dies twice: the second death is final."""
    ray = _ray22()

    @ray.remote(max_restarts=1)
    class Sampler:
        def crash(self) -> None:
            os._exit(1)

        def sample(self) -> int:
            return 1

    s = Sampler.remote()
    for _ in range(2):
        try:
            ray.get(s.crash.remote())
        except ray.exceptions.RayActorError:
            time.sleep(2)
    ray.get(s.sample.remote())


def case_ray22_task_os_exit() -> None:
    """A rollout task whose process calls os._exit(1) (no retries)."""
    ray = _ray22()

    @ray.remote(max_retries=0)
    def rollout() -> int:
        os._exit(1)

    ray.get(rollout.remote())


def case_ray22_task_segfault() -> None:
    """A reward task whose native code segfaults (ctypes.string_at(0)), no retries."""
    ray = _ray22()

    @ray.remote(max_retries=0)
    def reward() -> bytes:
        import ctypes

        return ctypes.string_at(0)

    ray.get(reward.remote())


def case_ray22_task_sigkill_self() -> None:
    """A task SIGKILLed mid-run (its own pid), no retries."""
    import signal

    ray = _ray22()

    @ray.remote(max_retries=0)
    def tokenize_shard() -> int:
        os.kill(os.getpid(), signal.SIGKILL)
        return 0

    ray.get(tokenize_shard.remote())


def case_ray22_task_abort() -> None:
    """A task whose native library aborts (os.abort()), retried once, then given up."""
    ray = _ray22()

    @ray.remote(max_retries=1)
    def verify() -> int:
        os.abort()

    ray.get(verify.remote())


def case_ray22_task_value_error() -> None:
    """A reward task raises ValueError on a malformed sample: RayTaskError(ValueError)."""
    ray = _ray22()

    @ray.remote
    def compute_reward(sample: dict[str, str]) -> float:
        return float(sample["answer"])

    ray.get(compute_reward.remote({"answer": "forty-two"}))


def case_ray22_task_enospc() -> None:
    """A checkpoint-upload task writes onto a full 256 KiB tmpfs: RayTaskError(OSError)."""
    mnt = _full_fs()
    ray = _ray22()

    @ray.remote
    def save_shard(d: str) -> None:
        with open(os.path.join(d, "model-00001-of-00002.safetensors"), "wb") as f:
            f.write(b"\1" * (1 << 20))

    ray.get(save_shard.remote(str(mnt)))


class RewardServiceError(Exception):
    """An application's own error class that needs two arguments."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"reward service answered {status}: {detail}")
        self.status = status


def case_ray22_task_custom_exception() -> None:
    """A task raising an exception class of the application (two required arguments)."""
    ray = _ray22()

    @ray.remote
    def judge(prompt: str) -> float:
        raise RewardServiceError(503, "judge model overloaded")

    ray.get(judge.remote("2+2"))


def case_ray22_task_unpicklable_return() -> None:
    """A task returning an object with a lock in it (not serializable)."""
    ray = _ray22()

    @ray.remote
    def make_buffer() -> Any:
        return {"lock": threading.Lock(), "data": [1, 2]}

    ray.get(make_buffer.remote())


def case_ray22_task_unpicklable_arg() -> None:
    """A task submitted with an argument holding a lock: the driver cannot serialize it."""
    ray = _ray22()

    @ray.remote
    def consume(buf: Any) -> int:
        return len(buf)

    ray.get(consume.remote({"lock": threading.Lock()}))


def case_ray22_get_timeout() -> None:
    """ray.get(timeout=3) of a generation task that hangs."""
    ray = _ray22()

    @ray.remote
    def generate() -> None:
        time.sleep(60)

    ray.get(generate.remote(), timeout=3)


def case_ray22_pg_infeasible_gpu_ready_timeout() -> None:
    """A placement group of GPU bundles on a CPU-only node: ray.get(pg.ready(), timeout=15)."""
    ray = _ray22()
    from ray.util.placement_group import placement_group

    pg = placement_group([{"GPU": 1, "CPU": 1}] * 2, strategy="PACK")
    ray.get(pg.ready(), timeout=15)


def case_ray22_pg_cpu_oversubscribed() -> None:
    """A placement group asking for more CPUs than the cluster has (4 on 1)."""
    ray = _ray22()
    from ray.util.placement_group import placement_group

    pg = placement_group([{"CPU": 4}], strategy="STRICT_PACK")
    ray.get(pg.ready(), timeout=15)


def case_ray22_task_infeasible_gpu() -> None:
    """A task asking num_gpus=1 on a CPU-only cluster (the infeasible warning), get(timeout=15)."""
    ray = _ray22()

    @ray.remote(num_gpus=1)
    def train_step() -> int:
        return 1

    ray.get(train_step.remote(), timeout=15)


def case_ray22_actor_infeasible_custom_resource() -> None:
    """An actor asking for a custom resource no node has ({"vllm_engine": 1})."""
    ray = _ray22()

    @ray.remote(resources={"vllm_engine": 1})
    class Engine:
        def ping(self) -> int:
            return 1

    e = Engine.remote()
    ray.get(e.ping.remote(), timeout=15)


def case_ray22_init_address_auto() -> None:
    """ray.init(address='auto') where no cluster runs (the job was meant for a cluster); a fresh
    RAY_TMPDIR, so no ray_current_cluster file of an earlier (dead) local cluster is read."""
    os.environ["RAY_TMPDIR"] = tempfile.mkdtemp(prefix="raytmp")
    _no_gcs_env22()
    import ray

    ray.init(address="auto")


def _no_gcs_env22() -> None:
    """One connect attempt (RAY_gcs_server_port_wait_time_s=1) of 5 s, so the case ends."""
    os.environ.update(RAY_gcs_server_port_wait_time_s="1", RAY_gcs_rpc_server_connect_timeout_s="5",
                      RAY_gcs_server_request_timeout_seconds="10")


def case_ray22_init_address_no_gcs() -> None:
    """ray.init(address=127.0.0.1:PORT) where nothing listens (RAY_ADDRESS of a dead head)."""
    _no_gcs_env22()
    import ray

    ray.init(address=f"127.0.0.1:{free_port()}")


def case_ray22_init_client_no_server() -> None:
    """ray.init('ray://127.0.0.1:PORT') (Ray Client) where no server listens."""
    import ray

    ray.init(f"ray://127.0.0.1:{free_port()}")


def case_ray22_init_env_address_no_gcs() -> None:
    """RAY_ADDRESS set to a head that is gone; a plain ray.init()."""
    os.environ["RAY_ADDRESS"] = f"127.0.0.1:{free_port()}"
    _no_gcs_env22()
    import ray

    ray.init()


def _cluster22(worker_resources: dict[str, float] | None = None, **env: str) -> tuple[Any, Any]:
    """A head (1 CPU) and one worker node (1 CPU, custom resources) on this host."""
    os.environ.update(env)
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": 80 * 2**20, "include_dashboard": False,
        "temp_dir": _RAY_TMP22})
    node = cluster.add_node(num_cpus=1, object_store_memory=80 * 2**20,
                            resources=worker_resources or {"rollout_node": 1})
    ray.init(address=cluster.address)
    cluster.wait_for_nodes()
    return cluster, node


def _kill_pid22(node: Any, kind: str) -> None:
    import signal

    for p in node.all_processes[kind]:
        os.kill(p.process.pid, signal.SIGKILL)


def case_ray22_node_raylet_killed_actor() -> None:
    """A worker node's raylet SIGKILLed under an actor placed there; the driver calls it."""
    cluster, node = _cluster22(RAY_health_check_period_ms="500", RAY_health_check_timeout_ms="500",
                               RAY_health_check_failure_threshold="3")
    import ray

    @ray.remote(resources={"rollout_node": 1})
    class RolloutWorker:
        def step(self) -> int:
            time.sleep(0.5)
            return 1

    w = RolloutWorker.remote()
    ray.get(w.step.remote())
    _kill_pid22(node, "raylet")
    time.sleep(6)
    ray.get(w.step.remote())


def case_ray22_node_raylet_killed_task() -> None:
    """A worker node's raylet SIGKILLed while a task (no retries) runs there."""
    cluster, node = _cluster22(RAY_health_check_period_ms="500", RAY_health_check_timeout_ms="500",
                               RAY_health_check_failure_threshold="3")
    import ray

    @ray.remote(resources={"rollout_node": 1}, max_retries=0)
    def rollout() -> int:
        time.sleep(30)
        return 1

    ref = rollout.remote()
    time.sleep(3)
    _kill_pid22(node, "raylet")
    ray.get(ref)


def case_ray22_object_lost_node() -> None:
    """An object stored on a worker node that dies: ray.get of it afterwards."""
    cluster, node = _cluster22(RAY_health_check_period_ms="500", RAY_health_check_timeout_ms="500",
                               RAY_health_check_failure_threshold="3")
    import ray

    @ray.remote(resources={"rollout_node": 1}, max_retries=0)
    def make_batch() -> bytes:
        return b"\1" * (2 << 20)  # in the node's object store, not inlined

    ref = make_batch.remote()
    ray.wait([ref], fetch_local=False)
    _kill_pid22(node, "raylet")
    time.sleep(6)
    ray.get(ref, timeout=20)


def case_ray22_gcs_killed() -> None:
    """The head's GCS SIGKILLed under a driver (GCS reconnect timeout 8 s); the driver submits."""
    cluster, node = _cluster22(RAY_gcs_rpc_server_reconnect_timeout_s="8")
    import ray

    @ray.remote
    def step() -> int:
        return 1

    ray.get(step.remote())
    _kill_pid22(cluster.head_node, "gcs_server")
    for _ in range(30):
        ray.get(step.remote(), timeout=10)
        time.sleep(1)


def case_ray22_owner_died() -> None:
    """An object owned by an actor that dies: ray.get of the ref it handed out."""
    ray = _ray22()

    @ray.remote
    class Buffer:
        def put(self) -> list[Any]:
            return [ray.put(b"\1" * (2 << 20))]

        def die(self) -> None:
            os._exit(1)

    b = Buffer.remote()
    [ref] = ray.get(b.put.remote())
    try:
        ray.get(b.die.remote())
    except ray.exceptions.RayActorError:
        pass
    time.sleep(3)
    ray.get(ref, timeout=20)


def case_ray22_spill_dir_full() -> None:
    """ray.put past the object store with spilling onto a full 256 KiB tmpfs."""
    mnt = _full_fs()
    ray = _ray22(_system_config={"object_spilling_config": json.dumps(
        {"type": "filesystem", "params": {"directory_path": str(mnt)}})})
    held = [ray.put(b"\1" * (30 << 20)) for _ in range(6)]
    print(len(held))


def case_ray22_oom_kill_task() -> None:
    """The memory monitor killing a task that grows (threshold: used now + 1.5 GiB), no retries."""
    _oom_env22()
    ray = _ray22()

    @ray.remote(max_retries=0)
    def build_replay_buffer() -> int:
        held = []
        for _ in range(60):
            held.append(b"\1" * (200 << 20))
            time.sleep(0.2)
        return len(held)

    ray.get(build_replay_buffer.remote())


def case_ray22_oom_kill_actor() -> None:
    """The memory monitor killing an actor whose method grows."""
    _oom_env22()
    ray = _ray22()

    @ray.remote
    class ReplayBuffer:
        def fill(self) -> int:
            held = []
            for _ in range(60):
                held.append(b"\1" * (200 << 20))
                time.sleep(0.2)
            return len(held)

    r = ReplayBuffer.remote()
    ray.get(r.fill.remote())


def _oom_env22() -> None:
    """RAY_memory_usage_threshold set to the node's used fraction now plus 1.5 GiB."""
    info = {}
    for line in Path("/proc/meminfo").read_text().splitlines():
        k, v = line.split(":")
        info[k] = int(v.split()[0]) * 1024
    total, avail = info["MemTotal"], info["MemAvailable"]
    frac = min(0.9, (total - avail + (3 << 29)) / total)
    os.environ["RAY_memory_usage_threshold"] = f"{frac:.3f}"
    os.environ["RAY_memory_monitor_refresh_ms"] = "100"
    print(f"PROVOKE-NOTE memory threshold {frac:.3f} of {total >> 20} MiB", flush=True)


def case_ray22_runtime_env_working_dir_missing() -> None:
    """ray.init with a runtime_env working_dir that does not exist."""
    _ray22(runtime_env={"working_dir": "/nonexistent/skyrl_project"})


def case_ray22_runtime_env_conda_missing() -> None:
    """An actor whose runtime_env names a conda env on a node without conda."""
    ray = _ray22()

    @ray.remote(runtime_env={"conda": "skyrl-vllm"})
    class Engine:
        def ping(self) -> int:
            return 1

    e = Engine.remote()
    ray.get(e.ping.remote(), timeout=50)


# benign look-alikes Ray prints in runs that go on

def case_benign22_task_retry_succeeds() -> None:
    """A task whose first attempt's worker dies (os._exit); the retry succeeds."""
    ray = _ray22()
    marker = Path(tempfile.mkdtemp(prefix="retry")) / "first"

    @ray.remote(max_retries=2)
    def rollout(m: str) -> int:
        if not os.path.exists(m):
            open(m, "w").close()
            os._exit(1)
        return 7

    print("result", ray.get(rollout.remote(str(marker))))


def case_benign22_actor_restarted() -> None:
    """An actor (max_restarts=1, max_task_retries=1) whose process dies once; the call is
    retried on the restarted actor and succeeds."""
    ray = _ray22()
    marker = Path(tempfile.mkdtemp(prefix="restart")) / "first"

    @ray.remote(max_restarts=1, max_task_retries=1)
    class Engine:
        def generate(self, m: str) -> str:
            if not os.path.exists(m):
                open(m, "w").close()
                os._exit(1)
            return "ok"

    e = Engine.remote()
    print("result", ray.get(e.generate.remote(str(marker))))


def case_benign22_spilling() -> None:
    """Objects spilled to disk past an 80 MB store (spilling works); all read back."""
    ray = _ray22()
    held = [ray.put(b"\1" * (30 << 20)) for _ in range(5)]
    print("sizes", [len(ray.get(r)) for r in held])


def case_benign22_worker_warning_logged() -> None:
    """A task that logs a warning (and prints to stderr) through Ray's log forwarding."""
    ray = _ray22()

    @ray.remote
    def rollout() -> int:
        import logging
        import warnings

        warnings.warn("prompt truncated to max_prompt_length=512", UserWarning)
        logging.getLogger("rollout").warning("slow env step: 12.3 s")
        return 1

    print("result", ray.get(rollout.remote()))


def case_benign22_get_timeout_retried() -> None:
    """ray.get(timeout=1) expires on a slow task; the driver catches it, waits again, goes on."""
    ray = _ray22()

    @ray.remote
    def slow() -> int:
        time.sleep(3)
        return 1

    ref = slow.remote()
    try:
        ray.get(ref, timeout=1)
    except ray.exceptions.GetTimeoutError as e:
        print(f"WARNING generation still running, waiting again: {type(e).__name__}: {e}")
    print("result", ray.get(ref))


CASES22: dict[str, Case] = {
    "ray22_actor_init_raises": (case_ray22_actor_init_raises, "ray_actor_died", False),
    "ray22_actor_init_enospc": (case_ray22_actor_init_enospc, "ray_actor_died", False),
    "ray22_actor_ray_kill": (case_ray22_actor_ray_kill, "ray_actor_died", False),
    "ray22_actor_os_exit": (case_ray22_actor_os_exit, "ray_actor_died", False),
    "ray22_actor_sigkill": (case_ray22_actor_sigkill, "ray_actor_died", False),
    "ray22_actor_segfault": (case_ray22_actor_segfault, "ray_actor_died", False),
    "ray22_actor_exit_actor": (case_ray22_actor_exit_actor, "ray_actor_died", False),
    "ray22_actor_method_raises": (case_ray22_actor_method_raises, "python_crash", False),
    "ray22_actor_call_after_restarts": (case_ray22_actor_call_after_restarts, "ray_actor_died",
                                        False),
    "ray22_task_os_exit": (case_ray22_task_os_exit, "ray_worker_died", False),
    "ray22_task_segfault": (case_ray22_task_segfault, "ray_worker_died", False),
    "ray22_task_sigkill_self": (case_ray22_task_sigkill_self, "ray_worker_died", False),
    "ray22_task_abort": (case_ray22_task_abort, "ray_worker_died", False),
    "ray22_task_value_error": (case_ray22_task_value_error, "python_crash", False),
    "ray22_task_enospc": (case_ray22_task_enospc, "disk_full", False),
    "ray22_task_custom_exception": (case_ray22_task_custom_exception, "python_crash", False),
    "ray22_task_unpicklable_return": (case_ray22_task_unpicklable_return, "python_crash", False),
    "ray22_task_unpicklable_arg": (case_ray22_task_unpicklable_arg, "python_crash", False),
    "ray22_get_timeout": (case_ray22_get_timeout, "python_crash", False),
    "ray22_pg_infeasible_gpu_ready_timeout": (case_ray22_pg_infeasible_gpu_ready_timeout,
                                              "pg_unplaceable", False),
    "ray22_pg_cpu_oversubscribed": (case_ray22_pg_cpu_oversubscribed, "pg_unplaceable", False),
    "ray22_task_infeasible_gpu": (case_ray22_task_infeasible_gpu, "pg_unplaceable", False),
    "ray22_actor_infeasible_custom_resource": (case_ray22_actor_infeasible_custom_resource,
                                               "pg_unplaceable", False),
    "ray22_init_address_auto": (case_ray22_init_address_auto, "ray_local_instance", False),
    "ray22_init_address_no_gcs": (case_ray22_init_address_no_gcs, "ray_local_instance", False),
    "ray22_init_client_no_server": (case_ray22_init_client_no_server, "ray_local_instance", False),
    "ray22_init_env_address_no_gcs": (case_ray22_init_env_address_no_gcs, "ray_local_instance",
                                      False),
    "ray22_node_raylet_killed_actor": (case_ray22_node_raylet_killed_actor, "ray_node_dead",
                                       False),
    "ray22_node_raylet_killed_task": (case_ray22_node_raylet_killed_task, "ray_node_dead", False),
    "ray22_object_lost_node": (case_ray22_object_lost_node, "ray_node_dead", False),
    "ray22_gcs_killed": (case_ray22_gcs_killed, "ray_node_dead", False),
    "ray22_owner_died": (case_ray22_owner_died, "ray_worker_died", False),
    "ray22_spill_dir_full": (case_ray22_spill_dir_full, "disk_full", False),
    "ray22_oom_kill_task": (case_ray22_oom_kill_task, "ray_oom_kill", False),
    "ray22_oom_kill_actor": (case_ray22_oom_kill_actor, "ray_oom_kill", False),
    "ray22_runtime_env_working_dir_missing": (case_ray22_runtime_env_working_dir_missing,
                                              "python_crash", False),
    "ray22_runtime_env_conda_missing": (case_ray22_runtime_env_conda_missing, "python_crash",
                                        False),
    "benign22_task_retry_succeeds": (case_benign22_task_retry_succeeds, "benign", False),
    "benign22_actor_restarted": (case_benign22_actor_restarted, "benign", False),
    "benign22_spilling": (case_benign22_spilling, "benign", False),
    "benign22_worker_warning_logged": (case_benign22_worker_warning_logged, "benign", False),
    "benign22_get_timeout_retried": (case_benign22_get_timeout_retried, "benign", False),
}
CASES.update(CASES22)
TIMEOUT_S.update({n: 90 for n in CASES22})


# ----------------------------------------------------------------------------- torch.distributed on CPU (set 23)
# Real torch 2.11 torch.distributed failures with the gloo backend on a CPU machine: forked ranks
# (world 2-4), torchrun (`python -m torch.distributed.run`) running a small GRPO-style trainer
# script, torch.multiprocessing.spawn, DCP on CPU.

_TRAIN23 = r'''
import os, sys, time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record


@record
def main() -> None:
    mode = sys.argv[1]
    if mode == "argparse":
        import argparse

        ap = argparse.ArgumentParser(prog="grpo_train.py")
        ap.add_argument("--lr", type=float, default=1e-6)
        ap.parse_args(sys.argv[2:])
    dist.init_process_group("gloo", timeout=timedelta(seconds=int(os.environ.get("PG_TIMEOUT_S", "20"))))
    rank = dist.get_rank()
    x = torch.ones(1024)
    dist.all_reduce(x)
    print(f"rank {rank} step 1 done", flush=True)
    if mode == "restart_once" and rank == 1:
        marker = sys.argv[2]
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
    if rank == 1:
        time.sleep(0.5)
        if mode == "raise":
            raise RuntimeError("advantage normalisation got std=0 for group 3 (all 8 rewards equal)")
        if mode == "exit":
            os._exit(1)
        if mode == "sigkill":
            os.kill(os.getpid(), 9)
        if mode == "segv":
            import ctypes

            ctypes.string_at(0)
    if mode == "enospc" and rank == 0:
        torch.save({"policy": torch.zeros(1 << 20)}, os.path.join(sys.argv[2], "global_step_300.pt"))
    dist.all_reduce(x)
    dist.destroy_process_group()
    print(f"rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
'''


def _torchrun23(launcher: list[str], mode: str, *args: str, **extra: str) -> None:
    """torchrun (`python -m torch.distributed.run`) of a small trainer script written to a temp dir."""
    d = Path(tempfile.mkdtemp(prefix="grpo23"))
    script = d / "grpo_train.py"
    script.write_text(_TRAIN23)
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"), **extra)
    if "OMP_NUM_THREADS" not in os.environ and mode == "ok_omp":
        env.pop("OMP_NUM_THREADS")
    sys.exit(subprocess.call([sys.executable, "-m", "torch.distributed.run", *launcher,
                              str(script), mode.removesuffix("_omp"), *args], env=env))


def _standalone23(n: int = 2) -> list[str]:
    return ["--standalone", f"--nproc-per-node={n}"]


def case_td23_torchrun_raises_record() -> None:
    """A worker (under @record) raises after step 1; rank 0 waits in its next all_reduce."""
    _torchrun23(_standalone23(), "raise")


def case_td23_torchrun_os_exit() -> None:
    """A worker calls os._exit(1) after step 1 (no traceback: a native library's exit)."""
    _torchrun23(_standalone23(), "exit")


def case_td23_torchrun_sigkill() -> None:
    """A worker SIGKILLs itself after step 1 (the OOM killer's signal, as the launcher sees it)."""
    _torchrun23(_standalone23(), "sigkill")


def case_td23_torchrun_segfault() -> None:
    """A worker reads address 0 (ctypes.string_at(0)) after step 1."""
    _torchrun23(_standalone23(), "segv")


def case_td23_torchrun_max_restarts_exhausted() -> None:
    """--max-restarts=1 and a worker that always raises: one restart, then the group fails
    (process-group timeout 8 s)."""
    _torchrun23(["--standalone", "--nproc-per-node=2", "--max-restarts=1",
                 "--monitor-interval=0.5"], "raise", PG_TIMEOUT_S="8")


def case_td23_torchrun_ckpt_enospc() -> None:
    """rank 0's torch.save of the policy onto a full 256 KiB tmpfs, under torchrun."""
    mnt = _full_fs()
    _torchrun23(_standalone23(), "enospc", str(mnt))


def case_td23_torchrun_argparse_exit2() -> None:
    """Each worker's argparse rejects an argument the launcher passed (exit code 2)."""
    _torchrun23(_standalone23(), "argparse", "--lr-warmup-steps=10")


def case_td23_torchrun_c10d_second_node_missing() -> None:
    """A two-node c10d rendezvous (min 2 nodes) where only this node comes (join_timeout=8)."""
    port = free_port()
    _torchrun23(["--nnodes=2", "--nproc-per-node=2", "--rdzv-backend=c10d",
                 f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=grpo-qwen-7b",
                 "--rdzv-conf=join_timeout=8"], "ok")


def case_td23_torchrun_static_no_master() -> None:
    """Node 1 of a static two-node launch whose master (node 0) never starts (timeout 8 s)."""
    _torchrun23(["--nnodes=2", "--nproc-per-node=1", "--node-rank=1", "--master-addr=127.0.0.1",
                 f"--master-port={free_port()}", "--rdzv-conf=timeout=8"], "ok")


def case_td23_torchrun_static_master_unresolvable() -> None:
    """Node 1 of a static launch whose --master-addr does not resolve (timeout 8 s)."""
    _torchrun23(["--nnodes=2", "--nproc-per-node=1", "--node-rank=1",
                 "--master-addr=grpo-trainer-0.grpo-headless.invalid", "--master-port=29500",
                 "--rdzv-conf=timeout=8"], "ok")


def _ranks23(world: int, body: Callable[[int, Any, Any], None], timeout_s: int = 8,
             init: bool = True, **env: str) -> None:
    """body(rank, torch, dist) in `world` forked ranks (gloo, timeout_s); a forked rank prints its
    own traceback (exit 1), rank 0's propagates."""
    from datetime import timedelta

    os.environ.update(env)
    port = free_port()

    def run(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(world, rank, port)
        if init:
            dist.init_process_group("gloo", timeout=timedelta(seconds=timeout_s))
        body(rank, torch, dist)
        print(f"rank {rank} done", flush=True)

    _worker_n14(world, run)


def case_td23_tcpstore_nolibuv_port_taken() -> None:
    """A TCPStore master (use_libuv=False) on a port another job's store holds."""
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()
    held = dist.TCPStore("127.0.0.1", port, 1, True, timedelta(seconds=5))
    dist.TCPStore("127.0.0.1", port, 1, True, timedelta(seconds=5), use_libuv=False)
    print(held)


def case_td23_init_tcp_port_taken() -> None:
    """init_process_group(init_method='tcp://...') as rank 0 where a stale store holds the port."""
    from datetime import timedelta

    import torch.distributed as dist

    port = free_port()
    held = dist.TCPStore("127.0.0.1", port, 1, True, timedelta(seconds=5))
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", world_size=2, rank=0,
                            timeout=timedelta(seconds=5))
    print(held)


def case_td23_init_tcp_master_unresolvable() -> None:
    """init_process_group(init_method='tcp://<unresolvable>:29500') as rank 1 (timeout 6 s)."""
    from datetime import timedelta

    import torch.distributed as dist

    dist.init_process_group("gloo", init_method="tcp://grpo-trainer-0.grpo-headless.invalid:29500",
                            world_size=2, rank=1, timeout=timedelta(seconds=6))


def case_td23_gloo_lazy_init_rank_missing() -> None:
    """TORCH_GLOO_LAZY_INIT=1, world 3 with rank 2 never starting: ranks 0 and 1 fail at the
    first all_reduce instead of init."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(8))

    from datetime import timedelta

    os.environ["TORCH_GLOO_LAZY_INIT"] = "1"
    port = free_port()

    def run(rank: int) -> None:
        import torch
        import torch.distributed as dist

        dist_env(3, rank, port)
        store = dist.TCPStore("127.0.0.1", port, None, rank == 0, timedelta(seconds=6),
                              wait_for_workers=False)
        dist.init_process_group("gloo", store=store, rank=rank, world_size=3,
                                timeout=timedelta(seconds=6))
        body(rank, torch, dist)

    _worker_n14(2, run)


def case_td23_mismatch_shapes_detail() -> None:
    """TORCH_DISTRIBUTED_DEBUG=DETAIL: both ranks all_reduce, with different shapes."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(16 if rank == 0 else 12))

    _ranks23(2, body, TORCH_DISTRIBUTED_DEBUG="DETAIL")


def case_td23_mismatch_dtype_detail() -> None:
    """TORCH_DISTRIBUTED_DEBUG=DETAIL: both ranks all_reduce 8 values, fp32 and bf16."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(8, dtype=torch.float32 if rank == 0 else torch.bfloat16))

    _ranks23(2, body, TORCH_DISTRIBUTED_DEBUG="DETAIL")


def case_td23_mismatch_op_detail_4ranks() -> None:
    """TORCH_DISTRIBUTED_DEBUG=DETAIL, world 4: rank 3 all_gathers while the others all_reduce."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(8)
        if rank == 3:
            dist.all_gather([torch.empty(8) for _ in range(4)], t)
        else:
            dist.all_reduce(t)

    _ranks23(4, body, TORCH_DISTRIBUTED_DEBUG="DETAIL")


def case_td23_rank_exit_mid_allreduce_4ranks() -> None:
    """World 4, 64 MiB all_reduces: rank 2 os._exit(1)s between two (a crashed rollout worker)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(16 << 20)
        dist.all_reduce(t)
        if rank == 2:
            os._exit(1)
        for _ in range(3):
            dist.all_reduce(t)

    _ranks23(4, body)


def case_td23_rank_sigkill_mid_send() -> None:
    """rank 1 SIGKILLs itself while receiving a 256 MiB weight sync that rank 0 sends."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        t = torch.ones(64 << 20)
        if rank == 0:
            dist.send(t, dst=1)
        else:
            import threading

            threading.Timer(0.05, os.kill, (os.getpid(), 9)).start()
            dist.recv(t, src=0)

    _ranks23(2, body)


def case_td23_barrier_timeout_new_group() -> None:
    """A barrier on a new_group with a 3 s timeout; rank 1 is still generating (sleeps 10 s)."""
    from datetime import timedelta

    def body(rank: int, torch: Any, dist: Any) -> None:
        g = dist.new_group([0, 1], timeout=timedelta(seconds=3))
        if rank == 1:
            time.sleep(10)
            return
        dist.barrier(group=g)

    _ranks23(2, body, timeout_s=20)


def case_td23_monitored_barrier_peer_exited() -> None:
    """monitored_barrier on rank 0 where rank 1 already os._exit(1)ed (a crashed peer)."""
    from datetime import timedelta

    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(4))
        if rank == 1:
            os._exit(1)
        time.sleep(1)
        dist.monitored_barrier(timeout=timedelta(seconds=4))

    _ranks23(2, body)


def case_td23_new_group_rank_out_of_range() -> None:
    """new_group naming rank 4 in a world of 2 (a rollout group sized for another layout)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.new_group([0, 4])

    _ranks23(2, body)


def case_td23_new_group_not_all_ranks() -> None:
    """Only rank 0 calls new_group([0, 1], timeout=4 s) (rank 1 skipped it on a branch): rank 0's
    store wait times out. (Without a timeout new_group waits the backend's default, 30 min,
    not the one init_process_group was given.)"""
    from datetime import timedelta

    def body(rank: int, torch: Any, dist: Any) -> None:
        if rank == 1:
            time.sleep(12)
            return
        g = dist.new_group([0, 1], timeout=timedelta(seconds=4))
        dist.all_reduce(torch.ones(4), group=g)

    _ranks23(2, body, timeout_s=4)


def case_td23_destroy_twice() -> None:
    """destroy_process_group() twice (a trainer's finally: and an atexit hook)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(4))
        dist.destroy_process_group()
        dist.destroy_process_group()

    _ranks23(2, body)


def case_td23_send_to_self() -> None:
    """dist.send to its own rank (a weight-sync loop that did not skip the source)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.send(torch.ones(4), dst=rank)

    _ranks23(2, body)


def case_td23_device_mesh_too_big() -> None:
    """init_device_mesh('cpu', (2, 2)) in a world of 2 (a 4-GPU FSDP x TP layout)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from torch.distributed.device_mesh import init_device_mesh

        init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))

    _ranks23(2, body)


def case_td23_nccl_backend_cpu() -> None:
    """init_process_group('nccl') on a node without a GPU (a trainer config copied from GPU nodes)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.init_process_group("nccl")
        dist.all_reduce(torch.ones(4))

    _ranks23(2, body, init=False)


def _dcp23(rank: int, dist: Any, d: Path) -> dict[str, Any]:
    import torch
    import torch.distributed.checkpoint as dcp

    sd = {"policy": {"w": torch.full((256, 64), float(rank)), f"rank{rank}.b": torch.ones(64)}}
    dcp.save(sd, checkpoint_id=str(d))
    dist.barrier()
    return sd


def case_td23_dcp_load_missing_dir() -> None:
    """dcp.load on 2 ranks from a checkpoint directory that is not there (resume path typo)."""
    d = Path(tempfile.mkdtemp(prefix="ckpt23")) / "global_step_300"

    def body(rank: int, torch: Any, dist: Any) -> None:
        import torch.distributed.checkpoint as dcp

        dcp.load({"policy": {"w": torch.zeros(256, 64)}}, checkpoint_id=str(d))

    _ranks23(2, body)


def case_td23_dcp_distcp_truncated_2ranks() -> None:
    """2 ranks save, rank 1's .distcp is cut to 100 bytes, both load."""
    d = Path(tempfile.mkdtemp(prefix="ckpt23")) / "global_step_300"

    def body(rank: int, torch: Any, dist: Any) -> None:
        import torch.distributed.checkpoint as dcp

        sd = _dcp23(rank, dist, d)
        if rank == 0:
            f = d / "__1_0.distcp"
            f.write_bytes(f.read_bytes()[:100])
        dist.barrier()
        dcp.load(sd, checkpoint_id=str(d))

    _ranks23(2, body)


def case_td23_dcp_metadata_truncated_2ranks() -> None:
    """2 ranks save, .metadata is cut to half its bytes, both load."""
    d = Path(tempfile.mkdtemp(prefix="ckpt23")) / "global_step_300"

    def body(rank: int, torch: Any, dist: Any) -> None:
        import torch.distributed.checkpoint as dcp

        sd = _dcp23(rank, dist, d)
        if rank == 0:
            f = d / ".metadata"
            data = f.read_bytes()
            f.write_bytes(data[: len(data) // 2])
        dist.barrier()
        dcp.load(sd, checkpoint_id=str(d))

    _ranks23(2, body)


def case_td23_dcp_save_enospc_2ranks() -> None:
    """dcp.save on 2 ranks into a full 256 KiB tmpfs."""
    mnt = _full_fs()

    def body(rank: int, torch: Any, dist: Any) -> None:
        _dcp23(rank, dist, mnt / "global_step_300")

    _ranks23(2, body)


def _dcp23_corrupt(how: str) -> None:
    d = Path(tempfile.mkdtemp(prefix="ckpt23")) / "global_step_300"

    def body(rank: int, torch: Any, dist: Any) -> None:
        import torch.distributed.checkpoint as dcp

        sd = _dcp23(rank, dist, d)
        if rank == 0:
            f = d / "__1_0.distcp"
            data = bytearray(f.read_bytes())
            if how == "header":  # the first local file header's magic
                data[0:4] = b"\0\0\0\0"
            else:  # the middle of the first tensor's bytes (a bad sector)
                mid = len(data) // 3
                data[mid:mid + 4096] = bytes(4096)
            f.write_bytes(bytes(data))
        dist.barrier()
        dcp.load(sd, checkpoint_id=str(d))
        print(f"rank {rank} loaded, w[0,0]={sd['policy']['w'][0, 0].item()}", flush=True)

    _ranks23(2, body)


def case_td23_dcp_distcp_header_zeroed() -> None:
    """2 ranks save; the zip magic of rank 1's .distcp is zeroed; both load."""
    _dcp23_corrupt("header")


def case_td23_dcp_distcp_middle_zeroed() -> None:
    """2 ranks save; 4 KiB in the middle of rank 1's .distcp are zeroed (a bad sector); both load."""
    _dcp23_corrupt("middle")


def case_td23_filestore_init_enospc() -> None:
    """init_process_group(init_method='file://...') with the FileStore on a full 256 KiB tmpfs."""
    mnt = _full_fs()

    def body(rank: int, torch: Any, dist: Any) -> None:
        from datetime import timedelta

        dist.init_process_group("gloo", init_method=f"file://{mnt}/rdzv_store", world_size=2,
                                rank=rank, timeout=timedelta(seconds=8))
        dist.all_reduce(torch.ones(4))

    _ranks23(2, body, init=False)


def _spawn23_raise(rank: int, port: int) -> None:
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(2, rank, port)
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    dist.all_reduce(torch.ones(4))
    if rank == 1:
        raise ValueError("rollout batch has 6 prompts, expected a multiple of n_samples_per_prompt=4")
    dist.all_reduce(torch.ones(4))


def _spawn23_sigkill(rank: int, port: int) -> None:
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    dist_env(2, rank, port)
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    t = torch.ones(16 << 20)
    dist.all_reduce(t)
    if rank == 1:
        os.kill(os.getpid(), 9)
    for _ in range(3):
        dist.all_reduce(t)


def case_td23_spawn_rank_raises_in_collective() -> None:
    """mp.spawn, world 2: rank 1 raises between two all_reduces (ProcessRaisedException)."""
    import torch.multiprocessing as mp

    mp.spawn(_spawn23_raise, args=(free_port(),), nprocs=2)


def case_td23_spawn_sigkill_in_collective() -> None:
    """mp.spawn, world 2: rank 1 SIGKILLs itself between 64 MiB all_reduces."""
    import torch.multiprocessing as mp

    mp.spawn(_spawn23_sigkill, args=(free_port(),), nprocs=2)


def _fsdp2_model23(torch: Any) -> Any:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))


def case_td23_fsdp2_load_wrong_shape() -> None:
    """FSDP2 (fully_shard on a gloo CPU mesh): set_model_state_dict with a full state dict whose
    first layer is sized for another model."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from torch.distributed.checkpoint.state_dict import (StateDictOptions,
                                                             set_model_state_dict)
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import fully_shard

        mesh = init_device_mesh("cpu", (2,))
        model = _fsdp2_model23(torch)
        for layer in model:
            if isinstance(layer, torch.nn.Linear):
                fully_shard(layer, mesh=mesh)
        fully_shard(model, mesh=mesh)
        full = {k: torch.zeros(v.shape) for k, v in _fsdp2_model23(torch).state_dict().items()}
        full["0.weight"] = torch.zeros(48, 16)
        set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True,
                                                                   broadcast_from_rank0=True))

    _ranks23(2, body)


def _ddp_model23(torch: Any, extra: bool = False) -> Any:
    torch.manual_seed(0)
    layers = [torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)]
    if extra:  # a value head only this rank's config added
        layers.append(torch.nn.Linear(4, 1))
    return torch.nn.Sequential(*layers)


def case_td23_ddp_device_ids_cpu() -> None:
    """DDP(model, device_ids=[local_rank]) with the model on CPU (a GPU recipe on a CPU node)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from torch.nn.parallel import DistributedDataParallel as DDP

        DDP(_ddp_model23(torch), device_ids=[rank])

    _ranks23(2, body)


def case_td23_ddp_model_mismatch() -> None:
    """DDP where rank 1's model has an extra value head (configs differ across ranks)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from torch.nn.parallel import DistributedDataParallel as DDP

        DDP(_ddp_model23(torch, extra=rank == 1))

    _ranks23(2, body)


class _TwoHeads23:
    """A policy with a value head the PPO step skips on some iterations."""

    @staticmethod
    def make(torch: Any) -> Any:
        class Policy(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.body = torch.nn.Linear(16, 16)
                self.value_head = torch.nn.Linear(16, 1)

            def forward(self, x: Any, with_value: bool) -> Any:
                h = self.body(x)
                return h.sum() + (self.value_head(h).sum() if with_value else 0)

        torch.manual_seed(0)
        return Policy()


def case_td23_ddp_unused_param_second_step() -> None:
    """DDP without find_unused_parameters; the value head is unused in step 1: step 2 fails."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from torch.nn.parallel import DistributedDataParallel as DDP

        m = DDP(_TwoHeads23.make(torch))
        for step in range(2):
            m(torch.randn(4, 16), with_value=False).backward()

    _ranks23(2, body)


def case_benign23_ddp_find_unused_warning() -> None:
    """DDP(find_unused_parameters=True) where every parameter is used: its performance warning."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from torch.nn.parallel import DistributedDataParallel as DDP

        m = DDP(_TwoHeads23.make(torch), find_unused_parameters=True)
        for _ in range(2):
            m(torch.randn(4, 16), with_value=True).backward()
        dist.destroy_process_group()

    _ranks23(2, body)


def case_td23_mixed_backend_no_gpu() -> None:
    """init_process_group('cpu:gloo,cuda:nccl') on a node without a GPU, meant for CPU collectives
    only: the NCCL half is created eagerly and fails."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from datetime import timedelta

        dist.init_process_group("cpu:gloo,cuda:nccl", timeout=timedelta(seconds=10))
        dist.all_reduce(torch.ones(4))
        dist.barrier()
        dist.destroy_process_group()

    _ranks23(2, body, init=False)


# benign look-alikes healthy torch.distributed runs print

def case_benign23_gloo_clean_destroy() -> None:
    """Two ranks all_reduce, barrier, destroy_process_group: a clean end."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(4))
        dist.barrier()
        dist.destroy_process_group()

    _ranks23(2, body)


def case_benign23_gloo_no_destroy() -> None:
    """Two ranks all_reduce and exit without destroy_process_group (what warns at exit)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        dist.all_reduce(torch.ones(4))

    _ranks23(2, body)


def case_benign23_torchrun_clean() -> None:
    """torchrun --standalone, 2 workers, OMP_NUM_THREADS unset: a run that succeeds."""
    _torchrun23(_standalone23(), "ok_omp")


def case_benign23_torchrun_restart_succeeds() -> None:
    """--max-restarts=2: a worker's first attempt exits 1, the restarted group succeeds."""
    marker = Path(tempfile.mkdtemp(prefix="restart23")) / "first"
    _torchrun23(["--standalone", "--nproc-per-node=2", "--max-restarts=2",
                 "--monitor-interval=0.5"], "restart_once", str(marker))


def case_benign23_client_before_master() -> None:
    """Rank 1 connects 3 s before rank 0's store listens (a worker pod up first); the run goes on."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        from datetime import timedelta

        if rank == 0:
            time.sleep(3)
        dist.init_process_group("gloo", timeout=timedelta(seconds=20))
        dist.all_reduce(torch.ones(4))
        dist.destroy_process_group()

    _ranks23(2, body, init=False)


def case_benign23_fsdp2_cpu_step() -> None:
    """FSDP2 fully_shard on a gloo CPU mesh: forward, backward, AdamW step, DCP save of the
    sharded state."""
    d = Path(tempfile.mkdtemp(prefix="ckpt23")) / "global_step_1"

    def body(rank: int, torch: Any, dist: Any) -> None:
        import torch.distributed.checkpoint as dcp
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import fully_shard

        mesh = init_device_mesh("cpu", (2,))
        model = _fsdp2_model23(torch)
        fully_shard(model, mesh=mesh)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loss = model(torch.randn(8, 16)).pow(2).mean()
        loss.backward()
        opt.step()
        dcp.save({"model": model.state_dict()}, checkpoint_id=str(d))
        dist.destroy_process_group()

    _ranks23(2, body)


def case_benign23_rank_not_in_group() -> None:
    """A collective on a subgroup called by a rank outside it (it returns; the run goes on)."""
    def body(rank: int, torch: Any, dist: Any) -> None:
        g = dist.new_group([0])
        dist.all_reduce(torch.ones(4), group=g)
        dist.barrier()
        dist.destroy_process_group()

    _ranks23(2, body)


CASES23: dict[str, Case] = {
    "td23_torchrun_raises_record": (case_td23_torchrun_raises_record, "python_crash", False),
    "td23_torchrun_os_exit": (case_td23_torchrun_os_exit, "python_crash", False),
    "td23_torchrun_sigkill": (case_td23_torchrun_sigkill, "python_crash", False),
    "td23_torchrun_segfault": (case_td23_torchrun_segfault, "python_crash", False),
    "td23_torchrun_max_restarts_exhausted": (case_td23_torchrun_max_restarts_exhausted,
                                             "python_crash", False),
    "td23_torchrun_ckpt_enospc": (case_td23_torchrun_ckpt_enospc, "disk_full", False),
    "td23_torchrun_argparse_exit2": (case_td23_torchrun_argparse_exit2, "python_crash", False),
    "td23_torchrun_c10d_second_node_missing": (case_td23_torchrun_c10d_second_node_missing,
                                               "dist_timeout", False),
    "td23_torchrun_static_no_master": (case_td23_torchrun_static_no_master, "dist_timeout",
                                       False),
    "td23_torchrun_static_master_unresolvable": (case_td23_torchrun_static_master_unresolvable,
                                                 "dist_timeout", False),
    "td23_tcpstore_nolibuv_port_taken": (case_td23_tcpstore_nolibuv_port_taken, "dist_timeout",
                                         False),
    "td23_init_tcp_port_taken": (case_td23_init_tcp_port_taken, "dist_timeout", False),
    "td23_init_tcp_master_unresolvable": (case_td23_init_tcp_master_unresolvable, "dist_timeout",
                                          False),
    "td23_gloo_lazy_init_rank_missing": (case_td23_gloo_lazy_init_rank_missing, "dist_timeout",
                                         False),
    "td23_mismatch_shapes_detail": (case_td23_mismatch_shapes_detail, "python_crash", False),
    "td23_mismatch_dtype_detail": (case_td23_mismatch_dtype_detail, "python_crash", False),
    "td23_mismatch_op_detail_4ranks": (case_td23_mismatch_op_detail_4ranks, "python_crash", False),
    "td23_rank_exit_mid_allreduce_4ranks": (case_td23_rank_exit_mid_allreduce_4ranks,
                                            "python_crash", False),
    "td23_rank_sigkill_mid_send": (case_td23_rank_sigkill_mid_send, "python_crash", False),
    "td23_barrier_timeout_new_group": (case_td23_barrier_timeout_new_group, "dist_timeout", False),
    "td23_monitored_barrier_peer_exited": (case_td23_monitored_barrier_peer_exited, "dist_timeout",
                                           False),
    "td23_new_group_rank_out_of_range": (case_td23_new_group_rank_out_of_range, "python_crash",
                                         False),
    "td23_new_group_not_all_ranks": (case_td23_new_group_not_all_ranks, "dist_timeout", False),
    "td23_destroy_twice": (case_td23_destroy_twice, "python_crash", False),
    "td23_send_to_self": (case_td23_send_to_self, "python_crash", False),
    "td23_device_mesh_too_big": (case_td23_device_mesh_too_big, "python_crash", False),
    "td23_nccl_backend_cpu": (case_td23_nccl_backend_cpu, "python_crash", False),
    "td23_dcp_load_missing_dir": (case_td23_dcp_load_missing_dir, "checkpoint_corrupt", False),
    "td23_dcp_distcp_truncated_2ranks": (case_td23_dcp_distcp_truncated_2ranks,
                                         "checkpoint_corrupt", False),
    "td23_dcp_metadata_truncated_2ranks": (case_td23_dcp_metadata_truncated_2ranks,
                                           "checkpoint_corrupt", False),
    "td23_dcp_distcp_header_zeroed": (case_td23_dcp_distcp_header_zeroed, "checkpoint_corrupt",
                                      False),
    "td23_dcp_distcp_middle_zeroed": (case_td23_dcp_distcp_middle_zeroed, "checkpoint_corrupt",
                                      False),
    "td23_filestore_init_enospc": (case_td23_filestore_init_enospc, "disk_full", False),
    "td23_dcp_save_enospc_2ranks": (case_td23_dcp_save_enospc_2ranks, "disk_full", False),
    "td23_spawn_rank_raises_in_collective": (case_td23_spawn_rank_raises_in_collective,
                                             "python_crash", False),
    "td23_spawn_sigkill_in_collective": (case_td23_spawn_sigkill_in_collective, "python_crash",
                                         False),
    "td23_fsdp2_load_wrong_shape": (case_td23_fsdp2_load_wrong_shape, "python_crash", False),
    "td23_ddp_device_ids_cpu": (case_td23_ddp_device_ids_cpu, "python_crash", False),
    "td23_ddp_model_mismatch": (case_td23_ddp_model_mismatch, "python_crash", False),
    "td23_ddp_unused_param_second_step": (case_td23_ddp_unused_param_second_step, "python_crash",
                                          False),
    "benign23_ddp_find_unused_warning": (case_benign23_ddp_find_unused_warning, "benign", False),
    "td23_mixed_backend_no_gpu": (case_td23_mixed_backend_no_gpu, "python_crash", False),
    "benign23_gloo_clean_destroy": (case_benign23_gloo_clean_destroy, "benign", False),
    "benign23_gloo_no_destroy": (case_benign23_gloo_no_destroy, "benign", False),
    "benign23_torchrun_clean": (case_benign23_torchrun_clean, "benign", False),
    "benign23_torchrun_restart_succeeds": (case_benign23_torchrun_restart_succeeds, "benign",
                                           False),
    "benign23_client_before_master": (case_benign23_client_before_master, "benign", False),
    "benign23_fsdp2_cpu_step": (case_benign23_fsdp2_cpu_step, "benign", False),
    "benign23_rank_not_in_group": (case_benign23_rank_not_in_group, "benign", False),
}
CASES.update(CASES23)
TIMEOUT_S.update({n: 60 for n in CASES23})


# ----------------------------------------------------------------------------- older releases (set 24)
# The Hub / loading failures of sets 1-21 as OLDER releases print them: venv A (huggingface_hub
# 0.20.3, transformers 4.36.2, safetensors 0.4.1, tokenizers 0.15, requests, torch 2.4.1 CPU) and
# venv B (huggingface_hub 0.26.5, transformers 4.46.3, safetensors 0.4.5, tokenizers 0.20, torch
# 2.4.1 CPU). A case named old24a_* runs only under venv A, old24b_* only under venv B (each checks
# the installed versions first and exits 5 with a note if `run` was started with the other venv's
# interpreter). The loopback Hubs are sets 1 and 3's (start_hub, start_hub3): these releases fetch
# through `requests`, and read the same X-Error-Code / X-Error-Message headers.

_OLD24 = {"a": ("0.20.", "4.36."), "b": ("0.26.", "4.46.")}
_ROOT24 = Path(tempfile.gettempdir()) / "irisrl24"


def _old24_guard(venv: str) -> None:
    import importlib.metadata as md

    hub, tf = md.version("huggingface_hub"), md.version("transformers")
    want = _OLD24[venv]
    if not (hub.startswith(want[0]) and tf.startswith(want[1])):
        print(f"PROVOKE-NOTE wrong venv for old24{venv}: huggingface_hub {hub} transformers {tf}",
              flush=True)
        sys.exit(5)


def _dir24(case: str, *parts: str) -> Path:
    """A fixed path per case (a checkpoint layout as an RL run writes it), emptied first."""
    import shutil

    d = _ROOT24.joinpath(case, *parts)
    shutil.rmtree(_ROOT24 / case, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def _tokenizer24(d: Path) -> None:
    """tokenizer.json written by the installed tokenizers release, and its config."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tok = Tokenizer(WordLevel({"<unk>": 0, "a": 1, "b": 2}, unk_token="<unk>"))
    tok.pre_tokenizer = Whitespace()
    tok.save(str(d / "tokenizer.json"))
    (d / "tokenizer_config.json").write_text(json.dumps(
        {"tokenizer_class": "PreTrainedTokenizerFast", "unk_token": "<unk>"}))


def _model24(d: Path, weights: str = "safetensors", shards: bool = False,
             cls: str = "GPT2LMHeadModel") -> dict[str, bytes]:
    """A tiny GPT-2 saved by the installed transformers (plus a tokenizer): the repo's files."""
    import transformers

    cfg = transformers.GPT2Config(n_layer=2 if shards else 1, n_embd=64 if shards else 8,
                                  n_head=2, vocab_size=256 if shards else 32,
                                  n_positions=32 if shards else 16)
    model = getattr(transformers, cls)(cfg)
    kw: dict[str, Any] = {"max_shard_size": "100KB"} if shards else {}
    model.save_pretrained(d, safe_serialization=weights == "safetensors", **kw)
    _tokenizer24(d)
    return {p.name: p.read_bytes() for p in d.iterdir() if p.is_file()}


_ERRORS24 = {k: v for k, v in HUB_ERRORS.items()}
_NET24 = ("cutshort", "bigger_head", "status416")


def start_hub24_resume(repos: dict[str, dict[str, bytes]]) -> str:
    """A loopback Hub whose first GET of a file sends half the body and then stalls for 8 s (past
    HF_HUB_DOWNLOAD_TIMEOUT=3: the client's read times out mid-body); a ranged GET (the client
    resuming) is answered 206 with the rest, a second plain GET (a client that had received no
    whole chunk: it restarts from byte 0) with the whole body. Serves repos `irisrl/<name>`."""
    lock = threading.Lock()
    seen: dict[str, int] = {}

    class Hub(_loopback_hub_base()):  # type: ignore[misc]

        def _route(self) -> None:
            m = re.match(r"^/irisrl/([\w.-]+)/resolve/[^/]+/(.+)$", self.path.split("?")[0])
            body = repos.get(m.group(1), {}).get(m.group(2)) if m else None
            if body is None:
                self._entry_not_found()
                return
            h = {"ETag": f'"{hashlib.sha256(body).hexdigest()}"', "X-Repo-Commit": COMMIT,
                 "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"}
            if self.command == "HEAD":
                self._head(200, h, len(body))
                return
            rng = re.match(r"bytes=(\d+)-", self.headers.get("Range", ""))
            if rng:
                start = int(rng.group(1))
                h["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
                self._head(206, h, len(body) - start)
                self.wfile.write(body[start:])
                return
            with lock:
                seen[self.path] = n = seen.get(self.path, 0) + 1
            self._head(200, h, len(body))
            if n > 1:  # the retry: answered in full
                self.wfile.write(body)
                return
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            time.sleep(8)
            self.close_connection = True

        do_HEAD = _route
        do_GET = _route

    return _serve_loopback(Hub)


def old24_hub(venv: str, variant: str, api: str) -> None:
    """One Hub call of an older release against a loopback Hub answering `variant`."""
    _old24_guard(venv)
    files: dict[str, dict[str, bytes]] = {"nofiles": {"README.md": b"# empty\n"}}
    if variant == "conn_refused":
        endpoint = f"http://127.0.0.1:{free_port()}"  # nobody listens there
    elif variant == "stallmid":  # benign: a read that timed out mid-body, resumed
        endpoint = start_hub24_resume(files)
    elif variant in _NET24 or variant in ("okshards", "okrepo", "okbin", "noweights"):
        endpoint = start_hub3(files, {variant: variant})
    else:
        endpoint = start_hub(files, _ERRORS24)
    _hub_env(endpoint)  # before huggingface_hub / transformers are imported
    src = _dir24(f"{venv}_{variant}_{api}", "src")
    if variant == "okshards":  # an index naming two shards, the second never uploaded
        repo_files = _model24(src, shards=True)
        last = sorted(n for n in repo_files if n.startswith("model-"))[-1]
        del repo_files[last]
    elif variant == "okbin":
        repo_files = _model24(src, weights="bin")
    elif variant == "noweights":
        repo_files = {n: b for n, b in _model24(src).items() if not n.endswith(
            (".safetensors", ".bin"))}
    elif variant == "bigger_head":
        repo_files = {"config.json": _big_file()}
    else:
        repo_files = _model24(src)
    files[variant] = repo_files
    files["okrepo"] = repo_files
    if variant == "badtoken401":
        os.environ["HF_TOKEN"] = "hf_" + "x" * 34
    repo = {"conn_refused": "irisrl/okrepo", "entry404": "irisrl/nofiles"}.get(
        variant, f"irisrl/{variant}")
    revision = "v9.9" if variant == "revision404" else None
    print(f"PROVOKE-NOTE endpoint={endpoint} repo={repo} api={api}", flush=True)
    if api == "download":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "config.json", revision=revision))
    elif api == "download_weights":
        from huggingface_hub import hf_hub_download

        print(hf_hub_download(repo, "model.safetensors", revision=revision))
    elif api == "snapshot":
        from huggingface_hub import snapshot_download

        print(snapshot_download(repo, revision=revision))
    elif api == "config":
        from transformers import AutoConfig

        print(type(AutoConfig.from_pretrained(repo, revision=revision)).__name__)
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        print(type(AutoTokenizer.from_pretrained(repo, revision=revision)).__name__)
    elif api == "model":
        from transformers import AutoModelForCausalLM

        print(type(AutoModelForCausalLM.from_pretrained(repo, revision=revision)).__name__)
    elif api == "seqcls":  # benign: a causal-LM checkpoint under a classification head
        from transformers import AutoModelForSequenceClassification

        print(type(AutoModelForSequenceClassification.from_pretrained(repo)).__name__)


def old24_offline(venv: str, api: str) -> None:
    """HF_HUB_OFFLINE=1 with an empty cache (the real huggingface.co endpoint, never asked)."""
    _old24_guard(venv)
    os.environ.update(HF_HOME=tempfile.mkdtemp(prefix="hfhome"), HF_HUB_OFFLINE="1")
    repo = "Qwen/Qwen2.5-7B-Instruct"
    if api == "download":
        from huggingface_hub import hf_hub_download

        hf_hub_download(repo, "config.json")
    elif api == "snapshot":
        from huggingface_hub import snapshot_download

        snapshot_download(repo)
    elif api == "tokenizer":
        from transformers import AutoTokenizer

        AutoTokenizer.from_pretrained(repo)
    elif api == "model":
        from transformers import AutoModelForCausalLM

        AutoModelForCausalLM.from_pretrained(repo)


def old24_local(venv: str, how: str) -> None:
    """A checkpoint directory on local disk that is incomplete or damaged."""
    _old24_guard(venv)
    os.environ["HF_HUB_OFFLINE"] = "1"  # no endpoint: a local path must not reach the network
    os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="hfhome")
    case = f"{venv}_{how}"
    d = _dir24(case, "global_step_200", "actor", "huggingface")
    if how == "no_weights":
        _model24(d)
        (d / "model.safetensors").unlink()
    elif how == "missing_shard":
        _model24(d, shards=True)
        sorted(d.glob("model-*.safetensors"))[-1].unlink()
    elif how in ("st_truncated", "st_truncated_numpy"):
        _model24(d)
        st = d / "model.safetensors"
        st.write_bytes(st.read_bytes()[: st.stat().st_size // 2])
    elif how in ("st_garbage", "st_garbage_numpy"):
        _model24(d)
        (d / "model.safetensors").write_bytes(os.urandom(4096))
    elif how == "st_header_cut":  # the upload stopped inside the JSON header
        _model24(d)
        st = d / "model.safetensors"
        st.write_bytes(st.read_bytes()[:40])
    elif how == "config_garbage":
        _model24(d)
        (d / "config.json").write_text('{"architectures": ["GPT2LMHeadModel"], "n_embd": 8,\n')
    elif how == "tokenizer_garbage":
        _model24(d)
        tj = d / "tokenizer.json"
        tj.write_bytes(tj.read_bytes()[: tj.stat().st_size // 2])
    elif how == "tokenizer_wrong_model":  # a tokenizer.json a newer tokenizers wrote
        _model24(d)
        tj = json.loads((d / "tokenizer.json").read_text())
        tj["model"]["type"] = "WordPieceV2"
        (d / "tokenizer.json").write_text(json.dumps(tj))
    elif how == "unused_weights":  # benign: a PPO checkpoint whose file kept the value head
        from safetensors.torch import load_file, save_file

        _model24(d)
        st = d / "model.safetensors"
        tensors = load_file(str(st))
        import torch

        tensors["v_head.summary.weight"] = torch.zeros(1, 8)
        tensors["v_head.summary.bias"] = torch.zeros(1)
        save_file(tensors, str(st), metadata={"format": "pt"})
    print(f"PROVOKE-NOTE dir={d} how={how}", flush=True)
    if how.endswith("_numpy"):
        from safetensors.numpy import load_file

        print(sorted(load_file(str(d / "model.safetensors"))))
    elif how.startswith("tokenizer"):
        from transformers import AutoTokenizer

        print(type(AutoTokenizer.from_pretrained(d)).__name__)
    elif how == "config_garbage":
        from transformers import AutoConfig

        print(AutoConfig.from_pretrained(d))
    else:
        from transformers import AutoModelForCausalLM

        print(type(AutoModelForCausalLM.from_pretrained(d)).__name__)


_HUB24_KIND = dict(HUB_KIND, cutshort="hf_incomplete_download",
                   bigger_head="hf_incomplete_download", status416="hf_incomplete_download",
                   okshards="hf_weights_missing", noweights="hf_weights_missing",
                   okbin="benign", okrepo="benign", stallmid="benign")
_LOCAL24_KIND = {"no_weights": "hf_weights_missing", "missing_shard": "hf_weights_missing",
                 "st_truncated": "checkpoint_corrupt", "st_truncated_numpy": "checkpoint_corrupt",
                 "st_garbage": "checkpoint_corrupt", "st_garbage_numpy": "checkpoint_corrupt",
                 "st_header_cut": "checkpoint_corrupt", "config_garbage": "python_crash",
                 "tokenizer_garbage": "python_crash", "tokenizer_wrong_model": "python_crash",
                 "unused_weights": "benign"}
_GRID24: dict[str, list[tuple[str, str]]] = {
    "a": [("gated401", "download"), ("gated403", "model"), ("missing404", "download"),
          ("entry404", "download"), ("revision404", "config"), ("status429", "download"),
          ("status500", "snapshot"), ("status502", "config"), ("status503", "model"),
          ("conn_refused", "model"), ("cutshort", "download"), ("bigger_head", "download"),
          ("okshards", "model"), ("noweights", "model"), ("okbin", "model"),
          ("stallmid", "download_weights")],
    "b": [("gated401", "tokenizer"), ("gated403", "download"), ("badtoken401", "download"),
          ("missing404", "model"), ("entry404", "config"), ("revision404", "download"),
          ("status429", "model"), ("status500", "download"), ("status502", "snapshot"),
          ("status503", "tokenizer"), ("conn_refused", "config"), ("cutshort", "snapshot"),
          ("status416", "download"), ("noweights", "model"), ("okrepo", "seqcls"),
          ("stallmid", "download_weights")],
}
_OFFLINE24 = {"a": ("model",), "b": ("snapshot",)}
_LOCAL24: dict[str, list[str]] = {
    "a": ["no_weights", "st_truncated", "config_garbage", "tokenizer_garbage", "unused_weights"],
    "b": ["missing_shard", "st_truncated_numpy", "st_garbage", "st_header_cut",
          "tokenizer_wrong_model"],
}

CASES24: dict[str, Case] = {}
for _venv, _grid in _GRID24.items():
    for _v, _api in _grid:
        CASES24[f"old24{_venv}_{_v}_{_api}"] = (partial(old24_hub, _venv, _v, _api),
                                                _HUB24_KIND[_v], False)
    for _api in _OFFLINE24[_venv]:
        CASES24[f"old24{_venv}_offline_{_api}"] = (partial(old24_offline, _venv, _api),
                                                  "hf_http_error", False)
    for _how in _LOCAL24[_venv]:
        CASES24[f"old24{_venv}_local_{_how}"] = (partial(old24_local, _venv, _how),
                                                 _LOCAL24_KIND[_how], False)
CASES.update(CASES24)
TIMEOUT_S.update({n: 60 for n in CASES24})


# ----------------------------------------------------------------------------- twenty-fifth set (H200)
# Run-time misuse an agentic-RL GRPO trainer meets on an H200 that no earlier set provoked:
# tensors made under torch.inference_mode() (a rollout's ids, rewards, old log-probs) reused by
# the training step; CUDA stream-capture rules beyond a sync (a wait on uncaptured work, an event
# recorded in a capture used outside it, a capture ended from another thread, two captures
# merged) and make_graphed_callables' own checks; DTensor ops with no sharding strategy,
# redistributes, cross-mesh norms, loss_parallel, mesh slicing; FSDP2 applied twice / with CPU
# offload then moved to the GPU / given plain modules to prefetch; FSDP2 DTensor state into a
# plain rollout model; NCCL inside a graph capture with a lazy communicator, the NCCL-only checks
# (monitored_barrier, recv from any source, barrier device_ids), NCCL's registration hook under
# expandable segments; RNG state and generator devices; torch.library custom ops (no fake impl
# under torch.compile, an output aliasing its input); torch.func transforms (vmap over .item() or
# random ops, grad of a non-scalar, functional_call with a missing key); profiler nesting; device
# strings and pinning; benign look-alikes from the same paths.


def _nccl25(device_id: bool = True) -> None:
    """A world-1 NCCL process group on the GPU (device_id=False: the communicator is lazy)."""
    import torch
    import torch.distributed as dist

    dist_env(1, 0, free_port())
    if device_id:
        dist.init_process_group("nccl", device_id=torch.device("cuda:0"))
    else:
        torch.cuda.set_device(0)
        dist.init_process_group("nccl")


def case_infer25_generate_ids_backward() -> None:
    """Rollout under torch.inference_mode() (generate on the GPU), then the policy loss over the
    same ids with grad: the embedding saves inference-mode indices for backward."""
    import torch

    model = _llama20().cuda()
    with torch.inference_mode():
        ids = model.generate(_prompt20("cuda"), max_new_tokens=4, do_sample=False,
                             pad_token_id=0)
    model.train()
    logp = model(ids).logits.log_softmax(-1)
    (-logp.mean()).backward()


def case_infer25_advantage_inplace() -> None:
    """Rewards scored under inference_mode, then advantages normalised in place outside it."""
    import torch

    with torch.inference_mode():
        rewards = torch.rand(8, 4, device="cuda")
    rewards -= rewards.mean(dim=1, keepdim=True)
    print(rewards.sum().item())


def case_infer25_old_logp_requires_grad() -> None:
    """Old log-probs computed under inference_mode, then requires_grad_() for the ratio."""
    import torch

    with torch.inference_mode():
        old_logp = torch.randn(8, 16, device="cuda").log_softmax(-1)
    old_logp.requires_grad_()


def case_infer25_compile_inference_input() -> None:
    """A compiled training step whose input batch was built under inference_mode."""
    import torch

    with torch.inference_mode():
        batch = torch.randn(4, 8, device="cuda")
    lin = torch.nn.Linear(8, 8).cuda()

    @torch.compile
    def step(x: Any) -> Any:
        y = lin(x)
        x.mul_(0.5)
        return y.sum()

    step(batch).backward()


def _capture25() -> tuple[Any, Any, Any]:
    import torch

    x = torch.zeros(1024, device="cuda")
    torch.cuda.synchronize()
    return torch, x, torch.cuda.CUDAGraph()


def case_cg25_wait_uncaptured_event() -> None:
    """A capture that waits on an event recorded by uncaptured work on a side stream (a weight
    copy stream)."""
    torch, x, g = _capture25()
    side = torch.cuda.Stream()
    ev = torch.cuda.Event()
    with torch.cuda.stream(side):
        x.add_(1)
        ev.record(side)
    with torch.cuda.graph(g):
        torch.cuda.current_stream().wait_event(ev)
        y = x * 2
    g.replay()
    print(y.sum().item())


def case_cg25_uncaptured_wait_captured_event() -> None:
    """During a capture, an uncaptured side stream waits on an event recorded in the capture."""
    torch, x, g = _capture25()
    side = torch.cuda.Stream()
    ev = torch.cuda.Event()
    with torch.cuda.graph(g):
        y = x + 1
        ev.record()
        side.wait_event(ev)
    print(y.sum().item())


def case_cg25_event_sync_after_capture() -> None:
    """An event recorded inside the capture, synchronized on after capture (timing habit)."""
    torch, x, g = _capture25()
    ev = torch.cuda.Event()
    with torch.cuda.graph(g):
        y = x + 1
        ev.record()
    g.replay()
    ev.synchronize()
    print(y.sum().item())


def case_cg25_capture_end_other_thread() -> None:
    """capture_begin on a side stream in the main thread, capture_end from a helper thread."""
    import threading

    torch, x, g = _capture25()
    s = torch.cuda.Stream()
    err: list[BaseException] = []

    def end() -> None:
        try:
            with torch.cuda.stream(s):
                g.capture_end()
        except BaseException as e:
            err.append(e)

    with torch.cuda.stream(s):
        g.capture_begin()
        y = x + 1
        t = threading.Thread(target=end)
        t.start()
        t.join()
    if err:
        raise err[0]
    print(y.sum().item())


def case_cg25_two_captures_merged() -> None:
    """Two graphs captured at once on two streams; the second waits on the first's event."""
    torch, x, g1 = _capture25()
    g2 = torch.cuda.CUDAGraph()
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    ev = torch.cuda.Event()
    with torch.cuda.stream(s1):
        g1.capture_begin(capture_error_mode="relaxed")
        a = x + 1
        ev.record(s1)
    with torch.cuda.stream(s2):
        g2.capture_begin(capture_error_mode="relaxed")
        s2.wait_event(ev)
        b = x + 2
        g2.capture_end()
    with torch.cuda.stream(s1):
        g1.capture_end()
    print(a.sum().item(), b.sum().item())


def case_cg25_graphed_callables_hooks() -> None:
    """make_graphed_callables of a policy head that has a forward hook (a logging hook)."""
    import torch

    head = torch.nn.Linear(16, 16).cuda()
    head.register_forward_hook(lambda m, i, o: None)
    torch.cuda.make_graphed_callables(head, (torch.randn(4, 16, device="cuda"),))


def case_cg25_graphed_callables_autocast_cache() -> None:
    """make_graphed_callables under bf16 autocast with its weight cache on (the default)."""
    import torch

    head = torch.nn.Linear(16, 16).cuda()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        torch.cuda.make_graphed_callables(head, (torch.randn(4, 16, device="cuda"),))


def case_cg25_graphed_callables_eval_module() -> None:
    """make_graphed_callables of a module whose parameters are frozen (a reference model) with a
    sample input that requires grad."""
    import torch

    ref = torch.nn.Linear(16, 16).cuda().requires_grad_(False)
    f = torch.cuda.make_graphed_callables(ref, (torch.randn(4, 16, device="cuda",
                                                            requires_grad=True),))
    print(f(torch.randn(4, 16, device="cuda")).sum().item())


def case_cg25_capture_lazy_nccl() -> None:
    """An all_reduce captured into a CUDA graph before the (lazy) NCCL communicator existed."""
    import torch
    import torch.distributed as dist

    _nccl25(device_id=False)
    x = torch.ones(1024, device="cuda")
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    g.replay()
    torch.cuda.synchronize()
    print(x.sum().item())


def _mesh25(shape: tuple[int, ...] = (1,), names: tuple[str, ...] = ("dp",)) -> Any:
    from torch.distributed.device_mesh import init_device_mesh

    _nccl25()
    return init_device_mesh("cuda", shape, mesh_dim_names=names)


def case_dt25_op_no_sharding_strategy() -> None:
    """Reward bookkeeping on a sharded DTensor: ops DTensor has no sharding strategy for."""
    import torch
    from torch.distributed.tensor import Shard, distribute_tensor

    mesh = _mesh25()
    dt = distribute_tensor(torch.randint(0, 4, (16,), device="cuda"), mesh, [Shard(0)])
    for op in (torch.unique, torch.nonzero, torch.bincount, torch.histc, torch.unique_consecutive):
        try:
            op(dt if op is not torch.histc else dt.float())
        except NotImplementedError:
            raise
        except Exception as e:
            print(f"PROVOKE-NOTE {op.__name__}: {type(e).__name__}", flush=True)
    print("all ops ran")


def case_dt25_redistribute_shard_to_partial() -> None:
    """redistribute of a Shard(0) DTensor to Partial()."""
    import torch
    from torch.distributed.tensor import Partial, Shard, distribute_tensor

    mesh = _mesh25()
    dt = distribute_tensor(torch.randn(8, 4, device="cuda"), mesh, [Shard(0)])
    print(dt.redistribute(mesh, [Partial()]).to_local().sum().item())


def case_dt25_cross_mesh_clip_grad() -> None:
    """clip_grad_norm_ over DTensor gradients living on two meshes (a dp mesh for the policy
    body, a 2-D dp x tp mesh for the head)."""
    import torch
    from torch.distributed.tensor import Replicate, distribute_tensor

    mesh1 = _mesh25()
    from torch.distributed.device_mesh import init_device_mesh

    mesh2 = init_device_mesh("cuda", (1, 1), mesh_dim_names=("dp", "tp"))
    p1 = torch.nn.Parameter(distribute_tensor(torch.randn(8, device="cuda"), mesh1, [Replicate()]))
    p2 = torch.nn.Parameter(distribute_tensor(torch.randn(8, device="cuda"), mesh2,
                                              [Replicate(), Replicate()]))
    (p1.sum() * 1.0).backward()
    (p2.sum() * 2.0).backward()
    print(torch.nn.utils.clip_grad_norm_([p1, p2], 1.0))


def case_dt25_mesh_unknown_dim_name() -> None:
    """mesh['sp'] on a ('dp', 'tp') mesh (a sequence-parallel config on a mesh without it)."""
    mesh = _mesh25((1, 1), ("dp", "tp"))
    print(mesh["sp"])


def case_dt25_loss_parallel_replicated_logits() -> None:
    """loss_parallel() cross-entropy over logits replicated, not sharded on the vocab dim."""
    import torch
    import torch.nn.functional as F
    from torch.distributed.tensor import Replicate, distribute_tensor
    from torch.distributed.tensor.parallel import loss_parallel

    mesh = _mesh25((1,), ("tp",))
    logits = distribute_tensor(torch.randn(4, 32, device="cuda", requires_grad=True), mesh,
                               [Replicate()])
    with loss_parallel():
        loss = F.cross_entropy(logits, torch.randint(0, 32, (4,), device="cuda"))
        loss.backward()
    print(loss.full_tensor().item())


def case_dt25_fsdp2_state_into_plain_model() -> None:
    """Weight sync: the FSDP2 trainer's state_dict() (DTensors) loaded into a plain rollout copy
    of the model."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _nccl25()
    torch.manual_seed(0)
    trainer = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Linear(16, 4)).cuda()
    rollout = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Linear(16, 4)).cuda()
    fully_shard(trainer)
    rollout.load_state_dict(trainer.state_dict())
    print(rollout(torch.randn(2, 16, device="cuda")).sum().item())


def _fsdp25_model(torch: Any, device: str = "cuda") -> Any:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                               torch.nn.Linear(32, 4)).to(device)


def case_fsdp25_fully_shard_twice() -> None:
    """fully_shard applied to the root twice (a recipe's wrap helper and the trainer both do)."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _nccl25()
    m = _fsdp25_model(torch)
    fully_shard(m)
    fully_shard(m)
    print(m(torch.randn(2, 16, device="cuda")).sum().item())


def case_fsdp25_cpu_offload_then_cuda() -> None:
    """fully_shard with CPUOffloadPolicy, then model.to('cuda') before the first step."""
    import torch
    from torch.distributed.fsdp import CPUOffloadPolicy, fully_shard

    _nccl25()
    m = _fsdp25_model(torch, "cpu")
    fully_shard(m[0], offload_policy=CPUOffloadPolicy())
    fully_shard(m, offload_policy=CPUOffloadPolicy())
    m.to("cuda")
    m(torch.randn(2, 16, device="cuda")).sum().backward()


def case_fsdp25_prefetch_plain_module() -> None:
    """set_modules_to_forward_prefetch given a layer fully_shard was never applied to."""
    import torch
    from torch.distributed.fsdp import fully_shard

    _nccl25()
    m = _fsdp25_model(torch)
    fully_shard(m[0])
    fully_shard(m)
    m[0].set_modules_to_forward_prefetch([m[2]])
    m(torch.randn(2, 16, device="cuda")).sum().backward()


def case_nccl25_monitored_barrier() -> None:
    """monitored_barrier (a straggler check) on the NCCL default group."""
    import torch.distributed as dist
    from datetime import timedelta

    _nccl25()
    dist.monitored_barrier(timeout=timedelta(seconds=10))


def case_nccl25_recv_any_source() -> None:
    """dist.recv without src (receive from any rank) on NCCL."""
    import torch
    import torch.distributed as dist

    _nccl25()
    t = torch.empty(4, device="cuda")
    dist.recv(t)


def case_nccl25_barrier_device_ids_bad() -> None:
    """dist.barrier(device_ids=[LOCAL_RANK]) with LOCAL_RANK of an 8-GPU node on a 1-GPU one."""
    import torch.distributed as dist

    _nccl25(device_id=False)
    dist.barrier(device_ids=[5])


def case_nccl25_register_hook_expandable() -> None:
    """TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK=1 with expandable segments on."""
    os.environ["TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK"] = "1"
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    os.environ.setdefault("NCCL_DEBUG", "WARN")
    import torch
    import torch.distributed as dist

    _nccl25()
    x = torch.ones(16 << 20, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print(x[0].item())


def case_rng25_cuda_state_from_cpu() -> None:
    """Resume: the CPU RNG state put into the CUDA generator (states saved under swapped keys)."""
    import torch

    torch.cuda.init()
    torch.cuda.set_rng_state(torch.get_rng_state())


def case_rng25_generator_device_mismatch() -> None:
    """Sampling on the GPU with a seeded CPU torch.Generator."""
    import torch

    gen = torch.Generator().manual_seed(1234)
    probs = torch.rand(4, 128, device="cuda").softmax(-1)
    print(torch.multinomial(probs, 1, generator=gen))


def _op25_lib() -> Any:
    import torch

    @torch.library.custom_op("irisrl25::token_logp", mutates_args=())
    def token_logp(logits: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
        return logits.log_softmax(-1).gather(-1, ids.unsqueeze(-1)).squeeze(-1)

    return token_logp


def case_op25_custom_op_no_fake_compile() -> None:
    """A torch.library custom op (fused token log-prob) without register_fake, under
    torch.compile(fullgraph=True)."""
    import torch

    token_logp = _op25_lib()

    @torch.compile(fullgraph=True)
    def loss(logits: Any, ids: Any) -> Any:
        return -token_logp(logits, ids).mean()

    print(loss(torch.randn(4, 8, 32, device="cuda"), torch.randint(0, 32, (4, 8), device="cuda")))


def case_op25_custom_op_aliases_input() -> None:
    """A custom op that returns its input (a 'clip in place' kernel declared functional)."""
    import torch

    @torch.library.custom_op("irisrl25::clip_ratio", mutates_args=())
    def clip_ratio(ratio: torch.Tensor) -> torch.Tensor:
        return ratio.clamp_(0.8, 1.2)

    print(clip_ratio(torch.rand(8, device="cuda") * 2).sum().item())


def case_func25_vmap_item() -> None:
    """vmap over a per-sample reward that calls .item()."""
    import torch

    def reward(x: Any) -> Any:
        return x * (1.0 if x.sum().item() > 0 else -1.0)

    print(torch.vmap(reward)(torch.randn(8, 4, device="cuda")))


def case_func25_vmap_random() -> None:
    """vmap over per-sample dropout (randomness='error', the default)."""
    import torch

    print(torch.vmap(lambda x: torch.nn.functional.dropout(x, 0.1))(
        torch.randn(8, 4, device="cuda")))


def case_func25_grad_non_scalar() -> None:
    """torch.func.grad of a per-token loss (a vector, not a scalar)."""
    import torch

    print(torch.func.grad(lambda w: (w * 2).log_softmax(-1))(torch.randn(8, device="cuda")))


def case_func25_functional_call_missing_key() -> None:
    """functional_call with a weights dict from the rollout engine that lacks the bias."""
    import torch

    lin = torch.nn.Linear(8, 8).cuda()
    torch.func.functional_call(lin, {"weight": torch.randn(8, 8, device="cuda")},
                               (torch.randn(2, 8, device="cuda"),), strict=True)


def case_prof25_nested_profilers() -> None:
    """A trainer's torch.profiler around a step that opens a second profiler (a callback's)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    with profile(activities=acts):
        x = torch.randn(64, 64, device="cuda") @ torch.randn(64, 64, device="cuda")
        with profile(activities=acts):
            x = x @ x
    print(x.sum().item())


def case_dev25_set_device_cpu() -> None:
    """torch.cuda.set_device(torch.device('cpu')) (a device picked from a config)."""
    import torch

    torch.cuda.set_device(torch.device("cpu"))


def case_dev25_device_string_from_visible() -> None:
    """torch.device(f'cuda:{CUDA_VISIBLE_DEVICES}') with CUDA_VISIBLE_DEVICES='0,1'."""
    import torch

    torch.zeros(2).to(torch.device("cuda:" + "0,1"))


def case_dev25_negative_index() -> None:
    """A device index from LOCAL_RANK=-1 (unset, launcher default): tensor.to('cuda:-1')."""
    import torch

    torch.zeros(2).to(f"cuda:{-1}")


def case_pin25_pin_cuda_tensor() -> None:
    """pin_memory() on a tensor already on the GPU (a rollout buffer moved early)."""
    import torch

    torch.randn(16, device="cuda").pin_memory()


def case_stream25_record_stream_cpu() -> None:
    """record_stream(side) on the pinned CPU staging buffer of an async weight copy."""
    import torch

    side = torch.cuda.Stream()
    host = torch.randn(1 << 16).pin_memory()
    with torch.cuda.stream(side):
        dev = host.to("cuda", non_blocking=True)
    host.record_stream(side)
    print(dev.sum().item())


# benign look-alikes

def case_benign25_vmap_fallback_warning() -> None:
    """vmap over ops without a batching rule: a performance warning, the result is right."""
    import warnings

    import torch

    warnings.simplefilter("always")
    x = torch.randn(8, 16, device="cuda")
    for f in (lambda r: torch.histc(r, bins=4), lambda r: torch.bucketize(r, torch.zeros(3, device="cuda")),
              lambda r: torch.linalg.lstsq(r.view(4, 4), r.view(4, 4)).solution,
              lambda r: torch.nanmedian(r)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                torch.vmap(f)(x)
            except Exception as e:
                print(f"PROVOKE-NOTE {type(e).__name__}", flush=True)
                continue
        for w in caught:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        if caught:
            break
    print("vmap done")


def case_benign25_profiler_no_warmup() -> None:
    """torch.profiler with schedule(warmup=0) over CUDA steps; the trace is exported."""
    import torch
    from torch.profiler import ProfilerActivity, profile, schedule

    out = Path(tempfile.mkdtemp()) / "trace.json"
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=0, active=2, repeat=1),
                 on_trace_ready=lambda p: p.export_chrome_trace(str(out))) as prof:
        for _ in range(3):
            (torch.randn(256, 256, device="cuda") @ torch.randn(256, 256, device="cuda")).sum()
            prof.step()
    print("trace", out.stat().st_size)


def case_benign25_profiler_memory_stack() -> None:
    """torch.profiler with profile_memory, with_stack and record_shapes over a GPU step."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    m = torch.nn.Linear(256, 256).cuda()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], profile_memory=True,
                 with_stack=True, record_shapes=True) as prof:
        m(torch.randn(64, 256, device="cuda")).sum().backward()
    print(prof.key_averages().table(row_limit=3)[:80])


def case_benign25_cublas_new_thread() -> None:
    """A reward-model matmul in a fresh Python thread while the main thread trains."""
    import threading

    import torch

    a = torch.randn(64, 64, device="cuda")

    def work() -> None:
        print((a @ a).sum().item(), flush=True)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    print(torch.autograd.grad((a.requires_grad_() @ a).sum(), a)[0].sum().item())


def case_benign25_fsdp2_gpu_step_no_destroy() -> None:
    """FSDP2 on the GPU (NCCL, world 1, bf16 MixedPrecisionPolicy): forward, backward, AdamW
    step, exit without destroy_process_group."""
    import torch
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    _nccl25()
    m = _fsdp25_model(torch)
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    fully_shard(m[0], mp_policy=mp)
    fully_shard(m, mp_policy=mp)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    m(torch.randn(4, 16, device="cuda")).float().pow(2).mean().backward()
    opt.step()
    print("step done")


def case_benign25_custom_op_no_autograd() -> None:
    """A custom op without register_autograd in a forward whose input requires grad (an
    eval-only scoring path; no backward through it)."""
    import torch

    token_logp = _op25_lib()
    logits = torch.randn(2, 4, 32, device="cuda", requires_grad=True)
    out = token_logp(logits, torch.randint(0, 32, (2, 4), device="cuda"))
    print(out.detach().sum().item())


def case_benign25_graph_capture_nccl_eager() -> None:
    """An all_reduce captured into a CUDA graph after an eager (device_id) NCCL init, replayed."""
    import torch
    import torch.distributed as dist

    os.environ.setdefault("NCCL_DEBUG", "WARN")
    _nccl25()
    x = torch.ones(1024, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        dist.all_reduce(x)
    g.replay()
    torch.cuda.synchronize()
    print(x.sum().item())
    dist.destroy_process_group()


def case_benign25_dtensor_uneven_full_tensor() -> None:
    """distribute_tensor of 7 rows over a (1,)-mesh, from_local with run_check, full_tensor."""
    import torch
    from torch.distributed.tensor import DTensor, Shard, distribute_tensor

    mesh = _mesh25()
    dt = distribute_tensor(torch.randn(7, 4, device="cuda"), mesh, [Shard(0)])
    dt2 = DTensor.from_local(dt.to_local(), mesh, [Shard(0)], run_check=True)
    print(dt2.full_tensor().shape)


CASES25: dict[str, Case] = {
    "infer25_generate_ids_backward": (case_infer25_generate_ids_backward, "python_crash", True),
    "infer25_advantage_inplace": (case_infer25_advantage_inplace, "python_crash", True),
    "infer25_old_logp_requires_grad": (case_infer25_old_logp_requires_grad, "python_crash", True),
    "infer25_compile_inference_input": (case_infer25_compile_inference_input, "python_crash",
                                        True),
    "cg25_wait_uncaptured_event": (case_cg25_wait_uncaptured_event, "cuda_error", True),
    "cg25_uncaptured_wait_captured_event": (case_cg25_uncaptured_wait_captured_event, "cuda_error",
                                            True),
    "cg25_event_sync_after_capture": (case_cg25_event_sync_after_capture, "cuda_error", True),
    "cg25_capture_end_other_thread": (case_cg25_capture_end_other_thread, "cuda_error", True),
    "cg25_two_captures_merged": (case_cg25_two_captures_merged, "cuda_error", True),
    "cg25_graphed_callables_hooks": (case_cg25_graphed_callables_hooks, "python_crash", True),
    "cg25_graphed_callables_autocast_cache": (case_cg25_graphed_callables_autocast_cache,
                                              "python_crash", True),
    "cg25_graphed_callables_eval_module": (case_cg25_graphed_callables_eval_module, "python_crash",
                                           True),
    "cg25_capture_lazy_nccl": (case_cg25_capture_lazy_nccl, "nccl_error", True),
    "dt25_op_no_sharding_strategy": (case_dt25_op_no_sharding_strategy, "python_crash", True),
    "dt25_redistribute_shard_to_partial": (case_dt25_redistribute_shard_to_partial, "python_crash",
                                           True),
    "dt25_cross_mesh_clip_grad": (case_dt25_cross_mesh_clip_grad, "python_crash", True),
    "dt25_mesh_unknown_dim_name": (case_dt25_mesh_unknown_dim_name, "python_crash", True),
    "dt25_loss_parallel_replicated_logits": (case_dt25_loss_parallel_replicated_logits,
                                             "python_crash", True),
    "dt25_fsdp2_state_into_plain_model": (case_dt25_fsdp2_state_into_plain_model, "python_crash",
                                          True),
    "fsdp25_fully_shard_twice": (case_fsdp25_fully_shard_twice, "python_crash", True),
    "fsdp25_cpu_offload_then_cuda": (case_fsdp25_cpu_offload_then_cuda, "python_crash", True),
    "fsdp25_prefetch_plain_module": (case_fsdp25_prefetch_plain_module, "python_crash", True),
    "nccl25_monitored_barrier": (case_nccl25_monitored_barrier, "python_crash", True),
    "nccl25_recv_any_source": (case_nccl25_recv_any_source, "python_crash", True),
    "nccl25_barrier_device_ids_bad": (case_nccl25_barrier_device_ids_bad, "cuda_error", True),
    "nccl25_register_hook_expandable": (case_nccl25_register_hook_expandable, "nccl_error", True),
    "rng25_cuda_state_from_cpu": (case_rng25_cuda_state_from_cpu, "python_crash", True),
    "rng25_generator_device_mismatch": (case_rng25_generator_device_mismatch, "python_crash",
                                        True),
    "op25_custom_op_no_fake_compile": (case_op25_custom_op_no_fake_compile, "python_crash", True),
    "op25_custom_op_aliases_input": (case_op25_custom_op_aliases_input, "python_crash", True),
    "func25_vmap_item": (case_func25_vmap_item, "python_crash", True),
    "func25_vmap_random": (case_func25_vmap_random, "python_crash", True),
    "func25_grad_non_scalar": (case_func25_grad_non_scalar, "python_crash", True),
    "func25_functional_call_missing_key": (case_func25_functional_call_missing_key, "python_crash",
                                           True),
    "prof25_nested_profilers": (case_prof25_nested_profilers, "python_crash", True),
    "dev25_set_device_cpu": (case_dev25_set_device_cpu, "python_crash", True),
    "dev25_device_string_from_visible": (case_dev25_device_string_from_visible, "python_crash",
                                         True),
    "dev25_negative_index": (case_dev25_negative_index, "python_crash", True),
    "pin25_pin_cuda_tensor": (case_pin25_pin_cuda_tensor, "python_crash", True),
    "stream25_record_stream_cpu": (case_stream25_record_stream_cpu, "python_crash", True),
    "benign25_vmap_fallback_warning": (case_benign25_vmap_fallback_warning, "benign", True),
    "benign25_profiler_no_warmup": (case_benign25_profiler_no_warmup, "benign", True),
    "benign25_profiler_memory_stack": (case_benign25_profiler_memory_stack, "benign", True),
    "benign25_cublas_new_thread": (case_benign25_cublas_new_thread, "benign", True),
    "benign25_fsdp2_gpu_step_no_destroy": (case_benign25_fsdp2_gpu_step_no_destroy, "benign",
                                           True),
    "benign25_custom_op_no_autograd": (case_benign25_custom_op_no_autograd, "benign", True),
    "benign25_graph_capture_nccl_eager": (case_benign25_graph_capture_nccl_eager, "benign", True),
    "benign25_dtensor_uneven_full_tensor": (case_benign25_dtensor_uneven_full_tensor, "benign",
                                            True),
}
CASES.update(CASES25)
# None of them faults the whole GPU or fills it: `run` starts them all in its worker pool.
GPU_SHARED25 = frozenset(CASES25)
TIMEOUT_S.update({n: 90 for n in CASES25})
TIMEOUT_S.update({"infer25_compile_inference_input": 150, "op25_custom_op_no_fake_compile": 150,
                  "infer25_generate_ids_backward": 120})


# ----------------------------------------------------------------------------- set 27: torch CPU runtime
# torch 2.11 on CPU outside torch.distributed: what a GRPO trainer process meets on its CPU side
# (DataLoader workers, torch.multiprocessing, torch.compile / dynamo / inductor, autograd,
# optimizer / scheduler / state_dict resumes, torch.save / torch.load, threads, signals).


def _in_mount_ns27(case: str, mount_sh: str) -> None:
    """Re-exec this case inside a private mount namespace after `mount_sh` (as set 4's small /dev/shm
    case): the mount ends with the case, nothing is left mounted on the host."""
    if os.environ.get("PROVOKE_IN_NS27") == "1":
        return
    cmd = f'{mount_sh} && PROVOKE_IN_NS27=1 exec "{sys.executable}" "{SCRIPT}" case {case}'
    rc = subprocess.call(["unshare", "--mount", "--propagation", "private", "bash", "-c", cmd])
    print(f"PROVOKE-NOTE unshare rc={rc}", flush=True)
    sys.exit(rc)


def _rollouts27(n: int = 16) -> Any:
    """A map-style dataset of n prompt-token tensors."""
    import torch

    class Rollouts:
        def __len__(self) -> int:
            return n

        def __getitem__(self, i: int) -> Any:
            return torch.full((8,), float(i))

    return Rollouts()




def case_dl27_persistent_worker_killed_between_epochs() -> None:
    """persistent_workers=True: epoch 1 runs, the kernel's OOM killer (SIGKILL) takes a worker while
    the loop evaluates, epoch 2 starts."""
    import signal

    from torch.utils.data import DataLoader

    dl = DataLoader(_rollouts27(), batch_size=2, num_workers=2, persistent_workers=True)
    for _ in dl:
        pass
    print("epoch 1 done", flush=True)
    for w in dl._iterator._workers:  # type: ignore[union-attr]
        os.kill(w.pid, signal.SIGKILL)
        break
    time.sleep(1)
    for _ in dl:
        pass


def case_dl27_worker_init_seed_range() -> None:
    """worker_init_fn seeding numpy with base_seed + worker_id past 2**32 - 1."""
    import numpy as np
    import torch
    from torch.utils.data import DataLoader

    def init(worker_id: int) -> None:
        np.random.seed(torch.initial_seed() + 2**32 + worker_id)

    for _ in DataLoader(_rollouts27(), batch_size=2, num_workers=2, worker_init_fn=init):
        pass


def case_dl27_collate_numpy_object() -> None:
    """Ragged reward lists stored as numpy object arrays, default_collate in the workers."""
    import numpy as np
    from torch.utils.data import DataLoader

    class DS:
        def __len__(self) -> int:
            return 8

        def __getitem__(self, i: int) -> Any:
            return np.array([[1.0] * (i + 1), [0.5]], dtype=object)

    for _ in DataLoader(DS(), batch_size=4, num_workers=1):
        pass


def case_dl27_collate_dict_key_missing() -> None:
    """Samples as dicts, one without the 'reward' key (a failed reward call), collated in a worker."""
    import torch
    from torch.utils.data import DataLoader

    class DS:
        def __len__(self) -> int:
            return 8

        def __getitem__(self, i: int) -> Any:
            d = {"input_ids": torch.arange(4), "reward": torch.tensor(1.0)}
            if i == 6:
                del d["reward"]
            return d

    for _ in DataLoader(DS(), batch_size=4, num_workers=1):
        pass


def case_dl27_shuffle_empty_dataset() -> None:
    """shuffle=True over a prompt set that filtering left empty."""
    from torch.utils.data import DataLoader

    prompts: list[str] = [p for p in ["a" * 9000] if len(p) < 4096]
    DataLoader(prompts, batch_size=4, shuffle=True)


def case_dl27_prefetch_without_workers() -> None:
    """prefetch_factor set in the config while num_workers is 0."""
    from torch.utils.data import DataLoader

    DataLoader(list(range(8)), batch_size=2, num_workers=0, prefetch_factor=4)


def case_dl27_mp_context_typo() -> None:
    """multiprocessing_context misspelled in the trainer config."""
    from torch.utils.data import DataLoader

    DataLoader(list(range(8)), batch_size=2, num_workers=2, multiprocessing_context="spwan")


class _CachedRewards27:
    """A dataset with a reward cache guarded by a threading.Lock (module level: spawn can find it)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> int:
        return i


def case_dl27_spawn_dataset_holds_lock() -> None:
    """multiprocessing_context='spawn' with a dataset that holds a threading.Lock (a reward cache)."""
    from torch.utils.data import DataLoader

    for _ in DataLoader(_CachedRewards27(), batch_size=2, num_workers=1,
                        multiprocessing_context="spawn"):
        pass


def case_dl27_shm_readonly() -> None:
    """/dev/shm mounted read-only (a hardened pod spec), DataLoader workers returning tensors."""
    _in_mount_ns27("dl27_shm_readonly", "mount -t tmpfs -o ro,size=8m tmpfs /dev/shm")
    from torch.utils.data import DataLoader

    for _ in DataLoader(_rollouts27(), batch_size=2, num_workers=1):
        pass


def case_benign27_dl_pin_memory_no_accel() -> None:
    """pin_memory=True on a CPU-only node: torch warns and the epoch runs."""
    from torch.utils.data import DataLoader

    n = sum(1 for _ in DataLoader(_rollouts27(), batch_size=2, num_workers=1, pin_memory=True))
    print("batches", n)


def _producer27(q: Any) -> None:
    import torch

    q.put(torch.ones(1024))  # shared through a file descriptor; the producer exits at once


def case_mp27_queue_producer_exited() -> None:
    """A rollout process puts a tensor on a torch.multiprocessing queue and exits before the
    trainer takes it (file_descriptor sharing)."""
    import torch.multiprocessing as tmp

    ctx = tmp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_producer27, args=(q,))
    p.start()
    p.join()
    time.sleep(0.5)
    print(q.get(timeout=10).sum())


def case_mp27_spawn_no_main_guard() -> None:
    """A trainer script that calls torch.multiprocessing.spawn at module level (no __main__ guard)."""
    d = Path(tempfile.mkdtemp())
    (d / "grpo_launch.py").write_text(
        "import torch.multiprocessing as mp\n"
        "def rollout(rank):\n"
        "    print('rollout', rank)\n"
        "mp.spawn(rollout, nprocs=1)\n")
    subprocess.call([sys.executable, str(d / "grpo_launch.py")], cwd=d, timeout=50)
    sys.exit(1)


def case_comp27_invalid_backend() -> None:
    """torch.compile(backend=...) with a typo from the trainer config."""
    import torch

    step = torch.compile(lambda x: torch.tanh(x) * 2, backend="inductr")
    step(torch.randn(8))


def case_comp27_mode_typo() -> None:
    """torch.compile(mode='max_autotune') (underscore)."""
    import torch

    step = torch.compile(lambda x: torch.tanh(x) * 2, mode="max_autotune")
    step(torch.randn(8))


def case_comp27_fullgraph_tolist() -> None:
    """fullgraph=True over a reward function that turns scores into a Python list."""
    import torch

    @torch.compile(fullgraph=True)
    def reward(scores: Any) -> Any:
        return torch.tensor([s > 0.5 for s in scores.tolist()], dtype=torch.float32)

    reward(torch.rand(8))


def case_comp27_fullgraph_open() -> None:
    """fullgraph=True over a step that appends to a log file."""
    import torch

    log = Path(tempfile.mkdtemp()) / "steps.log"

    @torch.compile(fullgraph=True)
    def step(x: Any) -> Any:
        with open(log, "a") as f:
            f.write("step\n")
        return x * 2

    step(torch.randn(8))


def case_comp27_fullgraph_deepcopy() -> None:
    """fullgraph=True over a step that deep-copies its batch dict."""
    import copy

    import torch

    @torch.compile(fullgraph=True)
    def step(batch: Any) -> Any:
        b = copy.deepcopy(batch)
        return b["logp"].exp().mean()

    step({"logp": torch.randn(8)})


def case_comp27_torch_logs_typo() -> None:
    """TORCH_LOGS with a misspelled component, set in the job's env."""
    os.environ["TORCH_LOGS"] = "+dynmo,recompiles"
    import torch

    torch.compile(lambda x: x + 1)(torch.ones(2))


def case_comp27_cache_noexec() -> None:
    """TORCHINDUCTOR_CACHE_DIR on a noexec tmpfs (a hardened /tmp): inductor compiles its C++ kernel
    and cannot map the .so."""
    _in_mount_ns27("comp27_cache_noexec",
                   "mkdir -p /tmp/irisrl27_noexec && mount -t tmpfs -o noexec,size=64m tmpfs "
                   "/tmp/irisrl27_noexec")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = "/tmp/irisrl27_noexec/inductor"
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    import torch

    f = torch.compile(lambda x: torch.sin(x) * 2 + x.mean())
    print(f(torch.randn(64)).sum().item())


def case_comp27_cxx_missing_python_h() -> None:
    """Inductor's C++ build on an image without the Python headers (the compiler finds no Python.h:
    a g++ wrapper drops the python include dir, as a missing python3-dev package does)."""
    d = Path(tempfile.mkdtemp())
    wrapper = d / "g++"
    wrapper.write_text('#!/bin/bash\nargs=()\nfor a in "$@"; do case "$a" in -I*/include/python3*) ;; '
                       '*) args+=("$a");; esac; done\nexec /usr/bin/g++ "${args[@]}"\n')
    wrapper.chmod(0o755)
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(d / "inductor")
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    import torch
    import torch._inductor.config as icfg

    icfg.cpp.cxx = (str(wrapper),)
    icfg.cpp_wrapper = True
    f = torch.compile(lambda x: torch.sin(x) * 2 + x.mean())
    print(f(torch.randn(64)).sum().item())


def case_benign27_compile_suppress_errors() -> None:
    """torch._dynamo.config.suppress_errors=True and a backend that fails: dynamo logs the error
    and runs the step eagerly."""
    import torch
    import torch._dynamo

    torch._dynamo.config.suppress_errors = True

    def lowering(gm: Any, example_inputs: Any) -> Any:
        raise NotImplementedError("aten::_fused_grpo_loss has no lowering")

    f = torch.compile(lambda x: torch.log_softmax(x, -1).mean(), backend=lowering)
    print("loss", f(torch.randn(4, 8)).item())


def case_ag27_grad_unused_input() -> None:
    """autograd.grad of the policy loss w.r.t. the value head too (not in the graph)."""
    import torch

    policy = torch.nn.Linear(8, 4)
    value = torch.nn.Linear(8, 1)
    loss = policy(torch.randn(2, 8)).logsumexp(-1).mean()
    torch.autograd.grad(loss, [policy.weight, value.weight])


def case_ag27_view_nograd_inplace() -> None:
    """A slice of the logits taken under no_grad (for logging), then clamped in place in the loss."""
    import torch

    logits = torch.nn.Linear(8, 16)(torch.randn(2, 8))
    with torch.no_grad():
        first = logits[:, :4]
    first.clamp_(-5, 5)


def case_ag27_int_requires_grad() -> None:
    """requires_grad_() on the token ids instead of the embeddings."""
    import torch

    ids = torch.randint(0, 100, (2, 8))
    ids.requires_grad_()


def case_ag27_numpy_requires_grad() -> None:
    """Logging advantages with .numpy() before detaching them."""
    import torch

    adv = torch.nn.Linear(4, 1)(torch.randn(8, 4)).squeeze(-1)
    print(adv.numpy().mean())


def case_ag27_item_multi_element() -> None:
    """.item() on a per-sequence loss (not reduced)."""
    import torch

    loss = torch.nn.Linear(4, 1)(torch.randn(8, 4)).squeeze(-1).pow(2)
    print(loss.item())


def case_ag27_grad_assign_size() -> None:
    """Copying a gradient buffer from another shard layout into .grad."""
    import torch

    w = torch.nn.Linear(16, 8).weight
    w.grad = torch.zeros(8, 8)


def case_ag27_inplace_saved_anomaly() -> None:
    """Anomaly mode on, ratio = exp(logp - old) then clamped in place before backward."""
    import torch

    with torch.autograd.detect_anomaly():
        logp = torch.randn(16, requires_grad=True)
        ratio = torch.exp(logp - torch.randn(16))
        ratio.clamp_(0.8, 1.2)
        (-ratio.mean()).backward()


def case_opt27_state_shape_mismatch_step() -> None:
    """Resume: the AdamW state of a hidden-16 policy loaded into a hidden-32 one (same parameter
    count per group), then step()."""
    import torch

    small = torch.nn.Linear(16, 4)
    o1 = torch.optim.AdamW(small.parameters())
    small(torch.randn(2, 16)).sum().backward()
    o1.step()
    big = torch.nn.Linear(32, 4)
    o2 = torch.optim.AdamW(big.parameters())
    o2.load_state_dict(o1.state_dict())
    big(torch.randn(2, 32)).sum().backward()
    o2.step()


def case_opt27_duplicate_params() -> None:
    """Param groups with the LoRA weights listed in both the default group and a no-decay group."""
    import torch

    m = torch.nn.Linear(8, 8)
    torch.optim.AdamW([{"params": m.parameters()}, {"params": [m.bias], "weight_decay": 0.0}])


def case_opt27_plateau_no_metric() -> None:
    """ReduceLROnPlateau stepped like the other schedulers (no metric)."""
    import torch

    o = torch.optim.AdamW(torch.nn.Linear(4, 4).parameters())
    s = torch.optim.lr_scheduler.ReduceLROnPlateau(o)
    o.step()
    s.step()


def case_opt27_sequential_milestones() -> None:
    """SequentialLR(warmup, cosine) given two milestones."""
    import torch

    o = torch.optim.AdamW(torch.nn.Linear(4, 4).parameters())
    warm = torch.optim.lr_scheduler.LinearLR(o, 0.1, total_iters=10)
    cos = torch.optim.lr_scheduler.CosineAnnealingLR(o, 100)
    torch.optim.lr_scheduler.SequentialLR(o, [warm, cos], milestones=[10, 110])


def case_opt27_scheduler_state_other_class() -> None:
    """Resume: a CosineAnnealingLR state loaded into the LambdaLR the new config builds."""
    import torch

    o = torch.optim.AdamW(torch.nn.Linear(4, 4).parameters())
    saved = torch.optim.lr_scheduler.CosineAnnealingLR(o, 100).state_dict()
    torch.optim.lr_scheduler.LambdaLR(o, lambda s: min(1.0, s / 10)).load_state_dict(saved)


def case_opt27_lr_tensor_foreach() -> None:
    """lr given as a tensor (from a schedule buffer) with foreach=True."""
    import torch

    torch.optim.AdamW(torch.nn.Linear(4, 4).parameters(), lr=torch.tensor(1e-6), foreach=True)



def case_sd27_not_a_dict() -> None:
    """load_state_dict given the list torch.load returned (a checkpoint of per-layer tensors)."""
    import torch

    p = Path(tempfile.mkdtemp()) / "policy.pt"
    m = torch.nn.Linear(4, 4)
    torch.save(list(m.state_dict().values()), p)
    m.load_state_dict(torch.load(p))


def case_sd27_full_checkpoint_wrapper() -> None:
    """load_state_dict given the whole training checkpoint ({'model', 'optimizer', 'step'})."""
    import torch

    class PolicyHead(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(8, 8)
            self.out = torch.nn.Linear(8, 2)

    m = PolicyHead()
    o = torch.optim.AdamW(m.parameters())
    p = Path(tempfile.mkdtemp()) / "global_step_40.pt"
    torch.save({"model": m.state_dict(), "optimizer": o.state_dict(), "step": 40}, p)
    PolicyHead().load_state_dict(torch.load(p))


def case_ser27_weights_only_namespace() -> None:
    """A checkpoint that pickled the run's argparse.Namespace, loaded with the default
    weights_only=True."""
    import argparse as _ap

    import torch

    p = Path(tempfile.mkdtemp()) / "global_step_40.pt"
    torch.save({"w": torch.ones(4), "args": _ap.Namespace(lr=1e-6, kl_coef=0.001)}, p)
    torch.load(p)


def case_ser27_weights_only_dataclass() -> None:
    """A checkpoint that pickled the trainer's state dataclass, loaded with weights_only=True."""
    import torch

    p = Path(tempfile.mkdtemp()) / "trainer_state.pt"
    mod = Path(tempfile.mkdtemp())
    (mod / "grpo_state27.py").write_text(
        "import dataclasses\n@dataclasses.dataclass\nclass TrainerState:\n    step: int = 0\n"
        "    best_reward: float = 0.0\n")
    sys.path.insert(0, str(mod))
    import grpo_state27  # type: ignore[import-not-found]

    torch.save({"state": grpo_state27.TrainerState(step=40)}, p)
    torch.load(p)


def case_ser27_save_legacy_readonly_mount() -> None:
    """torch.save(_use_new_zipfile_serialization=False) into a checkpoint dir mounted read-only."""
    _in_mount_ns27("ser27_save_legacy_readonly_mount",
                   "mkdir -p /tmp/irisrl27_ro && mount -t tmpfs -o ro,size=1m tmpfs /tmp/irisrl27_ro")
    import torch

    torch.save({"w": torch.ones(4)}, "/tmp/irisrl27_ro/global_step_40.pt",
               _use_new_zipfile_serialization=False)



def case_thr27_interop_set_twice() -> None:
    """set_num_interop_threads called by the trainer after a library already set it."""
    import torch

    torch.set_num_interop_threads(2)
    torch.set_num_interop_threads(4)


def case_thr27_num_threads_zero() -> None:
    """torch.set_num_threads(os.cpu_count() // 8) on a 2-CPU pod (0 threads)."""
    import torch

    torch.set_num_threads(os.cpu_count() // 8)  # type: ignore[operator]


def case_benign27_omp_num_threads_invalid() -> None:
    """OMP_NUM_THREADS=auto in the pod env: libgomp complains, torch runs with its default."""
    code = ("import torch; x = torch.randn(256, 256); print('threads', torch.get_num_threads(), "
            "float((x @ x).sum()) != 0)")
    env = dict(os.environ, OMP_NUM_THREADS="auto")
    sys.exit(subprocess.call([sys.executable, "-c", code], env=env, timeout=50))



def case_benign27_faulthandler_sigusr1() -> None:
    """faulthandler.register(SIGUSR1): an operator asks a slow step for its stacks; the run goes on."""
    import faulthandler
    import signal

    import torch

    faulthandler.register(signal.SIGUSR1, all_threads=True)
    x = torch.randn(64, 64)
    os.kill(os.getpid(), signal.SIGUSR1)
    time.sleep(0.5)
    print("step done", float((x @ x).sum()) != 0)


def case_num27_cross_entropy_target_oob() -> None:
    """Token ids from a tokenizer with added tokens, scored against the base vocab's logits."""
    import torch
    import torch.nn.functional as F

    F.cross_entropy(torch.randn(4, 32), torch.tensor([1, 2, 31, 32]))


def case_num27_embedding_oob() -> None:
    """An embedding table sized for the base vocab given an added token's id."""
    import torch

    torch.nn.Embedding(32, 8)(torch.tensor([[1, 2, 32]]))


def case_num27_bernoulli_out_of_range() -> None:
    """Dropout-like masking with p computed from a reward that overshot 1."""
    import torch

    torch.bernoulli(torch.tensor([0.2, 1.25]))


def case_num27_sdpa_int_mask() -> None:
    """scaled_dot_product_attention given the tokenizer's int64 attention mask."""
    import torch
    import torch.nn.functional as F

    q = torch.randn(1, 2, 4, 8)
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(4, 4, dtype=torch.long))


def case_num27_matmul_mixed_dtype() -> None:
    """A bf16 value head applied to the fp32 hidden states."""
    import torch

    torch.randn(2, 16) @ torch.randn(16, 1, dtype=torch.bfloat16)



def case_benign27_nonleaf_grad_access() -> None:
    """Logging logits.grad (a non-leaf) after backward: a UserWarning, the step goes on."""
    import torch

    logits = torch.nn.Linear(4, 8)(torch.randn(2, 4))
    logits.logsumexp(-1).mean().backward()
    print("logits grad", logits.grad)


def case_benign27_meta_load_no_assign() -> None:
    """A model built on the meta device loaded without assign=True: a UserWarning per tensor, the
    run goes on (with meta weights)."""
    import torch

    with torch.device("meta"):
        head = torch.nn.Linear(4, 2)
    head.load_state_dict(torch.nn.Linear(4, 2).state_dict())
    print("loaded", head.weight.device)





def _weights_only27(obj: dict[str, Any], name: str) -> None:
    import torch

    p = Path(tempfile.mkdtemp()) / name
    torch.save(obj, p)
    torch.load(p)


def case_ser27_weights_only_numpy_scalar() -> None:
    """A trainer state holding the best reward as a numpy float64, loaded with weights_only=True."""
    import numpy as np
    import torch

    _weights_only27({"w": torch.ones(4), "best_reward": np.float64(0.731)}, "trainer_state.pt")


def case_ser27_weights_only_posixpath() -> None:
    """A checkpoint whose config kept output_dir as a pathlib.Path, loaded with weights_only=True."""
    import torch

    _weights_only27({"w": torch.ones(4), "output_dir": Path("/ckpt/grpo")}, "global_step_40.pt")


def case_ser27_weights_only_defaultdict() -> None:
    """A checkpoint holding reward counters in a collections.defaultdict, weights_only=True."""
    import collections

    import torch

    _weights_only27({"w": torch.ones(4), "counts": collections.defaultdict(int, {"pass": 3})},
                    "global_step_40.pt")


def case_disk27_save_inodes_exhausted() -> None:
    """torch.save onto a filesystem with free bytes but no free inodes (tmpfs nr_inodes=3)."""
    _in_mount_ns27("disk27_save_inodes_exhausted",
                   "mkdir -p /tmp/irisrl27_ino && mount -t tmpfs -o size=8m,nr_inodes=3 tmpfs "
                   "/tmp/irisrl27_ino && touch /tmp/irisrl27_ino/events.0 /tmp/irisrl27_ino/events.1")
    import torch

    torch.save({"w": torch.ones(1024)}, "/tmp/irisrl27_ino/global_step_40.pt")


def case_disk27_save_legacy_inodes_exhausted() -> None:
    """torch.save(_use_new_zipfile_serialization=False) onto a filesystem with no free inodes."""
    _in_mount_ns27("disk27_save_legacy_inodes_exhausted",
                   "mkdir -p /tmp/irisrl27_ino && mount -t tmpfs -o size=8m,nr_inodes=3 tmpfs "
                   "/tmp/irisrl27_ino && touch /tmp/irisrl27_ino/events.0 /tmp/irisrl27_ino/events.1")
    import torch

    torch.save({"w": torch.ones(1024)}, "/tmp/irisrl27_ino/global_step_40.pt",
               _use_new_zipfile_serialization=False)


def case_dl27_share_memory_small_shm() -> None:
    """A rollout buffer moved to shared memory (share_memory_()) on a 1 MiB /dev/shm."""
    _in_mount_ns27("dl27_share_memory_small_shm", "mount -t tmpfs -o size=1m tmpfs /dev/shm")
    import torch

    buf = torch.zeros(1 << 20)
    buf.share_memory_()


def case_num27_gather_dims() -> None:
    """Token log-probs gathered with ids missing their trailing unsqueeze(-1)."""
    import torch

    logp = torch.randn(2, 5, 32).log_softmax(-1)
    logp.gather(-1, torch.randint(0, 32, (2, 5)))


def case_num27_gather_index_oob() -> None:
    """Token log-probs gathered with an added token's id past the logits' vocab (CPU)."""
    import torch

    logp = torch.randn(2, 5, 32).log_softmax(-1)
    ids = torch.randint(0, 32, (2, 5, 1))
    ids[1, 3, 0] = 32
    logp.gather(-1, ids)


def case_num27_masked_fill_float_mask() -> None:
    """The attention mask (float) used directly as masked_fill's mask."""
    import torch

    scores = torch.randn(2, 4)
    scores.masked_fill(torch.ones(2, 4), float("-inf"))


def case_num27_cat_ragged() -> None:
    """Responses of two rollout groups concatenated without padding to one length."""
    import torch

    torch.cat([torch.ones(4, 128, dtype=torch.long), torch.ones(4, 96, dtype=torch.long)], 0)


def case_opt27_state_dict_missing_groups() -> None:
    """Resume from a checkpoint whose optimizer entry kept only 'state' (param_groups stripped)."""
    import torch

    o = torch.optim.AdamW(torch.nn.Linear(4, 4).parameters())
    o.load_state_dict({"state": o.state_dict()["state"]})


def case_cuda27_stream_no_driver() -> None:
    """A trainer scheduled onto a node whose NVIDIA driver is gone creates its weight-sync CUDA stream
    (its CPU-side set-up ran, the first CUDA call fails)."""
    import torch

    print("cuda available:", torch.cuda.is_available(), flush=True)
    torch.cuda.Stream()


def case_benign27_gradscaler_no_cuda() -> None:
    """GradScaler('cuda') built on a CPU-only node: torch disables it with a warning, the step runs."""
    import torch

    m = torch.nn.Linear(4, 1)
    o = torch.optim.AdamW(m.parameters())
    scaler = torch.amp.GradScaler("cuda")
    scaler.scale(m(torch.randn(2, 4)).sum()).backward()
    scaler.step(o)
    scaler.update()
    print("step done")


def case_dl27_batch_sampler_and_batch_size() -> None:
    """A length-grouped batch_sampler passed next to the config's batch_size."""
    from torch.utils.data import BatchSampler, DataLoader, SequentialSampler

    bs = BatchSampler(SequentialSampler(range(16)), batch_size=4, drop_last=False)
    DataLoader(list(range(16)), batch_size=4, batch_sampler=bs)


def case_dl27_iterable_shuffle() -> None:
    """A streaming prompt IterableDataset given shuffle=True."""
    from torch.utils.data import DataLoader, IterableDataset

    class Stream(IterableDataset):  # type: ignore[type-arg]
        def __iter__(self) -> Any:
            return iter(range(8))

    DataLoader(Stream(), batch_size=2, shuffle=True)


def case_dl27_negative_workers() -> None:
    """num_workers=-1 (meant as 'all cores') in the trainer config."""
    from torch.utils.data import DataLoader

    DataLoader(list(range(8)), batch_size=2, num_workers=-1)


def case_comp27_fullgraph_data_branch() -> None:
    """fullgraph=True over a loss that branches on whether any advantage is nonzero."""
    import torch

    @torch.compile(fullgraph=True)
    def loss(logp: Any, adv: Any) -> Any:
        if adv.abs().sum() > 0:
            return -(logp * adv).mean()
        return logp.sum() * 0

    loss(torch.randn(8), torch.randn(8))


def case_ag27_backward_grad_shape() -> None:
    """torch.autograd.backward with grad_tensors of another shape than the outputs."""
    import torch

    out = torch.nn.Linear(4, 2)(torch.randn(3, 4))
    torch.autograd.backward([out], [torch.ones(3, 3)])


def case_opt27_params_module() -> None:
    """The optimizer given the module instead of its parameters."""
    import torch

    torch.optim.AdamW(torch.nn.Linear(4, 4), lr=1e-6)  # type: ignore[arg-type]


def case_opt27_invalid_beta() -> None:
    """betas=(0.9, 1.2) from a config whose beta2 was meant as 0.999 (a typo)."""
    import torch

    torch.optim.AdamW(torch.nn.Linear(4, 4).parameters(), betas=(0.9, 1.2))


def case_ser27_save_lambda_in_config() -> None:
    """torch.save of a checkpoint that holds the config dict with its reward lambda."""
    import torch

    cfg = {"reward_fn": lambda s: float(len(s) < 100), "lr": 1e-6}
    torch.save({"w": torch.ones(4), "config": cfg}, Path(tempfile.mkdtemp()) / "ckpt.pt")



def case_num27_log_softmax_long() -> None:
    """log_softmax over integer scores (a reward model's argmax ids)."""
    import torch

    torch.log_softmax(torch.randint(0, 5, (2, 5)), dim=-1)


def case_num27_randint_empty_pool() -> None:
    """Sampling prompt indices from a pool that filtering left empty."""
    import torch

    pool: list[int] = []
    torch.randint(0, len(pool), (4,))


CASES27: dict[str, Case] = {
    "dl27_persistent_worker_killed_between_epochs": (
        case_dl27_persistent_worker_killed_between_epochs, "python_crash", False),
    "dl27_worker_init_seed_range": (case_dl27_worker_init_seed_range, "python_crash", False),
    "dl27_collate_numpy_object": (case_dl27_collate_numpy_object, "python_crash", False),
    "dl27_collate_dict_key_missing": (case_dl27_collate_dict_key_missing, "python_crash", False),
    "dl27_shuffle_empty_dataset": (case_dl27_shuffle_empty_dataset, "python_crash", False),
    "dl27_prefetch_without_workers": (case_dl27_prefetch_without_workers, "python_crash", False),
    "dl27_mp_context_typo": (case_dl27_mp_context_typo, "python_crash", False),
    "dl27_spawn_dataset_holds_lock": (case_dl27_spawn_dataset_holds_lock, "python_crash", False),
    "dl27_shm_readonly": (case_dl27_shm_readonly, "python_crash", False),
    "benign27_dl_pin_memory_no_accel": (case_benign27_dl_pin_memory_no_accel, "benign", False),
    "mp27_queue_producer_exited": (case_mp27_queue_producer_exited, "python_crash", False),
    "mp27_spawn_no_main_guard": (case_mp27_spawn_no_main_guard, "python_crash", False),
    "comp27_invalid_backend": (case_comp27_invalid_backend, "python_crash", False),
    "comp27_mode_typo": (case_comp27_mode_typo, "python_crash", False),
    "comp27_fullgraph_tolist": (case_comp27_fullgraph_tolist, "python_crash", False),
    "comp27_fullgraph_open": (case_comp27_fullgraph_open, "python_crash", False),
    "comp27_fullgraph_deepcopy": (case_comp27_fullgraph_deepcopy, "python_crash", False),
    "comp27_torch_logs_typo": (case_comp27_torch_logs_typo, "python_crash", False),
    "comp27_cache_noexec": (case_comp27_cache_noexec, "python_crash", False),
    "comp27_cxx_missing_python_h": (case_comp27_cxx_missing_python_h, "python_crash", False),
    "benign27_compile_suppress_errors": (case_benign27_compile_suppress_errors, "benign", False),
    "ag27_grad_unused_input": (case_ag27_grad_unused_input, "python_crash", False),
    "ag27_view_nograd_inplace": (case_ag27_view_nograd_inplace, "python_crash", False),
    "ag27_int_requires_grad": (case_ag27_int_requires_grad, "python_crash", False),
    "ag27_numpy_requires_grad": (case_ag27_numpy_requires_grad, "python_crash", False),
    "ag27_item_multi_element": (case_ag27_item_multi_element, "python_crash", False),
    "ag27_grad_assign_size": (case_ag27_grad_assign_size, "python_crash", False),
    "ag27_inplace_saved_anomaly": (case_ag27_inplace_saved_anomaly, "python_crash", False),
    "opt27_state_shape_mismatch_step": (case_opt27_state_shape_mismatch_step, "python_crash", False),
    "opt27_duplicate_params": (case_opt27_duplicate_params, "python_crash", False),
    "opt27_plateau_no_metric": (case_opt27_plateau_no_metric, "python_crash", False),
    "opt27_sequential_milestones": (case_opt27_sequential_milestones, "python_crash", False),
    "opt27_scheduler_state_other_class": (case_opt27_scheduler_state_other_class, "python_crash",
                                          False),
    "opt27_lr_tensor_foreach": (case_opt27_lr_tensor_foreach, "python_crash", False),
    "sd27_not_a_dict": (case_sd27_not_a_dict, "python_crash", False),
    "sd27_full_checkpoint_wrapper": (case_sd27_full_checkpoint_wrapper, "python_crash", False),
    "ser27_weights_only_namespace": (case_ser27_weights_only_namespace, "checkpoint_corrupt", False),
    "ser27_weights_only_dataclass": (case_ser27_weights_only_dataclass, "checkpoint_corrupt", False),
    "ser27_save_legacy_readonly_mount": (case_ser27_save_legacy_readonly_mount, "python_crash",
                                         False),
    "thr27_interop_set_twice": (case_thr27_interop_set_twice, "python_crash", False),
    "thr27_num_threads_zero": (case_thr27_num_threads_zero, "python_crash", False),
    "benign27_omp_num_threads_invalid": (case_benign27_omp_num_threads_invalid, "benign", False),
    "benign27_faulthandler_sigusr1": (case_benign27_faulthandler_sigusr1, "benign", False),
    "num27_cross_entropy_target_oob": (case_num27_cross_entropy_target_oob, "python_crash", False),
    "num27_embedding_oob": (case_num27_embedding_oob, "python_crash", False),
    "num27_bernoulli_out_of_range": (case_num27_bernoulli_out_of_range, "python_crash", False),
    "num27_sdpa_int_mask": (case_num27_sdpa_int_mask, "python_crash", False),
    "num27_matmul_mixed_dtype": (case_num27_matmul_mixed_dtype, "python_crash", False),
    "ser27_weights_only_numpy_scalar": (case_ser27_weights_only_numpy_scalar, "checkpoint_corrupt",
                                        False),
    "ser27_weights_only_posixpath": (case_ser27_weights_only_posixpath, "checkpoint_corrupt", False),
    "ser27_weights_only_defaultdict": (case_ser27_weights_only_defaultdict, "checkpoint_corrupt",
                                       False),
    "disk27_save_inodes_exhausted": (case_disk27_save_inodes_exhausted, "disk_full", False),
    "disk27_save_legacy_inodes_exhausted": (case_disk27_save_legacy_inodes_exhausted, "disk_full",
                                            False),
    "dl27_share_memory_small_shm": (case_dl27_share_memory_small_shm, "python_crash", False),
    "num27_gather_dims": (case_num27_gather_dims, "python_crash", False),
    "num27_gather_index_oob": (case_num27_gather_index_oob, "python_crash", False),
    "num27_masked_fill_float_mask": (case_num27_masked_fill_float_mask, "python_crash", False),
    "num27_cat_ragged": (case_num27_cat_ragged, "python_crash", False),
    "opt27_state_dict_missing_groups": (case_opt27_state_dict_missing_groups, "python_crash", False),
    "cuda27_stream_no_driver": (case_cuda27_stream_no_driver, "cuda_error", False),
    "benign27_gradscaler_no_cuda": (case_benign27_gradscaler_no_cuda, "benign", False),
    "dl27_batch_sampler_and_batch_size": (case_dl27_batch_sampler_and_batch_size, "python_crash",
                                          False),
    "dl27_iterable_shuffle": (case_dl27_iterable_shuffle, "python_crash", False),
    "dl27_negative_workers": (case_dl27_negative_workers, "python_crash", False),
    "comp27_fullgraph_data_branch": (case_comp27_fullgraph_data_branch, "python_crash", False),
    "ag27_backward_grad_shape": (case_ag27_backward_grad_shape, "python_crash", False),
    "opt27_params_module": (case_opt27_params_module, "python_crash", False),
    "opt27_invalid_beta": (case_opt27_invalid_beta, "python_crash", False),
    "ser27_save_lambda_in_config": (case_ser27_save_lambda_in_config, "python_crash", False),
    "num27_log_softmax_long": (case_num27_log_softmax_long, "python_crash", False),
    "num27_randint_empty_pool": (case_num27_randint_empty_pool, "python_crash", False),
    "benign27_nonleaf_grad_access": (case_benign27_nonleaf_grad_access, "benign", False),
    "benign27_meta_load_no_assign": (case_benign27_meta_load_no_assign, "benign", False),
}
CASES.update(CASES27)
TIMEOUT_S.update({n: 90 for n in CASES27 if n.startswith(("comp27_", "benign27_compile"))})


# ----------------------------------------------------------------------------- set 29: data and generation side
# The DATA and GENERATION side of a GRPO trainer on CPU, current releases: `datasets` / pyarrow
# (load_dataset over local parquet / jsonl / json files that are corrupt, truncated, schema-mismatched
# or of mixed types, casts that fail, map() raising in num_proc workers, a cache dir that is read-only
# or full, streaming of a missing file, dataset repos on set 1's loopback Hub), chat templates that
# raise, tokenizer checks, transformers generate() on a tiny random Llama (stopping criteria, logits
# processors, token ids and generation configs a rollout worker gets wrong), and the parsing of
# reward-model / rollout outputs (json, orjson, pandas).


def _ds29_dir(name: str) -> Path:
    d = Path(tempfile.mkdtemp(prefix="irisrl29")) / name
    d.mkdir(parents=True, exist_ok=True)
    return d


def _ds29_env() -> None:
    """datasets' cache in a fresh temp dir, no Hub (local files only)."""
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"


def _rows29(n: int = 64) -> list[dict[str, Any]]:
    return [{"prompt": f"What is {i} + {i}?", "answer": str(2 * i), "reward": float(i % 2)}
            for i in range(n)]


def _parquet29(path: Path, n: int = 64) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(_rows29(n)), path)
    return path


def _jsonl29(path: Path, rows: list[dict[str, Any]] | None = None) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in (rows if rows is not None else _rows29())))
    return path


def case_ds29_parquet_footer_cut() -> None:
    """The train split's parquet file cut in half (a copy interrupted), through load_dataset."""
    _ds29_env()
    from datasets import load_dataset

    p = _parquet29(_ds29_dir("gsm8k") / "train.parquet", 2000)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    load_dataset("parquet", data_files={"train": str(p)})


def case_ds29_parquet_zero_bytes() -> None:
    """An empty train.parquet (a sync that created the file and never wrote it)."""
    _ds29_env()
    from datasets import load_dataset

    p = _ds29_dir("gsm8k") / "train.parquet"
    p.write_bytes(b"")
    load_dataset("parquet", data_files={"train": str(p)})


def case_ds29_jsonl_bad_line() -> None:
    """A prompts.jsonl with one line cut mid-object in the middle of the file."""
    _ds29_env()
    from datasets import load_dataset

    p = _ds29_dir("prompts") / "train.jsonl"
    lines = [json.dumps(r) for r in _rows29(200)]
    lines[120] = lines[120][:25]
    p.write_text("\n".join(lines) + "\n")
    load_dataset("json", data_files=str(p), split="train")



def case_ds29_json_array_truncated() -> None:
    """A .json file holding one JSON array, cut before its closing bracket."""
    _ds29_env()
    from datasets import load_dataset

    p = _ds29_dir("prompts") / "train.json"
    text = json.dumps(_rows29(100))
    p.write_text(text[: len(text) - 40])
    load_dataset("json", data_files=str(p), split="train")


def case_ds29_data_files_columns_differ() -> None:
    """Two jsonl shards of one split, the second written by a newer pipeline with another column."""
    _ds29_env()
    from datasets import load_dataset

    d = _ds29_dir("mix")
    _jsonl29(d / "part-0.jsonl")
    _jsonl29(d / "part-1.jsonl", [{"prompt": r["prompt"], "solution": r["answer"]} for r in _rows29()])
    load_dataset("json", data_files=[str(d / "part-0.jsonl"), str(d / "part-1.jsonl")], split="train")


def case_ds29_features_cast_fails() -> None:
    """load_dataset with declared Features: `reward` float64, a row holding "n/a"."""
    _ds29_env()
    from datasets import Features, Value, load_dataset

    rows = _rows29(20)
    rows[7]["reward"] = "n/a"
    p = _jsonl29(_ds29_dir("scored") / "train.jsonl", rows)
    feats = Features({"prompt": Value("string"), "answer": Value("string"), "reward": Value("float64")})
    load_dataset("json", data_files=str(p), split="train", features=feats)


def case_ds29_cast_column_int() -> None:
    """Dataset.cast_column of string answers to int64 (one answer is a fraction)."""
    _ds29_env()
    from datasets import Dataset, Value

    ds = Dataset.from_list([{"answer": "12"}, {"answer": "7"}, {"answer": "3/4"}])
    ds.cast_column("answer", Value("int64"))


def case_ds29_map_num_proc_raises() -> None:
    """map(num_proc=2) whose function raises on one row (a prompt without the expected field)."""
    _ds29_env()
    from datasets import Dataset

    rows = _rows29(40)
    rows[33]["prompt"] = None

    def fmt(ex: dict[str, Any]) -> dict[str, Any]:
        return {"text": "Question: " + ex["prompt"]}

    Dataset.from_list(rows).map(fmt, num_proc=2)


def case_ds29_map_batched_length_mismatch() -> None:
    """map(batched=True) whose function returns fewer rows for one column than another."""
    _ds29_env()
    from datasets import Dataset

    def fmt(b: dict[str, list[Any]]) -> dict[str, list[Any]]:
        return {"text": b["prompt"], "n": [len(p) for p in b["prompt"]][:-1]}

    Dataset.from_list(_rows29(16)).map(fmt, batched=True, batch_size=8)



def case_ds29_streaming_missing_file() -> None:
    """streaming=True over a data_files glob that matches nothing."""
    _ds29_env()
    from datasets import load_dataset

    ds = load_dataset("json", data_files="/data/rollouts/step_*.jsonl", split="train", streaming=True)
    print(next(iter(ds)))


def case_ds29_streaming_file_removed() -> None:
    """streaming=True over a jsonl that is deleted after load_dataset resolved it (a rotated log)."""
    _ds29_env()
    from datasets import load_dataset

    p = _jsonl29(_ds29_dir("live") / "rollouts.jsonl")
    ds = load_dataset("json", data_files=str(p), split="train", streaming=True)
    p.unlink()
    print(next(iter(ds)))


def case_ds29_load_from_disk_no_state() -> None:
    """load_from_disk of a save_to_disk folder whose state.json / dataset_info.json were not synced."""
    _ds29_env()
    from datasets import Dataset, load_from_disk

    d = _ds29_dir("processed")
    Dataset.from_list(_rows29()).save_to_disk(str(d))
    for f in ("state.json", "dataset_info.json"):
        (d / f).unlink()
    load_from_disk(str(d))


def case_ds29_load_from_disk_arrow_cut() -> None:
    """load_from_disk of a save_to_disk folder whose .arrow shard is cut in half."""
    _ds29_env()
    from datasets import Dataset, load_from_disk

    d = _ds29_dir("processed")
    Dataset.from_list(_rows29(2000)).save_to_disk(str(d))
    for f in d.glob("*.arrow"):
        f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    print(load_from_disk(str(d))[0])


def _load_json_cached_on_tmpfs29(case: str, mount: str, options: str, rows: list[dict[str, Any]] | None = None) -> None:
    """load_dataset("json") of the prompts file with its cache_dir on a tmpfs `mount` made with `options`
    (in the case's own mount namespace, _in_mount_ns27)."""
    _in_mount_ns27(case, f"mkdir -p {mount} && mount -t tmpfs -o {options} tmpfs {mount}")
    from datasets import load_dataset

    os.environ["HF_HUB_OFFLINE"] = "1"
    p = _jsonl29(_ds29_dir("prompts") / "train.jsonl", rows)
    load_dataset("json", data_files=str(p), split="train", cache_dir=f"{mount}/datasets")


def case_ds29_cache_readonly() -> None:
    """HF_DATASETS_CACHE on a read-only mount (a shared cache mounted ro into the job)."""
    _load_json_cached_on_tmpfs29("ds29_cache_readonly", "/tmp/irisrl29_ro", "size=4m,ro")


def case_ds29_cache_full() -> None:
    """cache_dir on a 256 KiB tmpfs: the Arrow cache of a 2 MB jsonl does not fit."""
    _load_json_cached_on_tmpfs29("ds29_cache_full", "/tmp/irisrl29_full", "size=256k",
                                 [{"prompt": "x" * 2000, "answer": str(i)} for i in range(1000)])


def case_ds29_map_cache_full() -> None:
    """map() writing its cache file next to a dataset saved on a tmpfs that fills."""
    _in_mount_ns27("ds29_map_cache_full", "mkdir -p /tmp/irisrl29_mapfull && "
                   "mount -t tmpfs -o size=1m tmpfs /tmp/irisrl29_mapfull")
    from datasets import Dataset, load_from_disk

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    Dataset.from_list([{"prompt": "y" * 1000} for _ in range(600)]).save_to_disk(
        "/tmp/irisrl29_mapfull/ds")
    ds = load_from_disk("/tmp/irisrl29_mapfull/ds")
    ds.map(lambda ex: {"text": ex["prompt"] * 2})


def case_ds29_save_to_disk_full() -> None:
    """save_to_disk of the processed prompts onto a 256 KiB tmpfs."""
    _in_mount_ns27("ds29_save_to_disk_full", "mkdir -p /tmp/irisrl29_save && "
                   "mount -t tmpfs -o size=256k tmpfs /tmp/irisrl29_save")
    from datasets import Dataset

    os.environ["HF_HUB_OFFLINE"] = "1"
    Dataset.from_list([{"prompt": "z" * 1000} for _ in range(800)]).save_to_disk(
        "/tmp/irisrl29_save/processed")


def case_ds29_concat_features_differ() -> None:
    """concatenate_datasets of two prompt sets whose `reward` columns have other types."""
    _ds29_env()
    from datasets import Dataset, concatenate_datasets

    a = Dataset.from_list([{"prompt": "a", "reward": 1.0}])
    b = Dataset.from_list([{"prompt": "b", "reward": "1"}])
    concatenate_datasets([a, b])


def case_ds29_train_test_split_too_small() -> None:
    """train_test_split(test_size=64) of a 40-row dataset."""
    _ds29_env()
    from datasets import Dataset

    Dataset.from_list(_rows29(40)).train_test_split(test_size=64)


def case_ds29_remove_missing_column() -> None:
    """remove_columns naming a column the dataset does not have."""
    _ds29_env()
    from datasets import Dataset

    Dataset.from_list(_rows29(8)).remove_columns(["messages"])


def case_ds29_torch_format_ragged() -> None:
    """with_format('torch') of ragged tokenized prompts, then a DataLoader collate."""
    _ds29_env()
    from datasets import Dataset
    from torch.utils.data import DataLoader

    ds = Dataset.from_list([{"input_ids": list(range(i + 3))} for i in range(8)]).with_format("torch")
    for _ in DataLoader(ds, batch_size=4):
        pass


def case_ds29_hub_dataset_status500() -> None:
    """load_dataset of a dataset repo whose Hub answers 500 (set 1's loopback Hub)."""
    _hub_env(start_hub({}))
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    from datasets import load_dataset

    load_dataset("irisrl/status500", split="train")


def case_ds29_hub_dataset_gated401() -> None:
    _hub_env(start_hub({}))
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    from datasets import load_dataset

    load_dataset("irisrl/gated401", split="train")


def case_ds29_hub_dataset_missing404() -> None:
    _hub_env(start_hub({}))
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    from datasets import load_dataset

    load_dataset("irisrl/missing404", split="train")


def case_ds29_hub_dataset_refused() -> None:
    """load_dataset with HF_ENDPOINT at a port nobody listens on."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    _hub_env(f"http://127.0.0.1:{port}")
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    from datasets import load_dataset

    load_dataset("irisrl/gsm8k-rl", split="train")


def case_benign29_ds_num_proc_one_shard() -> None:
    """load_dataset(num_proc=4) over one file: datasets drops back to one process (exit 0)."""
    _ds29_env()
    from datasets import load_dataset

    p = _jsonl29(_ds29_dir("prompts") / "train.jsonl")
    print(len(load_dataset("json", data_files=str(p), split="train", num_proc=4)))


def case_benign29_ds_map_num_proc_over_rows() -> None:
    """map(num_proc=8) over 4 rows (exit 0)."""
    _ds29_env()
    from datasets import Dataset

    print(len(Dataset.from_list(_rows29(4)).map(lambda ex: {"n": 1}, num_proc=8)))


# --- chat templates and tokenizers


def _chat29_tok(template: str | None) -> Any:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(_tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok",
                                                            pad=True))
    if template is not None:
        tok.chat_template = template
    return tok


def case_chat29_tool_role_raise() -> None:
    """A template that raises (raise_exception) on a `tool` message: the multi-turn rollout feeds
    the sandbox's output back as role=tool to a policy whose template knows three roles."""
    tok = _chat29_tok("{% for m in messages %}{% if m['role'] not in ['system', 'user', 'assistant'] %}"
                      "{{ raise_exception('Only user, assistant and system roles are supported, got ' "
                      "+ m['role'] + '.') }}{% endif %}{{ m['content'] }}{% endfor %}")
    tok.apply_chat_template([{"role": "user", "content": "2+2?"},
                             {"role": "assistant", "content": "<tool>python</tool>"},
                             {"role": "tool", "content": "4"}], tokenize=False)


def case_chat29_content_list_strip() -> None:
    """A template calling .strip() on content, given OpenAI-style content parts (a list)."""
    tok = _chat29_tok("{% for m in messages %}{{ m['role'] }}: {{ m['content'].strip() }}\n"
                      "{% endfor %}")
    tok.apply_chat_template([{"role": "user", "content": [{"type": "text", "text": "2+2?"}]}],
                            tokenize=False)


def case_chat29_tool_call_arguments_string() -> None:
    """A template that iterates tool_call arguments as a mapping, given them as a JSON string."""
    tok = _chat29_tok("{% for m in messages %}{% if m.tool_calls %}{% for c in m.tool_calls %}"
                      "{% for k, v in c.function.arguments.items() %}{{ k }}={{ v }}{% endfor %}"
                      "{% endfor %}{% else %}{{ m.content }}{% endif %}{% endfor %}")
    tok.apply_chat_template([{"role": "user", "content": "run it"}, {
        "role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {
            "name": "python", "arguments": "{\"code\": \"print(1)\"}"}}]}], tokenize=False)


def case_chat29_template_recursion() -> None:
    """A template macro that calls itself without end."""
    tok = _chat29_tok("{% macro render(m) %}{{ render(m) }}{% endmacro %}"
                      "{% for m in messages %}{{ render(m) }}{% endfor %}")
    tok.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False)


def case_chat29_assistant_mask_no_generation_tag() -> None:
    """return_assistant_tokens_mask=True with a template without {% generation %}."""
    tok = _chat29_tok("{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}")
    out = tok.apply_chat_template([{"role": "user", "content": "hi"},
                                   {"role": "assistant", "content": "hello"}],
                                  return_assistant_tokens_mask=True, return_dict=True)
    print(out["assistant_masks"])


def case_chat29_messages_not_list() -> None:
    """apply_chat_template given one message dict instead of a list."""
    tok = _chat29_tok("{% for m in messages %}{{ m['content'] }}{% endfor %}")
    tok.apply_chat_template({"role": "user", "content": "hi"}, tokenize=False)


def case_tok29_truncation_only_first_too_short() -> None:
    """Pair encoding with truncation='only_first' where the prompt is shorter than the overflow."""
    tok = _chat29_tok(None)
    tok(["hello"], ["hello world " * 20], truncation="only_first", max_length=8)


def case_tok29_pad_to_multiple_no_padding() -> None:
    """tokenizer(..., return_tensors='pt') of prompts of different lengths without padding."""
    tok = _chat29_tok(None)
    tok(["hello world", "hello"], return_tensors="pt")


def case_tok29_tokenizer_json_null_bytes() -> None:
    """AutoTokenizer over a tokenizer.json that is all NUL bytes (a file preallocated, never written)."""
    from transformers import AutoTokenizer

    d = _tiny_tokenizer_dir(Path(tempfile.mkdtemp()) / "tok", pad=True)
    size = (d / "tokenizer.json").stat().st_size
    (d / "tokenizer.json").write_bytes(b"\x00" * size)
    AutoTokenizer.from_pretrained(d)



# --- generate() on a tiny random Llama


def case_gen29_stopping_criteria_returns_bool() -> None:
    """A StoppingCriteria returning a Python bool per batch as a list (an older API)."""
    from transformers import StoppingCriteria, StoppingCriteriaList

    class StopOnAnswer(StoppingCriteria):
        def __call__(self, input_ids: Any, scores: Any, **kw: Any) -> Any:
            return [bool(x[-1] == 5) for x in input_ids]

    print(_llama20().generate(_prompt20(batch=2), max_new_tokens=4, pad_token_id=0,
                              stopping_criteria=StoppingCriteriaList([StopOnAnswer()])))


def case_gen29_logits_processor_nan_sample() -> None:
    """A logits processor dividing by a temperature of 0 computed upstream: NaN scores, sampling."""
    from transformers import LogitsProcessor, LogitsProcessorList

    class Temp(LogitsProcessor):
        def __call__(self, input_ids: Any, scores: Any) -> Any:
            return (scores - scores) / 0.0

    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0, do_sample=True,
                              logits_processor=LogitsProcessorList([Temp()])))


def case_gen29_nan_weights_sample() -> None:
    """A policy whose lm_head went NaN (a diverged update), sampled with top_p."""
    import torch

    m = _llama20()
    with torch.no_grad():
        m.lm_head.weight.fill_(float("nan"))
    print(m.generate(_prompt20(), max_new_tokens=4, pad_token_id=0, do_sample=True, top_p=0.9))


def case_gen29_prompt_id_past_vocab() -> None:
    """A prompt tokenized by another tokenizer: an id past the policy's vocab."""
    import torch

    print(_llama20().generate(torch.tensor([[3, 4, 151643]]), max_new_tokens=4, pad_token_id=0))




def case_gen29_sequence_bias_bad_form() -> None:
    """sequence_bias as a dict keyed by token strings (not tuples of ids)."""
    print(_llama20().generate(_prompt20(), max_new_tokens=4, pad_token_id=0,
                              sequence_bias={"</answer>": -10.0}))


def case_gen29_generation_config_file_invalid() -> None:
    """A checkpoint's generation_config.json with top_k as a string, loaded by GenerationConfig."""
    from transformers import GenerationConfig

    d = Path(tempfile.mkdtemp()) / "policy"
    d.mkdir()
    (d / "generation_config.json").write_text(json.dumps({"do_sample": True, "top_k": "50",
                                                          "temperature": 0.7}))
    cfg = GenerationConfig.from_pretrained(d)
    print(_llama20().generate(_prompt20(), generation_config=cfg, max_new_tokens=4, pad_token_id=0))


def case_gen29_empty_prompt() -> None:
    """generate() on an empty prompt (a filtered-out sample) with no BOS token configured."""
    import torch

    print(_llama20().generate(torch.zeros((1, 0), dtype=torch.long), max_new_tokens=4,
                              pad_token_id=0))


def case_gen29_attention_mask_shape() -> None:
    """An attention mask of the unpadded lengths next to padded ids."""
    import torch

    ids = _prompt20(batch=2)
    print(_llama20().generate(ids, attention_mask=torch.ones((2, 4), dtype=torch.long),
                              max_new_tokens=4, pad_token_id=0))


def case_benign29_gen_max_length_and_new_tokens() -> None:
    """Both max_length and max_new_tokens given (max_new_tokens wins, exit 0)."""
    print(_llama20().generate(_prompt20(), max_length=8, max_new_tokens=3, pad_token_id=0))



# --- reward-model / rollout outputs


def case_json29_reward_single_quotes() -> None:
    """A judge model answering a Python dict repr instead of JSON."""
    out = "{'score': 0.8, 'reason': 'correct final answer'}"
    json.loads(out)


def case_json29_reward_extra_text() -> None:
    """A judge answering JSON followed by an explanation."""
    json.loads('{"score": 1} The answer is correct because 2+2=4.')


def case_json29_reward_truncated() -> None:
    """A judge's answer cut at max_tokens inside a string."""
    json.loads('{"score": 0.5, "reason": "the model computed 17 * 3 as 41, which')


def case_json29_reward_control_char() -> None:
    """A judge's reason with a raw newline inside the string."""
    json.loads('{"score": 0, "reason": "wrong\nanswer"}')


def case_json29_rollouts_bom() -> None:
    """A rollout dump written with a UTF-8 BOM, read with json.loads on the decoded text."""
    p = _ds29_dir("dump") / "rollouts.json"
    p.write_bytes(b"\xef\xbb\xbf" + json.dumps({"step": 3}).encode())
    json.loads(p.read_text(encoding="utf-8"))


def case_json29_dump_tensor_reward() -> None:
    """json.dumps of a rollout record holding a torch scalar reward."""
    import torch

    json.dumps({"step": 12, "reward": torch.tensor(0.5)})


def case_json29_orjson_trailing() -> None:
    import orjson

    orjson.loads(b'{"score": 1}\n{"score": 0}')


def case_json29_orjson_truncated() -> None:
    import orjson

    orjson.loads(b'{"score": 0.25, "reason": "partial')


def case_json29_orjson_dump_numpy() -> None:
    """orjson.dumps of a rollout record holding a numpy float32 (no OPT_SERIALIZE_NUMPY)."""
    import numpy as np
    import orjson

    orjson.dumps({"reward": np.float32(0.5)})


def case_json29_orjson_nan_key() -> None:
    """orjson.dumps of a dict keyed by ints (per-step rewards), without OPT_NON_STR_KEYS."""
    import orjson

    orjson.dumps({1: 0.5, 2: 0.25})


def case_json29_pandas_jsonl_cut() -> None:
    """pandas.read_json(lines=True) over a rollout log whose last line was cut by a crash."""
    import pandas as pd

    p = _ds29_dir("dump") / "rollouts.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in _rows29(20))
    p.write_text(text[:-15])
    pd.read_json(p, lines=True)


def case_json29_pandas_csv_ragged() -> None:
    """pandas.read_csv of a rollout csv whose completion column holds unquoted commas."""
    import pandas as pd

    p = _ds29_dir("dump") / "rollouts.csv"
    p.write_text("step,reward,completion\n1,0.5,four\n2,1.0,the answer is 4, not 5\n")
    pd.read_csv(p)


def case_json29_pandas_json_normalize_missing() -> None:
    """json_normalize with a record_path missing from one judge answer."""
    import pandas as pd

    pd.json_normalize([{"id": 1, "scores": [{"k": "acc", "v": 1}]}, {"id": 2}], record_path="scores",
                      meta=["id"])



def case_benign29_pandas_chained_assignment() -> None:
    """A rewards frame modified through chained indexing (exit 0)."""
    import pandas as pd

    df = pd.DataFrame({"reward": [0.0, 1.0, 0.5], "valid": [True, False, True]})
    df[df["valid"]]["reward"] = 0.0
    print(df)





def case_ds29_streaming_path_missing() -> None:
    """streaming=True over a data file path that does not exist (a step not yet written)."""
    _ds29_env()
    from datasets import load_dataset

    ds = load_dataset("json", data_files="/data/rollouts/step_100.jsonl", split="train", streaming=True)
    print(next(iter(ds)))


def case_ds29_split_missing() -> None:
    """load_dataset(split='validation') over data_files that only give a train split."""
    _ds29_env()
    from datasets import load_dataset

    p = _jsonl29(_ds29_dir("prompts") / "train.jsonl")
    load_dataset("json", data_files={"train": str(p)}, split="validation")


def case_ds29_data_dir_empty() -> None:
    """load_dataset('parquet', data_dir=...) of a directory the preprocessing never filled."""
    _ds29_env()
    from datasets import load_dataset

    load_dataset("parquet", data_dir=str(_ds29_dir("gsm8k_processed")), split="train")


def case_ds29_select_past_end() -> None:
    """select(range(64)) of a 40-row eval set."""
    _ds29_env()
    from datasets import Dataset

    print(Dataset.from_list(_rows29(40)).select(range(64))[63])


def case_ds29_cache_inodes_exhausted() -> None:
    """HF_DATASETS_CACHE on a tmpfs with free bytes but 8 inodes."""
    _load_json_cached_on_tmpfs29("ds29_cache_inodes_exhausted", "/tmp/irisrl29_ino", "size=64m,nr_inodes=8")


def case_ds29_to_parquet_full() -> None:
    """Dataset.to_parquet of the scored rollouts onto a 256 KiB tmpfs."""
    _in_mount_ns27("ds29_to_parquet_full", "mkdir -p /tmp/irisrl29_pq && "
                   "mount -t tmpfs -o size=256k tmpfs /tmp/irisrl29_pq")
    from datasets import Dataset

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds29")
    Dataset.from_list([{"completion": os.urandom(600).hex()} for _ in range(800)]).to_parquet(
        "/tmp/irisrl29_pq/rollouts_step_40.parquet")


def case_chat29_tool_no_docstring() -> None:
    """apply_chat_template(tools=[fn]) with a tool function whose docstring lacks an argument."""
    tok = _chat29_tok("{% for m in messages %}{{ m['content'] }}{% endfor %}{{ tools | tojson }}")

    def run_python(code: str, timeout: int) -> str:
        """Run code in the sandbox.

        Args:
            code: the program
        """
        return code

    tok.apply_chat_template([{"role": "user", "content": "hi"}], tools=[run_python], tokenize=False)


def case_chat29_tool_untyped_arg() -> None:
    """apply_chat_template(tools=[fn]) with an argument without a type hint."""
    tok = _chat29_tok("{% for m in messages %}{{ m['content'] }}{% endfor %}{{ tools | tojson }}")

    def grade(answer) -> float:  # type: ignore[no-untyped-def]
        """Grade an answer.

        Args:
            answer: the final answer
        """
        return 0.0

    tok.apply_chat_template([{"role": "user", "content": "hi"}], tools=[grade], tokenize=False)


def case_gen29_unused_model_kwargs() -> None:
    """generate(**tokenizer(...)) where the tokenizer returns token_type_ids the model does not take."""
    import torch

    ids = _prompt20()
    print(_llama20().generate(input_ids=ids, attention_mask=torch.ones_like(ids),
                              token_type_ids=torch.zeros_like(ids), max_new_tokens=4, pad_token_id=0))


def case_gen29_prompt_as_list() -> None:
    """generate() given the prompt ids as a Python list (a vLLM-style prompt_token_ids)."""
    print(_llama20().generate([[3, 4, 5, 6]], max_new_tokens=4, pad_token_id=0))


def case_json29_orjson_nan_score() -> None:
    """orjson.loads of a judge answer holding a bare NaN (json.dumps' default output)."""
    import orjson

    orjson.loads(json.dumps({"score": float("nan")}))


def case_json29_pandas_read_json_missing() -> None:
    import pandas as pd

    pd.read_json("/data/rollouts/step_40.jsonl", lines=True)


def case_json29_pandas_parquet_is_jsonl() -> None:
    """pandas.read_parquet of a rollout file that is jsonl under a .parquet name."""
    import pandas as pd

    p = _jsonl29(_ds29_dir("dump") / "rollouts.parquet")
    pd.read_parquet(p)


def case_json29_pandas_concat_empty() -> None:
    """pd.concat of the per-worker rollout frames of a step where every worker returned nothing."""
    import pandas as pd

    frames: list[Any] = []
    pd.concat(frames)


def case_benign29_np_advantage_zero_std() -> None:
    """GRPO advantages of a group whose rewards are all equal, in numpy (exit 0, NaN advantages)."""
    import numpy as np

    r = np.array([1.0, 1.0, 1.0, 1.0])
    print((r - r.mean()) / r.std())


def case_benign29_np_mean_empty_group() -> None:
    """The mean reward of a group every rollout of which was filtered out (exit 0)."""
    import numpy as np

    print(np.mean(np.array([], dtype=np.float64)))


def case_benign29_np_ratio_overflow() -> None:
    """exp(logp_new - logp_old) for logging, over a token whose log-ratio blew up (exit 0, inf)."""
    import numpy as np

    print(np.exp(np.array([0.1, 900.0])).max())


def case_benign29_torch_var_single_sample() -> None:
    """torch.var over a group of one rollout (reward variance for logging, exit 0, NaN)."""
    import torch

    print(torch.tensor([[0.5]]).var(dim=0))


def case_benign29_torch_std_single_sample() -> None:
    """torch.std over a group of one rollout (exit 0, NaN)."""
    import torch

    print(torch.tensor([0.5]).std())


def case_ds29_save_to_disk_inodes() -> None:
    """save_to_disk of the processed prompts onto a tmpfs with free bytes but 4 inodes."""
    _in_mount_ns27("ds29_save_to_disk_inodes", "mkdir -p /tmp/irisrl29_sino && "
                   "mount -t tmpfs -o size=64m,nr_inodes=4 tmpfs /tmp/irisrl29_sino")
    from datasets import Dataset

    os.environ["HF_HUB_OFFLINE"] = "1"
    Dataset.from_list(_rows29(64)).save_to_disk("/tmp/irisrl29_sino/processed")



def case_json29_pandas_to_parquet_inodes() -> None:
    """DataFrame.to_parquet of a step's rollouts onto a tmpfs with no free inode."""
    _in_mount_ns27("json29_pandas_to_parquet_inodes", "mkdir -p /tmp/irisrl29_pino && "
                   "mount -t tmpfs -o size=64m,nr_inodes=2 tmpfs /tmp/irisrl29_pino && "
                   "mkdir /tmp/irisrl29_pino/rollouts")
    import pandas as pd

    pd.DataFrame(_rows29()).to_parquet("/tmp/irisrl29_pino/rollouts/step_40.parquet")


def case_json29_rollout_dump_inodes() -> None:
    """The rollout logger opening its next jsonl on a tmpfs with no free inode."""
    _in_mount_ns27("json29_rollout_dump_inodes", "mkdir -p /tmp/irisrl29_jino && "
                   "mount -t tmpfs -o size=64m,nr_inodes=2 tmpfs /tmp/irisrl29_jino && "
                   "mkdir /tmp/irisrl29_jino/rollouts")
    import orjson

    with open("/tmp/irisrl29_jino/rollouts/step_40.jsonl", "wb") as f:
        for r in _rows29():
            f.write(orjson.dumps(r) + b"\n")
CASES29: dict[str, Case] = {
    "ds29_parquet_footer_cut": (case_ds29_parquet_footer_cut, "python_crash", False),
    "ds29_parquet_zero_bytes": (case_ds29_parquet_zero_bytes, "python_crash", False),
    "ds29_jsonl_bad_line": (case_ds29_jsonl_bad_line, "python_crash", False),
    "ds29_json_array_truncated": (case_ds29_json_array_truncated, "python_crash", False),
    "ds29_data_files_columns_differ": (case_ds29_data_files_columns_differ, "python_crash", False),
    "ds29_features_cast_fails": (case_ds29_features_cast_fails, "python_crash", False),
    "ds29_cast_column_int": (case_ds29_cast_column_int, "python_crash", False),
    "ds29_map_num_proc_raises": (case_ds29_map_num_proc_raises, "python_crash", False),
    "ds29_map_batched_length_mismatch": (case_ds29_map_batched_length_mismatch, "python_crash", False),
    "ds29_streaming_missing_file": (case_ds29_streaming_missing_file, "python_crash", False),
    "ds29_streaming_file_removed": (case_ds29_streaming_file_removed, "python_crash", False),
    "ds29_load_from_disk_no_state": (case_ds29_load_from_disk_no_state, "python_crash", False),
    "ds29_load_from_disk_arrow_cut": (case_ds29_load_from_disk_arrow_cut, "python_crash", False),
    "ds29_cache_readonly": (case_ds29_cache_readonly, "python_crash", False),
    "ds29_cache_full": (case_ds29_cache_full, "disk_full", False),
    "ds29_map_cache_full": (case_ds29_map_cache_full, "disk_full", False),
    "ds29_save_to_disk_full": (case_ds29_save_to_disk_full, "disk_full", False),
    "ds29_concat_features_differ": (case_ds29_concat_features_differ, "python_crash", False),
    "ds29_train_test_split_too_small": (case_ds29_train_test_split_too_small, "python_crash", False),
    "ds29_remove_missing_column": (case_ds29_remove_missing_column, "python_crash", False),
    "ds29_torch_format_ragged": (case_ds29_torch_format_ragged, "python_crash", False),
    "ds29_hub_dataset_status500": (case_ds29_hub_dataset_status500, "hf_http_error", False),
    "ds29_hub_dataset_gated401": (case_ds29_hub_dataset_gated401, "hf_gated", False),
    "ds29_hub_dataset_missing404": (case_ds29_hub_dataset_missing404, "hf_repo_not_found", False),
    "ds29_hub_dataset_refused": (case_ds29_hub_dataset_refused, "hf_http_error", False),
    "benign29_ds_num_proc_one_shard": (case_benign29_ds_num_proc_one_shard, "benign", False),
    "benign29_ds_map_num_proc_over_rows": (case_benign29_ds_map_num_proc_over_rows, "benign", False),
    "chat29_tool_role_raise": (case_chat29_tool_role_raise, "python_crash", False),
    "chat29_content_list_strip": (case_chat29_content_list_strip, "python_crash", False),
    "chat29_tool_call_arguments_string": (case_chat29_tool_call_arguments_string, "python_crash", False),
    "chat29_template_recursion": (case_chat29_template_recursion, "python_crash", False),
    "chat29_assistant_mask_no_generation_tag": (case_chat29_assistant_mask_no_generation_tag,
                                                "python_crash", False),
    "chat29_messages_not_list": (case_chat29_messages_not_list, "python_crash", False),
    "tok29_truncation_only_first_too_short": (case_tok29_truncation_only_first_too_short,
                                              "python_crash", False),
    "tok29_pad_to_multiple_no_padding": (case_tok29_pad_to_multiple_no_padding, "python_crash", False),
    "tok29_tokenizer_json_null_bytes": (case_tok29_tokenizer_json_null_bytes, "python_crash", False),
    "gen29_stopping_criteria_returns_bool": (case_gen29_stopping_criteria_returns_bool, "python_crash",
                                             False),
    "gen29_logits_processor_nan_sample": (case_gen29_logits_processor_nan_sample, "python_crash",
                                          False),
    "gen29_nan_weights_sample": (case_gen29_nan_weights_sample, "python_crash", False),
    "gen29_prompt_id_past_vocab": (case_gen29_prompt_id_past_vocab, "python_crash", False),
    "gen29_sequence_bias_bad_form": (case_gen29_sequence_bias_bad_form, "python_crash", False),
    "gen29_generation_config_file_invalid": (case_gen29_generation_config_file_invalid,
                                             "python_crash", False),
    "gen29_empty_prompt": (case_gen29_empty_prompt, "python_crash", False),
    "gen29_attention_mask_shape": (case_gen29_attention_mask_shape, "python_crash", False),
    "benign29_gen_max_length_and_new_tokens": (case_benign29_gen_max_length_and_new_tokens, "benign",
                                               False),
    "json29_reward_single_quotes": (case_json29_reward_single_quotes, "python_crash", False),
    "json29_reward_extra_text": (case_json29_reward_extra_text, "python_crash", False),
    "json29_reward_truncated": (case_json29_reward_truncated, "python_crash", False),
    "json29_reward_control_char": (case_json29_reward_control_char, "python_crash", False),
    "json29_rollouts_bom": (case_json29_rollouts_bom, "python_crash", False),
    "json29_dump_tensor_reward": (case_json29_dump_tensor_reward, "python_crash", False),
    "json29_orjson_trailing": (case_json29_orjson_trailing, "python_crash", False),
    "json29_orjson_truncated": (case_json29_orjson_truncated, "python_crash", False),
    "json29_orjson_dump_numpy": (case_json29_orjson_dump_numpy, "python_crash", False),
    "json29_orjson_nan_key": (case_json29_orjson_nan_key, "python_crash", False),
    "json29_pandas_jsonl_cut": (case_json29_pandas_jsonl_cut, "python_crash", False),
    "json29_pandas_csv_ragged": (case_json29_pandas_csv_ragged, "python_crash", False),
    "json29_pandas_json_normalize_missing": (case_json29_pandas_json_normalize_missing,
                                             "python_crash", False),
    "benign29_pandas_chained_assignment": (case_benign29_pandas_chained_assignment, "benign", False),
    "ds29_streaming_path_missing": (case_ds29_streaming_path_missing, "python_crash", False),
    "ds29_split_missing": (case_ds29_split_missing, "python_crash", False),
    "ds29_data_dir_empty": (case_ds29_data_dir_empty, "python_crash", False),
    "ds29_select_past_end": (case_ds29_select_past_end, "python_crash", False),
    "ds29_cache_inodes_exhausted": (case_ds29_cache_inodes_exhausted, "disk_full", False),
    "ds29_to_parquet_full": (case_ds29_to_parquet_full, "disk_full", False),
    "chat29_tool_no_docstring": (case_chat29_tool_no_docstring, "python_crash", False),
    "chat29_tool_untyped_arg": (case_chat29_tool_untyped_arg, "python_crash", False),
    "gen29_unused_model_kwargs": (case_gen29_unused_model_kwargs, "python_crash", False),
    "gen29_prompt_as_list": (case_gen29_prompt_as_list, "python_crash", False),
    "json29_orjson_nan_score": (case_json29_orjson_nan_score, "python_crash", False),
    "json29_pandas_read_json_missing": (case_json29_pandas_read_json_missing, "python_crash", False),
    "json29_pandas_parquet_is_jsonl": (case_json29_pandas_parquet_is_jsonl, "python_crash", False),
    "json29_pandas_concat_empty": (case_json29_pandas_concat_empty, "python_crash", False),
    "benign29_np_advantage_zero_std": (case_benign29_np_advantage_zero_std, "benign", False),
    "benign29_np_mean_empty_group": (case_benign29_np_mean_empty_group, "benign", False),
    "benign29_torch_std_single_sample": (case_benign29_torch_std_single_sample, "benign", False),
    "benign29_np_ratio_overflow": (case_benign29_np_ratio_overflow, "benign", False),
    "benign29_torch_var_single_sample": (case_benign29_torch_var_single_sample, "benign", False),
    "ds29_save_to_disk_inodes": (case_ds29_save_to_disk_inodes, "disk_full", False),
    "json29_pandas_to_parquet_inodes": (case_json29_pandas_to_parquet_inodes, "disk_full", False),
    "json29_rollout_dump_inodes": (case_json29_rollout_dump_inodes, "disk_full", False),
}
CASES.update(CASES29)



# ----------------------------------------------------------------------------- agent side (set 26)
# The AGENT side of an agentic-RL GRPO run (SkyRL-style rollouts: agents calling a vLLM OpenAI-compatible
# server, Daytona sandboxes), on a CPU machine: the openai SDK, litellm (hosted_vllm provider), aiohttp,
# tenacity and the Daytona SDK talk to loopback servers started inside the case's process. The fake vLLM
# server answers with vLLM's own error shapes: ErrorResponse {"error": {"message", "type", "param", "code"}}
# (vllm/entrypoints/openai/engine/protocol.py, ErrorInfo / ErrorResponse), the messages of
# vllm/entrypoints/openai/engine/serving.py (_check_model's "The model `X` does not exist." NotFoundError 404,
# _validate_input's context-length VLLMValidationError texts, GenerationError's "Internal server error"
# InternalServerError 500, the streaming error chunk of create_streaming_error_response), the empty 500 that
# vllm/entrypoints/launcher.py's _add_shutdown_handlers returns for EngineDeadError before the server exits,
# and the 503 {"error": "Server is unavailable. Please try again later."} of
# vllm/entrypoints/serve/middleware.py's ScalingMiddleware. The fake Daytona API answers like the NestJS API
# the SDK targets ({"statusCode", "message", "error"}) and with sandbox objects in the states the SDK waits on.

_MODEL26 = "Qwen/Qwen3-8B"
_SBX26 = "3e7b1c90-5a2d-4f86-b0e4-9c1d7a2f5e38"
_MSGS26 = [{"role": "system", "content": "You are a coding agent. Run one shell command per turn."},
           {"role": "user", "content": "The test tests/test_models.py::test_save fails. Fix it."}]


def _err26(message: str, typ: str, code: int, param: str | None = None) -> bytes:
    return json.dumps({"error": {"message": message, "type": typ, "param": param, "code": code}}).encode()


def start_vllm26(behaviour: str) -> str:
    """A loopback OpenAI-compatible server (/v1/chat/completions, /v1/completions, /v1/models) answering
    the way vLLM's API server does for `behaviour`; returns its base URL (http://127.0.0.1:PORT/v1)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    state = {"n": 0}
    unavailable = json.dumps({"error": "Server is unavailable. Please try again later."}).encode()

    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a: Any) -> None:
            pass

        def _send(self, status: int, body: bytes = b"", ctype: str = "application/json",
                  extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            if body:
                self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            self._send(200, json.dumps({"object": "list", "data": [
                {"id": _MODEL26, "object": "model", "owned_by": "vllm", "max_model_len": 4096}]}).encode())

        def do_POST(self) -> None:
            n = int(self.headers.get("Content-Length") or 0)
            req = json.loads(self.rfile.read(n) or b"{}")
            state["n"] += 1
            chat = self.path.endswith("/chat/completions")
            b = behaviour
            if b == "dies":  # EngineDeadError: an empty 500, then the API server exits
                self._send(500)
                self.close_connection = True
                threading.Thread(target=lambda: (srv.shutdown(), srv.server_close()), daemon=True).start()
                return
            if b == "flaky503" and state["n"] <= 2:
                return self._send(503, unavailable)
            if b == "flaky429" and state["n"] <= 1:
                return self._send(429, _err26("Too many requests: the waiting queue is full",
                                              "TooManyRequests", 429), extra={"Retry-After": "1"})
            if b == "ctx400":
                if chat:
                    return self._send(400, _err26(
                        "This model's maximum context length is 4096 tokens. However, your request has "
                        "5873 input tokens. Please reduce the length of the input messages.",
                        "BadRequestError", 400, "input_tokens"))
                return self._send(400, _err26(
                    "'max_tokens' or 'max_completion_tokens' is too large: 2048. This model's maximum "
                    "context length is 4096 tokens and your request has 3117 input tokens (2048 > 4096 - "
                    "3117).", "BadRequestError", 400, "max_tokens"))
            if b == "model404":
                return self._send(404, _err26(f"The model `{req.get('model')}` does not exist.",
                                              "NotFoundError", 404, "model"))
            if b == "r429":
                return self._send(429, _err26("Too many requests: the waiting queue is full",
                                              "TooManyRequests", 429))
            if b == "dead500":
                return self._send(500)
            if b == "gen500":
                return self._send(500, _err26("Internal server error", "InternalServerError", 500))
            if b == "u503":
                return self._send(503, unavailable)
            if b == "auth401":  # vLLM --api-key: {"error": "Unauthorized"}, 401
                return self._send(401, json.dumps({"error": "Unauthorized"}).encode())
            if b == "slow":
                time.sleep(8)
            if b == "badjson":  # a body cut inside a tool call's JSON, sent as a whole 200
                return self._send(200, b'{"id": "chatcmpl-3f9", "object": "chat.completion", "choices": '
                                       b'[{"index": 0, "message": {"role": "assistant", "content": '
                                       b'"<tool_call>{\\"name\\": \\"bash\\"')
            if b == "html":  # a proxy's page in front of the engine
                return self._send(502, b"<html><head><title>502 Bad Gateway</title></head><body><center>"
                                       b"<h1>502 Bad Gateway</h1></center><hr><center>nginx</center>"
                                       b"</body></html>", ctype="text/html")
            if req.get("stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()

                def chunk(s: str) -> None:
                    d = s.encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(d), d))
                    self.wfile.flush()
                for tok in ["I", " will", " run", " pytest"]:
                    c = {"id": "chatcmpl-3f9", "object": "chat.completion.chunk", "created": 1764900000,
                         "model": req.get("model"), "choices": [{"index": 0, "delta": {"content": tok},
                                                                 "finish_reason": None}]}
                    chunk("data: " + json.dumps(c) + "\n\n")
                if b == "streamcut":  # the process behind the socket is gone mid-chunk
                    self.wfile.write(b"40\r\ndata: {\"id\": \"chatcmpl-3f9\", \"obj")
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                if b == "streamerr":
                    chunk("data: " + _err26("Internal server error", "InternalServerError", 500).decode()
                          + "\n\n")
                chunk("data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
                return
            usage = {"prompt_tokens": 57, "completion_tokens": 6, "total_tokens": 63}
            if chat:
                body = {"id": "chatcmpl-3f9", "object": "chat.completion", "created": 1764900000,
                        "model": req.get("model"), "choices": [{"index": 0, "message": {
                            "role": "assistant", "content": "pytest -x tests/test_models.py"},
                            "finish_reason": "stop"}], "usage": usage}
            else:
                body = {"id": "cmpl-3f9", "object": "text_completion", "created": 1764900000,
                        "model": req.get("model"), "choices": [{"index": 0, "text": "pytest -x",
                                                                "finish_reason": "stop", "logprobs": None}],
                        "usage": usage}
            self._send(200, json.dumps(body).encode())

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}/v1"


def _dead_url26(path: str = "/v1") -> str:
    """A loopback URL nothing listens on (the engine's port after its process died)."""
    return f"http://127.0.0.1:{free_port()}{path}"


def _sandbox26(state: str, reason: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": _SBX26, "organizationId": "org-7f3a", "name": "skyrl-traj-0042", "user": "daytona",
            "env": {}, "labels": {"code-toolbox-language": "python"}, "public": False,
            "networkBlockAll": False, "kvm": False, "target": "us", "cpu": 1, "gpu": 0, "memory": 1, "disk": 3,
            "state": state, "errorReason": reason, "snapshot": "daytonaio/sandbox:0.5.0",
            "toolboxProxyUrl": "http://127.0.0.1:9/toolbox", **extra}


def start_daytona26(behaviour: str) -> str:
    """A loopback Daytona API (POST /sandbox, GET /sandbox/<id>; the SDK's socket.io probe gets a 200)
    answering for `behaviour`; returns its api_url (http://127.0.0.1:PORT/api)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a: Any) -> None:
            pass

        def _send(self, status: int, obj: Any) -> None:
            body = json.dumps(obj).encode() if obj is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self) -> None:
            n = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(n)
            b, post = behaviour, self.command == "POST"
            if b == "auth401":
                return self._send(401, {"statusCode": 401, "message": "Invalid API key",
                                        "error": "Unauthorized"})
            if b == "notfound" and not post:
                return self._send(404, {"statusCode": 404, "message": f"Sandbox with ID or name "
                                        f"{self.path.rsplit('/', 1)[-1]} not found", "error": "Not Found"})
            if b == "disk" and post:
                return self._send(403, {"statusCode": 403, "message": "Total disk limit exceeded. Maximum "
                                        "allowed: 30GiB", "error": "Forbidden"})
            if b == "e500":
                return self._send(500, {"statusCode": 500, "message": "Internal server error"})
            if b == "e502":
                return self._send(502, None)
            if b == "r429":
                return self._send(429, {"statusCode": 429, "message": "ThrottlerException: Too Many Requests"})
            if b == "stuck":
                return self._send(200, _sandbox26("starting" if not post else "creating"))
            if b == "pullfail":
                return self._send(200, _sandbox26("pulling_snapshot") if post else _sandbox26(
                    "build_failed", "Failed to pull image docker.io/skyrl/swe-task-django-14155:latest: "
                    "manifest unknown"))
            if b == "norunner":
                return self._send(200, _sandbox26("starting") if post else _sandbox26(
                    "error", "no runner available for the sandbox's class"))
            if b == "queue":
                return self._send(200, _sandbox26("pending") if post else _sandbox26(
                    "destroyed", queueTimedOutAt="2026-12-05T06:50:00.000Z"))
            if b == "spot":
                return self._send(200, _sandbox26("pending") if post else _sandbox26(
                    "destroyed", spot=True, spotEvictedAt="2026-12-05T06:50:00.000Z"))
            return self._send(200, _sandbox26("started"))

        do_GET = do_POST = do_DELETE = do_PUT = handle_any

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}/api"


def _info_logging26() -> None:
    """A rollout worker's logging: INFO to stderr, logging's default format (openai and httpx2 log
    their requests and retries at INFO)."""
    import logging

    logging.basicConfig(level=logging.INFO)


def _openai26(url: str, retries: int = 2, timeout: float = 20, stream: bool = False,
              legacy: bool = False) -> None:
    _info_logging26()
    import openai

    client = openai.OpenAI(base_url=url, api_key="EMPTY", max_retries=retries, timeout=timeout)
    if legacy:
        out = client.completions.create(model=_MODEL26, prompt="<|im_start|>user\nFix it.", max_tokens=2048)
        print(out.choices[0].text)
    elif stream:
        for _ in client.chat.completions.create(model=_MODEL26, messages=_MSGS26, stream=True):
            pass
    else:
        print(client.chat.completions.create(model=_MODEL26, messages=_MSGS26).choices[0].message.content)


def case_agent26_openai_engine_gone() -> None:
    """The vLLM server answers an empty 500 (EngineDeadError) and exits; the SDK's retries meet a
    closed port."""
    _openai26(start_vllm26("dies"))


def case_agent26_openai_read_timeout() -> None:
    _openai26(start_vllm26("slow"), retries=1, timeout=2)


def case_agent26_openai_context_length() -> None:
    _openai26(start_vllm26("ctx400"))


def case_agent26_openai_legacy_max_tokens() -> None:
    """/v1/completions with max_tokens past the room the prompt leaves."""
    _openai26(start_vllm26("ctx400"), legacy=True)


def case_agent26_openai_model_not_found() -> None:
    _openai26(start_vllm26("model404"))


def case_agent26_openai_rate_limited() -> None:
    _openai26(start_vllm26("r429"), retries=1)


def case_agent26_openai_generation_error() -> None:
    _openai26(start_vllm26("gen500"), retries=1)


def case_agent26_openai_unavailable() -> None:
    _openai26(start_vllm26("u503"), retries=1)


def case_agent26_openai_unauthorized() -> None:
    _openai26(start_vllm26("auth401"))


def case_agent26_openai_stream_cut() -> None:
    _openai26(start_vllm26("streamcut"), stream=True)


def case_agent26_openai_stream_error_chunk() -> None:
    _openai26(start_vllm26("streamerr"), stream=True)


def case_agent26_openai_malformed_json() -> None:
    _openai26(start_vllm26("badjson"))


def case_agent26_openai_proxy_html() -> None:
    _openai26(start_vllm26("html"), retries=0)


def case_benign26_openai_retry_then_ok() -> None:
    """Two 503s while the server drains, then an answer: the SDK's own retries."""
    _openai26(start_vllm26("flaky503"))


def case_benign26_openai_retry_after_429() -> None:
    _openai26(start_vllm26("flaky429"))


def _litellm26(url: str, stream: bool = False, retries: int = 0, timeout: float = 20,
               local_cost_map: bool = True) -> None:
    if local_cost_map:  # an offline cluster: litellm would try to fetch its cost map at import
        os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    import litellm

    out = litellm.completion(model=f"hosted_vllm/{_MODEL26}", api_base=url, api_key="EMPTY",
                             messages=_MSGS26, stream=stream, num_retries=retries, timeout=timeout)
    if stream:
        for _ in out:
            pass
    else:
        print(out.choices[0].message.content)


def case_agent26_litellm_engine_refused() -> None:
    _litellm26(_dead_url26())


def case_agent26_litellm_timeout() -> None:
    _litellm26(start_vllm26("slow"), timeout=2)


def case_agent26_litellm_context_window() -> None:
    _litellm26(start_vllm26("ctx400"))


def case_agent26_litellm_model_not_found() -> None:
    _litellm26(start_vllm26("model404"))


def case_agent26_litellm_rate_limited() -> None:
    _litellm26(start_vllm26("r429"))


def case_agent26_litellm_engine_500_empty() -> None:
    _litellm26(start_vllm26("dead500"))


def case_agent26_litellm_unavailable() -> None:
    _litellm26(start_vllm26("u503"))


def case_agent26_litellm_unauthorized() -> None:
    _litellm26(start_vllm26("auth401"))


def case_agent26_litellm_malformed_json() -> None:
    _litellm26(start_vllm26("badjson"))


def case_agent26_litellm_stream_cut() -> None:
    _litellm26(start_vllm26("streamcut"), stream=True)


def case_agent26_litellm_router_retries_exhausted() -> None:
    """litellm's Router (async, num_retries=2) over one deployment whose engine is gone."""
    import asyncio

    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    from litellm import Router

    router = Router(model_list=[{"model_name": "policy", "litellm_params": {
        "model": f"hosted_vllm/{_MODEL26}", "api_base": _dead_url26(), "api_key": "EMPTY"}}],
        num_retries=2, retry_after=0)
    print(asyncio.run(router.acompletion(model="policy", messages=_MSGS26)))


def case_benign26_litellm_cost_map_offline() -> None:
    """litellm on a node without internet: its cost-map fetch fails, it falls back to the bundled
    map and the completion succeeds."""
    _litellm26(start_vllm26("ok"), local_cost_map=False)


def case_benign26_litellm_retry_then_ok() -> None:
    _litellm26(start_vllm26("flaky503"), retries=3)


def _aiohttp26(url: str, *, stream: bool = False, raise_status: bool = False, as_json: bool = False) -> None:
    import asyncio

    import aiohttp

    async def main() -> None:
        async with aiohttp.ClientSession(raise_for_status=raise_status) as s:
            body = {"model": _MODEL26, "messages": _MSGS26, "stream": stream}
            async with s.post(url + "/chat/completions", json=body) as r:
                if stream:
                    async for _ in r.content:
                        pass
                elif as_json:
                    print(await r.json())

    asyncio.run(main())


def case_agent26_aiohttp_engine_refused() -> None:
    _aiohttp26(_dead_url26())


def case_agent26_aiohttp_stream_cut() -> None:
    _aiohttp26(start_vllm26("streamcut"), stream=True)


def case_agent26_aiohttp_raise_for_status_503() -> None:
    _aiohttp26(start_vllm26("u503"), raise_status=True)


def case_agent26_aiohttp_html_not_json() -> None:
    _aiohttp26(start_vllm26("html"), as_json=True)


def case_benign26_aiohttp_unclosed_session() -> None:
    """A rollout client that never closes its ClientSession: aiohttp's report at exit (exit 0)."""
    import asyncio

    import aiohttp

    url = start_vllm26("ok")

    async def main() -> None:
        s = aiohttp.ClientSession()
        async with s.post(url + "/chat/completions", json={"model": _MODEL26, "messages": _MSGS26}) as r:
            print((await r.json())["choices"][0]["message"]["content"])

    asyncio.run(main())


def case_agent26_tenacity_retry_error() -> None:
    """tenacity around a sync openai call (SDK retries off), three attempts against a gone engine."""
    import logging

    _info_logging26()
    import openai
    from tenacity import before_sleep_log, retry, stop_after_attempt, wait_fixed

    client = openai.OpenAI(base_url=_dead_url26(), api_key="EMPTY", max_retries=0)

    @retry(stop=stop_after_attempt(3), wait=wait_fixed(0.2),
           before_sleep=before_sleep_log(logging.getLogger("skyrl.agent"), logging.WARNING))
    def generate() -> Any:
        return client.chat.completions.create(model=_MODEL26, messages=_MSGS26)

    generate()


def case_agent26_tenacity_async_retry_error() -> None:
    """tenacity's AsyncRetrying around an aiohttp POST to a gone engine."""
    import asyncio
    import logging

    _info_logging26()
    import aiohttp
    from tenacity import AsyncRetrying, before_sleep_log, stop_after_attempt, wait_fixed

    url = _dead_url26()

    async def main() -> None:
        async for attempt in AsyncRetrying(stop=stop_after_attempt(3), wait=wait_fixed(0.2), before_sleep=(
                before_sleep_log(logging.getLogger("skyrl.agent"), logging.WARNING))):
            with attempt:
                async with aiohttp.ClientSession() as s, s.post(url + "/chat/completions", json={}) as r:
                    await r.json()

    asyncio.run(main())


def case_benign26_tenacity_retry_then_ok() -> None:
    """tenacity retrying an aiohttp POST through two 503s, then the answer."""
    import asyncio
    import logging

    _info_logging26()
    import aiohttp
    from tenacity import AsyncRetrying, before_sleep_log, stop_after_attempt, wait_fixed

    url = start_vllm26("flaky503")

    async def main() -> None:
        async for attempt in AsyncRetrying(stop=stop_after_attempt(4), wait=wait_fixed(0.2), before_sleep=(
                before_sleep_log(logging.getLogger("skyrl.agent"), logging.WARNING))):
            with attempt:
                async with aiohttp.ClientSession(raise_for_status=True) as s, s.post(
                        url + "/chat/completions", json={"model": _MODEL26, "messages": _MSGS26}) as r:
                    print((await r.json())["choices"][0]["message"]["content"])

    asyncio.run(main())


def case_agent26_gather_wait_for_timeout() -> None:
    """16 rollouts under asyncio.gather, the batch given 2 s (asyncio.wait_for), the engine slow."""
    import asyncio

    import openai

    async def main() -> None:
        client = openai.AsyncOpenAI(base_url=start_vllm26("slow"), api_key="EMPTY", max_retries=0,
                                    timeout=30)
        rollouts = [client.chat.completions.create(model=_MODEL26, messages=_MSGS26) for _ in range(16)]
        await asyncio.wait_for(asyncio.gather(*rollouts), timeout=2)

    asyncio.run(main())


def case_agent26_taskgroup_rollouts_refused() -> None:
    """Four rollouts in an asyncio.TaskGroup (AsyncOpenAI, SDK retries off) against a gone engine."""
    import asyncio

    import openai

    async def main() -> None:
        client = openai.AsyncOpenAI(base_url=_dead_url26(), api_key="EMPTY", max_retries=0)
        async with asyncio.TaskGroup() as tg:
            for _ in range(4):
                tg.create_task(client.chat.completions.create(model=_MODEL26, messages=_MSGS26))

    asyncio.run(main())


def _daytona26(url: str, get: bool = False, timeout: float = 10) -> None:
    from daytona import CreateSandboxFromSnapshotParams, Daytona, DaytonaConfig

    d = Daytona(DaytonaConfig(api_key="dtn_0f3a9c2b7e1d4a5f8b6c", api_url=url, target="us"))
    if get:
        print(d.get(_SBX26).state)
    else:
        print(d.create(CreateSandboxFromSnapshotParams(snapshot="daytonaio/sandbox:0.5.0"),
                       timeout=timeout).id)


def case_agent26_daytona_auth_failed() -> None:
    _daytona26(start_daytona26("auth401"))


def case_agent26_daytona_sandbox_not_found() -> None:
    _daytona26(start_daytona26("notfound"), get=True)


def case_agent26_daytona_disk_quota() -> None:
    _daytona26(start_daytona26("disk"))


def case_agent26_daytona_api_500() -> None:
    _daytona26(start_daytona26("e500"))


def case_agent26_daytona_api_502() -> None:
    _daytona26(start_daytona26("e502"))


def case_agent26_daytona_rate_limited() -> None:
    _daytona26(start_daytona26("r429"))


def case_agent26_daytona_create_timeout() -> None:
    """The sandbox stays 'starting' past create(timeout=3)."""
    _daytona26(start_daytona26("stuck"), timeout=3)


def case_agent26_daytona_image_pull_failed() -> None:
    _daytona26(start_daytona26("pullfail"))


def case_agent26_daytona_no_runner() -> None:
    _daytona26(start_daytona26("norunner"))


def case_agent26_daytona_queue_timeout() -> None:
    _daytona26(start_daytona26("queue"))


def case_agent26_daytona_spot_evicted() -> None:
    _daytona26(start_daytona26("spot"))


def case_agent26_daytona_api_refused() -> None:
    _daytona26(_dead_url26("/api"))


CASES26: dict[str, Case] = {n.removeprefix("case_"): (f, k, False) for n, f, k in [
    ("case_agent26_openai_engine_gone", case_agent26_openai_engine_gone, "python_crash"),
    ("case_agent26_openai_read_timeout", case_agent26_openai_read_timeout, "python_crash"),
    ("case_agent26_openai_context_length", case_agent26_openai_context_length, "python_crash"),
    ("case_agent26_openai_legacy_max_tokens", case_agent26_openai_legacy_max_tokens, "python_crash"),
    ("case_agent26_openai_model_not_found", case_agent26_openai_model_not_found, "python_crash"),
    ("case_agent26_openai_rate_limited", case_agent26_openai_rate_limited, "python_crash"),
    ("case_agent26_openai_generation_error", case_agent26_openai_generation_error, "python_crash"),
    ("case_agent26_openai_unavailable", case_agent26_openai_unavailable, "python_crash"),
    ("case_agent26_openai_unauthorized", case_agent26_openai_unauthorized, "python_crash"),
    ("case_agent26_openai_stream_cut", case_agent26_openai_stream_cut, "python_crash"),
    ("case_agent26_openai_stream_error_chunk", case_agent26_openai_stream_error_chunk, "python_crash"),
    ("case_agent26_openai_malformed_json", case_agent26_openai_malformed_json, "python_crash"),
    ("case_agent26_openai_proxy_html", case_agent26_openai_proxy_html, "python_crash"),
    ("case_benign26_openai_retry_then_ok", case_benign26_openai_retry_then_ok, "benign"),
    ("case_benign26_openai_retry_after_429", case_benign26_openai_retry_after_429, "benign"),
    ("case_agent26_litellm_engine_refused", case_agent26_litellm_engine_refused, "python_crash"),
    ("case_agent26_litellm_timeout", case_agent26_litellm_timeout, "python_crash"),
    ("case_agent26_litellm_context_window", case_agent26_litellm_context_window, "python_crash"),
    ("case_agent26_litellm_model_not_found", case_agent26_litellm_model_not_found, "python_crash"),
    ("case_agent26_litellm_rate_limited", case_agent26_litellm_rate_limited, "python_crash"),
    ("case_agent26_litellm_engine_500_empty", case_agent26_litellm_engine_500_empty, "python_crash"),
    ("case_agent26_litellm_unavailable", case_agent26_litellm_unavailable, "python_crash"),
    ("case_agent26_litellm_unauthorized", case_agent26_litellm_unauthorized, "python_crash"),
    ("case_agent26_litellm_malformed_json", case_agent26_litellm_malformed_json, "python_crash"),
    ("case_agent26_litellm_stream_cut", case_agent26_litellm_stream_cut, "python_crash"),
    ("case_agent26_litellm_router_retries_exhausted", case_agent26_litellm_router_retries_exhausted,
     "python_crash"),
    ("case_benign26_litellm_cost_map_offline", case_benign26_litellm_cost_map_offline, "benign"),
    ("case_benign26_litellm_retry_then_ok", case_benign26_litellm_retry_then_ok, "benign"),
    ("case_agent26_aiohttp_engine_refused", case_agent26_aiohttp_engine_refused, "python_crash"),
    ("case_agent26_aiohttp_stream_cut", case_agent26_aiohttp_stream_cut, "python_crash"),
    ("case_agent26_aiohttp_raise_for_status_503", case_agent26_aiohttp_raise_for_status_503, "python_crash"),
    ("case_agent26_aiohttp_html_not_json", case_agent26_aiohttp_html_not_json, "python_crash"),
    ("case_benign26_aiohttp_unclosed_session", case_benign26_aiohttp_unclosed_session, "benign"),
    ("case_agent26_tenacity_retry_error", case_agent26_tenacity_retry_error, "python_crash"),
    ("case_agent26_tenacity_async_retry_error", case_agent26_tenacity_async_retry_error, "python_crash"),
    ("case_benign26_tenacity_retry_then_ok", case_benign26_tenacity_retry_then_ok, "benign"),
    ("case_agent26_gather_wait_for_timeout", case_agent26_gather_wait_for_timeout, "python_crash"),
    ("case_agent26_taskgroup_rollouts_refused", case_agent26_taskgroup_rollouts_refused, "python_crash"),
    ("case_agent26_daytona_auth_failed", case_agent26_daytona_auth_failed, "python_crash"),
    ("case_agent26_daytona_sandbox_not_found", case_agent26_daytona_sandbox_not_found, "python_crash"),
    ("case_agent26_daytona_disk_quota", case_agent26_daytona_disk_quota, "python_crash"),
    ("case_agent26_daytona_api_500", case_agent26_daytona_api_500, "python_crash"),
    ("case_agent26_daytona_api_502", case_agent26_daytona_api_502, "python_crash"),
    ("case_agent26_daytona_rate_limited", case_agent26_daytona_rate_limited, "python_crash"),
    ("case_agent26_daytona_create_timeout", case_agent26_daytona_create_timeout, "python_crash"),
    ("case_agent26_daytona_image_pull_failed", case_agent26_daytona_image_pull_failed, "python_crash"),
    ("case_agent26_daytona_no_runner", case_agent26_daytona_no_runner, "python_crash"),
    ("case_agent26_daytona_queue_timeout", case_agent26_daytona_queue_timeout, "python_crash"),
    ("case_agent26_daytona_spot_evicted", case_agent26_daytona_spot_evicted, "python_crash"),
    ("case_agent26_daytona_api_refused", case_agent26_daytona_api_refused, "python_crash"),
]}
CASES.update(CASES26)
TIMEOUT_S.update({n: 60 for n in CASES26})

# ----------------------------------------------------------------------------- Ray, second round (set 28)
# Real Ray 2.60 failures on this CPU machine, families set 22 did not provoke: placement groups removed
# or mis-addressed, actors killed with a restart pending / past their pending-call limit / named twice,
# async actors, cancellation, freed objects, the object store full with spilling off, runtime_env
# validation and package-size limits, Ray Train v2 (DataParallelTrainer: no torch here) and Ray Data
# failures, ray.util.queue / collective misuse, compiled graphs. Each case makes its own local cluster
# (ray.init, temp dir /tmp/c28r) that ends with the case's process.

_RAY_TMP28 = "/tmp/c28r"  # short: Ray's socket paths must fit in 107 bytes


def _ray28(**kw: Any) -> Any:
    """ray.init of a local cluster (2 CPUs unless told) with an 80 MB object store."""
    import ray

    kw.setdefault("num_cpus", 2)
    kw.setdefault("object_store_memory", 80 * 2**20)
    kw.setdefault("include_dashboard", False)
    ray.init(_temp_dir=_RAY_TMP28, **kw)
    return ray


def case_ray28_pg_removed_actor_in_flight() -> None:
    """A rollout actor in a placement group; the group is removed while a call runs."""
    ray = _ray28()
    from ray.util.placement_group import placement_group, remove_placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    pg = placement_group([{"CPU": 1}], strategy="STRICT_PACK")
    ray.get(pg.ready(), timeout=30)

    @ray.remote(num_cpus=1)
    class RolloutWorker:
        def generate(self) -> int:
            time.sleep(20)
            return 1

    w = RolloutWorker.options(scheduling_strategy=PlacementGroupSchedulingStrategy(
        placement_group=pg, placement_group_bundle_index=0)).remote()
    ref = w.generate.remote()
    time.sleep(3)
    remove_placement_group(pg)
    ray.get(ref, timeout=40)


def case_ray28_pg_removed_task_pending() -> None:
    """A task submitted into a placement group that is removed before it can start."""
    ray = _ray28(num_cpus=1)
    from ray.util.placement_group import placement_group, remove_placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    pg = placement_group([{"CPU": 1}])
    ray.get(pg.ready(), timeout=30)

    @ray.remote(num_cpus=1)
    def score(i: int) -> int:
        time.sleep(10)
        return i

    strat = PlacementGroupSchedulingStrategy(placement_group=pg)
    refs = [score.options(scheduling_strategy=strat).remote(i) for i in range(2)]
    time.sleep(2)
    remove_placement_group(pg)
    ray.get(refs, timeout=40)


def case_ray28_pg_bundle_index_out_of_range() -> None:
    """A worker scheduled into bundle 4 of a two-bundle placement group."""
    ray = _ray28()
    from ray.util.placement_group import placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    pg = placement_group([{"CPU": 0.5}, {"CPU": 0.5}])
    ray.get(pg.ready(), timeout=30)

    @ray.remote(num_cpus=0.5)
    class TrainWorker:
        def rank(self) -> int:
            return 4

    w = TrainWorker.options(scheduling_strategy=PlacementGroupSchedulingStrategy(
        placement_group=pg, placement_group_bundle_index=4)).remote()
    ray.get(w.rank.remote(), timeout=30)


def case_ray28_pg_actor_bigger_than_bundle() -> None:
    """An actor asking 2 CPUs inside a placement group whose bundles hold 1 CPU each."""
    ray = _ray28()
    from ray.util.placement_group import placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    pg = placement_group([{"CPU": 1}, {"CPU": 1}])
    ray.get(pg.ready(), timeout=30)

    @ray.remote(num_cpus=2)
    class RefModel:
        def ping(self) -> int:
            return 1

    r = RefModel.options(scheduling_strategy=PlacementGroupSchedulingStrategy(
        placement_group=pg)).remote()
    ray.get(r.ping.remote(), timeout=30)


def case_ray28_pg_strict_pack_two_nodes() -> None:
    """STRICT_PACK of two 1-CPU bundles on a cluster of two 1-CPU nodes (fits only spread)."""
    # Cluster writes its address to $RAY_TMPDIR/ray_current_cluster (default /tmp/ray): keep it ours
    os.environ.update(RAY_health_check_period_ms="1000", RAY_TMPDIR=_RAY_TMP28)
    os.makedirs(os.path.join(_RAY_TMP28, "ray"), exist_ok=True)
    import ray
    from ray.cluster_utils import Cluster
    from ray.util.placement_group import placement_group

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": 80 * 2**20, "include_dashboard": False,
        "temp_dir": _RAY_TMP28})
    cluster.add_node(num_cpus=1, object_store_memory=80 * 2**20)
    ray.init(address=cluster.address)
    cluster.wait_for_nodes()
    pg = placement_group([{"CPU": 1}, {"CPU": 1}], strategy="STRICT_PACK", name="actor_rollout_pg")
    ray.get(pg.ready(), timeout=25)


def case_ray28_node_drained_preempted() -> None:
    """A worker node drained for preemption (GCS DrainNode, deadline 2 s), then its raylet killed,
    under a rollout actor; the driver calls the actor."""
    os.environ.update(RAY_health_check_period_ms="500", RAY_health_check_timeout_ms="500",
                      RAY_health_check_failure_threshold="3", RAY_TMPDIR=_RAY_TMP28)
    os.makedirs(os.path.join(_RAY_TMP28, "ray"), exist_ok=True)
    import ray
    from ray.cluster_utils import Cluster
    from ray.core.generated import autoscaler_pb2

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": 80 * 2**20, "include_dashboard": False,
        "temp_dir": _RAY_TMP28})
    node = cluster.add_node(num_cpus=1, object_store_memory=80 * 2**20, resources={"rollout_node": 1})
    ray.init(address=cluster.address)
    cluster.wait_for_nodes()

    @ray.remote(resources={"rollout_node": 1})
    class RolloutWorker:
        def step(self) -> int:
            return 1

    w = RolloutWorker.remote()
    ray.get(w.step.remote(), timeout=30)
    gcs = ray._raylet.GcsClient(address=cluster.address)
    accepted, msg = gcs.drain_node(node.node_id, autoscaler_pb2.DrainNodeReason.Value(
        "DRAIN_NODE_REASON_PREEMPTION"), "spot instance preempted", int(time.time() * 1000) + 2000)
    print(f"PROVOKE-NOTE drain accepted={accepted} {msg}", flush=True)
    time.sleep(3)
    cluster.remove_node(node, allow_graceful=False)
    time.sleep(5)
    ray.get(w.step.remote(), timeout=30)


def case_ray28_actor_kill_restart_in_flight() -> None:
    """ray.kill(no_restart=False) of a restartable engine while a generate call is in flight."""
    ray = _ray28()

    @ray.remote(max_restarts=1)
    class InferenceEngine:
        def generate(self) -> str:
            time.sleep(20)
            return "done"

    e = InferenceEngine.remote()
    ref = e.generate.remote()
    time.sleep(3)
    ray.kill(e, no_restart=False)
    ray.get(ref, timeout=40)


def case_ray28_actor_task_retries_exhausted() -> None:
    """An actor (max_restarts=3, max_task_retries=2) whose method kills its process every time."""
    ray = _ray28()

    @ray.remote(max_restarts=3, max_task_retries=2)
    class RewardModel:
        def score(self) -> float:
            os._exit(1)

    r = RewardModel.remote()
    ray.get(r.score.remote(), timeout=60)


def case_ray28_async_actor_wait_for_timeout() -> None:
    """An async actor whose method times out on asyncio.wait_for (a sandbox call that hangs)."""
    ray = _ray28()

    @ray.remote
    class SandboxEnv:
        async def step(self, action: str) -> str:
            import asyncio

            await asyncio.wait_for(asyncio.sleep(30), timeout=1)
            return action

    env = SandboxEnv.remote()
    ray.get(env.step.remote("ls"), timeout=40)


def case_ray28_async_actor_init_chained() -> None:
    """An async actor whose constructor raises RuntimeError from a missing tokenizer file."""
    ray = _ray28()

    @ray.remote
    class AgentLoop:
        def __init__(self, path: str) -> None:
            try:
                open(os.path.join(path, "tokenizer_config.json"))
            except FileNotFoundError as e:
                raise RuntimeError(f"cannot build the agent loop's tokenizer from {path}") from e

        async def run(self) -> int:
            return 1

    a = AgentLoop.remote("/ckpt/global_step_40/actor/huggingface")
    ray.get(a.run.remote(), timeout=40)


def case_ray28_actor_owner_task_exited() -> None:
    """Engines created by a rollout-manager actor that then dies (os._exit); the driver calls an
    engine whose owner is gone."""
    ray = _ray28()

    @ray.remote(num_cpus=0)
    class InferenceEngine:
        def generate(self) -> str:
            return "ok"

    @ray.remote(num_cpus=0)
    class RolloutManager:
        def launch(self) -> list[Any]:
            self.engines = [InferenceEngine.remote() for _ in range(2)]
            ray.get([e.generate.remote() for e in self.engines])
            return self.engines

        def crash(self) -> None:
            os._exit(1)

    m = RolloutManager.remote()
    engines = ray.get(m.launch.remote(), timeout=40)
    try:
        ray.get(m.crash.remote(), timeout=30)
    except ray.exceptions.RayActorError:
        pass
    time.sleep(3)
    print(ray.get([e.generate.remote() for e in engines], timeout=40))


def case_ray28_actor_concurrency_group_missing() -> None:
    """A threaded actor's method called with a concurrency group the actor does not define."""
    ray = _ray28()

    @ray.remote(concurrency_groups={"rollout": 2})
    class Server:
        def get_weights(self) -> int:
            return 1

    s = Server.remote()
    ray.get(s.get_weights.options(concurrency_group="weight_sync").remote(), timeout=30)


def case_ray28_actor_pending_calls_exceeded() -> None:
    """A reward actor with max_pending_calls=2 sent eight calls at once."""
    ray = _ray28()

    @ray.remote(max_pending_calls=2)
    class RewardModel:
        def score(self, i: int) -> int:
            time.sleep(1)
            return i

    r = RewardModel.remote()
    refs = [r.score.remote(i) for i in range(8)]
    ray.get(refs, timeout=40)


def case_ray28_actor_name_taken() -> None:
    """A second actor created under a name a live actor holds (a restarted trainer's controller)."""
    ray = _ray28()

    @ray.remote(num_cpus=0)
    class Controller:
        def ping(self) -> int:
            return 1

    first = Controller.options(name="grpo_controller").remote()
    ray.get(first.ping.remote())
    Controller.options(name="grpo_controller").remote()


def case_ray28_get_actor_missing() -> None:
    """ray.get_actor of a name no actor holds (the rollout manager was never started)."""
    ray = _ray28()
    ray.get_actor("rollout_manager", namespace="grpo")


def case_ray28_task_cancelled() -> None:
    """ray.cancel of a running rollout task; the driver gets its ref."""
    ray = _ray28()

    @ray.remote
    def rollout() -> int:
        time.sleep(30)
        return 1

    ref = rollout.remote()
    time.sleep(3)
    ray.cancel(ref)
    ray.get(ref, timeout=30)


def case_ray28_task_cancelled_force() -> None:
    """ray.cancel(force=True) of a running task: its worker is killed."""
    ray = _ray28()

    @ray.remote
    def rollout() -> int:
        time.sleep(30)
        return 1

    ref = rollout.remote()
    time.sleep(3)
    ray.cancel(ref, force=True)
    ray.get(ref, timeout=30)


def case_ray28_async_actor_task_cancelled() -> None:
    """ray.cancel of an async actor's running call."""
    ray = _ray28()

    @ray.remote
    class Generator:
        async def generate(self) -> int:
            import asyncio

            await asyncio.sleep(30)
            return 1

    g = Generator.remote()
    ref = g.generate.remote()
    time.sleep(3)
    ray.cancel(ref)
    ray.get(ref, timeout=30)


def case_ray28_actor_task_cancel_force() -> None:
    """ray.cancel(force=True) of an actor task (not supported)."""
    ray = _ray28()

    @ray.remote
    class Generator:
        def generate(self) -> int:
            time.sleep(10)
            return 1

    g = Generator.remote()
    ref = g.generate.remote()
    time.sleep(2)
    ray.cancel(ref, force=True)


def case_ray28_object_store_full_no_spill() -> None:
    """ray.put past an 80 MB store with spilling disabled and the fallback directory a full tmpfs."""
    mnt = _full_fs()
    ray = _ray28(_system_config={"automatic_object_spilling_enabled": False,
                                 "object_spilling_config": json.dumps(
                                     {"type": "filesystem", "params": {"directory_path": str(mnt)}})})
    held = [ray.put(b"\1" * (30 << 20)) for _ in range(6)]
    print(len(held))


def case_ray28_task_output_store_full() -> None:
    """Tasks returning 30 MB batches past an 80 MB store, spilling off, fallback on a full tmpfs."""
    mnt = _full_fs()
    ray = _ray28(_system_config={"automatic_object_spilling_enabled": False,
                                 "object_spilling_config": json.dumps(
                                     {"type": "filesystem", "params": {"directory_path": str(mnt)}})})

    @ray.remote(max_retries=0)
    def make_batch(i: int) -> bytes:
        return bytes([i]) * (30 << 20)

    refs = [make_batch.remote(i) for i in range(6)]
    print(sum(len(ray.get(r, timeout=40)) for r in refs))


def case_ray28_runtime_env_env_vars_int() -> None:
    """runtime_env env_vars with an int value (OMP_NUM_THREADS=1 written without quotes)."""
    ray = _ray28()

    @ray.remote(runtime_env={"env_vars": {"OMP_NUM_THREADS": 1}})
    def rollout() -> int:
        return 1

    ray.get(rollout.remote(), timeout=30)


def case_ray28_runtime_env_package_too_large() -> None:
    """A working_dir holding a 24 MiB file under RAY_max_grpc_message_size=16 MiB."""
    os.environ["RAY_max_grpc_message_size"] = str(16 << 20)
    d = Path(tempfile.mkdtemp(prefix="proj")) / "grpo_project"
    d.mkdir()
    (d / "train.py").write_text("print('train')\n")
    (d / "rollouts.bin").write_bytes(os.urandom(24 << 20))
    _ray28(runtime_env={"working_dir": str(d)})


def case_ray28_runtime_env_pip_wheel_missing() -> None:
    """An actor whose runtime_env pip-installs a local wheel path that does not exist."""
    ray = _ray28()

    @ray.remote(runtime_env={"pip": ["/nonexistent/wheels/reward_fns-0.1-py3-none-any.whl"]})
    class RewardWorker:
        def ping(self) -> int:
            return 1

    w = RewardWorker.remote()
    ray.get(w.ping.remote(), timeout=70)


def case_ray28_remote_fn_too_large() -> None:
    """A task whose closure captures a 120 MB buffer (over FUNCTION_SIZE_ERROR_THRESHOLD)."""
    ray = _ray28()
    table = b"\1" * (120 * 10**6)

    @ray.remote
    def lookup(i: int) -> int:
        return table[i]

    ray.get(lookup.remote(3), timeout=30)


def _train28(fn: Any, **kw: Any) -> Any:
    os.environ["RAY_TRAIN_V2_ENABLED"] = "1"
    ray = _ray28()
    from ray.train import RunConfig, ScalingConfig
    from ray.train.v2.api.data_parallel_trainer import DataParallelTrainer

    storage = kw.pop("storage", str(Path(tempfile.mkdtemp(prefix="train28")) / "runs"))
    trainer = DataParallelTrainer(
        fn, scaling_config=kw.pop("scaling", ScalingConfig(num_workers=2, use_gpu=False)),
        run_config=RunConfig(name="grpo_cpu", storage_path=storage, **kw))
    return ray, trainer.fit()


def case_ray28_train_worker_raises() -> None:
    """Ray Train v2: rank 1 of two workers raises at step 3."""
    def train_fn() -> None:
        import ray.train

        rank = ray.train.get_context().get_world_rank()
        for step in range(5):
            if rank == 1 and step == 3:
                raise RuntimeError(f"reward is NaN at step {step}")
            ray.train.report({"step": step})

    _train28(train_fn)


def case_ray28_train_scaling_unsatisfiable() -> None:
    """Ray Train v2: ScalingConfig(num_workers=4, 1 CPU each) on a 2-CPU node (start timeout 10 s,
    one controller retry)."""
    os.environ["RAY_TRAIN_WORKER_GROUP_START_TIMEOUT_S"] = "10"
    from ray.train import ScalingConfig

    def train_fn() -> None:
        pass

    from ray.train import FailureConfig

    _train28(train_fn, scaling=ScalingConfig(num_workers=4, use_gpu=False,
                                              resources_per_worker={"CPU": 1}),
             failure_config=FailureConfig(controller_failure_limit=1))


def case_ray28_train_checkpoint_disk_full() -> None:
    """Ray Train v2: a checkpoint reported to storage on a full 256 KiB tmpfs."""
    mnt = _full_fs()

    def train_fn() -> None:
        import ray.train
        from ray.train import Checkpoint

        d = tempfile.mkdtemp(prefix="ckpt")
        Path(d, "model.bin").write_bytes(os.urandom(1 << 20))
        ray.train.report({"step": 1}, checkpoint=Checkpoint.from_directory(d))

    from ray.train import ScalingConfig

    _train28(train_fn, storage=str(mnt / "runs"), scaling=ScalingConfig(num_workers=1))


def case_ray28_train_storage_not_writable() -> None:
    """Ray Train v2: storage_path under /proc (no directory can be made there)."""
    def train_fn() -> None:
        pass

    _train28(train_fn, storage="/proc/irisrl/grpo_runs")


def case_ray28_train_report_barrier_timeout() -> None:
    """Ray Train v2: rank 0 reports while rank 1 is stuck in a rollout (collective timeout 6 s,
    warnings every 2 s)."""
    os.environ.update(RAY_TRAIN_COLLECTIVE_TIMEOUT_S="6", RAY_TRAIN_COLLECTIVE_WARN_INTERVAL_S="2")

    def train_fn() -> None:
        import ray.train

        if ray.train.get_context().get_world_rank() == 1:
            time.sleep(40)
        ray.train.report({"step": 1})

    _train28(train_fn)


def case_ray28_data_map_batches_raises() -> None:
    """Ray Data: a map_batches UDF raising KeyError on a batch without the 'reward' column."""
    ray = _ray28()
    import ray.data

    def add_adv(batch: dict[str, Any]) -> dict[str, Any]:
        batch["adv"] = batch["reward"] - 0.5
        return batch

    ray.data.range(64).map_batches(add_adv, batch_size=16).take_all()


def case_ray28_data_actor_pool_init_fails() -> None:
    """Ray Data: a class UDF (actor pool) whose constructor fails to load its reward model."""
    ray = _ray28()
    import ray.data

    class RewardScorer:
        def __init__(self) -> None:
            raise OSError(2, "No such file or directory", "/models/rm-7b/config.json")

        def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
            return batch

    ray.data.range(32).map_batches(RewardScorer, batch_size=8, concurrency=1).take_all()


def case_ray28_data_udf_cpus_over_cluster() -> None:
    """Ray Data: a map_batches UDF asking 4 CPUs per task on a 2-CPU cluster; the driver gives up
    after 20 s."""
    ray = _ray28()
    import ray.data

    def score(batch: dict[str, Any]) -> dict[str, Any]:
        return batch

    ds = ray.data.range(32).map_batches(score, batch_size=8, num_cpus=4)
    t = threading.Thread(target=ds.take_all, daemon=True)
    t.start()
    t.join(20)
    print("PROVOKE-NOTE dataset still running after 20 s", flush=True)
    sys.stdout.flush()
    os._exit(1)


def case_ray28_queue_get_timeout() -> None:
    """ray.util.queue.Queue.get(timeout=2) on a rollout queue nobody fills."""
    ray = _ray28()
    from ray.util.queue import Queue

    q = Queue(maxsize=4)
    q.get(timeout=2)


def case_ray28_queue_put_full() -> None:
    """ray.util.queue.Queue.put(block=False) on a full queue."""
    ray = _ray28()
    from ray.util.queue import Queue

    q = Queue(maxsize=2)
    for i in range(3):
        q.put(i, block=False)


def case_ray28_collective_no_group() -> None:
    """ray.util.collective.allreduce in an actor that never joined a collective group."""
    ray = _ray28()

    @ray.remote
    class TrainWorker:
        def sync(self) -> int:
            import numpy as np
            import ray.util.collective as col

            t = np.ones(4, dtype=np.float32)
            col.allreduce(t, group_name="policy")
            return int(t.sum())

    w = TrainWorker.remote()
    ray.get(w.sync.remote(), timeout=30)


def case_ray28_streaming_generator_raises() -> None:
    """A streaming generator task yielding two rollouts, then raising."""
    ray = _ray28()

    @ray.remote(num_returns="streaming")
    def rollouts():  # type: ignore[no-untyped-def]
        for i in range(2):
            yield i
        raise ConnectionResetError(104, "Connection reset by peer")

    for ref in rollouts.remote():
        print("rollout", ray.get(ref, timeout=30))


def case_ray28_cgraph_get_timeout() -> None:
    """A compiled graph (ray.dag) whose actor step outlasts RAY_CGRAPH_get_timeout=3."""
    os.environ["RAY_CGRAPH_get_timeout"] = "3"
    ray = _ray28()
    from ray.dag import InputNode

    @ray.remote
    class Worker:
        def step(self, x: int) -> int:
            time.sleep(15)
            return x

    w = Worker.remote()
    with InputNode() as inp:
        dag = w.step.bind(inp)
    cdag = dag.experimental_compile()
    ref = cdag.execute(1)
    ray.get(ref)


def case_ray28_cgraph_actor_raises() -> None:
    """A compiled graph whose actor step raises; the driver reads the result."""
    ray = _ray28()
    from ray.dag import InputNode

    @ray.remote
    class Worker:
        def step(self, x: int) -> int:
            raise ZeroDivisionError("division by zero in advantage normalisation")

    w = Worker.remote()
    with InputNode() as inp:
        dag = w.step.bind(inp)
    cdag = dag.experimental_compile()
    ray.get(cdag.execute(1), timeout=30)


# benign look-alikes Ray prints in runs that go on

def case_benign28_log_dedup() -> None:
    """Six rollouts warn the same retried sandbox error; Ray's log deduplication folds the repeats."""
    ray = _ray28()

    @ray.remote
    def rollout(i: int) -> int:
        import warnings

        warnings.simplefilter("always")
        warnings.warn("sandbox returned HTTP 503, retrying (attempt 1/3)", RuntimeWarning)
        time.sleep(0.5)
        return i

    print("result", ray.get([rollout.remote(i) for i in range(6)]))
    time.sleep(2)


def case_benign28_resource_demand_warning() -> None:
    """Two actors hold both CPUs; a task waits about 25 s (the raylet checks every 2 s), then runs
    once one actor is killed; the raylet's warning is read back from its raylet.out."""
    os.environ["RAY_debug_dump_period_milliseconds"] = "2000"
    ray = _ray28()

    @ray.remote(num_cpus=1)
    class Engine:
        def ping(self) -> int:
            return 1

    engines = [Engine.remote() for _ in range(2)]
    ray.get([e.ping.remote() for e in engines])

    @ray.remote(num_cpus=1)
    def score() -> int:
        return 1

    ref = score.remote()
    time.sleep(25)
    ray.kill(engines[0])
    print("result", ray.get(ref, timeout=30))
    # the raylet writes this warning to its own log (raylet.out), not to the driver: show its W lines
    raylet_out = Path(ray._private.worker._global_node.get_session_dir_path()) / "logs" / "raylet.out"
    for line in raylet_out.read_text(errors="replace").splitlines():
        if "cannot be scheduled right now" in line:
            print(line)


def case_benign28_blocking_get_async_actor() -> None:
    """An async actor method calling blocking ray.get (Ray's warning); the call returns."""
    ray = _ray28()

    @ray.remote
    def reward() -> float:
        return 1.0

    @ray.remote
    class AgentLoop:
        async def run(self) -> float:
            return ray.get(reward.remote())

    a = AgentLoop.remote()
    print("result", ray.get(a.run.remote(), timeout=30))


def case_benign28_large_remote_fn() -> None:
    """A task whose closure captures a 20 MB table (Ray's size warning); it runs."""
    ray = _ray28()
    table = b"\1" * (20 * 10**6)

    @ray.remote
    def lookup(i: int) -> int:
        return table[i]

    print("result", ray.get(lookup.remote(3), timeout=30))
    time.sleep(1)


def case_benign28_working_dir_large_file() -> None:
    """A working_dir holding a 12 MiB file (Ray's size warning); the task runs."""
    d = Path(tempfile.mkdtemp(prefix="proj")) / "grpo_project"
    d.mkdir()
    (d / "prompts.jsonl").write_bytes(os.urandom(12 << 20))
    ray = _ray28(runtime_env={"working_dir": str(d)})

    @ray.remote
    def count() -> int:
        return len(os.listdir("."))

    print("result", ray.get(count.remote(), timeout=60))


def case_benign28_train_restart_succeeds() -> None:
    """Ray Train v2 with max_failures=1: the first attempt's worker raises, the restart finishes."""
    marker = Path(tempfile.mkdtemp(prefix="restart")) / "first"

    def train_fn() -> None:
        import ray.train

        if not marker.exists():
            marker.touch()
            raise RuntimeError("rollout worker lost its sandbox connection")
        ray.train.report({"step": 1})

    from ray.train import FailureConfig, ScalingConfig

    ray, result = _train28(train_fn, scaling=ScalingConfig(num_workers=1),
                           failure_config=FailureConfig(max_failures=1))
    print("result", result.metrics)


CASES28: dict[str, Case] = {
    "ray28_pg_removed_actor_in_flight": (case_ray28_pg_removed_actor_in_flight, "ray_actor_died", False),
    "ray28_pg_removed_task_pending": (case_ray28_pg_removed_task_pending, "python_crash", False),
    "ray28_pg_bundle_index_out_of_range": (case_ray28_pg_bundle_index_out_of_range, "python_crash", False),
    "ray28_pg_actor_bigger_than_bundle": (case_ray28_pg_actor_bigger_than_bundle, "pg_unplaceable", False),
    "ray28_pg_strict_pack_two_nodes": (case_ray28_pg_strict_pack_two_nodes, "pg_unplaceable", False),
    "ray28_node_drained_preempted": (case_ray28_node_drained_preempted, "ray_node_dead", False),
    "ray28_actor_kill_restart_in_flight": (case_ray28_actor_kill_restart_in_flight, "ray_actor_died", False),
    "ray28_actor_task_retries_exhausted": (case_ray28_actor_task_retries_exhausted, "ray_actor_died", False),
    "ray28_async_actor_wait_for_timeout": (case_ray28_async_actor_wait_for_timeout, "python_crash", False),
    "ray28_async_actor_init_chained": (case_ray28_async_actor_init_chained, "ray_actor_died", False),
    "ray28_actor_owner_task_exited": (case_ray28_actor_owner_task_exited, "ray_actor_died", False),
    "ray28_actor_concurrency_group_missing": (case_ray28_actor_concurrency_group_missing, "python_crash",
                                              False),
    "ray28_actor_pending_calls_exceeded": (case_ray28_actor_pending_calls_exceeded, "python_crash", False),
    "ray28_actor_name_taken": (case_ray28_actor_name_taken, "python_crash", False),
    "ray28_get_actor_missing": (case_ray28_get_actor_missing, "python_crash", False),
    "ray28_task_cancelled": (case_ray28_task_cancelled, "python_crash", False),
    "ray28_task_cancelled_force": (case_ray28_task_cancelled_force, "python_crash", False),
    "ray28_async_actor_task_cancelled": (case_ray28_async_actor_task_cancelled, "python_crash", False),
    "ray28_actor_task_cancel_force": (case_ray28_actor_task_cancel_force, "python_crash", False),
    "ray28_object_store_full_no_spill": (case_ray28_object_store_full_no_spill, "disk_full", False),
    "ray28_task_output_store_full": (case_ray28_task_output_store_full, "disk_full", False),
    "ray28_runtime_env_env_vars_int": (case_ray28_runtime_env_env_vars_int, "python_crash", False),
    "ray28_runtime_env_package_too_large": (case_ray28_runtime_env_package_too_large, "python_crash", False),
    "ray28_runtime_env_pip_wheel_missing": (case_ray28_runtime_env_pip_wheel_missing, "python_crash", False),
    "ray28_remote_fn_too_large": (case_ray28_remote_fn_too_large, "python_crash", False),
    "ray28_train_worker_raises": (case_ray28_train_worker_raises, "python_crash", False),
    "ray28_train_scaling_unsatisfiable": (case_ray28_train_scaling_unsatisfiable, "pg_timeout", False),
    "ray28_train_checkpoint_disk_full": (case_ray28_train_checkpoint_disk_full, "disk_full", False),
    "ray28_train_storage_not_writable": (case_ray28_train_storage_not_writable, "python_crash", False),
    "ray28_train_report_barrier_timeout": (case_ray28_train_report_barrier_timeout, "dist_timeout",
                                           False),
    "ray28_data_map_batches_raises": (case_ray28_data_map_batches_raises, "python_crash", False),
    "ray28_data_actor_pool_init_fails": (case_ray28_data_actor_pool_init_fails, "python_crash", False),
    "ray28_data_udf_cpus_over_cluster": (case_ray28_data_udf_cpus_over_cluster, "pg_unplaceable", False),
    "ray28_queue_get_timeout": (case_ray28_queue_get_timeout, "python_crash", False),
    "ray28_queue_put_full": (case_ray28_queue_put_full, "python_crash", False),
    "ray28_collective_no_group": (case_ray28_collective_no_group, "python_crash", False),
    "ray28_streaming_generator_raises": (case_ray28_streaming_generator_raises, "python_crash", False),
    "ray28_cgraph_get_timeout": (case_ray28_cgraph_get_timeout, "dist_timeout", False),
    "ray28_cgraph_actor_raises": (case_ray28_cgraph_actor_raises, "python_crash", False),
    "benign28_log_dedup": (case_benign28_log_dedup, "benign", False),
    "benign28_resource_demand_warning": (case_benign28_resource_demand_warning, "benign", False),
    "benign28_blocking_get_async_actor": (case_benign28_blocking_get_async_actor, "benign", False),
    "benign28_large_remote_fn": (case_benign28_large_remote_fn, "benign", False),
    "benign28_working_dir_large_file": (case_benign28_working_dir_large_file, "benign", False),
    "benign28_train_restart_succeeds": (case_benign28_train_restart_succeeds, "benign", False),
}
CASES.update(CASES28)


# ----------------------------------------------------------------------------- set 30: Hub 2.x downloads
# The model / data DOWNLOAD side as the current releases print it: huggingface_hub 2.4 (httpx2),
# transformers 5.25, datasets 5.2, safetensors 0.8 and the `hf` CLI against a loopback Hub.


def start_hub30(repos: dict[str, dict[str, bytes]], behaviour: dict[str, str],
                errors: dict[str, tuple[int, str | None, str | None]] | None = None) -> str:
    """A loopback Hub (set 1's answers: status, X-Error-Code, X-Error-Message) whose file answers can
    go wrong per repo (`behaviour`): 429once / 503once (the first two file requests of the repo
    answered 429 with Retry-After: 1 / 503, then served: the hub retries the first one itself,
    silently, the second through its logged backoff), 429always (Retry-After: 1 every time), reset
    (a weights or data file's GET sends half its body, then a TCP reset), stall (half the body,
    then nothing for 15 s), cutshort (half the body, then a clean close), cutonce (only the first
    GET of a weights / data file so). Weights / data files are the ones that misbehave; config and
    tokenizer files are served. Ranged GETs are answered 206."""
    import struct
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    answers = errors or {}
    seen: dict[str, int] = {}
    gets: dict[str, int] = {}
    lock = threading.Lock()

    def big(fname: str) -> bool:
        return fname.endswith((".safetensors", ".bin", ".parquet", ".jsonl", ".json.gz"))

    class Hub(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet: not library output
            pass

        def _send(self, code: int, body: bytes, headers: dict[str, str], length: int | None = None,
                  how: str = "") -> None:
            self.send_response(code)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body) if length is None else length))
            self.end_headers()
            if self.command == "HEAD":
                return
            if how in ("reset", "stall", "cutshort"):
                self.wfile.write(body[:len(body) // 2])
                self.wfile.flush()
                if how == "stall":
                    time.sleep(15)
                if how == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR) if how == "cutshort" else None
                finally:
                    self.connection.close()
                return
            self.wfile.write(body)

        def _route(self) -> None:
            path, repo_type = _as_model_path(self.path.split("?")[0])
            m = re.match(r"^/(?:api/models/)?irisrl/([\w.-]+)(/.*)?$", path)
            name = m.group(1) if m else ""
            rest = (m.group(2) or "") if m else ""
            repo = f"irisrl/{name}"
            common = {"X-Request-Id": f"Root=1-{os.urandom(4).hex()}-{os.urandom(12).hex()}"}
            how = behaviour.get(name, "")
            fm = re.match(r"^/resolve/[^/]+/(.+)$", rest)
            fname = fm.group(1) if fm else ""
            with lock:
                if fname:
                    seen[name] = seen.get(name, 0) + 1
                if big(fname) and self.command == "GET":
                    gets[name] = gets.get(name, 0) + 1
                n = seen.get(name, 0)
                ng = gets.get(name, 0)
            if name in answers:
                code, err_code, msg = answers[name]
                h = dict(common, **{"Content-Type": "application/json"})
                if msg:
                    msg = msg.replace("Access to model", f"Access to {repo_type}").format(repo=repo)
                    h["X-Error-Message"] = msg
                if err_code:
                    h["X-Error-Code"] = err_code
                body = json.dumps({"error": msg} if msg else {}).encode()
                self._send(code, body, h)
                return
            status_now = (how in ("429once", "503once") and n <= 2 and fname) or how == "429always"
            if status_now:
                code = 503 if how == "503once" else 429
                h = dict(common)
                if code == 429:
                    h["Retry-After"] = "1"
                self._send(code, b"", h)
                return
            repo_files = repos.get(name)
            if repo_files is None:
                self._send(404, b'{"error":"Repository not found"}', dict(common, **{
                    "X-Error-Code": "RepoNotFound", "X-Error-Message": "Repository not found",
                    "Content-Type": "application/json"}))
                return
            if "/tree/" in rest:
                tree = [{"type": "file", "path": f, "size": len(b),
                         "oid": hashlib.sha1(b).hexdigest()} for f, b in sorted(repo_files.items())]
                self._send(200, json.dumps(tree).encode(), dict(common, **{"Content-Type": "application/json"}))
                return
            if path.startswith("/api/"):
                info = {"id": repo, "modelId": repo, "sha": COMMIT, "private": False,
                        "siblings": [{"rfilename": f} for f in sorted(repo_files)]}
                self._send(200, json.dumps(info).encode(), dict(common, **{"Content-Type": "application/json"}))
                return
            if fname not in repo_files:
                self._send(404, b'{"error":"Entry not found"}', dict(common, **{
                    "X-Error-Code": "EntryNotFound", "X-Error-Message": "Entry not found",
                    "Content-Type": "application/json", "X-Repo-Commit": COMMIT}))
                return
            body = repo_files[fname]
            h = dict(common, **{"ETag": f'"{hashlib.sha256(body).hexdigest()}"', "X-Repo-Commit": COMMIT,
                                "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"})
            rng = re.match(r"bytes=(\d+)-", self.headers.get("Range") or "")
            bad = big(fname) and self.command == "GET" and (
                how in ("reset", "stall", "cutshort") or (how == "cutonce" and ng == 1))
            mode = ("cutshort" if how == "cutonce" else how) if bad else ""
            if rng and not bad:
                start = int(rng.group(1))
                h["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
                self._send(206, body[start:], h)
                return
            self._send(200, body, h, None, mode)

        def do_HEAD(self) -> None:
            self._route()

        def do_GET(self) -> None:
            self._route()

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._route()

    class Srv(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:  # our sockets: not library output
            pass

    srv = Srv(("127.0.0.1", 0), Hub)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


HUB_ERRORS30: dict[str, tuple[int, str | None, str | None]] = {
    # the real Hub's 2025 wording for a gated repo the token's user was not granted
    "gated403x": (403, "GatedRepo", "Access to model {repo} is restricted and you are not in the authorized "
                  "list. Visit https://huggingface.co/{repo} to ask for access."),
    "gated401": (401, "GatedRepo", "Access to model {repo} is restricted. You must have access to it and be "
                 "authenticated to access it. Please log in."),
    "missing404": (404, "RepoNotFound", "Repository not found"),
    "revision404": (404, "RevisionNotFound", "Invalid rev id: v9.9"),
    "badtoken401": (401, None, "Invalid credentials in Authorization header"),
    "status500": (500, None, "Internal Error - We're working hard to fix this as soon as possible!"),
    "status502": (502, None, None),
    "status503": (503, None, None),
}


def _repo30(weights: str = "safetensors", big_kb: int = 0) -> dict[str, bytes]:
    """A tiny GPT-2 repo (config, weights, a tokenizer), written by this venv's transformers."""
    d = tiny_gpt2_dir(Path(tempfile.mkdtemp(prefix="irisrl30")) / "tiny", weights)
    _tiny_tokenizer_dir(d, pad=True)
    files = {p.name: p.read_bytes() for p in d.iterdir() if p.is_file()}
    if big_kb:
        import torch
        from safetensors.torch import save_file

        sd = {"transformer.wte.weight": torch.randn(big_kb * 256, 1)}
        save_file(sd, str(d / "big.safetensors"))
        files["model.safetensors"] = (d / "big.safetensors").read_bytes()
    return files


def _corrupt_st30(files: dict[str, bytes]) -> dict[str, bytes]:
    """model.safetensors whose JSON header was overwritten by a mirror's HTML error page (same length)."""
    b = bytearray(files["model.safetensors"])
    n = int.from_bytes(b[:8], "little")
    page = b"<html><head><title>502 Bad Gateway</title></head></html>"
    b[8:8 + min(n, len(page))] = page[:n]
    return dict(files, **{"model.safetensors": bytes(b)})


def _hf_cli30(*args: str) -> None:
    """Run the `hf` CLI of this venv (the case's env: HF_ENDPOINT, HF_HOME) and exit with its status."""
    hf = str(Path(sys.executable).parent / "hf")
    print(f"PROVOKE-NOTE $ hf {' '.join(args)}", flush=True)
    rc = subprocess.call([hf, *args])
    print(f"PROVOKE-NOTE hf rc={rc}", flush=True)
    sys.exit(rc)


def _hub30(behaviour: dict[str, str] | None = None, errors: bool = True, big_kb: int = 0,
           corrupt: bool = False) -> str:
    """Start the loopback Hub and point HF_ENDPOINT at it BEFORE anything imports huggingface_hub
    (it reads HF_ENDPOINT once); the repos are written afterwards into the dict it serves from."""
    repos: dict[str, dict[str, bytes]] = {}
    endpoint = start_hub30(repos, behaviour or {}, HUB_ERRORS30 if errors else None)
    _hub_env(endpoint)
    os.environ["HF_HUB_DISABLE_XET"] = "1"
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hfds30")
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    files = _repo30(big_kb=big_kb)
    repos.update({n: files for n in ("okrepo", "flaky", "slow", "cut", "ratelimited", "busy")})
    if corrupt:
        repos["mirrorpage"] = _corrupt_st30(files)
    repos["data"] = {"train.jsonl": b"".join(json.dumps({"prompt": f"p{i}", "answer": str(i)}).encode() + b"\n"
                                             for i in range(2000)),
                     "README.md": b"---\nconfigs:\n- config_name: default\n  data_files: train.jsonl\n---\n"}
    for n in (behaviour or {}):
        repos.setdefault(n, repos["data"] if n.startswith("data") else files)
    print(f"PROVOKE-NOTE endpoint={endpoint}", flush=True)
    return endpoint


# the `hf` CLI (huggingface_hub 2.4's typer app): its `Error: ...` lines are its own wording
def case_cli30_download_gated403() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/gated403x", "config.json")


def case_cli30_download_gated401() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/gated401")


def case_cli30_download_repo404() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/missing404")


def case_cli30_download_revision404() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/revision404", "--revision", "v9.9")


def case_cli30_download_entry404() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/okrepo", "model-00001-of-00002.safetensors")


def case_cli30_dataset_gated401() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/gated401", "--repo-type", "dataset")


def case_cli30_dataset_repo404() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/missing404", "--repo-type", "dataset")


def case_cli30_download_429always() -> None:
    _hub30({"ratelimited": "429always"})
    _hf_cli30("download", "irisrl/ratelimited", "config.json")


def case_cli30_download_badtoken401() -> None:
    _hub30()
    os.environ["HF_TOKEN"] = "hf_" + "x" * 34  # a revoked token
    _hf_cli30("download", "irisrl/badtoken401", "config.json")


def case_cli30_download_status503() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/status503", "config.json")


def case_cli30_download_status500_snapshot() -> None:
    _hub30()
    _hf_cli30("download", "irisrl/status500")


def case_cli30_download_refused() -> None:
    _hub_env(f"http://127.0.0.1:{free_port()}")
    _hf_cli30("download", "irisrl/okrepo", "model.safetensors")


def case_cli30_download_offline_empty() -> None:
    _hub30()
    os.environ["HF_HUB_OFFLINE"] = "1"
    _hf_cli30("download", "irisrl/okrepo")


def case_cli30_file_offline_empty() -> None:
    _hub30()
    os.environ["HF_HUB_OFFLINE"] = "1"
    _hf_cli30("download", "irisrl/okrepo", "config.json")


def case_cli30_download_reset() -> None:
    _hub30({"flaky": "reset"})
    _hf_cli30("download", "irisrl/flaky", "model.safetensors")


def case_cli30_download_incomplete_offline() -> None:
    """A snapshot downloaded, one file of it deleted (a cleanup script), then `hf download` offline."""
    _hub30()
    from huggingface_hub import snapshot_download

    d = Path(snapshot_download("irisrl/okrepo"))
    (d / "model.safetensors").unlink()
    os.environ["HF_HUB_OFFLINE"] = "1"
    _hf_cli30("download", "irisrl/okrepo")


def case_disk30_cli_download_tmpfs() -> None:
    """`hf download --local-dir` onto a 256 KiB tmpfs (the weights file is 1 MiB)."""
    _in_mount_ns27("disk30_cli_download_tmpfs", "mkdir -p /tmp/irisrl30_full && "
                   "mount -t tmpfs -o size=256k tmpfs /tmp/irisrl30_full")
    _hub30(big_kb=1024)
    _hf_cli30("download", "irisrl/okrepo", "--local-dir", "/tmp/irisrl30_full/okrepo")


def case_disk30_model_cache_tmpfs() -> None:
    """from_pretrained with HF_HUB_CACHE on a 256 KiB tmpfs (a 1 MiB model.safetensors)."""
    _in_mount_ns27("disk30_model_cache_tmpfs", "mkdir -p /tmp/irisrl30_cache && "
                   "mount -t tmpfs -o size=256k tmpfs /tmp/irisrl30_cache")
    os.environ["HF_HUB_CACHE"] = "/tmp/irisrl30_cache/hub"  # before huggingface_hub is imported
    _hub30(big_kb=1024)
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/okrepo")


def case_disk30_cli_download_inodes() -> None:
    """`hf download --local-dir` onto a tmpfs with 6 inodes: blocks to spare, no file or folder left."""
    _in_mount_ns27("disk30_cli_download_inodes", "mkdir -p /tmp/irisrl30_inodes && "
                   "mount -t tmpfs -o size=64m,nr_inodes=6 tmpfs /tmp/irisrl30_inodes")
    _hub30()
    _hf_cli30("download", "irisrl/okrepo", "--local-dir", "/tmp/irisrl30_inodes/okrepo")


def case_disk30_snapshot_cache_inodes() -> None:
    """snapshot_download with HF_HUB_CACHE on a tmpfs with 12 inodes."""
    _in_mount_ns27("disk30_snapshot_cache_inodes", "mkdir -p /tmp/irisrl30_cinodes && "
                   "mount -t tmpfs -o size=64m,nr_inodes=12 tmpfs /tmp/irisrl30_cinodes")
    os.environ["HF_HUB_CACHE"] = "/tmp/irisrl30_cinodes/hub"  # before huggingface_hub is imported
    _hub30()
    from huggingface_hub import snapshot_download

    snapshot_download("irisrl/okrepo")


def case_tf30_hub_weights_wrong_shape() -> None:
    """A Hub repo whose model.safetensors holds a wte of another shape (a resized vocab pushed)."""
    _hub30(big_kb=64)
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/okrepo")


# huggingface_hub's own calls
def case_hub30_reset_download() -> None:
    """hf_hub_download of weights whose every GET is reset mid-body (httpx2)."""
    _hub30({"flaky": "reset"})
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/flaky", "model.safetensors")


def case_hub30_stall_snapshot() -> None:
    """snapshot_download whose weights GET stalls after half the body (HF_HUB_DOWNLOAD_TIMEOUT=3)."""
    _hub30({"slow": "stall"})
    from huggingface_hub import snapshot_download

    snapshot_download("irisrl/slow")


def case_hub30_cutshort_snapshot_workers() -> None:
    """snapshot_download(max_workers=4) of a repo whose weights come half and closed."""
    _hub30({"cut": "cutshort"})
    from huggingface_hub import snapshot_download

    snapshot_download("irisrl/cut", max_workers=4)


def case_hub30_429always_download() -> None:
    """Every answer 429 with Retry-After: 1: the hub's backoff runs out."""
    _hub30({"ratelimited": "429always"})
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/ratelimited", "config.json")


def case_hub30_gated403_download() -> None:
    _hub30()
    from huggingface_hub import hf_hub_download

    hf_hub_download("irisrl/gated403x", "model.safetensors")


def case_hub30_incomplete_snapshot_local_only() -> None:
    """A snapshot one of whose files was deleted, asked again with local_files_only=True."""
    _hub30()
    from huggingface_hub import snapshot_download

    d = Path(snapshot_download("irisrl/okrepo"))
    (d / "tokenizer.json").unlink()
    snapshot_download("irisrl/okrepo", local_files_only=True)


def case_hub30_incomplete_snapshot_hub_down() -> None:
    """A snapshot one of whose files was deleted, asked again after the Hub went away."""
    endpoint = _hub30()
    from huggingface_hub import snapshot_download

    d = Path(snapshot_download("irisrl/okrepo"))
    (d / "model.safetensors").unlink()
    # the same cache, an endpoint nobody listens on (the Hub is down): a new process reads HF_ENDPOINT
    env = dict(os.environ, HF_ENDPOINT=f"http://127.0.0.1:{free_port()}")
    print(f"PROVOKE-NOTE {endpoint} -> {env['HF_ENDPOINT']}", flush=True)
    sys.exit(subprocess.call([sys.executable, "-c", "from huggingface_hub import snapshot_download; "
                              "snapshot_download('irisrl/okrepo')"], env=env))


def case_hub30_incomplete_snapshot_offline_env() -> None:
    """A snapshot one of whose files was deleted, asked again in a process with HF_HUB_OFFLINE=1."""
    _hub30()
    from huggingface_hub import snapshot_download

    d = Path(snapshot_download("irisrl/okrepo"))
    (d / "config.json").unlink()
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    sys.exit(subprocess.call([sys.executable, "-c", "from huggingface_hub import snapshot_download; "
                              "snapshot_download('irisrl/okrepo')"], env=env))


def case_hub30_status500_snapshot() -> None:
    _hub30()
    from huggingface_hub import snapshot_download

    snapshot_download("irisrl/status500")


# transformers 5.25 / datasets 5.2 through the Hub
def case_tf30_gated403_model() -> None:
    _hub30()
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/gated403x")


def case_tf30_revision404_tokenizer() -> None:
    _hub30()
    from transformers import AutoTokenizer

    AutoTokenizer.from_pretrained("irisrl/revision404", revision="v9.9")


def case_tf30_repo404_tokenizer() -> None:
    _hub30()
    from transformers import AutoTokenizer

    AutoTokenizer.from_pretrained("irisrl/missing404")


def case_tf30_status502_model() -> None:
    _hub30()
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/status502")


def case_tf30_reset_model() -> None:
    _hub30({"flaky": "reset"})
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/flaky")


def case_tf30_cutshort_model() -> None:
    _hub30({"cut": "cutshort"})
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/cut")


def case_tf30_mirror_page_weights() -> None:
    """model.safetensors whose header bytes are an HTML error page (downloaded fine, same size)."""
    _hub30(corrupt=True)
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/mirrorpage")


def case_tf30_offline_empty_tokenizer() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"  # before huggingface_hub is imported: read once
    _hub30()
    from transformers import AutoTokenizer

    AutoTokenizer.from_pretrained("irisrl/okrepo")


def case_tf30_incomplete_snapshot_model() -> None:
    """A snapshot_download'ed model missing its weights (deleted), loaded offline through transformers."""
    _hub30()
    from huggingface_hub import snapshot_download

    d = Path(snapshot_download("irisrl/okrepo"))
    (d / "model.safetensors").unlink()
    os.environ["HF_HUB_OFFLINE"] = "1"
    import huggingface_hub.constants as c

    c.HF_HUB_OFFLINE = True
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/okrepo")


def case_ds30_revision404_dataset() -> None:
    _hub30()
    from datasets import load_dataset

    load_dataset("irisrl/revision404", revision="v9.9", split="train")


def case_ds30_reset_dataset() -> None:
    _hub30({"datareset": "reset"})
    from datasets import load_dataset

    load_dataset("irisrl/datareset", split="train")


def case_ds30_429always_dataset() -> None:
    _hub30({"dataratelimited": "429always"})
    from datasets import load_dataset

    load_dataset("irisrl/dataratelimited", split="train")


# benign look-alikes: the error-shaped lines of a download that then succeeds
def case_benign30_429once_download() -> None:
    _hub30({"ratelimited": "429once"})
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/ratelimited", "config.json"), flush=True)


def case_benign30_503once_model() -> None:
    _hub30({"busy": "503once"})
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/busy")
    print("loaded", flush=True)


def case_benign30_cutonce_download() -> None:
    """The first GET of the weights closed half way; the hub resumes with a Range request."""
    _hub30({"resumable": "cutonce"})
    from huggingface_hub import hf_hub_download

    print(hf_hub_download("irisrl/resumable", "model.safetensors"), flush=True)


def case_benign30_cli_429once() -> None:
    _hub30({"ratelimited": "429once"})
    _hf_cli30("download", "irisrl/ratelimited")


def case_benign30_ds_503once() -> None:
    _hub30({"databusy": "503once"})
    from datasets import load_dataset

    print(len(load_dataset("irisrl/databusy", split="train")), flush=True)


def case_benign30_cutonce_model() -> None:
    _hub30({"resumable": "cutonce"})
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained("irisrl/resumable")
    print("loaded", flush=True)


CASES30: dict[str, Case] = {n.removeprefix("case_"): (f, k, False) for n, f, k in [
    ("case_cli30_download_gated403", case_cli30_download_gated403, "hf_gated"),
    ("case_cli30_download_gated401", case_cli30_download_gated401, "hf_gated"),
    ("case_cli30_download_repo404", case_cli30_download_repo404, "hf_repo_not_found"),
    ("case_cli30_download_revision404", case_cli30_download_revision404, "hf_repo_not_found"),
    ("case_cli30_download_entry404", case_cli30_download_entry404, "hf_weights_missing"),
    ("case_cli30_download_status503", case_cli30_download_status503, "hf_http_error"),
    ("case_cli30_dataset_gated401", case_cli30_dataset_gated401, "hf_gated"),
    ("case_cli30_dataset_repo404", case_cli30_dataset_repo404, "hf_repo_not_found"),
    ("case_cli30_download_429always", case_cli30_download_429always, "hf_http_error"),
    ("case_cli30_download_badtoken401", case_cli30_download_badtoken401, "hf_gated"),
    ("case_cli30_download_status500_snapshot", case_cli30_download_status500_snapshot, "hf_http_error"),
    ("case_cli30_download_refused", case_cli30_download_refused, "hf_http_error"),
    ("case_cli30_download_offline_empty", case_cli30_download_offline_empty, "hf_http_error"),
    ("case_cli30_download_reset", case_cli30_download_reset, "hf_incomplete_download"),
    ("case_cli30_file_offline_empty", case_cli30_file_offline_empty, "hf_http_error"),
    ("case_hub30_incomplete_snapshot_offline_env", case_hub30_incomplete_snapshot_offline_env, "hf_http_error"),
    ("case_hub30_status500_snapshot", case_hub30_status500_snapshot, "hf_http_error"),
    ("case_cli30_download_incomplete_offline", case_cli30_download_incomplete_offline, "hf_http_error"),
    ("case_disk30_cli_download_tmpfs", case_disk30_cli_download_tmpfs, "disk_full"),
    ("case_disk30_model_cache_tmpfs", case_disk30_model_cache_tmpfs, "disk_full"),
    ("case_disk30_cli_download_inodes", case_disk30_cli_download_inodes, "disk_full"),
    ("case_disk30_snapshot_cache_inodes", case_disk30_snapshot_cache_inodes, "disk_full"),
    ("case_hub30_reset_download", case_hub30_reset_download, "hf_incomplete_download"),
    ("case_hub30_stall_snapshot", case_hub30_stall_snapshot, "hf_incomplete_download"),
    ("case_hub30_cutshort_snapshot_workers", case_hub30_cutshort_snapshot_workers, "hf_incomplete_download"),
    ("case_hub30_429always_download", case_hub30_429always_download, "hf_http_error"),
    ("case_hub30_gated403_download", case_hub30_gated403_download, "hf_gated"),
    ("case_hub30_incomplete_snapshot_local_only", case_hub30_incomplete_snapshot_local_only, "hf_http_error"),
    ("case_hub30_incomplete_snapshot_hub_down", case_hub30_incomplete_snapshot_hub_down, "hf_http_error"),
    ("case_tf30_gated403_model", case_tf30_gated403_model, "hf_gated"),
    ("case_tf30_revision404_tokenizer", case_tf30_revision404_tokenizer, "hf_repo_not_found"),
    ("case_tf30_repo404_tokenizer", case_tf30_repo404_tokenizer, "hf_repo_not_found"),
    ("case_tf30_status502_model", case_tf30_status502_model, "hf_http_error"),
    ("case_tf30_reset_model", case_tf30_reset_model, "hf_incomplete_download"),
    ("case_tf30_cutshort_model", case_tf30_cutshort_model, "hf_incomplete_download"),
    ("case_tf30_mirror_page_weights", case_tf30_mirror_page_weights, "checkpoint_corrupt"),
    ("case_tf30_hub_weights_wrong_shape", case_tf30_hub_weights_wrong_shape, "python_crash"),
    ("case_tf30_offline_empty_tokenizer", case_tf30_offline_empty_tokenizer, "hf_http_error"),
    ("case_tf30_incomplete_snapshot_model", case_tf30_incomplete_snapshot_model, "hf_weights_missing"),
    ("case_ds30_revision404_dataset", case_ds30_revision404_dataset, "hf_repo_not_found"),
    ("case_ds30_reset_dataset", case_ds30_reset_dataset, "hf_incomplete_download"),
    ("case_ds30_429always_dataset", case_ds30_429always_dataset, "hf_http_error"),
    ("case_benign30_429once_download", case_benign30_429once_download, "benign"),
    ("case_benign30_503once_model", case_benign30_503once_model, "benign"),
    ("case_benign30_cutonce_download", case_benign30_cutonce_download, "benign"),
    ("case_benign30_cli_429once", case_benign30_cli_429once, "benign"),
    ("case_benign30_ds_503once", case_benign30_ds_503once, "benign"),
    ("case_benign30_cutonce_model", case_benign30_cutonce_model, "benign"),
]}
CASES.update(CASES30)
TIMEOUT_S.update({n: 90 for n in CASES28})


# ----------------------------------------------------------------------------- set 31: object-store staging
# The thirty-first set: what boto3 / botocore / s3transfer, s3fs (aiobotocore, fsspec), pyarrow.fs.S3FileSystem
# and obstore print when staging a model / dataset through an S3-compatible store goes wrong. The store is
# moto's ThreadedMotoServer on 127.0.0.1 (an ephemeral port, stopped by the case) or, for the answers moto cannot
# give (throttling, 5xx, denied credentials, a reset / short / corrupt body, a stall, a 307), a small
# http.server of ours answering S3's own XML errors. Every server lives in the case's own process.

BUCKET31 = "irisrl-stage"
KEY31 = "models/qwen3-0.6b/model-00001-of-00002.safetensors"
S3_ERRORS31 = {  # code: (status, S3's own message)
    "AccessDenied": (403, "Access Denied"),
    "InvalidAccessKeyId": (403, "The AWS Access Key Id you provided does not exist in our records."),
    "SignatureDoesNotMatch": (403, "The request signature we calculated does not match the signature you "
                                   "provided. Check your key and signing method."),
    "ExpiredToken": (400, "The provided token has expired."),
    "SlowDown": (503, "Please reduce your request rate."),
    "InternalError": (500, "We encountered an internal error. Please try again."),
    "ServiceUnavailable": (503, "Service is unable to handle request."),
    "RequestTimeTooSkewed": (403, "The difference between the request time and the current time is too large."),
    "NoSuchBucket": (404, "The specified bucket does not exist"),
}


def _free_port31() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _aws_env31(endpoint: str | None, creds: bool = True) -> None:
    """Credentials and endpoint through the environment, as the controller hands them to a node; no
    config files, no instance metadata; botocore's standard retry mode with 3 attempts (short cases)."""
    os.environ.update(AWS_DEFAULT_REGION="us-east-1", AWS_REGION="us-east-1", AWS_EC2_METADATA_DISABLED="true",
                      AWS_RETRY_MODE="standard", AWS_MAX_ATTEMPTS="3",
                      AWS_CONFIG_FILE="/nonexistent/aws/config", AWS_SHARED_CREDENTIALS_FILE="/nonexistent/aws/credentials")
    for k in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL"):
        os.environ.pop(k, None)
    if creds:
        os.environ.update(AWS_ACCESS_KEY_ID="AKIAIRISRLSTAGE00001", AWS_SECRET_ACCESS_KEY="irisrl-stage-secret-key")
    if endpoint:
        os.environ["AWS_ENDPOINT_URL"] = endpoint
        os.environ["AWS_ENDPOINT_URL_S3"] = endpoint
    print(f"PROVOKE-NOTE endpoint={endpoint}", flush=True)


class _Moto31:
    """moto's ThreadedMotoServer on 127.0.0.1 and an ephemeral port, with the staging bucket holding a
    small model; stopped when the block ends (before the case's traceback is printed)."""

    def __init__(self, objects: dict[str, bytes] | None = None, bucket: bool = True) -> None:
        self.objects = {KEY31: os.urandom(64 << 10), "models/qwen3-0.6b/config.json": b'{"model_type": "qwen3"}',
                        **(objects or {})}
        self.bucket = bucket

    def __enter__(self) -> str:
        from moto.server import ThreadedMotoServer

        port = _free_port31()
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        self.server.start()
        self.endpoint = f"http://127.0.0.1:{port}"
        _aws_env31(self.endpoint)
        if self.bucket:
            import boto3

            s3 = boto3.client("s3")
            s3.create_bucket(Bucket=BUCKET31)
            for k, v in self.objects.items():
                s3.put_object(Bucket=BUCKET31, Key=k, Body=v)
        return self.endpoint

    def __exit__(self, *exc: Any) -> None:
        self.server.stop()


def _s3xml31(code: str, message: str, key: str = "") -> bytes:
    rid = os.urandom(8).hex().upper()
    res = f"<Resource>/{BUCKET31}/{key}</Resource>" if key else ""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code><Message>{message}</Message>'
            f"{res}<RequestId>{rid}</RequestId><HostId>{os.urandom(24).hex()}</HostId></Error>").encode()


class _FakeS3_31:
    """A loopback S3 of ours for the answers moto cannot give. `how` is one behaviour for every request:
    an S3 error code of S3_ERRORS31 (every time), `<code>once` (the first two requests answered so, then
    served), reset (half the body, then a TCP reset), short (Content-Length says twice the body, then a
    clean close), badcrc (a wrong x-amz-checksum-crc32), stall (headers, then 20 s of nothing), redirect
    (307 to a port nobody listens on), partfail (multipart: CreateMultipartUpload answered, every UploadPart
    500 InternalError). Objects are served from `self.body`; PUTs are accepted."""

    def __init__(self, how: str, size: int = 256 << 10) -> None:
        self.how = how
        self.body = os.urandom(size)
        self.count = 0

    def __enter__(self) -> str:
        import struct
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        fake = self
        lock = threading.Lock()

        class S3(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet: not library output
                pass

            def _drain(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)

            def _reply(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None,
                       length: int | None = None) -> None:
                self.send_response(status)
                self.send_header("x-amz-request-id", os.urandom(8).hex().upper())
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                self.end_headers()
                if self.command != "HEAD" and body:
                    self.wfile.write(body)

            def _error(self, code: str) -> None:
                status, msg = S3_ERRORS31[code]
                key = self.path.split("?")[0].removeprefix(f"/{BUCKET31}/")
                self._reply(status, _s3xml31(code, msg, key), {"Content-Type": "application/xml"})

            def _route(self) -> None:
                self._drain()
                with lock:
                    fake.count += 1
                    n = fake.count
                how = fake.how
                path, _, query = self.path.partition("?")
                if how in S3_ERRORS31:
                    return self._error(how)
                if how.endswith("once") and how[:-4] in S3_ERRORS31 and n <= 2:
                    return self._error(how[:-4])
                if how.endswith("thrice") and how[:-6] in S3_ERRORS31 and self.command == "GET":
                    with lock:
                        fake.gets = getattr(fake, "gets", 0) + 1
                        if fake.gets <= 3:  # GETs only: HEADs are served
                            return self._error(how[:-6])
                if how == "redirect":
                    dead = f"http://127.0.0.1:{_free_port31()}{self.path}"
                    return self._reply(307, _s3xml31("TemporaryRedirect", "Please re-send this request to the "
                                                     "specified temporary endpoint. Continue to use the original "
                                                     "request endpoint for future requests."),
                                       {"Location": dead, "Content-Type": "application/xml"})
                if how == "partfail":
                    if self.command == "POST" and "uploads" in query:
                        up = os.urandom(16).hex()
                        key = path.removeprefix(f"/{BUCKET31}/")
                        return self._reply(200, (f'<?xml version="1.0" encoding="UTF-8"?>\n<InitiateMultipartUploadResult>'
                                                 f"<Bucket>{BUCKET31}</Bucket><Key>{key}</Key><UploadId>{up}</UploadId>"
                                                 "</InitiateMultipartUploadResult>").encode())
                    if self.command == "PUT" and "partNumber" in query:
                        return self._error("InternalError")
                    if self.command == "DELETE":
                        return self._reply(204)
                if self.command in ("PUT", "POST", "DELETE"):
                    return self._reply(200 if self.command != "DELETE" else 204, b"",
                                       {"ETag": '"%s"' % hashlib.md5(b"x").hexdigest()})
                if "list-type=2" in query or path.rstrip("/") == f"/{BUCKET31}":
                    key = path.removeprefix(f"/{BUCKET31}/")
                    return self._reply(200, (f'<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult>'
                                             f"<Name>{BUCKET31}</Name><Prefix></Prefix><KeyCount>1</KeyCount>"
                                             f"<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>{KEY31}</Key>"
                                             f"<Size>{len(fake.body)}</Size><ETag>&quot;x&quot;</ETag>"
                                             "<StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>").encode(),
                                       {"Content-Type": "application/xml"})
                body = fake.body
                head = {"ETag": '"%s"' % hashlib.md5(body).hexdigest(), "Last-Modified": "Fri, 04 Dec 2026 10:00:00 GMT",
                        "Content-Type": "binary/octet-stream", "Accept-Ranges": "bytes"}
                rng = re.match(r"bytes=(\d+)-(\d*)", self.headers.get("Range") or "")
                status = 200
                if rng:
                    a, b = int(rng.group(1)), int(rng.group(2) or len(body) - 1)
                    b = min(b, len(body) - 1)
                    head["Content-Range"] = f"bytes {a}-{b}/{len(body)}"
                    body, status = body[a:b + 1], 206
                if how == "badcrc":
                    head["x-amz-checksum-crc32"] = "AAAAAA=="
                if self.command == "HEAD" or how not in ("reset", "short", "stall"):
                    return self._reply(status, body, head)
                self.send_response(status)
                for k, v in head.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body) * (2 if how == "short" else 1)))
                self.end_headers()
                if how == "stall":
                    time.sleep(20)
                    return
                self.wfile.write(body if how == "short" else body[:len(body) // 2])
                self.wfile.flush()
                if how == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                else:
                    self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                self.connection.close()

            do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = _route

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), S3)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        _aws_env31(self.endpoint)
        return self.endpoint

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def _boto31(**cfg: Any) -> Any:
    import boto3
    from botocore.config import Config

    session = boto3.session.Session()  # a fresh session: the environment is read now, not when _Moto31 began
    return session.client("s3", config=Config(**cfg)) if cfg else session.client("s3")


def _dest31() -> str:
    return os.path.join(tempfile.mkdtemp(prefix="stage31"), "model-00001-of-00002.safetensors")


# boto3 / botocore / s3transfer
def case_boto31_get_nosuchbucket() -> None:
    with _Moto31(bucket=False):
        _boto31().get_object(Bucket="irisrl-stage-typo", Key=KEY31)["Body"].read()


def case_boto31_list_rendezvous_nosuchbucket() -> None:
    with _Moto31(bucket=False):
        _boto31().list_objects_v2(Bucket="irisrl-rendezvous", Prefix="run-0412/nodes/")


def case_boto31_copy_latest_missing_key() -> None:
    """Promote a checkpoint to `latest/` with CopyObject: the step's shard was never uploaded."""
    with _Moto31():
        _boto31().copy_object(Bucket=BUCKET31, Key="checkpoints/run-0412/latest/model.safetensors",
                              CopySource={"Bucket": BUCKET31, "Key": "checkpoints/run-0412/global_step_40/model.safetensors"})


def case_boto31_download_file_missing_key() -> None:
    with _Moto31():
        _boto31().download_file(BUCKET31, "models/qwen3-0.6b/model-00002-of-00002.safetensors", _dest31())


def case_boto31_get_access_denied() -> None:
    with _FakeS3_31("AccessDenied"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)


def case_boto31_download_file_access_denied() -> None:
    with _FakeS3_31("AccessDenied"):
        _boto31().download_file(BUCKET31, KEY31, _dest31())


def case_boto31_invalid_access_key() -> None:
    with _FakeS3_31("InvalidAccessKeyId"):
        _boto31().list_objects_v2(Bucket=BUCKET31, Prefix="models/")


def case_boto31_signature_mismatch() -> None:
    with _FakeS3_31("SignatureDoesNotMatch"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)


def case_boto31_expired_token() -> None:
    with _FakeS3_31("ExpiredToken"):
        os.environ["AWS_SESSION_TOKEN"] = "FwoGZXIvYXdzEIrisrlExpiredSessionToken"
        _boto31().put_object(Bucket=BUCKET31, Key="rendezvous/run-0412/node-1.json", Body=b"{}")


def case_boto31_clock_skew() -> None:
    with _FakeS3_31("RequestTimeTooSkewed"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)


def case_boto31_no_credentials_upload() -> None:
    with _Moto31():
        _aws_env31(os.environ["AWS_ENDPOINT_URL"], creds=False)
        src = _dest31()
        Path(src).write_bytes(b"\0" * 1024)
        _boto31().upload_file(src, BUCKET31, "checkpoints/run-0412/global_step_40/model.safetensors")


def case_boto31_head_bucket_forbidden() -> None:
    """The controller's pre-flight check of the rendezvous bucket (HeadBucket has no body: no S3 code)."""
    with _FakeS3_31("AccessDenied"):
        _boto31().head_bucket(Bucket=BUCKET31)


def case_boto31_endpoint_refused() -> None:
    _aws_env31(f"http://127.0.0.1:{_free_port31()}")
    _boto31().head_object(Bucket=BUCKET31, Key=KEY31)


def case_boto31_endpoint_unresolvable() -> None:
    _aws_env31("http://minio.irisrl-staging.invalid:9000")
    _boto31().download_file(BUCKET31, KEY31, _dest31())


def case_boto31_read_timeout() -> None:
    with _FakeS3_31("stall"):
        _boto31(read_timeout=2, retries={"max_attempts": 2, "mode": "standard"}).get_object(
            Bucket=BUCKET31, Key=KEY31)["Body"].read()


def case_boto31_connect_timeout() -> None:
    _aws_env31("http://192.0.2.10:9000")  # TEST-NET-1: nothing answers
    _boto31(connect_timeout=2, retries={"max_attempts": 1, "mode": "standard"}).get_object(Bucket=BUCKET31, Key=KEY31)


def case_boto31_slowdown_exhausted_put() -> None:
    with _FakeS3_31("SlowDown"):
        _boto31().put_object(Bucket=BUCKET31, Key="checkpoints/run-0412/global_step_40/optim.pt", Body=b"\0" * 4096)


def case_boto31_internal_error_exhausted() -> None:
    with _FakeS3_31("InternalError"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)


def case_boto31_service_unavailable_download() -> None:
    with _FakeS3_31("ServiceUnavailable"):
        _boto31().download_file(BUCKET31, KEY31, _dest31())


def case_boto31_multipart_part_fails() -> None:
    with _FakeS3_31("partfail"):
        from boto3.s3.transfer import TransferConfig

        src = _dest31()
        Path(src).write_bytes(os.urandom(12 << 20))
        _boto31().upload_file(src, BUCKET31, "checkpoints/run-0412/global_step_40/model.safetensors",
                              Config=TransferConfig(multipart_threshold=8 << 20, multipart_chunksize=8 << 20,
                                                    max_concurrency=2))


def case_boto31_get_reset_midbody() -> None:
    with _FakeS3_31("reset"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)["Body"].read()


def case_boto31_get_short_body() -> None:
    with _FakeS3_31("short"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)["Body"].read()


def case_boto31_get_bad_checksum() -> None:
    with _FakeS3_31("badcrc"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31, ChecksumMode="ENABLED")["Body"].read()


def case_boto31_download_file_short() -> None:
    with _FakeS3_31("short"):
        _boto31().download_file(BUCKET31, KEY31, _dest31())


def case_boto31_download_file_reset() -> None:
    with _FakeS3_31("reset"):
        _boto31().download_file(BUCKET31, KEY31, _dest31())


def case_boto31_redirect_dead_endpoint() -> None:
    with _FakeS3_31("redirect"):
        _boto31().get_object(Bucket=BUCKET31, Key=KEY31)["Body"].read()


def case_boto31_download_onto_directory() -> None:
    with _Moto31():
        dest = _dest31()
        os.makedirs(dest)
        _boto31().download_file(BUCKET31, KEY31, dest)


def case_disk31_download_file_tmpfs() -> None:
    with _Moto31({KEY31: os.urandom(1 << 20)}):
        mnt = _small_fs()
        try:
            _boto31().download_file(BUCKET31, KEY31, str((mnt or Path(tempfile.mkdtemp())) / "model.safetensors"))
        finally:
            if mnt:
                subprocess.call(["umount", "-l", str(mnt)])


def case_disk31_get_body_fsize_limit() -> None:
    import resource
    import signal

    with _Moto31({KEY31: os.urandom(1 << 20)}):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, 256 << 10))
        with open(_dest31(), "wb") as f:
            body = _boto31().get_object(Bucket=BUCKET31, Key=KEY31)["Body"]
            for chunk in body.iter_chunks(64 << 10):
                f.write(chunk)
                f.flush()


def case_disk31_obstore_local_tmpfs() -> None:
    """obstore stages the shard into a LocalStore on a full 256 KiB tmpfs."""
    import obstore
    from obstore.store import LocalStore

    with _Moto31({KEY31: os.urandom(1 << 20)}):
        mnt = _small_fs()
        try:
            data = obstore.get(_obs31(), KEY31).bytes()
            obstore.put(LocalStore(str(mnt or tempfile.mkdtemp())), "model-00001-of-00002.safetensors", data)
        finally:
            if mnt:
                subprocess.call(["umount", "-l", str(mnt)])


def case_disk31_pafs_copy_files_tmpfs() -> None:
    """pyarrow.fs.copy_files from the store into a full 256 KiB tmpfs."""
    from pyarrow import fs

    with _Moto31({KEY31: os.urandom(1 << 20)}):
        mnt = _small_fs()
        try:
            fs.copy_files(f"{BUCKET31}/{KEY31}", str((mnt or Path(tempfile.mkdtemp())) / "model-00001-of-00002.safetensors"),
                          source_filesystem=_pafs31(), destination_filesystem=fs.LocalFileSystem())
        finally:
            if mnt:
                subprocess.call(["umount", "-l", str(mnt)])


# s3fs (aiobotocore) / fsspec
def _s3fs31(**kw: Any) -> Any:
    import s3fs

    return s3fs.S3FileSystem(endpoint_url=os.environ["AWS_ENDPOINT_URL"], **kw)


def case_s3fs31_open_missing_shard() -> None:
    with _Moto31():
        with _s3fs31().open(f"{BUCKET31}/models/qwen3-0.6b/model-00002-of-00002.safetensors", "rb") as f:
            f.read()


def case_s3fs31_ls_missing_bucket() -> None:
    with _Moto31(bucket=False):
        print(_s3fs31().ls("irisrl-datasets/gsm8k/"), flush=True)


def case_s3fs31_get_access_denied() -> None:
    with _FakeS3_31("AccessDenied"):
        _s3fs31().get(f"{BUCKET31}/{KEY31}", _dest31())


def case_s3fs31_invalid_access_key() -> None:
    with _FakeS3_31("InvalidAccessKeyId"):
        _s3fs31().cat_file(f"{BUCKET31}/{KEY31}")


def case_s3fs31_signature_mismatch() -> None:
    with _FakeS3_31("SignatureDoesNotMatch"):
        _s3fs31().cat_file(f"{BUCKET31}/{KEY31}")


def case_s3fs31_slowdown_exhausted() -> None:
    with _FakeS3_31("SlowDown"):
        _s3fs31().cat_file(f"{BUCKET31}/{KEY31}")


def case_s3fs31_service_unavailable() -> None:
    with _FakeS3_31("ServiceUnavailable"):
        _s3fs31().pipe_file(f"{BUCKET31}/checkpoints/run-0412/global_step_40/optim.pt", b"\0" * 4096)


def case_s3fs31_endpoint_refused() -> None:
    _aws_env31(f"http://127.0.0.1:{_free_port31()}")
    _s3fs31().ls(f"{BUCKET31}/models/")


def case_s3fs31_read_timeout() -> None:
    with _FakeS3_31("stall"):
        _s3fs31(config_kwargs={"read_timeout": 2, "retries": {"max_attempts": 1}}).cat_file(f"{BUCKET31}/{KEY31}")


def case_s3fs31_reset_midbody() -> None:
    with _FakeS3_31("reset"):
        _s3fs31().cat_file(f"{BUCKET31}/{KEY31}")


def case_s3fs31_short_body() -> None:
    with _FakeS3_31("short"):
        _s3fs31().cat_file(f"{BUCKET31}/{KEY31}")


def case_s3fs31_no_credentials() -> None:
    with _Moto31():
        _aws_env31(os.environ["AWS_ENDPOINT_URL"], creds=False)
        _s3fs31().cat_file(f"{BUCKET31}/{KEY31}")


def case_fsspec31_open_missing_config() -> None:
    with _Moto31():
        import fsspec

        with fsspec.open(f"s3://{BUCKET31}/models/qwen3-0.6b/generation_config.json", "rb",
                         client_kwargs={"endpoint_url": os.environ["AWS_ENDPOINT_URL"]}) as f:
            f.read()


def case_fsspec31_get_under_a_file() -> None:
    """The local model dir's path is taken by a file (a stale download): the shard's parent is not a dir."""
    with _Moto31():
        import fsspec

        dest = _dest31()
        Path(dest).write_bytes(b"")
        fs = fsspec.filesystem("s3", client_kwargs={"endpoint_url": os.environ["AWS_ENDPOINT_URL"]})
        fs.get_file(f"{BUCKET31}/{KEY31}", os.path.join(dest, "model-00001-of-00002.safetensors"))


def case_disk31_s3fs_get_tmpfs() -> None:
    with _Moto31({KEY31: os.urandom(1 << 20)}):
        mnt = _small_fs()
        try:
            _s3fs31().get(f"{BUCKET31}/{KEY31}", str((mnt or Path(tempfile.mkdtemp())) / "model.safetensors"))
        finally:
            if mnt:
                subprocess.call(["umount", "-l", str(mnt)])


# pyarrow.fs.S3FileSystem
def _pafs31(log: str = "") -> Any:
    from pyarrow import fs

    if log:
        fs.initialize_s3(getattr(fs.S3LogLevel, log))
    ep = os.environ["AWS_ENDPOINT_URL"]
    return fs.S3FileSystem(endpoint_override=ep.split("://", 1)[1], scheme="http", region="us-east-1",
                           connect_timeout=2, request_timeout=3)


def case_pafs31_open_missing_key() -> None:
    with _Moto31():
        _pafs31().open_input_stream(f"{BUCKET31}/models/qwen3-0.6b/model-00002-of-00002.safetensors").read()


def case_pafs31_missing_bucket() -> None:
    with _Moto31(bucket=False):
        _pafs31().open_input_file(f"irisrl-stage-eu/{KEY31}").read()


def case_pafs31_access_denied() -> None:
    with _FakeS3_31("AccessDenied"):
        _pafs31().open_input_stream(f"{BUCKET31}/{KEY31}").read()


def case_pafs31_invalid_access_key() -> None:
    with _FakeS3_31("InvalidAccessKeyId"):
        print(_pafs31().get_file_info(f"{BUCKET31}/{KEY31}"), flush=True)


def case_pafs31_endpoint_refused() -> None:
    _aws_env31(f"http://127.0.0.1:{_free_port31()}")
    _pafs31().open_input_stream(f"{BUCKET31}/{KEY31}").read()


def case_pafs31_slowdown_exhausted() -> None:
    with _FakeS3_31("SlowDown"):
        from pyarrow import fs

        ep = os.environ["AWS_ENDPOINT_URL"].split("://", 1)[1]
        fs.S3FileSystem(endpoint_override=ep, scheme="http", region="us-east-1",
                        retry_strategy=fs.AwsStandardS3RetryStrategy(max_attempts=2)).open_input_stream(
            f"{BUCKET31}/{KEY31}").read()


def case_pafs31_expired_token_put() -> None:
    with _FakeS3_31("ExpiredToken"):
        from pyarrow import fs

        ep = os.environ["AWS_ENDPOINT_URL"].split("://", 1)[1]
        s3 = fs.S3FileSystem(endpoint_override=ep, scheme="http", region="us-east-1",
                             session_token="FwoGZXIvYXdzEIrisrlExpiredSessionToken",
                             access_key=os.environ["AWS_ACCESS_KEY_ID"], secret_key=os.environ["AWS_SECRET_ACCESS_KEY"])
        with s3.open_output_stream(f"{BUCKET31}/rendezvous/run-0412/node-1.json") as f:
            f.write(b"{}")


def case_pafs31_read_timeout() -> None:
    with _FakeS3_31("stall"):
        _pafs31().open_input_stream(f"{BUCKET31}/{KEY31}").read()


def case_pafs31_short_body() -> None:
    with _FakeS3_31("short"):
        _pafs31().open_input_stream(f"{BUCKET31}/{KEY31}").read()


def case_pafs31_upload_internal_error() -> None:
    with _FakeS3_31("InternalError"):
        from pyarrow import fs

        ep = os.environ["AWS_ENDPOINT_URL"].split("://", 1)[1]
        s3 = fs.S3FileSystem(endpoint_override=ep, scheme="http", region="us-east-1",
                             retry_strategy=fs.AwsStandardS3RetryStrategy(max_attempts=2))
        with s3.open_output_stream(f"{BUCKET31}/checkpoints/run-0412/global_step_40/optim.pt") as f:
            f.write(b"\0" * 4096)


# obstore (object_store, Rust)
def _obs31(bucket: str = BUCKET31, **kw: Any) -> Any:
    from datetime import timedelta

    from obstore.store import S3Store

    return S3Store(bucket, endpoint=os.environ["AWS_ENDPOINT_URL"], region="us-east-1",
                   client_options={"allow_http": True, "timeout": "5s", "connect_timeout": "2s"},
                   retry_config={"max_retries": 2, "backoff": {"init_backoff": timedelta(seconds=0.1),
                                                                "max_backoff": timedelta(seconds=0.5), "base": 2},
                                 "retry_timeout": timedelta(seconds=5)}, **kw)


def case_obs31_get_missing_key() -> None:
    import obstore

    with _Moto31():
        obstore.get(_obs31(), "models/qwen3-0.6b/model-00002-of-00002.safetensors").bytes()


def case_obs31_missing_bucket() -> None:
    import obstore

    with _Moto31(bucket=False):
        obstore.get(_obs31("irisrl-stage-typo"), KEY31).bytes()


def case_obs31_access_denied() -> None:
    import obstore

    with _FakeS3_31("AccessDenied"):
        obstore.get(_obs31(), KEY31).bytes()


def case_obs31_expired_token_put() -> None:
    import obstore

    with _FakeS3_31("ExpiredToken"):
        obstore.put(_obs31(), "rendezvous/run-0412/node-1.json", b"{}")


def case_obs31_endpoint_refused() -> None:
    import obstore

    _aws_env31(f"http://127.0.0.1:{_free_port31()}")
    obstore.get(_obs31(), KEY31).bytes()


def case_obs31_slowdown_exhausted() -> None:
    import obstore

    with _FakeS3_31("SlowDown"):
        obstore.get(_obs31(), KEY31).bytes()


def case_obs31_list_invalid_key() -> None:
    import obstore

    with _FakeS3_31("InvalidAccessKeyId"):
        print(list(obstore.list(_obs31(), prefix="rendezvous/run-0412/")), flush=True)


def case_obs31_read_timeout() -> None:
    import obstore

    with _FakeS3_31("stall"):
        obstore.get(_obs31(), KEY31).bytes()


def case_obs31_reset_midbody() -> None:
    import obstore

    with _FakeS3_31("reset"):
        obstore.get(_obs31(), KEY31).bytes()


def case_obs31_no_credentials() -> None:
    import obstore

    with _Moto31():
        _aws_env31(os.environ["AWS_ENDPOINT_URL"], creds=False)
        obstore.get(_obs31(), KEY31).bytes()


def case_obs31_download_onto_directory() -> None:
    import obstore

    with _Moto31():
        from obstore.store import LocalStore

        dest = tempfile.mkdtemp(prefix="stage31")
        os.makedirs(os.path.join(dest, "model.safetensors"))
        data = obstore.get(_obs31(), KEY31).bytes()
        obstore.put(LocalStore(dest), "model.safetensors", data)


# benign look-alikes: the run goes on
def _debug_log31(*names: str) -> None:
    import logging

    logging.basicConfig(level=logging.INFO)
    for n in names:
        logging.getLogger(n).setLevel(logging.DEBUG)


def case_benign31_boto_slowdown_once() -> None:
    with _FakeS3_31("SlowDownonce"):
        _debug_log31("botocore.retries.standard", "botocore.retryhandler")
        print(len(_boto31().get_object(Bucket=BUCKET31, Key=KEY31)["Body"].read()), flush=True)


def case_benign31_boto_internal_once_download() -> None:
    with _FakeS3_31("InternalErroronce"):
        _debug_log31("botocore.retries.standard", "s3transfer.tasks")
        _boto31().download_file(BUCKET31, KEY31, _dest31())
        print("staged", flush=True)


def case_benign31_s3transfer_reset_retried() -> None:
    with _FakeS3_31("reset"):
        import logging

        _debug_log31("s3transfer.download")
        fake_body = None
        try:
            _boto31().download_file(BUCKET31, KEY31, _dest31())
        except Exception as e:  # the staging script falls back to the next mirror
            logging.getLogger("stage").warning("mirror failed (%s), trying the next one", type(e).__name__)
        del fake_body
    with _Moto31():
        _boto31().download_file(BUCKET31, KEY31, _dest31())
        print("staged", flush=True)


def case_benign31_s3fs_slowdown_once() -> None:
    with _FakeS3_31("SlowDownthrice"):  # botocore's 3 attempts spent, then s3fs's own retry
        _debug_log31("s3fs")
        print(len(_s3fs31().cat_file(f"{BUCKET31}/{KEY31}")), flush=True)


def case_benign31_pafs_slowdown_once_sdk_log() -> None:
    with _FakeS3_31("SlowDownonce"):
        print(len(_pafs31("Warn").open_input_stream(f"{BUCKET31}/{KEY31}").read()), flush=True)


def case_benign31_pafs_head404_then_put() -> None:
    with _Moto31():
        from pyarrow import fs

        s3 = _pafs31("Error")
        key = f"{BUCKET31}/rendezvous/run-0412/node-1.json"
        print(s3.get_file_info(key).type == fs.FileType.NotFound, flush=True)
        with s3.open_output_stream(key) as f:
            f.write(b'{"ip": "10.0.3.13"}')
        print(s3.get_file_info(key).size, flush=True)


def case_benign31_head404_then_put_debug() -> None:
    with _Moto31():
        _debug_log31("botocore.parsers", "botocore.endpoint")
        s3 = _boto31()
        key = "rendezvous/run-0412/node-1.json"
        try:
            s3.head_object(Bucket=BUCKET31, Key=key)
        except s3.exceptions.ClientError:
            s3.put_object(Bucket=BUCKET31, Key=key, Body=b'{"ip": "10.0.3.13"}')
        print("registered", flush=True)


def case_benign31_obstore_503_retried() -> None:
    import obstore

    with _FakeS3_31("ServiceUnavailableonce"):
        _debug_log31()
        os.environ["RUST_LOG"] = "object_store=warn"
        print(len(obstore.get(_obs31(), KEY31).bytes()), flush=True)


CASES31: dict[str, Case] = {n.removeprefix("case_"): (f, k, False) for n, f, k in [
    ("case_boto31_get_nosuchbucket", case_boto31_get_nosuchbucket, "hf_repo_not_found"),
    ("case_boto31_list_rendezvous_nosuchbucket", case_boto31_list_rendezvous_nosuchbucket, "hf_repo_not_found"),
    ("case_boto31_copy_latest_missing_key", case_boto31_copy_latest_missing_key, "hf_weights_missing"),
    ("case_boto31_download_file_missing_key", case_boto31_download_file_missing_key, "hf_weights_missing"),
    ("case_boto31_get_access_denied", case_boto31_get_access_denied, "hf_gated"),
    ("case_boto31_download_file_access_denied", case_boto31_download_file_access_denied, "hf_gated"),
    ("case_boto31_invalid_access_key", case_boto31_invalid_access_key, "hf_gated"),
    ("case_boto31_signature_mismatch", case_boto31_signature_mismatch, "hf_gated"),
    ("case_boto31_expired_token", case_boto31_expired_token, "hf_gated"),
    ("case_boto31_clock_skew", case_boto31_clock_skew, "hf_gated"),
    ("case_boto31_no_credentials_upload", case_boto31_no_credentials_upload, "hf_gated"),
    ("case_boto31_head_bucket_forbidden", case_boto31_head_bucket_forbidden, "hf_gated"),
    ("case_boto31_endpoint_refused", case_boto31_endpoint_refused, "hf_http_error"),
    ("case_boto31_endpoint_unresolvable", case_boto31_endpoint_unresolvable, "hf_http_error"),
    ("case_boto31_read_timeout", case_boto31_read_timeout, "hf_http_error"),
    ("case_boto31_connect_timeout", case_boto31_connect_timeout, "hf_http_error"),
    ("case_boto31_slowdown_exhausted_put", case_boto31_slowdown_exhausted_put, "hf_http_error"),
    ("case_boto31_internal_error_exhausted", case_boto31_internal_error_exhausted, "hf_http_error"),
    ("case_boto31_service_unavailable_download", case_boto31_service_unavailable_download, "hf_http_error"),
    ("case_boto31_multipart_part_fails", case_boto31_multipart_part_fails, "hf_http_error"),
    ("case_boto31_get_reset_midbody", case_boto31_get_reset_midbody, "hf_incomplete_download"),
    ("case_boto31_get_short_body", case_boto31_get_short_body, "hf_incomplete_download"),
    ("case_boto31_get_bad_checksum", case_boto31_get_bad_checksum, "hf_incomplete_download"),
    ("case_boto31_download_file_short", case_boto31_download_file_short, "hf_incomplete_download"),
    ("case_boto31_download_file_reset", case_boto31_download_file_reset, "hf_incomplete_download"),
    ("case_boto31_redirect_dead_endpoint", case_boto31_redirect_dead_endpoint, "hf_http_error"),
    ("case_boto31_download_onto_directory", case_boto31_download_onto_directory, "python_crash"),
    ("case_disk31_download_file_tmpfs", case_disk31_download_file_tmpfs, "disk_full"),
    ("case_disk31_get_body_fsize_limit", case_disk31_get_body_fsize_limit, "disk_full"),
    ("case_disk31_obstore_local_tmpfs", case_disk31_obstore_local_tmpfs, "disk_full"),
    ("case_disk31_pafs_copy_files_tmpfs", case_disk31_pafs_copy_files_tmpfs, "disk_full"),
    ("case_s3fs31_open_missing_shard", case_s3fs31_open_missing_shard, "hf_weights_missing"),
    ("case_s3fs31_ls_missing_bucket", case_s3fs31_ls_missing_bucket, "hf_repo_not_found"),
    ("case_s3fs31_get_access_denied", case_s3fs31_get_access_denied, "hf_gated"),
    ("case_s3fs31_invalid_access_key", case_s3fs31_invalid_access_key, "hf_gated"),
    ("case_s3fs31_signature_mismatch", case_s3fs31_signature_mismatch, "hf_gated"),
    ("case_s3fs31_slowdown_exhausted", case_s3fs31_slowdown_exhausted, "hf_http_error"),
    ("case_s3fs31_service_unavailable", case_s3fs31_service_unavailable, "hf_http_error"),
    ("case_s3fs31_endpoint_refused", case_s3fs31_endpoint_refused, "hf_http_error"),
    ("case_s3fs31_read_timeout", case_s3fs31_read_timeout, "hf_http_error"),
    ("case_s3fs31_reset_midbody", case_s3fs31_reset_midbody, "hf_incomplete_download"),
    ("case_s3fs31_short_body", case_s3fs31_short_body, "hf_incomplete_download"),
    ("case_s3fs31_no_credentials", case_s3fs31_no_credentials, "hf_gated"),
    ("case_fsspec31_open_missing_config", case_fsspec31_open_missing_config, "hf_weights_missing"),
    ("case_fsspec31_get_under_a_file", case_fsspec31_get_under_a_file, "python_crash"),
    ("case_disk31_s3fs_get_tmpfs", case_disk31_s3fs_get_tmpfs, "disk_full"),
    ("case_pafs31_open_missing_key", case_pafs31_open_missing_key, "hf_weights_missing"),
    ("case_pafs31_missing_bucket", case_pafs31_missing_bucket, "hf_repo_not_found"),
    ("case_pafs31_access_denied", case_pafs31_access_denied, "hf_gated"),
    ("case_pafs31_invalid_access_key", case_pafs31_invalid_access_key, "hf_gated"),
    ("case_pafs31_endpoint_refused", case_pafs31_endpoint_refused, "hf_http_error"),
    ("case_pafs31_slowdown_exhausted", case_pafs31_slowdown_exhausted, "hf_http_error"),
    ("case_pafs31_expired_token_put", case_pafs31_expired_token_put, "hf_gated"),
    ("case_pafs31_read_timeout", case_pafs31_read_timeout, "hf_http_error"),
    ("case_pafs31_short_body", case_pafs31_short_body, "hf_incomplete_download"),
    ("case_pafs31_upload_internal_error", case_pafs31_upload_internal_error, "hf_http_error"),
    ("case_obs31_get_missing_key", case_obs31_get_missing_key, "hf_weights_missing"),
    ("case_obs31_missing_bucket", case_obs31_missing_bucket, "hf_repo_not_found"),
    ("case_obs31_access_denied", case_obs31_access_denied, "hf_gated"),
    ("case_obs31_expired_token_put", case_obs31_expired_token_put, "hf_gated"),
    ("case_obs31_endpoint_refused", case_obs31_endpoint_refused, "hf_http_error"),
    ("case_obs31_slowdown_exhausted", case_obs31_slowdown_exhausted, "hf_http_error"),
    ("case_obs31_list_invalid_key", case_obs31_list_invalid_key, "hf_gated"),
    ("case_obs31_read_timeout", case_obs31_read_timeout, "hf_http_error"),
    ("case_obs31_reset_midbody", case_obs31_reset_midbody, "hf_incomplete_download"),
    ("case_obs31_no_credentials", case_obs31_no_credentials, "hf_gated"),
    ("case_obs31_download_onto_directory", case_obs31_download_onto_directory, "python_crash"),
    ("case_benign31_boto_slowdown_once", case_benign31_boto_slowdown_once, "benign"),
    ("case_benign31_boto_internal_once_download", case_benign31_boto_internal_once_download, "benign"),
    ("case_benign31_s3transfer_reset_retried", case_benign31_s3transfer_reset_retried, "benign"),
    ("case_benign31_s3fs_slowdown_once", case_benign31_s3fs_slowdown_once, "benign"),
    ("case_benign31_pafs_slowdown_once_sdk_log", case_benign31_pafs_slowdown_once_sdk_log, "benign"),
    ("case_benign31_pafs_head404_then_put", case_benign31_pafs_head404_then_put, "benign"),
    ("case_benign31_head404_then_put_debug", case_benign31_head404_then_put_debug, "benign"),
    ("case_benign31_obstore_503_retried", case_benign31_obstore_503_retried, "benign"),
]}
CASES.update(CASES31)
TIMEOUT_S.update({n: 60 for n in CASES31})


# ----------------------------------------------------------------------------- run


def versions() -> dict[str, str]:
    out: dict[str, str] = {"python": sys.version.split()[0]}
    for mod in ("torch", "transformers", "huggingface_hub", "safetensors", "triton", "cupy",
                "numpy", "httpx", "datasets", "pyarrow", "tokenizers", "accelerate", "rich",
                "loguru", "structlog", "ray"):
        try:
            out[mod] = str(__import__(mod).__version__)
        except AttributeError:  # rich has no __version__: its distribution's
            import importlib.metadata

            out[mod] = importlib.metadata.version(mod)
        except Exception as e:  # a missing library is a fact to record, not a failure
            out[mod] = f"absent ({type(e).__name__})"
    try:
        import torch

        out["cuda"] = str(torch.version.cuda)
        out["nccl"] = ".".join(map(str, torch.cuda.nccl.version()))
        out["gpu"] = torch.cuda.get_device_name(0)
        smi = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30,
        )
        out["driver"] = smi.stdout.strip()
    except Exception as e:
        out["cuda_probe"] = f"failed: {type(e).__name__}: {e}"
    import importlib.metadata

    for dist in ("openai", "httpx2", "httpcore2", "h11", "litellm", "aiohttp", "tenacity", "daytona",
                 "daytona-api-client", "pandas", "orjson", "jinja2",
                 "boto3", "botocore", "s3transfer", "s3fs", "aiobotocore", "fsspec", "obstore", "moto",
                 "urllib3", "aiohttp"):  # the agent side's clients (the
        # twenty-sixth set) and the twenty-ninth set's parsers / template engine, not imported here
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError as e:
            out[dist] = f"absent ({type(e).__name__})"
    out["kernel"] = os.uname().release
    try:  # ld.so's own lines (the nineteenth set)
        out["glibc"] = os.confstr("CS_GNU_LIBC_VERSION").split()[-1]
    except (ValueError, OSError, AttributeError):
        pass
    return out


# From the fifth set on (LATER_SETS index 3), a CPU case runs with no GPU visible.
CPU_ONLY_FROM = 3


def run_one(name: str) -> dict[str, Any]:
    cmd = f'"{sys.executable}" "{SCRIPT}" case {name}; rc=$?; exit $rc'
    env = dict(os.environ, PYTHONUNBUFFERED="1", TORCH_SHOW_CPP_STACKTRACES="0")
    if (later_set(name) or 0) >= CPU_ONLY_FROM and not CASES[name][2]:
        env["CUDA_VISIBLE_DEVICES"] = ""  # CPU cases next to a GPU case that fills the GPU
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            ["bash", "-c", cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            env=env, timeout=TIMEOUT_S.get(name, 60), cwd=tempfile.gettempdir(),
        )
        rc: int | str = p.returncode
        output = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        output = (e.stdout or b"").decode("utf-8", "replace")
    secs = round(time.monotonic() - t0, 1)
    print(f"[{name}] rc={rc} {secs}s {len(output.splitlines())} lines", flush=True)
    return {"case": name, "rc": rc, "seconds": secs, "output": output}


def cmd_run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = [n for n in CASES if n != "noop"]
    if args.only:
        names = [n for n in names if any(re.fullmatch(p, n) for p in args.only.split(","))]
    vers = versions()
    (out / "versions.json").write_text(json.dumps(vers, indent=1) + "\n")
    print(json.dumps(vers), flush=True)
    shared = GPU_SHARED20 | GPU_SHARED21 | GPU_SHARED25
    gpu = [n for n in names if CASES[n][2] and n not in shared]
    cpu = [n for n in names if not CASES[n][2] or n in shared]  # the pool's cases
    lock = threading.Lock()
    raw = open(out / "raw.jsonl", "w")

    def run_and_record(name: str) -> None:  # written as each ends: a killed run keeps the rest
        rec = run_one(name)
        with lock:
            raw.write(json.dumps(dict(rec, versions=vers)) + "\n")
            raw.flush()

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_and_record, n) for n in cpu]
        for n in gpu:  # one at a time: a fault or an OOM must not meet another case
            run_and_record(n)
        for fut in futures:
            fut.result()
    raw.close()
    return 0


STRING_NEEDLES = re.compile(
    r"Watchdog caught|NET/IB|NCCL WARN|timed out|Timed out|ProcessGroupNCCL|ncclRemoteError|"
    r"ncclSystemError|ncclInternalError|ncclUnhandledCudaError|ncclInvalidUsage|"
    r"Call to ibv_|remote process exited|heartbeat|Some NCCL operations have failed"
)


def cmd_strings(args: argparse.Namespace) -> int:
    import torch

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    libs: list[Path] = []
    torch_lib = Path(torch.__file__).parent / "lib"
    libs += sorted(torch_lib.glob("libtorch_cuda.so"))
    for site in map(Path, sys.path):
        libs += sorted(site.glob("nvidia/nccl/lib/libnccl.so*"))
    libs += sorted(torch_lib.glob("libnccl*.so*"))
    with open(out / "format_strings_raw.txt", "w") as f:
        f.write(f"# torch {torch.__version__} nccl {torch.cuda.nccl.version()}\n")
        for lib in dict.fromkeys(libs):
            data = lib.read_bytes()  # `strings -n 12` without needing binutils there
            strs = [m.decode() for m in re.findall(rb"[\x20-\x7e]{12,}", data)]
            hits = sorted({s for s in strs if STRING_NEEDLES.search(s)})
            f.write(f"## {lib} ({len(hits)} strings)\n")
            f.writelines(s + "\n" for s in hits)
    return 0


def cmd_case(args: argparse.Namespace) -> int:
    CASES[args.name][0]()
    return 0


# ----------------------------------------------------------------------------- build

_EXC = re.compile(r"^([A-Za-z_][\w.]*)(: .*|:)?$")
_EXC_CLASS = re.compile(r"(Error|Exception|Exit|Interrupt|Failure|Timeout)$")
# Shapes of lines a log shows besides exception lines (Python and torch C++ log lines).
_LOG_LINE = re.compile(
    r"^Fatal Python error|^terminate called|^  what\(\): |^bash: line \d+: +\d+ |"
    r"^-- Process \d+ terminated|^(\[rank\d+\]:)?\[[EWI]\d{4} |^[EWI]\d{4} \d\d:\d\d|"
    r" NCCL (INFO|WARN) |Assertion `.*` failed\.$|^\S+:\d+: \w*Warning: |^\[transformers\] |"
    r"thrown while requesting |^Retrying in \d+s "
)


def _is_exception_line(line: str) -> bool:
    m = _EXC.match(line)
    return bool(m and _EXC_CLASS.search(m.group(1).split(".")[-1]))


def _dedup_key(line: str) -> str:
    return re.sub(r"\d+", "N", re.sub(r"\b[0-9a-f]{8,}\b", "H", line))


# More shapes, for the third set's cases only (so the earlier files rebuild unchanged): the
# hub's download-retry warning, torchrun's failure table line naming the signal, triton's
# errors (OutOfResources), an exception line behind torch's `[rankN]: ` prefix, the hub's
# OfflineModeIsEnabled (its class name ends in neither Error nor Exception).
_LOG_LINE3 = re.compile(
    r"^Error while downloading from |^\s*traceback : Signal \d+ |^triton\.runtime\.errors\.\w+: |"
    r"^\[rank\d+\]: [\w.]+(Error|Exception): |^huggingface_hub\.errors\.OfflineModeIsEnabled: ")


# More shapes for the fourth set's cases only: a DataLoader's `ERROR: Unexpected ... in worker`
# line (printed by its signal handler), torch elastic's SignalException.
_LOG_LINE4 = re.compile(r"^ERROR: Unexpected \w+ .*in worker|^[\w.]+\.SignalException: ")


# More shapes for the sixth set's cases only: huggingface_hub's note that it could not write its
# tree cache (a full local_dir), printed as a plain log line.
_LOG_LINE6 = re.compile(r"^Ignored error while writing ")


# More shapes for the seventh set's cases only: a process pool's BrokenProcessPool (its class name
# ends in none of _EXC_CLASS's words).
_LOG_LINE7 = re.compile(r"^concurrent\.futures\.process\.BrokenProcessPool: ")


# More shapes for the eighth set's cases only: accelerate launch's note on defaults and its
# settings lines, and the lines torch elastic's failure table prints for a signal.
_LOG_LINE8 = re.compile(r"^The following values were not passed to `accelerate launch`|"
                        r"^\s*`--[\w-]+` was set to a value of |"
                        r"^(\[rank\d+\]: )?(Duplicate GPU detected : |"
                        r"Bootstrap : no socket interface found|nccl[A-Z]\w+: This usually )")


# More shapes for the ninth set's cases only: Rust's allocator giving up (tokenizers under
# RLIMIT_AS prints it, then aborts), pyarrow's exceptions (ArrowInvalid ends in no _EXC_CLASS word).
_LOG_LINE9 = re.compile(r"^memory allocation of \d+ bytes failed|^pyarrow\.lib\.Arrow\w+: ")


# More shapes for the eleventh set's cases only: NVML's exceptions through pynvml (the class
# names end in the NVML error's name, e.g. NVMLError_InvalidArgument).
_LOG_LINE11 = re.compile(r"^pynvml\.NVMLError_\w+: ")


# More shapes for the thirteenth set's cases only: huggingface_hub's note that it honours a 429's
# Retry-After (its form of the first set's `Retrying in Ns` line).
_LOG_LINE13 = re.compile(r"^Rate limited\. Waiting [\d.]+s before retry ")


# More shapes for the fifteenth set's cases only: httpx giving up on a redirect loop and dynamo
# refusing a graph break under fullgraph=True (class names TooManyRedirects and Unsupported end
# in none of _EXC_CLASS's words).
_LOG_LINE15 = re.compile(r"^httpx\.TooManyRedirects: |^torch\._dynamo\.exc\.Unsupported: ")


# More shapes for the seventeenth set's cases only: faulthandler's watchdog line
# (dump_traceback_later) and torch.export's data-dependent guard (a class name ending in Node),
# each also behind torch's `[rankN]: ` prefix.
_LOG_LINE17 = re.compile(r"^Timeout \(\d+:\d\d:\d\d\)!$|"
                         r"^(\[rank\d+\]: )?torch\.fx\.experimental\.symbolic_shapes\."
                         r"GuardOnDataDependentSymNode: ")
# More shapes for the eighteenth set's cases only: tokenizers' note that a fork came after its
# thread pool had run (printed by its fork handler in the child).
_LOG_LINE18 = re.compile(r"^huggingface/tokenizers: ")
# More shapes for the nineteenth set's cases only: subprocess's TimeoutExpired (a class name ending
# in no _EXC_CLASS word), ld.so's LD_PRELOAD note, libgomp's and LLVM's fatal lines, and bash's
# bare `Terminated` (its line for a SIGTERMed child of `bash -c` carries no `line N:` prefix).
_LOG_LINE19 = re.compile(r"^subprocess\.TimeoutExpired: |^ERROR: ld\.so: object |^libgomp: |"
                         r"^LLVM ERROR: |^Terminated$|^OpenBLAS blas_thread_init: pthread_create failed")
# More shapes for the twentieth set's cases only: what a failed torch.utils.cpp_extension build
# shows below its RuntimeError (the compiler's and nvcc's error lines, ninja's last line).
_LOG_LINE20 = re.compile(r"^ninja: build stopped: |^\S+\.(c|cc|cpp|cu|cuh|h)(:\d+:\d+:|\(\d+\):) "
                         r"(fatal )?error: ")
# More shapes for the twenty-first set's cases only: what the layers around an exception print
# (threading's and asyncio's reports, concurrent.futures' initializer report and BrokenThreadPool,
# an ExceptionGroup's `| `-prefixed lines, Python's unraisable-exception report) and the log
# formats a trainer writes an exception's message in (Hydra's, a JSON formatter / structlog,
# a plain asctime format, rich's RichHandler, loguru).
_LOG_LINE21 = re.compile(
    r"^Exception in thread |^Task exception was never retrieved$|^future: <Task finished |"
    r"^Exception in initializer:$|^Exception in callback |"
    r"^ *\| [\w.]*(Error|Exception|ExceptionGroup)(: |:?$)|"
    r"^concurrent\.futures\.thread\.BrokenThreadPool: |^Exception ignored in: |"
    r"^Task was destroyed but it is pending!$|^Executing <.* took [\d.]+ seconds$|"
    r"^\[\d{4}-\d\d-\d\d [\d:,]+\]\[[\w.]+\]\[(ERROR|WARNING|CRITICAL)\] - |"
    r'^\{"\w+": .*"(ERROR|WARNING|CRITICAL|error|warning|critical)"|'
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (ERROR|WARNING|CRITICAL) |"
    r"^\[\d\d/\d\d/\d\d \d\d:\d\d:\d\d\] (ERROR|WARNING|CRITICAL) |"
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \| (ERROR|WARNING|CRITICAL) +\| |"
    r"^(ERROR|WARNING|CRITICAL):[\w.]+:")

# More shapes for the twenty-second set's cases only (Ray): a RayTaskError naming the class it wraps
# (`ray.exceptions.RayTaskError(ValueError): ...`), Ray's Python log lines (tab after the time) and
# its C++ log lines at W and above (absl's stack-frame lines left out), absl's `*** SIGSEGV received`
# line, the ActorDiedError's cause line (`The actor is dead because ...`), the serializability
# report's FAIL line. Lines behind Ray's forwarding prefix (`(raylet) `, `(autoscaler +5s) `,
# `(Class pid=N) `, with the ANSI colours Ray prints them in) are read without it: a raylet's or
# the autoscaler's line is kept whole, a worker's line where its rest is a line kept anyway.
_LOG_LINE22 = re.compile(
    r"^ray\.exceptions\.\w+\(\w+\): |"
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\t(WARNING|ERROR|CRITICAL) \S+:\d+ -- |"
    r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [WEFC] \d+ \d+\] (?!logging\.cc:\d+: +(PC: )?@ )|"
    r"^\*\*\* SIG\w+ received at |^The actor (is dead|died) because |^!!! FAIL serialization: |"
    r"^Exception raised in creation task: ")
# More shapes for the twenty-third set's cases only (torch.distributed on CPU): the rows of torch
# elastic's ChildFailedError table that name an exit code (`  exitcode  : -15 (pid: N)`), argparse's
# error line (a worker that exits 2), torchrun's OMP_NUM_THREADS banner line.
_LOG_LINE23 = re.compile(r"^\s+exitcode\s+: -?\d+ \(pid: \d+\)$|^[\w.-]+\.py: error: |"
                         r"^Setting OMP_NUM_THREADS environment variable ")
# More shapes for the twenty-fourth set's cases only (older huggingface_hub / transformers): the
# bare logger lines transformers 4.x prints for weights it did not use or newly initialized (no
# `[transformers]` prefix before 5.0), huggingface_hub 0.20's OfflineModeIsEnabled (then in
# huggingface_hub.utils._http), and 0.20's resume warning glued to the end of the tqdm bar it
# interrupted (`... [00:00<?, ?B/s]Error while downloading from ...`).
_LOG_LINE24 = re.compile(r"^Some weights of |^huggingface_hub\.utils\._http\.OfflineModeIsEnabled: |"
                         r"B/s\]Error while downloading from ")
# More shapes for the twenty-sixth set's cases only (the agent side): the openai SDK's and httpx2's INFO lines
# for a retried request or an error status (logging's default format), litellm's own log lines and its
# `LiteLLM.Info:` debug hint, the Router's `LiteLLM: model group ...` line, tenacity's before_sleep_log
# WARNING, aiohttp's unclosed-session report, an ExceptionGroup's `| `-prefixed lines (as set 21's).
_LOG_LINE26 = re.compile(
    r"^INFO:openai\._base_client:Retrying request |^INFO:httpx2?:HTTP Request: .*\"HTTP/[\d.]+ [45]\d\d |"
    r"^LiteLLM\.Info: |^\d\d:\d\d:\d\d - LiteLLM[\w ]*:(WARNING|ERROR|CRITICAL): |^LiteLLM: model group '|"
    r"^WARNING:[\w.]+:Retrying \S+ in [\d.]+ seconds as it raised |^Unclosed (client session|connector)$|"
    r"^ *\| [\w.]*(Error|Exception|ExceptionGroup)(: |:?$)")
# More shapes for the twenty-eighth set's cases only (Ray, second round): Ray's exception classes whose
# names end in neither Error nor Exception (`ray.exceptions.TaskPlacementGroupRemoved: ...`,
# `ray.exceptions.PendingCallsLimitExceeded: ...`), ray.util.queue's `Empty` / `Full`, the note an
# async actor's worker prints on a blocking ray.get (a bare logger line), and the same behind a
# worker's `(Class pid=N) ` prefix.
_LOG_LINE28 = re.compile(r"^(\S*\([\w.]+ pid=\d+\)\S* )?(ray\.(exceptions|util\.queue)\.\w+(: |$)|"
                         r"Using blocking ray\.get inside async actor)")
# More shapes for the twenty-seventh set's cases only (torch 2.11 on CPU): dynamo's InvalidBackend /
# Unsupported (class names ending in no _EXC_CLASS word), a DataLoader worker's signal-handler line,
# the C++ compiler's fatal line under inductor (a .hpp header), faulthandler's stack-dump header,
# libgomp's notes, the informative continuation lines of four multi-line messages (torch.load's
# `WeightsUnpickler error:`, load_state_dict's `Missing key(s)` / `Unexpected key(s)`,
# multiprocessing's bootstrapping-phase message, the TORCH_LOGS parser's `Invalid log settings:`).
_LOG_LINE27 = re.compile(r"^torch\._dynamo\.exc\.(InvalidBackend|Unsupported): |"
                         r"^ERROR: Unexpected \w+ .*in worker|"
                         r"^\S+\.(hpp|h|cpp):\d+:\d+: fatal error: |"
                         r"^(Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$|^libgomp: |"
                         r"^\tWeightsUnpickler error: |^\t(Missing|Unexpected) key\(s\) in state_dict: |"
                         r"^\s+An attempt has been made to start a new process before the$|"
                         r"^Invalid log settings: ")
# More shapes for the twenty-ninth set's cases only (datasets / pandas): datasets' own notes when it
# lowers num_proc (bare logger lines), and pandas 3's ChainedAssignmentError, a warning class whose
# name ends in Error (printed by the warnings module as `<file>:<line>: ChainedAssignmentError: ...`).
_LOG_LINE29 = re.compile(r"^Setting num_proc from \d+ back to 1 |^num_proc must be <= \d+\. Reducing num_proc|"
                         r"^\S+:\d+: ChainedAssignmentError: ")
# More shapes for the thirtieth set's cases only: the `hf` CLI's own report lines (`Error: ...`,
# `Warning: ...`), which huggingface_hub 2.4 colours with ANSI codes even into a pipe.
_LOG_LINE30 = re.compile(r"^(\x1b\[[\d;]*m)+(Error|Warning): ")
# More shapes for the thirty-first set's cases only (object-store staging): the retry notes of botocore's standard
# retry mode, s3transfer's download retry and s3fs's error wrapper (DEBUG, logging's default format), and the AWS
# SDK for C++'s own log lines under pyarrow.fs (`[WARN] 2026-12-05 09:14:00.123 AWSClient [140...] ...`).
_LOG_LINE31 = re.compile(r"^(DEBUG|INFO|WARNING|ERROR):(botocore|s3transfer|s3fs|aiobotocore|fsspec)[\w.]*:"
                         r"(Retry needed|Retrying exception caught|Retryable error|Client error \(maybe retryable\)|"
                         r"Nonretryable error|Max attempts of)|^\[(WARN|ERROR|FATAL)\] \d{4}-\d\d-\d\d |"
                         r"^botocore\.errorfactory\.\w+: ")
_RAY_PREFIX22 = re.compile(r"^(\x1b\[[\d;]*m)?\((raylet|gcs_server|autoscaler \+[\dhms]+|"
                           r"[\w.]+ pid=\d+(, ip=[\d.]+)?)\)(\x1b\[[\d;]*m)? ?")


def _is_ray_line22(line: str) -> bool:
    m = _RAY_PREFIX22.match(line)
    if m is None:
        return bool(_LOG_LINE22.search(line))
    rest = line[m.end():]
    if m.group(2) in ("raylet", "gcs_server") or m.group(2).startswith("autoscaler"):
        return bool(rest.strip())
    return bool(_is_exception_line(rest) or _LOG_LINE.search(rest) or _LOG_LINE22.search(rest))


def select_lines(output: str, third: bool = False, fourth: bool = False,
                 sixth: bool = False, seventh: bool = False, eighth: bool = False,
                 ninth: bool = False, eleventh: bool = False,
                 thirteenth: bool = False, fifteenth: bool = False,
                 seventeenth: bool = False, eighteenth: bool = False,
                 nineteenth: bool = False, twentieth: bool = False,
                 twentyfirst: bool = False, twentysecond: bool = False,
                 twentythird: bool = False, twentyfourth: bool = False,
                 twentysixth: bool = False, twentyeighth: bool = False,
                 twentyseventh: bool = False, twentyninth: bool = False,
                 thirtieth: bool = False, thirtyfirst: bool = False) -> list[str]:
    """The lines a log reader sees as the story of a failure: exception lines (final and
    chained), torch C++ / NCCL log lines, warnings, the process-ended lines. Traceback frames,
    continuation lines of multi-line messages and C++ stack frames are left out; lines equal up
    to their numbers (64 `Channel NN/64` lines, one assert per GPU thread) count once."""
    keep: dict[str, str] = {}
    for line in output.splitlines():
        if line.startswith("PROVOKE-NOTE"):
            continue
        if _is_exception_line(line) or _LOG_LINE.search(line) or (
                third and _LOG_LINE3.search(line)) or (fourth and _LOG_LINE4.search(line)) or (
                sixth and _LOG_LINE6.search(line)) or (seventh and _LOG_LINE7.search(line)) or (
                eighth and _LOG_LINE8.search(line)) or (ninth and _LOG_LINE9.search(line)) or (
                eleventh and _LOG_LINE11.search(line)) or (
                thirteenth and _LOG_LINE13.search(line)) or (
                fifteenth and _LOG_LINE15.search(line)) or (
                seventeenth and _LOG_LINE17.search(line)) or (
                eighteenth and _LOG_LINE18.search(line)) or (
                nineteenth and _LOG_LINE19.search(line)) or (
                twentieth and _LOG_LINE20.search(line)) or (
                twentyfirst and _LOG_LINE21.search(line)) or (
                twentysecond and _is_ray_line22(line)) or (
                twentythird and _LOG_LINE23.search(line)) or (
                twentyfourth and _LOG_LINE24.search(line)) or (
                twentysixth and _LOG_LINE26.search(line) or twentyeighth and _LOG_LINE28.search(line) or
                twentyseventh and _LOG_LINE27.search(line) or twentyninth and _LOG_LINE29.search(line) or
                thirtieth and _LOG_LINE30.search(line) or thirtyfirst and _LOG_LINE31.search(line)):
            keep.setdefault(_dedup_key(line), line)
    return list(keep.values())


# Lines whose kind does not follow from the case: (regex, label), first match wins; "drop"
# leaves a line out (no evidence of its case in the line alone, or text we wrote ourselves).
LINE_RULES: list[tuple[str, str]] = [
    (r" NCCL INFO ", "benign"),
    (r"^\S+:\d+: \w*Warning: |\] Warning: |^\[transformers\] ", "benign"),
    (r"^W\d{4} .*spawn\.py:\d+\] Terminating process", "benign"),  # spawn reaping siblings
    (r"^Retrying in \d+s ", "benign"),  # the hub's retry note; the cause is on the line above
    (r"^\[W\d{4} .*TCPStore.*retrying", "benign"),  # a retried connect, not yet a failure
    (r"^torch\.multiprocessing\.spawn\.ProcessRaisedException|^-- Process \d+ terminated|"
     r"^torch\.distributed\.checkpoint\.api\.CheckpointException", "python_crash"),  # wrappers
    (r"^terminate called|^bash: line \d+: .*(Aborted|Segmentation fault)|^Fatal Python error",
     "python_crash"),
    # the Hub not reached at all (DNS, refused): a connection failure whatever was asked for
    (r"^'\[Errno -?\d+\] [^']*' thrown while requesting |We couldn't connect to 'https://hugg|"
     r"LocalEntryNotFoundError: An error happened while trying to locate", "hf_http_error"),
    (r"^(httpx|httpcore)\.ConnectError", "drop"),  # any client's connect error: no hub in it
    (r"^httpx\.HTTPStatusError: .*'40[13] ", "hf_gated"),  # status decides (contract)
    (r"^httpx\.HTTPStatusError: .*'404 ", "drop"),  # repo or entry: the line cannot tell
    (r"^httpx\.HTTPStatusError: .*'(429|5\d\d) ", "hf_http_error"),
    (r"^Exception ignored in: ", "drop"),
]
# Per case, before LINE_RULES.
CASE_RULES: dict[str, list[tuple[str, str]]] = {
    # the what() text is the message our own C++ program throws
    "cpp_terminate": [(r"^  what\(\): ", "drop")],
    # the backend's RuntimeError is our own text; dynamo's BackendCompilerFailed wrapper line
    # is not an exception line by select_lines' rule (class ends in "Failed")
    "compile_backend_error": [(r"^RuntimeError: provoke_failures", "drop")],
    # 401 for a missing repo: the status alone reads as gated, so the httpx line is left out
    "hub_missing401_download": [(r"^httpx\.HTTPStatusError", "drop")],
    "hub_missing401_snapshot": [(r"^httpx\.HTTPStatusError", "drop")],
    "hub_missing401_config": [(r"^httpx\.HTTPStatusError", "drop")],
    "hub8_missing401_file_meta": [(r"^httpx\.HTTPStatusError", "drop")],
    "torchrun_rdzv_endpoint_dns": [(r"^torch\.distributed\.elastic\.rendezvous\.api\."
                                    r"RendezvousConnectionError: The connection to the C10d "
                                    r"store has failed\. See inner exception for details\.$",
                                    "drop")],
    # the status502 case's line up to the repo name: the line cannot tell 403 from 502
    "hub8_forbidden403_feature": [(r"^OSError: Can't load feature extractor", "drop")],
    # NCCL_DEBUG=INFO's whole topology dump: the missing-file note and one probe note are kept
    "nccl_topo_file_missing": [(r"topology file|could not read /sys/devices/pci", "benign"),
                               (r" NCCL INFO ", "drop")],
    "hub5_missing401_info": [(r"^httpx\.HTTPStatusError", "drop")],
    # the same lines are already in the public corpus: a held-out line must be new
    "filestore_rendezvous_timeout": [(r"^RuntimeError: Wait timeout$", "drop")],
    "torchrun_rdzv_store_unreachable": [(r"RendezvousConnectionError: The connection to the "
                                         r"C10d store has failed\. See inner", "drop")],
    "gloo_allreduce_size_mismatch": [(r"^terminate called after throwing an instance of "
                                      r"'gloo::EnforceNotMet'$", "drop")],
    # the tenth set: the same message as set 7's html_page_torch_load line but for the key byte
    "torch_load_unsafe_garbage": [(r"^_pickle\.UnpicklingError: invalid load key", "drop")],
    # the public corpus has this line: a held-out line must be new
    "torch_load_unsafe_empty": [(r"^EOFError: Ran out of input$", "drop")],
    # notes that read as no error at all (the prototype-feature note, index_reduce's beta note;
    # the latter's assert is index_add's shape, so that case keeps no line)
    "benign_sync_debug_warn": [(r"Synchronization debug mode is a prototype feature", "drop")],
    "sync_debug_error": [(r"Synchronization debug mode is a prototype feature", "drop")],
    "cuda_assert_index_reduce": [(r"index_reduce\(\) is in beta", "drop")],
    # one warning of SDPA's six per-backend notes is kept (one to three lines a case)
    "sdpa_flash_fp32": [(r"UserWarning: (Memory efficient kernel not used|Memory Efficient "
                         r"attention has been runtime disabled|Flash attention kernel not used|"
                         r"cuDNN attention)", "drop")],
}
NOTES: list[tuple[str, str]] = [
    (r"basic_ios::clear|unexpected pos \d+ vs \d+",
     "torch.save on a full filesystem (tmpfs / /dev/full): no errno, no 'file write failed'"),
    (r"HfHubHTTPError: \(Request ID", "429: the status is only in the continuation line"),
    (r"We couldn't connect to 'http://127",
     "transformers' wrapper line; the Hub answered an HTTP error (see the case), not a connect error"),
    (r"There was a specific connection error",
     "an invalid token (401 'Invalid credentials in Authorization header')"),
    (r"Unrecognized model in .* model_type",
     "config.json 404 (EntryNotFound) swallowed by transformers 5"),
    (r"Repo id must be in the form", "a local path that does not exist (transformers 5)"),
    (r"^terminate called.*DistBackendError|^bash: line .*nccl_watchdog",
     "the ProcessGroupNCCL watchdog taking the process down after a collective timeout"),
    (r"^bash: line \d+: ", "the shell's line for a child killed by a signal"),
    (r"^EOFError$", "torch.load of an empty file"),
    (r"CheckpointException ranks:", "torch.distributed.checkpoint's wrapper of the ranks' errors"),
    (r"^torch\.multiprocessing\.spawn\.ProcessRaisedException|^-- Process \d+ terminated",
     "torch.multiprocessing.spawn's wrapper of the child's error"),
    (r"RendezvousTimeoutError$", "torchrun --nnodes=2 with one node: the exception has no message"),
]


# Third-set rules, before LINE_RULES (for CASES3 cases only, so earlier labels stay as built).
LINE_RULES3: list[tuple[str, str]] = [
    (r"^Error while downloading from ", "benign"),  # the hub's resume-and-retry warning
    (r"^W\d{4} .*Sending process \d+ closing signal", "benign"),  # torchrun reaping siblings
    (r"^\[W\d{4} .*cannot be retrieved \(gai error", "benign"),  # c10d goes on to try IPv4
]
NOTES3: list[tuple[str, str]] = [
    (r"requested and \d+ written", "numpy.save on a full filesystem (ENOSPC without its errno)"),
    (r"database or disk is full", "sqlite3 on a full filesystem"),
    (r"Not enough free disk space", "the hub's pre-download check; the download goes on"),
    (r"^Error while downloading from ", "huggingface_hub retries by resuming the download"),
    (r"DisabledRepoError", "403 with X-Error-Message 'Access to this resource is disabled.'"),
    (r"'451 ", "451: an access refusal like 403 (our loopback Hub's answer)"),
    (r"'416 ", "416 on the download (our loopback Hub's answer)"),
    (r"Bus error", "SIGBUS: a mmapped file truncated under the reader"),
    (r"CUDA error: out of memory", "cudaErrorMemoryAllocation outside torch's allocator (a "
     "matmul's cuBLAS set-up with the GPU full; a pinned host allocation larger than RAM "
     "printed the same line)"),
    (r"DefaultCPUAllocator", "host memory: RLIMIT_AS below the allocation"),
    (r"outgoing traffic has been disabled", "HF_HUB_OFFLINE=1 with an empty cache"),
]


# Fourth-set rules, before LINE_RULES3 and LINE_RULES (for CASES4 cases only).
_E4 = r"^E\d{4} [\d:.]+ \d+ \S+\] \[\d+/\d+\] "  # torch's E-level log prefix, dynamo frame id
LINE_RULES4: list[tuple[str, str]] = [
    # inductor's autotuner skipping a config (shared memory): it goes on with the others; the
    # `Exception ... for benchmark choice <temp path>` lines repeat the RuntimeError line
    (_E4 + r"Exception No valid triton configs", "drop"),
    (_E4 + r"RuntimeError: No valid triton configs", "benign"),
    (_E4 + r"(CUDA out of memory|CUDA driver error: out of memory)", "cuda_oom"),
    (_E4 + r"(Error while creating guard:|[\w.]+(Error|Exception): )", "python_crash"),
    (_E4, "drop"),  # the rest of a multi-line E-level block: frames, fields, continuations
    (r"InductorError: NoValidChoicesError", "python_crash"),  # the line names no memory
    (r"adapter model file not found", "hf_weights_missing"),  # weights not on disk
    (r"No space left on device", "disk_full"),
]
NOTES4: list[tuple[str, str]] = [
    (r"No valid triton configs", "inductor max-autotune skipping a config; the run goes on"),
    (_E4 + r"CUDA", "inductor max-autotune with the GPU filled (256 MiB left)"),
    (r"NoValidChoicesError", "inductor max-autotune with the GPU filled: every choice failed"),
    (r"unable to allocate shared memory", "DataLoader workers with a 2 MiB /dev/shm (EAGAIN, "
     "not ENOSPC: no disk_full)"),
    (r"metadata is None", "torch.distributed.checkpoint.load of a checkpoint whose .metadata "
     "was cut to 40 bytes: the line alone names no checkpoint"),
    (r"Cannot re-initialize CUDA", "torch's lazy-init check, not a CUDA runtime error"),
    (r"must be captured on a non-default stream", "torch's check, not a CUDA runtime error"),
    (r"^RuntimeError: $", "safetensors save_file of tied weights: the message is on the "
     "continuation lines ('Some tensors share memory ...')"),
    (r"SignalException|death signal", "torchrun itself sent SIGTERM (a stopped or preempted "
     "launcher)"),
    (r"killed by signal: Killed", "a DataLoader worker SIGKILLed (as the OOM killer would)"),
    (r"adapter model file not found", "load_adapter of a folder without adapter_config.json "
     "(peft absent)"),
    (r"HF_HUB_ENABLE_HF_TRANSFER", "the download then succeeds"),
    (r"Anomaly Detection has been enabled", "the run then succeeds"),
]


# Fifth-set rules, before LINE_RULES4, LINE_RULES3 and LINE_RULES (for CASES5 cases only).
LINE_RULES5: list[tuple[str, str]] = [
    (r"\(repository not found\)$", "hf_repo_not_found"),  # HfFileSystem's line, 401 or 404
    (r"^\[W\d{4} .*hostname of the client socket cannot be retrieved", "benign"),
    (r"^RuntimeError: at::cuda::blas::\w+<[\w:]+> argument", "python_crash"),  # torch's check
    (r" NCCL WARN (Cuda failure \d+ 'out of memory'|Failed to CUDA calloc)", "cuda_oom"),
    (r"unhandled cuda error|^ncclUnhandledCudaError", "nccl_error"),  # names no memory
]
NOTES5: list[tuple[str, str]] = [
    (r"\(repository not found\)", "HfFileSystem after the Hub answered 401 (gated) or 404: "
     "fsspec's FileNotFoundError says 'repository not found' for both"),
    (r"Can't load the configuration of", "AutoTokenizer whose config.json download was cut short "
     "(Content-Length larger than the body): the wrapper line names no download"),
    (r"unexpected EOF, expected \d+ more bytes", "torch.load of a legacy (non-zip) torch.save "
     "file cut to 60%"),
    (r"File does not contain tensor", "safe_open().get_tensor of a key the file lacks"),
    (r"\.distcp'$", "torch.distributed.checkpoint.load after its .distcp data file was removed "
     "(a shard not on disk)"),
    (r"PytorchStreamReader", "a truncated or random-bytes file (torch.jit.load, torch.load "
     "mmap=True, a DCP .distcp data file)"),
    (r"\(os error 28\)", "tokenizers' Rust writer (Tokenizer.save) on a full 256 KiB tmpfs"),
    (r"InductorError: OSError", "torch.compile with TORCHINDUCTOR_CACHE_DIR / TRITON_CACHE_DIR "
     "on a full tmpfs"),
    (r"would exceed allowed memory", "PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync, 256 GiB "
     "asked"),
    (r"^cupy\.cuda\.memory\.OutOfMemoryError", "cupy.empty of 1 TiB"),
    (r"argument k must be", "torch's check before cuBLAS (k past int32): no CUDA call made"),
    (r"NCCL WARN (Cuda failure|Failed to CUDA)|unhandled cuda error|ncclUnhandledCudaError",
     "NCCL init with the GPU filled (64 MiB left)"),
    (r"NCCL_COMM_ID|name resolution", "NCCL_COMM_ID naming a host that does not resolve"),
    (r"for send operation", "gloo send to a rank that never posts the recv (4 s)"),
    (r"10\.255\.255\.1", "torchrun on a worker node whose c10d "
     "rendezvous endpoint never answers"),
    (r"Segmentation fault .*cupy_memcpy", "cupy runtime memcpy from a bogus pointer: the host "
     "faulted, no CUDA error"),
    (r"waitForInput|keys: /", "TCPStore get / wait of a key nobody sets (3 s)"),
    (r"Unrecognized model in irisrl/okrepo", "AutoConfig with subfolder='policy', which the "
     "repo lacks: the 404 on policy/config.json swallowed by transformers 5"),
    (r"deprecated", "the run then succeeds"),
]


# The sixth set (after CASE_RULES, before LINE_RULES5 ...): huggingface_hub going on after a
# write to a full local_dir failed names ENOSPC; healthy NCCL INFO lines beyond a few are left
# out (one healthy start-up would otherwise be an eighth of the set).
LINE_RULES6: list[tuple[str, str]] = [
    (r"^Ignored error while writing .*\[Errno 28\]", "disk_full"),
    (r" NCCL INFO (Trees |ncclCommInitRankConfig .* Init START|comm \S+ rank \d+ nRanks )",
     "drop"),
]
NOTES6: list[tuple[str, str]] = [
    (r"preupload", "HfApi.upload_file (the commit's preupload call) answered with this status: "
     "an upload, not a download; labelled by the Hub's status as the Labelling decisions say"),
    (r"/refs'?", "HfApi.list_repo_refs"),
    (r"\(repository not found\)", "HfFileSystem.ls of a dataset repo after the Hub answered 403 "
     "(gated): fsspec's FileNotFoundError says 'repository not found'"),
    (r"/api/datasets/", "HfFileSystem.ls of a dataset repo"),
    (r"/datasets/irisrl/", "hf_hub_download(repo_type='dataset')"),
    (r"CUBLAS_STATUS_ALLOC_FAILED", "CUBLAS_WORKSPACE_CONFIG=:4096:100000000 (about 400 GB of "
     "workspace) on an otherwise empty GPU: cuBLAS handle creation cannot allocate"),
    (r"cudaGetDeviceCount", "CUDA init under RLIMIT_AS=4 GiB (a container's address-space cap): "
     "the GPU was empty, the host address space ran out; cuda_oom as set 3 labelled CUDA's 'out "
     "of memory' for a host (pinned) allocation"),
    (r"Process \d+ has", "another process (standing in for an inference engine) holds 120 GiB"),
    (r"cudaErrorLaunchFailure", "a cupy kernel that calls __brkpt(): unspecified launch failure, "
     "not an illegal-instruction error"),
    (r"cudaErrorMemoryAllocation", "cupy alloc_pinned_memory of 64 TiB (host pinned memory)"),
    (r"limit set to", "cupy's memory pool with set_limit(256 MiB), 512 MiB asked"),
    (r"failed locating file data/0", "a torch.save zip repacked without its data/0 member"),
    (r"version 99", "a torch.save zip whose version record says 99 (as a newer torch would "
     "write): too new rather than damaged; checkpoint_corrupt by judgement (it cannot be read)"),
    (r"CUDA device 5", "torch.load with map_location cuda:0 -> cuda:5 on a one-GPU node"),
    (r"Timeout waiting for key", "FileStore.get of a key nobody sets (3 s)"),
    (r"waitForInput|/default_pg/", "new_group([0, 1]) that rank 1 never calls (4 s): the gloo "
     "group's store rendezvous times out"),
    (r"keys: /rollout/ready", "TCPStore(use_libuv=False) client get of a key nobody sets (3 s)"),
    (r"unbound_buffer\.cc", "gloo barrier that rank 1 never enters (4 s timeout)"),
    (r"blocking wait|Watchdog caught", "TORCH_NCCL_BLOCKING_WAIT=1, world of one: a 12 s spin "
     "kernel ahead of an all_reduce with a 4 s timeout"),
    (r"TORCH_NCCL_TRACE_BUFFER_SIZE", "set for the flight recorder; the run then times out (its "
     "watchdog lines have the shapes of set 1's)"),
    (r"Aborted .*nccl_flight", "the watchdog's abort after the flight-recorder dump"),
    (r"new group's world size", "new_group([0, 3]) in a world of 1"),
    (r"_ArrayMemoryError", "numpy under RLIMIT_AS=8 GiB (host memory)"),
    (r"Read-only file system", "torch.save onto a read-only tmpfs"),
    (r"ProcessExitedException", "a torch.multiprocessing.spawn child dying by a real fault (NULL "
     "read, a truncated mmap, abort())"),
    (r"traceback : Signal", "a torchrun child dying by a real fault (NULL read, a truncated mmap, "
     "abort())"),
    (r"Assertion `token id", "a triton kernel's tl.device_assert with TRITON_DEBUG=1"),
    (r"Not enough free disk space|Ignored error while writing", "snapshot_download(local_dir=...) "
     "onto a full tmpfs; the run ends on [Errno 28] (a shape of an earlier set)"),
    (r"use_reentrant", "the run then succeeds: torch 2.11 still only warns, although the text "
     "says 2.9 would raise"),
    (r"Both events must", "torch's own check before any CUDA call (python_crash)"),
    (r"use_cache=True", "gradient checkpointing in train mode; the step then succeeds"),
    (r" NCCL INFO ", "a healthy start-up with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV"),
]


# The seventh set (before LINE_RULES6 ...): the continuation lines of inductor's cudagraph-skip
# note (each behind its own W prefix: a stack frame, source text, an empty tail) are left out; the
# Hub's error whose message is only a request id names no status: a Hub HTTP error.
LINE_RULES7: list[tuple[str, str]] = [
    (r"\[__cudagraphs\](\s{2,}|\s*$)", "drop"),
    (r"^huggingface_hub\.errors\.HfHubHTTPError: \(Request ID: ", "hf_http_error"),
]
NOTES7: list[tuple[str, str]] = [
    (r"whoami", "HfApi.whoami with a revoked HF_TOKEN (401)"),
    (r"/commits/", "HfApi.list_repo_commits"),
    (r"/tree/", "HfApi.list_repo_tree(recursive=True)"),
    (r"not a safetensors repo|resolve/main/model\.safetensors", "HfApi.get_safetensors_metadata"),
    (r"generation_config\.json'?$|generation_config\.json \(Req", "GenerationConfig.from_pretrained"
     " of a Hub repo"),
    (r"^huggingface_hub\.errors\.HfHubHTTPError: \(Request ID", "a 429 or 403 without an "
     "X-Error-Message: huggingface_hub 1.33 prints only the request id (the status is on the "
     "httpx line before it)"),
    (r"invalid load key, '<'", "torch.load(weights_only=False) of a saved HTML page"),
    (r"Unsupported operand 118|Weights only load failed", "torch.load of a git-lfs pointer file "
     "('v' = 118)"),
    (r"header too large", "from_pretrained of a model.safetensors that is a git-lfs pointer"),
    (r"not fully covered", "Trainer resume_from_checkpoint with model.safetensors cut in half"),
    (r"Can't find a valid checkpoint", "Trainer resume_from_checkpoint naming a dir with only "
     "trainer_state.json (a save killed before the weights); checkpoint_corrupt by judgement"),
    (r"does not appear to have a file named", "HF_HUB_OFFLINE=1, a cache whose model.safetensors "
     "symlink points at a deleted blob"),
    (r"metadata is None", "dcp.load of a DCP dir without .metadata (save killed before the end)"),
    (r"shutil\.Error", "shutil.copytree of a checkpoint dir onto a full 256 KiB tmpfs"),
    (r"checkpoint-1'$", "Trainer saving onto a tmpfs out of inodes (nr_inodes=16), bytes left"),
    (r"GenerationConfig is invalid", "GenerationConfig(do_sample=False, temperature=0.7, "
     "top_p=0.9).save_pretrained: transformers 5.17 refuses to save it"),
    (r"generation flags are not valid", "the warning before that refusal"),
    (r"not a valid JSON file", "GenerationConfig.from_pretrained of a generation_config.json that "
     "is an HTML page"),
    (r"Expecting value", "a JSON file that is an HTML page (tokenizer.json or "
     "generation_config.json)"),
    (r"index out of bounds: 0 <= tmp", "torch.compile(x[idx]) on CUDA with idx past the end: "
     "inductor's generated triton kernel asserts"),
    (r"CUDA error: device-side assert", "after inductor's kernel assert"),
    (r"CUDA error: out of memory", "PYTORCH_NO_CUDA_MEMORY_CACHING=1, 400 GiB asked: the caching "
     "allocator is off, so torch reports CUDA's own error"),
    (r"numel \(|CompilationError", "a triton kernel with tl.arange(0, 2**21)"),
    (r"recv operation", "gloo recv from a rank that never sends (4 s)"),
    (r"op\.preamble\.length|gloo::EnforceNotMet|Aborted .*gloo_allreduce", "gloo all_reduce of 16 "
     "vs 32 floats on two ranks: the process aborts"),
    (r"BrokenProcessPool", "a ProcessPoolExecutor worker SIGKILLed mid-task"),
    (r"skipping cudagraphs", "torch.compile(mode='reduce-overhead') of a function mutating its "
     "input, TORCH_LOGS=perf_hints; the steps then succeed"),
    (r"missing keys in the checkpoint", "transformers' note on the tiny GPT-2's tied lm_head while "
     "resuming; the resume then failed on the damaged optimizer.pt"),
    (r"bos_token_id|eos_token_id|loss_type", "transformers' note on a tiny GPT-2 config; the "
     "load / run went on"),
    (r"torch\.distributed is disabled", "DCP in one process"),
    (r"CheckpointException", "DCP's wrapper of the rank's error"),
    (r"gated repo", "transformers' wrapper of the Hub's GatedRepoError"),
    (r"not a valid model identifier", "transformers' wrapper of the Hub's 404"),
    (r"couldn't connect|locate the file on the Hub", "after the Hub's retries gave up"),
]



LINE_RULES8: list[tuple[str, str]] = [
    # accelerate launch's note on the defaults it used: printed before every such launch
    (r"^The following values were not passed to `accelerate launch`|^\s*`--[\w-]+` was set to",
     "benign"),
    # NCCL's own lines behind ProcessGroupNCCL's error (its "Last error:" text)
    (r"Duplicate GPU detected : |Bootstrap : no socket interface found|"
     r"nccl[A-Z]\w+: This usually ", "nccl_error"),
    # torch elastic's agent reporting a child that exited: a launcher's report
    (r"^E\d{4} .*elastic/multiprocessing/api\.py:\d+\] failed \(exitcode", "python_crash"),
]
NOTES8: list[tuple[str, str]] = [
    (r"accelerate launch|was set to a value", "accelerate launch with no config file: its note "
     "on the defaults it used (printed before every such launch; the run goes on)"),
    (r"Duplicate GPU detected|NCCLUtils\.cpp:93|local_rank: 2", "two or four ranks on the one "
     "GPU (torchrun --nproc-per-node=2, or accelerate launch with num_processes: 4 on one GPU: "
     "accelerate put every rank on cuda:0)"),
    (r"Bootstrap : no socket interface found", "NCCL_SOCKET_IFNAME excluding every interface "
     "or naming a missing one exactly (=ens99f0np0); NCCL's 'Last error:' text"),
    (r"ncclInvalidUsage: This", "the line ProcessGroupNCCL prints under its invalid-usage error, "
     "before NCCL's 'Last error:' text"),
    (r"topology file|Topology detection", "NCCL_TOPO_FILE naming a missing file, "
     "NCCL_DEBUG=INFO: NCCL notes it and goes on (exit 0)"),
    (r"Init COMPLETE|Destroy COMPLETE", "NCCL_DEBUG_FILE in a missing directory: NCCL logs to "
     "stdout instead and goes on (exit 0)"),
    (r"RedOpType\.MAX on complex", "ProcessGroupNCCL all_reduce(op=MAX) of a complex tensor"),
    (r"UInt32", "ProcessGroupNCCL all_reduce of a torch.uint32 tensor"),
    (r"output size times world size", "reduce_scatter_tensor with an input of 6 for an output "
     "of 4 (world of one)"),
    (r"same type as input", "all_gather_into_tensor of float16 into float32"),
    (r"garbage_collect_threshold", "PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:1.5"),
    (r"roundups", "PYTORCH_CUDA_ALLOC_CONF=roundup_power2_divisions:3"),
    (r"Invalid fraction value", "torch.cuda.set_per_process_memory_fraction(1.5)"),
    (r"etcd", "torchrun --rdzv-backend=etcd without the etcd client"),
    (r"irisrl-rdzv\.invalid|C10d store has failed", "torchrun --rdzv-backend=c10d with an "
     "unresolvable --rdzv-endpoint: the store connect times out after 60 s"),
    (r"min_nodes", "torchrun --nnodes=2:1"),
    (r"'gpu'|Cuda is not available", "torchrun --nproc-per-node=gpu with no visible GPU"),
    (r"SIGXCPU", "a torchrun child past RLIMIT_CPU"),
    (r"SIGXFSZ", "a spawn child writing past RLIMIT_FSIZE"),
    (r"DeepSpeed", "accelerate launch --use_deepspeed without deepspeed"),
    (r"CalledProcessError", "accelerate launch of a script that raised"),
    (r"fp8", "Accelerator(mixed_precision='fp8') without an fp8 backend"),
    (r"auth-check", "HfApi.auth_check"),
    (r"processor_config|feature extractor", "AutoFeatureExtractor.from_pretrained"),
    (r"not a valid git identifier", "AutoFeatureExtractor.from_pretrained of a repo whose "
     "revision lookup answers RevisionNotFound: transformers names the revision 'None'"),
    (r"resolve/main/model\.safetensors", "get_hf_file_metadata(hf_hub_url(...))"),
    (r"offline mode|cached snapshot folder", "HF_HUB_OFFLINE=1, a cache holding only "
     "config.json, snapshot_download(revision='release-v2')"),
    (r"does not appear to have a file named", "HF_HUB_OFFLINE=1, a cache holding only "
     "config.json, AutoModelForCausalLM.from_pretrained"),
]

LINE_RULES9: list[tuple[str, str]] = []  # the ninth set's lines take their case's kind
NOTES9: list[tuple[str, str]] = [
    (r"cuda_take_put_kernel", "torch.put_ with an index past the tensor (torch.take's line is "
     "the same kernel's and was left out)"),
    (r"dstAddDimSize", "index_add_ with an index past the dimension"),
    (r"index_copy_\(\)", "index_copy_ with an index past the dimension"),
    (r"idx >= -self_dim_size", "index_fill_ with an index past the dimension"),
    (r"input_val >= zero", "binary_cross_entropy of a probability of 2.0 (a sigmoid forgotten)"),
    (r"NLLLoss2d", "a per-pixel cross_entropy whose target names a class past the logits'"),
    (r"MultiMarginLoss", "multi_margin_loss with a target past the classes"),
    (r"MaxUnpooling", "max_unpool2d with indices past the output"),
    (r"Tried to allocate", "torch.fft.rfft on a GPU filled to 2 MiB: the caching allocator's "
     "OOM, not cuFFT's own error"),
    (r"Is a directory", "torch.load of a folder where a file was expected; python_crash by the "
     "line (an OS error on a path, no reader refused the file)"),
    (r"symbolic links", "torch.load of a symlink loop (latest.pt -> best.pt -> latest.pt); "
     "python_crash by the line"),
    (r"hasRecord", "torch.load of a zip that holds no checkpoint (a logs archive renamed .pt): "
     "torch's zip reader refusing it"),
    (r"invalid UTF-8 in header", "safe_open of a file whose JSON header is not UTF-8"),
    (r"invalid JSON in header", "safe_open of a file whose header is a JSON list"),
    (r"invalid header length", "from_pretrained of a model.safetensors cut inside its header"),
    (r"os error 12", "safetensors load_file of a 64 MiB file under RLIMIT_AS (host memory); "
     "python_crash (the contract has no host-memory kind)"),
    (r"memory allocation of", "tokenizers encoding 80 MB of text under RLIMIT_AS: Rust's "
     "allocator gives up and aborts"),
    (r"^bash: line \d+: .*Aborted", "the shell's report of the tokenizers process that aborted"),
    (r"killed by signal|Unexpected \w+ .*in worker", "a DataLoader worker dying by a real fault "
     "(NULL read, a truncated mmapped file, abort(3)); a launcher-like report: python_crash"),
    (r"Error writing bytes", "pyarrow.parquet.write_table onto a full 256 KiB tmpfs"),
    (r"Parquet magic bytes", "pyarrow.parquet.read_table of a parquet file cut in half; "
     "python_crash (a data file, not a checkpoint)"),
    (r"MASTER_PORT expected", "init_process_group('gloo') by env:// with MASTER_PORT unset"),
    (r"GradScaler|sdp_kernel|worker processes in total", "a deprecation / worker-count warning; "
     "the run goes on (exit 0)"),
    (r"model-00002-of-00002", "AutoModelForCausalLM.from_pretrained of a Hub repo whose "
     "model.safetensors.index.json names a shard the repo does not hold"),
    (r"tokenizer\.json", "HfFileSystem().open(<repo>/tokenizer.json)"),
    (r"/api/datasets/.*/revision/main", "snapshot_download(repo_type='dataset', "
     "allow_patterns=...)"),
    (r"/api/datasets/", "HfApi().dataset_info"),
    (r"text_encoder/config\.json", "hf_hub_download(subfolder='text_encoder')"),
    (r"/api/models/", "HfFileSystem().open: its first call is the repo's info"),
]


LINE_RULES10: list[tuple[str, str]] = [
    # CUDA IPC: the producer's note that it exited while a consumer holds its tensors (W level)
    (r"Producer process has been terminated before all shared CUDA tensors released", "benign"),
    # transformers' note on the import that failed, printed right before the ImportError it
    # raises for it: the cause of the process's end, not a note the run goes past
    (r"^\[transformers\] Encountered exception while importing ", "python_crash"),
    # torch's argument check of searchsorted (a host-side check, no device assert, no CUDA error)
    (r"searchsorted\(\): sorter index out of range", "python_crash"),
]
NOTES10: list[tuple[str, str]] = [
    (r"masked_scatter_size_check", "masked_scatter_ with a source shorter than the mask's ones"),
    (r"p4 <= 1", "torch.bernoulli of a probability of 1.5"),
    (r"nll_loss_forward_no_reduce", "nll_loss(reduction='none') with a target past the classes"),
    (r"sorter index out of range", "searchsorted with a sorter past the input, on the GPU: "
     "torch's own check (python_crash), no device assert"),
    (r"Producer process has been terminated", "a CUDA tensor handed to another process through "
     "torch.multiprocessing; the producer exited while the consumer held it (the consumer read it "
     "and exited 0)"),
    (r"Expected query, key and value|No available kernel", "scaled_dot_product_attention pinned "
     "to the flash backend with float32 inputs"),
    (r"synchroniz", "torch.cuda.set_sync_debug_mode(...) then .item()"),
    (r"invalidDevice|cudaErrorInvalidDevice", "cupy.cuda.Device(5) on a one-GPU node"),
    (r"communicator was aborted", "a collective on a process group whose NCCL communicator was "
     "aborted (ProcessGroupNCCL.abort()), the group kept; the line ends in a space as printed"),
    (r"only supported with GPUs", "init_process_group('nccl') in a process that sees no GPU"),
    (r"Mesh should not be bigger", "init_device_mesh('cpu', (2, 2)) in a world of one"),
    (r"Unable to find address for", "GLOO_SOCKET_IFNAME naming an interface the node lacks; "
     "python_crash (the contract has no gloo or configuration kind)"),
    (r"Failed to recv, got 0 bytes|recvValueWithTimeout", "the c10d store's host process ended "
     "while another process still used the store"),
    (r"Ping failed|client failed to connect/validate", "MASTER_PORT held by another service that "
     "answers like an HTTP server: the store client's validation ping fails"),
    (r"must have the same dtype", "a bf16 batch through a float32 nn.Linear"),
    (r"parameter group that doesn't match", "optimizer.load_state_dict of a checkpoint written "
     "for another model"),
    (r"Invalid magic number", "torch.load(weights_only=False) of a legacy-format checkpoint whose "
     "magic number is damaged"),
    (r"pickle data was truncated", "torch.load(weights_only=False) of a zip whose data.pkl member "
     "is cut short"),
    (r"mmap can only be used", "torch.load(mmap=True) of a legacy-format (non-zip) checkpoint: "
     "the reader refuses the file's format (checkpoint_corrupt, like set 6's version 99)"),
    (r"os error 19", "safe_open of a folder named model.safetensors: an OS error on a path "
     "(python_crash, like torch.load of a folder)"),
    (r"non contiguous tensor", "safetensors save_file of a transposed (non-contiguous) tensor"),
    (r"expected a string", "a safetensors header whose __metadata__ holds a number"),
    (r"no file named model\.safetensors found", "from_pretrained(use_safetensors=True) of a folder "
     "that holds only pytorch_model.bin"),
    (r"flash_attn|This modeling file requires", "trust_remote_code=True with a modeling file that "
     "imports flash_attn, which the machine lacks"),
    (r"FlashAttention2", "from_pretrained(attn_implementation='flash_attention_2') without "
     "flash-attn installed"),
    (r"bitsandbytes", "a config.json asking for bitsandbytes 4-bit, on a machine without it"),
    (r"lr_scheduler", "scheduler.step() before optimizer.step(); the run goes on (exit 0)"),
    (r"not writable", "torch.from_numpy of a read-only array; the run goes on (exit 0)"),
    (r"target size", "mse_loss of [4, 1] against [4]; the run goes on (exit 0)"),
    (r"Token indices sequence length", "a tokenizer with model_max_length 8 given 40 tokens; "
     "the run goes on (exit 0)"),
    (r"/api/repos/create.*'401|'401 .*api/repos/create", "model.push_to_hub with a revoked token: "
     "create_repo answered 401 (hf_gated: status decides)"),
    (r"409 Conflict' for url '[^']*/api/repos/create", "HfApi.create_repo of a repo that exists "
     "(exist_ok=False): the Hub's 409; hf_http_error (judgement: an HTTP error from the Hub that "
     "is neither 401/403 nor a missing repo or file)"),
    (r"409 Conflict' for url '[^']*/branch/", "HfApi.create_branch of a branch that exists: 409; "
     "hf_http_error (judgement, as for create_repo)"),
    (r"403 Forbidden' for url '[^']*/branch/", "HfApi.create_branch on a gated repo (403)"),
    (r"412 Precondition Failed", "HfApi.create_commit with a parent_commit the repo moved past "
     "(the 412 arrives at the preupload call); hf_http_error (judgement)"),
    (r"413 Request Entity Too Large", "HfApi.upload_file answered 413 at preupload; hf_http_error "
     "(judgement)"),
    (r"504 Gateway Timeout' for url '[^']*/preupload/", "HfApi.upload_folder answered 504 "
     "(retried five times first)"),
    (r"504 Gateway Timeout", "hf_hub_download answered 504 (retried five times first)"),
    (r"403 Forbidden' for url '[^']*/commit/", "HfApi.delete_file (a commit) answered 403"),
]

LINE_RULES11: list[tuple[str, str]] = []  # the eleventh set's lines take their case's kind
NOTES11: list[tuple[str, str]] = [
    (r"signal SIGILL|Signal 4 \(SIGILL\)", "a child ended by SIGILL (kill(2) of the signal, as a "
     "CPU-feature mismatch or a corrupted binary ends one); a launcher's report: python_crash"),
    (r"signal SIGFPE", "a child ended by SIGFPE (kill(2) of the signal); python_crash"),
    (r"exited unexpectedly with exit code", "a DataLoader worker that called exit(1) (no signal)"),
    (r"doesn't have MPI built in", "init_process_group('mpi') with a pip torch"),
    (r"Expected to have finished reduction", "DDP over a policy whose value head the actor loss "
     "never uses (find_unused_parameters off), second step"),
    (r"find_unused_parameters=True was specified", "DDP(find_unused_parameters=True) where every "
     "parameter is used; the run goes on (exit 0)"),
    (r"keys: /vllm_engine_2/", "PrefixStore('vllm_engine_2', TCPStore).get of a key nobody sets "
     "(3 s store timeout)"),
    (r"DistStoreError: Wait timeout$", "HashStore.wait of a key nobody sets (2 s timeout)"),
    (r"modified by an inplace operation", "an in-place edit of a tensor autograd saved"),
    (r"Recomputed values for the following tensors", "checkpoint(use_reentrant=False) whose "
     "recomputation saw another shape than the forward"),
    (r"record size \(", "torch.load of a zip checkpoint whose data/0 member holds half the "
     "tensor's bytes (repacked: the zip itself is sound)"),
    (r"Unknown endianness type", "torch.load of a zip checkpoint whose byteorder record is "
     "damaged: the reader refusing a record of the file (checkpoint_corrupt)"),
    (r"invalid offset for tensor", "a safetensors header whose tensors' byte ranges overlap"),
    (r"overflow computing buffer size", "a safetensors header whose shape overflows (2^40 x 2^40)"),
    (r"no file named model\.safetensors, or pytorch_model\.bin", "from_pretrained("
     "use_safetensors=False) of a folder that holds only model.safetensors"),
    (r"Parent directory .* does not exist", "torch.save into a step folder never created; "
     "python_crash (a path error, no disk or checkpoint fault)"),
    (r"_histc_cuda", "torch.use_deterministic_algorithms(True) then torch.histc on the GPU"),
    (r"Expected all tensors to be on the same device", "a GPU nn.Linear given a host batch"),
    (r"out of resource: shared memory", "a triton tl.dot of 256x256x256 fp32 tiles (3 stages): "
     "python_crash like set 2's threads limit (a launch configuration past the SM's limit)"),
    (r"cannot be accessed from Triton", "a triton kernel handed a CPU tensor"),
    (r"mapping of buffer object failed", "an IPC event handle of 64 zero bytes opened "
     "(torch.cuda.Event.from_ipc_handle / cupy ipcOpenEventHandle)"),
    (r"cudaErrorInvalidValue", "cupy ipcOpenMemHandle of 64 zero bytes"),
    (r"capturing stream has unjoined work", "a CUDA graph capture that forked work to a side "
     "stream and never joined it back"),
    (r"Segmentation fault .*cuda_external_stream_bogus", "torch.cuda.ExternalStream of a pointer "
     "that is no stream: the process segfaults (the shell's line: python_crash)"),
    (r"NVMLError_InvalidArgument", "pynvml nvmlDeviceGetHandleByIndex(7) on a one-GPU node; "
     "python_crash (an index past the node's GPUs, no GPU fault)"),
    (r"invalid root 1|ProcessGroupNCCL\.cpp:\d+, invalid argument", "dist.broadcast(src=1) in a "
     "world of one: NCCL's own argument check (ncclInvalidArgument), nccl_error"),
    (r"XML graph file|NCCLUtils\.cpp:\d+, unhandled system error|ncclSystemError",
     "NCCL_GRAPH_FILE naming a missing file: NCCL's init fails (not a warning it goes past)"),
    (r"NCCL_WORK_FIFO_BYTES", "a WARN NCCL goes past: the all_reduce completed (exit 0)"),
    (r"Guessing device ID|using the device under current context", "init_process_group('nccl') "
     "without device_id, then barrier(); the run goes on (exit 0)"),
    (r"pin_memory' argument is set as true", "DataLoader(pin_memory=True) in a process that sees "
     "no GPU; the run goes on (exit 0)"),
    (r"Warning: |UserWarning|FutureWarning", "a deprecation warning; the run goes on (exit 0)"),
    (r"Consistency check failed", "the loopback Hub's HEAD announces twice the bytes its GET "
     "sends (start_hub3 bigger_head), for a weights / tokenizer file"),
    (r"/tag/", "HfApi.create_tag"),
    (r"/branch/", "HfApi.delete_branch"),
    (r"/super-squash/", "HfApi.super_squash_history"),
    (r"/revision/", "HfApi.revision_exists (answered at once: not retried)"),
]


LINE_RULES12: list[tuple[str, str]] = [
    # torch's own host-side check before any copy is captured: no CUDA error in it
    (r"^RuntimeError: Cannot copy between CPU and CUDA tensors during CUDA graph capture",
     "python_crash"),
]
NOTES12: list[tuple[str, str]] = [
    (r"\.grad attribute of a Tensor that is not a leaf", "reading .grad of a non-leaf tensor; "
     "the run goes on (exit 0)"),
    (r"torch\.meshgrid: in an upcoming release", "torch.meshgrid without indexing=; the run goes "
     "on (exit 0)"),
    (r"NCCL_BUFFSIZE set by environment to 4\.", "NCCL_BUFFSIZE=4MiB read as 4 (NCCL_DEBUG=INFO, "
     "NCCL_DEBUG_SUBSYS=ENV); the all_reduce completed (exit 0)"),
    (r"To copy construct from a tensor", "torch.tensor(<tensor>); the run goes on (exit 0)"),
    (r"_LinAlgError: linalg\.cholesky", "torch.linalg.cholesky of an indefinite matrix on the GPU; "
     "python_crash (a numerical failure, no CUDA fault)"),
    (r"Cannot copy between CPU and CUDA tensors during CUDA graph capture", "a .cpu() copy inside "
     "a CUDA graph capture: torch's own host-side check, python_crash (no CUDA error)"),
    (r"The CUDA Graph is empty", "printed as a capture that failed on a pageable host-to-device "
     "copy ended; a warning, benign"),
    (r"CUDAGraph::replay without a preceding", "CUDAGraph().replay() of a graph never captured"),
    (r"Tried to allocate 200\.00 GiB", "a 200 GiB allocation inside a CUDA graph capture (the "
     "graph's private pool)"),
    (r"Read-only file system: .*step_300", "dcp.async_save onto a read-only mount; python_crash, "
     "as set 6's torch.save onto one (no disk-full or checkpoint fault)"),
    (r"Read-only file system", "Trainer saving its first checkpoint onto a read-only mount; "
     "python_crash, as set 6's torch.save onto one"),
    (r"No space left on device: .*models--irisrl", "hf_hub_download into an HF cache on a tmpfs "
     "out of inodes (nr_inodes=6, bytes left)"),
    (r"LFS batch API returned errors", "the LFS batch endpoint answered 200 with a per-object "
     "error (422, quota); hf_http_error (an error answer from the Hub, neither 401/403 nor a "
     "missing repo or file)"),
    (r"/lfs-store/|Error while uploading", "the LFS upload URL's PUT answered 500 (retried five "
     "times first); hf_http_error"),
    (r"/discussions/3/merge", "HfApi.merge_pull_request"),
    (r"/discussions\?p=", "HfApi.get_repo_discussions"),
    (r"/discussions'", "HfApi.create_pull_request / create_discussion (POST .../discussions)"),
    (r"/lfs-files", "HfApi.list_lfs_files"),
    (r"/likers", "HfApi.list_repo_likers"),
    (r"constants\.pkl", "torch.jit.load of a torch.save checkpoint (no TorchScript records)"),
    (r"TorchScript archives", "torch.load (weights_only default) of a torch.jit.save archive: "
     "the reader refusing the file's format, checkpoint_corrupt as set 10's mmap line"),
    (r"received a zip file that looks like a TorchScript", "torch.load's note before it refuses "
     "the archive; a warning, benign"),
    (r"Profiler clears events", "torch.profiler's note; the trace export onto a full tmpfs then "
     "exited 0 (kineto's own ERROR line is not a kept line shape)"),
    (r"torch\.distributed is disabled", "dcp.save without a process group; saved (exit 0)"),
    (r"missing field `dtype`", "a safetensors header whose tensor entry lacks its dtype"),
    (r"expected usize", "a safetensors header with a negative shape"),
    (r"trailing characters", "a safetensors header padded with NUL bytes instead of spaces"),
    (r"invalid length 3", "a safetensors header with three data_offsets"),
    (r"KeyError: 'weight_map'", "from_pretrained of a sharded checkpoint whose "
     "model.safetensors.index.json has no weight_map: a damaged index, checkpoint_corrupt"),
    (r"step must be greater than zero", "safe_open get_slice with a negative step"),
    (r"keys: /weights/", "TCPStore.multi_get of a key nobody sets (3 s store timeout)"),
    (r"keys: /rollouts/", "TCPStore.queue_pop of a queue nobody pushes to (3 s store timeout)"),
    (r"does not support gradient checkpointing", "TrainingArguments(gradient_checkpointing=True) "
     "for a PreTrainedModel with supports_gradient_checkpointing=False"),
    (r"No valid checkpoint found in output directory", "Trainer.train(resume_from_checkpoint="
     "True) in an output_dir with no checkpoint-*; checkpoint_corrupt as set 7's 'Can't find a "
     "valid checkpoint' (judgement: the checkpoint to resume from cannot be loaded)"),
    (r"model\.fp16\.safetensors", "from_pretrained(variant='fp16') of a folder with only the "
     "plain weights"),
    (r"CompileTimeAssertionFailure", "a triton tl.static_assert that fails at compile time; "
     "python_crash like set 2's compile error"),
]


LINE_RULES13: list[tuple[str, str]] = [
    # ProcessGroupNCCL refusing NCCL's own allocator (ncclMemAlloc): the NCCL build lacks it,
    # no memory was asked of the GPU yet
    (r"NCCL mem allocator is not supported", "nccl_error"),
    (r"^Rate limited\. Waiting [\d.]+s before retry ", "benign"),  # the hub waiting, cause above
]
NOTES13: list[tuple[str, str]] = [
    (r"NCCL mem allocator is not supported", "torch.cuda.MemPool on ProcessGroupNCCL's "
     "mem_allocator (for NCCL buffer registration) before a 300 GiB allocation: refused at once; "
     "nccl_error (the NCCL build lacks ncclMemAlloc), not cuda_oom"),
    (r"Tried to allocate 1024\.00 MiB", "an OOM inside backward (the forward fit) under "
     "set_per_process_memory_fraction(0.02)"),
    (r"Tried to allocate 2\.32 GiB", "an OOM inside a torch.compile'd graph (inductor's mm "
     "buffer) under set_per_process_memory_fraction(0.015)"),
    (r"Can't swap an already initialized allocator", "change_current_allocator after CUDA memory "
     "was allocated; python_crash (a usage error, no memory fault)"),
    (r"max_split_size_mb too small|register threads has to be power of 2",
     "PYTORCH_CUDA_ALLOC_CONF rejected at the first CUDA allocation; python_crash"),
    (r"Detected mismatch between collectives", "TORCH_DISTRIBUTED_DEBUG=DETAIL, rank 0 "
     "all_reduce vs rank 1 broadcast; python_crash (a desync caught at once, no timeout)"),
    (r"DDP expects same model", "DDP over gloo with a value head on rank 0 only"),
    (r"Connection reset by peer", "DDP over gloo, rank 1's model with another shape: rank 1 "
     "died in the parameter check and rank 0 lost its peer; python_crash"),
    (r"does not support alltoall", "dist.all_to_all on gloo"),
    (r"Ranks 1, 2 failed to pass monitoredBarrier", "monitored_barrier(wait_all_ranks=True) on "
     "rank 0 of 3, ranks 1 and 2 never arrive"),
    (r"waiting for clients", "a master TCPStore with world_size=4 and wait_for_workers, no worker "
     "comes (3 s)"),
    (r"destination rank should not be the same", "dist.send to its own rank (NCCL world of one)"),
    (r"key must be a string", "from_pretrained of a model.safetensors whose header's first quote "
     "has one bit flipped"),
    (r"failed locating file data\.pkl", "torch.load of a checkpoint whose central-directory "
     "record name has one bit flipped"),
    (r"UNSUPPORTED_PTX_VERSION", "cupy.RawModule(path=<.ptx>) of PTX ISA 9.9 (a newer toolchain "
     "than the driver's JIT)"),
    (r"INVALID_IMAGE", "cupy.RawModule(path=<.cubin>) of a file that is an HTML page"),
    (r"right-padding was detected", "generate() with a right-padded batch; the run goes on "
     "(exit 0)"),
    (r"Warning: |UserWarning: |FutureWarning: ", "a warning; the run goes on (exit 0)"),
    (r"^Rate limited\. Waiting", "huggingface_hub honouring a 429's Retry-After: 2 before its "
     "retry (hf_hub_download); the cause is the line above, benign"),
    (r"ratelimited/resolve/", "every request answered 429 with Retry-After: 2 "
     "(hf_hub_download)"),
    (r"ratelimited/revision/", "every request answered 429 with Retry-After: 2 "
     "(snapshot_download)"),
    (r"gatedbody403", "403 whose X-Error-Message is the gated text but with no GatedRepo "
     "X-Error-Code; hf_gated (status decides)"),
    (r"/user-access-request/accepted", "HfApi.list_accepted_access_requests"),
    (r"/user-access-request/grant", "HfApi.grant_access"),
    (r"/discussions/3/comment", "HfApi.comment_discussion"),
    (r"/discussions/3/status", "HfApi.change_discussion_status (PATCH)"),
    (r"/discussions/3\?diff", "HfApi.get_discussion_details"),
    (r"/revision/global_step_300", "HfApi.model_info(revision=...)"),
    (r"/tag/v1", "HfApi.delete_tag"),
    (r"/settings", "HfApi.update_repo_settings (PUT)"),
    (r"status504.*/revision/main", "snapshot_download answered 504"),
]


LINE_RULES14: list[tuple[str, str]] = [
    # lines the public corpus already holds (public/dev.jsonl, public/heldout8.jsonl)
    (r"^terminate called after throwing an instance of '(c10::Error|gloo::EnforceNotMet)'$",
     "drop"),
    (r"Expect archive file to be a file ending in \.pt2", "benign"),  # a note on the file name
    # jiterator's NVRTC failure: the exception line is empty (the kernel source and the compiler
    # log follow as continuation lines); a bare "RuntimeError: " names nothing
    (r"^RuntimeError: $", "drop"),
    # HfFileSystem's wrapper says "repository not found" whatever the Hub answered (401 gated)
    (r"^FileNotFoundError: .*\(repository not found\)", "hf_repo_not_found"),
    # rank 1 waiting for the object rank 0 could not pickle: the line alone is a gloo timeout
    (r"Timed out waiting \d+ms for (recv|send) operation", "dist_timeout"),
]
NOTES14: list[tuple[str, str]] = [
    (r"Expect archive file to be a file ending in \.pt2", "torch.export.save to /dev/full: a "
     "warning on the file name before the write fails; benign"),
    (r"unexpected pos 64 vs 0", "torch.export.save to /dev/full (a real ENOSPC)"),
    (r"Aborted .*disk14_jit_save", "torch.jit.save to /dev/full: c10::Error thrown from a "
     "destructor, the process aborts; python_crash (the shell's signal line)"),
    (r"Aborted .*disk14_export_save", "torch.export.save to /dev/full: the process aborts; "
     "python_crash (the shell's signal line)"),
    (r"Aborted .*gloo14_", "gloo's EnforceNotMet on a size mismatch aborts the process; "
     "python_crash (the shell's signal line)"),
    (r"gloo::EnforceNotMet", "gloo on a collective whose sizes differ between ranks"),
    (r"trying to initialize the default process group twice", "init_process_group called twice"),
    (r"Connection closed by peer", "gloo, rank 1 gone (raised or returned) while rank 0 waits in a "
     "collective; python_crash as set 3's peer gone mid-run"),
    (r"Timed out waiting \d+ms for recv.*", "gloo: the peer is in another collective (or never "
     "sends); dist_timeout"),
    (r"Timed out waiting \d+ms for send", "gloo broadcast where each rank names itself the "
     "source; dist_timeout"),
    (r"must NOT be specified", "gather / scatter with the list passed on every rank"),
    (r"invalid tensor size", "all_gather_into_tensor with an output of the wrong size (gloo)"),
    (r"Can't pickle local object", "broadcast_object_list of a lambda"),
    (r"reward model returned", "rank 1 raises between two all_reduces (its own traceback)"),
    (r"No module named 'irisrl_policy_v1'", "torch.load(weights_only=False) of a checkpoint "
     "pickling an object whose module is gone; python_crash (code, not the file)"),
    (r"loading state_dict for PolicyValueNet", "a torch.compile'd model's state_dict (keys under "
     "_orig_mod.) loaded into the plain model"),
    (r"Tried to allocate 1024\.00 MiB", "matmul under expandable_segments:False and a 0.01 "
     "memory fraction"),
    (r"Tried to allocate 8\.00 GiB", "SDPA (math backend) under expandable_segments:True and a "
     "0.01 memory fraction"),
    (r"Tried to allocate 3\.00 GiB", ".to('cuda') of a 3 GiB CPU tensor under a 0.01 memory "
     "fraction"),
    (r"Assertion `` failed", "index_put_(accumulate=True) with an index past the end: the "
     "assert carries no message"),
    (r"sum of probabilities <= 0", "multinomial of an all-zero row on the GPU"),
    (r"ScatterGatherKernel", "F.one_hot on the GPU with a class past num_classes"),
    (r"M >= 1, N >= 1 and K >= 16|CompilationError", "triton tl.dot on 8x8 blocks; "
     "python_crash like set 2's compile error"),
    (r"bincount only|repeats can not be negative|kthvalue\(\)|selected index k", "a host-side "
     "check on a GPU tensor; python_crash (no device assert)"),
    (r"expected scalar type Long", "nll_loss with float targets"),
    (r"Categorical", "Categorical(logits=...) with a NaN logit (a policy gone NaN)"),
    (r"without replacement", "multinomial asking 8 of 4 categories without replacement"),
    (r"HF_HUB_ENABLE_HF_TRANSFER", "HF_HUB_ENABLE_HF_TRANSFER=1 with huggingface_hub 1.x; the "
     "download works (exit 0)"),
    (r"^\[transformers\] ", "resize_token_embeddings; a note, the run goes on (exit 0)"),
    (r"Warning: |UserWarning: |FutureWarning: ", "a warning; the run goes on (exit 0)"),
    (r"OfflineModeIsEnabled|okrepo", "HF_HUB_OFFLINE=1 with a cache holding only config.json and "
     "tokenizer_config.json"),
    (r"gated401/rollouts/", "HfFileSystem.open(..., 'w') on a gated repo (401): the "
     "wrapper says repository not found; hf_repo_not_found by the line alone"),
    (r"nofiles", "AutoImageProcessor of a repo with no preprocessor file (EntryNotFound)"),
    (r"None is not a valid git identifier", "a RevisionNotFound answer; transformers names the "
     "revision None"),
    (r"revision404@global_step_300", "HfFileSystem.info of repo@revision, answered "
     "RevisionNotFound"),
    (r"resolve/global_step_300/generation_config", "GenerationConfig.from_pretrained("
     "revision='global_step_300')"),
    (r"processor_config\.json|preprocessor_config", "AutoProcessor / AutoImageProcessor"),
    (r"api/models/irisrl/(forbidden403|status429)|\*\.safetensors", "HfFileSystem.glob"),
    (r"status500.*api/models", "HfFileSystem.info"),
]


LINE_RULES15: list[tuple[str, str]] = [
    # a cpp_extension note at inductor's import on a CPU-only process: reads as an error, is none
    (r"No CUDA runtime is found, using CUDA_HOME", "benign"),
    # transformers 5's load-report header (ANSI bold, a temp path): it names no failure alone;
    # the report's rows are table lines select_lines does not keep
    (r"LOAD REPORT", "drop"),
]
NOTES15: list[tuple[str, str]] = [
    (r"No CUDA runtime is found", "torch.compile (inductor) in a process that sees no GPU; the "
     "case exited 0; benign"),
    (r"all_reduce_coalesced", "a deprecation warning; the collective runs (exit 0)"),
    (r"save_state_dict", "a deprecation warning; the checkpoint is written (exit 0)"),
    (r"impl_abstract", "a deprecation warning (exit 0)"),
    (r"reset_max_memory_allocated", "a FutureWarning on a renamed call (exit 0)"),
    (r"TooManyRedirects", "the loopback Hub answering every request with a 302 to itself"),
    (r"use of `x\.T`", "a deprecation warning (exit 0)"),
    (r"HTTP Error 500 thrown while requesting", "the hub's note on a 500 whose body is an nginx "
     "HTML error page"),
    (r"Tried to allocate 16\.00 GiB", "a 16 GiB KV-cache-like torch.empty (bf16) after all but "
     "6 GiB of the GPU is held, expandable_segments:True"),
    (r"max_new_tokens.*max_length", "generate() with both lengths set; it runs (exit 0)"),
    (r"Not enough free disk space", "hf_hub_download into a cache on a 256 KiB tmpfs: the "
     "warning before the write fails (its ENOSPC line has an earlier set's shape); benign by the "
     "warning rule"),
    (r"^Error while downloading from ", "hf_hub_download(local_dir=...) of a body cut at half its "
     "Content-Length: the hub's resume-and-retry note, benign by set 3's rule"),
    (r"_thread\.lock", "gloo all_gather_object where rank 1's object holds a threading.Lock"),
    (r"Incorrect input list size", "scatter_object_list with a list shorter than the world"),
    (r"backward through the graph a second time", "a PPO epoch loop reusing the rollout's graph"),
    (r"does not require grad", "the loss built from logprobs taken under torch.no_grad()"),
    (r"TooManyRedirects", "the loopback Hub answering every request with a 302 to itself"),
    (r"Connection refused' thrown while requesting HEAD .*/cdn/", "the Hub's 302 for the file "
     "points at a CDN host nobody listens on"),
    (r"403 Forbidden", "a fine-grained token without the repo's read / write scope (403, our "
     "X-Error-Message on continuation lines); hf_gated by status"),
    (r"500 Internal Server Error", "a 500 whose body is an nginx HTML error page"),
    (r"X-Repo-Commit", "a server (proxy) whose answers lack X-Repo-Commit"),
    (r"ETag", "a server (proxy) whose answers lack ETag"),
    (r"Can't load the configuration", "AutoConfig on a Hub answering every request with a 302 to "
     "itself"),
    (r"JSONDecodeError: Unterminated", "model.safetensors.index.json cut in half, "
     "from_pretrained(device_map='cuda', dtype=bfloat16)"),
    (r"No such file or directory: .*model-\d+-of-\d+\.safetensors", "the index names a shard "
     "that is gone, from_pretrained(device_map='cuda'); hf_weights_missing as set 3's missing shard"),
    (r"graph_break", "torch.compile(fullgraph=True) over an explicit graph break"),
    (r"Conversation roles must alternate", "apply_chat_template on two user turns in a row"),
    (r"temperature", "generate(do_sample=True, temperature=0.0)"),
]


LINE_RULES16: list[tuple[str, str]] = [
    # the first line of a multi-line message, cut after "one of: " (trailing space, the list of
    # tokenizer files on the next lines): it names no cause alone
    (r"^ValueError: Couldn't instantiate the backend tokenizer from one of: $", "drop"),
    # peft wraps whatever the Hub answered (a gated or a missing repo) into a missing-file
    # message: by the line alone, the adapter's config file is not there
    (r"^ValueError: Can't find 'adapter_config\.json' at ", "hf_weights_missing"),
]

NOTES16: list[tuple[str, str]] = [
    (r"Temporary failure in name resolution", "snapshot_download meant for a full tmpfs cache "
     "reached for huggingface.co (the endpoint was read before HF_ENDPOINT was set) on a box "
     "without DNS"),
    (r"\[Errno 28\] No space left on device$", "snapshot_download of a tiny model plus a 1 MiB "
     "shard into HF_HUB_CACHE on a 256 KiB tmpfs"),
    (r"-> '/tmp/tinyfs", "shutil.copy of a 1 MiB shard onto a 256 KiB tmpfs"),
    (r"write\(\): fd \d+ failed", "torch.save(_use_new_zipfile_serialization=False) of a state "
     "dict onto a 256 KiB tmpfs"),
    (r"Error while serializing: I/O error", "safetensors.torch.save_model onto a 256 KiB tmpfs"),
    (r"^ValueError: Can't find 'adapter_config", "peft's PeftConfig.from_pretrained against the "
     "loopback Hub's gated / missing repo; hf_weights_missing by the line alone"),
    (r"adapter_config\.json", "peft's PeftConfig.from_pretrained against the loopback Hub"),
    (r"Unauthorized|Forbidden|GatedRepoError", "the loopback Hub's gated / bad-token answer; "
     "hf_gated by status, as in sets 10-15"),
    (r"not a valid git identifier|RevisionNotFound", "a revision the repo lacks"),
    (r"missing404", "a repo the Hub does not have"),
    (r"Server error '500", "HfApi.file_exists against a 500"),
    (r"metadata is None", "dcp.load with its .metadata file cut to 40 bytes"),
    (r"\.distcp", "dcp.load with the .distcp data file deleted"),
    (r"too many indices", "safe_open(...).get_slice with three indices on a 2-D tensor"),
    (r"Q4_K", "a safetensors header naming a dtype safetensors does not know, via safe_open"),
    (r"wait timeout after \d+ms, keys: /actor", "TCPStore.wait on a key nobody sets"),
    (r"GreaterThan\(lower_bound", "a Gaussian policy whose std collapsed to 0 (validate_args)"),
    (r"Simplex\(\)", "a Categorical over a probs row with NaN"),
    (r"Tried to allocate 10\.00 GiB", "max_split_size_mb:128 under a 0.05 memory fraction, a "
     "fragmented cache, then 10 GiB"),
    (r"nll_loss2d_forward_no_reduce", "cross_entropy(reduction='none') over (B, V, T) bf16 "
     "logits with a target past the vocab"),
    (r"indexSelectSmallIndex", "nn.Embedding(padding_idx=0) with a token id past the vocab"),
    (r"indexFuncSmallIndex", "index_add_ with an index past the rows"),
    (r"Tried to allocate 256\.00 MiB", "model.to('cuda') of a 4 GiB model with 2 GiB free"),
    (r"CUDA error: out of memory", "a 4 TiB torch.empty(pin_memory=True)"),
    (r"invalid device ordinal", "safetensors load_file(device='cuda:7') on a one-GPU machine"),
    (r"enable_nested_tensor", "nn.TransformerEncoder built with batch_first=False (exit 0)"),
    (r"resume_download|local_dir_use_symlinks", "a deprecated hf_hub_download argument, ignored "
     "(exit 0)"),
    (r"assert_allclose|load_state_dict. is deprecated", "a deprecation warning (exit 0)"),
]


LINE_RULES17: list[tuple[str, str]] = [
    # symbolic_shapes' W-level note printed before torch.export's GuardOnDataDependentSymNode:
    # a warning log line, the failure is the exception line under it
    (r"^W\d{4} .*symbolic_shapes\.py:\d+\] Unable to find user code", "benign"),
    # word for word a line of tests/fixtures/corpus/source/ray_torchdist_nccl.jsonl already
    (r"^\[rank0\]: _pickle\.UnpicklingError: Weights only load failed\. In PyTorch 2\.6", "drop"),
]

NOTES17: list[tuple[str, str]] = [
    (r"Unable to find user code", "symbolic_shapes' W-level note ahead of torch.export's "
     "data-dependent guard error; a warning, benign by the line alone"),
    (r"GuardOnDataDependentSymNode", "torch.export of a module that branches on x.sum() > 0"),
    (r"a and b must have same reduction dim|making fake tensor call", "torch.compile of a "
     "matmul whose shapes disagree, caught while dynamo traces with fake tensors"),
    (r"Missing key in checkpoint state_dict: embed", "dcp.load through HuggingFaceStorageReader "
     "of a directory holding no .safetensors file: it reports the first key as missing"),
    (r"Missing key in checkpoint state_dict", "dcp.load through HuggingFaceStorageReader of a "
     "shard that lacks a key the model has"),
    (r"Invalid config min/max channels|invalid argument \(run with", "ProcessGroupNCCL.Options "
     "with config.min_ctas=64 above config.max_ctas=2"),
    (r"Split sizes doesn't match", "all_to_all_single with split sizes that do not add up to "
     "the tensor (NCCL, one rank)"),
    (r"invalid device pointer", "torch.cuda.caching_allocator_delete of a pointer the caching "
     "allocator never gave out"),
    (r"row-major and column-major", "fp8 torch._scaled_mm with a row-major second operand"),
    (r"unscale FP16 gradients", "GradScaler over a model cast to fp16 with .half()"),
    (r"unscale_\(\) has already been called", "scaler.unscale_(opt) called twice before "
     "update()"),
    (r"uniform original parameter dtype", "fully_shard of a model with fp32 and bf16 parameters, "
     "no MixedPrecisionPolicy"),
    (r"containers that do not implement forward", "fully_shard of an nn.ModuleList (the first "
     "line of a message that goes on with the module's repr)"),
    (r"materialized from meta device", "fully_shard of a model built on the meta device, then "
     "forward without to_empty"),
    (r"reshard_after_forward as an int", "fully_shard(reshard_after_forward=3) on one rank"),
    (r"uniform `requires_grad`", "FSDP1 (use_orig_params=False) over a block with a frozen layer"),
    (r"CPU parameters or buffers when `sync_module_states=True`", "FSDP1(sync_module_states=True) "
     "of a model left on the CPU, no device_id"),
    (r"NO_SHARD|sharding initialization run on CPU", "FSDP1 warnings ahead of its "
     "sync_module_states error (exit 1); benign by the line alone"),
    (r"ColwiseParallel currently only support", "parallelize_module with ColwiseParallel on a "
     "LayerNorm"),
    (r"Parallelize plan key|did not set/select the default device", "a tensor-parallel plan "
     "naming a submodule the model lacks; the rest applied (exit 0)"),
    (r"Conflicting meta-parameters", "an autotuned triton kernel called with its tuned "
     "meta-parameter passed explicitly"),
    (r"set_current_seed can be called during stream capture", "torch.cuda.manual_seed inside a "
     "CUDA graph capture"),
    (r"Tried to allocate 256\.00 GiB", "a 256 GiB input batch allocated after "
     "init_process_group (NCCL, one rank, a fully_shard model)"),
    (r"vectorized_gather_kernel|device-side assert triggered", "a token id past the vocab into "
     "nn.Embedding after init_process_group (NCCL, one rank)"),
    (r"illegal memory access|Aborted", "a triton kernel storing 4 TiB past its buffer after "
     "init_process_group (NCCL, one rank); the watchdog takes the process down"),
    (r"CheckpointException ranks", "DCP's wrapper line behind the `[rank0]: ` prefix (the cause is "
     "the chained line under it; here a zero-filled .distcp data file), labelled by its case"),
    (r"unexpected pos", "dcp.save of a 1 MiB tensor onto a 256 KiB tmpfs after "
     "init_process_group (gloo, one rank)"),
    (r"\[rank0\]: OSError: \[Errno 28\]", "a rollout jsonl written onto a 256 KiB tmpfs after "
     "init_process_group (gloo, one rank)"),
    (r"metadata is None", "dcp.load after .metadata was overwritten with random bytes, after "
     "init_process_group (gloo, one rank)"),
    (r"PytorchStreamReader failed reading zip archive", "torch.load of an optimizer checkpoint "
     "cut in half, after init_process_group (gloo, one rank)"),
    (r"incomplete metadata", "safetensors load_file of a shard cut in half, after "
     "init_process_group (gloo, one rank)"),
    (r"gated401|GatedRepoError", "the loopback Hub's 401 GatedRepo answer, after "
     "init_process_group (gloo, one rank); hf_gated by status"),
    (r"missing404|RepositoryNotFoundError", "the loopback Hub's 404 RepoNotFound answer, after "
     "init_process_group (gloo, one rank)"),
    (r"revision404|RevisionNotFoundError", "hf_hub_download at a revision the repo lacks "
     "(loopback Hub), after init_process_group (gloo, one rank)"),
    (r"nofiles|RemoteEntryNotFoundError", "hf_hub_download of a file the repo lacks (loopback "
     "Hub), after init_process_group (gloo, one rank)"),
    (r"Connection refused|LocalEntryNotFoundError", "hf_hub_download with HF_ENDPOINT at a port "
     "nobody listens on, after init_process_group (gloo, one rank)"),
    (r"^Timeout \(", "faulthandler.dump_traceback_later(3, exit=True) as a step watchdog, then a "
     "hung step; the process exits 1"),
    (r"RecursionError", "a recursive parser fed a 5000-deep nested list inside a training loop"),
    (r"get_last_lr", "scheduler.get_lr() read for logging (exit 0)"),
    (r"None of the inputs have requires_grad", "reentrant activation checkpointing over inputs "
     "that need no grad (exit 0)"),
    (r"TracerWarning", "torch.jit.trace of a module with a Python branch on a tensor (exit 0)"),
    (r"Positional args are being deprecated", "Module.state_dict called with positional "
     "arguments (exit 0)"),
    (r"was resized since it had shape", "torch.add(..., out=buf) into a buffer of the wrong "
     "shape (exit 0)"),
]


LINE_RULES18: list[tuple[str, str]] = [
    # the tiny GPT-2 config's token-id notes (earlier shapes, left out by the build anyway)
    (r"^\[transformers\] Model config: (bos|eos)_token_id must be ", "benign"),
    # the first line of torch's multi-line state-dict report (the 'size mismatch for' lines
    # follow indented): by the line alone a load error of no stated cause, as in sets 2-3
    (r"^RuntimeError: Error\(s\) in loading state_dict for ", "python_crash"),
    # a GPT-2 tokenizer folder without merges.txt: the line names no missing file
    (r"`vocab` and `merges` must be both be from memory", "python_crash"),
    # the DataLoader's note that it could not pickle a worker's arguments (the crash follows)
    (r"Got pickle error when attempting to start a worker Process", "python_crash"),
]

NOTES18: list[tuple[str, str]] = [
    (r"File too large", "EFBIG, not ENOSPC: a write past a 64 KiB RLIMIT_FSIZE with SIGXFSZ "
     "ignored; disk_full as the nearest storage-limit kind, though no disk was full"),
    (r"No space left on device", "tokenizers' Tokenizer.save of a 40k-token vocab onto a 256 KiB "
     "tmpfs"),
    (r"Error\(s\) in loading state_dict for PeftModel", "a LoRA adapter's state dict into a "
     "PeftModel of another rank / base width; the size mismatch lines follow indented"),
    (r"Token `\w+` out of vocabulary", "a tokenizer.json whose BPE merges name a token its vocab "
     "lost, via AutoTokenizer"),
    (r"untagged enum", "a tokenizer.json naming a model / decoder type tokenizers does not know"),
    (r"^KeyError: 'LORA_XS2'", "PeftConfig.from_pretrained of an adapter_config.json whose "
     "peft_type this peft does not know; the bare KeyError names no file"),
    (r"EOF while parsing", "a tokenizer.json cut short"),
    (r"SentencePiece model", "a tokenizer.model left as a git-lfs pointer: transformers' note that "
     "it falls back to another reader, benign by the line alone (the fallback failed too, the "
     "ValueError lines after it)"),
    (r"git-lfs|expected value at line", "a tokenizer file left as a git-lfs pointer"),
    (r"does not appear to have a file named modeling_", "trust_remote_code=True, the auto_map's "
     "modeling file missing from the checkpoint folder; hf_weights_missing as a missing repo file"),
    (r"Tried to find .* but folder does not exist", "Accelerator.load_state of a checkpoint folder "
     "never written; checkpoint_corrupt as set 12's missing Trainer checkpoint"),
    (r"vocab` and `merges", "a GPT-2 tokenizer folder with vocab.json and no merges.txt"),
    (r"out of range integral type", "tokenizer.decode of ids holding -100"),
    (r"device type different than your model", "generate() with the prompt on the CPU and the "
     "model on the GPU: it warns, moves nothing, and finishes (exit 0)"),
    (r"fan_in_fan_out is set to False", "LoRA on GPT-2's Conv1D: peft fixes the flag itself"),
    (r"Length of IterableDataset", "an IterableDataset whose __len__ under-reports (exit 0)"),
    (r"huggingface/tokenizers", "a fast tokenizer's thread pool used before DataLoader workers "
     "forked (exit 0)"),
    (r"in DataLoader worker process", "the DataLoader re-raising a worker's exception in the "
     "main process"),
]


LINE_RULES19: list[tuple[str, str]] = [
    # the tuner case's NCCL_DEBUG=INFO start-up dump: only the lines about the tuner are kept
    (r" NCCL INFO (?!.*TUNER)", "drop"),
    # ld.so goes on without the library it could not preload
    (r"^ERROR: ld\.so: object .* cannot be preloaded .*: ignored\.$", "benign"),
    # a c10d store that could not start: a store failure, dist_timeout as the earlier sets' dead
    # store host and failed ping
    (r"DistStoreError: Failed to init uv loop", "dist_timeout"),
    # OpenBLAS starts with the threads it got and goes on
    (r"^OpenBLAS blas_thread_init: pthread_create failed", "benign"),
    # torch.cuda.is_available()'s warning names the CUDA failure (the run cannot use the GPU)
    (r"UserWarning: CUDA initialization: ", "cuda_error"),
    # safetensors reports EMFILE on a shard that is there as a missing file: by the line alone a
    # missing weights file
    (r"^FileNotFoundError: No such file or directory: .*\.safetensors$", "hf_weights_missing"),
]

NOTES19: list[tuple[str, str]] = [
    (r"LD_PRELOAD", "a child started with LD_PRELOAD naming a tuner library that is not on the "
     "node: ld.so ignores it and the child runs (exit 0)"),
    (r"ResourceWarning: unclosed file", "a rollout log opened per step and never closed, "
     "ResourceWarning shown as under python -X dev (exit 0)"),
    (r"ResourceWarning: unclosed <socket", "a socket never closed, ResourceWarning shown (exit 0)"),
    (r"leaked shared_memory", "a shared_memory rollout buffer closed but never unlinked; the "
     "resource tracker cleans it up at exit (exit 0)"),
    (r"core dumped", "a NULL read with RLIMIT_CORE unlimited (core_pattern 'core')"),
    (r"device_id cuda:1 is out of range", "init_process_group('nccl', device_id=cuda:LOCAL_RANK) "
     "with LOCAL_RANK=1 on a one-GPU node: torch's own check, no CUDA call"),
    (r"Error 101: invalid device ordinal", "CUDA_VISIBLE_DEVICES=0,0: device_count() read 0, "
     "then the first CUDA call fails at cudaGetDeviceCount"),
    (r"Read-only file system", "hf_hub_download with HF_HOME on a read-only tmpfs; python_crash "
     "as the earlier sets' read-only mounts (nothing is full)"),
    (r"No CUDA runtime is found", "cpp_extension's note in a process that sees no GPU "
     "(CUDA_VISIBLE_DEVICES=''); the build goes on"),
    (r"'ninja', '-v'", "load_inline of a C++ op with a syntax error: the ninja run, chained under "
     "cpp_extension's RuntimeError"),
    (r"Error building extension", "load_inline of a C++ op with a syntax error (the compiler's "
     "message follows on continuation lines)"),
    (r"Ninja is required", "load_inline with no ninja on PATH"),
    (r"undefined symbol", "load_inline of an op declared but never defined: the shared object "
     "links, its import fails"),
    (r"UserWarning: CUDA initialization", "LD_LIBRARY_PATH puts the CUDA toolkit's stub "
     "libcuda.so.1 ahead of the driver's: torch.cuda.is_available()'s warning (it returns False); "
     "cuda_error by the line, the GPU cannot be used"),
    (r"Error 34: CUDA driver is a stub", "the first CUDA call with the toolkit's stub "
     "libcuda.so.1 ahead of the driver's on LD_LIBRARY_PATH"),
    (r"TUNER", "NCCL_TUNER_PLUGIN naming a library that is not there: NCCL notes it at INFO and "
     "runs the all_reduce (exit 0)"),
    (r"libfused_rl_ops", "torch.ops.load_library of a custom-op library missing on this node"),
    (r"Error 304", "the first CUDA call after the run used up its file descriptors "
     "(RLIMIT_NOFILE soft 256): the driver cannot open its device files"),
    (r"multiprocessing/queues\.py", "a DataLoader with 2 workers started with no fd left: the "
     "lazy import of multiprocessing.queues fails first"),
    (r"Unable to resolve hostname", "gloo's W-level note ahead of the failure on the next line; "
     "benign by the line alone"),
    (r"Cannot resolve 127\.0\.0\.1", "gloo new_group after the shards used up the fds (2 forked "
     "ranks): getaddrinfo needs a socket, so the loopback address 'cannot be resolved'"),
    (r"hfhome\w+/token'", "hf_hub_download with no fd left: huggingface_hub reads its token file "
     "before any request"),
    (r"refs/main'", "hf_hub_download with no fd left, the token in HF_TOKEN: the kept-alive "
     "connection of a first download answered, writing the cache's refs file failed"),
    (r"InductorError: OSError: \[Errno 24\]", "inductor compiling a second graph in this process "
     "(TORCHINDUCTOR_COMPILE_THREADS=1) with no fd left"),
    (r"tabulate", "dynamo's atexit callback (its compile-time summary) failing to import tabulate "
     "with no fd left, after 'Exception ignored in atexit callback'"),
    (r"getifaddrs|unhandled system error|ncclSystemError", "NCCL's first all_reduce (one rank) "
     "building its communicator after the run used up its file descriptors"),
    (r"^FileNotFoundError: No such file or directory: .*\.safetensors$", "safe_open of a shard "
     "that is there, with no fd left: safetensors reports EMFILE as a missing file; "
     "hf_weights_missing by the line alone"),
    (r"Failed to init uv loop", "the rendezvous TCPStore master (libuv) created with no fd left; "
     "dist_timeout as the earlier sets' store failures"),
    (r"Too many open files \(os error 24\)", "tokenizers' Tokenizer.from_file with no fd left"),
    (r"open file failed with strerror: Too many open files", "torch.save of a checkpoint with no "
     "fd left"),
    (r"driver\.c'", "a triton kernel's first launch with no fd left: triton cannot read the "
     "source of its launcher"),
    (r"^OpenBLAS", "uid 65534 under RLIMIT_NPROC 12: numpy's OpenBLAS (imported by torchrun) "
     "starts with fewer threads and goes on; the workers finished, then torchrun hung until the "
     "60 s limit"),
    (r"Permission denied: '/tmp/dcp", "dcp.save into a directory of mode 0555 (root without "
     "CAP_DAC_OVERRIDE), under CheckpointException"),
    (r"Permission denied: '/tmp/hfhome", "hf_hub_download with HF_HOME a directory of mode 0555"),
    (r"InductorError: PermissionError", "torch.compile with TORCHINDUCTOR_CACHE_DIR a directory "
     "of mode 0555"),
    (r"I/O error: Permission denied", "safetensors save_file into a directory of mode 0555 (it "
     "writes a temporary file first)"),
    (r"Permission denied: '/tmp/ckpt", "torch.load of a checkpoint of mode 0000"),
    (r"open file failed with strerror: Permission denied", "torch.save into a checkpoint "
     "directory of mode 0555"),
    (r"Permission denied: '/tmp/tritoncache", "a triton kernel's first launch with "
     "TRITON_CACHE_DIR a directory of mode 0555"),
    (r"^KeyboardInterrupt$", "SIGINT (Ctrl-C) to a training loop with 2 DataLoader workers: the "
     "bare last line"),
    (r"Alarm clock", "signal.alarm(1) as a step timeout with no SIGALRM handler: the shell's line"),
    (r"killed by signal: Terminated", "a DataLoader worker ended by SIGTERM mid-epoch"),
    (r"MaybeEncodingError", "multiprocessing.Pool.map whose worker returns a threading.Lock"),
    (r"multiprocessing\.context\.TimeoutError", "multiprocessing.Pool: a worker SIGKILLed "
     "mid-task; the parent's get(timeout=5) expires (without a timeout the pool waits forever)"),
    (r"Hangup", "the trainer ended by SIGHUP (ssh session closed, no nohup): the shell's line"),
    (r"^Terminated$", "the trainer ended by SIGTERM with no handler: bash prints a bare "
     "'Terminated' for it (no 'line N:' prefix)"),
    (r"User defined signal 1", "the trainer ended by SIGUSR1 (Slurm's --signal=USR1@60, no "
     "handler): the shell's line"),
    (r"terminated with signal SIGHUP", "a torch.multiprocessing.spawn child ended by SIGHUP"),
    (r"terminated with signal SIGUSR1", "a torch.multiprocessing.spawn child ended by SIGUSR1"),
    (r"BrokenPipeError", "a trainer whose stdout is piped into `head -n 2`: the reader went away "
     "(the pipeline exits 0)"),
    (r"died with <Signals\.SIGKILL", "subprocess.run(check=True) of an eval script that is "
     "SIGKILLed"),
    (r"TimeoutExpired", "subprocess.run(timeout=3) of an eval script that hangs"),
    (r"Signal 1 \(SIGHUP\)", "a torchrun child ended by SIGHUP"),
    (r"Signal 2 \(SIGINT\)", "a torchrun child sent SIGINT: KeyboardInterrupt in the child, then "
     "its exit by SIGINT"),
    (r"Signal 10 \(SIGUSR1\)", "a torchrun child ended by SIGUSR1"),
    (r"^libgomp", "torch's OpenMP pool first used under RLIMIT_AS = VmSize + 4 MiB: libgomp ends "
     "the process (exit 1)"),
    (r"TqdmMonitorWarning", "snapshot_download under RLIMIT_AS = VmSize + 6 MiB: tqdm cannot "
     "start its monitor thread and goes on (the download threads fail next)"),
    (r"can't start new thread", "snapshot_download's download threads under RLIMIT_AS = VmSize "
     "+ 6 MiB"),
    (r"PanicException", "tokenizers' encode_batch under RLIMIT_AS = VmSize + 4 MiB: rayon's global "
     "pool cannot start its threads"),
]


LINE_RULES20: list[tuple[str, str]] = [
    # SDPA's generic per-backend notes before `No available kernel` (set 10's rule for
    # sdpa_flash_fp32: of the six, the one naming the cause is kept)
    (r"UserWarning: (Memory efficient kernel not used|Memory Efficient attention has been runtime "
     r"disabled|Flash attention kernel not used|cuDNN attention)", "drop"),
    # dynamo's lru_cache note a second time, for a second wrapped function of the same trace
    (r"Dynamo detected a call to a `functools\.lru_cache`-wrapped function at 'fsdp\.py", "drop"),
    # transformers 5's note that a decoding strategy moved to a Hub repo, printed before the
    # ValueError that ends the run: one of the four strategies' notes is kept
    (r"^\[transformers\] (Group Beam Search|Dola Generation|Constrained Beam Search) was moved "
     r"to a `custom_generate` repo", "drop"),
    # what torch.utils.cpp_extension prints around a failed build names no cause by itself: the
    # RuntimeError's first line is the build command, ninja's last line says a step failed
    (r"^RuntimeError: Error building extension |^ninja: build stopped: ", "python_crash"),
]
# a case's own rules: the build-on-a-full-tmpfs case keeps the final RuntimeError, g++'s ENOSPC
# line and ninja's line (one to three lines a case); the chained CalledProcessError goes to the
# syntax-error case, which prints it too
CASE_RULES.update({
    "ext20_build_dir_full": [(r"^subprocess\.CalledProcessError: ", "drop")],
})

NOTES20: list[tuple[str, str]] = [
    (r"Assertion `index out of bounds: 0 <= tmp\d+ < 8` failed", "generate() into a StaticCache of "
     "8 slots with 6 prompt and 10 new tokens: transformers compiled the decoding step, so the "
     "index assert comes from an inductor-generated triton kernel"),
    (r"Assertion `ids\[i\] < vocab` failed", "a torch.utils.cpp_extension.load_inline CUDA "
     "kernel's assert() on a token id past the vocabulary"),
    (r"No space left on device", "load_inline with its build directory and TMPDIR on a 256 KiB "
     "tmpfs: g++'s own ENOSPC line"),
    (r"(:\d+:\d+:|\(\d+\):) error: ", "the compiler's (g++ / nvcc) error line that "
     "torch.utils.cpp_extension.load_inline prints inside its RuntimeError"),
    (r"^RuntimeError: Error building extension ", "cpp_extension's RuntimeError: its first line is "
     "the build command, the cause follows on continuation lines"),
    (r"^ninja: build stopped", "ninja's last line under cpp_extension's RuntimeError; it names no "
     "cause"),
    (r"does not contain a `custom_generate` subdirectory", "custom_generate= a Hub repo with "
     "HF_HUB_OFFLINE=1 and an empty cache: transformers swallowed the offline error and reports "
     "the repo's generate.py missing; hf_weights_missing as a missing repo file (set 18's "
     "auto_map rule)"),
    (r"was moved to a `custom_generate` repo", "transformers 5 moved the decoding strategy to a "
     "Hub repo; the ValueError after it ends the run"),
    (r"Unknown quantization type", "an unknown quant_method in config.json: transformers skips "
     "quantization and loads the weights as they are"),
    (r"MXFP4 quantization requires the `kernels` package", "an MXFP4 config loaded onto the GPU "
     "without the kernels package: the load finishes"),
    (r"FP8 model on CPU", "a fine-grained FP8 config loaded where no GPU is visible: a warning, "
     "the load finishes"),
    (r"Flash attention requires q,k,v", "SDPA pinned to flash attention with head dim 512: the "
     "note naming why, before `No available kernel` (an earlier shape)"),
    (r"bytes of buffer for offloaded layers|whereas the model is on meta", "device_map='auto' "
     "with 1 MiB budgets: layers offloaded to disk; generate() ran"),
    (r"`eos_token_id` should consist of positive integers", "eos_token_id=-1: generate ran to "
     "max_new_tokens"),
    (r"Unfeasible length constraints", "min_new_tokens past max_new_tokens: generate stopped at "
     "the maximum"),
    (r"Dynamo detected a call to a `functools\.lru_cache`", "torch.compile(model.generate, "
     "fullgraph=True): a note before the Unsupported error"),
    (r"RNN module weights are not part", "a CUDA LSTM weight replaced after .cuda(); ran"),
    (r"ComplexHalf support is experimental", "torch.fft.rfft of a half tensor: the note before "
     "cuFFT's power-of-two error"),
    (r"flex_attention called without torch\.compile", "flex_attention run eagerly: the warning "
     "before the score_mod's binding error"),
    (r"^IndexError: tuple index out of range", "generate(bad_words_ids=[[]]): a bare IndexError "
     "from the bad-words processor"),
    (r"Invalid device string: 'balanced_low_1'", "device_map='balanced_low_1' (a typo of "
     "balanced_low_0), torch's check chained under transformers' ValueError"),
]

LINE_RULES21: list[tuple[str, str]] = [
    # the wrappers' own report lines name no cause: the exception they carry is on another line
    (r"^Exception in thread |^Task exception was never retrieved$|^Exception in initializer:$|"
     r"^Exception in callback |^ *\| ExceptionGroup: |^concurrent\.futures\.thread\.BrokenThreadPool: ",
     "python_crash"),
    # an exception the parent of a process pool could not rebuild (its class needs more than
    # the message): a TypeError of the unpickling, whatever the worker met
    (r"^TypeError: \w+\.__init__\(\) missing \d+ required", "python_crash"),
    # Python's unraisable report and asyncio's teardown / debug notes: the run goes on
    (r"^Exception ignored in: |^Task was destroyed but it is pending!$|^Executing <.* took ",
     "benign"),
]
# a case's own rules: the exception line under the unraisable report (the case's kind is benign;
# the line alone is a plain ValueError of a closed file)
CASE_RULES.update({
    "benign21_unraisable_del": [(r"^ValueError: (write to|I/O operation on) closed file", "drop")],
    # the public corpus has this line (public/heldout21.jsonl): a held-out line must be new
    "aio21_callback_type_error": [(r"^TypeError: float\(\) argument must be a string or a real "
                                   r"number, not 'dict'$", "drop")],
})

NOTES21: list[tuple[str, str]] = [
    (r"in DataLoader worker process", "the DataLoader's re-raise in the main process of what its "
     "worker met (the worker's traceback follows as text)"),
    (r"^Exception in thread ", "threading's report of an uncaught exception in a thread; the "
     "exception follows on later lines"),
    (r"^Task exception was never retrieved", "asyncio's report of a task whose exception nobody "
     "awaited, printed when the task is collected"),
    (r"^future: <Task finished ", "asyncio's second report line: the task and its exception's "
     "repr"),
    (r"^Exception in initializer:", "concurrent.futures' report of a pool initializer that "
     "raised"),
    (r"BrokenThreadPool", "a ThreadPoolExecutor whose initializer raised: every task fails with "
     "this"),
    (r"^Exception in callback ", "asyncio's report of a callback that raised; the loop goes on"),
    (r"^ *\| ExceptionGroup: ", "asyncio.TaskGroup's ExceptionGroup (Python 3.11 and later print "
     "the group's lines behind `| `)"),
    (r"^ *\| ", "a sub-exception of asyncio.TaskGroup's ExceptionGroup, printed behind `| `"),
    (r"^TypeError: \w+\.__init__\(\) missing", "a ProcessPoolExecutor's parent could not rebuild "
     "the exception its worker raised (the class needs a keyword argument): the worker's own "
     "error is lost"),
    (r"^\[\d{4}-\d\d-\d\d [\d:,]+\]\[", "the exception's message logged in Hydra's job log "
     "format"),
    (r'^\{"', "the exception logged as one JSON object a line"),
    (r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ", "the exception's message logged with a plain "
     "asctime format"),
    (r"^\[\d\d/\d\d/\d\d \d\d:\d\d:\d\d\] ", "the exception's message logged by rich's "
     "RichHandler (80 columns, no tty; it wraps the message)"),
    (r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \| ", "the exception's message logged by loguru's "
     "default format"),
    (r"^(OutOfMemoryError|SafetensorError|AcceleratorError): ", "rich's print_exception: the "
     "class without its module (a line past 80 columns wraps: no tty)"),
    (r"^(ERROR|WARNING|CRITICAL):[\w.]+:", "the exception's message logged in logging's "
     "default format (basicConfig())"),
    (r"^Exception ignored in: ", "Python's report of an exception in __del__; the run goes on"),
    (r"^Task was destroyed but it is pending", "asyncio at teardown: a task left pending when "
     "its loop closed"),
    (r"^Executing <", "asyncio debug mode: a step that blocked the loop longer than 0.1 s"),
]


LINE_RULES22: list[tuple[str, str]] = [
    # lines other corpus files already hold (public heldout10 / heldout31, the source set
    # ray_python / ray_torchdist_nccl): a held-out line must be new, so every case's copy is left out
    (r"^(ray\.exceptions\.GetTimeoutError: Get timed out: some object\(s\) not ready\.|"
     r"The actor is dead because it was killed by `ray\.kill`\.|"
     r"ConnectionError: Could not find any running Ray instance\. Please specify the one to "
     r"connect to by setting `--address` flag or `RAY_ADDRESS` environment variable\.|"
     r"ray\.exceptions\.RpcError: Timed out while waiting for GCS to become available\.|"
     r"ray\.exceptions\.RuntimeEnvSetupError: Failed to set up runtime environment\.|"
     r"ray\.exceptions\.WorkerCrashedError: The worker died unexpectedly while executing this "
     r"task\. Check python-core-worker-\*\.log files for more information\.)$", "drop"),
    # a ray.get that timed out: the line does not say what was awaited (the public ray_python
    # set's call), whatever the case waited for
    (r"GetTimeoutError: Get timed out", "python_crash"),
    # the autoscaler's tip printed before its infeasible-request error; Ray's notes on a token it
    # generated and on the spilling config's API; a task the raylet retries
    (r"\)\S* Tip: use `ray status`|authentication_token_setup\.py|from an unstable API|"
     r"retries remaining, so the task will be retried|:info_message: Attempting to recover \d+ lost "
     r"objects", "benign"),
    # the header of the object store's usage table (its rows follow as continuation lines)
    (r"WARNING worker\.py:\d+ -- Plasma Store Usage:$", "drop"),
    (r"No available node types can fulfill resource request", "pg_unplaceable"),
    (r"Errno 28|No space left on device|OutOfDiskError|Local disk is full", "disk_full"),
    (r"OutOfMemoryError: \d+ worker\(s\) were killed", "ray_oom_kill"),
    # the node itself (raylet killed, marked dead, GCS killed under a driver)
    (r"Raylet is terminated|has been marked dead|its node has died|GCS may have been killed|"
     r"ObjectLostError|ObjectReconstructionFailed", "ray_node_dead"),
    # ray.init pointed at no cluster (address='auto', an address or RAY_ADDRESS of a head that
    # is gone, a Ray Client address): the brief's ray_local_instance
    (r"Failed to connect to GCS at address|observability pubsub at address|"
     r"Failed to get cluster ID from GCS|Failed to connect to GCS\. Last|"
     r"Timed out while waiting for GCS|Failed to connect to Ray cluster at|"
     r"Could not find any running Ray instance|ray client connection timeout|"
     r"Ray Client connection timed out", "ray_local_instance"),
    (r"A worker died or was killed while executing a task|WorkerCrashedError|OwnerDiedError|"
     r"pid=\d+\)\S* (Fatal Python error|\*\*\* SIG\w+ received|\[.*logging\.cc:\d+: \*\*\* SIG)",
     "ray_worker_died"),
    (r"ActorDiedError|The actor (is dead|died) because|Exception raised in creation task|"
     r"ActorUnavailableError", "ray_actor_died"),
    # what the application's own code raised inside a task or actor, or could not serialize
    (r"^(\S*\(\w+ pid=\d+\)\S* )?(ValueError|RuntimeError|TypeError|RewardServiceError|"
     r"FileNotFoundError): |UnserializableException|Could not serialize|FAIL serialization|"
     r"RayTaskError\(|RuntimeEnvSetupError", "python_crash"),
]

NOTES22: list[tuple[str, str]] = [
    (r"authentication_token_setup", "Ray 2.60 at every ray.init: token authentication on by "
     "default"),
    (r"\(autoscaler \+\S+\)\S* Tip", "the autoscaler's tip before its first event line"),
    (r"Attempting to recover", "the driver's core worker after the node holding the object died; "
     "reconstruction then failed (ObjectReconstructionFailedError)"),
    (r"No available node types can fulfill", "the autoscaler's line for a request no node "
     "type has (printed once the request waited ~5-10 s)"),
    (r"GetTimeoutError", "ray.get(..., timeout=) expired; the line does not say what was awaited"),
    (r"A worker died or was killed", "the raylet's line, forwarded to the driver with its "
     "(raylet) prefix"),
    (r"retries remaining", "the raylet's note that it retries the task (the retry may succeed)"),
    (r"Raylet is terminated", "the raylet of a second node on this host SIGKILLed (forwarded "
     "with its log's tail as indented lines)"),
    (r"has been marked dead", "the GCS marking a node whose raylet was SIGKILLed dead (health "
     "check 500 ms x 3)"),
    (r"GCS may have been killed", "the head's gcs_server SIGKILLed under a driver "
     "(RAY_gcs_rpc_server_reconnect_timeout_s=8); the driver process exits"),
    (r"pid=\d+\)", "a worker's line forwarded to the driver behind its (Class pid=N) prefix, "
     "in Ray's ANSI colours"),
    (r"OutOfMemoryError: \d+ worker", "Ray's memory monitor (RAY_memory_usage_threshold set "
     "just above the node's use) killing the worker"),
    (r"OutOfDiskError", "spilling configured onto a full 256 KiB tmpfs, ray.put past the 80 MB "
     "object store"),
    (r"UnserializableException", "a task raising an application exception class whose "
     "__init__ takes two arguments: the driver cannot rebuild it"),
    (r"RuntimeEnvSetupError", "an actor's runtime_env names a conda env on a node without conda"),
    (r"working_dir|must be an existing directory", "ray.init(runtime_env={'working_dir': a "
     "missing path})"),
    (r"Failed to connect to GCS at address|observability pubsub|cluster ID|Failed to connect "
     r"to GCS\. Last|Failed to connect to Ray cluster", "ray.init(address=...) of a head that "
     "is not there (one connect attempt of 5 s)"),
    (r"Ray Client|ray client", "ray.init('ray://127.0.0.1:PORT') where nothing listens"),
]


LINE_RULES23: list[tuple[str, str]] = [
    # torch elastic's own report lines: a child failed (its exit code, its error file), whatever
    # the child met; DCP's CheckpointException wraps the ranks' errors (the cause is another line)
    (r"^\s+exitcode\s+: |no error file defined for parent|CheckpointException ranks:",
     "python_crash"),
    # torchrun's banner at the start of every multi-process launch
    (r"Setting OMP_NUM_THREADS environment variable", "benign"),
    # gloo: a peer that went away is the peer's failure; a gloo wait that expired is a timeout
    (r"Connection (closed|reset) by peer|Read error \[", "python_crash"),
    (r"Timed out waiting \d+ms for (send|recv) operation|connectFullMesh failed", "dist_timeout"),
    (r"No space left on device|Errno 28", "disk_full"),
]

# torch elastic's error-file line names a temp dir of random letters, so each @record case's copy is
# a new shape: the first case that prints it in name order (ckpt_enospc, a disk case) and the
# max-restarts case leave it to the plain raising case
CASE_RULES.update({n: [(r"no error file defined for parent", "drop")] for n in (
    "td23_torchrun_ckpt_enospc", "td23_torchrun_max_restarts_exhausted")})

NOTES23: list[tuple[str, str]] = [
    (r"^\s+exitcode\s+: -", "torch elastic's ChildFailedError table: a sibling the agent SIGTERMed "
     "after the root-cause rank failed"),
    (r"^\s+exitcode\s+: ", "torch elastic's ChildFailedError table: the root-cause rank's exit code"),
    (r"no error file defined for parent", "torch elastic after a child under @record failed: it "
     "copies the child's error file"),
    (r"failed \(exitcode: ", "torch elastic's agent line for the first worker that failed"),
    (r"closing signal SIGTERM", "torch elastic stopping the group's other workers after one failed"),
    (r"Setting OMP_NUM_THREADS", "torchrun's banner when OMP_NUM_THREADS is unset (a run that then "
     "succeeded)"),
    (r"Detected mismatch between collectives", "TORCH_DISTRIBUTED_DEBUG=DETAIL's fingerprint check "
     "(gloo, CPU)"),
    (r"wait timeout after \d+ms, keys: /0//cpu", "TORCH_GLOO_LAZY_INIT=1: the missing rank is found at "
     "the first all_reduce, as a store wait"),
    (r"keys: /default_pg/0//1//cpu", "new_group([0, 1], timeout=4 s) called on rank 0 only"),
    (r"failed to bind to|could not be initialized on any address|failed to listen", "a TCPStore "
     "master (use_libuv=False) on a port another store holds (EADDRINUSE)"),
    (r"grpo-headless\.invalid", "a tcp:// init_method whose host does not resolve"),
    (r"ProcessGroupNCCL is only supported with GPUs", "an NCCL process group on a node without a "
     "GPU"),
    (r"does not belong to the given group", "a collective on a subgroup by a rank outside it: it "
     "returns at once, the run goes on"),
    (r"find_unused_parameters=True was specified", "DDP's note that the unused-parameter search "
     "found none (the run goes on)"),
    (r"basic_ios::clear", "torch.save under torchrun onto a full 256 KiB tmpfs"),
    (r"CheckpointException ranks:", "DCP's wrapper of the ranks' errors (the cause is the line "
     "after it)"),
    (r": error: ", "argparse in each worker rejecting an argument the launcher passed (exit 2)"),
]


LINE_RULES24: list[tuple[str, str]] = [
    # lines other corpus files already hold verbatim (public dev / heldout2 / heldout23: pasted from
    # these releases): a held-out line must be new, so every case's copy is left out
    (r"^(huggingface_hub\.(utils\._)?errors\.LocalEntryNotFoundError: An error happened while trying "
     r"to locate the files? on the Hub and we cannot find the (requested files in the local cache|"
     r"appropriate snapshot folder for the specified revision on the local disk)\. Please check "
     r"your (internet )?connection and try again( or make sure your Internet connection is on)?\.|"
     r"safetensors_rust\.SafetensorError: Error while deserializing header: "
     r"(MetadataIncompleteBuffer|HeaderTooLarge))$", "drop"),
    # requests' own HTTPError under the hub's error: labelled by its status, as set 1's httpx lines
    # (a 404 cannot tell repo from file, so it is left out)
    (r"^requests\.exceptions\.HTTPError: 404 ", "drop"),
    (r"^requests\.exceptions\.HTTPError: 40[13] ", "hf_gated"),
    (r"^requests\.exceptions\.HTTPError: 416 ", "hf_incomplete_download"),
    (r"^requests\.exceptions\.HTTPError: (429|5\d\d) ", "hf_http_error"),
    # a refused socket with no URL on the line: any client's (the lines below it name the Hub path)
    (r"^ConnectionRefusedError: |^urllib3\.exceptions\.NewConnectionError: ", "drop"),
    # the hub's resume note: the read timed out mid-body and the download was restarted
    (r"(^|B/s\])Error while downloading from ", "benign"),
    # set 22's rule reads a bare ValueError / FileNotFoundError as the application's (Ray tasks);
    # safetensors' missing shard is the labelling decisions' hf_weights_missing
    (r'^FileNotFoundError: No such file or directory: ".*\.safetensors"$', "hf_weights_missing"),
]
# the same line as set 1's hub_entry404_config (config.json 404, swallowed by transformers), which
# set 22's bare-ValueError rule would read as python_crash: the case's kind, as set 1 labels it
CASE_RULES["old24b_entry404_config"] = [(r"^ValueError: Unrecognized model in ",
                                         "hf_weights_missing")]

NOTES24: list[tuple[str, str]] = [
    (r"MetadataIncompleteBuffer|HeaderTooLarge|InvalidHeaderLength", "safetensors < 0.5 names the "
     "header error by its Rust enum variant (0.8 writes 'incomplete metadata, file not fully "
     "covered' / 'header too large')"),
    (r"LocalEntryNotFoundError: An error happened", "huggingface_hub < 1.0 turns a failed HEAD "
     "(429 / 5xx / refused / a 401 without GatedRepo) into this cache-miss error"),
    (r"LocalEntryNotFoundError: Cannot find an appropriate cached snapshot", "snapshot_download "
     "under HF_HUB_OFFLINE=1 with an empty cache"),
    (r"OfflineModeIsEnabled", "HF_HUB_OFFLINE=1 with an empty cache"),
    (r"Consistency check failed", "the loopback Hub's HEAD announces twice the bytes its GET sends"),
    (r"IncompleteRead|ChunkedEncodingError", "a body cut short (Content-Length larger than the body): "
     "requests raises ChunkedEncodingError, which huggingface_hub < 1.0 does not resume"),
    (r"B/s\]Error while downloading from ", "huggingface_hub 0.20's resume warning glued to the "
     "tqdm bar it interrupted (a read that timed out mid-body; the restarted download succeeded)"),
    (r"^Error while downloading from ", "a read that timed out mid-body (HF_HUB_DOWNLOAD_TIMEOUT=3); "
     "the hub restarted the download and it succeeded"),
    (r"_register_pytree_node", "torch 2.4's deprecation note at every import of transformers 4.36"),
    (r"weights_only=False", "torch 2.4's note when transformers 4.36 loads pytorch_model.bin (the "
     "load succeeded: model.safetensors was not in the repo)"),
    (r"were not used when initializing", "a PPO checkpoint whose model file kept the value head "
     "(v_head.*) under AutoModelForCausalLM: it loads"),
    (r"newly initialized", "a causal-LM checkpoint under a sequence-classification head: it loads"),
    (r"is not a valid git identifier", "transformers 4.36's wrapper of RevisionNotFoundError"),
    (r"Unrecognized model in", "config.json 404 (EntryNotFound) swallowed by transformers 4.46; "
     "the line lists every model type"),
    (r"^ImportError:|protobuf", "transformers falling back to the slow tokenizer after tokenizers "
     "could not read tokenizer.json"),
    (r"untagged enum", "a tokenizer.json whose model type this tokenizers release does not know"),
    (r"^requests\.exceptions\.HTTPError: ", "requests' raise_for_status line, chained under the "
     "hub's error"),
]


LINE_RULES28: list[tuple[str, str]] = [
    # a line another corpus file holds verbatim (the source set ray_older): a held-out line must be new
    (r"^ray\.exceptions\.TaskPlacementGroupRemoved: The placement group corresponding to this task "
     r"has been removed\.$", "drop"),
    # warnings after which the run goes on: Ray's size notes on a working_dir file / package and on
    # a remote function's closure, its E-level note on an actor whose constructor arguments sit in the
    # object store, the blocking-ray.get-in-async-actor note, a worker's warning (deduplicated or
    # not), Ray Data's deprecated-argument note, Train's state-API note
    (r"packaging\.py:\d+ -- (File .* is very large|The runtime_env package for .* approaching the "
     r"maximum upload size)|Warning: The remote function .* is very large|"
     r"has constructor arguments in the object store and max_restarts > 0|"
     r"Using blocking ray\.get inside async actor|pid=\d+\)\S* \S+:\d+: \w*Warning: |"
     r"is deprecated in Ray \d|State API may be temporarily unavailable|\[FailurePolicy\] RETRY",
     "benign"),
    # the header line of Ray Data's stack-trace dump (the trace follows as continuation lines)
    (r"ERROR exceptions\.py:\d+ -- Full stack trace:$", "drop"),
    # a bare CancelledError / TimeoutError under a Ray error (its own or a worker's): the line does
    # not say what was awaited
    (r"^(\S*\([\w.]+ pid=\d+\)\S* )?(asyncio\.exceptions\.CancelledError|TimeoutError)$",
     "python_crash"),
    # a request no bundle / node combination can hold
    (r"cannot fit into any bundles for the placement group|STRICT_PACK|No available node types can "
     r"fulfill", "pg_unplaceable"),
    # waits: Train's worker group that did not start in time, the raylet's resource-deadlock warning
    (r"WorkerGroupStartupTimeoutError|worker group startup timed out|cannot be scheduled right now",
     "pg_timeout"),
    # a compiled graph's channel read and Train's collective (report barrier) that timed out
    (r"RayChannelTimeoutError|CollectiveTimeoutError|collective operation timed out|"
     r"timed out waiting for .*ranks|BroadcastCollectiveTimeoutError", "dist_timeout"),
    # address discovery that found more than one cluster on the host
    (r"Found multiple active Ray instances", "ray_local_instance"),
    # Train's and Data's wrappers name no cause (the worker's own line above them does)
    (r"WorkerGroupError: Training failed|ControllerError: Training failed|Training failed due to "
     r"(worker|controller) error|UserCodeException|ray\.data\.exceptions\.SystemException|"
     r"Exception occurred in (user code|Ray Data)", "python_crash"),
    (r"actors died during initialization", "ray_actor_died"),
    (r"its node has died|[Dd]rain|preempt", "ray_node_dead"),
]

NOTES28: list[tuple[str, str]] = [
    (r"Found multiple active Ray instances", "Train v2's PlacementGroupCleaner thread looking the "
     "cluster up by itself while another local cluster (the other job's case) ran on this host; the "
     "run went on"),
    (r"has constructor arguments in the object store", "E-level note at the creation of Train's / "
     "Data's own restartable actor; nothing failed from it"),
    (r"cannot be scheduled right now", "the raylet's resource-deadlock warning, read back from this "
     "session's raylet.out (Ray 2.60 does not forward it to the driver); the task ran once one of the "
     "two actors holding the CPUs was killed"),
    (r"RuntimeWarning: sandbox returned", "a warning six rollout tasks print; Ray's log "
     "deduplication folds the repeats into one line"),
    (r"RayChannelTimeoutError", "a compiled graph (ray.dag experimental_compile) whose actor step "
     "outlasted RAY_CGRAPH_get_timeout=3"),
    (r"BroadcastCollectiveTimeoutError", "Train v2's report barrier: rank 1 never called "
     "ray.train.report (RAY_TRAIN_COLLECTIVE_TIMEOUT_S=6)"),
    (r"worker group startup timed out|WorkerGroupStartupTimeoutError", "Train v2 asking 4 workers x "
     "1 CPU on a 2-CPU node (RAY_TRAIN_WORKER_GROUP_START_TIMEOUT_S=10)"),
    (r"Training failed due to", "Train v2's wrapper; the cause is on the line it wraps (a worker's "
     "or the controller's)"),
    (r"concurrency_group_manager", "the actor's core worker aborts (RAY_CHECK) on a call to a "
     "concurrency group the actor never defined; Ray calls it a bug in Ray"),
    (r"its owner has died", "engines created by a rollout-manager actor that then exited "
     "(os._exit)"),
    (r"placement group was removed", "the actor's placement group removed while its call ran"),
    (r"The actor was restarted", "ray.kill(no_restart=False) of a max_restarts=1 actor with a call "
     "in flight"),
    (r"Socket closed", "an actor whose method os._exits on every try (max_restarts=3, "
     "max_task_retries=2)"),
    (r"retries remaining", "the raylet's note that it retries the task"),
    (r"A worker died or was killed", "the raylet's line, forwarded with its (raylet) prefix"),
    (r"PendingCallsLimitExceeded", "max_pending_calls=2, eight calls submitted at once"),
    (r"ActorAlreadyExistsError", "a second actor created under the name a live actor holds"),
    (r"info_policy|collective group|TrainWorker\.sync", "ray.util.collective.allreduce in an actor that never joined "
     "the group"),
    (r"Failed to look up actor", "ray.get_actor of a name no actor holds"),
    (r"force=True is not supported", "ray.cancel(force=True) of an actor task"),
    (r"TaskCancelledError", "ray.cancel of a running task / async actor call"),
    (r"CancelledError$", "the cancelled await under a Ray error (a ray.cancel, or a timed-out wait "
     "inside Ray's own actor: ray.util.queue, Train's barrier)"),
    (r"(^|\s)TimeoutError$", "a bare TimeoutError under a Ray error (an async actor's "
     "asyncio.wait_for, Train's barrier wait)"),
    (r"OutOfDiskError", "spilling off, the spilling (= fallback) directory a full 256 KiB tmpfs: no "
     "ObjectStoreFullError, the fallback allocation fails"),
    (r"env_vars", "runtime_env env_vars holding an int"),
    (r"Package size|approaching the maximum upload size|rollouts\.bin", "a working_dir holding a "
     "24 MiB file under RAY_max_grpc_message_size=16 MiB"),
    (r"prompts\.jsonl is very large", "a working_dir holding a 12 MiB file; the upload and the task "
     "succeed"),
    (r"remote function .* is too large", "a task closure capturing a 120 MB buffer"),
    (r"remote function .* is very large", "a task closure capturing a 20 MB buffer; the task runs"),
    (r"SubprocessCalledProcessError", "runtime_env pip of a local wheel path that does not exist "
     "(pip runs in a fresh virtualenv first, ~60 s)"),
    (r"Errno 28|errno 28", "Train v2 reporting a checkpoint to storage on a full 256 KiB tmpfs "
     "(pyarrow's copy)"),
    (r"Cannot create directory '/proc", "Train v2 RunConfig(storage_path=) under /proc"),
    (r"TrainController\.__init__", "Train v2 RunConfig(storage_path=) under /proc: the controller actor dies "
     "in its constructor"),
    (r"add_adv|UserCodeException|Exception occurred in user code|KeyError", "Ray Data map_batches "
     "UDF raising KeyError on a missing column"),
    (r"RewardScorer|rm-7b|Ray Data or Ray Core internal|SystemException", "Ray Data actor-pool UDF "
     "(a class) whose constructor raises"),
    (r"is deprecated in Ray", "Ray Data's deprecated concurrency= argument"),
    (r"No available node types can fulfill", "Ray Data map_batches(num_cpus=4) on a 2-CPU cluster "
     "(the autoscaler's line; the driver gave up after 20 s)"),
    (r"cannot fit into any bundles", "an actor asking 2 CPUs in a placement group of 1-CPU bundles"),
    (r"bundle index 4 is invalid", "a placement group of two bundles: Ray's message says 0-2"),
    (r"ray\.util\.queue|QueueFull|Empty\)", "ray.util.queue: get(timeout=2) on an empty queue, "
     "put(block=False) on a full one"),
    (r"ConnectionResetError", "a streaming generator task raising after two yields"),
    (r"ZeroDivisionError", "a compiled graph whose actor step raises"),
    (r"Using blocking ray\.get", "an async actor method calling ray.get; the call returns"),
    (r"SandboxEnv|TimeoutError", "an async actor's asyncio.wait_for timing out"),
    (r"AgentLoop|tokenizer", "an async actor's constructor raising RuntimeError from a "
     "FileNotFoundError"),
    (r"reward is NaN", "Train v2: rank 1 of two workers raising at step 3"),
    (r"sandbox connection", "Train v2 with max_failures=1: the first attempt's worker raising; the "
     "restart finished"),
    (r"repeated \d+x across cluster", "Ray's log deduplication folding the same line from other "
     "workers or the controller"),
]


def lib_of28(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-eighth set's printers: Ray (its driver, raylet, autoscaler, Train v2, Data, and
    the worker lines it forwards)."""
    return _pick("ray", vers)


LINE_RULES25: list[tuple[str, str]] = [
]

NOTES25: list[tuple[str, str]] = [
]


LINE_RULES26: list[tuple[str, str]] = [
    # a transport error of httpx / httpcore / h11 with no URL on the line: the labelling decisions read a
    # bare httpx transport failure as the Hub's (huggingface_hub >= 1.0 fetches through httpx); here it is
    # litellm's fetch of the vLLM server, so the line alone cannot carry its kind: left out (as set 24 left
    # out a refused socket with no URL). openai 3's own transport, httpx2 / httpcore2, is not the Hub's
    (r"^(h11\._util|httpx|httpcore)\.\w+: ", "drop"),
    # INFO / WARNING lines of a request the client retries or reports with the exception on another line
    (r"^INFO:openai\._base_client:Retrying request |^INFO:httpx2?:HTTP Request: ", "benign"),
    (r"^LiteLLM\.Info: |^\d\d:\d\d:\d\d - LiteLLM:WARNING: .*model cost map", "benign"),
    (r"^WARNING:[\w.]+:Retrying \S+ in [\d.]+ seconds as it raised ", "benign"),  # tenacity's before_sleep
    (r"^Unclosed (client session|connector)$", "benign"),
    # litellm naming the vLLM server (provider hosted_vllm) whose connection is refused or closed mid-stream:
    # the engine's process is gone (after it served: not start-up)
    (r"Hosted_vllmException - (\[Errno 111\] Connection refused|Cannot connect to host |peer closed "
     r"connection without sending complete message body)", "engine_dead"),
    # Daytona: the organisation's disk quota (as heldout50 labels the same API message), a sandbox image
    # that cannot be pulled, a sandbox that waited out its runner queue, a spot sandbox preempted
    (r"Total disk limit exceeded", "disk_full"),
    (r"Failed to pull image ", "image_pull"),
    (r"DaytonaQueueTimeoutError: .*waiting for a runner", "pg_timeout"),
    (r"DaytonaSpotEvictedError: .*evicted by spot preemption", "evicted"),
]

NOTES26: list[tuple[str, str]] = [
    # the Daytona SDK's lines first (their messages share words with the vLLM server's)
    (r"^daytona_api_client\.exceptions\.", "the generated Daytona API client's exception, chained under the "
     "SDK's (its status, reason, headers and body follow as continuation lines)"),
    (r"Total disk limit", "the Daytona API refusing a sandbox: the organisation's disk quota (403)"),
    (r"Failed to pull image", "the sandbox's image cannot be pulled (state build_failed)"),
    (r"waiting for a runner", "the sandbox destroyed after its queue timeout (queueTimedOutAt set)"),
    (r"spot preemption", "a spot sandbox preempted while starting (spotEvictedAt set)"),
    (r"Daytona\w*Error: .*exceeded timeout", "the sandbox stayed 'starting' past create(timeout=3)"),
    (r"no runner available", "the sandbox entered state error (the API's reason)"),
    (r"Max retries exceeded with url: /api/", "nothing listens at the Daytona api_url"),
    (r"Daytona", "the Daytona SDK against a loopback API answering in the NestJS error shape "
     "({statusCode, message, error})"),
    # tenacity
    (r"as it raised ClientResponseError: 503", "tenacity's before_sleep_log: the retry then succeeded"),
    (r"Retrying .* as it raised", "tenacity's before_sleep_log between attempts"),
    (r"RetryError\[", "tenacity after stop_after_attempt(3)"),
    # the openai SDK, httpx2, litellm, aiohttp against the loopback vLLM server
    (r"INFO:openai\._base_client:Retrying request", "the openai SDK's own retry (max_retries=2) of a 5xx / "
     "429 / refused connection: logged at INFO"),
    (r"INFO:httpx2:HTTP Request: .*\" 50[03] ", "openai 3's transport (httpx2) logging the vLLM server's "
     "answer at INFO; the SDK retries it"),
    (r"INFO:httpx2:HTTP Request: ", "openai 3's transport (httpx2) logging the vLLM server's answer at INFO; "
     "the exception is the next line the client raises"),
    (r"^httpcore2\.|^httpx2\.", "openai 3.x's transport (httpx2 / httpcore2, not the Hub's httpx), chained "
     "under the SDK's error"),
    (r"MaskedHTTPStatusError", "litellm's httpx handler raising for the vLLM server's status (the URL is the "
     "engine's)"),
    (r"APIConnectionError: Connection error\.$", "the SDK's error for a refused connection (the vLLM "
     "server's process gone): the line names no engine"),
    (r"Error code: 500$|Hosted_vllmException -$|OpenAIError$", "vLLM's launcher answers EngineDeadError / "
     "EngineGenerateError with an empty 500 (vllm/entrypoints/launcher.py)"),
    (r"maximum context length", "vLLM's _validate_input message (vllm/entrypoints/openai/engine/serving.py), "
     "in its ErrorResponse body"),
    (r"does not exist", "vLLM's _check_model NotFoundError (a served-model-name the agent does not use)"),
    (r"Server is unavailable|Error code: 503|Service Unavailable", "vLLM's ScalingMiddleware 503 while the "
     "server drains (vllm/entrypoints/serve/middleware.py)"),
    (r"Internal server error$|Internal server error\"", "vLLM's GenerationError ('Internal server error', "
     "InternalServerError 500), as a status or as a streamed error chunk"),
    (r"waiting queue is full", "a 429 with vLLM's ErrorResponse shape (a rate-limiting proxy in front of "
     "the engine)"),
    (r"Unauthorized|Error code: 401", "vLLM started with --api-key: 401 {'error': 'Unauthorized'}"),
    (r"Unterminated string|Unable to get json", "a 200 whose JSON body is cut inside a tool call"),
    (r"502|text/html", "an nginx 502 page in front of the engine"),
    (r"peer closed connection|TransferEncodingError|payload is not completed", "the SSE stream cut mid-chunk "
     "(the server's socket shut down after four tokens)"),
    (r"timed out|Timeout passed|APITimeoutError", "the engine answers after 8 s; the client's timeout is 2 s"),
    (r"Hosted_vllmException - (\[Errno 111\]|Cannot connect)", "litellm (provider hosted_vllm) maps a refused "
     "connection to InternalServerError; the line names the vLLM server"),
    (r"Cannot connect to host|Connection refused|All connection attempts failed", "nothing listens on the "
     "engine's port (its process is gone)"),
    (r"model group '", "litellm's Router after its retries (num_retries=2) over one deployment whose engine "
     "is gone"),
    (r"LiteLLM\.Info:", "litellm's debug hint, printed before every exception it raises (also before a retry "
     "that then succeeded)"),
    (r"model cost map", "litellm on a node without internet: the cost map falls back to the bundled copy"),
    (r"Unclosed", "aiohttp's report for a ClientSession never closed (the run exited 0)"),
    (r"CancelledError$|^TimeoutError$", "asyncio.wait_for(asyncio.gather(16 rollouts), 2 s) against a slow "
     "engine"),
    (r"\| ", "an asyncio.TaskGroup of rollouts against a gone engine (ExceptionGroup lines)"),
]


def lib_of26(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-sixth set's printers: the openai SDK (its errors, and its INFO retry lines), httpx2 /
    httpcore2 (openai 3's transport: its exceptions and request log lines), litellm (its exceptions, log
    lines and the httpx / aiohttp errors under them), aiohttp, tenacity (RetryError, before_sleep_log's
    line), the Daytona SDK (its errors, the generated API client's and urllib3's under them), Python
    (json, asyncio, an ExceptionGroup's own line)."""
    body = re.sub(r"^ *\| ", "", line)
    if case.startswith("agent26_litellm") or case.startswith("benign26_litellm") or re.search(
            r"litellm|LiteLLM", line):
        return _pick("litellm", vers)
    if body.startswith(("httpx2", "httpcore2", "INFO:httpx2")):
        return _pick("httpx2", vers)
    if body.startswith(("openai.", "INFO:openai")):
        return _pick("openai", vers)
    if body.startswith("tenacity.") or " as it raised " in line:
        return _pick("tenacity", vers)
    if body.startswith(("daytona", "urllib3")):
        return _pick("daytona", vers)
    if body.startswith("aiohttp") or line.startswith("Unclosed "):
        return _pick("aiohttp", vers)
    return _pick("python", vers)


def lib_of25(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-fifth set's printers: transformers for its own lines, NCCL's own lines, torch
    (autograd, CUDA graphs, DTensor / FSDP2, c10d, torch.library, torch.func, the profiler) for
    the rest."""
    if re.search(r" NCCL (INFO|WARN) ", line):
        return _pick("nccl", vers)
    if line.startswith("[transformers]") or "site-packages/transformers/" in line:
        return _pick("transformers", vers)
    return _pick("torch", vers)


LINE_RULES27: list[tuple[str, str]] = [
    # lines a source-catalogue file (tests/fixtures/corpus/source: torch_compile_stack,
    # gpu_status_strings) already holds verbatim: a held-out line must be new
    (r"^torch\._inductor\.exc\.InductorError: CppCompileError: C\+\+ compile error$|"
     r"^torch\.AcceleratorError: CUDA error: CUDA driver version is insufficient for CUDA runtime "
     r"version$", "drop"),
    # torch's W-level notes and UserWarnings after which the run went on
    (r"^W\d{4} .*No CUDA runtime is found, using CUDA_HOME", "benign"),
    # libgomp's note on an OMP_NUM_THREADS it cannot parse (it uses its default and the run goes on)
    (r"^libgomp: Invalid value for environment variable", "benign"),
    # faulthandler's stack dump asked for by SIGUSR1 (the process goes on)
    (r"^(Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$", "benign"),
    # the DataLoader's note that a worker could not be pickled: the worker never started, the
    # epoch fails on the next line (the line says so: not a warning a run lives through)
    (r"Got pickle error when attempting to start a worker Process", "python_crash"),
]
# dynamo under suppress_errors=True logs the backend's whole traceback at W level, one line per frame
# line, and runs the step eagerly: the WON'T CONVERT line and the errors it names are kept (benign:
# the step ran), the frames and the banner are left out
CASE_RULES["benign27_compile_suppress_errors"] = [
    (r"^W\d{4} [\d:.]+ \d+ torch/_dynamo/convert_frame\.py:\d+\]"
     r"( \s| Traceback| due to| Set TORCHDYNAMO| ?$)",
     "drop"),
    # the backend's NotImplementedError is our own text (as compile_backend_error's RuntimeError)
    (r"\] NotImplementedError: aten::_fused_grpo_loss", "drop")]
# the meta-device note is printed once per tensor: the weight's copy is kept, the bias's left out
CASE_RULES["benign27_meta_load_no_assign"] = [(r"UserWarning: for bias: copying from a non-meta",
                                               "drop")]

NOTES27: list[tuple[str, str]] = [
    (r"killed by signal: Killed", "persistent_workers=True: a worker SIGKILLed between epochs "
     "(as the kernel's OOM killer does), found at the next epoch"),
    (r"exited unexpectedly", "the DataLoader's wrapper of its worker's death (the line above "
     "names the signal)"),
    (r"Seed must be between", "worker_init_fn seeding numpy past 2**32 - 1"),
    (r"Caught \w+ in DataLoader worker", "the DataLoader re-raising its worker's error"),
    (r"default_collate: batch must contain", "ragged lists stored as numpy object arrays"),
    (r"^KeyError: 'reward'", "default_collate over dicts, one sample without the key"),
    (r"num_samples should be a positive integer", "shuffle=True over an empty dataset"),
    (r"prefetch_factor option", "prefetch_factor with num_workers=0"),
    (r"multiprocessing_context option", "a misspelled start method"),
    (r"Got pickle error when attempting|cannot pickle '_thread\.lock'", "spawn workers and a "
     "dataset holding a threading.Lock"),
    (r"Read-only file system$", "/dev/shm mounted read-only: the DataLoader's queue lock (a POSIX "
     "semaphore) cannot be created"),
    (r"pin_memory' argument is set as true but no accelerator", "pin_memory=True on a CPU node "
     "(the epoch ran)"),
    (r"^FileNotFoundError: \[Errno 2\] No such file or directory$", "a tensor taken off a "
     "torch.multiprocessing queue after its producer exited (file_descriptor sharing)"),
    (r"start a new process before the$|terminated with exit code", "torch.multiprocessing.spawn at "
     "module level "
     "without a __main__ guard (the child fails while importing the main module)"),
    (r"InvalidBackend", "torch.compile with a misspelled backend"),
    (r"Unrecognized mode=|^KeyError: 'max_autotune'", "torch.compile with a misspelled mode"),
    (r"Unsupported: ", "dynamo refusing a graph break under fullgraph=True"),
    (r"Invalid log settings|^ValueError:$", "TORCH_LOGS with a misspelled component (the message "
     "starts on the line after `ValueError:`)"),
    (r"failed to map segment from shared object", "TORCHINDUCTOR_CACHE_DIR on a noexec tmpfs"),
    (r"CppCompileError|fatal error: ", "inductor's C++ build with the Python include dir dropped "
     "(an image without python3-dev)"),
    (r"No CUDA runtime is found", "torch.utils.cpp_extension's note on a CPU node (the compile "
     "went on)"),
    (r"WON'T CONVERT|BackendCompilerFailed|NotImplementedError: aten", "suppress_errors=True: dynamo "
     "logs the backend's failure and runs the step eagerly (exit 0)"),
    (r"not have been used in the graph", "autograd.grad w.r.t. a parameter outside the graph"),
    (r"view was created in no_grad mode", "a view taken under no_grad, modified in place later"),
    (r"can require gradients", "requires_grad_() on int64 token ids"),
    (r"Can't call numpy\(\) on Tensor that requires grad", "logging a tensor with .numpy()"),
    (r"cannot be converted to Scalar", ".item() on an unreduced loss"),
    (r"assign a gradient of size", "a .grad of another shape assigned"),
    (r"Anomaly Detection has been enabled", "detect_anomaly()'s start-up note"),
    (r"Error detected in ExpBackward0|modified by an inplace operation", "anomaly mode on, the ratio "
     "exp(logp - old) clamped in place before backward"),
    (r"must match the size of tensor b", "resume: AdamW state of a smaller model loaded into a "
     "bigger one (same group sizes), then step()"),
    (r"appear in more than one parameter group", "a parameter listed in two groups"),
    (r"missing 1 required positional argument: 'metrics'", "ReduceLROnPlateau.step() without a "
     "metric"),
    (r"Sequential Schedulers expects", "SequentialLR with one milestone too many"),
    (r"^KeyError: 'lr_lambdas'", "resume: a CosineAnnealingLR state loaded into a LambdaLR"),
    (r"lr as a Tensor is not supported", "a tensor lr with foreach=True"),
    (r"Expected state_dict to be dict-like", "load_state_dict given a list"),
    (r"in loading state_dict for PolicyHead|key\(s\) in state_dict", "load_state_dict given the "
     "whole training checkpoint ({'model', 'optimizer', 'step'})"),
    (r"WeightsUnpickler error: Unsupported global", "torch.load (weights_only=True by default) of a "
     "checkpoint that pickled a Python object"),
    (r"Weights only load failed", "torch.load (weights_only=True by default) of a checkpoint that "
     "pickled a Python object"),
    (r"Read-only file system: ", "torch.save (legacy format) into a read-only mount"),
    (r"interop threads", "set_num_interop_threads called twice"),
    (r"set_num_threads expects a positive integer", "set_num_threads(0)"),
    (r"^libgomp: ", "OMP_NUM_THREADS=auto: libgomp's note, torch ran with its default"),
    (r"most recent call first", "faulthandler's SIGUSR1 dump (the run went on)"),
    (r"Target \d+ is out of bounds", "cross_entropy with a label id past the vocab"),
    (r"index out of range in self", "an embedding lookup past the table"),
    (r"p_in >= 0 && p_in <= 1", "bernoulli with p > 1"),
    (r"attn_mask dtype", "scaled_dot_product_attention with an int64 mask"),
    (r"expected m1 and m2 to have the same dtype", "fp32 @ bf16"),
    (r"open file failed with strerror: No space left|\[Errno 28\]", "torch.save onto a tmpfs with "
     "free bytes but no free inodes (nr_inodes=3)"),
    (r"unable to allocate shared memory\(shm\)", "share_memory_() of a 4 MiB tensor on a 1 MiB "
     "/dev/shm"),
    (r"same number of dimensions as input tensor", "gather with an index missing its last dim"),
    (r"out of bounds for dimension", "gather with a token id past the vocab"),
    (r"masked_fill_ only supports boolean masks", "a float attention mask as masked_fill's mask"),
    (r"Sizes of tensors must match except in dimension", "torch.cat of unpadded responses"),
    (r"^KeyError: 'param_groups'", "resume: an optimizer state dict without param_groups"),
    (r"CUDA driver version is insufficient|cudaErrorInsufficientDriver", "torch.cuda.Stream() on a "
     "node without an NVIDIA driver (CUDA_VISIBLE_DEVICES='' as for every CPU case)"),
    (r"GradScaler is enabled, but CUDA is not available", "GradScaler('cuda') on a CPU-only node: "
     "disabled, the step ran"),
    (r"batch_sampler option is mutually exclusive", "a batch_sampler next to batch_size"),
    (r"IterableDataset: expected unspecified shuffle", "shuffle=True on an IterableDataset"),
    (r"num_workers option should be non-negative", "num_workers=-1"),
    (r"Data-dependent branching|generic_jump", "fullgraph=True over an `if tensor:` branch"),
    (r"Mismatch in shape: grad_output", "autograd.backward with grad_tensors of another shape"),
    (r"object is not iterable|params argument given to the optimizer", "the optimizer given the "
     "module instead of its parameters"),
    (r"Invalid beta parameter", "AdamW betas=(0.9, 1.2)"),
    (r"Can't pickle local object '.*<lambda>'", "torch.save of a config dict holding a lambda"),
    (r"not implemented for 'Long'", "log_softmax over int64"),
    (r"random_ expects 'from' to be less than 'to'", "randint(0, 0) over an empty pool"),
    (r"not a leaf Tensor is being accessed", "reading .grad of a non-leaf (the run went on)"),
    (r"to a meta parameter in the current model", "a meta-device model loaded without assign=True "
     "(the run went on with meta weights)"),
]


def lib_of27(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-seventh set's printers: torch for its own lines (DataLoader, dynamo / inductor,
    autograd, optim, serialization), Python (multiprocessing, an OS error of the interpreter's own
    I/O, faulthandler); libgomp (the copy torch's wheel ships) and the C++ compiler under inductor
    are recorded as torch's, as set 20 records the compiler's."""
    if re.search(r"^(FileNotFoundError|OSError: \[Errno 30\] Read-only file system$)|"
                 r"start a new process before the$|most recent call first", line):
        return _pick("python", vers)
    return _pick("torch", vers)


def lib_of24(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-fourth set's printers: huggingface_hub (its errors, and the requests / urllib3
    exceptions of its fetches, as set 1 reads httpx's), transformers, safetensors, tokenizers,
    torch's warnings, Python's json."""
    if "SafetensorError" in line or re.match(r'^FileNotFoundError: No such file or directory: "', line):
        return _pick("safetensors", vers)
    if "untagged enum" in line:
        return _pick("tokenizers", vers)
    if re.search(r"Warning: .*torch", line):
        return _pick("torch", vers)
    if re.search(r"huggingface_hub|^requests\.|^urllib3\.|Error while downloading|"
                 r"Consistency check failed", line):
        return _pick("huggingface_hub", vers)
    if line.startswith("json."):
        return _pick("python", vers)
    return _pick("transformers", vers)


def lib_of23(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-third set's printers: torch (c10d, gloo, torch elastic, DCP), Python's own
    lines (bash's signal line, an argparse exit)."""
    if line.startswith("bash: line "):
        return _pick("python", vers)
    return _pick("torch", vers)


def lib_of22(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-second set's printers: Ray (its driver, raylet, GCS, autoscaler, and the worker
    lines it forwards), Python's faulthandler for a worker's `Fatal Python error` line."""
    if "Fatal Python error" in line:
        return _pick("python", vers)
    return _pick("ray", vers)


# The sets built after the first capture, in order: (file, cases, the set's own line rules). A case's
# lines are read by its set's rules, then every earlier set's back to the third, newest first.
# The twenty-ninth set (datasets / pyarrow / chat templates / generate() / json, orjson, pandas on
# CPU), by the line alone; the case's kind otherwise.
LINE_RULES29: list[tuple[str, str]] = [
    # lines a source-catalogue file (tests/fixtures/corpus/source: config_tracking_stack,
    # hf_trainer_older) already holds verbatim: a held-out line must be new
    (r"^datasets\.exceptions\.DatasetGenerationError: An error occurred while generating the dataset$|"
     r"^\[transformers\] return_assistant_tokens_mask==True but chat template does not contain "
     r"`\{% generation %\}` keyword\.$", "drop"),
    # datasets' wrapper names no cause: the ENOSPC / cast error is the line above it
    (r"^datasets\.exceptions\.DatasetGenerationError: An error occurred while generating the dataset$",
     "python_crash"),
    # the dataset repo's Hub could not be reached (500 retried out): the hub's LocalEntryNotFoundError
    # quoted inside datasets' FileNotFoundError (the labelling decisions' hub-unreachable rule)
    (r"^FileNotFoundError: Couldn't find any data file at .* on the Hugging Face Hub either: "
     r"LocalEntryNotFoundError: An error happened while trying to locate", "hf_http_error"),
    (r"No space left on device", "disk_full"),
    # warnings and notes after which the run went on (exit 0)
    (r"^Setting num_proc from \d+ back to 1 |^num_proc must be <= \d+\. Reducing num_proc|"
     r"^\S+:\d+: (ChainedAssignmentError|RuntimeWarning|UserWarning): ", "benign"),
]
NOTES29: list[tuple[str, str]] = [
    (r"^datasets\.exceptions\.DatasetGenerationError: An error occurred",
     "datasets' wrapper over the builder's failure; the cause (ENOSPC, a cast) is the line above it"),
    (r"Couldn't find any data file at .* Hugging Face Hub either",
     "the Hub answered 500 to every retry; datasets reports a missing data file, quoting the hub's "
     "LocalEntryNotFoundError"),
    (r"^ConnectionError: Couldn't reach", "datasets' own ConnectionError (not requests'), Hub port refused"),
    (r"is a gated dataset on the Hub", "401 GatedRepo from the loopback Hub, worded by datasets"),
    (r"doesn't exist on the Hub or cannot be accessed", "404 RepoNotFound from the loopback Hub"),
    (r"No space left on device", "a tmpfs out of blocks or inodes under the case's own mount namespace"),
    (r"^ValueError: (Unmatched|Trailing data|Expected object or value)",
     "pandas' JSON reader (datasets' json builder falls back to pandas.read_json after pyarrow fails)"),
    (r"Expected to be able to read \d+ bytes for message body",
     "pyarrow reading a save_to_disk .arrow shard cut in half (a data file, not a checkpoint)"),
    (r"^jinja2\.exceptions\.TemplateError: ", "the template's own raise_exception()"),
    (r"^jinja2\.exceptions\.UndefinedError: ", "a chat template meeting a message shape it does not expect"),
    (r"^\[transformers\] return_assistant_tokens_mask",
     "exit 0: the assistant mask comes back all zeros and the run goes on"),
    (r"^\[transformers\] Passing `generation_config` together",
     "a deprecation note printed before the config's own check failed"),
    (r"`top_k` has to be a strictly positive integer, but is 50",
     "top_k given as the string \"50\" in generation_config.json; the message prints it unquoted"),
    (r"RuntimeWarning: overflow", "exit 0: an inf ratio in a logged metric, the step goes on"),
    (r"RuntimeWarning|UserWarning: (std|var)\(\)", "exit 0: NaN advantages / means / variances, the step goes on"),
    (r"ChainedAssignmentError", "pandas 3's warning class ends in Error; exit 0, the frame is unchanged"),
    (r"num_proc", "exit 0: datasets lowers num_proc and goes on"),
    (r"^orjson\.JSONDecodeError: ", "orjson's own wording (not the json module's)"),
    (r"^Exception: Truncation error: ", "tokenizers' Rust error surfaces as a bare Exception"),
]


def lib_of29(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-ninth set's printers: by the line's own words first, then by the case's family."""
    if line.startswith("pyarrow.") or "Expected to be able to read" in line or "Failed to open local file" in line:
        return _pick("pyarrow", vers)
    if line.startswith("jinja2."):
        return _pick("jinja2", vers)
    if line.startswith(("orjson.", "TypeError: Type is not JSON serializable", "TypeError: Dict key must be str")):
        return _pick("orjson", vers)
    if line.startswith(("pandas.", "ValueError: Unmatched", "ValueError: Trailing data",
                        "ValueError: Expected object or value")) or "ChainedAssignmentError" in line or (
            case.startswith("json29_pandas")):
        return _pick("pandas", vers)
    if line.startswith("Exception: Truncation error"):
        return _pick("tokenizers", vers)
    if " thrown while requesting " in line:
        return _pick("huggingface_hub", vers)
    if "RuntimeWarning" in line:
        return _pick("numpy", vers)
    if case.startswith("ds29_") or "num_proc" in line:
        return _pick("datasets", vers)
    if case.startswith(("chat29_", "tok29_")) or line.startswith("[transformers]"):
        if line.startswith("ValueError: expected sequence of length"):
            return _pick("torch", vers)
        return _pick("transformers", vers)
    if case.startswith("gen29_"):
        if line.startswith(("RuntimeError: ", "TypeError: unsupported operand")):
            return _pick("torch", vers)
        return _pick("transformers", vers)
    if case.startswith("benign29_torch") or "Object of type Tensor" in line:
        return _pick("torch" if case.startswith("benign29_torch") else "python", vers)
    return _pick("python", vers)


# The thirtieth set (huggingface_hub 2.4 / transformers 5.25 / datasets 5.2 downloads and the `hf` CLI
# against a loopback Hub), by the line alone; the case's kind otherwise.
LINE_RULES30: list[tuple[str, str]] = [
    # the tiny model we write for the loopback Hub: our own config, not the failure
    (r"^\[transformers\] Model config: (bos|eos)_token_id must be", "drop"),
    # the socket's bare timeout under httpx2.ReadTimeout: nothing in the line says what was read
    (r"^TimeoutError: timed out$", "drop"),
    # transformers' wrapper over a reset (tf30_reset_model) is the cut-short case's line with another
    # repo name: one shape, one label (the cut-short one's, hf_incomplete_download)
    (r"^OSError: Can't load the model for 'irisrl/flaky'\.", "drop"),
    # a body that ended before its Content-Length: the download was cut short
    (r"^(h11\._util|httpx2|httpcore2)\.RemoteProtocolError: peer closed connection without sending "
     r"complete message body", "hf_incomplete_download"),
    # httpx2's transport errors with no URL: the labelling decisions read a bare httpx transport failure
    # as the Hub's (huggingface_hub 2.x fetches through httpx2)
    (r"^(httpx2|httpcore2)\.(ReadError|ConnectError|ReadTimeout|ConnectTimeout|WriteError): ", "hf_http_error"),
    # a 404's status line: repo, revision or file cannot be told from it (set 1's rule for httpx's)
    (r"^httpx2\.HTTPStatusError: .*'404 ", "drop"),
    # the hub's free-space check warns once per folder it will write: the CLI's two (its local_dir's
    # .cache/huggingface/download and the local_dir itself) are one warning; the cache's is kept
    (r"UserWarning: Not enough free disk space .* /tmp/irisrl30_full/", "drop"),
    # the failed cut-short case's resume warning is the benign resumed download's line with another repo name
    (r"^Error while downloading from http://127\.0\.0\.1:\d+/irisrl/cut/", "drop"),
    # the CLI's retried 429 is the hf_hub_download one's line with the commit for the branch
    (r"^HTTP Error 429 thrown while requesting HEAD http://127\.0\.0\.1:\d+/irisrl/ratelimited/resolve/[0-9a-f]{40}/", "drop"),
    (r"No space left on device", "disk_full"),
    # makedirs' inner error on the way to ENOSPC (inodes exhausted): a lock folder not there
    (r"^FileNotFoundError: \[Errno 2\] No such file or directory: '[^']*/\.locks/", "python_crash"),
]
NOTES30: list[tuple[str, str]] = [
    (r"Error: Access denied\. ", "the `hf` CLI's own wording of a GatedRepoError (401 or 403 with X-Error-Code "
     "GatedRepo); ANSI colours as printed into a pipe"),
    (r"Error: Local entry not found\. \(Request ID", "the `hf` CLI over a 429 retried out: the status is only "
     "on the next line"),
    (r"Error: Local entry not found\. ", "the `hf` CLI's LocalEntryNotFoundError: its cause's text after it"),
    (r"Error: Client error '401", "the `hf` CLI over a 401 without GatedRepo (a revoked token)"),
    (r"Error: (Model|Dataset) '[^']*' not found", "the `hf` CLI's RepositoryNotFoundError (404 RepoNotFound)"),
    (r"Error: Revision not found", "the `hf` CLI's RevisionNotFoundError (404 RevisionNotFound)"),
    (r"Error: File not found", "the `hf` CLI's RemoteEntryNotFoundError (404 EntryNotFound); the URL is on the "
     "next line"),
    (r"IncompleteSnapshotError: .*could not be reached", "new in huggingface_hub 2.x: a cached snapshot missing a "
     "file, the Hub down (port refused)"),
    (r"IncompleteSnapshotError: .*Outgoing traffic is disabled", "new in huggingface_hub 2.x: a cached snapshot "
     "missing a file, local_files_only=True (the offline-mode rule)"),
    (r"^(h11\._util|httpx2|httpcore2)\.RemoteProtocolError", "the loopback Hub sent half the weights and "
     "closed; the hub's resume got the same"),
    (r"^(httpx2|httpcore2)\.ReadError", "the loopback Hub reset the connection half way through the weights "
     "(SO_LINGER 0); huggingface_hub 2.4 does not resume a ReadError"),
    (r"^(httpx2|httpcore2)\.ConnectError", "httpx2's connect error (the Hub port refused)"),
    (r"No space left on device: '", "a tmpfs out of inodes (nr_inodes) under the case's own mount namespace"),
    (r"\.locks/", "os.makedirs' first error, chained under the ENOSPC of the inode-exhausted tmpfs"),
    (r"Not enough free disk space", "a warning: the download went on and then hit ENOSPC on the tmpfs"),
    (r"^Error while downloading from ", "the hub's resume warning (its continuation reads 'Trying to resume "
     "download...')"),
    (r"HTTP Error \d+ thrown while requesting ", "the hub's backoff note; exit 0 cases: the retry succeeded"),
    (r"Can't load the model for ", "transformers' wrapper over the cut-short weights download"),
    (r"ignore_mismatched_sizes", "transformers 5's LOAD REPORT table above it; a state-dict mismatch "
     "(python_crash by the labelling decisions)"),
    (r"DatasetNotFoundError: Revision", "404 RevisionNotFound, worded by datasets"),
    (r"Couldn't find any data file at .* Hugging Face Hub either", "429 with Retry-After retried out; datasets "
     "quotes the hub's LocalEntryNotFoundError"),
    (r"HTTPStatusError: Client error '429", "429 with Retry-After: 1 on every answer; the backoff ran out"),
    (r"HTTPStatusError: Client error '40[13]", "httpx2's status line chained under the hub's GatedRepoError"),
    (r"HTTPStatusError: Client error '404", "httpx2's status line chained under the hub's 404 error"),
]


def lib_of30(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The thirtieth set's printers: by the line's own words first, then by the case's family."""
    if line.startswith("h11."):
        return _pick("h11", vers)
    if line.startswith(("httpx2.", "httpcore2.")):
        return _pick("huggingface_hub", vers)  # its client's transport errors, counted as its
    if line.startswith("safetensors") or "SafetensorError" in line:
        return _pick("safetensors", vers)
    if line.startswith(("datasets.", "[datasets")) or (case.startswith(("ds30_", "benign30_ds"))
                                                        and not line.startswith("huggingface_hub.")
                                                        and " thrown while requesting " not in line
                                                        and not line.startswith(("Retrying in", "Rate limited"))):
        return _pick("datasets", vers)
    if line.startswith("[transformers]") or (case.startswith(("tf30_", "benign30_503once_model", "disk30_model"))
                                             and line.startswith(("OSError: ", "ValueError: ", "EnvironmentError: "))):
        return _pick("transformers", vers)
    if line.startswith(("huggingface_hub.", "Retrying in", "Rate limited", "Error while downloading")) or (
            "huggingface_hub/file_download.py" in line) or (
            " thrown while requesting " in line) or line.startswith("\x1b"):
        return _pick("huggingface_hub", vers)
    return _pick("python", vers)


# The thirty-first set's labels, by the line alone (the storage mapping of source/hub_data_stack.md: a model /
# data / checkpoint object in a bucket takes the hf_* kind its message names).
LINE_RULES31: list[tuple[str, str]] = [
    # retry notes of a run that went on (botocore's standard mode, s3transfer, s3fs) and the AWS SDK for C++'s
    # own WARN / ERROR notes under pyarrow (missing profile files, the EC2 probe, a HEAD 404, a retry wait)
    (r"^DEBUG:(botocore\.retries|s3transfer\.download|s3fs):", "benign"),
    (r"^\[(WARN|ERROR)\] \d{4}-", "benign"),
    (r"^obstore\.exceptions\.GenericError: Generic S3 error: Error performing PUT http://169\.254\.169\.254/", "drop"),
    (r"^FileNotFoundError: The specified bucket does not exist$", "drop"),  # source/hub_data_stack holds it
    (r"^botocore\.exceptions\.NoCredentialsError: Unable to locate credentials$", "drop"),  # likewise
    (r"^boto3\.exceptions\.RetriesExceededError: Max Retries Exceeded$", "drop"),  # likewise
    (r"^botocore\.exceptions\.ClientError: An error occurred \(403\) when calling the HeadObject operation: Forbidden$",
     "drop"),  # likewise
    (r"^urllib3\.exceptions\.ProtocolError: \(\"Connection broken: ConnectionResetError\(104, 'Connection reset by peer'\)\", "
     r"ConnectionResetError\(104, 'Connection reset by peer'\)\)$", "drop"),  # source/python_runtime holds it
    (r"^aiohttp\.client_exceptions\.SocketTimeoutError: Timeout on reading data from socket$", "drop"),  # likewise
    (r"RetriesExceededError: Max Retries Exceeded", "hf_http_error"),
    (r"ResponseStreamingError|^urllib3\.exceptions\.ProtocolError: .*Connection broken|ClientPayloadError|"
     r"ContentLengthError|Transferred a partial file|IncompleteRead|FlexibleChecksumError", "hf_incomplete_download"),
    (r"^FileNotFoundError: (\[Errno 2\] Path does not exist '|Object at location |irisrl-stage/)", "hf_weights_missing"),
    (r"^(RecursionError|IsADirectoryError|NotADirectoryError): ", "python_crash"),
    (r"Unable to rename file: Is a directory", "python_crash"),
    (r"No space left on device|\[Errno 28\]", "disk_full"),
    (r"Error performing PUT .* 400 Bad Request", "hf_http_error"),
]
NOTES31: list[tuple[str, str]] = [
    (r"^DEBUG:botocore\.retries\.standard:Max attempts", "botocore's standard retry mode notes its last attempt even "
     "when that attempt succeeds (this case's download went on): a DEBUG note, benign"),
    (r"^DEBUG:", "a retry note at DEBUG (logging's default format); the call was retried and the run went on"),
    (r"HTTP response code: 404", "the AWS SDK for C++ logs every non-2xx at ERROR: here pyarrow's HEAD of a rendezvous "
     "key before it wrote the key (the run went on)"),
    (r"^\[(WARN|ERROR)\] ", "the AWS SDK for C++ (bundled in pyarrow) with S3LogLevel Warn / Error: a note it prints "
     "at every client set-up or retry; the read went on"),
    (r"NoSuchBucket", "the bucket does not exist -> hf_repo_not_found (storage mapping of source/hub_data_stack.md)"),
    (r"NoSuchKey|\(404\) when calling the HeadObject", "a key not in the bucket -> hf_weights_missing (storage mapping)"),
    (r"^FileNotFoundError: \[Errno 2\] Path does not exist", "pyarrow.fs's wording for a key (or, in the missing-bucket "
     "case, a whole bucket) that is not there: by the line alone a shard path that does not exist -> hf_weights_missing"),
    (r"^FileNotFoundError: Object at location", "obstore's NotFoundError (a FileNotFoundError); the S3 code (NoSuchKey / "
     "NoSuchBucket) is only in the XML on the following lines -> hf_weights_missing by the line alone"),
    (r"^FileNotFoundError: irisrl-stage/", "s3fs / fsspec map NoSuchKey / a 404 HEAD to FileNotFoundError(path) -> "
     "hf_weights_missing"),
    (r"AccessDenied|Access Denied|Forbidden|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken|has expired|"
     r"lacked the necessary privileges|ACCESS_DENIED", "the store refused the credentials -> hf_gated (storage mapping: "
     "AccessDenied / ExpiredToken / 403 / no credentials)"),
    (r"RequestTimeTooSkewed", "S3 refuses a request signed with a skewed clock (403): a credential refusal -> hf_gated"),
    (r"400 Bad Request", "obstore prints the status only; the S3 code (ExpiredToken) is in the XML on the next lines: "
     "by the line alone an HTTP error from the store -> hf_http_error"),
    (r"RetriesExceededError", "s3transfer gave up after its download retries (5 reset bodies) -> exhausted retries = "
     "hf_http_error, as source/hub_data_stack labels boto3's"),
    (r"ResponseStreamingError|ProtocolError|ClientPayloadError|ContentLengthError|partial file|IncompleteRead",
     "a body cut short (reset mid-body or Content-Length past the body) -> hf_incomplete_download"),
    (r"FlexibleChecksumError", "the response's CRC32 did not match the body -> hf_incomplete_download (source set's call)"),
    (r"RecursionError", "a 307 TemporaryRedirect to a dead endpoint: botocore's region redirector recursed until "
     "Python's limit; by the line alone a Python crash"),
    (r"IsADirectoryError|NotADirectoryError|Is a directory", "the local destination is a directory (or under a file): "
     "the download itself succeeded -> python_crash"),
    (r"No space left|os error 28", "the local disk filled while staging (256 KiB tmpfs) -> disk_full"),
    (r"No route to host", "TEST-NET-1 endpoint: the kernel answered no route at once (no connect timeout here); a "
     "connection failure while fetching from the store -> hf_http_error"),
    (r"SlowDown|reduce your request rate|Service Unavailable|ServiceUnavailable|unable to handle request|"
     r"InternalError|internal error|INTERNAL_FAILURE|HTTP status 503", "throttling / 5xx after the client's retries "
     "-> hf_http_error"),
    (r"Could not connect|NETWORK_CONNECTION|Failed to resolve|error sending request", "an endpoint refused or not "
     "resolvable -> hf_http_error"),
    (r"[Tt]imeout (was|on)|Read timeout|SocketTimeout|TimeoutError|timed out|Timed out|body error", "a read timeout against a stalled store -> hf_http_error"),
]


def lib_of31(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The thirty-first set's printers: by the line's own words first, then by the case's family."""
    if line.startswith("[") and re.match(r"^\[(WARN|ERROR|FATAL)\] ", line):
        return _pick("pyarrow", vers)  # the AWS SDK for C++ bundled in pyarrow's wheel
    if line.startswith(("obstore", "pyo3_runtime")) or case.startswith(("obs31_", "benign31_obstore")):
        return _pick("obstore", vers)
    if ":s3transfer" in line or line.startswith("s3transfer"):
        return _pick("s3transfer", vers)
    if ":s3fs:" in line or case.startswith(("s3fs31_", "fsspec31_", "disk31_s3fs", "benign31_s3fs")):
        if line.startswith(("aiohttp.", "aiobotocore.")):
            return _pick(line.split(".")[0], vers)
        if line.startswith("botocore."):
            return _pick("aiobotocore", vers)  # botocore's classes, raised through aiobotocore
        return _pick("fsspec" if case.startswith("fsspec31_") else "s3fs", vers)
    if line.startswith("boto3") or "S3UploadFailedError" in line:
        return _pick("boto3", vers)
    if line.startswith("urllib3."):
        return _pick("urllib3", vers)
    if case.startswith(("pafs31_", "benign31_pafs")):
        return _pick("pyarrow", vers)
    if line.startswith(("botocore", "DEBUG:botocore")) or case.startswith(("boto31_", "disk31_", "benign31_")):
        return _pick("botocore", vers)
    return _pick("python", vers)


LATER_SETS: list[tuple[str, dict[str, Case], list[tuple[str, str]]]] = [
    ("heldout2", CASES2, []), ("heldout3", CASES3, LINE_RULES3), ("heldout4", CASES4, LINE_RULES4),
    ("heldout5", CASES5, LINE_RULES5), ("heldout6", CASES6, LINE_RULES6), ("heldout7", CASES7, LINE_RULES7),
    ("heldout8", CASES8, LINE_RULES8), ("heldout9", CASES9, LINE_RULES9),
    ("heldout10", CASES10, LINE_RULES10), ("heldout11", CASES11, LINE_RULES11),
    ("heldout12", CASES12, LINE_RULES12), ("heldout13", CASES13, LINE_RULES13),
    ("heldout14", CASES14, LINE_RULES14), ("heldout15", CASES15, LINE_RULES15),
    ("heldout16", CASES16, LINE_RULES16), ("heldout17", CASES17, LINE_RULES17),
    ("heldout18", CASES18, LINE_RULES18), ("heldout19", CASES19, LINE_RULES19),
    ("heldout20", CASES20, LINE_RULES20), ("heldout21", CASES21, LINE_RULES21),
    ("heldout22", CASES22, LINE_RULES22), ("heldout23", CASES23, LINE_RULES23),
    ("heldout24", CASES24, LINE_RULES24), ("heldout25", CASES25, LINE_RULES25),
    ("heldout26", CASES26, LINE_RULES26),
    ("heldout28", CASES28, LINE_RULES28),
    ("heldout27", CASES27, LINE_RULES27),
    ("heldout29", CASES29, LINE_RULES29),
    ("heldout30", CASES30, LINE_RULES30),
    ("heldout31", CASES31, LINE_RULES31),
]
_RANK = {name: at for at, (name, _, _) in enumerate(LATER_SETS)}


def later_set(case: str) -> int | None:
    """The index in LATER_SETS of the set a case belongs to (None: the first capture)."""
    return next((i for i in reversed(range(len(LATER_SETS))) if case in LATER_SETS[i][1]), None)


def _set_rank(case: str) -> int:
    """The case's set's index in LATER_SETS, -1 for the first capture (its cases are built first)."""
    at = later_set(case)
    return -1 if at is None else at


def label_line(case: str, kind: str, line: str) -> str:
    at = later_set(case)
    rules3 = [rule for _, _, rules in reversed(LATER_SETS[:at + 1]) for rule in rules] if at is not None else []
    for pat, lab in CASE_RULES.get(case, []) + rules3 + LINE_RULES:
        if re.search(pat, line):
            return lab
    return kind


# The split of the first capture (cases of one kind, sorted by sha1 of their name, alternating
# dev / heldout), frozen: dev.jsonl was read by others as soon as it was committed, so a case
# added later must not move an earlier one. Later cases split by sha1 parity of their name.
DEV_V1 = frozenset([
    "benign_warnings", "cpp_terminate", "cuda_assert_gather", "cuda_assert_nll_loss",
    "cuda_illegal_address_triton", "cuda_misaligned_cupy", "cuda_oom_single",
    "disk_full_python_write", "disk_full_torch_save_big", "disk_full_torch_save_devfull",
    "dist_store_timeout", "gloo_collective_timeout", "hub_badtoken401_config",
    "hub_badtoken401_download", "hub_conn_refused_snapshot", "hub_dns_model",
    "hub_entry404_download", "hub_forbidden403_config", "hub_gated401_config",
    "hub_gated401_download", "hub_gated403_download", "hub_gated403_snapshot",
    "hub_missing401_download", "hub_missing401_snapshot", "hub_missing404_snapshot",
    "hub_noweights_model", "hub_revision404_download", "hub_revision404_model",
    "hub_status429_download", "hub_status429_snapshot", "hub_status500_snapshot",
    "hub_status502_config", "hub_status503_config", "hub_status503_download",
    "hub_status503_model", "nccl_duplicate_gpu", "nccl_ok_info", "nccl_watchdog_timeout",
    "py_uncaught_torch", "safetensors_header_too_large", "safetensors_header_too_small",
    "safetensors_invalid_header", "spawn_child_exception", "torch_load_truncated",
    "transformers_garbage_bin", "transformers_local_path_missing",
    "transformers_relative_path_missing",
])
HELDOUT_V1 = frozenset([
    "cuda_assert_embedding", "cuda_illegal_address_cupy", "cuda_misaligned_triton",
    "cuda_oom_fill", "disk_full_safetensors_save", "disk_full_save_pretrained",
    "disk_full_torch_save_tmpfs", "dist_store_connect_timeout", "hub_badtoken401_snapshot",
    "hub_bin_fallback_model", "hub_conn_refused_config", "hub_conn_refused_download",
    "hub_entry404_config", "hub_forbidden403_download", "hub_forbidden403_snapshot",
    "hub_gated401_snapshot", "hub_gated403_config", "hub_gated403_model",
    "hub_missing401_config", "hub_missing404_config", "hub_missing404_download",
    "hub_missing404_model", "hub_revision404_config", "hub_revision404_snapshot",
    "hub_status429_config", "hub_status500_config", "hub_status500_download",
    "hub_status502_download", "hub_status502_snapshot", "hub_status503_snapshot",
    "nccl_bad_ifname", "py_abort", "py_segfault", "safetensors_truncated", "torch_load_empty",
    "torch_load_garbage", "torch_load_zeroed_tail", "torchrun_rendezvous_timeout",
    "transformers_truncated_safetensors",
])


def split_of(case: str) -> str:
    """dev, heldout, or heldout2 ... heldout21 (the later sets), by case name (a case never
    straddles two files)."""
    if (at := later_set(case)) is not None:
        return LATER_SETS[at][0]
    if case in DEV_V1 or case in HELDOUT_V1:
        return "dev" if case in DEV_V1 else "heldout"
    return "dev" if int(hashlib.sha1(case.encode()).hexdigest(), 16) % 2 == 0 else "heldout"


def _pick(lib: str, vers: dict[str, str]) -> tuple[str, str]:
    """A library and the version the run recorded for it."""
    return lib, vers.get(lib, "")


def lib_of(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The library that printed `line` (by its content first, then by the case)."""
    if re.search(r" NCCL (INFO|WARN) ", line):
        return _pick("nccl", vers)
    if line.startswith("[transformers]") or (
            line.startswith(("OSError", "ValueError")) and case.startswith(("hub_", "transf"))):
        return _pick("transformers", vers)
    if re.search(r"huggingface_hub|^httpx|^httpcore|thrown while requesting|^Retrying in", line):
        return _pick("huggingface_hub", vers)
    if "SafetensorError" in line:
        return _pick("safetensors", vers)
    if line.startswith("cupy"):
        return _pick("cupy", vers)
    if case.startswith(("py_", "cpp_")) or line.startswith(
            ("Fatal Python", "terminate called", "bash: line")):
        return _pick("python", vers)
    return _pick("torch", vers)


def lib_of3(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of with the third set's printers (kept apart so earlier files rebuild unchanged)."""
    if re.search(r"^sqlite3\.|^MemoryError|^KeyError|^\w+Error: \[Errno 28\]", line):
        return "python", vers.get("python", "")
    if re.search(r"requested and \d+ written", line):
        return "numpy", vers.get("numpy", "")
    if re.search(r"^triton\.|Triton Error", line):
        return "triton", vers.get("triton", "")
    if case.startswith("transformers_") and not line.startswith("[transformers]"):
        return "transformers", vers.get("transformers", "")
    return lib_of(case, line, vers)


def lib_of4(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of3 with the fourth set's printers (torch re-raising a worker's error, transformers'
    tokenizer / adapter checks, safetensors' tied-weights check)."""
    if re.search(r"Caught \w+ in DataLoader worker", line):
        return "torch", vers.get("torch", "")
    if case in ("chat_template_missing", "tokenizer_no_pad_token", "adapter_config_missing"):
        return "transformers", vers.get("transformers", "")
    if case == "safetensors_shared_tensors":
        return "safetensors", vers.get("safetensors", "")
    return lib_of3(case, line, vers)


def lib_of5(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of4 with the fifth set's printers (transformers' wrappers of Hub errors, HfFileSystem,
    tokenizers' Rust writer, whose version the capture did not record)."""
    if "(os error 28)" in line:
        return "tokenizers", f"unrecorded (dependency of transformers {vers.get('transformers')})"
    if case.startswith("hub5_") and line.startswith(("OSError", "ValueError")):
        return "transformers", vers.get("transformers", "")
    if case.startswith("hub5_") and line.startswith(("FileNotFoundError", "Error while down")):
        return "huggingface_hub", vers.get("huggingface_hub", "")
    return lib_of4(case, line, vers)


def lib_of6(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of5 with the sixth set's printers (fsspec's line from HfFileSystem, numpy's allocator,
    a triton kernel's assert)."""
    if (case.startswith("hub6_") and line.startswith("FileNotFoundError")) or line.startswith(
            "Ignored error while writing "):
        return "huggingface_hub", vers.get("huggingface_hub", "")
    if line.startswith("numpy."):
        return "numpy", vers.get("numpy", "")
    if case.startswith("triton_"):
        return "triton", vers.get("triton", "")
    return lib_of5(case, line, vers)


def lib_of7(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of6 with the seventh set's printers (transformers' loaders and Trainer, Python's
    shutil / concurrent.futures, gloo inside torch)."""
    if line.startswith(("shutil.", "concurrent.", "json.")):
        return _pick("python", vers)
    if line.startswith("OSError: [Errno 28]") and case == "disk_full_genconfig_save":
        return _pick("python", vers)
    if line.startswith(("OSError", "ValueError")) and (case.startswith(
            ("hub7_", "trainer_", "genconfig_", "generation_", "cache_"))):
        return _pick("transformers", vers)
    return lib_of6(case, line, vers)


def lib_of8(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of7 with the eighth set's printers (accelerate's launcher and Accelerator)."""
    if case.startswith("hub8_") and line.startswith("OSError"):
        return "transformers", vers.get("transformers", "")
    if case.startswith(("accelerate_", "benign_accelerate")) and not line.startswith(
            ("torch.", "[rank", "[W", "[E", "E1", "W1")):
        return "accelerate", vers.get("accelerate", "")
    return lib_of7(case, line, vers)


def lib_of9(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of8 with the ninth set's printers (pyarrow, tokenizers' Rust allocator, safetensors'
    mmap under RLIMIT_AS, transformers' wrappers of the Hub's errors)."""
    if case.startswith(("pyarrow_", "disk_full_pyarrow")):
        return _pick("pyarrow", vers)
    if case == "tokenizers_rlimit_as" and line.startswith("memory allocation"):
        return _pick("tokenizers", vers)
    if case == "st_load_rlimit_as" and line.startswith("MemoryError"):
        return _pick("safetensors", vers)
    if case == "disk_full_triton_cache" and line.startswith("OSError"):
        return _pick("triton", vers)
    if case.startswith("hub9_") and line.startswith("OSError"):
        return _pick("transformers", vers)
    if case.startswith("hub9_") and line.startswith("FileNotFoundError"):
        return _pick("huggingface_hub", vers)
    return lib_of8(case, line, vers)


def lib_of10(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of9 with the tenth set's printers (safetensors' Python checks, transformers' loaders,
    the Hub's write paths)."""
    if case.startswith("st_") and not line.startswith(("torch.", "RuntimeError: CUDA")):
        return _pick("safetensors", vers)
    if case.startswith("hub10_") and line.startswith("OSError"):
        return _pick("transformers", vers)
    if case in ("quant_bnb_absent", "flash_attn2_absent", "remote_code_missing_package",
                "tokenizer_class_unknown", "transformers_use_safetensors_missing",
                "benign_tokenizer_too_long") and not line.startswith(("torch.", "huggingface_hub")):
        return _pick("transformers", vers)
    return lib_of9(case, line, vers)


def lib_of11(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of10 with the eleventh set's printers (cupy, NVML, triton, transformers' loaders)."""
    if case.startswith("cupy_") and line.startswith("cupy"):
        return _pick("cupy", vers)
    if case.startswith("hub11_"):  # huggingface_hub called directly, no transformers
        return _pick("huggingface_hub", vers)
    if line.startswith("pynvml."):  # nvidia-ml-py: the run did not record its version
        return "pynvml", "unrecorded (nvidia-ml-py on the device, beside torch 2.11.0+cu130)"
    return lib_of10(case, line, vers)


def lib_of12(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of11 with the twelfth set's printers (the Hub's API called directly, transformers'
    Trainer and loaders, safetensors' reader)."""
    if case.startswith("hub12_"):  # huggingface_hub called directly, no transformers
        return _pick("huggingface_hub", vers)
    if case.startswith(("trainer_", "st_index_")) and not line.startswith(
            ("torch.", "_pickle.", "[rank", "[W", "[E", "W1", "E1")):
        return _pick("transformers", vers)
    return lib_of11(case, line, vers)


def lib_of13(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of12 with the thirteenth set's printers (the Hub's API and loaders, transformers'
    generate and loaders)."""
    if case.startswith("hub13_") and line.startswith(("OSError", "ValueError")) and case.endswith(
            ("_tokenizer", "_model")):
        return _pick("transformers", vers)
    if case.startswith("hub13_"):
        return _pick("huggingface_hub", vers)
    if case in ("benign13_right_padding", "st13_json_key_not_string") and line.startswith(
            ("[transformers]", "OSError", "ValueError")):
        return _pick("transformers", vers)
    return lib_of12(case, line, vers)


def lib_of14(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of13 with the fourteenth set's printers (transformers' loaders and pipeline over the
    Hub, HfFileSystem, gloo inside torch, numpy's writer)."""
    if case.startswith("hub14_") and line.startswith(("OSError", "ValueError")):
        return _pick("transformers", vers)
    if case.startswith("hub14_"):
        return _pick("huggingface_hub", vers)
    if case == "benign14_vocab_resize":
        return _pick("transformers", vers)
    if case == "benign14_hf_transfer_env":
        return _pick("huggingface_hub", vers)
    if case == "disk14_savez_tmpfs":
        return _pick("numpy", vers)
    if case == "disk14_tempfile_tmpfs" or case == "ckpt14_missing_module":
        return _pick("python", vers)
    return lib_of13(case, line, vers)


def lib_of15(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of14 with the fifteenth set's printers (huggingface_hub called directly or under
    transformers' loaders, transformers' generate / tokenizer / loaders, torch's warnings)."""
    if line.startswith("[transformers]") or (case.startswith(("hub15_", "st15_", "gen15_"))
                                             and line.startswith(("OSError", "ValueError"))):
        return _pick("transformers", vers)
    if case.startswith("hub15_") or case == "disk15_hub_cache_tmpfs":
        return _pick("huggingface_hub", vers)
    if case == "chat15_roles_alternate":
        return _pick("transformers", vers)
    if line.startswith("json.") or line.startswith("FileNotFoundError"):
        return _pick("transformers", vers)  # the loader reading the index / opening the shard
    return _pick("torch", vers)


def lib_of16(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """lib_of15 with the sixteenth set's printers (transformers' and peft's loaders over the Hub,
    huggingface_hub called directly, safetensors' readers and writer, Python's shutil)."""
    if case.startswith("hub16_") and case.endswith("_peft_config") and line.startswith(
            ("OSError", "ValueError")):
        return "peft", "0.21.0"
    if line.startswith("[transformers]") or (case.startswith("hub16_") and line.startswith(
            ("OSError", "ValueError"))):
        return _pick("transformers", vers)
    if case.startswith(("hub16_", "benign16_hub_", "disk16_snapshot_cache_tmpfs")) or (
            case == "benign16_file_exists_false"):
        return _pick("huggingface_hub", vers)
    if case.startswith("st16_") or (case in ("disk16_save_model_tmpfs",
                                             "cuda16_safetensors_load_cuda7")
                                    and "Safetensor" in line):
        return _pick("safetensors", vers)
    if case == "disk16_shutil_copy_shard_tmpfs":
        return _pick("python", vers)
    return _pick("torch", vers)


def lib_of17(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The seventeenth set's printers: NCCL's WARN lines, huggingface_hub (and httpx under it)
    in the rank17_hub_* cases, safetensors' reader, triton's autotuner, Python's own lines and
    the shell's signal line; torch for the rest."""
    if re.search(r" NCCL (INFO|WARN) ", line):
        return _pick("nccl", vers)
    if case.startswith("rank17_hub_"):
        return _pick("huggingface_hub", vers)
    if "SafetensorError" in line:
        return _pick("safetensors", vers)
    if case.startswith("triton17_"):
        return _pick("triton", vers)
    if case.startswith("py17_") or line.startswith(("bash: line", "Fatal Python")):
        return _pick("python", vers)
    return _pick("torch", vers)


def lib_of18(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The eighteenth set's printers: tokenizers (its `Exception:` lines and fork note),
    transformers (loaders, chat templates, generate), jinja2 through transformers, peft,
    accelerate, safetensors, huggingface_hub, torch's DataLoader / load_state_dict, Python."""
    if line.startswith("[transformers]") or line.startswith("jinja2.") or "transformers/" in line:
        return _pick("transformers", vers)
    if line.startswith("huggingface/tokenizers") or (
            line.startswith("Exception: ") and case.startswith(("tok18_", "disk18_tokenizer"))):
        return _pick("tokenizers", vers)
    if line.startswith("safetensors") or "Safetensor" in line:
        return _pick("safetensors", vers)
    if line.startswith("huggingface_hub."):
        return _pick("huggingface_hub", vers)
    if case.startswith("peft18_") or case.startswith("benign18_peft") or "peft/" in line:
        if not line.startswith("RuntimeError: Error(s) in loading state_dict"):
            return "peft", "0.21.0"
    if case.startswith("accel18_load_state"):
        return _pick("accelerate", vers)
    if case == "disk18_efbig_python_write":
        return _pick("python", vers)
    if case.startswith(("tok18_", "chat18_", "cfg18_", "gen18_", "hub18_", "benign18_trunc",
                        "benign18_generate")):
        return _pick("transformers", vers)
    return _pick("torch", vers)


def lib_of19(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The nineteenth set's printers: NCCL's own lines, huggingface_hub (and httpx under it),
    safetensors, tokenizers, triton (and LLVM inside it), ld.so (glibc), Python's own lines
    (subprocess, multiprocessing, the shell's signal line as the earlier sets credit it); torch
    (elastic, spawn, DataLoader, cpp_extension, inductor, c10d, its bundled libgomp) for the rest."""
    if re.search(r" NCCL (INFO|WARN) ", line):
        return _pick("nccl", vers)
    if line.startswith("ERROR: ld.so"):
        return _pick("glibc", vers)
    if line.startswith("OpenBLAS"):  # numpy's bundled OpenBLAS
        return _pick("numpy", vers)
    if line.startswith(("bash: line", "Fatal Python", "subprocess.", "multiprocessing.",
                        "BrokenPipeError", "KeyboardInterrupt", "RuntimeError: can't start new "
                        "thread")) or line == "Terminated" or case.startswith(
                            ("sig19_subprocess", "sig19_pool", "sig19_stdout", "benign19_")):
        return _pick("python", vers)
    if re.search(r"huggingface_hub|^httpx|^httpcore|thrown while requesting|^Retrying in", line) or (
            "_hub_download" in case or case.startswith(("perm19_hf_", "erofs19_hf_"))):
        return _pick("huggingface_hub", vers)
    if "SafetensorError" in line or "safetensors" in case or case.endswith("safe_open"):
        return _pick("safetensors", vers)
    if "tokenizer" in case or "PanicException" in line:
        return _pick("tokenizers", vers)
    if "triton" in case and "CUDA" not in line:
        return _pick("triton", vers)
    return _pick("torch", vers)


def lib_of20(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twentieth set's printers: transformers (generate, loaders, quantizer checks),
    huggingface_hub under it, triton (its compiler and launcher checks), the C++ compiler /
    nvcc / ninja under torch.utils.cpp_extension (recorded as torch's), torch for the rest."""
    if line.startswith("[transformers]") or "site-packages/transformers/" in line:
        return _pick("transformers", vers)
    if line.startswith("huggingface_hub."):
        return _pick("huggingface_hub", vers)
    if case.startswith(("gen20_", "quant20_", "dmap20_", "attn20_unknown", "attn20_flash_attention",
                        "attn20_hub_kernel")) and not line.startswith(
                            ("torch.", "/", "RuntimeError")):  # torch's checks under generate
        return _pick("transformers", vers)
    if case.startswith("triton20_") or line.startswith("triton."):
        return _pick("triton", vers)
    return _pick("torch", vers)


def lib_of21(case: str, line: str, vers: dict[str, str]) -> tuple[str, str]:
    """The twenty-first set's printers: Python's own wrappers (threading, asyncio,
    concurrent.futures, logging and the unraisable report); for a line that carries a library's
    message (a log line, a re-raise, an ExceptionGroup's sub-exception) the library whose message
    it is: huggingface_hub, safetensors, transformers, torch (also for the DataLoader's re-raise,
    as lib_of4 credits it)."""
    if re.search(r"Caught \w+ in DataLoader worker", line):
        return _pick("torch", vers)
    if re.search(r"^Exception in (thread|initializer|callback)|^Task |^future: <Task |"
                 r"^concurrent\.|^Exception ignored|^Executing <|ExceptionGroup: |"
                 r"^TypeError: \w+\.__init__\(\) missing|Errno 28\]", line):
        return _pick("python", vers)
    if re.search(r"huggingface_hub|HfHub|httpx|GatedRepo|RepositoryNotFound|Client Error|"
                 r"Server error", line) or "_hub_" in case:
        return _pick("huggingface_hub", vers)
    if "Safetensor" in line or "safetensors" in line.lower() or "_st_" in case:
        return _pick("safetensors", vers)
    if "Error no file named" in line or "does not appear to have a file" in line or (
            "transformers" in line and "ImportError" in line):
        return _pick("transformers", vers)
    return _pick("torch", vers)


def load_raw(raw_dirs: list[Path]) -> dict[str, dict[str, Any]]:
    """Records by case; a later directory's record of a case replaces an earlier one's."""
    recs: dict[str, dict[str, Any]] = {}
    for d in raw_dirs:
        for line in (d if d.is_file() else d / "raw.jsonl").read_text().splitlines():
            rec = json.loads(line)
            recs[rec["case"]] = rec
    return dict(sorted(recs.items()))


def write_format_strings(raw: Path, dest: Path, extra: list[Path]) -> None:
    """The `strings` hits that read as messages (C++ symbol names left out), per library, then
    the `extra` sections verbatim (format strings grepped from a library's sources)."""
    out = [
        "# Format strings read from the libraries' binaries on the device machine (`strings`-like",
        "# scan by scripts/provoke_failures.py strings). These are printf/c10 format fragments,",
        "# NOT log lines: %s/%d are filled in at run time, C++ messages are concatenated.",
    ]
    for line in raw.read_text().splitlines():
        if line.startswith("#"):
            out.append(line)
        elif " " in line.strip() and not re.match(r"^\*?N?St|^_Z|^\*N", line):
            out.append(line)
    for path in extra:
        out += path.read_text().splitlines()
    dest.write_text("\n".join(out) + "\n")


# The printers and notes of the sets from the eighteenth on, by file (the older sets' come from their rank's flags in `build`).
LATER_PRINTERS: dict[str, tuple[Callable[[str, str, dict[str, str]], tuple[str, str]], list[tuple[str, str]]]] = {
    "heldout18": (lib_of18, NOTES18), "heldout19": (lib_of19, NOTES19), "heldout20": (lib_of20, NOTES20),
    "heldout21": (lib_of21, NOTES21), "heldout22": (lib_of22, NOTES22), "heldout23": (lib_of23, NOTES23),
    "heldout24": (lib_of24, NOTES24), "heldout25": (lib_of25, NOTES25), "heldout26": (lib_of26, NOTES26),
    "heldout28": (lib_of28, NOTES28),
    "heldout27": (lib_of27, NOTES27),
    "heldout29": (lib_of29, NOTES29),
    "heldout30": (lib_of30, NOTES30),
    "heldout31": (lib_of31, NOTES31),
}


def cmd_build(args: argparse.Namespace) -> int:
    dest = Path(args.dest)
    dest.mkdir(parents=True, exist_ok=True)
    recs = load_raw(list(args.raw))
    files: dict[str, list[dict[str, str]]] = {"dev": [], "heldout": [], **{name: [] for name, _, _ in LATER_SETS}}
    raws: dict[str, list[dict[str, Any]]] = {k: [] for k in files}
    seen: set[str] = set()
    seen_keys: set[str] = set()
    # the first set's cases first: a line of the second set that repeats one of theirs is the
    # one left out, so adding the second set never changes dev.jsonl / heldout.jsonl
    # (and the third set's after the second's)
    for case, rec in sorted(recs.items(), key=lambda kv: (_set_rank(kv[0]), kv[0])):
        if case not in CASES:
            continue
        split = split_of(case)
        raws[split].append(rec)
        rank = _set_rank(case)   # the line-selection rules of a set apply to it and every later one
        later = rank >= 1        # the third set on
        ninth = rank >= 7
        tenth = rank >= 8
        eleventh = rank >= 9
        twelfth = rank >= 10
        thirteenth = rank >= 11
        fourteenth = rank >= 12
        fifteenth = rank >= 13
        sixteenth = rank >= 14
        seventeenth = rank >= 15
        for line in select_lines(rec["output"], third=later, fourth=rank >= 2, sixth=rank >= 4,
                                 seventh=rank >= 5, eighth=rank >= 6, ninth=ninth,
                                 eleventh=eleventh, thirteenth=thirteenth, fifteenth=fifteenth,
                                 seventeenth=seventeenth, eighteenth=case in CASES18,
                                 nineteenth=case in CASES19, twentieth=case in CASES20,
                                 twentyfirst=case in CASES21, twentysecond=case in CASES22 or case in CASES28,
                                 twentythird=case in CASES23, twentyfourth=case in CASES24,
                                 twentysixth=case in CASES26, twentyeighth=case in CASES28,
                                 twentyseventh=case in CASES27, twentyninth=case in CASES29,
                                 thirtieth=case in CASES30, thirtyfirst=case in CASES31):
            printed = line
            if rank >= _RANK["heldout18"]:  # the corpus format: no trailing whitespace
                line = line.rstrip()  # in a line (torch's IterableDataset warning ends in a space)
            label = label_line(case, CASES[case][1], line)
            if label == "drop" or line in seen:
                continue
            if later and _dedup_key(line) in seen_keys:
                continue  # the later sets keep only shapes no earlier line has
            if rank >= _RANK["heldout19"] and case not in CASES20 and _dedup_key(printed) in seen_keys:
                continue  # an earlier shape that only the stripped trailing space made look new
            seen.add(line)
            seen_keys.add(_dedup_key(line))
            printers = LATER_PRINTERS.get(LATER_SETS[rank][0]) if rank >= 0 else None
            lib_fn = (printers[0] if printers is not None else lib_of17 if seventeenth else lib_of16 if sixteenth else lib_of15 if fifteenth else lib_of14 if fourteenth else lib_of13 if thirteenth else lib_of12 if twelfth else lib_of11 if eleventh else lib_of10 if tenth else lib_of9 if ninth else lib_of8 if case in CASES8 else lib_of7 if case in CASES7
                      else lib_of6 if case in CASES6
                      else lib_of5 if case in CASES5
                      else lib_of4 if case in CASES4 else lib_of3 if later else lib_of)
            lib, ver = lib_fn(case, line, rec["versions"])
            notes = printers[1] if printers is not None else NOTES17 if seventeenth else NOTES16 if sixteenth else NOTES15 if fifteenth else NOTES14 if fourteenth else NOTES13 if thirteenth else NOTES12 if twelfth else NOTES11 if eleventh else NOTES10 if tenth else NOTES9 if ninth else NOTES8 if case in CASES8 else NOTES7 if case in CASES7 else (
                NOTES6 if case in CASES6 else []) + (
                NOTES5 if case in CASES5 or case in CASES6 else []) + (
                NOTES4 if case in CASES4 or case in CASES5 or case in CASES6 else []) + (
                NOTES3 if later else []) + NOTES
            note = next((n for pat, n in notes if re.search(pat, line)), "")
            files[split].append({
                "kind": label, "line": line, "source": f"device:{case}", "lib": lib,
                "version": ver, "note": f"exit {rec['rc']}" + (f"; {note}" if note else ""),
            })
    if args.strings:
        write_format_strings(args.strings, dest / "format_strings.txt", args.strings_extra)
    for name, entries in files.items():
        if not raws[name]:  # no capture given for this file: leave it as it is
            continue
        with open(dest / f"{name}.jsonl", "w") as f:
            f.writelines(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        with open(dest / f"raw_{name}.jsonl", "w") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in raws[name])
        kinds: dict[str, int] = {}
        for e in entries:
            kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
        print(f"{name}: {len(entries)} entries from {len(raws[name])} cases {kinds}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    r.add_argument("--only", default="", help="comma-separated regexes of case names")
    r.add_argument("--jobs", type=int, default=8)
    s = sub.add_parser("strings")
    s.add_argument("--out", required=True)
    c = sub.add_parser("case")
    c.add_argument("name", choices=sorted(CASES))
    sub.add_parser("noop")
    ch = sub.add_parser("child")
    ch.add_argument("mode", choices=["raise", "sigkill", "sigterm", "sleep", "segv", "bus",
                                     "abort", "ok", "raise_single", "nccl_dup", "xcpu", "accel", "sigill"])
    b = sub.add_parser("build")
    b.add_argument("dest")
    b.add_argument("raw", nargs="+", type=Path,
                   help="run output folders or raw .jsonl files; later ones replace cases")
    b.add_argument("--strings", type=Path, help="format_strings_raw.txt from `strings`")
    b.add_argument("--strings-extra", type=Path, action="append", default=[],
                   help="a section of format strings from sources, appended verbatim")
    args = ap.parse_args(argv)
    if args.cmd == "noop":
        print("noop")
        return 0
    if args.cmd == "child":
        return child_main(args.mode)
    return {"run": cmd_run, "strings": cmd_strings, "case": cmd_case, "build": cmd_build}[
        args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
