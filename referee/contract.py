"""The game contract: what the replay driver (replay.py) calls and each game module implements (the registry of
games is game.py).

A game is a module (guandan.py, gouji.py, gandengyan.py: one module per game, every rule of the
game in it) that satisfies `Game`. The driver never looks a part up by name: what a game offers
is this Protocol, and `game(name)` gives the module of a game, imported when first asked for (a
record of one game loads only that game's module). The other half of the contract is the deal's state
the game's `start_deal` makes: an `actions.DealPlay`, whose `take` takes one action and whose `over` says
the deal has ended, so that the replay's loop over a deal's actions (actions.applied) is compiled code
that calls the game's own compiled code, each game's DealState deriving from that class.

What crosses the contract is typed here too: the `Outcome` of a deal, what was `Legal` at a
point of the deal, and a `Snapshot` of the table. They stay plain dicts (TypedDicts), as the
reports serialize them; each names the keys of every game, marked with the game that gives them.
Their annotations are evaluated, not kept as text (no `from __future__ import annotations`): a TypedDict
compiles each annotation kept as text. Nothing that checks records imports this module (typing alone takes
about 4 ms of a process's start-up): the games and the driver name its types for mypy only (under TYPE_CHECKING),
and the tests (tests/test_game_contract.py) hold every game to it.
"""

from typing import TYPE_CHECKING, Any, Protocol, Required, TypedDict, TypeVar

from .actions import Action, Deal, DealPlay
from .findings import Finding
from .messages import Cards, Msg, Term
from .rules import Option

if TYPE_CHECKING:
    from .replay import Context  # which imports this module: named in quotes

# A game's own match and deal state (its classes Match and DealState): the driver only passes them back to the
# game that made them, and mypy checks each game's functions against its own. Of a deal state, the driver takes
# the actions (DealPlay.take) and asks whether the deal is over (DealPlay.over).
Match = TypeVar("Match")
State = TypeVar("State", bound=DealPlay)


class Outcome(TypedDict, total=False):
    """A deal's outcome as the report lists it: its index and status, and what the game computes (the keys of
    each game are named in its docs page). `from_claim`: it carries on from the deal's claims (notation §9);
    `by_ruling`: a `score` ruling fixed it; `computed`: the computed values a `claim` ruling replaced
    (notation §10)."""

    deal: Required[int]
    status: Required[str]
    from_claim: bool
    by_ruling: int
    computed: dict[str, Any]
    leader: int | None
    order: list[int] | None
    tribute: str
    out: list[int]
    left: list[int]
    scores: list[int] | None
    totals: list[int] | None
    level: str  # Guandan
    declaring: int | None
    levels: list[str]
    a_attempts: list[int]
    match_winner: int
    claimed: dict[str, Any]  # the levels of a differing claim, carried on
    mode: str  # Gou Ji
    turn: int | list[int] | None
    penalised: list[int] | None
    ruling: str
    dealer: int | None  # Gan Deng Yan
    winner: int | None
    held: list[list[str]]
    talon: int
    multipliers: list[Any]
    payments: list[int]


class Legal(TypedDict, total=False):
    """What would have been legal at a point of a deal, for a finding: `may`, a sentence, always; the seat
    to act (`seat`, or `seats` where several may); where a play was to be followed the `top` play's
    reading and the `plays` from the hand that may follow it ("CARDS as TYPE:RANK", weakest first; Gou
    Ji: the cards of each seat that may act, by seat). Where tribute is owed, the `phase` and what is
    `owed`; Gou Ji's `mode` of play and the `ruling` its page gives an infringement."""

    may: Required[str]
    seat: int | None
    seats: list[int]
    top: str
    plays: list[str] | dict[str, list[Cards]]
    phase: str
    owed: str
    mode: str
    ruling: str


class Snapshot(TypedDict, total=False):
    """The table at a step of a replay: `hands` (card codes per seat, low to high in the game's rank order),
    `table` (the trick), `turn` (a seat, the seats that may act, or None), `phase`; `wild` (card codes shown
    marked); `levels` and `declaring` in team games. The game's other keys are shown as they are."""

    hands: Required[list[list[str]]]
    table: Required[list[dict[str, Any]]]
    turn: Required[int | list[int] | None]
    phase: str
    wild: list[str]
    levels: list[str]
    declaring: int | None
    owed: str | None
    out: list[int]
    level: str  # Guandan
    tribute: dict[str, Any]
    mode: str  # Gou Ji
    penalised: list[int]
    lock: bool | None
    dealer: int  # Gan Deng Yan
    talon: int
    drawn: list[dict[str, Any]]
    bombs_played: list[str]
    totals_before_the_deal: list[int] | None
    winner: int | None


class Game(Protocol[Match, State]):
    """One game, as the replay driver uses it. Its rules' presets and options are resolved by rules.py."""

    NAME: str  # the record's `game`
    MIN_SEATS: int  # how many players a record of the game lists (notation §3)
    MAX_SEATS: int
    DEFAULT_PRESET: str
    PRESETS: dict[str, dict[str, Any]]  # name -> the options it sets
    PRESET_ALIASES: dict[str, str]
    OPTIONS: dict[str, Option]
    PLACES: tuple[Term, ...]  # the finishing places as players name them, first out first
    COMPLETE_RESULT: Term  # what a complete `score` ruling's result gives, in words
    WILD_WORDS: tuple[Term, Term]  # a wild card as a table's legend and a card's label name it

    def new_match(self, ctx: "Context", record: dict[str, Any], rules: dict[str, Any]) -> Match | None:
        """The match state before the first deal; None when the record cannot be replayed (reported)."""

    def start_deal(self, ctx: "Context", match: Match, deal: Deal) -> State:
        """The deal's state as dealt, which takes the deal's actions (DealPlay); raises StopDeal where the deal
        cannot start."""

    def legal(self, state: State) -> Legal:
        """What would have been legal now (for the finding of an action that was not)."""

    def snapshot(self, state: State) -> Snapshot:
        """The table now, for `replay`."""

    def finish_deal(self, ctx: "Context", match: Match, state: State, deal: Deal) -> Outcome:
        """The outcome of a deal played to its end; the match advanced; the deal's claims checked."""

    def skip_deal(self, ctx: "Context", match: Match, deal: Deal, state: State | None, stopped: bool) -> Outcome:
        """A deal not played to its end: `stopped` by an error (or incomplete before the last deal), when later
        deals carry on from its claims (notation §9); otherwise the record's unfinished last deal, which leaves
        the match as the last complete deal left it. `state` is None when the deal could not even start."""

    def finish_match(self, ctx: "Context", match: Match, claimed: dict[str, Any] | None) -> dict[str, Any]:
        """The match outcome; checks the record's claims (`result`)."""

    def ruled_match(self, ctx: "Context", summary: dict[str, Any], keys: set[str], claimed: dict[str, Any]) -> None:
        """The match outcome `summary` (finish_match's), holding the record's claims of `keys` that `claim` rulings
        let stand in place of the computed values, made to follow from them: who won and the result; the record's
        other claims (`claimed`) are checked against them."""

    def fork(self, match: Match) -> Match:
        """A copy of the match state (also what a voided deal's redeal starts from, notation §10)."""

    def claimed_state(self, match: Match) -> Match | None:
        """The state carried on from a claim that differed from the computed one (notation §9), from which a
        deal that breaks a rule at the computed state is tried again; None when there is none."""

    def adopt_claim(self, ctx: "Context", match: Match, broken: Finding) -> Match:
        """Says (info) that a deal is judged from the claimed state, as it breaks a rule (`broken`) at the
        computed one; returns that state."""

    def stand(self, ctx: "Context", state: State, action: Action) -> None:
        """Takes an action that broke a rule as played (a ruling `stands`, notation §10); raises StopDeal where
        it cannot stand (cards not held, no combination), before any change."""

    def complete_result(self, result: dict[str, Any], seats: int, options: dict[str, Any]) -> bool:
        """Whether a `score` ruling's result is complete, and of the form the rules (`options`) give it
        (COMPLETE_RESULT says what that takes)."""

    def score_deal(
        self, ctx: "Context", match: Match, deal: Deal, state: State, result: dict[str, Any], where: str
    ) -> Outcome:
        """Ends the deal with the complete outcome a ruling `score` fixed: the match goes on from it, and the
        deal's own claims are checked against it, as are the ruling's result's other claims (`where`: its
        pointer)."""

    def claim_stands(
        self, before: Match, match: Match, outcome: Outcome, claimed: dict[str, Any], keys: set[str]
    ) -> Match:
        """A deal's differing claims of `keys` (order, levels, scores, ...) that a ruling `claim` let stand: the
        match goes on from the claim alone (`before`: a fork of the match as the deal began, which may be
        advanced)."""

    def deal_layout(self, options: dict[str, Any], seats: int, dealer: int) -> tuple[int, list[tuple[int, int]]]:
        """(packs, [(seat, cards dealt)] in dealing order): how a deal of the game is dealt."""

    def reading_words(self, text: str, cards: list[str]) -> Msg | str:
        """An `as` reading (TYPE:RANK) of `cards` in the game's words (单张J, 9到K的顺子)."""


if TYPE_CHECKING:  # mypy checks that every game satisfies the contract
    from . import gandengyan, gouji, guandan

    _GUANDAN: Game[guandan.Match, guandan.DealState] = guandan
    _GOUJI: Game[gouji.Match, gouji.DealState] = gouji
    _GANDENGYAN: Game[gandengyan.Match, gandengyan.DealState] = gandengyan
