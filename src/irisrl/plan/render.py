"""Render a LaunchPlan for people (rich text, aligned) and for machines (one JSON object).
Secret values never appear: env values of secret keys are masked, and any secret value that
shows up anywhere else in the output (an arg, a path) is scrubbed to *** as well."""

from __future__ import annotations

import io
import json
import shlex
from collections import Counter
from typing import Any, Iterable, Sequence

from irisrl.config.daytona import hygiene_intent
from irisrl.config.masking import MASK, MIN_SECRET_LEN, mask_text
from irisrl.config.placement import PlacementGroup
from irisrl.core.findings import Finding, sort_findings
from irisrl.plan.model import LaunchPlan
from irisrl.plan.request import IrisRequest, build_request

NOT_SUBMITTING = "not submitting (dry run)"
DEFAULT_WIDTH = 120


# ---------------------------------------------------------------- scrubbing


def secret_values(plan: LaunchPlan) -> list[str]:
    return [v for v in plan.secret_values() if len(v) >= MIN_SECRET_LEN]


def scrub(text: str, secrets: Iterable[str]) -> str:
    values = list(secrets)
    # ... and each value as it appears inside a JSON string
    return mask_text(text, values + [json.dumps(v)[1:-1] for v in values])


# ---------------------------------------------------------------- JSON


# The workspace bundle as the dry run shows it: (path inside the bundle, bytes) per file, and the
# cap on the zipped bundle (ops/submission.py lists it; plan/ never touches the backends).
Bundle = tuple[Sequence[tuple[str, int]], int]
BUNDLE_SHOWN = 12   # the largest files listed in text; --json lists every one


def render_json(plan: LaunchPlan, bundle: Bundle | None = None) -> str:
    """The plan, plus "request": exactly what submit sends (plan/request.py), and "bundle":
    what the workspace bundle will hold, with sizes."""
    data: dict[str, Any] = {**plan.to_dict(), "request": build_request(plan).to_dict()}
    if bundle is not None:
        files, cap = bundle
        data["bundle"] = {"files": [{"path": p, "bytes": n} for p, n in files],
                          "bytes": sum(n for _, n in files), "cap_bytes": cap}
    return scrub(json.dumps(data, indent=2), secret_values(plan))


def render_error_json(findings: Iterable[Finding], budget: dict[str, Any] | None) -> str:
    return json.dumps({"ok": False, "findings": [f.to_dict() for f in sort_findings(findings)],
                       "budget": budget}, indent=2)


# ---------------------------------------------------------------- text


def _console(width: int | None, out: io.StringIO) -> Any:
    from rich.console import Console

    return Console(file=out, width=width or DEFAULT_WIDTH, color_system=None, highlight=False,
                   emoji=False, markup=False, soft_wrap=True)


def render_text(plan: LaunchPlan, width: int | None = None, bundle: Bundle | None = None) -> str:
    """The dry-run rendering; "not submitting" is the last line. Plain lines are written
    as they are (long args and the command never wrap); rich only lays out the tables."""
    request = build_request(plan)   # the command and env shown are the ones submit sends
    out = io.StringIO()
    console = _console(width, out)
    lines = [f"irisrl launch plan: {plan.job_id}"]
    lines.append(_rich(console, out, _summary_table(plan)))
    lines += ["", f"Hydra arguments ({len(plan.hydra_args)})"]
    lines += [f"  {i:>3}  {arg}" for i, arg in enumerate(plan.hydra_args, 1)]
    lines += ["", f"Pod environment ({len(request.env)}; secrets {MASK})", _rich(console, out, _env_table(request))]
    lines += ["", "In-container command", f"  {shlex.join(request.argv)}"]
    lines += ["", f"Placement groups SkyRL will request ({len(plan.placement_groups)})",
              _rich(console, out, _placement_table(plan.placement_groups))]
    if bundle is not None:
        lines += ["", *_bundle_lines(bundle)]
    shown = [f for f in plan.findings if f.severity != "error"]
    if shown:
        lines += ["", f"Findings ({len(shown)})", render_findings_text(shown).rstrip("\n")]
    lines += ["", NOT_SUBMITTING]
    return scrub(_rstrip_lines("\n".join(lines)), secret_values(plan))


def _bundle_lines(bundle: Bundle) -> list[str]:
    """The workspace bundle: the total against the cap, the workspace's own files largest first,
    then irisrl's shipped runtime and the plan (.irisrl/) as one line."""
    from irisrl.runtime.contract import BUNDLE_DIR
    from irisrl.util.sizes import format_bytes

    files, cap = bundle
    ours = [f for f in files if f[0].startswith(BUNDLE_DIR + "/")]
    yours = sorted((f for f in files if f not in ours), key=lambda f: (-f[1], f[0]))
    lines = [f"Workspace bundle ({len(files)} files, {format_bytes(sum(n for _, n in files))} before zipping; "
             f"cap {format_bytes(cap)} zipped)"]
    lines += [f"  {format_bytes(n):>10}  {path}" for path, n in yours[:BUNDLE_SHOWN]]
    if len(yours) > BUNDLE_SHOWN:
        rest = yours[BUNDLE_SHOWN:]
        lines.append(f"  {format_bytes(sum(n for _, n in rest)):>10}  ... and {len(rest)} more (--json lists every file)")
    if ours:
        lines.append(f"  {format_bytes(sum(n for _, n in ours)):>10}  {BUNDLE_DIR}/ (irisrl's runtime and the plan: "
                     f"{len(ours)} files)")
    return lines


def _rich(console: Any, out: io.StringIO, renderable: Any) -> str:
    """One rich renderable as text (the console writes into `out`, which is drained)."""
    console.print(renderable)
    text = out.getvalue().rstrip("\n")
    out.seek(0)
    out.truncate()
    return text


def _rstrip_lines(text: str) -> str:
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def _table(*columns: str) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 2, 0, 2))
    for name in columns:
        table.add_column(name, overflow="fold")
    return table


def _train_data(plan: LaunchPlan) -> str:
    if not plan.train_data:
        return "- (from the config)"
    text = json.dumps(list(plan.train_data))
    argv = list(plan.runtime_argv)
    if "--task-root" in argv:  # HF task sets: extracted on every node, data.train_data points there
        text += f" (HF task sets extracted on every node under {argv[argv.index('--task-root') + 1]})"
    return text


def _summary_table(plan: LaunchPlan) -> Any:
    r = plan.resources
    gang = f", gang ({plan.coscheduling['group_by']})" if plan.coscheduling else ", single node"
    b = plan.budget
    rows = [
        ("job id", plan.job_id),
        ("cluster", f"{plan.cluster} ({plan.mode})"),
        ("image", plan.image),
        ("role", plan.role),
        ("topology", f"{plan.num_nodes} nodes x {plan.gpus_per_node} GPUs = {plan.total_gpus} GPUs{gang}"),
        ("budget", f"policy {b.get('policy_gpus')} + ref {b.get('ref_gpus')} + engines {b.get('engine_gpus')} "
                   f"= {b.get('total_gpus')} GPUs ({b.get('num_inference_engines')} engines)"),
        ("per node", f"cpu {r.cpu:g}, memory {r.memory}, disk {r.disk}, "
                     f"{r.device.type} {r.device.variant} x{r.device.count}"),
        ("priority", plan.priority),
        ("max retries", str(plan.max_retries)),
        ("rendezvous dir", plan.rendezvous_dir or "-"),
        ("skyrl ref", plan.skyrl_ref or "- (the image's baked commit)"),
        ("model", plan.model_path or "-"),
        ("train data", _train_data(plan)),
        ("trials dir", plan.trials_dir or "-"),
        ("series", plan.series or "-"),
        ("config", f"{plan.config_path} (sha256 {plan.config_sha256[:12]})"),
        ("hparams", plan.hparams_fingerprint[:16]),
        ("workspace", f"{plan.workspace} -> /app"),
        ("ports", ", ".join(plan.ports)),
    ]
    if plan.tags.get("resume_of"):   # ops/resume.py: what it continues, and what changed that it accepted
        note = plan.tags.get("resume_note")
        rows.append(("resume", f"{plan.tags['resume_of']} from step {plan.tags.get('resume_step')}"
                               + (f" ({note})" if note else "")))
    if plan.tags.get("sandbox") == "daytona":   # ops/daytona.py:before_launch, skipped on this dry run
        rows.append(("daytona", hygiene_intent(plan.mode == "local")))
    table = _table("field", "value")
    table.show_header = False
    for key, value in rows:
        table.add_row(key, value)
    return table


def _env_table(request: IrisRequest) -> Any:
    table = _table("name", "value")
    for key, value in request.to_dict()["env"].items():
        table.add_row(key, value)
    return table


def _bundle_text(bundles: Iterable[dict[str, float]]) -> str:
    counts = Counter(json.dumps(dict(b)) for b in bundles)
    parts = []
    for shape, n in counts.items():
        inner = ", ".join(f"{k}: {v:g}" for k, v in json.loads(shape).items())
        parts.append(f"{n} x {{{inner}}}")
    return " + ".join(parts) or "-"


def _placement_table(groups: Iterable[PlacementGroup]) -> Any:
    table = _table("name", "role", "bundles", "strategy")
    for pg in groups:
        table.add_row(pg.name, pg.role, _bundle_text(pg.bundles), pg.strategy)
    return table


def render_findings_text(findings: Iterable[Finding]) -> str:
    """One finding per line, grouped by severity: SEVERITY RULE path: message, then its fix."""
    lines = []
    for f in sort_findings(findings):
        lines.append(f"  {f.severity:<7} {f.rule:<26} {f.path}: {f.message}")
        lines.append(f"  {'':<7} {'':<26} fix: {f.fix}")
    return "".join(line + "\n" for line in lines)
