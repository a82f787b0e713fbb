"""The table's optional C kernel (everything else is in pyproject.toml).

``optional=True``: where no C compiler is found the install goes on in pure numpy, which gives
the same answers (oprlab.table.kernels chooses). ``-ffp-contract=off``: no fused multiply-add,
so every product and difference is rounded on its own, as numpy rounds it.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "src/oprlab/table/_kernels.c"
#: What it includes (A*'s loops), read as part of it.
INCLUDED = ["src/oprlab/table/_astar.c"]
#: The sources' digest (the files in that order), built into the module:
#: tests/table/test_kernels.py fails on a stale build.
DIGEST = hashlib.sha256(
    b"".join((Path(__file__).resolve().parent / name).read_bytes() for name in [SOURCE, *INCLUDED])
)

setup(
    ext_modules=[
        Extension(
            "oprlab.table._kernels",
            [SOURCE],
            depends=INCLUDED,
            optional=True,
            define_macros=[("SOURCE_DIGEST", f'"{DIGEST.hexdigest()[:16]}"')],
            extra_compile_args=["-O2", "-ffp-contract=off"],
        )
    ]
)
