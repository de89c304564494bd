"""Array layouts shared by every kernel: the rules vector, the deal state, actions, records.

The engine sees only arrays. A ``Rules`` value becomes an ``int64`` *rules vector* (``R_*``
offsets); a deal is one ``int16`` *state* array (``S_*`` offsets). The state's first
``PUBLIC_LEN`` entries are public: everything every seat may know (RULES.md section 8). Hands
and the face-down stock order come after, so a seat's view is two zero-copy slices: the public
prefix and its own hand.
"""
MAX_PLAYERS = 6
MAX_SIDES = 6
HAND_SIZE = 3
N_CARD_IDS = 48
NO_CARD = -1

# ---- rules vector (int64) -------------------------------------------------------------
R_PLAYERS = 0          # number of seats, 2..6
R_N_SIDES = 1          # number of sides (teams, or players when everyone is alone)
R_SIDE = 2             # [6] side of each seat
R_DECK_N = 8           # cards shuffled and dealt from (deck minus removed cards)
R_N_IN_PLAY = 9        # cards that come into play (R_DECK_N minus undrawn cards)
R_LEFTOVER = 10        # LEFTOVER_* below
R_N_UNDRAWN = 11       # cards left undrawn (face_up / hidden readings)
R_SWAP_SEVEN = 12
R_SWAP_TWO = 13
R_SWAP_TIMING = 14     # TIMING_*
R_OBJECTIVE = 15       # OBJECTIVE_*
R_TIE = 16             # TIE_*
R_BLACK_HAND = 17
R_RESHUFFLE = 18       # face_up_reshuffle
R_SIGNALS = 19
R_JACK_OVER_HORSE = 20
R_SEVEN_FACES = 21     # bit mask of face-up faces a 7-swap may take
R_TWO_FACES = 22       # bit mask of face-up faces a 2-swap may take
R_MATCH_KIND = 23      # MATCH_*
R_MATCH_N = 24         # N deals, K rounds, or P points
R_MAX_DEALS = 25
R_STRENGTH = 26        # [12] strength per face, higher wins
R_POINTS = 38          # [12] points per face
R_DECK = 50            # [48] card ids of the deck in play order before shuffling
# per-card tables (indexed by card id), so the kernels need no division by 12; each has an
# entry for NO_CARD (index -1) just before it, so that an empty hand slot reads as a card
# that is in no suit, worth nothing and stronger than any real card (EMPTY_*)
R_CARD_POINTS = 99     # [48] points of each card
R_CARD_STRENGTH = 148  # [48] strength of each card within its suit
R_CARD_SUIT = 197      # [48] suit of each card
R_CARD_FACE = 246      # [48] face of each card
R_START_STATE = 294    # [START_STATE_SLOTS] the state of a deal before its cards are dealt
#                        (STATE_LEN int16 packed four to a slot): start_deal copies it

EMPTY_POINTS, EMPTY_STRENGTH, EMPTY_SUIT, EMPTY_FACE = 0, 1_000_000, 4, 12
"""What the per-card tables read for NO_CARD: an empty slot never follows suit, never
trumps, never beats a card, and sorts after every card by strength."""

LEFTOVER_NONE, LEFTOVER_REMOVE, LEFTOVER_FACE_UP, LEFTOVER_HIDDEN = 0, 1, 2, 3
TIMING_BEFORE_DRAW, TIMING_AFTER_DRAW = 0, 1
OBJECTIVE_MOST, OBJECTIVE_FEWEST = 0, 1
TIE_DRAW, TIE_LAST_TRICK = 0, 1
MATCH_SINGLE, MATCH_DEALS, MATCH_ROUNDS, MATCH_POINTS = 0, 1, 2, 3

# ---- deal state (int16) ----------------------------------------------------------------
# public part
S_PHASE = 0            # PHASE_*
S_TURN = 1             # seat to act
S_LEADER = 2           # seat that led (or will lead) the current trick
S_TRICK_N = 3          # cards played so far in the current trick
S_TRICK_NO = 4         # tricks completed
S_N_TRICKS = 5         # tricks in the whole deal
S_TRUMP = 6            # trump suit 0..3
S_FACE_UP = 7          # the face-up card (the current one after swaps)
S_TURNED = 8           # the card first turned face up (after any reshuffle)
S_TO_DRAW = 9          # cards still to be drawn from the stock
S_FACEDOWN_TO_DRAW = 10  # face-down cards among them
S_DRAWN = 11           # face-down cards drawn so far
S_LAST_WINNER = 12     # seat that won the latest trick (-1 before the first)
S_WINNER = 13          # side that won the deal; DRAW; UNDECIDED while in play
S_BLACK_HAND = 14      # seat that showed a black hand, else -1
S_SWAP7_SEAT = 15      # 7-swap: seat, trick number (1-based, the trick just won), card taken
S_SWAP7_TRICK = 16
S_SWAP7_CARD = 17
S_SWAP2_SEAT = 18      # 2-swap: same fields
S_SWAP2_TRICK = 19
S_SWAP2_CARD = 20
S_SWAP7_DECLINED = 21  # 7-swap offers declined in this deal
S_SWAP2_DECLINED = 22
S_TRICK = 23           # [6] cards of the current trick in playing order
S_POINTS = 29          # [6] card points taken per side
S_TRICKS_WON = 35      # [6] tricks taken per side
S_LAST_WON = 41        # [6] per side, 1 + index of the latest trick it won (0: none)
S_KNOWN = 47           # [48] public knowledge of each card: KNOWN_* or a seat number
PUBLIC_LEN = 95
# hidden part
S_HANDS = 95           # [6 x 3] hands, NO_CARD in empty slots
S_STOCK = 113          # [48] face-down stock, top first (the turned card is not in it)
S_N_FACEDOWN = 161     # face-down cards in S_STOCK (drawable and undrawn)
STATE_LEN = 162

START_STATE_SLOTS = (STATE_LEN + 3) // 4   # R_START_STATE's int64 slots
RULES_LEN = R_START_STATE + START_STATE_SLOTS

PHASE_PLAY, PHASE_SWAP, PHASE_OVER = 0, 1, 2
UNDECIDED = -2
DRAW = -1

# Public knowledge of a card (S_KNOWN); values 0..5 mean "known to be in that seat's hand".
KNOWN_UNSEEN = -1      # in some hand, the face-down stock, or an unseen undrawn card
KNOWN_PLAYED = 6       # played (in a finished trick or the current one)
KNOWN_FACE_UP = 7      # the face-up card on the table
KNOWN_OUT = 8          # not in play and known to be so (removed, or not in this deck)

# ---- actions ---------------------------------------------------------------------------
# 0..47: play that card. During a swap offer: SWAP or KEEP.
ACTION_SWAP = 48
ACTION_KEEP = 49
N_ACTIONS = 50

# ---- signals (RULES.md section 8): one byte per partner, partners in seat order after me --
SIG_TRUMP_ACE = 1
SIG_TRUMP_THREE = 2
SIG_TRUMP_KING = 4
SIG_TRUMP_HORSE = 8
SIG_TRUMP_JACK = 16
SIG_BRISCA = 32        # holds a non-trump A or 3
SIG_NO_TRUMP = 64      # holds no trump at all
SIG_VALID = 128        # set on every partner byte, so "no signal" (0) is distinguishable

# ---- per-deal record (int16), written by engine.core.write_record -----------------------
REC_WINNER = 0         # side, or DRAW
REC_BLACK_HAND = 1     # seat, or -1
REC_LAST_WINNER = 2    # seat that won the last trick played
REC_TRUMP = 3
REC_TURNED = 4
REC_SWAP7_SEAT = 5
REC_SWAP7_TRICK = 6
REC_SWAP7_CARD = 7
REC_SWAP2_SEAT = 8
REC_SWAP2_TRICK = 9
REC_SWAP2_CARD = 10
REC_SWAP7_DECLINED = 11
REC_SWAP2_DECLINED = 12
REC_OUT_POINTS = 13    # card points that never came into play (undrawn cards)
REC_POINTS = 14        # [6] points per side
RECORD_LEN = 20
