"""Array layouts shared by every kernel: the rules vector, the deal state, events, records.

The engine sees only arrays. A ``Rules`` value becomes an ``int64`` *rules vector* (``R_*``
offsets); a deal is one ``int16`` *state* array (``S_*`` offsets); what happened in a deal can
be written into an ``int16`` *event* buffer (``EV_*``); a finished deal leaves an ``int32``
*record* (``REC_*``). Each is declared once below as a :class:`Block` of named fields with
sizes: the offsets follow from the order of the declaration, and :meth:`Block.check` (run
when this module loads) proves that no two fields overlap and that all lie in the block.

The state's first ``PUBLIC_LEN`` entries are public: everything every seat may know
(docs/rules.md, "What each seat may know"). Hands and the face-down stock order come after,
so a seat's view is two zero-copy slices: the public prefix and its own hand. Strategies read
the view through :mod:`briscasim.strategies.view`, not through these offsets.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_PLAYERS = 6
MAX_SIDES = 6
MAX_HAND = 8
"""Hand slots per seat in the state: the largest ``hand_size`` of any game (a hand of
``hand_size`` cards fills the seat's first slots; the others stay ``NO_CARD``)."""
N_CARD_IDS = 48
NO_CARD = -1


@dataclass(frozen=True)
class Field:
    """One named field of a :class:`Block`: ``size`` entries from ``offset``."""
    name: str
    offset: int
    size: int
    doc: str


class Block:
    """A flat array's fields, declared in order; each field's offset is derived from the
    sizes of the fields declared before it."""

    def __init__(self, name: str, dtype: str):
        self.name, self.dtype = name, dtype
        self.fields: list[Field] = []
        self.length = 0

    def field(self, name: str, size: int = 1, doc: str = "", before: int = 0) -> int:
        """Declare a field of ``size`` entries after ``before`` reserved ones (the per-card
        tables reserve one for ``NO_CARD``); return its offset."""
        offset = self.length + before
        self.fields.append(Field(name, offset - before, size + before, doc))
        self.length = offset + size
        return offset

    def check(self, length: int | None = None) -> None:
        """Fail at import if two fields overlap, a field leaves the block, or a name repeats;
        with ``length``, the block must be exactly that long."""
        names = [f.name for f in self.fields]
        assert len(set(names)) == len(names), f"{self.name}: repeated field names"
        end = 0
        for f in sorted(self.fields, key=lambda f: f.offset):
            assert f.size > 0 and f.offset >= end, f"{self.name}: {f.name} overlaps"
            end = f.offset + f.size
        assert end <= self.length, f"{self.name}: {self.fields[-1].name} out of bounds"
        assert length is None or self.length == length, f"{self.name}: length {self.length}"

    def table(self) -> str:
        """The block as a Markdown table (offset, size, name, meaning)."""
        rows = [f"| {f.offset} | {f.size} | `{f.name}` | {f.doc} |" for f in self.fields]
        return "\n".join(["| offset | size | field | meaning |", "|---|---|---|---|"] + rows)


# ---- rules vector (int64) ------------------------------------------------------------------
RULES = Block("rules vector", "int64")
R_PLAYERS = RULES.field("players", 1, "number of seats, 2..6")
R_N_SIDES = RULES.field("n_sides", 1, "sides (teams, or players when everyone is alone)")
R_SIDE = RULES.field("side", MAX_PLAYERS, "side of each seat")
R_HAND_SIZE = RULES.field("hand_size", 1, "cards in each hand after the deal, 1..MAX_HAND")
R_DECK_N = RULES.field("deck_n", 1, "cards shuffled and dealt from (deck minus removed cards)")
R_N_IN_PLAY = RULES.field("n_in_play", 1, "cards that come into play (minus undrawn cards)")
R_LEFTOVER = RULES.field("leftover", 1, "LEFTOVER_*")
R_N_UNDRAWN = RULES.field("n_undrawn", 1, "cards left undrawn")
R_SWAP_SEVEN = RULES.field("swap_seven", 1, "the trump 7 may be swapped")
R_SWAP_TWO = RULES.field("swap_two", 1, "the trump 2 may be swapped")
R_SWAP_TIMING = RULES.field("swap_timing", 1, "TIMING_*")
R_OBJECTIVE = RULES.field("objective", 1, "OBJECTIVE_*")
R_TIE = RULES.field("tie", 1, "TIE_*")
R_BLACK_HAND = RULES.field("black_hand", 1, "a black hand wins the deal")
R_RESHUFFLE = RULES.field("face_up_reshuffle", 1, "a turned A or 3 goes back into the stock")
R_SIGNALS = RULES.field("signals", 1, "SIGNALS_*: partners signal their high cards, or the "
                        "captains learn of their partners' hands")
R_NO_TRUMP = RULES.field("no_trump", 1, "no card is turned and no suit is trump")
R_FOLLOW_SUIT = RULES.field("must_follow_suit", 1, "a follower holding the suit led must "
                            "play it")
R_OPEN_HANDS = RULES.field("open_hands", 1, "every card dealt or drawn is seen by all")
R_STOCK_TOP_VISIBLE = RULES.field("stock_top_visible", 1, "the next face-down card to draw is "
                                  "seen by all")
R_RAIS = RULES.field("rais", MAX_SIDES, "captain of each side under signals = rais (-1: none)")
R_TARGET_POINTS = RULES.field("target_points", 1, "a seat whose own captured points reach "
                              "this wins the deal at once (0: no target)")
R_JACK_OVER_HORSE = RULES.field("jack_over_horse", 1, "the jack ranks above the horse")
R_SEVEN_FACES = RULES.field("seven_faces", 1, "bit mask of face-up faces a 7-swap may take")
R_TWO_FACES = RULES.field("two_faces", 1, "bit mask of face-up faces a 2-swap may take")
R_MATCH_KIND = RULES.field("match_kind", 1, "MATCH_*")
R_MATCH_N = RULES.field("match_n", 1, "N deals, K rounds, or P points")
R_MAX_DEALS = RULES.field("max_deals", 1, "deals a match plays at most")
R_STRENGTH = RULES.field("strength", 12, "strength per face, higher wins")
R_POINTS = RULES.field("points", 12, "points per face")
R_DECK = RULES.field("deck", N_CARD_IDS, "card ids of the deck in play order, unshuffled")
# Per-card tables (indexed by card id), so the kernels need no division by 12; each has an
# entry for NO_CARD (index -1) just before it, so that an empty hand slot reads as a card
# that is in no suit, worth nothing and stronger than any real card (EMPTY_*).
R_CARD_POINTS = RULES.field("card_points", N_CARD_IDS, "points of each card", before=1)
R_CARD_STRENGTH = RULES.field("card_strength", N_CARD_IDS, "strength of each card in its "
                              "suit", before=1)
R_CARD_SUIT = RULES.field("card_suit", N_CARD_IDS, "suit of each card", before=1)
R_CARD_FACE = RULES.field("card_face", N_CARD_IDS, "face of each card", before=1)
R_CARD_STRONGER = RULES.field("card_stronger", N_CARD_IDS, "bit mask of the cards of each "
                              "card's suit that are stronger than it (bit = card id)")
# Briscola Chiamata (docs/rules.md); R_AUCTION is AUCTION_NONE in every other game
R_AUCTION = RULES.field("auction", 1, "AUCTION_*")
R_ALL_PASS = RULES.field("all_pass", 1, "ALL_PASS_*")
R_MIN_POINTS = RULES.field("min_points", 1, "target of a rank contract, lowest point bid")
R_SELF_CALL = RULES.field("self_call", 1, "the caller may call a card he holds")
R_FIRST_LEAD = RULES.field("first_lead", 1, "LEAD_*")
R_CAPPOTTO = RULES.field("cappotto", 1, "CAPPOTTO_*")
R_BID_MULTIPLIER = RULES.field("bid_multiplier", 1, "MULTIPLIER_*")
R_MATES = RULES.field("mates", MAX_PLAYERS, "per seat, the bit mask of the seats of its side")

EMPTY_POINTS, EMPTY_STRENGTH, EMPTY_SUIT, EMPTY_FACE = 0, 1_000_000, 4, 12
"""What the per-card tables read for NO_CARD: an empty slot never follows suit, never
trumps, never beats a card, and sorts after every card by strength."""

LEFTOVER_NONE, LEFTOVER_REMOVE, LEFTOVER_FACE_UP, LEFTOVER_HIDDEN = 0, 1, 2, 3
TIMING_BEFORE_DRAW, TIMING_AFTER_DRAW = 0, 1
OBJECTIVE_MOST, OBJECTIVE_FEWEST = 0, 1
TIE_DRAW, TIE_LAST_TRICK = 0, 1
MATCH_SINGLE, MATCH_DEALS, MATCH_ROUNDS, MATCH_POINTS = 0, 1, 2, 3
SIGNALS_NONE, SIGNALS_HONEST, SIGNALS_RAIS = 0, 1, 2
AUCTION_NONE, AUCTION_RANK_THEN_POINTS, AUCTION_RANK_ONLY, AUCTION_POINTS_ONLY, \
    AUCTION_SUBITO_AL_DUE = 0, 1, 2, 3, 4
ALL_PASS_REDEAL_SAME_DEALER, ALL_PASS_REDEAL_NEXT_DEALER, ALL_PASS_REOPEN_61 = 0, 1, 2
LEAD_ELDEST, LEAD_CALLER = 0, 1
CAPPOTTO_POINTS, CAPPOTTO_TRICKS, CAPPOTTO_OFF = 0, 1, 2
MULTIPLIER_FLAT, MULTIPLIER_LADDER = 0, 1

# Rule features whose code a batch kernel may be compiled without: a kernel's ``features``
# mask (a constant of the kernel) names those it holds, so numba prunes the others' branches
# before it types them (a run compiles only the rules it plays). The engine's functions take
# the mask as their last argument, ``EVERY_FEATURE`` by default (the driver, the searches).
F_AUCTION = 1       # Briscola Chiamata's auction, call and settlement
F_FOLLOW_SUIT = 2   # must_follow_suit
F_TARGET = 4        # target_points
F_SHOWN = 8         # open_hands or stock_top_visible
F_BLACK_HAND = 16   # black_hand
F_RAIS = 32         # signals = rais
F_FEWEST = 64       # play for the fewest points (objective = fewest, or a strategy's own)
F_LARGE_HAND = 128  # hands of more than three cards
F_SIGNALS = 256     # partner signals (honest or rais)
F_PLAYS = 512       # the order of play recorded (S_PLAYS), for the strategies that read it
EVERY_FEATURE = 1023

# ---- deal state (int16) --------------------------------------------------------------------
STATE = Block("deal state", "int16")
# public part: what every seat may know
S_PHASE = STATE.field("phase", 1, "PHASE_*")
S_TURN = STATE.field("turn", 1, "seat to act")
S_LEADER = STATE.field("leader", 1, "seat that led (or will lead) the current trick")
S_TRICK_N = STATE.field("trick_n", 1, "cards played so far in the current trick")
S_TRICK_NO = STATE.field("trick_no", 1, "tricks completed")
S_N_TRICKS = STATE.field("n_tricks", 1, "tricks in the whole deal")
S_TRUMP = STATE.field("trump", 1, "trump suit 0..3, or NO_TRUMP")
S_FACE_UP = STATE.field("face_up", 1, "the face-up card (the current one after swaps)")
S_TURNED = STATE.field("turned", 1, "the card first turned face up (after any reshuffle)")
S_TO_DRAW = STATE.field("to_draw", 1, "cards still to be drawn from the stock")
S_FACEDOWN_TO_DRAW = STATE.field("facedown_to_draw", 1, "face-down cards among them")
S_DRAWN = STATE.field("drawn", 1, "face-down cards drawn so far")
S_LAST_WINNER = STATE.field("last_winner", 1, "seat that won the latest trick (-1: none)")
S_WINNER = STATE.field("winner", 1, "side that won the deal; DRAW; UNDECIDED while in play")
S_BLACK_HAND = STATE.field("black_hand", 1, "seat that showed a black hand, else -1")
S_SWAP7_SEAT = STATE.field("swap7_seat", 1, "7-swap: seat, else -1")
S_SWAP7_TRICK = STATE.field("swap7_trick", 1, "7-swap: the trick just won (1-based)")
S_SWAP7_CARD = STATE.field("swap7_card", 1, "7-swap: the face-up card taken")
S_SWAP2_SEAT = STATE.field("swap2_seat", 1, "2-swap: seat, else -1")
S_SWAP2_TRICK = STATE.field("swap2_trick", 1, "2-swap: the trick just won (1-based)")
S_SWAP2_CARD = STATE.field("swap2_card", 1, "2-swap: the face-up card taken")
S_TRICK = STATE.field("trick", MAX_PLAYERS, "cards of the current trick in playing order")
S_POINTS = STATE.field("points", MAX_SIDES, "card points taken per side")
S_TRICKS_WON = STATE.field("tricks_won", MAX_SIDES, "tricks taken per side")
S_LAST_WON = STATE.field("last_won", MAX_SIDES, "per side, 1 + the latest trick it won "
                         "(0: none)")
S_SEAT_POINTS = STATE.field("seat_points", MAX_PLAYERS, "card points taken per seat (kept "
                            "only with target_points)")
S_TARGET_SEAT = STATE.field("target_seat", 1, "seat whose captured points reached "
                            "target_points, ending the deal, else -1")
S_KNOWN = STATE.field("known", N_CARD_IDS, "public knowledge of each card: KNOWN_* or a seat "
                      "(NO_CARD reads KNOWN_OUT)", before=1)
# Briscola Chiamata: the auction, the call and the result (-1 while unknown or not played)
S_BID = STATE.field("bid", 1, "the standing bid (BID level), -1: none yet")
S_BIDDER = STATE.field("bidder", 1, "seat of the standing bid, -1: none")
S_PASSED = STATE.field("passed", 1, "bit mask of the seats that have passed")
S_REOPENED = STATE.field("reopened", 1, "1 once the reopen round of reopen_61 has begun")
S_CALLER = STATE.field("caller", 1, "seat that won the auction, -1: none (yet)")
S_CALLED = STATE.field("called", 1, "the called card, -1: not called yet")
S_PARTNER = STATE.field("partner", 1, "seat that played the called card, from the end of "
                        "that trick; -1 before (chiamata.trick_partner reads the trick too)")
S_GAME_POINTS = STATE.field("game_points", MAX_PLAYERS, "game points of each seat in the "
                            "finished deal")
S_SEAT_BIDS = STATE.field("seat_bids", MAX_PLAYERS, "each seat's latest bid level in the "
                          "auction, -1: none")
S_PLAYS = STATE.field("plays", N_CARD_IDS, "every card played so far, in playing order, as "
                      "PLAY_SEAT * seat + card (NO_CARD after the last): play i is card "
                      "i % players of trick i // players")
PUBLIC_LEN = STATE.length
# hidden part
S_HANDS = STATE.field("hands", MAX_PLAYERS * MAX_HAND, "hands, MAX_HAND slots a seat, NO_CARD "
                      "in empty slots")
S_STOCK = STATE.field("stock", N_CARD_IDS, "face-down stock, top first (not the turned card)")
S_N_FACEDOWN = STATE.field("n_facedown", 1, "face-down cards in the stock (drawable and "
                           "undrawn)")
# a declined swap offer is not public: only its seat knows it could have swapped
S_SWAP7_DECLINED = STATE.field("swap7_declined", 1, "7-swap offers declined in this deal")
S_SWAP2_DECLINED = STATE.field("swap2_declined", 1, "2-swap offers declined in this deal")
# Briscola Chiamata: who holds the called card is secret until it is played
S_HOLDER = STATE.field("holder", 1, "seat holding the called card, -1: not called yet")
STATE_LEN = STATE.length

START_STATE_SLOTS = (STATE_LEN + 3) // 4
R_START_STATE = RULES.field("start_state", START_STATE_SLOTS, "the state of a deal before "
                            "its cards are dealt (int16 packed four to a slot)")
RULES_LEN = RULES.length

PHASE_PLAY, PHASE_SWAP, PHASE_OVER = 0, 1, 2
NO_TRUMP = 5
"""``S_TRUMP`` under ``trump = none``: a suit no card has (nor an empty slot, ``EMPTY_SUIT``),
so ``beats`` gives every trick to the highest card of the suit led."""
PHASE_AUCTION, PHASE_REOPEN, PHASE_CALL = 3, 4, 5
"""Briscola Chiamata: bids and passes; the reopen question of reopen_61; the call."""
UNDECIDED = -2
DRAW = -1
"""A drawn deal; in Briscola Chiamata a deal thrown in (everybody passed)."""
DEFENDERS = -3
"""Briscola Chiamata: the winner of a deal whose caller's side failed (on success the winner
is the caller's seat)."""

# Public knowledge of a card (S_KNOWN); values 0..5 mean "known to be in that seat's hand".
KNOWN_UNSEEN = -1      # in some hand, the face-down stock, or an unseen undrawn card
KNOWN_PLAYED = 6       # played (in a finished trick or the current one)
KNOWN_FACE_UP = 7      # the face-up card on the table
KNOWN_OUT = 8          # not in play and known to be so (removed, or not in this deck)
KNOWN_STOCK_TOP = 9    # the top face-down card of the stock, the next one drawn, shown to all
#                        (stock_top_visible)

PLAY_SEAT = 64
"""``S_PLAYS`` entries are ``PLAY_SEAT * seat + card``."""

# ---- actions -------------------------------------------------------------------------------
# 0..47: play that card. During a swap offer: SWAP or KEEP.
ACTION_SWAP = 48
ACTION_KEEP = 49
# Briscola Chiamata: pass; bid level l (ACTION_BID + l); call card c (ACTION_CALL + c).
# Bid levels in the order of strength: 0..8 the ranks A 3 R C S 7 6 5 4 (a contract of
# min_points), then 9 + (p - 61) a contract of p = 61..120 points (in a rank auction the
# two at p; the plain two is the two at min_points).
ACTION_PASS = 50
ACTION_BID = 51
N_RANK_BIDS = 9
N_BID_LEVELS = N_RANK_BIDS + 60
FIRST_POINT_BID = 61
BID_FACES = (0, 1, 2, 3, 4, 7, 8, 9, 10)
"""The face (card id % 12) called by each rank bid level; a point bid calls the two (11)."""
ACTION_CALL = ACTION_BID + N_BID_LEVELS
N_ACTIONS = ACTION_CALL + N_CARD_IDS
MAX_LEGAL = MAX_HAND
"""Room for the legal actions of a decision in play (a hand, or swap / keep)."""
MAX_LEGAL_ANY = 1 + N_BID_LEVELS
"""Room for the legal actions of any state, the auction's (a pass and every bid) included."""

# ---- events (int16): what happened, written by the engine when given a buffer --------------
EVENT = Block("event", "int16")
EV_KIND = EVENT.field("kind", 1, "EVENT_*")
EV_SEAT = EVENT.field("seat", 1, "the seat it concerns (the winning side for EVENT_OVER)")
EV_A = EVENT.field("a", 1, "first detail (below)")
EV_B = EVENT.field("b", 1, "second detail (below)")
EVENT_LEN = EVENT.length
# kinds, with (a, b):
EVENT_DEALT = 0        # a card dealt to a seat at the start: (card, -)
EVENT_TURNED = 1       # the card turned face up; seat -1: (card, trump suit)
EVENT_PLAY = 2         # a card played: (card, its place in the trick, 0-based)
EVENT_TRICK = 3        # a trick won by a seat: (points, trick number, 1-based)
EVENT_DRAW = 4         # a card drawn: (card, 1 if it was the face-up card)
EVENT_SWAP = 5         # a trump 7 or 2 swapped for the face-up card: (given, taken)
EVENT_DECLINE = 6      # a swap offer declined: (the trump 7 or 2 that could swap, -)
EVENT_BLACK_HAND = 7   # a black hand shown: (-, -)
EVENT_OVER = 8         # the deal is over; seat: winning side or DRAW: (points of side 0,
#                        points of side 1); every side's points are in the state.
#                        Chiamata: seat: the caller (success), DEFENDERS or DRAW (thrown
#                        in): (card points of the caller's side, of the defenders)
EVENT_TARGET = 9       # a seat's captured points reached target_points: (its points, trick
#                        number, 1-based); the deal ends at once
EVENT_BID = 10         # a bid: (bid level, the contract's target points)
EVENT_PASS = 11        # a pass in the auction: (-, -)
EVENT_REOPEN = 12      # an answer to the reopen question: (1 reopens, 0 declines; -)
EVENT_CALL = 13        # the call, seat the caller: (the called card, trump suit)
MAX_EVENTS = 256
"""Rows of an event buffer: row 0 holds the count of events (``[0, 0]``), rows 1.. the events;
a deal writes fewer than 200."""

# ---- signals (docs/rules.md, partner signals): one byte per partner, in seat order after me -
SIG_TRUMP_ACE = 1
SIG_TRUMP_THREE = 2
SIG_TRUMP_KING = 4
SIG_TRUMP_HORSE = 8
SIG_TRUMP_JACK = 16
SIG_BRISCA = 32        # holds a non-trump A or 3
SIG_NO_TRUMP = 64      # holds no trump at all
SIG_VALID = 128        # set on every partner byte, so "no signal" (0) is distinguishable

# ---- the captain's information under signals = rais (docs/rules.md, Schembil): a byte per
# partner in seat order after the captain, then from bit RAIS_HAND_SHIFT the cards (a bit per
# card id) of the next team-mate's hand once no draw is left; 0 for every other seat
RAIS_WORTHLESS = 1     # holds a non-trump card worth no points
RAIS_LOW_TRUMP = 2     # holds the trump 2, 4, 5 or 6
RAIS_DRESSED_TRUMP = 4  # holds the trump R, C or S
RAIS_CARICO = 8        # holds a non-trump A or 3
RAIS_WINNER = 16       # holds a non-trump card that would win the trick as it stands
RAIS_WINNER_KNOWN = 32  # RAIS_WINNER is given (a card is on the table, the partner to play)
RAIS_HAND_SHIFT = 16

# ---- per-deal record (int32), written by engine.core.write_record --------------------------
RECORD = Block("deal record", "int32")
REC_WINNER = RECORD.field("winner", 1, "side, or DRAW")
REC_BLACK_HAND = RECORD.field("black_hand", 1, "seat, or -1")
REC_LAST_WINNER = RECORD.field("last_winner", 1, "seat that won the last trick played")
REC_TRUMP = RECORD.field("trump", 1, "trump suit")
REC_TURNED = RECORD.field("turned", 1, "the card first turned face up")
REC_SWAP7_SEAT = RECORD.field("swap7_seat", 1, "7-swap: seat, or -1")
REC_SWAP7_TRICK = RECORD.field("swap7_trick", 1, "7-swap: the trick just won")
REC_SWAP7_CARD = RECORD.field("swap7_card", 1, "7-swap: the face-up card taken")
REC_SWAP2_SEAT = RECORD.field("swap2_seat", 1, "2-swap: seat, or -1")
REC_SWAP2_TRICK = RECORD.field("swap2_trick", 1, "2-swap: the trick just won")
REC_SWAP2_CARD = RECORD.field("swap2_card", 1, "2-swap: the face-up card taken")
REC_SWAP7_DECLINED = RECORD.field("swap7_declined", 1, "7-swap offers declined")
REC_SWAP2_DECLINED = RECORD.field("swap2_declined", 1, "2-swap offers declined")
REC_OUT_POINTS = RECORD.field("out_points", 1, "card points that never came into play")
REC_POINTS = RECORD.field("points", MAX_SIDES, "points per side")
REC_TARGET_SEAT = RECORD.field("target_seat", 1, "seat whose captured points reached "
                               "target_points, ending the deal; or -1")
RECORD_LEN = RECORD.length
"""Length of the record of a trick game; Briscola Chiamata's adds the fields below."""
REC_CONTRACT = RECORD.field("contract", 1, "Chiamata: the winning bid level, -1 thrown in")
REC_TARGET = RECORD.field("target", 1, "Chiamata: the card points the caller's side needs")
REC_CALLER = RECORD.field("caller", 1, "Chiamata: the caller's seat, -1 thrown in")
REC_CALLED = RECORD.field("called", 1, "Chiamata: the called card, -1 thrown in")
REC_PARTNER = RECORD.field("partner", 1, "Chiamata: the called card's holder (the caller "
                           "when alone), -1 thrown in")
REC_SIDE_POINTS = RECORD.field("side_points", 1, "Chiamata: card points of the caller's side")
REC_SIDE_TRICKS = RECORD.field("side_tricks", 1, "Chiamata: tricks of the caller's side")
REC_SUCCESS = RECORD.field("success", 1, "Chiamata: 1 the contract is made, 0 failed, -1 "
                           "thrown in")
REC_MULTIPLIER = RECORD.field("multiplier", 1, "Chiamata: the deal's multiplier (ladder "
                              "times cappotto), 0 thrown in")
REC_GAME_POINTS = RECORD.field("game_points", MAX_PLAYERS, "Chiamata: game points per seat")
CHIAMATA_RECORD_LEN = RECORD.length

for _block, _length in ((RULES, RULES_LEN), (STATE, STATE_LEN), (EVENT, 4),
                        (RECORD, CHIAMATA_RECORD_LEN)):
    _block.check(_length)
assert RECORD_LEN == 21 and ACTION_CALL + N_CARD_IDS == N_ACTIONS
assert PUBLIC_LEN == S_HANDS and 4 * START_STATE_SLOTS >= STATE_LEN
