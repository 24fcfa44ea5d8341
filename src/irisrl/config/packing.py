"""Ray's placement-group scheduling, simulated in pure Python on whole identical nodes, so a
config rule can tell before launch whether SkyRL's placement groups (config/placement.py)
will place, in the order SkyRL creates them, each waiting for the one before.

The semantics follow Ray's bundle scheduling policies (ray 2.x, raylet
scheduling/policy/bundle_scheduling_policy), checked against real Ray 2.60 in
tests/integration/test_packing_vs_ray.py:
- bundles are handled largest first (GPU, then CPU);
- a node's score for a request is the sum over the requested resources of
  (free - requested) / free, -1 when it does not fit; the best node is the highest score,
  i.e. the EMPTIEST fitting node (so successive small groups spread over the nodes);
- STRICT_PACK: all bundles on one node (the best node for their sum);
- PACK: the best node for the first bundle, then every other bundle that still fits there;
  then the next best node among the unused ones, and so on (best effort spill);
- STRICT_SPREAD: each bundle on a distinct node (the best unused one);
- SPREAD: each bundle on the best unused node, else on the best already used one.
A group that cannot be placed leaves the nodes untouched. Ties go to the lower rank (Ray
breaks them in hash order; on identical nodes that changes names, not feasibility).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from irisrl.config.placement import PlacementGroup

STRATEGIES = ("PACK", "STRICT_PACK", "SPREAD", "STRICT_SPREAD")
Request = Mapping[str, float]


class SimNode:
    """One node's total and free resources."""

    def __init__(self, name: str, total: Mapping[str, float]) -> None:
        self.name = name
        self.total = dict(total)
        self.free = dict(total)

    def fits(self, request: Request) -> bool:
        return all(self.free.get(k, 0.0) >= v for k, v in request.items() if v > 0)

    def score(self, request: Request) -> float:
        """Ray's LeastResourceScorer: higher means more left over after the request."""
        if not self.fits(request):
            return -1.0
        return sum((self.free[k] - v) / self.free[k] for k, v in request.items() if v > 0 and self.free[k] > 0)

    def take(self, request: Request) -> None:
        for k, v in request.items():
            self.free[k] = self.free.get(k, 0.0) - v

    def give(self, request: Request) -> None:
        for k, v in request.items():
            self.free[k] = self.free.get(k, 0.0) + v


@dataclass(frozen=True)
class Placed:
    group: PlacementGroup
    nodes: tuple[str, ...]   # the node of each bundle, in bundle order


@dataclass(frozen=True)
class PackingResult:
    placed: tuple[Placed, ...]
    failed: PlacementGroup | None          # the first group that could not be placed
    free_gpus: dict[str, float]            # per node, when `failed` was tried (or at the end)

    @property
    def ok(self) -> bool:
        return self.failed is None


def make_nodes(num_nodes: int, gpus_per_node: float, cpus_per_node: float) -> list[SimNode]:
    """Nodes named like the rehearsal names them (rank0, rank1, ...)."""
    return [SimNode(f"rank{i}", {"GPU": float(gpus_per_node), "CPU": float(cpus_per_node)})
            for i in range(num_nodes)]


def _best(request: Request, candidates: Iterable[SimNode]) -> SimNode | None:
    best, best_score = None, -1.0
    for node in candidates:
        score = node.score(request)
        if score >= 0 and (best is None or score > best_score):
            best, best_score = node, score
    return best


def _largest_first(bundles: Sequence[Request]) -> list[int]:
    return sorted(range(len(bundles)), key=lambda i: (-bundles[i].get("GPU", 0.0), -bundles[i].get("CPU", 0.0)))


def _sum(bundles: Sequence[Request]) -> dict[str, float]:
    total: dict[str, float] = {}
    for b in bundles:
        for k, v in b.items():
            total[k] = total.get(k, 0.0) + v
    return total


def _strict_pack(nodes: list[SimNode], bundles: Sequence[Request]) -> list[SimNode] | None:
    node = _best(_sum(bundles), nodes)
    return None if node is None else [node] * len(bundles)


def _pack(nodes: list[SimNode], bundles: Sequence[Request]) -> list[SimNode] | None:
    chosen: dict[int, SimNode] = {}
    remaining, candidates = _largest_first(bundles), list(nodes)
    while remaining:
        node = _best(bundles[remaining[0]], candidates)
        if node is None:
            break
        left = []
        for i in remaining:
            if node.fits(bundles[i]):
                node.take(bundles[i])
                chosen[i] = node
            else:
                left.append(i)
        remaining = left
        candidates.remove(node)
    for i, node in chosen.items():  # the caller takes the resources when the whole group fits
        node.give(bundles[i])
    return None if remaining else [chosen[i] for i in range(len(bundles))]


def _spread(nodes: list[SimNode], bundles: Sequence[Request], strict: bool) -> list[SimNode] | None:
    if strict and len(bundles) > len(nodes):
        return None
    chosen: dict[int, SimNode] = {}
    unused, used = list(nodes), []
    for i in _largest_first(bundles):
        node = _best(bundles[i], unused)
        if node is not None:
            unused.remove(node)
            used.append(node)
        elif not strict:
            node = _best(bundles[i], used)
        if node is None:
            break
        node.take(bundles[i])
        chosen[i] = node
    for i, node in chosen.items():
        node.give(bundles[i])
    return [chosen[i] for i in range(len(bundles))] if len(chosen) == len(bundles) else None


def place(nodes: list[SimNode], group: PlacementGroup) -> Placed | None:
    """Place one group (taking its resources), or None leaving the nodes as they were."""
    bundles = [{k: float(v) for k, v in b.items()} for b in group.bundles]
    if not bundles or group.strategy not in STRATEGIES:
        return None
    if group.strategy == "STRICT_PACK":
        where = _strict_pack(nodes, bundles)
    elif group.strategy == "PACK":
        where = _pack(nodes, bundles)
    else:
        where = _spread(nodes, bundles, strict=group.strategy == "STRICT_SPREAD")
    if where is None:
        return None
    for node, bundle in zip(where, bundles):
        node.take(bundle)
    return Placed(group, tuple(n.name for n in where))


def free_gpus(nodes: Sequence[SimNode]) -> dict[str, float]:
    return {n.name: n.free.get("GPU", 0.0) for n in nodes}


def simulate(groups: Sequence[PlacementGroup], num_nodes: int, gpus_per_node: float,
             cpus_per_node: float) -> PackingResult:
    """Place `groups` in order on `num_nodes` identical nodes; stop at the first that fails."""
    nodes = make_nodes(num_nodes, gpus_per_node, cpus_per_node)
    placed: list[Placed] = []
    for group in groups:
        got = place(nodes, group)
        if got is None:
            return PackingResult(tuple(placed), group, free_gpus(nodes))
        placed.append(got)
    return PackingResult(tuple(placed), None, free_gpus(nodes))


def group_gpus(group: PlacementGroup) -> float:
    return float(sum(b.get("GPU", 0) for b in group.bundles))


def describe_failure(result: PackingResult) -> str:
    """The rehearsal's words: `<group>: N bundles (G GPUs, STRATEGY, role R) ...; free GPUs per node: {...}`."""
    g = result.failed
    assert g is not None
    return (f"{g.name}: {len(g.bundles)} bundles ({group_gpus(g):g} GPUs, {g.strategy}, role {g.role}) "
            f"cannot be placed; free GPUs per node: {json.dumps(result.free_gpus)}")
