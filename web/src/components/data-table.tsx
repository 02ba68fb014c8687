import type { ComponentChildren } from 'preact';

/** One column: its header and what a row shows in it. */
export interface Column<T> {
  header: ComponentChildren;
  /** Names the column among the row's cells (the header's text, unless that is not a string). */
  key: string;
  cell(row: T): ComponentChildren;
  /** A class for the column's cells (`actions` for a row's buttons). */
  class?: string;
}

interface DataTableProps<T> {
  /** What the table lists, said to screen readers (the section's heading shows it to everyone else). */
  caption: string;
  columns: readonly Column<T>[];
  /** Undefined while loading: nothing is shown. */
  rows: readonly T[] | undefined;
  rowKey(row: T): string;
  /** Said instead of an empty table. */
  empty?: ComponentChildren;
}

/**
 * The dashboard's tables: a caption for screen readers, column headers, a row each, and a sentence instead
 * of a table with no rows. The wrapper scrolls sideways on a narrow screen rather than the page.
 */
export function DataTable<T>({ caption, columns, rows, rowKey, empty }: DataTableProps<T>) {
  if (rows === undefined) return null;
  if (rows.length === 0) return empty === undefined ? null : <p>{empty}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c.key}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} class={c.class}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
