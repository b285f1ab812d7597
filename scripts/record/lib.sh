# Shared by the record scripts: `source "$(dirname "$0")/lib.sh" <outputs subdir>` after
# `set -euo pipefail`. Sets repo, projects, out (created) and work, a temp directory
# removed at exit.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
projects="$repo/test/fixtures/projects"
out="$repo/test/fixtures/outputs/$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# fresh_copy <project> <case>: a copy of the fixture project in $work, printed as its
# real path (the one the runner reports, so `<root>` replaces it everywhere).
fresh_copy() {
  cp -R "$projects/$1" "$work/$2"
  (cd "$work/$2" && pwd -P)
}

# case_setup <case> <project> [VAR=value ...] -- [arguments...]: the start every
# record() shares. Sets name, project, vars (the VAR=value words), args (what follows `--`) and
# root (a fresh copy of the project, see fresh_copy).
case_setup() {
  name="$1"
  project="$2"
  shift 2
  vars=()
  while [ "$1" != "--" ]; do vars+=("$1"); shift; done
  shift
  args=("$@")
  root="$(fresh_copy "$project" "$name")"
}
