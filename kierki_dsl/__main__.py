"""``python -m kierki_dsl`` runs the ``kierki`` command."""
import sys

from .cli import main

sys.exit(main())
