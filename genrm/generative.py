"""Generative reward model (GenRM): an LLM judge compares two responses.

P(first better) = p("A") / (p("A") + p("B")) read from the judge's next-token log-probs after the
judge prompt, with the first response shown as A; then again with the order swapped, reading
p("B"); the two are averaged to cancel position bias. Because each read is normalized over the
two labels, P(x > y) + P(y > x) = 1 exactly. Each label counts all its single-token spellings
("A" and " A"), since a tokenizer may put the space in front of the letter.

Chain-of-thought mode lets the judge reason first; the verdict is then read at the verdict
position (log-probs right after `verdict_marker`) or parsed from the text, a parse failure being
recorded as the reason.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, cast

from genrm._common import prompt_text, shared_engine
from rewards.engines import (
    Backend,
    Engine,
    TemplatePrompt,
    label_probability,
    label_variants,
)
from rewards.errors import ConfigError
from rewards.options import check_fields, check_range, load_options
from rewards.types import Sample, Score

__all__ = ["COT_TEMPLATE", "DEFAULT_TEMPLATE", "GenRMConfig", "GenRMJudge", "GenRMReward",
           "JudgeConfig", "Judgment", "Pair"]

DEFAULT_TEMPLATE = (
    "You compare two responses to the same question.\n\n"
    "Question:\n{question}\n\n"
    "Response A:\n{response_a}\n\n"
    "Response B:\n{response_b}\n\n"
    "{reference_block}"
    "Which response is better? Answer with a single letter, A or B."
)
"""Fields: {question}, {response_a}, {response_b}, {reference_block} (empty, or the reference
answer with a heading) and {reference}."""

COT_TEMPLATE = (
    "You compare two responses to the same question.\n\n"
    "Question:\n{question}\n\n"
    "Response A:\n{response_a}\n\n"
    "Response B:\n{response_b}\n\n"
    "{reference_block}"
    "Think step by step about which response is better, then end with a line "
    "'Verdict: A' or 'Verdict: B'."
)


@dataclass(frozen=True)
class JudgeConfig:
    """How the judge is prompted and read."""

    template: str = DEFAULT_TEMPLATE
    """Judge prompt; fields as in `DEFAULT_TEMPLATE`."""
    labels: tuple[str, str] = ("A", "B")
    """The verdict for response A and for response B."""
    chat: bool = True
    """Send the filled template as one user message (chat template); False: as plain text."""
    answer_prefix: str = ""
    """Direct mode: text the verdict follows, appended after the prompt (e.g. "Verdict: [[")."""
    mode: Literal["direct", "cot"] = "direct"
    """direct: read the verdict right after the prompt; cot: the judge reasons first."""
    cot_read: Literal["logprob", "parse"] = "logprob"
    """CoT: read the verdict's probability after `verdict_marker`, or parse the letter."""
    verdict_marker: str = "Verdict:"
    """CoT: the text after which the verdict comes (the last occurrence counts)."""
    cot_max_tokens: int = 512
    """CoT: reasoning budget in tokens."""
    cot_temperature: float = 0.0
    """CoT: sampling temperature of the reasoning (0 = greedy)."""
    seed: int = 0
    """CoT: sampling seed."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("cot_max_tokens", self.cot_max_tokens, ge=1)
        check_range("cot_temperature", self.cot_temperature, ge=0)


@dataclass(frozen=True)
class GenRMConfig(JudgeConfig):
    """The options of a `genrm` reward component (`GenRMReward(**options)`): where the judge
    runs and what a completion is compared with, then the fields of `JudgeConfig`, given
    flat (`{use: genrm, url: ..., mode: cot}`)."""

    model: str | None = None
    """The judge: a local model folder or a hub name."""
    url: str | None = None
    """The judge behind a vLLM OpenAI-compatible server (instead of `model`)."""
    backend: Backend = "auto"
    """Inference backend (`rewards.engines`); auto with a `url` is vllm-server."""
    against: Literal["auto", "reference", "group"] = "auto"
    """reference: the sample's reference answer; group: round-robin within the group; auto:
    the reference when the sample has one, else the group."""
    engine_options: Mapping[str, Any] | None = None
    """Keyword arguments for the engine (`rewards.engines.load_engine`), e.g. dtype."""

    def judge_config(self) -> JudgeConfig:
        """The `JudgeConfig` part."""
        return JudgeConfig(**{f.name: getattr(self, f.name) for f in fields(JudgeConfig)})


@dataclass(frozen=True)
class Pair:
    """Two responses to one question."""

    question: str | Sequence[Mapping[str, Any]]
    first: str
    second: str
    reference: str | None = None


@dataclass(frozen=True)
class Judgment:
    """P(first response better), both orders averaged."""

    p_first: float | None
    """Mean of `forward` and `swapped`; None when a read failed (see `reason`)."""
    forward: float | None
    """P(first better) with the first response shown as A."""
    swapped: float | None
    """P(first better) with the first response shown as B."""
    reason: str = "ok"
    """ok | parse_failure | verdict_forced (CoT without a verdict marker: one was appended)."""
    texts: tuple[str, ...] = field(default=(), compare=False)
    """CoT: the judge's reasoning in both orders."""


class GenRMJudge:
    """Pairwise judgments from one engine (any backend)."""

    def __init__(self, engine: Engine, config: JudgeConfig = JudgeConfig()) -> None:
        self.engine = engine
        self.config = config
        self.variants = [label_variants(engine, label) for label in config.labels]

    def judge(self, pairs: Sequence[Pair]) -> list[Judgment]:
        """One judgment per pair, in order: 2 reads per pair (both orders), batched."""
        prompts = [self._prompt(p, swap) for p in pairs for swap in (False, True)]
        reads: list[tuple[float | None, str, str]]
        if self.config.mode == "direct":
            reads = [(p, "ok", "") for p in self._p_first_label(prompts)]
        else:
            reads = self._cot_reads(prompts)
        out = []
        for i in range(len(pairs)):
            (fwd, r1, t1), (swp, r2, t2) = reads[2 * i], reads[2 * i + 1]
            forward = fwd
            swapped = None if swp is None else 1.0 - swp  # first shown as B: P(B) = 1 - P(A)
            reason = next((r for r in (r1, r2) if r != "ok"), "ok")
            mean = None if forward is None or swapped is None else (forward + swapped) / 2
            out.append(Judgment(mean, forward, swapped, reason, (t1, t2) if t1 or t2 else ()))
        return out

    # -- reads ---------------------------------------------------------------------------

    def _prompt(self, pair: Pair, swap: bool) -> list[int]:
        """The judge prompt's token ids: the question, responses and reference are text, never
        special tokens (a chat message's content, or a `TemplatePrompt`'s fields); the template
        and answer prefix are config."""
        a, b = (pair.second, pair.first) if swap else (pair.first, pair.second)
        ref = "" if pair.reference is None else f"Reference answer:\n{pair.reference}\n\n"
        fields = {"question": prompt_text(pair.question), "response_a": a, "response_b": b,
                  "reference": pair.reference or "", "reference_block": ref}
        if self.config.chat:
            content = self.config.template.format(**fields)
            ids = self.engine.tokenize([{"role": "user", "content": content}])
        else:
            ids = self.engine.tokenize(TemplatePrompt(self.config.template, fields))
        if self.config.mode == "direct" and self.config.answer_prefix:
            ids += self.engine.tokenize(self.config.answer_prefix, add_special_tokens=False)
        return ids

    def _p_first_label(self, prompts: Sequence[list[int]]) -> list[float]:
        """P(label A) / (P(label A) + P(label B)) at the next token of each prompt."""
        candidates = [c for group in self.variants for c in group]
        rows = self.engine.next_token_logprobs(prompts, candidates)
        return [label_probability(row, *self.variants) for row in rows]

    def _cot_reads(self, prompts: Sequence[list[int]]) -> list[tuple[float | None, str, str]]:
        cfg = self.config
        gens = self.engine.generate(prompts, n=1, max_tokens=cfg.cot_max_tokens,
                                    temperature=cfg.cot_temperature, seed=cfg.seed)
        texts = [g[0].text for g in gens]
        if cfg.cot_read == "parse":
            return [(*_parse_verdict(t, cfg), t) for t in texts]
        continued, reasons = [], []
        for prompt, text in zip(prompts, texts):
            cut = text.rfind(cfg.verdict_marker)
            if cut >= 0:
                reasoning, join, reason = text[:cut], "", "ok"
            else:  # no verdict given: ask for it, and say so
                reasoning, join, reason = text.rstrip(), "\n", "verdict_forced"
            # The judge's own text stays text; the marker (config) follows it.
            tail = (join + cfg.verdict_marker).replace("{", "{{").replace("}", "}}")
            continuation = TemplatePrompt("{reasoning}" + tail, {"reasoning": reasoning})
            continued.append(prompt + self.engine.tokenize(continuation,
                                                           add_special_tokens=False))
            reasons.append(reason)
        probs = self._p_first_label(continued)
        return list(zip(probs, reasons, texts))


def _parse_verdict(text: str, cfg: JudgeConfig) -> tuple[float | None, str]:
    cut = text.rfind(cfg.verdict_marker)
    if cut < 0:
        return None, "parse_failure"
    a, b = (re.escape(x) for x in cfg.labels)
    match = re.match(rf"[\s\[\(\*]*({a}|{b})(?![\w])", text[cut + len(cfg.verdict_marker):])
    if match is None:
        return None, "parse_failure"
    return (1.0 if match.group(1) == cfg.labels[0] else 0.0), "ok"


class GenRMReward:
    """GenRM as a pointwise `Reward`.

    `against="reference"`: P(completion better than the sample's reference answer);
    `"group"`: round-robin within each group (GRPO rollouts of one prompt; samples without a
    group are grouped by prompt): a completion's mean win probability over its group;
    either way the parts carry the two reads (`genrm/forward`: P(better) shown first,
    `genrm/swapped`: shown second; their mean is the value), which `rewards stress` checks
    for position bias;
    `"auto"`: the reference when the sample has one, else the group. The options are the
    fields of `GenRMConfig` (loaded by `rewards.options.load_options`).
    """

    name = "genrm"
    kind = "learned"

    def __init__(self, model: str | None = None, *, engine: Engine | None = None,
                 **options: Any) -> None:
        settings = load_options(GenRMConfig, {"model": model, **options}, where="genrm")
        if engine is None and (settings.model or settings.url) is None:
            raise ConfigError("genrm needs a judge: model (a model folder or name), url (a vLLM "
                              "server) or engine")
        self.config = settings.judge_config()
        self.model = settings.url or settings.model
        self.backend: Backend = ("vllm-server" if settings.url and settings.backend == "auto"
                                 else settings.backend)
        self.engine_options = dict(settings.engine_options or {})
        self.against = settings.against
        self._engine = engine
        self._judge: GenRMJudge | None = None

    @property
    def judge(self) -> GenRMJudge:
        if self._judge is None:
            engine = self._engine or shared_engine(str(self.model), self.backend,
                                                   self.engine_options)
            self._judge = GenRMJudge(engine, self.config)
        return self._judge

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        scores: list[Score | None] = [None] * len(samples)
        by_ref, groups = [], defaultdict(list)
        for i, s in enumerate(samples):
            use_ref = self.against == "reference" or (
                self.against == "auto" and s.reference is not None)
            if use_ref:
                if s.reference is None:
                    scores[i] = Score(None, "no_reference")
                else:
                    by_ref.append(i)
            else:
                groups[s.group if s.group is not None else ("prompt", prompt_text(s.prompt))] \
                    .append(i)
        pairs = [Pair(samples[i].prompt, samples[i].completion, str(samples[i].reference))
                 for i in by_ref]
        round_robin = [(i, j) for members in groups.values()
                       for k, i in enumerate(members) for j in members[k + 1:]]
        pairs += [Pair(samples[i].prompt, samples[i].completion, samples[j].completion)
                  for i, j in round_robin]
        judgments = self.judge.judge(pairs) if pairs else []
        for i, jd in zip(by_ref, judgments):
            scores[i] = _as_score(jd)
        # each sample's reads: P(it is better) shown first and shown second, per comparison
        reads: dict[int, list[tuple[float, float]]] = defaultdict(list)
        failed: dict[int, str] = {}
        for (i, j), jd in zip(round_robin, judgments[len(by_ref):]):
            if jd.forward is None or jd.swapped is None:
                failed[i] = failed[j] = jd.reason
                continue
            reads[i].append((jd.forward, jd.swapped))
            reads[j].append((1.0 - jd.swapped, 1.0 - jd.forward))  # j was shown second, then first
        for members in groups.values():
            for i in members:
                if reads[i]:
                    n = len(reads[i])
                    forward = sum(f for f, _ in reads[i]) / n
                    swapped = sum(s for _, s in reads[i]) / n
                    scores[i] = Score((forward + swapped) / 2, "ok",
                                      {"genrm/comparisons": float(n), "genrm/forward": forward,
                                       "genrm/swapped": swapped})
                else:
                    scores[i] = Score(None, failed.get(i, "no_group_peers"))
        return cast("list[Score]", scores)  # every index was filled above


def _as_score(jd: Judgment) -> Score:
    if jd.p_first is None:
        return Score(None, jd.reason)
    return Score(jd.p_first, jd.reason, {"genrm/forward": jd.forward,
                                         "genrm/swapped": jd.swapped})
