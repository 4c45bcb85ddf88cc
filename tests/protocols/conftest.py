"""The protocol conformance tests: each peer's own client (or its recorded request and
response shapes where the package does not install here) against our servers on 127.0.0.1."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # protocol_helpers
