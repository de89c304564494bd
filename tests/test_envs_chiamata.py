"""Briscola Chiamata and Schembil in the learning environments: what the observation tells
each seat of the auction, the call and the partner (and never the partner before the called
card is played), the action mask, the rewards in game points, a captain's rais hand, and the
match presets played deal by deal."""
import numpy as np
import pytest

from briscasim import cards as C
from briscasim.engine import layout as L
from briscasim.envs import VectorEnv, fields, observe
from briscasim.envs.episode import deal_rules
from briscasim.observation import (CHIAMATA_FIELDS, PLACE_FIELDS, REWARD_MARGIN,
                                        REWARD_OUTCOME, write_rewards)
from briscasim.errors import UserError
from briscasim.game import Deal, action_code
from briscasim.rules import PRESETS, Rules

from deckbuild import deck_order

CH = Rules.preset("chiamata-5")


def view(deal, seat):
    obs, mask = observe(deal._r, deal.state, seat)
    return fields(obs.astype(np.int64)), mask


def rewards(deal, kind):
    out = np.zeros(deal.rules.players, np.float32)
    write_rewards(deal._r, deal.state, kind, out)
    return out.tolist()


def test_the_auction_the_call_and_the_partner_as_each_seat_sees_them():
    # seat 3 holds the Ro that seat 1 will call; seat 0 holds the Ao
    hands = [["Ao"], [], [], ["Ro"], []]
    deal = Deal(CH, deck_order(CH, hands=hands))
    f, mask = view(deal, 0)
    assert f["auction_phase"].tolist() == [1, 0, 0] and f["contract"][0] == 0
    assert sorted(np.flatnonzero(mask)) == sorted(deal.legal_actions())   # pass and 69 bids
    assert mask.sum() == 1 + L.N_BID_LEVELS
    for code in ("bid:A", "bid:R", "pass", "pass", "pass", "pass"):
        deal.play(code)
    assert deal.phase == "call" and deal.turn == 1
    f, mask = view(deal, 2)                  # seat 2: seats in order from its own
    assert f["auction_phase"].tolist() == [0, 0, 1]
    assert f["seat_bids"].tolist() == [0, 0, 0, 1, 3, 0]     # seat 0 bid A (0), seat 1 R (2)
    assert f["passed"].tolist() == [1, 1, 1, 1, 0, 0]
    assert (f["contract"][0], f["target"][0]) == (3, 61)
    assert f["caller"].tolist() == [0, 0, 0, 0, 1, 0]
    assert not mask.any()                    # not seat 2's turn
    _, mask = view(deal, 1)
    assert [action_code(a) for a in np.flatnonzero(mask)] == deal.legal_codes()
    deal.play("call:Ro")
    ro = C.card_id("Ro")
    before = {s: view(deal, s)[0] for s in range(5)}
    for s in range(5):
        f = before[s]
        assert f["auction_phase"].sum() == 0 and f["called"].tolist() == \
            [int(c == ro) for c in range(L.N_CARD_IDS)]
        assert f["holds_called"][0] == (s == 3) and f["trump"].tolist() == [1, 0, 0, 0]
        assert f["partner"].sum() == 0      # secret until the Ro is played
    # whoever else might hold the Ro, seat 0 sees the same: the holder is not in its view
    twin = Deal(CH, deck_order(CH, hands=[["Ao"], [], [], [], ["Ro"]]))
    for a in deal.actions:
        twin.play(a)
    assert twin.state[L.S_HOLDER] == 4 and deal.state[L.S_HOLDER] == 3
    np.testing.assert_array_equal(observe(twin._r, twin.state, 0)[0],
                                  observe(deal._r, deal.state, 0)[0])
    while ro not in deal.current_trick:
        legal = deal.legal_actions()
        deal.play(ro if ro in legal else min(a for a in legal if a != ro))
    for s in range(5):
        assert view(deal, s)[0]["partner"].tolist() == \
            [int((s + i) % 5 == 3) for i in range(5)] + [0]
    while not deal.over:
        deal.play(min(deal.legal_actions()))
    k = deal.contract
    assert rewards(deal, REWARD_OUTCOME) == list(k.game_points) and sum(k.game_points) == 0
    margin = rewards(deal, REWARD_MARGIN)
    for s in range(5):      # at least 0 exactly where the game points are positive
        assert (margin[s] >= 0) == (k.game_points[s] > 0)
        ours = s in (k.caller, k.partner)
        assert margin[s] == (k.side_points - 61 if ours else 60 - k.side_points)


def test_a_deal_thrown_in_rewards_nothing_and_the_reopen_question_is_observed():
    rules = Rules.preset("chiamata-5-subito-al-due")
    deal = Deal(rules, deck_order(rules))
    for _ in range(5):
        deal.play("pass")
    f, mask = view(deal, 0)
    assert deal.phase == "reopen" and f["auction_phase"].tolist() == [0, 1, 0]
    assert f["passed"].sum() == 5
    assert [action_code(a) for a in np.flatnonzero(mask)] == ["pass", "bid:61"]
    for _ in range(5):
        deal.play("pass")
    assert deal.over
    assert rewards(deal, REWARD_OUTCOME) == [0.0] * 5 == rewards(deal, REWARD_MARGIN)


def test_trick_games_leave_the_chiamata_fields_at_zero():
    deal = Deal.from_seed(Rules.preset("brisca-4-pairs"), 2)
    while not deal.over:
        f, _ = view(deal, deal.turn)
        assert all(not f[name].any() for name in CHIAMATA_FIELDS)
        deal.play(deal.legal_actions()[-1])


def test_a_schembil_captain_sees_his_team_mates_hand_once_no_draw_is_left():
    rules = Rules.preset("schembil", match="deal")
    deal = Deal.from_seed(rules, 3)
    in_play = np.zeros(L.N_CARD_IDS, np.int64)
    in_play[rules.deck_ids] = 1
    mates = {c: next(s for k in range(1, 6) for s in [(c + k) % 6]
                     if rules.side_of[s] == rules.side_of[c]) for c in rules.rais_seats}
    seen_hand = False
    while not deal.over:
        for s in range(6):
            f, _ = view(deal, s)
            places = sum(f[name] for name in PLACE_FIELDS)
            assert (places == in_play).all()     # every card in play in one place
            if s in mates and deal.view(s).signals >> L.RAIS_HAND_SHIFT:
                assert set(deal.hand(mates[s])) <= set(np.flatnonzero(f["partner_holds"]))
                seen_hand = True
            elif s not in mates:              # nobody else learns the mate's hand
                public = {c for c, k in deal.view(s).known.items() if 0 <= k < 6}
                assert set(np.flatnonzero(f["partner_holds"])) <= public
        deal.play(deal.legal_actions()[0])
    assert seen_hand


@pytest.mark.parametrize("reward", ["outcome", "margin"])
def test_vector_env_steps_chiamata_deals_as_the_step_api(reward):
    env = VectorEnv("chiamata-5", num_envs=4, seed=9, reward=reward)
    obs, mask = env.reset()
    deals = [Deal.from_seed(CH, 9, i) for i in range(4)]
    finished = 0
    while finished < 6:
        actions = env.random_actions().copy()
        for i, deal in enumerate(deals):
            assert sorted(np.flatnonzero(mask[i])) == sorted(deal.legal_actions())
            np.testing.assert_array_equal(obs[i], observe(CH.to_array(), deal.state,
                                                          deal.turn)[0])
            deal.play(int(actions[i]))
        obs, mask, rew, done = env.step(actions)
        assert isinstance(rew, np.ndarray) and rew.shape == (4, 5)
        for i in range(4):
            if done[i]:
                want = rewards(deals[i], REWARD_OUTCOME if reward == "outcome"
                               else REWARD_MARGIN)
                assert rew[i].tolist() == want
                deals[i] = Deal.from_seed(CH, 9, int(env.deal_index[i]))
                finished += 1
            else:
                assert not rew[i].any()


def test_every_preset_is_an_environment_a_match_preset_deal_by_deal():
    for preset in PRESETS:
        rules = deal_rules(preset, {})
        assert rules.match_kind == "deal"
        assert rules.replace(match=Rules.preset(preset).match) == Rules.preset(preset)
    env = VectorEnv("briscolone-2", num_envs=2, seed=4)
    env.reset()
    want = Deal.from_seed(Rules.preset("briscolone-2", match="deal"), 4, 0)
    assert sorted(np.flatnonzero(env.action_mask[0])) == sorted(want.legal_actions())
    with pytest.raises(UserError, match="match = 'deals 3' is not supported"):
        VectorEnv("brisca-2", 2, match="deals 3")


def test_observe_refuses_what_is_not_a_deal_and_a_seat_of_it():
    deal = Deal.from_seed(Rules.preset("brisca-2"), 1)
    r, state = deal._r, deal.state
    for args, message in [
            ((r, state, 2), r"seat = 2 must be a seat from 0 to 1"),
            ((r, state, -1), r"seat = -1 must be"),
            ((r, state, True), r"seat = True must be"),
            ((r, state, 1.0), r"seat = 1.0 must be"),
            ((r, state[:10], 0), rf"state must be Deal.state \({L.STATE_LEN} int16\), not an "
                                 r"array of shape \(10,\)"),
            ((list(r), state, 0), r"rules_vector must be Rules.to_array\(\) .*not list"),
            ((r, state.astype(np.int64), 0), r"type int64")]:
        with pytest.raises(UserError, match=message):
            observe(*args)
    obs, _ = observe(deal._r, deal.state, np.int64(1))
    assert sorted(np.flatnonzero(obs[:48])) == sorted(deal.hand(1))
