"""Step one: find the final answer in a completion. Pure string work, no sympy.

Priority, last occurrence wins within each rule: `<answer>...</answer>` tags, `\\boxed{}` /
`\\fbox{}` (nested braces), GSM8K `#### n`, "the (final) answer is ..." / "Final Answer: ...",
then, unless `strict`, the last number. Only the tail of the completion is searched."""

from __future__ import annotations

import re
from numbers import Number

from rewards.math._config import MathConfig

__all__ = ["extract_answer", "extract_boxed", "prepare_reference"]

_DEFAULT = MathConfig()

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
_BOXED = re.compile(r"\\(?:boxed|fbox)\s*(\{|[^\s{])")
_GSM8K = re.compile(r"####\s*([^\n]+)")
# "The answer is X", "final answer is: X", "Final Answer: X", "Answer: X" (up to the line end).
_ANSWER_IS = re.compile(
    r"(?:final\s+answer|the\s+answer|answer)\**\s*(?:is|:|=)\s*:?\s*\**\s*(.+)", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:/\d+)?|-?\.\d+")
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_UNESCAPED_DOLLARS = re.compile(r"(?<!\\)\$\$")
_TRAILING = " \t\n.;:,"


def extract_answer(text: str, config: MathConfig = _DEFAULT) -> str | None:
    """The final answer of `text` as a string (not normalized), or `None` if there is none."""
    tail = text[-config.tail_chars:]
    for rule in (_from_answer_tag, extract_boxed, _from_gsm8k, _from_answer_phrase):
        found = rule(tail)
        if found:
            return found
    if not config.strict:
        return _last_number(tail)
    return None


def extract_boxed(text: str) -> str | None:
    """Content of the last `\\boxed{...}` / `\\fbox{...}` (braces balanced), or of `\\boxed 5`."""
    for match in reversed(list(_BOXED.finditer(text))):
        if match.group(1) != "{":  # \boxed 5: one token
            token = re.match(r"[^\s$]+", text[match.start(1):])
            content = token.group(0) if token else ""
        else:
            content = _balanced(text, match.end(1))
        if content is not None and content.strip():
            return content.strip()
    return None


def prepare_reference(reference: object) -> str | None:
    """The gold answer as a string: numbers formatted, `\\boxed{}` and `#### n` unwrapped,
    `$` stripped. `None` when there is nothing usable (the sample then abstains)."""
    if isinstance(reference, bool) or reference is None:
        return None
    if isinstance(reference, Number):
        if isinstance(reference, float) and reference.is_integer():
            return str(int(reference))
        return str(reference)
    if not isinstance(reference, str):
        return None
    text = reference.strip()
    boxed = extract_boxed(text) if "box" in text else None
    if boxed:
        text = boxed
    elif _BOXED.search(text):
        return None  # an empty or unbalanced \boxed{
    elif "####" in text:
        found = _from_gsm8k(text)
        text = found or ""
    text = text.strip().strip("$").strip()
    return text or None


def _balanced(text: str, start: int) -> str | None:
    """Text from `start` up to the brace closing the one just before `start`."""
    depth = 1
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2  # an escaped brace \{ does not count
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i]
        i += 1
    return None


def _from_answer_tag(text: str) -> str | None:
    matches = _ANSWER_TAG.findall(text)
    if not matches:
        return None
    content = matches[-1].strip()
    boxed = extract_boxed(content)
    if boxed:
        return boxed
    phrase = _from_answer_phrase(content)
    return phrase or _clean(content)


def _from_gsm8k(text: str) -> str | None:
    matches = _GSM8K.findall(text)
    return _clean(matches[-1]) if matches else None


def _from_answer_phrase(text: str) -> str | None:
    matches = list(_ANSWER_IS.finditer(text))
    for match in reversed(matches):
        answer = _first_sentence(match.group(1))
        if answer:
            return answer
    return None


def _first_sentence(text: str) -> str | None:
    """The answer part of "the answer is X. Because ...": up to a period that ends a sentence
    (not a decimal point), keeping `$...$` math whole."""
    text = text.strip()
    if text.startswith("$"):
        closing = _UNESCAPED_DOLLARS.search(text, 2) if text.startswith("$$") else \
            _UNESCAPED_DOLLAR.search(text, 1)
        if closing:
            return _clean(text[: closing.end()])
    sentence = re.split(r"(?<!\d)\.(?!\d)|\.\s|\n", text, maxsplit=1)[0]
    return _clean(sentence)


def _last_number(text: str) -> str | None:
    matches = _NUMBER.findall(text)
    return matches[-1] if matches else None


def _clean(answer: str) -> str | None:
    answer = answer.strip().strip(_TRAILING)
    if answer.startswith("$$") and answer.endswith("$$") and len(answer) > 4:
        answer = answer[2:-2]
    elif answer.startswith("$") and answer.endswith("$") and len(answer) > 2:
        answer = answer[1:-1]
    elif answer.startswith("\\(") and answer.endswith("\\)"):
        answer = answer[2:-2]
    answer = answer.strip().strip(_TRAILING)
    if answer.startswith("**") and answer.endswith("**"):
        answer = answer.strip("*").strip()
    return answer or None
