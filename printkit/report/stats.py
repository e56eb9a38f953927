"""Statistics for balance reports: Wilson intervals, two-proportion z-tests, bootstrap medians.

Pure Python except :func:`bootstrap_median_difference`, which uses numpy (installed with
matplotlib, the ``report`` extra). Every random draw comes from a seeded generator.
"""

from __future__ import annotations

import math
import statistics
from typing import Sequence

Z95 = 1.959963984540054  # the normal quantile for two-sided 95 %


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default); (0, 1) for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """(z, two-sided p) of the pooled two-proportion z-test of k1/n1 against k2/n2."""
    if n1 <= 0 or n2 <= 0:
        return 0.0, 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (k2 / n2 - k1 / n1) / se
    return z, normal_p(z)


def welch_z(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """(z, two-sided p) for the difference of two means (Welch's statistic, normal approximation)."""
    if len(a) < 2 or len(b) < 2:
        return 0.0, 1.0
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    if se == 0 or not math.isfinite(se):
        return 0.0, 1.0
    z = (statistics.fmean(b) - statistics.fmean(a)) / se
    return z, normal_p(z)


def bootstrap_median_difference(
    a: Sequence[float], b: Sequence[float], resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float, float]:
    """median(b) - median(a) and its percentile bootstrap interval at ``level`` (seeded, reproducible)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(np.median(y) - np.median(x))
    diffs = []
    for start in range(0, resamples, 100):  # in chunks: 100 x 10,000 games is 8 MB
        size = min(100, resamples - start)
        mx = np.median(rng.choice(x, size=(size, len(x)), replace=True), axis=1)
        my = np.median(rng.choice(y, size=(size, len(y)), replace=True), axis=1)
        diffs.append(my - mx)
    low, high = np.percentile(np.concatenate(diffs), [50 * (1 - level), 50 * (1 + level)])
    return diff, float(low), float(high)
