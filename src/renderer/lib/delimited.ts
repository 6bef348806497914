// CSV and TSV in and out, with papaparse (quotes, embedded tabs and newlines, BOMs): TSV is what a
// spreadsheet takes from the clipboard, CSV what it opens from a file.
import Papa from 'papaparse';

/** Rows of cells as text; the first row is the header. */
export function toDelimited(rows: string[][], delimiter: ',' | '\t'): string {
  return Papa.unparse(rows, { delimiter, newline: '\r\n', quotes: false, escapeFormulae: false });
}

/** Header and records of a CSV or TSV text; the delimiter is guessed when not given. */
export function parseDelimited(text: string, delimiter?: ',' | '\t'): { header: string[]; rows: string[][]; errors: string[] } {
  const out = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: delimiter ?? '', skipEmptyLines: 'greedy' });
  const [header = [], ...rows] = out.data;
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
