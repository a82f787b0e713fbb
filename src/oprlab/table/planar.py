"""Plane arithmetic that every machine rounds alike: rotations and dot products on the table.

A matrix product (``@``, ``np.dot``) may run in BLAS or a SIMD loop that fuses a multiply and an
add into one rounding on one CPU and not on another, so the last bit of a model's position could
depend on the machine and a seed would stop giving one game everywhere. These helpers spell the
same sums out as separate numpy multiplications and additions, each rounded on its own
(IEEE 754), in a fixed order. May import numpy only.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def rotate(points: FloatArray, c: float, s: float) -> FloatArray:
    """``(n, 2)`` points turned by the angle whose cosine is ``c`` and sine ``s`` (anticlockwise):
    ``(x c - y s, x s + y c)``."""
    x, y = points[:, 0], points[:, 1]
    return np.stack((x * c - y * s, x * s + y * c), axis=1)


def dot2(v: FloatArray, u: FloatArray) -> FloatArray:
    """The dot product over the last axis (of length 2) of ``v`` with ``u``:
    ``v_x u_x + v_y u_y``, broadcasting as numpy does."""
    out: FloatArray = v[..., 0] * u[..., 0] + v[..., 1] * u[..., 1]
    return out
