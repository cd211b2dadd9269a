import { defineConfig } from '@playwright/test';

/** LIMBER_E2E_PORT moves the page's server (several checkouts on one machine). */
const port = Number(process.env.LIMBER_E2E_PORT ?? 5199);

/** End-to-end tests of the playground with Debian's Chromium (software WebGL2).
 * The browser is Debian's chromium; Playwright never downloads one. */
export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    viewport: { width: 1280, height: 720 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--enable-unsafe-swiftshader',
      ],
    },
  },
  webServer: {
    command: `npx vite --config web/playground/vite.config.ts --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
