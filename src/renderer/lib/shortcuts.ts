// Keyboard shortcuts of a view: one window listener while the view is shown. Labels are what the
// buttons' titles show, so a shortcut is written once.
import { useEffect, useRef } from 'react';
import { MOD_KEY } from './format';

export interface Shortcut {
  /** e.g. "Mod+Enter", "Alt+N", "Mod+S" (Mod is Ctrl, or Cmd on a Mac). */
  keys: string;
  run(): void;
}

export function matches(keys: string, e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  const parts = keys.split('+');
  const key = parts[parts.length - 1].toLowerCase();
  const mods = new Set(parts.slice(0, -1));
  const mod = e.ctrlKey || e.metaKey;
  return mod === mods.has('Mod') && e.altKey === mods.has('Alt') && e.shiftKey === mods.has('Shift') && e.key.toLowerCase() === key;
}

export function shortcutLabel(keys: string): string {
  return keys.replace('Mod', MOD_KEY);
}

export function useShortcuts(list: Shortcut[]): void {
  const ref = useRef(list);
  ref.current = list;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A dialog on top owns the keyboard.
      if (document.querySelector('[role="dialog"]')) return;
      for (const s of ref.current) {
        if (matches(s.keys, e)) {
          e.preventDefault();
          s.run();
          return;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
