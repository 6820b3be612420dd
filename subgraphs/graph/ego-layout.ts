import cytoscape from 'cytoscape';

/** Width and height of the layout's box; viewers rescale it. */
const BOX = 1000;

/**
 * Positions for an ego network, by Cytoscape.js run headless: its concentric layout puts the centre in the middle
 * and each hop on its own ring, so the result opens in Cytoscape desktop or a web viewer as it is. Runs on a
 * worker thread (graph.task.ts). Returns `[x, y]` per node, in the order given.
 */
export function layoutEgoNetwork(nodes: number[], hop: number[], edges: Array<{ source: number; target: number }>): Array<[number, number]> {
  const maxHop = hop.reduce((m, h) => Math.max(m, h), 0);
  const cy = cytoscape({
    headless: true,
    styleEnabled: false,
    elements: [
      ...nodes.map((v, i) => ({ group: 'nodes' as const, data: { id: `n${v}`, hop: hop[i] } })),
      ...edges.map((e, i) => ({ group: 'edges' as const, data: { id: `e${i}`, source: `n${e.source}`, target: `n${e.target}` } })),
    ],
  });
  cy.layout({
    name: 'concentric',
    concentric: (n: cytoscape.NodeSingular) => maxHop - Number(n.data('hop')),
    levelWidth: () => 1,
    minNodeSpacing: 40,
    animate: false,
    boundingBox: { x1: 0, y1: 0, w: BOX, h: BOX },
  } as cytoscape.LayoutOptions).run();
  const out = nodes.map((v) => {
    const p = cy.getElementById(`n${v}`).position();
    return [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10] as [number, number];
  });
  cy.destroy();
  return out;
}
