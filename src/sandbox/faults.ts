// Injected faults: the next N requests matching method and path prefix lose their connection
// before or after being applied, get a 500 or a 503 (with Retry-After if asked), or are delayed. They let client tests prove what they
// do when an outcome is unknown (DECISIONS client 8).
import { z } from 'zod';

export const FAULT_MODES = ['close_before', 'close_after', 'status_500', 'status_503', 'delay'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export const faultSpecSchema = z
  .strictObject({
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'method must be an HTTP method name')
      .optional(),
    path_prefix: z.string().startsWith('/', 'path_prefix must start with /').optional(),
    mode: z.enum(FAULT_MODES),
    count: z.number().int().positive().optional(),
    delay_ms: z.number().int().min(0).max(600_000).optional(),
    /** status_503: the answer's Retry-After, in seconds. */
    retry_after: z.number().int().min(0).max(86_400).optional(),
  })
  .refine((f) => (f.mode === 'delay') === (f.delay_ms !== undefined), {
    message: 'delay_ms is required for mode delay and only allowed with it',
    path: ['delay_ms'],
  })
  .refine((f) => f.retry_after === undefined || f.mode === 'status_503', {
    message: 'retry_after is only allowed with mode status_503',
    path: ['retry_after'],
  });
export type FaultSpec = z.infer<typeof faultSpecSchema>;

export interface Fault {
  id: number;
  method: string | null;
  path_prefix: string;
  mode: FaultMode;
  remaining: number;
  delay_ms: number | null;
  retry_after: number | null;
}

export class Faults {
  private list: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      id: this.nextId++,
      method: spec.method?.toUpperCase() ?? null,
      path_prefix: spec.path_prefix ?? '/',
      mode: spec.mode,
      remaining: spec.count ?? 1,
      delay_ms: spec.delay_ms ?? null,
      retry_after: spec.retry_after ?? null,
    };
    this.list.push(fault);
    return fault;
  }

  all(): Fault[] {
    return this.list.map((f) => ({ ...f }));
  }

  remove(id: number): boolean {
    const before = this.list.length;
    this.list = this.list.filter((f) => f.id !== id);
    return this.list.length !== before;
  }

  clear(): void {
    this.list = [];
  }

  /** Consumes one use of the oldest fault matching the request, if any. */
  take(method: string, path: string): Fault | undefined {
    if (this.list.length === 0) return undefined;
    const i = this.list.findIndex((f) => (f.method === null || f.method === method) && path.startsWith(f.path_prefix));
    if (i < 0) return undefined;
    const f = this.list[i];
    f.remaining--;
    if (f.remaining <= 0) this.list.splice(i, 1);
    return { ...f };
  }
}
