"""Descriptive statistics and the paired bootstrap CI (seeded, reproducible)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def describe(values: Sequence[float]) -> dict[str, float | int | None]:
    """n, mean, p50, p90, min, max (None fields when empty)."""
    if not values:
        return {"n": 0, "mean": None, "p50": None, "p90": None, "min": None, "max": None}
    arr = np.asarray(values, dtype=float)
    return {
        "n": int(arr.size),
        "mean": float(arr.mean()),
        "p50": float(np.percentile(arr, 50)),
        "p90": float(np.percentile(arr, 90)),
        "min": float(arr.min()),
        "max": float(arr.max()),
    }


def paired_bootstrap_ci(
    treatment: Sequence[float], control: Sequence[float], resamples: int = 10_000, alpha: float = 0.05, seed: int = 0
) -> dict[str, float | int | None]:
    """Mean paired difference (treatment - control) with a percentile bootstrap CI over instances."""
    if len(treatment) != len(control):
        raise ValueError("paired bootstrap needs equally long, aligned samples")
    if not treatment:
        return {"n": 0, "delta": None, "ci_low": None, "ci_high": None}
    diffs = np.asarray(treatment, dtype=float) - np.asarray(control, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, diffs.size, size=(resamples, diffs.size))
    means = diffs[idx].mean(axis=1)
    return {
        "n": int(diffs.size),
        "delta": float(diffs.mean()),
        "ci_low": float(np.percentile(means, 100 * alpha / 2)),
        "ci_high": float(np.percentile(means, 100 * (1 - alpha / 2))),
    }
