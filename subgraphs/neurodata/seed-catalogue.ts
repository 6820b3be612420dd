import { parse } from 'csv-parse/sync';

/**
 * Maps the descriptors of the datasets shipped in seed/ (the C. elegans connectomes and the SWC morphologies) to
 * the create-dataset input the service publishes on first start. Every code returned is a term of
 * seed/ontology/*.csv; a descriptor value this mapping does not know throws, so a new shipped dataset cannot be
 * published with silently missing metadata.
 */

/** The connectomes' folder inside the seed folder (SEED_DIR): one folder per dataset, named by its slug. */
export const CONNECTOMES_SEED = 'connectomes';
/** The morphologies' folder inside the seed folder: SWC files and the README the collection's description comes from. */
export const MORPHOLOGY_SEED = 'morphology';

/**
 * Shipped datasets an earlier release published under another slug, former slug to current one: the seeder renames
 * them on start (docs/neurodata.md, "a dataset's former slugs"). The Witvliet series was named after its 2020
 * preprint; the slugs now follow the paper (Nature, 2021) that their titles and citations name.
 */
export const FORMER_SEED_SLUGS: Readonly<Record<string, string>> = Object.fromEntries(
  Array.from({ length: 8 }, (_, i) => [`celegans_witvliet_2020_${i + 1}`, `celegans_witvliet_2021_${i + 1}`]),
);

export interface SeedDatasetInput {
  slug: string;
  title: string;
  description: string;
  /** NCBITaxon codes. */
  species: string[];
  /** brain_region codes (WBbt, MBA, FBbt). */
  brain_regions: string[];
  /** FBbi codes. */
  microscopy: string[];
  /** ChEBI codes. */
  neurotransmitters: string[];
  keywords: string[];
  /** SPDX identifier. */
  license: string;
  /** The licence as the sources state it, and why `license` was chosen; also appended to the description. */
  license_note: string;
  creators: { name: string; kind: 'person' | 'organization' }[];
  related_publication: { doi: string; citation: string; url: string; year: number } | null;
}

/** The fields of a connectome's dataset.json that the mapping reads. */
export interface ConnectomeDescriptor {
  title: string;
  description: string;
  species?: { common_name?: string; latin_name?: string };
  ncbi_taxon_id: number;
  developmental_stage: string;
  sex: string;
  microscopy: string;
  brain_regions: string[];
  authors: string[];
  year: number;
  journal: string;
  doi: string;
  license: string;
  weight_unit?: string;
  series?: { name: string; index: number; size: number };
  source?: { repository: string; path: string; commit: string; note?: string };
}

// ---------------------------------------------------------------------------------------------------------------
// Ontology codes (seed/ontology/*.csv)

const WBBT = {
  nervousSystem: 'WBbt:0005735',
  somaticNervousSystem: 'WBbt:0005760',
  nerveRing: 'WBbt:0006749',
  ventralNerveCord: 'WBbt:0005829',
  pharyngealNervousSystem: 'WBbt:0005440',
  headGanglion: 'WBbt:0005135',
  ventralGanglion: 'WBbt:0005298',
  retrovesicularGanglion: 'WBbt:0005656',
  preanalGanglion: 'WBbt:0005448',
  tailGanglion: 'WBbt:0006977',
  dorsoRectalGanglion: 'WBbt:0005212',
  lumbarGanglion: 'WBbt:0005830',
  cloacalGanglion: 'WBbt:0005348',
};

interface RegionRule {
  pattern: RegExp;
  codes: string[];
  /** The text says more than the codes (or something the vocabulary lacks): it is kept as a keyword too. */
  approximate?: boolean;
}

const CONNECTOME_REGIONS: RegionRule[] = [
  { pattern: /^nerve ring$/, codes: [WBBT.nerveRing] },
  { pattern: /^ventral nerve cord$/, codes: [WBBT.ventralNerveCord] },
  { pattern: /^ventral ganglion$/, codes: [WBBT.ventralGanglion] },
  { pattern: /^retrovesicular ganglion$/, codes: [WBBT.retrovesicularGanglion] },
  { pattern: /^preanal ganglion$/, codes: [WBBT.preanalGanglion] },
  { pattern: /^lumbar ganglia$|^lumbar ganglion$/, codes: [WBBT.lumbarGanglion] },
  { pattern: /^dorso-?rectal ganglion$/, codes: [WBBT.dorsoRectalGanglion] },
  // WBbt's somatic nervous system is the nervous system without the pharyngeal one, as the parenthesis says.
  { pattern: /^somatic nervous system( \(pharynx excluded\))?$/, codes: [WBBT.somaticNervousSystem] },
  // A whole-animal connectome covers the whole nervous system (Cook et al. include the pharynx).
  { pattern: /^whole animal$/, codes: [WBBT.nervousSystem], approximate: true },
  { pattern: /^pharynx$/, codes: [WBBT.pharyngealNervousSystem] },
  { pattern: /^head and tail ganglia$/, codes: [WBBT.headGanglion, WBBT.tailGanglion] },
  // The male tail's sex-specific neurons sit in the cloacal ganglion and the tail ganglia; ray neurons and spicules
  // have no term of their own.
  { pattern: /^male tail\b/, codes: [WBBT.cloacalGanglion, WBBT.tailGanglion], approximate: true },
  // The vulva is a target tissue (vulval muscles), not a part of the nervous system: a keyword only.
  { pattern: /^vulva$/, codes: [], approximate: true },
];

interface CodeRule {
  pattern: RegExp;
  code: string;
}

// FBbi has no serial-section TEM (seed/ontology/README.md, known gaps); TEM is its nearest term.
const MICROSCOPY: CodeRule[] = [
  { pattern: /focus(?:s)?ed ion beam|\bFIB-SEM\b/i, code: 'FBbi:00050000' },
  { pattern: /serial block[- ]face|\bSBF-?SEM\b/i, code: 'FBbi:00000585' },
  { pattern: /transmission electron|\bs?s?TEM\b/i, code: 'FBbi:00000258' },
  { pattern: /scanning electron|\bSEM\b/i, code: 'FBbi:00000257' },
];

const LIGHT_MICROSCOPY = 'FBbi:00000345';
const FIB_SEM = 'FBbi:00050000';

const NEUROTRANSMITTERS: Record<string, string> = {
  glutamate: 'CHEBI:16015',
  'l-glutamate': 'CHEBI:16015',
  'glutamic acid': 'CHEBI:16015',
  acetylcholine: 'CHEBI:15355',
  gaba: 'CHEBI:16865',
  'gamma-aminobutyric acid': 'CHEBI:16865',
  serotonin: 'CHEBI:28790',
  '5-ht': 'CHEBI:28790',
  dopamine: 'CHEBI:18243',
  octopamine: 'CHEBI:17134',
  tyramine: 'CHEBI:15760',
  glycine: 'CHEBI:15428',
  histamine: 'CHEBI:18295',
  // ChEBI gives the neurotransmitter role to the (R) forms.
  noradrenaline: 'CHEBI:18357',
  norepinephrine: 'CHEBI:18357',
  adrenaline: 'CHEBI:28918',
  epinephrine: 'CHEBI:28918',
  // The vocabulary has no FMRFamide-like peptides; ChEBI "peptide" stands for the neuropeptides.
  fmrfamide: 'CHEBI:16670',
  neuropeptide: 'CHEBI:16670',
  peptide: 'CHEBI:16670',
};

// dataset.json names the journal but not the article; the titles of the source papers, by DOI.
const PAPER_TITLES: Record<string, string> = {
  '10.1038/s41586-019-1352-7': 'Whole-animal connectomes of both Caenorhabditis elegans sexes',
  '10.1371/journal.pcbi.1001066': 'Structural properties of the Caenorhabditis elegans neuronal network',
  '10.1038/s41586-021-03778-8': 'Connectomes across development reveal principles of brain maturation',
};

// ---------------------------------------------------------------------------------------------------------------
// Connectomes

/** The distinct transmitter names of a neurons.csv (its `neurotransmitter` column, several joined with "|"). */
export function transmittersOf(neuronsCsv: string): string[] {
  const rows = parse(neuronsCsv, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const names = new Set<string>();
  for (const row of rows) for (const name of (row.neurotransmitter ?? '').split('|')) if (name.trim()) names.add(name.trim());
  return [...names].sort();
}

/**
 * The licence recorded for a connectome. None of the source files states one. The files were taken from
 * openworm/c302, whose package metadata declares MIT: the only licence anywhere in the chain of redistribution,
 * so MIT is what can be said of these copies. Where the original publication is itself open access under CC BY
 * (Varshney et al. 2011, PLoS Computational Biology), the rights holder's own licence of the published data wins
 * over the redistributor's; it names no version, and CC-BY-4.0 is the version PLOS applies today. Both require
 * attribution, which is what every source asks for. The source wording goes into the licence note unchanged.
 */
function connectomeLicense(statement: string): { license: string; reason: string } {
  if (/\bCC[ -]?BY\b/i.test(statement)) {
    return { license: 'CC-BY-4.0', reason: 'the publication is open access under CC BY (no version stated; CC-BY-4.0 is the current one)' };
  }
  if (/\bMIT\b/.test(statement)) {
    return { license: 'MIT', reason: 'the only licence declared along the chain of redistribution is the MIT licence of openworm/c302' };
  }
  throw new Error(`no SPDX licence for the statement "${statement}"`);
}

function mapRegions(texts: string[], rules: RegionRule[], where: string): { codes: string[]; keywords: string[] } {
  const codes: string[] = [];
  const keywords: string[] = [];
  for (const text of texts) {
    const key = text.trim().toLowerCase();
    const matched = rules.filter((r) => r.pattern.test(key));
    if (!matched.length) throw new Error(`${where}: no brain_region term for "${text}"`);
    for (const rule of matched) {
      codes.push(...rule.codes);
      if (rule.approximate) keywords.push(text.trim());
    }
  }
  return { codes: unique(codes), keywords: unique(keywords) };
}

function mapMicroscopy(text: string, where: string): string {
  const rule = MICROSCOPY.find((r) => r.pattern.test(text));
  if (!rule) throw new Error(`${where}: no microscopy_technique term for "${text}"`);
  return rule.code;
}

/** ChEBI codes of transmitter names (case-insensitive; "Glutamate|Serotonin" is split). */
export function mapNeurotransmitters(names: Iterable<string>, where = 'neurotransmitters'): string[] {
  const codes: string[] = [];
  for (const joined of names) {
    for (const name of joined.split('|')) {
      const key = name.trim().toLowerCase();
      if (!key) continue;
      const code = NEUROTRANSMITTERS[key];
      if (!code) throw new Error(`${where}: no neurotransmitter term for "${name.trim()}"`);
      codes.push(code);
    }
  }
  return unique(codes);
}

function authorList(authors: string[]): string {
  return authors.length > 3 ? `${authors.slice(0, 3).join(', ')} et al.` : authors.join(', ');
}

/**
 * The create-dataset input of one shipped connectome: `folderName` is its folder under seed/connectomes/ (and
 * becomes the slug), `descriptor` its dataset.json, `transmitters` the distinct values of its neurons.csv
 * neurotransmitter column (see transmittersOf). Throws when a region, technique, transmitter or licence has no
 * mapping.
 */
export function seedDatasetInput(folderName: string, descriptor: ConnectomeDescriptor, transmitters: Iterable<string> = []): SeedDatasetInput {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(folderName)) throw new Error(`connectome folder "${folderName}" is not a usable slug`);
  const d = descriptor;
  const regions = mapRegions(d.brain_regions, CONNECTOME_REGIONS, folderName);
  const { license, reason } = connectomeLicense(d.license);
  const licenseNote = `${d.license} Recorded as ${license}: ${reason}.`;
  const stage = d.developmental_stage.replace(/\s*\(.*$/, '').trim();

  const facts = [
    `Developmental stage: ${d.developmental_stage}. Sex: ${d.sex}.`,
    `Technique: ${d.microscopy}.`,
    d.weight_unit && `Connection weights: ${d.weight_unit}.`,
    d.source && `Source: ${d.source.repository}, ${d.source.path} at commit ${d.source.commit}${d.source.note ? ` (${d.source.note})` : ''}.`,
    `Licence: ${licenseNote}`,
  ].filter(Boolean);

  const paperTitle = PAPER_TITLES[d.doi];
  const citation = [`${authorList(d.authors)} (${d.year}).`, paperTitle && `${paperTitle}.`, `${d.journal}.`, `doi:${d.doi}`].filter(Boolean).join(' ');

  return {
    slug: folderName,
    title: d.title,
    description: `${d.description}\n\n${facts.join('\n')}`,
    species: [`NCBITaxon:${d.ncbi_taxon_id}`],
    brain_regions: regions.codes,
    microscopy: [mapMicroscopy(d.microscopy, folderName)],
    neurotransmitters: mapNeurotransmitters(transmitters, folderName),
    keywords: unique([
      'connectome',
      d.species?.latin_name ?? 'Caenorhabditis elegans',
      ...(/serial[- ]section/i.test(d.microscopy) ? ['serial-section electron microscopy'] : []),
      stage,
      d.sex,
      ...(d.series ? [d.series.name] : []),
      ...regions.keywords,
    ]),
    license,
    license_note: licenseNote,
    creators: d.authors.map((name) => ({ name, kind: 'person' as const })),
    related_publication: { doi: d.doi, citation, url: `https://doi.org/${d.doi}`, year: d.year },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Morphologies

interface SpeciesRule {
  pattern: RegExp;
  code: string;
  /** Set when the vocabulary lacks the species and `code` is its nearest listed taxon: kept as a keyword. */
  name?: string;
}

const MORPHOLOGY_SPECIES: SpeciesRule[] = [
  { pattern: /Felis catus|\bcat\b/i, code: 'NCBITaxon:9685' },
  // Neither the guinea pig nor the blowfly is in species.csv; their order/class is.
  { pattern: /Cavia porcellus|guinea pig/i, code: 'NCBITaxon:9989', name: 'Cavia porcellus' },
  { pattern: /Calliphora vicina|blowfly/i, code: 'NCBITaxon:50557', name: 'Calliphora vicina' },
  { pattern: /Drosophila melanogaster|fruit fly/i, code: 'NCBITaxon:7227' },
  { pattern: /Homo sapiens|\bhuman\b/i, code: 'NCBITaxon:9606' },
  { pattern: /Mus musculus|\bmouse\b/i, code: 'NCBITaxon:10090' },
  { pattern: /Rattus|\brat\b/i, code: 'NCBITaxon:10116' },
];

// The brain_region vocabulary has mouse (Allen), fly and worm terms only. Mammalian regions of other species take
// the homologous Allen structure, the blowfly's lobula plate the Drosophila one: the nearest terms that exist.
const MORPHOLOGY_REGIONS: RegionRule[] = [
  { pattern: /spinal cord/, codes: [], approximate: true },
  { pattern: /cerebellum/, codes: ['MBA:512'] },
  { pattern: /\bca3\b/, codes: ['MBA:463'] },
  { pattern: /dentate gyrus/, codes: ['MBA:726'] },
  { pattern: /anterior cingulate/, codes: ['MBA:31'] },
  { pattern: /visual cortex/, codes: ['MBA:669'] },
  // Allen has no "frontal cortex"; the isocortex contains it.
  { pattern: /frontal cortex/, codes: ['MBA:315'], approximate: true },
  { pattern: /lobula plate/, codes: ['FBbt:00003885'] },
  { pattern: /antennal lobe/, codes: ['FBbt:00007401'] },
  { pattern: /calyx/, codes: ['FBbt:00007385'] },
  { pattern: /lateral horn/, codes: ['FBbt:00007053'] },
];

const MORPHOLOGY_LICENSE_NOTE =
  'NeuroMorpho.Org files (*.CNG.swc): CC BY 4.0, as NeuroMorpho.Org states; cite the original papers, NeuroMorpho.Org ' +
  '(RRID:SCR_002145) and Tecuatl, Ljungquist & Ascoli (2024). The Allen Cell Types file is also subject to the Allen ' +
  'Institute Terms of Use and Citation Policy (commercial use restricted). Hemibrain skeleton: Janelia FlyEM hemibrain ' +
  '(Scheffer et al. 2020, eLife 9:e57443), believed CC BY 4.0, not verified. synthetic/NeuroM_Neuron.swc: BSD 3-Clause ' +
  '(EPFL Blue Brain Project), an artificial test neuron. Recorded as CC-BY-4.0, the licence of most files.';

interface MorphologyRow {
  file: string;
  species: string;
  cellType: string;
  region: string;
}

/** The rows of the README's file table: `| \`file\` | species | cell type | brain region | ... |`. */
function morphologyRows(readme: string): MorphologyRow[] {
  const rows: MorphologyRow[] = [];
  for (const line of readme.split(/\r?\n/)) {
    if (!line.startsWith('| `')) continue;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 4) continue;
    rows.push({ file: cells[0].replace(/`/g, ''), species: cells[1], cellType: cells[2], region: cells[3] });
  }
  return rows;
}

const isSynthetic = (row: MorphologyRow) => /artificial|^none\b/i.test(row.species);
/** Without markdown emphasis and parentheses: "cat (*Felis catus*)" -> "cat". */
const clean = (text: string) => text.replace(/[*`]/g, '').replace(/\s*\([^)]*\)/g, '').trim();
/** Up to the first comma or semicolon: "CA3c pyramidal cell (in vivo fill, young)" -> "CA3c pyramidal cell". */
const short = (text: string) => clean(text).split(/[,;]/)[0].trim();

/**
 * The create-dataset input of the shipped morphology collection, from the text of seed/morphology/README.md: the
 * species, brain regions and imaging techniques of all the files in its table. Throws when the table is missing or
 * names a species or region this mapping does not know.
 */
export function morphologySeedInput(readmeText: string): SeedDatasetInput {
  const rows = morphologyRows(readmeText);
  const real = rows.filter((r) => !isSynthetic(r));
  if (!real.length) throw new Error('morphology README: no file table found');

  const species: string[] = [];
  const keywords: string[] = [];
  const microscopy: string[] = [];
  for (const row of real) {
    const rule = MORPHOLOGY_SPECIES.find((r) => r.pattern.test(row.species));
    if (!rule) throw new Error(`morphology ${row.file}: no species term for "${row.species}"`);
    species.push(rule.code);
    if (rule.name) keywords.push(rule.name);
    // The hemibrain was imaged by FIB-SEM; the NeuroMorpho.Org files are tracings of filled or Golgi-stained cells
    // under the light microscope.
    microscopy.push(/hemibrain/i.test(row.file) ? FIB_SEM : LIGHT_MICROSCOPY);
    keywords.push(short(row.cellType));
  }
  // A cell may name several regions ("central brain: antennal lobe, mushroom body calyx, lateral horn"): every
  // rule that matches contributes.
  const regions = mapRegions(
    real.map((r) => clean(r.region)).filter((text) => text && text !== '—'),
    MORPHOLOGY_REGIONS,
    'morphology',
  );
  const fileList = rows.map((r) => `- ${r.file}: ${[short(r.species), short(r.cellType), clean(r.region)].filter((t) => t && t !== '—').join('; ')}`);

  return {
    slug: 'neuron_morphologies',
    title: 'Neuron morphologies (SWC): reconstructions from NeuroMorpho.Org and the FlyEM hemibrain',
    description:
      `${real.length} neuronal reconstructions in SWC format, copied byte for byte from public repositories, plus ` +
      `${rows.length - real.length} synthetic test neuron. Units are micrometres, except the hemibrain file (8 nm voxels).\n\n` +
      `${fileList.join('\n')}\n\nLicence: ${MORPHOLOGY_LICENSE_NOTE}`,
    species: unique(species),
    brain_regions: regions.codes,
    microscopy: unique(microscopy),
    neurotransmitters: [],
    keywords: unique(['neuron morphology', 'SWC', 'NeuroMorpho.Org', 'hemibrain', ...keywords, ...regions.keywords]),
    license: 'CC-BY-4.0',
    license_note: MORPHOLOGY_LICENSE_NOTE,
    creators: [
      { name: 'NeuroMorpho.Org', kind: 'organization' },
      { name: 'Allen Institute for Brain Science', kind: 'organization' },
      { name: 'Janelia FlyEM Project Team', kind: 'organization' },
    ],
    related_publication: {
      doi: '10.1096/fba.2024-00048',
      citation:
        'Tecuatl C, Ljungquist B, Ascoli GA (2024). Accelerating the continuous community sharing of digital neuromorphology data. ' +
        'FASEB BioAdvances 6(7): 207-221. doi:10.1096/fba.2024-00048',
      url: 'https://doi.org/10.1096/fba.2024-00048',
      year: 2024,
    },
  };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
