// Writes the report of `npx smfem figures` into a folder:
//
//   index.html        every section: the paper's claim, our finding, inline SVG charts, tables
//   report.md         the same text and tables, the charts as links to charts/*.svg
//   charts/<id>.svg   each chart, and <id>.vl.json its Vega-Lite specification with the data
//   data/<name>.csv   the raw measurements behind the charts and tables
//
// Every file goes through a temporary file and a rename, so an interrupted run leaves whole files.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { chartSvg } from './chart.js';

async function writeAtomically(path, text) {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  await writeFile(temporary, text);
  await rename(temporary, path);
}

const csvCell = (value) => {
  const text = Array.isArray(value) ? value.join(' ') : String(value ?? '');
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function toCsv(rows) {
  if (rows.length === 0) return '';
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return `${[columns.join(','), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(','))].join('\n')}\n`;
}

const escapeHtml = (text) =>
  String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

// holds: true, false, 'partly' (the paper's scene agrees, a scene of ours does not), or null.
const verdictText = {
  true: 'supported',
  partly: 'partly supported',
  false: 'not supported',
  null: 'not tested',
};

/** The verdict of a section's `holds`, as the report prints it. */
export const verdictOf = (holds) => verdictText[String(holds ?? null)];

function markdownTable({ caption, columns, rows }) {
  const line = (cells) => `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`;
  return [`_${caption}_`, '', line(columns), line(columns.map(() => '---')), ...rows.map(line)].join('\n');
}

function htmlTable({ caption, columns, rows }) {
  const cells = (tag, values) => values.map((v) => `<${tag}>${escapeHtml(v)}</${tag}>`).join('');
  return (
    `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${cells('th', columns)}</tr></thead>` +
    `<tbody>${rows.map((row) => `<tr>${cells('td', row)}</tr>`).join('')}</tbody></table>`
  );
}

const chartId = (section, index) => `${section.id}-${index + 1}`;

/**
 * report: { title, intro: [paragraphs], sections: [{ id, title, paperClaim, finding, holds,
 * charts: [Vega-Lite spec], tables: [{ caption, columns, rows }], data: [{ name, rows }],
 * notes: [text] }] }.
 */
export async function writeReport(folder, report) {
  const html = [];
  const markdown = [`# ${report.title}`, '', ...report.intro.flatMap((p) => [p, ''])];
  for (const section of report.sections) {
    const verdict = verdictOf(section.holds);
    markdown.push(`## ${section.title}`, '', `**The paper:** ${section.paperClaim}`, '');
    markdown.push(`**Ours (${verdict}):** ${section.finding}`, '');
    html.push(
      `<section id="${section.id}"><h2>${escapeHtml(section.title)}</h2>`,
      `<p><b>The paper:</b> ${escapeHtml(section.paperClaim)}</p>`,
      `<p class="verdict ${verdict.replaceAll(' ', '-')}"><b>Ours (${verdict}):</b> ${escapeHtml(section.finding)}</p>`,
    );
    for (const [index, spec] of (section.charts ?? []).entries()) {
      const id = chartId(section, index);
      const svg = await chartSvg(spec);
      await writeAtomically(join(folder, 'charts', `${id}.svg`), svg);
      await writeAtomically(join(folder, 'charts', `${id}.vl.json`), `${JSON.stringify(spec, null, 1)}\n`);
      markdown.push(`![${spec.title}](charts/${id}.svg)`, '');
      html.push(`<figure id="${id}">${svg}</figure>`);
    }
    for (const table of section.tables ?? []) {
      markdown.push(markdownTable(table), '');
      html.push(htmlTable(table));
    }
    for (const note of section.notes ?? []) {
      markdown.push(`- ${note}`);
      html.push(`<p class="note">${escapeHtml(note)}</p>`);
    }
    if (section.notes?.length) markdown.push('');
    const links = [];
    for (const { name, rows } of section.data ?? []) {
      await writeAtomically(join(folder, 'data', `${name}.csv`), toCsv(rows));
      links.push(`[${name}.csv](data/${name}.csv)`);
    }
    if (links.length) {
      markdown.push(`Data: ${links.join(', ')}`, '');
      html.push(
        `<p class="data">Data: ${links.map((l) => l.replace(/\[(.*)\]\((.*)\)/, '<a href="$2">$1</a>')).join(', ')}</p>`,
      );
    }
    html.push('</section>');
  }
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(report.title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
figure { display: inline-block; margin: 0.5rem 1rem 0.5rem 0; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: right; }
caption { text-align: left; font-style: italic; padding-bottom: 0.3rem; }
.verdict.not-supported { color: #a40000; }
.note { color: #555; font-size: 13px; }
</style></head><body>
<h1>${escapeHtml(report.title)}</h1>
${report.intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${html.join('\n')}
</body></html>
`;
  await writeAtomically(join(folder, 'report.md'), `${markdown.join('\n')}\n`);
  await writeAtomically(join(folder, 'index.html'), page);
}
