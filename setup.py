"""Only the build steps that pyproject.toml cannot say: the repository's ``rulesets/`` folder is
copied into the built package as ``kierki_dsl/rulesets/`` (package data of a wheel; an editable
install reads ``rulesets/`` in place, ``kierki_dsl/shipped.py``), and the compiled step core
``kierki_dsl.interpreter._cstep`` is built where a C compiler and Python's headers are found —
optional: without it every deal steps on the interpreter (``interpreter/stepper.py``); so is the
perfect-information solver ``kierki_dsl.interpreter._solve`` (without it, ``interpreter/solvepy.py``)."""
import os

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPyWithRulesets(build_py):
    """build_py, plus the shipped rulesets as package data."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = os.path.dirname(os.path.abspath(__file__))
        self.copy_tree(os.path.join(here, "rulesets"), os.path.join(self.build_lib, "kierki_dsl", "rulesets"))


FLAGS = ["-O2", "-std=c99"] if os.name != "nt" else []
VECDEAL = ["kierki_dsl/interpreter/_vecdeal.h"]  # the batched deals' draws, shared by both (vecenv)

CSTEP = Extension("kierki_dsl.interpreter._cstep", ["kierki_dsl/interpreter/_cstep.c"], optional=True,
                  extra_compile_args=FLAGS, depends=[*VECDEAL, "kierki_dsl/interpreter/_envmemo.h", "kierki_dsl/interpreter/_gameend.h"])

# the batched environment's flat deals (kierki_dsl/vecenv.py; without it, deals step on _cstep's Batch)
VECFLAT = Extension("kierki_dsl.interpreter._vecflat", ["kierki_dsl/interpreter/_vecflat.c"], optional=True,
                    extra_compile_args=FLAGS, depends=VECDEAL)

SOLVE = Extension("kierki_dsl.interpreter._solve", ["kierki_dsl/interpreter/_solve.c"], optional=True,
                  extra_compile_args=FLAGS)

setup(cmdclass={"build_py": BuildPyWithRulesets}, ext_modules=[CSTEP, VECFLAT, SOLVE])
