/** @citation-js/core ships no declarations; the tests read what it parses as CSL-JSON. */
declare module '@citation-js/core' {
  export class Cite {
    constructor(input: string);
    data: Array<Record<string, any>>;
  }
}
