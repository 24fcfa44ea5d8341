"""The few plan facts the health ladder needs, read tolerantly from the plan JSON
(`LaunchPlan.to_dict()`): a missing or partial plan gives "unknown", never an error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DCP_KEY = "generator.inference_engine_decode_context_parallel_size"
R3_KEY = "generator.engine_init_kwargs.enable_return_routed_experts"


@dataclass(frozen=True)
class PlanInfo:
    num_nodes: int | None = None
    skyrl_ref: str | None = None
    role: str = "trainer"
    dcp: int | None = None
    r3: bool | None = None
    trials_dir: str | None = None
    job_id: str | None = None
    stages_data: bool | None = None  # False: the plan passes no --train-data, nothing to stage
    known: bool = False          # False: no plan given, rungs that depend on it infer from logs

    @property
    def dcp_with_r3(self) -> bool | None:
        if self.dcp is None and self.r3 is None:
            return None
        return (self.dcp or 1) > 1 and bool(self.r3)


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def plan_info(plan: dict[str, Any] | None) -> PlanInfo:
    from irisrl.config.hydra_args import last_override

    if not isinstance(plan, dict):
        return PlanInfo()
    args = plan.get("hydra_args")
    dcp = _as_int(last_override(args, DCP_KEY))
    r3_raw = last_override(args, R3_KEY)
    r3 = None if r3_raw is None else r3_raw.lower() in ("true", "1", "yes")
    ref = plan.get("skyrl_ref")
    return PlanInfo(
        num_nodes=nodes if (nodes := _as_int(plan.get("num_nodes"))) and nodes > 0 else None,
        skyrl_ref=ref if isinstance(ref, str) and ref else None,
        role="rehearsal" if plan.get("role") == "rehearsal" else "trainer",
        dcp=dcp, r3=r3,
        trials_dir=plan.get("trials_dir") if isinstance(plan.get("trials_dir"), str) else None,
        job_id=plan.get("job_id") if isinstance(plan.get("job_id"), str) else None,
        stages_data=bool(plan["train_data"]) if isinstance(plan.get("train_data"), list) else None,
        known=True,
    )
