import { editableOffer, offerComponents, offerList, offersRequest, offerToggleResponse } from '../../../contracts/market.ts';
import { messageResponse } from '../../../contracts/security.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { JSON_TYPE, ok, okText } from '../infra/http/reply.ts';
import { offerListKey } from './offer-list-cache.ts';
import { offerListJson } from './offers.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/offers/ (signed in; docs/api.md "market/offers list", "Other market/offers calls"): the
 * form's choices (`components`), Browse Offers (`list`), the edit form's offer (`get`), publishing and
 * editing (`create`), and pausing (`toggle`).
 */
export default defineCall({
  method: 'post',
  path: '/api/market/offers/',
  tag: 'Market',
  summary: 'Offers',
  description:
    '`components` → the offer form\'s choices. `list` → `{offers, paginator}`: 12 live offers a page, newest first, filtered; the paginator\'s `next_cursor`, sent back as `cursor` with the next page number, reads that page from where the last one ended however deep it is; each carries its counterparty conditions (`min_completed_trades`, `min_account_days`, `require_two_factor`; 0 / false: none) and `max_open_trades`. `get` (owner only) → the offer for the edit form. `create` publishes a new offer, or with `update:true` rewrites the caller\'s offer `id` → a sentence; the conditions are optional integers (a boolean for two-factor), `max_open_trades` 1–20, default 3. `toggle` pauses or resumes → `{is_active, message}`. 404 "This offer does not exist." for an unknown id or someone else\'s offer.',
  access: 'trader',
  request: offersRequest,
  answer: byType({ components: offerComponents, list: offerList, get: editableOffer, create: messageResponse, toggle: offerToggleResponse }),
  refusals: [404],
  handle: async ({ app, request, reply, body }) => {
    const { userId } = signedIn(request);
    const { offers } = app;

    switch (body.type) {
      case 'components':
        // The offer form sends `drop: 10` (docs/api.md "Other market/offers calls"); it changes nothing here.
        return ok(offerComponents, await offers.components());

      case 'list':
        // The same page for every trader, kept until an offer or a trades count changes (offers/offer-list-cache.ts).
        // The page comes from the database as the contract's JSON (offers.repository.ts `listPage`) and is kept and
        // sent as that text: neither parsed, checked nor serialised again, here or for each request it is kept for.
        reply.type(JSON_TYPE);
        return app.offerListCache.get(offerListKey(body.page, body.filters, body.cursor), async () =>
          okText(offerListJson(await offers.list(body.page, body.filters, body.cursor))),
        );

      case 'get':
        return ok(editableOffer, await offers.editable(body.id, userId));

      case 'create': {
        const { type: _type, ...offer } = body;
        return ok(messageResponse, await offers.save(userId, offer, app.now()));
      }

      case 'toggle':
        return ok(offerToggleResponse, await offers.pauseOrResume(userId, body.id, app.now()));
    }
  },
});
