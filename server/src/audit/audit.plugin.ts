import { shared } from '../infra/shared.ts';
import { auditLogService, type AuditLogService } from './audit-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    auditLog: AuditLogService;
  }
}

/** Tier 3: reading the audit log (writing it is each action's own transaction: audit.repository.ts `record`). */
export const auditLogPlugin = shared('peerex-audit-log', async (app) => {
  app.decorate('auditLog', auditLogService({ db: app.db }));
});
