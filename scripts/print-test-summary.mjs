// Prints the one line CI reads: `N passed, N failed, N skipped`. A suite that could not run at all
// (a syntax error, a failing beforeAll) counts as one failure so it is never silently lost.
import { readFileSync } from 'node:fs';

const results = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const brokenSuites = results.testResults.filter(
  (suite) => suite.status === 'failed' && suite.assertionResults.every((test) => test.status !== 'failed'),
).length;
const passed = results.numPassedTests;
const failed = results.numFailedTests + brokenSuites;
const skipped = results.numPendingTests + results.numTodoTests;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
