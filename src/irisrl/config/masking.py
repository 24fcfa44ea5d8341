"""The one secret-masking function of irisrl: every rendering of the plan, the lines `launch`
follows, the logs its summary saves, and `logs` / `health` / `progress` / `watch` on a live
job replace secret values by MASK with `mask_text`.

Which values: the plan's secret env values where the plan is at hand (launch); elsewhere the
ledger holds only the masked plan, so `operator_secret_values` re-reads them the way launch
did: the allowlisted names from the operator's environment and the secrets file
(`--secrets-env` / $DC_AGENT_SECRET_ENV), plus irisrl's own secret variables.

Values shorter than MIN_SECRET_LEN are not masked by value: replacing every "1" or "abc" in a
log would mangle unrelated text, and would point at where the short value occurs anyway.
They are still masked by key wherever the env itself is rendered.

URL credentials are masked by shape, whatever the values: `scheme://user:password@host` (or
`scheme://token@host`) becomes `scheme://***@host` in every text `mask_text` sees (issue 16,
D3: they were shown in the dry run and stored in the ledger from extra_env values, ckpt_path,
--model_path and --train_data). The plan keeps the real value: the pod needs it.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Iterable, Mapping, TypeVar

from irisrl.config.extra_env import ALWAYS_SECRET
from irisrl.config.secrets import ENV_SECRETS_FILE, allowlist, collect_secrets
from irisrl.core.findings import Finding
from irisrl.util.errors import IrisrlError

MASK = "***"
MIN_SECRET_LEN = 4

Text = TypeVar("Text", str, bytes)

# The userinfo of a URL (RFC 3986 3.2.1): after `://`, up to the `@` before the host; never
# across '/', '?', '#', whitespace, quotes or a backslash (a JSON escape).
_USERINFO = r"(?<=://)[^\s/?#@\"'<>\\]+@"
_USERINFO_STR = re.compile(_USERINFO)
_USERINFO_BYTES = re.compile(_USERINFO.encode())


def secret_values(values: Iterable[object]) -> tuple[str, ...]:
    """The distinct values worth masking, longest first. A multiline value also gives each of
    its lines: a task that prints it has its log split into one entry per line."""
    found: set[str] = set()
    for value in values:
        text = "" if value is None else str(value)
        lines = [line.strip() for line in text.splitlines()] if len(text.splitlines()) > 1 else []
        found.update(part for part in (text, *lines) if len(part) >= MIN_SECRET_LEN)
    return tuple(sorted(found, key=lambda v: (-len(v), v)))


def mask_text(text: Text, values: Iterable[str]) -> Text:
    """`text` (str or bytes) with every occurrence of every value, and every URL's userinfo,
    replaced by MASK. Occurrences that overlap or touch are one masked run, so no part of
    either value is left visible."""
    text = mask_url_userinfo(text)
    spans = sorted(_spans(text, values))
    if not spans:
        return text
    mask = MASK if isinstance(text, str) else MASK.encode()
    out, pos = [], 0
    start, end = spans[0]
    for s, e in spans[1:]:
        if s > end:
            out += [text[pos:start], mask]
            pos, start = end, s
        end = max(end, e)
    out += [text[pos:start], mask, text[end:]]
    return text[:0].join(out)


def mask_url_userinfo(text: Text) -> Text:
    """`https://user:pw@host/x` -> `https://***@host/x` (str or bytes)."""
    if isinstance(text, str):
        return _USERINFO_STR.sub(MASK + "@", text) if "://" in text else text
    return _USERINFO_BYTES.sub(MASK.encode() + b"@", text) if b"://" in text else text


def _spans(text: Text, values: Iterable[str]) -> list[tuple[int, int]]:
    spans = []
    for value in values:
        needle = value if isinstance(text, str) else value.encode("utf-8")
        if len(needle) < MIN_SECRET_LEN:
            continue
        at = text.find(needle)
        while at >= 0:
            spans.append((at, at + len(needle)))
            at = text.find(needle, at + 1)
    return spans


class Masker:
    """`mask_text` bound to a fixed set of values; callable on str and bytes."""

    def __init__(self, values: Iterable[object] = ()) -> None:
        self.values = secret_values(values)

    def __bool__(self) -> bool:
        return bool(self.values)

    def __call__(self, text: Text) -> Text:
        return mask_text(text, self.values)   # URL userinfo even when there are no values


def mask_findings(findings: Iterable[Finding], values: Iterable[object] = ()) -> list[Finding]:
    """Findings quote what they saw (an override, a path, a URL); no secret value and no URL
    credential survives that (validate, and the plan builder with the run's secret values)."""
    known = secret_values(values)
    return [replace(f, path=mask_text(f.path, known), message=mask_text(f.message, known),
                    fix=mask_text(f.fix, known)) for f in findings]


def operator_secret_values(secrets_env: str | None = None, environ: Mapping[str, str] | None = None,
                           strict: bool = True) -> tuple[str, ...]:
    """The allowlisted secret values launch would forward (environment, then the secrets file)
    plus irisrl's own secret variables. strict=False: an unreadable secrets file is skipped
    (the environment's values are still returned) instead of raising."""
    names = allowlist(environ=environ) + tuple(sorted(ALWAYS_SECRET))
    try:
        found = collect_secrets(names, secrets_env, environ)
    except IrisrlError:
        if strict:
            raise
        environ = os.environ if environ is None else environ
        found = collect_secrets(names, None, {k: v for k, v in environ.items() if k != ENV_SECRETS_FILE})
    return secret_values([*found.values.values(), *found.shadowed])


def operator_masker(secrets_env: str | None = None, environ: Mapping[str, str] | None = None,
                    strict: bool = True) -> Masker:
    return Masker(operator_secret_values(secrets_env, environ, strict))

