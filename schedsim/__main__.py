"""``python -m schedsim``: the command line (`schedsim.app.cli`)."""

import sys

from schedsim.app.cli import main

sys.exit(main())
