import { css } from 'styled-system/css';
import { ArrowLeftIcon } from '../primitives/icons.tsx';

// Only on a phone, where the list and the open item take turns (SplitView); from md up both are in view.
const back = css({
  display: { base: 'inline-flex', md: 'none' },
  alignItems: 'center',
  justifyContent: 'center',
  w: '9',
  h: '9',
  borderRadius: 'md',
  color: 'fg',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
});

/** The arrow back from an open conversation or dispute to its list, named by `label`. */
export function BackButton({ label, onBack }: { label: string; onBack: () => void }) {
  return (
    <button type="button" className={back} aria-label={label} onClick={onBack}>
      <ArrowLeftIcon />
    </button>
  );
}
