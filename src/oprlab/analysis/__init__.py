"""Analysis: odds, Monte Carlo, sweeps, statistics, reports. May import every core layer."""
