"""`rewards sandbox serve` (the SandboxFusion-compatible API) over real HTTP on 127.0.0.1:
scored by veRL's own SandboxFusion client (`verl.utils.reward_score.sandbox_fusion`), and
called with raw requests in SandboxFusion's documented `RunCodeRequest` / `RunCodeResponse`
shapes: stdin, files, compile errors and timeouts, limits, unsupported languages, oversized
and malformed bodies."""

from __future__ import annotations

import base64
import json
import shutil
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from integration_helpers import ServerProcess  # type: ignore[import-not-found]

httpx = pytest.importorskip("httpx", reason="pip install -e '.[server]'")
pytest.importorskip("fastapi", reason="pip install -e '.[server]'")
pytest.importorskip("uvicorn", reason="pip install -e '.[server]'")

RESPONSE_KEYS = {"status", "message", "compile_result", "run_result", "executor_pod_name",
                 "files"}
COMMAND_KEYS = {"status", "execution_time", "return_code", "stdout", "stderr"}
HAS_GXX = shutil.which("g++") is not None
# constant evaluation of 10^10 steps: gcc works for minutes before its -fconstexpr-ops-limit
SLOW_TO_COMPILE = """
constexpr long spin() {
    long s = 0;
    for (long i = 0; i < 100000; ++i)
        for (long j = 0; j < 100000; ++j) s += i ^ j;
    return s;
}
constexpr long value = spin();
int main() { return value & 1; }
"""
ADD = "a, b = map(int, input().split())\nprint(a + b)\n"


class FusionServer(ServerProcess):
    """`rewards sandbox serve` as a subprocess on a free loopback port."""

    def __init__(self, log_dir: Path, *extra: str) -> None:
        super().__init__(["sandbox", "serve", *extra], log_dir=log_dir, ready_path="/v1/ping",
                         timeout=120)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FusionServer]:
    running = FusionServer(tmp_path_factory.mktemp("fusion"), "--workers", "2",
                           "--max-body-mb", "1", "--max-timeout", "30")
    yield running
    running.stop()


def run_code(server: FusionServer, **body: Any) -> dict[str, Any]:
    reply = httpx.post(f"{server.url}/run_code", json=body, timeout=60)
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert set(data) == RESPONSE_KEYS
    for part in ("compile_result", "run_result"):
        assert data[part] is None or set(data[part]) == COMMAND_KEYS
    return data


def fenced(code: str) -> str:
    return f"Here is my solution.\n```python\n{code}```\n"


# --- veRL's own client --------------------------------------------------------------------

def test_verl_compute_score_right_wrong_and_looping(server: FusionServer) -> None:
    from verl.utils.reward_score.sandbox_fusion import compute_score

    url = f"{server.url}/run_code"
    cases = {"inputs": ["1 2\n", "10 -4\n", "0 0\n"], "outputs": ["3\n", "6\n", "0\n"]}
    score, meta = compute_score(url, None, 1024, fenced(ADD), json.dumps(cases))
    assert score == 1.0
    assert [m["status"] for m in meta] == ["success"] * 3
    assert meta[0]["api_status"] == "Success" and meta[0]["exit_code"] == 0

    wrong = "a, b = map(int, input().split())\nprint(a - b)\n"
    score, meta = compute_score(url, None, 1024, fenced(wrong), cases)
    assert score == pytest.approx(1 / 3)  # only 0 - 0 == 0 + 0
    assert [m["status"] for m in meta] == ["wrong_answer", "wrong_answer", "success"]

    score, meta = compute_score(url, threading.Semaphore(2), 1024,
                                fenced("while True:\n    pass\n"), cases, timeout=1)
    assert score == 0.0
    assert [m["status"] for m in meta] == ["timeout"] * 3
    assert {m["run_status"] for m in meta} == {"TimeLimitExceeded"}


def test_verl_check_correctness_codes(server: FusionServer) -> None:
    """check_correctness's per-case codes: True, False, -2 runtime error, -3 timeout, -4
    compile error, -1 sandbox error (a SandboxFusion language this sandbox does not run)."""
    from verl.utils.reward_score.sandbox_fusion.utils import check_correctness

    url = f"{server.url}/run_code"
    cases = {"inputs": ["2 3\n", "oops\n"], "outputs": ["5\n", "5\n"]}
    results, meta = check_correctness(url, cases, ADD, timeout=5)
    assert results == [True, -2]
    assert meta[1]["status"] == "runtime_error" and meta[1]["exit_code"] == 1
    assert "ValueError" in meta[1]["stderr"]

    results, meta = check_correctness(url, {"inputs": [""], "outputs": ["x"]},
                                      "package main\nfunc main() {}\n", language="go")
    assert results == [-1] and meta[0]["status"] == "sandbox_error"
    assert "not supported" in meta[0]["api_response"]["message"]

    if HAS_GXX:
        results, meta = check_correctness(url, {"inputs": ["", ""], "outputs": ["", ""]},
                                          "int main() { return }", language="cpp")
        assert results == [-4, -4] and meta[0]["compile_status"] == "Finished"
        assert "error" in meta[0]["compile_stderr"]
        program = '#include <cstdio>\nint main() { int a, b; scanf("%d %d", &a, &b); ' \
                  'printf("%d\\n", a + b); }\n'
        results, _ = check_correctness(url, {"inputs": ["2 3\n"], "outputs": ["5\n"]}, program,
                                       language="cpp")
        assert results == [True]


def test_verl_function_and_assert_cases(server: FusionServer) -> None:
    """veRL's LeetCode-style wrapper (`fn_name`: JSON arguments on stdin, the result printed)
    and its assert cases run unchanged in the jail."""
    from verl.utils.reward_score.sandbox_fusion import compute_score

    url = f"{server.url}/run_code"
    solution = "class Solution:\n    def add(self, a, b):\n        return a + b\n"
    cases = {"fn_name": "add", "inputs": ["1\n2", "[1]\n[2]"], "outputs": ["3", "[1, 2]"]}
    score, meta = compute_score(url, None, 1024, fenced(solution), cases)
    assert score == 1.0, meta
    asserts = {"assert_case": ["assert add(1, 2) == 3", "assert add(2, 2) == 5"]}
    score, meta = compute_score(url, None, 1024, fenced("def add(a, b):\n    return a + b\n"),
                                asserts)
    assert score == 0.5
    assert [m["status"] for m in meta] == ["success", "runtime_error"]
    assert "AssertionError" in meta[1]["stderr"]


def test_verl_default_compute_score_path(server: FusionServer) -> None:
    """The entry veRL's reward manager calls for code data when `reward.sandbox_fusion.url`
    is set (continuous pass fraction)."""
    from verl.utils.reward_score import default_compute_score

    cases = json.dumps({"inputs": ["1 2\n", "5 5\n"], "outputs": ["3\n", "11\n"]})
    score = default_compute_score("codecontests", fenced(ADD), cases,
                                  sandbox_fusion_url=f"{server.url}/run_code",
                                  concurrent_semaphore=threading.Semaphore(4),
                                  memory_limit_mb=1024)
    assert score == 0.5


# --- raw requests in SandboxFusion's documented shapes -----------------------------------

def test_ping(server: FusionServer) -> None:
    reply = httpx.get(f"{server.url}/v1/ping")
    assert reply.status_code == 200 and reply.json() == "pong"


def test_success_shape_and_defaults(server: FusionServer) -> None:
    """Only the required fields (code, language): SandboxFusion's defaults fill the rest."""
    data = run_code(server, code="print('hello')", language="python")
    assert data["status"] == "Success" and data["message"] == ""
    assert data["compile_result"] is None and data["files"] == {}
    run = data["run_result"]
    assert run["status"] == "Finished" and run["return_code"] == 0
    assert run["stdout"] == "hello\n" and run["stderr"] == ""
    assert isinstance(run["execution_time"], float) and run["execution_time"] > 0


def test_stdin_and_null_stdin(server: FusionServer) -> None:
    program = "import sys\ndata = sys.stdin.read()\nprint(repr(data))\n"
    data = run_code(server, code=program, language="python", stdin="line one\nline two\n",
                    compile_timeout=10, run_timeout=10, memory_limit_MB=256, files={},
                    fetch_files=[])
    assert data["run_result"]["stdout"] == "'line one\\nline two\\n'\n"
    data = run_code(server, code=program, language="python", stdin=None)
    assert data["run_result"]["stdout"] == "''\n"


def test_files_are_written_next_to_the_program(server: FusionServer) -> None:
    program = ("import helper\n"
               "print(open('data/numbers.txt').read().split())\n"
               "print(helper.double(21))\n"
               "print(open('blob.bin', 'rb').read() == bytes(range(256)))\n")
    files = {"data/numbers.txt": base64.b64encode(b"4 8 15\n").decode(),
             "helper.py": base64.b64encode(b"def double(x):\n    return 2 * x\n").decode(),
             "blob.bin": base64.b64encode(bytes(range(256))).decode(),
             "skipped.txt": None}
    data = run_code(server, code=program, language="python", files=files)
    assert data["status"] == "Success", data
    assert data["run_result"]["stdout"] == "['4', '8', '15']\n42\nTrue\n"


def test_bad_files_and_fetch_files_are_sandbox_errors(server: FusionServer) -> None:
    """What SandboxFusion answers with a SandboxError (an exception writing the files), and
    fetch_files, which this sandbox cannot do: a SandboxError saying so, never a silent {}."""
    for files, words in (({"x.txt": "not base64!"}, "base64"),
                         ({"../escape.txt": "aGk="}, "bad file name"),
                         ({"/etc/abs.txt": "aGk="}, "bad file name")):
        data = run_code(server, code="print(1)", language="python", files=files)
        assert data["status"] == "SandboxError" and words in data["message"]
        assert data["run_result"] is None
    data = run_code(server, code="open('out.txt', 'w').write('hi')", language="python",
                    fetch_files=["out.txt"])
    assert data["status"] == "SandboxError" and "fetch_files" in data["message"]


def test_runtime_errors_and_signals(server: FusionServer) -> None:
    data = run_code(server, code="import sys\nprint('partial')\nsys.exit(3)\n",
                    language="python")
    assert data["status"] == "Failed" and data["message"] == "runtime_error"
    assert data["run_result"]["status"] == "Finished"
    assert data["run_result"]["return_code"] == 3 and data["run_result"]["stdout"] == "partial\n"
    data = run_code(server, code="import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
                    language="python")
    assert data["status"] == "Failed" and data["run_result"]["return_code"] == -11


def test_timeout_is_time_limit_exceeded(server: FusionServer) -> None:
    data = run_code(server, code="print('started', flush=True)\nwhile True:\n    pass\n",
                    language="python", run_timeout=1)
    assert data["status"] == "Failed" and data["message"] == "timeout"
    run = data["run_result"]
    assert run["status"] == "TimeLimitExceeded" and run["return_code"] is None
    assert run["stdout"] == "started\n"


def test_memory_and_output_limits_fail(server: FusionServer) -> None:
    data = run_code(server, code="block = bytearray(1 << 30)\nprint(len(block))\n",
                    language="python", memory_limit_MB=128)
    assert data["status"] == "Failed" and data["message"] == "memory_limit"
    assert data["run_result"]["status"] == "Finished"
    assert data["run_result"]["return_code"] != 0 and data["run_result"]["stdout"] == ""
    data = run_code(server, code="import sys\nsys.stdout.write('x' * (3 << 20))\n",
                    language="python")
    assert data["status"] == "Failed" and data["message"] == "output_limit"
    assert len(data["run_result"]["stdout"]) <= 1 << 20


def test_other_languages(server: FusionServer) -> None:
    data = run_code(server, code='read -r name\necho "hi $name"\n', language="bash",
                    stdin="bob\n")
    assert data["status"] == "Success" and data["run_result"]["stdout"] == "hi bob\n"
    if shutil.which("node"):
        for language in ("nodejs", "javascript"):
            data = run_code(server, code="console.log(6 * 7)", language=language)
            assert data["status"] == "Success" and data["run_result"]["stdout"] == "42\n"


@pytest.mark.skipif(not HAS_GXX, reason="g++ is not installed on this host")
def test_cpp_compile_result(server: FusionServer) -> None:
    program = '#include <iostream>\nint main() { int n; std::cin >> n; std::cout << n * n ' \
              '<< "\\n"; return 0; }\n'
    data = run_code(server, code=program, language="cpp", stdin="12\n")
    assert data["status"] == "Success"
    assert data["compile_result"]["status"] == "Finished"
    assert data["compile_result"]["return_code"] == 0
    assert data["run_result"]["stdout"] == "144\n"

    data = run_code(server, code="int main() { undeclared(); }", language="cpp")
    assert data["status"] == "Failed" and data["message"] == "compile_error"
    assert data["run_result"] is None
    compiled = data["compile_result"]
    assert compiled["status"] == "Finished" and compiled["return_code"] == 1
    assert "undeclared" in compiled["stderr"]


@pytest.mark.skipif(not HAS_GXX, reason="g++ is not installed on this host")
def test_cpp_compile_timeout(server: FusionServer) -> None:
    data = run_code(server, code=SLOW_TO_COMPILE, language="cpp", compile_timeout=1)
    assert data["status"] == "Failed" and data["run_result"] is None
    assert data["compile_result"]["status"] == "TimeLimitExceeded"
    assert data["compile_result"]["return_code"] is None


def test_unsupported_language(server: FusionServer) -> None:
    """A name outside SandboxFusion's `Language` literal fails validation (422, as there); a
    SandboxFusion language this sandbox does not run is a SandboxError reply."""
    reply = httpx.post(f"{server.url}/run_code", json={"code": "x", "language": "cobol"})
    assert reply.status_code == 422
    [error] = reply.json()["detail"]
    assert error["loc"] == ["body", "language"] and error["type"] == "literal_error"
    for language in ("java", "rust", "go"):
        data = run_code(server, code="x", language=language)
        assert data["status"] == "SandboxError" and language in data["message"]


def test_malformed_bodies_are_422(server: FusionServer) -> None:
    url = f"{server.url}/run_code"
    reply = httpx.post(url, content=b'{"code": "print(1)", "language": ',
                       headers={"Content-Type": "application/json"})
    assert reply.status_code == 422 and reply.json()["detail"][0]["type"] == "json_invalid"
    reply = httpx.post(url, json={"language": "python"})
    assert reply.status_code == 422
    assert reply.json()["detail"][0]["loc"] == ["body", "code"]
    for field, value in (("run_timeout", 0), ("run_timeout", 31), ("compile_timeout", -1),
                         ("memory_limit_MB", 10 ** 6), ("files", ["a.txt"]),
                         ("stdin", {"a": 1})):
        reply = httpx.post(url, json={"code": "print(1)", "language": "python", field: value})
        assert reply.status_code == 422, (field, value)
        assert reply.json()["detail"][0]["loc"][:2] == ["body", field]


def test_oversized_body_is_413(server: FusionServer) -> None:
    """The server runs with --max-body-mb 1: a bigger body is refused before it is parsed,
    whether it says its length or arrives in chunks."""
    big = {"code": "#" * (2 << 20), "language": "python"}
    reply = httpx.post(f"{server.url}/run_code", json=big, timeout=30)
    assert reply.status_code == 413 and "body over" in reply.json()["detail"]

    def chunks() -> Iterator[bytes]:
        yield b'{"language": "python", "code": "'
        for _ in range(40):
            yield b"#" * (64 << 10)
        yield b'"}'

    reply = httpx.post(f"{server.url}/run_code", content=chunks(), timeout=30,
                       headers={"Content-Type": "application/json"})
    assert reply.status_code == 413
    # just under the limit is run
    data = run_code(server, code="#" * (900 << 10) + "\nprint('ok')", language="python")
    assert data["status"] == "Success" and data["run_result"]["stdout"] == "ok\n"


def test_concurrent_requests_past_the_worker_count(server: FusionServer) -> None:
    """Twelve requests at once against two workers: each waits its turn and gets its own
    answer."""
    def one(i: int) -> dict[str, Any]:
        return run_code(server, code=f"print({i} * {i})", language="python")

    with ThreadPoolExecutor(12) as pool:
        replies = list(pool.map(one, range(12)))
    assert [r["run_result"]["stdout"] for r in replies] == [f"{i * i}\n" for i in range(12)]


# --- attacks on the server, then an honest request on the same server ---------------------

@pytest.mark.parametrize("name", ["./main.py", "main.py/.", "main.py//", ".//main.py",
                                  "main.py/x.txt", "./prog"])
def test_a_file_cannot_replace_the_program(server: FusionServer, name: str) -> None:
    """File names are checked on the path they name once normalized: `./main.py` and
    `main.py/.` are the program itself."""
    evil = base64.b64encode(b"print('replaced')").decode()
    data = run_code(server, code="print('original')", language="python", files={name: evil})
    assert data["status"] == "SandboxError" and "bad file name" in data["message"], data
    data = run_code(server, code="print('original')", language="python",
                    files={"./data/x.txt": evil})
    assert data["status"] == "Success" and data["run_result"]["stdout"] == "original\n", data


@pytest.mark.parametrize("field, raw", [("run_timeout", "NaN"), ("run_timeout", "Infinity"),
                                        ("compile_timeout", "NaN"),
                                        ("memory_limit_MB", "1e400"),
                                        ("memory_limit_MB", "-1e400"),
                                        ("memory_limit_MB", "NaN")])
def test_non_finite_limits_are_422(server: FusionServer, field: str, raw: str) -> None:
    body = f'{{"code": "print(1)", "language": "python", "{field}": {raw}}}'
    reply = httpx.post(f"{server.url}/run_code", content=body.encode(), timeout=30,
                       headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"][0]["loc"] == ["body", field]
    assert run_code(server, code="print(2)", language="python")["run_result"]["stdout"] == "2\n"


@pytest.mark.parametrize("memory", [1, 8, 15])
def test_a_memory_limit_the_sandbox_cannot_apply_is_422(server: FusionServer,
                                                        memory: int) -> None:
    """`memory_limit_MB: 1` once ran `print(1)` and answered Success (a warm interpreter's
    pages are not counted): a limit under MIN_MEMORY_MB is refused, never replaced; the
    smallest one applied, and the server's default (<= 0), run."""
    from integrations.sandbox_fusion import MIN_MEMORY_MB

    reply = httpx.post(f"{server.url}/run_code", timeout=30, json={
        "code": "print(1)", "language": "python", "memory_limit_MB": memory})
    assert reply.status_code == 422, reply.text
    [error] = reply.json()["detail"]
    assert error["loc"] == ["body", "memory_limit_MB"] and str(MIN_MEMORY_MB) in error["msg"]
    for applied in (MIN_MEMORY_MB, 0, -1):
        data = run_code(server, code="print(1)", language="python", memory_limit_MB=applied)
        assert data["status"] == "Success", (applied, data)


def test_a_token_guards_every_endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a token (here from REWARDS_SANDBOX_TOKEN), a request without it or with another
    gets 401 before its body is read; with it, as a Bearer header or `access_token` in the
    URL (what veRL's client, which sets no header, can send), it runs."""
    token = "s3cret-token"
    monkeypatch.setenv("REWARDS_SANDBOX_TOKEN", token)
    guarded = ServerProcess(["sandbox", "serve", "--workers", "1"], log_dir=tmp_path,
                            ready_path=f"/v1/ping?access_token={token}", timeout=120)
    try:
        started = guarded.output()  # the start-up line names the token and the body bounds
        assert f"rewards sandbox serve: serving {guarded.url} (POST /run_code, POST /run_jupyter," \
               " GET /v1/ping); " \
               "token required" in started and "at most 16 MiB each" in started, started
        url = f"{guarded.url}/run_code"
        body = {"code": "print('ran')", "language": "python"}
        for headers, query in (({}, ""), ({"Authorization": "Bearer wrong"}, ""),
                               ({"Authorization": f"Basic {token}"}, ""),
                               ({"Authorization": f"Bearer {token}x"}, ""),
                               ({}, "?access_token=s3cret"), ({}, "?token=" + token)):
            reply = httpx.post(url + query, json=body, headers=headers, timeout=30)
            assert reply.status_code == 401, (headers, query, reply.text)
            assert reply.headers["www-authenticate"].startswith("Bearer")
        assert httpx.get(f"{guarded.url}/v1/ping").status_code == 401
        assert httpx.post(f"{guarded.url}/run_jupyter", json={"cells": ["1"]},
                          timeout=30).status_code == 401
        # refused before the body is read: a body past the size limit is still a 401
        big = httpx.post(url, content=b"x" * (20 << 20), timeout=30)
        assert big.status_code == 401
        for headers, query in (({"Authorization": f"Bearer {token}"}, ""),
                               ({"authorization": f"bearer {token}"}, ""),
                               ({}, f"?access_token={token}")):
            reply = httpx.post(url + query, json=body, headers=headers, timeout=60)
            assert reply.status_code == 200, reply.text
            assert reply.json()["run_result"]["stdout"] == "ran\n"
        # veRL's own client, given the token in its URL (it sets no header)
        verl_utils = pytest.importorskip("verl.utils.reward_score.sandbox_fusion.utils")
        cases = {"inputs": ["2 3\n"], "outputs": ["5\n"]}
        results, _ = verl_utils.check_correctness(f"{url}?access_token={token}", cases, ADD,
                                                  timeout=10)
        assert results == [True]
        results, _ = verl_utils.check_correctness(url, cases, ADD, timeout=10)
        assert results != [True]
    finally:
        guarded.stop()


def test_a_token_must_be_url_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token travels in a header and in `?access_token=`: one with a character a query
    string changes (`+` reads as a space; `&`, `#`, `%`, `=` cut or decode it) is refused at
    start, not accepted to fail later in the documented URL form."""
    import secrets

    from integrations._auth import resolve_token
    from rewards.errors import ConfigError

    monkeypatch.delenv("REWARDS_SANDBOX_TOKEN", raising=False)
    assert resolve_token(None, "REWARDS_SANDBOX_TOKEN") is None
    made = secrets.token_urlsafe(32)
    assert resolve_token(made, "REWARDS_SANDBOX_TOKEN") == made
    monkeypatch.setenv("REWARDS_SANDBOX_TOKEN", "")
    assert resolve_token(None, "REWARDS_SANDBOX_TOKEN") is None  # empty: no token
    monkeypatch.setenv("REWARDS_SANDBOX_TOKEN", "from-env")
    assert resolve_token(None, "REWARDS_SANDBOX_TOKEN") == "from-env"
    assert resolve_token("given", "REWARDS_SANDBOX_TOKEN") == "given"
    for bad in ("", "two words", "tab\there", "caf\u00e9", "a+b", "a&b", "a#b", "a%2Bb", "a=b",
                "a/b"):
        with pytest.raises(ConfigError, match="token"):
            resolve_token(bad, "REWARDS_SANDBOX_TOKEN")


# --- /run_jupyter: the cells of one request in one sandbox session -------------------------

JUPYTER_KEYS = {"status", "message", "driver", "cells", "executor_pod_name", "files"}
CELL_KEYS = {"stdout", "stderr", "display", "error"}


def run_jupyter(server: FusionServer, **body: Any) -> dict[str, Any]:
    reply = httpx.post(f"{server.url}/run_jupyter", json=body, timeout=60)
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert set(data) == JUPYTER_KEYS and all(set(cell) == CELL_KEYS for cell in data["cells"])
    return data


def test_jupyter_cells_share_one_session(server: FusionServer) -> None:
    """SandboxFusion's own example request: a later cell sees what an earlier one set, a last
    expression is displayed, a raising cell is a Success whose `error` names it."""
    data = run_jupyter(server, cells=["a = 123", "a", "print(a)",
                                      'import sys; sys.stderr.write("stderr message")',
                                      'raise RuntimeError("error message")'])
    assert data["status"] == "Success" and data["driver"]["status"] == "Finished", data
    cells = data["cells"]
    assert cells[0] == {"stdout": "", "stderr": "", "display": [], "error": []}
    assert cells[1]["display"] == [{"text/plain": "123"}]
    assert cells[2]["stdout"] == "123\n" and cells[3]["stderr"] == "stderr message"
    error, = cells[4]["error"]
    assert error["ename"] == "RuntimeError" and error["evalue"] == "error message"
    assert "RuntimeError: error message" in error["traceback"]


def test_jupyter_files_timeouts_and_no_state_across_requests(server: FusionServer) -> None:
    files = {"data/n.txt": base64.b64encode(b"4 8 15\n").decode(),
             "helper.py": base64.b64encode(b"def double(x):\n    return 2 * x\n").decode()}
    data = run_jupyter(server, files=files, cells=[
        "import helper\nn = open('data/n.txt').read().split()",
        "helper.double(int(n[-1]))", "open('/tmp/left', 'w').write('s')\nsecret = 1"])
    assert data["status"] == "Success", data
    assert data["cells"][1]["display"] == [{"text/plain": "30"}]
    slow = run_jupyter(server, cell_timeout=1, cells=["x = 1", "while True:\n    pass",
                                                      "print(x)"])
    assert slow["status"] == "Failed" and slow["driver"]["status"] == "TimeLimitExceeded"
    assert len(slow["cells"]) == 2  # the cell after the timeout did not run
    fresh = run_jupyter(server, cells=[("import os\nprint(sorted(os.listdir('.')), "
                                        "os.listdir('/tmp'), 'secret' in globals())")])
    assert fresh["cells"][0]["stdout"] == "[] [] False\n", fresh
    refused = run_jupyter(server, cells=["1"], files={"../x": ""})
    assert refused["status"] == "SandboxError" and "relative" in refused["message"]
    assert httpx.post(f"{server.url}/run_jupyter", json={"cells": []}).status_code == 422
