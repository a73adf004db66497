#!/usr/bin/env bash
# mcp-inspector.sh: drive `specgate mcp` with the MCP Inspector's command
# line (npm @modelcontextprotocol/inspector, pinned below), as a third-party
# client: list the tools with the Inspector's schema portability checks
# (--strict), then call each tool on the fixtures of mcp/testdata and check
# the answers. Each call starts its own stdio server, as an editor does.
#
#   scripts/mcp-inspector.sh            # builds specgate from this checkout
#   SPECGATE=/path/to/specgate scripts/mcp-inspector.sh
#
# Needs Go (unless SPECGATE is given), npx and the npm registry. Exits 0 when
# every check passes, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

INSPECTOR=@modelcontextprotocol/inspector@2.12.0
work=$(mktemp -d "${TMPDIR:-/tmp}/specgate-mcp-inspector.XXXXXX")
trap 'rm -rf "$work"' EXIT

specgate=${SPECGATE:-}
if [ -z "$specgate" ]; then
  go build -o "$work/specgate" .
  specgate=$work/specgate
fi
# The tools read and write under the root: a copy of the fixtures.
root=$work/root
cp -r mcp/testdata "$root"

inspector() {
  npx --yes "$INSPECTOR" --cli "$specgate" mcp --root "$root" "$@" 2>"$work/stderr"
}

failed=0
# check NAME PATTERN FILE: FILE must match the extended regular expression.
check() {
  if grep -Eq -- "$2" "$3"; then
    echo "ok   $1"
  else
    echo "FAIL $1: no match for $2 in:"; head -c 2000 "$3"; echo; tail -20 "$work/stderr"
    failed=1
  fi
}

inspector --method tools/list --strict >"$work/list.json"
for tool in run_contract_test manage_mock_server run_suite validate_examples generate_examples fix_examples backward_compatibility_check lint; do
  check "tools/list names $tool" "\"name\": \"$tool\"" "$work/list.json"
done
check "tools/list gives input schemas" '"inputSchema"' "$work/list.json"
check "tools/list gives output schemas" '"outputSchema"' "$work/list.json"

inspector --method tools/call --tool-name validate_examples --tool-arg spec=pets.yaml >"$work/examples.json"
check "validate_examples finds the bad body with its place" '"column": 23,[[:space:]]*"example": "bad_name",[[:space:]]*"file": "pets_examples/bad_name.json",[[:space:]]*"line": 5,' <(tr -d '\n' <"$work/examples.json")
check "validate_examples gives the failing JSON path" '"path": "\$\.http-response\.body\.name"' "$work/examples.json"

inspector --method tools/call --tool-name backward_compatibility_check --tool-arg base=compat/base.yaml revision=compat/breaking.yaml >"$work/compat.json"
check "backward_compatibility_check finds the breaking change" '"verdict": "incompatible"' "$work/compat.json"
check "backward_compatibility_check locates it" '"file": "compat/breaking.yaml",[[:space:]]*"line": 26' <(tr -d '\n' <"$work/compat.json")

inspector --method tools/call --tool-name lint --tool-arg 'specs=["pets.yaml"]' ruleset=recommended >"$work/lint.json"
check "lint reports health-endpoint" '"rule": "health-endpoint"' "$work/lint.json"

inspector --method tools/call --tool-name manage_mock_server --tool-arg command=start 'specs=["pets.yaml"]' >"$work/mock.json"
check "manage_mock_server starts a mock" '"address": "http://127\.0\.0\.1:[0-9]+"' "$work/mock.json"

inspector --method tools/call --tool-name run_contract_test --tool-arg 'specs=["pets.yaml"]' baseUrl=http://127.0.0.1:9 >"$work/test.json"
check "run_contract_test reports an unreachable service" '"failed": [1-9]' "$work/test.json"

inspector --method tools/call --tool-name fix_examples --tool-arg spec=pets.yaml dryRun=true >"$work/fix.json"
check "fix_examples answers a diff" '\+    \\"body\\": \{\\"id\\": 3, \\"name\\": \\"42\\"\}' "$work/fix.json"

inspector --method tools/call --tool-name generate_examples --tool-arg spec=pets.yaml dir=generated >"$work/generate.json"
check "generate_examples writes files" '"generated/showPet_200.json"' "$work/generate.json"

inspector --method tools/call --tool-name lint --tool-arg 'specs=["../outside.yaml"]' >"$work/outside.json" || true
check "a path outside the root is a tool error" '"isError": true' "$work/outside.json"

exit $failed
