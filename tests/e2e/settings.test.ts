/**
 * The settings page and the ways to it, in real Chromium against the real built server: the
 * choices apply at once and are remembered on the device; signed in they are the account's, so a
 * second device gets them; move confirmation on a phone holds a board move until Confirm; the
 * notification page promises only the notifications the site sends.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { clickMove, pieceOn, VIEWPORTS, waitForMail } from './harness';
import { colorOf, enterAsGuest, newContext, newPage, shoot, site, useSite, waitTurn } from './siteSession';
import { nodeSupabaseClient } from '../accounts/harness';
import { NOTIFIED_EVENTS } from '../../client/src/app/notifications';

useSite();

const checkbox = (page: Page, name: string) => page.getByRole('checkbox', { name: new RegExp(`^${name}`) });

describe('settings', () => {
  it('a real settings page: every choice applies at once and is remembered on this device', async () => {
    const page = await newPage();
    await page.goto(site().url);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(`${site().url}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.getByTestId('settings-scope').textContent()).toBe('Saved on this device.');
    expect(await checkbox(page, 'Premoves').isChecked()).toBe(true);
    expect(await checkbox(page, 'Zen mode').isChecked()).toBe(false);
    await page.getByLabel('Board colours').selectOption('blue');
    await page.getByLabel('Piece set').selectOption('glyph');
    await checkbox(page, 'Sounds').uncheck();
    await checkbox(page, 'Premoves').uncheck();
    await checkbox(page, 'Confirm moves on a phone').check();
    await checkbox(page, 'Zen mode').check();
    expect(await page.evaluate(() => ({ ...document.documentElement.dataset }))).toMatchObject({ board: 'blue', pieces: 'glyph', zen: 'on' });
    await shoot(page, 'settings');

    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.getByLabel('Board colours').inputValue()).toBe('blue');
    expect(await page.getByLabel('Piece set').inputValue()).toBe('glyph');
    expect(await checkbox(page, 'Sounds').isChecked()).toBe(false);
    expect(await checkbox(page, 'Premoves').isChecked()).toBe(false);
    expect(await checkbox(page, 'Confirm moves on a phone').isChecked()).toBe(true);
    expect(await checkbox(page, 'Zen mode').isChecked()).toBe(true);
  });

  it('the notification page promises only the notifications the site sends', async () => {
    const page = await newPage();
    await enterAsGuest(page, '/notifications');
    await page.getByRole('heading', { name: "Get notified when it's your move" }).waitFor();
    expect(await page.locator('ul.reasons li').allTextContents()).toEqual([...NOTIFIED_EVENTS]);
    expect(await page.getByText(/message|challeng/i).count()).toBe(0);
  });

  it('on a phone with confirmation on, a board move waits for Confirm; Cancel puts the piece back', async () => {
    const ctx = await newContext();
    const page = await ctx.newPage();
    await page.setViewportSize(VIEWPORTS.mobile);
    await enterAsGuest(page, '/settings');
    await checkbox(page, 'Confirm moves on a phone').check();
    await page.goto(`${site().url}/chess/ai`);
    await page.getByRole('button', { name: /Beginner/ }).click();
    await page.getByRole('button', { name: /White/ }).click();
    await page.getByRole('button', { name: 'Start Game' }).click();
    expect(await colorOf(page)).toBe('white');
    await waitTurn(page);
    const moves = page.getByTestId('move-list').getByRole('button');
    await clickMove(page, 'e2', 'e4');
    const confirm = page.getByRole('button', { name: 'Confirm e2-e4' });
    await confirm.waitFor();
    expect(await moves.count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => pieceOn(page, 'e2')).toBe('white pawn');
    expect(await pieceOn(page, 'e4')).toBeNull();
    expect(await moves.count()).toBe(0);
    await clickMove(page, 'e2', 'e4');
    await confirm.click();
    await expect.poll(() => moves.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    expect(await moves.first().textContent()).toBe('e4');
  });

  it("signed in, the settings are the account's: a second device that signs in gets them; Profile is in the header and on home", async () => {
    const { supabaseUrl, supabaseAnonKey } = (await (await fetch(`${site().url}/config.json`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
    const email = `settings.${Date.now()}@example.com`;
    const password = 'settings-secret-1';
    const username = `set_${Date.now() % 1_000_000}`;
    const api = nodeSupabaseClient(supabaseUrl, supabaseAnonKey);
    const { error } = await api.auth.signUp({ email, password, options: { data: { username } } });
    if (error) throw error;
    const mail = await waitForMail(site(), email, (m) => m.links.some((l) => l.includes('type=signup')));
    await fetch(mail.links.find((l) => l.includes('type=signup'))!, { redirect: 'manual' });

    const signIn = async (page: Page) => {
      await page.goto(`${site().url}/login?returnUrl=%2Fsettings`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`${site().url}/settings`);
      await page.getByTestId('settings-scope').filter({ hasText: 'Saved on this device and in your account.' }).waitFor();
    };
    const first = await newPage();
    await signIn(first);
    await first.getByLabel('Board colours').selectOption('green');
    await checkbox(first, 'Zen mode').check();
    await checkbox(first, 'Premoves').uncheck();
    // saved in the account (a second after the last change)
    await expect.poll(async () => {
      const reader = nodeSupabaseClient(supabaseUrl, supabaseAnonKey);
      await reader.auth.signInWithPassword({ email, password });
      return (await reader.auth.getUser()).data.user?.user_metadata?.preferences as Record<string, unknown> | undefined;
    }, { timeout: 15_000 }).toMatchObject({ board: 'green', zen: true, premoves: false });

    const second = await newPage();
    await signIn(second);
    await expect.poll(() => second.getByLabel('Board colours').inputValue()).toBe('green');
    expect(await checkbox(second, 'Zen mode').isChecked()).toBe(true);
    expect(await checkbox(second, 'Premoves').isChecked()).toBe(false);

    const profile = `/@/${username}`;
    expect(await second.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe(profile);
    await second.goto(site().url);
    expect(await second.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Your Profile' }).getAttribute('href')).toBe(profile);
  });
});
