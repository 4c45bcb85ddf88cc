"""Adapters from rewards-engine to the systems around it: TRL, veRL, OpenRLHF, verifiers,
and the Celery app, tasks and client for scoring at scale. Nothing in `rewards` imports this
package; each adapter imports its heavy dependency lazily and names the pip extra when it is
missing."""

from integrations._auth import resolve_token
from integrations._batcher import BatchingConfig
from integrations._common import CONFIG_ENV

__all__ = ["CONFIG_ENV", "BatchingConfig", "resolve_token"]
