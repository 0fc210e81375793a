import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { OfferListItem, TradePreview } from '../../contracts/index.ts';
import { tradeDialogLogic } from '../../src/machines/tradeDialog/tradeDialog.actors.ts';
import {
  selectAmount,
  selectAmountError,
  selectCanConfirm,
  selectConfirmLabel,
  selectHint,
  selectIsBusy,
  selectIsOpen,
  selectMethodError,
  selectOffer,
  selectPaymentMethod,
  selectPreview,
} from '../../src/machines/tradeDialog/tradeDialog.selectors.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { ApiError } from '../../src/services/api.ts';
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
import { buyOffer, opened, preview100, sellOffer } from '../support/trades.ts';
import type { TradeOpened } from '../../src/services/trades.ts';

/**
 * What the trader types: nothing, just under the minimum, inside the range (on the buy offer its
 * minimum written without the ".00"), just over the maximum.
 */
const amounts = (offer: OfferListItem) =>
  offer.offer_type === 'sell' ? ['', '49.99', '100', '1000.01'] : ['', '1499.99', '1500', '250000.01'];
const methods = (offer: OfferListItem) => ['', offer.payment_methods[0]!];
const debounced = afterEvent('previewDebounce', 'tradeDialog.open.waiting');

/** The server's preview echoes the amount asked for. */
const previewOf = (amount: string): TradePreview => ({ ...preview100, trading_amount: amount });

// The oracle's own reading of the amount rule: min and max inclusive, with the range texts of docs/rules.md
// "Trades" (plain numbers suffice for these amounts).
function specAmountError(offer: OfferListItem, amount: string): string | undefined {
  if (amount === '') return undefined;
  if (Number(amount) < Number(offer.min_amount)) return `Amount can not be less than ${offer.min_amount}`;
  if (Number(amount) > Number(offer.max_amount)) return `Amount can not be greater than ${offer.max_amount}`;
  return undefined;
}

/**
 * What can happen to the dialog: it opens on a sell offer or a buy offer; while open the trader types
 * any of the amounts or picks/clears the method (also while opening, when the chart must refuse), the
 * debounce runs out, the calls answer or fail, confirm and Cancel are pressed anywhere.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { offer, amount } = snapshot.context as { offer: OfferListItem | null; amount: string };
  if (snapshot.matches('closed')) return [sellOffer, buyOffer].map((offer) => ({ type: 'dialog.open', offer }));
  const list: ModelEvent[] = [
    ...amounts(offer!).map((value) => ({ type: 'amount.change', value })),
    ...methods(offer!).map((value) => ({ type: 'method.change', value })),
    { type: 'order.confirm' },
    { type: 'dialog.close' },
  ];
  if (snapshot.matches({ open: 'waiting' })) list.push(debounced);
  if (snapshot.matches({ open: 'previewing' })) {
    list.push(
      { type: 'xstate.done.actor.previewTrade', output: previewOf(amount) },
      { type: 'xstate.error.actor.previewTrade', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ open: 'opening' })) {
    list.push(
      { type: 'xstate.done.actor.openTrade', output: opened },
      { type: 'xstate.done.actor.openTrade', output: { ...opened, channel: null } },
      { type: 'xstate.error.actor.openTrade', error: new ApiError('Insufficient balance for this trade', 409) },
    );
  }
  return list;
}

const model = walk(tradeDialogLogic, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['previewTrade', 'openTrade']);
  const notices: Notice[] = [];
  const chats: { channel: string | null }[] = [];
  const clock = new SimulatedClock();
  const machine = tradeDialogLogic.provide({
    actors: fakes.actors as never,
    actions: { notify: (_, notice) => void notices.push(notice), goToChat: (_, params) => void chats.push(params) },
  });
  const actor = createActor(machine, { clock, inspect: coverage?.inspect }).start();

  // The oracle, from docs/api.md "market/trade preview and open" and the amount rule above.
  type Phase = 'closed' | 'editing' | 'waiting' | 'previewing' | 'ready' | 'opening';
  let phase: Phase = 'closed';
  let offer: OfferListItem | null = null;
  let amount = '';
  let method = '';
  let preview: TradePreview | null = null;
  const expectedCalls: ActorCall[] = [];
  const expectedNotices: Notice[] = [];
  const expectedChats: { channel: string | null }[] = [];
  const reset = () => {
    offer = null;
    amount = '';
    method = '';
    preview = null;
    phase = 'closed';
  };
  const request = () => ({ offer: offer!.id, amount, payment_method: method });
  const change = (set: () => void) => {
    if (phase === 'opening') return; // the form is locked while the trade opens
    set();
    preview = null;
    const valid = amount !== '' && specAmountError(offer!, amount) === undefined && offer!.payment_methods.includes(method);
    phase = valid ? 'waiting' : 'editing';
  };

  await replay(
    actor,
    path,
    fakes,
    (snapshot, step) => {
      const event = step.event as ModelEvent & { value: string; offer: OfferListItem; output: unknown };
      switch (event.type) {
        case 'dialog.open':
          offer = event.offer;
          amount = '';
          method = '';
          preview = null;
          phase = 'editing';
          break;
        case 'amount.change':
          change(() => (amount = event.value));
          break;
        case 'method.change':
          change(() => (method = event.value));
          break;
        case debounced.type:
          phase = 'previewing';
          expectedCalls.push({ id: 'previewTrade', input: request() });
          break;
        case 'xstate.done.actor.previewTrade':
          preview = event.output as TradePreview;
          phase = 'ready';
          break;
        case 'xstate.error.actor.previewTrade':
          phase = 'editing';
          break;
        case 'order.confirm':
          if (phase === 'ready') {
            phase = 'opening';
            // Opening names the rate the trader saw on the offer, so a rate changed since is refused (issue 8).
            expectedCalls.push({ id: 'openTrade', input: { ...request(), rate: offer!.rate } });
          }
          break;
        case 'dialog.close':
          if (phase !== 'opening') reset();
          break;
        case 'xstate.done.actor.openTrade':
          expectedNotices.push({ title: 'Trade Opened!', description: (event.output as TradeOpened).info, type: 'success' });
          // "Trade Opened!" lands in the new trade's conversation when the answer names its channel.
          expectedChats.push({ channel: (event.output as TradeOpened).channel });
          reset();
          break;
        case 'xstate.error.actor.openTrade':
          phase = 'ready';
          break;
      }

      const s = snapshot as never;
      expect(selectIsOpen(s), 'open').toBe(phase !== 'closed');
      expect(selectIsBusy(s), 'busy').toBe(phase === 'opening');
      expect(selectOffer(s)).toEqual(offer);
      expect(selectAmount(s)).toBe(amount);
      expect(selectPaymentMethod(s)).toBe(method);
      expect(selectPreview(s)).toEqual(preview);
      expect(selectCanConfirm(s), 'confirm enabled').toBe(phase === 'ready' && preview !== null);
      expect(snapshot.matches({ open: 'waiting' }), 'waiting for the trader to stop typing').toBe(phase === 'waiting');
      expect(fakes.isRunning('previewTrade'), 'a preview call runs').toBe(phase === 'previewing');
      expect(fakes.isRunning('openTrade'), 'an open call runs').toBe(phase === 'opening');
      const o = offer as OfferListItem | null;
      expect(selectHint(s), 'hint').toBe(
        o && amount === '' ? `Amount must be between ${o.min_amount} - ${o.max_amount} ${o.currency__code}` : undefined,
      );
      expect(selectAmountError(s), 'amount message').toBe(o ? specAmountError(o, amount) : undefined);
      expect(selectMethodError(s), 'method message').toBe(amount !== '' && method === '' ? 'Please select a payment method' : undefined);
      if (o) expect(selectConfirmLabel(s)).toBe(o.offer_type === 'buy' ? 'Confirm Sell Order' : 'Confirm Buy Order');
    },
    { clock },
  );

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  expect(chats).toEqual(expectedChats);
  actor.stop();
}

describe('tradeDialog: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(tradeDialogLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.allTransitions).toEqual(
      expect.arrayContaining([
        'tradeDialog.open.checking —always#0→ tradeDialog.open.waiting',
        'tradeDialog.open.checking —always#1→ tradeDialog.open.editing',
        'tradeDialog.open.waiting —xstate.after.previewDebounce.tradeDialog.open.waiting#0→ tradeDialog.open.previewing',
        'tradeDialog.open.opening —dialog.close#0→ (stays)',
      ]),
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(tradeDialogLogic);
    const leftOut = (path: ModelPath) =>
      path.steps.some(({ event }) => event.type === 'order.confirm' || event.type === 'xstate.error.actor.previewTrade');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['tradeDialog.open.opening']);
    expect(coverage.missingTransitions()).toEqual([
      'tradeDialog.open.previewing —xstate.error.actor.previewTrade#0→ tradeDialog.open.editing',
      'tradeDialog.open.ready —order.confirm#0→ tradeDialog.open.opening',
      'tradeDialog.open.opening —dialog.close#0→ (stays)',
      'tradeDialog.open.opening —amount.change#0→ (stays)',
      'tradeDialog.open.opening —method.change#0→ (stays)',
      'tradeDialog.open.opening —xstate.done.actor.openTrade#0→ tradeDialog.closed',
      'tradeDialog.open.opening —xstate.error.actor.openTrade#0→ tradeDialog.open.ready',
    ]);
  });
});
