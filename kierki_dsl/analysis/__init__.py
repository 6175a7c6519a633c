"""What simulated matches say about a ruleset: per-match rows, measures, comparison, reports.

``rows`` holds the data a match leaves (one row per deal), ``measures`` turns a match into
observations (one number per measure), ``summary`` estimates them over many matches and
compares two rulesets played on the same deals, ``text``, ``csvio`` and ``html`` write them.
"""
