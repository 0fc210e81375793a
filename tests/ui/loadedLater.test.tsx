import { act, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { useLoadedLater } from '../../src/ui/primitives/useLoadedLater.ts';

function Later({ load }: { load: () => Promise<ComponentType<object>> }) {
  const { View } = useLoadedLater(load);
  return View ? <View /> : <p>Not yet</p>;
}

describe('useLoadedLater: a panel or dialog fetched after the page', () => {
  it('asks for its code a task after the first commit, not in it, then shows it', async () => {
    const load = vi.fn(async () => () => <p>The panel</p>);
    act(() => void render(<Later load={load} />));
    // The commit and its effects are over: the import has not been asked for in them.
    expect(load).not.toHaveBeenCalled();
    expect(screen.getByText('Not yet')).toBeTruthy();
    expect(await screen.findByText('The panel')).toBeTruthy();
    expect(load).toHaveBeenCalledOnce();
  });
});
