import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { OPENAPI_FILE, renderOpenApi } from '../openapi-file.js';

/** npm run openapi: writes the REST layer's OpenAPI document to schema/openapi.json (what /openapi.json serves). */
const doc = await renderOpenApi();
await writeFile(OPENAPI_FILE, doc);
console.log(`wrote ${OPENAPI_FILE} (${Object.keys(JSON.parse(doc).paths).length} paths)`);
process.exit(0);
