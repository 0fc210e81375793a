import { render, screen, within } from '@testing-library/react';
import { DataTable } from '../../src/ui/primitives/DataTable.tsx';

/**
 * The product's one data table (the histories, the operator console): a real table whose every cell carries its
 * column's name (`data-label`), which a phone's stylesheet draws before the value when the rows turn into cards.
 */
describe('DataTable', () => {
  const columns = [{ label: 'Date & Time' }, { label: 'Amount (Crypto)', numeric: true }, { label: 'Status', nowrap: true }];

  it('is a table of rows and cells, each cell named by its column, its text its own', () => {
    render(
      <DataTable
        columns={columns}
        rows={[
          { key: 1, cells: ['Mar 05 2026', '0.25000000 BTC', 'Completed'], data: { 'data-status': 'completed' } },
          { key: 2, cells: ['Mar 06 2026', '1.00000000 BTC', 'Pending'] },
        ]}
      />,
    );
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date & Time', 'Amount (Crypto)', 'Status']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveAttribute('data-status', 'completed');
    const cells = within(first!).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Date & Time', 'Amount (Crypto)', 'Status']);
    expect(cells.map((cell) => cell.textContent), 'the label is drawn by CSS, not written into the cell').toEqual(['Mar 05 2026', '0.25000000 BTC', 'Completed']);
    expect(cells[1]).toHaveAttribute('data-numeric', 'true');
    expect(within(second!).getAllByRole('cell')[2]).toHaveTextContent('Pending');
  });

  it('shows `empty` in place of no rows once loaded, and what the screen puts below the table', () => {
    const { rerender } = render(<DataTable columns={columns} rows={[]} empty="Nothing here." loaded={false} />);
    expect(screen.queryByText('Nothing here.')).toBeNull();
    rerender(<DataTable columns={columns} rows={[]} empty="Nothing here." below={<p>Below the rows</p>} />);
    expect(screen.getByText('Nothing here.')).toBeInTheDocument();
    expect(screen.getByText('Below the rows')).toBeInTheDocument();
    expect(screen.getAllByRole('row'), 'the headings only').toHaveLength(1);
  });
});
