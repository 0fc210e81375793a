import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import type { ChatMessage } from '../../../contracts/index.ts';
import { Spinner } from './Spinner.tsx';

// column-reverse keeps the newest message in view as messages arrive, without scripting the scroll.
const scroller = css({ flex: '1', minH: '0', overflowY: 'auto', display: 'flex', flexDirection: 'column-reverse', px: '4', py: '3' });
const messageList = css({ display: 'flex', flexDirection: 'column', gap: '2' });
const center = css({ display: 'flex', justifyContent: 'center', py: '6' });
/** What every bubble shares, on both screens, and the platform's own messages, centred and set apart. */
const bubbleBase = css({
  px: '3',
  py: '2',
  borderRadius: 'lg',
  fontSize: 'sm',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  '&[data-from=system]': {
    alignSelf: 'center',
    maxW: '95%',
    textAlign: 'center',
    bg: 'warning.subtle',
    color: 'fg',
    fontSize: 'xs',
    borderWidth: '1px',
    borderColor: 'border',
  },
});

/** A chat message as a screen places it: `from` says whose side it sits on (the system's are always "system"). */
export type PlacedMessage = ChatMessage & { from: string };

/**
 * A trade's messages, newest in view: the trader's chat and the dispute desk both show them so. Each screen brings
 * its bubble style (where each sender's messages sit, their colours) on top of the shared one and the line above a message; the system's
 * messages have no such line.
 */
export function MessageList<M extends PlacedMessage>({
  messages,
  bubble,
  meta,
  marks,
  loading = false,
}: {
  messages: readonly M[];
  bubble: string;
  meta: (message: M) => ReactNode;
  /** More data-* attributes on each item, e.g. the chat's data-own. */
  marks?: (message: M) => Record<`data-${string}`, boolean | string>;
  /** While the first messages load: a spinner instead of an empty list. */
  loading?: boolean;
}) {
  return (
    <div className={scroller}>
      {loading && messages.length === 0 ? (
        <div className={center}>
          <Spinner label="Loading messages" />
        </div>
      ) : (
        <ol className={messageList} aria-label="Messages">
          {messages.map((message) => (
            <li key={message.id} className={cx(bubbleBase, bubble)} data-message-id={message.id} data-from={message.from} {...marks?.(message)}>
              {message.from === 'system' ? null : meta(message)}
              {message.text}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
