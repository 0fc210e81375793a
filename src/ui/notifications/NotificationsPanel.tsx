import { Popover } from '@ark-ui/react/popover';
import { css, cx } from 'styled-system/css';
import type { NotificationItem } from '../../../contracts/index.ts';
import { formatRelative } from '../format/relative.ts';
import { Button } from '../primitives/Button.tsx';
import { floatingPanel, rowButton } from '../primitives/looks.ts';
import { notificationTexts } from './texts.ts';

const content = cx(floatingPanel, css({ w: '80', maxW: 'calc(100vw - 2rem)', color: 'fg', zIndex: 20, overflow: 'hidden' }));
const header = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '2',
  px: '4',
  py: '3',
  borderBottomWidth: '1px',
  borderColor: 'border',
});
const title = css({ fontSize: 'md', fontWeight: 'semibold' });
const markAll = css({ h: 'auto', py: '1', _disabled: { textDecoration: 'none' } });
/** The dropdown is about 96 units tall: longer lists scroll inside it. */
const list = css({ maxH: '96', overflowY: 'auto', listStyle: 'none', m: '0', p: '0' });
const entry = css({
  borderBottomWidth: '1px',
  borderColor: 'border',
  _last: { borderBottomWidth: '0' },
  '&[data-fresh=true]': { bg: 'accent.subtle' },
});
const itemButton = cx(rowButton, css({ display: 'flex', gap: '3', px: '4' }));
const dot = css({
  flexShrink: 0,
  mt: '1.5',
  h: '2',
  w: '2',
  borderRadius: 'full',
  bg: 'transparent',
  '[data-fresh=true] &': { bg: 'accent' },
});
const texts = css({ display: 'flex', flexDirection: 'column', gap: '0.5', minW: '0', flex: '1' });
const itemTitle = css({ fontSize: 'sm', fontWeight: 'medium', '[data-fresh=true] &': { fontWeight: 'bold' } });
const itemBody = css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' });
const itemTime = css({ fontSize: 'xs', color: 'fg.muted' });
const empty = css({ px: '4', py: '8', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' });
const hidden = css({ srOnly: true });

export type NotificationsPanelProps = {
  /** The title's id, which names the dialog. */
  titleId: string;
  items: readonly NotificationItem[];
  /** While the first list is on its way, the empty text waits. */
  loading: boolean;
  canMarkAllRead: boolean;
  onOpen: (id: number) => void;
  onMarkAllRead: () => void;
};

/** The dropdown's content: title, "Mark all read", and the newest notifications (fresh ones marked). */
export function NotificationsPanel({ titleId, items, loading, canMarkAllRead, onOpen, onMarkAllRead }: NotificationsPanelProps) {
  return (
    <Popover.Content className={content} aria-labelledby={titleId}>
      <div className={header}>
        <Popover.Title className={title}>{notificationTexts.title}</Popover.Title>
        <Button variant="link" size="sm" className={markAll} disabled={!canMarkAllRead} onClick={onMarkAllRead}>
          {notificationTexts.markAllRead}
        </Button>
      </div>
      {items.length === 0 ? (
        loading ? null : <p className={empty}>{notificationTexts.empty}</p>
      ) : (
        <ul className={list}>
          {items.map((item) => (
            // Named by all it shows ("Unread:" while fresh, the title, the body, the time): a name of the title alone
            // would leave visible words out of it (WCAG 2.5.3, axe's label-content-name-mismatch). The spaces between the
            // parts keep their words apart in the name; a flex container draws no whitespace between its items.
            <li key={item.id} className={entry} data-fresh={item.fresh}>
              <button type="button" className={itemButton} onClick={() => onOpen(item.id)}>
                <span className={dot} aria-hidden />
                <span className={texts}>
                  <span className={itemTitle}>
                    {item.fresh ? <span className={hidden}>Unread:</span> : null} {item.title}
                  </span>{' '}
                  <span className={itemBody}>{item.body}</span>{' '}
                  {/* Against the time it is now: each opening of the panel renders it again. */}
                  <time className={itemTime} dateTime={item.created}>
                    {formatRelative(item.created)}
                  </time>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Popover.Content>
  );
}
