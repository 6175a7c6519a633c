"""``python -m kierki_dsl`` runs the ``kierki`` command."""

import sys

from .entry import main

sys.exit(main())
