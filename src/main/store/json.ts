// JSON columns: written with JSON.stringify, read back through a zod schema.
import type { z } from 'zod';
import { describeIssues } from './errors';

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function toJsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Parses a JSON column; a failure is reported as a reason (for quarantine), never thrown. */
export function parseJsonColumn<S extends z.ZodType>(schema: S, text: string | null): ParseOutcome<z.infer<S>> {
  let data: unknown;
  try {
    data = text === null ? null : JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  const r = schema.safeParse(data);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, reason: describeIssues(r.error.issues) };
}
