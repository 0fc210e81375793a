import type { ActorRefFrom } from 'xstate';
import type { auditLogMachine } from '../../machines/auditLog/auditLog.machine.ts';
import type { operatorOverviewMachine } from '../../machines/operatorOverview/operatorOverview.machine.ts';
import type { reviewQueueMachine } from '../../machines/reviewQueue/reviewQueue.machine.ts';
import type { traderDossierMachine } from '../../machines/traderDossier/traderDossier.machine.ts';
import type { traderSearchMachine } from '../../machines/traderSearch/traderSearch.machine.ts';

/** The console's running charts, as the routes hand them to the screens. */
export type OverviewRef = ActorRefFrom<typeof operatorOverviewMachine>;
export type TraderSearchRef = ActorRefFrom<typeof traderSearchMachine>;
export type DossierRef = ActorRefFrom<typeof traderDossierMachine>;
export type ReviewQueueRef = ActorRefFrom<typeof reviewQueueMachine>;
export type AuditLogRef = ActorRefFrom<typeof auditLogMachine>;
