"""The game interface: the engine's legal actions and events, the declared layout, the driver
and the step API's argument checks."""
import numpy as np
import pytest

from briscasim import cards as C
from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.errors import IllegalAction, UserError
from briscasim.game import Deal, seeded_deck
from briscasim.rules import PRESETS, Rules


def _play_random(deal, seed):
    rng = np.random.default_rng(seed)
    while not deal.over:
        legal = deal.legal_actions()
        deal.play(legal[rng.integers(len(legal))])
    return deal


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if not Rules.preset(p).chiamata))   # Chiamata: test_chiamata
def test_events_tell_the_whole_deal(preset):
    """Every card dealt, turned, played, drawn, every trick with its points, the end: the
    events agree with the state and with each other in every preset."""
    rules = Rules.preset(preset)
    for i in range(6):
        deal = _play_random(Deal.from_seed(rules, 3, i), i)
        ev = deal.events
        kinds = [e.kind for e in ev]
        n = rules.players
        dealt = rules.hand_size * n
        assert kinds[:dealt] == ["dealt"] * dealt
        assert kinds[-1] == "over" and kinds.count("over") == 1
        assert ev[-1].seat == deal.outcome.winner if deal.outcome.winner is not None \
            else ev[-1].seat == L.DRAW
        if rules.trump == "none":                  # no card turned
            assert "turned" not in kinds and deal.turned == L.NO_CARD
        else:
            assert kinds[dealt] == "turned"
            assert ev[dealt].a == deal.turned and ev[dealt].b == deal.trump
        if deal.outcome.target_seat is not None:   # the target reached: said before the end
            assert kinds[-2] == "target" and ev[-2].seat == deal.outcome.target_seat
        # every face-down card reaches a hand once (the face-up card may be a swapped 7)
        dealt = [e.a for e in ev if e.kind == "dealt" or (e.kind == "draw" and not e.b)]
        played = [e.a for e in ev if e.kind == "play"]
        assert len(set(dealt)) == len(dealt) and len(set(played)) == len(played)
        assert sorted(played) == sorted(c for t in deal.tricks for c in t.cards)
        pts = core.card_points
        for t in deal.tricks:
            assert t.points == sum(pts(deal._r, c) for c in t.cards)
        assert sum(t.points for t in deal.tricks) == sum(deal.outcome.points)
        # every action is one event: a card played, a swap or a declined offer
        assert len(deal.actions) == sum(k in ("play", "swap", "decline") for k in kinds)
        if deal.outcome.black_hand is not None:
            assert "black_hand" in kinds
        # the cards each seat holds at the end are what it was dealt and drew, less plays
        for s in range(n):
            got = [e.a for e in ev if e.kind in ("dealt", "draw") and e.seat == s]
            got += [e.b for e in ev if e.kind == "swap" and e.seat == s]
            gone = [e.a for e in ev if e.kind == "play" and e.seat == s]
            gone += [e.a for e in ev if e.kind == "swap" and e.seat == s]
            assert sorted(set(got) - set(gone)) == sorted(deal.hand(s))


def test_events_go_to_json_and_back():
    rules = Rules.preset("brisca-2")
    deal = _play_random(Deal.from_seed(rules, 1, 2), 0)
    d = deal.to_dict()
    assert d["events"][0] == {"event": "dealt", "seat": 0, "card": C.card_code(deal.deck[0])}
    assert d["events"][-1]["event"] == "over"
    again = Deal(rules, d["deck"])
    for a in d["actions"]:
        again.play(a)
    assert again.events == deal.events and again.log() == deal.log()


def test_the_engine_reports_nothing_without_a_buffer():
    """``step`` and ``start_deal`` without events leave the same state as with them."""
    rules = Rules.preset("brisca-4-pairs")
    r = rules.to_array()
    a = np.zeros(L.STATE_LEN, np.int16)
    core.start_deal(r, a, seeded_deck(r, 5, 0))
    deal = Deal.from_seed(rules, 5, 0)
    out = np.zeros(L.MAX_LEGAL, np.int64)
    while not deal.over:
        k = core.legal_actions(r, a, out)
        assert out[:k].tolist() == deal.legal_actions()
        core.step(r, a, out[k - 1])
        deal.play(int(out[k - 1]))
        assert np.array_equal(a, deal.state)


def test_a_full_event_buffer_keeps_its_first_events():
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    state = np.zeros(L.STATE_LEN, np.int16)
    events = np.zeros((4, L.EVENT_LEN), np.int16)
    core.start_deal(r, state, seeded_deck(r, 1, 0), events)
    assert events[0, 0] == 3 and events[1, 0] == L.EVENT_DEALT and events[3, 1] == 0


def test_layout_blocks_are_checked():
    for block in (L.RULES, L.STATE, L.EVENT, L.RECORD):
        block.check()
        ends = [f.offset + f.size for f in block.fields]
        assert max(ends) == block.length
    assert L.PUBLIC_LEN == L.S_HANDS
    assert L.S_SWAP7_DECLINED >= L.PUBLIC_LEN     # a declined offer is not public
    bad = L.Block("bad", "int16")
    bad.field("a", 2)
    bad.fields.append(L.Field("b", 1, 2, "overlaps a"))
    with pytest.raises(AssertionError, match="overlaps"):
        bad.check()
    assert "| 0 | 1 | `phase` |" in L.STATE.table()


@pytest.mark.parametrize("call, words", [
    (lambda r: Deal.from_seed(r, 1.5), "seed = 1.5"),
    (lambda r: Deal.from_seed(r, -1), "seed = -1"),
    (lambda r: Deal.from_seed(r, 1, -1), "deal_index = -1"),
    (lambda r: Deal.from_seed(r, 1, True), "deal_index = True"),
    (lambda r: Deal.from_seed(2, 1), "Rules value or a preset name"),
    (lambda r: Deal.from_seed(r, 1).view(-1), "seat -1"),
    (lambda r: Deal.from_seed(r, 1).view(5), "seat 5"),
    (lambda r: Deal.from_seed(r, 1).hand(2), "seat 2"),
])
def test_the_step_api_checks_its_arguments(call, words):
    with pytest.raises(UserError, match=words):
        call(Rules.preset("brisca-2"))


def test_play_takes_no_booleans():
    deal = Deal.from_seed(Rules.preset("brisca-2"), 1)
    with pytest.raises(IllegalAction, match="True"):
        deal.play(True)
    with pytest.raises(IllegalAction):
        Deal(Rules.preset("brisca-2"), [True] + list(deal.deck[1:]))
