import { createFileRoute } from '@tanstack/react-router';
import { bindAuditLog } from '../../../machines/auditLog/auditLog.actors.ts';
import { AuditLogScreen } from '../../../ui/operator/AuditLogScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/operator/audit')({ component: AuditLogRoute });

function AuditLogRoute() {
  return <AuditLogScreen actor={useFlowActor(bindAuditLog)} />;
}
