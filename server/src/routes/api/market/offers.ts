import type { FastifyInstance } from 'fastify';
import { editableOffer, offerComponents, offerList, offersRequest, offerToggleResponse } from '../../../../../contracts/market.ts';
import { messageResponse } from '../../../../../contracts/security.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { offerListKey } from '../../../market/offer-list-cache.ts';
import { offersService } from '../../../market/offers.ts';
import { signedIn } from '../../../plugins/auth.ts';
import { InvalidInput } from '../../../refusals.ts';

/**
 * POST /api/market/offers/ (signed in) — spec section 7: the form's choices (`components`), Browse Offers
 * (`list`), the edit form's offer (`get`), publishing and editing (`create`), and pausing (`toggle`).
 */
export default async function offersRoute(app: FastifyInstance) {
  app.post('/market/offers/', async (request) => {
    const body = parseBody(offersRequest, request.body);
    const { userId } = signedIn(request);
    const offers = offersService(app.db);

    switch (body.type) {
      case 'components':
        // The offer form sends `drop: 10` (spec section 9); it changes nothing here.
        return ok(offerComponents, await offers.components());

      case 'list':
        // The same page for every trader, kept until an offer or a trades count changes (market/offer-list-cache.ts).
        // The envelope is what is kept, so a page is checked against its contract once, when computed.
        return app.offerListCache.get(offerListKey(body.page, body.filters), async () => ok(offerList, await offers.list(body.page, body.filters)));

      case 'get':
        return ok(editableOffer, await offers.editable(body.id, userId));

      case 'create': {
        const { type: _type, update, id, ...fields } = body;
        if (!update) {
          // An id sent along with update:false is the form's empty edit id: a new offer is published either way.
          await offers.publish(userId, fields, app.now());
          await app.offersChanged();
          return ok(messageResponse, sentences.offerPublished);
        }
        if (id === undefined || id === null) throw new InvalidInput(sentences.offerIdRequired);
        await offers.update(id, userId, fields, app.now());
        await app.offersChanged();
        return ok(messageResponse, sentences.offerUpdated);
      }

      case 'toggle': {
        const active = await offers.toggle(body.id, userId, app.now());
        await app.offersChanged();
        return ok(offerToggleResponse, { is_active: active, message: active ? sentences.offerResumed : sentences.offerPaused });
      }
    }
  });
}
