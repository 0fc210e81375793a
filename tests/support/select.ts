import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

/**
 * Picks `option` in the Ark select labelled `label`: opens it, clicks the option, and, when the select closes on
 * the pick, waits until it has given the focus back to its trigger. Zag moves the focus on a later animation frame:
 * a step taken before it (typing into the next field) would lose its keys to the select when the focus came back.
 */
export async function choose(typist: ReturnType<typeof userEvent.setup>, label: string, option: string | RegExp) {
  const trigger = screen.getByRole('combobox', { name: label });
  await typist.click(trigger);
  await typist.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(trigger.getAttribute('aria-expanded') === 'true' || document.activeElement === trigger).toBe(true));
}
