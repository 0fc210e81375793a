import { css, cx } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { focusRing } from '../primitives/looks.ts';
import { Tooltip } from '../primitives/Tooltip.tsx';

/** Enough of a txid to tell rows apart and match it in an explorer: "3f9a1c…7d2e". */
const SHOWN_HEAD = 6;
const SHOWN_TAIL = 4;

export function shortTxid(txid: string): string {
  return txid.length <= SHOWN_HEAD + SHOWN_TAIL + 2 ? txid : `${txid.slice(0, SHOWN_HEAD)}…${txid.slice(-SHOWN_TAIL)}`;
}

const cell = css({ display: 'inline-flex', alignItems: 'center', gap: '1' });
const code = cx(
  focusRing,
  css({ fontFamily: 'mono', fontSize: 'xs', borderRadius: 'sm', cursor: 'default', _focusVisible: { outlineOffset: '2px' } }),
);
// Inside the row's own padding, so rows with and without a txid are equally tall.
const copy = css({ w: '7', h: '7!', px: '0!', my: '-1', color: 'fg.muted', _hover: { color: 'fg' } });
const none = css({ color: 'fg.muted' });
const hidden = css({ srOnly: true });

const CopyIcon = () => (
  <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
  </svg>
);

/**
 * A row's transaction ID: shortened, the whole of it in a tooltip, and a copy button. A withdrawal waiting
 * for its broadcast has none yet and an internal transfer none at all (it never touched the chain): a dash.
 */
export function TransactionTxid({ txid, onCopy }: { txid: string | null; onCopy: (txid: string) => void }) {
  if (!txid) {
    return (
      <span className={none}>
        <span aria-hidden>—</span>
        <span className={hidden}>No transaction ID</span>
      </span>
    );
  }
  return (
    <span className={cell}>
      <Tooltip label={txid}>
        <span className={code} tabIndex={0}>
          {shortTxid(txid)}
        </span>
      </Tooltip>
      <Button variant="ghost" size="sm" className={copy} aria-label="Copy transaction ID" onClick={() => onCopy(txid)}>
        <CopyIcon />
      </Button>
    </span>
  );
}
