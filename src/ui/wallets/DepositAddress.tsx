import { QRCodeSVG } from 'qrcode.react';
import type { SVGProps } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';

/** docs/web-app.md "Fixed figures": the deposit QR code is 165 px at error-correction level M. */
export const DEPOSIT_QR = { size: 165, level: 'M' } as const;

const CopyIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden {...props}>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </svg>
);

const panel = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '4', textAlign: 'center' });
// The code stays dark on white in both themes: scanners read it reliably only that way round.
const qrFrame = css({ bg: 'white', p: '4', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border', lineHeight: '0' });
const addressLabel = css({ color: 'fg.muted', fontSize: 'sm', fontWeight: 'medium' });
const addressBox = css({
  width: '100%',
  fontFamily: 'mono',
  fontSize: 'sm',
  bg: 'bg.muted',
  borderRadius: 'md',
  px: '3',
  py: '2.5',
  overflowWrap: 'anywhere',
  userSelect: 'all',
});

/** The trader's address on the chosen network: QR code, the address as text, and Copy Address. */
export function DepositAddress({
  address,
  ticker,
  canCopy,
  onCopy,
}: {
  address: string;
  ticker: string;
  canCopy: boolean;
  onCopy: () => void;
}) {
  return (
    <div className={panel}>
      <div className={qrFrame}>
        {/* No boost: level M is fixed (docs/web-app.md "Fixed figures"), and qrcode.react would otherwise raise it when the size allows. */}
        <QRCodeSVG
          value={address}
          size={DEPOSIT_QR.size}
          level={DEPOSIT_QR.level}
          boostLevel={false}
          title={`QR code of your ${ticker} deposit address`}
        />
      </div>
      <span id="deposit-address-label" className={addressLabel}>
        Your {ticker} deposit address
      </span>
      <output className={addressBox} aria-labelledby="deposit-address-label">
        {address}
      </output>
      <Button onClick={onCopy} disabled={!canCopy}>
        <CopyIcon />
        Copy Address
      </Button>
    </div>
  );
}
