import type { InspectionEvent } from 'xstate';
import type { SessionResponse, WebAppConfig } from '../../../contracts/index.ts';
import type { AccountService } from '../../services/accounts.ts';
import type { Api } from '../../services/api.ts';
import type { ChatService } from '../../services/chat.ts';
import type { MarketService } from '../../services/market.ts';
import type { ModerationService } from '../../services/moderation.ts';
import type { NotificationService } from '../../services/notifications.ts';
import type { RealtimeService } from '../../services/realtime.ts';
import type { TraderService } from '../../services/traders.ts';
import type { TradeService } from '../../services/trades.ts';
import type { WalletService } from '../../services/wallets.ts';
import type { AppPath } from './appPath.ts';
import type { Notice } from './notify.ts';

/** What the composition root hands every flow's `.actors.ts` to bind its named actors and actions. */
export type FlowDeps = {
  accounts: AccountService;
  market: MarketService;
  trades: TradeService;
  chat: ChatService;
  /** Trader profiles (/traders/$username). */
  traders: TraderService;
  wallets: WalletService;
  notifications: NotificationService;
  /** The dispute desk's calls (/moderation; moderators only). */
  moderation: ModerationService;
  /**
   * The HTTP client itself, for a service a page brings in its own chunk (the account protections of
   * /settings/security): naming it here would put its loader in the first page's download, which has no room
   * left (bench/bundle-size.ts).
   */
  api: Api;
  /** GET /api/config as read at boot (null when it could not be read); the flow atlas asks who may open it. */
  appConfig: Promise<WebAppConfig | null>;
  /** Live mode of the flow atlas (development): every flow's actor reports its states here (services/flowLive.ts). */
  inspect?: (event: InspectionEvent) => void;
  /** The tab's pusher-js connection; charts invoke subscriptions on it as `fromCallback` actors. */
  realtime: RealtimeService;
  /** Who is signed in (the chat tells own messages from the partner's). */
  currentUsername: () => string | null;
  /** Hands a new session to the session actor. */
  signIn: (session: SessionResponse) => void;
  notify: (notice: Notice) => void;
  /** Leaves for a route, replacing the history entry; /chat may open on one conversation (`?channel=`). */
  navigate: (to: '/' | '/login' | '/offers' | '/chat' | '/wallets/transactions', search?: { channel: string }) => void;
  /** Goes to a page a notification points to (checked by `appPathOf`), as a new history entry. */
  visit: (path: AppPath) => void;
  /** Puts text on the clipboard (the deposit address); rejects when the browser refuses. */
  copyText: (text: string) => Promise<void>;
};
