import { createActor, waitFor } from 'xstate';
import { bindTradeRating } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import { selectCanSubmitRating, selectRatingCommentError } from '../../src/machines/tradeChat/tradeChat.selectors.ts';
import { chatDeps, withBob } from '../support/chat.ts';

function rating() {
  const harness = chatDeps();
  const actor = createActor(bindTradeRating(harness.deps), { input: { channel: withBob.channel, partner: 'bob' } }).start();
  return { ...harness, actor };
}

describe('tradeRating', () => {
  it('refuses Submit until a score is chosen, and while the comment is over 500 characters', () => {
    const { actor, calls } = rating();
    expect(selectCanSubmitRating(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'rating.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'rating.score.change', score: 3 });
    actor.send({ type: 'rating.comment.change', value: 'y'.repeat(501) });
    expect(selectCanSubmitRating(actor.getSnapshot())).toBe(false);
    expect(selectRatingCommentError(actor.getSnapshot())).toBe('A comment can be at most 500 characters');
    actor.send({ type: 'rating.comment.change', value: `  ${'y'.repeat(500)}  ` });
    expect(selectCanSubmitRating(actor.getSnapshot())).toBe(true);
    expect(calls.made).toEqual([]);
  });

  it('sends the score without a blank comment, toasts the answer and ends with the rating as its output', async () => {
    const { actor, calls, notices } = rating();
    actor.send({ type: 'rating.score.change', score: 5 });
    actor.send({ type: 'rating.comment.change', value: '   ' });
    actor.send({ type: 'rating.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls.inputs('rate')).toEqual([{ channel: withBob.channel, score: 5 }]);
    await calls.answer('rate', 'Rating saved.');
    const done = await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(done.output).toEqual({ score: 5, comment: '' });
    expect(notices).toEqual([{ title: 'Rating sent', description: 'Rating saved.', type: 'success' }]);
  });

  it('a refusal returns to the form with the score and comment kept', async () => {
    const { actor, calls } = rating();
    actor.send({ type: 'rating.score.change', score: 2 });
    actor.send({ type: 'rating.comment.change', value: 'Late' });
    actor.send({ type: 'rating.submit' });
    await calls.fail('rate', new Error('You have already rated this trade.'));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ score: 2, comment: 'Late' });
  });
});
