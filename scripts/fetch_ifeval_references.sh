#!/usr/bin/env bash
# Fetches the two reference instruction-following checkers that are not pip packages, at the
# commits our differential test and benchmark were run against, into build/references/:
#   open-instruct (IFEvalG and RLVR's if_functions; Apache-2.0)  -> build/references/open-instruct
#   IFBench (allenai/IFBench; Apache-2.0)                         -> build/references/IFBench
# tests/ifeval/test_reference_differential.py and benchmarks/ifeval_throughput.py find them
# there without IFEVALG_SOURCE / IFBENCH_SOURCE (which still win where set). lm-eval's IFEval,
# the third reference, is a pip package: scripts/test.sh installs it.
# REFERENCES_GIT_BASE replaces https://github.com (a mirror holding <owner>/<name> repos).
set -euo pipefail
cd "$(dirname "$0")/.."
base="${REFERENCES_GIT_BASE:-https://github.com}"
mkdir -p build/references
fetch() {  # name owner/repo commit folder: only the folder the checkers live in is checked out
    local dest="build/references/$1"
    if [ -f "$dest/.fetched" ] && [ "$(cat "$dest/.fetched")" = "$3" ]; then
        echo "$dest: already at $3"; return
    fi
    rm -rf "$dest"
    git clone --quiet --no-checkout "$base/$2" "$dest"
    git -C "$dest" checkout --quiet "$3" -- "$4"
    echo "$3" > "$dest/.fetched"
    echo "$dest: $2 at $3 ($4/)"
}
fetch open-instruct allenai/open-instruct e6c3044aa6201c8bfa4573c1b03142af599e730d open_instruct
fetch IFBench allenai/IFBench db69a6f05689830b0068b8f1529ebcfd2f3b164c ifbench
echo "export IFEVALG_SOURCE=$PWD/build/references/open-instruct IFBENCH_SOURCE=$PWD/build/references/IFBench"
