import { tradeHistory } from '../../contracts/index.ts';
import { createTradeService, historyQuery, type TradeHistoryFilters } from '../../src/services/trades.ts';
import { apiWith, fakeServer, noToast, ok, recordingApi, refused } from '../support/api.ts';
import { tradePage } from '../support/trades.ts';

/** Recent Trades with nothing chosen, written out here rather than taken from the chart. */
const blank: TradeHistoryFilters = { tradeType: '', status: '', coinId: '' };

/**
 * docs/api.md "market/trade history", written out here: the page, trade_type at the top level only when
 * set, and a filters object (always sent, maybe empty) with status and offer__coin__id only when set.
 */
function specQuery(page: number, filters: TradeHistoryFilters): Record<string, unknown> {
  const query: Record<string, unknown> = { page };
  if (filters.tradeType !== '') query.trade_type = filters.tradeType;
  const inner: Record<string, unknown> = {};
  if (filters.status !== '') inner.status = filters.status;
  if (filters.coinId !== '') inner.offer__coin__id = filters.coinId;
  query.filters = inner;
  return query;
}

/** Every combination of a few values of each filter, the empty ones included. */
function allFilters(): TradeHistoryFilters[] {
  const all: TradeHistoryFilters[] = [];
  for (const tradeType of ['', 'buy', 'sell'] as const)
    for (const status of ['', 'pending', 'completed', 'cancelled'] as const)
      for (const coinId of ['', '1', '2']) all.push({ tradeType, status, coinId });
  return all;
}

describe('historyQuery (docs/api.md "market/trade history")', () => {
  it('sends the page and an empty filters object when nothing is set', () => {
    expect(historyQuery(1, blank)).toStrictEqual({ page: 1, filters: {} });
  });

  it.each([
    ['a trade type, at the top level', { tradeType: 'sell' as const }, { page: 3, trade_type: 'sell', filters: {} }],
    ['a status, under filters', { status: 'cancelled' as const }, { page: 3, filters: { status: 'cancelled' } }],
    ['a coin, under filters as offer__coin__id', { coinId: '2' }, { page: 3, filters: { offer__coin__id: '2' } }],
  ])('sends only %s when only that is set', (_, set, expected) => {
    const query = historyQuery(3, { ...blank, ...set });
    expect(query).toStrictEqual(expected);
    expect(Object.keys(query)).toEqual(Object.keys(expected));
    expect(Object.keys(query.filters)).toEqual(Object.keys(expected.filters));
  });

  it('sends all three when all are set', () => {
    expect(historyQuery(1, { tradeType: 'buy', status: 'pending', coinId: '1' })).toStrictEqual({
      page: 1,
      trade_type: 'buy',
      filters: { status: 'pending', offer__coin__id: '1' },
    });
  });

  it('matches the rule for every combination of set and empty filters, on any page, with no key for an unset one', () => {
    const all = allFilters();
    expect(all).toHaveLength(36);
    for (const page of [1, 7]) {
      for (const filters of all) expect(historyQuery(page, filters), `${page} ${JSON.stringify(filters)}`).toStrictEqual(specQuery(page, filters));
    }
  });
});

describe('createTradeService(api).history', () => {
  it('reads market/trade/ with {type: "history", page, trade_type?, filters}, toasting a refusal, and returns the answer', async () => {
    const { api, calls } = recordingApi({ history: tradePage(2, 3) });
    const answer = await createTradeService(api).history({ page: 2, filters: { tradeType: 'sell', status: '', coinId: '2' } });
    expect(answer).toEqual(tradePage(2, 3));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.how).toBe('read');
    expect(calls[0]!.path).toBe('market/trade/');
    expect(calls[0]!.body).toStrictEqual({ type: 'history', page: 2, trade_type: 'sell', filters: { offer__coin__id: '2' } });
    expect(calls[0]!.schema).toBe(tradeHistory);
    expect(calls[0]!.options, 'a failed history load is toasted (no noToast)').toBeUndefined();
  });

  it.each(allFilters().map((filters) => [JSON.stringify(filters), filters] as const))(
    'sends exactly {type: "history", page, trade_type?, filters} for %s',
    async (_, filters) => {
      const { api, calls } = recordingApi({ history: tradePage(1, 1) });
      await createTradeService(api).history({ page: 5, filters });
      expect(calls.map(({ how, path, body }) => ({ how, path, body }))).toStrictEqual([
        { how: 'read', path: 'market/trade/', body: { type: 'history', ...specQuery(5, filters) } },
      ]);
    },
  );
});

describe('createTradeService over HTTP', () => {
  it('POSTs the history body with only the set filters, and no X-No-Toast', async () => {
    const server = fakeServer(ok(tradePage(1, 1)));
    const trades = createTradeService(apiWith(server).api);
    await expect(trades.history({ page: 1, filters: blank })).resolves.toEqual(tradePage(1, 1));
    await trades.history({ page: 2, filters: { tradeType: 'buy', status: 'completed', coinId: '' } });
    expect(server.sent.map((sent) => ({ url: sent.url, body: sent.body, noToast: noToast(sent) }))).toStrictEqual([
      { url: '/api/market/trade/', body: { type: 'history', page: 1, filters: {} }, noToast: false },
      { url: '/api/market/trade/', body: { type: 'history', page: 2, trade_type: 'buy', filters: { status: 'completed' } }, noToast: false },
    ]);
  });
});

describe('createTradeService: open and the trade actions (docs/api.md "market/trade preview and open", "Trade actions")', () => {
  const ask = { offer: 7, amount: '100', payment_method: 'SEPA', rate: '0.95' };

  it('open answers the toast sentence and the new trade’s channel from the X-Trade-Channel header', async () => {
    const server = fakeServer(ok('Trade opened. Pay 100 EUR by SEPA and mark it paid in the chat.', 200, { 'X-Trade-Channel': 'c0ffee00-trade' }));
    await expect(createTradeService(apiWith(server).api).open(ask)).resolves.toEqual({
      info: 'Trade opened. Pay 100 EUR by SEPA and mark it paid in the chat.',
      channel: 'c0ffee00-trade',
    });
    expect(server.sent.map((sent) => ({ url: sent.url, body: sent.body, noToast: noToast(sent) }))).toEqual([
      { url: '/api/market/trade/', body: { type: 'open', ...ask }, noToast: false },
    ]);
  });

  it('open without the header answers no channel (the chat opens on its list)', async () => {
    const server = fakeServer(ok('Trade opened.'));
    await expect(createTradeService(apiWith(server).api).open(ask)).resolves.toEqual({ info: 'Trade opened.', channel: null });
  });

  it('a refused open toasts the sentence and rejects with it', async () => {
    const server = fakeServer(refused('The seller’s balance is too low for this trade.', 409));
    const { api, onError } = apiWith(server);
    await expect(createTradeService(api).open(ask)).rejects.toThrow('The seller’s balance is too low for this trade.');
    expect(onError).toHaveBeenCalledWith('The seller’s balance is too low for this trade.');
  });

  it.each([
    [{ type: 'cancel', channel: 'c1' }],
    [{ type: 'mark_paid', channel: 'c1' }],
    [{ type: 'release_coin', channel: 'c1' }],
    [{ type: 'raise_dispute', channel: 'c1', reason: 'No payment arrived' }],
  ] as const)('act writes %j as it is and answers the sentence', async (request) => {
    const { api, calls } = recordingApi({ [request.type]: 'Done.' });
    await expect(createTradeService(api).act(request)).resolves.toBe('Done.');
    expect(calls.map(({ how, path, body, options }) => ({ how, path, body, options }))).toEqual([
      { how: 'write', path: 'market/trade/', body: request, options: undefined },
    ]);
  });

  it('release writes release_coin with its proof as it is, quietly: the release dialog shows a refusal itself', async () => {
    const server = fakeServer(refused('Please confirm the release with your password.', 403), ok('Coin released. The trade is completed.'));
    const { api, onError } = apiWith(server);
    const trades = createTradeService(api);
    const request = { type: 'release_coin', channel: 'c1', password: 'correct-horse-9' } as const;
    await expect(trades.release(request)).rejects.toMatchObject({ message: 'Please confirm the release with your password.', status: 403 });
    expect(onError, 'no toast').not.toHaveBeenCalled();
    await expect(trades.release(request)).resolves.toBe('Coin released. The trade is completed.');
    expect(server.sent.map((sent) => ({ url: sent.url, body: sent.body, quiet: noToast(sent) }))).toEqual([
      { url: '/api/market/trade/', body: request, quiet: true },
      { url: '/api/market/trade/', body: request, quiet: true },
    ]);
  });

  it.each([['password'], ['code'], [null]] as const)('releaseProof asks security/confirmation/ for the status, quietly, and answers %j', async (proof) => {
    const server = fakeServer(ok({ proof }));
    await expect(createTradeService(apiWith(server).api).releaseProof()).resolves.toBe(proof);
    expect(server.sent.map((sent) => ({ url: sent.url, body: sent.body, quiet: noToast(sent) }))).toEqual([
      { url: '/api/security/confirmation/', body: { type: 'status' }, quiet: true },
    ]);
  });
});
