// ECS check: every field of every event line (the documented examples in
// docs/events.md, the golden examples, and the events a real service run
// wrote) against the official ECS 8.11 field reference, ecs_flat from the
// npm package @elastic/ecs@8.11.x. A field outside the product namespace
// (descriptorpin.*) must be an ECS field; its value must fit the field's
// type (keyword, date, long, text, ...) and normalize (array); a field
// with allowed values (event.kind, event.category, event.type,
// event.outcome) must use one, and each event.type must be one ECS
// expects for the event's category. Usage: node ecs.js FILE...
'use strict';
const fs = require('fs');
const { EcsFlat } = require('@elastic/ecs/generated/ecs_flat.js');
const ecsVersion = require('@elastic/ecs/package.json').version;
console.log(`ecs: @elastic/ecs ${ecsVersion} (${Object.keys(EcsFlat).length} fields)`);
let failed = 0, lines = 0, fields = new Set();
const fail = (where, msg) => { failed++; console.log(`ecs: FAIL ${where}: ${msg}`); };
function leaves(obj, prefix, out) {
  for (const [k, v] of Object.entries(obj)) {
    const name = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) leaves(v, name, out); else out.push([name, v]);
  }
  return out;
}
const typeOK = {
  keyword: (v) => typeof v === 'string', constant_keyword: (v) => typeof v === 'string', wildcard: (v) => typeof v === 'string',
  text: (v) => typeof v === 'string', match_only_text: (v) => typeof v === 'string',
  date: (v) => typeof v === 'string' && !isNaN(Date.parse(v)) && /Z$|[+-]\d\d:\d\d$/.test(v),
  long: (v) => Number.isInteger(v), integer: (v) => Number.isInteger(v), float: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean', ip: (v) => typeof v === 'string',
};
function check(where, ev) {
  lines++;
  if (!ev['@timestamp'] || !ev.ecs || !ev.ecs.version) fail(where, 'missing @timestamp or ecs.version');
  else if (!ev.ecs.version.startsWith(ecsVersion.split('.').slice(0, 2).join('.') + '.')) fail(where, `ecs.version ${ev.ecs.version} is not ${ecsVersion}'s minor`);
  for (const [name, value] of leaves(ev, '', [])) {
    if (name === 'descriptorpin' || name.startsWith('descriptorpin.')) continue; // the product namespace
    const def = EcsFlat[name];
    if (!def) { fail(where, `${name} is not an ECS 8.11 field`); continue; }
    fields.add(name);
    const isArray = (def.normalize || []).includes('array');
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && !isArray) fail(where, `${name} is an array but ECS does not normalize it to one`);
    if (!Array.isArray(value) && isArray) fail(where, `${name} should be an array (ECS normalize: array)`);
    const ok = typeOK[def.type];
    if (!ok) fail(where, `${name}: ECS type ${def.type} is not one this check knows`);
    for (const v of values) if (ok && !ok(v)) fail(where, `${name} = ${JSON.stringify(v)} does not fit ECS type ${def.type}`);
    if (def.allowed_values) {
      const allowed = def.allowed_values.map((a) => a.name);
      for (const v of values) if (!allowed.includes(v)) fail(where, `${name} = ${v} is not an allowed value (${allowed.join(', ')})`);
    }
  }
  const cats = (ev.event && ev.event.category) || [];
  const types = (ev.event && ev.event.type) || [];
  for (const c of cats) {
    const def = EcsFlat['event.category'].allowed_values.find((a) => a.name === c);
    if (!def) continue;
    for (const t of types) if (!(def.expected_event_types || []).includes(t)) fail(where, `event.type ${t} is not expected for event.category ${c} (${def.expected_event_types})`);
  }
  if (ev.file && ev.file.type === undefined && ev.event && /^watch-/.test(ev.event.action)) fail(where, 'a watch event names a directory in file.path without file.type: dir');
}
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, 'utf8');
  let n = 0;
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.startsWith('{"@timestamp"')) continue; // markdown: only the example event lines
    n++;
    let ev;
    try { ev = JSON.parse(line); } catch (e) { fail(`${file}:${i + 1}`, `not JSON: ${e.message}`); continue; }
    check(`${file}:${i + 1} (${ev.event && ev.event.action})`, ev);
  }
  if (n === 0) fail(file, 'no event lines');
  console.log(`ecs: ${file}: ${n} events checked`);
}
console.log(`ecs: ${lines} events, ${fields.size} ECS fields used: ${[...fields].sort().join(' ')}`);
if (failed) { console.log(`ecs: ${failed} failures`); process.exit(1); }
