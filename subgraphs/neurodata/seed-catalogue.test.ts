import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { mapNeurotransmitters, morphologySeedInput, seedDatasetInput, transmittersOf, type SeedDatasetInput } from './seed-catalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The repository's copy of a shipped data folder, or the shared source it is copied from while it is absent. */
function dataDir(name: string): string {
  for (const dir of [path.join(ROOT, 'seed', name), path.join(ROOT, '..', 'shared', 'data', name)]) if (existsSync(dir)) return dir;
  throw new Error(`seed/${name} not found`);
}

function vocabulary(name: string): Map<string, string> {
  const rows = parse(readFileSync(path.join(ROOT, 'seed', 'ontology', `${name}.csv`), 'utf8'), { columns: true }) as { code: string; label: string }[];
  return new Map(rows.map((r) => [r.code, r.label]));
}

const VOCABULARIES = {
  species: vocabulary('species'),
  brain_regions: vocabulary('brain_region'),
  microscopy: vocabulary('microscopy_technique'),
  neurotransmitters: vocabulary('neurotransmitter'),
};

function expectKnownCodes(input: SeedDatasetInput) {
  for (const [field, terms] of Object.entries(VOCABULARIES)) {
    for (const code of input[field as keyof typeof VOCABULARIES]) {
      expect(terms.has(code), `${input.slug}: ${field} code ${code}`).toBe(true);
    }
  }
}

const CONNECTOMES_DIR = dataDir('connectomes');
const connectomes = readdirSync(CONNECTOMES_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(path.join(CONNECTOMES_DIR, e.name, 'dataset.json')))
  .map((e) => {
    const dir = path.join(CONNECTOMES_DIR, e.name);
    const descriptor = JSON.parse(readFileSync(path.join(dir, 'dataset.json'), 'utf8'));
    const transmitters = transmittersOf(readFileSync(path.join(dir, 'neurons.csv'), 'utf8'));
    return { folder: e.name, descriptor, transmitters, input: seedDatasetInput(e.name, descriptor, transmitters) };
  });
const byFolder = (folder: string) => connectomes.find((c) => c.folder === folder)!.input;

describe('seedDatasetInput', () => {
  it('maps all eleven shipped connectomes', () => {
    expect(connectomes).toHaveLength(11);
  });

  it.each(connectomes.map((c) => [c.folder, c] as const))('%s emits only codes of seed/ontology and at least one region', (_, c) => {
    expectKnownCodes(c.input);
    expect(c.input.brain_regions.length).toBeGreaterThan(0);
    expect(c.input.species).toEqual(['NCBITaxon:6239']);
    expect(c.input.microscopy).toEqual(['FBbi:00000258']);
    expect(c.input.slug).toBe(c.folder);
    expect(c.input.creators.map((a) => a.name)).toEqual(c.descriptor.authors);
    expect(c.input.related_publication?.url).toBe(`https://doi.org/${c.descriptor.doi}`);
    expect(c.input.description).toContain(c.descriptor.license);
    expect(c.input.license_note).toContain(c.descriptor.license);
  });

  it('maps the Varshney regions one by one, lumbar and dorso-rectal ganglia included', () => {
    expect(byFolder('celegans_varshney_2011').brain_regions).toEqual([
      'WBbt:0006749', // nerve ring
      'WBbt:0005829', // ventral nerve cord
      'WBbt:0005298', // ventral ganglion
      'WBbt:0005656', // retrovesicular ganglion
      'WBbt:0005448', // preanal ganglion
      'WBbt:0005830', // lumbar ganglion
      'WBbt:0005212', // dorso-rectal ganglion
      'WBbt:0005760', // somatic nervous system
    ]);
  });

  it('maps the whole-animal connectomes to the nervous system, pharynx, head and tail ganglia, and the male tail', () => {
    const herm = byFolder('celegans_cook_2019_hermaphrodite');
    expect(herm.brain_regions).toEqual(['WBbt:0005735', 'WBbt:0006749', 'WBbt:0005440', 'WBbt:0005829', 'WBbt:0005135', 'WBbt:0006977']);
    expect(herm.keywords).toEqual(expect.arrayContaining(['whole animal', 'vulva', 'hermaphrodite', 'adult']));
    const male = byFolder('celegans_cook_2019_male');
    expect(male.brain_regions).toContain('WBbt:0005348');
    expect(male.keywords).toEqual(expect.arrayContaining(['male', 'male tail (ray neurons, spicules)']));
  });

  it('records CC-BY-4.0 for the open-access Varshney data and MIT for the rest', () => {
    for (const c of connectomes) expect(c.input.license).toBe(c.folder === 'celegans_varshney_2011' ? 'CC-BY-4.0' : 'MIT');
  });

  it('names the transmitters of neurons.csv by their ChEBI codes', () => {
    const witvliet = connectomes.find((c) => c.folder === 'celegans_witvliet_2021_1')!;
    expect(witvliet.transmitters).toEqual(['Acetylcholine', 'Dopamine', 'GABA', 'Glutamate', 'Octopamine', 'Serotonin', 'Tyramine']);
    expect(witvliet.input.neurotransmitters).toEqual(['CHEBI:15355', 'CHEBI:18243', 'CHEBI:16865', 'CHEBI:16015', 'CHEBI:17134', 'CHEBI:28790', 'CHEBI:15760']);
    expect(mapNeurotransmitters(['Glutamate|Serotonin', 'FMRFamide'])).toEqual(['CHEBI:16015', 'CHEBI:28790', 'CHEBI:16670']);
    expect(() => mapNeurotransmitters(['Unobtainium'])).toThrow(/Unobtainium/);
  });

  it('cites the source paper with authors, year, title, journal and DOI', () => {
    expect(byFolder('celegans_witvliet_2021_3').related_publication).toEqual({
      doi: '10.1038/s41586-021-03778-8',
      citation:
        'Daniel Witvliet, Ben Mulcahy, James K. Mitchell et al. (2021). Connectomes across development reveal principles of brain maturation. ' +
        'Nature 596: 257-261 (preprint bioRxiv 2020). doi:10.1038/s41586-021-03778-8',
      url: 'https://doi.org/10.1038/s41586-021-03778-8',
      year: 2021,
    });
  });

  it('keeps the developmental stage and the series as keywords', () => {
    expect(byFolder('celegans_witvliet_2021_5').keywords).toEqual(expect.arrayContaining(['L2', 'hermaphrodite', 'Witvliet 2021 developmental series']));
    expect(byFolder('celegans_varshney_2011').keywords).toContain('adult');
  });

  it('refuses a region it cannot map', () => {
    const { descriptor } = connectomes[0];
    expect(() => seedDatasetInput('x', { ...descriptor, brain_regions: ['amphid'] })).toThrow(/amphid/);
  });
});

describe('morphologySeedInput', () => {
  const readme = readFileSync(path.join(dataDir('morphology'), 'README.md'), 'utf8');
  const input = morphologySeedInput(readme);

  it('emits only codes of seed/ontology', () => {
    expectKnownCodes(input);
  });

  it('lists every species of the files, with the nearest taxon where the species is not in the vocabulary', () => {
    expect(input.species.sort()).toEqual(
      ['NCBITaxon:9685', 'NCBITaxon:9989', 'NCBITaxon:10116', 'NCBITaxon:9606', 'NCBITaxon:10090', 'NCBITaxon:50557', 'NCBITaxon:7227'].sort(),
    );
    expect(input.keywords).toEqual(expect.arrayContaining(['Cavia porcellus', 'Calliphora vicina']));
  });

  it('maps the regions of the files, and the hemibrain neuron to FIB-SEM', () => {
    expect(input.brain_regions).toEqual(
      expect.arrayContaining(['MBA:512', 'MBA:463', 'MBA:726', 'MBA:31', 'MBA:669', 'FBbt:00003885', 'FBbt:00007401', 'FBbt:00007385', 'FBbt:00007053']),
    );
    expect(input.keywords).toContain('spinal cord');
    expect(input.microscopy.sort()).toEqual(['FBbi:00000345', 'FBbi:00050000']);
  });

  it('cites a publication the README names', () => {
    expect(readme).toContain(input.related_publication!.doi);
    expect(input.license).toBe('CC-BY-4.0');
  });
});
