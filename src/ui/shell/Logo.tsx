import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import { webConfig } from '../../config.ts';

const link = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  fontWeight: 'bold',
  fontSize: 'lg',
  color: 'fg',
  textDecoration: 'none',
  letterSpacing: '-0.01em',
});

/** The logo links to the marketing site, which MARKETING_URL sets (the app's home when unset). */
export function Logo() {
  const external = /^https?:\/\//.test(webConfig.marketingUrl);
  const { t } = useLingui();
  return (
    <a href={webConfig.marketingUrl} className={link} aria-label={t`Peerex home`} {...(external ? { rel: 'noopener' } : {})}>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span>Peerex</span>
    </a>
  );
}
