#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine, then runs it.
# pytest exit code 5 (no tests collected) counts as a failure: it means something broke.
set -uo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[dev]" || exit 1
python3 -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests: treating as failure" >&2
    exit 1
fi
exit "$rc"
