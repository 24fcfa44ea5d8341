"""Per-step training progress from the metric lines. One row per step (a later line for the
same step adds to or replaces its values). Formats:

- MarinSkyRL's `WANDB_MIRROR kind=train step={n} metrics={json}`;
- a console `Step N: {...}` on one line;
- SkyRL's ConsoleLogger: `Step N: ` ending the loguru line, then `pprint.pformat` of the
  metrics with every float as a 4-decimal string on the following lines
  (NovaSky-AI/SkyRL skyrl-train/skyrl_train/utils/tracking.py@08bbcca7);
- upstream SkyRL's `logger.info(status)` after each step: the policy's train status dict,
  no step number, keys without the `policy/` prefix the tracker adds
  (skyrl-train/skyrl_train/trainer.py@00d10c03, train() and train_critic_and_policy()).
  These rows are numbered in order from the resumed step, and only used when no line of
  the run carries a step number."""

from __future__ import annotations

import ast
import gzip
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from irisrl.observe import patterns as P
from irisrl.observe.analyzer import MAX_PARTIAL, TruncatedLog, hit_spans, is_gzip, read_chunks

NEEDLES = (b"WANDB_MIRROR", b"Step ", b"_loss': ", b"Resumed training from global_step", b"Resuming from global_step")
MAX_DICT_LINES = 400          # a ConsoleLogger dict longer than this is cut
STATUS_DICT = re.compile(r"(?:^| - )(\{'.*\})\s*$")

# column -> metric keys, first present wins. The four mandatory curves come first.
COLUMNS: dict[str, tuple[str, ...]] = {
    "reward": ("reward/avg_raw_reward", "reward/mean_raw_reward"),
    "entropy": ("policy/policy_entropy", "policy/entropy"),
    "log_ratio": ("policy/log_ratio_abs_mean", "policy/log_ratio_mean", "policy/log_ratio"),
    "grad_norm": ("policy/raw_grad_norm", "policy/grad_norm"),
    "policy_loss": ("policy/policy_loss", "policy/final_loss"),
    "response_len": ("generate/avg_num_tokens", "generate/avg_response_length"),
    "step_time": ("timing/step", "timing/step_time"),
}
MANDATORY = ("reward", "entropy", "log_ratio", "grad_norm")
PASS_AT = re.compile(r"^reward/avg_pass_at_(\d+)$")
NUMPY_SCALAR = re.compile(r"\b(?:np|numpy)\.\w+\(([^()]*)\)")


def parse_metrics(blob: str) -> dict[str, Any] | None:
    """JSON, or a Python dict repr (numpy scalars, nan, inf allowed); None if neither."""
    try:
        data = json.loads(blob)
    except ValueError:
        text = NUMPY_SCALAR.sub(r"\1", blob)
        text = re.sub(r"\b(nan|NaN)\b", "None", text)
        text = re.sub(r"(?<![\w.])(-?)inf\b", r"\g<1>1e999", text)
        try:
            data = ast.literal_eval(text)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None   # (TypeError: a literal that cannot be built, `{{'': 0}}` a set of dicts)
    return data if isinstance(data, dict) else None


def _number(value: Any) -> float | None:
    """A metric value: a number, or a numeric string (SkyRL's ConsoleLogger prints floats as
    strings); NaN and anything else is no value."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return None if math.isnan(value) else float(value)


@dataclass
class StepRow:
    step: int
    values: dict[str, float | None] = field(default_factory=dict)
    pass_n: int | None = None

    def merge(self, metrics: dict[str, Any]) -> None:
        for column, keys in COLUMNS.items():
            for key in keys:
                if key in metrics and (v := _number(metrics[key])) is not None:
                    self.values[column] = v
                    break
        for key, value in metrics.items():
            m = PASS_AT.match(str(key))
            if m and (v := _number(value)) is not None:
                self.pass_n, self.values["pass_at_n"] = int(m.group(1)), v
                break

    def to_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {"step": self.step}
        for column in ("reward", "pass_at_n", *list(COLUMNS)[1:]):
            row[column] = self.values.get(column)
        row["pass_n"] = self.pass_n
        return row


class ProgressCollector:
    """Feed log bytes per source; `rows()` gives the steps in order."""

    def __init__(self) -> None:
        self.steps: dict[int, StepRow] = {}
        self.unnumbered: list[dict[str, Any]] = []    # upstream status dicts, in order
        self.start_step = 0
        self._rem: dict[str, bytes] = {}
        self._open: dict[str, tuple[int, str | None, list[str]]] = {}   # source -> ConsoleLogger dict being read

    def feed(self, source: str, data: bytes, final: bool = False) -> None:
        buf = self._rem.pop(source, b"") + data
        cut = len(buf) if final else buf.rfind(b"\n") + 1
        if cut < len(buf):
            self._rem[source] = buf[cut:][:MAX_PARTIAL]
        body = buf[:cut]
        skip = self._continue(source, body, 0) if source in self._open else 0
        for start, end in hit_spans(body, NEEDLES):
            if start >= skip:
                skip = self._line(source, body, start, end)

    def _line(self, source: str, body: bytes, start: int, end: int) -> int:
        """Read the hit line at body[start:end]; returns where the next hit may start."""
        line = P.clean(body[start:end])
        text = line.text
        if m := P.CONSOLE_STEP_OPEN.search(text):
            self._open[source] = (int(m.group(1)), line.rank, [])
            return self._continue(source, body, end + 1)
        m = P.WANDB_STEP.search(text) or P.CONSOLE_STEP.search(text)
        if m and (m.re is not P.WANDB_STEP or "kind=train" in text):
            self._add(int(m.group(1)), m.group(2))
        elif (m := P.RESUMED.search(text)) is not None:
            self.start_step = int(m.group(1))
        elif "_loss': " in text and (m := STATUS_DICT.search(text)) and (metrics := parse_metrics(m.group(1))):
            self.unnumbered.append({k if "/" in k else f"policy/{k}": v for k, v in metrics.items()})
        return end

    def _continue(self, source: str, body: bytes, pos: int) -> int:
        """Collect the lines of an open ConsoleLogger dict from `pos` until its braces close
        (lines of other tasks in a combined log are passed over); returns where it stopped."""
        step, rank, parts = self._open[source]
        while pos < len(body):
            nl = body.find(b"\n", pos)
            nl = len(body) if nl < 0 else nl
            line = P.clean(body[pos:nl])
            pos = nl + 1
            if line.rank != rank:
                continue
            parts.append(line.text)
            blob = "\n".join(parts)
            if blob.count("{") <= blob.count("}") or len(parts) >= MAX_DICT_LINES:
                del self._open[source]
                self._add(step, blob)
                break
        return pos

    def _add(self, step: int, blob: str) -> None:
        metrics = parse_metrics(blob.strip())
        if metrics is not None:
            self.steps.setdefault(step, StepRow(step)).merge(metrics)

    def finish(self) -> None:
        for source in list(self._rem):
            self.feed(source, b"", final=True)

    def rows(self, last: int | None = None) -> list[dict[str, Any]]:
        if not self.steps:          # only upstream status dicts: number them in order
            for i, metrics in enumerate(self.unnumbered, start=self.start_step + 1):
                self.steps.setdefault(i, StepRow(i)).merge(metrics)
        rows = [self.steps[s].to_dict() for s in sorted(self.steps) if self.steps[s].values]
        return rows[-last:] if last else rows


def collect_files(paths: Iterable[str], on_truncated: Callable[[str, int], None] | None = None) -> list[dict[str, Any]]:
    """Rows from log files. A .gz cut short: `on_truncated(path, bytes read)` and its steps
    before the cut count (as health does); without the callback it raises TruncatedLog."""
    collector = ProgressCollector()
    for path in paths:
        gz = is_gzip(path)
        read = 0
        with (gzip.open if gz else open)(path, "rb") as fh:
            try:
                for chunk in read_chunks(fh, gz):
                    collector.feed(str(path), chunk)
                    read += len(chunk)
            except EOFError:
                if on_truncated is None or not read:
                    raise TruncatedLog(str(path), read) from None
                on_truncated(str(path), read)
    collector.finish()
    return collector.rows()


def _fmt(value: Any, column: str) -> str:
    if value is None:
        return "-"
    if column in ("response_len", "step_time"):
        return f"{value:,.0f}"
    if column == "log_ratio":
        return f"{value:.2e}"
    return f"{value:.4f}"


HEADERS = {"step": "step", "reward": "reward", "pass_at_n": "pass@n", "entropy": "entropy",
           "log_ratio": "log-ratio", "grad_norm": "grad-norm", "policy_loss": "loss",
           "response_len": "resp-len", "step_time": "step-s"}


def render_progress(rows: list[dict[str, Any]], console: Any) -> None:
    from rich.table import Table

    pass_ns = {r["pass_n"] for r in rows if r.get("pass_n")}
    from rich import box

    table = Table(title=f"{len(rows)} training step(s)", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    for key, header in HEADERS.items():
        if key == "pass_at_n" and len(pass_ns) == 1:
            header = f"pass@{pass_ns.pop()}"
        table.add_column(header, justify="right", overflow="fold")
    for row in rows:
        table.add_row(str(row["step"]), *(_fmt(row.get(k), k) for k in list(HEADERS)[1:]))
    console.print(table)
