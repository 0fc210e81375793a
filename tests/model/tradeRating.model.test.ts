import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { tradeRatingLogic } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import {
  selectCanSubmitRating,
  selectIsRatingBusy,
  selectRatingComment,
  selectRatingCommentError,
  selectRatingPartner,
  selectRatingScore,
} from '../../src/machines/tradeChat/tradeChat.selectors.ts';
import type { TradeRatingContext } from '../../src/machines/tradeChat/tradeRating.machine.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

const input = { channel: 'trade-42', partner: 'bob' };
const SAVED = 'Thanks for your rating.';
const REFUSED = 'You have already rated this trade.';
const TOO_LONG = 'A comment can be at most 500 characters';
/** The comments a trader types: none, one with blanks around it, and one a character over the limit. */
const comments = ['', '  Late  ', 'y'.repeat(501)];

/**
 * What can happen to "Rate bob": a score is chosen (or changed), a comment typed, Submit pressed (with or without a
 * score, with a comment too long); the call answers the sentence of the toast or is refused. While it runs the
 * trader may still press the stars or Submit: nothing may change.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as TradeRatingContext;
  if (snapshot.matches('editing')) {
    return [
      { type: 'rating.score.change', score: context.score === 3 ? 5 : 3 },
      ...comments.filter((value) => value !== context.comment).map((value) => ({ type: 'rating.comment.change', value })),
      { type: 'rating.submit' },
    ];
  }
  if (snapshot.matches('submitting')) {
    return [
      { type: 'rating.score.change', score: 1 },
      { type: 'rating.submit' },
      { type: 'xstate.done.actor.rate', output: SAVED },
      { type: 'xstate.error.actor.rate', error: new Error(REFUSED) },
    ];
  }
  return [];
}

const model = walk(tradeRatingLogic, { events, input });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['rate']);
  const notices: Notice[] = [];
  const actor = createActor(
    tradeRatingLogic.provide({ actors: fakes.actors as never, actions: { notify: (_, notice) => void notices.push(notice) } }),
    { input, inspect: coverage?.inspect },
  ).start();

  // The oracle: the form as the trader filled it in, and whether the rating went, written without the chart.
  let score: number | null = null;
  let comment = '';
  let form: 'editing' | 'sending' | 'rated' = 'editing';
  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedNotices: Notice[] = [];
  // A comment is measured without the blanks around it (the contract trims it).
  const valid = () => score !== null && comment.trim().length <= 500;
  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'rating.score.change':
        if (form === 'editing') score = event.score as number;
        break;
      case 'rating.comment.change':
        if (form === 'editing') comment = event.value as string;
        break;
      case 'rating.submit':
        if (form === 'editing' && valid()) {
          form = 'sending';
          // A blank comment is not sent; one with blanks around it goes trimmed.
          expectedCalls.push({ id: 'rate', input: { channel: input.channel, score, ...(comment.trim() ? { comment: comment.trim() } : {}) } });
        }
        break;
      case 'xstate.done.actor.rate':
        form = 'rated';
        expectedNotices.push({ title: 'Rating sent', description: SAVED, type: 'success' });
        break;
      case 'xstate.error.actor.rate':
        // The refusal is the shared API handling's toast; the stars and the comment stay as typed.
        form = 'editing';
        break;
    }

    expect(selectRatingPartner(snapshot as never)).toBe('bob');
    expect(selectRatingScore(snapshot as never)).toBe(score);
    expect(selectRatingComment(snapshot as never)).toBe(comment);
    expect(selectRatingCommentError(snapshot as never)).toBe(comment.trim().length > 500 ? TOO_LONG : undefined);
    expect(selectIsRatingBusy(snapshot as never), 'Submit shows it is sending').toBe(form === 'sending');
    expect(selectCanSubmitRating(snapshot as never), 'Submit enabled').toBe(form === 'editing' && valid());
    expect(snapshot.status).toBe(form === 'rated' ? 'done' : 'active');
    // The conversation keeps what the server took as its my_rating: "You rated bob N/5".
    if (form === 'rated') expect(snapshot.output).toEqual({ score, comment: comment.trim() });
    expect(fakes.calls).toEqual(expectedCalls);
    expect(notices).toEqual(expectedNotices);
  });
  actor.stop();
}

describe('tradeRating: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(15);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(tradeRatingLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(tradeRatingLogic);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'xstate.error.actor.rate' || event.type === 'rating.comment.change');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'tradeRating.editing —rating.comment.change#0→ (stays)',
      'tradeRating.submitting —xstate.error.actor.rate#0→ tradeRating.editing',
    ]);
  });
});
