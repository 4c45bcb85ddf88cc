"""Programs for the code benchmarks (`code_reward.py`, `stdin_tests.py`), built from tasks with
known solutions: right ones, and wrong ones of the kinds RL rollouts produce.

HumanEval (`humaneval_programs`): for each problem its canonical solution, and wrong programs
built from it:
- `mutant`: the canonical body with one operator changed (an integer constant +-1, a
  comparison flipped, + and -, * and +, // and /, and/or swapped, a `not` dropped), up to
  four distinct ones per problem at random sites outside `while` loops (so that they end);
- `wrong_return`: `return None`, a constant of another type, or the first argument;
- `other_problem`: the body of another problem's solution;
- `exit_hack`: a wrong function that ends the process with status 0 before a test can fail:
  `sys.exit(0)` after the definition, `os._exit(0)` in the body, an `atexit` handler that
  turns the failing exit status into 0, and `os._exit` reached through `getattr`/`__import__`
  so that no pattern rule sees it. A harness that judges by exit status passes all four;
- `forged_output`: a wrong function that prints what a naive harness might read as success
  ("passed", "All tests passed", verdict-shaped JSON lines);
- `loop` and `sleep`: `while True: pass` and `time.sleep(3600)`, 2% of the mix together.

A program's `expect` is its verdict by construction where the construction decides it
(canonical: pass; exit hacks, forged output, loops, sleeps: fail) and None where only running
the tests does (a mutant may be equivalent, or untested by HumanEval's asserts).

stdin/stdout (`stdin_tasks`): small arithmetic and string tasks, each with a right program, a
wrong one (wrong on some inputs, the edge cases the tests always include) and 20-50 tests
whose expected output comes from a reference function, not from either program.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["EXIT_HACKS", "KINDS", "Program", "StdinTask", "humaneval_programs", "mutants",
           "stdin_tasks"]

KINDS = ("canonical", "mutant", "wrong_return", "other_problem", "exit_hack", "forged_output",
         "loop", "sleep")
LOOP_SHARE = 0.02
"""Share of the HumanEval mix that never finishes (loops and sleeps together)."""


@dataclass(frozen=True)
class Program:
    """One HumanEval program: the prompt, a body, and any module-level code after it."""

    problem: int
    """Index of the problem in the list given to `humaneval_programs`."""
    kind: str
    """One of KINDS."""
    detail: str
    """Which variant of the kind (the mutation, the exit hack, ...)."""
    source: str
    """The whole program: the prompt (signature and docstring), the body, the tail."""
    expect: str | None
    """pass or fail by construction, None when only the tests can tell."""


# --- HumanEval ----------------------------------------------------------------------------


def humaneval_programs(problems: list[dict[str, Any]], *, seed: int = 0) -> list[Program]:
    """Every problem's canonical solution and its wrong programs, loops and sleeps making up
    LOOP_SHARE of the result, problem by problem (so that the stalls are spread through the
    batch, not bunched at its end), in a stable order for a given seed."""
    rng = random.Random(seed)
    by_problem: list[list[Program]] = []
    for i, problem in enumerate(problems):
        prompt, body = problem["prompt"], problem["canonical_solution"]
        rows = [Program(i, "canonical", "", prompt + body, "pass")]
        for detail, mutated in mutants(body, rng, limit=4):
            rows.append(Program(i, "mutant", detail, prompt + mutated, None))
        for detail, wrong in _wrong_returns(prompt, problem["entry_point"], rng):
            rows.append(Program(i, "wrong_return", detail, prompt + wrong, None))
        if len(problems) > 1:
            other = (i + rng.randrange(1, len(problems))) % len(problems)
            rows.append(Program(i, "other_problem", problems[other]["task_id"],
                                prompt + problems[other]["canonical_solution"], None))
        detail, (hack_body, tail) = list(EXIT_HACKS.items())[i % len(EXIT_HACKS)]
        rows.append(Program(i, "exit_hack", detail, prompt + hack_body + tail, "fail"))
        rows.append(Program(i, "forged_output", "", prompt + _FORGED, "fail"))
        by_problem.append(rows)
    total = sum(len(rows) for rows in by_problem)
    stalls = min(round(LOOP_SHARE * total / (1 - LOOP_SHARE)), len(problems))
    for k, i in enumerate(sorted(rng.sample(range(len(problems)), stalls))):
        kind = "loop" if k % 2 == 0 else "sleep"
        body = _LOOP if kind == "loop" else _SLEEP
        by_problem[i].append(Program(i, kind, "", problems[i]["prompt"] + body, "fail"))
    return [p for rows in by_problem for p in rows]


_LOOP = "    while True:\n        pass\n"
_SLEEP = "    import time\n    time.sleep(3600)\n"
_FORGED = ("    import sys\n"
           "    print('passed')\n"
           "    print('All tests passed')\n"
           "    for i in range(64):\n"
           "        print('{\"test\": %d, \"verdict\": [\"pass\", \"\", 0.0]}' % i)\n"
           "    sys.stdout.flush()\n"
           "    return None\n")

EXIT_HACKS: dict[str, tuple[str, str]] = {
    # (body, module-level code after the function); every function is wrong (returns None)
    "sys_exit_at_import": ("    return None\n", "\nimport sys\nsys.exit(0)\n"),
    "os_exit_in_call": ("    import os\n    os._exit(0)\n", ""),
    "atexit_status_0": ("    return None\n", "\nimport atexit, os\natexit.register(os._exit, 0)\n"),
    "os_exit_hidden": ("    getattr(__import__('o' + 's'), '_e' + 'xit')(0)\n", ""),
}
"""Wrong programs that exit with status 0 before (or instead of) a failing assert."""


def _wrong_returns(prompt: str, entry_point: str,
                   rng: random.Random) -> list[tuple[str, str]]:
    out = [("None", "    return None\n")]
    constant = rng.choice(["0", "[]", "''", "False", "-1"])
    out.append((constant, f"    return {constant}\n"))
    first = _first_argument(prompt, entry_point)
    if first is not None:
        out.append(("first argument", f"    return {first}\n"))
    return out


def _first_argument(prompt: str, entry_point: str) -> str | None:
    try:
        tree = ast.parse(prompt + "    pass\n")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == entry_point and node.args.args:
            return node.args.args[0].arg
    return None


_COMPARE_FLIPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
                  ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In}
_BINOP_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Div,
                ast.Mod: ast.FloorDiv}


def _sites(tree: ast.AST) -> list[tuple[str, int]]:
    """(operator, k): the k-th node (in ast.walk order) the operator can change. Nodes in a
    `while` loop are left alone: a mutated loop may never end, and the mix's stalls are to be
    the LOOP_SHARE it is built with (on HumanEval, every mutant that ran past 3 s was one)."""
    in_while = {id(n) for loop in ast.walk(tree) if isinstance(loop, ast.While)
                for n in ast.walk(loop)}
    sites = []
    for k, node in enumerate(ast.walk(tree)):
        if id(node) in in_while:
            continue
        if isinstance(node, ast.Constant) and type(node.value) is int:
            sites.append(("constant", k))
        elif isinstance(node, ast.Compare) and type(node.ops[0]) in _COMPARE_FLIPS:
            sites.append(("comparison", k))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BINOP_SWAPS:
            sites.append(("arithmetic", k))
        elif isinstance(node, ast.BoolOp):
            sites.append(("boolean", k))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            sites.append(("not", k))
    return sites


def _mutate(tree: ast.AST, operator: str, k: int, rng: random.Random) -> str:
    node = list(ast.walk(tree))[k]
    if operator == "constant":
        delta = rng.choice((1, -1))
        node.value += delta
        return f"constant {node.value - delta} -> {node.value}"
    if operator == "comparison":
        old = type(node.ops[0])
        node.ops[0] = _COMPARE_FLIPS[old]()
        return f"comparison {old.__name__} -> {_COMPARE_FLIPS[old].__name__}"
    if operator == "arithmetic":
        old = type(node.op)
        node.op = _BINOP_SWAPS[old]()
        return f"arithmetic {old.__name__} -> {_BINOP_SWAPS[old].__name__}"
    if operator == "boolean":
        old = type(node.op)
        node.op = ast.Or() if old is ast.And else ast.And()
        return f"boolean {old.__name__} -> {type(node.op).__name__}"
    # `not x` -> `x`: the operand takes the UnaryOp's place under its parent
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if value is node:
                setattr(parent, name, node.operand)
                return "not dropped"
            if isinstance(value, list) and any(v is node for v in value):
                value[value.index(node)] = node.operand
                return "not dropped"
    return "not dropped"


def mutants(body: str, rng: random.Random, *, limit: int = 4) -> list[tuple[str, str]]:
    """Up to `limit` (description, body) single-operator mutants of a function body, each
    different from the original and from the others as code (not just as text)."""
    try:
        original = ast.parse("def _f():\n" + body)
    except SyntaxError:
        return []
    sites = _sites(original)
    rng.shuffle(sites)
    seen = {ast.dump(original)}
    out = []
    for operator, k in sites:
        tree = ast.parse("def _f():\n" + body)
        detail = _mutate(tree, operator, k, rng)
        try:
            dump = ast.dump(tree)
            source = _body(tree)
            compile(tree, "<mutant>", "exec")
        except (ValueError, TypeError, SyntaxError):
            continue
        if dump in seen:
            continue
        seen.add(dump)
        out.append((detail, source))
        if len(out) == limit:
            break
    return out


def _body(tree: ast.Module) -> str:
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    return "".join("    " + line + "\n" for stmt in function.body
                   for line in ast.unparse(stmt).splitlines())


# --- stdin/stdout tasks -------------------------------------------------------------------


@dataclass(frozen=True)
class StdinTask:
    """One stdin/stdout task with a program that is right or wrong by construction."""

    name: str
    """The task family (`sum`, `reverse`, ...) and its instance number."""
    program: str
    """The program judged: the family's right or wrong solution."""
    right: bool
    """True for the right solution (every test must pass), False for the wrong one (at least
    one of the always-included edge-case tests fails)."""
    tests: tuple[dict[str, str], ...]
    """{"input", "output"} cases; the output is the reference function's."""


@dataclass(frozen=True)
class _Family:
    name: str
    reference: Callable[[str], str]
    right: str
    wrong: str
    draw: Callable[[random.Random], str]
    edges: tuple[str, ...]
    """Inputs always tested: the wrong program fails at least one of them."""


def _ints(rng: random.Random, n: int, low: int = -1000, high: int = 1000) -> list[int]:
    return [rng.randint(low, high) for _ in range(n)]


def _word(rng: random.Random, letters: str = "abcdeAEIOUxyz", low: int = 1,
          high: int = 12) -> str:
    return "".join(rng.choice(letters) for _ in range(rng.randint(low, high)))


def _int_list(rng: random.Random, low: int, high: int) -> str:
    """A count line, then that many integers."""
    numbers = _ints(rng, rng.randint(1, 30), low, high)
    return f"{len(numbers)}\n{' '.join(map(str, numbers))}\n"


def _maybe_palindrome(rng: random.Random) -> str:
    word = _word(rng, "abAB", 1, 6)
    return (word + word[::-1] if rng.random() < 0.5 else word) + "\n"


def _palindrome(line: str) -> str:
    word = line.strip().lower()
    return ("YES" if word == word[::-1] else "NO") + "\n"


def _fizzbuzz(n: int) -> str:
    return "\n".join("FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else
                     "Buzz" if i % 5 == 0 else str(i) for i in range(1, n + 1)) + "\n"


def _factorial_mod(n: int) -> int:
    out = 1
    for i in range(2, n + 1):
        out = out * i % 1_000_000_007
    return out


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


FAMILIES: tuple[_Family, ...] = (
    _Family("sum", lambda s: f"{sum(map(int, s.split()))}\n",
            "a, b = map(int, input().split())\nprint(a + b)\n",
            "a, b = map(int, input().split())\nprint(a + b if b >= 0 else a - b)\n",
            lambda r: "{} {}\n".format(*_ints(r, 2)), ("3 -4\n", "0 0\n")),
    _Family("reverse", lambda s: s.rstrip("\n")[::-1] + "\n",
            "print(input()[::-1])\n",
            "s = input()\nprint(s[::-1] if len(s) % 2 == 0 else s[-2::-1])\n",
            lambda r: _word(r) + "\n", ("abc\n", "ab\n")),
    _Family("vowels", lambda s: f"{sum(c in 'aeiouAEIOU' for c in s)}\n",
            "s = input()\nprint(sum(c in 'aeiouAEIOU' for c in s))\n",
            "s = input()\nprint(sum(c in 'aeiou' for c in s))\n",
            lambda r: _word(r) + "\n", ("AEIOU\n", "xyz\n")),
    _Family("max", lambda s: f"{max(map(int, s.split()[1:]))}\n",
            "input()\nprint(max(map(int, input().split())))\n",
            "input()\nprint(max(map(int, input().split()), key=abs))\n",
            lambda r: _int_list(r, -1000, 1000), ("3\n-9 2 5\n", "1\n7\n")),
    _Family("fizzbuzz", lambda s: _fizzbuzz(int(s)),
            "n = int(input())\nfor i in range(1, n + 1):\n"
            "    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else "
            "'Buzz' if i % 5 == 0 else i)\n",
            "n = int(input())\nfor i in range(1, n):\n"
            "    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else "
            "'Buzz' if i % 5 == 0 else i)\n",
            lambda r: f"{r.randint(1, 100)}\n", ("15\n", "1\n")),
    _Family("gcd", lambda s: f"{_gcd(*map(int, s.split()))}\n",
            "import math\na, b = map(int, input().split())\nprint(math.gcd(a, b))\n",
            "a, b = map(int, input().split())\nwhile a % b:\n    a, b = b, a % b\nprint(b)\n",
            lambda r: "{} {}\n".format(*_ints(r, 2, 1, 10_000)), ("12 0\n", "0 5\n")),
    _Family("sort", lambda s: " ".join(map(str, sorted(map(int, s.split()[1:])))) + "\n",
            "input()\nprint(*sorted(map(int, input().split())))\n",
            "input()\nprint(*sorted(input().split()))\n",
            lambda r: _int_list(r, 0, 500), ("3\n10 9 100\n", "2\n2 11\n")),
    _Family("palindrome", _palindrome,
            "s = input().strip().lower()\nprint('YES' if s == s[::-1] else 'NO')\n",
            "s = input().strip()\nprint('YES' if s == s[::-1] else 'NO')\n",
            _maybe_palindrome, ("Abba\n", "Racecar\n")),
    _Family("factorial", lambda s: f"{_factorial_mod(int(s))}\n",
            "n = int(input())\nr = 1\nfor i in range(2, n + 1):\n    r = r * i % 1000000007\n"
            "print(r)\n",
            "import math\nprint(math.factorial(int(input())))\n",
            lambda r: f"{r.randint(0, 800)}\n", ("5\n", "20\n")),
    _Family("words", lambda s: f"{len(s.split())}\n",
            "print(len(input().split()))\n",
            "print(len(input().split(' ')))\n",
            lambda r: " ".join(_word(r, "abc", 1, 5) for _ in range(r.randint(1, 8)))
            + "\n", ("a  b\n", " lead\n")),
)


def stdin_tasks(count: int, *, seed: int = 0, min_tests: int = 20,
                max_tests: int = 50) -> list[StdinTask]:
    """`count` tasks cycling over FAMILIES, every other one with the wrong program, each with
    min_tests..max_tests tests (the family's edge cases among them)."""
    rng = random.Random(seed)
    tasks = []
    for k in range(count):
        family = FAMILIES[k % len(FAMILIES)]
        right = (k // len(FAMILIES)) % 2 == 0
        n = rng.randint(min_tests, max_tests)
        inputs = list(family.edges) + [family.draw(rng) for _ in range(n - len(family.edges))]
        rng.shuffle(inputs)
        tests = tuple({"input": s, "output": family.reference(s)} for s in inputs)
        tasks.append(StdinTask(f"{family.name}/{k}", family.right if right else family.wrong,
                               right, tests))
    return tasks
