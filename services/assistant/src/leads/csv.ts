/**
 * CSV cells as RFC 4180 writes them, plus a guard against formula injection: a spreadsheet runs a
 * cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return, which some treat the same)
 * as a formula, so such a cell is prefixed with a single quote `'` (OWASP's advice). Lead names come
 * from visitors, so this is the only safe default for a file that is opened in Excel.
 */
const FORMULA_START = /^[=+\-@\t\r]/

export const csvCell = (value: string): string => {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(guarded) || /^\s|\s$/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded
}

export const csvLine = (cells: ReadonlyArray<string>): string => `${cells.map(csvCell).join(",")}\r\n`
