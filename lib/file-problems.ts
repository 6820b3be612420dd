import { BadInput } from './errors.js';

/** How many problems a message lists; the rest are counted, so a file of a million bad rows still gets a short answer. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * The problems of one uploaded file, thrown together so that one round trip shows what to fix. Keeps only the
 * MAX_LISTED_PROBLEMS earliest by line (problems found after reading, such as duplicates, may come in out of order)
 * and counts the rest.
 */
export class FileProblems {
  private readonly kept: { line: number; message: string }[] = [];
  private total = 0;

  constructor(readonly filename: string) {}

  get count(): number {
    return this.total;
  }

  /** `line` is 1-based (the header is line 1); 0 for a problem of the whole file. */
  add(line: number, message: string): void {
    this.total++;
    const entry = { line, message: line > 0 ? `${this.filename} line ${line}: ${message}` : `${this.filename}: ${message}` };
    if (this.kept.length < MAX_LISTED_PROBLEMS) {
      this.kept.push(entry);
      return;
    }
    let latest = 0;
    for (let i = 1; i < this.kept.length; i++) if (this.kept[i].line > this.kept[latest].line) latest = i;
    if (line < this.kept[latest].line) this.kept[latest] = entry;
  }

  /** The whole report: one problem as it is, several as a count, the first MAX_LISTED_PROBLEMS and how many more. */
  message(): string {
    const shown = [...this.kept].sort((a, b) => a.line - b.line).map((p) => p.message);
    if (this.total === 1) return shown[0];
    const more = this.total > shown.length ? `; and ${this.total - shown.length} more` : '';
    return `${this.filename}: ${this.total} problems, nothing was ingested: ${shown.join('; ')}${more}`;
  }

  throwIfAny(): void {
    if (this.total > 0) throw new BadInput(this.message());
  }
}
