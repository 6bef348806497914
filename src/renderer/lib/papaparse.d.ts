// The part of papaparse the window uses, typed without Node. @types/papaparse starts with
// `/// <reference types="node" />` (for its Node stream API), which pulled all of Node's types
// into the window's program: `fs` and `process` then type-checked in renderer code. tsconfig.web.json
// maps 'papaparse' here; the tests' program still reads the full @types/papaparse.
export interface UnparseConfig {
  delimiter?: string;
  newline?: string;
  quotes?: boolean | boolean[];
  escapeFormulae?: boolean | RegExp;
}

export interface ParseConfig {
  delimiter?: string;
  skipEmptyLines?: boolean | 'greedy';
}

export interface ParseError {
  type: 'Quotes' | 'Delimiter' | 'FieldMismatch';
  code: 'MissingQuotes' | 'UndetectableDelimiter' | 'TooFewFields' | 'TooManyFields' | 'InvalidQuotes';
  message: string;
  row?: number;
  index?: number;
}

export interface ParseResult<T> {
  data: T[];
  errors: ParseError[];
}

declare const Papa: {
  unparse(data: unknown[][], config?: UnparseConfig): string;
  parse<T>(text: string, config?: ParseConfig): ParseResult<T>;
};
export default Papa;
