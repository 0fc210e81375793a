import { notFound, sentencesOf } from '../refusals.ts';

/** The bell's refusals, each with its stable code (gathered into `REFUSALS`, server/src/sentences.ts). */
export const notificationRefusals = {
  noSuchNotification: notFound('notification.not_found', 'No such notification'),
} as const;

/** The sentences of the bell (spread into `sentences`, server/src/sentences.ts). */
export const notificationSentences = {
  ...sentencesOf(notificationRefusals),
};
