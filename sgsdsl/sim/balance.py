"""A featured hero against its control: the win-rate change with its interval, a p-value, a verdict.

The test and the interval are statsmodels' Agresti–Caffo ones for the difference of two
proportions (one success and one failure added to each group, then Wald), which stay sane
at 0% and 100%. Featured and control games share their seeds, seats and identities, so
their outcomes are positively correlated; treating them as independent samples makes the
interval wider than a paired one, never narrower: a "stronger" or "weaker" verdict errs on
the side of "too small to tell".
"""

from __future__ import annotations

import warnings

INSTALL = "pip install 'sgsdsl[report]'"


class MissingExtra(Exception):
    """An optional dependency is missing; the message says how to install it."""


def _statsmodels():
    try:
        from statsmodels.stats import proportion
    except ImportError:
        raise MissingExtra(f"comparing a featured hero with its control needs statsmodels: {INSTALL}") from None
    return proportion


def require() -> None:
    _statsmodels()


def compare(wins: int, games: int, control_wins: int, control_games: int, alpha: float = 0.05) -> dict:
    """The change in win rate (featured − control) with a (1 − alpha) interval, a p-value and a verdict."""
    if games == 0 or control_games == 0:
        return {"delta": None, "ci95": None, "p_value": None, "verdict": "no games to compare"}
    prop = _statsmodels()
    args = (wins, games, control_wins, control_games)
    with warnings.catch_warnings():  # statsmodels also computes ratios, which divide by zero at 0%
        warnings.simplefilter("ignore", RuntimeWarning)
        p = float(prop.test_proportions_2indep(*args, method="agresti-caffo", compare="diff").pvalue)
        lo, hi = (float(x) for x in prop.confint_proportions_2indep(*args, method="agresti-caffo",
                                                                     compare="diff", alpha=alpha))
    lo, hi = max(lo, -1.0), min(hi, 1.0)
    delta = wins / games - control_wins / control_games
    return {"delta": delta, "ci95": [lo, hi], "p_value": p, "verdict": verdict(delta, lo, hi, p)}


def points(x: float) -> str:
    return f"{x * 100:+.1f}"


def verdict(delta: float, lo: float, hi: float, p: float) -> str:
    if lo <= 0.0 <= hi:
        return f"too small to tell: the change lies somewhere between {points(lo)} and {points(hi)} points"
    word = "stronger" if delta > 0 else "weaker"
    return f"{word}: {points(delta)} points (95% CI {points(lo)} to {points(hi)}, p = {p:.2g})"
