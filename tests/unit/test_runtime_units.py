"""Unit tests of the runtime's own logic: identity parsing, store deadlines and atomic
writes, the clockless acceptance rule, argument parsing, staging and the --skyrl-ref checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irisrl.runtime.identity import IdentityError, identity_from_env
from irisrl.runtime.rendezvous import HeadRendezvous, HeadState, RendezvousError, WorkerRendezvous
from irisrl.runtime.skyrl_ref import SkyrlRefError, checkout
from irisrl.runtime.staging import StagingError, parse_train_data, prestage_model, stage_train_data
from irisrl.runtime.store import Store, StoreError, call_with_deadline

ENV = {"IRIS_TASK_ID": "/alice/job/3", "IRIS_NUM_TASKS": "4", "IRIS_ADVERTISE_HOST": "10.0.0.7"}


def test_identity_rank_from_last_segment() -> None:
    me = identity_from_env(ENV)
    assert (me.rank, me.num_tasks, me.host, me.attempt, me.is_head) == (3, 4, "10.0.0.7", 0, False)


def test_identity_strips_retry_suffix() -> None:
    me = identity_from_env({**ENV, "IRIS_TASK_ID": "/alice/job/0:2"})
    assert (me.rank, me.attempt, me.is_head) == (0, 2, True)


@pytest.mark.parametrize("change, needle", [
    ({"IRIS_TASK_ID": ""}, "missing IRIS_TASK_ID"),
    ({"IRIS_TASK_ID": "/alice/job/x"}, "does not end in a task index"),
    ({"IRIS_NUM_TASKS": "two"}, "IRIS_NUM_TASKS='two'"),
    ({"IRIS_TASK_ID": "/alice/job/4"}, "not below IRIS_NUM_TASKS=4"),
    ({"IRIS_ADVERTISE_HOST": ""}, "missing IRIS_ADVERTISE_HOST"),
])
def test_identity_malformed_names_the_variable(change: dict, needle: str) -> None:
    with pytest.raises(IdentityError, match=needle.replace("(", r"\(")):
        identity_from_env({**ENV, **change})


def test_call_with_deadline_names_what_stalled() -> None:
    start = time.monotonic()
    with pytest.raises(StoreError, match="read s3://b/k: no answer within 0.2 s"):
        call_with_deadline(lambda: time.sleep(5), 0.2, "read s3://b/k")
    assert time.monotonic() - start < 1


def test_file_store_roundtrip_counts_requests(tmp_path: Path) -> None:
    store = Store(f"file://{tmp_path}/rdv", 5)
    assert store.read("head.json") is None and store.list("hello") == []
    store.write("hello/1-abc", b"{}")
    store.write("head.json", b"v1")
    store.write("head.json", b"v2")
    assert store.read("head.json") == b"v2" and store.list("hello") == ["1-abc"]
    assert not [p for p in (tmp_path / "rdv").iterdir() if ".tmp-" in p.name]   # atomic renames only
    assert store.requests == 7


def test_worker_accepts_only_a_head_that_acknowledged_its_nonce(tmp_path: Path) -> None:
    store = Store(str(tmp_path), 5)
    stale = HeadRendezvous(store, 2, head_id="old")
    stale.acks = {"previous-attempt-nonce"}
    stale.publish("10.0.0.1:6379")                       # an earlier attempt's head file
    worker = WorkerRendezvous(store, 1, "h", poll_interval=0.01)
    worker.hello()
    with pytest.raises(RendezvousError, match="saw a head.json from an earlier attempt"):
        worker.wait_for_head(0.1)
    head = HeadRendezvous(store, 2)
    head.publish("10.0.0.2:6379")                         # lists the hello, acknowledges it
    state = worker.wait_for_head(1)
    assert (state.head_id, state.address) == (head.head_id, "10.0.0.2:6379")


def test_head_poll_acknowledges_late_workers_with_one_list(tmp_path: Path) -> None:
    store = Store(str(tmp_path), 5)
    head = HeadRendezvous(store, 3)
    head.publish("h:1")
    assert head.poll() is False
    WorkerRendezvous(store, 2, "h", nonce="late").hello()
    before = store.requests
    assert head.poll() is True and store.requests - before == 2      # LIST + PUT
    assert "late" in HeadState.parse(store.read("head.json")).acks


def test_park_detects_silent_head_by_local_clock(tmp_path: Path) -> None:
    store = Store(str(tmp_path), 5)
    head = HeadRendezvous(store, 2)
    worker = WorkerRendezvous(store, 1, "h", poll_interval=0.01)
    worker.hello()
    head.publish("h:1")
    with pytest.raises(RendezvousError, match="head stopped beating"):
        worker.park(head.head_id, head_timeout=0.2)
    head.finish("ok", 0)
    assert worker.park(head.head_id, head_timeout=5)["status"] == "ok"


def test_park_rejects_a_newer_head(tmp_path: Path) -> None:
    store = Store(str(tmp_path), 5)
    HeadRendezvous(store, 2, head_id="newer").publish("h:2")
    worker = WorkerRendezvous(store, 1, "h", poll_interval=0.01)
    with pytest.raises(RendezvousError, match="earlier attempt"):
        worker.park("mine", head_timeout=5)


def test_parse_train_data_accepts_json_list_or_single_string() -> None:
    assert parse_train_data('["a/b", "s3://x/y"]') == ["a/b", "s3://x/y"]
    assert parse_train_data("org/tasks") == ["org/tasks"]
    with pytest.raises(StagingError, match="JSON list of strings"):
        parse_train_data("[1, 2]")


def test_stage_local_and_file_uri_items_print_ladder_lines(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    src = tmp_path / "tasks"
    src.mkdir()
    (src / "t1.json").write_text("{}")
    landed = stage_train_data([str(src), f"file://{src}"], str(tmp_path / "stage"), 2, 4, 10)
    assert set(landed.values()) == {str(src)}
    out = capsys.readouterr().out
    assert f"[irisrl] Staging train_data on this node (rank 2/4): {src}" in out
    assert json.loads((tmp_path / "stage" / "manifest.json").read_text())[str(src)] == str(src)


def test_stage_leaves_unknown_names_to_the_trainer_and_says_so(tmp_path: Path, capsys) -> None:
    assert stage_train_data(["terminal-bench@2.0"], str(tmp_path), 0, 1, 5) == {}
    assert "train_data terminal-bench@2.0 -> not staged" in capsys.readouterr().out


def test_stage_missing_uri_source_fails_naming_item(tmp_path: Path) -> None:
    with pytest.raises(StagingError, match="could not stage train_data 'memory://nothing/here'"):
        stage_train_data(["memory://nothing/here"], str(tmp_path / "stage"), 0, 1, 5)


def test_prestage_model_retries_transient_failures_then_succeeds() -> None:
    calls = []

    def flaky(model: str) -> str:
        calls.append(model)
        if len(calls) < 3:
            raise OSError("does not appear to have a file named model.safetensors")
        return "/cache/snap"

    assert prestage_model("org/m", attempts=4, timeout=30, fetch=flaky, sleep=lambda s: None) == "/cache/snap"
    assert len(calls) == 3


def test_prestage_model_gives_up_after_bounded_attempts() -> None:
    def broken(model: str) -> str:
        raise OSError("HTTP 503")

    with pytest.raises(StagingError, match="in 2 attempts"):
        prestage_model("org/m", attempts=2, timeout=30, fetch=broken, sleep=lambda s: None)


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture()
def skyrl_clone(tmp_path: Path) -> tuple[Path, str]:
    origin = tmp_path / "origin"
    origin.mkdir()
    _git(origin, "init", "-q", "-b", "main")
    _git(origin, "config", "user.email", "t@t"), _git(origin, "config", "user.name", "t")
    (origin / "a.py").write_text("v = 1\n")
    _git(origin, "add", "a.py"), _git(origin, "commit", "-qm", "one")
    clone = tmp_path / "skyrl"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    (origin / "a.py").write_text("v = 2\n")
    _git(origin, "commit", "-qam", "two")                 # lands after the "image build"
    return clone, _git(origin, "rev-parse", "HEAD")


def test_skyrl_ref_checks_out_new_commit_and_purges_bytecode(skyrl_clone, capsys) -> None:
    clone, new_sha = skyrl_clone
    (clone / "__pycache__").mkdir()
    (clone / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"stale")
    assert checkout(str(clone), "main") == new_sha
    assert (clone / "a.py").read_text() == "v = 2\n" and not (clone / "__pycache__").exists()
    assert f"[irisrl] MarinSkyRL now at {new_sha}" in capsys.readouterr().out


def test_skyrl_ref_unknown_ref_fails_with_reason(skyrl_clone) -> None:
    clone, _ = skyrl_clone
    with pytest.raises(SkyrlRefError, match="no-such-branch"):
        checkout(str(clone), "no-such-branch")


def test_skyrl_ref_module_checks_out_then_runs_the_command(skyrl_clone, tmp_path: Path) -> None:
    """`python -m irisrl.runtime.skyrl_ref` (a one-node export's entrypoint): the command runs on the
    new checkout; a ref that names nothing stops it before the command runs (exit 1, the reason)."""
    clone, new_sha = skyrl_clone
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    seen = tmp_path / "seen.txt"
    cmd = [sys.executable, "-m", "irisrl.runtime.skyrl_ref", "--skyrl-ref", "main", "--skyrl-root", str(clone), "--",
           "sh", "-c", f"cat a.py > {seen}"]
    done = subprocess.run(cmd, cwd=clone, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert seen.read_text() == "v = 2\n" and new_sha in done.stdout
    seen.unlink()
    bad = subprocess.run([*cmd[:4], "no-such-branch", *cmd[5:]], cwd=clone, env=env, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 1 and "no-such-branch" in bad.stdout and not seen.exists()


def test_controller_requires_rendezvous_dir_for_multinode(monkeypatch, capsys) -> None:
    from irisrl.runtime.controller import run

    for k, v in {**ENV, "IRIS_TASK_ID": "/alice/job/0"}.items():
        monkeypatch.setenv(k, v)
    assert run(["--", "true"]) == 2
    assert "--rendezvous-dir is required when IRIS_NUM_TASKS=4" in capsys.readouterr().out


def test_runtime_imports_only_stdlib_ray_fsspec() -> None:
    """The runtime ships onto a stock image: no irisrl outside runtime/ and the shipped core
    modules, no rich/click/yaml."""
    allowed_third_party = {"ray", "fsspec", "huggingface_hub", "pyarrow"}  # pyarrow: task parquet, lazily
    root = Path(__file__).resolve().parents[2] / "src" / "irisrl" / "runtime"
    import ast
    import sys

    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                top = name.split(".")[0]
                if top == "irisrl":   # runtime/, or a core module shipped with it (backends/bundle.py)
                    assert name.startswith("irisrl.runtime") or name in ("irisrl.core.procs", "irisrl.core.deadline"), \
                        f"{path.name} imports {name}"
                else:
                    assert top in sys.stdlib_module_names or top in allowed_third_party or top == "__future__", \
                        f"{path.name} imports {name}"


def test_runtime_modules_import_no_heavy_library_at_top() -> None:
    import sys

    code = ("import sys, irisrl.runtime.controller, irisrl.runtime.rehearsal, irisrl.runtime.store; "
            "print(sorted(m for m in ('ray', 'fsspec', 's3fs', 'huggingface_hub') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_node_checks_pass_and_name_the_missing_data(tmp_path: Path, capsys) -> None:
    from irisrl.runtime.identity import Identity
    from irisrl.runtime.node_checks import NodeCheckError, run_node_checks

    me = Identity(rank=1, num_tasks=2, host="127.0.0.1", task_id="/t/j/1", attempt=0)
    data = tmp_path / "tasks"
    data.mkdir()
    (data / "t.json").write_text("{}")
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    run_node_checks(me, 4, True, {"org/tasks": str(data)}, str(model))
    assert "[irisrl] Node checks ok (rank 1/2): gpus 4 fake (local mode), train_data 1 present, model config ok" \
        in capsys.readouterr().out
    with pytest.raises(NodeCheckError, match="rank 1/2: train_data org/empty missing or empty"):
        run_node_checks(me, 4, True, {"org/empty": str(tmp_path / "nothing")}, None)


def test_waiting_worker_makes_one_request_per_poll(tmp_path: Path) -> None:
    store = Store(str(tmp_path), 5)
    now = [0.0]
    worker = WorkerRendezvous(store, 1, "h", poll_interval=1.0, clock=lambda: now[0],
                              sleep=lambda s: now.__setitem__(0, now[0] + s))
    worker.hello()
    with pytest.raises(RendezvousError):
        worker.wait_for_head(timeout=60)                  # no head for a simulated minute
    polls = store.requests - 1                            # minus the hello
    assert 55 <= polls <= 68                              # ~1 GET per (jittered) second, nothing more


# --check-model-config: config.json only, from a local dir, a fake HF cache, or a fake hub fetch

def _fake_hub_cache(root: Path, repo: str, revision: str = "abc123", with_ref: bool = True) -> Path:
    repo_dir = root / ("models--" + repo.replace("/", "--"))
    snap = repo_dir / "snapshots" / revision
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps({"model_type": "qwen2"}))
    if with_ref:
        (repo_dir / "refs").mkdir()
        (repo_dir / "refs" / "main").write_text(revision)
    return snap / "config.json"


def _no_fetch(repo: str) -> str:
    raise AssertionError(f"must not download {repo}")


def test_model_config_from_local_dir_and_missing_dir(tmp_path: Path) -> None:
    from irisrl.runtime.model_config import resolve_model_config

    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text('{"model_type": "llama"}')
    ok = resolve_model_config(str(tmp_path / "m"), local=False, fetch=_no_fetch)
    assert ok.ok and "local dir" in ok.detail and "llama" in ok.detail
    bad = resolve_model_config(str(tmp_path / "nope"), local=True, fetch=_no_fetch)
    assert not bad.ok and "no config.json" in bad.detail and str(tmp_path / "nope") in bad.detail


def test_model_config_found_in_each_hf_cache_layout(tmp_path: Path) -> None:
    from irisrl.runtime.model_config import resolve_model_config

    _fake_hub_cache(tmp_path / "hubcache", "Qwen/Qwen2.5-0.5B")
    _fake_hub_cache(tmp_path / "hfhome" / "hub", "org/other", with_ref=False)
    _fake_hub_cache(tmp_path / "xdg" / "huggingface" / "hub", "org/third")
    for env, repo in [({"HF_HUB_CACHE": str(tmp_path / "hubcache")}, "Qwen/Qwen2.5-0.5B"),
                      ({"HF_HOME": str(tmp_path / "hfhome")}, "org/other"),
                      ({"XDG_CACHE_HOME": str(tmp_path / "xdg")}, "org/third")]:
        got = resolve_model_config(repo, local=False, env=env, fetch=_no_fetch)
        assert got.ok and not got.skipped and "HF cache" in got.detail and "qwen2" in got.detail, (env, got)


def test_model_config_prefers_refs_main_snapshot(tmp_path: Path) -> None:
    from irisrl.runtime.model_config import cached_config

    want = _fake_hub_cache(tmp_path, "org/m", revision="zzz")
    other = tmp_path / "models--org--m" / "snapshots" / "aaa"
    other.mkdir()
    (other / "config.json").write_text("{}")
    assert cached_config("org/m", [str(tmp_path)]) == str(want)


def test_model_config_uncached_hf_id_is_skipped_offline_in_local_mode(tmp_path: Path) -> None:
    from irisrl.runtime.model_config import resolve_model_config

    got = resolve_model_config("Qwen/Qwen2.5-0.5B", local=True, env={"HF_HOME": str(tmp_path)}, fetch=_no_fetch)
    assert got.ok and got.skipped and "skipped (offline local mode)" in got.detail
    uri = resolve_model_config("s3://bucket/models/m", local=False, fetch=_no_fetch)
    assert uri.ok and uri.skipped and "is a URI" in uri.detail
    odd = resolve_model_config("not an id", local=False, fetch=_no_fetch)
    assert not odd.ok and "neither a local directory nor an HF repo id" in odd.detail


def test_model_config_fetched_off_local_mode_with_a_deadline(tmp_path: Path) -> None:
    from irisrl.runtime.model_config import resolve_model_config

    def fetch(repo: str) -> str:
        path = tmp_path / "got.json"
        path.write_text('{"model_type": "qwen3"}')
        return str(path)

    env = {"HF_HOME": str(tmp_path / "empty")}
    assert resolve_model_config("org/m", local=False, env=env, fetch=fetch).detail.endswith("(HF hub, model_type qwen3)")

    def gone(repo: str) -> str:
        raise RuntimeError("404 Repository Not Found")

    failed = resolve_model_config("org/m", local=False, env=env, fetch=gone)
    assert not failed.ok and "org/m" in failed.detail and "404" in failed.detail
    started = time.monotonic()
    stalled = resolve_model_config("org/m", local=False, timeout=0.3, env=env, fetch=lambda r: time.sleep(5) or "")
    assert not stalled.ok and "within 0.3 s" in stalled.detail and time.monotonic() - started < 2


def test_node_checks_name_rank_and_model_when_config_does_not_resolve(tmp_path: Path, capsys, monkeypatch) -> None:
    from irisrl.runtime.node_checks import NodeCheckError, run_node_checks

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    me = identity_from_env({**ENV, "IRIS_TASK_ID": "/a/job/1"})
    run_node_checks(me, 4, True, {}, None, "Qwen/Qwen2.5-0.5B")
    assert "skipped (offline local mode)" in capsys.readouterr().out
    with pytest.raises(NodeCheckError, match=r"rank 1/4: model .*missing: no config.json"):
        run_node_checks(me, 4, True, {}, None, str(tmp_path / "missing"))
    _fake_hub_cache(tmp_path / "hf" / "hub", "Qwen/Qwen2.5-0.5B")
    run_node_checks(me, 4, True, {}, None, "Qwen/Qwen2.5-0.5B")
    assert "model config ok (HF cache" in capsys.readouterr().out


def test_plan_passes_check_model_config_to_rehearsals_only(tmp_path: Path, monkeypatch) -> None:
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan

    configs = Path(__file__).resolve().parents[2] / "examples" / "configs"

    def argv(cfg: str, local: bool = False, **kw) -> tuple[str, ...]:
        opts = PlanInputs(rl_config=str(configs / cfg), train_data='["DCAgent/tasks"]',
                             workspace=str(configs.parent / "workspace"),
                             environ={"IRISRL_USER": "alice"}, **kw)
        plan, findings, _ = build_plan(opts, Target(local=local), dry_run=True)
        assert plan is not None, [f.to_dict() for f in findings if f.severity == "error"]
        return plan.runtime_argv

    local = argv("smoke_colocated.yaml", local=True)
    assert local[local.index("--check-model-config") + 1] == "Qwen/Qwen3-0.6B"
    rehearse = argv("dense8b_disagg.yaml", rehearse=True)
    assert rehearse[rehearse.index("--check-model-config") + 1] == "Qwen/Qwen3-8B"
    assert "--check-model-config" not in argv("dense8b_disagg.yaml")



def test_local_ray_ports_never_reuse_the_head_gcs_port(monkeypatch) -> None:
    """The head's GCS port is chosen first; no component or worker range may take it
    (Ray refuses to start: 'worker_ports is trying to use a port number ... used by other components')."""
    from irisrl.runtime import ports

    monkeypatch.setattr(ports, "port_is_free", lambda port, host="127.0.0.1": True)
    monkeypatch.setattr(ports, "HIGH", ports.LOW + 20 * ports.WORKER_RANGE)   # small: a clash would be likely
    gcs = ports.LOW + 10 * ports.WORKER_RANGE + 5
    for _ in range(200):
        chosen = ports.local_ray_ports(True, taken={gcs})
        low, high = chosen["min-worker-port"], chosen["max-worker-port"]
        singles = [v for k, v in chosen.items() if not k.endswith("worker-port")]
        assert gcs not in singles and not (low <= gcs <= high)
        assert not any(low <= p <= high for p in singles)


def test_shipped_runtime_lib_imports_alone_without_site_packages(tmp_path: Path) -> None:
    """What the bundle ships (.irisrl/lib) is enough: the runtime's modules import with no
    site-packages at all (python -S), and core/ comes from the shipped copy."""
    import shutil
    import sys

    from irisrl.backends.bundle import runtime_files

    for src, rel in runtime_files():
        dest = tmp_path / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    lib = str(tmp_path / ".irisrl" / "lib")
    code = (f"import sys; sys.path.insert(0, {lib!r}); import irisrl.runtime.controller, irisrl.runtime.store, "
            "irisrl.core.procs as p; print(p.__file__)")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env={})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(lib)
