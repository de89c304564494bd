"""Rule options and presets (docs/rules.md) and refusal of invalid input."""
import pytest

from briscasim import cards as C
from briscasim.game import Deal, IllegalAction
from briscasim.rules import PRESETS, Rules, RulesError, parse_override

from deckbuild import code_list, ids

# docs/rules.md, column by column:
# players, deck, teams, leftover (effective), removed cards, swap_seven, swap_two, extra options
PRESET_TABLE = {
    "brisca-2": (2, "spanish40", "none", None, "", True, True, {}),
    "brisca-3-remove2": (3, "spanish40", "none", "remove", "2o", True, True, {}),
    "brisca-3-faceup": (3, "spanish40", "none", "face_up", "", True, True, {}),
    "brisca-3-hidden": (3, "spanish40", "none", "hidden", "", True, True, {}),
    "brisca-4": (4, "spanish40", "none", None, "", True, True, {}),
    "brisca-4-pairs": (4, "spanish40", "pairs", None, "", True, True, {}),
    "brisca-4-pairs-signals": (4, "spanish40", "pairs", None, "", True, True,
                               {"signals": "honest"}),
    "brisca-5": (5, "spanish48", "none", "remove", "2o 2c 2e", True, True, {}),
    "brisca-5-undrawn": (5, "spanish48", "none", "face_up", "", True, True, {}),
    "brisca-6": (6, "spanish48", "none", None, "", True, True, {}),
    "brisca-6-pairs": (6, "spanish48", "pairs", None, "", True, True, {}),
    "brisca-6-threes": (6, "spanish48", "threes", None, "", True, True, {}),
    "brisca-2-blackhand": (2, "spanish40", "none", None, "", True, True,
                           {"swap_timing": "after_draw", "tie": "last_trick",
                            "black_hand": True}),
    "brisca-reves": (2, "spanish40", "none", None, "", True, True, {"objective": "fewest"}),
    "briscola-2": (2, "spanish40", "none", None, "", False, False, {"tie": "draw"}),
    "briscola-3": (3, "spanish40", "none", "remove", "2o", False, False, {}),
    "briscola-4": (4, "spanish40", "pairs", None, "", False, False, {}),
    "briscola-6": (6, "spanish36", "threes", None, "", False, False, {}),
    "briscola-2-reshuffle": (2, "spanish40", "none", None, "", False, False,
                             {"face_up_reshuffle": True}),
    "briscola-2-south": (2, "spanish40", "none", None, "", False, False,
                         {"jack_over_horse": True}),
    # the named forms
    "briscola-2-scoperta": (2, "spanish40", "none", None, "", False, False,
                            {"open_hands": True, "stock_top_visible": True}),
    "briscolone-2": (2, "spanish40", "none", None, "", False, False,
                     {"trump": "none", "hand_size": 5, "match": "points 151"}),
    "briscolone-2-follow": (2, "spanish40", "none", None, "", False, False,
                            {"trump": "none", "hand_size": 5, "match": "points 151",
                             "must_follow_suit": True}),
    "briscola-2-31": (2, "spanish40", "none", None, "", False, False, {"target_points": 31}),
    "schembil": (6, "spanish36", "threes", None, "", False, False,
                 {"signals": "rais", "match": "rounds_to_win 3"}),
}
DEFAULTS = {"swap_timing": "before_draw", "objective": "most", "tie": "draw",
            "black_hand": False, "face_up_reshuffle": False, "jack_over_horse": False,
            "signals": "none", "match": "deal", "hand_size": 3, "trump": "turned_card",
            "must_follow_suit": False, "open_hands": False, "stock_top_visible": False,
            "target_points": None, "claim": "auto", "rais_seats": (0, 1)}


def test_every_preset_of_section_9_exists_and_nothing_else():
    assert {p for p in PRESETS if not Rules.preset(p).chiamata} == set(PRESET_TABLE)


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_options(name):
    players, deck, teams, leftover, removed, seven, two, extra = PRESET_TABLE[name]
    r = Rules.preset(name)
    assert (r.players, r.deck, r.teams, r.effective_leftover) == (players, deck, teams, leftover)
    assert sorted(r.removed_ids) == sorted(ids(removed))
    assert (r.swap_seven, r.swap_two) == (seven, two)
    for opt, default in DEFAULTS.items():
        assert getattr(r, opt) == extra.get(opt, default), opt
    assert r.cards_in_play % r.players == 0
    assert r.tricks * r.players == r.cards_in_play


def test_overrides_change_one_option_and_stay_validated():
    r = Rules.preset("brisca-2", swap_timing="after_draw")
    assert r.swap_timing == "after_draw" and r.swap_seven and r.players == 2
    assert r.replace(tie="last_trick").tie == "last_trick"
    assert parse_override("swap_timing=after_draw") == ("swap_timing", "after_draw")
    assert parse_override("black_hand=true") == ("black_hand", True)
    assert parse_override("players=4") == ("players", 4)
    assert Rules.preset("brisca-2", black_hand="yes").black_hand is True
    with pytest.raises(RulesError, match="swap_timing"):
        Rules.preset("brisca-2", swap_timing="never")


def test_a_new_leftover_drops_the_removed_cards_it_replaces():
    r = Rules.preset("brisca-3-remove2", leftover="face_up")
    assert r.effective_leftover == "face_up" and r.removed_ids == [] and r.undrawn == 1


# ---- docs/rules.md: leftover unset --------------------------------------------------------

@pytest.mark.parametrize("options, leftover, removed, undrawn", [
    (dict(players=2), None, "", 0),
    (dict(players=4), None, "", 0),
    (dict(players=5), None, "", 0),                       # 40 / 5
    (dict(players=3), "remove", "2o", 0),
    (dict(players=3, deck="spanish48"), None, "", 0),     # 48 / 3
    (dict(players=3, deck="spanish36"), None, "", 0),
    (dict(players=5, deck="spanish48"), "remove", "2o 2c 2e", 0),
    (dict(players=6, deck="spanish48"), None, "", 0),
    (dict(players=3, leftover="remove"), "remove", "2o", 0),
    (dict(players=6, leftover="remove"), "remove", "2o 2c 2e 2b", 0),
    (dict(players=5, deck="spanish36", leftover="remove"), "remove", "4o", 0),
    (dict(players=6, leftover="face_up"), "face_up", "", 4),
    (dict(players=6, leftover="hidden"), "hidden", "", 4),
    (dict(players=4, leftover="face_up"), None, "", 0),   # nothing left over
    (dict(players=3, removed_cards=["2b"]), "remove", "2b", 0),
])
def test_leftover_unset_and_default_removed_cards(options, leftover, removed, undrawn):
    r = Rules(**options)
    assert r.effective_leftover == leftover
    assert sorted(r.removed_ids) == sorted(ids(removed))
    assert r.undrawn == undrawn
    assert r.cards_in_play % r.players == 0


@pytest.mark.parametrize("options", [
    dict(players=6),                          # 40 cards, 6 players
    dict(players=5, deck="spanish36"),
    dict(players=4, deck="spanish36", teams="none", leftover=None, removed_cards=["4o"]),
])
def test_cards_that_do_not_divide_are_refused_naming_the_option(options):
    with pytest.raises(RulesError, match="leftover|removed_cards"):
        Rules(**options)


# ---- invalid input ----------------------------------------------------------------------------

@pytest.mark.parametrize("options, option_named", [
    (dict(players=7), "players"),
    (dict(players=1), "players"),
    (dict(players=2, signals="honest"), "signals"),
    (dict(players=4, signals="honest"), "signals"),
    (dict(players=3, teams="pairs"), "teams"),
    (dict(players=4, teams="threes"), "teams"),
    (dict(players=3, removed_cards=["Xo"]), "removed_cards"),
    (dict(players=3, removed_cards=["8o"]), "removed_cards"),   # not in spanish40
    (dict(players=3, removed_cards=["2o", "2o"]), "removed_cards"),
    (dict(players=3, leftover="face_up", removed_cards=["2o"]), "removed_cards"),
    (dict(players=2, deck="spanish52"), "deck"),
    (dict(players=2, leftover="sideways"), "leftover"),
    (dict(players=2, objective="all"), "objective"),
    (dict(players=2, tie="coin"), "tie"),
    (dict(players=2, swap_seven="maybe"), "swap_seven"),
    (dict(players=2, match="rounds_to_win 2"), "match"),
    (dict(players=2, match="best of 3"), "match"),
    (dict(players=2, max_deals=0), "max_deals"),
])
def test_invalid_rules_are_refused_with_a_message_naming_the_option(options, option_named):
    with pytest.raises(RulesError, match=option_named):
        Rules(**options)


def test_unknown_option_and_preset_are_named():
    with pytest.raises(RulesError, match="'colour'"):
        Rules.from_options({"players": 2, "colour": "red"})
    with pytest.raises(RulesError, match="'colour'"):
        Rules.preset("brisca-2", colour="red")
    with pytest.raises(RulesError, match="'colour'"):
        parse_override("colour=red")
    with pytest.raises(RulesError, match="brisca-9"):
        Rules.preset("brisca-9")
    with pytest.raises(RulesError, match="key=value"):
        parse_override("swap_timing")
    with pytest.raises(RulesError, match="players"):
        parse_override("players=two")


def test_error_messages_are_one_line():
    for bad in (dict(players=7), dict(players=6), dict(players=2, signals="honest")):
        with pytest.raises(RulesError) as e:
            Rules(**bad)
        assert "\n" not in str(e.value)


def test_deal_refuses_a_missing_repeated_or_foreign_card():
    r = Rules.preset("brisca-2")
    deck = code_list(r.deck_ids)
    with pytest.raises(IllegalAction, match="missing Ao"):
        Deal(r, deck[1:])
    with pytest.raises(IllegalAction, match="repeated 3o"):
        Deal(r, [deck[1]] + deck[1:])
    with pytest.raises(IllegalAction, match="not in this game 8o"):
        Deal(r, deck[:-1] + ["8o"])
    with pytest.raises(C.CardError, match="'Zz'"):
        Deal(r, deck[:-1] + ["Zz"])
    Deal(r, deck)   # the unshuffled deck itself is a valid order


@pytest.mark.parametrize("action", [-1, 50, 51, 1000, "Zz", "swapp"])
def test_deal_play_refuses_any_bad_action_with_illegal_action(action):
    deal = Deal(Rules.preset("brisca-2"), code_list(Rules.preset("brisca-2").deck_ids))
    with pytest.raises(IllegalAction):
        deal.play(action)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_an_empty_hand_slot_reads_as_no_card_at_all(name):
    """The per-card tables' NO_CARD entries (layout.EMPTY_*): an empty slot is in no suit,
    worth nothing, never beats a card and is stronger than every card (what greedy's keep
    costs rely on to skip empty slots without a test)."""
    import numpy as np

    from briscasim.engine import layout as L
    from briscasim.engine import primitives
    from briscasim.strategies import greedy

    r = Rules.preset(name).to_array()
    assert primitives.card_suit(r, L.NO_CARD) not in range(4)
    assert primitives.card_points(r, L.NO_CARD) == 0
    assert primitives.card_face(r, L.NO_CARD) not in range(12)
    points = r[L.R_CARD_POINTS:L.R_CARD_POINTS + L.N_CARD_IDS]
    strengths = r[L.R_CARD_STRENGTH:L.R_CARD_STRENGTH + L.N_CARD_IDS]
    most_costly = 100 * (np.max(points) + greedy._HIGH_TRUMP_COST) + np.max(strengths)
    assert primitives.card_strength(r, L.NO_CARD) > most_costly      # greedy's dearest keep cost
    for trump in range(4):
        for c in range(L.N_CARD_IDS):
            assert not primitives.beats(r, L.NO_CARD, c, trump)
