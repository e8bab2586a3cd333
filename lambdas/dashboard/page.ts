import { createHash } from 'node:crypto';
import { playgroundMarkup, playgroundScript, playgroundStyles } from './playground.ts';
import { script as dashboardScript } from './script.ts';
import { styles as dashboardStyles } from './styles.ts';

// One self-contained page: markup, style and script inline, so it needs no
// build step and nothing but the service itself. The CSP allows exactly this
// script and style (by hash) and requests to the service's own origin.

// The playground's script runs after the dashboard's, which hands it its helpers (window.docexDashboard).
const script = `${dashboardScript}\n${playgroundScript}`;
const styles = `${dashboardStyles}\n${playgroundStyles}`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const contentSecurityPolicy = [
  "default-src 'none'",
  `script-src ${hash(script)}`,
  `style-src ${hash(styles)}`,
  // The upload flow PUTs large documents to a presigned S3 URL (the local server's embedded S3 on loopback), and a
  // result over 5 MB is fetched from one; page images are fetched with the key and shown from Blob URLs.
  "connect-src 'self' https://*.amazonaws.com http://127.0.0.1:* http://localhost:*",
  'img-src data: blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const EVENTS = ['job.completed', 'job.failed', 'job.cancelled'];
const STATUSES = ['awaiting_upload', 'pending', 'processing', 'chunking', 'aggregating', 'completed', 'partial_success', 'failed', 'cancelled'];

export const dashboardPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docex dashboard</title>
<style>${styles}</style>
</head>
<body>
<header>
  <h1>docex dashboard</h1>
  <nav id="app-nav" aria-label="Sections" hidden><a href="#playground">Try a document</a><a href="#keys">API keys</a><a href="#webhooks">Webhooks</a><a href="#jobs">Jobs</a><a href="#usage">Usage</a></nav>
  <button id="signout" type="button" class="secondary" hidden>Sign out</button>
</header>
<main>
  <section id="signin" aria-labelledby="signin-title">
    <h2 id="signin-title">Sign in</h2>
    <p class="muted">Use a live API key of your project. It stays in this browser tab only and is forgotten when the tab closes.</p>
    <form id="signin-form">
      <label for="api-key">Live API key</label>
      <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" placeholder="kz_..." required>
      <div class="row"><button type="submit">Sign in</button></div>
      <p id="signin-message" role="alert"></p>
    </form>
  </section>

  <div id="app" hidden>
${playgroundMarkup}
    <section id="keys" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <div class="row"><button id="create-key" type="button">Create key</button></div>
      <div id="new-key-box" class="once" hidden>
        <p><strong>Copy this key now: it will not be shown again.</strong> Only its hash is stored.</p>
        <p><code id="new-key"></code></p>
        <button id="copy-key" type="button" class="secondary">Copy key</button>
      </div>
      <p id="keys-message" role="status"></p>
      <div class="table-wrap"><table>
        <caption class="muted">Keys of this project</caption>
        <thead><tr><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
        <tbody id="keys-body"></tbody>
      </table></div>
    </section>

    <section id="webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <form id="webhook-form">
        <label for="webhook-url">Receiver URL (https://)</label>
        <input id="webhook-url" type="url" required placeholder="https://example.com/docex-hook">
        <fieldset><legend>Events</legend>
          ${EVENTS.map((e) => `<label><input type="checkbox" name="event" value="${e}" checked> ${e}</label>`).join('\n          ')}
        </fieldset>
        <label for="webhook-secret">Secret (optional, 32 bytes or more; one is generated when left empty)</label>
        <input id="webhook-secret" type="password" autocomplete="off">
        <div class="row"><button type="submit">Register webhook</button></div>
      </form>
      <div id="new-secret-box" class="once" hidden>
        <p><strong>Copy this signing secret now: it will not be shown again.</strong> Deliveries carry X-Webhook-Signature: sha256=HMAC of the body with it.</p>
        <p><code id="new-secret"></code></p>
      </div>
      <p id="webhooks-message" role="status"></p>
      <div class="table-wrap"><table>
        <caption class="muted">Registered webhooks</caption>
        <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Secret fingerprint</th><th scope="col">Actions</th></tr></thead>
        <tbody id="webhooks-body"></tbody>
      </table></div>
      <h3>Recent deliveries</h3>
      <p id="deliveries-empty" class="muted">No deliveries for the recent jobs.</p>
      <div class="table-wrap"><table>
        <thead><tr><th scope="col">When</th><th scope="col">File</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">HTTP</th><th scope="col">Time</th><th scope="col">Outcome</th></tr></thead>
        <tbody id="deliveries-body"></tbody>
      </table></div>
    </section>

    <section id="jobs" aria-labelledby="jobs-title">
      <h2 id="jobs-title">Jobs</h2>
      <div class="row">
        <label for="job-status">Status</label>
        <select id="job-status"><option value="">All</option>${STATUSES.map((s) => `<option value="${s}">${s}</option>`).join('')}</select>
        <button id="refresh-jobs" type="button" class="secondary">Refresh</button>
      </div>
      <p id="jobs-message" role="status"></p>
      <p id="jobs-empty" class="muted" hidden>No jobs yet.</p>
      <div class="table-wrap"><table>
        <caption class="muted">Most recent first</caption>
        <thead><tr><th scope="col">File</th><th scope="col">Status</th><th scope="col">Pages</th><th scope="col">Submitted</th><th scope="col">Result</th></tr></thead>
        <tbody id="jobs-body"></tbody>
      </table></div>
      <div class="row"><button id="more-jobs" type="button" class="secondary" hidden>Load more</button></div>
    </section>

    <section id="usage" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <div class="stats">
        <div class="stat"><span class="muted">Pages today (UTC)</span><strong id="pages-today">-</strong></div>
        <div class="stat"><span class="muted">Pages this month</span><strong id="pages-month">-</strong></div>
      </div>
      <p id="usage-message" role="status"></p>
    </section>
  </div>
</main>
<dialog id="confirm" aria-labelledby="confirm-title">
  <form method="dialog">
    <h2 id="confirm-title">Revoke key</h2>
    <p id="confirm-text"></p>
    <div class="row"><button value="cancel" class="secondary">Cancel</button><button value="revoke" class="danger">Revoke</button></div>
  </form>
</dialog>
<script>${script}</script>
</body>
</html>
`;
