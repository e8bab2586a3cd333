// The dashboard's stylesheet: system fonts only (no network beyond the
// service), WCAG AA contrast, visible focus, and tables that scroll on a phone.
export const styles = String.raw`
:root { --ink: #1b1f24; --muted: #4b5563; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa; --accent: #0b5cad; --danger: #b42318; --ok: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.25rem; margin: 0; }
nav a { color: var(--accent); margin-right: .75rem; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
section { margin: 0 0 2rem; }
h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; }
fieldset label { display: inline-flex; gap: .35rem; font-weight: 400; margin-right: 1rem; }
input[type=text], input[type=password], input[type=url], select { width: 100%; max-width: 32rem; padding: .5rem; border: 1px solid #8c959f; border-radius: 6px; font: inherit; }
button { font: inherit; padding: .45rem .9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; word-break: break-all; }
.once { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: .75rem; margin: .75rem 0; }
.status { font-weight: 600; }
.status-completed, .ok { color: var(--ok); }
.status-failed, .error { color: var(--danger); }
.muted { color: var(--muted); }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
.stats { display: flex; flex-wrap: wrap; gap: 1rem; }
.stat { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; min-width: 10rem; }
.stat strong { display: block; font-size: 1.6rem; }
pre { background: var(--panel); padding: .75rem; overflow: auto; max-height: 24rem; }
dialog { border: 1px solid var(--line); border-radius: 8px; max-width: 28rem; }
td { overflow-wrap: anywhere; }
.job-error { font-size: .9rem; margin-top: .2rem; }
/* Phone width: every table becomes one card per row, each cell under its column's name, so no column is off-screen. */
@media (max-width: 40rem) {
  table, tbody, tr, td { display: block; width: 100%; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .table-wrap { overflow-x: visible; }
  tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .75rem; padding: .25rem .5rem; }
  td { border: 0; padding: .2rem 0; display: grid; grid-template-columns: 7rem minmax(0, 1fr); gap: .5rem; }
  td::before { content: attr(data-label); font-weight: 600; color: var(--muted); }
  td > * { min-width: 0; }
}
[hidden] { display: none !important; }
`;
