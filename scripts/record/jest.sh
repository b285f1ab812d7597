#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/jest/<case>.jsonl from real runs of the project's
# jest through reporters/jest/launch.cjs on temp copies of test/fixtures/projects/jest-*.
# The temp path becomes `<root>`, run-tests' own path `<repo>`, and volatile fields
# (pid, duration) are zeroed. The <case>.expected.json files are checked by hand and
# are not touched here.
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
  local root="$tmp/$name" node_flags=()
  rm -rf "$root"; cp -R "$projects/$project" "$root"
  ln -s "$repo/node_modules" "$root/node_modules"
  while [[ "${1:-}" == --experimental-* ]]; do node_flags+=("$1"); shift; done
  (cd "$root" && node "${node_flags[@]}" "$launcher" --package "$repo/node_modules/$runner" \
    --report "$root/events.jsonl" "$@" >run.log 2>&1) || true
  scrub "$root" "$root/events.jsonl" "$out/$name.jsonl"
}

# scrub <root> <in> <out>: paths replaced, volatile fields zeroed, files in a stable order.
scrub() {
  ROOT="$1" REPO="$repo" node -e '
    const fs = require("node:fs");
    const [input, output] = process.argv.slice(1);
    const { ROOT, REPO } = process.env;
    const clean = (v, k) => {
      if (k === "pid" || k === "duration") return typeof v === "number" ? 0 : v;
      if (typeof v === "string") return v.split(ROOT).join("<root>").split(REPO).join("<repo>");
      if (Array.isArray(v)) return v.map((x) => clean(x));
      if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, clean(x, key)]));
      return v;
    };
    const records = fs.readFileSync(input, "utf8").split("\n").filter(Boolean).map((l) => clean(JSON.parse(l)));
    // Parallel workers interleave files: group each file'"'"'s records, in order of the file name.
    const head = records.filter((r) => r.type === "start");
    const tail = records.filter((r) => r.type === "end");
    const files = [...new Set(records.filter((r) => r.file).map((r) => r.file))].sort();
    const body = files.flatMap((f) => records.filter((r) => r.file === f));
    fs.writeFileSync(output, [...head, ...body, ...tail].map((r) => JSON.stringify(r)).join("\n") + "\n");
  ' "$2" "$3"
}

# half <in> <out>: the first half of a file, cut mid-record like a killed writer.
half() { head -c "$(( $(wc -c <"$1") / 2 ))" "$1" >"$2"; }

list() { echo "recorded into $out:"; ls -1 "$out" | grep -v '\.expected\.json$'; }

[[ "${BASH_SOURCE[0]}" == "$0" ]] || return 0

run jest-mixed mixed --
run jest-mixed filtered --name 'handles \[brackets\] and \(parens\)' --path "$tmp/filtered/test/math.test.js" --
run jest-exit exit -- -i
run jest-esm esm --experimental-vm-modules --
run jest-hooks hooks --
half "$out/mixed.jsonl" "$out/truncated.jsonl"
list
