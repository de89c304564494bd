"""Engine regression: digests of batch records and step-API play-outs must not change.

The digests below were computed from the engine before its performance work. A change to any
of them means results changed: either a deliberate rules fix (then recompute them with
``python tests/test_engine_regression.py`` and say why in the commit) or a bug.
"""
import hashlib
import json

import pytest

from briscasim.game import Deal
from briscasim.rules import PRESETS, Rules
from briscasim.simulate import Lineup, play_chunk

SEED = 7
N_DEALS = 2000
N_PLAYOUTS = 30
LINEUPS = ("random", "random:swap_prob=0.5")
MATCHES = ("deals 3", "rounds_to_win 3", "points 121")
GREEDY_SEED = 3
GREEDY_PRESETS = ("brisca-2", "brisca-4-pairs-signals", "brisca-reves", "brisca-3-remove2",
                  "briscola-6")
GREEDY_LINEUPS = {"greedy": "greedy", "vs-random": "greedy,random",
                  "params": "greedy:trump_keep=2.5,greedy:use_signals=false"}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def batch_digest(preset: str, lineup: str, rotations: str, match: str = "deal") -> str:
    """Digest of the records of ``N_DEALS`` deals (or matches) played by the batch kernel."""
    rules = Rules.preset(preset) if match == "deal" else Rules.preset(preset, match=match)
    rot = 1 if rotations == "1" else rules.players
    out = play_chunk(rules, Lineup.build(rules, lineup), SEED, 0, N_DEALS, rot)
    return _digest(out.tobytes())


def greedy_digest(preset: str, lineup: str, rotations: str) -> str:
    """Digest of the records of ``N_DEALS`` deals with greedy seats (``GREEDY_LINEUPS[lineup]``
    lists the specs of alternate seats, repeated round the table): pins greedy's decisions."""
    rules = Rules.preset(preset)
    specs = GREEDY_LINEUPS[lineup].split(",")
    seats = [specs[s % len(specs)] for s in range(rules.players)]
    rot = 1 if rotations == "1" else rules.players
    out = play_chunk(rules, Lineup.build(rules, seats), GREEDY_SEED, 0, N_DEALS, rot)
    return _digest(out.tobytes())


def greedy_digests() -> dict[str, str]:
    return {f"greedy/{p}/{lineup}/{rot}": greedy_digest(p, lineup, rot)
            for p in GREEDY_PRESETS for lineup in GREEDY_LINEUPS for rot in ("1", "players")}


def playout_digest(preset: str) -> str:
    """Digest of ``N_PLAYOUTS`` deals from :meth:`Deal.from_seed`, played through the step
    API with actions picked by a fixed sequence (swap offers included)."""
    rules = Rules.preset(preset)
    h = hashlib.sha256()
    for i in range(N_PLAYOUTS):
        deal = Deal.from_seed(rules, SEED, i)
        k = i
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[k % len(legal)])
            k = (k * 5 + 3) % 10007
        d = deal.to_dict()
        facts = {k: d[k] for k in ("deck", "hands", "turned", "actions", "tricks", "swaps",
                                   "draws", "outcome", "auction", "called", "contract")
                 if k in d}
        h.update(json.dumps(facts, sort_keys=True, default=lambda o: o.item()).encode())
    return h.hexdigest()[:16]


def all_digests() -> dict[str, str]:
    d = {}
    for p in PRESETS:
        for lineup in LINEUPS:
            for rot in ("1", "players"):
                d[f"batch/{p}/{lineup}/{rot}"] = batch_digest(p, lineup, rot)
        d[f"playout/{p}"] = playout_digest(p)
    for m in MATCHES:
        for p in ("brisca-2", "brisca-4-pairs", "brisca-reves"):
            d[f"match/{p}/{m}"] = batch_digest(p, "random:swap_prob=0.5", "players", m)
    return d


EXPECTED = {
    'batch/brisca-2/random/1': '8afc5b6266f79987',
    'batch/brisca-2/random/players': '75552901065f4f18',
    'batch/brisca-2/random:swap_prob=0.5/1': '7910a2b1c4e3ceec',
    'batch/brisca-2/random:swap_prob=0.5/players': '37f017d3e5aa5d84',
    'playout/brisca-2': 'f50feaae3d1e0b13',
    'batch/brisca-3-remove2/random/1': '1844f25a66f8b347',
    'batch/brisca-3-remove2/random/players': '3914005d40916ee0',
    'batch/brisca-3-remove2/random:swap_prob=0.5/1': '4592c29057dfed09',
    'batch/brisca-3-remove2/random:swap_prob=0.5/players': '523d4eccdf2d9904',
    'playout/brisca-3-remove2': '4afafc3f516247e5',
    'batch/brisca-3-faceup/random/1': '26c2f58e1666a72c',
    'batch/brisca-3-faceup/random/players': 'fda40d1a26f2a7f0',
    'batch/brisca-3-faceup/random:swap_prob=0.5/1': 'ca19231b6950f919',
    'batch/brisca-3-faceup/random:swap_prob=0.5/players': 'c3516d6561a4de8e',
    'playout/brisca-3-faceup': '448f3fb729ef373b',
    'batch/brisca-3-hidden/random/1': 'c42c675d94344a92',
    'batch/brisca-3-hidden/random/players': 'fa4c588dba4cbcf0',
    'batch/brisca-3-hidden/random:swap_prob=0.5/1': 'ff0c7ce8fe859d41',
    'batch/brisca-3-hidden/random:swap_prob=0.5/players': 'dd7350fded2e3f11',
    'playout/brisca-3-hidden': '7a1b59fdfc48daf2',
    'batch/brisca-4/random/1': 'd798c94f7b990a7a',
    'batch/brisca-4/random/players': 'aac16e0c3de93693',
    'batch/brisca-4/random:swap_prob=0.5/1': '25b74736c076779d',
    'batch/brisca-4/random:swap_prob=0.5/players': 'c37fc22c13cb14ad',
    'playout/brisca-4': 'b9e5636ff9c22a2b',
    'batch/brisca-4-pairs/random/1': '1051dbba5b2fd620',
    'batch/brisca-4-pairs/random/players': '90d3a22056b578d3',
    'batch/brisca-4-pairs/random:swap_prob=0.5/1': 'bf6bf93bb8a00c64',
    'batch/brisca-4-pairs/random:swap_prob=0.5/players': '4f422d28a96b1120',
    'playout/brisca-4-pairs': '8afeebf80afad088',
    'batch/brisca-4-pairs-signals/random/1': '1051dbba5b2fd620',
    'batch/brisca-4-pairs-signals/random/players': '90d3a22056b578d3',
    'batch/brisca-4-pairs-signals/random:swap_prob=0.5/1': 'bf6bf93bb8a00c64',
    'batch/brisca-4-pairs-signals/random:swap_prob=0.5/players': '4f422d28a96b1120',
    'playout/brisca-4-pairs-signals': '8afeebf80afad088',
    'batch/brisca-5/random/1': 'd3abcd4c5da797a6',
    'batch/brisca-5/random/players': '5caa05ce8ee6f90a',
    'batch/brisca-5/random:swap_prob=0.5/1': '48f847da58a83b4a',
    'batch/brisca-5/random:swap_prob=0.5/players': '1e83033d6633bfa1',
    'playout/brisca-5': '713cb9ddb020438c',
    'batch/brisca-5-undrawn/random/1': 'be318cca8c4a7eb9',
    'batch/brisca-5-undrawn/random/players': '75e71503227c12f9',
    'batch/brisca-5-undrawn/random:swap_prob=0.5/1': '3d1ad9c6e19ec3e4',
    'batch/brisca-5-undrawn/random:swap_prob=0.5/players': '92700039a4d2eb75',
    'playout/brisca-5-undrawn': '0bf6e0d1b47b1359',
    'batch/brisca-6/random/1': 'b6802e0a67835174',
    'batch/brisca-6/random/players': 'ee28530cbb23d8c7',
    'batch/brisca-6/random:swap_prob=0.5/1': '3d689e12722b6d68',
    'batch/brisca-6/random:swap_prob=0.5/players': 'eb3f975fc384e7c9',
    'playout/brisca-6': '7011dbf80e0be88b',
    'batch/brisca-6-pairs/random/1': 'b5a3941739f2ce10',
    'batch/brisca-6-pairs/random/players': '6b77abf76fb9ee02',
    'batch/brisca-6-pairs/random:swap_prob=0.5/1': '6359d971afbee51e',
    'batch/brisca-6-pairs/random:swap_prob=0.5/players': '82c334a4580d66a3',
    'playout/brisca-6-pairs': 'ce52b9633ef13264',
    'batch/brisca-6-threes/random/1': '21816735183a8335',
    'batch/brisca-6-threes/random/players': 'ecbaad8fe8e541ab',
    'batch/brisca-6-threes/random:swap_prob=0.5/1': '6d64317c5e56ecc9',
    'batch/brisca-6-threes/random:swap_prob=0.5/players': 'e898e92f5816c59f',
    'playout/brisca-6-threes': 'cdab84005ed8be8f',
    'batch/brisca-2-blackhand/random/1': 'bb606642564f5f43',
    'batch/brisca-2-blackhand/random/players': 'cd094d7c410805cf',
    'batch/brisca-2-blackhand/random:swap_prob=0.5/1': 'b3c2fbdcebfc68c5',
    'batch/brisca-2-blackhand/random:swap_prob=0.5/players': '9914684d64478310',
    'playout/brisca-2-blackhand': 'bfd7d52be28ad60e',
    'batch/brisca-reves/random/1': '9b3b235e468b1fe8',
    'batch/brisca-reves/random/players': 'f9e600eb65a4f399',
    'batch/brisca-reves/random:swap_prob=0.5/1': '1201113ae5915960',
    'batch/brisca-reves/random:swap_prob=0.5/players': '5bbad7e43213a188',
    'playout/brisca-reves': '0a7ac9217e60f291',
    'batch/briscola-2/random/1': '6045f57320b67253',
    'batch/briscola-2/random/players': '00d8c7dca638ebdb',
    'batch/briscola-2/random:swap_prob=0.5/1': '6045f57320b67253',
    'batch/briscola-2/random:swap_prob=0.5/players': '00d8c7dca638ebdb',
    'playout/briscola-2': '80da6b257b6bbe53',
    'batch/briscola-3/random/1': '1a6147de3eb1d559',
    'batch/briscola-3/random/players': '8432acd0319996bb',
    'batch/briscola-3/random:swap_prob=0.5/1': '1a6147de3eb1d559',
    'batch/briscola-3/random:swap_prob=0.5/players': '8432acd0319996bb',
    'playout/briscola-3': '047b77d38ff0ec81',
    'batch/briscola-4/random/1': '3038c6c500fd90d7',
    'batch/briscola-4/random/players': '12de4171f03b989c',
    'batch/briscola-4/random:swap_prob=0.5/1': '3038c6c500fd90d7',
    'batch/briscola-4/random:swap_prob=0.5/players': '12de4171f03b989c',
    'playout/briscola-4': 'd32f4c41d04f4954',
    'batch/briscola-6/random/1': 'dee8ad60433aa1e5',
    'batch/briscola-6/random/players': '6bed67b5fc8de778',
    'batch/briscola-6/random:swap_prob=0.5/1': 'dee8ad60433aa1e5',
    'batch/briscola-6/random:swap_prob=0.5/players': '6bed67b5fc8de778',
    'playout/briscola-6': 'd55f226eec024d93',
    'batch/briscola-2-reshuffle/random/1': 'cd487f409cb86a10',
    'batch/briscola-2-reshuffle/random/players': '485a59222610ae4e',
    'batch/briscola-2-reshuffle/random:swap_prob=0.5/1': 'cd487f409cb86a10',
    'batch/briscola-2-reshuffle/random:swap_prob=0.5/players': '485a59222610ae4e',
    'playout/briscola-2-reshuffle': 'ead30c25e98d88db',
    'batch/briscola-2-south/random/1': 'fe0c4055265cc365',
    'batch/briscola-2-south/random/players': '3ff06b1ffca7f747',
    'batch/briscola-2-south/random:swap_prob=0.5/1': 'fe0c4055265cc365',
    'batch/briscola-2-south/random:swap_prob=0.5/players': '3ff06b1ffca7f747',
    'playout/briscola-2-south': '6c55d6e223d5c58b',
    'batch/briscola-2-scoperta/random/1': '6045f57320b67253',
    'batch/briscola-2-scoperta/random/players': '00d8c7dca638ebdb',
    'batch/briscola-2-scoperta/random:swap_prob=0.5/1': '6045f57320b67253',
    'batch/briscola-2-scoperta/random:swap_prob=0.5/players': '00d8c7dca638ebdb',
    'playout/briscola-2-scoperta': '80da6b257b6bbe53',
    'batch/schembil/random/1': '5c9ff1e86b46d107',
    'batch/schembil/random/players': '558f613d5d0e8885',
    'batch/schembil/random:swap_prob=0.5/1': '5c9ff1e86b46d107',
    'batch/schembil/random:swap_prob=0.5/players': '558f613d5d0e8885',
    'playout/schembil': 'd55f226eec024d93',
    'batch/briscola-2-31/random/1': 'bb57414999893846',
    'batch/briscola-2-31/random/players': 'd4fb8a502876da14',
    'batch/briscola-2-31/random:swap_prob=0.5/1': 'bb57414999893846',
    'batch/briscola-2-31/random:swap_prob=0.5/players': 'd4fb8a502876da14',
    'playout/briscola-2-31': 'e36a011ccfd90720',
    'batch/briscolone-2/random/1': '3de822c03471885f',
    'batch/briscolone-2/random/players': '2bce5d0979857eab',
    'batch/briscolone-2/random:swap_prob=0.5/1': '3de822c03471885f',
    'batch/briscolone-2/random:swap_prob=0.5/players': '2bce5d0979857eab',
    'playout/briscolone-2': 'c1db2fe1b784cbba',
    'batch/briscolone-2-follow/random/1': '4f33bb5ef719bf97',
    'batch/briscolone-2-follow/random/players': 'f277db69ee7a5b2b',
    'batch/briscolone-2-follow/random:swap_prob=0.5/1': '4f33bb5ef719bf97',
    'batch/briscolone-2-follow/random:swap_prob=0.5/players': 'f277db69ee7a5b2b',
    'playout/briscolone-2-follow': '82cc671a9c9bd0a4',
    'batch/chiamata-5/random/1': 'e29527962b6ac487',
    'batch/chiamata-5/random/players': 'a78f2d4d80f73e73',
    'batch/chiamata-5/random:swap_prob=0.5/1': 'e29527962b6ac487',
    'batch/chiamata-5/random:swap_prob=0.5/players': 'a78f2d4d80f73e73',
    'playout/chiamata-5': 'f60e0a56441d1c1c',
    'batch/chiamata-5-pagat/random/1': '130562d8f872398e',
    'batch/chiamata-5-pagat/random/players': '6286bc9a726e3a68',
    'batch/chiamata-5-pagat/random:swap_prob=0.5/1': '130562d8f872398e',
    'batch/chiamata-5-pagat/random:swap_prob=0.5/players': '6286bc9a726e3a68',
    'playout/chiamata-5-pagat': 'c98ddc70adb596cf',
    'batch/chiamata-5-points/random/1': '28087bceeef03f55',
    'batch/chiamata-5-points/random/players': 'a1d53424595f2aea',
    'batch/chiamata-5-points/random:swap_prob=0.5/1': '28087bceeef03f55',
    'batch/chiamata-5-points/random:swap_prob=0.5/players': 'a1d53424595f2aea',
    'playout/chiamata-5-points': 'dd147881a2991483',
    'batch/chiamata-5-subito-al-due/random/1': '8f179bf50bd40481',
    'batch/chiamata-5-subito-al-due/random/players': 'a9f83d67e8bd0d76',
    'batch/chiamata-5-subito-al-due/random:swap_prob=0.5/1': '8f179bf50bd40481',
    'batch/chiamata-5-subito-al-due/random:swap_prob=0.5/players': 'a9f83d67e8bd0d76',
    'playout/chiamata-5-subito-al-due': '41cd28c644dc78c4',
    'batch/chiamata-5-caller-leads/random/1': 'fc0654ccbd69830a',
    'batch/chiamata-5-caller-leads/random/players': 'f5cab678d047f27a',
    'batch/chiamata-5-caller-leads/random:swap_prob=0.5/1': 'fc0654ccbd69830a',
    'batch/chiamata-5-caller-leads/random:swap_prob=0.5/players': 'f5cab678d047f27a',
    'playout/chiamata-5-caller-leads': 'b330f8bb49e32298',
    'match/brisca-2/deals 3': '8bb4e66c8a4ed279',
    'match/brisca-4-pairs/deals 3': '1269453945cc3771',
    'match/brisca-reves/deals 3': 'c5f0c0fea2f0f0e6',
    'match/brisca-2/rounds_to_win 3': '2735edcc456f0772',
    'match/brisca-4-pairs/rounds_to_win 3': '3ac28930944e517c',
    'match/brisca-reves/rounds_to_win 3': 'ec5a6e05350b4617',
    'match/brisca-2/points 121': '867326065c6e4d36',
    'match/brisca-4-pairs/points 121': '80263bfa1597a698',
    'match/brisca-reves/points 121': '28ebfbed92ff5e5d',
}


@pytest.fixture(scope="module")
def digests():
    return all_digests()


def test_every_case_has_a_digest(digests):
    assert sorted(digests) == sorted(EXPECTED)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_results_unchanged(digests, key):
    assert digests[key] == EXPECTED[key]


GREEDY_EXPECTED = {
    'greedy/brisca-2/greedy/1': 'eecece2849cce51c',
    'greedy/brisca-2/greedy/players': 'ca5396f7978a9c89',
    'greedy/brisca-2/vs-random/1': '8519816a9b82a287',
    'greedy/brisca-2/vs-random/players': 'd52a5688cebce7af',
    'greedy/brisca-2/params/1': 'ee73cbfc8daf32a9',
    'greedy/brisca-2/params/players': '2fc93c2a6bc02fb8',
    'greedy/brisca-4-pairs-signals/greedy/1': 'ed3d963fc9001df1',
    'greedy/brisca-4-pairs-signals/greedy/players': 'cd01d252e3f14fb4',
    'greedy/brisca-4-pairs-signals/vs-random/1': '14d0d9242256b0d2',
    'greedy/brisca-4-pairs-signals/vs-random/players': 'd9fc070529f9ff2a',
    'greedy/brisca-4-pairs-signals/params/1': '6a4162fe3ecd4d75',
    'greedy/brisca-4-pairs-signals/params/players': '29f2a8c9e7918653',
    'greedy/brisca-reves/greedy/1': '493f958ca6594ebf',
    'greedy/brisca-reves/greedy/players': '7881da093f5750d5',
    'greedy/brisca-reves/vs-random/1': '70ad2f920662704b',
    'greedy/brisca-reves/vs-random/players': '70200b736dfc24df',
    'greedy/brisca-reves/params/1': '493f958ca6594ebf',
    'greedy/brisca-reves/params/players': '7881da093f5750d5',
    'greedy/brisca-3-remove2/greedy/1': '94060af5d68e6634',
    'greedy/brisca-3-remove2/greedy/players': '4d094eaa2cbdd486',
    'greedy/brisca-3-remove2/vs-random/1': '766d16a06f38aa64',
    'greedy/brisca-3-remove2/vs-random/players': 'f29f5e6a54185dba',
    'greedy/brisca-3-remove2/params/1': '8ac8c084b95a4da9',
    'greedy/brisca-3-remove2/params/players': '82b9b51d4dae9a4f',
    'greedy/briscola-6/greedy/1': '956bda99e5d66a1a',
    'greedy/briscola-6/greedy/players': '013d11e732061123',
    'greedy/briscola-6/vs-random/1': '29eceff7e694b461',
    'greedy/briscola-6/vs-random/players': '59a810b600d10a38',
    'greedy/briscola-6/params/1': 'd44ca6434e0ae239',
    'greedy/briscola-6/params/players': 'ffac2820be58b1c9',
}


def test_greedy_decisions_unchanged():
    assert greedy_digests() == GREEDY_EXPECTED


if __name__ == "__main__":
    for key, value in all_digests().items():
        print(f"    {key!r}: {value!r},")
    print()
    for key, value in greedy_digests().items():
        print(f"    {key!r}: {value!r},")
