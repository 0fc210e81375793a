import { css, cva } from 'styled-system/css';

export const muted = css({ color: 'fg.muted', fontSize: 'sm' });
export const sectionTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' });
export const section = css({ mt: '8' });
export const link = css({ color: 'accent', fontWeight: 'medium', textDecoration: 'none', _hover: { textDecoration: 'underline' } });
/** Where a console page's content will be: its spinner, or why it could not load and "Try again". */
export const placeholder = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '16', color: 'fg.muted', textAlign: 'center' });
/** The server's sentence in a console dialog: an action done, or refused. */
export const dialogNote = cva({
  base: { p: '3', borderRadius: 'md', fontSize: 'sm', fontWeight: 'medium' },
  variants: { tone: { danger: { bg: 'danger.subtle', color: 'danger' }, success: { bg: 'success.subtle', color: 'success' } } },
});
