// Exports a person opens in a spreadsheet: a cell that would run as a formula is escaped, and our
// own import reads back exactly what was exported.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeFormula, parseDelimited, toDelimited } from '../../../src/renderer/lib/delimited';

describe('CSV and TSV exports', () => {
  it('writes formula-like cells as text a spreadsheet will not run', () => {
    for (const cell of ['=HYPERLINK("http://x.example","click")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '-cmd|calc', "'=1"]) {
      expect(escapeFormula(cell), cell).toBe(`'${cell}`);
    }
    const csv = toDelimited(
      [
        ['name', 'cpc'],
        ['=1+1', '-0.5'],
      ],
      ',',
    );
    expect(csv.split('\r\n')[1]).toBe("'=1+1,-0.5");
  });

  it('keeps plain numbers and ordinary text as they are', () => {
    for (const cell of ['-5', '+3.2', '-0.25', '1e6', 'Spring sale', 'a=b', 'john@example.com', ''])
      expect(escapeFormula(cell), cell).toBe(cell);
  });

  it('reads back exactly what it exported, for any cells', () => {
    const cell = fc.oneof(
      fc.string(),
      fc.constantFrom('=', '+', '-', '@', "'", '\t', '\r').chain((c) => fc.string().map((s) => c + s)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(',' as const, '\t' as const),
        (rows, delimiter) => {
          const table = [['a', 'b'], ...rows];
          // Rows written as blank cells only are skipped on import (skipEmptyLines), as a spreadsheet's blank line.
          const kept = table.filter((r) => r.some((c) => escapeFormula(c).trim() !== ''));
          const back = parseDelimited(toDelimited(table, delimiter), delimiter);
          expect([back.header, ...back.rows]).toEqual(kept);
        },
      ),
      { numRuns: 500 },
    );
  });
});
