"""The phases' kit: what every phase's unit builds on (``base.PhaseUnit``), the card-picking
phases' share (``cardpick``), the record sections several phases share (``records``) and the
bots' rules of thumb (``botplay``). Each shipped phase is one module of ``kierki_dsl.interpreter``."""
