/** The slice of the untyped `vcf` package (a devDependency) that the vCard tests use. */
declare module 'vcf' {
  interface Property {
    /** The raw value: unfolded, but still escaped. */
    valueOf(): string;
  }
  export default class VCard {
    version: string;
    parse(text: string): VCard;
    get(key: string): Property | Property[] | undefined;
  }
}
