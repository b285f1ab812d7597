#!/usr/bin/env bash
# Installs the toolchains the end-to-end tests run, from Debian's packages.
# Idempotent: packages already installed are left alone, and nothing is fetched then.
# Node comes with the machine; Rust's cargo too (rustup, used with --offline).
set -euo pipefail

packages=(
  ruby bundler rake ruby-minitest ruby-rspec ruby-rails   # minitest, rspec, rails (6.1)
  golang-go gotestsum                                     # go test (1.19); gotestsum for comparisons
  python3-pytest                                          # pytest (7.2, /usr/bin/pytest-3)
)

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
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
