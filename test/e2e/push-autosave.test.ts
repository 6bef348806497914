import { describe, expect, it } from 'vitest';
import { openAccount, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { writePush } from './flows/push';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

describe('Push composer keeps every edit', () => {
  const title = `Typed push ${Date.now()}`;

  it('still holds what was typed after a reload right after the last keystroke, without Save', async () => {
    const { page } = app;
    await writePush(page, { title, url: 'https://news.example.com/kept', performer: 'kept@example.com' });
    // No pause for the autosave and no Save as draft: the reload comes right after the last keystroke.
    await page.reload();
    await openAccount(page, account.account_id);
    await page.getByTestId('tab-push').click();
    await expect.poll(() => page.getByTestId('push-title').inputValue(), { timeout: 15_000 }).toBe(title);
    expect(await page.getByTestId('push-url').inputValue()).toBe('https://news.example.com/kept');
    expect(await page.getByTestId('push-performer').inputValue()).toBe('kept@example.com');
    // Recovered edits are saved to the core again, and the composer says so quietly.
    await expect.poll(() => page.getByTestId('push-save-state').textContent(), { timeout: 15_000 }).toBe('Saved');

    // One draft holds it, not one per save.
    await page.getByTestId('tab-drafts').click();
    const item = page.getByTestId('draft-item').filter({ hasText: title });
    await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
    expect(await item.textContent()).toContain('push');
  });

  it('autosaves later edits to the same draft, and opens it from the Drafts tab', async () => {
    const { page } = app;
    await page.getByTestId('tab-push').click();
    await page.getByTestId('push-title').fill(`${title} (edited)`);
    await expect.poll(() => page.getByTestId('push-save-state').textContent(), { timeout: 15_000 }).toBe('Saved');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    expect(await page.getByTestId('push-title').inputValue()).toBe('');

    await page.getByTestId('tab-drafts').click();
    const item = page.getByTestId('draft-item').filter({ hasText: title });
    await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => item.textContent(), { timeout: 15_000 }).toContain(`${title} (edited)`);
    await item.click();
    expect(await page.getByTestId('push-title').inputValue()).toBe(`${title} (edited)`);
    expect(await page.getByTestId('push-performer').inputValue()).toBe('kept@example.com');
    expect(app.pageErrors).toEqual([]);
  });
});
