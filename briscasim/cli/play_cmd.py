"""``briscasim play``: a deal or a match in the terminal against the built-in or your own
strategies.

You play one lineup entry; the others are strategies, as in ``briscasim simulate``. The deal
goes through the driver (:func:`briscasim.driver.play_deal`, :func:`~briscasim.driver.
match_deals`) with :class:`Terminal` deciding for your entry: it shows what your seat may
know (docs/rules.md, "Information: what each seat may know") and asks for your action. The
game is saved as a deal file that ``briscasim replay --file`` shows again.
"""
from __future__ import annotations

import json
import pathlib
import secrets

import click

from .. import cards as C
from ..engine import layout as L
from ..errors import UserError
from . import HELP_OPTIONS
from .options import SECONDS
from .simulate_cmd import complete_strategy, rules_from_options, rules_options

TOP = 5
"""Actions a hint shows (the best first), besides the one asked about."""

_RANKS = "A < 3 < R < C < S < 7 < 6 < 5 < 4"


def auction_help(rules) -> str:
    """Briscola Chiamata: the bids of ``rules.auction``, which beats which and what each
    promises (docs/rules.md, "Briscola Chiamata")."""
    low = rules.min_points
    two = f"bid:{low}"
    ranks = "bid:" + _RANKS.replace(" < ", " < bid:")
    partner = ("you and the partner who holds the card of that rank in the suit you will "
               "call;\n  a lower rank is a weaker partner card, so a stronger bid")
    if rules.auction == "rank_then_points":
        bids = (f"  a bid names a rank, or points from the 2 on; each must beat the standing "
                f"bid.\n  Weakest to strongest:\n    {ranks}\n    < {two} (the 2) < "
                f"bid:{low + 1} < ... < bid:120\n"
                f"  a rank bid (bid:A .. bid:4, and {two}, the 2) promises {low} card points "
                f"for your side:\n  {partner}\n"
                f"  bid:{low + 1} .. bid:120 keep the 2 and promise that many card points")
        call = "the card of your rank in a suit (call:Ro)"
    elif rules.auction == "rank_only":
        bids = (f"  a bid names a rank; each must beat the standing bid. Weakest to "
                f"strongest:\n    {ranks} < {two} (the 2, never outbid)\n"
                f"  every bid promises {low} card points for your side:\n  {partner}")
        call = "the card of your rank in a suit (call:Ro)"
    else:
        bids = (f"  a bid is a number of card points, {two} .. bid:120, each above the "
                "standing bid;\n  it promises that many card points for your side: you and "
                "the partner\n  who holds the card you will call")
        call = ("a 2, naming its suit (call:2o)" if rules.auction == "subito_al_due"
                else "any card (call:Ro)")
    reopen = ("\n  if everybody passes, each seat may reopen the auction at "
              f"{two} (bid) or decline (pass)" if rules.all_pass == "reopen_61" else "")
    return (f"the auction: pass (you are out of this auction) or bid\n{bids}\n"
            f"  you win the auction when the others have passed;\n  then you call {call}:"
            "\n"
            "  its suit is trump and whoever holds it is your secret partner"
            f"{reopen}")


def help_text(rules, held: int | None = None) -> str:
    """What may be typed at the prompt under ``rules``, holding ``held`` cards (default: a
    full hand)."""
    held = rules.hand_size if held is None else held
    cards = (f"type a card to play it: its code (Ao, 7c, Rb: rank A 3 R C S 9 8 7 6 5 4 2, "
             f"suit o c e b)\n  or its number in your hand (1 to {held})")
    swaps = ("; at a swap offer: swap or keep"
             if not rules.chiamata and (rules.swap_seven or rules.swap_two) else "")
    example = "hint bid:75" if rules.chiamata else "hint Ao"
    lines = [cards + swaps]
    if rules.chiamata:
        lines.append(auction_help(rules))
    lines += [f"hint   the best {TOP} actions with what each is worth (briscasim analyze)"
              f"\n       hint all: every action; hint ACTION: the best and that one "
              f"(hint 2, {example})",
              "help   this text",
              "quit   leave the game (Ctrl-D too); what was played is saved"]
    return "\n".join(lines)


class Quit(Exception):
    """The player left the game."""


def named(card: int) -> str:
    return f"{C.card_code(card)} ({C.card_name(card)})"


def _bid(level: int) -> str:
    from ..game import action_code
    return action_code(L.ACTION_BID + level)


def legal_line(legal) -> str:
    """The legal actions as codes, a run of four or more consecutive bids as ``first ..
    last``."""
    from ..game import action_code
    out, run = [], []
    for a in [*sorted(legal), None]:
        if run and (a is None or a != run[-1] + 1 or not L.ACTION_BID <= a < L.ACTION_CALL):
            out += ([f"{action_code(run[0])} .. {action_code(run[-1])}"] if len(run) > 3
                    else [action_code(x) for x in run])
            run = []
        if a is not None and L.ACTION_BID <= a < L.ACTION_CALL:
            run.append(a)
        elif a is not None:
            out.append(action_code(a))
    return " ".join(out)


class Terminal:
    """Decides for one lineup entry by asking at the terminal (a ``people`` entry of
    :class:`briscasim.driver.LineupPlayers`); shows only what its seat may know."""

    def __init__(self, hint: bool, iterations: int, seconds: float | None,
                 all_actions: bool = False, read=input, echo=click.echo):
        self.hint, self.iterations, self.seconds = hint, iterations, seconds
        self.all_actions = all_actions
        self.read, self.echo = read, echo
        self.advice = None         # (deal, actions played, analysis) of the last hint
        self.deals: list = []      # every deal this entry has sat at, the current one last
        self.seat = 0
        self.shown = 0             # events of the current deal already shown

    # ---- what happened ------------------------------------------------------------------
    def sit(self, deal, seat: int) -> None:
        """Take ``seat`` at ``deal`` (a new deal of the match when it is not the last one)."""
        if self.deals and self.deals[-1] is deal:
            return
        if self.deals:
            self.catch_up(self.deals[-1])
        self.deals.append(deal)
        self.seat, self.shown = seat, 0
        r = deal.rules
        if len(self.deals) > 1 or r.match_kind != "deal":
            self.echo(f"\n== deal {len(self.deals)}")
        self.echo(f"{r.name}: {r.players} players, you are seat {self.seat}"
                  + ("" if r.teams == "none" else
                     f" (side {r.side_of[self.seat]}: seats "
                     f"{' and '.join(map(str, r.sides[r.side_of[self.seat]]))})"))

    def catch_up(self, deal) -> None:
        """Show the events since the last shown, as the seat sees them."""
        events = deal.events
        for e in events[self.shown:]:
            line = self._event_line(deal, e)
            if line:
                self.echo(line)
        self.shown = len(events)

    def _event_line(self, deal, e) -> str | None:
        you = e.seat == self.seat
        who = "you" if you else f"seat {e.seat}"
        if e.kind == "turned":
            return f"face-up card: {named(e.a)}; trump {C.SUIT_NAMES[e.b]}"
        if e.kind == "play":
            return f"  {who} {'play' if you else 'plays'} {named(e.a)}"
        if e.kind == "trick":
            return (f"trick {e.b}: {who} {'take' if you else 'takes'} {e.a} points  "
                    f"(points: {self.points_line(deal)})")
        if e.kind == "draw" and (you or e.b):
            return (f"  {who} {'draw' if you else 'draws'} "
                    + (f"the face-up {named(e.a)}" if e.b else named(e.a)))
        if e.kind == "swap":
            return f"  {who} {'swap' if you else 'swaps'} {named(e.a)} for the face-up {named(e.b)}"
        if e.kind == "black_hand":
            return f"{who} {'have' if you else 'has'} a black hand"
        if e.kind == "bid":
            rank = _bid(e.a).removeprefix("bid:")
            return f"  {who} {'bid' if you else 'bids'} {rank} (target {e.b})"
        if e.kind == "pass":
            return f"  {who} {'pass' if you else 'passes'}"
        if e.kind == "reopen":
            return f"  {who} {'reopen' if you else 'reopens'} the auction" if e.a else \
                f"  {who} {'decline' if you else 'declines'} to reopen"
        if e.kind == "call":
            return (f"{who} {'call' if you else 'calls'} {named(e.a)}: trump "
                    f"{C.SUIT_NAMES[e.b]}" + ("; you hold it: you are the partner"
                                             if e.a in deal.hand(self.seat) and not you
                                             else ""))
        return None

    def points_line(self, deal) -> str:
        if deal.rules.chiamata:         # every seat for itself until the partner is known
            return ", ".join(f"{'you' if s == self.seat else f'seat {s}'} {p}"
                             for s, p in enumerate(deal.points))
        mine = deal.rules.side_of[self.seat]
        return ", ".join(f"{'your side' if s == mine else f'side {s}'} {p}"
                         for s, p in enumerate(deal.points))

    def contract_line(self, deal) -> str:
        """Briscola Chiamata: the auction so far, or the contract, the called card and what
        the seat knows of the partner."""
        bids = [e for e in deal.events if e.kind == "bid"]       # (level, target)
        last = bids[-1] if bids else None
        standing = "none" if last is None else (
            f"{_bid(last.a)} by {'you' if last.seat == self.seat else f'seat {last.seat}'} "
            f"(target {last.b})")
        called = deal.called
        if called is None:
            passed = [s for s in range(deal.rules.players)
                      if int(deal.state[L.S_PASSED]) >> s & 1]
            return (f"auction: standing bid {standing}; passed: "
                    + (", ".join("you" if s == self.seat else f"seat {s}" for s in passed)
                       or "nobody"))
        played = [e.seat for e in deal.events if e.kind == "play" and e.a == called]
        partner = ("you are the partner" if called in deal.hand(self.seat) else
                   f"partner: {'you' if played[0] == self.seat else f'seat {played[0]}'}"
                   if played else "partner: unknown")
        return f"contract: {standing}; called {named(called)}; {partner}"

    def status(self, deal) -> None:
        """Where the deal stands for the seat: the trick, the face-up card, points, what is
        known of other hands, the seat's hand."""
        from ..game import action_code
        view = deal.view(self.seat)
        to_draw = int(view.public[L.S_TO_DRAW])
        up = deal.face_up
        table = (f"face-up {named(up)}, " if up != L.NO_CARD and to_draw else "")
        if not deal.rules.chiamata:
            self.echo(f"\ntrick {int(view.public[L.S_TRICK_NO]) + 1}: trump "
                      f"{C.suit_name(deal.trump)}; {table}{to_draw} cards to draw; points: "
                      f"{self.points_line(deal)}")
        elif deal.phase in ("auction", "reopen", "call"):
            self.echo(f"\n{self.contract_line(deal)}")
            if deal.phase == "reopen":
                reopen = action_code(max(deal.legal_actions()))       # pass or this bid
                self.echo(f"everybody passed: reopen the auction at {reopen} (bid) or decline "
                          "(pass)?")
            if deal.phase == "call":
                self.echo("you won the auction: call a card (its suit is trump)")
        else:
            self.echo(f"\ntrick {int(view.public[L.S_TRICK_NO]) + 1}: trump "
                      f"{C.suit_name(deal.trump)}; {self.contract_line(deal)}; points: "
                      f"{self.points_line(deal)}")
        trick = deal.current_trick
        if trick and deal.phase == "play":
            self.echo("on the table: " + ", ".join(named(c) for c in trick))
        held = sorted((c, s) for c, s in view.known.items() if 0 <= s < L.MAX_PLAYERS
                      and s != self.seat)
        if held:
            self.echo("known: " + "; ".join(f"seat {s} holds {named(c)}" for c, s in held))
        self.echo("your hand: " + "  ".join(f"{i}) {named(c)}"
                                            for i, c in enumerate(view.hand_cards, 1)))

    # ---- a decision -----------------------------------------------------------------------
    def __call__(self, deal) -> int:
        self.sit(deal, deal.turn)
        self.catch_up(deal)
        self.status(deal)
        if deal.phase == "swap":
            trial = deal.copy()
            trial.play(L.ACTION_SWAP)
            (given,) = set(deal.hand(self.seat)) - set(trial.hand(self.seat))
            self.echo(f"you may swap your {named(given)} for the face-up {named(deal.face_up)}")
        if self.hint:
            self.show_hint(deal)
        legal = deal.legal_actions()
        ask = ("your card" if max(legal) < C.N_CARD_IDS else
               f"your action ({legal_line(legal)})")
        while True:
            try:
                text = self.read(f"{ask} (help, hint, quit)> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.echo("")
                raise Quit from None
            action = self.parse(deal, text)
            if action is not None:
                self.judge(deal, action)
                return action

    def parse(self, deal, text: str) -> int | None:
        """The action typed, or None after answering a command or a mistake."""
        from ..game import action_code, parse_action
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?", "h", ""):
            self.echo(help_text(deal.rules, len(deal.view(self.seat).hand_cards)))
            return None
        first, _, rest = word.partition(" ")
        if first == "hint":
            rest = rest.strip()
            if rest in ("", "all"):
                self.show_hint(deal, everything=rest == "all")
                return None
            asked = self.parse(deal, rest)
            if asked is not None:
                self.show_hint(deal, also=(asked,))
            return None
        legal = deal.legal_actions()
        hand = deal.view(self.seat).hand_cards
        if word.isdigit() and deal.phase == "play":
            if not 1 <= int(word) <= len(hand):
                self.echo(f"{text}: your hand has cards 1 to {len(hand)}")
                return None
            action = hand[int(word) - 1]
        else:
            kind, colon, card = text.rpartition(":")
            if len(card) == 2:          # a card code, as typed in any case: ao, AO, call:ro
                text = f"{kind}{colon}{card[:1].upper()}{card[1:].lower()}"
            try:
                action = parse_action(text, legal)
            except UserError as e:
                self.echo(f"{e}; type help for help")
                return None
        if action in legal:
            return action
        where = ("not in your hand" if action < C.N_CARD_IDS and deal.phase == "play"
                 and action not in hand else
                 "not legal now: the auction is won, and its winner calls a card"
                 if deal.phase == "call" else "not legal now")
        self.echo(f"{action_code(action)} is {where}; legal: {legal_line(legal)}")
        return None

    def _advice(self, deal):
        """The analysis of the last hint if it was of this decision, else None."""
        if self.advice is not None and self.advice[0] is deal and \
                self.advice[1] == len(deal.actions):
            return self.advice[2]
        return None

    def analysis(self, deal):
        """The analysis of the decision at hand (made once per decision)."""
        from ..position import analyze
        if self._advice(deal) is None:
            self.advice = (deal, len(deal.actions),
                           analyze(deal, self.iterations, self.seconds, separate=True))
        return self.advice[2]

    def show_hint(self, deal, everything: bool = False, also=()) -> None:
        """The best few actions with their values (every action if ``everything`` or
        ``--all``), and those of ``also``."""
        from .analyze_cmd import format_analysis
        top = None if everything or self.all_actions else TOP
        self.echo(format_analysis(self.analysis(deal), top, also,
                                  more=" (hint all lists them; hint ACTION shows one)"))

    def judge(self, deal, action: int) -> None:
        """After a hint: the action chosen beside the best, unless it is tied with it."""
        from ..game import action_code
        result = self._advice(deal)
        mine = None if result is None else next(
            (a for a in result.actions if a.action == action), None)
        if mine is None or action in result.tied:
            return
        best = result.ranked[0]
        rank = [a.action for a in result.ranked].index(action) + 1
        self.echo(f"your {action_code(action)} ranks {rank} of {len(result.actions)}: score "
                  f"{mine.score:.3f}, margin {mine.margin:+.1f}; the best, "
                  f"{action_code(best.action)}: {best.score:.3f}, {best.margin:+.1f}")


def result_line(contract, seat: int) -> str:
    """Briscola Chiamata: the deal's result as ``seat`` hears it."""
    if contract.caller is None:
        return "everybody passed: the deal is thrown in"
    who = "you" if contract.caller == seat else f"seat {contract.caller}"
    alone = contract.partner == contract.caller
    return (f"{who} {'make' if who == 'you' else 'makes'} " if contract.success else
            f"{who} {'fail' if who == 'you' else 'fails'} ") + (
        f"{contract.bid} with {contract.side_points} card points"
        + (" alone" if alone else f" (partner seat {contract.partner})")
        + f"; your game points {contract.game_points[seat]:+d}")


def save(deals, path: pathlib.Path, labels) -> list[pathlib.Path]:
    """Each deal as a deal file (one per deal of a match: ``NAME-deal2.json`` ...)."""
    out = []
    for j, deal in enumerate(deals):
        p = path if len(deals) == 1 else path.with_name(f"{path.stem}-deal{j + 1}{path.suffix}")
        d = deal.to_dict()
        d["strategies"] = labels
        p.write_text(json.dumps(d, indent=2) + "\n")
        out.append(p)
    return out


@click.command(context_settings=HELP_OPTIONS)
@rules_options
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:key=value,...]",
              shell_complete=complete_strategy,
              help="Your opponents (and partners): once for all, or once per other seat in "
                   "order (default: greedy). Built-ins or module:function.")
@click.option("--seat", type=int, default=0, show_default=True,
              help="Your seat (0 leads the first trick; the dealer sits last).")
@click.option("--seed", type=int, default=None,
              help="The cards' seed (default: a fresh one, printed; the same seed deals the "
                   "same cards).")
@click.option("--deal", "deal_index", type=int, default=0, show_default=True,
              help="Which deal (match) of the seed.")
@click.option("--hint", is_flag=True,
              help="Before each of your decisions, show what each action is worth (analyze).")
@click.option("--iterations", type=int, default=2000, show_default=True,
              help="Worlds sampled for a hint, at most (it stops once the best action is "
                   "apart from the others).")
@click.option("--seconds", type=SECONDS, default=2.0, show_default=True,
              help="Time for a hint, at most.")
@click.option("--all", "all_actions", is_flag=True,
              help="Hints list every action, not only the best few.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="The deal file to save the game in (default: play-SEED.json).")
def play(preset, rule_overrides, strategies, seat, seed, deal_index, hint, iterations, seconds,
         all_actions, save_path):
    """Play a deal (or a match, under a match rule) in the terminal against strategies.

    \b
    You see what your seat may know: your hand, the trick, the face-up card, the points,
    cards known to be in other hands; in Briscola Chiamata the auction, the contract and the
    called card. Type a card (Ao, or its number in your hand), swap or keep; in Chiamata
    pass, bid:R, bid:70 or call:Ro; hint, help or quit. The game is saved as a deal file:
      briscasim play --preset brisca-2 --strategy ismcts --hint
      briscasim replay --file play-SEED.json
    """
    from ..driver import match_deals, play_deal
    from ..limits import MAX_INDEX
    from ..simulate import Lineup

    rules = rules_from_options(preset, rule_overrides)
    n = rules.players
    if not 0 <= seat < n:
        raise UserError(f"--seat {seat}: seats are numbered 0 to {n - 1} in {rules.name}")
    if len(strategies) not in (0, 1, n - 1):
        raise UserError(f"--strategy: give one for every other seat ({n - 1}) or one for all;"
                        f" got {len(strategies)}")
    if iterations < 1:
        raise UserError(f"--iterations {iterations}: give at least 1")
    if not 0 <= deal_index <= MAX_INDEX:
        raise UserError(f"--deal {deal_index}: give 0 to {MAX_INDEX}")
    if seed is None:
        seed = secrets.randbits(32)
    elif not 0 <= seed < 2 ** 64:
        raise UserError(f"--seed {seed}: give 0 to {2 ** 64 - 1}")
    others = list(strategies) or ["greedy"]
    others = others * (n - 1) if len(others) == 1 else others
    specs = others[:seat] + ["random"] + others[seat:]     # your entry is never asked
    lineup = Lineup.build(rules, specs)
    labels = [("you" if s == seat else label) for s, label in enumerate(lineup.labels)]
    path = pathlib.Path(save_path or f"play-{seed}.json")
    you = Terminal(hint, iterations, seconds, all_actions)
    click.echo(f"seed {seed}, deal {deal_index}: "
               + ", ".join(f"seat {s} {x}" for s, x in enumerate(labels)))
    try:
        if rules.match_kind == "deal":
            deals, match = [play_deal(rules, lineup, seed, deal_index, people={seat: you})], None
        else:
            deals, *match = match_deals(rules, lineup, seed, deal_index, people={seat: you})
    except Quit:
        saved = save(you.deals, path, labels) if you.deals else []
        click.echo("you left the game" + (f"; what was played is saved in "
                                           f"{', '.join(map(str, saved))}" if saved else ""))
        return
    from ..engine.match import seating
    for deal in deals:                     # a deal ended by a black hand asks nobody
        you.sit(deal, (seat - seating(deal.shift, 0, n)) % n)
        you.catch_up(deal)
        out = deal.outcome
        side = rules.side_of[you.seat]
        if rules.chiamata:
            click.echo(f"\n{result_line(deal.contract, you.seat)} ({you.points_line(deal)})")
            continue
        click.echo("\nthe deal is drawn" if out.winner is None else
                   f"\n{'you win' if out.winner == side else f'side {out.winner} wins'} the "
                   f"deal ({you.points_line(deal)})")
    if match:
        won, points, _, result = match
        mine = rules.side_of[seat]          # the match counts the players' sides
        click.echo("match: " + ("drawn" if result == L.DRAW else "you win" if result == mine
                                else f"side {result} wins")
                   + f" after {len(deals)} deals (deals won "
                   + ", ".join(f"side {s}: {won[s]}" for s in range(len(rules.sides)))
                   + "; points " + ", ".join(f"side {s}: {points[s]}"
                                             for s in range(len(rules.sides))) + ")")
    saved = save(deals, path, labels)
    click.echo("\nthe whole deal:\n" + deals[-1].log())
    click.echo(f"\nsaved in {', '.join(map(str, saved))}; show it again with: briscasim "
               f"replay --file {saved[-1]}")
