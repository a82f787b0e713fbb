"""``python -m oprlab`` runs the command line."""

import sys

from oprlab.cli import main

sys.exit(main())
