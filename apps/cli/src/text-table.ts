/** How {@link formatTable} lays rows out. */
export interface TableOptions {
  /** Lines are cut to this many characters by shortening the last column (with `…`). Default: no limit. */
  maxWidth?: number;
  /** Applied to the header line after padding (so colour codes do not skew the columns). */
  header?: (line: string) => string;
}

/** Renders rows as fixed-width columns (the first row is the header). */
export function formatTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row, index) => {
      let line = row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd();
      if (options.maxWidth !== undefined && line.length > options.maxWidth)
        line = `${line.slice(0, Math.max(0, options.maxWidth - 1))}…`;
      return index === 0 && options.header ? options.header(line) : line;
    })
    .join('\n');
}
