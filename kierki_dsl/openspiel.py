"""Any ruleset as an OpenSpiel game (``pip install 'kierki-dsl[openspiel]'``).

    import kierki_dsl.openspiel as kos
    game = kos.load("rulesets/variants/jacks_only.yaml")            # one deal (deal 1)
    game = kos.load("rulesets/kierki_standard.yaml", scope="match")  # the whole match
    game = pyspiel.load_game("kierki_dsl", {"ruleset": "rulesets/games/hearts.yaml", "deal": 3})

The game is sequential with imperfect information; chance picks the first dealer (when the
ruleset leaves it random) and deals the cards one at a time. Actions are kierki-dsl's own
numbers: cards 0..51 (``suit * 13 + rank``, suits S H D C), 52 ``pass`` (layout deals),
53..57 trump calls, 58..74 bets, 100 + i a declarer's choice of contract i. Returns are the
scores of the deal (``scope="deal"``) or the match totals (``scope="match"``).

Information-state and observation strings and tensors are built from one seat's view only
(``adapters/knowledge.py``); ``resample_from_infostate`` draws the hidden cards consistently
with that view (``adapters/resample.py``), so OpenSpiel's IS-MCTS can search any ruleset.

Game parameters: ``ruleset`` (path), ``scope`` (``deal`` or ``match``), ``deal`` (1-based
schedule position for ``scope=deal``), ``max_deals`` (a match game ends, paying the totals so
far, after at most this many deals: default 100; the ruleset's own cap holds when lower). Utility bounds are loose (±``UTILITY_BOUND`` per
deal): the rules' scoring expressions make exact bounds undecidable in general.
"""

from __future__ import annotations

import random
from operator import attrgetter

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("kierki_dsl.openspiel needs OpenSpiel: pip install 'kierki-dsl[openspiel]'") from e

from .adapters import knowledge
from .adapters.game import MATCH_DEALS, GameSpec, GameState, ruleset_at, whole
from .adapters.resample import resample
from .ruleset.model import Ruleset
from .shipped import shipped_ruleset

NAME = "kierki_dsl"
UTILITY_BOUND = 100_000.0
DEFAULT_RULESET = shipped_ruleset("kierki_standard.yaml")

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="kierki-dsl ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,  # a match pays at the end of every deal
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"ruleset": DEFAULT_RULESET, "scope": "deal", "deal": 1, "max_deals": MATCH_DEALS},
)


class KierkiGame(pyspiel.Game):
    """A kierki-dsl ruleset (one deal or the match) as an OpenSpiel game."""

    def __init__(self, params=None, spec=None):
        params = dict(params or {})
        path = str(params.get("ruleset", DEFAULT_RULESET))
        scope = str(params.get("scope", "deal"))
        deal = int(params.get("deal", 1))
        max_deals = int(params.get("max_deals", MATCH_DEALS))
        self.spec = spec if spec is not None else GameSpec.make(ruleset_at(path), scope, deal, max_deals)
        deals = self.spec.deals
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=max(52, self.spec.ruleset.players),
            num_players=self.spec.ruleset.players,
            min_utility=-UTILITY_BOUND * deals,
            max_utility=UTILITY_BOUND * deals,
            utility_sum=None,
            max_game_length=self.spec.max_decisions + self.spec.max_chance,
        )
        super().__init__(GAME_TYPE, info, {"ruleset": path, "scope": scope, "deal": deal, "max_deals": max_deals})

    def new_initial_state(self):
        return KierkiState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """A seat's observation (or, with perfect recall, its information state): its own cards
        and what is public. Another kind (public information only, every seat's private
        information) is a ``ValueError``: this observer would give one seat's hand."""
        if params:
            raise ValueError(f"kierki_dsl takes no observation parameters, got {params!r}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "kierki_dsl observes as one seat: public_info=True and private_info=SINGLE_PLAYER "
                f"(perfect_recall either way), got public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info}"
            )
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return KierkiObserver(self.spec, perfect_recall)


class KierkiState(pyspiel.State):
    """An OpenSpiel state wrapping the adapters' ``GameState``."""

    def __init__(self, game, core=None):
        super().__init__(game)
        if core is None and isinstance(game.spec.ruleset, Ruleset):
            core = GameState(game.spec)
        self.core = core  # a game of a seat's view (ismcts.py) gets its core set after

    # ``current_player``, ``is_terminal`` and ``legal_actions([player])`` are the core's own (read
    # through ``core`` at each call: C callables while the compiled core steps the deal), so that
    # neither Python callers nor pybind11 (which looks the first two up for C++) run a frame of
    # ours; ``legal_actions`` skips pyspiel's round trips (C++ callers reach ``_legal_actions``).
    current_player = property(attrgetter("core.current_player"), doc="The seat on turn, or chance, or terminal.")
    is_terminal = property(attrgetter("core.is_terminal"), doc="Whether the game is over.")
    legal_actions = property(attrgetter("core.legal_actions"), doc="The legal actions (of a player: none off turn).")

    def _legal_actions(self, player):
        return self.core.legal_actions()

    def chance_outcomes(self):
        return self.core.chance_outcomes()

    # ``_apply_action`` too: the core's own (what it paid is the core's ``last_paid``)
    _apply_action = property(attrgetter("core.apply_action"), doc="Apply a chance outcome or a decision.")

    def rewards(self):
        """What the last decision paid (a deal's scores when it ends it), kept through the
        chance nodes that follow it (the next deal's cards) until the next decision."""
        paid = self.core.last_paid
        return [0.0] * len(self.core.totals) if paid is None else list(paid)

    def _action_to_string(self, player, action):
        return self.core.action_string(player, int(action))

    def returns(self):
        return self.core.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, hidden cards drawn at random."""
        seed = int(probability_sampler() * (1 << 53))
        core = resample(self.core, player_id, random.Random(seed))
        new = self.clone()  # keeps pyspiel's history of this state
        new.core = core
        return new

    def __deepcopy__(self, memo):
        return KierkiState(self.get_game(), self.core.clone())

    def __str__(self):
        return str(self.core)


class KierkiObserver:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, spec: GameSpec, perfect_recall: bool):
        self.spec = spec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(knowledge.tensor_size(spec, perfect_recall), np.float32)
        self.dict = {}
        at = 0
        for name, shape in knowledge.pieces(spec, perfect_recall):
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state, player):
        self.tensor.fill(0)
        knowledge.fill_tensor(state.core, player, self.perfect_recall, self.tensor)

    def string_from(self, state, player):
        if self.perfect_recall:
            return knowledge.information_state_string(state.core, player)
        return knowledge.observation_string(state.core, player)


pyspiel.register_game(GAME_TYPE, KierkiGame)


def game_of(spec: GameSpec) -> KierkiGame:
    """The OpenSpiel game of an already loaded ruleset's spec (no file is read)."""
    return KierkiGame(
        {"ruleset": spec.ruleset.path, "scope": spec.scope, "deal": spec.deal + 1, "max_deals": spec.deals}, spec
    )


def load(path: str, scope: str = "deal", deal: int = 1, max_deals: int = MATCH_DEALS):
    """The ruleset at ``path`` as an OpenSpiel game (``scope``: ``deal`` or ``match``; a
    match ends after at most ``max_deals`` deals)."""
    return pyspiel.load_game(
        NAME,
        {"ruleset": str(path), "scope": scope, "deal": whole(deal, "deal"), "max_deals": whole(max_deals, "max_deals")},
    )


__all__ = ["load", "KierkiGame", "KierkiState", "NAME"]
