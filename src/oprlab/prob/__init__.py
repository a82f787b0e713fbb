"""Exact probability distributions: the bottom layer; imports nothing else of oprlab."""

from oprlab.prob.dist import Dist, add, at_least, convolve_pmf, mean, pmf, repeat_sum

__all__ = ["Dist", "add", "at_least", "convolve_pmf", "mean", "pmf", "repeat_sum"]
