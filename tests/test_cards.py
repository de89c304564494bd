"""Cards, decks, rank order and points (docs/rules.md)."""
import pytest

from briscasim import cards as C
from briscasim.engine import primitives
from briscasim.rules import Rules


def test_codes_and_ids_round_trip():
    assert C.card_id("Ao") == 0 and C.card_id("2b") == 47 and C.card_id("7c") == 19
    for c in range(48):
        assert C.card_id(C.card_code(c)) == c
    assert C.card_code(-1) == "--"


@pytest.mark.parametrize("bad", ["1o", "Ax", "", "A", "Aoo", "ao", None, 3])
def test_unknown_card_codes_are_refused(bad):
    with pytest.raises(C.CardError, match="unknown card code"):
        C.card_id(bad)


def test_parse_cards_names_where_the_bad_code_is():
    assert C.parse_cards("Ao, 3e Rb") == [0, 25, 38]
    with pytest.raises(C.CardError, match="^hands: unknown card code 'Qo'"):
        C.parse_cards(["Ao", "Qo"], where="hands")


@pytest.mark.parametrize("deck, faces", [
    ("spanish40", "A3RCS76542"),
    ("spanish48", "A3RCS9876542"),
    ("spanish36", "A3RCS7654"),
])
def test_decks(deck, faces):
    cards = C.deck_cards(deck)
    assert len(cards) == 4 * len(faces)
    assert sorted(C.card_code(c) for c in cards) == sorted(f + s for s in "oceb" for f in faces)
    _, points = C.face_tables(False)
    assert sum(points[c % 12] for c in cards) == 120


def _order(jack_over_horse):
    strength, _ = C.face_tables(jack_over_horse)
    faces40 = [C.FACES.index(f) for f in "A3RCS9876542"]
    return "".join(C.FACES[f] for f in sorted(faces40, key=lambda f: -strength[f]))


def test_rank_order_and_points():
    assert _order(False) == "A3RCS9876542"
    _, points = C.face_tables(False)
    assert {f: points[C.FACES.index(f)] for f in C.FACES} == {
        "A": 11, "3": 10, "R": 4, "C": 3, "S": 2, "9": 0, "8": 0, "7": 0, "6": 0, "5": 0,
        "4": 0, "2": 0}


def test_jack_over_horse_order_and_points():
    assert _order(True) == "A3RSC9876542"
    _, points = C.face_tables(True)
    assert (points[C.JACK], points[C.HORSE]) == (3, 2)
    assert sum(points[c % 12] for c in C.deck_cards("spanish40")) == 120


@pytest.mark.parametrize("preset, jack_over_horse", [("briscola-2", False),
                                                     ("briscola-2-south", True)])
def test_engine_tables_match_the_card_tables(preset, jack_over_horse):
    r = Rules.preset(preset).to_array()
    strength, points = C.face_tables(jack_over_horse)
    for c in range(48):
        assert primitives.card_points(r, c) == points[c % 12]
        assert primitives.card_strength(r, c) == strength[c % 12]
