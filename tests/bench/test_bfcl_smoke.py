"""``python3 dev.py bench bfcl`` from end to end, on the real small model: both environments, the
servers, every entry, BFCL's checker, the table, the JSON report and the chart. Its accuracies are
a small model's and are not asserted; that every entry answered every question and was scored, is.

One question of two categories: all nine at one question each take 5 to 20 minutes on a 2-core
machine (the multi-turn question most of it), more than CI can give; the multi-turn replay is
tested on the stand-in in ``test_bfcl_harness.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .harness import BENCHMARKS, ROOT

sys.path.insert(0, str(BENCHMARKS))
from bfcl_harness.table import ENTRIES

SMOKE = "simple_python,irrelevance"
CATEGORIES = SMOKE.split(",")


def test_bench_bfcl_runs_every_entry_on_the_real_model(tmp_path: Path) -> None:
    report_path, chart = tmp_path / "bfcl.json", tmp_path / "bfcl.png"
    command = [sys.executable, str(ROOT / "dev.py"), "bench", "bfcl", "--per-category", "1", "--categories", SMOKE]
    done = subprocess.run(
        [*command, "--json", str(report_path), "--chart", str(chart)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert done.returncode == 0, f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    report = json.loads(report_path.read_text())
    assert report["model"] == "smollm2" and report["per_category"] == 1
    assert list(report["entries"]) == list(ENTRIES)
    # Every entry ran, the emulated ones through the proxy in each of its modes.
    assert not report.get("unavailable"), report.get("unavailable")
    for entry, scores in report["entries"].items():
        assert list(scores) == list(CATEGORIES)
        assert all(score in (0.0, 1.0) for score in scores.values()), (entry, scores)
        assert report["details"][entry]["questions"] == len(CATEGORIES)
        assert report["details"][entry]["tokens_per_question"] > 0
    # The table went to standard output, one row per category.
    for category in CATEGORIES:
        assert f"| {category} |" in done.stdout
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
