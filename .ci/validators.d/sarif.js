// SARIF checks: each log against the vendored SARIF 2.1.0 schema (ajv,
// JSON Schema 2020-12, with ajv-formats for uri and uri-reference), then
// the rules GitHub code scanning applies on upload that the schema does
// not express. Usage: node sarif.js SCHEMA LOG...   (NODE_PATH: the
// validators' node_modules). Exits 1 on any failure.
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;
const [schemaPath, ...logs] = process.argv.slice(2);
console.log(`sarif: ajv ${require('ajv/package.json').version}, ajv-formats ${require('ajv-formats/package.json').version}, schema ${schemaPath}`);
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
let failed = 0;
const fail = (file, msg) => { failed++; console.log(`sarif: FAIL ${file}: ${msg}`); };
for (const file of logs) {
  const log = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!validate(log)) {
    for (const e of validate.errors) fail(file, `schema: ${e.instancePath} ${e.message}`);
    continue;
  }
  let results = 0;
  for (const [ri, run] of log.runs.entries()) {
    const d = run.tool.driver;
    if (!d.fullName) fail(file, `runs[${ri}].tool.driver.fullName is missing (Azure DevOps)`);
    if (!run.automationDetails || !run.automationDetails.id) fail(file, `runs[${ri}].automationDetails.id is missing`);
    for (const rule of d.rules || []) {
      const s = rule.properties && rule.properties['security-severity'];
      if (typeof s !== 'string' || !/^\d+(\.\d+)?$/.test(s) || +s < 0 || +s > 10) fail(file, `rule ${rule.id}: security-severity ${JSON.stringify(s)}, want "0.0" to "10.0"`);
    }
    for (const [i, res] of (run.results || []).entries()) {
      results++;
      const at = `runs[${ri}].results[${i}] (${res.ruleId})`;
      const loc = res.locations && res.locations[0] && res.locations[0].physicalLocation;
      if (!loc) { fail(file, `${at}: no physicalLocation`); continue; }
      if (!loc.region || !(loc.region.startLine >= 1)) fail(file, `${at}: no region.startLine`);
      const uri = loc.artifactLocation.uri;
      if (uri.startsWith('/')) fail(file, `${at}: uri ${uri} begins with a slash`);
      if (!/^file:\/\//.test(uri) && /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(uri)) fail(file, `${at}: uri ${uri} has a scheme other than file`);
      if (/(^|\/)\.\.?(\/|$)/.test(uri.replace(/^\.\.\/(\.\.\/)*/, ''))) fail(file, `${at}: uri ${uri} is not normalised`);
      // SARIF 3.11.6: "[text](target)" is an embedded link; literal brackets are escaped.
      const text = res.message.text.replace(/\\\\/g, '');
      if (/(^|[^\\])[\[\]]/.test(text)) fail(file, `${at}: message.text has an unescaped bracket: ${res.message.text}`);
    }
  }
  console.log(`sarif: ${file}: schema valid, ${results} results: regions, URIs, security-severity, escaped messages checked`);
}
if (failed) { console.log(`sarif: ${failed} failures`); process.exit(1); }
