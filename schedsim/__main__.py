"""``python -m schedsim``: the command line (`schedsim.app.cli`)."""

import sys

from schedsim.app.cli import console_main

sys.exit(console_main())
