#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/jest/<case>.jsonl from real runs of the project's
# jest through reporters/jest/launch.cjs on temp copies of test/fixtures/projects/jest-*.
# The temp path becomes `<root>`, run-tests' own path `<repo>`, and volatile fields
# (pid, duration_ms) are zeroed.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail
# The functions below are shared with vitest.sh, which sources this file with
# RECORD_RUNNER=vitest: only when run directly does it record jest.
runner="${RECORD_RUNNER:-jest}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
projects="$repo/test/fixtures/projects"
out="$repo/test/fixtures/outputs/$runner"
# jest's launcher is CommonJS, as jest's own bin is; vitest's is an ES module.
case "$runner" in jest) launcher="$repo/reporters/jest/launch.cjs" ;; *) launcher="$repo/reporters/$runner/launch.mjs" ;; esac
mkdir -p "$out"
tmp="$(mktemp -d)"
tmp="$(cd "$tmp" && pwd -P)"
trap 'rm -rf "$tmp"' EXIT

# run <project> <case> [node flags] [launcher args] -- [runner args]: a real run; its exit status varies.
run() {
  local project="$1" name="$2"; shift 2
  local root="$tmp/$name"
  rm -rf "$root"; cp -R "$projects/$project" "$root"
  ln -s "$repo/node_modules" "$root/node_modules"
  launch "$root" "$@"
  scrub "$root" "$root/events.jsonl" "$out/$name.jsonl"
}

# again <case> [node flags] [launcher args] -- [runner args]: another run on the case's
# copy, appended to its report, as the second command of a rerun appends.
again() {
  local name="$1"; shift
  launch "$tmp/$name" "$@"
  scrub "$tmp/$name" "$tmp/$name/events.jsonl" "$out/$name.jsonl"
}

launch() {
  local root="$1" node_flags=(); shift
  while [[ "${1:-}" == --experimental-* ]]; do node_flags+=("$1"); shift; done
  (cd "$root" && node "${node_flags[@]}" "$launcher" --package "$repo/node_modules/$runner" \
    --report "$root/events.jsonl" "$@" >>run.log 2>&1) || true
}

# scrub <root> <in> <out>: paths replaced, volatile fields zeroed, files in a stable order.
scrub() {
  ROOT="$1" REPO="$repo" node -e '
    const fs = require("node:fs");
    const [input, output] = process.argv.slice(1);
    const { ROOT, REPO } = process.env;
    const clean = (v, k) => {
      if (k === "pid" || k === "duration_ms") return typeof v === "number" ? 0 : v;
      if (typeof v === "string") return v.split(ROOT).join("<root>").split(REPO).join("<repo>");
      if (Array.isArray(v)) return v.map((x) => clean(x));
      if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, clean(x, key)]));
      return v;
    };
    const records = fs.readFileSync(input, "utf8").split("\n").filter(Boolean).map((l) => clean(JSON.parse(l)));
    // Each run (a rerun appends a second one) from its run_start on.
    const runs = [];
    for (const r of records) {
      if (r.event === "run_start" || runs.length === 0) runs.push([]);
      runs[runs.length - 1].push(r);
    }
    // Parallel workers interleave files: group each file'"'"'s events, in order of the file
    // name, between the run_start and what belongs to no file (unhandled errors, run_end).
    const ordered = runs.flatMap((run) => {
      const head = run.filter((r) => r.event === "run_start");
      const tail = run.filter((r) => r.event !== "run_start" && !r.file);
      const files = [...new Set(run.filter((r) => r.file).map((r) => r.file))].sort();
      return [...head, ...files.flatMap((f) => run.filter((r) => r.file === f)), ...tail];
    });
    fs.writeFileSync(output, ordered.map((r) => JSON.stringify(r)).join("\n") + "\n");
  ' "$2" "$3"
}

# half <in> <out>: the first half of a file, cut mid-record like a killed writer (never
# at a line's end, where the cut would leave whole lines).
half() {
  node -e 'const fs = require("node:fs");
    const text = fs.readFileSync(process.argv[1]);
    let n = text.length >> 1;
    while (n > 1 && (text[n - 1] === 10 || text[n] === 10)) n -= 1;
    fs.writeFileSync(process.argv[2], text.subarray(0, n));' "$1" "$2"
}

list() { echo "recorded into $out:"; ls -1 "$out" | grep -v '\.expected\.json$'; }

[[ "${BASH_SOURCE[0]}" == "$0" ]] || return 0

run jest-mixed mixed --
run jest-mixed filtered --name 'handles \[brackets\] and \(parens\)' --path "$tmp/filtered/test/math.test.js" --
run jest-exit exit -- -i
run jest-esm esm --experimental-vm-modules --
run jest-hooks hooks --
# A rerun as run-tests plans it: the failed tests by name, then the load error's file whole.
run jest-mixed rerun --path "$tmp/rerun/test/math.test.js" --path "$tmp/rerun/test/second.test.js" \
  --name '^(?:math add adds negatives|math parses config|math fails \[with\] \(brackets\) too|top level fails)$' --
again rerun --path "$tmp/rerun/test/broken.test.js" --
half "$out/mixed.jsonl" "$out/truncated.jsonl"
list
