import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, NotFound } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { ReadCoalescer, type ReadCoalescerOptions } from '../../lib/read-coalescer.js';
import { POSTGRES_POOL_SIZE } from '../../lib/db/relational.js';
import type { NotifiedCache } from '../../lib/notified-cache.js';
import type { TermRecord, TermStore, VocabularyRecord } from './store/term.store.js';
import {
  CODE_MAX,
  DESCRIPTION_MAX,
  LABEL_MAX,
  metadataObject,
  optionalText,
  optionalUri,
  pageLimit,
  pageOffset,
  requiredText,
  searchText,
  synonymList,
  vocabularyName,
} from './term.rules.js';

export type { TermRecord, VocabularyRecord } from './store/term.store.js';

/**
 * A new term in either form of spec 2.3. Current form: vocabulary, code, label (+ parent_id, uri, metadata).
 * Older form: name, vocabulary (+ parent_id, description); the name is then both code and label.
 */
export interface CreateTermInput {
  vocabulary: string;
  code?: string | null;
  label?: string | null;
  name?: string | null;
  parentId?: string | null;
  uri?: string | null;
  metadata?: Record<string, unknown> | null;
  description?: string | null;
  synonyms?: string[] | null;
}

/** Fields to change; undefined keeps a field, null clears it (label and name cannot be cleared). */
export interface UpdateTermInput {
  label?: string | null;
  name?: string | null;
  uri?: string | null;
  metadata?: Record<string, unknown> | null;
  description?: string | null;
  parentId?: string | null;
  synonyms?: string[] | null;
}

export interface TermSearch {
  vocabulary?: string | null;
  q?: string | null;
  search?: string | null;
  includeDeprecated?: boolean | null;
  limit?: number | null;
  offset?: number | null;
}

export interface TermPage {
  items: TermRecord[];
  total: number;
  limit: number;
  offset: number;
}

/** Terms by id kept per process (TermService.get): a few megabytes at most. */
export const KEPT_TERMS_MAX = 10_000;
/** The channel the term tables' triggers announce changes on (migrations/0012_ontology_change_notices.sql). */
export const TERMS_CHANGED_CHANNEL = 'ontology_terms_changed';

/** A page read as the store is asked for it; `q` is the search text, or null for the plain listing. */
interface PageRead {
  q: string | null;
  vocabulary: string | undefined;
  includeDeprecated: boolean;
  limit: number;
  offset: number;
}

/** Reads and single-term writes of the ontology. Access classes are declared on the resolvers. */
export class TermService {
  /** Reads by id of concurrent requests, answered together by one findByIds. */
  private readonly byId: ReadCoalescer<string, TermRecord>;
  /**
   * Identical page reads waiting to be sent share one statement: the aliases of one query asking for the same page,
   * or concurrent requests for a popular one. Each answer still comes from a statement that started after it was
   * asked for, so a listing asked for after a write sees the write.
   */
  private readonly pages: ReadCoalescer<string, { items: TermRecord[]; total: number }>;

  constructor(
    private readonly store: TermStore,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly opts: {
      /** Terms by id, until the term tables announce a change; without it every read goes to the store. */
      kept?: NotifiedCache<string, TermRecord>;
      /** Everything else kept from the term tables, forgotten with the terms when this process changes them. */
      alsoKept?: readonly { forget(): void }[];
      reads?: ReadCoalescerOptions;
    } = {},
  ) {
    // Two statements at a time: one is sent while the answer of the other is being read, so the engine (PGlite's
    // thread too) is not left idle between them; measured faster than one or four at a time with 8 callers.
    this.byId = new ReadCoalescer(async (ids) => new Map((await store.findByIds(ids)).map((t) => [t.id, t])), opts.reads ?? { maxInFlight: 2 });
    this.pages = new ReadCoalescer(async ([key]) => new Map([[key, await this.readPage(JSON.parse(key) as PageRead)]]), {
      maxBatch: 1,
      // As many as the PostgreSQL pool runs at once, so sharing reads queues nothing the pool would have run.
      maxInFlight: POSTGRES_POOL_SIZE,
    });
  }

  /** After this process changed terms: its next reads come from the store, whenever the change's notice arrives. */
  termsChanged(): void {
    this.opts.kept?.forget();
    for (const cache of this.opts.alsoKept ?? []) cache.forget();
  }

  listVocabularies(): Promise<VocabularyRecord[]> {
    return this.store.listVocabularies();
  }

  /**
   * One page of terms, filtered by vocabulary and text (`q` or `search`), active only unless `includeDeprecated`.
   * Without text the order is vocabulary, label, id; with text it is the search rank (see TermStore.search).
   * Throws BadInput for an unknown vocabulary, naming the known ones.
   */
  async search(p: TermSearch): Promise<TermPage> {
    const limit = pageLimit(p.limit);
    const offset = pageOffset(p.offset);
    const text = searchText(p.q, p.search);
    const vocabulary = p.vocabulary?.trim() || undefined;
    const includeDeprecated = p.includeDeprecated === true;
    const read: PageRead = { q: text ?? null, vocabulary, includeDeprecated, limit, offset };
    const page = await this.pages.load(JSON.stringify(read));
    return { ...page!, limit, offset };
  }

  /** One page from the store; the vocabulary is checked first, so an unknown one is refused rather than empty. */
  private async readPage(read: PageRead): Promise<{ items: TermRecord[]; total: number }> {
    if (read.vocabulary !== undefined) await this.knownVocabulary(read.vocabulary);
    return read.q === null ? this.store.list(read) : this.store.search({ ...read, q: read.q });
  }

  /**
   * The term as stored: kept from an earlier read until the term tables announce a change (NotifiedCache), or read
   * by a statement that starts after this call, shared with the reads by id of other requests that arrive meanwhile.
   * Throws NotFound for a malformed or unknown id, and the request's Timeout when it is aborted while waiting (the
   * shared statement goes on for the others).
   */
  async get(id: string): Promise<TermRecord> {
    // Stored ids are lower case; the read answers by the id it finds.
    const key = id.toLowerCase();
    const kept = this.opts.kept;
    const term = !isUuid(id) ? undefined : kept ? await kept.get(key, () => this.byId.load(key)) : await this.byId.load(key);
    if (!term) throw new NotFound(`no term with id ${JSON.stringify(id)}`);
    return term;
  }

  /** Terms by id for entity resolution; unknown or malformed ids map to null. */
  async getMany(ids: readonly string[]): Promise<(TermRecord | null)[]> {
    const found = await this.store.findByIds(ids.filter((id) => isUuid(id)));
    const byId = new Map(found.map((t) => [t.id, t]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  async children(id: string, includeDeprecated = false): Promise<TermRecord[]> {
    await this.get(id);
    return this.store.children(id, includeDeprecated);
  }

  /** Ancestors nearest first: parent, grandparent, ..., root. Empty for a root. */
  async ancestors(id: string): Promise<TermRecord[]> {
    const chain = isUuid(id) ? await this.store.selfAndAncestors(id) : [];
    if (!chain.some((c) => c.depth === 0)) throw new NotFound(`no term with id ${JSON.stringify(id)}`);
    return chain.filter((c) => c.depth > 0).map((c) => c.term);
  }

  /**
   * Creates a term in either form. Throws BadInput for a malformed field, a parent that is not a term of the same
   * vocabulary, or a mix of the two forms; Conflict when the code (older form: the name) is taken in the vocabulary.
   * The vocabulary is created when it is new.
   */
  async create(input: CreateTermInput): Promise<TermRecord> {
    const vocabulary = vocabularyName(input.vocabulary);
    const older = input.name !== undefined && input.name !== null;
    if (older && ((input.code ?? null) !== null || (input.label ?? null) !== null)) {
      throw new BadInput('give either code and label (current form) or name (older form), not both');
    }
    const code = older ? requiredText(input.name, 'name', CODE_MAX) : requiredText(input.code, 'code', CODE_MAX);
    const label = older ? code : requiredText(input.label, 'label', LABEL_MAX, { multiline: true });
    const uri = optionalUri(input.uri);
    const metadata = metadataObject(input.metadata);
    const description = optionalText(input.description, 'description', DESCRIPTION_MAX);
    const synonyms = synonymList(input.synonyms);
    const parentId = input.parentId ?? null;
    if (parentId !== null && !isUuid(parentId)) throw new BadInput(`parent_id: expected a term id (UUID), got ${JSON.stringify(parentId)}`);

    const now = this.clock.now();
    const id = newId();
    await this.store.transaction(async (tx) => {
      await tx.lockVocabulary(vocabulary);
      if (parentId) await this.requireParent(tx, parentId, vocabulary);
      const taken = await tx.findByCode(vocabulary, code);
      if (taken) throw new Conflict(`${older ? 'name' : 'code'} ${JSON.stringify(code)} already exists in vocabulary ${vocabulary} (term ${taken.id})`);
      if (older) {
        const sameLabel = await tx.findActiveByLabel(vocabulary, label);
        if (sameLabel.length) throw new Conflict(`a term named ${JSON.stringify(label)} already exists in vocabulary ${vocabulary} (code ${sameLabel[0].code}, term ${sameLabel[0].id})`);
      }
      await tx.ensureVocabulary(vocabulary, null, now);
      await tx.insertTerms([{ id, vocabulary, code, label, uri, parentId, description, metadata }], now);
      if (synonyms.length) await tx.setSynonyms(id, vocabulary, synonyms);
    });
    this.termsChanged();
    this.log.info({ termId: id, vocabulary, code }, 'term created');
    return this.get(id);
  }

  /**
   * Changes label (or its older name `name`), uri, metadata, description, parent or synonyms. Throws NotFound for
   * an unknown term, BadInput for nothing to change or a parent from another vocabulary, Conflict when the new
   * parent is the term itself or one of its descendants.
   */
  async update(id: string, input: UpdateTermInput): Promise<TermRecord> {
    const current = await this.get(id);
    if (input.label !== undefined && input.name !== undefined && input.label !== input.name) {
      throw new BadInput('label and name are the same field under two names: give one of them');
    }
    const change: { id: string; label?: string; uri?: string | null; metadata?: Record<string, unknown>; description?: string | null; parentId?: string | null } = { id };
    const newLabel = input.label !== undefined ? input.label : input.name;
    if (newLabel !== undefined) change.label = requiredText(newLabel, input.label !== undefined ? 'label' : 'name', LABEL_MAX, { multiline: true });
    if (input.uri !== undefined) change.uri = optionalUri(input.uri);
    if (input.metadata !== undefined) change.metadata = metadataObject(input.metadata);
    if (input.description !== undefined) change.description = optionalText(input.description, 'description', DESCRIPTION_MAX);
    if (input.parentId !== undefined) {
      if (input.parentId !== null && !isUuid(input.parentId)) throw new BadInput(`parent_id: expected a term id (UUID) or null, got ${JSON.stringify(input.parentId)}`);
      change.parentId = input.parentId;
    }
    const synonyms = input.synonyms !== undefined ? synonymList(input.synonyms) : undefined;
    if (Object.keys(change).length === 1 && synonyms === undefined) {
      throw new BadInput('nothing to update: give any of label, uri, metadata (current form) or description (older form)');
    }

    await this.store.transaction(async (tx) => {
      await tx.lockVocabulary(current.vocabulary);
      if (change.parentId) {
        await this.requireParent(tx, change.parentId, current.vocabulary);
        if (await tx.isSelfOrAncestor(change.parentId, id)) {
          throw new Conflict(`parent_id ${change.parentId} is this term or one of its descendants: the hierarchy would have a cycle`);
        }
      }
      if (Object.keys(change).length > 1) await tx.updateTerms([change], this.clock.now());
      if (synonyms !== undefined) await tx.setSynonyms(id, current.vocabulary, synonyms);
    });
    this.termsChanged();
    this.log.info({ termId: id, fields: Object.keys(change).filter((k) => k !== 'id') }, 'term updated');
    return this.get(id);
  }

  /**
   * Flags a term deprecated; it stays stored and keeps answering by id. `replacedBy` must be another active term of
   * the same vocabulary. Deprecating a deprecated term again is allowed and may set its replacement.
   */
  async deprecate(id: string, replacedBy?: string | null): Promise<TermRecord> {
    const term = await this.get(id);
    const replacement = replacedBy?.trim() || null;
    if (replacement !== null) {
      if (!isUuid(replacement)) throw new BadInput(`replaced_by: expected a term id (UUID), got ${JSON.stringify(replacement)}`);
      if (replacement === id) throw new BadInput('replaced_by: a term cannot replace itself');
      const other = await this.store.findById(replacement);
      if (!other) throw new BadInput(`replaced_by: no term with id ${replacement}`);
      if (other.vocabulary !== term.vocabulary) throw new BadInput(`replaced_by: term ${replacement} is in vocabulary ${other.vocabulary}, not ${term.vocabulary}`);
      if (other.status !== 'active') throw new BadInput(`replaced_by: term ${replacement} is itself deprecated; name an active term`);
    }
    await this.store.deprecate(id, replacement, this.clock.now());
    this.termsChanged();
    this.log.info({ termId: id, replacedBy: replacement }, 'term deprecated');
    return this.get(id);
  }

  private async requireParent(tx: TermStore, parentId: string, vocabulary: string): Promise<void> {
    const parent = await tx.findById(parentId);
    if (!parent) throw new BadInput(`parent_id: no term with id ${parentId}`);
    if (parent.vocabulary !== vocabulary) {
      throw new BadInput(`parent_id: term ${parentId} (${parent.code}) is in vocabulary ${parent.vocabulary}; a parent must be in the same vocabulary (${vocabulary})`);
    }
  }

  /** The vocabulary name when it exists; otherwise BadInput listing the known names. */
  async knownVocabulary(name: string): Promise<string> {
    const v = name.trim();
    if (await this.store.vocabularyExists(v)) return v;
    const known = (await this.store.listVocabularies()).map((x) => x.name);
    throw new BadInput(`vocabulary: unknown vocabulary ${JSON.stringify(v)}; known vocabularies: ${known.join(', ') || '(none)'}`);
  }
}
