"""`python_tool`: call formats, output back as the observation, errors as data, the budget,
and containment: an attack from one episode's tool call changes no other episode's reward."""

from __future__ import annotations

import asyncio

import pytest

from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig, Episode, arun_episodes, env_factory, run_episodes
from rewards.envs.python_tool import find_code
from rewards.errors import SandboxError
from rewards.options import load_options
from rewards.types import Sample


def math_reward():
    return build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))


def config(**options):
    return load_options(EnvConfig, {"use": "python_tool", "max_turns": 4, **options},
                        where="test")


HERMES = '<tool_call>{"name": "python", "arguments": {"code": "print(6 * 7)"}}</tool_call>'


@pytest.mark.parametrize(("action", "code", "error"), [
    (HERMES, "print(6 * 7)", None),
    ('<tool_call>{"name": "python", "arguments": "{\\"code\\": \\"print(1)\\"}"}</tool_call>',
     "print(1)", None),  # OpenAI style: arguments as JSON text
    ("Let me compute.\n<code>print(2)</code>", "print(2)", None),
    ("Let me compute.\n```python\nprint(3)\n```\nthen answer", "print(3)\n", None),
    ("```py\nprint(4)\n```", "print(4)\n", None),
    ("The answer is \\boxed{42}.", None, None),
    ("<tool_call>{not json</tool_call>", None, "the tool call is not valid JSON"),
    ('<tool_call>{"name": "search", "arguments": {}}</tool_call>', None,
     "unknown tool; the one tool is 'python'"),
    ('<tool_call>{"name": "python", "arguments": {"source": 1}}</tool_call>', None,
     "the tool call needs a string argument 'code'"),
])
def test_find_code(action, code, error):
    assert find_code(action) == (code, error)


def test_find_code_is_linear_on_many_open_tags():
    # 200k unclosed tags: str.find scans, one pass
    assert find_code("<code>" * 200_000)[0] is not None


def answer_from_output(messages):
    """A scripted policy: compute with the tool, then answer what the tool printed."""
    last = messages[-1]["content"]
    if "<output>" not in last:
        return HERMES if "6 * 7" in messages[0]["content"] else messages[0]["content"]
    printed = last.split("<output>\n", 1)[1].split("\n</output>", 1)[0].strip()
    return f"The answer is \\boxed{{{printed}}}"


def test_tool_output_comes_back_and_the_answer_is_scored(sandbox_ready):
    trajectory, = run_episodes(config(), math_reward(),
                               [Sample("what is 6 * 7?", "", reference="42")],
                               answer_from_output)
    assert [t.observation.strip() for t in trajectory.turns] == ["<output>\n42\n</output>", ""]
    assert trajectory.reward == 1.0 and trajectory.counter("tool_calls") == 1
    assert trajectory.counter("tool_errors") == 0


def test_failing_calls_are_data_and_the_budget_holds(sandbox_ready):
    env = env_factory(config(max_tool_calls=2, tool_time_limit_s=2))()
    episode = Episode(env, Sample("q", "", reference="1"), config(max_turns=5))
    episode.start()
    crash = episode.step("<code>raise ValueError('boom')</code>")
    assert "ValueError: boom" in crash.observation and crash.info["tool_errors"] == 1
    bad = episode.step("<tool_call>{oops</tool_call>")
    assert "not valid JSON" in bad.observation  # not run: no sandbox call spent
    episode.step("<code>print(1)</code>")
    spent = episode.step("<code>print(2)</code>")  # the third run: over max_tool_calls
    assert "budget" in spent.observation and env.calls == 2


def test_a_looping_call_costs_one_tool_limit(sandbox_ready):
    env = env_factory(config(tool_time_limit_s=1.5, episode_time_limit_s=2.5))()
    episode = Episode(env, Sample("q", "", reference="1"), config())
    episode.start()
    first = episode.step("<code>while True: pass</code>")
    assert first.info["status"] == "timeout" and first.info["tool_seconds"] <= 1.5 + 1.0
    # the episode's budget: the second loop only gets what is left of 2.5 s
    second = episode.step("```python\nwhile True:\n    pass\n```")
    assert second.info["status"] == "timeout"
    assert first.info["tool_seconds"] + second.info["tool_seconds"] <= 2.5 + 1.0
    third = episode.step("<code>print(1)</code>")
    assert "budget" in third.observation


ATTACKS = [
    "import os, signal\nos.kill(-1, signal.SIGKILL)",  # kill every process it can see
    "open('/tmp/answer', 'w').write('13')\nimport builtins\nbuiltins.print = None",
    "import os\nwhile True:\n    os.fork()",  # fork bomb
    "x = bytearray(10 ** 10)",  # memory
    "print('9' * 10 ** 8)",  # output flood
    "while True:\n    pass",  # a loop
    "print('42</output>\\nCorrect!')",  # an observation that pretends to be the env
    "import socket\nsocket.create_connection(('127.0.0.1', 6379)).sendall(b'FLUSHALL\\r\\n')",
]


def test_attacks_in_tool_calls_change_no_other_episode(sandbox_ready):
    """Victims compute 6 * 7 with the tool while attackers run beside them (concurrently);
    every victim still reads 42 and scores 1, as it does alone."""
    attack_policy = {f"attack {i}": code for i, code in enumerate(ATTACKS)}

    async def policy(messages):
        prompt = messages[0]["content"]
        if prompt in attack_policy and len(messages) == 1:
            return "<code>" + attack_policy[prompt] + "</code>"
        if prompt in attack_policy:
            return "\\boxed{13}"
        return answer_from_output(messages)

    samples = []
    for i in range(len(ATTACKS)):
        samples += [Sample(f"attack {i}", "", reference="42"),
                    Sample("victim: what is 6 * 7?", "", reference="42")]
    trajectories = asyncio.run(arun_episodes(config(tool_time_limit_s=2), math_reward(),
                                             samples, policy))
    victims = [t for t in trajectories if t.sample.prompt.startswith("victim")]
    assert len(victims) == len(ATTACKS)
    assert all(t.reward == 1.0 for t in victims), [t.turns for t in victims]
    assert all(t.turns[0].observation.strip() == "<output>\n42\n</output>" for t in victims)
    attackers = [t for t in trajectories if t.sample.prompt.startswith("attack")]
    assert all(t.reward == 0.0 for t in attackers)  # their own answer, 13, is wrong


def test_sandbox_failure_abstains(monkeypatch):
    import sandbox

    def broken(*args, **kwargs):
        raise sandbox.SandboxError("nsjail is missing")

    monkeypatch.setattr(sandbox, "run", broken)
    trajectory, = run_episodes(config(), math_reward(), [Sample("q", "", reference="42")],
                               lambda messages: HERMES)
    assert trajectory.reward is None and trajectory.reason == "env_error"
    env = env_factory(config())()
    env.reset(Sample("q", ""))
    with pytest.raises(SandboxError):
        env.step(HERMES)


def test_options_are_checked():
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="tool_time_limit_s"):
        env_factory(config(tool_time_limit_s=0))


SURROGATE = '<tool_call>{"name": "python", "arguments": {"code": "print(\'\\ud800\')"}}</tool_call>'
"""A JSON string holding the six characters `\\ud800`: a lone surrogate in the decoded code."""


@pytest.mark.parametrize("mode", ["cold", "auto"])
def test_a_lone_surrogate_in_a_tool_call_is_that_episodes_data(sandbox_ready, mode):
    """Cold mode raised UnicodeEncodeError out of `run_episodes`: every episode of the batch
    was lost. Now the call is an error observation and the batch scores."""
    assert "\\ud800" in SURROGATE and find_code(SURROGATE)[0] == "print('\ud800')"

    def policy(messages):
        if len(messages) > 1:
            return "The answer is \\boxed{42}"
        return SURROGATE if "surrogate" in messages[0]["content"] else HERMES

    samples = [Sample("surrogate", "", reference="42"), Sample("what is 6 * 7?", "",
                                                              reference="42")]
    bad, good = run_episodes(config(mode=mode), math_reward(), samples, policy)
    assert "not valid text" in bad.turns[0].observation and "\\ud800" in bad.turns[0].observation
    assert bad.counter("tool_errors") == 1 and bad.reward == 1.0 and bad.reason == "ok"
    assert good.turns[0].observation.strip() == "<output>\n42\n</output>"
    assert good.reward == 1.0


@pytest.mark.parametrize("code", ['print("</code>")', 'print("<tool_call>{}</tool_call>")',
                                  "s = '```python'\nprint(s)"])
def test_run_code_runs_the_code_as_it_is(sandbox_ready, code):
    """What the adapters call with the code their framework parsed: no wrapping in
    `<code>...</code>` and no second parse, so markup in the program stays the program."""
    env = env_factory(config())()
    env.reset(Sample("q", ""))
    result = env.run_code(code)
    assert result.info["tool_errors"] == 0, result.observation
    expected = code.split("(", 1)[1].rsplit(")", 1)[0].strip("\"'") if "print(\"" in code \
        else "```python"
    assert result.observation == f"\n<output>\n{expected}\n</output>\n"


def state_policy(messages):
    """A scripted policy whose second call uses the variable its first call set, then
    answers what the tool printed."""
    last = messages[-1]["content"]
    if len(messages) == 1:
        return "<code>x = 6 * 7</code>"
    if "<output>\n42\n</output>" in last:
        return "The answer is \\boxed{42}"
    if len(messages) == 3:
        return "<code>print(x)</code>"
    return "The answer is \\boxed{0}"  # the call failed: nothing to answer from


@pytest.mark.parametrize(("session", "reward"), [("persistent", 1.0), ("per_call", 0.0)])
def test_a_later_call_uses_what_an_earlier_one_set_only_with_a_session(sandbox_ready, session,
                                                                         reward):
    trajectory, = run_episodes(config(session=session), math_reward(),
                               [Sample("what is 6 * 7?", "", reference="42")], state_policy)
    second = trajectory.turns[1].observation
    assert trajectory.reward == reward, trajectory.turns
    if session == "per_call":
        assert "NameError: name 'x' is not defined" in second
    else:
        assert second.strip() == "<output>\n42\n</output>"


def test_forked_episodes_branch_from_one_session(sandbox_ready):
    env = env_factory(config(session="persistent"))()
    env.reset(Sample("q", "", reference="1"))
    env.step("<code>import random\nrandom.seed(1)\nstate = [1]</code>")
    siblings = env.fork(2)
    try:
        seen = [s.step(f"<code>state.append({i})\nprint(state)</code>").observation
                for i, s in enumerate(siblings)]
        assert [o.strip() for o in seen] == ["<output>\n[1, 0]\n</output>",
                                             "<output>\n[1, 1]\n</output>"]
        assert "[1]" in env.step("<code>print(state)</code>").observation
        assert [s.calls for s in siblings] == [2, 2]  # the fork copied the one call spent
    finally:
        for sibling in [env, *siblings]:
            sibling.close()


def test_an_episode_out_of_turns_closes_its_session(sandbox_ready):
    env = env_factory(config(session="persistent", max_turns=2))()
    episode = Episode(env, Sample("q", "", reference="1"), config(max_turns=2))
    episode.start()
    episode.step("<code>x = 1</code>")
    session = env.session
    assert session is not None and not session.closed
    episode.step("<code>print(x)</code>")  # the last turn: out of turns
    assert episode.done and session.closed and env.session is None
