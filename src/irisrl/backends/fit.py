"""Will the gang fit? Iris's coscheduled admission replayed over a recorded cluster state.

Pure (stdlib only): `simulate(state, request) -> FitReport`. The live state comes from
backends/cluster_state.py; unit tests build states in memory; `irisrl fit --state FILE`
replays a recorded one.

What is replayed (marin-iris 0.2.20.dev202606180959, iris/cluster/controller/scheduling/
scheduler.py `Scheduler._find_coscheduled_assignments` and `WorkerCapacity.can_fit`; the
same code is in marin-community/marin lib/iris at that wheel's build):
- only healthy workers count; the job's device becomes hard constraints (device-type,
  device-variant unless "auto"; `constraints_from_resources` in iris/cluster/constraints.py);
- workers are grouped by the `group_by` attribute (leafgroup); a worker without it is out;
- a worker takes a task when free = total - held (held: every unfinished task on it) covers
  the CPU, memory and GPU request. Disk is NOT checked by Iris's scheduler (`can_fit`
  compares cpu, memory, gpu, tpu only), so it is reported but never decides;
- the gang is admitted into the first group with >= N such workers, all-or-nothing (Iris
  takes its own first group when several fit; fit names the first by name: the verdict is the
  same, the group named can differ; the per-cycle build limit is ignored);
- with no such group, a scale group of the autoscaler whose slice has exactly N workers
  (the local autoscaler only builds a slice whose num_vms equals a coscheduled job's
  replicas) and that is below max_slices can bring a fresh group up.

Verdicts: `fits` (now, on named nodes, or by scaling up a named group), `queues` (some group
has N workers big enough once the jobs holding them finish; those jobs and their ages are
named), `never` (no group can ever hold N such workers: which resource excludes how many
nodes, and the flag that would fix it), `unknown` (the controller exposes no workers, e.g.
a KubernetesProvider cluster where Kueue, not Iris, admits gangs).

`grouping="preferred"` models Kueue TAS with a preferred (soft) topology level, the default
for `leafgroup` on CoreWeave (iris/cluster/backends/k8s/tasks.py `_CW_DEFAULT_TOPOLOGIES`:
leafgroup -> (backend.coreweave.cloud/leafgroup, required=False)): any N fitting nodes
admit, and the report says whether one leafgroup holds them."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Iterable, Literal, Mapping, TypedDict

from irisrl.util.sizes import format_bytes
from irisrl.util.sizes import parse_size as parse_size  # re-exported: fit.parse_size

Verdict = Literal["fits", "queues", "never", "unknown"]


class HolderRow(TypedDict):
    """A job holding nodes the gang needs (`fit --json` "holders")."""
    job_id: str
    state: str
    age_s: int | None
    nodes: int


class _Common(TypedDict):
    request: "GangRequest"
    source: str
    rpcs: int
GIB = 1024**3


def format_cpu(millicores: int) -> str:
    return f"{millicores / 1000:g} CPU"


# --------------------------------------------------------------------------- the recorded state

@dataclass(frozen=True)
class Node:
    """One Iris worker (a whole node): totals, what unfinished tasks hold, its attributes."""
    id: str
    cpu_m: int
    memory: int
    gpus: int
    device_type: str = "gpu"
    device_variant: str = ""
    disk: int = 0
    attributes: dict[str, str] = field(default_factory=dict)
    held_cpu_m: int = 0
    held_memory: int = 0
    held_gpus: int = 0
    holders: tuple[str, ...] = ()   # job ids with an unfinished task on this node
    healthy: bool = True


@dataclass(frozen=True)
class ScaleGroup:
    """Capacity the autoscaler can still add: `free_slices` more slices of `num_vms` nodes,
    each node shaped like `template` (its attributes carry the group_by value)."""
    name: str
    num_vms: int
    free_slices: int
    template: Node
    available: bool = True    # not in backoff / quota_exceeded


@dataclass(frozen=True)
class Holder:
    job_id: str
    state: str = "running"
    started_ms: int | None = None
    nodes: int = 0


@dataclass(frozen=True)
class ClusterState:
    nodes: tuple[Node, ...] = ()
    scale_groups: tuple[ScaleGroup, ...] = ()
    jobs: dict[str, Holder] = field(default_factory=dict)
    source: str = ""
    read_at_ms: int = 0
    rpcs: int = 0
    provider: str = "workers"   # workers | kubernetes (no worker daemons: Kueue admits)
    grouping: str = "required"  # required (Iris scheduler) | preferred (Kueue TAS soft level)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> "ClusterState":
        """From `to_dict()`'s JSON; ValueError/TypeError/KeyError name what is malformed (a
        hand-edited state must not fail later inside the simulation)."""
        def node(d: object, where: str) -> Node:
            if not isinstance(d, dict):   # JSON objects: their fields are checked by Node itself
                raise ValueError(f"{where} is {type(d).__name__}, not a mapping")
            ints = {k: _number(d[k], f"{where}.{k}") for k in _NODE_INTS if k in d}
            return Node(**{**d, **ints, "holders": tuple(_list(d.get("holders", ()), f"{where}.holders")),
                           "attributes": {str(k): str(v) for k, v in
                                          _mapping(d.get("attributes", {}), f"{where}.attributes").items()}})

        def group(g: object, where: str) -> ScaleGroup:
            if not isinstance(g, dict):
                raise ValueError(f"{where} is {type(g).__name__}, not a mapping")
            ints = {k: _number(g[k], f"{where}.{k}") for k in ("num_vms", "free_slices") if k in g}
            return ScaleGroup(**{**g, **ints, "template": node(g["template"], f"{where}.template")})

        def holder(h: object, where: str) -> Holder:
            if not isinstance(h, dict):
                raise ValueError(f"{where} is {type(h).__name__}, not a mapping")
            return Holder(**h)

        state = _mapping(data, "the state")
        return cls(
            nodes=tuple(node(n, f"nodes[{i}]") for i, n in enumerate(_list(state.get("nodes", ()), "nodes"))),
            scale_groups=tuple(group(g, f"scale_groups[{i}]")
                               for i, g in enumerate(_list(state.get("scale_groups", ()), "scale_groups"))),
            jobs={k: holder(v, f"jobs[{k}]") for k, v in _mapping(state.get("jobs", {}), "jobs").items()},
            source=str(state.get("source", "")), read_at_ms=_number(state.get("read_at_ms", 0), "read_at_ms"),
            rpcs=_number(state.get("rpcs", 0), "rpcs"), provider=str(state.get("provider", "workers")),
            grouping=str(state.get("grouping", "required")))


_NODE_INTS = ("cpu_m", "memory", "gpus", "disk", "held_cpu_m", "held_memory", "held_gpus")


def _mapping(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} is {type(value).__name__}, not a mapping")
    return {str(k): v for k, v in value.items()}


def _list(value: object, where: str) -> list[object] | tuple[object, ...]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{where} is {type(value).__name__}, not a list")
    return value


def _whole(value: object, where: str) -> int:
    """An integer field of a plan (JSON numbers, or their text)."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return _number(value, where)


def _real(value: object, where: str) -> float:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise ValueError(f"{where} is {value!r}, not a number") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where} is {value!r}, not a number")
    return float(value)


def _size_value(value: object) -> int | str:
    """A size field as parse_size takes it (bytes, or text such as "64GiB")."""
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    if isinstance(value, float):
        return int(value)
    raise ValueError(f"{value!r} is not a size")


def _number(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where} is {value!r}, not a number")
    return int(value)


@dataclass(frozen=True)
class GangRequest:
    """Per-node request of one gang: N whole nodes sharing `group_by`."""
    nodes: int
    cpu_m: int
    memory: int
    gpus: int
    device_type: str = "gpu"
    device_variant: str = ""
    disk: int = 0
    group_by: str | None = "leafgroup"

    @classmethod
    def from_plan(cls, plan: Mapping[str, object]) -> "GangRequest":
        """From a plan's JSON (`launch --dry-run --json`, LaunchPlan.to_dict())."""
        res = _mapping(plan["resources"], "resources")
        device = _mapping(res.get("device") or {}, "resources.device")
        cosched = _mapping(plan.get("coscheduling") or {}, "coscheduling")
        nodes = _whole(plan["num_nodes"], "num_nodes")
        if nodes < 1:
            raise ValueError(f"num_nodes is {plan['num_nodes']}; a gang has at least 1 node")
        group_by = cosched.get("group_by")
        return cls(nodes=nodes, cpu_m=int(round(_real(res["cpu"], "resources.cpu") * 1000)),
                   memory=parse_size(_size_value(res["memory"])), disk=parse_size(_size_value(res.get("disk") or 0)),
                   gpus=_whole(device.get("count") or 0, "resources.device.count"),
                   device_type=str(device.get("type") or "cpu"), device_variant=str(device.get("variant") or ""),
                   group_by=str(group_by) if group_by else None)

    def describe(self) -> str:
        dev = f", {self.device_type} {self.device_variant} x{self.gpus}" if self.gpus else ""
        group = f" in one {self.group_by}" if self.group_by else ""
        return f"{self.nodes} node(s){group}, each {format_cpu(self.cpu_m)}, {format_bytes(self.memory)}{dev}"


# --------------------------------------------------------------------------- the report

@dataclass(frozen=True)
class GroupView:
    group: str
    nodes: int            # eligible nodes in the group (device matches, healthy)
    fit_now: int          # of them, with the request free now
    fit_empty: int        # of them, big enough when nothing runs there
    holders: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exclusion:
    resource: str         # cpu | memory | gpu | device | group_by
    need: str
    fits: int             # nodes whose totals cover it
    of: int


@dataclass(frozen=True)
class FitReport:
    verdict: Verdict
    request: GangRequest
    summary: str
    group: str | None = None
    nodes: tuple[str, ...] = ()
    scale_group: str | None = None
    groups: tuple[GroupView, ...] = ()
    holders: "tuple[HolderRow, ...]" = ()
    exclusions: tuple[Exclusion, ...] = ()
    fixes: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    source: str = ""
    rpcs: int = 0

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["request"]["describe"] = self.request.describe()
        return data


# --------------------------------------------------------------------------- the simulation

def _matches_device(node: Node, req: GangRequest) -> bool:
    if req.device_type != "cpu" and node.device_type.lower() != req.device_type.lower():
        return False
    variant = req.device_variant.lower()
    # a Kubernetes node has no Iris variant (Iris does not map it to a node selector there)
    return (req.device_type == "cpu" or not variant or variant == "auto" or not node.device_variant
            or node.device_variant.lower() == variant)


def _covers(cpu_m: int, memory: int, gpus: int, req: GangRequest) -> bool:
    """WorkerCapacity.can_fit: a dimension is checked only when the request is > 0."""
    return ((req.cpu_m <= 0 or req.cpu_m <= cpu_m) and (req.memory <= 0 or req.memory <= memory)
            and (req.gpus <= 0 or req.gpus <= gpus))


def fits_now(node: Node, req: GangRequest) -> bool:
    return _covers(node.cpu_m - node.held_cpu_m, node.memory - node.held_memory, node.gpus - node.held_gpus, req)


def fits_empty(node: Node, req: GangRequest) -> bool:
    return _covers(node.cpu_m, node.memory, node.gpus, req)


def _group_key(node: Node, req: GangRequest, state: ClusterState) -> str | None:
    if not req.group_by or req.nodes <= 1 or state.grouping == "preferred":
        return "(any)"
    return node.attributes.get(req.group_by)


def _groups(nodes: Iterable[Node], req: GangRequest, state: ClusterState) -> dict[str, list[Node]]:
    groups: dict[str, list[Node]] = {}
    for node in nodes:
        key = _group_key(node, req, state)
        if key is not None:
            groups.setdefault(key, []).append(node)
    return groups


def _view(group: str, members: list[Node], req: GangRequest) -> GroupView:
    held = sorted({h for n in members if fits_empty(n, req) and not fits_now(n, req) for h in n.holders})
    return GroupView(group, len(members), sum(fits_now(n, req) for n in members),
                     sum(fits_empty(n, req) for n in members), tuple(held))


def simulate(state: ClusterState, req: GangRequest) -> FitReport:
    """The verdict for `req` on `state` (see the module docstring)."""
    common = _Common(request=req, source=state.source, rpcs=state.rpcs)
    if state.provider != "workers" and not state.nodes:
        return FitReport("unknown", summary="the controller lists no workers: on a Kubernetes cluster Kueue admits "
                         "gangs from node capacity irisrl cannot read through Iris", **common)
    eligible = [n for n in state.nodes if n.healthy and _matches_device(n, req)]
    groups = _groups(eligible, req, state)
    views = tuple(sorted((_view(g, m, req) for g, m in groups.items()), key=lambda v: (-v.fit_now, v.group)))
    notes = _notes(state, req, eligible)
    for group, members in sorted(groups.items()):
        free = [n for n in members if fits_now(n, req)]
        if len(free) >= req.nodes:
            chosen = tuple(sorted(n.id for n in free)[: req.nodes])
            return FitReport("fits", summary=f"fits now in {_label(req, state, group)} on {', '.join(chosen)}",
                             group=group, nodes=chosen, groups=views, notes=notes + _spread_note(state, req, free),
                             **common)
    scale = _scale_up(state, req)
    if scale is not None:
        return FitReport("fits", summary=f"fits after the autoscaler brings up a slice of scale group {scale.name} "
                         f"({scale.num_vms} nodes, {req.group_by or 'group'} "
                         f"{scale.template.attributes.get(req.group_by or '', '?')})",
                         scale_group=scale.name, group=scale.template.attributes.get(req.group_by or ""),
                         groups=views, notes=notes, **common)
    waiting = [v for v in views if v.fit_empty >= req.nodes]
    if waiting or _scale_at_capacity(state, req):
        return _queues(state, req, views, waiting, notes, common)
    return _never(state, req, views, notes, common)


def _label(req: GangRequest, state: ClusterState, group: str) -> str:
    if group == "(any)":
        return "the cluster"
    return f"{req.group_by} {group}"


def _spread_note(state: ClusterState, req: GangRequest, free: list[Node]) -> tuple[str, ...]:
    if state.grouping != "preferred" or not req.group_by or req.nodes <= 1:
        return ()
    by_group: dict[str, int] = {}
    for n in free:
        key = n.attributes.get(req.group_by, "?")
        by_group[key] = by_group.get(key, 0) + 1
    best = max(by_group.values(), default=0)
    if best >= req.nodes:
        return (f"one {req.group_by} has {best} free nodes: Kueue's preferred topology can keep the gang together",)
    return (f"no single {req.group_by} has {req.nodes} free nodes (largest: {best}); {req.group_by} is a preferred "
            "level here, so Kueue admits the gang spread over several",)


def _scale_up(state: ClusterState, req: GangRequest) -> ScaleGroup | None:
    for sg in sorted(state.scale_groups, key=lambda g: g.name):
        if (sg.available and sg.free_slices > 0 and sg.num_vms == req.nodes and _matches_device(sg.template, req)
                and fits_empty(sg.template, req) and _group_key(sg.template, req, state) is not None):
            return sg
    return None


def _scale_at_capacity(state: ClusterState, req: GangRequest) -> ScaleGroup | None:
    for sg in state.scale_groups:
        if sg.num_vms == req.nodes and _matches_device(sg.template, req) and fits_empty(sg.template, req):
            return sg
    return None


def _queues(state: ClusterState, req: GangRequest, views: tuple[GroupView, ...], waiting: list[GroupView],
            notes: tuple[str, ...], common: "_Common") -> FitReport:
    holder_ids = sorted({h for v in waiting for h in v.holders})
    holders = tuple(_holder_row(state, h) for h in holder_ids)
    if waiting:
        best = max(waiting, key=lambda v: (v.fit_now, -v.nodes))
        summary = (f"will queue: no {req.group_by or 'group'} has {req.nodes} free nodes now; "
                   f"best is {_label(req, state, best.group)} with {best.fit_now} of {req.nodes} free, "
                   f"{len(best.holders)} job(s) hold the rest")
    else:
        sg = _scale_at_capacity(state, req)
        summary = (f"will queue: scale group {sg.name if sg else '?'} could hold the gang but is at max slices "
                   f"or unavailable; it admits when a slice frees")
    return FitReport("queues", summary=summary, groups=views, holders=holders, notes=notes, **common)


def _holder_row(state: ClusterState, job_id: str) -> "HolderRow":
    holder = state.jobs.get(job_id, Holder(job_id))
    age_s = None
    if holder.started_ms and state.read_at_ms:
        age_s = max(0, (state.read_at_ms - holder.started_ms) // 1000)
    return HolderRow(job_id=job_id, state=holder.state, age_s=age_s, nodes=holder.nodes)


def _never(state: ClusterState, req: GangRequest, views: tuple[GroupView, ...], notes: tuple[str, ...],
           common: "_Common") -> FitReport:
    exclusions = _exclusions(state, req)
    fixes = _fixes(state, req, [n for n in potential_nodes(state) if _matches_device(n, req)])
    worst = "; ".join(_exclusion_text(e, req) for e in exclusions if e.fits < e.of)
    summary = f"can never fit {req.nodes} node(s): {worst or 'no group holds enough such nodes'}"
    return FitReport("never", summary=summary, groups=views, exclusions=exclusions, fixes=fixes, notes=notes,
                     **common)


def _exclusion_text(e: Exclusion, req: GangRequest) -> str:
    if e.resource == "group_by":
        return f"the largest {req.group_by} has {e.fits} node(s) that fit, {e.of} needed"
    return f"{e.need} fits {e.fits} of {e.of} nodes"


def potential_nodes(state: ClusterState) -> list[Node]:
    """Healthy workers plus the nodes the autoscaler can still add (free slices x num_vms)."""
    added = [replace(sg.template, id=f"{sg.template.id}-{i}") for sg in state.scale_groups if sg.available
             for i in range(sg.free_slices * sg.num_vms)]
    return [n for n in state.nodes if n.healthy] + added


def _exclusions(state: ClusterState, req: GangRequest) -> tuple[Exclusion, ...]:
    everyone = potential_nodes(state)
    pool = [n for n in everyone if _matches_device(n, req)]
    rows = [Exclusion("device", f"{req.device_type} {req.device_variant}".strip(), len(pool), len(everyone))] \
        if req.device_type != "cpu" else []
    checks: tuple[tuple[str, str, Callable[[Node], bool]], ...] = (("cpu", format_cpu(req.cpu_m), lambda n: n.cpu_m >= req.cpu_m),
              ("memory", f"{format_bytes(req.memory)} memory", lambda n: n.memory >= req.memory),
              ("gpu", f"{req.gpus} GPU", lambda n: n.gpus >= req.gpus))
    for resource, need, ok in checks:
        rows.append(Exclusion(resource, need, sum(1 for n in pool if ok(n)), len(pool)))
    if req.group_by and req.nodes > 1 and state.grouping == "required":
        sizes = _groups([n for n in pool if fits_empty(n, req)], req, state)
        best = max((len(m) for m in sizes.values()), default=0)
        rows.append(Exclusion("group_by", f"{req.nodes} in one {req.group_by}", best, req.nodes))
    return tuple(rows)


def _fixes(state: ClusterState, req: GangRequest, eligible: list[Node]) -> tuple[str, ...]:
    """The largest per-node CPU and memory (and the most nodes) that some group could hold."""
    groups = _groups(eligible, req, state)
    fixes = []
    cpu = _kth_largest(groups, req.nodes, lambda n: n.cpu_m, req, lambda n: _covers(10**12, n.memory, n.gpus, req))
    if cpu is not None and cpu < req.cpu_m:
        fixes.append(f"--cpu {cpu // 1000}")
    mem = _kth_largest(groups, req.nodes, lambda n: n.memory, req, lambda n: _covers(n.cpu_m, 10**18, n.gpus, req))
    if mem is not None and mem < req.memory:
        fixes.append(f"--memory {mem // GIB}GiB")
    biggest = max((sum(fits_empty(n, req) for n in m) for m in groups.values()), default=0)
    if 0 < biggest < req.nodes:
        fixes.append(f"--num-nodes {biggest} (the largest {req.group_by} that can hold this request)")
    return tuple(fixes)


def _kth_largest(groups: dict[str, list[Node]], k: int, value: Callable[[Node], int], req: GangRequest,
                 others_ok: Callable[[Node], bool]) -> int | None:
    """Over groups, the best k-th largest `value` among nodes whose other dimensions fit."""
    best = None
    for members in groups.values():
        values = sorted((value(n) for n in members if others_ok(n)), reverse=True)
        if len(values) >= k:
            best = max(best or 0, values[k - 1])
    return best


def _notes(state: ClusterState, req: GangRequest, eligible: list[Node]) -> tuple[str, ...]:
    notes = []
    if req.disk and any(n.disk and n.disk < req.disk for n in eligible):
        notes.append(f"disk {format_bytes(req.disk)} exceeds some nodes' disk; Iris's scheduler does not check disk")
    if state.provider == "kubernetes":
        notes.append("read from Kubernetes: Kueue quota, taints and preemption of lower-priority pods are not "
                     "modelled")
    unhealthy = sum(1 for n in state.nodes if not n.healthy)
    if unhealthy:
        notes.append(f"{unhealthy} unhealthy worker(s) left out")
    if req.group_by and req.nodes > 1 and state.grouping == "required":
        missing = sum(1 for n in eligible if req.group_by not in n.attributes)
        if missing:
            notes.append(f"{missing} worker(s) have no {req.group_by} attribute and cannot take a gang task")
    return tuple(notes)


def now_ms() -> int:
    return int(time.time() * 1000)
