import type { FastifyInstance } from 'fastify';
import { editableOffer, offerComponents, offerList, offersRequest, offerToggleResponse } from '../../../contracts/market.ts';
import { messageResponse } from '../../../contracts/security.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { offerListKey } from './offer-list-cache.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/offers/ (signed in; docs/api.md "market/offers list", "Other market/offers calls"): the
 * form's choices (`components`), Browse Offers (`list`), the edit form's offer (`get`), publishing and
 * editing (`create`), and pausing (`toggle`).
 */
export default async function offersRoute(app: FastifyInstance) {
  app.post('/market/offers/', async (request) => {
    const body = parseBody(offersRequest, request.body);
    const { userId } = signedIn(request);
    const { offers } = app;

    switch (body.type) {
      case 'components':
        // The offer form sends `drop: 10` (docs/api.md "Other market/offers calls"); it changes nothing here.
        return ok(offerComponents, await offers.components());

      case 'list':
        // The same page for every trader, kept until an offer or a trades count changes (offers/offer-list-cache.ts).
        // The answer is what is kept, so a page is checked against its contract once, when computed.
        return app.offerListCache.get(offerListKey(body.page, body.filters), async () => ok(offerList, await offers.list(body.page, body.filters)));

      case 'get':
        return ok(editableOffer, await offers.editable(body.id, userId));

      case 'create': {
        const { type: _type, ...offer } = body;
        return ok(messageResponse, await offers.save(userId, offer, app.now()));
      }

      case 'toggle':
        return ok(offerToggleResponse, await offers.pauseOrResume(userId, body.id, app.now()));
    }
  });
}
