import { css, cva, cx } from 'styled-system/css';
import { cardStyle } from '../primitives/Card.tsx';

/** The console's tables: a card that scrolls sideways on a phone, its rows as the history tables draw theirs. */
export const tableCard = cx(cardStyle, css({ p: '0!', overflowX: 'auto' }));
export const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': {
    textAlign: 'left',
    color: 'fg.muted',
    fontWeight: 'medium',
    px: '4',
    py: '3',
    whiteSpace: 'nowrap',
    borderBottomWidth: '1px',
    borderColor: 'border',
  },
  '& td': { px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border', fontVariantNumeric: 'tabular-nums', verticalAlign: 'top' },
  '& tr:last-child td': { borderBottomWidth: '0' },
  '& th[data-numeric], & td[data-numeric]': { textAlign: 'right', whiteSpace: 'nowrap' },
});
/**
 * On a phone a table of many columns reads as cards: each row a block, each cell a line with its column's name
 * (the cell's `data-label`) on the left. From md up it is the table again.
 */
export const stacked = css({
  mdDown: {
    '& thead': { display: 'none' },
    '& tbody, & tr': { display: 'block' },
    '& tr': { py: '2', borderBottomWidth: '1px', borderColor: 'border' },
    '& tr:last-child': { borderBottomWidth: '0' },
    '& td, & td[data-numeric]': {
      display: 'flex',
      justifyContent: 'space-between',
      alignItems: 'baseline',
      gap: '3',
      py: '1',
      borderBottomWidth: '0',
      textAlign: 'right',
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
      minW: '0',
      maxW: 'none',
    },
    '& td[data-label]::before': { content: 'attr(data-label)', color: 'fg.muted', textAlign: 'left', flexShrink: 0, whiteSpace: 'nowrap' },
  },
});
/** A cell that must not wrap (a date, an amount, a name). */
export const nowrap = css({ whiteSpace: 'nowrap' });
/** A cell of long text (a reason, an address): it wraps anywhere rather than widen the table past reason. */
export const longText = css({ minW: '12rem', maxW: '28rem', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' });
export const muted = css({ color: 'fg.muted', fontSize: 'sm' });
export const sectionTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' });
export const section = css({ mt: '8' });
/** The sentence in an empty table's place. */
export const emptyRow = css({ p: '6', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' });
export const link = css({ color: 'accent', fontWeight: 'medium', textDecoration: 'none', _hover: { textDecoration: 'underline' } });
/** Where a console page's content will be: its spinner, or why it could not load and "Try again". */
export const placeholder = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '16', color: 'fg.muted', textAlign: 'center' });
/** The server's sentence in a console dialog: an action done, or refused. */
export const dialogNote = cva({
  base: { p: '3', borderRadius: 'md', fontSize: 'sm', fontWeight: 'medium' },
  variants: { tone: { danger: { bg: 'danger.subtle', color: 'danger' }, success: { bg: 'success.subtle', color: 'success' } } },
});
