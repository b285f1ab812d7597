// jest's globalSetup: compiles schema/report.schema.json and schema/events.schema.json
// once per `jest` run into one module of validation code (ajv's standalone code), which
// test/support/schemas.ts loads. jest evaluates a test file's imports afresh for each
// file, and ajv took ~0.36 s of CPU to load and compile both schemas for each of the
// suite's ~150 files that check reports or events; loading the compiled code takes ~5 ms.
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository's node_modules, so that the code's `require("ajv/dist/runtime/…")` resolves. */
export const VALIDATORS = path.join(REPO, 'node_modules/.cache/run-tests-tests/schema-validators.cjs');

export default function compileSchemas() {
  const schema = (name) => JSON.parse(fs.readFileSync(path.join(REPO, 'schema', name), 'utf8'));
  // Strict (ajv's default): an unknown keyword or a contradiction in a schema fails the suite.
  const ajv = new Ajv2020({ allErrors: true, code: { source: true } });
  ajv.addSchema(schema('report.schema.json'), 'report').addSchema(schema('events.schema.json'), 'event');
  const code = standaloneCode.default(ajv, { report: 'report', event: 'event', plan: 'report#/$defs/planDocument', history: 'report#/$defs/historyDocument' });
  fs.mkdirSync(path.dirname(VALIDATORS), { recursive: true });
  // Atomic: two jest runs at once each load a whole file.
  const temp = `${VALIDATORS}.${process.pid}`;
  fs.writeFileSync(temp, code);
  fs.renameSync(temp, VALIDATORS);
}
