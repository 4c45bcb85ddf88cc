#!/usr/bin/env bash
# The GPU check (issue #39): on a machine with a CUDA GPU, in under 8 minutes, the GenRM/RM
# throughput (transformers on the GPU; vLLM too where a CUDA build of it is installed) and the
# GRPO step against TRL's on the GPU, each printed in the benchmarks' one report shape and
# written under $OUT (default build/gpu-check/) for the benchmarks page. Without a GPU it says
# why and exits 0: nothing here needs one, and CI never has one.
#
# Through the `device` tool (its machine has torch and transformers, no internet): first, here,
#     bash scripts/gpu_wheels.sh        # the few pure-Python packages it lacks, into .whl/
# then run `bash scripts/gpu_check.sh` there with `.whl` carried; the figures come back in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build/gpu-check}"
mkdir -p "$OUT"

if ! python3 -c "import torch, sys; sys.exit(not torch.cuda.is_available())" >/dev/null 2>&1; then
    echo "gpu_check: skipped: no CUDA GPU on this machine (torch.cuda.is_available() is False" \
         "or torch is missing); run it where one is lent (see the header of this script)"
    exit 0
fi
if compgen -G ".whl/*.whl" >/dev/null; then   # carried wheels (scripts/gpu_wheels.sh)
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/gpu-check-site .whl/*.whl || exit 1
    export PYTHONPATH="/tmp/gpu-check-site${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONPATH="$PWD:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
python3 -c "import rewards, rl.grpo, genrm" || {
    echo "gpu_check: the project does not import here; carry its wheels (scripts/gpu_wheels.sh)"
    exit 1; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
    | tee "$OUT/gpu.txt"

rc=0
# 1. GenRM judgments/s and RM scores/s: a 8-layer, 1024-wide random-weight Llama (~100M
#    parameters), 512 pairs, median of 3 calls. About 2 minutes.
timeout 240 python3 benchmarks/genrm_throughput.py --device cuda --hidden 1024 --layers 8 \
    --pairs 512 --repeats 3 2>&1 | tee "$OUT/genrm_throughput.txt"
status=${PIPESTATUS[0]}; [ "$status" -eq 0 ] || rc=$status
# 2. GRPO step time and peak GPU memory against TRL's GRPOTrainer (where TRL is importable),
#    16 prompts x G=8, 64 completion tokens, the same model size. About 3 minutes.
timeout 300 python3 benchmarks/grpo_vs_trl.py --device cuda --rounds 1 --steps 8 --prompts 16 \
    --group 8 --max-tokens 64 --layers 8 --hidden 1024 --threads 4 2>&1 \
    | tee "$OUT/grpo_vs_trl.txt"
status=${PIPESTATUS[0]}; [ "$status" -eq 0 ] || rc=$status
echo "gpu_check: figures in $OUT (exit $rc: the benchmarks' rule, 3 = a target missed)"
exit "$rc"
