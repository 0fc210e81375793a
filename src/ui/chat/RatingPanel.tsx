import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  selectCanSubmitRating,
  selectConversation,
  selectIsRatingBusy,
  selectMyRating,
  selectRatingComment,
  selectRatingCommentError,
  selectRatingPartner,
  selectRatingRef,
  selectRatingScore,
  selectShowsRatingComment,
  type ConversationRef,
  type RatingRef,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { TextAreaField } from '../primitives/TextAreaField.tsx';

const SCORES = [1, 2, 3, 4, 5] as const;

// A bar, not a panel: a finished trade's chat keeps its height for the messages (one row of stars until a score
// is chosen, the comment then).
const panelLook = {
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.muted',
  fontSize: 'sm',
} as const;
const panel = css(panelLook);
const row = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: '3', rowGap: '2' });
const scoreSet = css({ display: 'flex', alignItems: 'center', gap: '3', flex: '1', minW: 'max-content' });
// Floated, the legend is laid out as any child is: on the stars' line instead of above them.
const legend = css({ float: 'left', fontWeight: 'semibold' });
const stars = css({ display: 'inline-flex', gap: '1' });
// A native radio per star: arrow keys move between them and each has its own label, with nothing scripted.
const star = css({
  position: 'relative',
  fontSize: '2xl',
  lineHeight: '1',
  cursor: 'pointer',
  color: 'fg.subtle',
  '&[data-lit]': { color: 'warning' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px', borderRadius: 'sm' },
  '& input': { position: 'absolute', opacity: 0, inset: '0', cursor: 'pointer', m: '0' },
});
const srOnly = css({ srOnly: true });
const textarea = css({ '&&': { h: 'auto', minH: '16' }, py: '2', resize: 'vertical' });
const submit = css({ ml: 'auto' });
const ratedPanel = css(panelLook, { flexDirection: 'row', flexWrap: 'wrap', columnGap: '2', alignItems: 'baseline' });

const starLabel = (score: number) => `${score} star${score === 1 ? '' : 's'}`;

/** The completed trade's rating: the form while not rated, then "You rated {partner} N/5". */
export function RatingPanel({ actor }: { actor: ConversationRef }) {
  const form = useSelector(actor, selectRatingRef);
  const rated = useSelector(actor, selectMyRating);
  const { partner } = useSelector(actor, selectConversation);
  if (form) return <RatingForm actor={form} />;
  if (!rated) return null;
  return (
    <section aria-label="Your rating" className={ratedPanel} data-rated={rated.score}>
      <p className={css({ fontWeight: 'semibold' })}>
        You rated {partner} {rated.score}/5
      </p>
      {rated.comment ? <p className={css({ color: 'fg.muted', whiteSpace: 'pre-wrap', wordBreak: 'break-word' })}>“{rated.comment}”</p> : null}
    </section>
  );
}

function RatingForm({ actor }: { actor: RatingRef }) {
  const partner = useSelector(actor, selectRatingPartner);
  const score = useSelector(actor, selectRatingScore);
  const comment = useSelector(actor, selectRatingComment);
  const problem = useSelector(actor, selectRatingCommentError);
  const canSubmit = useSelector(actor, selectCanSubmitRating);
  const busy = useSelector(actor, selectIsRatingBusy);
  const commenting = useSelector(actor, selectShowsRatingComment);
  return (
    <Form className={panel} aria-label={`Rate ${partner}`} onSubmit={() => actor.send({ type: 'rating.submit' })}>
      <div className={row}>
        <fieldset disabled={busy} className={scoreSet}>
          <legend className={legend}>Rate {partner}</legend>
          <div className={stars} role="radiogroup" aria-label="Score">
            {SCORES.map((value) => (
              <label key={value} className={star} data-lit={score !== null && value <= score ? '' : undefined}>
                <input
                  type="radio"
                  name="score"
                  value={value}
                  checked={score === value}
                  onChange={() => actor.send({ type: 'rating.score.change', score: value })}
                />
                <span aria-hidden="true">★</span>
                <span className={srOnly}>{starLabel(value)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <Button type="submit" size="sm" className={submit} disabled={!canSubmit} aria-busy={busy}>
          {busy ? 'Please wait...' : 'Submit rating'}
        </Button>
      </div>
      {commenting ? (
        <TextAreaField
          label="Comment (optional)"
          name="comment"
          rows={2}
          className={textarea}
          value={comment}
          error={problem}
          disabled={busy}
          onValueChange={(value) => actor.send({ type: 'rating.comment.change', value })}
        />
      ) : null}
    </Form>
  );
}
