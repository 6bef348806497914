// CSV and TSV in and out, with papaparse (quotes, embedded tabs and newlines, BOMs): TSV is what a
// spreadsheet takes from the clipboard, CSV what it opens from a file.
import Papa from 'papaparse';

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return first:
 * `=HYPERLINK(...)` in a campaign name exported from a hostile service, say) is written with a
 * leading apostrophe, which spreadsheets read as "this is text". A plain number (-5, +3.2) is no
 * formula and stays as it is. A cell that already starts with apostrophes before such a character
 * gets one more, so that parseDelimited's single strip gives back exactly what was written.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function escapeFormula(cell: string): string {
  return FORMULA_START.test(cell) && !NUMBER.test(cell) ? `'${cell}` : cell;
}

/** What escapeFormula wrote, read back. */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/** Rows of cells as text; the first row is the header. Formula-like cells are escaped. */
export function toDelimited(rows: string[][], delimiter: ',' | '\t'): string {
  return Papa.unparse(
    rows.map((r) => r.map(escapeFormula)),
    { delimiter, newline: '\r\n', quotes: false, escapeFormulae: false },
  );
}

/** Header and records of a CSV or TSV text; the delimiter is guessed when not given. */
export function parseDelimited(text: string, delimiter?: ',' | '\t'): { header: string[]; rows: string[][]; errors: string[] } {
  const out = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: delimiter ?? '', skipEmptyLines: 'greedy' });
  const [header = [], ...rows] = out.data.map((r) => r.map(unescapeFormula));
  return { header: header.map((h) => h.trim()), rows, errors: out.errors.map((e) => `Row ${(e.row ?? 0) + 1}: ${e.message}`) };
}

/** Offers text as a file download (the browser's or Electron's save flow). */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
