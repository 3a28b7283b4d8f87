"""python -m lab.lessons: build a lesson's notebook from its source (see build.py)."""

import sys

from lab.lessons.build import main

sys.exit(main())
