#!/usr/bin/env bash
# `npm test`: typecheck, lint, every vitest suite (inside a private keyring session) and the UI
# suite in Chromium. Each step keeps going after a failure so one run shows everything; the last
# line sums all suites as "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/results
rm -f .tmp/results/*.json .tmp/results/*.status

step() { # name, command...
  local name=$1; shift
  printf '\n== %s ==\n' "$name"
  if "$@"; then echo pass > ".tmp/results/$name.status"; else echo fail > ".tmp/results/$name.status"; fi
}

step typecheck npm run --silent typecheck
step lint npx eslint --max-warnings 0 src test bench scripts
# One formatter (Prettier, .prettierrc.json): a file written another way fails here; `npm run format` fixes it.
step format npx prettier --check --log-level warn src test bench scripts
# DESK_REQUIRE_KEYCHAIN: inside with-keyring.sh a keychain that does not answer is a failure, not a skip.
step unit env DESK_REQUIRE_KEYCHAIN=1 scripts/with-keyring.sh npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/results/unit.json
# The client's integration suites again, against a service that makes the other legal choice at every
# point the interface leaves open (test/helpers/variants.ts): users connect to services we did not write.
step unit-variants env SANDBOX_VARIANTS=mixed scripts/with-keyring.sh npx vitest run test/main/service test/main/sync test/main/app \
  --reporter=default --reporter=json --outputFile.json=.tmp/results/unit-variants.json
if [ -d test/e2e ] && ls test/e2e/*.test.ts >/dev/null 2>&1; then
  step e2e-build npx vite build --config vite.renderer.config.mts --logLevel warn
  step e2e scripts/with-keyring.sh npx vitest run --config vitest.e2e.config.mts --reporter=default --reporter=json --outputFile.json=.tmp/results/e2e.json
fi
node scripts/summarize-tests.mjs .tmp/results
