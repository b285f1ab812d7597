/** The page's only styles, inline (the page loads nothing). Colours are variables, set
 * again for a dark scheme; each outcome keeps its hue in both, and no chart says
 * anything by colour alone (every cell has a title, every chart a text beside it). */
export const STYLE = `
:root { color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --passed: #1a7f37; --failed: #cf222e; --flaky: #bf8700; --skipped: #8c959f; --error: #8250df; --none: #eaeef2;
  --duration: #0969da; --shard: #0969da; }
@media (prefers-color-scheme: dark) { :root {
  --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
  --passed: #3fb950; --failed: #f85149; --flaky: #d29922; --skipped: #6e7681; --error: #ab7df8; --none: #21262d;
  --duration: #4493f8; --shard: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1040px; padding: 24px; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.meta, .note { color: var(--muted); margin: 4px 0; }
.tiles { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.tile { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 140px; }
.tile b { display: block; font-size: 20px; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; margin: 6px 0; color: var(--muted); }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
svg.chart { display: block; max-width: 100%; height: auto; }
svg .label { fill: var(--muted); font-size: 11px; }
svg .grid { stroke: var(--line); stroke-width: 1; }
svg .duration { fill: none; stroke: var(--duration); stroke-width: 1.5; stroke-linecap: round; stroke-linejoin: round; }
svg .shard { fill: var(--shard); }
.o-passed { fill: var(--passed); background: var(--passed); } .o-failed { fill: var(--failed); background: var(--failed); }
.o-flaky { fill: var(--flaky); background: var(--flaky); } .o-skipped { fill: var(--skipped); background: var(--skipped); }
.o-error { fill: var(--error); background: var(--error); } .o-none { fill: var(--none); background: var(--none); }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { color: var(--muted); font-weight: 600; } td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.name { overflow-wrap: anywhere; } .file { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.failure { border-left: 3px solid var(--failed); background: var(--panel); padding: 8px 12px; margin: 10px 0; border-radius: 0 6px 6px 0; }
.failure pre { margin: 6px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.status { font-weight: 600; } .status.o-passed, .status.o-failed, .status.o-flaky, .status.o-skipped, .status.o-error { background: none; }
.status.o-passed { color: var(--passed); } .status.o-failed { color: var(--failed); } .status.o-error { color: var(--error); } .status.o-skipped { color: var(--skipped); }
details { margin: 8px 0; } summary { cursor: pointer; color: var(--muted); }
`;
