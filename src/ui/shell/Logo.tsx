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

const nameOnWideScreens = css({ display: { base: 'none', sm: 'inline' } });

/**
 * The logo links to the marketing site, which MARKETING_URL sets (the app's home when unset). `compact`: the name only
 * from a tablet's width up, so a phone's bar holds the language picker and both buttons in any language.
 */
export function Logo({ compact = false }: { compact?: boolean }) {
  const external = /^https?:\/\//.test(webConfig.marketingUrl);
  const { t } = useLingui();
  return (
    <a href={webConfig.marketingUrl} className={link} aria-label={t`Peerex home`} {...(external ? { rel: 'noopener' } : {})}>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span className={compact ? nameOnWideScreens : undefined}>Peerex</span>
    </a>
  );
}
