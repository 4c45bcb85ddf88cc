"""The Celery client normalizes as local scoring does, under every normalize mode: the
workers score raw, the client applies the config's `BatchNormalizer` (eps and running
z-score statistics included) over each whole batch, batch after batch."""

from __future__ import annotations

import uuid

import pytest
from celery_cluster import REDIS_URL, SESSION_CONFIG, cleanup, make_cluster  # type: ignore[import-not-found]

from rewards import Sample, build_reward

MODES = {
    "zscore_by_domain": "zscore_by_domain",
    "zscore_by_domain+ema": "zscore_by_domain\nema_decay: 0.5\neps: 0.001",
    "group": "group\neps: 0.01",
}


def _batch(n: int, tag: str) -> list[Sample]:
    return [Sample(f"prompt {i % 3}", f"{tag} {i}", domain=("a", "b")[i % 2],
                   group=f"g{i % 3}") for i in range(n)]


@pytest.mark.parametrize("mode", list(MODES))
def test_celery_normalizes_as_local_scoring(tmp_path_factory, redis_client, mode) -> None:
    cluster = make_cluster(tmp_path_factory, REDIS_URL, f"norm{len(mode)}",
                       SESSION_CONFIG.replace("NORMALIZE", MODES[mode]))
    try:
        cluster.start(queues="cpu,gpu").wait_ready()
        tag = uuid.uuid4().hex
        batches = [_batch(12, tag), _batch(5, tag + "x")]
        local = build_reward(cluster.config)
        with cluster.client(chunk_size=4) as remote:
            for batch in batches:
                assert remote.score(batch) == local.score(batch)
    finally:
        cleanup(cluster, redis_client)


GDPO_CONFIG = """\
domains:
  a:
    rewards:
      - {use: "celery_test_rewards:digest", name: d}
      - {use: "celery_test_rewards:length_mod", name: m, weight: 0.5}
      - {use: "celery_test_rewards:length_mod", name: logged, weight: 0.0}
  b: {rewards: [{use: "celery_test_rewards:digest", kind: learned}]}
normalize: group_per_component
"""


def test_celery_normalizes_per_component_as_local_scoring(tmp_path_factory,
                                                          redis_client) -> None:
    """GDPO over chunks: the workers send each component's value back in `parts`, and the
    client normalizes every component over its group, across chunks, before the sum; a
    component that abstains on some samples is left out of its statistics."""
    cluster = make_cluster(tmp_path_factory, REDIS_URL, "normgdpo", GDPO_CONFIG)
    try:
        cluster.start(queues="cpu,gpu").wait_ready()
        tag = uuid.uuid4().hex
        batch = [Sample(f"prompt {i % 3}", f"{tag} {i}" + ("?" if i % 5 == 0 else ""),
                        domain=("a", "b")[i % 4 == 3], group=f"g{i % 3}") for i in range(14)]
        local = build_reward(cluster.config).score(batch)
        assert any(s.parts.get("m", 0.0) is None for s in local)  # m abstained somewhere
        with cluster.client(chunk_size=4) as remote:
            assert remote.score(batch) == local
    finally:
        cleanup(cluster, redis_client)


GROUP_REWARD_CONFIG = """\
domains:
  a: {rewards: [{use: length, of: null}]}
normalize: none
"""


def test_a_group_relative_reward_scores_as_locally_across_chunks(tmp_path_factory,
                                                                 redis_client) -> None:
    """`length` scores a sample against the shortest and longest of its group: the client keeps
    each group in one chunk (`deal_chunks`), even with its members spread over the batch and
    more of them than fit a chunk, so the workers see the groups local scoring sees."""
    cluster = make_cluster(tmp_path_factory, REDIS_URL, "groups", GROUP_REWARD_CONFIG)
    try:
        cluster.start(queues="cpu").wait_ready()
        batch = [Sample(f"prompt {i % 3}", "x" * (1 + (i * 7) % 11), domain="a",
                        group=f"g{i % 3}") for i in range(18)]
        local = build_reward(cluster.config).score(batch)
        assert len({s.value for s in local}) > 3  # lengths differ within every group
        with cluster.client(chunk_size=4) as remote:
            assert remote.score(batch) == local
            assert remote.last_stats.chunks == 3  # one per group of 6
    finally:
        cleanup(cluster, redis_client)
