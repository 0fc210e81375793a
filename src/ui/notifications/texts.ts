/** The notifications dropdown's texts, shown word for word. */
export const notificationTexts = {
  title: 'Notifications',
  markAllRead: 'Mark all read',
  empty: 'No notifications yet',
} as const;
