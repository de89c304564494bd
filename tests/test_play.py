"""``briscasim play`` end to end through a pseudo-terminal: prompts, help on bad input, what
the seat may see, hints, leaving with Ctrl-D, and the saved deal read back by ``replay``."""
import json
import os
import sys

import pexpect
import pytest

from briscasim.game import Deal, action_code
from briscasim.replay import load_deal_file
from briscasim.rules import Rules
from test_cli_simulate import run

PROMPT = r"\(help, hint, quit\)> "


def spawn(args, cwd):
    env = dict(os.environ, COLUMNS="120")
    return pexpect.spawn(sys.executable, ["-c", "from briscasim.cli.main import main; main()",
                                          "play", *args],
                         cwd=str(cwd), env=env, encoding="utf-8", timeout=240)


def play_out(child) -> str:
    """Answer the first legal action (``1``) to every prompt until the program ends; check
    it ended cleanly and return what it printed last."""
    while True:
        child.sendline("1")
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
    end = child.before
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in end
    return end


def test_a_deal_at_the_terminal_and_its_replay(tmp_path, capsys):
    child = spawn(["--preset", "brisca-2", "--strategy", "greedy", "--seed", "7",
                   "--save", "game.json"], tmp_path)
    child.expect(PROMPT)
    first = child.before
    # the opening shows the seat's hand and the face-up card, nothing of the other hand
    saved_deal = Deal.from_seed(Rules.preset("brisca-2"), 7)
    mine, theirs = saved_deal.initial_hands
    assert all(action_code(c) in first for c in mine)
    assert not any(action_code(c) in first for c in theirs)
    assert f"face-up card: {action_code(saved_deal.turned)}" in first
    for bad, answer in (("Zz", "unknown card code 'Zz'"), ("9", "your hand has cards 1 to 3"),
                        ("help", "its number in your hand")):
        child.sendline(bad)
        child.expect(PROMPT)
        assert answer in child.before and "Traceback" not in child.before
    child.sendline("hint")
    child.expect(PROMPT)
    assert "values:" in child.before and "score" in child.before
    end = play_out(child)
    assert "saved in game.json" in end
    log = end.split("the whole deal:")[1].split("\nsaved in")[0].strip()
    code, out, err = run(["replay", "--file", str(tmp_path / "game.json")], capsys)
    assert code == 0, err
    assert out.strip() == log.replace("\r\n", "\n")
    deal = load_deal_file(tmp_path / "game.json")
    assert deal.over and list(deal.deck) == list(saved_deal.deck)
    assert json.loads((tmp_path / "game.json").read_text())["strategies"] == ["you", "greedy"]


def test_ctrl_d_leaves_and_keeps_what_was_played(tmp_path):
    child = spawn(["--preset", "brisca-4-pairs", "--seat", "2", "--strategy", "random",
                   "--seed", "3"], tmp_path)
    child.expect(PROMPT)
    assert "you are seat 2 (side 0: seats 0 and 2)" in child.before
    child.sendline("Rx")
    child.expect(PROMPT)
    child.sendline("2")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "you left the game" in child.before
    deal = load_deal_file(tmp_path / "play-3.json")
    assert not deal.over and len(deal.actions) >= 5    # two of ours, the others' between
    assert list(deal.deck) == list(Deal.from_seed(Rules.preset("brisca-4-pairs"), 3).deck)


def test_a_match_saves_every_deal(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("1\n" * 200))
    code, out, err = run(["play", "--preset", "brisca-2", "--rule", "match=deals 2",
                          "--strategy", "random", "--seed", "4", "--save", "m.json"], capsys)
    assert code == 0, err
    assert "== deal 2" in out and "match: " in out and "after 2 deals" in out
    for j in (1, 2):
        assert load_deal_file(tmp_path / f"m-deal{j}.json").over


@pytest.mark.parametrize("argv, words", [
    (["--seat", "2"], "--seat 2: seats are numbered 0 to 1"),
    (["--preset", "brisca-4", "--strategy", "greedy", "--strategy", "random"],
     "--strategy: give one for every other seat (3) or one for all; got 2"),
    (["--strategy", "nosuch"], "nosuch"),
])
def test_bad_options_are_one_line(argv, words, capsys):
    code, out, err = run(["play", *argv], capsys)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_chiamata_bid_call_and_play_at_the_terminal_and_its_replay(tmp_path, capsys):
    child = spawn(["--preset", "chiamata-5", "--strategy", "greedy", "--seed", "3", "--hint",
                   "--iterations", "16", "--seconds", "1", "--save", "game.json"], tmp_path)
    child.expect(PROMPT)
    first = child.before
    assert "auction: standing bid none; passed: nobody" in first
    assert "your action (pass bid:A .. bid:120)" in first and "values:" in first  # a hint
    # the hint: the best five of the 70 actions, what the columns mean, how to see the rest
    table = first.split("values:")[1].split("your action")[0]
    rows = [x for x in table.splitlines() if x.startswith(("pass", "bid:"))]
    assert len(rows) == 5 and "... and 65 more (hint all lists them" in table
    assert "margin, a difference" in table
    for row in rows:
        lo, hi = (float(x) for x in row.split("[")[1].split("]")[0].split(","))
        assert 0 <= lo <= hi <= 1                     # a score's interval stays in [0, 1]
    child.sendline("help")
    child.expect(PROMPT)
    assert "its number in your hand (1 to 8)" in child.before
    assert "bid:A < bid:3 < bid:R" in child.before and "< bid:61 (the 2) < bid:62" in \
        child.before and "promises 61 card points for your side" in child.before
    child.sendline("hint all")
    child.expect(PROMPT)
    assert len([x for x in child.before.splitlines() if x.startswith(("pass", "bid:"))]) == 70
    child.sendline("hint bid:97")
    child.expect(PROMPT)
    rows = [x.split()[0] for x in child.before.splitlines() if x.startswith(("pass", "bid:"))]
    assert len(rows) in (5, 6) and "bid:97" in rows
    child.sendline("bid:7e")
    child.expect(PROMPT)
    assert "a bid is bid:A" in child.before and "Traceback" not in child.before
    child.sendline("bid:120")              # the top bid: the others may only pass
    child.expect(PROMPT)
    assert "you won the auction: call a card" in child.before
    assert "your action (call:2o call:2c call:2e call:2b)" in child.before
    assert "values:" in child.before and "call:2" in child.before
    child.sendline("call:2E")              # the code in any case
    child.expect(PROMPT)
    assert "you call 2e (two of espadas): trump espadas" in child.before
    assert "contract: bid:120 by you (target 120); called 2e (two of espadas)" in child.before
    end = play_out(child)
    assert "you fail bid:120" in end or "you make bid:120" in end
    log = end.split("the whole deal:")[1].split("\nsaved in")[0].strip()
    code, out, err = run(["replay", "--file", str(tmp_path / "game.json")], capsys)
    assert code == 0, err
    assert out.strip() == log.replace("\r\n", "\n")
    deal = load_deal_file(tmp_path / "game.json")
    assert deal.over and deal.auction[0] == (0, "bid:120")
    assert deal.contract.caller == 0 and action_code(deal.called) == "2e"


def test_chiamata_reopen_question_at_the_terminal(tmp_path):
    # seed 5: after seat 0 passes, the four greedy seats pass too; seat 0 is asked first
    child = spawn(["--preset", "chiamata-5-subito-al-due", "--seed", "5", "--strategy",
                   "greedy", "--iterations", "16"], tmp_path)
    child.expect(PROMPT)
    child.sendline("pass")
    child.expect(PROMPT)
    assert "everybody passed: reopen the auction at bid:61 (bid) or decline (pass)?" in \
        child.before
    assert "your action (pass bid:61)" in child.before
    child.sendline("hint")
    child.expect(PROMPT)
    assert "values: 16 sampled worlds" in child.before and "bid:61" in child.before
    child.sendline("bid:61")
    child.expect(PROMPT)
    assert "you reopen the auction" in child.before and "you bid 61 (target 61)" in \
        child.before
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    deal = load_deal_file(tmp_path / "play-5.json")
    assert deal.auction[:6] == [(0, "pass"), (1, "pass"), (2, "pass"), (3, "pass"),
                                (4, "pass"), (0, "bid:61")]
