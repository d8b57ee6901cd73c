// What the citation engine finds in a text. Offsets here are UTF-16 indices into the scanned string (what
// JavaScript's regexes give); the citation check converts them to code points at its edge (src/citations/run.ts).

/** A subdivision of a § or article, in citing order: Abs. 1, Satz 2, Nr. 3, lit. a, ... */
export interface Subdivision {
  label: 'Abs.' | 'UAbs.' | 'Satz' | 'Halbsatz' | 'Nr.' | 'lit.' | 'Alt.' | 'Var.' | 'Doppelbuchst.' | 'Ziff.' | 'Teilsatz' | 'Fall';
  value: string;
}

export interface StatuteCitation {
  type: 'statute';
  start: number;
  end: number;
  kind: '§' | 'Art.';
  /** '823', '613a' (a letter written apart is joined: '§ 83 b' -> '83b'). */
  number: string;
  subdivisions: Subdivision[];
  /** Further subdivision paths of the same unit that the text stacks ('Abs. 1 Satz 1, Abs. 2 Satz 1'): not findings. */
  stacked: number;
  /** The law's cited abbreviation where the registry knows it ('BGB', 'SGB V', 'DSGVO'), else the law as written. */
  law: string | null;
  /** The law as the text writes it ('des Bürgerlichen Gesetzbuchs', 'SGB 5'); null when no law is written. */
  lawText: string | null;
  /** True when the text names no law for this provision and the law was taken from the citation before it. */
  lawFromContext: boolean;
  /** 'a.F.' (alte Fassung) or 'n.F.' as written after the citation. */
  version: 'a.F.' | 'n.F.' | null;
  /** A year or date that the citation itself names ('§ 64 GmbHG in der bis zum 31.12.2020 geltenden Fassung'). */
  versionDate: string | null;
  /** Canonical form from the registry: '§ 823 Abs. 1 BGB' (the check re-derives it from the corpus law). */
  canonical: string;
}

export interface ReporterCitation {
  /** 'BGHZ', 'NJW', 'BFH/NV', 'SozR 4-4200'. */
  reporter: string;
  /** Volume or year: '132', '2015'. */
  volume: string;
  /** First page, or '§ 22 Nr 88' for SozR. */
  page: string;
  /** 'BGHZ 132, 105' */
  canonical: string;
}

export interface CaseCitation {
  type: 'case';
  start: number;
  end: number;
  /** Canonical short form of the court ('BGH', 'OLG München', 'EuGH'), or null when the text names none. */
  court: string | null;
  /** True when the court was not written but follows from the Registerzeichen (VI ZR -> BGH, 1 BvR -> BVerfG). */
  courtFromRegister: boolean;
  /** 'Urteil', 'Beschluss', ... as written, normalized (Urt. -> Urteil). */
  decisionType: string | null;
  /** 'YYYY-MM-DD' */
  date: string | null;
  /** Aktenzeichen as the court writes it ('VI ZR 496/18', 'B 4 AS 17/20 R', 'C-252/21'); the first when several. */
  aktenzeichen: string | null;
  ecli: string | null;
  /** Reporter citations of the same decision ('BGHZ 132, 105', 'NJW 2015, 1827'). */
  reporters: ReporterCitation[];
  /**
   * 'leitentscheidung' when the text marks the citation as foundational ('grundlegend', 'ständige Rechtsprechung seit');
   * 'back_reference' for a short form repeating a decision cited before ('BGH, aaO', 'ebd.': back-references.ts).
   */
  role: 'leitentscheidung' | 'back_reference' | null;
  /** 'BGH, VI ZR 496/18', an ECLI, or the first reporter citation. */
  canonical: string;
}

export type Citation = StatuteCitation | CaseCitation;
