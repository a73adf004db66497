#!/usr/bin/env bash
# Lints public API descriptions beyond ../shared/corpus, to find crashes and
# load errors on real-world specifications.
#
#   scripts/real-specs.sh [--small] [--no-fetch] [DIR]
#
# It fetches npm packages that ship OpenAPI descriptions (pinned versions)
# into DIR (default: $SPECGATE_REAL_SPECS, else ~/.cache/specgate/real-specs),
# outside the repository, then runs TestRealSpecs (linter/realspecs_test.go),
# which lints every specification found there under --ruleset strict and
# validates it: a panic, an internal error or a file that does not load fails.
#
#   --small     only the small packages (under 1 MB in all), as .ci/run does
#   --no-fetch  use what DIR holds
set -euo pipefail
cd "$(dirname "$0")/.."

small=0 fetch=1
while [ $# -gt 0 ]; do
  case "$1" in
    --small) small=1 ;;
    --no-fetch) fetch=0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
dir=${1:-${SPECGATE_REAL_SPECS:-${XDG_CACHE_HOME:-$HOME/.cache}/specgate/real-specs}}

# Packages and what they hold: ReadMe's OpenAPI examples (136 files, Swagger
# 2.0 to OpenAPI 3.1), Directus, Figma and Netlify (one description each);
# GitHub's webhooks (13 files of 5 MB) and REST API (10 files: 11-14 MB, and
# dereferenced forms of 63-78 MB), 31 MB of tarballs.
small_packages=(@readme/oas-examples@8.2.2 @directus/specs@15.2.0 @figma/rest-api-spec@0.43.0 @netlify/open-api@2.60.0)
large_packages=(@octokit/openapi-webhooks@12.1.0 @octokit/openapi@23.0.2)
packages=("${small_packages[@]}")
if [ "$small" = 0 ]; then
  packages+=("${large_packages[@]}")
fi

if [ "$fetch" = 1 ]; then
  command -v npm >/dev/null || { echo "real-specs: npm is needed to fetch the packages" >&2; exit 2; }
  mkdir -p "$dir/tarballs" "$dir/specs"
  for pkg in "${packages[@]}"; do
    name=${pkg%@*}
    target="$dir/specs/${name#@}@${pkg##*@}"
    if [ -d "$target" ]; then
      continue
    fi
    echo "real-specs: fetching $pkg"
    tarball=$(cd "$dir/tarballs" && npm pack --silent "$pkg" 2>/dev/null | tail -n 1)
    mkdir -p "$target.tmp"
    tar -xzf "$dir/tarballs/$tarball" -C "$target.tmp"
    mv "$target.tmp" "$target"
  done
fi

specs=()
for pkg in "${packages[@]}"; do
  name=${pkg%@*}
  specs+=("$dir/specs/${name#@}@${pkg##*@}")
done
echo "real-specs: linting ${specs[*]}"
SPECGATE_REAL_SPECS="$(IFS=:; echo "${specs[*]}")" go test -count=1 -timeout 60m -run '^TestRealSpecs$' -v ./linter/ | grep -Ev '^=== (RUN|PAUSE|CONT)'
