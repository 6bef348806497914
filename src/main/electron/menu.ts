// The native menu: the standard roles give the usual shortcuts (and the clipboard in text fields);
// reload and devtools only in development, so production cannot be reloaded into a half state.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  appName: string;
  isMac: boolean;
  isDev: boolean;
}

export function buildMenuTemplate({ appName, isMac, isDev }: MenuOptions): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push({ label: 'File', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] });
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  });
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (isDev) view.unshift({ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  template.push({ label: 'View', submenu: view });
  template.push({
    label: 'Window',
    submenu: isMac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  });
  template.push({ role: 'help', submenu: [{ label: `About ${appName}`, role: 'about' }] });
  return template;
}
