#!/usr/bin/env bash
# How a CI job uses foursquare: fail the build when a recorded game is invalid.
# Run from anywhere: bash examples/ci-check.sh   (FOURSQUARE overrides the command)
set -euo pipefail
cd "$(dirname "$0")"
fs() { ${FOURSQUARE:-foursquare} "$@"; }

# 1. Every recorded game must be valid: exit status 0, else the job fails.
fs validate won.yaml lost.yaml

# 2. Machines read JSON: one object per game with "file", "game", "valid", "errors".
fs validate --format json won.yaml lost.yaml |
    python3 -c 'import json, sys; games = json.load(sys.stdin); assert all(g["valid"] for g in games); print(len(games), "games valid")'

# 3. A broken file fails with status 1 and exactly the expected errors on stderr.
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
if fs validate invalid.yaml 2>"$errors" >/dev/null; then
    echo "invalid.yaml should not validate" >&2
    exit 1
fi
diff "$errors" invalid.expected

# 4. A move script replays to the expected result.
fs play --deal 89 <deal89.moves | grep -q '^Won, score 4\.$'
echo "all checks passed"
