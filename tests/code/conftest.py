"""Shared set-up of the code reward tests: the reference examples module is importable as
`rtv_formats` (the sandbox probe `sandbox_ready` is the root conftest's)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

