// The playground: try a document in the dashboard and see what docex saw,
// page by page. Markup, style and script in one module, joined into the one
// page by page.ts (the CSP hashes the joined script and style). Everything
// from a document reaches the page as text (textContent), never as HTML.

const OCR = ['auto', 'always', 'never'];
const CHUNKING = [
  ['', 'none (one chunk per page, the default)'],
  ['page', 'page'],
  ['section', 'section (by headings)'],
  ['size', 'size (max characters)'],
];

export const playgroundMarkup = `
    <section id="playground" aria-labelledby="playground-title">
      <h2 id="playground-title">Try a document</h2>
      <form id="pg-form">
        <div id="pg-drop" class="pg-drop" tabindex="0" role="button" aria-describedby="pg-drop-help" aria-label="Drop a document here, or press Enter to choose a file">
          <p><strong>Drop a document here</strong> or <label for="pg-file" class="pg-inline">choose a file</label></p>
          <p id="pg-drop-help" class="muted">PDF, images, Office, HTML, e-mail, text... Up to 4.5 MB goes in one request; larger files go through the upload flow.</p>
          <input id="pg-file" type="file" class="pg-file">
          <p id="pg-chosen" class="mono" aria-live="polite"></p>
        </div>
        <div class="pg-controls">
          <div><label for="pg-output">Output</label><select id="pg-output"><option value="markdown">markdown</option><option value="text">text</option></select></div>
          <div><label for="pg-pages">Pages (e.g. 1-5,8; empty for all)</label><input id="pg-pages" type="text" inputmode="numeric" autocomplete="off"></div>
          <div><label for="pg-ocr">OCR</label><select id="pg-ocr">${OCR.map((o) => `<option value="${o}">${o}</option>`).join('')}</select></div>
          <div><label for="pg-chunking">Chunking</label><select id="pg-chunking">${CHUNKING.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select></div>
          <div><label for="pg-max-chars">Max characters a chunk (size)</label><input id="pg-max-chars" type="text" inputmode="numeric" placeholder="2000" autocomplete="off"></div>
        </div>
        <div class="row"><button id="pg-submit" type="submit" disabled>Extract</button></div>
      </form>
      <div id="pg-upload-box" hidden><label for="pg-upload">Upload</label><progress id="pg-upload" max="100" value="0"></progress> <span id="pg-upload-text" class="muted"></span></div>
      <p id="pg-message" role="status"></p>
      <ol id="pg-timeline" class="pg-timeline" aria-label="Timeline of the job"></ol>
      <div id="pg-progress-box" hidden><label for="pg-progress">Pages extracted</label><progress id="pg-progress" max="1" value="0"></progress> <span id="pg-progress-text" class="muted"></span></div>

      <div id="pg-viewer" hidden>
        <h3 id="pg-title">Result</h3>
        <p id="pg-error" class="error" role="alert" hidden></p>
        <div id="pg-downloads" class="row"></div>
        <div id="pg-legend" class="pg-legend" aria-label="Element types"></div>
        <div class="pg-split">
          <div id="pg-pages-view" class="pg-pages" aria-label="Pages with the elements found on them"></div>
          <div id="pg-outline-box" class="pg-outline" hidden><h4>Outline</h4><ol id="pg-outline"></ol></div>
          <div class="pg-content-box"><h4>Content</h4><div id="pg-content" class="pg-content"></div></div>
        </div>
        <details id="pg-tables-box"><summary>Tables</summary><div id="pg-tables"></div></details>
        <details id="pg-chunks-box"><summary>Chunks</summary><ol id="pg-chunks" class="pg-chunks"></ol></details>
        <details id="pg-meta-box"><summary>Metadata</summary><pre id="pg-meta"></pre></details>
      </div>
    </section>
`;

// Colours of the element types: each at least 4.5:1 against white, for the legend's text and the boxes' borders.
export const playgroundStyles = String.raw`
.pg-drop { border: 2px dashed #8c959f; border-radius: 8px; padding: 1rem; text-align: center; background: var(--panel); }
.pg-drop.over { border-color: var(--accent); background: #ddf4ff; }
.pg-drop p { margin: .25rem 0; }
.pg-file { display: block; margin: .5rem auto; max-width: 100%; }
.pg-inline { display: inline; font-weight: 600; color: var(--accent); text-decoration: underline; cursor: pointer; margin: 0; }
.pg-controls { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 1rem; }
.pg-controls input, .pg-controls select { width: 100%; padding: .45rem; border: 1px solid #8c959f; border-radius: 6px; font: inherit; }
progress { width: min(20rem, 100%); }
.pg-timeline { display: flex; flex-wrap: wrap; gap: .25rem .5rem; padding: 0; list-style: none; }
.pg-timeline li { background: var(--panel); border: 1px solid var(--line); border-radius: 999px; padding: .1rem .6rem; font-size: .9rem; }
.pg-legend { display: flex; flex-wrap: wrap; gap: .25rem .75rem; margin: .5rem 0; font-size: .9rem; }
.pg-legend span::before { content: ""; display: inline-block; width: .9rem; height: .9rem; margin-right: .3rem; vertical-align: -.1rem; border: 2px solid currentColor; }
.pg-split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
.pg-split.flow { grid-template-columns: minmax(10rem, 1fr) minmax(0, 3fr); }
.pg-pages { display: flex; flex-direction: column; gap: 1rem; }
.pg-page { position: relative; border: 1px solid var(--line); background: #fff; line-height: 0; }
.pg-page img { width: 100%; height: auto; display: block; }
.pg-page .pg-num { position: absolute; top: 0; right: 0; background: var(--ink); color: #fff; font-size: .75rem; line-height: 1.4; padding: 0 .35rem; }
.pg-box { position: absolute; border: 2px solid currentColor; background: transparent; padding: 0; margin: 0; border-radius: 0; cursor: pointer; min-width: 4px; min-height: 4px; }
.pg-box:hover { background: rgba(11, 92, 173, .08); }
.pg-box.active, .pg-el.active { outline: 3px solid #f59e0b; outline-offset: 1px; background: rgba(245, 158, 11, .18); }
.pg-content { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; max-height: 48rem; overflow: auto; }
.pg-content .pg-el { border-left: 4px solid var(--t, var(--line)); padding-left: .5rem; margin: .4rem 0; cursor: pointer; color: var(--ink); }
.pg-content .pg-el:focus-visible { outline: 3px solid #f59e0b; }
.pg-content h1, .pg-content h2, .pg-content h3, .pg-content h4, .pg-content h5, .pg-content h6 { border: 0; margin: .6rem 0 .3rem; }
.pg-outline { border: 1px solid var(--line); border-radius: 6px; padding: .5rem; }
.pg-outline h4, .pg-content-box h4 { margin: 0 0 .4rem; }
.pg-outline ol { padding-left: 1rem; margin: 0; }
.pg-chunks li { margin: .4rem 0; }
.t-title { --t: #8250df; } .t-heading { --t: #b42318; } .t-paragraph { --t: #0b5cad; } .t-list_item { --t: #116329; }
.t-table { --t: #9a3412; } .t-figure { --t: #6e40c9; } .t-caption { --t: #57606a; } .t-code { --t: #1b1f24; }
.t-formula { --t: #0e7490; } .t-footnote { --t: #6b4f00; } .t-page_header, .t-page_footer { --t: #4b5563; }
.pg-legend span, .pg-box { color: var(--t); }
.pg-box.t-page_header, .pg-box.t-page_footer { border-style: dashed; }
@media (max-width: 40rem) {
  .pg-split, .pg-split.flow { grid-template-columns: minmax(0, 1fr); }
  .pg-content table, .pg-content tbody, .pg-content tr, .pg-content td { display: revert; width: auto; }
  .pg-content td::before { content: none; }
  .pg-content tr { border: 0; }
}
`;

export const playgroundScript = String.raw`
(function () {
  'use strict';
  var D = window.docexDashboard;
  var h = D.h, api = D.api;
  var DIRECT_LIMIT = 4.5 * 1024 * 1024;
  var TERMINAL = ['completed', 'partial_success', 'failed', 'cancelled'];
  var TYPES = ['title', 'heading', 'paragraph', 'list_item', 'table', 'figure', 'caption', 'code', 'formula', 'footnote', 'page_header', 'page_footer'];
  var chosen = null;
  var pollToken = 0;
  var urls = [];
  function $(id) { return document.getElementById(id); }
  function say(text, isError) { $('pg-message').textContent = text; $('pg-message').className = isError ? 'error' : 'ok'; }
  function key() { return sessionStorage.getItem('docex.apiKey'); }
  // Inline style attributes are refused by the CSP; properties set through the CSSOM are not.
  function styled(el, props) { Object.keys(props).forEach(function (k) { el.style[k] = props[k]; }); return el; }
  function blobUrl(blob) { var u = URL.createObjectURL(blob); urls.push(u); return u; }

  // Choosing a file: the chooser, or a drop on the zone (Enter or Space on the zone opens the chooser).
  function choose(file) {
    chosen = file || null;
    $('pg-chosen').textContent = chosen ? chosen.name + ' (' + size(chosen.size) + (chosen.size > DIRECT_LIMIT ? ', through the upload flow' : '') + ')' : '';
    $('pg-submit').disabled = !chosen;
  }
  function size(n) { return n < 1024 * 1024 ? Math.max(1, Math.round(n / 1024)) + ' KB' : (n / 1024 / 1024).toFixed(1) + ' MB'; }
  $('pg-file').addEventListener('change', function () { choose($('pg-file').files[0]); });
  var drop = $('pg-drop');
  drop.addEventListener('keydown', function (e) { if (e.target === drop && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); $('pg-file').click(); } });
  ['dragenter', 'dragover'].forEach(function (t) { drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add('over'); }); });
  ['dragleave', 'drop'].forEach(function (t) { drop.addEventListener(t, function () { drop.classList.remove('over'); }); });
  drop.addEventListener('drop', function (e) {
    e.preventDefault();
    var files = e.dataTransfer && e.dataTransfer.files;
    if (files && files.length) choose(files[0]);
  });

  function config() {
    var c = { output: $('pg-output').value, ocr: $('pg-ocr').value };
    var pages = $('pg-pages').value.trim();
    if (pages) c.pages = pages;
    var strategy = $('pg-chunking').value;
    if (strategy) {
      c.chunking = { strategy: strategy };
      var max = $('pg-max-chars').value.trim();
      if (max) c.chunking.max_chars = Number(max);
    }
    return c;
  }

  // One XMLHttpRequest for both paths, for its upload progress events.
  function send(method, url, body, headers) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      xhr.open(method, url);
      Object.keys(headers || {}).forEach(function (name) { xhr.setRequestHeader(name, headers[name]); });
      $('pg-upload-box').hidden = false;
      $('pg-upload').value = 0;
      xhr.upload.onprogress = function (e) {
        if (!e.lengthComputable) return;
        var pct = Math.round((e.loaded / e.total) * 100);
        $('pg-upload').value = pct;
        $('pg-upload-text').textContent = pct + '% of ' + size(e.total);
      };
      xhr.onload = function () {
        $('pg-upload').value = 100;
        var data = null;
        try { data = xhr.responseText ? JSON.parse(xhr.responseText) : null; } catch (e) { data = null; }
        if (xhr.status >= 200 && xhr.status < 300) resolve(data);
        else reject(new Error((data && data.message) || ('The upload answered ' + xhr.status + '.')));
      };
      xhr.onerror = function () { reject(new Error('The upload failed: the connection was lost or refused.')); };
      xhr.send(body);
    });
  }

  $('pg-form').addEventListener('submit', function (event) {
    event.preventDefault();
    if (!chosen) return;
    var file = chosen;
    var cfg = config();
    $('pg-submit').disabled = true;
    $('pg-timeline').replaceChildren();
    lastStep = null;
    $('pg-viewer').hidden = true;
    say('Sending ' + file.name + '...', false);
    var started;
    if (file.size <= DIRECT_LIMIT) {
      var form = new FormData();
      form.append('config', JSON.stringify(cfg));
      form.append('file', file, file.name);
      started = send('POST', 'v1/extract', form, { authorization: 'Bearer ' + key() }).then(function (r) { return r.job_ids[0]; });
    } else {
      started = api('POST', '/v1/uploads', { filename: file.name, size: file.size, content_type: file.type || undefined, config: cfg }).then(function (u) {
        step('awaiting_upload');
        return send('PUT', u.upload_url, file, file.type ? { 'content-type': file.type } : {}).then(function () { return u.job_id; });
      });
    }
    // Polling continues the timeline begun above: an upload may arrive before the first poll.
    started.then(function (id) { say('Submitted: job ' + id + '.', false); poll(id, true); }, function (error) { say(error.message, true); })
      .then(function () { $('pg-submit').disabled = !chosen; });
  });

  // The status timeline: each status once, with the time it was first seen.
  var lastStep = null;
  function step(status) {
    if (status === lastStep) return;
    lastStep = status;
    $('pg-timeline').append(h('li', { class: 'status-' + status }, [h('span', { class: 'status', text: status }), ' ' + new Date().toLocaleTimeString()]));
  }
  // At most one poll a second; api() waits out a 429's Retry-After as the SDK does.
  function poll(id, continuing) {
    var token = ++pollToken;
    if (!continuing) {
      lastStep = null;
      $('pg-timeline').replaceChildren();
    }
    function tick() {
      if (token !== pollToken) return;
      var asked = Date.now();
      api('GET', '/v1/jobs/' + encodeURIComponent(id)).then(function (job) {
        if (token !== pollToken) return;
        step(job.status);
        var p = job.progress;
        $('pg-progress-box').hidden = !p;
        if (p) {
          $('pg-progress').max = Math.max(1, p.pages_total);
          $('pg-progress').value = p.pages_done;
          $('pg-progress-text').textContent = p.pages_done + ' of ' + p.pages_total + ' pages';
        }
        if (TERMINAL.indexOf(job.status) >= 0) return show(job);
        setTimeout(tick, Math.max(0, 1000 - (Date.now() - asked)));
      }, function (error) { say(error.message, true); });
    }
    tick();
  }

  function open(id) {
    pollToken++;
    $('pg-upload-box').hidden = true;
    say('Opening job ' + id + '...', false);
    $('playground').scrollIntoView();
    poll(id);
  }

  function show(job) {
    urls.splice(0).forEach(function (u) { URL.revokeObjectURL(u); });
    $('pg-viewer').hidden = false;
    $('pg-title').textContent = job.filename + ' (' + job.status + ')';
    $('pg-error').hidden = !job.error_message;
    $('pg-error').textContent = job.error_message || '';
    ['pg-downloads', 'pg-legend', 'pg-pages-view', 'pg-content', 'pg-outline', 'pg-tables', 'pg-chunks', 'pg-meta'].forEach(function (id) { $(id).replaceChildren(); });
    $('pg-outline-box').hidden = true;
    if (!job.result && !job.result_url) {
      if (D.refreshJobs) D.refreshJobs();
      say(job.status === 'failed' ? 'The job failed.' : 'The job has no result (' + job.status + ').', job.status === 'failed');
      return;
    }
    var loaded = job.result ? Promise.resolve(job.result) : fetch(job.result_url).then(function (r) { if (!r.ok) throw new Error('The result could not be fetched (' + r.status + ').'); return r.json(); });
    if (D.refreshJobs) D.refreshJobs();
    loaded.then(function (result) { say('Done: ' + job.filename + '.', false); render(job, result); }, function (error) { say(error.message, true); });
  }

  // Element i's box on its page and its block in the content are linked by data-el; activating one marks both.
  function activate(i, from) {
    Array.prototype.forEach.call(document.querySelectorAll('#pg-viewer .active'), function (el) { el.classList.remove('active'); });
    var els = document.querySelectorAll('#pg-viewer [data-el="' + i + '"]');
    Array.prototype.forEach.call(els, function (el) {
      el.classList.add('active');
      if (el !== from) el.scrollIntoView({ block: 'nearest' });
    });
  }
  function linkable(el, i) {
    el.setAttribute('data-el', String(i));
    el.addEventListener('click', function () { activate(i, el); });
    el.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); activate(i, el); } });
    return el;
  }

  function render(job, result) {
    var elements = result.elements || [];
    var meta = result.metadata || {};
    var sizes = {};
    (meta.page_sizes || []).forEach(function (s) { sizes[s.page] = s; });
    var boxed = elements.some(function (e) { return e.bbox; });

    // Downloads: the JSON and the Markdown, as Blob URLs.
    var base = job.filename.replace(/\.[^.]*$/, '') || 'result';
    $('pg-downloads').append(
      h('a', { href: blobUrl(new Blob([JSON.stringify(result, null, 2)], { type: 'application/json' })), download: base + '.json', text: 'Download JSON' }),
      h('a', { href: blobUrl(new Blob([result.content || ''], { type: 'text/markdown' })), download: base + '.md', text: 'Download Markdown' }));

    var present = TYPES.filter(function (t) { return elements.some(function (e) { return e.type === t; }); });
    present.forEach(function (t) { $('pg-legend').append(h('span', { class: 't-' + t, text: t.replace('_', ' ') })); });

    // Pages with boxes (PDFs and images), or the outline beside the content (flow formats).
    var split = document.querySelector('#pg-viewer .pg-split');
    split.classList.toggle('flow', !boxed);
    $('pg-pages-view').hidden = !boxed;
    if (boxed) renderPages(job, elements, sizes, meta);
    else renderOutline(elements);

    renderContent(result, elements);

    (result.tables || []).forEach(function (t, i) {
      $('pg-tables').append(h('h5', { text: 'Table ' + (i + 1) + (t.page ? ' (page ' + t.page + ')' : '') + (t.sheet ? ' (' + t.sheet + ')' : '') }), tableOf(t.rows));
    });
    $('pg-tables-box').hidden = !(result.tables || []).length;

    (result.chunks || []).forEach(function (c) {
      var pages = c.page_start === c.page_end ? 'page ' + c.page_start : 'pages ' + c.page_start + '-' + c.page_end;
      $('pg-chunks').append(h('li', {}, [
        h('strong', { text: (c.headings && c.headings.length ? c.headings.join(' > ') : '(no heading)') }),
        h('span', { class: 'muted', text: ' ' + pages + ', ' + c.text.length + ' characters' }),
        h('div', { class: 'muted', text: c.text.slice(0, 160) + (c.text.length > 160 ? '...' : '') }),
      ]));
    });
    $('pg-meta').textContent = JSON.stringify(meta, null, 2);
  }

  // The pages the result covers: those of page_sizes (a PDF, all or the config's pages), else those the boxes are on (an image).
  function renderPages(job, elements, sizes, meta) {
    var pages = (meta.page_sizes || []).map(function (s) { return s.page; });
    if (!pages.length) elements.forEach(function (e) { if (e.bbox && pages.indexOf(e.page) < 0) pages.push(e.page); });
    pages.sort(function (a, b) { return a - b; }).forEach(function (n) { pageView(job, n, elements, sizes[n]); });
  }

  function pageView(job, n, elements, size) {
    var img = h('img', { alt: 'Page ' + n + ' of ' + job.filename });
    var holder = h('div', { class: 'pg-page', 'data-page': String(n) }, [img, h('span', { class: 'pg-num', 'aria-hidden': 'true', text: String(n) })]);
    $('pg-pages-view').append(holder);
    // The route wants the key, so the image is fetched and shown from a Blob URL.
    fetch('v1/jobs/' + encodeURIComponent(job.id) + '/pages/' + n + '?width=1200', { headers: { authorization: 'Bearer ' + key(), accept: 'image/png, image/*' } }).then(function (r) {
      if (!r.ok) return r.json().then(function (d) { throw new Error(d && d.message); });
      return r.blob();
    }).then(function (blob) {
      img.onload = function () {
        // Boxes are in PDF points (page_sizes); an image's are in its pixels.
        var w = size ? size.width : img.naturalWidth;
        var hgt = size ? size.height : img.naturalHeight;
        elements.forEach(function (e, i) {
          if (e.page !== n || !e.bbox) return;
          var b = e.bbox;
          var box = h('button', {
            type: 'button', class: 'pg-box t-' + e.type, title: e.type,
            'aria-label': e.type.replace('_', ' ') + ' on page ' + n + ': ' + e.text.slice(0, 80),
          });
          styled(box, { left: (100 * b[0] / w) + '%', top: (100 * b[1] / hgt) + '%', width: (100 * (b[2] - b[0]) / w) + '%', height: (100 * (b[3] - b[1]) / hgt) + '%' });
          holder.append(linkable(box, i));
        });
      };
      img.src = blobUrl(blob);
    }).catch(function (error) { holder.replaceChildren(h('p', { class: 'error', text: 'Page ' + n + ': ' + error.message })); });
  }

  function renderOutline(elements) {
    var heads = [];
    elements.forEach(function (e, i) { if (e.type === 'heading' || e.type === 'title') heads.push([e, i]); });
    $('pg-outline-box').hidden = heads.length === 0;
    heads.forEach(function (pair) {
      var e = pair[0];
      var item = styled(h('li', {}, [h('a', { href: '#pg-el-' + pair[1], text: e.text })]), { marginLeft: Math.max(0, (e.level || 1) - 1) + 'rem' });
      item.firstChild.addEventListener('click', function (ev) { ev.preventDefault(); activate(pair[1], null); });
      $('pg-outline').append(item);
    });
  }

  // The content: each element a block of its own kind, or, without elements, the Markdown read line by line. All text by textContent.
  function renderContent(result, elements) {
    var box = $('pg-content');
    if (!elements.length) return markdown(result.content || '', box);
    elements.forEach(function (e, i) {
      var node;
      if (e.type === 'heading' || e.type === 'title') node = h('h' + Math.min(6, Math.max(1, e.level || (e.type === 'title' ? 1 : 2))), { text: e.text });
      else if (e.type === 'table' && result.tables && result.tables[e.table]) node = h('div', {}, [tableOf(result.tables[e.table].rows)]);
      else if (e.type === 'code') node = h('pre', { text: e.text });
      else if (e.type === 'list_item') node = styled(h('p', { text: (e.ordered ? '' : '\u2022 ') + e.text }), { marginLeft: (e.level || 0) * 1.25 + 'rem' });
      else node = h('p', { text: e.text });
      node.classList.add('pg-el', 't-' + e.type);
      node.id = 'pg-el-' + i;
      node.setAttribute('tabindex', '0');
      node.setAttribute('title', e.type + ', page ' + e.page);
      box.append(linkable(node, i));
    });
  }

  function tableOf(rows) {
    var table = h('table', {});
    (rows || []).forEach(function (row, r) {
      table.append(h('tr', {}, row.map(function (cell) { return h(r === 0 ? 'th' : 'td', { text: cell }); })));
    });
    return h('div', { class: 'table-wrap' }, [table]);
  }

  // A small, safe Markdown reader: headings, lists, tables, code fences and paragraphs, each as DOM nodes with text.
  function markdown(text, box) {
    var lines = text.split('\n');
    var para = [];
    function flush() { if (para.length) { box.append(h('p', { text: para.join(' ') })); para = []; } }
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      var m;
      if (/^\x60\x60\x60/.test(line)) {
        flush();
        var code = [];
        for (i++; i < lines.length && !/^\x60\x60\x60/.test(lines[i]); i++) code.push(lines[i]);
        box.append(h('pre', { text: code.join('\n') }));
      } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
        flush();
        box.append(h('h' + m[1].length, { text: m[2] }));
      } else if (/^\s*\|.*\|\s*$/.test(line)) {
        flush();
        var rows = [];
        for (; i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i]); i++) {
          if (/^\s*\|[\s:|-]+\|\s*$/.test(lines[i])) continue;
          rows.push(lines[i].trim().replace(/^\||\|$/g, '').split('|').map(function (c) { return c.trim(); }));
        }
        i--;
        box.append(tableOf(rows));
      } else if ((m = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line))) {
        flush();
        box.append(styled(h('p', { text: (/\d/.test(m[2]) ? m[2] + ' ' : '\u2022 ') + m[3] }), { margin: '.1rem 0 .1rem ' + (m[1].length / 2 + 0.5) + 'rem' }));
      } else if (line.trim() === '') flush();
      else para.push(line.trim());
    }
    flush();
  }

  window.docexPlayground = { open: open };
})();
`;
