"""Benchmarks run by ``make bench``: each prints the work done, the time and the rate."""
