"""The common action forms as actions.py reads them: a pass is one Action for its seat and index in every deal
read, and the replay's loop drives a deal through its state's half of the game contract (DealPlay)."""

from referee.actions import Action, DealPlay, applied, plain_actions


def _not_read(deal, index, raw):
    raise AssertionError(f"a common form went to the full reader: {raw}")


def test_a_pass_is_one_action_for_its_seat_and_index_in_every_deal():
    first, _ = plain_actions(0, [{"seat": 1, "pass": True}, {"seat": 2, "pass": True}], 4, True, _not_read)
    again, colons = plain_actions(7, [{"seat": 3, "play": ["3S"]}, {"seat": 2, "pass": True}], 4, True, _not_read)
    assert again[1] is first[1] and again[1] == Action(1, 2, "pass") and colons == 4


def test_a_pass_past_the_kept_ones_is_read_as_the_others():
    raws = [{"seat": seat % 10, "pass": True} for seat in range(1100)]
    actions, colons = plain_actions(0, raws, 10, False, _not_read)
    assert actions == [Action(index, index % 10, "pass") for index in range(1100)] and colons == 2200


class _Counting(DealPlay):
    """A deal that is over after `length` actions taken."""

    def __init__(self, length: int) -> None:
        self.taken: list[int] = []
        self.length = length
        self.over = length == 0

    def take(self, ctx, action: Action) -> None:
        self.taken.append(action.index)
        self.over = len(self.taken) == self.length


def test_the_loop_takes_each_action_until_the_deal_is_over():
    actions = [Action(index, 0, "pass") for index in range(5)]
    seen = []
    state = _Counting(3)
    assert applied(None, state, actions, lambda deal, index, _: seen.append((deal, index)), 9) == 3
    assert state.taken == [0, 1, 2] and seen == [(9, 0), (9, 1), (9, 2)]
    assert applied(None, _Counting(0), actions, None, 0) == 0
