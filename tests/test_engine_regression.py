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
    'batch/brisca-2/random/1': '3f4eeacd9e3875b4',
    'batch/brisca-2/random/players': '89696154f0afbd12',
    'batch/brisca-2/random:swap_prob=0.5/1': 'f7d6258e8a893102',
    'batch/brisca-2/random:swap_prob=0.5/players': '3724b297c66cdeab',
    'playout/brisca-2': 'f50feaae3d1e0b13',
    'batch/brisca-3-remove2/random/1': '61a4f13753999efe',
    'batch/brisca-3-remove2/random/players': '7bc4a30260e46779',
    'batch/brisca-3-remove2/random:swap_prob=0.5/1': 'dad50530c586db7e',
    'batch/brisca-3-remove2/random:swap_prob=0.5/players': '7992080f1428d9c9',
    'playout/brisca-3-remove2': '4afafc3f516247e5',
    'batch/brisca-3-faceup/random/1': '726484b2f2b4c426',
    'batch/brisca-3-faceup/random/players': '04855f34962ae2d9',
    'batch/brisca-3-faceup/random:swap_prob=0.5/1': 'eb9888694533f995',
    'batch/brisca-3-faceup/random:swap_prob=0.5/players': 'e98df67c23f7383d',
    'playout/brisca-3-faceup': '448f3fb729ef373b',
    'batch/brisca-3-hidden/random/1': 'c88c4d43c1a63916',
    'batch/brisca-3-hidden/random/players': '82c0ab0abff0d9e3',
    'batch/brisca-3-hidden/random:swap_prob=0.5/1': 'c892b05d989be081',
    'batch/brisca-3-hidden/random:swap_prob=0.5/players': 'df8f3adc12be2ddc',
    'playout/brisca-3-hidden': '7a1b59fdfc48daf2',
    'batch/brisca-4/random/1': 'c3ea854da4cf261d',
    'batch/brisca-4/random/players': 'a7affdb11cba0497',
    'batch/brisca-4/random:swap_prob=0.5/1': '35f8dea11c8c639f',
    'batch/brisca-4/random:swap_prob=0.5/players': 'c7f70bbc76248c59',
    'playout/brisca-4': 'b9e5636ff9c22a2b',
    'batch/brisca-4-pairs/random/1': '4083d342d2c4767a',
    'batch/brisca-4-pairs/random/players': '87dfe9e75f91f52a',
    'batch/brisca-4-pairs/random:swap_prob=0.5/1': 'b9622dc7f209abb6',
    'batch/brisca-4-pairs/random:swap_prob=0.5/players': '4e5cd7b2e2596496',
    'playout/brisca-4-pairs': '8afeebf80afad088',
    'batch/brisca-4-pairs-signals/random/1': '4083d342d2c4767a',
    'batch/brisca-4-pairs-signals/random/players': '87dfe9e75f91f52a',
    'batch/brisca-4-pairs-signals/random:swap_prob=0.5/1': 'b9622dc7f209abb6',
    'batch/brisca-4-pairs-signals/random:swap_prob=0.5/players': '4e5cd7b2e2596496',
    'playout/brisca-4-pairs-signals': '8afeebf80afad088',
    'batch/brisca-5/random/1': '469a61a326dab865',
    'batch/brisca-5/random/players': '20c5f7dc8972ebd3',
    'batch/brisca-5/random:swap_prob=0.5/1': '1b212cf81ce5465e',
    'batch/brisca-5/random:swap_prob=0.5/players': '7910ecb16935ebba',
    'playout/brisca-5': '713cb9ddb020438c',
    'batch/brisca-5-undrawn/random/1': '9a3b87efccfd09d1',
    'batch/brisca-5-undrawn/random/players': 'f78a4a13ac2524b5',
    'batch/brisca-5-undrawn/random:swap_prob=0.5/1': '2fb40a4e48922caf',
    'batch/brisca-5-undrawn/random:swap_prob=0.5/players': '4df350e5bdfdc0e9',
    'playout/brisca-5-undrawn': '0bf6e0d1b47b1359',
    'batch/brisca-6/random/1': '0d214b3fc8c09069',
    'batch/brisca-6/random/players': '366487da05c46cdd',
    'batch/brisca-6/random:swap_prob=0.5/1': '03b0fe7a6d3099b5',
    'batch/brisca-6/random:swap_prob=0.5/players': '72a75a9638439161',
    'playout/brisca-6': '7011dbf80e0be88b',
    'batch/brisca-6-pairs/random/1': 'f78ae990128fb92a',
    'batch/brisca-6-pairs/random/players': 'c88b56d8e22414bd',
    'batch/brisca-6-pairs/random:swap_prob=0.5/1': '196356f9cce05d54',
    'batch/brisca-6-pairs/random:swap_prob=0.5/players': 'e591ad43d87c2be6',
    'playout/brisca-6-pairs': 'ce52b9633ef13264',
    'batch/brisca-6-threes/random/1': '62c5a3d5ae1aed56',
    'batch/brisca-6-threes/random/players': '8ac97d33ef3a483a',
    'batch/brisca-6-threes/random:swap_prob=0.5/1': '2662b78210e75d82',
    'batch/brisca-6-threes/random:swap_prob=0.5/players': 'a7a3e3b16746439c',
    'playout/brisca-6-threes': 'cdab84005ed8be8f',
    'batch/brisca-2-blackhand/random/1': '8f8fe8ca2c735b4d',
    'batch/brisca-2-blackhand/random/players': 'ad2b306f4d38adbc',
    'batch/brisca-2-blackhand/random:swap_prob=0.5/1': 'f7a440f012305aab',
    'batch/brisca-2-blackhand/random:swap_prob=0.5/players': '4cf26e2ed5920c1c',
    'playout/brisca-2-blackhand': 'bfd7d52be28ad60e',
    'batch/brisca-reves/random/1': '8cc53cb0edcfea8d',
    'batch/brisca-reves/random/players': '28117fba5d054014',
    'batch/brisca-reves/random:swap_prob=0.5/1': '21d2b138056bb076',
    'batch/brisca-reves/random:swap_prob=0.5/players': 'f8afeae826c41b3f',
    'playout/brisca-reves': '0a7ac9217e60f291',
    'batch/briscola-2/random/1': 'fbd0bab92913ada6',
    'batch/briscola-2/random/players': 'b4dccd1a62ad76a1',
    'batch/briscola-2/random:swap_prob=0.5/1': 'fbd0bab92913ada6',
    'batch/briscola-2/random:swap_prob=0.5/players': 'b4dccd1a62ad76a1',
    'playout/briscola-2': '80da6b257b6bbe53',
    'batch/briscola-3/random/1': '2a29321194394a93',
    'batch/briscola-3/random/players': '2d9257a25f60f40d',
    'batch/briscola-3/random:swap_prob=0.5/1': '2a29321194394a93',
    'batch/briscola-3/random:swap_prob=0.5/players': '2d9257a25f60f40d',
    'playout/briscola-3': '047b77d38ff0ec81',
    'batch/briscola-4/random/1': '4105e114dd8b4067',
    'batch/briscola-4/random/players': '80ff74ececceb2f9',
    'batch/briscola-4/random:swap_prob=0.5/1': '4105e114dd8b4067',
    'batch/briscola-4/random:swap_prob=0.5/players': '80ff74ececceb2f9',
    'playout/briscola-4': 'd32f4c41d04f4954',
    'batch/briscola-6/random/1': '59ceba43979d1f4f',
    'batch/briscola-6/random/players': 'fa13a1acff04da36',
    'batch/briscola-6/random:swap_prob=0.5/1': '59ceba43979d1f4f',
    'batch/briscola-6/random:swap_prob=0.5/players': 'fa13a1acff04da36',
    'playout/briscola-6': 'd55f226eec024d93',
    'batch/briscola-2-reshuffle/random/1': 'ffeac2e18e816071',
    'batch/briscola-2-reshuffle/random/players': '06a32041351f9bbd',
    'batch/briscola-2-reshuffle/random:swap_prob=0.5/1': 'ffeac2e18e816071',
    'batch/briscola-2-reshuffle/random:swap_prob=0.5/players': '06a32041351f9bbd',
    'playout/briscola-2-reshuffle': 'ead30c25e98d88db',
    'batch/briscola-2-south/random/1': '7beb83906e5f288f',
    'batch/briscola-2-south/random/players': 'd571dc8e60abbcc8',
    'batch/briscola-2-south/random:swap_prob=0.5/1': '7beb83906e5f288f',
    'batch/briscola-2-south/random:swap_prob=0.5/players': 'd571dc8e60abbcc8',
    'playout/briscola-2-south': '6c55d6e223d5c58b',
    'batch/chiamata-5/random/1': '37d7b73f45d7bb48',
    'batch/chiamata-5/random/players': '6c83614739d38113',
    'batch/chiamata-5/random:swap_prob=0.5/1': '37d7b73f45d7bb48',
    'batch/chiamata-5/random:swap_prob=0.5/players': '6c83614739d38113',
    'playout/chiamata-5': 'f60e0a56441d1c1c',
    'batch/chiamata-5-pagat/random/1': '23a1e1b074fa6882',
    'batch/chiamata-5-pagat/random/players': '4c4ffcd74d7bc5ad',
    'batch/chiamata-5-pagat/random:swap_prob=0.5/1': '23a1e1b074fa6882',
    'batch/chiamata-5-pagat/random:swap_prob=0.5/players': '4c4ffcd74d7bc5ad',
    'playout/chiamata-5-pagat': 'c98ddc70adb596cf',
    'batch/chiamata-5-points/random/1': 'b39947aeaf4afb1d',
    'batch/chiamata-5-points/random/players': 'b5cfa376413e3aa6',
    'batch/chiamata-5-points/random:swap_prob=0.5/1': 'b39947aeaf4afb1d',
    'batch/chiamata-5-points/random:swap_prob=0.5/players': 'b5cfa376413e3aa6',
    'playout/chiamata-5-points': 'dd147881a2991483',
    'batch/chiamata-5-subito-al-due/random/1': 'dec441bba8d44e5a',
    'batch/chiamata-5-subito-al-due/random/players': '3cdb47a256b7eb69',
    'batch/chiamata-5-subito-al-due/random:swap_prob=0.5/1': 'dec441bba8d44e5a',
    'batch/chiamata-5-subito-al-due/random:swap_prob=0.5/players': '3cdb47a256b7eb69',
    'playout/chiamata-5-subito-al-due': '41cd28c644dc78c4',
    'batch/chiamata-5-caller-leads/random/1': '6954a93266e3732a',
    'batch/chiamata-5-caller-leads/random/players': 'df73bb1177ae1490',
    'batch/chiamata-5-caller-leads/random:swap_prob=0.5/1': '6954a93266e3732a',
    'batch/chiamata-5-caller-leads/random:swap_prob=0.5/players': 'df73bb1177ae1490',
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
    'greedy/brisca-2/greedy/1': 'e1588bbb971f5895',
    'greedy/brisca-2/greedy/players': '8a42e090d3ce28a5',
    'greedy/brisca-2/vs-random/1': '0e895b0af5d62884',
    'greedy/brisca-2/vs-random/players': 'cf0770c72de92362',
    'greedy/brisca-2/params/1': 'be1452d582902a5a',
    'greedy/brisca-2/params/players': '89f04147381ecb08',
    'greedy/brisca-4-pairs-signals/greedy/1': 'ab132044070d7a0e',
    'greedy/brisca-4-pairs-signals/greedy/players': '4ff07aa5c3d88b0f',
    'greedy/brisca-4-pairs-signals/vs-random/1': 'aceef8d16132ea43',
    'greedy/brisca-4-pairs-signals/vs-random/players': '3bba453e31b17629',
    'greedy/brisca-4-pairs-signals/params/1': 'cc9184c082811296',
    'greedy/brisca-4-pairs-signals/params/players': '83b8bb6e259a3607',
    'greedy/brisca-reves/greedy/1': 'ebe7aa6cdcbf773d',
    'greedy/brisca-reves/greedy/players': '32a831ee586482d3',
    'greedy/brisca-reves/vs-random/1': '19acc51cf40775e3',
    'greedy/brisca-reves/vs-random/players': 'f2e6370866d5f37c',
    'greedy/brisca-reves/params/1': 'ebe7aa6cdcbf773d',
    'greedy/brisca-reves/params/players': '32a831ee586482d3',
    'greedy/brisca-3-remove2/greedy/1': 'b8b3b7dbec9578b8',
    'greedy/brisca-3-remove2/greedy/players': '1a5d2c02a0189fa8',
    'greedy/brisca-3-remove2/vs-random/1': 'df4f56a2704ebb47',
    'greedy/brisca-3-remove2/vs-random/players': '20617ba9d8814079',
    'greedy/brisca-3-remove2/params/1': '775256518b1ea190',
    'greedy/brisca-3-remove2/params/players': '71afc49699ebda66',
    'greedy/briscola-6/greedy/1': '3569330891287a33',
    'greedy/briscola-6/greedy/players': '1d007dbf980127d3',
    'greedy/briscola-6/vs-random/1': 'e7710f285773434d',
    'greedy/briscola-6/vs-random/players': '751613e47da98c4f',
    'greedy/briscola-6/params/1': '3df4270b71d17b5c',
    'greedy/briscola-6/params/players': 'a200a810d1c0d66c',
}


def test_greedy_decisions_unchanged():
    assert greedy_digests() == GREEDY_EXPECTED


if __name__ == "__main__":
    for key, value in all_digests().items():
        print(f"    {key!r}: {value!r},")
    print()
    for key, value in greedy_digests().items():
        print(f"    {key!r}: {value!r},")
