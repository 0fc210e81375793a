/** The spec's texts (section 2, "Notifications dropdown"). */
export const notificationTexts = {
  title: 'Notifications',
  markAllRead: 'Mark all read',
  empty: 'No notifications yet',
} as const;
