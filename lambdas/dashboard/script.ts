// The dashboard's behaviour: plain browser JavaScript, no build step, no
// external scripts. It calls the public REST API with the signed-in key, which
// lives in this tab's sessionStorage only (never a URL or a cookie). Every
// value from the API is inserted as text (textContent), never as HTML.
export const script = String.raw`
(function () {
  'use strict';
  var STORAGE = 'docex.apiKey';
  var LIVE_KEY = /^kz_[0-9A-Za-z]{29}$/;
  var jobsCursor = null;

  function $(id) { return document.getElementById(id); }
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (name === 'onclick') el.addEventListener('click', value);
      else if (name === 'text') el.textContent = value;
      else if (value !== null && value !== undefined && value !== false) el.setAttribute(name, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) { if (child !== null) el.append(child); });
    return el;
  }
  // Each cell carries its column's header, which a phone-width layout shows beside it (styles.ts).
  function label(tbody) {
    var heads = Array.prototype.map.call(tbody.closest('table').querySelectorAll('thead th'), function (th) { return th.textContent; });
    Array.prototype.forEach.call(tbody.rows, function (row) {
      Array.prototype.forEach.call(row.cells, function (cell, i) { cell.setAttribute('data-label', heads[i] || ''); });
    });
  }
  function say(id, text, isError) {
    var el = $(id);
    el.textContent = text;
    el.className = isError ? 'error' : 'ok';
  }
  function when(iso) { return iso ? new Date(iso).toLocaleString() : 'never'; }
  function age(iso) {
    var s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    if (s < 90) return s + ' s ago';
    if (s < 5400) return Math.round(s / 60) + ' min ago';
    if (s < 129600) return Math.round(s / 3600) + ' h ago';
    return Math.round(s / 86400) + ' d ago';
  }

  // Paths are made relative, so the page works under an API Gateway stage (/prod/dashboard) as at the root.
  // A 429 on a read (a job polled twice inside a second) is waited out as the SDK does: at least its
  // Retry-After, doubling from 1 s, a few times, before the page says anything.
  var MAX_RETRIES = 4;
  function api(method, path, body, key, attempt) {
    attempt = attempt || 0;
    var headers = { authorization: 'Bearer ' + (key || sessionStorage.getItem(STORAGE)) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(path.replace(/^\//, ''), { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
      if (res.status === 429 && method === 'GET' && attempt < MAX_RETRIES) {
        var retryAfter = Number(res.headers.get('retry-after')) || 0;
        var waitMs = Math.max(1000 * Math.pow(2, attempt), retryAfter * 1000);
        return new Promise(function (resolve) { setTimeout(resolve, waitMs); }).then(function () { return api(method, path, body, key, attempt + 1); });
      }
      return res.text().then(function (text) {
        var data = text ? JSON.parse(text) : null;
        if (!res.ok) {
          var error = new Error((data && data.message) || ('The API answered ' + res.status + '.'));
          error.status = res.status;
          throw error;
        }
        return data;
      });
    });
  }

  // What the playground (playground.ts), whose script follows this one, uses of this one.
  window.docexDashboard = { api: api, h: h, refreshJobs: function () { loadJobs(true); } };

  // Sign-in
  function showApp(signedIn) {
    $('signin').hidden = signedIn;
    $('app').hidden = !signedIn;
    $('signout').hidden = !signedIn;
    $('app-nav').hidden = !signedIn;
    if (signedIn) { loadKeys(); loadWebhooks(); loadJobs(true); loadUsage(); }
  }
  $('signin-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var key = $('api-key').value.trim();
    if (key.indexOf('sk_sandbox_') === 0) {
      return say('signin-message', 'Sandbox keys are for trying the API and cannot manage a project. Sign in with a live key (kz_...) of your project.', true);
    }
    if (!LIVE_KEY.test(key)) return say('signin-message', 'That is not a live key: live keys are kz_ followed by 29 letters and digits.', true);
    api('GET', '/v1/keys', undefined, key).then(function () {
      sessionStorage.setItem(STORAGE, key);
      $('api-key').value = '';
      say('signin-message', '', false);
      showApp(true);
    }, function (error) { say('signin-message', error.message, true); });
  });
  $('signout').addEventListener('click', function () { sessionStorage.removeItem(STORAGE); clearShownKey(); showApp(false); $('api-key').focus(); });

  // API keys
  function loadKeys() {
    api('GET', '/v1/keys').then(function (data) {
      var rows = data.keys.map(function (k) {
        var label = k.prefix + '...' + k.last_four;
        var action = k.revoked_at ? h('span', { class: 'muted', text: 'revoked ' + when(k.revoked_at) }) :
          h('button', { type: 'button', class: 'danger', 'aria-label': 'Revoke key ' + label, onclick: function () { confirmRevoke(k.id, label); } }, ['Revoke']);
        return h('tr', {}, [
          h('td', {}, [h('code', { text: label })]),
          h('td', { text: when(k.created_at) }),
          h('td', { text: when(k.last_used_at) }),
          h('td', { text: k.revoked_at ? 'revoked' : (k.current ? 'active (this session)' : 'active') }),
          h('td', {}, [action]),
        ]);
      });
      $('keys-body').replaceChildren.apply($('keys-body'), rows);
      label($('keys-body'));
    }, function (error) { say('keys-message', error.message, true); });
  }
  var shownKeyId = null;
  function clearShownKey() {
    shownKeyId = null;
    $('new-key').textContent = '';
    $('new-key-box').hidden = true;
  }
  $('create-key').addEventListener('click', function () {
    api('POST', '/v1/keys', {}).then(function (created) {
      shownKeyId = created.id;
      $('new-key').textContent = created.api_key;
      $('new-key-box').hidden = false;
      $('copy-key').focus();
      say('keys-message', 'Key created.', false);
      loadKeys();
    }, function (error) { say('keys-message', error.message, true); });
  });
  $('copy-key').addEventListener('click', function () {
    var text = $('new-key').textContent;
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error('no clipboard'))).then(function () {
      say('keys-message', 'Copied to the clipboard.', false);
    }, function () {
      window.getSelection().selectAllChildren($('new-key'));
      say('keys-message', 'Select and copy the key by hand (the clipboard is not available here).', true);
    });
  });
  function confirmRevoke(id, label) {
    $('confirm-text').textContent = 'Revoke ' + label + '? Requests made with it will be refused with 401 at once. This cannot be undone.';
    var dialog = $('confirm');
    dialog.returnValue = '';
    dialog.onclose = function () {
      if (dialog.returnValue !== 'revoke') return;
      api('DELETE', '/v1/keys/' + encodeURIComponent(id)).then(function () {
        // A revoked key's plaintext is of no use any more: it leaves the page.
        if (id === shownKeyId) clearShownKey();
        say('keys-message', 'Key revoked.', false);
        loadKeys();
      },
        function (error) { say('keys-message', error.message, true); });
    };
    dialog.showModal();
  }

  // Webhooks
  function loadWebhooks() {
    api('GET', '/v1/webhooks').then(function (data) {
      var rows = data.webhooks.map(function (w) {
        var result = h('output', { 'aria-live': 'polite' });
        return h('tr', {}, [
          h('td', {}, [h('code', { text: w.url })]),
          h('td', { text: w.events.join(', ') }),
          h('td', {}, [h('code', { text: w.secret_fingerprint })]),
          h('td', {}, [
            h('div', { class: 'row' }, [
              h('button', { type: 'button', class: 'secondary', 'aria-label': 'Send a test event to ' + w.url, onclick: function () { sendTest(w.id, result); } }, ['Send test']),
              h('button', { type: 'button', class: 'danger', 'aria-label': 'Delete webhook ' + w.url, onclick: function () { deleteWebhook(w.id); } }, ['Delete']),
            ]),
            result,
          ]),
        ]);
      });
      $('webhooks-body').replaceChildren.apply($('webhooks-body'), rows);
      label($('webhooks-body'));
    }, function (error) { say('webhooks-message', error.message, true); });
  }
  function sendTest(id, output) {
    output.textContent = 'Sending...';
    api('POST', '/v1/webhooks/' + encodeURIComponent(id) + '/test').then(function (r) {
      output.textContent = (r.status_code ? 'HTTP ' + r.status_code : 'no answer') + ' in ' + r.duration_ms + ' ms' + (r.error ? ': ' + r.error : '');
      output.className = r.delivered ? 'ok' : 'error';
    }, function (error) { output.textContent = error.message; output.className = 'error'; });
  }
  function deleteWebhook(id) {
    api('DELETE', '/v1/webhooks/' + encodeURIComponent(id)).then(function () { say('webhooks-message', 'Webhook deleted.', false); loadWebhooks(); },
      function (error) { say('webhooks-message', error.message, true); });
  }
  $('webhook-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var events = Array.prototype.slice.call(document.querySelectorAll('input[name=event]:checked')).map(function (c) { return c.value; });
    var body = { url: $('webhook-url').value.trim(), events: events };
    if ($('webhook-secret').value) body.secret = $('webhook-secret').value;
    api('POST', '/v1/webhooks', body).then(function (created) {
      $('new-secret').textContent = created.secret;
      $('new-secret-box').hidden = false;
      $('webhook-form').reset();
      say('webhooks-message', 'Webhook registered.', false);
      loadWebhooks();
    }, function (error) { say('webhooks-message', error.message, true); });
  });
  function loadDeliveries(jobs) {
    var recent = jobs.filter(function (j) { return ['completed', 'partial_success', 'failed', 'cancelled'].indexOf(j.status) >= 0; }).slice(0, 10);
    Promise.all(recent.map(function (j) {
      return api('GET', '/v1/jobs/' + j.id + '/deliveries').then(function (d) { return d.deliveries.map(function (a) { a.filename = j.filename; return a; }); }, function () { return []; });
    })).then(function (lists) {
      var attempts = [].concat.apply([], lists).sort(function (a, b) { return Date.parse(b.at) - Date.parse(a.at); });
      var rows = attempts.map(function (a) {
        return h('tr', {}, [
          h('td', { text: age(a.at) }), h('td', { text: a.filename }), h('td', { text: a.event }),
          h('td', { text: String(a.attempt) }), h('td', { text: a.status_code === null ? '-' : String(a.status_code) }),
          h('td', { text: a.duration_ms + ' ms' }), h('td', { text: a.outcome + (a.error ? ': ' + a.error : '') }),
        ]);
      });
      $('deliveries-body').replaceChildren.apply($('deliveries-body'), rows);
      label($('deliveries-body'));
      $('deliveries-empty').hidden = rows.length > 0;
    });
  }

  // Jobs
  function loadJobs(reset) {
    if (reset) jobsCursor = null;
    var query = '?limit=20' + ($('job-status').value ? '&status=' + $('job-status').value : '') + (jobsCursor ? '&cursor=' + encodeURIComponent(jobsCursor) : '');
    api('GET', '/v1/jobs' + query).then(function (data) {
      var rows = data.jobs.map(function (j) {
        var holder = h('div', {});
        return h('tr', {}, [
          h('td', { text: j.filename }),
          h('td', {}, [
            h('span', { class: 'status status-' + j.status, text: j.status }),
            j.error_message ? h('div', { class: 'error job-error', text: j.error_message }) : null,
          ]),
          h('td', { text: j.pages === undefined || j.pages === null ? '-' : String(j.pages) }),
          h('td', {}, [h('time', { datetime: j.created_at, text: age(j.created_at) })]),
          h('td', {}, [h('div', { class: 'row' }, [
            h('button', { type: 'button', 'aria-label': 'Open ' + j.filename + ' in the viewer', onclick: function () { window.docexPlayground.open(j.id); } }, ['Open in viewer']),
            h('button', { type: 'button', class: 'secondary', 'aria-label': 'Result JSON of ' + j.filename, onclick: function () { showResult(j.id, holder); } }, ['Result JSON']),
          ]), holder]),
        ]);
      });
      if (reset) $('jobs-body').replaceChildren.apply($('jobs-body'), rows);
      else rows.forEach(function (r) { $('jobs-body').append(r); });
      jobsCursor = data.next_cursor;
      $('more-jobs').hidden = !jobsCursor;
      label($('jobs-body'));
      var filtered = Boolean($('job-status').value);
      $('jobs-empty').textContent = filtered ? 'No jobs match this filter (status ' + $('job-status').value + '). Choose "all" to see every job.' : 'No jobs yet.';
      $('jobs-empty').hidden = $('jobs-body').children.length > 0;
      if (reset) loadDeliveries(data.jobs);
    }, function (error) { say('jobs-message', error.message, true); });
  }
  function showResult(id, holder) {
    api('GET', '/v1/jobs/' + encodeURIComponent(id)).then(function (job) {
      var json = JSON.stringify(job, null, 2);
      var link = h('a', { href: URL.createObjectURL(new Blob([json], { type: 'application/json' })), download: id + '.json', text: 'Download JSON' });
      holder.replaceChildren(h('details', { open: true }, [h('summary', { text: 'Job ' + id }), h('pre', { text: json }), link]));
    }, function (error) { holder.replaceChildren(h('p', { class: 'error', text: error.message })); });
  }
  $('job-status').addEventListener('change', function () { loadJobs(true); });
  $('more-jobs').addEventListener('click', function () { loadJobs(false); });
  $('refresh-jobs').addEventListener('click', function () { loadJobs(true); loadUsage(); });

  // Usage
  function loadUsage() {
    api('GET', '/v1/usage').then(function (u) {
      $('pages-today').textContent = String(u.pages_today);
      $('pages-month').textContent = String(u.pages_this_month);
    }, function (error) { say('usage-message', error.message, true); });
  }

  showApp(Boolean(sessionStorage.getItem(STORAGE)));
})();
`;
