import { z } from 'zod/mini';
import { envelope, info, json, named, type CallDocumentation, type Parameter } from '../infra/http/call.ts';
import { allowlistRequest, allowlistStatus, antiPhishingRequest, antiPhishingStatus, sessionsRequest, signInHistory, signOutOthersResponse } from '../../../contracts/account-protections.ts';
import { chatMessage, chatMessages, chatRequest, realtimeAuthRequest, realtimeAuthResponse, typingResponse, webAppConfig } from '../../../contracts/chat.ts';
import { emptyBody } from '../../../contracts/common.ts';
import { coinsResponse, editableOffer, offerComponents, offerList, offersRequest, offerToggleResponse } from '../../../contracts/market.ts';
import { disputeDetail, disputeList, moderationRequest } from '../../../contracts/moderation.ts';
import { beamsTokenResponse, notificationList, notificationsRequest, unreadCount } from '../../../contracts/notifications.ts';
import {
  confirmationRequest,
  confirmationStatus,
  loginRequest,
  loginResponse,
  logoutRequest,
  messageResponse,
  recoveryCodesResponse,
  registerRequest,
  resetPasswordRequest,
  sessionResponse,
  twoFactorLoginRequest,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
  validateEmailRequest,
} from '../../../contracts/security.ts';
import { devOutboxResponse, healthResponse, readyResponse } from '../../../contracts/system.ts';
import { conversations, conversationsRequest, TRADE_CHANNEL_HEADER, tradeHistory, tradePreview, tradeRequest } from '../../../contracts/trade.ts';
import { traderProfile, tradersRequest, traderStanding } from '../../../contracts/traders.ts';
import { overview } from '../../../contracts/user.ts';
import { devChainDeposit, devChainMine, devChainRequest, walletAddresses, walletHistory, walletList, walletRequest, withdrawalPreview } from '../../../contracts/wallet.ts';

/**
 * Every call the server registers, as an integrator needs to know it:
 * one entry per method and path, with the contract's own zod schemas. server/src/openapi/document.ts turns this
 * into the OpenAPI document served at GET /api/openapi.json; tests/server/openapi.test.ts checks it against the
 * routes the app registers, so a call added to the server without an entry here fails the suite.
 * The wording of the descriptions is docs/api.md's.
 */

// ---- Named schemas used by several calls ---------------------------------------------------------------------

const message = named('Message', messageResponse);
const session = named('Session', sessionResponse);
const empty = named('EmptyBody', emptyBody);
const chatMessageSchema = named('ChatMessage', chatMessage);
const healthInfo = named('Health', healthResponse);

export const CATALOGUE: readonly CallDocumentation[] = [
  // ---- System ----------------------------------------------------------------------------------------------

  // ---- Security ----------------------------------------------------------------------------------------------

  // ---- User ------------------------------------------------------------------------------------------------

  // ---- Market ----------------------------------------------------------------------------------------------

  // ---- Chat ------------------------------------------------------------------------------------------------

  // ---- Realtime and push ----------------------------------------------------------------------------------

  // ---- Development helpers --------------------------------------------------------------------------------


];
