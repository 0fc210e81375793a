import type { OfferComponents } from '../../../contracts/index.ts';
import type { SelectOption } from '../primitives/SelectField.tsx';

/** The choices of an offer's coin, currency and payment methods, from the components the server lists (none while they load). */
export function offerChoices(components: OfferComponents | null | undefined): Record<'coins' | 'currencies' | 'methods', SelectOption[]> {
  return {
    coins: (components?.coins ?? []).map((coin) => ({ value: String(coin.id), label: coin.label, image: coin.image })),
    currencies: (components?.currencies ?? []).map((entry) => ({ value: entry.code, label: `${entry.name} (${entry.code.toUpperCase()})` })),
    methods: (components?.payment_methods ?? []).map((method) => ({ value: method.name, label: method.name })),
  };
}
