#!/usr/bin/env bash
# Runs specgate's backward-compatibility check and oasdiff side by side on
# consecutive published versions of public API descriptions, and prints
# where their verdicts agree (docs/compat.md, "Real histories").
#
#   scripts/compat-histories.sh [DIR]
#
# It fetches pinned npm packages that ship OpenAPI descriptions into DIR
# (default: $SPECGATE_HISTORIES, else ~/.cache/specgate/histories), outside
# the repository, builds specgate, and needs jq and oasdiff v1.33.0 (on
# PATH, or $OASDIFF):
#
#   GOBIN=/tmp/oasdiff-bin go install github.com/oasdiff/oasdiff@v1.33.0
#
# For each pair it writes DIR/pairs/<package>-<from>-<to>.txt with both
# tools' failing changes, for judging a disagreement by hand, and prints
# one line per pair: package, versions, each tool's verdict and failing
# changes, and whether the verdicts agree. An oasdiff change of level ERR
# fails the pair, as in compat/oasdiff_test.go.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-${SPECGATE_HISTORIES:-${XDG_CACHE_HOME:-$HOME/.cache}/specgate/histories}}
oasdiff=${OASDIFF:-$(command -v oasdiff || echo /tmp/oasdiff-bin/oasdiff)}
[ -x "$oasdiff" ] || { echo "oasdiff not found: set OASDIFF" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq is needed" >&2; exit 2; }

# package, the file of the description inside it, and the versions, in
# order: Figma's REST API (OpenAPI 3.1), Netlify's (Swagger 2.0),
# Directus's (OpenAPI 3.0).
packages=(
  "@figma/rest-api-spec openapi/openapi.yaml 0.33.0 0.34.0 0.35.0 0.36.0 0.37.0 0.38.0 0.39.0 0.40.0 0.41.0 0.42.0 0.43.0"
  "@netlify/open-api dist/swagger.json 2.52.0 2.53.0 2.54.0 2.55.0 2.56.0 2.56.1 2.57.0 2.57.1 2.58.0 2.59.0 2.60.0"
  "@directus/specs dist/openapi.json 11.1.0 11.1.1 11.2.0 12.0.0 12.0.1 13.0.0 14.0.0 15.0.0 15.1.0 15.1.1 15.2.0"
)

mkdir -p "$dir/pairs"
bin="$dir/specgate"
go build -o "$bin" .

fetch() { # package version file → path of the description
  local pkg=$1 v=$2 file=$3 to="$dir/${1//\//_}/$2"
  if [ ! -f "$to/package/$file" ]; then
    mkdir -p "$to"
    (cd "$to" && npm pack --silent "$pkg@$v" >/dev/null && tar xzf ./*.tgz)
  fi
  echo "$to/package/$file"
}

agree=0 total=0
printf '%s\t%s\t%s\t%s\t%s\t%s\n' package from to specgate oasdiff agree
for line in "${packages[@]}"; do
  read -r pkg file versions <<<"$line"
  read -ra vs <<<"$versions"
  for ((i = 1; i < ${#vs[@]}; i++)); do
    from=${vs[i-1]} to=${vs[i]}
    old=$(fetch "$pkg" "$from" "$file") new=$(fetch "$pkg" "$to" "$file")
    sg=$("$bin" backward-compatibility-check --format json "$old" "$new" || true)
    od=$("$oasdiff" changelog "$old" "$new" --format json || echo '[]')
    sgv=$(jq -r '.results[0].verdict' <<<"$sg")
    sgn=$(jq '[.results[0].changes[] | select(.fails)] | length' <<<"$sg")
    odv=$(jq -r 'if any(.[]; .level == 3) then "incompatible" else "compatible" end' <<<"$od")
    odn=$(jq '[.[] | select(.level == 3)] | length' <<<"$od")
    same=no
    [ "$sgv" = "$odv" ] && same=yes && agree=$((agree + 1))
    total=$((total + 1))
    printf '%s\t%s\t%s\t%s (%s)\t%s (%s)\t%s\n' "$pkg" "$from" "$to" "$sgv" "$sgn" "$odv" "$odn" "$same"
    {
      echo "# $pkg $from → $to: specgate $sgv, oasdiff $odv"
      echo "## specgate (failing changes)"
      jq -r '.results[0].changes[] | select(.fails) | "\(.location) \(.ruleId) [\(.operations | join(", "))]: \(.message)"' <<<"$sg"
      echo "## oasdiff (ERR)"
      jq -r '.[] | select(.level == 3) | "\(.operation) \(.path) \(.id): \(.text)"' <<<"$od"
    } >"$dir/pairs/${pkg//\//_}-$from-$to.txt"
  done
done
echo "verdicts agree on $agree of $total pairs; details in $dir/pairs" >&2
