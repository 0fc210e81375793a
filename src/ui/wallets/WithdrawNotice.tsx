import { css } from 'styled-system/css';
import { cardStyle } from '../primitives/Card.tsx';
import { ShieldIcon } from '../primitives/icons.tsx';

const title = css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'md', fontWeight: 'semibold', color: 'warning' });
const list = css({
  mt: '3',
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  pl: '5',
  listStyleType: 'disc',
  fontSize: 'sm',
  color: 'fg.muted',
  '& li::marker': { color: 'warning' },
});

/** The Withdraw screen's security notice. */
export function WithdrawNotice() {
  return (
    <aside className={cardStyle} aria-labelledby="withdraw-notice-title">
      <h2 id="withdraw-notice-title" className={title}>
        <ShieldIcon width={18} height={18} aria-hidden />
        Security Notice
      </h2>
      <ul className={list}>
        <li>Double-check the recipient address before you confirm.</li>
        <li>A withdrawal is irreversible: crypto sent to a wrong address cannot be recovered.</li>
        <li>Make sure the network matches the one the recipient's wallet uses.</li>
        <li>Network fees are deducted automatically from the amount you send.</li>
        <li>A withdrawal takes 10-30 minutes to process.</li>
        <li>Contact support if you need help.</li>
      </ul>
    </aside>
  );
}
