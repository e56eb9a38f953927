"""Statistics for balance reports: Wilson intervals, paired tests over common seeds, Holm's correction.

Compared settings play the same seeds, so their games come in pairs: rates are compared by the exact
binomial test on the discordant pairs (McNemar's exact test), per-game numbers by the Wilcoxon
signed-rank test (normal approximation with tie and zero corrections), and the p-values of a whole
report are adjusted together by Holm's step-down method. Pure Python (no scipy): tests check the
functions against values computed by hand and by scipy.
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


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n trials with probability 1/2 (1.0 when n = 0).

    The sum of the two equal tails, in logarithms so that n may be large.
    """
    if n <= 0:
        return 1.0
    low = min(k, n - k)
    if 2 * low == n:
        return 1.0
    log_half = n * math.log(0.5)
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half for i in range(low + 1)]
    top = max(terms)
    tail = math.exp(top) * sum(math.exp(t - top) for t in terms)
    return min(1.0, 2 * tail)


def mcnemar_exact(a: Sequence[bool], b: Sequence[bool]) -> tuple[int, int, float]:
    """(only in a, only in b, two-sided p) for paired yes/no outcomes: McNemar's exact test."""
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    return only_a, only_b, binomial_two_sided(only_a, only_a + only_b)


def _ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n with ties given their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


EXACT_PAIRS = 25  # up to this many non-zero pairs the signed-rank p-value is exact


def _signed_rank_tail(doubled: Sequence[int], observed: int) -> float:
    """Two-sided exact p of the signed-rank sum: every sign pattern of the (doubled) ranks counted.

    ``doubled`` are twice the ranks (whole numbers, so that average ranks of ties stay exact);
    ``observed`` is twice W+. Counts the 2**n equally likely sign assignments by dynamic programming.
    """
    counts = [1] + [0] * sum(doubled)
    top = 0
    for r in doubled:
        top += r
        for s in range(top, r - 1, -1):
            counts[s] += counts[s - r]
    total = 2 ** len(doubled)
    low = sum(counts[: observed + 1])
    high = sum(counts[observed:])
    return min(1.0, 2 * min(low, high) / total)


def wilcoxon_signed_rank(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """(z, two-sided p) of the Wilcoxon signed-rank test of the paired differences b - a.

    Zero differences are dropped (Wilcoxon's convention) and tied magnitudes share their average
    rank. With up to ``EXACT_PAIRS`` non-zero pairs, p is exact: the share of the 2**n sign
    assignments of those ranks (ties included, as observed) whose W+ lies as far out as the observed
    one, both tails doubled. With more, p is the normal approximation with tie-corrected variance and
    a continuity correction of ½. z is the uncorrected standardised W+ either way. Infinite values
    (Calc scores beyond the float range) rank beyond every finite one; two equal infinities are a
    zero difference.
    """
    diffs = []
    for x, y in zip(a, b):
        if x == y:
            continue
        d = y - x
        if math.isnan(d):  # inf - inf of different signs cannot happen; same sign means equal
            continue
        diffs.append(d)
    n = len(diffs)
    if n == 0:
        return 0.0, 1.0
    magnitudes = [abs(d) for d in diffs]
    ranks = _ranks(magnitudes)
    w_plus = sum(r for r, d in zip(ranks, diffs) if d > 0)
    mean = n * (n + 1) / 4
    ties = {}
    for m in magnitudes:
        ties[m] = ties.get(m, 0) + 1
    variance = n * (n + 1) * (2 * n + 1) / 24 - sum(t**3 - t for t in ties.values()) / 48
    if variance <= 0:
        return 0.0, 1.0
    z = (w_plus - mean) / math.sqrt(variance)
    if n <= EXACT_PAIRS:
        return z, _signed_rank_tail([round(2 * r) for r in ranks], round(2 * w_plus))
    corrected = max(0.0, abs(w_plus - mean) - 0.5) / math.sqrt(variance)
    return z, normal_p(corrected)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error control for any dependence)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def paired_median_difference(a: Sequence[float], b: Sequence[float]) -> float:
    """The median of the paired differences b - a (0 for equal infinities)."""
    diffs = sorted(0.0 if x == y else y - x for x, y in zip(a, b))
    diffs = [d for d in diffs if not math.isnan(d)]
    if not diffs:
        return 0.0
    mid = len(diffs) // 2
    return diffs[mid] if len(diffs) % 2 else (diffs[mid - 1] + diffs[mid]) / 2
