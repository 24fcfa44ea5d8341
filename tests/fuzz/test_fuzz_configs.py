"""Bad input never gives a traceback. Hypothesis mutates the example configs (wrong types at
any key, missing sections, negatives, zeros, huge numbers, odd unicode, lists where mappings
belong, null everywhere, broken YAML text) and runs the real CLI in-process: `validate` and
`launch --dry-run` must exit 0 or 1 with findings, `port` and `smoke-config` 0, 1 or 64;
never a traceback, never a rule that crashed (an INTERNAL finding), and --json output is
always exactly one JSON object."""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irisrl.cli.main import main

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = REPO / "examples" / "workspace"
EXAMPLES = {p.stem: yaml.safe_load(p.read_text()) for p in sorted((REPO / "examples" / "configs").glob("*.yaml"))}
JUPITER = {p.stem: yaml.safe_load(p.read_text()) for p in sorted((REPO / "examples" / "jupiter").glob("*.yaml"))}

# Keys the rules reason about: mutated (or created) on purpose, not only by chance.
HOT_PATHS: tuple[tuple[str, ...], ...] = tuple(tuple(p.split(".")) for p in (
    "trainer", "generator", "extra_env", "data", "terminal_bench", "config_groups", "container",
    "trainer.placement", "trainer.placement.colocate_all", "trainer.placement.colocate_policy_ref",
    "trainer.placement.policy_num_nodes", "trainer.placement.policy_num_gpus_per_node",
    "trainer.placement.ref_num_nodes", "trainer.placement.policy_strict_spread_pg",
    "trainer.strategy", "trainer.algorithm", "trainer.algorithm.use_kl_loss", "trainer.train_batch_size",
    "trainer.policy_mini_batch_size", "trainer.micro_train_batch_size_per_gpu", "trainer.enable_db_registration",
    "trainer.policy.model.path", "trainer.policy.fsdp_config.fsdp_size", "trainer.policy.megatron_config",
    "generator.num_inference_engines", "generator.inference_engine_tensor_parallel_size",
    "generator.inference_engine_pipeline_parallel_size", "generator.inference_engine_data_parallel_size",
    "generator.inference_engine_expert_parallel_size", "generator.inference_engine_decode_context_parallel_size",
    "generator.inference_engine_mp_backend", "generator.n_samples_per_prompt", "generator.engine_init_kwargs",
    "generator.engine_init_kwargs.custom_chat_template_chat_completion_path",
    "generator.engine_init_kwargs.enable_return_routed_experts", "generator.engine_init_kwargs.async_scheduling",
    "extra_env.LD_LIBRARY_PATH", "extra_env.NCCL_P2P_DISABLE", "extra_env.AWS_ACCESS_KEY_ID",
    "extra_env.VLLM_ALLOW_ROUTED_EXPERTS_DCP", "extra_env.SKYRL_W13_RELOAD_BRACKET", "data.train_data",
    "terminal_bench.trace_upload.enabled", "container.extra_env", "container.extra_env.LD_LIBRARY_PATH",
))

ODD_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
ODD_STRINGS = st.sampled_from([
    "", " ", "-1", "0", "8", "1e9", "true", "false", "null", "~", "yes", "NaN", "$CONDA_PREFIX/lib", "${HOME}/x",
    "/.singularity.d/libs", "s3://marin-na/x", "/Users/alice/t.jinja2", "../../etc/passwd", "ünïcødé ☃ 🚀",
    "\u202etxt.exe", "\t\n", "a" * 5000, "+x=1", "key=val", "{a: 1}", "[1, 2]", "chat_templates/missing.jinja2",
])
SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.sampled_from([0, -1, -8, 1, 2, 3, 4, 7, 8, 9, 16, 127, 128, 2**31, 2**63, 10**30, -(10**30)]),
    st.integers(), st.floats(allow_nan=True, allow_infinity=True), ODD_STRINGS, ODD_TEXT,
)
BAD_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(ODD_TEXT, inner, max_size=3)),
    max_leaves=6,
)
OVERRIDES = st.one_of(ODD_TEXT, st.sampled_from([
    "", "=", "a=", "=1", "++", "+trainer.max_steps=2", "~trainer.placement", "trainer.placement=[1",
    "generator.num_inference_engines=null", "trainer.placement.policy_num_nodes=-4", "x.y.z={a:[1,{b:2}]}",
    "++extra_env.AWS_SECRET_ACCESS_KEY=leak", "trainer=null", "generator=[]", "+a.b=${oc.env:HOME}",
    "trainer.max_steps='unterminated", "hydra/launcher=basic", "trainer.placement.colocate_all=maybe",
]))
OPS = st.sampled_from(["replace", "replace", "replace", "delete", "wrap_in_list", "null", "add_key"])


def value_paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from value_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from value_paths(value, prefix + (i,))


def mutate(doc: Any, path: tuple[Any, ...], op: str, value: Any) -> Any:
    """`doc` with one mutation at `path` (created along the way when missing)."""
    if not path:
        return value if op != "wrap_in_list" else [doc]
    parent = doc
    for key in path[:-1]:
        if isinstance(parent, dict):
            if not isinstance(parent.get(key), (dict, list)):
                parent[key] = {}
            parent = parent[key]
        elif isinstance(parent, list) and isinstance(key, int) and key < len(parent):
            parent = parent[key]
        else:
            return doc
    leaf = path[-1]
    if isinstance(parent, list):
        if not (isinstance(leaf, int) and leaf < len(parent)):
            return doc
        parent[leaf] = value if op != "delete" else None
        return doc
    if not isinstance(parent, dict):
        return doc
    if op == "delete":
        parent.pop(leaf, None)
    elif op == "null":
        parent[leaf] = None
    elif op == "wrap_in_list":
        parent[leaf] = [parent.get(leaf)]
    elif op == "add_key":
        target = parent.get(leaf)
        if isinstance(target, dict):
            target[f"zz_{len(target)}"] = value
        else:
            parent[leaf] = value
    else:
        parent[leaf] = value
    return doc


@st.composite
def mutated_configs(draw: Any, bases: dict[str, Any]) -> tuple[str, str]:
    """(base name, YAML text) of a base config with 1-4 mutations; now and then broken text."""
    name = draw(st.sampled_from(sorted(bases)))
    doc: Any = copy.deepcopy(bases[name])
    for _ in range(draw(st.integers(1, 4))):
        candidates = list(value_paths(doc)) if isinstance(doc, (dict, list)) else [()]
        path = draw(st.one_of(st.sampled_from(candidates), st.sampled_from(HOT_PATHS)))
        doc = mutate(doc, path, draw(OPS), draw(BAD_VALUES))
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    if draw(st.integers(0, 9)) == 0:  # break the YAML text itself
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["\t", ": :", "[", "{", "- ", "\x00", "&a *b", "!!python/object:os.system"])) + text[cut:]
    return name, text


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
            code: Any = 0
        except SystemExit as exc:
            code = exc.code
    return (code if isinstance(code, int) else 1 if code else 0), out.getvalue(), err.getvalue()


def assert_clean(argv: list[str], rc: int, out: str, err: str, allowed: set[int]) -> None:
    shown = f"argv={argv}\nrc={rc}\nstdout={out[-3000:]}\nstderr={err[-3000:]}"
    assert rc in allowed, shown
    assert "Traceback" not in out + err, shown
    assert '"rule": "INTERNAL"' not in out and "INTERNAL" not in err, shown


def json_object(out: str, argv: list[str]) -> dict[str, Any]:
    try:
        payload = json.loads(out)
    except json.JSONDecodeError as exc:  # pragma: no cover - the failure message is the point
        raise AssertionError(f"--json did not print one JSON object ({exc}); argv={argv}\n{out[-3000:]}") from None
    assert isinstance(payload, dict), argv
    return payload


def run_clean(cfg: Path, text: str, argv: list[str], allowed: set[int]) -> tuple[int, str]:
    """(exit code, stdout) of ARGV run in-process on TEXT (a mutated config) written to CFG;
    it must exit cleanly with a code in ALLOWED."""
    cfg.write_text(text, encoding="utf-8")
    rc, out, err = run_cli(argv)
    assert_clean(argv, rc, out, err, allowed)
    return rc, out


def json_verdict(out: str, argv: list[str], rc: int) -> dict[str, Any]:
    """The --json object of a check (validate, launch --dry-run): ok exactly when it exited 0."""
    payload = json_object(out, argv)
    assert payload["ok"] is (rc == 0), argv
    return payload


# IRISRL_FUZZ_EXAMPLES=5000 for a long hunt; the default keeps the whole file near 20 s.
FUZZ = settings(max_examples=int(os.environ.get("IRISRL_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(case=mutated_configs(EXAMPLES), as_json=st.booleans(), nodes=st.sampled_from([None, "1", "2", "4", "7"]),
       overrides=st.lists(OVERRIDES, max_size=2))
def test_fuzz_validate_exits_0_or_1_with_findings(scratch: Path, case: tuple[str, str], as_json: bool,
                                                  nodes: str | None, overrides: list[str]) -> None:
    cfg = scratch / "validate.yaml"
    argv = ["validate", str(cfg), "--workspace", str(WORKSPACE)]
    argv += (["--num-nodes", nodes] if nodes else []) + [a for o in overrides for a in ("--skyrl_override", o)]
    argv += ["--json"] if as_json else []
    rc, out = run_clean(cfg, case[1], argv, {0, 1})
    if as_json:
        payload = json_verdict(out, argv, rc)
        if rc == 1:
            assert any(f["severity"] == "error" for f in payload["findings"]), argv


@pytest.mark.skipif(importlib.util.find_spec("irisrl.cli.launch_cmd") is None, reason="launch not built yet")
@FUZZ
@given(case=mutated_configs(EXAMPLES), as_json=st.booleans(), nodes=st.sampled_from(["1", "2", "4", "7"]),
       extra=st.one_of(st.sampled_from([[], ["--local"], ["--train_data", '["DCAgent/x"]'],
                                        ["--model_path", "Qwen/Qwen3-8B"], ["--train_data", "not json"]]),
                       OVERRIDES.map(lambda o: ["--skyrl_override", o])))
def test_fuzz_launch_dry_run_exits_0_or_1_with_findings(scratch: Path, case: tuple[str, str], as_json: bool,
                                                        nodes: str, extra: list[str]) -> None:
    cfg = scratch / "launch.yaml"
    argv = ["launch", "--rl_config", str(cfg), "--workspace", str(WORKSPACE), "--num-nodes", nodes,
            "--job-name", "fuzz-run", "--dry-run", *extra] + (["--json"] if as_json else [])
    rc, out = run_clean(cfg, case[1], argv, {0, 1})
    if as_json:
        payload = json_verdict(out, argv, rc)
        if rc == 1:
            assert payload.get("findings"), argv


@FUZZ
@given(case=mutated_configs(JUPITER), as_json=st.booleans(), from_nodes=st.sampled_from([None, "14", "3", "1"]),
       from_gpus=st.sampled_from([None, "4", "8", "3"]))
def test_fuzz_port_exits_0_1_or_64(scratch: Path, case: tuple[str, str], as_json: bool, from_nodes: str | None,
                                   from_gpus: str | None) -> None:
    cfg, out_path = scratch / "jupiter.yaml", scratch / "ported.yaml"
    out_path.unlink(missing_ok=True)
    argv = ["port", str(cfg), "-o", str(out_path), "--workspace", str(WORKSPACE)]
    argv += (["--from-num-nodes", from_nodes] if from_nodes else []) + (["--from-gpus-per-node", from_gpus] if from_gpus else [])
    argv += ["--json"] if as_json else []
    rc, out = run_clean(cfg, case[1], argv, {0, 1, 64})
    if as_json and rc != 64:
        payload = json_object(out, argv)
        assert payload["written"] is out_path.exists(), argv
    if rc == 0:
        assert yaml.safe_load(out_path.read_text(encoding="utf-8")).get("container") is None


@FUZZ
@given(case=mutated_configs(EXAMPLES), nodes=st.sampled_from([None, "1", "2", "3"]),
       steps=st.sampled_from([None, "1", "2"]))
def test_fuzz_smoke_config_exits_0_1_or_64(scratch: Path, case: tuple[str, str], nodes: str | None,
                                           steps: str | None) -> None:
    cfg = scratch / "real.yaml"
    argv = ["smoke-config", str(cfg), "-o", str(scratch / "smoke.yaml"), "--workspace", str(WORKSPACE), "--json"]
    argv += (["--nodes", nodes] if nodes else []) + (["--max-steps", steps] if steps else [])
    rc, out = run_clean(cfg, case[1], argv, {0, 1, 64})
    if rc != 64:
        json_object(out, argv)


def test_fuzz_mutator_really_mutates() -> None:
    """Guard against a fuzzer that silently tests only the pristine examples."""
    doc = copy.deepcopy(EXAMPLES["dense8b_disagg"])
    doc = mutate(doc, ("trainer", "placement", "policy_num_nodes"), "replace", -3)
    doc = mutate(doc, ("generator",), "wrap_in_list", None)
    doc = mutate(doc, ("brand", "new", "key"), "replace", "☃")
    assert doc["trainer"]["placement"]["policy_num_nodes"] == -3
    assert isinstance(doc["generator"], list)
    assert doc["brand"]["new"]["key"] == "☃"
