"""The language a ruleset file is written in, below every phase: the safe YAML reader
(``yamlsafe``: positions, limits, no tags) and the typed schema (``schema``: fields, kinds,
frozen specs) with which each phase declares its part of the format. The ruleset loader
(``kierki_dsl.ruleset``) assembles the whole format from the phases' parts."""
