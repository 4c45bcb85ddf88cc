"""The losses of the GRPO and PPO loops, as small functions over padded `(B, T)` tensors.

`B` is the number of completions in the batch and `T` the padded completion length; `mask` is
1.0 on real completion tokens and 0.0 on padding (and on completions excluded from the loss,
e.g. truncated ones). Every function cites the equation it implements:

- PPO: Schulman et al. 2017, "Proximal Policy Optimization Algorithms" (arXiv:1707.06347).
- GAE: Schulman et al. 2016, "High-Dimensional Continuous Control Using Generalized Advantage
  Estimation" (arXiv:1506.02438).
- GRPO: Shao et al. 2024, "DeepSeekMath" (arXiv:2402.03300), section 4.1.
- Clip-higher, token-mean and overlong shaping: Yu et al. 2025, "DAPO" (arXiv:2503.14476).
- Constant-length normalization: Liu et al. 2025, "Understanding R1-Zero-Like Training"
  (Dr. GRPO, arXiv:2503.20783).
- k3 KL estimator: Schulman 2020, "Approximating KL Divergence" (joschu.net/blog/kl-approx).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

from rewards.errors import ConfigError

if TYPE_CHECKING:
    import torch

__all__ = [
    "Aggregation",
    "aggregate",
    "clipped_policy_loss",
    "clipped_value_loss",
    "gae",
    "kl_k3",
    "masked_mean",
    "overlong_penalty",
    "token_log_probs",
    "whiten",
]

Aggregation = Literal["token-mean", "seq-mean-token-mean", "constant-length"]


def masked_mean(x: torch.Tensor, mask: torch.Tensor, dim: int | None = None) -> torch.Tensor:
    """Mean of `x` over the positions where `mask` is 1 (all of them, or along `dim`).
    An all-zero mask gives 0, not NaN."""
    total = (x * mask).sum() if dim is None else (x * mask).sum(dim)  # () or (B,)
    count = mask.sum() if dim is None else mask.sum(dim)  # () or (B,)
    return total / count.clamp(min=1.0)


def token_log_probs(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """log pi(token_t | context) for each position: `logits` (B, T, V), `tokens` (B, T) -> (B, T).

    Computed as logit[token] - logsumexp(logits) so the (B, T, V) log-softmax tensor is never
    materialized: the loop runs this on every forward pass."""
    import torch

    picked = torch.gather(logits, -1, tokens.unsqueeze(-1)).squeeze(-1)  # (B, T)
    return picked - torch.logsumexp(logits, dim=-1)  # (B, T)


def kl_k3(log_probs: torch.Tensor, ref_log_probs: torch.Tensor) -> torch.Tensor:
    """Per-token k3 estimate of KL(pi || pi_ref) (DeepSeekMath eq. 4, Schulman 2020):
    r = pi_ref / pi, KL ~= r - log r - 1, which is >= 0 and unbiased. (B, T) -> (B, T)."""
    import torch

    log_ratio = ref_log_probs - log_probs  # (B, T): log r
    return torch.exp(log_ratio) - log_ratio - 1.0  # (B, T)


def clipped_policy_loss(log_probs: torch.Tensor, old_log_probs: torch.Tensor,
                        advantages: torch.Tensor, *, epsilon: float = 0.2,
                        epsilon_high: float | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The clipped surrogate, per token (PPO eq. 7; GRPO eq. 3; clip-higher is DAPO eq. 10):

        ratio = pi / pi_old,  loss = -min(ratio * A, clip(ratio, 1 - eps, 1 + eps_high) * A)

    `log_probs`, `old_log_probs` (B, T); `advantages` (B, T), or (B,) for one value per
    completion (GRPO), broadcast over tokens. `epsilon_high` defaults to `epsilon`.
    Returns (loss (B, T), clipped (B, T): 1.0 where the clipped branch was taken)."""
    import torch

    eps_high = epsilon if epsilon_high is None else epsilon_high
    if advantages.dim() == 1:
        advantages = advantages.unsqueeze(1)  # (B,) -> (B, 1), broadcast over T
    ratio = torch.exp(log_probs - old_log_probs)  # (B, T)
    unclipped = ratio * advantages  # (B, T)
    clipped = torch.clamp(ratio, 1.0 - epsilon, 1.0 + eps_high) * advantages  # (B, T)
    loss = -torch.minimum(unclipped, clipped)  # (B, T)
    was_clipped = (clipped < unclipped).float()  # (B, T): the min picked the clipped branch
    return loss, was_clipped


def aggregate(per_token: torch.Tensor, mask: torch.Tensor, mode: Aggregation, *,
              max_tokens: int | None = None) -> torch.Tensor:
    """Reduce a per-token loss (B, T) to a scalar.

    - `token-mean`: sum over all tokens / number of tokens (DAPO eq. 8): every token weighs
      the same, so long completions are not diluted.
    - `seq-mean-token-mean`: the mean over each completion's tokens, then over completions
      (the original GRPO, DeepSeekMath eq. 3).
    - `constant-length`: sum over all tokens / (B * max_tokens) (Dr. GRPO, eq. in section
      3.1): no length normalization bias; `max_tokens` is the generation budget.
    """
    if mode == "token-mean":
        return masked_mean(per_token, mask)  # ()
    if mode == "seq-mean-token-mean":
        per_sequence = masked_mean(per_token, mask, dim=1)  # (B,)
        return per_sequence.mean()  # ()
    if mode == "constant-length":
        if not max_tokens:
            raise ConfigError("constant-length aggregation needs max_tokens (the length budget)")
        return (per_token * mask).sum() / (per_token.shape[0] * max_tokens)  # ()
    raise ConfigError(f"unknown loss aggregation {mode!r}: the aggregations are "
                      f"{', '.join(get_args(Aggregation))}")


def gae(rewards: torch.Tensor, values: torch.Tensor, mask: torch.Tensor, *, gamma: float = 1.0,
        lam: float = 0.95, discounts: torch.Tensor | None = None
        ) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalized advantage estimation (GAE eq. 16), backwards over the tokens:

        delta_t = r_t + gamma * d_t * V_{t'} - V_t,    A_t = delta_t + gamma * lam * d_t * A_{t'}

    where t' is the next position the mask keeps: positions it drops inside a row (an
    episode's observation tokens) are skipped, so the TD error chains from one action token
    to the next (veRL's multi-turn GAE), and V and A are zero after a row's last kept token.
    `d_t` is `discounts` (B, T) (an episode's discount between turns, `rl._episodes`), 1 when
    None. `rewards`, `values`, `mask` (B, T). Returns (advantages (B, T), returns =
    advantages + values (B, T)), both zero where the mask is."""
    import torch

    values = values * mask  # (B, T): padding carries no value
    rewards = rewards * mask  # (B, T)
    advantages = torch.zeros_like(values)  # (B, T)
    next_value = torch.zeros_like(values[:, 0])  # (B,)
    next_advantage = torch.zeros_like(values[:, 0])  # (B,)
    for t in reversed(range(values.shape[1])):
        carried_value, carried_advantage = gamma * next_value, gamma * lam * next_advantage
        if discounts is not None:
            carried_value = carried_value * discounts[:, t]  # (B,)
            carried_advantage = carried_advantage * discounts[:, t]  # (B,)
        delta = rewards[:, t] + carried_value - values[:, t]  # (B,)
        advantage = delta + carried_advantage  # (B,)
        advantages[:, t] = advantage * mask[:, t]  # (B,)
        kept = mask[:, t] > 0  # (B,): a masked position passes the next ones through
        next_value = torch.where(kept, values[:, t], next_value)  # (B,)
        next_advantage = torch.where(kept, advantage, next_advantage)  # (B,)
    return advantages, (advantages + values) * mask  # (B, T), (B, T)


def clipped_value_loss(values: torch.Tensor, old_values: torch.Tensor, returns: torch.Tensor,
                       *, clip: float = 0.2) -> tuple[torch.Tensor, torch.Tensor]:
    """The clipped value loss of PPO's reference implementation (openai/baselines ppo2,
    the value term of PPO eq. 9): the new value may move at most `clip` from the value at
    rollout time, and the worse of the two squared errors is taken.

        V_clip = V_old + clip(V - V_old, -c, c),  loss = 0.5 * max((V - R)^2, (V_clip - R)^2)

    All (B, T). Returns (loss (B, T), clipped (B, T): 1.0 where the clipped error won)."""
    import torch

    clipped_values = old_values + torch.clamp(values - old_values, -clip, clip)  # (B, T)
    error = (values - returns) ** 2  # (B, T)
    clipped_error = (clipped_values - returns) ** 2  # (B, T)
    loss = 0.5 * torch.maximum(error, clipped_error)  # (B, T)
    return loss, (clipped_error > error).float()  # (B, T), (B, T)


def whiten(x: torch.Tensor, mask: torch.Tensor, *, shift_mean: bool = True,
           eps: float = 1e-8) -> torch.Tensor:
    """(x - mean) / std over the masked positions (PPO's advantage normalization); padding
    stays 0. `shift_mean=False` only rescales. (B, T) -> (B, T)."""
    import torch

    mean = masked_mean(x, mask)  # ()
    var = masked_mean((x - mean) ** 2, mask)  # ()
    out = (x - mean) * torch.rsqrt(var + eps)  # (B, T)
    if not shift_mean:
        out = out + mean
    return out * mask  # (B, T)


def overlong_penalty(lengths: torch.Tensor, *, max_tokens: int, buffer: int,
                     penalty: float = 1.0) -> torch.Tensor:
    """DAPO's soft overlong punishment (eq. 13), added to the reward: 0 up to
    `max_tokens - buffer` tokens, then falling linearly to `-penalty` at `max_tokens`, and
    `-penalty` beyond. `lengths` (B,) -> (B,)."""
    import torch

    if buffer <= 0:
        raise ConfigError("overlong_penalty needs buffer > 0 tokens")
    expected = max_tokens - buffer
    over = (lengths.float() - expected) / buffer  # (B,): 0 at the threshold, 1 at the budget
    return -penalty * torch.clamp(over, min=0.0, max=1.0)  # (B,)
