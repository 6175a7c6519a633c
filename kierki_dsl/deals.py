"""Moved to ``kierki_dsl.net.deals`` (a match file of given cards is written in the SIK
format); this name stays an alias of that very module for code written before the move."""
import sys

from .net import deals

sys.modules[__name__] = deals
