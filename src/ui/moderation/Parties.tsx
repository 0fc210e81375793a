import { css } from 'styled-system/css';

const role = css({ color: 'fg.muted', fontWeight: 'normal' });

/**
 * Who is who in a disputed trade, "Buyer alice · Seller bob": the desk settles by role (release to the buyer,
 * refund to the seller), so each name says which it is rather than leaving an arrow to be read.
 */
export function Parties({ buyer, seller }: { buyer: string; seller: string }) {
  return (
    <>
      <span className={role}>Buyer</span> {buyer} · <span className={role}>Seller</span> {seller}
    </>
  );
}
