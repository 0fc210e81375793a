import { auditFilters, auditPage, auditRequest, feeExportQuery } from '../../../contracts/operator.ts';
import { AUDIT_CSV_HEADER, boundOf } from '../audit/audit-log.ts';
import { defineCall, envelope } from '../infra/http/call.ts';
import { sendCsv } from '../infra/http/csv.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { FEES_CSV_HEADER } from './overview.ts';

/**
 * The audit log and the exports of the operator console (docs/api.md "Operator: audit log and exports"), operators
 * only, refused to anyone else before anything is read (`access: 'operator'`). Every call here only reads: the
 * audit log is append-only (migration 031).
 */

const CSV_NOTE =
  '`text/csv; charset=utf-8` as an attachment (`Content-Disposition`), RFC 4180 (CRLF, quoted cells), streamed; a cell a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `\'`.';

const CSV_ANSWER = { kind: 'text', contentType: 'text/csv', what: 'The CSV file.' } as const;

/** The day of the file's name (UTC). */
const today = (now: Date) => now.toISOString().slice(0, 10);

export const auditListCall = defineCall({
  method: 'post',
  path: '/api/operator/audit/',
  tag: 'Operator console',
  summary: 'Audit log',
  description:
    'Operators only (403 before the body is read). `list` → `{entries, paginator}`: 50 entries a page, newest first, filtered by `actor` and `target` (exact usernames or references), `action` and the days `since` and `until` (UTC, inclusive). A date that does not exist is refused (400).',
  access: 'operator',
  request: auditRequest,
  answer: envelope(auditPage),
  handle: async ({ app, body }) => ok(auditPage, await app.auditLog.page(body.filters, body.page)),
});

export const auditCsvCall = defineCall({
  method: 'get',
  path: '/api/operator/audit.csv',
  tag: 'Operator console',
  summary: 'Audit log as CSV',
  description: `Operators only. The audit log, newest first, with the list's filters as query parameters; columns ${AUDIT_CSV_HEADER.join(', ')} (before and after as JSON). ${CSV_NOTE}`,
  access: 'operator',
  query: {
    actor: { description: 'Who acted: a username, exactly.' },
    action: { description: 'What was done: one of the audit actions.' },
    target: { description: 'Who or what was acted on, exactly.' },
    since: { description: 'From this day (UTC, YYYY-MM-DD), inclusive.' },
    until: { description: 'Up to this day (UTC, YYYY-MM-DD), inclusive.' },
  },
  answer: CSV_ANSWER,
  handle: async ({ app, request, reply }) => {
    const filters = parseBody(auditFilters, request.query);
    return sendCsv(reply, `peerex-audit-${today(app.now())}.csv`, AUDIT_CSV_HEADER, app.auditLog.records(filters));
  },
});

export const feesCsvCall = defineCall({
  method: 'get',
  path: '/api/operator/fees.csv',
  tag: 'Operator console',
  summary: 'Fee income as CSV',
  description: `Operators only. One row per fee the ledger took (a posting into the platform's fee account), oldest first, within the days \`since\` and \`until\` (UTC, inclusive; both optional); columns ${FEES_CSV_HEADER.join(', ')}: when, the coin, the amount to the coin's places, the ledger entry and the trade's channel. ${CSV_NOTE}`,
  access: 'operator',
  query: {
    since: { description: 'From this day (UTC, YYYY-MM-DD), inclusive.' },
    until: { description: 'Up to this day (UTC, YYYY-MM-DD), inclusive.' },
  },
  answer: CSV_ANSWER,
  handle: async ({ app, request, reply }) => {
    const query = parseBody(feeExportQuery, request.query);
    const from = boundOf('since', query.since, false);
    const to = boundOf('until', query.until, true);
    return sendCsv(reply, `peerex-fees-${today(app.now())}.csv`, FEES_CSV_HEADER, app.operatorOverview.feeRecords({ ...(from ? { from } : {}), ...(to ? { to } : {}) }));
  },
});
