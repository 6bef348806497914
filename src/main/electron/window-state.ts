// Remembers the window's size and position between runs in a small JSON file in userData. The file
// is parsed with zod (a damaged file means defaults, never a crash) and a position that no longer
// falls on any display (a monitor was unplugged) is dropped so the window opens centred.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const windowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(200).max(20000),
  height: z.number().int().min(200).max(20000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 800, maximized: false };
const MIN_WIDTH = 800;
const MIN_HEIGHT = 500;
/** How much of the window (its top strip, where the title bar is) must be on a display to keep the position. */
const VISIBLE_STRIP = 48;

export function readWindowState(file: string): WindowState {
  try {
    const parsed = windowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : { ...DEFAULT_WINDOW_STATE };
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
}

export function writeWindowState(file: string, state: WindowState): void {
  const checked = windowStateSchema.parse(state);
  mkdirSync(dirname(file), { recursive: true });
  // Write then rename, so a crash mid-write leaves the previous file rather than half a file.
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(checked));
  renameSync(tmp, file);
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Fits a remembered state to today's displays: size clamped to the largest work area, and the
 * position kept only if the window's title strip is on some display.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (workAreas.length === 0) return state;
  const maxW = Math.max(...workAreas.map((a) => a.width));
  const maxH = Math.max(...workAreas.map((a) => a.height));
  const width = Math.max(Math.min(state.width, maxW), Math.min(MIN_WIDTH, maxW));
  const height = Math.max(Math.min(state.height, maxH), Math.min(MIN_HEIGHT, maxH));
  const out: WindowState = { width, height, maximized: state.maximized };
  if (state.x !== undefined && state.y !== undefined) {
    const strip: Rect = { x: state.x, y: state.y, width, height: Math.min(VISIBLE_STRIP, height) };
    const needed = Math.min(strip.width, 100) * strip.height;
    if (workAreas.some((a) => overlap(strip, a) >= needed)) {
      out.x = state.x;
      out.y = state.y;
    }
  }
  return out;
}
