// The update entries of the native menu, from the controller's snapshot: where the person agrees to
// automatic updates, checks by hand, and finds "Restart to Update" once a version is downloaded.
// On macOS they sit in the app menu under About (where Mac apps keep them), elsewhere in Help.
import type { MenuItemConstructorOptions } from 'electron';
import type { UpdateSnapshot } from './controller';

export interface UpdateMenuActions {
  checkNow(): void;
  setAutomatic(on: boolean): void;
  download(): void;
  restartToUpdate(): void;
}

export const UPDATE_AUTOMATICALLY = 'Update Automatically';

export function updateMenuItems({ state, automatic }: UpdateSnapshot, actions: UpdateMenuActions): MenuItemConstructorOptions[] {
  if (state.kind === 'unavailable') return [{ id: 'updates-unavailable', label: `Updates: ${state.reason}`, enabled: false }];
  const main: MenuItemConstructorOptions =
    state.kind === 'ready'
      ? { id: 'updates-restart', label: `Restart to Update (${state.version})`, click: () => actions.restartToUpdate() }
      : state.kind === 'available'
        ? { id: 'updates-download', label: `Download Update (${state.version})…`, click: () => actions.download() }
        : state.kind === 'downloading'
          ? { id: 'updates-downloading', label: `Downloading Update (${state.version})… ${state.percent}%`, enabled: false }
          : state.kind === 'checking'
            ? { id: 'updates-checking', label: 'Checking for Updates…', enabled: false }
            : { id: 'updates-check', label: 'Check for Updates…', click: () => actions.checkNow() };
  return [
    main,
    // The checkbox shows the remembered answer; a click asks for the opposite of it (Electron has
    // already toggled the item by the time the handler runs, so its own `checked` is not used).
    {
      id: 'updates-automatic',
      label: UPDATE_AUTOMATICALLY,
      type: 'checkbox',
      checked: automatic,
      click: () => actions.setAutomatic(!automatic),
    },
  ];
}

/** The application menu with the update entries added; the template passed in is not changed. */
export function withUpdateItems(
  template: readonly MenuItemConstructorOptions[],
  items: MenuItemConstructorOptions[],
  isMac: boolean,
): MenuItemConstructorOptions[] {
  const target = isMac ? 0 : template.findIndex((m) => m.role === 'help');
  return template.map((menu, i) => {
    if (i !== target || !Array.isArray(menu.submenu)) return menu;
    const submenu = [...menu.submenu];
    if (isMac) {
      const about = submenu.findIndex((item) => item.role === 'about');
      submenu.splice(about + 1, 0, { type: 'separator' }, ...items);
    } else {
      submenu.push({ type: 'separator' }, ...items);
    }
    return { ...menu, submenu };
  });
}
