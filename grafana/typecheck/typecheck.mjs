// Type-checks every grafana/dashboards/*.json against @grafana/schema's Dashboard type.
//
// Why generate TypeScript instead of importing the JSON (resolveJsonModule): tsc widens a JSON
// module's strings to `string`, so `"type": "query"` no longer fits VariableType's union and every
// dashboard fails; and an imported JSON module gets no excess-property check. Written out as an
// object literal assigned to `Dashboard`, each field keeps its literal type and an unknown or
// misspelled field of a typed object is an error. JsonOf (json-of.ts) turns the schema's string
// enums into their values, as a JSON file spells them.
import { readdirSync, readFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const dashboards = join(here, '..', 'dashboards');
const generated = join(here, 'generated');

rmSync(generated, { recursive: true, force: true });
mkdirSync(generated);
const files = readdirSync(dashboards).filter((f) => f.endsWith('.json')).sort();
if (files.length === 0) {
  console.error(`typecheck: no dashboards in ${dashboards}`);
  process.exit(1);
}
for (const file of files) {
  const json = JSON.stringify(JSON.parse(readFileSync(join(dashboards, file), 'utf8')), null, 2);
  writeFileSync(join(generated, file.replace(/\.json$/, '.ts')),
    `// Generated from grafana/dashboards/${file} by typecheck.mjs.\n` +
    `import type { Dashboard } from '@grafana/schema';\n` +
    `import type { JsonOf } from '../json-of.js';\n\n` +
    `export const dashboard: JsonOf<Dashboard> = ${json};\n`);
}
const tsc = spawnSync(process.execPath, [join(here, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', here],
  { stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error(`typecheck: the dashboards do not fit @grafana/schema's Dashboard type (generated/*.ts mirror ${dashboards})`);
  process.exit(tsc.status ?? 1);
}
console.log(`typecheck: ${files.length} dashboards fit @grafana/schema's Dashboard type`);
