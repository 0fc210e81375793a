import type { ActorRefFrom } from 'xstate';
import type { moderationDeskMachine } from '../../machines/moderationDesk/moderationDesk.machine.ts';

/** The desk's running chart, as the route hands it to the screen. */
export type DeskRef = ActorRefFrom<typeof moderationDeskMachine>;
