// A loopback webhook receiver for .ci/validators: it verifies every
// delivery the running service makes with the official Standard Webhooks
// library (and checks that a tampered body or a wrong secret is rejected),
// and parses each Teams card with the adaptivecards library (parse errors
// and validateProperties failures count). Usage:
//   node receiver.js PORTFILE RESULTFILE      (env WEBHOOK_SECRET=whsec_...)
// It writes the port it listens on to PORTFILE and, after each delivery,
// a JSON summary to RESULTFILE.
'use strict';
const fs = require('fs');
const http = require('http');
const { Webhook } = require('standardwebhooks');
// The UMD bundle: the package's lib/ entry is ES modules that Node cannot load as they are.
const AC = require('adaptivecards/dist/adaptivecards.js');
const [portFile, resultFile] = process.argv.slice(2);
const secret = process.env.WEBHOOK_SECRET;
const wh = new Webhook(secret);
const other = new Webhook('whsec_' + Buffer.alloc(32, 7).toString('base64'));
const out = { versions: { standardwebhooks: require('standardwebhooks/package.json').version, adaptivecards: require('adaptivecards/package.json').version },
  verified: 0, rejected: 0, failures: [], teams_cards: 0, by_path: {} };

function rejects(w, body, headers) {
  try { w.verify(body, headers); return false; } catch (e) { return true; }
}

function checkCard(content) {
  const card = new AC.AdaptiveCard();
  const ctx = new AC.SerializationContext();
  card.parse(content, ctx);
  const problems = [];
  for (let i = 0; i < ctx.eventCount; i++) { const e = ctx.getEventAt(i); problems.push(`parse: ${e.message}`); }
  for (const e of card.validateProperties().validationEvents) problems.push(`validate: ${e.message}`);
  if (card.getItemCount() === 0) problems.push('the card has no body elements');
  return problems;
}

http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = { 'webhook-id': req.headers['webhook-id'], 'webhook-timestamp': req.headers['webhook-timestamp'], 'webhook-signature': req.headers['webhook-signature'] };
    out.by_path[req.url] = (out.by_path[req.url] || 0) + 1;
    try {
      wh.verify(body, headers);
      out.verified++;
      const tampered = body.slice(0, -1) + (body.endsWith('}') ? ' ' : '}');
      if (rejects(wh, tampered, headers) && rejects(other, body, headers)) out.rejected++;
      else out.failures.push(`${req.url} ${headers['webhook-id']}: a tampered body or another secret verified`);
    } catch (e) {
      out.failures.push(`${req.url} ${headers['webhook-id']}: signature does not verify: ${e.message}`);
    }
    if (req.url === '/teams') {
      try {
        const msg = JSON.parse(body);
        for (const a of msg.attachments || []) {
          if (a.contentType !== 'application/vnd.microsoft.card.adaptive') { out.failures.push(`/teams: attachment contentType ${a.contentType}`); continue; }
          const problems = checkCard(a.content);
          out.teams_cards++;
          for (const p of problems) out.failures.push(`/teams ${headers['webhook-id']}: ${p}`);
        }
      } catch (e) { out.failures.push(`/teams: ${e.message}`); }
    }
    fs.writeFileSync(resultFile + '.tmp', JSON.stringify(out, null, 1));
    fs.renameSync(resultFile + '.tmp', resultFile);
    res.writeHead(204); res.end();
  });
}).listen(0, '127.0.0.1', function () {
  fs.writeFileSync(portFile, String(this.address().port));
});
