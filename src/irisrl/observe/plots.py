"""The four mandatory progress curves (reward, entropy, log-ratio, grad norm) against step,
as one PNG. matplotlib (Agg, headless) loads only here, only when a plot is asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from irisrl.observe.cost import CostReport, FleetReport
from irisrl.observe.progress import MANDATORY

TITLES = {"reward": "avg raw reward", "entropy": "policy entropy", "log_ratio": "|log-ratio| mean",
          "grad_norm": "raw grad norm"}


def plot_progress(rows: list[dict[str, Any]], out: str | Path, title: str = "") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for ax, column in zip(axes.flat, MANDATORY):
        points = [(r["step"], r[column]) for r in rows if r.get(column) is not None]
        if points:
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker="o", markersize=3, linewidth=1.4)
        else:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        ax.set_title(TITLES[column])
        ax.grid(True, alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("step")
    fig.suptitle(title or f"training progress ({len(rows)} steps)")
    fig.tight_layout()
    out = Path(out)
    if not out.suffix:          # matplotlib would add .png itself: name the file it writes
        out = out.with_suffix(".png")
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


PHASE_COLORS = {"queued": "#bbbbbb", "bring-up": "#f2b134", "productive": "#3a9d5d", "dead": "#d64541"}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, out: str | Path) -> Path:
    out = Path(out)
    if not out.suffix:
        out = out.with_suffix(".png")
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    _pyplot().close(fig)
    return out


def plot_cost(report: CostReport, out: str | Path) -> Path:
    """`cost --plot`: the job's phases on a time axis (left) and its GPU-hours stacked by phase (right)."""
    plt = _pyplot()
    fig, (timeline, stack) = plt.subplots(1, 2, figsize=(11, 3.2), gridspec_kw={"width_ratios": [4, 1]})
    segs = report["segments"]
    t0 = segs[0]["start_ms"] if segs else 0
    for seg in segs:
        start, width = (seg["start_ms"] - t0) / 60000, (seg["end_ms"] - seg["start_ms"]) / 60000
        timeline.barh(0, width, left=start, color=PHASE_COLORS[seg["phase"]], label=seg["phase"])
    timeline.set_yticks([])
    timeline.set_xlabel("minutes since submission")
    timeline.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=4, frameon=False)
    bottom = 0.0
    for phase, hours in report["gpu_hours_by_phase"].items():
        stack.bar(0, hours, bottom=bottom, color=PHASE_COLORS[phase])
        bottom += hours
    stack.set_xticks([])
    stack.set_ylabel("GPU-hours")
    cost = f", ${report['cost_usd']:,.2f}" if report["cost_usd"] is not None else ""
    fig.suptitle(f"{report['job_id']}: {report['gpu_hours']:.2f} GPU-hours{cost} ({report['state']})")
    fig.tight_layout()
    return _save(fig, out)


def plot_fleet(report: FleetReport, out: str | Path) -> Path:
    """`fleet --plot`: GPU-hours per job, stacked by phase (dead in red)."""
    plt = _pyplot()
    jobs = report["jobs"]
    fig, ax = plt.subplots(figsize=(11, max(2.5, 0.35 * len(jobs) + 1.2)))
    names = [j["job_id"] for j in jobs]
    left = [0.0] * len(jobs)
    for phase, color in PHASE_COLORS.items():
        widths = [j["gpu_hours_by_phase"][phase] for j in jobs]
        ax.barh(names, widths, left=left, color=color, label=phase)
        left = [a + b for a, b in zip(left, widths)]
    ax.invert_yaxis()   # trouble first, at the top
    ax.set_xlabel("GPU-hours")
    ax.legend(loc="lower right")
    totals = report["totals"]
    ax.set_title(f"{totals['jobs']} jobs, {totals['gpu_hours']:.1f} GPU-hours, "
                 f"{totals['gpu_hours_lost_to_dead_runs']:.1f} lost to dead runs")
    fig.tight_layout()
    return _save(fig, out)

