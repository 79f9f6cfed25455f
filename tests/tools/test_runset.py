"""pptools/runset.py, the one layer that combines repeats: rows gathered by key in
the order first seen, the median and spread of the repeats, and a launch-shape
family collapsed to its best member by the tool's rank (the first on a tie)."""
import pytest

from pptools import runset


def test_gather_keeps_first_seen_order():
    g = runset.gather([("b", 1), ("a", 2), ("b", 3)])
    assert list(g) == ["b", "a"] and g["b"] == [1, 3] and g["a"] == [2]


@pytest.mark.parametrize("values, want", [([], None), ([3.0], 3.0), ([1.0, 5.0, 2.0], 2.0), ([1.0, 2.0], 1.5)])
def test_median(values, want):
    assert runset.median(values) == want


def test_foms_leave_out_null():
    assert runset.foms([{"fom": 1.0}, {"fom": None}, {}, {"fom": 0.0}]) == [1.0, 0.0]


def test_copy_fraction_median_of_those_measured():
    rows = [{"fraction_of_copy_ceiling": 0.2}, {"fraction_of_copy_ceiling": None}, {"fraction_of_copy_ceiling": 0.6}]
    assert runset.copy_fraction(rows) == pytest.approx(0.4)
    assert runset.copy_fraction([{}]) is None


@pytest.mark.parametrize("values, want", [([2.0], None), ([1.0, 3.0], 1.0), ([0.0, 0.0], None), ([9.0, 10.0, 11.0], 0.2)])
def test_spread(values, want):
    got = runset.spread(values)
    assert got == (pytest.approx(want) if want is not None else None)


def test_best_shape_by_rank_first_on_tie():
    entries = {("k", "tpb=128"): {"fom": 2.0}, ("k", "tpb=256"): {"fom": 3.0}, ("k", "tpb=512"): {"fom": 3.0},
               ("j", "tpb=64"): {"fom": 1.0}}
    best = runset.best_shape(entries, lambda key: key[0], lambda e: runset.fom_rank(e["fom"], True))
    assert list(best) == ["k", "j"] and best["k"] is entries[("k", "tpb=256")]


def test_best_shape_lower_is_better():
    entries = {1: {"fom": 2.0}, 2: {"fom": 1.0}}
    best = runset.best_shape(entries, lambda key: "f", lambda e: runset.fom_rank(e["fom"], False))
    assert best["f"] is entries[2]
