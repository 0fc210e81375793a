import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip';
import type { ReactElement } from 'react';
import { css } from 'styled-system/css';

/**
 * Tooltips open after 700 ms, and moving to the next one within 300 ms skips that wait. Ark opens a
 * tooltip at once while another is still open, so keeping each open 300 ms after the pointer leaves is
 * what gives the skip window.
 */
export const TOOLTIP_OPEN_DELAY = 700;
export const TOOLTIP_CLOSE_DELAY = 300;

const content = css({
  bg: 'fg',
  color: 'bg.surface',
  px: '2',
  py: '1',
  borderRadius: 'md',
  fontSize: 'xs',
  boxShadow: 'md',
  // A 64-character txid must wrap on a phone rather than run off the screen.
  maxWidth: 'min(90vw, 28rem)',
  overflowWrap: 'anywhere',
});

export function Tooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <ArkTooltip.Root openDelay={TOOLTIP_OPEN_DELAY} closeDelay={TOOLTIP_CLOSE_DELAY}>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={content}>{label}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
