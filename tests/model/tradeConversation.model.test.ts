import { SimulatedClock, assign, createActor, type AnyMachineSnapshot } from 'xstate';
import type { ChatMessage, ConfirmationProof, Conversation, TradeAction, TradeFacts, TradeSummary } from '../../contracts/index.ts';
import { tradeConversationLogic } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import {
  selectActionButtons,
  selectCanConfirmRelease,
  selectCanSend,
  selectCanWrite,
  selectConversation,
  selectDialog,
  selectDraft,
  selectIsLoadingMessages,
  selectIsSending,
  selectMessages,
  selectMyRating,
  selectPaidFrom,
  selectPayerAccountError,
  selectPayerLine,
  selectPaymentWindow,
  selectReasonError,
  selectReleaseProblem,
  selectReleaseProof,
  selectReview,
  selectRole,
  selectShowsPayerField,
  selectTradeSummary,
  selectTypingLine,
} from '../../src/machines/tradeChat/tradeChat.selectors.ts';
import type { TradeConversationInput } from '../../src/machines/tradeChat/tradeConversation.machine.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { ApiError } from '../../src/services/api.ts';
import { chatMessage, facts, me, summaryOf, systemMessage, withBob, withCarol } from '../support/chat.ts';
import {
  Coverage,
  afterEvent,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';
import { CHAT_BUTTON_LABELS, acceptedByTheRules, chatActionsByTheRules, laterByTheRules, roleAgainst } from '../support/tradeRules.ts';

/**
 * One trade's conversation on its own, every invoked actor scripted (the trade channel's subscription too,
 * so the walk can fail it). Only for the walk, its report to the chat screen does nothing: `sendParent`
 * refuses to resolve without a parent. The replay records the reports instead.
 */
const srcs = ['tradeChannel', 'loadMessages', 'loadSummary', 'sendMessage', 'sendTyping', 'performAction', 'releaseProof', 'releaseCoin', 'tradeRating'] as const;
/**
 * The chart's clock, fixed, so the walk and its replay count the same minutes and seconds (the machine tests run
 * the real one): it reads NOW from the start, the payment window's clock starting with the trade.
 */
const NOW = '2026-03-05T15:00:00.000Z';
const DISPUTED_AT = '2026-03-05T14:46:00.000Z';
// `as never`: assign's context type is inferred without the chart's; the binding's tick has the same shape.
const fixedClock = { tick: assign({ now: NOW }) as never };
/** The trade's terms, its payment window ending 14 min 32 s after NOW; and the same with the window run out. */
const SUMMARY = summaryOf(withBob, '2026-03-05T15:14:32.000Z');
const RUN_OUT = summaryOf(withBob, '2026-03-05T14:59:59.600Z');
const walked = tradeConversationLogic.provide({ actions: { reportConversation: () => {}, reportShown: () => {}, ...fixedClock } });

const coolDown = afterEvent('typingThrottle', 'tradeConversation.typingNotice.cooling');
const secondTick = afterEvent('waitingTick', 'tradeConversation.trade.pending.awaitingPayment.ticking');
const typingOver = afterEvent('typingVisible', 'tradeConversation.partnerTyping.visible');
const reviewTick = afterEvent('reviewTick', 'tradeConversation.trade.pending.disputed');
const PAYER = 'J. Smith, Revolut';
const PAYER_TOO_LONG = 'x'.repeat(121);
const RATED = { score: 4, comment: 'Smooth trade' };

type Ctx = {
  conversation: Conversation;
  messages: ChatMessage[];
  draft: string;
  reason: string;
  payerAccount: string;
  releaseProof: ConfirmationProof | null;
  proof: string;
  acting: TradeAction | null;
};
/** What the server answers a release with a missing or wrong proof (403), and with the seller under the security hold (409). */
const WRONG_PROOF = 'Please confirm the release with your password.';
const HELD = 'Selling is paused for 24 hours after a security change.';
/** What the seller types in the release dialog, in turn: nothing, then too little, then a proof the chat would send. */
const proofTyped: Record<ConfirmationProof, string[]> = { password: ['', 'correct-horse-9'], code: ['', '12', '123456'] };
const has = (context: Ctx, id: number) => context.messages.some((message) => message.id === id);
const matchesAny = (snapshot: AnyMachineSnapshot, values: object[]) => values.some((value) => snapshot.matches(value as never));

const loaded = chatMessage(1, { sender: 'bob', recipient: me, text: 'Hi ada' });
const toMe = chatMessage(2, { sender: 'bob', recipient: me, text: 'Sent the coin to escrow' });
const notMine = chatMessage(3, { sender: 'bob', recipient: 'carol', text: 'for someone else' });
const stored = chatMessage(20, { sender: me, recipient: 'bob', text: 'hi' });
const fromTypist = chatMessage(21, { sender: 'bob', recipient: me, text: 'done typing' });

/** The messages: the first load, a reload on each acceptance, what the channel delivers (mine or not). */
function messageEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  const first = snapshot.matches({ messages: 'loading' }) && context.messages.length === 0;
  if (first && snapshot.children.tradeChannel) list.push({ type: 'xstate.error.actor.tradeChannel', error: new Error('refused') });
  if (snapshot.matches({ messages: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadMessages', output: [loaded] },
      { type: 'xstate.error.actor.loadMessages', error: new Error('Internet server error') },
    );
  } else list.push({ type: 'realtime.subscribed' });
  if (!has(context, toMe.id)) list.push({ type: 'realtime.message.received', message: toMe });
  list.push({ type: 'realtime.message.received', message: notMine });
  return list;
}

/** The input and the typing notices: blank, whitespace and a word typed, sent, stored or refused. */
function composerEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = ['', '  ', 'hi'].map((value) => ({ type: 'message.change', value }));
  list.push({ type: 'message.send' });
  if (snapshot.matches({ composer: 'sending' })) {
    list.push(
      { type: 'xstate.done.actor.sendMessage', output: stored },
      { type: 'xstate.error.actor.sendMessage', error: new Error('This trade is no longer pending.') },
    );
  }
  if (snapshot.matches({ typingNotice: 'cooling' })) {
    list.push(coolDown);
    if (snapshot.children.sendTyping) list.push({ type: 'xstate.error.actor.sendTyping', error: new Error('dropped') });
  }
  return list;
}

/** The header's summary: the terms loaded (the window open or run out) or not, asked again once live, the clock ticking. */
function summaryEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { conversation } = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  if (snapshot.matches({ summary: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadSummary', output: SUMMARY },
      { type: 'xstate.done.actor.loadSummary', output: RUN_OUT },
      { type: 'xstate.error.actor.loadSummary', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ summary: 'missing' })) list.push({ type: 'realtime.subscribed' });
  if (snapshot.matches({ trade: { pending: 'awaitingPayment' } })) {
    list.push(secondTick, { type: 'realtime.trade.changed', facts: facts.paid, message: tradeNotice.paid! });
  }
  if (!conversation.payer_account) {
    list.push({ type: 'conversation.updated', conversation: { ...conversation, ...facts.paid, payer_account: 'J. Smith, Revolut' } });
  }
  return list;
}

/** The partner's typing line: their notices and this trader's own, the line running out, their message arriving. */
function typingEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [
    { type: 'realtime.typing.received', username: 'bob' },
    { type: 'realtime.typing.received', username: me },
  ];
  if (snapshot.matches({ partnerTyping: 'visible' })) list.push(typingOver);
  if (!has(context, fromTypist.id)) list.push({ type: 'realtime.message.received', message: fromTypist });
  return list;
}

const tradeNotice: Record<string, ChatMessage> = {
  paid: systemMessage(31, 'bob marked the payment as sent.'),
  disputed: systemMessage(32, 'carol raised a dispute.'),
  completed: systemMessage(33, 'carol released the coin. Trade completed.'),
  cancelled: systemMessage(34, 'The payment window ran out, so the trade was cancelled.'),
};
/** The actions with a field or a dialog of their own; every other button of the oracle's is one click. */
const WITH_A_STEP: readonly TradeAction[] = ['mark_paid', 'release_coin', 'raise_dispute'];
const ONE_CLICK = (Object.keys(CHAT_BUTTON_LABELS) as TradeAction[]).filter((action) => !WITH_A_STEP.includes(action));
const oneClickEach = <T,>(value: T) => Object.fromEntries(ONE_CLICK.map((action) => [action, value]));
/** The actor that makes each action's call, and the state it runs in. */
const performers = { ...oneClickEach('oneClickAction'), mark_paid: 'markPaid', release_coin: 'releaseCoin', raise_dispute: 'raiseDispute' } as Record<TradeAction, string>;
const busyStates = {
  ...oneClickEach({ actions: 'acting' }),
  mark_paid: { actions: 'markingPaid' },
  release_coin: { actions: { releasing: 'submitting' } },
  raise_dispute: { actions: { disputing: 'submitting' } },
} as Record<TradeAction, object>;

/**
 * The trade and its actions: what the server reports on the channel (paid, disputed, completed, cancelled;
 * or a reload that jumps straight to disputed), every button and dialog event in every state (the chart
 * refuses what the trade does not allow), and each action answered or refused.
 */
function tradeEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { conversation, reason } = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  if (snapshot.matches({ trade: 'pending' })) {
    const reports = conversation.buyer_paid ? ['disputed', 'completed'] : ['paid', 'cancelled'];
    for (const name of reports) {
      list.push({ type: 'realtime.trade.changed', facts: facts[name as keyof typeof facts], message: tradeNotice[name]! });
    }
    if (!conversation.buyer_paid) {
      list.push({ type: 'conversation.updated', conversation: { ...conversation, ...facts.disputed, disputed_at: DISPUTED_AT } });
    }
  }
  if (snapshot.matches({ trade: { pending: 'disputed' } })) list.push(reviewTick);
  if (snapshot.matches({ trade: { pending: 'awaitingPayment' } })) list.push(secondTick);
  if (snapshot.matches({ trade: { completed: 'rating' } })) {
    list.push(
      { type: 'xstate.done.actor.rating', output: RATED },
      { type: 'conversation.updated', conversation: { ...conversation, my_rating: { score: 5, comment: '' } } },
    );
  }
  if (snapshot.matches({ trade: 'pending' }) && !conversation.buyer_paid && conversation.partner_type === 'seller') {
    const { payerAccount } = snapshot.context as Ctx;
    const next = payerAccount === '' ? PAYER : payerAccount === PAYER ? PAYER_TOO_LONG : '';
    list.push({ type: 'payer.change', value: next });
  }
  if (snapshot.matches({ actions: 'idle' })) {
    list.push(...ONE_CLICK.map((action) => ({ type: 'trade.act', action })), { type: 'trade.markPaid' }, { type: 'trade.release' }, { type: 'trade.dispute' });
  }
  if (snapshot.matches({ actions: { releasing: 'checking' } })) {
    list.push(
      ...(['password', 'code', null] as const).map((output) => ({ type: 'xstate.done.actor.releaseProof', output })),
      { type: 'xstate.error.actor.releaseProof', error: new ApiError('An unknown error occurred', 0) },
      { type: 'dialog.dismiss' },
    );
  }
  if (snapshot.matches({ actions: { releasing: 'confirming' } })) {
    const { releaseProof, proof } = snapshot.context as Ctx;
    if (releaseProof !== null) {
      const typed = proofTyped[releaseProof];
      list.push({ type: 'proof.change', value: typed[(typed.indexOf(proof) + 1) % typed.length]! });
    }
    list.push({ type: 'release.confirm' }, { type: 'dialog.dismiss' });
  }
  if (snapshot.matches({ actions: { releasing: 'submitting' } })) {
    list.push(
      { type: 'xstate.error.actor.releaseCoin', error: new ApiError(WRONG_PROOF, 403) },
      { type: 'xstate.error.actor.releaseCoin', error: new ApiError(HELD, 409) },
    );
  }
  if (snapshot.matches({ actions: 'disputing' })) {
    list.push(
      { type: 'dispute.submit' },
      { type: 'dialog.dismiss' },
      { type: 'dispute.reason.change', value: reason === '' ? 'No coin' : '' },
    );
  }
  for (const [action, id] of Object.entries(performers) as [TradeAction, string][]) {
    if (!snapshot.matches(busyStates[action] as never)) continue;
    if (ONE_CLICK.includes(action) && (snapshot.context as Ctx).acting !== action) continue;
    list.push({ type: `xstate.done.actor.${id}`, output: `${action} accepted.` });
    // A release's refusals are its own (above): they show in its dialog.
    if (action !== 'release_coin') {
      list.push({ type: `xstate.error.actor.${id}`, error: new Error('This trade has just changed. Please reload it and try again.') });
    }
  }
  return list;
}

const scenarios = [
  { name: 'messages', events: messageEvents, input: { conversation: withBob, username: me } },
  { name: 'composer', events: composerEvents, input: { conversation: withBob, username: me } },
  { name: 'partner typing', events: typingEvents, input: { conversation: withBob, username: me } },
  { name: 'the summary', events: summaryEvents, input: { conversation: withBob, username: me } },
  { name: 'trade as the buyer', events: tradeEvents, input: { conversation: withBob, username: me } },
  { name: 'trade as the seller', events: tradeEvents, input: { conversation: withCarol, username: me } },
  { name: 'a completed trade to rate', events: tradeEvents, input: { conversation: { ...withCarol, ...facts.completed }, username: me } },
  {
    name: 'a completed trade already rated',
    events: tradeEvents,
    input: { conversation: { ...withBob, ...facts.completed, my_rating: { score: 2, comment: 'Slow' } }, username: me },
  },
] satisfies { name: string; events: (snapshot: AnyMachineSnapshot) => ModelEvent[]; input: TradeConversationInput }[];

const models = scenarios.map((scenario) => ({ ...scenario, model: walk(walked, { events: scenario.events, input: scenario.input }) }));

// ---- The oracle: tests/support/tradeRules.ts (docs/rules.md "Trades", "Chat actions") and the spec's Chat ----

/** The buttons by role and trade state, in the screen's order; `partner_type` is the partner's role. */
const expectedButtons = (partnerType: 'buyer' | 'seller', state: TradeFacts): string[] =>
  chatActionsByTheRules(state, partnerType === 'seller' ? 'buyer' : 'seller').map((action) => CHAT_BUTTON_LABELS[action]);
const allowed = (partnerType: 'buyer' | 'seller', state: TradeFacts, label: string) => expectedButtons(partnerType, state).includes(label);
/** What a conversation gains over a trade's life is set once: a report without it keeps the one known. */
const withAdditions = (known: Conversation, heard: Conversation): Conversation => ({
  ...heard,
  payer_account: heard.payer_account ?? known.payer_account,
  disputed_at: heard.disputed_at ?? known.disputed_at,
  resolution: heard.resolution ?? known.resolution,
  my_rating: heard.my_rating ?? known.my_rating,
});
const factsOf = (conversation: Conversation): TradeFacts => ({
  status: conversation.status,
  buyer_paid: conversation.buyer_paid,
  dispute_raised: conversation.dispute_raised,
});

async function run(path: ModelPath, input: TradeConversationInput, coverage?: Coverage) {
  const fakes = scriptedActors(srcs);
  const clock = new SimulatedClock();
  const notices: Notice[] = [];
  const reports: Conversation[] = [];
  const actor = createActor(
    tradeConversationLogic.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        reportConversation: ({ context }) => void reports.push(context.conversation),
        // What the list makes of it is the list's test (tests/machines/tradeChatList.test.ts).
        reportShown: () => {},
        ...fixedClock,
      },
    }),
    { input, clock, inspect: coverage?.inspect },
  ).start();

  const channel = input.conversation.channel;
  const partnerType = input.conversation.partner_type;
  let conversation = input.conversation;
  let messages: ChatMessage[] = [];
  let loading = true;
  let draft = '';
  let sending = false;
  let cooling = false;
  /** Typed on since the last typing notice went out: the next goes out when the pause is over. */
  let typedOn = false;
  let summary: TradeSummary | null = null;
  let summaryFailed = false;
  let typist: string | null = null;
  type Actions = 'idle' | 'acting' | 'markingPaid' | 'checkingRelease' | 'confirming' | 'releasing' | 'disputing' | 'submittingDispute';
  let actions: Actions = 'idle';
  /** The one-click action on its way. */
  let acting: TradeAction | null = null;
  // The release dialog (docs/rules.md "Trades"): what the server asked for, what was typed, the last refusal.
  let asked: ConfirmationProof | null = null;
  let proof = '';
  let problem: string | null = null;
  const forgetRelease = () => {
    asked = null;
    proof = '';
    problem = null;
  };
  /** A password typed, six digits (spaces aside), or nothing asked. */
  const ready = () => (asked === null ? true : asked === 'password' ? proof !== '' : /^\d{6}$/.test(proof.replace(/\s/g, '')));
  const askWhatReleaseNeeds = () => {
    actions = 'checkingRelease';
    expectedCalls.push({ id: 'releaseProof', input: undefined });
  };
  let reason = '';
  let payerAccount = '';
  const expectedCalls: ActorCall[] = [
    { id: 'tradeChannel', input: { channel } },
    { id: 'loadMessages', input: { channel } },
    { id: 'loadSummary', input: { channel } },
    ...(conversation.status === 'completed' && conversation.my_rating === null
      ? [{ id: 'rating', input: { channel, partner: conversation.partner } }]
      : []),
  ];
  const expectedNotices: Notice[] = [];
  const expectedReports: Conversation[] = [];

  /** For everyone, or this trader sends or receives it; each id once, oldest first. */
  const show = (message: ChatMessage) => {
    if (message.recipient !== 'all' && message.recipient !== me && message.sender !== me) return false;
    messages = [...messages.filter((item) => item.id !== message.id), message].sort((a, b) => a.id - b.id);
    conversation = { ...conversation, last_message: message.text };
    return true;
  };
  /** A completed trade not yet rated opens the rating form; a dispute starts the clock of "Under review". */
  const entered = (before: TradeFacts) => {
    const state = factsOf(conversation);
    if (before.status === 'pending' && state.status === 'completed' && conversation.my_rating === null) {
      expectedCalls.push({ id: 'rating', input: { channel, partner: conversation.partner } });
    }
  };
  const setFacts = (next: TradeFacts) => {
    const before = factsOf(conversation);
    conversation = { ...conversation, ...laterByTheRules(before, next) };
    entered(before);
  };
  /** A dialog the trade no longer allows closes (a reason or a password typed in it is forgotten). */
  const closeStaleDialogs = () => {
    const state = factsOf(conversation);
    if ((actions === 'checkingRelease' || actions === 'confirming') && !allowed(partnerType, state, 'Release Crypto')) {
      actions = 'idle';
      forgetRelease();
    }
    if (actions === 'disputing' && !allowed(partnerType, state, 'Raise Dispute')) {
      actions = 'idle';
      reason = '';
    }
  };
  const act = (label: string, action: TradeAction, next: Actions) => {
    if (actions !== 'idle' || !allowed(partnerType, factsOf(conversation), label)) return;
    if (action === 'mark_paid' && payerAccount.trim().length > 120) return;
    if (next === 'checkingRelease') return askWhatReleaseNeeds();
    actions = next;
    if (next === 'acting') {
      acting = action;
      expectedCalls.push({ id: performers[action], input: { type: action, channel } });
    }
    if (next === 'markingPaid') {
      const stated = payerAccount.trim();
      expectedCalls.push({ id: performers[action], input: { type: action, channel, ...(stated ? { payer_account: stated } : {}) } });
    }
  };
  const accepted = (action: TradeAction, output: string) => {
    expectedNotices.push({ title: 'Action Performed!', description: output, type: 'success' });
    if (action === 'raise_dispute') reason = '';
    if (action === 'release_coin') forgetRelease();
    if (action === 'mark_paid') {
      conversation = { ...conversation, payer_account: payerAccount.trim() || null };
      payerAccount = '';
    }
    setFacts(acceptedByTheRules[action]);
    expectedReports.push(conversation);
    actions = 'idle';
  };

  await replay(
    actor,
    path,
    fakes,
    (snapshot, step) => {
      const event = step.event as ModelEvent & {
        output: never;
        value: string;
        message: ChatMessage;
        username: string;
        facts: TradeFacts;
        conversation: Conversation;
      };
      switch (event.type) {
        case 'xstate.done.actor.loadMessages':
          for (const message of event.output as ChatMessage[]) messages = [...messages.filter((item) => item.id !== message.id), message];
          messages.sort((a, b) => a.id - b.id);
          loading = false;
          break;
        case 'xstate.error.actor.loadMessages':
          loading = false;
          break;
        case 'realtime.subscribed':
          loading = true;
          expectedCalls.push({ id: 'loadMessages', input: { channel } });
          // The summary that could not be loaded is asked for again.
          if (summaryFailed) {
            summaryFailed = false;
            expectedCalls.push({ id: 'loadSummary', input: { channel } });
          }
          break;
        case 'xstate.done.actor.loadSummary':
          summary = event.output as TradeSummary;
          break;
        case 'xstate.error.actor.loadSummary':
          summaryFailed = true;
          break;
        case 'realtime.message.received':
          if (show(event.message)) expectedReports.push(conversation);
          if (typist && event.message.sender === typist) typist = null;
          break;
        case 'message.change':
          draft = event.value;
          if (event.value.trim() === '') break;
          // A throttle: the first keystroke tells the partner at once, later ones wait for the pause to end.
          if (!cooling) {
            cooling = true;
            expectedCalls.push({ id: 'sendTyping', input: { channel } });
          } else typedOn = !sending; // while a message is on its way, no notice trails it
          break;
        case coolDown.type:
          // Typed on meanwhile: the next notice goes out as the pause ends, and another pause starts.
          if (typedOn) expectedCalls.push({ id: 'sendTyping', input: { channel } });
          else cooling = false;
          typedOn = false;
          break;
        case 'message.send':
          if (!sending && draft.trim() !== '' && conversation.status === 'pending') {
            sending = true;
            typedOn = false;
            expectedCalls.push({ id: 'sendMessage', input: { channel, text: draft.trim() } });
          }
          break;
        case 'xstate.done.actor.sendMessage': {
          const message = event.output as ChatMessage;
          show(message);
          if (draft.trim() === message.text) draft = '';
          expectedReports.push(conversation);
          sending = false;
          break;
        }
        case 'xstate.error.actor.sendMessage':
          sending = false;
          break;
        case 'realtime.typing.received':
          if (event.username !== me) typist = event.username;
          break;
        case typingOver.type:
          typist = null;
          break;
        case 'realtime.trade.changed':
          setFacts(event.facts);
          show(event.message);
          expectedReports.push(conversation);
          closeStaleDialogs();
          break;
        case 'conversation.updated': {
          const before = factsOf(conversation);
          conversation = { ...withAdditions(conversation, event.conversation), ...laterByTheRules(before, factsOf(event.conversation)) };
          entered(before);
          closeStaleDialogs();
          break;
        }
        case 'payer.change':
          payerAccount = event.value;
          break;
        case 'xstate.done.actor.rating':
          conversation = { ...conversation, my_rating: event.output };
          expectedReports.push(conversation);
          break;
        case 'trade.act': {
          const action = event.action as TradeAction;
          act(CHAT_BUTTON_LABELS[action], action, 'acting');
          break;
        }
        case 'trade.markPaid':
          act('Mark Paid', 'mark_paid', 'markingPaid');
          break;
        case 'trade.release':
          act('Release Crypto', 'release_coin', 'checkingRelease');
          break;
        case 'trade.dispute':
          act('Raise Dispute', 'raise_dispute', 'disputing');
          break;
        case 'xstate.done.actor.releaseProof':
          actions = 'confirming';
          asked = event.output as ConfirmationProof | null;
          break;
        case 'xstate.error.actor.releaseProof':
          // Not known: nothing is asked, and the server says what it wants.
          actions = 'confirming';
          asked = null;
          break;
        case 'proof.change':
          if (actions === 'confirming') proof = event.value;
          break;
        case 'release.confirm':
          if (actions === 'confirming' && ready()) {
            actions = 'releasing';
            problem = null;
            const typed = asked === 'password' ? { password: proof } : asked === 'code' ? { code: proof.replace(/\s/g, '') } : {};
            expectedCalls.push({ id: 'releaseCoin', input: { type: 'release_coin', channel, ...typed } });
          }
          break;
        case 'xstate.error.actor.releaseCoin': {
          // The sentence shows in the dialog and what was typed is typed again; a missing or wrong proof asks again.
          const refusal = (step.event as unknown as { error: ApiError }).error;
          problem = refusal.message;
          proof = '';
          const stillAllowed = allowed(partnerType, factsOf(conversation), 'Release Crypto');
          if (refusal.status === 403 && stillAllowed) askWhatReleaseNeeds();
          else actions = 'confirming';
          closeStaleDialogs();
          break;
        }
        case 'dispute.reason.change':
          if (actions === 'disputing') reason = event.value;
          break;
        case 'dispute.submit':
          if (actions === 'disputing' && reason.trim() !== '') {
            actions = 'submittingDispute';
            expectedCalls.push({ id: 'raiseDispute', input: { type: 'raise_dispute', channel, reason: reason.trim() } });
          }
          break;
        case 'dialog.dismiss':
          if (actions === 'checkingRelease' || actions === 'confirming') {
            actions = 'idle';
            forgetRelease();
          }
          if (actions === 'disputing') {
            actions = 'idle';
            reason = '';
          }
          break;
        case 'xstate.done.actor.oneClickAction':
          accepted(acting!, event.output);
          acting = null;
          break;
        case 'xstate.done.actor.markPaid':
          accepted('mark_paid', event.output);
          break;
        case 'xstate.done.actor.releaseCoin':
          accepted('release_coin', event.output);
          break;
        case 'xstate.done.actor.raiseDispute':
          accepted('raise_dispute', event.output);
          break;
        case 'xstate.error.actor.oneClickAction':
        case 'xstate.error.actor.markPaid':
          actions = 'idle';
          acting = null;
          break;
        case 'xstate.error.actor.raiseDispute':
          // Back to the dialog with the reason, unless the trade moved on meanwhile (then it closes).
          actions = 'disputing';
          closeStaleDialogs();
          break;
      }

      const s = snapshot as never;
      const state = factsOf(conversation);
      const busy = ['acting', 'markingPaid', 'releasing', 'submittingDispute'].includes(actions);
      expect(selectConversation(s), 'the trade').toEqual(conversation);
      expect(selectMessages(s)).toEqual(messages);
      expect(selectIsLoadingMessages(s)).toBe(loading);
      expect(selectDraft(s)).toBe(draft);
      expect(selectIsSending(s)).toBe(sending);
      expect(selectCanWrite(s), 'the message input shows').toBe(state.status === 'pending');
      expect(selectCanSend(s), 'Send enabled').toBe(!sending && draft.trim() !== '' && state.status === 'pending');
      expect(selectTypingLine(s)).toBe(typist ? `${typist} is typing...` : null);
      expect(fakes.isRunning('sendTyping') || snapshot.matches({ typingNotice: 'cooling' }), 'cooling down').toBe(cooling);
      expect(snapshot.matches({ trade: 'completed' })).toBe(state.status === 'completed');
      expect(snapshot.matches({ trade: 'cancelled' })).toBe(state.status === 'cancelled');
      expect(snapshot.matches({ trade: { pending: 'disputed' } })).toBe(state.status === 'pending' && state.dispute_raised);
      expect(snapshot.matches({ trade: { pending: 'paid' } })).toBe(
        state.status === 'pending' && state.buyer_paid && !state.dispute_raised,
      );
      const buttons = selectActionButtons(s);
      expect(
        buttons.map((button) => button.label),
        'the buttons',
      ).toEqual(expectedButtons(partnerType, state));
      expect(
        buttons.filter((button) => button.enabled).map((button) => button.label),
        'enabled only while nothing runs and no dialog is open',
      ).toEqual(
        actions === 'idle'
          ? expectedButtons(partnerType, state).filter((label) => label !== 'Mark Paid' || payerAccount.trim().length <= 120)
          : [],
      );
      expect(selectDialog(s)).toBe(
        actions === 'checkingRelease' || actions === 'confirming' || actions === 'releasing'
          ? 'release'
          : actions === 'disputing' || actions === 'submittingDispute'
            ? 'dispute'
            : null,
      );
      expect(snapshot.hasTag('busy'), 'busy').toBe(busy);
      expect(selectReleaseProof(s), 'the input the release dialog shows').toBe(actions === 'confirming' || actions === 'releasing' ? asked : null);
      expect(selectReleaseProblem(s), 'the refusal in the release dialog').toBe(problem);
      expect(snapshot.context.proof).toBe(proof);
      expect(selectCanConfirmRelease(s), '"Confirm Release" enabled').toBe(actions === 'confirming' && ready());
      expect(snapshot.context.reason).toBe(reason);
      if (actions === 'disputing') {
        expect(selectReasonError(s)).toBe(reason.trim() === '' ? 'Please enter the reason for your dispute' : undefined);
      }
      expect(matchesAny(snapshot, Object.values(busyStates)), 'an action call runs').toBe(busy);
      expect(snapshot.context.payerAccount).toBe(payerAccount);
      const buyerBeforePayment = partnerType === 'seller' && state.status === 'pending' && !state.buyer_paid && !state.dispute_raised;
      expect(selectShowsPayerField(s), '"Paid from (optional)"').toBe(buyerBeforePayment);
      expect(selectPayerAccountError(s)).toBe(
        payerAccount.trim().length > 120 ? 'The paying account can be at most 120 characters' : undefined,
      );
      expect(selectPayerLine(s), "the seller's paying-account line").toEqual(
        partnerType === 'buyer' && state.status === 'pending' && state.buyer_paid ? { account: conversation.payer_account } : undefined,
      );
      const underReview = state.status === 'pending' && state.dispute_raised;
      expect(selectReview(s), 'Under review').toEqual(
        underReview ? { waited: conversation.disputed_at ? '14 min' : null } : undefined,
      );
      expect(snapshot.context.now, 'the clock read since the start').toBe(NOW);
      expect(selectTradeSummary(s), 'the terms').toEqual(summary);
      expect(selectRole(s)).toBe(roleAgainst(partnerType));
      const awaitingPayment = state.status === 'pending' && !state.buyer_paid;
      expect(selectPaymentWindow(s), 'the countdown').toEqual(
        awaitingPayment && summary ? { left: summary.pay_by === SUMMARY.pay_by ? '14:32' : null } : null,
      );
      expect(selectPaidFrom(s), 'the paying account in the summary').toBe(state.buyer_paid ? conversation.payer_account : null);
      const rated = state.status === 'completed' && conversation.my_rating !== null;
      expect(selectMyRating(s)).toEqual(rated ? conversation.my_rating : null);
      expect(snapshot.matches({ trade: { completed: 'rating' } }), 'the rating form').toBe(state.status === 'completed' && !rated);
    },
    { clock },
  );

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  expect(reports).toEqual(expectedReports);
  actor.stop();
}

describe('tradeConversation: every path through the chart', () => {
  for (const { name, model, input } of models) {
    describe(name, () => {
      it('has a graph to walk', () => {
        expect(model.paths.length).toBeGreaterThan(model.states);
      });
      it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
        await run(path, input);
      });
    });
  }

  it('reaches every state and takes every transition of the chart', { timeout: 120_000 }, async () => {
    const coverage = new Coverage(tradeConversationLogic);
    for (const { model, input } of models) for (const path of model.paths) await run(path, input, coverage);
    console.log(`${coverage.summary()} (${models.map(({ name, model }) => `${name}: ${model.paths.length} paths`).join('; ')})`);
    expect(coverage.allTransitions).toEqual(
      expect.arrayContaining([
        'tradeConversation.typingNotice.cooling —xstate.after.typingThrottle.tradeConversation.typingNotice.cooling#0→ tradeConversation.typingNotice.cooling',
        'tradeConversation.typingNotice.cooling —xstate.after.typingThrottle.tradeConversation.typingNotice.cooling#1→ tradeConversation.typingNotice.ready',
        'tradeConversation.typingNotice.cooling.typedOn —always#0→ tradeConversation.typingNotice.cooling.quiet',
        'tradeConversation.summary.missing —realtime.subscribed#0→ tradeConversation.summary.loading',
        'tradeConversation.trade.pending.awaitingPayment.ticking —xstate.after.waitingTick.tradeConversation.trade.pending.awaitingPayment.ticking#0→ tradeConversation.trade.pending.awaitingPayment.ticking',
        'tradeConversation.partnerTyping.visible —xstate.after.typingVisible.tradeConversation.partnerTyping.visible#0→ tradeConversation.partnerTyping.hidden',
        'tradeConversation.actions.releasing.confirming —always#0→ tradeConversation.actions.idle',
        'tradeConversation.actions.releasing.checking —always#0→ tradeConversation.actions.idle',
        'tradeConversation.actions.releasing.submitting —xstate.error.actor.releaseCoin#0→ tradeConversation.actions.releasing.checking',
      ]),
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', { timeout: 120_000 }, async () => {
    const coverage = new Coverage(tradeConversationLogic);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'trade.release');
    for (const { model, input } of models)
      for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, input, coverage);
    expect(coverage.missingStates()).toEqual([
      'tradeConversation.actions.releasing',
      'tradeConversation.actions.releasing.checking',
      'tradeConversation.actions.releasing.confirming',
      'tradeConversation.actions.releasing.submitting',
    ]);
    expect(coverage.missingTransitions()).toEqual([
      'tradeConversation.actions.idle —trade.release#0→ tradeConversation.actions.releasing',
      'tradeConversation.actions.releasing.checking —dialog.dismiss#0→ tradeConversation.actions.idle',
      'tradeConversation.actions.releasing.checking —xstate.done.actor.releaseProof#0→ tradeConversation.actions.releasing.confirming',
      'tradeConversation.actions.releasing.checking —xstate.error.actor.releaseProof#0→ tradeConversation.actions.releasing.confirming',
      'tradeConversation.actions.releasing.checking —always#0→ tradeConversation.actions.idle',
      'tradeConversation.actions.releasing.confirming —proof.change#0→ (stays)',
      'tradeConversation.actions.releasing.confirming —release.confirm#0→ tradeConversation.actions.releasing.submitting',
      'tradeConversation.actions.releasing.confirming —dialog.dismiss#0→ tradeConversation.actions.idle',
      'tradeConversation.actions.releasing.confirming —always#0→ tradeConversation.actions.idle',
      'tradeConversation.actions.releasing.submitting —xstate.done.actor.releaseCoin#0→ tradeConversation.actions.idle',
      'tradeConversation.actions.releasing.submitting —xstate.error.actor.releaseCoin#0→ tradeConversation.actions.releasing.checking',
      'tradeConversation.actions.releasing.submitting —xstate.error.actor.releaseCoin#1→ tradeConversation.actions.releasing.confirming',
    ]);
  });
});
