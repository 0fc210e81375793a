export * from './messages.ts';
export * from './common.ts';
export * from './security.ts';
export * from './user.ts';
export * from './market.ts';
export * from './system.ts';
export * from './trade.ts';
export * from './chat.ts';
export * from './wallet.ts';
export * from './notifications.ts';
// Not re-exported: contracts/moderation.ts and contracts/traders.ts. Only pages loaded later use them (the dispute desk,
// trader profiles), and whatever this file re-exports lands in the first page's download (bench/bundle-size.ts).
