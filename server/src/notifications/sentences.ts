/** The sentences of the bell (spread into `sentences`, server/src/sentences.ts). */
export const notificationSentences = {
  noSuchNotification: 'No such notification',
};
