/**
 * The 16 classes of a triad census (Holland and Leinhardt's MAN codes), in their standard order: the order of the
 * graph engine's census arrays, of the keys of the TriadCounts and TriadValues scalars, and of their JSON text.
 */
export const TRIAD_CODES = ['003', '012', '102', '021D', '021U', '021C', '111D', '111U', '030T', '030C', '201', '120D', '120U', '120C', '210', '300'] as const;
export type TriadCode = (typeof TRIAD_CODES)[number];
