#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine: set up, start NATS and PostgreSQL where missing,
# run every test, and print one line `N passed, N failed, N skipped`.
set -euo pipefail
cd "$(dirname "$0")/.."
export TALON_SETUP_POSTGRES=1 TALON_SETUP_BROWSER=1 NX_DAEMON=false NX_NO_CLOUD=true
bash scripts/setup.sh
bash scripts/ensure-services.sh
export TEST_POSTGRES_URL=${TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}
# Tests run through swc, which strips types: check them here so a wrong test cannot pass silently.
npx tsc -p tsconfig.test.json
status=0
# The house checks itself: formatting, lint (type-aware promise rules), project references vs imports.
# A failure fails the run, after the tests have run and the summary line is printed.
npx prettier --check . || { echo "[checks] prettier --check failed" >&2; status=1; }
npx eslint . || { echo "[checks] eslint failed" >&2; status=1; }
node scripts/check-project-references.mjs || { echo "[checks] project references do not match the imports" >&2; status=1; }
mkdir -p .talon
# A killed run must not print an old summary.
rm -f .talon/jest-results.json
node --experimental-vm-modules node_modules/jest/bin/jest.js --ci --maxWorkers=2 --json --outputFile=.talon/jest-results.json "$@" || status=$?
node scripts/print-test-summary.mjs .talon/jest-results.json || status=1
exit $status
