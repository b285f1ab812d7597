#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/vitest/<case>.jsonl from real runs of the project's
# vitest through reporters/vitest/launch.mjs on temp copies of
# test/fixtures/projects/vitest-*. The temp path becomes `<root>`, run-tests' own path
# `<repo>`, and volatile fields (pid, duration) are zeroed; vitest runs files in
# parallel, so records are kept in file order.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail
RECORD_RUNNER=vitest
# shellcheck source=scripts/record/jest.sh
source "$(dirname "${BASH_SOURCE[0]}")/jest.sh"

run vitest-mixed mixed -- run
run vitest-mixed filtered --name 'handles \[brackets\] and \(parens\)' --path "$tmp/filtered/test/math.test.ts" -- run
run vitest-exit exit -- run
run vitest-hook hook -- run
# A rerun as run-tests plans it: the failed test by name, then the failed hook's file whole.
run vitest-hook rerun --path "$tmp/rerun/test/other.test.ts" --name '^(?:subtracts wrongly)$' -- run
again rerun --path "$tmp/rerun/test/hook.test.ts" -- run
half "$out/mixed.jsonl" "$out/truncated.jsonl"
list
