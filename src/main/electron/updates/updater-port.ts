// What the update controller needs of an updater. electron-updater provides it in the packaged app
// (electron-updater-port.ts); the tests pass their own, so every decision (when to look, when to
// download, when to restart) is tested under plain Node, without Electron or a network.

export interface FoundUpdate {
  version: string;
}

export interface UpdaterPort {
  /** Asks the releases feed; resolves the newer version, or null when this one is the newest. Downloads nothing. */
  check(): Promise<FoundUpdate | null>;
  /** Downloads the update the last check found, reporting progress in whole percent. */
  download(onProgress: (percent: number) => void): Promise<void>;
  /** Whether a downloaded update is installed when the app quits by other means than restartToUpdate. */
  setInstallOnQuit(on: boolean): void;
  /** Quits, installs the downloaded update and starts the new version. */
  quitAndInstall(): void;
}
