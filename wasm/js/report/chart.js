// The report's charts: Vega-Lite specifications with their data inline (so a test reads what a
// chart plots, not its pixels), drawn to SVG by Vega in Node without a browser.
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';

const schema = 'https://vega.github.io/schema/vega-lite/v6.json';
const size = { width: 440, height: 250 };

const axis = ({ field, title, scale, domain, type = 'quantitative', sort }) => ({
  field,
  type,
  title,
  ...(scale || domain ? { scale: { ...(scale ? { type: scale } : {}), ...(domain ? { domain } : {}) } } : {}),
  ...(sort !== undefined ? { sort } : {}),
});

/**
 * Lines of y against x, one per value of `series` (the legend), from rows of objects.
 * x, y: { field, title (with units), scale ('linear' | 'log' | 'symlog'), domain ([min, max], optional:
 * lines beyond it are clipped) }; series: { field, title,
 * colors ({ value: colour }, optional) }; facet: { field, title } for one panel per value.
 */
export function lineChart({ title, values, x, y, series, facet, points = false }) {
  const chart = {
    mark: { type: 'line', point: points, clip: true },
    encoding: {
      x: axis(x),
      y: axis(y),
      color: {
        field: series.field,
        type: 'nominal',
        title: series.title,
        ...(series.colors
          ? { scale: { domain: Object.keys(series.colors), range: Object.values(series.colors) } }
          : {}),
      },
    },
  };
  const common = { $schema: schema, title, data: { values } };
  if (!facet) return { ...common, ...size, ...chart };
  // Small multiples: one panel per value of facet.field, side by side.
  return {
    ...common,
    facet: { column: { field: facet.field, type: 'ordinal', title: facet.title, sort: null } },
    spec: { width: 220, height: 200, ...chart },
  };
}

/** Bars of y stacked by `stack` (the legend) for each category of x. */
export function stackedBars({ title, values, x, y, stack }) {
  return {
    $schema: schema,
    title,
    ...size,
    data: { values },
    mark: 'bar',
    encoding: {
      x: axis({ ...x, type: 'nominal', sort: null }),
      y: axis(y),
      color: { field: stack.field, type: 'nominal', title: stack.title, sort: null },
      order: { field: stack.orderField, type: 'quantitative' },
    },
  };
}

/** A grid of cells x by y coloured by `color` (log scale where asked), with each value written in its cell. */
export function heatmap({ title, values, x, y, color, format = '.2~g' }) {
  const cells = {
    x: axis({ ...x, type: 'ordinal', sort: x.sort ?? null }),
    y: axis({ ...y, type: 'ordinal', sort: 'descending' }),
  };
  return {
    $schema: schema,
    title,
    width: 300,
    height: 220,
    data: { values },
    encoding: cells,
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: {
            field: color.field,
            type: 'quantitative',
            title: color.title,
            scale: { type: color.scale ?? 'linear', scheme: 'viridis' },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 9 },
        encoding: { text: { field: color.field, type: 'quantitative', format }, color: { value: 'white' } },
      },
    ],
  };
}

/** The chart as an SVG document. */
export async function chartSvg(spec) {
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
