"""The auction (Tysiąc, King, Leilão): seats bid for the right to play the deal; a seller may
then accept the best bid, refuse it or decline the deal."""

from __future__ import annotations

from typing import Optional

from ..diagnostics import quoted
from ..i18n import N_, tr
from ..interpreter import bidding
from ..interpreter.actions import ACCEPT, DECLINE, PASS, REFUSE, SELLER_WORDS, bid, bid_value, is_bid, parse_action
from ..interpreter.bidding import AuctionPart, history_word
from ..interpreter.phasekit.base import NotUnderstood, PhaseUnit, contract_of, row, seat
from ..interpreter.phasekit.botplay import bot_contract, hand_strength
from ..interpreter.phases import EXPECTED, Phase

#: What a seller's words do.
SELLER_MEANING = {
    "accept": N_("sell at the best offer"),
    "refuse": N_("play the deal yourself, nothing paid"),
    "decline": N_("do not play the deal: it ends at its fixed scores"),
}
_SELLER_ACTIONS = {w: a for a, w in SELLER_WORDS.items()}
#: Most bids (besides a pass) the search player weighs in an auction: the lowest ones allowed.
BIDS_WEIGHED = 3
_SELLER_WORDS_SHOWN = (N_("accept"), N_("refuse"), N_("decline"))  # a seller's words, read through tr


def _selling(view) -> bool:
    """The seat on turn is the seller (it may not pass: it accepts, refuses or declines)."""
    return PASS not in view.legal


def _rule(view, rules):
    contract = contract_of(rules, view.contract)
    return contract.auction if contract is not None else None


def _one_bids(view, rules) -> bool:
    """1 is a bid of this auction (so "1" typed is a bid, not the first choice, pass)."""
    rule = _rule(view, rules)
    return rule is not None and 1 in rule.levels()


class Auction(PhaseUnit):
    name = "auction"
    engine_half = bidding
    part_type = AuctionPart
    expected = EXPECTED[Phase.AUCTION]
    task = N_("bid or pass (a seller: accept, refuse or decline)")
    numbered = False  # a number typed is a bid
    lint_codes = bidding.LINT_CODES  # its codes, declared beside its checks (interpreter/bidding.py)

    def owns(self, action: int) -> bool:
        return action == PASS or is_bid(action) or action in SELLER_WORDS

    # record hooks: the bids, passes and a seller's word, in order
    record_key = "auction"
    record_rank = 30
    record_example = '["bid:100", "pass"]'
    record_shown_text = "bid {entry}"
    record_short_text = "the record's auction ends before the auction is over"
    record_extra_text = "the auction is over but the record has more: {entry}"
    record_absent_text = "the record has an 'auction' but deal {deal} ({contract}) has no auction"

    def record_section(self, result) -> Optional[list]:
        return list(result.auction)

    def record_action(self, entry) -> int:
        try:
            action: Optional[int] = parse_action(str(entry))
        except ValueError:
            action = None
        if action is None or not self.owns(action):
            raise ValueError(
                f"auction: {quoted(entry)} is not a bid (bid:VALUE, pass, or a seller's accept, refuse or decline)"
            )
        return action

    def label(self, view, action: int, rules=None) -> str:
        if is_bid(action):
            return str(bid_value(action))
        if action == PASS:
            return tr("pass")
        return tr(SELLER_WORDS[action]) if action in SELLER_WORDS else super().label(view, action, rules)

    def choices(self, view, rules=None) -> list:
        return list(view.legal)

    def prompt(self, view, rules=None) -> str:
        return tr("decide") if _selling(view) else tr("bid")

    def read(self, view, text: str, rules=None) -> int:
        t = " ".join(text.strip().lower().split())
        for a, w in SELLER_WORDS.items():
            if t in (w, tr(w)):
                return a
        if _selling(view):
            legal = list(view.legal)
            if t.isdigit() and len(t) <= 3 and 1 <= int(t) <= len(legal):
                return legal[int(t) - 1]
            raise NotUnderstood(
                tr("Type a number from the list, or accept, refuse or decline.")
                if ACCEPT in legal
                else tr("Type a number from the list, or refuse or decline.")
            )
        if t in ("pass", "p", tr("pass")) or (t == "1" and not _one_bids(view, rules)):
            return PASS
        if t.isdigit() and len(t) <= 6:
            return bid(int(t))
        raise NotUnderstood(tr("Type a bid from the list, or 'pass'."))

    def advice(self, view, rules=None) -> list:
        p = self.part(view)
        if _selling(view):
            offer = (
                tr("the best offer is {bid} by {seat}").format(bid=p.bid, seat=seat(view, p.bidder))
                if p.bidder >= 0
                else tr("nobody bid")
            )
            return [tr("You sell the right to play this deal: {offer}.").format(offer=offer)]
        rule = _rule(view, rules)
        values = [bid_value(a) for a in view.legal if is_bid(a)]
        standing = (
            tr("the bid standing is {bid} by {seat}").format(bid=p.bid, seat=seat(view, p.bidder))
            if p.bidder >= 0
            else tr("no bid yet")
        )
        passing = (
            tr("a player who passes may bid again later")
            if rule is not None and rule.again
            else tr("a player who passes is out")
        )
        lines = [
            tr("You bid for the right to play this deal ({standing}); {passing}.").format(
                standing=standing, passing=passing
            )
        ]
        if p.bidder >= 0 and p.bid in values:
            lines.append(
                tr("You speak before {seat}, so you may match the bid standing.").format(seat=seat(view, p.bidder))
            )
        return lines

    def menu(self, view, rules=None) -> list:
        if _selling(view):
            return [
                "  ".join(
                    f"{i}) {tr(SELLER_WORDS[a])} ({tr(SELLER_MEANING[SELLER_WORDS[a]])})"
                    for i, a in enumerate(view.legal, 1)
                )
            ]
        values = [bid_value(a) for a in view.legal if is_bid(a)]
        word = tr("pass") if _one_bids(view, rules) else "1) " + tr("pass")  # "1" is the bid 1 where 1 can be bid
        shown = f"{values[0]}, {values[1]}, … {values[-1]}" if len(values) > 3 else ", ".join(map(str, values))
        if not values:
            return [tr("You can only pass: {word}").format(word=word)]
        return [tr("Bids: {bids}  or  {word}").format(bids=shown, word=word)]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        if action in SELLER_WORDS:
            return tr("You cannot {word}: {reason}.").format(
                word=tr(SELLER_WORDS[action]), reason=reason or tr("not allowed now")
            )
        return tr("{typed} is not allowed: {reason}").format(typed=text, reason=reason or tr("not a bid allowed now"))

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        rows = []
        if p.auction:
            rows.append(
                row(tr("Auction so far"), ", ".join(f"{seat(view, s)} {history_word(v)}" for s, v in p.auction))
            )
        if p.bidder >= 0:
            rows.append(row(tr("Highest bid"), tr("{bid} by {seat}").format(bid=p.bid, seat=seat(view, p.bidder))))
        if p.seller >= 0:
            rows.append(row(tr("Seller"), seat(view, p.seller)))
        return rows

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The lowest bid allowed while the hand is strong enough, else pass: strength is the
        high cards (Q, K, A) and the longest suit against an average hand, less one for every
        bid the others have made; never a bid more steps above the lowest than the strength.
        A seller decides by ``seller_choice``."""
        rule = bot_contract(rules, view.contract).auction
        p = self.part(view)
        legal = view.legal
        if PASS not in legal:
            return seller_choice(view.hand, legal, p.bid, rule)
        strength = hand_strength(view.hand)
        raised = sum(1 for s, v in p.auction if v > 0 and s != view.seat)
        bids = [a for a in legal if a != PASS]
        if not bids or strength - raised < 1 or (bid_value(bids[0]) - rule.low) // rule.step + 1 > strength:
            return PASS
        return bids[0]

    def search_candidates(self, view) -> Optional[list]:
        """A pass and the lowest few bids (a seller: each of its choices)."""
        legal = view.legal
        return [PASS] + [a for a in legal if a != PASS][:BIDS_WEIGHED] if PASS in legal else list(legal)

    def search_tie(self, action: int):
        """On a tie, pass."""
        return action == PASS

    def rollout_action(self, state) -> Optional[int]:
        """Everybody passes; a seller decides by ``seller_choice``."""
        legal = state.legal_actions()
        if PASS in legal:
            return PASS
        return seller_choice(state.hands[state.current_player()], legal, state.auction.bid, state.contract.auction)

    # adapter hooks: the bids run up to the auction's highest; every level bid twice at most
    def action_end(self, contract) -> int:
        rule = contract.auction
        return 0 if rule is None else bid(rule.high) + 1

    def most_decisions(self, contract, players: int, cards: int) -> int:
        """Every level bid twice (raised to, then held) with every other seat passing in between,
        a last round of passes, and the seller's word."""
        rule = contract.auction
        return 0 if rule is None else 2 * len(rule.levels()) * players + players + 1


def seller_choice(hand: int, legal, offer: int, rule) -> int:
    """An auction seller's decision: decline (when allowed) with a hand no better than
    average, accept an offer of at least as many steps (above the lowest bid) as the hand's
    edge, else refuse and play."""
    strength = hand_strength(hand)
    if DECLINE in legal and strength <= 0:
        return DECLINE
    steps = (offer - rule.low) // rule.step + 1 if offer else 0
    if ACCEPT in legal and steps >= strength:
        return ACCEPT
    return REFUSE if REFUSE in legal else legal[0]


UNIT = Auction()
