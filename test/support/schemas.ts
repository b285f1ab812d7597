/** The shipped JSON Schemas' validators, compiled once per jest run by
 * test/support/compile-schemas.js (jest's globalSetup). */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface Validator {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

const file = fileURLToPath(new URL('../../node_modules/.cache/run-tests-tests/schema-validators.cjs', import.meta.url));
const compiled = createRequire(import.meta.url)(file) as { report: Validator; event: Validator; plan: Validator; history: Validator };

/** schema/report.schema.json */
export const validateReport: Validator = compiled.report;
/** schema/events.schema.json: one event. */
export const validateEvent: Validator = compiled.event;
/** schema/report.schema.json's planDocument: what `run-tests plan --json` prints. */
export const validatePlan: Validator = compiled.plan;
/** schema/report.schema.json's historyDocument: what `run-tests history --json` prints. */
export const validateHistory: Validator = compiled.history;
