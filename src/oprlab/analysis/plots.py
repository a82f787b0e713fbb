"""Plots of odds results as PNG files (matplotlib, Agg backend: no display needed).

matplotlib is slow to import, so nothing imports this module until a plot is asked for
(``--plot``), and this module imports matplotlib only inside its functions. It writes the file
it is given (atomically, through :func:`oprlab.files.atomic_path`) and does no other I/O.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from oprlab.errors import OptionError
from oprlab.files import atomic_path

if TYPE_CHECKING:
    from oprlab.analysis.odds import OddsResult

__all__ = ["plot_odds"]


def plot_odds(result: OddsResult, path: str | Path, title: str = "") -> Path:
    """Draw the hits, wounds and casualties pmfs as bar charts, one figure with three panels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(path)
    panels = (
        ("hits", result.hits.pmf, "tab:blue"),
        ("wounds", result.wounds.pmf, "tab:orange"),
        ("casualties", result.casualties.pmf, "tab:red"),
    )
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), constrained_layout=True)
    try:
        for ax, (name, pmf, colour) in zip(axes, panels, strict=True):
            ax.bar(range(len(pmf)), pmf, color=colour)
            mean = sum(k * p for k, p in enumerate(pmf))
            ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.2f}")
            ax.set_title(name)
            ax.set_xlabel("count")
            if len(pmf) <= 30:  # one tick per count; past that matplotlib picks them
                ax.set_xticks(range(len(pmf)))
            ax.set_ylim(0, 1.05 * max(max(pmf), 1e-9))
            ax.legend(loc="upper right", fontsize="small")
        axes[0].set_ylabel("probability")
        how = "Monte Carlo, n=" + f"{result.samples:,}" if result.samples else "exact"
        fig.suptitle(f"{title} ({result.system}, {result.mechanic}, {how})".strip())
        try:
            with atomic_path(out, "--plot") as temp:  # whole or absent, never half written
                fig.savefig(temp, format="png", dpi=100)
        except OSError as exc:
            raise OptionError(
                f"cannot write the plot: {exc.strerror or exc}",
                value=str(out),
                expected="a writable FILE.png",
            ) from None
    finally:
        plt.close(fig)
    return out
