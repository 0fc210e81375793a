import { act, render, screen } from '@testing-library/react';
import { LaterToaster, showToast } from '../../src/ui/primitives/LaterToaster.tsx';
import { Toaster, toaster } from '../../src/ui/primitives/Toaster.tsx';
import { forgetViewport, pretendViewport } from './render.tsx';

afterEach(() => {
  act(() => void toaster.remove());
  forgetViewport();
});

const group = () => screen.getByRole('region', { name: /^Notifications/ });

describe('the toaster', () => {
  it('drops toasts from the top on a phone, clear of the chat’s input and buttons at the bottom', async () => {
    pretendViewport(false);
    render(<Toaster />);
    await act(async () => void toaster.create({ title: 'Action Performed!', type: 'success' }));
    expect(await screen.findByText('Action Performed!')).toBeInTheDocument();
    expect(group()).toHaveAttribute('data-placement', 'top');
  });

  it('shows them top right on a laptop, clear of the chat’s Send, and moves them when the window crosses the breakpoint', async () => {
    pretendViewport(true);
    const view = render(<Toaster />);
    await act(async () => void toaster.create({ title: 'Action Performed!', type: 'success' }));
    expect(await screen.findByText('Action Performed!')).toBeInTheDocument();
    expect(group()).toHaveAttribute('data-placement', 'top-end');
    pretendViewport(false);
    await act(async () => view.rerender(<Toaster />));
    expect(group()).toHaveAttribute('data-placement', 'top');
    expect(await screen.findByText('Action Performed!'), 'the toast showing moves along').toBeInTheDocument();
  });

  it('is drawn by the app once the first toast is asked for, and shows that toast', async () => {
    pretendViewport(false);
    const { container } = render(<LaterToaster />);
    expect(container).toBeEmptyDOMElement();
    await act(async () => showToast({ title: 'Offer created', type: 'success' }));
    expect(await screen.findByText('Offer created')).toBeInTheDocument();
    expect(group()).toHaveAttribute('data-placement', 'top');
  });
});
