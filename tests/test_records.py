"""Result records returned by the scalar queries keep their values while anyone holds them.

The compiled backend reuses the last record it returned when nothing refers to it any
more (``_ext/records.pyx``).  These tests hold records across later calls, in
containers and across threads, and check that none of them ever changes.  The answers
are worked out by hand (circles on an axis, rays along an axis).
"""

from __future__ import annotations

import threading
import time

import pytest

CONTACT_A = ((1.5, 0.0), ((1.0, 0.0), 0.5, ((0.75, 0.0),)))  # b's centre, answer
CONTACT_B = ((1.0, 0.0), ((1.0, 0.0), 1.0, ((0.5, 0.0),)))
CLOSEST_A = ((5.0, 0.0), ((1.0, 0.0), (4.0, 0.0), 3.0))
CLOSEST_B = ((0.0, 4.0), ((0.0, 1.0), (0.0, 3.0), 2.0))
RAY_A = (((-5.0, 0.0), (1.0, 0.0)), (4.0, (-1.0, 0.0), (-1.0, 0.0)))  # origin, direction
RAY_B = (((0.0, -3.0), (0.0, 1.0)), (2.0, (0.0, -1.0), (0.0, -1.0)))
POINT_A = ((3.0, 4.0), ((0.6, 0.8), 4.0, (0.6, 0.8)))  # point, answer (a 3-4-5 triangle)
POINT_B = ((0.0, -3.0), ((0.0, -1.0), 2.0, (0.0, -1.0)))


def _contact(fc, case):
    (x, y), _ = case
    return fc.contact(fc.Circle(0.0, 0.0, 1.0), fc.Circle(x, y, 1.0))


def _closest(fc, case):
    (x, y), _ = case
    return fc.closest_points(fc.Circle(0.0, 0.0, 1.0), fc.Circle(x, y, 1.0))


def _ray(fc, case):
    (origin, direction), _ = case
    return fc.raycast(fc.Circle(0.0, 0.0, 1.0), origin, direction)


def _point(fc, case):
    p, _ = case
    return fc.point_query(fc.Circle(0.0, 0.0, 1.0), p)


QUERIES = [(_contact, CONTACT_A, CONTACT_B), (_closest, CLOSEST_A, CLOSEST_B),
           (_ray, RAY_A, RAY_B), (_point, POINT_A, POINT_B)]
IDS = ["contact", "closest_points", "raycast", "point_query"]


@pytest.mark.parametrize("query, first, second", QUERIES, ids=IDS)
def test_a_held_record_keeps_its_values_across_later_calls(fc, query, first, second):
    held = query(fc, first)
    assert tuple(held) == first[1]
    for _ in range(3):
        # later calls, some of whose records are dropped at once
        query(fc, second)
        other = query(fc, second)
        assert tuple(other) == second[1]
        assert other is not held
    assert tuple(held) == first[1]


@pytest.mark.parametrize("query, first, second", QUERIES, ids=IDS)
def test_dropped_records_give_each_call_its_own_answer(fc, query, first, second):
    # the loop of a game: read the record, drop it, ask again
    for case in (first, second, first, second, second, first):
        assert tuple(query(fc, case)) == case[1]


def test_records_kept_in_a_list_are_distinct(fc):
    ball = fc.Circle(0.0, 0.0, 1.0)
    xs = [0.25 * k for k in range(1, 8)]  # 0.25 .. 1.75: every pair overlaps
    kept = [fc.contact(ball, fc.Circle(x, 0.0, 1.0)) for x in xs]
    assert len({id(c) for c in kept}) == len(kept)
    # depth 2 - x, the contact point midway between the surfaces at 1 and x - 1
    assert [c.depth for c in kept] == [2.0 - x for x in xs]
    assert [c.points for c in kept] == [((x / 2, 0.0),) for x in xs]


def test_a_record_used_as_a_key_keeps_its_hash(fc):
    key = _contact(fc, CONTACT_A)
    table = {key: "a"}
    for _ in range(3):
        _contact(fc, CONTACT_B)
    # a record hashes as the tuple of its fields, so a key refilled with other values
    # would hash apart from the answer's tuple
    assert hash(key) == hash(CONTACT_A[1])
    assert table[CONTACT_A[1]] == "a"


def test_records_held_by_threads_keep_their_values(fc):
    # each thread holds its record and lets the others run (sleep(0) hands the GIL
    # over) before it reads it again: a record refilled by another thread's query
    # would show that thread's depth here
    cases = [((0.25 * k, 0.0), 2.0 - 0.25 * k) for k in range(1, 7)]
    wrong = []

    def work(x, depth):
        a = fc.Circle(0.0, 0.0, 1.0)
        b = fc.Circle(x, 0.0, 1.0)
        for _ in range(300):
            held = fc.contact(a, b)
            time.sleep(0)
            if held.depth != depth:
                wrong.append((x, held.depth))

    threads = [threading.Thread(target=work, args=(x, depth)) for (x, _), depth in cases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
