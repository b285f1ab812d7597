#!/usr/bin/env bash
# Installs the toolchains the end-to-end tests run, from Debian's packages.
# Idempotent: packages already installed are left alone, and nothing is fetched then.
# Node comes with the machine; Rust's cargo too (rustup, used with --offline).
set -euo pipefail

packages=(
  ruby bundler rake ruby-minitest ruby-rspec ruby-rails   # minitest, rspec, rails (6.1)
  golang-go gotestsum                                     # go test (1.19); gotestsum for comparisons
  golang-1.23-go                                          # go test (1.23), from bookworm-backports
  python3-pytest                                          # pytest (7.2, /usr/bin/pytest-3)
  chromium                                                # the report page's browser test (test/e2e/report-page.test.ts)
)

# golang-1.23-go comes from bookworm-backports: the same mirror as the machine's main
# suite, so its entry is copied from the machine's own sources with only the suite changed.
enable_backports() {
  local main=/etc/apt/sources.list.d/debian.sources out=/etc/apt/sources.list.d/run-tests-backports.sources
  [ -f "$out" ] && return 0
  grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
  [ -f "$main" ] || { echo "setup-toolchains: no $main to derive bookworm-backports from" >&2; return 1; }
  awk 'BEGIN { RS = ""; ORS = "\n\n" } /Suites:[^\n]*bookworm-updates/ { sub(/Suites:[^\n]*/, "Suites: bookworm-backports"); print; exit }' "$main" | $sudo tee "$out" >/dev/null
  [ -s "$out" ] || { echo "setup-toolchains: found no bookworm entry in $main" >&2; $sudo rm -f "$out"; return 1; }
}

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-toolchains: all present (${packages[*]})"
  exit 0
fi

echo "setup-toolchains: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
enable_backports
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
