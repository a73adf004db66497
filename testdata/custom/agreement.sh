#!/usr/bin/env bash
# Runs Spectral on this folder's fixtures with ruleset.yaml and records what
# it reports in spectral.json (1-based lines), which TestSpectralAgreement
# compares with specgate's findings. Spectral is installed from npm into a
# cache outside the repository; it is a measuring tool, not a dependency.
#
# Spectral has no typedEnum function for custom rulesets (it is internal to
# its oas ruleset), so rules using it are left out of Spectral's run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${SPECGATE_CACHE:-$HOME/.cache/specgate}/spectral-6.16.3
if [ ! -x "$cache/node_modules/.bin/spectral" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent @stoplight/spectral-cli@6.16.3
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/functions" "$tmp/"
# Drop the rules that use typedEnum (a rule is a block indented by two spaces).
awk '
  /^  [A-Za-z0-9_-]+:$/ { if (block != "" && block !~ /function: typedEnum/) printf "%s", block; block = $0 "\n"; inrules = 1; next }
  inrules && /^    / { block = block $0 "\n"; next }
  { if (block != "" && block !~ /function: typedEnum/) printf "%s", block; block = ""; print }
  END { if (block != "" && block !~ /function: typedEnum/) printf "%s", block }
' "$here/ruleset.yaml" > "$tmp/ruleset.yaml"
cd "$here"
"$cache/node_modules/.bin/spectral" lint testdata/*.yaml testdata/*.json --ruleset "$tmp/ruleset.yaml" -f json --quiet > "$tmp/out.json" || true
node -e '
  const out = require(process.argv[1]);
  const rows = out.map(r => ({file: require("path").relative(process.argv[2], r.source), line: r.range.start.line + 1, code: r.code}));
  rows.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.code.localeCompare(b.code));
  process.stdout.write(JSON.stringify(rows, null, 1) + "\n");
' "$tmp/out.json" "$here" > "$here/spectral.json"
echo "wrote $here/spectral.json ($(grep -c '"code"' "$here/spectral.json") findings)"
