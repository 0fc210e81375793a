import { css, cx } from 'styled-system/css';
import { ArrowLeftIcon } from '../primitives/icons.tsx';
import { iconButton } from '../primitives/looks.ts';

// Only on a phone, where the list and the open item take turns (SplitView); from md up both are in view.
const back = cx(iconButton, css({ display: { base: 'inline-flex', md: 'none' }, w: '9', h: '9', borderRadius: 'md', color: 'fg' }));

/** The arrow back from an open conversation or dispute to its list, named by `label`. */
export function BackButton({ label, onBack }: { label: string; onBack: () => void }) {
  return (
    <button type="button" className={back} aria-label={label} onClick={onBack}>
      <ArrowLeftIcon />
    </button>
  );
}
