"""What a program writes to its channel reaches marshal only as plain data: the harness
(the warm server's long-lived one runs under the server's uid, with CAP_KILL, and judges
the runs after this one) scans each message first (`harness_wire.check_message`) and checks
each reply's shape (`harness.checked_reply`). A crafted message (a code object, a length
past the message, deep nesting, a reference to an object not complete, a reply whose fields
are not strings) fails the program's own tests; the same server and harness then judge an
honest program as before."""

from __future__ import annotations

import dataclasses
import marshal
import random
import sys
import time

import pytest
from test_cross_run import ADD_TESTS, honest_runs_pass, own, server_state

import sandbox
from sandbox._in_jail.harness_wire import (
    MAX_DEPTH,
    MAX_WIRE_ITEMS,
    BadMessage,
    check_message,
    decode_message,
    is_plain,
)


def _value(rng: random.Random, depth: int = 0) -> object:
    """Random plain data, with shared parts (marshal writes them as references)."""
    scalars = [None, True, False, rng.randrange(-2**31, 2**31), rng.randrange(-10**40, 10**40),
               rng.random() * 1e10, complex(rng.random(), -1.5), float("nan"), -0.0,
               "abc" * rng.randrange(100), "é€\U0001f600" * rng.randrange(5),
               sys.intern("name"), sys.intern("é"), "x" * 300,
               bytes(rng.randrange(256) for _ in range(rng.randrange(300)))]
    if depth > 5 or rng.random() < 0.4:
        return rng.choice(scalars)
    items = [_value(rng, depth + 1) for _ in range(rng.randrange(6))]
    kind = rng.randrange(6)
    if kind == 0:
        return items
    if kind == 1:
        return tuple(items)
    if kind == 2:
        return {str(i) if i % 2 else i: v for i, v in enumerate(items)}
    if kind == 5:
        shared = _value(rng, depth + 1)
        return [shared, shared, (shared,), {"k": shared}]
    hashable = [x for x in items if isinstance(x, (int, float, complex, str, bytes, type(None)))]
    return set(hashable) if kind == 3 else frozenset(hashable)


def test_every_message_a_worker_sends_of_plain_data_passes() -> None:
    rng = random.Random(26)
    deepest: list = []
    for _ in range(MAX_DEPTH):
        deepest = [deepest]
    assert is_plain(deepest)
    values = [_value(rng) for _ in range(3000)] + [
        deepest, 0, -1, 2**31, -2**31 - 1, 10**5000, -(2**100), (), [], {}, set(),
        frozenset(), "", b"", "s" * 70000, ["x"] * 1000, [(1, 2)] * 5, float("inf")]
    for value in values:
        for message in (("ok", ("v", value)), value):
            check_message(marshal.dumps(message))
    for reply in (("ok", ["add", "Pair"], {"add": ("h", 1, "function", True)}),
                  ("exc", "ValueError", "boom", "while loading the program"),
                  ("ok", ("h", 3, "Pair", False)), ("exc", "KeyError", "'k'")):
        check_message(marshal.dumps(reply))


CODE = compile("open('/tmp/ran', 'w')", "<program>", "exec")
CRAFTED = {
    "code object": marshal.dumps(CODE),
    "code object as a value": marshal.dumps(("ok", ("v", CODE))),
    "code object as an exception's message": marshal.dumps(("exc", "ValueError", CODE)),
    "code object as a dict key's value": marshal.dumps({"k": [1, CODE]}),
    "Ellipsis": marshal.dumps(...),
    "StopIteration": marshal.dumps(StopIteration),
    "truncated list": b"[" + (5).to_bytes(4, "little") + b"N",
    "truncated inside": b"[\x02\x00\x00\x00(\x01\x00\x00\x00N",
    "truncated int": b"i\x01\x00",
    "truncated float": b"g\x00\x00",
    "unterminated dict": b"{NN",
    "empty": b"",
    "bytes after the object": marshal.dumps(1) + b"N",
    "list of 2**31 - 1 items": b"[\xff\xff\xff\x7fN",
    "tuple of 2**31 - 1 items": b"(\xff\xff\xff\x7fN",
    "negative count": b"[\xff\xff\xff\xff",
    "str of 2**31 - 1 bytes": b"u\xff\xff\xff\x7fx",
    "int of 2**30 digits": b"l\xff\xff\xff\x3f\x01\x00",
    "int digit out of range": b"l\x01\x00\x00\x00\xff\xff",
    "unnormalized int": b"l\x02\x00\x00\x00\x01\x00\x00\x00",
    "100,000 nested lists": b"[\x01\x00\x00\x00" * 100_000 + b"N",
    "100,000 nested dicts": b"{N" * 100_000,
    f"{MAX_DEPTH + 9} nested lists": b"[\x01\x00\x00\x00" * (MAX_DEPTH + 9) + b"N",
    "list holding itself": b"\xdb\x01\x00\x00\x00r\x00\x00\x00\x00",
    "reference to a tuple being read": b"\xa9\x01r\x00\x00\x00\x00",
    "reference out of range": b"[\x01\x00\x00\x00r\x05\x00\x00\x00",
    "NULL as the object": b"0",
    "NULL in a list": b"[\x01\x00\x00\x000",
    "NULL as a dict value": b"{N0",
    "non-ASCII in an ASCII str": b"z\x02\xff\xfe",
    "float as text": b"f\x031.5",
    "int64": b"I" + b"\x00" * 8,
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_a_crafted_message_is_refused_before_marshal_reads_it(name: str) -> None:
    with pytest.raises(BadMessage):
        check_message(CRAFTED[name])


def test_a_message_of_more_items_than_plain_data_holds_is_refused_at_its_header() -> None:
    """Each item is scanned once: the items of a message are bounded, so is its scan."""
    count = MAX_WIRE_ITEMS + 1
    crafted = b"[" + count.to_bytes(4, "little") + b"N" * count
    with pytest.raises(BadMessage, match="more than"):
        check_message(crafted)
    crafted = b"(" + (2).to_bytes(4, "little") + b"[" + (MAX_WIRE_ITEMS - 1).to_bytes(
        4, "little") + b"N" * (MAX_WIRE_ITEMS - 1) + b"NN"
    with pytest.raises(BadMessage, match="more than"):
        check_message(crafted)
    # empty dicts first (a dict's items are counted as they come) buy no room
    rest = MAX_WIRE_ITEMS - 9
    crafted = (b"(" + (2).to_bytes(4, "little") + b"[" + (10).to_bytes(4, "little")
               + b"{0" * 10 + b"[" + rest.to_bytes(4, "little") + b"N" * rest)
    with pytest.raises(BadMessage, match="more than"):
        check_message(crafted)


def test_the_crafted_messages_are_what_marshal_would_take_or_choke_on() -> None:
    """The table above means something: unchecked, marshal builds the code objects, and
    takes the list of 2**31 - 1 items as far as allocating it."""
    assert type(marshal.loads(CRAFTED["code object"])) is type(CODE)
    assert type(marshal.loads(CRAFTED["code object as a value"])[1][1]) is type(CODE)
    with pytest.raises((EOFError, MemoryError)):
        marshal.loads(CRAFTED["truncated list"])


def _acyclic(value: object, path: tuple = ()) -> bool:
    if not isinstance(value, (list, tuple, set, frozenset, dict)):
        return True
    if any(value is seen for seen in path):
        return False
    items = [x for pair in value.items() for x in pair] if isinstance(value, dict) else value
    return all(_acyclic(item, (*path, value)) for item in items)


def test_a_reference_the_scan_admits_is_to_a_complete_object() -> None:
    """Every reference of honest messages pointed at every index in turn: what the scan
    admits decodes to data without a cycle (or, a list as a set's item, to marshal's
    TypeError, which the channel reports as the program's error)."""
    text = "shared-" * 3
    part = [text, 10**30, 2.5]
    pair = (part, text)
    messages = [marshal.dumps(("ok", ("v", [part, part, pair, pair, {"k": part, text: pair},
                                            frozenset([text, pair[1]])]))),
                marshal.dumps([[part], (part, [part]), {1: part}])]
    admitted = 0
    for message in messages:
        for at in (i for i, byte in enumerate(message) if byte == ord("r")):
            for index in range(40):
                crafted = message[:at + 1] + index.to_bytes(4, "little") + message[at + 5:]
                try:
                    check_message(crafted)
                except BadMessage:
                    continue
                admitted += 1
                try:
                    value = marshal.loads(crafted)
                except TypeError:
                    continue
                assert _acyclic(value), (at, index)
    assert admitted > 100  # the rewiring reached real references


SENDER = """import os, marshal
CODE = compile("open('/work/ran', 'w')", "<program>", "exec")

def add(a, b):
    frame = {payload}
    os.write(4, len(frame).to_bytes(4, "big") + frame)  # the reply pipe (worker_main)
    os._exit(0)
"""
"""A program whose `add` answers the harness with a frame of its own making."""

PAYLOADS = {
    "code object as a value": "marshal.dumps(('ok', ('v', CODE)))",
    "code object as an exception's message": "marshal.dumps(('exc', 'ValueError', CODE))",
    "int as an exception's message": "marshal.dumps(('exc', 'ValueError', 5))",
    "int as an exception's name": "marshal.dumps(('exc', 5, 'x'))",
    "a bare int": "marshal.dumps(7)",
    "a handle of the wrong shape": "marshal.dumps(('ok', ('h', 'x', 1)))",
    "list of 2**31 - 1 items": "b'[\\xff\\xff\\xff\\x7fN'",
    "100,000 nested lists": "b'[\\x01\\x00\\x00\\x00' * 100000 + b'N'",
    "truncated list": "b'[' + (5).to_bytes(4, 'little') + b'N'",
}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_a_crafted_reply_fails_its_program_and_the_judges_serve_on(name: str) -> None:
    limits = own(70)
    before = server_state(limits)
    report = sandbox.run_tests(SENDER.format(payload=PAYLOADS[name]), ADD_TESTS,
                               limits=limits, mode="warm")
    assert report.passed == 0 and report.execution.status == "runtime_error", report
    assert all(r.outcome == "error" and r.message.startswith("the program died")
               for r in report.results), report
    assert server_state(limits) == before  # the same server and harness: none was lost
    honest_runs_pass(limits, "warm")
    assert server_state(limits) == before


def test_a_code_object_is_refused_and_never_run() -> None:
    """The code object, run by the harness, would leave /work/ran, which the run's next
    test (run by the harness, before the clean-up) looks for: it was refused unread."""
    code = SENDER.format(payload=PAYLOADS["code object as a value"])
    tests = [ADD_TESTS[0], "import os\nassert not os.path.exists('/work/ran')"]
    report = sandbox.run_tests(code, tests, limits=own(71), mode="warm")
    assert "marshal type 'c'" in report.results[0].message, report
    assert report.results[1].outcome == "pass", report


def test_in_a_cold_jail_a_crafted_reply_fails_only_its_program() -> None:
    limits = own(72)
    for name in ("code object as an exception's message", "list of 2**31 - 1 items"):
        report = sandbox.run_tests(SENDER.format(payload=PAYLOADS[name]), ADD_TESTS,
                                   limits=limits, mode="cold")
        assert report.passed == 0 and all(r.outcome == "error" for r in report.results), \
            report
    honest_runs_pass(limits, "cold")


# --- decoding a program's sets and dicts (issue #35) ---------------------------------------

P = (1 << 61) - 1  # hash(n) == hash(n + k * P) for every int n: collisions for free


def _as_set(items: list, code: bytes = b"<") -> bytes:
    """marshal's bytes of a list, written as a set (or frozenset): what a program that
    sends its own frames makes without building the set (quadratic for it too)."""
    data = bytearray(marshal.dumps(items))
    data[0] = data[0] & 0x80 | code[0]
    return bytes(data)


BOMBS = {
    "set of 80,000 ints of one hash": _as_set([1 + i * P for i in range(80_000)]),
    "frozenset of 30,000 ints of one hash": _as_set([1 + i * P for i in range(30_000)], b">"),
    "dict of 30,000 keys of one hash": marshal.dumps({1 + i * P: 0 for i in range(3)})[:1]
    + b"".join(marshal.dumps(1 + i * P) + b"N" for i in range(30_000)) + b"0",
    "set of 30,000 tuples of one hash": _as_set([(1 + i * P, "x") for i in range(30_000)]),
    "set of 30,000 floats and ints of one hash": _as_set(
        [float(2**i) if i < 1000 else 2**i % P + P for i in range(30_000)]),
    "bomb inside a list inside a dict": b"{" + marshal.dumps("k") + b"[\x01\x00\x00\x00"
    + _as_set([1 + i * P for i in range(30_000)]) + b"0",
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_hash_collision_bomb_is_refused_in_linear_time(name: str) -> None:
    """marshal itself would take minutes on each (80,000 ints of one hash: 3.2e9
    comparisons); decoded as lists, the hashes are counted first."""
    check_message(BOMBS[name])  # plain data by its shape: what used to reach marshal
    begin = time.monotonic()
    with pytest.raises(BadMessage, match="one hash"):
        decode_message(BOMBS[name])
    assert time.monotonic() - begin < 2.0


def test_decoding_gives_what_marshal_gives_for_plain_data() -> None:
    """The same values, the same types and the same iteration order as marshal's own
    decoding, and shared parts still shared."""
    rng = random.Random(35)
    values = [_value(rng) for _ in range(3000)] + [
        {-1, -2}, {1: {2: {3: {}}}, 4: {5: set()}}, [set(), frozenset(), {}, {()}],
        {(1, 2): frozenset({1, 2}), frozenset(): None}, {1 + P, 1, 1 + 2 * P}]
    for value in values:
        data = marshal.dumps(("ok", ("v", value)))
        decoded, expected = decode_message(data), marshal.loads(data)
        if "nan" in repr(expected):  # a NaN is not equal to itself, and hashes by its id:
            assert sorted(repr(decoded)) == sorted(repr(expected))  # its place in a set varies
        else:
            assert decoded == expected and repr(decoded) == repr(expected)
    shared = {"k": [1]}
    decoded = decode_message(marshal.dumps([shared, shared, ({1, 2}, shared)]))
    assert decoded[0] is decoded[1] is decoded[2][1]
    with pytest.raises(TypeError):  # a list as a set's item: the channel's malformed message
        decode_message(_as_set([[1]]))


BOMB_SENDER = """import os, marshal
P = (1 << 61) - 1

def add(a, b):
    frame = bytearray(marshal.dumps(('ok', ('v', [1 + i * P for i in range(80_000)]))))
    at = frame.index((80_000).to_bytes(4, 'little')) - 1
    frame[at] = frame[at] & 0x80 | ord('<')  # the list, as a set
    os.write(4, len(frame).to_bytes(4, "big") + bytes(frame))  # the reply pipe (worker_main)
    return a + b
"""


@pytest.mark.parametrize("mode", ["warm", "cold"])
def test_a_hash_collision_bomb_costs_its_test_not_the_wall_limit(mode: str) -> None:
    """A 1 s test whose reply is 80,000 ints of one hash as a set (1.2 MB) used to hold the
    harness for the whole 30 s wall limit: now the reply is refused at once, an error of
    that test, and the judges serve on."""
    limits = own(73)
    before = server_state(limits) if mode == "warm" else None
    begin = time.monotonic()
    report = sandbox.run_tests(BOMB_SENDER, ADD_TESTS[:2], mode=mode, limits=dataclasses.replace(
        limits, wall_s=30.0, cpu_s=30.0, test_wall_s=1.0))
    took = time.monotonic() - begin
    assert took < 6.0, (took, report)
    assert report.passed == 0 and all(r.outcome == "error" and "one hash" in r.message
                                      for r in report.results), report
    honest_runs_pass(limits, mode)
    if mode == "warm":
        assert server_state(limits) == before
