import type { TestApp } from '../../../test/kit/app.js';
import type { TestUser } from '../../../test/kit/users.js';
import { createTinyDataset } from '../../../test/kit/datasets.js';

/**
 * The datasets the search tests find, whatever the engine: three that mention "thalamocortical" in the title, a
 * keyword and the description; one annotated with Field CA1 (under the Allen Hippocampal region) whose text never
 * says hippocampus; a worm dataset; a restricted one; and a draft that must never be found.
 */
export async function createSearchCatalogue(t: TestApp, owner: TestUser): Promise<{ restrictedId: string }> {
  const mouse = { species: ['Mus musculus'], microscopy: ['focussed ion beam scanning electron microscopy (FIB-SEM)'] };
  await createTinyDataset(t, owner, { slug: 'thal_title', title: 'Thalamocortical projections of the mouse', description: 'Axons reaching layer 4 from the relay nuclei, reconstructed.', ...mouse, brain_regions: ['Thalamus'] });
  await createTinyDataset(t, owner, {
    slug: 'thal_keyword',
    title: 'Barrel cortex wiring',
    keywords: ['thalamocortical'],
    description: 'Wiring of one barrel column in somatosensory cortex.',
    ...mouse,
    brain_regions: ['Primary somatosensory area, barrel field'],
  });
  await createTinyDataset(t, owner, {
    slug: 'thal_description',
    title: 'Layer 4 spiny stellate cells',
    description: 'Spiny stellate cells of layer 4 receive thalamocortical input; this dataset holds their local wiring.',
    ...mouse,
    brain_regions: ['Isocortex'],
  });
  await createTinyDataset(t, owner, {
    slug: 'ca1_pyramidal',
    title: 'Pyramidal cell wiring of field CA1',
    description: 'Synaptic wiring among pyramidal cells and interneurons of one slab of tissue.',
    ...mouse,
    brain_regions: ['Field CA1'],
    related_publication: { citation: 'Example A (2019). A slab of CA1.', year: 2019 },
  });
  await createTinyDataset(t, owner, { slug: 'worm_ring', title: 'Nerve ring of the nematode', description: 'The nerve ring of an adult hermaphrodite, every synapse.' });
  const restricted = await createTinyDataset(t, owner, {
    slug: 'songbird_restricted',
    title: 'Songbird nucleus HVC microcircuit',
    visibility: 'restricted',
    description: 'Restricted songbird data: premotor neurons and their synapses.',
    species: ['Mus musculus'],
    brain_regions: ['Isocortex'],
    license: 'CC-BY-NC-4.0',
  });
  await createTinyDataset(t, owner, { slug: 'songbird_draft', title: 'Songbird draft never published', description: 'This draft holds unpublishedword and must never be found.' }, { publish: false });
  return { restrictedId: restricted.id };
}
