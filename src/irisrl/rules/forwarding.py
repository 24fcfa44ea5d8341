"""CFG-UNFORWARDED: nothing in the config is dropped silently on its way to the trainer."""

from __future__ import annotations

from typing import Any, Iterator

from irisrl.config.hydra_args import RULE_UNFORWARDED, forwarding_findings
from irisrl.rules.base import Finding
from irisrl.rules.catalogue import rule


@rule(RULE_UNFORWARDED, "error",
      "A top-level section irisrl does not forward (e.g. rollout:), or a key Hydra cannot spell")
def cfg_unforwarded(ctx: Any) -> Iterator[Finding]:
    yield from forwarding_findings(ctx.raw)
