"""rl.losses against numbers derived by hand (each case's arithmetic is in its comment)."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch", reason="the RL losses need torch: pip install -e '.[train]'")

from rewards.errors import ConfigError
from rl.losses import (
    aggregate,
    clipped_policy_loss,
    clipped_value_loss,
    gae,
    kl_k3,
    masked_mean,
    overlong_penalty,
    token_log_probs,
    whiten,
)


def t(rows):
    return torch.tensor(rows, dtype=torch.float64)


def test_clipped_policy_loss_clips_both_sides_with_clip_higher():
    # eps = 0.2 below, eps_high = 0.28 above: the ratio is clipped to [0.8, 1.28].
    ratios = [1.5, 1.5, 0.5, 0.5, 1.1]
    advantages = t([1.0, -1.0, 1.0, -1.0, 2.0])
    old = t([[0.0] * 5])
    new = torch.log(t([ratios])).requires_grad_(True)
    loss, clipped = clipped_policy_loss(new, old, advantages.unsqueeze(0), epsilon=0.2,
                                        epsilon_high=0.28)
    # 1.5 * +1: min(1.5, 1.28) = 1.28  (clipped above)   -> loss -1.28
    # 1.5 * -1: min(-1.5, -1.28) = -1.5 (pessimistic, not clipped) -> loss 1.5
    # 0.5 * +1: min(0.5, 0.8) = 0.5 (not clipped)         -> loss -0.5
    # 0.5 * -1: min(-0.5, -0.8) = -0.8 (clipped below)    -> loss 0.8
    # 1.1 * +2: inside the band                           -> loss -2.2
    assert loss.detach().tolist()[0] == pytest.approx([-1.28, 1.5, -0.5, 0.8, -2.2])
    assert clipped.tolist()[0] == [1.0, 0.0, 0.0, 1.0, 0.0]
    loss.sum().backward()
    # d(-ratio * A)/d(log ratio) = -ratio * A where unclipped, 0 where clipped.
    assert new.grad.tolist()[0] == pytest.approx([0.0, 1.5, -0.5, 0.0, -2.2])


def test_clipped_policy_loss_symmetric_default_and_sequence_advantages():
    # epsilon_high defaults to epsilon: 1.5 * +1 is clipped at 1.2; (B,) advantages broadcast.
    new = torch.log(t([[1.5, 1.0], [0.5, 1.0]]))
    loss, clipped = clipped_policy_loss(new, torch.zeros(2, 2, dtype=torch.float64),
                                        t([1.0, -2.0]), epsilon=0.2)
    # row 0, A=+1: [min(1.5, 1.2), 1.0] -> [-1.2, -1.0]; row 1, A=-2: 0.5 -> min(-1, -1.6)
    assert loss.tolist() == [pytest.approx([-1.2, -1.0]), pytest.approx([1.6, 2.0])]
    assert clipped.tolist() == [[1.0, 0.0], [1.0, 0.0]]


def test_kl_k3_by_hand():
    # pi = 0.5, pi_ref = 0.25: r = 0.5 -> 0.5 - ln 0.5 - 1 = ln 2 - 0.5
    # pi = 0.25, pi_ref = 0.5: r = 2 -> 2 - ln 2 - 1 = 1 - ln 2;  equal -> 0
    logp = torch.log(t([[0.5, 0.25, 0.3]]))
    ref = torch.log(t([[0.25, 0.5, 0.3]]))
    assert kl_k3(logp, ref).tolist()[0] == pytest.approx(
        [math.log(2) - 0.5, 1 - math.log(2), 0.0], abs=1e-12)


PER_TOKEN = [[1.0, 2.0, 3.0, 0.0], [4.0, 0.0, 0.0, 0.0]]
MASK = [[1.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]]


@pytest.mark.parametrize(("mode", "expected"), [
    ("token-mean", 2.5),              # (1 + 2 + 3 + 4) / 4 tokens
    ("seq-mean-token-mean", 3.0),     # mean(2, 4)
    ("constant-length", 1.25),        # 10 / (2 completions * 4 max tokens)
])
def test_every_aggregation_mode(mode, expected):
    per_token = t(PER_TOKEN) + 100 * (1 - t(MASK))  # padding values must not leak in
    assert aggregate(per_token, t(MASK), mode, max_tokens=4).item() == pytest.approx(expected)


def test_aggregation_errors():
    with pytest.raises(ConfigError, match="max_tokens"):
        aggregate(t(PER_TOKEN), t(MASK), "constant-length")
    with pytest.raises(ConfigError, match="unknown"):
        aggregate(t(PER_TOKEN), t(MASK), "sum")  # type: ignore[arg-type]


def test_gae_five_steps_by_hand():
    # gamma 0.9, lambda 0.8 (gamma * lambda = 0.72); reward 1 at the last of 5 tokens.
    rewards = t([[0, 0, 0, 0, 1], [0, 0, 2, 0, 0]])
    values = t([[0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 0.5, 0.5, 9.0, 9.0]])
    mask = t([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    advantages, returns = gae(rewards, values, mask, gamma=0.9, lam=0.8)
    # row 0: t4: 1 - 0.5 = 0.5;  t3: (0.9*0.5 - 0.4) + 0.72*0.5 = 0.41
    #        t2: (0.9*0.4 - 0.3) + 0.72*0.41 = 0.3552;  t1: 0.07 + 0.72*0.3552 = 0.325744
    #        t0: 0.08 + 0.72*0.325744 = 0.31453568
    assert advantages[0].tolist() == pytest.approx([0.31453568, 0.325744, 0.3552, 0.41, 0.5])
    assert returns[0].tolist() == pytest.approx([0.41453568, 0.525744, 0.6552, 0.81, 1.0])
    # row 1 (3 real tokens, padding values ignored): t2: 2 - 0.5 = 1.5
    #        t1: (0.45 - 0.5) + 0.72*1.5 = 1.03;  t0: -0.05 + 0.72*1.03 = 0.6916
    assert advantages[1].tolist() == pytest.approx([0.6916, 1.03, 1.5, 0.0, 0.0])
    assert returns[1].tolist() == pytest.approx([1.1916, 1.53, 2.0, 0.0, 0.0])


def test_gae_lambda_one_is_discounted_return_minus_value():
    rewards = t([[1.0, 0.0, 3.0]])
    values = t([[0.5, 0.25, 1.0]])
    advantages, returns = gae(rewards, values, torch.ones(1, 3, dtype=torch.float64),
                              gamma=0.5, lam=1.0)
    # returns are the discounted reward sums: [1 + 0.25*3, 0.5*3, 3]
    assert returns.tolist()[0] == pytest.approx([1.75, 1.5, 3.0])
    assert advantages.tolist()[0] == pytest.approx([1.25, 1.25, 2.0])


def test_gae_skips_masked_tokens_inside_a_row():
    """An episode's observation tokens (mask 0 between action tokens) are skipped: the TD
    error chains from one action token to the next, as on the sequence without them; the
    turn's `discounts` factor applies across the gap. Row 0 is row 1 of the test above with
    two observation tokens (values and rewards there ignored) after its first token."""
    rewards = t([[0, 7, 7, 0, 2], [0, 0, 5, 1, 0]])
    values = t([[0.5, 9.0, 9.0, 0.5, 0.5], [1.0, 3.0, 2.0, 0.0, 0.0]])
    mask = t([[1, 0, 0, 1, 1], [1, 0, 1, 0, 0]])
    discounts = t([[1, 1, 1, 1, 1], [0.5, 1, 1, 1, 1]])
    advantages, returns = gae(rewards, values, mask, gamma=0.9, lam=0.8, discounts=discounts)
    assert advantages[0].tolist() == pytest.approx([0.6916, 0.0, 0.0, 1.03, 1.5])
    assert returns[0].tolist() == pytest.approx([1.1916, 0.0, 0.0, 1.53, 2.0])
    # row 1: two action tokens, discount 0.5 after the first: t2: 5 - 2 = 3;
    #        t0: (0 + 0.9*0.5*2 - 1) + 0.72*0.5*3 = -0.1 + 1.08 = 0.98
    assert advantages[1].tolist() == pytest.approx([0.98, 0.0, 3.0, 0.0, 0.0])
    assert returns[1].tolist() == pytest.approx([1.98, 0.0, 5.0, 0.0, 0.0])


def test_clipped_value_loss_by_hand():
    values, old, returns = t([[1.0, 0.6, 0.0]]), t([[0.5, 0.5, 0.5]]), t([[2.0, 0.0, 0.4]])
    loss, clipped = clipped_value_loss(values, old, returns, clip=0.2)
    # 1.0 vs old 0.5 -> clipped to 0.7: max((1-2)^2, (0.7-2)^2) / 2 = 1.69 / 2 = 0.845
    # 0.6: inside the band: 0.36 / 2 = 0.18
    # 0.0 -> clipped to 0.3: max(0.16, 0.01) / 2 = 0.08 (the unclipped error is worse)
    assert loss.tolist()[0] == pytest.approx([0.845, 0.18, 0.08])
    assert clipped.tolist()[0] == [1.0, 0.0, 0.0]


def test_overlong_penalty_dapo_shape():
    # budget 10, buffer 4: free up to 6 tokens, then linear down to -penalty at 10
    lengths = torch.tensor([5, 6, 8, 10, 12])
    assert overlong_penalty(lengths, max_tokens=10, buffer=4, penalty=2.0).tolist() == \
        pytest.approx([0.0, 0.0, -1.0, -2.0, -2.0])
    with pytest.raises(ConfigError):
        overlong_penalty(lengths, max_tokens=10, buffer=0)


def test_masked_mean_and_whiten():
    x, mask = t([[1.0, 2.0, 3.0, 50.0]]), t([[1.0, 1.0, 1.0, 0.0]])
    assert masked_mean(x, mask).item() == pytest.approx(2.0)
    assert masked_mean(x, torch.zeros_like(mask)).item() == 0.0
    # mean 2, population variance 2/3 -> (x - 2) / sqrt(2/3)
    assert whiten(x, mask).tolist()[0] == pytest.approx([-1.2247449, 0.0, 1.2247449, 0.0])
    assert whiten(x, mask, shift_mean=False).tolist()[0] == \
        pytest.approx([0.7752551, 2.0, 3.2247449, 0.0])


def test_token_log_probs_matches_log_softmax():
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(2, 3, 7, generator=gen, dtype=torch.float64)
    tokens = torch.randint(0, 7, (2, 3), generator=gen)
    expected = torch.log_softmax(logits, -1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
    assert torch.allclose(token_log_probs(logits, tokens), expected)
    # one hand case: uniform logits over 4 -> log(1/4)
    assert token_log_probs(torch.zeros(1, 1, 4), torch.tensor([[2]])).item() == \
        pytest.approx(math.log(0.25))
