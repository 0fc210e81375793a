export * from './messages.ts';
export * from './common.ts';
export * from './security.ts';
export * from './user.ts';
export * from './market.ts';
export * from './system.ts';
export * from './trade.ts';
export * from './chat.ts';
