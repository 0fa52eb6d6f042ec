"""The benchmark's table as a grouped bar chart (PNG): a group per category, a bar per entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

COLOURS = ("#1f77b4", "#17becf", "#ff7f0e", "#7f7f7f")


def draw(report: dict[str, Any], out: Path) -> Path:
    entries: dict[str, dict[str, float | None]] = report["entries"]
    unavailable: dict[str, str] = report.get("unavailable", {})
    categories = list(next(iter(entries.values())))
    width = 0.8 / max(1, len(entries))
    figure, axes = plt.subplots(figsize=(max(8.0, 1.3 * len(categories)), 4.8), dpi=110)
    for number, (entry, scores) in enumerate(entries.items()):
        positions = [i + (number - (len(entries) - 1) / 2) * width for i in range(len(categories))]
        values = [100 * (scores.get(c) or 0.0) for c in categories]
        label = f"{entry} (not run: {unavailable[entry]})" if entry in unavailable else entry
        bars = axes.bar(positions, values, width, label=label, color=COLOURS[number % len(COLOURS)])
        for bar in bars if entry in unavailable else ():
            bar.set_alpha(0.0)
    axes.set_xticks(range(len(categories)), [c.replace("_", "\n", 1) for c in categories], fontsize=8)
    axes.set_ylim(0, 100)
    axes.set_ylabel("accuracy (%)")
    axes.set_title(
        f"BFCL, {report['per_category']} questions per category, {report['model']}: same model and server",
        fontsize=10,
    )
    axes.legend(fontsize=7, loc="upper left")
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    plt.close(figure)
    return out
