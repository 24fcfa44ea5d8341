"""--skyrl_override values: parsed with hydra-core's own override grammar (imported only when
overrides are given) and applied to the raw config, last one wins, so the rules see the
config the trainer will see."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterable, Literal

from irisrl.core.findings import Finding

Kind = Literal["change", "add", "force_add", "delete"]
_GRAMMAR = "https://hydra.cc/docs/advanced/override_grammar/basic/"


@dataclass(frozen=True)
class ParsedOverride:
    text: str          # as given, e.g. "++trainer.max_steps=2"
    key: str           # "trainer.max_steps"
    kind: Kind
    value: Any         # the Python value Hydra parses (None for a delete)


def _bad(text: str, why: str) -> Finding:
    return Finding("CFG-OVERRIDE", "error", f"--skyrl_override {text}", why,
                   f"write it as key=value, +key=value or ++key=value (Hydra override grammar: {_GRAMMAR})")


def _kind(ov: Any) -> Kind:
    if ov.is_delete():
        return "delete"
    if ov.is_force_add():
        return "force_add"
    return "add" if ov.is_add() else "change"


def parse_overrides(overrides: Iterable[str]) -> tuple[list[ParsedOverride], list[Finding]]:
    """Parse each override on its own so one bad value names itself; bad ones are findings."""
    overrides = list(overrides)
    if not overrides:
        return [], []
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    parsed: list[ParsedOverride] = []
    findings: list[Finding] = []
    for text in overrides:
        try:
            (ov,) = parser.parse_overrides([text])
        except (HydraException, ValueError) as exc:
            detail = "; ".join(line.strip() for line in str(exc).splitlines()
                               if line.strip() and not line.startswith("See "))
            findings.append(_bad(text, f"Hydra rejects it: {detail}"))
            continue
        if ov.is_sweep_override():
            findings.append(_bad(text, f"`{text}` is a sweep; one launch runs one config"))
            continue
        if ov.package:
            findings.append(_bad(text, f"`{text}` uses a package (@...); irisrl cannot apply it"))
            continue
        value = None if ov.is_delete() else ov.value()
        parsed.append(ParsedOverride(text, ov.key_or_group, _kind(ov), value))
    return parsed, findings


def apply_parsed(raw: dict[str, Any], parsed: Iterable[ParsedOverride]) -> dict[str, Any]:
    """A copy of `raw` with the overrides applied in order (last wins)."""
    out = copy.deepcopy(raw)
    for ov in parsed:
        *parents, leaf = ov.key.split(".")
        node: dict[str, Any] | None = out
        for part in parents:
            assert node is not None   # set to None only right before the break
            if not isinstance(node.get(part), dict):
                if ov.kind == "delete":
                    node = None
                    break
                node[part] = {}
            node = node[part]
        if node is None:
            continue
        if ov.kind == "delete":
            node.pop(leaf, None)
        else:
            node[leaf] = copy.deepcopy(ov.value)
    return out
