"""Any ruleset as a game for outside frameworks: OpenSpiel (``kierki_dsl.openspiel``) and
PettingZoo (``kierki_dsl.pettingzoo``).

``game.py`` is the framework-free core they share: a whole deal (or match) as one sequential
game with chance nodes for the deal; ``knowledge.py`` turns it into what one seat may know
(strings and tensors); ``resample.py`` draws a full state consistent with one seat's knowledge.
Neither needs open_spiel, PettingZoo or numpy.
"""
