"""Only the build step that pyproject.toml cannot say: the repository's ``rulesets/`` folder is
copied into the built package as ``kierki_dsl/rulesets/`` (package data of a wheel). An editable
install reads ``rulesets/`` in place (``kierki_dsl/shipped.py``)."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithRulesets(build_py):
    """build_py, plus the shipped rulesets as package data."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = os.path.dirname(os.path.abspath(__file__))
        self.copy_tree(os.path.join(here, "rulesets"), os.path.join(self.build_lib, "kierki_dsl", "rulesets"))


setup(cmdclass={"build_py": BuildPyWithRulesets})
